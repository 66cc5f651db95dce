"""The audit log (SPEC §4): every insert, update and status change, who, when, which record, before and after,
each entry chained to the previous one by SHA-256 so that an edited, inserted or removed row shows.

    hash = sha256(prev_hash + canonical_json({at, user_id, username, action, entity, entity_id, before, after}))

`before` and `after` are stored as the canonical JSON text that was hashed. The first entry's prev_hash is
GENESIS. Ordering is safe with several desks: on PostgreSQL a transaction-scoped advisory lock is taken before
the last hash is read (held until commit); on SQLite the write transaction (BEGIN IMMEDIATE) is already
exclusive. Triggers in the database refuse UPDATE and DELETE of audit rows.

The chain alone proves nothing against someone who can write the table: a re-chained log is as consistent as
the true one. So the head of the chain (last id, its hash, the count of entries, the day) is signed with the
secretariat's Ed25519 key in a **checkpoint** (issue 11): the routine of the day (`checkpoints.daily_checkpoint`)
and a gestor on demand (`checkpoints.make_checkpoint`), which fetch the key and call `make_checkpoint_in` here. `verify` checks the chain against every stored checkpoint and, with
`against=`, against a published one (the "termo de verificação", `reports/audit_checkpoint.py`), so that
removing the stored checkpoints together with the tail still shows.

Live sessions (issue 11): every write transaction passes here, so `record` re-reads the acting user's active
flag, lock and roles once per transaction (`check_live_actor`) and refuses a deactivated, locked or demoted user.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from decimal import Decimal
from enum import Enum
from typing import Any

from sqlalchemy import inspect as sa_inspect
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from desktop.db import AUDIT_LOCK_HELD, AUDIT_LOCK_KEY, AUDIT_LOCK_SQL  # one lock, defined where sessions begin
from desktop.domain.formatting import short_hash
from desktop.domain.roles import Role
from desktop.models import AuditCheckpoint, AuditEntry, SigningKey, now
from desktop.services.actors import Actor, notify_session_revoked, SessionRevoked, SYSTEM_ACTOR
from desktop.models import User, UserRole
import re
from pathlib import Path
from desktop.models import MunicipalitySettings
from desktop.domain.dates import local_today

CHECKPOINT_PREFIX = "TPAV1"

GENESIS = "0" * 64
_BATCH = 50000


@dataclass(frozen=True)
class AuditCheck:
    """The verdict of `verify`. `problem` names the kind of damage: "" (none), "changed" (an entry's content),
    "removed" (an entry in the middle), "tail_removed" (the newest entries), "rechained" (a stretch rewritten
    with recomputed hashes), "checkpoint_signature" (a checkpoint whose signature fails), "checkpoint_unknown_key",
    "key_not_anchored" (the municipality's key is not one the chain vouches for) or "key_not_vouched" (a key entry
    no hand-over checkpoint of the previous key confirms: issue 25 item 5)."""

    ok: bool
    checked: int
    first_broken_id: int | None
    reason: str
    problem: str = ""
    checkpoints: int = 0


@dataclass(frozen=True)
class Checkpoint:
    """A signed head of the chain. `line` is what is published (message + signature), `short_hash` the 12
    characters printed in the footer of issued documents."""

    id: int | None
    at: datetime
    day: date
    last_id: int
    last_hash: str
    entry_count: int
    key_fingerprint: str
    signature: str
    made_by: str

    @property
    def message(self) -> str:
        return checkpoint_message(self.last_id, self.last_hash, self.entry_count, self.day, self.at,
                                  self.key_fingerprint)

    @property
    def line(self) -> str:
        return self.message + "|" + self.signature

    @property
    def short_hash(self) -> str:
        return short_hash(self.last_hash)


def _plain(value: Any) -> Any:
    """A JSON-ready form with one spelling per value: Decimal and dates as text, sets sorted, bytes hashed."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("Data-hora sem fuso horário no registro de auditoria")
        return value.astimezone(UTC).isoformat()
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, Enum):
        return _plain(value.value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    raise TypeError(f"Valor não serializável no registro de auditoria: {type(value).__name__}")


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 kept: the same value always gives the same text."""
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def snapshot(obj, exclude: tuple[str, ...] = ()) -> dict[str, Any]:
    """The column values of an ORM object, for `before` / `after`. Binary columns appear as their hash; a
    deferred (large) column that is not loaded is left out rather than read from the database."""
    state = sa_inspect(obj)
    result: dict[str, Any] = {}
    for attr in state.mapper.column_attrs:
        key = attr.key
        if key in exclude or (attr.deferred and key in state.unloaded):
            continue
        result[key] = getattr(obj, key)
    return result


def _entry_hash(prev_hash: str, fields: dict[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical_json(fields)).encode("utf-8")).hexdigest()


# The stored fields are already plain (text, int, None): the C encoder alone gives the same canonical text as
# canonical_json, ~4x faster — what makes verifying 1,000,000 entries take seconds instead of minutes.
_PLAIN_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_quote = json.encoder.c_encode_basestring or json.encoder.py_encode_basestring   # ensure_ascii=False spelling


def _json_value(value) -> str:
    """One stored field (text, int or None) as `_PLAIN_ENCODER` spells it."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return _quote(value)
    return _PLAIN_ENCODER.encode(value)


def _sqlite_utc_iso(value) -> str:
    """`at` as SQLite holds it (naive UTC text, 'YYYY-MM-DD HH:MM:SS.ffffff') → `datetime.isoformat()` in UTC,
    without building a datetime (the common shape); anything else goes through datetime."""
    if isinstance(value, str) and len(value) == 26 and value[10] == " " and value[19] == ".":
        micro = value[20:]
        return f"{value[:10]}T{value[11:19]}{'' if micro == '000000' else '.' + micro}+00:00"
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat()


def _pg_utc_iso(value) -> str:
    return value.astimezone(UTC).isoformat()


def _raw_hash(prev_hash: str, at_iso: str, user_id, username, action, entity, entity_id, before, after) -> str:
    """`_stored_entry_hash` for a raw database row: the same canonical text (keys in sorted order) written out
    directly, then one SHA-256 — no dict, no datetime, no ORM row (issue 11: 1,000,000 entries in seconds)."""
    text_ = (f'{{"action":{_json_value(action)},"after":{_json_value(after)},"at":"{at_iso}",'
             f'"before":{_json_value(before)},"entity":{_json_value(entity)},"entity_id":{_json_value(entity_id)},'
             f'"user_id":{_json_value(user_id)},"username":{_json_value(username)}}}')
    return hashlib.sha256((prev_hash + text_).encode("utf-8")).hexdigest()


def _stored_entry_hash(prev_hash: str, e) -> str:
    text_ = _PLAIN_ENCODER.encode({
        "at": e.at.astimezone(UTC).isoformat(), "user_id": e.user_id, "username": e.username,
        "action": e.action, "entity": e.entity, "entity_id": e.entity_id, "before": e.before, "after": e.after,
    })
    return hashlib.sha256((prev_hash + text_).encode("utf-8")).hexdigest()


def _fields(at: datetime, user_id, username, action, entity, entity_id, before, after) -> dict[str, Any]:
    return {
        "at": at.astimezone(UTC).isoformat(),
        "user_id": user_id,
        "username": username,
        "action": action,
        "entity": entity,
        "entity_id": entity_id,
        "before": before,
        "after": after,
    }


def check_live_actor(session: Session, actor: Actor) -> None:
    """Refuse (`SessionRevoked`) when the acting user is, in the database now, inactive, locked or holds fewer
    roles than the session in memory (issue 11: an open window must not outlive a deactivation). Read once per
    transaction; SYSTEM_ACTOR and terminal actors (no user row) pass."""
    if actor.user_id is None:
        return
    seen = session.info.setdefault("desktop_live_actors", set())
    if actor.user_id in seen:
        return

    # One round trip: the user's flags with one row per role held.
    rows = session.execute(select(User.active, User.locked_until, UserRole.role)
                           .outerjoin(UserRole, UserRole.user_id == User.id)
                           .where(User.id == actor.user_id)).all()
    row = rows[0] if rows else None
    message = None
    if row is None or not row.active:
        message = "Seu usuário foi desativado. A sessão foi encerrada: nada foi gravado."
    elif row.locked_until is not None and row.locked_until > now():
        message = "Seu usuário está bloqueado. A sessão foi encerrada: nada foi gravado."
    else:
        held = {Role(r.role) for r in rows if r.role is not None}
        lost = set(actor.roles) - held
        if lost:
            names = ", ".join(sorted(Role(r).label for r in lost))
            message = (f"Seus papéis foram alterados (retirado: {names}). A sessão foi encerrada: nada foi "
                       "gravado. Entre de novo.")
    if message is not None:
        notify_session_revoked(actor, message)
        raise SessionRevoked(message)
    seen.add(actor.user_id)


def lock_chain(session: Session) -> None:
    """Hold the audit chain's lock until the transaction ends (PostgreSQL; SQLite's BEGIN IMMEDIATE is already
    exclusive). A write session took it at its start (`Database.session`, lock order of issue 12 item 19:
    the chain first, then rows), so this costs nothing there; a read session that writes takes it here."""
    if session.info.get(AUDIT_LOCK_HELD) or session.get_bind().dialect.name != "postgresql":
        return
    session.execute(text(AUDIT_LOCK_SQL), {"key": AUDIT_LOCK_KEY})
    session.info[AUDIT_LOCK_HELD] = True


# The keys of an entry that carry a file name chosen outside the program (issue 25 item 10): a name with a CR, a LF
# or another control character is stored escaped (`\x0d`), never raw, so a log line or a screen that shows the
# entry cannot be made to show a forged second line.
FILE_NAME_KEYS = frozenset({"file", "filename", "file_name", "routes_filename", "original_name", "original_filename",
                            "path", "name_of_file"})


def escape_file_names(value):
    """`value` with every file name (FILE_NAME_KEYS, at any depth) escaped: control characters as \\xNN."""
    if isinstance(value, dict):
        return {k: (escaped_name(v) if k in FILE_NAME_KEYS and isinstance(v, str) else escape_file_names(v))
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [escape_file_names(v) for v in value]
    return value


def escaped_name(name: str) -> str:
    """A file name chosen outside the program with its control characters written as \\xNN (a CR/LF cannot forge a
    second line where the name is shown or stored)."""
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}"
                   for ch in name)


