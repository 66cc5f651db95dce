"""The audit log (SPEC §4): every insert, update and status change, who, when, which record, before and after,
each entry chained to the previous one by SHA-256 so that an edited, inserted or removed row shows.

    hash = sha256(prev_hash + canonical_json({at, user_id, username, action, entity, entity_id, before, after}))

`before` and `after` are stored as the canonical JSON text that was hashed. The first entry's prev_hash is
GENESIS. Ordering is safe with several desks: on PostgreSQL a transaction-scoped advisory lock is taken before
the last hash is read (held until commit); on SQLite the write transaction (BEGIN IMMEDIATE) is already
exclusive. Triggers in the database refuse UPDATE and DELETE of audit rows.
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
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from desktop.models import AuditEntry, now
from desktop.services.base import Actor

GENESIS = "0" * 64
AUDIT_LOCK_KEY = 0x41554449  # "AUDI": pg_advisory_xact_lock key of the audit chain
_BATCH = 2000


@dataclass(frozen=True)
class AuditCheck:
    ok: bool
    checked: int
    first_broken_id: int | None
    reason: str


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


def record(session: Session, actor: Actor, action: str, entity: str, entity_id, before=None,
           after=None) -> AuditEntry:
    """Append one entry to the chain inside the caller's transaction (it commits or rolls back with it)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": AUDIT_LOCK_KEY})
    session.flush()
    last = session.execute(select(AuditEntry.hash).order_by(AuditEntry.id.desc()).limit(1)).scalar()
    prev_hash = last or GENESIS
    at = now()
    before_text = None if before is None else canonical_json(before)
    after_text = None if after is None else canonical_json(after)
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


def verify(db) -> AuditCheck:
    """Walk the chain in id order and recompute every hash. Stops at the first broken entry."""
    checked = 0
    prev_hash = GENESIS
    last_id = 0
    with db.session(write=False) as s:
        while True:
            rows = s.execute(
                select(AuditEntry).where(AuditEntry.id > last_id).order_by(AuditEntry.id).limit(_BATCH)
            ).scalars().all()
            if not rows:
                break
            for e in rows:
                if e.prev_hash != prev_hash:
                    return AuditCheck(False, checked, e.id,
                                      f"Entrada {e.id}: o encadeamento com a entrada anterior foi rompido "
                                      "(uma entrada foi removida, inserida ou alterada antes desta).")
                fields = _fields(e.at, e.user_id, e.username, e.action, e.entity, e.entity_id, e.before, e.after)
                if _entry_hash(prev_hash, fields) != e.hash:
                    return AuditCheck(False, checked, e.id,
                                      f"Entrada {e.id}: o conteúdo não confere com o hash gravado "
                                      "(a entrada foi alterada).")
                prev_hash = e.hash
                checked += 1
                last_id = e.id
            s.expunge_all()
    return AuditCheck(True, checked, None, f"Registro de auditoria íntegro: {checked} entradas verificadas.")
