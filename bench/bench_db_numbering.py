"""Benchmark of the data layer's write paths: gap-free numbering (one and two processes), audit appends and
audit verification, on SQLite and PostgreSQL. Figures go in the report, not in timed tests.

    python3 bench/bench_db_numbering.py [--n 1000] [--pg postgresql+psycopg://postgres@127.0.0.1:5432/test]
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from desktop import migrate  # noqa: E402
from desktop.db import Database, sqlite_url  # noqa: E402
from desktop.services import audit  # noqa: E402
from desktop.services.actors import SYSTEM_ACTOR  # noqa: E402
from desktop.services.numbering import next_number  # noqa: E402


def _number_many(url: str, n: int, kind: str) -> float:
    db = Database(url)
    t = time.perf_counter()
    for _ in range(n):
        with db.session() as s:
            next_number(s, kind, 2026)
    db.dispose()
    return time.perf_counter() - t


def run(url: str, label: str, n: int) -> None:
    db = Database(url)
    migrate.upgrade(db, backup=False)
    one = _number_many(url, n, "guide")
    ctx = mp.get_context("spawn")
    t = time.perf_counter()
    with ctx.Pool(2) as pool:
        pool.starmap(_number_many, [(url, n // 2, "auto"), (url, n // 2, "auto")])
    two = time.perf_counter() - t  # includes starting two interpreters (~0.5 s)
    t = time.perf_counter()
    for i in range(n):
        with db.session() as s:
            audit.record(s, SYSTEM_ACTOR, "update", "driver", i, {"name": "Joao"}, {"name": "João"})
    rec = time.perf_counter() - t
    t = time.perf_counter()
    check = audit.verify(db)
    ver = time.perf_counter() - t
    assert check.ok and check.checked == n
    db.dispose()
    print(f"{label:10s} numbering 1 process: {n / one:7.0f}/s ({one * 1000 / n:.2f} ms each) | "
          f"2 processes: {n / two:7.0f}/s | audit.record: {rec * 1000 / n:.2f} ms each | "
          f"verify {n} entries: {ver * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--pg", default=os.environ.get("DESKTOP_TEST_PG_URL",
                                                       "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(sqlite_url(Path(tmp) / "bench.sqlite3"), "SQLite", args.n)
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(make_url(args.pg), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # noqa: BLE001
        print(f"PostgreSQL indisponível: {exc.__class__.__name__}")
        return
    try:
        url = make_url(args.pg).update_query_dict({"options": f"-csearch_path={schema}"})
        run(url.render_as_string(hide_password=False), "PostgreSQL", args.n)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


if __name__ == "__main__":
    main()
