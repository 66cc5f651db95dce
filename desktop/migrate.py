"""Alembic migrations, configured in code so an installed program can migrate without an alembic.ini.

`open_database(url)` opens the program's database and brings it to the newest revision when it is behind (the
common start, a database already current, never imports Alembic: ≈ 0.35 s of start-up, issue 2; so Alembic is
imported inside the functions that run it). `upgrade(db)` brings the schema to head; on SQLite an existing file with tables is first copied aside with the
sqlite3 backup API to `<name>.antes-<revision>-<timestamp>.sqlite3` (issue 2: back up before a migration).
"""
from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from desktop.db import SQLITE_BUSY_TIMEOUT_MS, Database, create_private_sqlite_file, resolve_url, schema_is_current
from desktop.models import APPEND_ONLY_TABLES

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def open_database(url: str | None = None, migrate: bool = True) -> Database:
    """Resolve the URL, create the SQLite folder, and (by default) bring the schema to the newest revision,
    copying an existing SQLite file aside first (`<name>.antes-<rev>-<timestamp>.sqlite3`)."""
    db = Database(resolve_url(url))
    if db.sqlite_path is not None:
        create_private_sqlite_file(db.sqlite_path)
    if migrate and not schema_is_current(db):
        upgrade(db, backup=True)
    return db


def alembic_config(connection=None):
    from alembic.config import Config  # lazy: Alembic only when a migration is read or run (start-up)

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    from alembic.script import ScriptDirectory  # lazy: Alembic only when a migration is read or run (start-up)

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current(db: Database) -> str | None:
    """The revision the database is at (None for an empty database)."""
    from alembic.runtime.migration import MigrationContext  # lazy: Alembic only when a migration is read or run

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

    create_private_sqlite_file(target)
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
    # only an existing database can hold the old key column (a new one is being created, maybe by two desks)
    had_key = db.is_sqlite and before is not None and _has_private_key_column(db.sqlite_path)
    from alembic import command  # lazy: Alembic only when a migration is read or run (start-up)

    _run(db, lambda cfg: command.upgrade(cfg, revision))
    if had_key and not _has_private_key_column(db.sqlite_path):
        # Migration 0005 moved the private signing key to the key store (issue 11): no copy of the database may
        # keep it — not the freed pages of the live file, not the safety copy made just before.
        _scrub_private_key(db.sqlite_path)
        if copy is not None:
            _scrub_private_key(copy)
    return copy


def _has_private_key_column(path: Path | None) -> bool:
    if path is None or not path.exists() or path.stat().st_size == 0:
        return False
    con = sqlite3.connect(path, timeout=SQLITE_BUSY_TIMEOUT_MS / 1000)
    try:
        columns = [r[1] for r in con.execute("PRAGMA table_info(municipality)")]
    finally:
        con.close()
    return "signing_private_key" in columns


