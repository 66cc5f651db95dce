"""Trip data (issue 15, Art. 4): import all or nothing with passengers never kept (Art. 4 caput), MDS 2.x, routes,
fares per driver/vehicle/month, trips that show an infraction (Art. 7, 8, 13 XIX, 16 §2, 26 II and IV, 27), open
statistics with k-anonymity, the access log, the retention routine, the data request answered. Each test runs on
SQLite and PostgreSQL."""
from __future__ import annotations

import csv
import json
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from registry_factories import TODAY, active, cpf, desk, new_driver, new_vehicle  # noqa: F401
from sqlalchemy import func, select
from trip_factories import (
    PASSENGER_CPF,
    PASSENGER_EMAIL,
    PASSENGER_NAME,
    PASSENGER_PHONE,
    make_platform,
    mds_json,
    mds_trip,
    routes_csv,
    trip,
    trips_csv,
)

from desktop.domain import clock
from desktop.domain.trips import FARES_EXPORT_HEADERS
from desktop.errors import ConflictError, PermissionDenied, ValidationError
from desktop.models import AuditEntry, Driver, IssqnClass, Vehicle
from desktop.models.platforms import (
    AutoTripEvidence,
    DataRequest,
    TripAccessLog,
    TripImport,
    TripRoutePoint,
    TripRow,
)
from desktop.services import trips as svc
from desktop.services.actors import SYSTEM_ACTOR
from desktop.services.daily import run_daily_jobs

PLATE = "ABC1D23"
DRIVER = "52998224725"


def count(db, model=TripRow) -> int:
    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(model))


def pair(db, a):
    with db.session(write=False) as s:
        return s.get(Driver, a.driver_id).cpf, s.get(Vehicle, a.vehicle_id).plate


def test_art4_import_csv_stores_trips_with_fare_composition_and_lists_dropped_columns(db, desk):
    p = make_platform(db, desk.clerk)
    content = trips_csv(trip("T1", PLATE, DRIVER), trip("T2", "abc-1d23", "529.982.247-25",
                                                        start="2026-11-18T10:00:00-04:00", end="", total="1.234,56",
                                                        hail="Via Pública", rating=""))
    report = svc.import_trips(db, desk.fiscal, p.id, content, "viagens.csv")
    assert report.trips == 2 and report.street_hails == 1 and report.file_format == "csv"
    assert report.dropped_columns == ("CPF do passageiro", "E-mail", "Nome do passageiro", "Rider ID",
                                      "Telefone do usuário")
    assert report.ignored_columns == ("Observação",)
    assert "Descartados por identificarem passageiros" in report.summary()
    with db.session(write=False) as s:
        rows = {r.external_id: r for r in s.scalars(select(TripRow))}
        imp = s.scalars(select(TripImport)).one()
    t1, t2 = rows["T1"], rows["T2"]
    assert t1.plate == PLATE and t1.driver_cpf == DRIVER and t1.month == 202611
    assert t1.fare_total == Decimal("25.50") and t1.fare_base == Decimal("5.00")
    assert t1.fare_platform == Decimal("2.50") and t1.distance_km == Decimal("5.300") and t1.duration_s == 1200
    assert t1.rating == Decimal("4.80") and t1.hail_type == "app"
    assert t1.started_at == datetime(2026, 11, 18, 12, 0, tzinfo=UTC)
    assert t2.fare_total == Decimal("1234.56") and t2.hail_type == "street_hail" and t2.ended_at is None
    assert t2.started_at == datetime(2026, 11, 18, 14, 0, tzinfo=UTC) and t2.rating is None
    assert imp.trip_count == 2 and "Nome do passageiro" in imp.dropped_columns


def test_art4_caput_passenger_fields_never_reach_the_database_file(db, desk, tmp_path):
    if not db.is_sqlite:
        pytest.skip("the database file's bytes are read on SQLite")
    p = make_platform(db, desk.clerk)
    svc.import_trips(db, desk.fiscal, p.id, trips_csv(trip("T1", PLATE, DRIVER)), "a.csv")
    svc.import_trips(db, desk.fiscal, p.id, mds_json(mds_trip("M1", PLATE, DRIVER, 1795003200000)), "b.json")
    assert count(db) == 2
    db.dispose()
    raw = b"".join(path.read_bytes() for path in db.sqlite_path.parent.glob(db.sqlite_path.name + "*"))
    for secret in (PASSENGER_NAME, PASSENGER_CPF, PASSENGER_PHONE, PASSENGER_EMAIL, "RID-QX-7781", "Quixabeira"):
        assert secret.encode() not in raw and secret.encode("utf-16-le") not in raw
    assert b"T1" in raw  # the file was read: the trip itself is there


