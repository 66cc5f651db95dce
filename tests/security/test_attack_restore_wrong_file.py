"""Issue 11, attack 7: break the office's database by restoring the wrong file. A backup whose revision is newer
or unknown is refused before anything is replaced; an older one is migrated aside and only then put in place,
and when its migration fails the live database stays as it was."""
from __future__ import annotations

import shutil
import sqlite3

import pytest
from sqlalchemy import func, select, text

from desktop import migrate
from desktop.db import Database, known_head, sqlite_url
from desktop.models import User
from desktop.services import backup


def _users(db) -> int:
    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(User))


def test_issue11_attack7_backup_of_an_unknown_newer_revision_is_refused_before_anything(db, configured, tmp_path):
    if db.is_postgresql and shutil.which("pg_dump") is None:
        pytest.skip("pg_dump não instalado")
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    out = tmp_path / ("nova.sqlite3" if db.is_sqlite else "nova.dump")
    try:
        backup.backup(db.url, out)
    finally:
        with db.engine.begin() as conn:
            conn.execute(text(f"UPDATE alembic_version SET version_num = '{known_head()}'"))
    before = _users(db)
    with pytest.raises(backup.BackupError) as exc:
        backup.restore(db.url, out)
    assert "9999" in str(exc.value) and "Nada foi substituído" in str(exc.value)
    assert _users(db) == before
    with db.engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == known_head()


def _old_backup(path, extra_sql=()):
    old = Database(sqlite_url(path))
    migrate.upgrade(old, revision="0004", backup=False)   # before 0005, which creates audit_checkpoints
    old.dispose()
    con = sqlite3.connect(path)
    con.execute("INSERT INTO users (username, full_name, password_hash, active, must_change_password, "
                "failed_logins, version, created_at) VALUES ('da.copia', 'Da Cópia', 'x', 1, 0, 0, 1, "
                "'2026-01-01 00:00:00')")
    for sql in extra_sql:
        con.execute(sql)
    con.commit()
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()


def test_issue11_attack7_older_backup_is_migrated_aside_then_put_in_place(tmp_path):
    live_path = tmp_path / "transporte.sqlite3"
    live = Database(sqlite_url(live_path))
    migrate.upgrade(live, backup=False)
    old = tmp_path / "antiga.sqlite3"
    _old_backup(old)
    backup.restore(live.url, old)
    assert migrate.current(live) == known_head()
    with live.session(write=False) as s:
        assert s.scalars(select(User.username)).all() == ["da.copia"]
    assert not list(tmp_path.glob("*.restaurando-*"))
    live.dispose()


def test_issue11_attack7_older_backup_whose_migration_fails_leaves_the_live_database(tmp_path):
    live_path = tmp_path / "transporte.sqlite3"
    live = Database(sqlite_url(live_path))
    migrate.upgrade(live, backup=False)
    old = tmp_path / "quebrada.sqlite3"
    _old_backup(old, ["CREATE TABLE audit_checkpoints (x INTEGER)"])   # the next migration cannot create it
    with pytest.raises(backup.BackupError) as exc:
        backup.restore(live.url, old)
    assert "não pôde ser atualizada" in str(exc.value) and "Nada foi substituído" in str(exc.value)
    assert migrate.current(live) == known_head() and _users(live) == 0
    assert not list(tmp_path.glob("*.restaurando-*"))
    live.dispose()
