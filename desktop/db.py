"""Engine and sessions from a URL: SQLite (one desk, the default) or PostgreSQL (an office server).

SQLite is set up for several processes on one machine: foreign keys on, WAL, a busy timeout, and real
transactions (the pysqlite driver's own transaction handling is switched off; write sessions start with
`BEGIN IMMEDIATE`, so two desks writing at once queue up instead of failing half-way).
"""
from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import platformdirs
from sqlalchemy import Index, create_engine, event, text
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.orm import Session, sessionmaker

from desktop.settings import APP_NAME, load_settings
from desktop.errors import TransientDatabaseError
import functools
from desktop.errors import DatabaseUnavailable
from desktop.errors import translate_db_errors

SQLITE_FILENAME = "transporte.sqlite3"
SQLITE_BUSY_TIMEOUT_MS = 15000
# PostgreSQL waits as long for a lock (the audit chain's, a row's) as SQLite waits for its write lock.
PG_LOCK_TIMEOUT_MS = SQLITE_BUSY_TIMEOUT_MS

# The audit chain's lock (issue 12 item 19), one per schema: `pg_advisory_xact_lock(key, hashtext(schema))`.
# Every write transaction on PostgreSQL takes it FIRST, before any row lock, so no two transactions can ever
# hold a row lock and wait for the chain (or the reverse): the lock order of the whole program is
# "audit chain, then rows". `services.audit.record` takes the same lock when a read session writes (it then
# holds nothing else that a writer could need... see docs/architecture.md "Locks and retries").
AUDIT_LOCK_KEY = 0x41554449  # "AUDI"
AUDIT_LOCK_SQL = "SELECT pg_advisory_xact_lock(:key, hashtext(current_schema()))"
AUDIT_LOCK_HELD = "desktop_audit_lock_held"  # session.info flag: this transaction holds the chain's lock
_WRITE_BEGIN_SQL = ("SELECT set_config('lock_timeout', :timeout, true), "
                    "pg_advisory_xact_lock(:key, hashtext(current_schema()))")


