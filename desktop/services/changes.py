"""Change communications (Art. 13 XVIII): a change of the driver's or the vehicle's data must be communicated
within 7 days (SPEC §3 deadline rule). Each is recorded with the day it happened and the day it was communicated;
the late ones are offered to the fiscal as an Art. 26 III infraction."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from desktop.domain import data_change_notice_deadline, format_date, format_plate, local_today
from desktop.domain.problems import Problem
from desktop.domain.roles import Role
from desktop.errors import ValidationError
from desktop.models import ChangeCommunication, Driver, Vehicle
from desktop.services import audit
from desktop.services.base import Actor, require_role
from desktop.services.holidays import calendar_in
from desktop.services.search import FRONT_DESK, get_or_404, require_reader, user_names

__all__ = ["ChangeDraft", "ChangeInfo", "validate_change", "record_change", "list_changes", "late_changes"]

ARTICLE = "Art. 13, XVIII"


@dataclass(frozen=True, slots=True)
class ChangeDraft:
    what_changed: str
    happened_on: date
    communicated_on: date
    driver_id: int | None = None
    vehicle_id: int | None = None


@dataclass(frozen=True, slots=True)
class ChangeInfo:
    id: int
    driver_id: int | None
    driver_name: str | None
    vehicle_id: int | None
    plate_display: str | None
    what_changed: str
    happened_on: date
    communicated_on: date
    deadline: date
    late: bool
    recorded_by_name: str
    created_at: datetime
    auto_id: int | None

    @property
    def late_text(self) -> str:
        if not self.late:
            return "No prazo"
        return f"Fora do prazo (vencia em {format_date(self.deadline)}; {ARTICLE})"


def validate_change(draft: ChangeDraft, today: date | None = None) -> list[Problem]:
    today = today or local_today()
    problems: list[Problem] = []
    if draft.driver_id is None and draft.vehicle_id is None:
        problems.append(Problem("driver_id", "Informe o condutor ou o veículo cuja informação mudou.", ARTICLE))
    if not (draft.what_changed or "").strip():
        problems.append(Problem("what_changed", "Descreva o que mudou.", ARTICLE))
    if draft.happened_on is None:
        problems.append(Problem("happened_on", "Informe a data da alteração.", ARTICLE))
    if draft.communicated_on is None:
        problems.append(Problem("communicated_on", "Informe a data da comunicação.", ARTICLE))
    if draft.happened_on and draft.communicated_on and draft.communicated_on < draft.happened_on:
        problems.append(Problem("communicated_on", "A comunicação não pode ser anterior à alteração.", ARTICLE))
    if draft.communicated_on and draft.communicated_on > today:
        problems.append(Problem("communicated_on", "A data da comunicação não pode ser futura."))
    return problems


def _infos(session: Session, rows) -> tuple[ChangeInfo, ...]:
    rows = list(rows)
    if not rows:
        return ()
    calendar = calendar_in(session)
    names = user_names(session, (r.recorded_by for r in rows))
    driver_ids = {r.driver_id for r in rows if r.driver_id}
    vehicle_ids = {r.vehicle_id for r in rows if r.vehicle_id}
    drivers = dict(session.execute(select(Driver.id, Driver.name).where(Driver.id.in_(driver_ids))).all()) \
        if driver_ids else {}
    plates = dict(session.execute(select(Vehicle.id, Vehicle.plate).where(Vehicle.id.in_(vehicle_ids))).all()) \
        if vehicle_ids else {}
    result = []
    for r in rows:
        deadline = data_change_notice_deadline(r.happened_on, calendar)
        result.append(ChangeInfo(
            id=r.id, driver_id=r.driver_id, driver_name=drivers.get(r.driver_id),
            vehicle_id=r.vehicle_id, plate_display=format_plate(plates[r.vehicle_id]) if r.vehicle_id in plates else None,
            what_changed=r.what_changed, happened_on=r.happened_on, communicated_on=r.communicated_on,
            deadline=deadline, late=r.communicated_on > deadline,
            recorded_by_name=names.get(r.recorded_by, "") if r.recorded_by else "", created_at=r.created_at,
            auto_id=r.auto_id,
        ))
    return tuple(result)


def changes_of(session: Session, *, driver_id: int | None = None, vehicle_id: int | None = None
               ) -> tuple[ChangeInfo, ...]:
    stmt = select(ChangeCommunication)
    if driver_id is not None:
        stmt = stmt.where(ChangeCommunication.driver_id == driver_id)
    if vehicle_id is not None:
        stmt = stmt.where(ChangeCommunication.vehicle_id == vehicle_id)
    return _infos(session, session.execute(stmt.order_by(ChangeCommunication.happened_on.desc(),
                                                         ChangeCommunication.id.desc())).scalars())


def record_change(db, actor: Actor, draft: ChangeDraft) -> ChangeInfo:
    """Record a communicated change; whether it was late is computed (Art. 13 XVIII: 7 days)."""
    require_role(actor, *FRONT_DESK)
    problems = validate_change(draft)
    if problems:
        raise ValidationError(problems)
    with db.session() as s:
        if draft.driver_id is not None:
            get_or_404(s, Driver, draft.driver_id, "Condutor")
        if draft.vehicle_id is not None:
            get_or_404(s, Vehicle, draft.vehicle_id, "Veículo")
        row = ChangeCommunication(driver_id=draft.driver_id, vehicle_id=draft.vehicle_id,
                                  what_changed=draft.what_changed.strip(), happened_on=draft.happened_on,
                                  communicated_on=draft.communicated_on, recorded_by=actor.user_id)
        s.add(row)
        s.flush()
        info = _infos(s, [row])[0]
        after = {**audit.snapshot(row, exclude=("created_at",)), "late": info.late, "deadline": info.deadline}
        audit.record(s, actor, "change.record", "change_communication", row.id, None, after)
        for entity, ident in (("driver", draft.driver_id), ("vehicle", draft.vehicle_id)):
            if ident is not None:
                audit.record(s, actor, "change.record", entity, ident, None,
                             {"what_changed": row.what_changed, "late": info.late})
        return info


def list_changes(db, actor: Actor, driver_id: int | None = None, vehicle_id: int | None = None) -> list[ChangeInfo]:
    require_reader(actor)
    with db.session(write=False) as s:
        return list(changes_of(s, driver_id=driver_id, vehicle_id=vehicle_id))


def late_changes(db, actor: Actor, include_with_auto: bool = False) -> list[ChangeInfo]:
    """The late communications, oldest first, for the fiscal to draw up an Art. 26 III auto."""
    require_role(actor, Role.FISCAL, Role.GESTOR)
    with db.session(write=False) as s:
        stmt = select(ChangeCommunication)
        if not include_with_auto:
            stmt = stmt.where(ChangeCommunication.auto_id.is_(None))
        infos = _infos(s, s.execute(stmt.order_by(ChangeCommunication.happened_on, ChangeCommunication.id)).scalars())
        return [i for i in infos if i.late]
