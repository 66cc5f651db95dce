"""Automatic backups (issue 17): the first login of the day copies, verifies and rotates; a missing folder or a
failed copy is an outcome, never a crash; on PostgreSQL without pg_dump the state says it is the DBA's job."""
from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import date, datetime, timedelta

import pytest

from desktop.domain import clock
from desktop.domain.roles import Role
from desktop.errors import PermissionDenied, ValidationError
from desktop.services import auto_backup, users


@pytest.fixture(autouse=True)
def _own_settings(tmp_path, monkeypatch):
    """Each test's own settings file: a folder chosen here must not leak into the other tests of the session."""
    monkeypatch.setenv("DESKTOP_SETTINGS_FILE", str(tmp_path / "settings.json"))


def _sqlite_only(db):
    if not db.is_sqlite:
        pytest.skip("cópia automática com verificação completa: SQLite (o PostgreSQL é testado abaixo)")


def test_first_run_of_the_day_copies_verifies_and_records(db, admin_actor, tmp_path):
    _sqlite_only(db)
    folder = tmp_path / "copias"
    folder.mkdir()
    outcome = auto_backup.run_auto_backup(db, admin_actor, folder=folder)
    assert outcome.status == auto_backup.DONE, outcome.message
    copy = outcome.copy
    assert copy.path.name == "transporte-2026-11-18.sqlite3" and copy.verified is True
    assert "registro de auditoria íntegro" in copy.verification and copy.kept_by == "diária"
    side = json.loads((folder / "transporte-2026-11-18.sqlite3.json").read_text(encoding="utf-8"))
    assert side["ok"] is True and len(side["sha256"]) == 64
    # the copy stands alone (no WAL beside it) and holds the users
    assert not (folder / "transporte-2026-11-18.sqlite3-wal").exists()
    con = sqlite3.connect(copy.path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert con.execute("SELECT count(*) FROM users").fetchone()[0] >= 1
    con.close()
    # a second login the same day makes nothing
    again = auto_backup.run_auto_backup(db, admin_actor, folder=folder)
    assert again.status == auto_backup.ALREADY
    assert auto_backup.backup_state(db, folder).status == auto_backup.DONE
    # the copy is in the audit log of the database
    from sqlalchemy import select

    from desktop.models import AuditEntry

    with db.session(write=False) as s:
        actions = s.scalars(select(AuditEntry.action).where(AuditEntry.entity == "backup")).all()
    assert actions == ["backup_auto"]


def test_four_hundred_days_leave_exactly_seven_daily_four_weekly_twelve_monthly(db, admin_actor, tmp_path):
    _sqlite_only(db)
    folder = tmp_path / "copias"
    folder.mkdir()
    first = date(2025, 10, 28)
    # Day 1 is a real copy; days 2–399 are that copy under each day's name (a fake calendar, same bytes), so the
    # rotation runs over 400 real files; days 390–400 are real runs under the program's clock.
    with clock.frozen(datetime(2025, 10, 28, 9, 0)):
        seed = auto_backup.run_auto_backup(db, admin_actor, folder=folder)
    assert seed.status == auto_backup.DONE
    for i in range(1, 389):
        day = first + timedelta(days=i)
        target = folder / auto_backup.copy_name(day, "sqlite")
        shutil.copyfile(seed.copy.path, target)
        shutil.copyfile(folder / (seed.copy.path.name + ".json"), folder / (target.name + ".json"))
        auto_backup._record_in_manifest(folder, target, seed.copy.sha256)   # as if the program had made it (issue 25)
    for i in range(389, 400):
        day = first + timedelta(days=i)
        with clock.frozen(datetime(day.year, day.month, day.day, 8, 30)):
            outcome = auto_backup.run_auto_backup(db, admin_actor, folder=folder)
        assert outcome.status == auto_backup.DONE, outcome.message
    assert day == date(2026, 12, 1)
    copies = auto_backup.list_copies(folder)
    assert len(copies) == 23
    assert [c.kept_by for c in copies].count("diária") == 7
    assert [c.kept_by for c in copies].count("semanal") == 4
    assert [c.kept_by for c in copies].count("mensal") == 12
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [c.path.name for c in copies] + [c.path.name + ".json" for c in copies] + [auto_backup.MANIFEST])
    assert copies[-1].day == date(2025, 11, 30)


