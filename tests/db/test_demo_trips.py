"""Trip data in the demo (issue 15): a month of trips for the demo's platforms, imported through the real path,
with street hails (Art. 7), trips without an authorization (Art. 27) or in a vehicle not the driver's (Art. 8,
13 XIX), route points for some, and no passenger data stored (Art. 4 caput)."""
from __future__ import annotations

from sqlalchemy import func, select

from desktop.domain import local_today
from desktop.models.platforms import TripImport, TripRoutePoint, TripRow
from desktop.services import trips
from desktop.services.actors import SYSTEM_ACTOR
from desktop.demo.entry import load_demo

TODAY = local_today()


def test_demo_ships_a_month_of_trips_with_street_hails_unauthorized_trips_and_routes(db):
    load_demo(db, drivers=120, seed=11, today=TODAY)
    with db.session(write=False) as s:
        n = s.scalar(select(func.count()).select_from(TripRow))
        hails = s.scalar(select(func.count()).select_from(TripRow).where(TripRow.hail_type == "street_hail"))
        points = s.scalar(select(func.count()).select_from(TripRoutePoint))
        platforms = s.scalar(select(func.count(func.distinct(TripRow.platform_id))))
        imports = s.scalars(select(TripImport)).all()
        first, last = s.execute(select(func.min(TripRow.started_at), func.max(TripRow.started_at))).one()
    assert n > 200 and hails > 0 and points > 0 and platforms >= 2
    assert all("Nome do passageiro" in (i.dropped_columns or []) for i in imports)
    assert (TODAY - first.date()).days <= 31 and last.date() < TODAY
    kinds = set()
    for month in {(first.year, first.month), (last.year, last.month)}:
        kinds |= {f.rule.kind.value for f in trips.infractions(db, SYSTEM_ACTOR, *month).findings}
    assert {"street_hail", "no_authorization", "not_his_vehicle"} <= kinds
    lines = trips.fares(db, SYSTEM_ACTOR, last.year, last.month)
    assert lines and all(line.total > 0 for line in lines)
    with db.session(write=False) as s:
        first_platforms = set(s.scalars(select(TripRow.platform_id).distinct()))
    load_demo(db, drivers=10, seed=12, today=TODAY, force=True)   # adds its own platforms beside the old ones
    with db.session(write=False) as s:
        kept = s.scalar(select(func.count()).select_from(TripRow).where(TripRow.platform_id.in_(first_platforms)))
    assert kept == n   # the platforms that had trips get no second file