def test_art4_a_bad_line_refuses_the_whole_file_naming_the_line(db, desk):
    p = make_platform(db, desk.clerk)
    content = trips_csv(trip("T1", PLATE, DRIVER), trip("T2", PLATE, "12345678900"),
                        trip("T3", PLATE, DRIVER, total="doze"), trip("T1", PLATE, DRIVER))
    with pytest.raises(ValidationError) as info:
        svc.import_trips(db, desk.fiscal, p.id, content, "v.csv")
    text = "\n".join(p_.message for p_ in info.value.problems)
    assert "linha 3, coluna «CPF do condutor»" in text
    assert "linha 4, coluna «Valor total (R$)»" in text
    assert "linha 5, coluna «ID da viagem»: viagem repetida" in text
    assert PASSENGER_NAME not in str(info.value)
    assert count(db) == 0 and count(db, TripImport) == 0


def test_art4_missing_pinned_column_and_wrong_cell_count_name_the_line(db, desk):
    p = make_platform(db, desk.clerk)
    header = [h for h in trips_csv(trip("T1", PLATE, DRIVER)).decode().splitlines()[0].split(";")
              if h != "Tipo de chamada"]
    with pytest.raises(ValidationError, match="coluna «Tipo de chamada»: coluna obrigatória ausente"):
        svc.import_trips(db, desk.fiscal, p.id, (";".join(header) + "\n").encode(), "v.csv")
    good = trips_csv(trip("T1", PLATE, DRIVER), trip("T2", PLATE, DRIVER)).decode().splitlines()
    good[2] += ";sobra"
    with pytest.raises(ValidationError, match="linha 3: a linha tem 26 células e o cabeçalho 25"):
        svc.import_trips(db, desk.fiscal, p.id, "\n".join(good).encode(), "v.csv")
    assert count(db) == 0


def test_art4_the_same_trips_twice_are_refused(db, desk):
    p = make_platform(db, desk.clerk)
    svc.import_trips(db, desk.fiscal, p.id, trips_csv(trip("T1", PLATE, DRIVER)), "v.csv")
    with pytest.raises(ConflictError):
        svc.import_trips(db, desk.fiscal, p.id, trips_csv(trip("T1", PLATE, DRIVER)), "v.csv")
    with pytest.raises((ValidationError, ConflictError)):
        svc.import_trips(db, desk.fiscal, p.id, trips_csv(trip("T1", PLATE, DRIVER), extra=None), "w.csv")
    assert count(db) == 1


def test_art4_mds_json_trips_with_fare_attributes_and_telemetry(db, desk):
    p = make_platform(db, desk.clerk)
    start = int(datetime(2026, 11, 18, 12, 0, tzinfo=UTC).timestamp() * 1000)
    content = mds_json(mds_trip("M1", PLATE, DRIVER, start), mds_trip("M2", PLATE, DRIVER, start + 3600000,
                                                                       hail="street_hail", cost=1999))
    telemetry = ('{"version": "2.0.0", "data": {"telemetry": ['
                 f'{{"trip_ids": ["M1"], "timestamp": {start}, "location": {{"lat": -15.46, "lng": -55.75}}}},'
                 f'{{"trip_ids": ["M1"], "timestamp": {start + 60000}, "location": {{"lat": -15.45, "lng": -55.74}}}},'
                 f'{{"trip_ids": ["M1"], "timestamp": {start + 120000}, "location": {{"lat": -15.44, "lng": -55.72}}}}'
                 ']}}').encode()
    report = svc.import_trips(db, desk.manager, p.id, content,
                              "mds.json", routes=telemetry, routes_filename="telemetria.json")
    assert report.file_format == "mds" and report.trips == 2 and report.route_points == 3
    assert set(report.dropped_columns) >= {"passenger_name", "rider_phone", "passenger_email"}
    with db.session(write=False) as s:
        m1 = s.scalars(select(TripRow).where(TripRow.external_id == "M1")).one()
        m2 = s.scalars(select(TripRow).where(TripRow.external_id == "M2")).one()
    assert m1.fare_total == Decimal("25.50") and m1.fare_base == Decimal("5.00")
    assert m1.fare_platform == Decimal("3.00") and m1.fare_other == Decimal("1.00")
    assert m1.duration_s == 1200 and m1.distance_km == Decimal("4.200") and m1.hail_type == "app"
    assert m2.hail_type == "street_hail" and m2.fare_total == Decimal("19.99")
    r = svc.route(db, desk.fiscal, m1.id)
    assert [(pt.lat, pt.lon) for pt in r.points] == [(-15.46, -55.75), (-15.45, -55.74), (-15.44, -55.72)]


