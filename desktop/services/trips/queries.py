"""What the secretariat does with the trips (Art. 4 §1; issue 15): fares per driver, vehicle and month, a chart
over months, the route of one trip, the trips that show an infraction, the open statistics (MDS Reports shape,
k-anonymity), the fares export and, for the ISSQN screen, the fares of a vehicle's month and the class whose
base is nearest (Art. 11, §1). Every view or export of trips is written to the access log (who, when, which).

The monthly fares are one SQL aggregate over the `(month, driver_cpf, plate)` index; sums of Dec columns stay
exact on both databases (SQLite keeps them as scaled integers, models.types).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from decimal import Decimal
from pathlib import Path

from sqlalchemy import func, or_, select

from decimal import ROUND_HALF_EVEN

from desktop.domain.money import round_cents, round_places
from desktop.domain.clock import TIMEZONE
from desktop.domain.formatting import format_cpf, format_plate
from desktop.domain.problems import Problem
from desktop.domain.trips import (
    FARES_EXPORT_HEADERS,
    AuthorizationSpan,
    ClassBase,
    InfractionRule,
    TripFacts,
    holds_evidence,
    month_key,
    nearest_class,
    parse_month,
    published_count,
    trip_infractions,
)
from desktop.errors import NotFound, ValidationError
from desktop.models import Authorization, AuthorizationEvent, Auto, Driver, IssqnClass, Platform
from desktop.models.platforms import AutoTripEvidence, TripAccessLog, TripFareTotal, TripImport, TripRoutePoint, TripRow
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.lookups import user_names
from desktop.services.trips.common import AccessEntry, TripInfo, log_access_in, require_trip_access
import calendar
from datetime import date as _date

HOUR = Decimal(3600)


def _month_of(year: int, month: int) -> int:
    if not 1 <= int(month) <= 12:
        raise ValidationError([Problem("month", "Mês inválido (1 a 12).")])
    return int(year) * 100 + int(month)


def month_label(key: int) -> str:
    return f"{key // 100:04d}-{key % 100:02d}"


def _avg(total: Decimal | None, count: int) -> Decimal | None:
    if total is None or not count:
        return None
    return round_cents(Decimal(total) / count)


# ------------------------------------------------------------------------------------------------ fares
@dataclass(frozen=True, slots=True)
class FareLine:
    month: str                  # AAAA-MM
    driver_cpf: str
    driver_id: int | None
    driver_name: str
    plate: str
    vehicle_id: int | None
    trips: int
    km: Decimal
    hours: Decimal
    total: Decimal
    base: Decimal
    distance: Decimal
    time: Decimal
    platform_share: Decimal
    other: Decimal
    rating: Decimal | None      # average of the rated trips


def _fare_select(*where):
    """The monthly fares from `trip_fare_totals` (written by each import; see models.platforms)."""
    t = TripFareTotal
    return (select(t.month, t.driver_cpf, t.plate, func.sum(t.trips), func.sum(t.distance_km), func.sum(t.duration_s),
                   func.sum(t.fare_total), func.sum(t.fare_base), func.sum(t.fare_distance), func.sum(t.fare_time),
                   func.sum(t.fare_platform), func.sum(t.fare_other), func.sum(t.rating_sum), func.sum(t.rated),
                   func.max(t.driver_id), func.max(t.vehicle_id))
            .where(*where).group_by(t.month, t.driver_cpf, t.plate).order_by(t.month, t.driver_cpf, t.plate))


def _d(value) -> Decimal:
    return Decimal(value) if value is not None else Decimal(0)


def _fare_lines(session, rows) -> list[FareLine]:
    rows = list(rows)
    names = dict(session.execute(select(Driver.id, Driver.name).where(
        Driver.id.in_({r[14] for r in rows if r[14] is not None}))).all()) if rows else {}
    out = []
    for (month, cpf, plate, n, km, secs, total, base, dist, tm, share, other, rating_sum, rated, driver_id,
         vehicle_id) in rows:
        out.append(FareLine(month_label(month), cpf or "", driver_id, names.get(driver_id, ""), plate or "",
                            vehicle_id, int(n), round_places(_d(km), 3, ROUND_HALF_EVEN),
                            round_places(Decimal(int(secs or 0)) / HOUR, 2, ROUND_HALF_EVEN), _d(total), _d(base),
                            _d(dist), _d(tm), _d(share), _d(other), _avg(rating_sum, int(rated or 0))))
    return out


def fares_in(session, actor: Actor, year: int, month: int, platform_id: int | None = None,
             driver_cpf: str | None = None, log: bool = True) -> tuple[FareLine, ...]:
    """Per driver, vehicle and month: trips, km, hours, total fare and its composition, the platform's share and
    the average rating (Art. 4 §1 II, IV-VI)."""
    require_trip_access(actor)
    where = [TripFareTotal.month == _month_of(year, month)]
    if platform_id is not None:
        where.append(TripFareTotal.platform_id == platform_id)
    if driver_cpf:
        where.append(TripFareTotal.driver_cpf == driver_cpf)
    lines = tuple(_fare_lines(session, session.execute(_fare_select(*where)).all()))
    if log:
        log_access_in(session, actor, "view", f"tarifas {year:04d}-{month:02d}",
                      trip_count=sum(x.trips for x in lines))
    return lines


def fares(db, actor: Actor, year: int, month: int, platform_id: int | None = None,
          driver_cpf: str | None = None) -> tuple[FareLine, ...]:
    require_trip_access(actor)
    with db.session() as s:
        return fares_in(s, actor, year, month, platform_id, driver_cpf)


@dataclass(frozen=True, slots=True)
class MonthTotal:
    month: str
    trips: int
    km: Decimal
    total: Decimal
    platform_share: Decimal


def fares_over_months_in(session, actor: Actor, driver_cpf: str | None = None, plate: str | None = None,
                         platform_id: int | None = None) -> tuple[MonthTotal, ...]:
    """Totals per month (for the chart), of one driver or vehicle or of all."""
    require_trip_access(actor)
    t = TripFareTotal
    q = select(t.month, func.sum(t.trips), func.sum(t.distance_km), func.sum(t.fare_total), func.sum(t.fare_platform))
    if driver_cpf:
        q = q.where(t.driver_cpf == driver_cpf)
    if plate:
        q = q.where(t.plate == plate)
    if platform_id is not None:
        q = q.where(t.platform_id == platform_id)
    rows = session.execute(q.group_by(t.month).order_by(t.month)).all()
    out = tuple(MonthTotal(month_label(m), int(n), _d(km), _d(total), _d(share)) for m, n, km, total, share in rows)
    log_access_in(session, actor, "view", "tarifas por mês" + (f" CPF {driver_cpf}" if driver_cpf else "")
                  + (f" placa {plate}" if plate else ""), trip_count=sum(x.trips for x in out))
    return out


def fares_over_months(db, actor: Actor, driver_cpf: str | None = None, plate: str | None = None,
                      platform_id: int | None = None) -> tuple[MonthTotal, ...]:
    require_trip_access(actor)
    with db.session() as s:
        return fares_over_months_in(s, actor, driver_cpf, plate, platform_id)


def export_fares(db, actor: Actor, month: str, path, platform_id: int | None = None) -> int:
    """The month's fares as CSV (`;`, UTF-8 with BOM) or XLSX, headers FARES_EXPORT_HEADERS; logged."""
    from desktop.services.exports import write_audited  # lazy: openpyxl only when exporting

    require_trip_access(actor)
    try:
        year, mon = parse_month(month)
    except ValueError as exc:
        raise ValidationError([Problem("month", str(exc))]) from None
    path = Path(path)
    with db.session(write=False) as s:
        lines = fares_in(s, actor, year, mon, platform_id, log=False)
    rows = [[line.month, format_plate(line.plate), format_cpf(line.driver_cpf), line.trips, line.km,
             line.total, line.rating] for line in lines]
    count = sum(x.trips for x in lines)

    def record(s, n: int) -> None:
        log_access_in(s, actor, "export", f"tarifas {year:04d}-{mon:02d} → {path.name}", trip_count=count)
        audit.record(s, actor, "trips.export_fares", "trips", None, None,
                     {"month": f"{year:04d}-{mon:02d}", "rows": n, "trips": count, "file": path.name})

    # the one exports writer (issue 25): session checked first, formulas as text, renamed after the audit commit
    return write_audited(db, actor, path, FARES_EXPORT_HEADERS, rows, record=record, title=f"Tarifas {month}",
                         suffixes=None)


