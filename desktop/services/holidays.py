"""Municipal holidays and pontos facultativos (SPEC §3 "Business day"): the office's own list, which together
with the national and Mato Grosso holidays of the `holidays` package decides every legal deadline.

An entry is never deleted: removing it deactivates it with a reason (audited), so a deadline computed last month
can still be explained.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from desktop.domain.problems import Problem
from desktop.domain.roles import HOLIDAY_ROLES
from desktop.errors import ConflictError, NotFound, ValidationError
from sqlalchemy import select
from desktop.models.admin import Holiday
from desktop.domain import BusinessCalendar

KINDS = {"municipal": "Feriado municipal", "ponto_facultativo": "Ponto facultativo"}
EDITOR_ROLES = HOLIDAY_ROLES.edit


@dataclass(frozen=True, slots=True)
class HolidayInfo:
    id: int
    day: date
    name: str
    kind: str
    active: bool
    removed_reason: str | None = None
    version: int = 1

    @property
    def kind_label(self) -> str:
        return KINDS.get(self.kind, self.kind)


def _info(row) -> HolidayInfo:
    return HolidayInfo(row.id, row.day, row.name, row.kind, row.active, row.removed_reason, row.version)


def list_holidays(db, year: int | None = None, include_inactive: bool = True) -> list[HolidayInfo]:

    stmt = select(Holiday).order_by(Holiday.day, Holiday.id)
    if year is not None:
        stmt = stmt.where(Holiday.day >= date(year, 1, 1), Holiday.day <= date(year, 12, 31))
    if not include_inactive:
        stmt = stmt.where(Holiday.active.is_(True))
    with db.session(write=False) as s:
        return [_info(h) for h in s.scalars(stmt)]


def add_holiday_in(session, actor, day: date, name: str, kind: str = "municipal") -> HolidayInfo:

    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)
    from desktop.services.permissions import require_role  # lazy: SQLAlchemy loads once the database is used (start-up)

    require_role(actor, *EDITOR_ROLES)
    problems: list[Problem] = []
    if not isinstance(day, date):
        problems.append(Problem("day", "Informe a data do feriado."))
    elif not 2000 <= day.year <= 2999:
        problems.append(Problem("day", "Data fora do intervalo aceito (2000–2999)."))
    name = (name or "").strip()
    if not name:
        problems.append(Problem("name", "Informe o nome do feriado (ex.: Aniversário do Município)."))
    elif len(name) > 120:
        problems.append(Problem("name", "O nome deve ter no máximo 120 caracteres."))
    if kind not in KINDS:
        problems.append(Problem("kind", "Escolha o tipo: feriado municipal ou ponto facultativo."))
    if problems:
        raise ValidationError(problems)
    clash = session.scalar(select(Holiday).where(Holiday.day == day, Holiday.active.is_(True)))
    if clash is not None:
        raise ConflictError(f"Já existe um feriado ativo em {day:%d/%m/%Y}: {clash.name}.")
    row = Holiday(day=day, name=name, kind=kind, active=True)
    session.add(row)
    session.flush()
    audit.record(session, actor, "holiday.add", "holiday", str(row.id), None,
                 {"day": day.isoformat(), "name": name, "kind": kind})
    return _info(row)


def add_holiday(db, actor, day: date, name: str, kind: str = "municipal") -> HolidayInfo:
    with db.session() as s:
        return add_holiday_in(s, actor, day, name, kind)


def remove_holiday_in(session, actor, id: int, reason: str) -> HolidayInfo:  # noqa: A002 - contract name
    """Same as `remove_holiday` inside the transaction the caller opened
    (the role check and the audit record included)."""
    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)
    from desktop.services.permissions import require_role  # lazy: SQLAlchemy loads once the database is used (start-up)

    require_role(actor, *EDITOR_ROLES)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError([Problem("reason", "Informe o motivo da exclusão do feriado.")])
    row = session.get(Holiday, id)
    if row is None:
        raise NotFound(f"Feriado nº {id} não encontrado.")
    if not row.active:
        raise ConflictError(f"O feriado de {row.day:%d/%m/%Y} já foi excluído.")
    row.active = False
    row.removed_reason = reason
    session.flush()
    audit.record(session, actor, "holiday.remove", "holiday", str(row.id),
                 {"day": row.day.isoformat(), "name": row.name, "active": True},
                 {"active": False, "reason": reason})
    return _info(row)


def remove_holiday(db, actor, id: int, reason: str) -> HolidayInfo:  # noqa: A002 - contract name
    """Deactivate a holiday, with the reason (the row stays, for the history of deadlines)."""
    with db.session() as s:
        return remove_holiday_in(s, actor, id, reason)


def municipal_holidays(session) -> dict[date, str]:
    """{day: name} of the active entries, inside a session another service opened."""

    return {d: n for d, n in session.execute(
        select(Holiday.day, Holiday.name).where(Holiday.active.is_(True)).order_by(Holiday.day))}


def calendar_in(session):

    return BusinessCalendar(municipal_holidays=municipal_holidays(session))


def calendar(db):
    """The office's business-day calendar: national + MT holidays plus the active municipal entries."""
    with db.session(write=False) as s:
        return calendar_in(s)