def test_art4_mds_wrong_currency_or_version_is_refused(db, desk):
    p = make_platform(db, desk.clerk)
    t = mds_trip("M1", PLATE, DRIVER, 1795003200000)
    t["currency"] = "USD"
    with pytest.raises(ValidationError, match="viagem nº 1 .*currency"):
        svc.import_trips(db, desk.fiscal, p.id, mds_json(t), "m.json")
    with pytest.raises(ValidationError, match="MDS 2.x"):
        svc.import_trips(db, desk.fiscal, p.id, b'{"version": "1.2", "data": {"trips": []}}', "m.json")
    assert count(db) == 0


def test_art4_routes_csv_and_route_of_a_trip_logged(db, desk):
    p = make_platform(db, desk.clerk)
    routes = routes_csv(("T1", "18/11/2026 08:00:00", "-15,46", "-55,75"),
                        ("T1", "18/11/2026 08:10:00", "-15,45", "-55,73"),
                        ("T1", "18/11/2026 08:20:00", "-15,43", "-55,71"))
    report = svc.import_trips(db, desk.fiscal, p.id, trips_csv(trip("T1", PLATE, DRIVER), trip("T2", PLATE, DRIVER)),
                              "v.csv", routes=routes)
    assert report.route_points == 3
    with db.session(write=False) as s:
        t1 = s.scalars(select(TripRow).where(TripRow.external_id == "T1")).one()
        t2 = s.scalars(select(TripRow).where(TripRow.external_id == "T2")).one()
    r = svc.route(db, desk.fiscal, t1.id)
    assert len(r.points) == 3 and r.points[0].lat == -15.46 and r.platform_name == "Vai Já"
    r2 = svc.route(db, desk.fiscal, t2.id)  # no points: origin to destination
    assert [(x.lat, x.lon) for x in r2.points] == [(-15.46, -55.75), (-15.43, -55.71)]
    with db.session(write=False) as s:
        logs = s.scalars(select(TripAccessLog).order_by(TripAccessLog.id)).all()
    assert [(x.action, x.what, x.trip_ids) for x in logs] == [("view", "rota da viagem", [t1.id]),
                                                            ("view", "rota da viagem", [t2.id])]
    assert logs[0].user_id == desk.fiscal.user_id
    bad = routes_csv(("T9", "18/11/2026 08:00:00", "-15,46", "-55,75"))
    with pytest.raises(ValidationError, match="T9"):
        svc.import_trips(db, desk.fiscal, p.id, trips_csv(trip("T5", PLATE, DRIVER)), "x.csv", routes=bad)
    assert count(db) == 2


def test_art4_only_fiscal_and_gestor_see_trips(db, desk):
    p = make_platform(db, desk.clerk)
    with pytest.raises(PermissionDenied):
        svc.import_trips(db, desk.clerk, p.id, trips_csv(trip("T1", PLATE, DRIVER)), "v.csv")
    svc.import_trips(db, desk.fiscal, p.id, trips_csv(trip("T1", PLATE, DRIVER)), "v.csv")
    for who in (desk.clerk, desk.inspector):
        with pytest.raises(PermissionDenied):
            svc.fares(db, who, 2026, 11)
    assert svc.fares(db, desk.manager, 2026, 11)


