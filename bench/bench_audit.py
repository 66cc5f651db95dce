"""Benchmark of the anchored audit (issue 11): signing a checkpoint and verifying the chain against it for
1,000,000 audit entries, and the cost of the per-transaction re-read of the acting user (live sessions).
SQLite file (default) or PostgreSQL (--pg URL, a fresh schema). Figures go in the report, not in timed tests.

    python3 bench/bench_audit.py [--entries 1000000] [--pg postgresql+psycopg://postgres@127.0.0.1:5432/test]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from types import SimpleNamespace
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DESKTOP_KEY_STORE", "file")

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from desktop import migrate  # noqa: E402
from desktop.db import Database, sqlite_url  # noqa: E402
from desktop.models import AuditEntry  # noqa: E402
from desktop.services import audit, checkpoints, setup  # noqa: E402


def _fill(db: Database, n: int) -> float:
    """n chained entries written straight through the driver (the generator, not what is measured)."""
    started = time.perf_counter()
    with db.session(write=False) as s:
        last = s.execute(text("SELECT id, hash FROM audit_entries ORDER BY id DESC LIMIT 1")).first()
    prev = last.hash if last else audit.GENESIS
    base = datetime(2026, 1, 1, tzinfo=UTC)
    rows = []
    table = AuditEntry.__table__
    for i in range(n):
        at = base + timedelta(seconds=i)
        before = audit.canonical_json({"status": "requested", "n": i})
        after = audit.canonical_json({"status": "active", "n": i, "fee": Decimal("112.45")})
        row = {"at": at, "user_id": None, "username": "sistema", "action": "authorization.status",
               "entity": "authorization", "entity_id": str(i), "before": before, "after": after,
               "prev_hash": prev}
        h = audit._stored_entry_hash(prev, SimpleNamespace(**row))
        row["hash"] = h
        rows.append(row)
        prev = h
        if len(rows) == 20000:
            with db.engine.begin() as conn:
                conn.execute(table.insert(), rows)
            rows = []
    if rows:
        with db.engine.begin() as conn:
            conn.execute(table.insert(), rows)
    return time.perf_counter() - started


def run(db: Database, entries: int, label: str) -> None:
    migrate.upgrade(db, backup=False)
    actor = setup.initialize(db, setup.MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria", ouvidoria_phone="(65) 3301-1234",
        upfm_year=2026, upfm_value=Decimal("112.45")), setup.AdminDraft("gestora", "Gestora", "senha-forte-1"))
    filled = _fill(db, entries)
    t0 = time.perf_counter()
    cp = checkpoints.make_checkpoint(db, actor)
    signed = time.perf_counter() - t0
    t0 = time.perf_counter()
    check = audit.verify(db)
    verified = time.perf_counter() - t0
    assert check.ok, check.reason
    print(f"{label}: {cp.entry_count} entradas (gerador {filled:.1f} s) — assinar o ponto {signed * 1000:.0f} ms; "
          f"verificar a cadeia contra o ponto {verified:.1f} s ({check.checked / verified:,.0f} entradas/s)")
    # live sessions: the re-read of the acting user, once per write transaction
    samples, plain = [], []
    for _ in range(300):
        with db.session() as s:
            t0 = time.perf_counter()
            audit.check_live_actor(s, actor)
            samples.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            s.execute(text("SELECT 1"))
            plain.append(time.perf_counter() - t0)
            s.rollback()
    print(f"{label}: releitura do usuário por transação — mediana {statistics.median(samples) * 1000:.3f} ms, "
          f"p95 {sorted(samples)[int(len(samples) * 0.95)] * 1000:.3f} ms (um SELECT 1: "
          f"{statistics.median(plain) * 1000:.3f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--pg", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DESKTOP_KEY_DIR"] = str(Path(tmp) / "chaves")
        if args.pg:
            from tests.db.conftest import pg_url_with_schema

            schema = f"bench_{uuid.uuid4().hex[:8]}"
            admin = create_engine(make_url(args.pg), isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'CREATE SCHEMA "{schema}"'))
            db = Database(pg_url_with_schema(args.pg, schema))
            try:
                run(db, args.entries, "PostgreSQL")
            finally:
                db.dispose()
                with admin.connect() as conn:
                    conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
                admin.dispose()
        else:
            db = Database(sqlite_url(Path(tmp) / "bench.sqlite3"))
            try:
                run(db, args.entries, "SQLite")
            finally:
                db.dispose()


if __name__ == "__main__":
    main()
