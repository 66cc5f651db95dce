"""Retention of trip data (Art. 4 caput; LGPD arts. 15-16): trips that started before the retention period
(`trip_retention_months`, default 24) are removed by the routine of the day, except the trips that are evidence
in an auto (`auto_trip_evidence`), which stay with the case file. Their route points go with them. The removal is
written to the audit log (how many, up to which day); the access log keeps its lines."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal

from sqlalchemy import delete, exists, func, insert, select

from desktop.domain.clock import TIMEZONE
from desktop.domain.dates import local_today
from desktop.domain.trips import month_key, retention_cutoff
from desktop.models.platforms import AutoTripEvidence, TripFareTotal, TripRoutePoint, TripRow
from desktop.services import audit
from desktop.services.actors import Actor, SYSTEM_ACTOR
from desktop.services.parameters import parameter_value_in


@dataclass(frozen=True, slots=True)
class RetentionResult:
    cutoff: date
    removed: int
    kept_as_evidence: int


def remove_expired_trips_in(session, actor: Actor, today: date | None = None) -> RetentionResult:
    day = today or local_today()
    months = int(parameter_value_in(session, "trip_retention_months", day))
    cutoff = retention_cutoff(day, months)
    limit = datetime.combine(cutoff, time(0), tzinfo=TIMEZONE)
    evidence = exists().where(AutoTripEvidence.trip_id == TripRow.id)
    old = [TripRow.month <= month_key(cutoff), TripRow.started_at < limit]
    kept = session.scalar(select(TripRow.id).where(*old, evidence).limit(1))
    kept_count = len(session.execute(select(TripRow.id).where(*old, evidence)).all()) if kept else 0
    doomed = select(TripRow.id).where(*old, ~evidence).scalar_subquery()
    session.execute(delete(TripRoutePoint).where(TripRoutePoint.trip_id.in_(doomed)),
                    execution_options={"synchronize_session": False})
    removed = session.execute(delete(TripRow).where(*old, ~evidence),
                              execution_options={"synchronize_session": False}).rowcount or 0
    if removed:
        _recompute_totals_in(session, month_key(cutoff))
        audit.record(session, actor, "trips.retention", "trips", None, None,
                     {"cutoff": cutoff, "months": months, "removed": removed, "kept_as_evidence": kept_count})
    return RetentionResult(cutoff, int(removed), kept_count)


def _recompute_totals_in(session, up_to_month: int) -> None:
    """`trip_fare_totals` of the months the removal touched, summed again from the trips that stay."""
    t = TripRow
    session.execute(delete(TripFareTotal).where(TripFareTotal.month <= up_to_month),
                    execution_options={"synchronize_session": False})
    rows = session.execute(
        select(t.import_id, t.platform_id, t.month, t.driver_cpf, t.plate, func.max(t.driver_id), func.max(t.vehicle_id),
               func.count(), func.sum(t.distance_km), func.sum(t.duration_s), func.sum(t.fare_total),
               func.sum(t.fare_base), func.sum(t.fare_distance), func.sum(t.fare_time), func.sum(t.fare_platform),
               func.sum(t.fare_other), func.sum(t.rating), func.count(t.rating))
        .where(t.month <= up_to_month)
        .group_by(t.import_id, t.platform_id, t.month, t.driver_cpf, t.plate)).all()
    zero = Decimal(0)
    values = [{"import_id": r[0], "platform_id": r[1], "month": r[2], "driver_cpf": r[3], "plate": r[4],
               "driver_id": r[5], "vehicle_id": r[6], "trips": r[7], "distance_km": r[8] or zero,
               "duration_s": int(r[9] or 0), "fare_total": r[10] or zero, "fare_base": r[11] or zero,
               "fare_distance": r[12] or zero, "fare_time": r[13] or zero, "fare_platform": r[14] or zero,
               "fare_other": r[15] or zero, "rating_sum": r[16] or zero, "rated": r[17]} for r in rows]
    if values:
        session.execute(insert(TripFareTotal), values)


def remove_expired_trips(db, today: date | None = None) -> RetentionResult:
    """The routine of the day's step: idempotent (a second run the same day removes nothing)."""
    with db.session() as s:
        return remove_expired_trips_in(s, SYSTEM_ACTOR, today)