# ------------------------------------------------------------------------------------------------ trips
def _trip_info(r: TripRow) -> TripInfo:
    return TripInfo(r.id, r.platform_id, r.external_id, r.driver_cpf, r.driver_id, r.plate, r.vehicle_id,
                    r.started_at, r.ended_at, r.origin_lat, r.origin_lon, r.destination_lat, r.destination_lon,
                    r.distance_km, r.duration_s, r.fare_total, r.hail_type, r.rating)


def get_trip_in(session, actor: Actor, trip_id: int) -> TripInfo:
    require_trip_access(actor)
    row = session.get(TripRow, trip_id)
    if row is None:
        raise NotFound(f"Viagem não encontrada (código {trip_id}).")
    log_access_in(session, actor, "view", "viagem", [row.id])
    return _trip_info(row)


def get_trip(db, actor: Actor, trip_id: int) -> TripInfo:
    require_trip_access(actor)
    with db.session() as s:
        return get_trip_in(s, actor, trip_id)


@dataclass(frozen=True, slots=True)
class RoutePoint:
    at: datetime
    lat: float
    lon: float


@dataclass(frozen=True, slots=True)
class TripRoute:
    trip: TripInfo
    platform_name: str
    points: tuple[RoutePoint, ...]   # the reported points; else origin → destination when both are known

    @property
    def from_points(self) -> bool:
        return len(self.points) > 2 or bool(self.points and self.points[0].at != self.trip.started_at)