def record(session: Session, actor: Actor, action: str, entity: str, entity_id, before=None,
           after=None, *, live_check: bool = True) -> AuditEntry:
    """Append one entry to the chain inside the caller's transaction (it commits or rolls back with it).
    The acting user is re-read first (`check_live_actor`) unless `live_check` is False (the login itself), or the
    entry is about the actor's own user row (a change of one's own password or roles in this transaction)."""
    if live_check and not (entity == "user" and str(entity_id) == str(actor.user_id)):
        check_live_actor(session, actor)
    lock_chain(session)
    session.flush()
    last = session.execute(select(AuditEntry.hash).order_by(AuditEntry.id.desc()).limit(1)).scalar()
    prev_hash = last or GENESIS
    at = now()
    before_text = None if before is None else canonical_json(escape_file_names(before))
    after_text = None if after is None else canonical_json(escape_file_names(after))
    entity_id = "" if entity_id is None else str(entity_id)
    fields = _fields(at, actor.user_id, actor.username, action, entity, entity_id, before_text, after_text)
    entry = AuditEntry(
        at=at, user_id=actor.user_id, username=actor.username, action=action, entity=entity,
        entity_id=entity_id, before=before_text, after=after_text, prev_hash=prev_hash,
        hash=_entry_hash(prev_hash, fields),
    )
    session.add(entry)
    session.flush()
    return entry


