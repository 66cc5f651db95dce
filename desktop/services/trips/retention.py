"""Retention of trip data (Art. 4 caput; LGPD arts. 15-16): trips that started before the retention period
(`trip_retention_months`, default 24) are removed by the routine of the day, except the trips that are evidence
in an auto (`auto_trip_evidence`), which stay with the case file. Their route points go with them. The removal is
written to the audit log (how many, up to which day); the access log keeps its lines."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time

from sqlalchemy import delete, exists, select

from desktop.domain.clock import TIMEZONE
from desktop.domain.dates import local_today
from desktop.domain.trips import month_key, retention_cutoff
from desktop.models.platforms import AutoTripEvidence, TripRoutePoint, TripRow
from desktop.services import audit
from desktop.services.base import SYSTEM_ACTOR, Actor
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
        audit.record(session, actor, "trips.retention", "trips", None, None,
                     {"cutoff": cutoff, "months": months, "removed": removed, "kept_as_evidence": kept_count})
    return RetentionResult(cutoff, int(removed), kept_count)


def remove_expired_trips(db, today: date | None = None) -> RetentionResult:
    """The routine of the day's step: idempotent (a second run the same day removes nothing)."""
    with db.session() as s:
        return remove_expired_trips_in(s, SYSTEM_ACTOR, today)
