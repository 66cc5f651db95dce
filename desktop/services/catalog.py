"""The infraction catalogue (Art. 25-27; new codes of the regulating decree, Art. 29).

Seeded from `desktop.domain.CATALOG` (the law's table, SPEC §3). The gestor adds codes with their effective date;
a code that some auto already uses is never edited: it is closed (`valid_to`) and replaced by a new version, so an
old auto keeps pointing at the text it was drawn up under.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from sqlalchemy import func, or_, select

from desktop.domain import law
from desktop.domain.penalties import (
    CATALOG,
    InfractionType,
    Severity,
    decree_entry,
    decree_penalties_text,
    decree_penalty_problems,
    normalize_code,
)
from desktop.domain.problems import Problem
from desktop.domain.roles import CATALOG_ROLES
from desktop.errors import ConflictError, NotFound, ValidationError
from desktop.models import Auto, InfractionCode
from desktop.services import audit
from desktop.services.audit import snapshot
from desktop.services.locking import check_version
from desktop.services.permissions import require_role

SEED_VALID_FROM = law.LAW_DATE  # Art. 30: the law is in force since its publication


@dataclass(frozen=True, slots=True)
class CodeInfo:
    id: int
    code: str
    article: str
    description: str
    severity: Severity
    severity_label: str
    upfm: Decimal
    extra_penalty: str
    recurrence_effect: str
    valid_from: date
    valid_to: date | None
    replaced_by_id: int | None
    in_use: bool
    needs_art13_item: bool
    version: int
    penalties: tuple[str, ...] = ()
    """The penalties a decree code names (`Penalty` values, Art. 29); () for the law's codes and fine-only ones."""
    penalties_text: str = ""
    """Those penalties in Portuguese, each with its article (the catalogue's column)."""
    law_code: bool = False

    def in_force(self, on: date) -> bool:
        return self.valid_from <= on and (self.valid_to is None or on <= self.valid_to)

    @property
    def label(self) -> str:
        """"ART26-IV — Embarcar usuário ... (grave, 30 UPFM)" for a combo box."""
        return f"{self.code} — {self.description} ({self.severity_label}, {self.upfm.normalize():f} UPFM)"


@dataclass(frozen=True, slots=True)
class CodeDraft:
    """A catalogue line typed by the gestor. The fine follows the severity (Art. 25)."""

    code: str
    article: str
    description: str
    severity: Severity
    valid_from: date
    extra_penalty: str = ""
    recurrence_effect: str = ""
    penalties: tuple[str, ...] = ()
    """A decree code's penalties (`Penalty` values from `domain.penalties.decree_penalty_kinds`); a law code
    takes none (its penalties are the law's)."""


# ---------------------------------------------------------------------------------------------------------
# Seeding and reading (inside a caller's session)
# ---------------------------------------------------------------------------------------------------------

def ensure_catalog_in(session, actor=None) -> int:
    """Insert the law's codes that have no row yet (idempotent); returns how many were added."""
    present = set(session.scalars(select(InfractionCode.code).distinct()))
    added = 0
    for code, entry in CATALOG.items():
        if code in present:
            continue
        session.add(InfractionCode(
            code=code, article=entry.article, description=entry.description, severity=entry.severity.value,
            upfm=Decimal(entry.upfm), extra_penalty=_text_or_none(entry.penalty_text, "Multa"),
            recurrence_effect=_text_or_none(entry.recurrence_text, "—"), valid_from=SEED_VALID_FROM,
            created_by=getattr(actor, "user_id", None),
        ))
        added += 1
    if added:
        session.flush()
    return added


def _text_or_none(text: str, empty: str) -> str | None:
    return None if text == empty else text


def ensure_catalog(db) -> int:
    """Seed the catalogue from the law (SPEC §3 table) when codes are missing. Safe to call any time: a read
    first, a write transaction only when something is missing."""
    with db.session(write=False) as s:
        present = s.scalar(select(func.count(func.distinct(InfractionCode.code)))
                           .where(InfractionCode.code.in_(list(CATALOG))))
    if present == len(CATALOG):
        return 0
    with db.session() as s:
        return ensure_catalog_in(s)