# ------------------------------------------------------------------------------------------------- checkpoints

def checkpoint_message(last_id: int, last_hash: str, entry_count: int, day: date, at: datetime,
                       key_fingerprint: str) -> str:
    """The exact text signed: `TPAV1|last id|hash|count|day|moment (UTC)|key fingerprint`."""
    return "|".join((CHECKPOINT_PREFIX, str(int(last_id)), last_hash, str(int(entry_count)), day.isoformat(),
                     at.astimezone(UTC).isoformat(timespec="seconds"), key_fingerprint))


def parse_checkpoint(text: str) -> Checkpoint:
    """A published checkpoint line (or a text holding one) → Checkpoint; `ValueError` in Portuguese."""

    match = re.search(rf"{CHECKPOINT_PREFIX}\|[^\s|]+\|[^\s|]+\|[^\s|]+\|[^\s|]+\|[^\s|]+\|[^\s|]+\|[A-Za-z0-9_-]{{86}}",
                      text or "")
    if match is None:
        raise ValueError("Não há um ponto de verificação assinado (linha TPAV1|...) no texto indicado.")
    parts = match.group(0).split("|")
    try:
        at = datetime.fromisoformat(parts[5])
        if at.tzinfo is None:
            raise ValueError
        return Checkpoint(id=None, at=at, day=date.fromisoformat(parts[4]), last_id=int(parts[1]),
                          last_hash=parts[2], entry_count=int(parts[3]), key_fingerprint=parts[6],
                          signature=parts[7], made_by="publicado")
    except ValueError:
        raise ValueError("O ponto de verificação indicado está ilegível.") from None