def route_in(session, actor: Actor, trip_id: int) -> TripRoute:
    """The route of one trip (Art. 4 §1 III), for the canvas and the printed page; logged."""
    require_trip_access(actor)
    row = session.get(TripRow, trip_id)
    if row is None:
        raise NotFound(f"Viagem não encontrada (código {trip_id}).")
    points = tuple(RoutePoint(at, lat, lon) for at, lat, lon in session.execute(
        select(TripRoutePoint.at, TripRoutePoint.lat, TripRoutePoint.lon).where(TripRoutePoint.trip_id == trip_id)
        .order_by(TripRoutePoint.at, TripRoutePoint.id)).all())
    if not points and row.origin_lat is not None and row.destination_lat is not None:
        points = (RoutePoint(row.started_at, row.origin_lat, row.origin_lon),
                  RoutePoint(row.ended_at or row.started_at, row.destination_lat, row.destination_lon))
    platform = session.get(Platform, row.platform_id)
    log_access_in(session, actor, "view", "rota da viagem", [row.id])
    return TripRoute(_trip_info(row), platform.trade_name or platform.legal_name, points)


def route(db, actor: Actor, trip_id: int) -> TripRoute:
    require_trip_access(actor)
    with db.session() as s:
        return route_in(s, actor, trip_id)


# ------------------------------------------------------------------------------------------------ infractions
@dataclass(frozen=True, slots=True)
class TripFinding:
    trip: TripInfo
    rule: InfractionRule
    driver_name: str
    platform_id: int
    platform_name: str = ""
    auto_number: str = ""   # the auto that holds the trip as evidence (issue 24 item 10: one fact, one auto)


def evidence_autos_in(session, trip_ids) -> dict[int, str]:
    """For each trip, the number of the first auto still holding it as evidence (domain.trips.holds_evidence:
    not cancelled nor annulled; issue 24 item 10, Art. 19)."""
    ids = sorted(set(trip_ids))
    if not ids:
        return {}
    found: dict[int, str] = {}
    for trip_id, number, status in session.execute(
            select(AutoTripEvidence.trip_id, Auto.number, Auto.status).join(Auto, Auto.id == AutoTripEvidence.auto_id)
            .where(AutoTripEvidence.trip_id.in_(ids)).order_by(Auto.id)):
        if holds_evidence(status):
            found.setdefault(trip_id, number)
    return found


@dataclass(frozen=True, slots=True)
class FindingsPage:
    findings: tuple[TripFinding, ...]
    total: int            # findings in the month (the page may hold fewer)
    trips_checked: int


def _start_of(d) -> datetime:
    return datetime.combine(d, time(0), tzinfo=TIMEZONE)


