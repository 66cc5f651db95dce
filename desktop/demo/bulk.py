"""Bulk inserts through the database driver, inside the caller's SQLAlchemy transaction (NOTES: raw sqlite3
`executemany` ≈ 2× faster than SQLAlchemy Core; on PostgreSQL `COPY` ≈ 2× faster than executemany).

Values are handed over already in the form the models' column types store, so rows written here read back through
the ORM exactly like rows the services write:
- SQLite: dates as 'YYYY-MM-DD', date-times as naive UTC 'YYYY-MM-DD HH:MM:SS.ffffff' (AwareDateTime),
  `Dec(scale)` as the scaled integer (desktop.models.types), booleans as 0/1;
- PostgreSQL: the Python values themselves (psycopg's COPY dumpers).
"""
from __future__ import annotations

import queue
import threading
import time as _time
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime
from decimal import Decimal
from desktop.models import Base

_SQLITE_DT = "%Y-%m-%d %H:%M:%S.%f"


class _DateText(dict):
    """date → 'YYYY-MM-DD' (as SQLAlchemy's SQLite DATE stores it), None → None."""

    def __missing__(self, key):
        value = None if key is None else key.isoformat()
        self[key] = value
        return value


class _Same(dict):
    """PostgreSQL: psycopg takes the date itself."""

    def __missing__(self, key):
        self[key] = key
        return key