def test_missing_folder_and_no_folder_are_alerts_not_crashes(db, admin_actor, tmp_path, monkeypatch):
    monkeypatch.setattr(auto_backup, "pg_dump_available", lambda: True)
    gone = tmp_path / "disco-externo-desligado"
    outcome = auto_backup.run_auto_backup(db, admin_actor, folder=gone)
    assert outcome.status == auto_backup.FOLDER_MISSING and outcome.alert
    assert "não está acessível" in outcome.message
    assert auto_backup.backup_state(db, gone).alert
    none = auto_backup.run_auto_backup(db, admin_actor)   # nothing configured in this desk's settings
    assert none.status == auto_backup.NOT_CONFIGURED and "Administração" in none.message


def test_a_copy_that_fails_verification_is_set_aside_and_alerted(db, admin_actor, tmp_path, monkeypatch):
    _sqlite_only(db)
    folder = tmp_path / "copias"
    folder.mkdir()

    real_backup = auto_backup.backup.backup

    def torn_copy(url, out):
        result = real_backup(url, out)
        with open(out, "r+b") as fh:   # a disk that wrote garbage in the middle of the file
            fh.seek(4096)
            fh.write(b"\xff" * 8192)
        return result

    monkeypatch.setattr(auto_backup.backup, "backup", torn_copy)
    outcome = auto_backup.run_auto_backup(db, admin_actor, folder=folder)
    assert outcome.status == auto_backup.FAILED and outcome.alert
    assert (folder / "transporte-2026-11-18.sqlite3.falhou").exists()
    assert auto_backup.list_copies(folder) == []
    assert auto_backup.backup_state(db, folder).status == auto_backup.FAILED


def test_a_write_error_is_an_outcome(db, admin_actor, tmp_path, monkeypatch):
    _sqlite_only(db)
    folder = tmp_path / "copias"
    folder.mkdir()

    def disk_full(url, out):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(auto_backup.backup, "backup", disk_full)
    outcome = auto_backup.run_auto_backup(db, admin_actor, folder=folder)
    assert outcome.status == auto_backup.FAILED and "No space left" in outcome.message


def test_postgresql_without_pg_dump_is_the_dbas_job(db, admin_actor, tmp_path, monkeypatch):
    if not db.is_postgresql:
        pytest.skip("PostgreSQL")
    monkeypatch.setattr(auto_backup.shutil, "which", lambda name: None)
    outcome = auto_backup.run_auto_backup(db, admin_actor, folder=tmp_path)
    assert outcome.status == auto_backup.DBA and "DBA" in outcome.message
    state = auto_backup.backup_state(db, tmp_path)
    assert state.status == auto_backup.DBA and not state.alert


def test_postgresql_with_pg_dump_copies_and_checks_the_dump(db, admin_actor, tmp_path):
    if not db.is_postgresql or shutil.which("pg_dump") is None:
        pytest.skip("PostgreSQL com pg_dump")
    outcome = auto_backup.run_auto_backup(db, admin_actor, folder=tmp_path)
    assert outcome.status == auto_backup.DONE, outcome.message
    assert outcome.copy.path.suffix == ".dump" and outcome.copy.verified


def test_only_the_administrator_chooses_the_folder(db, admin_actor, make_actor, tmp_path):
    fiscal = make_actor(Role.FISCAL, username="fiscal.copia")
    with pytest.raises(PermissionDenied):
        auto_backup.set_backup_folder(db, fiscal, tmp_path)
    with pytest.raises(ValidationError) as err:
        auto_backup.set_backup_folder(db, admin_actor, tmp_path / "nao-existe")
    assert err.value.problems[0].field == "backup_folder"
    with pytest.raises(ValidationError):
        auto_backup.set_backup_folder(db, admin_actor, "relativa/pasta")
    chosen = auto_backup.set_backup_folder(db, admin_actor, tmp_path)
    assert chosen == tmp_path.resolve() and auto_backup.configured_folder() == tmp_path.resolve()


def test_restore_of_a_copy_brings_the_data_back_and_is_audited(db, admin_actor, tmp_path):
    _sqlite_only(db)
    outcome = auto_backup.run_auto_backup(db, admin_actor, folder=tmp_path)
    users.create_user(db, admin_actor, users.UserDraft("depois.da.copia", "Depois", frozenset({Role.FISCAL}),
                                                       "senha-depois-1"))
    result = auto_backup.restore_copy(db, admin_actor, outcome.copy.path)
    assert result.replaced_copy is not None and result.replaced_copy.exists()
    names = {u.username for u in users.list_users(db, admin_actor)}
    assert "depois.da.copia" not in names
    from sqlalchemy import select

    from desktop.models import AuditEntry

    with db.session(write=False) as s:
        last = s.scalars(select(AuditEntry).order_by(AuditEntry.id.desc()).limit(1)).one()
    assert last.action == "backup_restored" and "admin" in last.after
