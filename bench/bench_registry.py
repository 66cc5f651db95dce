"""Benchmark of the register's lists and detail pages (issue 4): with 100,000 drivers each keystroke of the driver
list filter must answer in ≤ 20 ms (query + the page's row dataclasses) and a driver's detail page in ≤ 100 ms.

    python3 bench/bench_registry.py                              # SQLite file in /tmp, 100,000 drivers
    python3 bench/bench_registry.py --db postgresql+psycopg://postgres@127.0.0.1:5432/test --schema bench_registry
    python3 bench/bench_registry.py --db sqlite:////tmp/x.sqlite3 --drivers 20000

The data comes from the demo loader (`desktop.demo.load_demo`, the same as `python -m desktop demo`); an existing
database with enough drivers is reused. Figures go in the notes, not in timed tests (STYLE).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

KEYSTROKES = [
    # a name typed letter by letter, accents left out ("joao" finds "João")
    "j", "jo", "joa", "joao", "joao ", "joao s",
    "m", "ma", "mar", "mari", "maria",
    "conceicao", "ANTÔNIO", "sil",  # "sil" has no name starting with it in most seeds: contains fallback
    # a CPF typed digit by digit
    "0", "01", "012", "012.3", "012.34",
    "",  # the cleared filter: first page of everyone, with the total
]


CPU: list[float] = []  # process CPU time of the last _timed call (SQLite: the whole work; PostgreSQL: the client's)


def _timed(fn, repeat: int) -> list[float]:
    """Wall-clock milliseconds per call; the process CPU milliseconds go to CPU. On a shared, loaded machine the
    wall clock includes waiting for a core: CPU time is what the same call costs on an idle desktop (SQLite)."""
    times = []
    CPU.clear()
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
        CPU.append((time.process_time() - c0) * 1000)
    return times


def _summary(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    cpu = f" · CPU mediana {statistics.median(CPU):6.2f} ms" if CPU else ""
    return f"mediana {statistics.median(times):6.2f} ms · p95 {p95:6.2f} ms · máx {times[-1]:6.2f} ms{cpu}"


def _url_with_schema(url: str, schema: str | None) -> str:
    if not schema or not url.startswith("postgresql"):
        return url
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(make_url(url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
    admin.dispose()
    u = make_url(url)
    query = dict(u.query)
    query["options"] = f"-csearch_path={schema}"
    return u.set(query=query).render_as_string(hide_password=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="sqlite:////tmp/bench_registry.sqlite3")
    parser.add_argument("--schema", default=None, help="PostgreSQL schema to use (created if missing)")
    parser.add_argument("--drivers", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2025)
    args = parser.parse_args(argv)

    from sqlalchemy import func, select

    from desktop.migrate import open_database
    from desktop.models import Authorization, Driver
    from desktop.services.authorizations import authorization_detail, list_authorizations
    from desktop.services.actors import SYSTEM_ACTOR
    from desktop.services.drivers import driver_detail, list_drivers
    from desktop.services.vehicles import list_vehicles

    db = open_database(_url_with_schema(args.db, args.schema))
    print(f"Banco: {db.describe()}")
    print(f"Carga da máquina (load average): {' '.join(f'{x:.1f}' for x in __import__('os').getloadavg())}")
    with db.session(write=False) as s:
        have = s.execute(select(func.count()).select_from(Driver)).scalar_one()
    if have < args.drivers:
        from desktop.demo import load_demo

        t0 = time.perf_counter()
        load_demo(db, drivers=args.drivers - have, seed=args.seed, force=have > 0)
        print(f"Carga de {args.drivers - have} condutores (desktop.demo): {time.perf_counter() - t0:.1f} s")
    if db.is_postgresql:
        # What autovacuum does shortly after a bulk load: statistics (without them the planner believes the
        # tables hold one row and picks scans) and the visibility map (index-only scans for the counts).
        from desktop.models import Base

        tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql(f"VACUUM ANALYZE {tables}")
    with db.session(write=False) as s:
        have = s.execute(select(func.count()).select_from(Driver)).scalar_one()
        driver_ids = s.execute(select(Driver.id)).scalars().all()
        auth_ids = s.execute(select(Authorization.id)).scalars().all()
    print(f"Condutores: {have}")
    actor = SYSTEM_ACTOR

    print("\nFiltro da lista de condutores, por tecla (consulta + 50 linhas DriverRow + total):")
    worst = 0.0
    for text in KEYSTROKES:
        list_drivers(db, actor, text)  # warm the statement cache
        times = _timed(lambda t=text: list_drivers(db, actor, t), args.repeat)
        page = list_drivers(db, actor, text)
        worst = max(worst, statistics.median(times))
        print(f"  {text!r:12} {page.total:>7} achados · {_summary(times)}")
    print(f"  pior mediana: {worst:.2f} ms (meta ≤ 20 ms)")

    print("\nOutras listas:")
    for label, fn in (
        ("veículos 'q'", lambda: list_vehicles(db, actor, "q")),
        ("veículos ''", lambda: list_vehicles(db, actor, "")),
        ("autorizações 'jo'", lambda: list_authorizations(db, actor, "jo")),
        ("autorizações '12/2'", lambda: list_authorizations(db, actor, "12/2")),
        ("autorizações ativas", lambda: list_authorizations(db, actor, "", statuses=["active"])),
        ("condutores pág. 1000", lambda: list_drivers(db, actor, "", offset=50_000)),
    ):
        fn()
        print(f"  {label:24} {_summary(_timed(fn, args.repeat))}")

    rng = random.Random(args.seed)
    print("\nPáginas de detalhe (50 registros ao acaso):")
    sample = iter(rng.sample(driver_ids, min(51, len(driver_ids))))
    driver_detail(db, actor, next(sample))
    print(f"  condutor      {_summary(_timed(lambda: driver_detail(db, actor, next(sample)), 50))} (meta ≤ 100 ms)")
    if auth_ids:
        sample = iter(rng.sample(auth_ids, min(51, len(auth_ids))))
        authorization_detail(db, actor, next(sample))
        print(f"  autorização   {_summary(_timed(lambda: authorization_detail(db, actor, next(sample)), 50))}")
    db.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