def read_published_checkpoint(path) -> Checkpoint:
    """The checkpoint of a published file: the termo PDF (its metadata, else its text) or a text file."""

    data = Path(path).read_bytes()
    if data.startswith(b"%PDF-"):
        import io  # local: imported only on this branch

        from pypdf import PdfReader  # lazy: pypdf loads only when this runs (start-up cost)

        reader = PdfReader(io.BytesIO(data))
        meta = reader.metadata or {}
        for key in ("/Keywords", "/Subject"):
            value = meta.get(key)
            if value and CHECKPOINT_PREFIX in str(value):
                return parse_checkpoint(str(value))
        return parse_checkpoint("".join((page.extract_text() or "") for page in reader.pages).replace("\n", ""))
    return parse_checkpoint(data.decode("utf-8", errors="replace"))


def _checkpoint_of(row: AuditCheckpoint) -> Checkpoint:
    return Checkpoint(id=row.id, at=row.at, day=row.day, last_id=row.last_id, last_hash=row.last_hash,
                      entry_count=row.entry_count, key_fingerprint=row.key_fingerprint, signature=row.signature,
                      made_by=row.made_by)


KEY_ACTIONS = ("signing_key.create", "signing_key.rotate")
HAND_OVER = "hand_over"   # the key of a hand-over checkpoint's entry: {"entry": <rotation entry id>, "key": <new fp>}


@dataclass(frozen=True)
class KeyAnchors:
    """Which public keys the audit chain vouches for (issue 25 item 5), in the order they were anchored.

    `anchored`: fingerprints, the root first (the oldest `signing_key.create`, or in a database set up before those
    entries existed its first key row), then each key a rotation handed over to. `current`: the last anchored key —
    the one that must sign the next hand-over. `unvouched`: (entry id, fingerprint) of every key entry that no
    hand-over checkpoint of the previous key confirms — a forged `signing_key.rotate` appended with a correct chain
    hash, which anyone who can write the table can compute."""

    anchored: tuple[str, ...]
    current: str | None
    unvouched: tuple[tuple[int, str], ...]
    public_keys: dict[str, bytes]   # every stored public key by the fingerprint of its bytes


def _announced_key(after) -> str | None:
    try:
        key = json.loads(after or "{}").get("key")
    except (ValueError, AttributeError):
        return None
    return key if isinstance(key, str) and len(key) == 64 else None


def _stored_public_keys(session: Session) -> dict[str, bytes]:
    """The key table's and the municipality's public keys by the fingerprint of their BYTES — never the fingerprint
    column, which a hand on the table could point at another key."""
    from desktop.signing import fingerprint  # lazy: loads cryptography only when this runs

    keys = {}
    for public in session.scalars(select(SigningKey.public_key).order_by(SigningKey.id)):
        keys.setdefault(fingerprint(bytes(public)), bytes(public))
    current = session.scalar(select(MunicipalitySettings.signing_public_key).where(MunicipalitySettings.id == 1))
    if current:
        keys.setdefault(fingerprint(bytes(current)), bytes(current))
    return keys


def _hand_over_signed(session: Session, entry_id: int, key: str, signer: str, public: bytes | None) -> bool:
    """Whether a checkpoint signed by `signer` hands the secretariat's signature over to `key` for the rotation
    entry `entry_id`: the checkpoint's own entry (after the rotation) names both, its hash recomputed from its content
    is the head the checkpoint signed, and the signature verifies with `signer`'s public key."""
    from desktop.signing import verify_text  # lazy: loads cryptography only when this runs

    if public is None:
        return False
    rows = session.execute(
        select(AuditCheckpoint, AuditEntry.at, AuditEntry.user_id, AuditEntry.username, AuditEntry.action,
               AuditEntry.entity, AuditEntry.entity_id, AuditEntry.before, AuditEntry.after, AuditEntry.prev_hash,
               AuditEntry.hash)
        .join(AuditEntry, AuditEntry.id == AuditCheckpoint.last_id)
        .where(AuditCheckpoint.last_id > entry_id, AuditCheckpoint.key_fingerprint == signer,
               AuditEntry.action == "audit.checkpoint", AuditEntry.after.contains(f'"{HAND_OVER}"'))
        .order_by(AuditCheckpoint.last_id)).all()
    for row in rows:
        try:
            handed = json.loads(row.after or "{}").get(HAND_OVER) or {}
        except (ValueError, AttributeError):
            continue
        if not isinstance(handed, dict) or handed.get("entry") != entry_id or handed.get("key") != key:
            continue
        cp = _checkpoint_of(row.AuditCheckpoint)
        if row.hash != cp.last_hash or _stored_entry_hash(row.prev_hash, row) != cp.last_hash:
            continue
        if verify_text(public, cp.message, cp.signature):
            return True
    return False