def test_art4_fares_per_driver_vehicle_and_month_logged_and_exported(db, desk, tmp_path):
    p = make_platform(db, desk.clerk)
    other = cpf()
    content = trips_csv(trip("T1", PLATE, DRIVER, total="20,00", rating="5"),
                        trip("T2", PLATE, DRIVER, total="30,00", rating="4", fee="3,00", secs="2400"),
                        trip("T3", PLATE, other, total="10,00", rating=""),
                        trip("T4", PLATE, DRIVER, start="05/10/2026 08:00:00", end="", total="99,00"))
    svc.import_trips(db, desk.fiscal, p.id, content, "v.csv")
    lines = svc.fares(db, desk.fiscal, 2026, 11)
    mine = next(x for x in lines if x.driver_cpf == DRIVER)
    assert (mine.month, mine.plate, mine.trips, mine.total, mine.platform_share) == \
        ("2026-11", PLATE, 2, Decimal("50.00"), Decimal("5.50"))
    assert mine.km == Decimal("10.600") and mine.hours == Decimal("1.00") and mine.rating == Decimal("4.50")
    assert mine.base == Decimal("10.00") and mine.distance == Decimal("24.00") and mine.time == Decimal("12.00")
    theirs = next(x for x in lines if x.driver_cpf == other)
    assert theirs.rating is None and theirs.trips == 1
    months = svc.fares_over_months(db, desk.fiscal, driver_cpf=DRIVER)
    assert [(m.month, m.trips, m.total) for m in months] == [("2026-10", 1, Decimal("99.00")),
                                                             ("2026-11", 2, Decimal("50.00"))]
    out = tmp_path / "tarifas.csv"
    assert svc.export_fares(db, desk.fiscal, "2026-11", out) == 2
    with out.open(encoding="utf-8-sig") as f:
        rows = list(csv.reader(f, delimiter=";"))
    assert tuple(rows[0]) == FARES_EXPORT_HEADERS == (
        "Competência", "Placa", "CPF do condutor", "Viagens", "Distância (km)", "Valor total (R$)", "Avaliação média")
    mine_row = next(r for r in rows[1:] if r[2] == "529.982.247-25")
    assert mine_row == ["2026-11", "ABC1D23", "529.982.247-25", "2", "10,60", "50,00", "4,50"]
    with db.session(write=False) as s:
        logs = s.scalars(select(TripAccessLog).order_by(TripAccessLog.id)).all()
        audits = s.scalars(select(AuditEntry.action)).all()
    assert [(x.action, x.trip_count) for x in logs] == [("view", 3), ("view", 3), ("export", 3)]
    assert logs[-1].what == "tarifas 2026-11 → tarifas.csv" and "trips.export_fares" in audits
    # MM/AAAA is read as the ISSQN commands read it (issue 22 point 3: `--month 10/2026` failed for fares only)
    assert svc.export_fares(db, desk.fiscal, "11/2026", out) == 2
    with db.session(write=False) as s:
        last = s.scalars(select(TripAccessLog.what).order_by(TripAccessLog.id.desc())).first()
    assert last == "tarifas 2026-11 → tarifas.csv"
    with pytest.raises(ValidationError, match="AAAA-MM"):
        svc.export_fares(db, desk.fiscal, "2026/11", out)


def _auth_trip_ids(db):
    with db.session(write=False) as s:
        return {r.external_id: r.id for r in s.scalars(select(TripRow))}


def test_art7_art8_art27_trips_that_show_an_infraction(db, desk):
    p = make_platform(db, desk.clerk)
    a = active(db, desk)                      # active from TODAY (18/11/2026)
    b = active(db, desk)
    cpf_a, plate_a = pair(db, a)
    cpf_b, plate_b = pair(db, b)
    unknown = cpf()
    content = trips_csv(
        trip("OK", plate_a, cpf_a, start="18/11/2026 09:00:00", end=""),
        trip("HAIL", plate_a, cpf_a, start="18/11/2026 09:30:00", end="", hail="via pública"),
        trip("BEFORE", plate_a, cpf_a, start="10/11/2026 09:00:00", end=""),   # before the activation: Art. 27
        trip("SWAP", plate_b, cpf_a, start="18/11/2026 09:40:00", end=""),     # Art. 8, 13 XIX
        trip("NOBODY", plate_a, unknown, start="18/11/2026 09:50:00", end=""))  # not registered: Art. 27
    svc.import_trips(db, desk.fiscal, p.id, content, "v.csv")
    page = svc.infractions(db, desk.fiscal, 2026, 11)
    got = sorted((f.trip.external_id, f.rule.code, f.rule.art13_item) for f in page.findings)
    assert got == [("BEFORE", "ART27", None), ("HAIL", "ART26-IV", None), ("NOBODY", "ART27", None),
                   ("SWAP", "ART26-III", "XIX")]
    assert page.trips_checked == 5 and page.total == 4
    assert next(f for f in page.findings if f.trip.external_id == "SWAP").driver_name
    with db.session(write=False) as s:
        log = s.scalars(select(TripAccessLog)).one()
    assert log.what == "viagens com infração 2026-11" and sorted(log.trip_ids) == sorted(
        f.trip.id for f in page.findings)
    _ = cpf_b