def needs_art13(code: str) -> bool:
    """The code is Art. 26, III: the auto names the duty of Art. 13 it breaks (incisos I to XXIII)."""
    entry = CATALOG.get(normalize_code(code))
    return bool(entry and entry.needs_art13_item)


def _info(row, in_use: bool) -> CodeInfo:
    severity = Severity(row.severity)
    return CodeInfo(
        id=row.id, code=row.code, article=row.article, description=row.description, severity=severity,
        severity_label=severity.label, upfm=Decimal(row.upfm), extra_penalty=row.extra_penalty or "",
        recurrence_effect=row.recurrence_effect or "", valid_from=row.valid_from, valid_to=row.valid_to,
        replaced_by_id=row.replaced_by_id, in_use=in_use, needs_art13_item=needs_art13(row.code),
        version=row.version, penalties=_penalties_of(row),
        penalties_text=decree_penalties_text(row.article, _penalties_of(row)),
        law_code=normalize_code(row.code) in CATALOG,
    )


def _penalties_of(row) -> tuple[str, ...]:
    return tuple(str(p) for p in (row.penalties or ()))


def _used_ids(session, ids=None) -> set[int]:
    stmt = select(Auto.infraction_code_id).distinct()
    if ids is not None:
        stmt = stmt.where(Auto.infraction_code_id.in_(list(ids)))
    return set(session.scalars(stmt))


def entry_of(row) -> InfractionType:
    """The domain entry of a catalogue row. A law code keeps the law's penalty rules (suspension, cassation,
    seizure) with the row's dates and texts; a decree code proposes the fine of its severity."""
    severity = Severity(row.severity)
    base = CATALOG.get(normalize_code(row.code))
    if base is not None:
        return dataclasses.replace(base, article=row.article, description=row.description, severity=severity,
                                   valid_from=row.valid_from, valid_until=row.valid_to)
    # A decree code: the fine of its severity and the penalties stored with the row (Art. 29; Art. 24, I).
    return decree_entry(row.code, row.article, row.description, severity, _penalties_of(row),
                        valid_from=row.valid_from, valid_until=row.valid_to)


def catalog_entries_in(session) -> dict[str, list[InfractionType]]:
    """Every version of every code, for `domain.assess(..., catalog=...)`."""
    entries: dict[str, list[InfractionType]] = {}
    for row in session.scalars(select(InfractionCode).order_by(InfractionCode.code, InfractionCode.valid_from)):
        entries.setdefault(normalize_code(row.code), []).append(entry_of(row))
    return entries


def code_row_in_force(session, code: str, on: date):
    """The catalogue row of `code` in force on `on`, or None."""
    return session.scalar(
        select(InfractionCode)
        .where(InfractionCode.code == normalize_code(code), InfractionCode.valid_from <= on,
               or_(InfractionCode.valid_to.is_(None), InfractionCode.valid_to >= on))
        .order_by(InfractionCode.valid_from.desc()).limit(1))


# ---------------------------------------------------------------------------------------------------------
# Screens
# ---------------------------------------------------------------------------------------------------------

def list_codes(db, on: date | None = None, include_closed: bool = True) -> list[CodeInfo]:
    """Every catalogue line (by code, then effective date). With `on`, only the lines in force that day."""
    ensure_catalog(db)
    with db.session(write=False) as s:
        return list_codes_in(s, on, include_closed)


def list_codes_in(session, on: date | None = None, include_closed: bool = True) -> list[CodeInfo]:
    """`list_codes` inside the caller's session (the catalogue seeded already: `ensure_catalog_in`)."""
    rows = list(session.scalars(select(InfractionCode).order_by(InfractionCode.code, InfractionCode.valid_from)))
    used = _used_ids(session)
    infos = [_info(r, r.id in used) for r in rows]
    if on is not None:
        infos = [i for i in infos if i.in_force(on)]
    elif not include_closed:
        infos = [i for i in infos if i.valid_to is None]
    return infos


def codes_in_force(db, on: date) -> list[CodeInfo]:
    """The codes a fiscal may choose for an infraction committed on `on` (the auto form's list)."""
    return list_codes(db, on=on)