def default_sqlite_path() -> Path:
    """`<user data dir>/ChapadaTransporte/transporte.sqlite3` (platformdirs)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / SQLITE_FILENAME


def sqlite_url(path: str | os.PathLike) -> str:
    return URL.create("sqlite+pysqlite", database=str(Path(path))).render_as_string(hide_password=False)


def resolve_url(explicit: str | None = None) -> str:
    """`--db URL` > env DESKTOP_DB_URL > settings file > the default SQLite file.

    A bare `postgresql://` URL gets the psycopg 3 driver; a plain file path is taken as a SQLite file.
    """
    url = explicit or os.environ.get("DESKTOP_DB_URL") or load_settings().database_url
    if not url:
        return sqlite_url(default_sqlite_path())
    url = url.strip()
    if "://" not in url:
        return sqlite_url(Path(url).expanduser())
    try:
        parsed = make_url(url)
    except Exception:  # noqa: BLE001 — sqlalchemy.exc.ArgumentError: Database() says it in Portuguese
        return url
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    elif parsed.drivername == "sqlite":
        parsed = parsed.set(drivername="sqlite+pysqlite")
    return parsed.render_as_string(hide_password=False)


def _json_default(value):
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"não serializável em JSON: {type(value).__name__}")


def json_dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, default=_json_default)


NESTED_WRITE = ("Sessão de escrita aberta dentro de outra na mesma linha de execução: "
                "passe a sessão aberta adiante em vez de abrir outra.")


class Database:
    """One database: `.session()` for a unit of work, `.engine` for bulk work and migrations."""

    def __init__(self, url: str, *, echo: bool = False):

        self.url = url
        try:
            parsed = make_url(url)
        except Exception:  # noqa: BLE001 — sqlalchemy.exc.ArgumentError on any malformed address
            raise DatabaseUnavailable(f"Endereço de banco de dados inválido: «{url[:200]}». Use um arquivo SQLite "
                                      f"ou postgresql://usuario@servidor/base.") from None
        self._parsed = parsed
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        self.is_postgresql = parsed.get_backend_name() == "postgresql"
        if not (self.is_sqlite or self.is_postgresql):
            raise DatabaseUnavailable(
                f"Banco de dados não suportado: «{parsed.get_backend_name()}». Este programa usa um arquivo SQLite "
                "(uma estação) ou um servidor PostgreSQL (postgresql://usuario@servidor/base).")
        kwargs: dict = {"echo": echo, "json_serializer": json_dumps}
        if self.is_sqlite:
            kwargs["connect_args"] = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
        else:
            kwargs["pool_pre_ping"] = True
            # An unreachable office server should fail in seconds with a message, not hang the desk.
            connect_args = {}
            if "connect_timeout" not in parsed.query:
                connect_args["connect_timeout"] = 10
            if "application_name" not in parsed.query:
                connect_args["application_name"] = APP_NAME
            kwargs["connect_args"] = connect_args
        self.engine: Engine = create_engine(parsed, **kwargs)
        if self.is_sqlite:
            _setup_sqlite(self.engine)
        # Write sessions run on an engine view whose option makes SQLite begin with BEGIN IMMEDIATE.
        self._write_engine = self.engine.execution_options(desktop_write=True)
        self._read_engine = self.engine.execution_options(desktop_write=False)
        self._local = threading.local()
        self._write_sessions = sessionmaker(self._write_engine, expire_on_commit=False)
        self._read_sessions = sessionmaker(self._read_engine, expire_on_commit=False)

    @property
    def sqlite_path(self) -> Path | None:
        if not self.is_sqlite or not self._parsed.database or self._parsed.database == ":memory:":
            return None
        return Path(self._parsed.database)

    @property
    def read_engine(self) -> Engine:
        """The engine whose transactions only read: on SQLite a plain BEGIN, which never waits for a writer
        (WAL)."""
        return self._read_engine

    @property
    def write_engine(self) -> Engine:
        """The engine whose transactions take SQLite's write lock at BEGIN (migrations, bulk imports)."""
        return self._write_engine

    def describe(self) -> str:
        """For the status bar: "SQLite: /home/.../transporte.sqlite3" or "PostgreSQL: servidor/base"."""
        if self.is_sqlite:
            return f"SQLite: {self.sqlite_path or ':memory:'}"
        host = self._parsed.host or "localhost"
        if self._parsed.port and self._parsed.port != 5432:
            host = f"{host}:{self._parsed.port}"
        return f"PostgreSQL: {host}/{self._parsed.database or ''}"

    @contextmanager
    def session(self, write: bool = True) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back on any error. Database refusals come
        out as typed errors (StaleRecordError, ConflictError) with Portuguese messages.

        Do not open a write session inside another one (pass the open session to helpers instead): on SQLite
        that is refused at once, on PostgreSQL the inner one may wait for the outer one's row locks."""

        if write and self.is_sqlite and getattr(self._local, "writing", False):
            # The outer session holds SQLite's only write lock: the inner BEGIN IMMEDIATE would wait for
            # itself until the busy timeout. Fail at once, where the bug is.
            raise RuntimeError(NESTED_WRITE)
        if write and self.is_postgresql and getattr(self._local, "writing", False):
            # The outer session holds the audit chain's lock (taken at its start): the inner one would wait
            # for it forever, and PostgreSQL cannot see that both belong to one desk.
            raise RuntimeError(NESTED_WRITE)
        factory = self._write_sessions if write else self._read_sessions
        session = factory()
        if write:
            self._local.writing = True
        try:
            with translate_db_errors():   # database refusals as typed Portuguese errors
                with session.begin():
                    if write and self.is_postgresql:
                        # Lock order (issue 12 item 19): the audit chain first, then rows. One round trip.
                        session.execute(text(_WRITE_BEGIN_SQL),
                                        {"timeout": f"{PG_LOCK_TIMEOUT_MS}ms", "key": AUDIT_LOCK_KEY})
                        session.info[AUDIT_LOCK_HELD] = True
                    yield session
                if write:
                    _retry_state.commits = getattr(_retry_state, "commits", 0) + 1
        finally:
            if write:
                self._local.writing = False
            session.close()

    @contextmanager
    def bulk_session(self, *, check_fks: bool = True, rebuild: Iterable[Index] = (),
                     rebuild_if: Callable[[Session], bool] | None = None,
                     on_rebuild: Callable[[], None] | None = None) -> Iterator[Session]:
        """One write transaction for a bulk load (the demonstration data, a trip file): the one way to open it
        (issue 22 point 4). Committed when the block ends, rolled back whole on any error; errors mapped as
        `session()` maps them; the same refusal of a write session inside another.

        On SQLite (NOTES, bulk insert) the connection's per-row foreign-key checks are off for the transaction
        (they made inserting 100,000 authorizations ≈ 3× slower; the PRAGMA only takes effect outside a
        transaction, so it is set before BEGIN IMMEDIATE and set back after), and:
        - `rebuild`: indexes of the models' metadata (e.g. `TripRow.__table__.indexes`) dropped at the start —
          when `rebuild_if(session)`, asked inside the transaction, says so (None: always) — and created again
          from the same definitions before the commit, after `on_rebuild()` (a progress line). DDL is
          transactional in SQLite: a rollback or a killed process leaves them as they were;
        - `check_fks`: `PRAGMA foreign_key_check` proves every reference before the commit; an orphan row rolls the
          whole transaction back.
        On PostgreSQL it is `session()`: foreign keys stay checked row by row and no index is dropped (DROP INDEX
        would lock the table against every reader until the commit)."""
        if not self.is_sqlite:
            with self.session() as session:
                yield session
            return

        if getattr(self._local, "writing", False):
            raise RuntimeError(NESTED_WRITE)
        indexes = list(rebuild)
        self._local.writing = True
        try:
            with translate_db_errors():   # database refusals as typed Portuguese errors
                with self._write_engine.connect() as conn:
                    raw = conn.connection.driver_connection
                    raw.execute("PRAGMA foreign_keys=OFF")   # only takes effect outside a transaction
                    try:
                        with conn.begin():
                            session = Session(bind=conn, expire_on_commit=False)
                            try:
                                dropped = indexes if indexes and (rebuild_if is None or rebuild_if(session)) else []
                                for index in dropped:
                                    index.drop(conn, checkfirst=True)
                                yield session
                                session.flush()
                            finally:
                                session.close()
                            if dropped:
                                if on_rebuild is not None:
                                    on_rebuild()
                                for index in dropped:
                                    index.create(conn)
                            if check_fks:
                                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchmany(5)
                                if broken:
                                    raise RuntimeError(f"Gravação em lote com referências quebradas (tabela, linha, "
                                                       f"tabela referida): {broken}; nada foi gravado.")
                        _retry_state.commits = getattr(_retry_state, "commits", 0) + 1
                    finally:
                        raw.execute("PRAGMA foreign_keys=ON")
        finally:
            self._local.writing = False

    def run(self, work, *args, **kwargs):
        """`work(session, *args, **kwargs)` in one write transaction, run again once in a new transaction when
        the first failed on a deadlock, a serialization failure or a busy database (`retrying`)."""
        def once():
            with self.session() as s:
                return work(s, *args, **kwargs)
        return retrying(once)

    def runs_as_table_owner(self) -> bool:
        """PostgreSQL: True when this connection's role owns the program's tables (it could switch the
        append-only triggers off: issue 11); the desks should use the application role (`setup-server`).
        Always False on SQLite, which has no roles."""
        if not self.is_postgresql:
            return False
        with self.read_engine.connect() as conn:
            owned = conn.exec_driver_sql(
                "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() "
                "AND (tableowner = current_user OR pg_has_role(current_user, tableowner, 'USAGE'))").scalar()
            conn.rollback()
        return bool(owned)

    def dispose(self) -> None:
        self.engine.dispose()

    def __repr__(self) -> str:
        return f"Database({self.describe()!r})"


