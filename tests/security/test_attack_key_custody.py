"""Issue 11, attack 3 (the key half): forge stickers with the key found in the database. The private key is no
longer in the database — a copy of it (SQLite file, pg_dump) cannot sign; a desk without the key verifies but
refuses to sign and says where the key is; the key file and the SQLite file are readable by the user alone;
rotation is a gestor's act, audited, and what the old key signed still verifies."""
from __future__ import annotations

import base64
import os
import sqlite3
import stat
from datetime import date

import pytest
from sqlalchemy import select, text

from desktop import keystore, migrate
from desktop.db import Database, sqlite_url
from desktop.migrate import open_database
from desktop.domain.roles import Role
from desktop.errors import PermissionDenied
from desktop.models import AuditCheckpoint, AuditEntry
from desktop.services import audit, setup
from desktop.services import checkpoints
from desktop.signing import generate_keypair, sign_sticker, verify_sticker


def _public(db) -> bytes:
    return setup.get_municipality(db).signing_public_key


def test_issue11_attack3_the_database_holds_no_private_key(db, configured):
    private = setup.signing_private_key(db)
    assert sign_sticker(private, "0001/2026", "ABC1D23", date(2027, 1, 1))
    with db.engine.connect() as conn:
        columns = conn.execute(text("SELECT * FROM municipality")).keys()
        assert "signing_private_key" not in columns
        for table in ("municipality", "signing_keys", "audit_entries", "database_marks"):
            for row in conn.execute(text(f"SELECT * FROM {table}")):
                for value in row:
                    blob = bytes(value) if isinstance(value, (bytes, memoryview)) else str(value).encode()
                    assert private not in blob and base64.b64encode(private) not in blob
                    assert private.hex().encode() not in blob
    if db.is_sqlite:
        db.dispose()
        con = sqlite3.connect(db.sqlite_path)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        assert private not in db.sqlite_path.read_bytes()


def test_issue11_attack3_a_copy_of_the_database_on_another_desk_verifies_but_cannot_sign(db, configured,
                                                                                          monkeypatch, tmp_path):
    checkpoint = checkpoints.make_checkpoint(db, configured)
    signed = sign_sticker(setup.signing_private_key(db), "0001/2026", "ABC1D23", date(2027, 1, 1))
    # another desk: its own (empty) key store
    monkeypatch.setenv("DESKTOP_KEY_DIR", str(tmp_path / "outra-estacao"))
    keystore.forget_loaded()
    with pytest.raises(keystore.KeyUnavailable) as exc:
        setup.signing_private_key(db)
    assert "não assina" in str(exc.value) and "estação" in str(exc.value)
    with pytest.raises(keystore.KeyUnavailable):
        checkpoints.make_checkpoint(db, configured)
    assert checkpoints.daily_checkpoint(db, date(2030, 1, 1)) is None
    check = audit.verify(db)
    assert check.ok and check.checkpoints == 1 and checkpoint.last_id
    assert verify_sticker(signed, _public(db), date(2026, 12, 1)).ok


def test_issue11_key_file_is_private_and_a_passphrase_is_asked_once_per_session(key_store):
    pair = generate_keypair()
    where = keystore.store(pair.private_bytes, "frase-secreta-da-gestora")
    files = list(key_store.iterdir())
    assert len(files) == 1 and "protegido por senha" in where
    if os.name == "posix":
        assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
        assert stat.S_IMODE(key_store.stat().st_mode) == 0o700
    assert pair.private_bytes not in files[0].read_bytes()
    keystore.forget_loaded()
    with pytest.raises(keystore.KeyLocked):
        keystore.load(pair.public_bytes)
    keystore.unlock("senha-errada")
    with pytest.raises(keystore.KeyLocked):
        keystore.load(pair.public_bytes)
    keystore.unlock("frase-secreta-da-gestora")
    assert keystore.load(pair.public_bytes) == pair.private_bytes