def _scrub_private_key(path: Path) -> None:
    con = sqlite3.connect(path, timeout=SQLITE_BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        columns = [r[1] for r in con.execute("PRAGMA table_info(municipality)")]
        if "signing_private_key" in columns:
            con.execute("PRAGMA foreign_keys=OFF")
            con.execute("UPDATE municipality SET signing_private_key = NULL")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("VACUUM")
    finally:
        con.close()


def downgrade(db: Database, revision: str = "base") -> None:
    """Undo migrations down to `revision` (tests and emergencies; it drops data)."""
    from alembic import command  # lazy: Alembic only when a migration is read or run (start-up)

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


# ------------------------------------------------------------------------------------ PostgreSQL least privilege

APP_ROLE = "chapada_app"
OWNER_ROLE = "chapada_dono"
_ROLE_NAME = __import__("re").compile(r"^[a-z_][a-z0-9_]{0,62}$")


def _append_only_tables() -> tuple[str, ...]:

    return APPEND_ONLY_TABLES


def _quote_ident(name: str) -> str:
    if not _ROLE_NAME.match(name or ""):
        raise ValueError(f"Nome de papel inválido: {name!r} (use letras minúsculas, números e _).")
    return f'"{name}"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def grant_app_role(conn, app_role: str) -> None:
    """The application role's rights on the current schema: read and write the working tables, SELECT and
    INSERT only on the append-only ones (ledger, audit, checkpoints) and on the signing keys, every column of the
    municipality's settings but its public key (issue 25 item 5: written by the owner only; migration 0017's
    triggers refuse a second key row or key audit entry from a role that does not own the table), the sequences,
    and nothing else: it owns nothing, so it cannot ALTER, DROP, TRUNCATE, or switch a trigger off."""
    app = _quote_ident(app_role)
    schema = conn.exec_driver_sql("SELECT current_schema()").scalar()
    quoted_schema = '"' + schema.replace('"', '""') + '"'
    conn.exec_driver_sql(f"REVOKE ALL ON SCHEMA {quoted_schema} FROM {app}")
    conn.exec_driver_sql(f"GRANT USAGE ON SCHEMA {quoted_schema} TO {app}")
    tables = conn.exec_driver_sql(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").scalars().all()
    append_only = set(_append_only_tables())
    for table in tables:
        conn.exec_driver_sql(f'REVOKE ALL ON TABLE "{table}" FROM {app}')
        if table in append_only or table == "signing_keys":
            rights = "SELECT, INSERT"
        elif table == "alembic_version":
            rights = "SELECT"
        elif table == "municipality":
            # issue 25 item 5: every column but the public key the sticker check trusts (written by the owner)
            columns = conn.exec_driver_sql(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND table_name = 'municipality' AND column_name <> 'signing_public_key' "
                "ORDER BY ordinal_position").scalars().all()
            rights = "SELECT, INSERT, UPDATE (" + ", ".join(f'"{c}"' for c in columns) + ")"
        else:
            rights = "SELECT, INSERT, UPDATE, DELETE"
        conn.exec_driver_sql(f'GRANT {rights} ON TABLE "{table}" TO {app}')
    conn.exec_driver_sql(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {quoted_schema} TO {app}")


def setup_server(db: Database, app_role: str = APP_ROLE, app_password: str | None = None,
                 owner_role: str = OWNER_ROLE, owner_password: str | None = None) -> tuple[str, str]:
    """Create (or update) the two PostgreSQL roles of issue 11 and migrate: the OWNER role owns every table,
    sequence, trigger and function of the schema and is the one that runs `migrate`; the APPLICATION role, which
    the desks use, owns nothing (see `grant_app_role`). Run by a superuser (or a role with CREATEROLE that is a
    member of the owner role). Idempotent: run it again after every `migrate` that adds tables — `migrate`
    itself re-grants when it finds the roles recorded in `database_marks`."""
    if not db.is_postgresql:
        raise ValueError("setup-server é só para PostgreSQL (o SQLite não tem papéis).")
    owner, app = _quote_ident(owner_role), _quote_ident(app_role)
    if owner_role == app_role:
        raise ValueError("O papel dono e o papel da aplicação devem ser diferentes.")
    upgrade(db, backup=False)
    with db.write_engine.connect() as conn:
        conn.begin()
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
        for name, quoted, password in ((owner_role, owner, owner_password), (app_role, app, app_password)):
            exists = conn.exec_driver_sql("SELECT 1 FROM pg_roles WHERE rolname = %(n)s", {"n": name}).first()
            if exists is None:
                conn.exec_driver_sql(f"CREATE ROLE {quoted} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE")
            if password:
                conn.exec_driver_sql(f"ALTER ROLE {quoted} PASSWORD {_literal(password)}")
        schema = conn.exec_driver_sql("SELECT current_schema()").scalar()
        quoted_schema = '"' + schema.replace('"', '""') + '"'
        conn.exec_driver_sql(f"GRANT USAGE, CREATE ON SCHEMA {quoted_schema} TO {owner}")
        for table in conn.exec_driver_sql(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").scalars().all():
            conn.exec_driver_sql(f'ALTER TABLE "{table}" OWNER TO {owner}')
        for function in conn.exec_driver_sql(
                "SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace"
        ).scalars().all():
            conn.exec_driver_sql(f"ALTER FUNCTION {function} OWNER TO {owner}")
        grant_app_role(conn, app_role)
        for key, value in (("owner_role", owner_role), ("app_role", app_role)):
            conn.exec_driver_sql(
                "INSERT INTO database_marks (key, value, at, version) VALUES (%(k)s, %(v)s, now(), 1) "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, at = EXCLUDED.at, "
                "version = database_marks.version + 1", {"k": key, "v": value})
        conn.commit()
    return owner_role, app_role


def regrant_after_migration(db: Database) -> str | None:
    """After `migrate` on PostgreSQL: when `setup-server` recorded an application role, grant it the (new)
    tables; returns the role name, or None when there is none."""
    if not db.is_postgresql:
        return None
    with db.write_engine.connect() as conn:
        conn.begin()
        try:
            app_role = conn.exec_driver_sql("SELECT value FROM database_marks WHERE key = 'app_role'").scalar()
            if app_role:
                grant_app_role(conn, app_role)
            conn.commit()
        finally:
            if conn.in_transaction():
                conn.rollback()
    return app_role or None
