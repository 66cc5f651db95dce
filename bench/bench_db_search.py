"""Prefix search over 100,000 drivers (issue 4's filter-as-you-type budget is 20 ms per keystroke, query and
model update together): `starts_with(search_key, fold(typed))` and CPF prefixes, first 50 rows, on SQLite and
PostgreSQL. Drivers are written with raw executemany (the search key computed with domain.text.fold).

    python3 bench/bench_db_search.py [--n 100000]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import uuid
from datetime import UTC
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import create_engine, select, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from desktop import migrate  # noqa: E402
from desktop.db import Database, sqlite_url  # noqa: E402
from desktop.models import Driver, fold, now, starts_with  # noqa: E402

FIRST = ["João", "José", "Maria", "Ana", "Conceição", "Antônio", "Francisco", "Luíza", "Márcia", "Sebastião"]
LAST = ["Silva", "Souza", "Oliveira", "Conceição", "Gonçalves", "Araújo", "Ribeiro", "Lima", "Pereira", "Brandão"]


def fill(db: Database, n: int) -> None:
    rnd = random.Random(7)
    stamp = now()
    rows = []
    for i in range(n):
        name = f"{rnd.choice(FIRST)} {rnd.choice(LAST)} {rnd.choice(LAST)} {i}"
        rows.append((f"{i:011d}", name, fold(name), "B", True, "active", 1, stamp, stamp))
    with db.session() as s:
        conn = s.connection()
        if db.is_sqlite:
            utc = stamp.astimezone(UTC).replace(tzinfo=None).isoformat(sep=" ")  # AwareDateTime's SQLite form
            rows = [r[:7] + (utc, utc) for r in rows]
            conn.connection.driver_connection.executemany(
                "INSERT INTO drivers (cpf, name, search_key, cnh_category, cnh_ear, status, version, created_at, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        else:
            with conn.connection.driver_connection.cursor() as cur:
                with cur.copy("COPY drivers (cpf, name, search_key, cnh_category, cnh_ear, status, version, "
                              "created_at, updated_at) FROM STDIN") as copy:
                    for r in rows:
                        copy.write_row(r)
    with db.engine.begin() as conn:
        conn.exec_driver_sql("ANALYZE")


def measure(db: Database, label: str) -> None:
    typed = ["j", "jo", "joa", "joao", "joao s", "conceicao go", "sebastiao brandao l"]
    with db.session(write=False) as s:
        for prefix in typed:  # warm
            s.execute(select(Driver.id, Driver.name, Driver.cpf).where(starts_with(Driver.search_key, prefix))
                      .order_by(Driver.search_key).limit(50)).all()
        t = time.perf_counter()
        rounds = 20
        for _ in range(rounds):
            for prefix in typed:
                s.execute(select(Driver.id, Driver.name, Driver.cpf)
                          .where(starts_with(Driver.search_key, fold(prefix)))
                          .order_by(Driver.search_key).limit(50)).all()
        name_ms = (time.perf_counter() - t) * 1000 / (rounds * len(typed))
        t = time.perf_counter()
        for _ in range(rounds):
            for prefix in ("0", "00000", "0000012", "000001234"):
                s.execute(select(Driver.id, Driver.name).where(starts_with(Driver.cpf, prefix))
                          .order_by(Driver.cpf).limit(50)).all()
        cpf_ms = (time.perf_counter() - t) * 1000 / (rounds * 4)
    print(f"{label:10s} name prefix, first 50: {name_ms:.2f} ms | CPF prefix, first 50: {cpf_ms:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--pg", default=os.environ.get("DESKTOP_TEST_PG_URL",
                                                       "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(sqlite_url(Path(tmp) / "bench.sqlite3"))
        migrate.upgrade(db, backup=False)
        t = time.perf_counter()
        fill(db, args.n)
        print(f"SQLite     {args.n} drivers written in {time.perf_counter() - t:.1f} s")
        measure(db, "SQLite")
        db.dispose()
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
        db = Database(url.render_as_string(hide_password=False))
        migrate.upgrade(db, backup=False)
        t = time.perf_counter()
        fill(db, args.n)
        print(f"PostgreSQL {args.n} drivers written in {time.perf_counter() - t:.1f} s")
        measure(db, "PostgreSQL")
        db.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


if __name__ == "__main__":
    main()
