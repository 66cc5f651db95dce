"""For the fiscal (Art. 26, I-II): the missed convocations and the impeded vehicles whose 5 days to regularize
(Art. 16, §2) ended without an approved re-inspection — facts the fiscal may turn into an auto."""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from desktop.domain import TIMEZONE, AuthorizationStatus, format_date, format_plate
from desktop.domain.inspection import InspectionResult, InspectionStatus
from desktop.domain.roles import INSPECTION_ROLES
from desktop.domain.scheduling import regularization_expired
from desktop.models import Authorization, Driver, Inspection, Vehicle
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.inspections.common import ENFORCERS, Art26Candidate, bookings, day_bounds, today
from desktop.domain.summons import art26_i_may_follow


def no_shows_in(s: Session, actor: Actor, first: date | None = None) -> list[Art26Candidate]:
    """Missed convocations (Art. 26, I: "deixar de comparecer à vistoria"), newest first."""
    require_role(actor, *INSPECTION_ROLES.candidates)
    stmt = select(Inspection).where(Inspection.status == InspectionStatus.NO_SHOW.value) \
        .order_by(Inspection.scheduled_start.desc())
    if first is not None:
        stmt = stmt.where(Inspection.scheduled_start >= day_bounds(first, first)[0])
    rows = bookings(s, _summoned_in_term(s, list(s.scalars(stmt.limit(2000)))))
    drivers = _driver_ids(s, [r.authorization_id for r in rows])
    return [Art26Candidate("ART26-I", "Art. 26, I", r.authorization_id, r.authorization_number,
                           r.plate_display, r.driver_name, drivers.get(r.authorization_id),
                           r.start.astimezone(TIMEZONE).date() if r.start else today(),
                           f"Não compareceu à vistoria {r.kind_label.lower()} marcada para "
                           f"{r.start.astimezone(TIMEZONE):%d/%m/%Y %H:%M}" if r.start else "Não compareceu",
                           r.id) for r in rows]


def _summoned_in_term(s: Session, rows: list[Inspection]) -> list[Inspection]:
    """Issue 28: the fine of Art. 26, I follows only a summons that gave three business days before the day to
    appear (Lei 9.784/99, art. 26, §2º; domain.summons); a no-show without a summons in term is no candidate."""
    from desktop.services.holidays import calendar_in  # lazy: the calendar reads the holidays table only here

    calendar = calendar_in(s)
    return [r for r in rows if r.scheduled_start is not None and art26_i_may_follow(
        r.convocation_notified_on, r.scheduled_start.astimezone(TIMEZONE).date(), calendar)]


def no_shows(db, actor: Actor, first: date | None = None) -> list[Art26Candidate]:
    """See no_shows_in."""
    with db.session(write=False) as s:
        return no_shows_in(s, actor, first)


def _driver_ids(s: Session, auth_ids: Iterable[int | None]) -> dict[int, int]:
    ids = {i for i in auth_ids if i}
    if not ids:
        return {}
    return dict(s.execute(select(Authorization.id, Authorization.driver_id).where(Authorization.id.in_(ids))).all())


def art26_ii_candidates_in(s: Session, actor: Actor, on: date | None = None) -> list[Art26Candidate]:
    """Impeded authorizations whose 5 days to regularize (Art. 16, §2) ended without an approved
    re-inspection: if the vehicle serves, it is Art. 26, II."""
    require_role(actor, *INSPECTION_ROLES.candidates)
    on = on or today()
    rows = s.execute(select(Authorization.id, Authorization.number, Authorization.regularize_by,
                            Authorization.driver_id, Vehicle.plate, Driver.name)
                     .join(Vehicle, Vehicle.id == Authorization.vehicle_id)
                     .join(Driver, Driver.id == Authorization.driver_id)
                     .where(Authorization.status == AuthorizationStatus.IMPEDED.value,
                            Authorization.regularize_by.is_not(None), Authorization.regularize_by < on)
                     .order_by(Authorization.regularize_by)).all()
    failed = dict(s.execute(select(Inspection.authorization_id, func.max(Inspection.id)).where(
        Inspection.result == InspectionResult.FAILED.value,
        Inspection.authorization_id.in_([r[0] for r in rows] or [0]))
        .group_by(Inspection.authorization_id)).all())
    return [Art26Candidate("ART26-II", "Art. 26, II", aid, number or "", format_plate(plate), name, driver_id,
                           regularize_by, f"Prazo para regularizar terminou em {format_date(regularize_by)} "
                           "sem vistoria aprovada (Art. 16, §2)", failed.get(aid))
            for aid, number, regularize_by, driver_id, plate, name in rows
            if regularization_expired(regularize_by, on)]


def art26_ii_candidates(db, actor: Actor, on: date | None = None) -> list[Art26Candidate]:
    """See art26_ii_candidates_in."""
    with db.session(write=False) as s:
        return art26_ii_candidates_in(s, actor, on)