def test_art16_par2_art24_trips_during_an_impediment_or_a_suspension(db, desk):
    from desktop.models import Authorization, AuthorizationEvent

    p = make_platform(db, desk.clerk)
    a = active(db, desk, on=TODAY - timedelta(days=30))
    b = active(db, desk, on=TODAY - timedelta(days=30))
    cpf_a, plate_a = pair(db, a)
    cpf_b, plate_b = pair(db, b)
    with db.session() as s:
        for auth_id, status in ((a.id, "impeded"), (b.id, "suspended")):
            row = s.get(Authorization, auth_id)
            s.add(AuthorizationEvent(authorization_id=auth_id, kind="status", from_status="active", to_status=status,
                                     at=datetime(2026, 11, 10, 12, 0, tzinfo=UTC), effective_on=date(2026, 11, 10)))
            row.status = status
    content = trips_csv(trip("A-OK", plate_a, cpf_a, start="05/11/2026 09:00:00", end=""),
                        trip("A-IMP", plate_a, cpf_a, start="12/11/2026 09:00:00", end=""),
                        trip("B-SUS", plate_b, cpf_b, start="12/11/2026 09:00:00", end=""))
    svc.import_trips(db, desk.fiscal, p.id, content, "v.csv")
    got = {f.trip.external_id: f.rule.code for f in svc.infractions(db, desk.fiscal, 2026, 11).findings}
    assert got == {"A-IMP": "ART26-II", "B-SUS": "ART27"}


def test_open_statistics_k_anonymity_counts_below_10_published_as_minus_one(db, desk, tmp_path):
    p = make_platform(db, desk.clerk)
    q = make_platform(db, desk.clerk, cnpj="45.723.174/0001-10", name="Leva Eu")
    many = [trip(f"T{i}", PLATE, DRIVER, start=f"{1 + i % 28:02d}/11/2026 08:00:00", end="") for i in range(12)]
    many[0] = trip("T0", PLATE, DRIVER, end="", hail="via pública")
    svc.import_trips(db, desk.fiscal, p.id, trips_csv(*many), "p.csv")
    svc.import_trips(db, desk.fiscal, q.id, trips_csv(*many[:3]), "q.csv")
    stats = {r.platform_name: r for r in svc.statistics(db, desk.fiscal, 2026, 11)}
    assert stats["Vai Já"].trips == 12 and stats["Vai Já"].app_trips == 11
    assert stats["Vai Já"].street_hail_trips == -1 and stats["Vai Já"].unique_drivers == -1
    assert stats["Leva Eu"].trips == -1 and stats["Leva Eu"].total_distance_km == -1
    out = tmp_path / "estatisticas.csv"
    assert svc.export_statistics(db, desk.fiscal, out, 2026, 11) == 2
    text = out.read_text(encoding="utf-8")
    assert text.splitlines()[0] == ",".join(svc.STATISTICS_HEADERS) and DRIVER not in text
    with db.session(write=False) as s:
        assert s.scalars(select(TripAccessLog.action)).all() == ["export"]


