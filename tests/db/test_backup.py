"""Backups and restores (issue 2): SQLite online backup API; PostgreSQL pg_dump -Fc / pg_restore --clean."""
from __future__ import annotations

import shutil
import sqlite3

import pytest
from sqlalchemy import func, select

from desktop.domain.roles import Role
from desktop.models import User
from desktop.services import backup, users


def _user_count(db) -> int:
    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(User))


def test_backup_then_restore_round_trip(db, admin_actor, tmp_path):
    if db.is_postgresql and shutil.which("pg_dump") is None:
        pytest.skip("pg_dump não instalado")
    users.create_user(db, admin_actor, users.UserDraft("antes.da.copia", "Antes", frozenset({Role.FISCAL}),
                                                       "senha-antes-1"))
    out = tmp_path / ("copia.sqlite3" if db.is_sqlite else "copia.dump")
    result = backup.backup(db.url, out)
    assert result.size_bytes > 0 and out.exists()
    users.create_user(db, admin_actor, users.UserDraft("depois.da.copia", "Depois", frozenset({Role.FISCAL}),
                                                       "senha-depois-1"))
    assert _user_count(db) == 3
    db.dispose()
    restored = backup.restore(db.url, out)
    assert _user_count(db) == 2
    names = {u.username for u in users.list_users(db, admin_actor)}
    assert names == {"admin", "antes.da.copia"}
    if db.is_sqlite:
        # The replaced file is kept beside the database, and holds the newer user.
        assert restored.replaced_copy is not None and restored.replaced_copy.exists()
        con = sqlite3.connect(restored.replaced_copy)
        assert con.execute("SELECT count(*) FROM users").fetchone()[0] == 3
        con.close()


def test_restore_refuses_files_that_are_not_backups_of_this_program(db, tmp_path):
    junk = tmp_path / "planilha.sqlite3"
    junk.write_bytes(b"isto nao e um banco")
    other = tmp_path / "outro.sqlite3"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE clientes (id INTEGER)")
    con.commit()
    con.close()
    if db.is_sqlite:
        with pytest.raises(backup.BackupError) as exc:
            backup.restore(db.url, junk)
        assert "não é um banco SQLite" in str(exc.value)
        with pytest.raises(backup.BackupError) as exc:
            backup.restore(db.url, other)
        assert "alembic_version" in str(exc.value)
    else:
        with pytest.raises(backup.BackupError) as exc:
            backup.restore(db.url, junk)
        assert "pg_dump" in str(exc.value)


def test_libpq_arguments_keep_the_password_out_of_the_command_line():
    args, env = backup.libpq_args(
        "postgresql+psycopg://fiscal:s3gr3do@servidor.local:5433/transporte?options=-csearch_path%3Descritorio")
    assert "s3gr3do" not in " ".join(args)
    assert env["PGPASSWORD"] == "s3gr3do"
    assert args == ["--host", "servidor.local", "--port", "5433", "--username", "fiscal", "--dbname", "transporte"]
    assert env["PGOPTIONS"] == "-csearch_path=escritorio"
    assert backup.pg_schema(
        "postgresql+psycopg://u@h/db?options=-csearch_path%3Descritorio") == "escritorio"