def _problems(draft: CodeDraft) -> list[Problem]:
    problems: list[Problem] = []
    code = normalize_code(draft.code or "")
    if not code:
        problems.append(Problem("code", "Informe o código da infração.", "Art. 29"))
    elif len(code) > 30:
        problems.append(Problem("code", "O código deve ter no máximo 30 caracteres."))
    if not (draft.article or "").strip():
        problems.append(Problem("article", "Informe o artigo (da Lei ou do Decreto) que tipifica a infração.",
                                "Art. 29"))
    if not (draft.description or "").strip():
        problems.append(Problem("description", "Descreva a infração."))
    try:
        Severity(draft.severity)
    except ValueError:
        problems.append(Problem("severity", "Escolha a gravidade: leve, média, grave ou gravíssima.", "Art. 25"))
    if not isinstance(draft.valid_from, date):
        problems.append(Problem("valid_from", "Informe a data de início da vigência."))
    elif draft.valid_from < law.LAW_DATE:
        problems.append(Problem("valid_from", f"A vigência não pode começar antes da Lei "
                                f"({law.LAW_DATE:%d/%m/%Y}).", "Art. 30"))
    if code:
        problems += decree_penalty_problems(code, draft.penalties or (), law_code=code in CATALOG)
    return problems


def _stored_penalties(draft: CodeDraft) -> list[str] | None:
    """The draft's penalties in the domain's order, as stored (None when the code names none)."""
    entry = decree_entry(draft.code, "", "", Severity(draft.severity), draft.penalties or ())
    return list(entry.decree_penalties) or None


def _new_row(draft: CodeDraft, actor):
    severity = Severity(draft.severity)
    return InfractionCode(
        code=normalize_code(draft.code), article=draft.article.strip(), description=draft.description.strip(),
        severity=severity.value, upfm=Decimal(severity.upfm),
        extra_penalty=(draft.extra_penalty or "").strip() or None,
        recurrence_effect=(draft.recurrence_effect or "").strip() or None,
        penalties=_stored_penalties(draft), valid_from=draft.valid_from, created_by=actor.user_id,
    )


def _overlapping(session, code: str, start: date, exclude_id: int | None = None):
    stmt = select(InfractionCode).where(
        InfractionCode.code == normalize_code(code),
        or_(InfractionCode.valid_to.is_(None), InfractionCode.valid_to >= start))
    if exclude_id is not None:
        stmt = stmt.where(InfractionCode.id != exclude_id)
    return session.scalars(stmt).first()


def add_code_in(session, actor, draft: CodeDraft) -> CodeInfo:
    """`add_code` inside the caller's transaction."""
    require_role(actor, *CATALOG_ROLES.edit)
    problems = _problems(draft)
    if problems:
        raise ValidationError(problems)
    ensure_catalog_in(session)
    clash = _overlapping(session, draft.code, draft.valid_from)
    if clash is not None:
        raise ConflictError(
            f"O código {clash.code} já está em vigor desde {clash.valid_from:%d/%m/%Y}. "
            "Para mudar a sua redação ou gravidade, encerre-o e substitua-o por uma nova versão.")
    row = _new_row(draft, actor)
    session.add(row)
    session.flush()
    audit.record(session, actor, "infraction_code.add", "infraction_code", row.id, None, snapshot(row))
    return _info(row, False)


def add_code(db, actor, draft: CodeDraft) -> CodeInfo:
    """A new catalogue code (Art. 29: codes of the regulating decree). Gestor only."""
    require_role(actor, *CATALOG_ROLES.edit)
    with db.session() as s:
        return add_code_in(s, actor, draft)


def _load(session, code_id: int):
    row = session.get(InfractionCode, code_id)
    if row is None:
        raise NotFound("Código de infração não encontrado.")
    return row


