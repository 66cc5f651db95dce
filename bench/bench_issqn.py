"""Benchmark of the ISSQN (issue 13, Art. 11): a competência of 10,000 vehicles computed and stored
(`services.issqn.run_competence`, target ≤ 2 s on SQLite) and the ISSQN screen's first page with 12 × 10,000
estimates (totals per platform + the first 100 rows + the row count, target ≤ 200 ms). The register is written
straight through Core executemany (the generator, not what is measured). Figures go in the report.

    python3 bench/bench_issqn.py [--vehicles 10000] [--pg postgresql+psycopg://postgres@127.0.0.1:5432/test]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from datetime import date, datetime, time as dtime
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DESKTOP_KEY_STORE", "file")

from sqlalchemy import create_engine, insert, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from desktop import migrate  # noqa: E402
from desktop.domain import clock  # noqa: E402
from desktop.domain.formatting import TIMEZONE  # noqa: E402
from desktop.db import Database, sqlite_url  # noqa: E402
from desktop.models import (  # noqa: E402
    Authorization, AuthorizationEvent, Driver, DriverPlatform, Platform, Vehicle, VehicleIssqnClass,
)
from desktop.services import issqn, parameters, setup  # noqa: E402

TODAY = datetime(2026, 12, 1, 10, 0, tzinfo=TIMEZONE)
MONTHS = [(2025, 12)] + [(2026, m) for m in range(1, 12)]


def _database(pg: str | None) -> Database:
    if pg:
        schema = f"bench_issqn_{uuid.uuid4().hex[:8]}"
        admin = create_engine(pg)
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        admin.dispose()
        url = make_url(pg).update_query_dict({"options": f"-csearch_path={schema}"})
        db = Database(url.render_as_string(hide_password=False))
    else:
        db = Database(sqlite_url(Path(tempfile.mkdtemp()) / "issqn.sqlite3"))
    migrate.upgrade(db, backup=False)
    return db


def _cpf(i: int) -> str:
    return f"{i:011d}"


def fill(db: Database, n: int):
    gestor = setup.initialize(db, setup.MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55"), febraban_agreement="0123"),
        setup.AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    parameters.set_parameter(db, gestor, "issqn_rate_percent", date(2025, 6, 4), "3")
    full = issqn.create_class(db, gestor, "INTEGRAL", "Dedicação integral", Decimal("3000"), date(2025, 6, 4))
    part = issqn.create_class(db, gestor, "PARCIAL", "Dedicação parcial", Decimal("1500"), date(2025, 6, 4))
    start = date(2025, 6, 10)
    at = datetime.combine(start, dtime(9), tzinfo=TIMEZONE)
    with db.session() as s:
        pids = []
        for k in range(4):
            p = Platform(cnpj=f"{k + 11:02d}222333000181", legal_name=f"Plataforma {k} Ltda", trade_name=f"App {k}",
                         status="active")
            s.add(p)
            s.flush()
            pids.append(p.id)
        s.execute(insert(Driver), [{"cpf": _cpf(i), "name": f"Condutor {i}", "cnh_category": "B", "cnh_ear": True,
                                    "version": 1, "search_key": f"condutor {i}"} for i in range(n)])
        s.execute(insert(Vehicle), [{"plate": f"QB{i:05d}", "renavam": f"{i:011d}", "make": "Fiat", "model": "Cronos",
                                     "manufacture_year": 2022, "model_year": 2023, "doors": 4, "seats": 5,
                                     "air_conditioning": True, "registration_municipality": "Chapada dos Guimarães",
                                     "registration_uf": "MT", "version": 1, "search_key": ""} for i in range(n)])
        drivers = [r[0] for r in s.execute(text("SELECT id FROM drivers ORDER BY id"))]
        vehicles = [r[0] for r in s.execute(text("SELECT id FROM vehicles ORDER BY id"))]
        s.execute(insert(Authorization), [
            {"number": f"{i + 1:05d}/2025", "driver_id": d, "vehicle_id": v, "status": "active",
             "protocol_date": start, "activated_on": start, "fee_paid_on": start, "valid_until": date(2027, 6, 9),
             "version": 1} for i, (d, v) in enumerate(zip(drivers, vehicles))])
        auths = [r[0] for r in s.execute(text("SELECT id FROM authorizations ORDER BY id"))]
        s.execute(insert(AuthorizationEvent), [
            {"authorization_id": a, "kind": "activation", "from_status": "approved", "to_status": "active", "at": at,
             "effective_on": start} for a in auths])
        s.execute(insert(DriverPlatform), [{"driver_id": d, "platform_id": pids[i % 4], "version": 1}
                                           for i, d in enumerate(drivers)]
                  + [{"driver_id": d, "platform_id": pids[(i + 1) % 4], "version": 1}
                     for i, d in enumerate(drivers) if i % 3 == 0])
        s.execute(insert(VehicleIssqnClass), [
            {"vehicle_id": v, "class_id": full.id if i % 4 else part.id, "valid_from": date(2025, 6, 4),
             "decided_by": gestor.user_id, "reason": "Enquadramento inicial"} for i, v in enumerate(vehicles)
            if i % 100 != 99])
    return gestor


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--vehicles", type=int, default=10000)
    parser.add_argument("--pg", metavar="URL")
    args = parser.parse_args()
    clock.set_clock(clock.fixed(TODAY))
    db = _database(args.pg)
    t0 = time.perf_counter()
    gestor = fill(db, args.vehicles)
    print(f"register of {args.vehicles} vehicles written in {time.perf_counter() - t0:.1f} s "
          f"({'PostgreSQL' if args.pg else 'SQLite'})")
    runs = []
    for year, month in MONTHS:
        t = time.perf_counter()
        result = issqn.run_competence(db, gestor, year, month)
        runs.append(time.perf_counter() - t)
    print(f"competência run (first computation), {result.vehicles} estimates each: first {runs[0]:.2f} s, "
          f"median {statistics.median(runs):.2f} s, max {max(runs):.2f} s; {len(result.without_class)} unclassified")
    t = time.perf_counter()
    again = issqn.run_competence(db, gestor, 2026, 11)
    print(f"repeated run of 11/2026, nothing new: {time.perf_counter() - t:.2f} s, {again.computed} rows rewritten")
    issqn.new_class_base(db, gestor, "INTEGRAL", Decimal("3100"), date(2026, 11, 1), "Nova base (benchmark)")
    t = time.perf_counter()
    again = issqn.run_competence(db, gestor, 2026, 11)
    print(f"repeated run of 11/2026 after a new base: {time.perf_counter() - t:.2f} s, {again.computed} rows "
          "recalculated")
    t = time.perf_counter()
    for pid in (1, 2):
        issqn.issue_issqn_guide(db, gestor, pid, 2026, 11)
    print(f"two platform guides of 11/2026 issued: {time.perf_counter() - t:.2f} s")
    firsts = []
    for _ in range(7):
        t = time.perf_counter()
        issqn.month_totals(db, gestor, 2026, 11)
        issqn.share_rows(db, gestor, 2026, 11, limit=100)
        issqn.share_count(db, gestor, 2026, 11)
        firsts.append(time.perf_counter() - t)
    print(f"screen first page (totals + 100 rows + count) with {len(MONTHS)} × {args.vehicles} estimates: "
          f"median {statistics.median(firsts) * 1000:.0f} ms, best {min(firsts) * 1000:.0f} ms")
    t = time.perf_counter()
    issqn.share_rows(db, gestor, 2026, 11, platform_id=1, text="QB0001", limit=100)
    print(f"filtered page (platform + plate prefix): {(time.perf_counter() - t) * 1000:.0f} ms")
    t = time.perf_counter()
    issqn.unpaid_platforms(db, gestor)
    print(f"platforms with unpaid competências (all 12 months): {(time.perf_counter() - t) * 1000:.0f} ms")
    t = time.perf_counter()
    issqn.platform_series(db, gestor, 2026, 11)
    print(f"12-month series per platform: {(time.perf_counter() - t) * 1000:.0f} ms")
    db.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