_retry_state = threading.local()
RETRY_PAUSE_S = (0.05, 0.25)


def retrying(call, *args, **kwargs):
    """Run `call(*args, **kwargs)`; when it fails with `TransientDatabaseError` (deadlock 40P01, serialization
    failure 40001, lock timeout, SQLite "database is locked") and none of its write transactions had committed
    yet, run it once more, transparently (issue 12 item 19). A call that already committed something is not
    repeated (it would write twice): the error reaches the user, in Portuguese.

    Used around every call of a screen (`views.operations.op`), every CLI command and `Database.run`; nested
    uses run the inner call once and let the outermost one decide."""

    if getattr(_retry_state, "depth", 0):
        return call(*args, **kwargs)
    _retry_state.depth = 1
    saved = getattr(_retry_state, "commits", 0)
    try:
        for attempt in (1, 2):
            _retry_state.commits = 0
            try:
                return call(*args, **kwargs)
            except TransientDatabaseError:
                if attempt == 2 or _retry_state.commits:
                    raise
                _retry_state.retries = getattr(_retry_state, "retries", 0) + 1
                time.sleep(random.uniform(*RETRY_PAUSE_S))  # let the other desk finish first
    finally:
        _retry_state.depth = 0
        _retry_state.commits = saved + getattr(_retry_state, "commits", 0)


def retries_in_this_thread() -> int:
    """How many calls `retrying` ran a second time in this thread (for the soak benchmark and tests)."""
    return getattr(_retry_state, "retries", 0)