class BulkWriter:
    def __init__(self, session):

        self.session = session
        conn = session.connection()
        self.dialect = conn.dialect.name
        self.sqlite = self.dialect == "sqlite"
        self.raw = conn.connection.driver_connection
        self.tables = Base.metadata.tables
        self._date_cache = _DateText() if self.sqlite else _Same()
        self.d = self._date_cache.__getitem__
        self._at_cache: dict[tuple, object] = {}
        self.counts: dict[str, int] = {}
        self._db_max: dict[str, int] = {}
        self._queued_max: dict[str, int] = {}
        self._queue: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self.seconds: dict[str, float] = {}   # writer-thread CPU seconds per table (bench/bench_demo.py)
        self._old_cache_size = None
        if self.sqlite:
            # The whole load is one transaction: with SQLite's default 2 MB page cache its dirty pages spill to
            # the WAL and every later insert re-reads them (a 100,000-driver load writes ≈ 400 MB; measured, the
            # per-row cost of the last tables grew 5×). A cache as large as the load keeps it in memory until
            # the commit; SQLite allocates it only as pages are used. Put back by `close()`.
            self._old_cache_size = self.raw.execute("PRAGMA cache_size").fetchone()[0]
            self.raw.execute("PRAGMA cache_size=-1048576")

    def close(self) -> None:
        self.drain()
        if self._old_cache_size is not None:
            self.raw.execute(f"PRAGMA cache_size={int(self._old_cache_size)}")
            self._old_cache_size = None

    # ---- value adapters (identity on PostgreSQL)
    # `d(day)` is called about ten million times in a 100,000-driver load: it is the C-level `__getitem__` of a
    # dict that fills itself on a miss (a Python function call per date cost ≈ 1 s more).

    def ts(self, value: datetime | None):
        if value is None or not self.sqlite:
            return value
        return value.astimezone(UTC).strftime(_SQLITE_DT)

    def at(self, day: date, hour: int, minute: int = 0, tz=None):
        """The stored form of the local date-time `day hour:minute` (America/Cuiaba), cached."""
        key = (day, hour, minute)
        value = self._at_cache.get(key)
        if value is None:
            from datetime import time  # local: imported only on this branch

            from desktop.models.types import LOCAL_TZ  # local: imported only on this branch

            moment = datetime.combine(day, time(hour, minute), tz or LOCAL_TZ)
            value = self._at_cache[key] = self.ts(moment) if self.sqlite else moment
        return value

    def json(self, value):
        """A JSON column (models.types.JSONData): the text SQLAlchemy's JSON type stores on SQLite, psycopg's Jsonb
        on PostgreSQL (the column is JSONB there)."""
        if value is None:
            return None
        if self.sqlite:
            import json  # local: imported only on this branch

            return json.dumps(value)
        from psycopg.types.json import Jsonb  # lazy: psycopg loads only when this runs (start-up cost)

        return Jsonb(value)

    def dec(self, value: Decimal | None, scale: int):
        if value is None or not self.sqlite:
            return value
        return int(value.scaleb(scale).to_integral_value())

    def next_id(self, table: str) -> int:
        """The first free id of `table`: past the rows in the database and the rows queued by this writer."""
        if table not in self._db_max:
            if self._thread is not None:
                self.drain()
            cur = self.raw.cursor()
            cur.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
            self._db_max[table] = int(cur.fetchone()[0])
            cur.close()
        return max(self._db_max[table], self._queued_max.get(table, 0)) + 1

    def prefetch_ids(self, tables: Iterable[str]) -> None:
        """Read the highest ids now, before the writer thread owns the connection."""
        for table in tables:
            self.next_id(table)

    def _check_columns(self, table: str, columns: Sequence[str]) -> None:
        t = self.tables[table]
        missing = [c.name for c in t.columns
                   if not c.nullable and c.server_default is None and c.name not in columns
                   and not (c.primary_key and c.autoincrement is True)]
        unknown = [c for c in columns if c not in t.columns]
        if missing or unknown:
            raise RuntimeError(f"dados de demonstração desatualizados para a tabela {table}: "
                               f"faltam {missing}, desconhecidas {unknown}")

    def insert(self, table: str, columns: Sequence[str], rows: Iterable[tuple]) -> int:
        """Queue the rows for the writer thread, which writes them in the order queued.

        The driver releases the GIL while SQLite (or the PostgreSQL server) works, so building the next table's
        rows in Python overlaps with writing this one: on two cores the load takes ≈ the longer of the two
        instead of their sum. Nothing else touches the connection until `drain()`.
        """
        self._check_columns(table, columns)
        rows = rows if isinstance(rows, list) else list(rows)
        if not rows:
            return 0
        if columns[0] == "id":
            self._queued_max[table] = max(self._queued_max.get(table, 0), max(r[0] for r in rows))
        self.counts[table] = self.counts.get(table, 0) + len(rows)
        if self._error is not None:
            raise self._error
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="demo-writer", daemon=True)
            self._thread.start()
        self._queue.put((table, tuple(columns), rows))
        return len(rows)

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            if self._error is not None:
                continue
            try:
                self._write(*item)
            except BaseException as exc:  # handed to the main thread by drain()
                self._error = exc

    def _write(self, table: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
        cols = ", ".join(columns)
        started = _time.thread_time()
        if self.sqlite:
            sql = f"INSERT INTO {table} ({cols}) VALUES ({', '.join('?' * len(columns))})"
            self.raw.executemany(sql, rows)
        else:
            with self.raw.cursor() as cur:
                with cur.copy(f"COPY {table} ({cols}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
        self.seconds[table] = self.seconds.get(table, 0.0) + _time.thread_time() - started

    def update(self, table: str, columns: Sequence[str], key: str, rows: list[tuple]) -> None:
        """`UPDATE table SET columns... WHERE key = ?` for each row (values first, the key last), after every
        queued insert: for the few values only known once later tables were built."""
        self.drain()
        if not rows:
            return
        mark = "?" if self.sqlite else "%s"
        sql = f"UPDATE {table} SET {', '.join(f'{c} = {mark}' for c in columns)} WHERE {key} = {mark}"
        if self.sqlite:
            self.raw.executemany(sql, rows)
        else:
            with self.raw.cursor() as cur:
                cur.executemany(sql, rows)

    def drain(self) -> None:
        """Wait until every queued row is written; re-raise the writer's error, if any."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def abort(self) -> None:
        """Stop the writer after a failure elsewhere (the transaction is about to be rolled back)."""
        if self._thread is not None:
            self._error = self._error or RuntimeError("carga interrompida")
            self._queue.put(None)
            self._thread.join()
            self._thread = None

    def fix_sequences(self) -> None:
        """PostgreSQL: move each id sequence past the ids written explicitly."""
        self.drain()
        if self.sqlite:
            return
        with self.raw.cursor() as cur:
            for table in self.counts:
                cur.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT COALESCE(MAX(id), 1) FROM {table}))"
                )