def spans_in(session, driver_ids, vehicle_ids) -> list[AuthorizationSpan]:
    """The authorizations of these drivers or vehicles with their status over time (from their events)."""
    driver_ids, vehicle_ids = set(driver_ids) - {None}, set(vehicle_ids) - {None}
    if not driver_ids and not vehicle_ids:
        return []
    auths = session.execute(select(Authorization).where(or_(
        Authorization.driver_id.in_(driver_ids), Authorization.vehicle_id.in_(vehicle_ids)))).scalars().all()
    events: dict[int, list] = defaultdict(list)
    if auths:
        for aid, at, on, status in session.execute(
                select(AuthorizationEvent.authorization_id, AuthorizationEvent.at, AuthorizationEvent.effective_on,
                       AuthorizationEvent.to_status)
                .where(AuthorizationEvent.authorization_id.in_([a.id for a in auths]))
                .order_by(AuthorizationEvent.at, AuthorizationEvent.id)).all():
            events[aid].append((_start_of(on) if on is not None else at, status))
    spans = []
    for a in auths:
        changes = sorted(events.get(a.id, []), key=lambda c: c[0])
        if not changes and a.activated_on is not None:
            changes = [(_start_of(a.activated_on), "active")]
            if a.status != "active":
                changes.append((_start_of(a.ended_on or a.activated_on), a.status))
        if a.valid_until is not None:
            changes.append((_start_of(a.valid_until + timedelta(days=1)), "expired"))
            changes.sort(key=lambda c: c[0])
        spans.append(AuthorizationSpan(a.id, a.driver_id, a.vehicle_id, tuple(changes)))
    return spans


def infractions_in(session, actor: Actor, year: int, month: int, platform_id: int | None = None,
                   limit: int = 2000, kinds: tuple[str, ...] | None = None) -> FindingsPage:
    """The month's trips that show an infraction (domain.trips.trip_infractions), the first `limit`; logged."""
    require_trip_access(actor)
    where = [TripRow.month == _month_of(year, month)]
    if platform_id is not None:
        where.append(TripRow.platform_id == platform_id)
    keys = session.execute(select(TripRow.driver_id, TripRow.vehicle_id).where(*where).distinct()).all()
    spans = spans_in(session, {d for d, _ in keys}, {v for _, v in keys})
    by_driver: dict[int, list] = defaultdict(list)
    for s_ in spans:
        by_driver[s_.driver_id].append(s_)
    found_ids: list[tuple[int, InfractionRule]] = []
    total = checked = 0
    q = select(TripRow.id, TripRow.started_at, TripRow.hail_type, TripRow.driver_id, TripRow.vehicle_id) \
        .where(*where).order_by(TripRow.started_at, TripRow.id)
    for tid, started, hail, driver_id, vehicle_id in session.execute(q.execution_options(yield_per=5000)):
        checked += 1
        for rule in trip_infractions(TripFacts(tid, started, hail, driver_id, vehicle_id),
                                     by_driver.get(driver_id, ())):
            if kinds and rule.kind.value not in kinds:
                continue
            total += 1
            if len(found_ids) < limit:
                found_ids.append((tid, rule))
    rows = {r.id: r for r in session.execute(select(TripRow).where(
        TripRow.id.in_({t for t, _ in found_ids}))).scalars()} if found_ids else {}
    names = dict(session.execute(select(Driver.id, Driver.name).where(
        Driver.id.in_({r.driver_id for r in rows.values() if r.driver_id}))).all()) if rows else {}
    platforms = {p.id: p.trade_name or p.legal_name for p in session.execute(select(Platform)).scalars()}
    drawn = evidence_autos_in(session, rows)
    findings = tuple(TripFinding(_trip_info(rows[t]), rule, names.get(rows[t].driver_id, ""), rows[t].platform_id,
                                 platforms.get(rows[t].platform_id, ""), drawn.get(t, "")) for t, rule in found_ids)
    log_access_in(session, actor, "view", f"viagens com infração {year:04d}-{month:02d}",
                  [f.trip.id for f in findings])
    return FindingsPage(findings, total, checked)


def infractions(db, actor: Actor, year: int, month: int, platform_id: int | None = None,
                limit: int = 2000, kinds: tuple[str, ...] | None = None) -> FindingsPage:
    require_trip_access(actor)
    with db.session() as s:
        return infractions_in(s, actor, year, month, platform_id, limit, kinds)


# ------------------------------------------------------------------------------------------------ statistics
STATISTICS_HEADERS = ("provider_id", "provider_name", "month", "trips", "street_hail_trips", "app_trips",
                      "total_distance_km", "total_duration_h", "unique_vehicles", "unique_drivers")