def test_retention_removes_old_trips_but_keeps_evidence_of_an_auto(db, desk):
    from enforcement_factories import draft, setup_upfm

    from desktop.services import autos

    setup_upfm(db)
    p = make_platform(db, desk.clerk)
    a = active(db, desk)
    cpf_a, plate_a = pair(db, a)
    routes = routes_csv(("OLD1", "10/10/2024 08:00:00", "-15,46", "-55,75"),
                        ("OLD1", "10/10/2024 08:05:00", "-15,45", "-55,74"))
    # imported while they were recent (a file of trips already past the retention period is refused: issue 25)
    with clock.frozen(datetime(2024, 11, 20, 9, 0)):
        svc.import_trips(db, desk.fiscal, p.id, trips_csv(
            trip("OLD1", plate_a, cpf_a, start="10/10/2024 08:00:00", end=""),
            trip("OLD2", plate_a, cpf_a, start="17/11/2024 23:59:00", end="", hail="via pública"),
            trip("KEEP", plate_a, cpf_a, start="18/11/2024 00:00:00", end="")), "v.csv", routes=routes)
    svc.import_trips(db, desk.fiscal, p.id, trips_csv(
        trip("NEW", plate_a, cpf_a, start="18/11/2026 08:00:00", end="")), "v2.csv")
    ids = _auth_trip_ids(db)
    info = autos.draw_up_auto(db, desk.fiscal, draft("ART26-IV", TODAY, driver_id=a.driver_id,
                                                     description="Embarque na via pública (viagem OLD2).",
                                                     evidence_trip_ids=(ids["OLD2"],)))
    with db.session(write=False) as s:
        assert s.scalars(select(AutoTripEvidence.trip_id).where(AutoTripEvidence.auto_id == info.id)).all() == \
            [ids["OLD2"]]
    report = run_daily_jobs(db)
    assert report.trips_removed == 1
    assert sorted(_auth_trip_ids(db)) == ["KEEP", "NEW", "OLD2"]   # 24 months back from 18/11/2026
    assert count(db, TripRoutePoint) == 0
    again = svc.remove_expired_trips(db)
    assert (again.removed, again.kept_as_evidence, again.cutoff) == (0, 1, date(2024, 11, 18))
    with db.session(write=False) as s:
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "trips.retention")).one()
    after = json.loads(entry.after)
    assert after["removed"] == 1 and after["kept_as_evidence"] == 1
    _ = SYSTEM_ACTOR


def test_art4_data_request_answered_by_a_trip_file(db, desk):
    from desktop.services import data_requests as dr

    p = make_platform(db, desk.clerk)
    req = dr.create_data_request(db, desk.fiscal, dr.DataRequestDraft(
        platform_id=p.id, justification="Apuração de embarques na via pública", period_start=date(2026, 11, 1),
        period_end=date(2026, 11, 17), investigation=True))
    req = dr.notify_data_request(db, desk.fiscal, req.id, datetime(2026, 11, 17, 9, 0, tzinfo=UTC), req.version)
    report = svc.import_trips(db, desk.fiscal, p.id, trips_csv(trip("T1", PLATE, DRIVER)), "v.csv",
                              data_request_id=req.id)
    assert report.data_request_id == req.id
    with db.session(write=False) as s:
        row = s.get(DataRequest, req.id)
        t = s.scalars(select(TripRow)).one()
        imp = s.scalars(select(TripImport)).one()
    assert row.status == "answered" and row.answered_at is not None
    assert t.data_request_id == req.id and imp.data_request_id == req.id
    with pytest.raises(ConflictError, match="não pode ser respondida"):
        svc.import_trips(db, desk.fiscal, p.id, trips_csv(trip("T2", PLATE, DRIVER)), "w.csv",
                         data_request_id=req.id)
    assert count(db) == 1


class _Cancel:
    def __init__(self, after: int):
        self.after, self.calls = after, 0

    @property
    def cancelled(self) -> bool:
        return self.calls >= self.after

    def progress(self, done, total=0, text=""):
        self.calls += 1


def test_art4_cancel_mid_way_leaves_nothing(db, desk, monkeypatch):
    from desktop.importers import trips as reader

    monkeypatch.setattr(reader, "CHUNK_ROWS", 2)
    p = make_platform(db, desk.clerk)
    content = trips_csv(*[trip(f"T{i}", PLATE, DRIVER) for i in range(10)])
    state = _Cancel(after=3)
    with pytest.raises(svc.ImportCancelled):
        svc.import_trips(db, desk.fiscal, p.id, content, "v.csv", state=state)
    assert count(db) == 0 and count(db, TripImport) == 0


