"""The fines ledger at scale (issue 6 budgets), on SQLite and PostgreSQL:

- `services.ledger.statement` of an infractor with 10,000 entries (5,000 autos, each a debit and a payment)
  ≤ 100 ms;
- `services.ledger.ledger_page` — the first page of the ledger screen over 1,000,000 entries ≤ 300 ms, and the
  next pages as the user scrolls (keyset on the id: the table is never loaded).

Rows are written with raw executemany (COPY on PostgreSQL, as in bench_db_search), not through the ORM.

    python3 bench/bench_ledger.py [--total 1000000] [--target 10000] [--skip-pg] [--skip-sqlite]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from desktop import migrate  # noqa: E402
from desktop.db import Database, sqlite_url  # noqa: E402
from desktop.domain.ledger import EntryKind  # noqa: E402
from desktop.domain.roles import Role  # noqa: E402
from desktop.models import LOCAL_TZ, now  # noqa: E402
from desktop.services import ledger  # noqa: E402
from desktop.services.actors import Actor  # noqa: E402
from desktop.services.catalog import ensure_catalog  # noqa: E402
from desktop.services.ledger import Infractor, LedgerFilter  # noqa: E402

DRIVERS = 5000
UPFM_VALUE = Decimal("5.40")
READER = Actor(user_id=None, username="bench", full_name="Bench", roles=frozenset({Role.ATENDENTE}))


def _scaled(value: Decimal, places: int) -> int:
    return int(value * (10 ** places))


class Writer:
    """executemany on SQLite (values in the stored forms of Dec / AwareDateTime), COPY on PostgreSQL."""

    def __init__(self, db: Database, conn):
        self.db = db
        self.raw = conn.connection.driver_connection

    def dec(self, value: Decimal, places: int):
        return _scaled(value, places) if self.db.is_sqlite else value

    def ts(self, moment: datetime):
        if self.db.is_sqlite:
            return moment.astimezone(UTC).replace(tzinfo=None).isoformat(sep=" ")
        return moment

    def day(self, d: date):
        return d.isoformat() if self.db.is_sqlite else d

    def write(self, table: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
        if self.db.is_sqlite:
            marks = ", ".join("?" for _ in columns)
            self.raw.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
            return
        with self.raw.cursor() as cur:
            with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                for r in rows:
                    copy.write_row(r)


def fill(db: Database, total: int, target_entries: int) -> int:
    """DRIVERS drivers; the first one gets `target_entries` entries on target_entries/2 autos; the rest of the
    `total` entries are spread over the other drivers. Returns the target driver's id."""
    ensure_catalog(db)
    rnd = random.Random(6)
    stamp = now()
    with db.session() as s:
        code_id = s.execute(text("SELECT id FROM infraction_codes WHERE code = 'ART26-IV'")).scalar_one()
        w = Writer(db, s.connection())
        w.write("drivers", ("id", "cpf", "name", "search_key", "cnh_category", "cnh_ear", "status", "version",
                            "created_at", "updated_at"),
                [(i, f"{i:011d}", f"Condutor {i}", f"condutor {i}", "B", True, "active", 1, w.ts(stamp),
                  w.ts(stamp)) for i in range(1, DRIVERS + 1)])
        n_autos = target_entries // 2
        start = date(2020, 1, 1)
        fine = Decimal(30)
        reais = (fine * UPFM_VALUE).quantize(Decimal("0.01"))
        autos, entries = [], []
        for i in range(1, n_autos + 1):
            day = start + timedelta(days=i // 3)
            at = datetime.combine(day, datetime.min.time(), tzinfo=LOCAL_TZ) + timedelta(hours=10)
            autos.append((i, f"{i:04d}/{day.year}-{i}", w.ts(at), "Praça central", 1, code_id, "ART26-IV",
                          "Embarque na via pública", "paid", w.dec(fine, 4), w.dec(UPFM_VALUE, 6),
                          w.dec(reais, 2), False, 1, w.ts(stamp)))
            entries.append((1, i, EntryKind.DEBIT.value, w.dec(fine, 4), w.dec(UPFM_VALUE, 6), w.dec(reais, 2),
                            w.day(day), w.ts(stamp), "Multa"))
            entries.append((1, i, EntryKind.PAYMENT.value, w.dec(-fine, 4), w.dec(UPFM_VALUE, 6),
                            w.dec(-reais, 2), w.day(day + timedelta(days=20)), w.ts(stamp), None))
        w.write("autos", ("id", "number", "drawn_up_at", "place", "infractor_driver_id", "infraction_code_id",
                          "code", "description", "status", "amount_upfm", "upfm_value", "amount_reais",
                          "recurrence", "version", "created_at"), autos)
        columns = ("infractor_driver_id", "auto_id", "kind", "amount_upfm", "upfm_value", "amount_reais",
                   "effective_on", "posted_at", "reason")
        w.write("ledger_entries", columns, entries)
        batch: list[tuple] = []
        for j in range(total - len(entries)):
            driver = rnd.randint(2, DRIVERS)
            upfm = Decimal(rnd.choice((10, 20, 30, 40)))
            kind = EntryKind.DEBIT if j % 2 == 0 else EntryKind.PAYMENT
            sign = 1 if kind is EntryKind.DEBIT else -1
            day = start + timedelta(days=rnd.randint(0, 2500))
            batch.append((driver, None, kind.value, w.dec(sign * upfm, 4), w.dec(UPFM_VALUE, 6),
                          w.dec(sign * (upfm * UPFM_VALUE).quantize(Decimal("0.01")), 2), w.day(day),
                          w.ts(stamp), None))
            if len(batch) == 100_000:
                w.write("ledger_entries", columns, batch)
                batch = []
        if batch:
            w.write("ledger_entries", columns, batch)
        if db.is_postgresql:
            for table in ("drivers", "autos"):
                s.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                               f"(SELECT max(id) FROM {table}))"))
    with db.engine.begin() as conn:
        conn.exec_driver_sql("ANALYZE")
    return 1


