"""Benchmark of the home dashboard (issue 16): every tile of a gestor (who sees them all) counted in one read
transaction must take ≤ 300 ms with the 100,000-driver demo database.

    python3 bench/bench_dashboard.py                               # SQLite file in /tmp, 100,000 drivers
    python3 bench/bench_dashboard.py --db postgresql+psycopg://postgres@127.0.0.1:5432/test --schema bench_dashboard
    python3 bench/bench_dashboard.py --drivers 20000

The data comes from the demo loader (`desktop.demo.load_demo`, as bench/bench_registry.py does); an existing
database with enough drivers is reused. Prints the total per call and the cost of each tile. Figures go in the
notes, not in timed tests (STYLE).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_registry import _summary, _timed, _url_with_schema  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="sqlite:////tmp/bench_dashboard.sqlite3")
    parser.add_argument("--schema", default=None, help="PostgreSQL schema to use (created if missing)")
    parser.add_argument("--drivers", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=2025)
    args = parser.parse_args(argv)

    from sqlalchemy import func, select

    from desktop.migrate import open_database
    from desktop.domain.dates import local_now
    from desktop.models import Driver
    from desktop.services import dashboard as svc
    from desktop.services.actors import SYSTEM_ACTOR
    from desktop.services.dashboard_queries import window
    from desktop.services.holidays import calendar_in

    db = open_database(_url_with_schema(args.db, args.schema))
    print(f"Banco: {db.describe()}")
    print(f"Carga da máquina (load average): {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with db.session(write=False) as s:
        have = s.execute(select(func.count()).select_from(Driver)).scalar_one()
    if have < args.drivers:
        from desktop.demo import load_demo

        t0 = time.perf_counter()
        load_demo(db, drivers=args.drivers - have, seed=args.seed, force=have > 0)
        print(f"Carga de {args.drivers - have} condutores (desktop.demo): {time.perf_counter() - t0:.1f} s")
    if db.is_postgresql:
        from desktop.models import Base

        tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql(f"VACUUM ANALYZE {tables}")
    with db.session(write=False) as s:
        print(f"Condutores: {s.execute(select(func.count()).select_from(Driver)).scalar_one()}")
    actor = SYSTEM_ACTOR   # every role: every tile

    board = svc.dashboard(db, actor)   # warm the statement cache
    print("\nQuadros (gestor vê todos):")
    for tile in board.tiles:
        print(f"  {tile.key:18} {tile.count:>7}  {tile.severity:8} {tile.deadline or ''}")
    times = _timed(lambda: svc.dashboard(db, actor), args.repeat)
    print(f"\nPainel inteiro (uma transação de leitura): {_summary(times)} (meta ≤ 300 ms)")

    print("\nCusto de cada quadro:")
    with db.session(write=False) as s:
        now = local_now()
        calendar = calendar_in(s)
        ctx = svc._Ctx(s, actor, window(now.date(), calendar), now, calendar)
        for key, _roles, compute in svc.TILES:
            compute(ctx)
            t = _timed(lambda c=compute: c(ctx), max(3, args.repeat // 3))
            print(f"  {key:18} mediana {statistics.median(t):7.2f} ms")
    db.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
