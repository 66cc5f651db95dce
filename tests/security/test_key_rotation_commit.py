"""Issue 11, key custody: a rotation writes its new private key to the key store only as a pending slot, promoted
when the database part commits. A rolled-back rotation leaves the old key the one that signs, no new key usable,
and nothing pending; a desk that stopped between the commit and the promotion still finds the new key."""
from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from desktop import keystore
from desktop.models import AuditEntry, SigningKey
from desktop.services import setup
from desktop.signing import fingerprint, sign_sticker, verify_sticker


class Boom(Exception):
    pass


def _key_files(folder):
    return sorted(p.name for p in folder.glob("*")) if folder.exists() else []


def test_issue11_a_rolled_back_rotation_leaves_the_old_key_usable(db, configured, key_store):
    old_public = setup.get_municipality(db).signing_public_key
    old_private = setup.signing_private_key(db)
    before = _key_files(key_store)
    seen = {}
    with pytest.raises(Boom):
        with db.session() as s:
            info = setup.rotate_signing_key_in(s, configured, "troca anual")
            seen["fp"] = info.fingerprint
            # inside the transaction the new key is only pending: nothing can sign with it yet
            assert keystore.has_pending(info.fingerprint)
            assert not keystore._key_file(info.fingerprint).exists()
            raise Boom   # e.g. the audit write or another step of the same transaction failed
    assert not keystore.has_pending(seen["fp"])
    assert _key_files(key_store) == before                     # no stray key file left behind
    keystore.forget_loaded()
    assert setup.get_municipality(db).signing_public_key == old_public
    assert setup.signing_private_key(db) == old_private          # the old key still signs
    payload = sign_sticker(old_private, "0001/2026", "ABC1D23", date(2027, 1, 1))
    assert verify_sticker(payload, old_public, date(2026, 11, 18)).status == "valid"
    with db.session(write=False) as s:
        assert s.scalars(select(SigningKey.fingerprint)).all() == [fingerprint(old_public)]
        assert s.scalars(select(SigningKey.valid_to)).all() == [None]
        assert "signing_key.rotate" not in s.scalars(select(AuditEntry.action)).all()


def test_issue11_a_committed_rotation_promotes_the_new_key(db, configured, key_store):
    old_public = setup.get_municipality(db).signing_public_key
    new = setup.rotate_signing_key(db, configured, "troca anual")
    assert not keystore.has_pending(new.fingerprint)
    assert keystore._key_file(new.fingerprint).exists()
    assert keystore._key_file(fingerprint(old_public)).exists()   # the old one is kept (it may still be needed)
    keystore.forget_loaded()
    private = setup.signing_private_key(db)
    payload = sign_sticker(private, "0002/2026", "ABC1D23", date(2027, 1, 1))
    assert verify_sticker(payload, new.public_key, date(2026, 11, 18)).status == "valid"


def test_issue11_a_stop_between_commit_and_promotion_still_finds_the_new_key(db, configured, key_store):
    def power_cut(_fp):
        raise OSError("a estação desligou")

    real = keystore.promote
    keystore.promote = power_cut
    try:
        new = setup.rotate_signing_key(db, configured, "troca anual")
    finally:
        keystore.promote = real
    assert keystore.has_pending(new.fingerprint)                 # committed, but the rename never happened
    keystore.forget_loaded()
    private = setup.signing_private_key(db)                       # the database names it: promoted on first use
    payload = sign_sticker(private, "0003/2026", "ABC1D23", date(2027, 1, 1))
    assert verify_sticker(payload, new.public_key, date(2026, 11, 18)).status == "valid"
    assert not keystore.has_pending(new.fingerprint)