@dataclass(frozen=True, slots=True)
class PlatformMonthReport:
    """MDS Reports shape: counts with k-anonymity (a count below 10 is published as −1)."""

    platform_id: int
    platform_name: str
    month: str
    trips: int
    street_hail_trips: int
    app_trips: int
    total_distance_km: Decimal | int
    total_duration_h: Decimal | int
    unique_vehicles: int
    unique_drivers: int

    def cells(self) -> list:
        return [self.platform_id, self.platform_name, self.month, self.trips, self.street_hail_trips,
                self.app_trips, self.total_distance_km, self.total_duration_h, self.unique_vehicles,
                self.unique_drivers]


def statistics_in(session, actor: Actor, year: int | None = None, month: int | None = None) \
        -> tuple[PlatformMonthReport, ...]:
    """Open statistics per platform and month (no trip, no person: counts with k = 10)."""
    require_trip_access(actor)
    t = TripRow
    q = select(t.platform_id, t.month, func.count(), func.sum(t.distance_km), func.sum(t.duration_s),
               func.count(func.distinct(t.plate)), func.count(func.distinct(t.driver_cpf))) \
        .group_by(t.platform_id, t.month).order_by(t.month, t.platform_id)
    if year is not None and month is not None:
        q = q.where(t.month == _month_of(year, month))
    rows = session.execute(q).all()
    hails = dict(((p, m), int(n)) for p, m, n in session.execute(
        select(t.platform_id, t.month, func.count()).where(t.hail_type == "street_hail")
        .group_by(t.platform_id, t.month)).all())
    names = {p.id: p.trade_name or p.legal_name for p in session.execute(select(Platform)).scalars()}
    out = []
    for pid, m, n, km, secs, vehicles, drivers in rows:
        n = int(n)
        hail = hails.get((pid, m), 0)
        k_ok = n >= 10
        out.append(PlatformMonthReport(
            pid, names.get(pid, ""), month_label(m), published_count(n), published_count(hail),
            published_count(n - hail), round_places(_d(km), 1, ROUND_HALF_EVEN) if k_ok else -1,
            round_places(Decimal(int(secs or 0)) / HOUR, 1, ROUND_HALF_EVEN) if k_ok else -1,
            published_count(int(vehicles)), published_count(int(drivers))))
    return tuple(out)


def statistics(db, actor: Actor, year: int | None = None, month: int | None = None) \
        -> tuple[PlatformMonthReport, ...]:
    require_trip_access(actor)
    with db.session(write=False) as s:
        return statistics_in(s, actor, year, month)


def export_statistics(db, actor: Actor, path, year: int | None = None, month: int | None = None) -> int:
    """The open statistics as CSV for the transparency portal (`,` and `.`: machine-readable, as MDS)."""
    from desktop.services.exports import write_audited  # lazy: openpyxl only when exporting

    require_trip_access(actor)
    path = Path(path)
    with db.session(write=False) as s:
        reports = statistics_in(s, actor, year, month)

    def record(s, n: int) -> None:
        log_access_in(s, actor, "export", f"estatísticas abertas → {path.name}",
                      trip_count=sum(max(r.trips, 0) for r in reports))
        audit.record(s, actor, "trips.export_statistics", "trips", None, None, {"rows": n, "file": path.name})

    # machine-readable (`,`, `.`, no BOM) through the one exports writer; a platform's name stays text
    return write_audited(db, actor, path, STATISTICS_HEADERS, [r.cells() for r in reports], record=record,
                         suffixes=None, csv_options={"delimiter": ",", "encoding": "utf-8", "cell": str})


# ------------------------------------------------------------------------------------------------ ISSQN
@dataclass(frozen=True, slots=True)
class VehicleMonthFares:
    vehicle_id: int
    year: int
    month: int
    trips: int
    km: Decimal
    total: Decimal            # the fares the platforms reported for that month
    platform_share: Decimal
    platforms: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ClassSuggestion:
    """The class whose monthly base is nearest to the fares reported (Art. 11, §1), offered to the gestor as a
    reclassification to decide (never applied here)."""

    code: str
    name: str
    monthly_base: Decimal
    fares_total: Decimal
    difference: Decimal       # fares_total − monthly_base