def test_issqn_fares_of_vehicle_month_and_nearest_class(db, desk):
    p = make_platform(db, desk.clerk)
    a = active(db, desk)
    cpf_a, plate_a = pair(db, a)
    with db.session() as s:
        s.add_all([IssqnClass(code="INT", name="Integral", monthly_base=Decimal("4000.00"), valid_from=date(2026, 1, 1)),
                   IssqnClass(code="PAR", name="Parcial", monthly_base=Decimal("2000.00"), valid_from=date(2026, 1, 1))])
    svc.import_trips(db, desk.fiscal, p.id, trips_csv(trip("T1", plate_a, cpf_a, total="1.500,00", fee="300,00"),
                                                      trip("T2", plate_a, cpf_a, total="1.200,00")), "v.csv")
    f = svc.fares_of_vehicle_month(db, desk.manager, a.vehicle_id, 2026, 11)
    assert (f.trips, f.total, f.platform_share, f.platforms) == (2, Decimal("2700.00"), Decimal("302.50"), ("Vai Já",))
    s_ = svc.nearest_class_suggestion(db, desk.manager, a.vehicle_id, 2026, 11)
    assert (s_.code, s_.monthly_base, s_.difference) == ("PAR", Decimal("2000.00"), Decimal("700.00"))
    assert svc.nearest_class_suggestion(db, desk.manager, a.vehicle_id, 2026, 10) is None


def test_art4_par1_iii_route_printed_numbered_archived_and_logged(db, desk):
    import io

    from pypdf import PdfReader

    from desktop.models import IssuedDocument
    from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize

    initialize(db, MunicipalityDraft(name="Chapada dos Guimarães", uf="MT",
                                     secretariat="Secretaria Municipal de Finanças", upfm_year=2026, ouvidoria_phone="(65) 3301-1234",
                                     upfm_value=Decimal("5.55")), AdminDraft("chefe", "Chefe", "senha-forte-2025"))
    p = make_platform(db, desk.clerk)
    routes = routes_csv(("T1", "18/11/2026 08:00:00", "-15,4600", "-55,7500"),
                        ("T1", "18/11/2026 08:10:00", "-15,4500", "-55,7300"),
                        ("T1", "18/11/2026 08:20:00", "-15,4300", "-55,7100"))
    svc.import_trips(db, desk.fiscal, p.id, trips_csv(trip("T1", PLATE, DRIVER, hail="via pública")), "v.csv",
                     routes=routes)
    trip_id = _auth_trip_ids(db)["T1"]
    issued = svc.print_route(db, desk.fiscal, trip_id)
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(issued.pdf)).pages)
    for words in ("TRAJETO DA VIAGEM T1", "Vai Já", "529.982.247-25", "-15.460000, -55.750000",
                  "-15.430000, -55.710000", "Início", "Fim", "via pública", issued.info.number):
        assert words in text, words
    assert " km" in text or " m" in text
    with db.session(write=False) as s:
        row = s.scalars(select(IssuedDocument)).one()
        log = s.scalars(select(TripAccessLog).where(TripAccessLog.action == "export")).one()
    assert row.kind == "trip_route" and row.record_type == "trip" and row.record_id == trip_id
    assert log.trip_ids == [trip_id] and issued.info.number in log.what
    with pytest.raises(PermissionDenied):
        svc.print_route(db, desk.clerk, trip_id)


def test_retention_recomputes_the_monthly_fare_totals(db, desk):
    p = make_platform(db, desk.clerk)
    with clock.frozen(datetime(2024, 11, 20, 9, 0)):   # imported while recent (issue 25: old files refused)
        svc.import_trips(db, desk.fiscal, p.id, trips_csv(
            trip("OLD1", PLATE, DRIVER, start="10/10/2024 08:00:00", end="", total="10,00"),
            trip("OLD2", PLATE, DRIVER, start="11/10/2024 08:00:00", end="", total="30,00")), "v.csv")
    assert [x.total for x in svc.fares(db, desk.fiscal, 2024, 10)] == [Decimal("40.00")]
    with db.session() as s:
        old2 = s.scalars(select(TripRow).where(TripRow.external_id == "OLD2")).one()
        from desktop.models import Auto  # noqa: F401  (the evidence row only needs an auto id)
    from enforcement_factories import draft, setup_upfm

    from desktop.services import autos

    setup_upfm(db)
    a = active(db, desk)
    autos.draw_up_auto(db, desk.fiscal, draft("ART26-IV", TODAY, driver_id=a.driver_id,
                                              evidence_trip_ids=(old2.id,)))
    assert svc.remove_expired_trips(db).removed == 1
    lines = svc.fares(db, desk.fiscal, 2024, 10)
    assert [(x.trips, x.total) for x in lines] == [(1, Decimal("30.00"))]