def key_anchors_in(session: Session) -> KeyAnchors:
    """The chain of trust of the signing keys (issue 25 item 5). The root is the oldest `signing_key.create` (the
    set-up; in a database set up before those entries existed, its first key row). A later key counts only when a
    **hand-over checkpoint** vouches for it: `setup.rotate_signing_key` writes the `signing_key.rotate` entry and, in
    the same transaction, a checkpoint signed with the key in force until then whose own entry names the rotation
    and the new key. Appending a `signing_key.rotate` entry with a correct chain hash needs no key; signing that
    checkpoint does — so a forged rotation anchors nothing, and the daily routine, which signs the head blindly,
    cannot vouch for one either (its checkpoints carry no hand-over)."""
    from desktop.signing import fingerprint  # lazy: loads cryptography only when this runs

    publics = _stored_public_keys(session)
    entries = [(entry_id, action, _announced_key(after)) for entry_id, action, after in session.execute(
        select(AuditEntry.id, AuditEntry.action, AuditEntry.after)
        # the key entries are the municipality's (entity, entity_id: the index — not a scan of the whole chain at
        # every sticker check); an entry about anything else anchors nothing
        .where(AuditEntry.entity == "municipality", AuditEntry.entity_id == "1", AuditEntry.action.in_(KEY_ACTIONS))
        .order_by(AuditEntry.id))]
    root = next(((i, k) for i, action, k in entries if action == "signing_key.create" and k), None)
    if root is None:
        first = session.scalar(select(SigningKey.public_key).order_by(SigningKey.id).limit(1))
        root = (0, fingerprint(bytes(first))) if first is not None else None
    if root is None:
        return KeyAnchors((), None, tuple((i, k or "") for i, _a, k in entries), publics)
    root_id, current = root
    anchored, unvouched = [current], []
    for entry_id, _action, key in entries:
        if entry_id == root_id:
            continue
        if entry_id > root_id and key and key not in anchored and \
                _hand_over_signed(session, entry_id, key, current, publics.get(current)):
            anchored.append(key)
            current = key
            continue
        unvouched.append((entry_id, key or ""))
    return KeyAnchors(tuple(anchored), current, tuple(unvouched), publics)


def anchored_key_fingerprints(session: Session) -> set[str]:
    """The fingerprints of the public keys the audit chain vouches for (`key_anchors_in`). A key written into the
    tables without going through the program — `UPDATE municipality SET signing_public_key = …`, with or without a
    forged `signing_key.rotate` entry — is not among them, and is refused by the sticker check and `audit verify`."""
    return set(key_anchors_in(session).anchored)


def current_key_problem_in(session: Session) -> str | None:
    """Why the municipality's current public key must not be trusted (not anchored in the audit chain), or None."""
    from desktop.signing import fingerprint  # lazy: loads cryptography only when this runs

    current = session.scalar(select(MunicipalitySettings.signing_public_key).where(MunicipalitySettings.id == 1))
    if not current:
        return None
    fp = fingerprint(bytes(current))
    anchors = key_anchors_in(session)
    if fp == anchors.current:   # the key in force; a retired one still verifies old checkpoints, signs no sticker
        return None
    if fp in anchors.anchored:
        return (f"A chave pública de assinatura do município ({fp[:16]}…) é uma chave antiga, substituída na "
                f"auditoria pela chave {anchors.current[:16]}…: foi recolocada fora do programa. Nenhum adesivo é "
                "conferido com ela; avise o gestor, que deve restaurar a chave em vigor.")
    announced = [entry_id for entry_id, key in anchors.unvouched if key == fp]
    if announced:
        return (f"A chave pública de assinatura do município ({fp[:16]}…) é anunciada na entrada nº {announced[0]} "
                "do registro de auditoria, mas nenhum ponto de verificação assinado pela chave anterior confirma "
                "essa troca (entrada forjada, ou troca feita fora do programa). Nenhum adesivo é conferido com ela; "
                "avise o gestor, que deve restaurar a chave verdadeira (audit rotate-key na estação que a guarda).")
    return (f"A chave pública de assinatura do município ({fp[:16]}…) não está registrada no registro de auditoria: "
            "foi gravada fora do programa (troca de chave sem auditoria). Nenhum adesivo é conferido com ela; avise "
            "o gestor, que deve restaurar a chave verdadeira (setup-server ou audit rotate-key com o papel dono).")


