"""Alembic migrations, configured in code so an installed program can migrate without an alembic.ini.

`upgrade(db)` brings the schema to head; on SQLite an existing file with tables is first copied aside with the
sqlite3 backup API to `<name>.antes-<revision>-<timestamp>.sqlite3` (issue 2: back up before a migration).
"""
from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from desktop.db import SQLITE_BUSY_TIMEOUT_MS, Database

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection=None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current(db: Database) -> str | None:
    """The revision the database is at (None for an empty database)."""
    with db.read_engine.connect() as conn:
        rev = MigrationContext.configure(conn).get_current_revision()
        conn.rollback()
    return rev


def pending(db: Database) -> bool:
    """True when the database is behind the newest migration."""
    return current(db) != head()


def backup_sqlite(db: Database, revision: str | None) -> Path | None:
    """Copy the SQLite file beside itself with the online backup API; returns the copy's path (None when there
    is no file yet, or it is empty: a new database has nothing to lose)."""
    path = db.sqlite_path
    if path is None or not path.exists() or path.stat().st_size == 0:
        return None
    probe = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=SQLITE_BUSY_TIMEOUT_MS / 1000)
    try:
        objects = probe.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    finally:
        probe.close()
    if objects == 0:
        return None
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.antes-{revision or 'vazio'}-{stamp}.sqlite3")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.stem}.antes-{revision or 'vazio'}-{stamp}-{n}.sqlite3")
    source = sqlite3.connect(str(path), timeout=SQLITE_BUSY_TIMEOUT_MS / 1000)
    try:
        dest = sqlite3.connect(str(target))
        try:
            source.backup(dest)
        finally:
            dest.close()
    finally:
        source.close()
    return target


def upgrade(db: Database, revision: str = "head", backup: bool = True) -> Path | None:
    """Apply pending migrations. Returns the path of the SQLite safety copy, when one was made."""
    before = current(db)
    if before == head() and revision == "head":
        return None
    copy = backup_sqlite(db, before) if (backup and db.is_sqlite) else None
    _run(db, lambda cfg: command.upgrade(cfg, revision))
    return copy


def downgrade(db: Database, revision: str = "base") -> None:
    """Undo migrations down to `revision` (tests and emergencies; it drops data)."""
    _run(db, lambda cfg: command.downgrade(cfg, revision))


MIGRATION_LOCK_KEY = 0x4D494752  # "MIGR": pg_advisory_xact_lock key, so two desks starting at once take turns


def _run(db: Database, action) -> None:
    """Run an Alembic command inside ONE transaction that first takes the database's write lock, so two
    programs starting at the same time migrate one after the other (the second then finds nothing to do)."""
    with db.write_engine.connect() as conn:
        if db.is_sqlite:
            # Batch migrations re-create tables; with foreign keys enforced that would cascade or fail.
            # The pragma only changes outside a transaction, so it goes to the driver connection first.
            conn.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")
        try:
            conn.begin()  # SQLite: BEGIN IMMEDIATE (the write lock), see desktop.db
            if db.is_postgresql:
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
            action(alembic_config(conn))
            if db.is_sqlite:
                problems = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if problems:
                    raise RuntimeError(f"Migração deixou chaves estrangeiras quebradas: {problems[:5]}")
            conn.commit()
        finally:
            if conn.in_transaction():
                conn.rollback()
            if db.is_sqlite:
                conn.connection.driver_connection.execute("PRAGMA foreign_keys=ON")
