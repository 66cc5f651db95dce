"""Issue 25 item 9: backups. PostgreSQL dumps were written 0644 (SQLite copies 0600); the rotation trusted file
names and deleted 24 real copies when 23 files named 2027-… appeared; a kill -9 during a restore left staging
files and a staging database behind, and a `pg_restore` that went on replacing the live data after the command had
died. Now: every copy is 0600; the rotation keeps a manifest of the copies it made and deletes nothing else, never
a copy dated in the future; PostgreSQL tools die with the command (a supervisor kills them); leftovers are
cleaned at the next start with a line in the log."""
from __future__ import annotations

import logging
import os
import select
import shutil
import signal
import stat
import subprocess
import sys
import time
import uuid
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from tests.waiting import process_gone

from desktop import cli
from desktop.domain import clock
from desktop.services import auto_backup, backup

ROOT = Path(__file__).resolve().parents[2]


def test_issue25_item9_every_backup_copy_is_private(db, tmp_path):
    if db.is_postgresql and shutil.which("pg_dump") is None:
        pytest.skip("pg_dump não instalado")
    out = tmp_path / ("copia.sqlite3" if db.is_sqlite else "copia.dump")
    old = os.umask(0o022)
    try:
        result = backup.backup(db.url, out)
    finally:
        os.umask(old)
    assert stat.S_IMODE(result.path.stat().st_mode) == 0o600
    assert not list(tmp_path.glob("*.parcial"))


def test_issue25_item9_files_with_future_names_make_the_rotation_delete_nothing_real(db, admin_actor, tmp_path):
    if not db.is_sqlite:
        pytest.skip("a rotação é a mesma nos dois bancos; a cópia automática completa é testada no SQLite")
    folder = tmp_path / "copias"
    folder.mkdir()
    first = date(2026, 11, 1)
    for i in range(12):
        day = first + timedelta(days=i)
        with clock.frozen(datetime(day.year, day.month, day.day, 9, 0)):
            assert auto_backup.run_auto_backup(db, admin_actor, folder=folder).status == auto_backup.DONE
    real = sorted(p.name for p in folder.glob("transporte-*.sqlite3"))
    planted = []
    for i in range(23):          # an attacker (or a confused clock) drops files named in 2027 and later
        name = auto_backup.copy_name(date(2027, 1, 1) + timedelta(days=i * 20), "sqlite")
        shutil.copyfile(folder / real[0], folder / name)
        shutil.copyfile(folder / (real[0] + ".json"), folder / (name + ".json"))
        planted.append(name)
    day = first + timedelta(days=12)
    with clock.frozen(datetime(day.year, day.month, day.day, 9, 0)):
        outcome = auto_backup.run_auto_backup(db, admin_actor, folder=folder)
    assert outcome.status == auto_backup.DONE
    left = {p.name for p in folder.glob("transporte-*.sqlite3")}
    assert set(planted) <= left                                   # never deletes what it did not make
    from desktop.domain.backup_rotation import kept_because

    days = [date.fromisoformat(n[len("transporte-"):-len(".sqlite3")]) for n in real] + [day]
    expected = {auto_backup.copy_name(d, "sqlite") for d in kept_because(days)}
    assert left - set(planted) == expected                         # exactly what the rule keeps without them
    assert len(expected) >= 8


def _old(path: Path) -> None:
    past = time.time() - 3600
    os.utime(path, (past, past))


def test_issue25_item9_sqlite_restore_leftovers_are_cleaned_at_the_next_start(tmp_path, caplog):
    from desktop.db import sqlite_url

    live = tmp_path / "transporte.sqlite3"
    url = sqlite_url(live)
    assert cli.main(["--db", url, "migrate"]) == 0
    leftovers = [tmp_path / "transporte.restaurando-20261118-100000.sqlite3",
                 tmp_path / "transporte.restaurando-20261118-100000.sqlite3-journal",
                 tmp_path / "transporte.restaurando-20261118-100000.sqlite3-wal",
                 tmp_path / "transporte.sqlite3.parcial", tmp_path / "transporte.sqlite3.parcial-journal"]
    for path in leftovers:
        path.write_bytes(b"resto de uma restauracao interrompida")
        _old(path)
    fresh = tmp_path / "transporte.restaurando-20261118-101500.sqlite3"   # a restore running right now
    fresh.write_bytes(b"em andamento")
    other = tmp_path / "outra-coisa.sqlite3.parcial"
    other.write_bytes(b"nao e nosso")
    _old(other)
    with caplog.at_level(logging.WARNING, logger="desktop.services.backup"):
        assert cli.main(["--db", url, "migrate"]) == 0      # the next start
    assert not any(p.exists() for p in leftovers)
    assert fresh.exists() and other.exists() and live.exists()
    assert any("restore leftovers: removed 5 file(s)" in r.getMessage() for r in caplog.records)


def test_issue25_item9_a_staging_database_left_by_a_killed_restore_is_dropped_at_the_next_start(db, caplog):
    if not db.is_postgresql:
        pytest.skip("os bancos temporários da restauração são do PostgreSQL")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    live = make_url(db.url)
    name = f"{(live.database or 'postgres')[:30]}_restaurando_{uuid.uuid4().hex[:10]}"
    admin = create_engine(live, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE template0'))
        with caplog.at_level(logging.WARNING, logger="desktop.services.backup"):
            removed = backup.clean_restore_leftovers(db.url)
        assert name in removed
        with admin.connect() as conn:
            assert conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).first() is None
        assert any(name in r.getMessage() for r in caplog.records)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()


def test_issue25_item9_a_postgresql_tool_dies_with_the_command(tmp_path):
    """kill -9 of the command while its tool runs: the tool is killed too (a `pg_restore --single-transaction`
    killed before its COMMIT changes nothing), instead of finishing on its own."""
    pidfile = tmp_path / "tool.pid"
    os.mkfifo(pidfile)            # the tool tells its pid through a pipe: reading it waits for the tool, no polling
    script = (f"import os, sys; sys.path.insert(0, {str(ROOT)!r}); from desktop.services.backup import run_tool; "
              f"run_tool(['sh', '-c', 'echo $$ > {pidfile}; exec sleep 60'], dict(os.environ))")
    command = subprocess.Popen([sys.executable, "-c", script])
    try:
        pipe = os.open(pidfile, os.O_RDONLY | os.O_NONBLOCK)
        try:   # readable once the tool has written its pid (a reader that no writer has joined yet is not)
            assert select.select([pipe], [], [], 20)[0], "the tool never started"
            tool = int(os.read(pipe, 64))
        finally:
            os.close(pipe)
        os.kill(command.pid, signal.SIGKILL)
        command.wait(10)
        if not process_gone(tool, 5):
            os.kill(tool, signal.SIGKILL)
            pytest.fail("the tool outlived the command")
    finally:
        if command.poll() is None:
            command.kill()


def test_issue25_item10_postgresql_tool_errors_are_said_in_portuguese(tmp_path):
    bogus = tmp_path / "copia.dump"
    bogus.write_bytes(b"PGDMP" + b"\0" * 64)
    if shutil.which("pg_restore") is None:
        pytest.skip("pg_restore não instalado")
    with pytest.raises(backup.BackupError) as exc:
        backup.check_pg_backup(bogus)
    message = str(exc.value)
    assert "error" not in message.lower() and "could not" not in message and "unsupported" not in message
    assert "versão mais nova do PostgreSQL" in message