def unvouched_key_problem(anchors: KeyAnchors) -> tuple[int, str] | None:
    """(entry id, the report's sentence) of the first key entry no hand-over vouches for, or None."""
    if not anchors.unvouched:
        return None
    entry_id, key = anchors.unvouched[0]
    named = f"a chave {key[:16]}…" if key else "uma chave"
    return entry_id, (f"Entrada {entry_id}: anuncia {named} de assinatura, mas nenhum ponto de verificação "
                      "assinado pela chave anterior confirma a troca (a entrada foi forjada, ou a troca feita fora "
                      "do programa): essa chave não é aceita nos adesivos nem nos pontos de verificação.")


def public_keys_in(session: Session, anchors: KeyAnchors | None = None) -> dict[str, bytes]:
    """Every public key of the secretariat by fingerprint (the key table and the municipality's current one) that
    the audit chain vouches for (`key_anchors_in`): a checkpoint signed by any other key is refused."""
    anchors = anchors or key_anchors_in(session)
    return {fp: public for fp, public in anchors.public_keys.items() if fp in anchors.anchored}


def make_checkpoint_in(session: Session, actor: Actor, private_key: bytes, today: date | None = None,
                       reason: str = "sob demanda", hand_over: dict | None = None) -> Checkpoint:
    """Sign the head of the chain inside the caller's transaction. The checkpoint's own audit entry is written
    first, so the signed head covers it. `hand_over` ({"entry": id, "key": fingerprint}): the key rotation this
    checkpoint vouches for (`key_anchors_in`), signed with the key it replaces."""
    from desktop.signing import fingerprint, public_key_of, sign_text  # lazy: loads cryptography only when this runs

    day = today or local_today()
    key_fp = fingerprint(public_key_of(private_key))
    after = {"day": day.isoformat(), "reason": reason, "key": key_fp[:16]}
    if hand_over is not None:
        after[HAND_OVER] = {"entry": int(hand_over["entry"]), "key": str(hand_over["key"])}
    covered = _segment_hashes(session)
    if covered is not None:
        after["hashes"] = covered
    entry = record(session, actor, "audit.checkpoint", "audit", "", None, after)
    count = session.scalar(select(func.count()).select_from(AuditEntry).where(AuditEntry.id <= entry.id))
    at = now().replace(microsecond=0)
    message = checkpoint_message(entry.id, entry.hash, count, day, at, key_fp)
    row = AuditCheckpoint(at=at, day=day, last_id=entry.id, last_hash=entry.hash, entry_count=count,
                          key_fingerprint=key_fp, message=message, signature=sign_text(private_key, message),
                          made_by=actor.username, user_id=actor.user_id)
    session.add(row)
    session.flush()
    return _checkpoint_of(row)


# Issue 25 item 10: where a re-chain began. The checkpoint's own audit entry carries the short hashes of the entries
# it closes (those after the previous checkpoint, at most SEGMENT_CAP of them) and the full hash of the entry before
# it. Its signed head covers that entry, so `verify` can tell whether the list is the one that was signed
# (recomputing the entry's hash from the listed previous hash) and, when a stretch was re-chained, name the first
# entry whose hash is no longer the one listed — instead of only the range since the previous checkpoint.
SEGMENT_CAP = 7_000       # 12 hex characters each: under the free-text limit of a column (domain/limits.py)
SHORT = 12


def _segment_hashes(session: Session) -> dict | None:
    previous = session.scalar(select(func.max(AuditCheckpoint.last_id))) or 0
    rows = session.execute(select(AuditEntry.id, AuditEntry.hash).where(AuditEntry.id > previous)
                           .order_by(AuditEntry.id.desc()).limit(SEGMENT_CAP)).all()
    if not rows:
        return None
    rows.reverse()
    return {"first": rows[0][0], "prev": rows[-1][1], "h12": "".join(h[:SHORT] for _id, h in rows)}


