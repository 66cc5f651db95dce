"""What the trip use cases share: the roles (Art. 4 data is for the fiscal and the gestor only), the access log
(LGPD: who saw or exported which trips, when) and the frozen data they return."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from desktop.domain.clock import now
from desktop.domain.roles import TRIP_DATA_ROLES
from desktop.models.platforms import TripAccessLog
from desktop.services.actors import Actor
from desktop.services.permissions import require_role

TRIP_ROLES = TRIP_DATA_ROLES.work
MAX_LOGGED_IDS = 1000  # a view of more trips than this logs the count and the query, not every id


def require_trip_access(actor: Actor) -> None:
    """Trip details are seen only by the fiscal and the gestor (Art. 4 caput: confidentiality)."""
    require_role(actor, *TRIP_ROLES)


def log_access_in(session, actor: Actor, action: str, what: str, trip_ids=(), trip_count: int | None = None) -> None:
    """One line of the trips' access log, in the caller's transaction."""
    ids = list(trip_ids)
    session.add(TripAccessLog(at=now(), user_id=actor.user_id, action=action, what=what[:200],
                              trip_count=len(ids) if trip_count is None else int(trip_count),
                              trip_ids=ids[:MAX_LOGGED_IDS] if ids else None))
    session.flush()


@dataclass(frozen=True, slots=True)
class AccessEntry:
    at: datetime
    user_name: str
    action: str
    what: str
    trip_count: int
    trip_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TripInfo:
    id: int
    platform_id: int
    external_id: str
    driver_cpf: str | None
    driver_id: int | None
    plate: str | None
    vehicle_id: int | None
    started_at: datetime
    ended_at: datetime | None
    origin_lat: float | None
    origin_lon: float | None
    destination_lat: float | None
    destination_lon: float | None
    distance_km: Decimal | None
    duration_s: int | None
    fare_total: Decimal | None
    hail_type: str | None
    rating: Decimal | None