def retry_transient(function):
    """Decorator form of `retrying` for a service's outer form `x(db, actor, ...)`."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return retrying(function, *args, **kwargs)
    return wrapper


def _setup_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        # pysqlite recipe: let SQLAlchemy's BEGIN below start transactions, not the driver.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        # WAL is a property of the file: set it once. Asking to set it on every connection takes a lock, and two
        # desks connecting at the same moment could be refused ("database is locked") before the busy handler.
        mode = cursor.execute("PRAGMA journal_mode").fetchone()
        if not mode or str(mode[0]).lower() != "wal":
            for attempt in range(50):
                try:
                    cursor.execute("PRAGMA journal_mode=WAL")
                    break
                except sqlite3.OperationalError:
                    if attempt == 49:
                        raise
                    time.sleep(0.1)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        if conn.get_execution_options().get("desktop_write", True):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


def create_private_sqlite_file(path: Path) -> None:
    """A new SQLite database and the folders made for it are readable by the user alone (issue 11: 0700 / 0600;
    SQLite gives its -wal and -shm files the database file's mode). Existing files and folders are left as
    they are."""
    missing: list[Path] = []
    folder = path.parent
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir(mode=0o700, exist_ok=True)   # two programs starting at once may both make it
        if os.name == "posix":
            os.chmod(made, 0o700)
    if not path.exists():
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:   # another program starting at the same moment created it first: use that one
            return
        os.close(fd)
        if os.name == "posix":
            os.chmod(path, 0o600)


class DatabaseNotFound(Exception):
    """A read-only command was pointed at a database that does not exist (or holds no tables of this program):
    nothing is created (issue 11: a mistyped path must not give an empty "íntegro"). The CLI exits with 2."""


class DatabaseNotCurrent(Exception):
    """A read-only command found a database at another schema revision: it is neither migrated nor read."""


def open_existing(url: str | None = None) -> Database:
    """The database at `url` for a command that only reads (`audit verify`, `export`, `print reprint`,
    `users list`): never created, never migrated. `DatabaseNotFound` when the SQLite file is missing or a
    database has no tables of this program; `DatabaseNotCurrent` when its revision is not this program's."""
    resolved = resolve_url(url)
    db = Database(resolved)
    if db.is_sqlite:
        path = db.sqlite_path
        if path is None or not path.is_file():
            db.dispose()
            raise DatabaseNotFound(f"O banco de dados não existe: {path or ':memory:'}. Confira o caminho; "
                                   "nada foi criado.")
    try:
        with db.read_engine.connect() as conn:
            stored = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all()
            conn.rollback()
    except Exception as exc:  # no alembic_version: not a database of this program (or an empty one)
        db.dispose()
        from desktop.errors import DatabaseUnavailable  # local: imported only on this branch
        from desktop.errors import map_db_error  # local: imported only on this branch

        mapped = map_db_error(exc)
        if isinstance(mapped, DatabaseUnavailable):  # the server is not there: say that, not "not ours"
            raise mapped from exc
        raise DatabaseNotFound(f"{db.describe()} não é um banco deste programa (não tem a tabela de versão "
                               "alembic_version). Confira o endereço; nada foi criado.") from None
    head = known_head()
    if head is not None and stored != [head]:
        db.dispose()
        found = ", ".join(stored) or "vazia"
        raise DatabaseNotCurrent(f"{db.describe()} está na versão {found} do banco e este programa usa a {head}: "
                                 "rode `python -m desktop migrate` antes (este comando não altera o banco).")
    return db


_REVISION_LINE = re.compile(r"""^revision\s*=\s*['"]([^'"]+)['"]""", re.MULTILINE)
_DOWN_LINE = re.compile(r"""^down_revision\s*=\s*(?:['"]([^'"]+)['"]|None)""", re.MULTILINE)


def known_revisions() -> list[str]:
    """Every migration revision this program knows, oldest first (read as text, like `known_head`)."""
    parent_of: dict[str, str | None] = {}
    for path in (Path(__file__).parent / "migrations" / "versions").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        rev = _REVISION_LINE.search(text)
        if rev is None:
            continue
        down = _DOWN_LINE.search(text)
        parent_of[rev.group(1)] = down.group(1) if down is not None and down.group(1) else None
    order: list[str] = []
    current = known_head()
    while current is not None and current not in order:
        order.append(current)
        current = parent_of.get(current)
    return list(reversed(order))


def known_head() -> str | None:
    """The newest migration revision, read from the revision files as text (no Alembic import: start-up time,
    issue 2). A test checks it against Alembic's own answer; a branched history returns None (no fast path)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (Path(__file__).parent / "migrations" / "versions").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        rev = _REVISION_LINE.search(text)
        if rev is None:
            continue
        revisions.add(rev.group(1))
        down = _DOWN_LINE.search(text)
        if down is not None and down.group(1):
            parents.add(down.group(1))
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def schema_is_current(db: Database) -> bool:
    """True when the database already stands at the newest revision (the common start: nothing to migrate)."""
    head = known_head()
    if head is None:
        return False
    try:
        with db.read_engine.connect() as conn:
            stored = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all()
            conn.rollback()
    except Exception:  # no table yet (new database) or unreadable: let the migration path decide and report
        return False
    return stored == [head]