def _signed_segment(session: Session, cp: Checkpoint) -> tuple[int, str] | None:
    """(first id, the short hashes) of the entries the checkpoint's own entry lists, when that entry is the one the
    checkpoint signed (its hash recomputed from the listed previous hash is the signed head); else None."""
    row = session.execute(select(AuditEntry.at, AuditEntry.user_id, AuditEntry.username, AuditEntry.action,
                                 AuditEntry.entity, AuditEntry.entity_id, AuditEntry.before, AuditEntry.after)
                          .where(AuditEntry.id == cp.last_id)).first()
    if row is None or row.action != "audit.checkpoint":
        return None
    try:
        listed = json.loads(row.after or "{}").get("hashes") or {}
        first, prev, short = int(listed["first"]), str(listed["prev"]), str(listed["h12"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if _stored_entry_hash(prev, row) != cp.last_hash or not short.endswith(prev[:SHORT]):
        return None
    return first, short


def latest_checkpoint_in(session: Session) -> Checkpoint | None:
    row = session.scalar(select(AuditCheckpoint).order_by(AuditCheckpoint.id.desc()).limit(1))
    return None if row is None else _checkpoint_of(row)


def latest_checkpoint(db) -> Checkpoint | None:
    with db.session(write=False) as s:
        return latest_checkpoint_in(s)


def latest_checkpoint_short_hash(session: Session) -> str | None:
    """For the footer of every issued document: the short hash of the newest signed checkpoint, or None."""
    last = session.scalar(select(AuditCheckpoint.last_hash).order_by(AuditCheckpoint.id.desc()).limit(1))
    return None if last is None else short_hash(last)


# ------------------------------------------------------------------------------------------------------ verify

def _segment_for(session: Session, cps: list[Checkpoint]):
    """The signed list of the segment that ends at these checkpoints' head (see `_signed_segment`), with its
    reading position, or None."""
    for cp in cps:
        listed = _signed_segment(session, cp)
        if listed is not None:
            return listed[0], listed[1], 0
    return None


def _fail(problem: str, checked: int, first_id: int | None, reason: str, checkpoints: int) -> AuditCheck:
    return AuditCheck(False, checked, first_id, reason, problem, checkpoints)


def _where(cp: Checkpoint) -> str:
    source = "publicado" if cp.id is None else f"nº {cp.id}"
    return f"o ponto de verificação {source}, de {cp.day:%d/%m/%Y}"


class _RawEntry:
    """One audit row as the driver gave it (`at_iso`: its moment as the hashed text)."""

    __slots__ = ("id", "at_iso", "user_id", "username", "action", "entity", "entity_id", "before", "after",
                 "prev_hash", "hash")


_RAW_COLUMNS = "id, at, user_id, username, action, entity, entity_id, before, after, prev_hash, hash"


def _raw_entries(session: Session):
    """Every audit row in id order, straight from the DBAPI cursor in keyset pages of `_BATCH` (bounded memory
    on both databases; no ORM, no type processing). Yields the same `_RawEntry` object again and again."""
    postgres = session.get_bind().dialect.name == "postgresql"
    to_iso = _pg_utc_iso if postgres else _sqlite_utc_iso
    mark = "%s" if postgres else "?"
    sql = (f"SELECT {_RAW_COLUMNS} FROM audit_entries WHERE id > {mark} ORDER BY id LIMIT {_BATCH}")
    cursor = session.connection().connection.cursor()
    entry = _RawEntry()
    last_id = 0
    try:
        while True:
            cursor.execute(sql, (last_id,))
            rows = cursor.fetchall()
            if not rows:
                return
            for (entry.id, at, entry.user_id, entry.username, entry.action, entry.entity, entry.entity_id,
                 entry.before, entry.after, entry.prev_hash, entry.hash) in rows:
                entry.at_iso = to_iso(at)
                yield entry
            last_id = rows[-1][0]
    finally:
        cursor.close()


def verify(db, against: Checkpoint | None = None) -> AuditCheck:
    """Walk the chain in id order, recompute every hash, and hold it against every stored checkpoint (and
    `against`, a published one). Stops at the first problem and names its id."""
    with db.session(write=False) as s:
        anchors = key_anchors_in(s)
        keys = public_keys_in(s, anchors)
        stored = [_checkpoint_of(r) for r in s.scalars(select(AuditCheckpoint).order_by(AuditCheckpoint.id))]
        checkpoints = stored + ([against] if against is not None else [])
        key_problem = current_key_problem_in(s)
        if key_problem is not None:   # issue 25 item 5: the sticker key swapped behind the program's back
            return _fail("key_not_anchored", 0, None, key_problem, len(checkpoints))
        forged_key = unvouched_key_problem(anchors)
        if forged_key is not None:    # a key entry no hand-over of the previous key vouches for
            return _fail("key_not_vouched", 0, forged_key[0], forged_key[1], len(checkpoints))
        for cp in checkpoints:
            key = keys.get(cp.key_fingerprint)
            if key is None:
                return _fail("checkpoint_unknown_key", 0, cp.last_id,
                             f"{_where(cp).capitalize()} foi assinado por uma chave que não é da secretaria "
                             f"({cp.key_fingerprint[:16]}…).", len(checkpoints))
            from desktop.signing import verify_text  # lazy: loads cryptography only when this runs

            if not verify_text(key, cp.message, cp.signature):
                return _fail("checkpoint_signature", 0, cp.last_id,
                             f"A assinatura d{_where(cp)[1:]} não confere: o ponto de verificação foi alterado "
                             "ou forjado.", len(checkpoints))
        targets: dict[int, list[Checkpoint]] = {}
        for cp in checkpoints:
            targets.setdefault(cp.last_id, []).append(cp)
        pending = sorted(targets)
        next_target = 0   # index into pending
        confirmed_id = 0  # last id confirmed by a checkpoint
        checked = 0
        prev_hash = GENESIS
        last_id = 0
        segment = None    # (first id, short hashes, position) the next checkpoint's own entry lists, when signed
        diverged = None   # the first entry of this segment whose hash is not the listed one
        if pending:
            segment = _segment_for(s, targets[pending[0]])
        for e in _raw_entries(s):
            if next_target < len(pending) and pending[next_target] < e.id:
                cp = targets[pending[next_target]][0]
                return _fail("removed", checked, cp.last_id,
                             f"Entrada {cp.last_id}: foi removida e as seguintes reencadeadas — {_where(cp)} "
                             f"termina nela, e ela não existe mais.", len(checkpoints))
            if e.prev_hash != prev_hash:
                return _fail("removed", checked, e.id,
                             f"Entrada {e.id}: o encadeamento com a entrada anterior (nº {last_id}) foi "
                             "rompido: uma entrada entre elas foi removida (ou inserida, ou a anterior "
                             "alterada).", len(checkpoints))
            if _raw_hash(prev_hash, e.at_iso, e.user_id, e.username, e.action, e.entity, e.entity_id,
                         e.before, e.after) != e.hash:
                return _fail("changed", checked, e.id,
                             f"Entrada {e.id}: o conteúdo não confere com o hash gravado (a entrada foi "
                             "alterada).", len(checkpoints))
            if segment is not None and diverged is None and e.id >= segment[0] and e.id < pending[next_target]:
                position = segment[2]
                if e.hash[:SHORT] != segment[1][position:position + SHORT]:
                    diverged = e.id
                segment = (segment[0], segment[1], position + SHORT)
            prev_hash = e.hash
            checked += 1
            last_id = e.id
            if next_target < len(pending) and pending[next_target] == e.id:
                for cp in targets[e.id]:
                    if cp.last_hash != e.hash or cp.entry_count != checked:
                        first = s.scalar(select(func.min(AuditEntry.id)).where(AuditEntry.id > confirmed_id))
                        reason = (f"Trecho reencadeado: as entradas da nº {first} à nº {e.id} não são as "
                                  f"que {_where(cp)} assinou ({cp.entry_count} entradas até a nº "
                                  f"{cp.last_id}, hash {short_hash(cp.last_hash)}; o registro tem "
                                  f"{checked}, hash {short_hash(e.hash)}).")
                        if diverged is not None:   # issue 25 item 10: the entry where the re-chain began
                            reason = (f"Entrada {diverged}: é a primeira cujo conteúdo não confere com o que "
                                      f"{_where(cp)} assinou (a entrada foi alterada, removida ou inserida ali, e "
                                      f"as seguintes reencadeadas até a nº {e.id}).")
                            first = diverged
                        return _fail("rechained", checked, first, reason, len(checkpoints))
                confirmed_id = e.id
                next_target += 1
                diverged = None
                segment = _segment_for(s, targets[pending[next_target]]) if next_target < len(pending) else None
        if next_target < len(pending):
            cp = targets[pending[next_target]][0]
            return _fail("tail_removed", checked, last_id + 1,
                         f"O final do registro foi removido: {_where(cp)} assinou {cp.entry_count} entradas até a "
                         f"nº {cp.last_id}, e o registro termina na nº {last_id} ({checked} entradas).",
                         len(checkpoints))
    reason = f"Registro de auditoria íntegro: {checked} entradas verificadas"
    if checkpoints:
        newest = max(checkpoints, key=lambda c: c.last_id)
        reason += (f", conferidas com {len(checkpoints)} ponto(s) de verificação assinado(s) (o mais recente, de "
                   f"{newest.day:%d/%m/%Y}, cobre até a entrada nº {newest.last_id}).")
    else:
        reason += "; nenhum ponto de verificação assinado: sem âncora, um registro reencadeado não apareceria."
    return AuditCheck(True, checked, None, reason, "", len(checkpoints))
