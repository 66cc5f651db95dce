"""Migrations (issue 2): applied automatically at start, from empty to head on both databases; an existing
SQLite file is copied aside before a migration; the models and the migrations describe the same schema."""
from __future__ import annotations

import sqlite3

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from desktop import db as dbmod
from desktop import migrate
from desktop.db import Database, resolve_url, sqlite_url
from desktop.migrate import open_database
from desktop.models import APPEND_ONLY_TABLES, Base
from desktop.settings import Settings, load_settings, save_settings


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db(request, tmp_path):
    """A database with no tables at all."""
    if request.param == "sqlite":
        database = Database(sqlite_url(tmp_path / "vazio.sqlite3"))
    else:
        database = Database(request.getfixturevalue("make_pg_schema")())
    try:
        yield database
    finally:
        database.dispose()


def _tables(database) -> set[str]:
    return set(inspect(database.engine).get_table_names())


def test_migrations_run_from_empty_to_head(empty_db):
    assert migrate.current(empty_db) is None
    assert migrate.pending(empty_db)
    migrate.upgrade(empty_db)
    assert migrate.current(empty_db) == migrate.head()
    assert not migrate.pending(empty_db)
    assert set(Base.metadata.tables) <= _tables(empty_db)


def test_migrations_match_the_models(empty_db):
    migrate.upgrade(empty_db)
    with empty_db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata)
    assert diff == []


def test_migrations_downgrade_to_base_and_up_again(empty_db):
    migrate.upgrade(empty_db)
    migrate.downgrade(empty_db, "base")
    assert migrate.current(empty_db) is None
    assert _tables(empty_db) <= {"alembic_version"}
    migrate.upgrade(empty_db)
    assert migrate.current(empty_db) == migrate.head()


def test_append_only_triggers_are_created_by_the_migration(empty_db):
    migrate.upgrade(empty_db)
    with empty_db.engine.connect() as conn:
        if empty_db.is_sqlite:
            names = {r[0] for r in conn.exec_driver_sql(
                "SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        else:
            names = {r[0] for r in conn.exec_driver_sql(
                "SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                "WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace")}
    for table in APPEND_ONLY_TABLES:
        assert any(table in n for n in names), (table, names)


def test_open_database_backs_up_an_existing_sqlite_file_before_migrating(tmp_path):
    path = tmp_path / "transporte.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE anotacoes (texto TEXT)")
    con.execute("INSERT INTO anotacoes VALUES ('dados de antes')")
    con.commit()
    con.close()
    database = open_database(sqlite_url(path))
    try:
        assert migrate.current(database) == migrate.head()
    finally:
        database.dispose()
    copies = sorted(tmp_path.glob("transporte.antes-*.sqlite3"))
    assert len(copies) == 1
    assert copies[0].name.startswith("transporte.antes-vazio-")
    con = sqlite3.connect(copies[0])
    assert con.execute("SELECT texto FROM anotacoes").fetchall() == [("dados de antes",)]
    assert con.execute("SELECT count(*) FROM sqlite_master WHERE name = 'drivers'").fetchone() == (0,)
    con.close()
    # Opening again at head: nothing pending, no new copy.
    open_database(sqlite_url(path)).dispose()
    assert len(list(tmp_path.glob("transporte.antes-*.sqlite3"))) == 1


def test_open_database_creates_the_folder_and_a_new_file_without_a_copy(tmp_path):
    path = tmp_path / "dados" / "novo" / "transporte.sqlite3"
    database = open_database(sqlite_url(path))
    try:
        assert path.exists()
        assert not migrate.pending(database)
        assert database.describe() == f"SQLite: {path}"
    finally:
        database.dispose()
    assert list(path.parent.glob("*.antes-*")) == []


def test_sqlite_connections_enforce_foreign_keys_wal_and_busy_timeout(tmp_path):
    database = open_database(sqlite_url(tmp_path / "t.sqlite3"))
    try:
        with database.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == dbmod.SQLITE_BUSY_TIMEOUT_MS
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    finally:
        database.dispose()


def test_resolve_url_order_flag_env_settings_default(tmp_path, monkeypatch):
    monkeypatch.setenv("DESKTOP_SETTINGS_FILE", str(tmp_path / "settings.json"))
    monkeypatch.delenv("DESKTOP_DB_URL", raising=False)
    assert resolve_url() == sqlite_url(dbmod.default_sqlite_path())
    assert dbmod.default_sqlite_path().name == "transporte.sqlite3"
    save_settings(database_url="postgresql://servidor/prefeitura")
    assert load_settings() == Settings(database_url="postgresql://servidor/prefeitura")
    assert resolve_url() == "postgresql+psycopg://servidor/prefeitura"
    monkeypatch.setenv("DESKTOP_DB_URL", "sqlite:////dados/env.sqlite3")
    assert resolve_url() == "sqlite+pysqlite:////dados/env.sqlite3"
    assert resolve_url("postgresql+psycopg://u:p@host:5433/base") == "postgresql+psycopg://u:p@host:5433/base"
    assert Database("postgresql+psycopg://u:p@host:5433/base").describe() == "PostgreSQL: host:5433/base"
    save_settings(database_url=None)
    assert load_settings().database_url is None


def test_settings_file_that_is_broken_gives_defaults(tmp_path, monkeypatch):
    target = tmp_path / "settings.json"
    monkeypatch.setenv("DESKTOP_SETTINGS_FILE", str(target))
    target.write_text("{ isto não é json", encoding="utf-8")
    assert load_settings() == Settings()


def test_search_columns_compare_bytes_on_postgresql(empty_db):
    migrate.upgrade(empty_db)
    if empty_db.is_sqlite:
        with empty_db.engine.connect() as conn:
            # SQLite's default BINARY collation already compares bytes.
            sql = conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE name = 'drivers'").scalar()
        assert "COLLATE" not in sql.upper()
        return
    with empty_db.engine.connect() as conn:
        rows = dict(conn.exec_driver_sql(
            "SELECT table_name || '.' || column_name, collation_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND column_name IN ('search_key', 'cpf', 'plate', 'number')"
        ).all())
    for column in ("drivers.search_key", "drivers.cpf", "vehicles.plate", "authorizations.number",
                   "autos.number", "platforms.search_key", "lessors.search_key"):
        assert rows[column] == "C", column


def _open_and_report(url: str, start) -> str:
    start.wait(timeout=300)
    database = open_database(url)
    try:
        return migrate.current(database)
    finally:
        database.dispose()


def test_two_programs_starting_at_once_migrate_one_after_the_other(empty_db):
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    with ctx.Manager() as manager:
        start = manager.Barrier(2)
        with ctx.Pool(2) as pool:
            jobs = [pool.apply_async(_open_and_report, (empty_db.url, start)) for _ in range(2)]
            revisions = [j.get(timeout=600) for j in jobs]
    assert revisions == [migrate.head(), migrate.head()]
    assert set(Base.metadata.tables) <= _tables(empty_db)
