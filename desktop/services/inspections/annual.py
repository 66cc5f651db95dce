"""Annual scheduling (Art. 16, caput): the active authorizations whose yearly inspection falls due by a month,
and the bulk filling of the inspectors' free slots with them (one transaction, one audit entry), also as the
background job of the screen (desktop.background)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from desktop.domain import AuthorizationStatus, format_plate
from desktop.domain.inspection import InspectionKind
from desktop.domain.problems import Problem
from desktop.domain.scheduling import annual_due_on, fill_slots, free_slots, is_due_by
from desktop.errors import ConflictError, ValidationError
from desktop.models import Authorization, Driver, Inspection, Vehicle
from desktop.models.types import now
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.dashboard_queries import authorization_condition, window
from desktop.services.holidays import calendar_in
from desktop.services.inspections.common import (
    LIVE,
    SCHEDULED,
    SCHEDULERS,
    AnnualDue,
    BulkResult,
    day_bounds,
    slots,
    today,
)
from desktop.services.permissions import require_reader

_ACTIVE = AuthorizationStatus.ACTIVE.value
_YEARLY = (InspectionKind.ANNUAL.value, InspectionKind.EXTRAORDINARY.value)


def annual_due_in(s: Session, actor: Actor, year: int, month: int, include_booked: bool = False) -> list[AnnualDue]:
    """The active authorizations whose annual inspection falls due by (year, month): one year after the last
    approved inspection (`inspection_approved_on`, or the activation when it was waived; Art. 16, caput), the
    overdue ones too; without those already booked for one."""
    require_reader(actor)
    booked = set() if include_booked else set(s.scalars(select(Inspection.authorization_id).where(
        Inspection.status.in_(LIVE), Inspection.kind.in_(_YEARLY))))
    rows = s.execute(select(Authorization.id, Authorization.number, Authorization.vehicle_id,
                            Authorization.inspection_approved_on, Authorization.activated_on, Vehicle.plate,
                            Driver.name)
                     .join(Vehicle, Vehicle.id == Authorization.vehicle_id)
                     .join(Driver, Driver.id == Authorization.driver_id)
                     .where(Authorization.status == _ACTIVE)).all()
    first_of_month = date(year, month, 1)
    out = []
    for aid, number, vid, approved_on, activated_on, plate, name in rows:
        if aid in booked:
            continue
        last = approved_on or activated_on  # the last approval (record_inspection_result keeps it current)
        if last is None or not is_due_by(last, year, month):
            continue
        due = annual_due_on(last)
        out.append(AnnualDue(aid, number or "", vid, format_plate(plate), name, last, due, due < first_of_month))
    out.sort(key=lambda d: (d.due_on, d.plate_display))
    return out


def annual_due_count_in(s: Session, actor: Actor, on: date | None = None) -> int:
    """How many rows `annual_due_in(on.year, on.month)` lists (unbooked; a SQL COUNT for the home dashboard)."""
    require_reader(actor)
    condition = authorization_condition("annual_due", window(on or today(), calendar_in(s)))
    return int(s.scalar(select(func.count(Authorization.id)).where(condition)) or 0)


def annual_due(db, actor: Actor, year: int, month: int, include_booked: bool = False) -> list[AnnualDue]:
    """See annual_due_in."""
    with db.session(write=False) as s:
        return annual_due_in(s, actor, year, month, include_booked)


def schedule_annual_in(s: Session, actor: Actor, authorization_ids: Sequence[int], first: date, last: date,
                       progress: Callable[[int, int, str], None] | None = None,
                       cancelled: Callable[[], bool] | None = None) -> BulkResult:
    """Bulk scheduling: the annual inspections of `authorization_ids` (in order) into the free slots from
    `first` to `last` (Art. 16, caput), one audit entry. Authorizations not active or already booked are skipped
    (counted in `left`)."""
    require_role(actor, *SCHEDULERS)
    if last < first:
        raise ValidationError([Problem("last", "O fim do período deve ser depois do início.")])
    first = max(first, today())
    if progress:
        progress(0, 3, "Lendo a agenda dos vistoriadores…")
    period = slots(s, first, last)
    lo, hi = day_bounds(first, last)
    taken = s.execute(select(Inspection.inspector_id, Inspection.scheduled_start).where(
        Inspection.status.in_(LIVE), Inspection.scheduled_start >= lo, Inspection.scheduled_start < hi)).all()
    free = free_slots(period, [(i, st) for i, st in taken])
    wanted = list(dict.fromkeys(authorization_ids))
    live = set()
    vehicles: dict[int, int] = {}
    for chunk in range(0, len(wanted), 900):
        part = wanted[chunk:chunk + 900]
        vehicles.update(s.execute(select(Authorization.id, Authorization.vehicle_id).where(
            Authorization.id.in_(part), Authorization.status == _ACTIVE)).all())
        live.update(s.scalars(select(Inspection.authorization_id).where(
            Inspection.authorization_id.in_(part), Inspection.status.in_(LIVE))))
    eligible = [a for a in wanted if a in vehicles and a not in live]
    skipped = [a for a in wanted if a not in vehicles or a in live]
    if cancelled and cancelled():
        raise ConflictError("Agendamento em lote cancelado: nada foi gravado.")
    pairs, left = fill_slots(eligible, free)
    if progress:
        progress(1, 3, f"Gravando {len(pairs)} vistorias…")
    created = now()
    rows = [dict(kind=InspectionKind.ANNUAL.value, vehicle_id=vehicles[aid], authorization_id=aid,
                 inspector_id=slot.inspector_id, place_id=slot.place_id, scheduled_start=slot.start,
                 scheduled_end=slot.end, status=SCHEDULED, version=1, created_at=created, created_by=actor.user_id)
            for aid, slot in pairs]
    if rows:
        s.execute(insert(Inspection), rows)
    audit.record(s, actor, "bulk_schedule", "inspection", None, None,
                 {"kind": "annual", "booked": len(rows), "first": first.isoformat(), "last": last.isoformat(),
                  "left": len(left) + len(skipped)})
    if progress:
        progress(3, 3, "Concluído")
    return BulkResult(len(rows), tuple(skipped + left), first, last)


def schedule_annual(db, actor: Actor, authorization_ids: Sequence[int], first: date, last: date,
                    progress: Callable[[int, int, str], None] | None = None,
                    cancelled: Callable[[], bool] | None = None) -> BulkResult:
    """See schedule_annual_in (one transaction)."""
    with db.session() as s:
        return schedule_annual_in(s, actor, authorization_ids, first, last, progress, cancelled)


def schedule_annual_job(state, db, actor: Actor, year: int, month: int, first: date, last: date) -> BulkResult:
    """The background task of the screen (desktop.background): every due annual inspection of (year, month) into the
    free slots of the period."""
    with db.session(write=False) as s:
        ids = [d.authorization_id for d in annual_due_in(s, actor, year, month)]

    def progress(done: int, total: int, text: str) -> None:
        if state is not None:
            state.progress(done, total, text)

    def cancelled() -> bool:
        return bool(state is not None and state.cancelled)

    return schedule_annual(db, actor, ids, first, last, progress=progress, cancelled=cancelled)
