"""Issue 11 (leftovers), a restore that cannot break the office: the backup is restored beside the live data (a
temporary SQLite file, a temporary PostgreSQL database), its audit chain verified against its signed checkpoints,
and only then swapped in. A backup whose audit log was forged is refused and the current data stays untouched;
nothing is left behind (no temporary database, no staged file)."""
from __future__ import annotations

import shutil

import pytest
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

from desktop.domain.roles import Role
from desktop.models import AuditEntry, User
from desktop.services import backup, checkpoints, users

from tests.security.conftest import tamper


def _users(db) -> set[str]:
    with db.session(write=False) as s:
        return set(s.scalars(select(User.username)))


def _staging_leftovers(db, tmp_path) -> list[str]:
    if db.is_sqlite:
        return [p.name for p in backup.sqlite_path(db.url).parent.glob("*restaurando*")]
    engine = create_engine(make_url(db.url), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            return list(conn.execute(text("SELECT datname FROM pg_database WHERE datname LIKE '%restaurando%' "
                                          "AND datname LIKE :mine"), {"mine": f"{make_url(db.url).database}_%"})
                        .scalars())
    finally:
        engine.dispose()


@pytest.fixture
def dump_path(db, tmp_path):
    if db.is_postgresql and shutil.which("pg_dump") is None:
        pytest.skip("pg_dump não instalado")
    return tmp_path / ("copia.sqlite3" if db.is_sqlite else "copia.dump")


def test_issue11_restore_of_a_backup_with_a_forged_audit_log_is_refused_and_changes_nothing(
        db, configured, dump_path, tmp_path):
    users.create_user(db, configured, users.UserDraft("antes.da.copia", "Antes", frozenset({Role.FISCAL}),
                                                      "senha-antes-1"))
    checkpoints.make_checkpoint(db, configured)
    with db.session(write=False) as s:
        first_user_entry = s.scalar(select(func.min(AuditEntry.id)).where(AuditEntry.action == "user.create"))
    # the insider edits an old entry, then takes the "backup" that will be restored over the office's data
    tamper(db, f"UPDATE audit_entries SET username = 'outra pessoa' WHERE id = {first_user_entry}")
    backup.backup(db.url, dump_path)
    tamper(db, f"UPDATE audit_entries SET username = 'gestora' WHERE id = {first_user_entry}")   # live: as it was
    users.create_user(db, configured, users.UserDraft("depois.da.copia", "Depois", frozenset({Role.FISCAL}),
                                                      "senha-depois-1"))
    before = _users(db)
    db.dispose()
    with pytest.raises(backup.BackupError) as exc:
        backup.restore(db.url, dump_path)
    message = str(exc.value)
    assert "registro de auditoria" in message and f"Entrada {first_user_entry}" in message
    assert "Nada foi substituído" in message
    assert _users(db) == before and "depois.da.copia" in before
    assert _staging_leftovers(db, tmp_path) == []


def test_issue11_restore_of_a_sound_backup_is_verified_then_swapped_in(db, configured, dump_path, tmp_path):
    users.create_user(db, configured, users.UserDraft("antes.da.copia", "Antes", frozenset({Role.FISCAL}),
                                                      "senha-antes-1"))
    checkpoints.make_checkpoint(db, configured)
    backup.backup(db.url, dump_path)
    users.create_user(db, configured, users.UserDraft("depois.da.copia", "Depois", frozenset({Role.FISCAL}),
                                                      "senha-depois-1"))
    db.dispose()
    backup.restore(db.url, dump_path)
    assert "antes.da.copia" in _users(db) and "depois.da.copia" not in _users(db)
    from desktop.services import audit

    check = audit.verify(db)
    assert check.ok and check.checkpoints == 1, check.reason
    assert _staging_leftovers(db, tmp_path) == []


def test_issue11_a_failed_swap_on_postgresql_leaves_the_live_data(db, configured, dump_path, tmp_path,
                                                                  monkeypatch):
    """The swap is one pg_restore --single-transaction: when it fails half-way nothing of it stays."""
    if not db.is_postgresql:
        pytest.skip("a troca em uma transação é a do PostgreSQL")
    backup.backup(db.url, dump_path)
    users.create_user(db, configured, users.UserDraft("depois.da.copia", "Depois", frozenset({Role.FISCAL}),
                                                      "senha-depois-1"))
    before = _users(db)
    db.dispose()
    real_backup = backup._backup_postgresql

    def truncated_copy(url, out):       # the verified copy arrives damaged at the swap
        result = real_backup(url, out)
        data = out.read_bytes()
        out.write_bytes(data[: len(data) * 2 // 3])
        return result

    monkeypatch.setattr(backup, "_backup_postgresql", truncated_copy)
    with pytest.raises(backup.BackupError):
        backup.restore(db.url, dump_path)
    assert _users(db) == before
    assert _staging_leftovers(db, tmp_path) == []