def update_code_in(session, actor, code_id: int, draft: CodeDraft, expected_version: int) -> CodeInfo:
    """`update_code` inside the caller's transaction."""
    require_role(actor, *CATALOG_ROLES.edit)
    problems = _problems(draft)
    if problems:
        raise ValidationError(problems)
    row = _load(session, code_id)
    check_version(row, expected_version)
    if _used_ids(session, [row.id]):
        raise ConflictError(
            f"O código {row.code} já foi usado em autos de infração e não pode ser alterado: "
            "encerre a sua vigência e substitua-o por uma nova versão (Art. 29).")
    if normalize_code(draft.code) != row.code and _overlapping(session, draft.code, draft.valid_from, row.id):
        raise ConflictError(f"O código {normalize_code(draft.code)} já está em vigor nessa data.")
    before = snapshot(row)
    severity = Severity(draft.severity)
    row.code = normalize_code(draft.code)
    row.article = draft.article.strip()
    row.description = draft.description.strip()
    row.severity = severity.value
    row.upfm = Decimal(severity.upfm)
    row.extra_penalty = (draft.extra_penalty or "").strip() or None
    row.recurrence_effect = (draft.recurrence_effect or "").strip() or None
    row.penalties = _stored_penalties(draft)  # no auto uses the row yet (checked above)
    row.valid_from = draft.valid_from
    session.flush()
    audit.record(session, actor, "infraction_code.update", "infraction_code", row.id, before, snapshot(row))
    return _info(row, False)


def update_code(db, actor, code_id: int, draft: CodeDraft, expected_version: int) -> CodeInfo:
    """Correct a code that no auto uses yet. A code in use is never edited (closed and replaced instead)."""
    require_role(actor, *CATALOG_ROLES.edit)
    with db.session() as s:
        return update_code_in(s, actor, code_id, draft, expected_version)


def replace_code_in(session, actor, code_id: int, draft: CodeDraft, expected_version: int) -> CodeInfo:
    """`replace_code` inside the caller's transaction."""
    require_role(actor, *CATALOG_ROLES.edit)
    problems = _problems(draft)
    old = _load(session, code_id)
    check_version(old, expected_version)
    if isinstance(draft.valid_from, date) and draft.valid_from <= old.valid_from:
        problems.append(Problem("valid_from", "A nova versão deve começar depois do início da vigência da "
                                f"atual ({old.valid_from:%d/%m/%Y})."))
    if normalize_code(draft.code or "") != old.code:
        problems.append(Problem("code", f"A substituição mantém o código {old.code}; para outro código, "
                                "cadastre um código novo."))
    if problems:
        raise ValidationError(problems)
    if old.replaced_by_id is not None:
        raise ConflictError(f"Esta versão do código {old.code} já foi substituída.")
    later = _overlapping(session, old.code, draft.valid_from, old.id)
    if later is not None:
        raise ConflictError(f"Já existe uma versão do código {old.code} vigente a partir de "
                            f"{later.valid_from:%d/%m/%Y}.")
    before = snapshot(old)
    new = _new_row(draft, actor)
    session.add(new)
    session.flush()
    old.valid_to = draft.valid_from - timedelta(days=1)
    old.replaced_by_id = new.id
    session.flush()
    audit.record(session, actor, "infraction_code.close", "infraction_code", old.id, before, snapshot(old))
    audit.record(session, actor, "infraction_code.add", "infraction_code", new.id, None, snapshot(new))
    return _info(new, False)


def replace_code(db, actor, code_id: int, draft: CodeDraft, expected_version: int) -> CodeInfo:
    """Close `code_id` the day before `draft.valid_from` and start the new version (Art. 29). Returns the new
    version; the old one keeps serving the autos drawn up under it."""
    require_role(actor, *CATALOG_ROLES.edit)
    with db.session() as s:
        return replace_code_in(s, actor, code_id, draft, expected_version)


def close_code_in(session, actor, code_id: int, valid_to: date, expected_version: int) -> CodeInfo:
    """`close_code` inside the caller's transaction."""
    require_role(actor, *CATALOG_ROLES.edit)
    row = _load(session, code_id)
    check_version(row, expected_version)
    if not isinstance(valid_to, date) or valid_to < row.valid_from:
        raise ValidationError([Problem("valid_to", "O fim da vigência não pode ser anterior ao seu início "
                                       f"({row.valid_from:%d/%m/%Y}).")])
    before = snapshot(row)
    row.valid_to = valid_to
    session.flush()
    audit.record(session, actor, "infraction_code.close", "infraction_code", row.id, before, snapshot(row))
    return _info(row, bool(_used_ids(session, [row.id])))


def close_code(db, actor, code_id: int, valid_to: date, expected_version: int) -> CodeInfo:
    """End a code's vigência on `valid_to` (no auto may use it for a later infraction)."""
    require_role(actor, *CATALOG_ROLES.edit)
    with db.session() as s:
        return close_code_in(s, actor, code_id, valid_to, expected_version)