def fares_of_vehicle_month_in(session, actor: Actor, vehicle_id: int, year: int, month: int) -> VehicleMonthFares:
    require_trip_access(actor)
    t = TripFareTotal   # the import's sums per month, driver and plate (no scan of the month's trips)
    key = _month_of(year, month)
    n, km, total, share = session.execute(select(func.coalesce(func.sum(t.trips), 0), func.sum(t.distance_km),
                                                 func.sum(t.fare_total), func.sum(t.fare_platform))
                                          .where(t.vehicle_id == vehicle_id, t.month == key)).one()
    pids = session.execute(select(t.platform_id).where(t.vehicle_id == vehicle_id, t.month == key).distinct()) \
        .scalars().all()
    names = tuple(sorted(p.trade_name or p.legal_name for p in session.execute(
        select(Platform).where(Platform.id.in_(pids))).scalars())) if pids else ()
    log_access_in(session, actor, "view", f"tarifas do veículo {vehicle_id} em {year:04d}-{month:02d}",
                  trip_count=int(n))
    return VehicleMonthFares(vehicle_id, year, month, int(n), _d(km), _d(total), _d(share), names)


def fares_of_vehicle_month(db, actor: Actor, vehicle_id: int, year: int, month: int) -> VehicleMonthFares:
    """The fares reported for one vehicle in one month (beside its ISSQN estimate)."""
    require_trip_access(actor)
    with db.session() as s:
        return fares_of_vehicle_month_in(s, actor, vehicle_id, year, month)


def nearest_class_suggestion_in(session, actor: Actor, vehicle_id: int, year: int, month: int) \
        -> ClassSuggestion | None:
    fares_ = fares_of_vehicle_month_in(session, actor, vehicle_id, year, month)
    if not fares_.trips:
        return None

    first, last = _date(year, month, 1), _date(year, month, calendar.monthrange(year, month)[1])
    # the classes in force in that month (issue 13: a new base is a new dated row, never an edit)
    classes = [ClassBase(c.code, c.name, c.monthly_base) for c in session.execute(
        select(IssqnClass).where(IssqnClass.active.is_(True), IssqnClass.valid_from <= last,
                                 (IssqnClass.valid_until.is_(None)) | (IssqnClass.valid_until >= first))).scalars()]
    best = nearest_class(fares_.total, classes)
    if best is None:
        return None
    return ClassSuggestion(best.code, best.name, best.monthly_base, fares_.total, fares_.total - best.monthly_base)


def nearest_class_suggestion(db, actor: Actor, vehicle_id: int, year: int, month: int) -> ClassSuggestion | None:
    """The ISSQN class (issqn_classes) whose monthly base is nearest to the vehicle's reported fares that month;
    None when no trip was reported or no class exists."""
    require_trip_access(actor)
    with db.session() as s:
        return nearest_class_suggestion_in(s, actor, vehicle_id, year, month)


# ------------------------------------------------------------------------------------------------ access log
def access_log_in(session, actor: Actor, limit: int = 200) -> tuple[AccessEntry, ...]:
    require_trip_access(actor)
    rows = session.execute(select(TripAccessLog).order_by(TripAccessLog.id.desc()).limit(limit)).scalars().all()
    names = user_names(session, [r.user_id for r in rows])
    return tuple(AccessEntry(r.at, names.get(r.user_id, "Sistema"), r.action, r.what, r.trip_count,
                             tuple(r.trip_ids or ())) for r in rows)


def access_log(db, actor: Actor, limit: int = 200) -> tuple[AccessEntry, ...]:
    require_trip_access(actor)
    with db.session(write=False) as s:
        return access_log_in(s, actor, limit)


@dataclass(frozen=True, slots=True)
class ImportSummary:
    id: int
    platform_name: str
    filename: str
    created_at: datetime
    trips: int
    route_points: int
    dropped_columns: tuple[str, ...]


def imports_in(session, actor: Actor, limit: int = 100) -> tuple[ImportSummary, ...]:
    require_trip_access(actor)
    names = {p.id: p.trade_name or p.legal_name for p in session.execute(select(Platform)).scalars()}
    rows = session.execute(select(TripImport).order_by(TripImport.id.desc()).limit(limit)).scalars().all()
    return tuple(ImportSummary(r.id, names.get(r.platform_id, ""), r.filename, r.created_at, r.trip_count,
                               r.route_point_count, tuple(r.dropped_columns or ())) for r in rows)


def imports(db, actor: Actor, limit: int = 100) -> tuple[ImportSummary, ...]:
    require_trip_access(actor)
    with db.session(write=False) as s:
        return imports_in(s, actor, limit)


def month_of(d) -> tuple[int, int]:
    key = month_key(d)
    return key // 100, key % 100

