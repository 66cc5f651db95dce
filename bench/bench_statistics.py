"""Statistics at scale (issue 16 budgets), on the 100,000-driver demo database (SQLite):

- each statistic of Relatórios → Estatísticas over 12 months ≤ 500 ms;
- the monthly management report PDF (every statistic, its chart and table) ≤ 3 s.

    python3 bench/bench_statistics.py [--drivers 100000] [--db FILE]   (--db reuses a demo database)

Prints wall and CPU time of each (the machine is shared: the CPU time is the program's own work).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import date, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DESKTOP_KEY_DIR", tempfile.mkdtemp(prefix="bench-stats-keys-"))
os.environ.setdefault("DESKTOP_SETTINGS_FILE", str(Path(tempfile.mkdtemp()) / "settings.json"))

from desktop.migrate import open_database  # noqa: E402
from desktop.domain import clock  # noqa: E402
from desktop.services import statistics as st  # noqa: E402
from desktop.services.actors import SYSTEM_ACTOR  # noqa: E402

TODAY = date(2026, 11, 18)


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--drivers", type=int, default=100_000)
    parser.add_argument("--db", help="an existing demo database file (skips the load)")
    args = parser.parse_args()
    clock.set_clock(clock.fixed(datetime(2026, 11, 18, 10, 0)))
    path = Path(args.db) if args.db else Path(tempfile.mkdtemp(prefix="bench-stats-")) / "demo.sqlite3"
    db = open_database(f"sqlite:///{path}")
    if not args.db:
        from desktop.demo.entry import load_demo

        _, wall, _ = timed(lambda: load_demo(db, drivers=args.drivers, today=TODAY))
        print(f"demo de {args.drivers} condutores: {wall:.1f} s ({path})")
    period = st.Period.last_months(12, TODAY)
    with db.session(write=False) as s:   # the first query configures the mappers: not part of a statistic
        st.statistic_in(s, SYSTEM_ACTOR, "new_authorizations", period)
    worst = 0.0
    for definition in st.STATISTICS:
        _, wall, cpu = timed(lambda: st.statistic(db, SYSTEM_ACTOR, definition.key, period))
        worst = max(worst, wall)
        print(f"{definition.title:<40} {wall * 1000:7.0f} ms (CPU {cpu * 1000:5.0f} ms)")
    import matplotlib.figure  # noqa: F401  — the program has it loaded once the first chart is shown
    _, wall, cpu = timed(lambda: st.management_report(db, SYSTEM_ACTOR, st.Month(2026, 11)))
    print(f"relatório gerencial (PDF): {wall:.2f} s (CPU {cpu:.2f} s)")
    ok = worst <= 0.5 and wall <= 3.0
    print("dentro das metas" if ok else "FORA DAS METAS (500 ms por estatística, 3 s o relatório)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