def _timed(fn, rounds: int) -> tuple[float, float]:
    """(median wall ms, median CPU ms of this process). The machine is shared: CPU time shows the program's own
    cost when other work slows the wall clock (SQLite runs in-process; PostgreSQL's work is in the server)."""
    fn()  # warm
    walls, cpus = [], []
    for _ in range(rounds):
        t, c = time.perf_counter(), time.process_time()
        fn()
        walls.append((time.perf_counter() - t) * 1000)
        cpus.append((time.process_time() - c) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def measure(db: Database, label: str, target: int) -> None:
    who = Infractor.driver(target)
    st = ledger.statement(db, READER, who)
    med, cpu = _timed(lambda: ledger.statement(db, READER, who), 10)
    print(f"{label:10s} statement of {len(st.entries):,} entries: median {med:.1f} ms wall, {cpu:.1f} ms CPU "
          f"(budget 100 ms)")
    med, cpu = _timed(lambda: ledger.ledger_page(db, READER, limit=200), 10)
    print(f"{label:10s} ledger first page (200 of all): median {med:.1f} ms wall, {cpu:.1f} ms CPU "
          "(budget 300 ms)")

    def scroll():
        page = ledger.ledger_page(db, READER, limit=200)
        for _ in range(9):
            page = ledger.ledger_page(db, READER, after=page.next_cursor, limit=200)

    med, _ = _timed(scroll, 5)
    print(f"{label:10s} ledger scroll 10 pages: {med / 10:.1f} ms per page")
    med, _ = _timed(lambda: ledger.ledger_page(db, READER, LedgerFilter(kind=EntryKind.PAYMENT), limit=200), 5)
    print(f"{label:10s} ledger first page of payments: {med:.1f} ms")
    med, _ = _timed(lambda: ledger.ledger_page(db, READER, LedgerFilter(infractor=Infractor.driver(77)),
                                               limit=200), 5)
    print(f"{label:10s} ledger first page of one driver: {med:.1f} ms")
    med, _ = _timed(lambda: ledger.ledger_totals(db, READER), 3)
    print(f"{label:10s} ledger totals (count + sum of all): {med:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--total", type=int, default=1_000_000)
    parser.add_argument("--target", type=int, default=10_000)
    parser.add_argument("--skip-sqlite", action="store_true")
    parser.add_argument("--skip-pg", action="store_true")
    parser.add_argument("--pg", default=os.environ.get("DESKTOP_TEST_PG_URL",
                                                       "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()
    if not args.skip_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            db = Database(sqlite_url(Path(tmp) / "bench.sqlite3"))
            migrate.upgrade(db, backup=False)
            t = time.perf_counter()
            target = fill(db, args.total, args.target)
            print(f"SQLite     {args.total:,} entries written in {time.perf_counter() - t:.1f} s")
            measure(db, "SQLite", target)
            db.dispose()
    if args.skip_pg:
        return
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
        target = fill(db, args.total, args.target)
        print(f"PostgreSQL {args.total:,} entries written in {time.perf_counter() - t:.1f} s")
        measure(db, "PostgreSQL", target)
        db.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


if __name__ == "__main__":
    main()