def test_issue11_keyring_is_the_first_choice_when_the_system_has_one(key_store, monkeypatch):
    import keyring
    from keyring.backend import KeyringBackend

    class MemoryKeyring(KeyringBackend):
        priority = 1
        store: dict = {}

        def get_password(self, service, username):
            return self.store.get((service, username))

        def set_password(self, service, username, password):
            self.store[(service, username)] = password

        def delete_password(self, service, username):
            self.store.pop((service, username), None)

    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    monkeypatch.delenv("DESKTOP_KEY_STORE")
    try:
        pair = generate_keypair()
        assert "cofre de credenciais" in keystore.store(pair.private_bytes)
        assert not key_store.exists() or not list(key_store.iterdir())
        keystore.forget_loaded()
        assert keystore.load(pair.public_bytes) == pair.private_bytes
    finally:
        keyring.set_keyring(previous)


def test_issue11_new_sqlite_file_and_folder_are_readable_by_the_user_alone(tmp_path):
    if os.name != "posix":
        pytest.skip("modos de arquivo POSIX")
    path = tmp_path / "nova-pasta" / "transporte.sqlite3"
    db = open_database(sqlite_url(path))
    db.dispose()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    for extra in path.parent.glob("transporte.sqlite3-*"):
        assert stat.S_IMODE(extra.stat().st_mode) & 0o077 == 0


def test_issue11_key_rotation_is_a_gestor_act_audited_and_old_signatures_still_verify(db, configured, make_actor):
    old_public = _public(db)
    first = checkpoints.make_checkpoint(db, configured)
    with pytest.raises(PermissionDenied):
        setup.rotate_signing_key(db, make_actor(Role.ATENDENTE), "troca anual")
    new = setup.rotate_signing_key(db, configured, "troca anual")
    assert new.current and _public(db) == new.public_key != old_public
    keys = setup.signing_keys(db)
    assert [k.current for k in keys] == [True, False] and keys[1].valid_to is not None
    second = checkpoints.make_checkpoint(db, configured)
    assert second.key_fingerprint != first.key_fingerprint
    check = audit.verify(db)
    # first, the rotation's hand-over (signed by the old key, issue 25 item 5), second
    assert check.ok and check.checkpoints == 3, check.reason
    with db.session(write=False) as s:
        signers = s.scalars(select(AuditCheckpoint.key_fingerprint).order_by(AuditCheckpoint.id)).all()
    assert signers == [first.key_fingerprint, first.key_fingerprint, second.key_fingerprint]
    with db.session(write=False) as s:
        assert "signing_key.rotate" in s.scalars(select(AuditEntry.action)).all()


def test_issue11_migration_moves_an_old_private_key_out_of_the_database(tmp_path):
    path = tmp_path / "antigo.sqlite3"
    db = Database(sqlite_url(path))
    migrate.upgrade(db, revision="0004", backup=False)   # the revision before 0005 took the key out
    pair = generate_keypair()
    con = sqlite3.connect(path)
    con.execute("INSERT INTO municipality (id, name, uf, secretariat, ouvidoria_phone, signing_private_key, "
                "signing_public_key, version, updated_at) VALUES (1, 'Chapada', 'MT', 'Sec', '156', ?, ?, 1, "
                "'2026-01-01 00:00:00')", (pair.private_bytes, pair.public_bytes))
    con.commit()
    con.close()
    copy = migrate.upgrade(db, backup=True)
    keystore.forget_loaded()
    assert keystore.load(pair.public_bytes) == pair.private_bytes
    assert setup.signing_private_key(db) == pair.private_bytes
    with db.engine.connect() as conn:
        assert "signing_private_key" not in conn.execute(text("SELECT * FROM municipality")).keys()
    db.dispose()
    # neither the freed pages of the live file nor the safety copy made before the migration keep it
    assert copy is not None and copy.exists()
    for file in (path, copy):
        assert pair.private_bytes not in file.read_bytes()
    con = sqlite3.connect(copy)
    assert con.execute("SELECT count(*) FROM municipality").fetchone() == (1,)   # the copy is still whole
    con.close()
