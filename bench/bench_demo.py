"""Benchmark: `python -m desktop demo --drivers 100000` on a fresh SQLite file (issue 2 budget: ≤ 60 s).

    python3 bench/bench_demo.py [--drivers 100000] [--seed 2025] [--keep]

Prints the wall time of the whole command (a new process, as the office runs it, migrations included), the CPU
time of the process (on a shared machine the wall time also counts other people's work), the rows per table and
the seconds spent writing each table. Figures go in the report, not in a timed test (STYLE: bench/).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--drivers", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--keep", action="store_true", help="keep the database file")
    parser.add_argument("--detail", action="store_true", help="also run in-process to print per-table times")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-demo-"))
    path = folder / "demo.sqlite3"
    url = f"sqlite:///{path}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DESKTOP_DB_URL", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "desktop", "--db", url, "demo", "--drivers", str(args.drivers),
                           "--seed", str(args.seed)], cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        print(proc.stderr, file=sys.stderr)
        return proc.returncode
    print(proc.stdout.strip())
    print(f"demo --drivers {args.drivers}: {wall:.1f} s wall, {cpu:.1f} s CPU, "
          f"file {path.stat().st_size / 1e6:.0f} MB, load average {os.getloadavg()[0]:.1f}")
    if args.detail:
        sys.path.insert(0, str(ROOT))
        from desktop.migrate import open_database
        from desktop.demo import load_demo

        detail = folder / "detail.sqlite3"
        db = open_database(f"sqlite:///{detail}")
        summary = load_demo(db, drivers=args.drivers, seed=args.seed)
        db.dispose()
        print(f"in-process load: {summary.seconds:.1f} s; writing per table:")
        for table, secs in sorted(summary.write_seconds.items(), key=lambda kv: -kv[1]):
            print(f"  {table:<28} {summary.counts.get(table, 0):>9} rows {secs:7.2f} s")
    if not args.keep:
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()
    else:
        print(f"kept: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
