"""Issue 25 item 5, second wave: "each key row is in the audit chain and the published checkpoint, and the check
refuses a key not anchored there". The first fix anchored a key on any `signing_key.create`/`signing_key.rotate`
entry naming it — but the chain's hash is computable by anyone who can write the table (an SQLite file, the owner
of a PostgreSQL schema, a superuser with the triggers off), so an insider appended a forged `signing_key.rotate`
entry naming his own key with a correct chain hash, swapped the key, and his QR checked "Adesivo autêntico" while
`audit verify` said "íntegro". The daily routine even signed a checkpoint over the forged entry.

Now a key counts only when a **hand-over checkpoint** signed with the key in force before it names its rotation
(services.audit.key_anchors_in); the root is the oldest `signing_key.create`. Forging that needs the private key.
On PostgreSQL with the two roles, the application role cannot even append the entry (migration 0017): the last
test shows it with the raw INSERT an insider would write."""
from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError

from desktop import cli, keystore
from desktop.db import Database
from desktop.errors import ConflictError, DesktopError
from desktop.models import AuditCheckpoint, AuditEntry, MunicipalitySettings, SigningKey, now
from desktop.services import audit, checkpoints, setup
from desktop.services.actors import SYSTEM_ACTOR
from desktop.services.documents import sticker_check
from desktop.services.setup import new_signing_key
from desktop.signing import fingerprint, sign_sticker, sign_text
from tests.security.test_attack_disable_triggers import _as, roles_schema  # noqa: F401 - fixture

DAY = date(2026, 11, 18)
UNTIL = date(2027, 11, 30)


def _forge_rotation(db, attacker_public: bytes) -> int:
    """The insider's forged rotation: an entry `signing_key.rotate` naming his key, appended with the chain's
    correct hash (the program's own function computes it — so could anyone). Returns the entry's id."""
    with db.session() as s:
        genuine = fingerprint(bytes(s.get(MunicipalitySettings, 1).signing_public_key))
        entry = audit.record(s, SYSTEM_ACTOR, "signing_key.rotate", "municipality", "1", {"key": genuine},
                             {"key": fingerprint(attacker_public), "holder": "estação do gestor",
                              "reason": "troca anual"})
        return entry.id


def _swap_key(db, attacker_public: bytes) -> None:
    """…then his key in the key table and in the municipality's row, as the program's rotation would leave them."""
    with db.session() as s:
        s.add(SigningKey(fingerprint=fingerprint(attacker_public), public_key=attacker_public, valid_from=now(),
                         holder="estação do gestor", note="troca anual"))
        s.get(MunicipalitySettings, 1).signing_public_key = attacker_public


def test_a_forged_rotation_with_a_correct_chain_hash_anchors_nothing(db, configured, capsys):
    genuine = sign_sticker(setup.signing_private_key(db), "0001/2026", "ABC1D23", UNTIL)
    attacker_private, attacker_public = new_signing_key()
    forged_id = _forge_rotation(db, attacker_public)
    # the chain is coherent, and the day's routine signs its head over the forged entry: still no anchor
    assert checkpoints.daily_checkpoint(db, DAY) is not None
    with db.session(write=False) as s:
        assert fingerprint(attacker_public) not in audit.anchored_key_fingerprints(s)
    check = audit.verify(db)
    assert not check.ok and check.problem == "key_not_vouched" and check.first_broken_id == forged_id
    assert f"Entrada {forged_id}" in check.reason and "chave anterior" in check.reason
    assert sticker_check.check_sticker(db, genuine, DAY).status != "forged"   # the genuine key still checks

    _swap_key(db, attacker_public)
    forged = sign_sticker(attacker_private, "0001/2026", "ABC1D23", UNTIL)
    for text in (forged, genuine):
        with pytest.raises(ConflictError) as refused:
            sticker_check.check_sticker(db, text, DAY)
        assert f"entrada nº {forged_id}" in str(refused.value) and "chave anterior" in str(refused.value)
    check = audit.verify(db)
    assert not check.ok and check.problem == "key_not_anchored"
    assert cli.main(["--db", db.url, "audit", "verify"]) == 1
    assert "ROMPIDO" in capsys.readouterr().err


def test_a_forged_hand_over_without_the_private_key_anchors_nothing(db, configured):
    """The whole forgery: the rotation, a checkpoint entry naming it as handed over, a checkpoint row that claims
    the genuine key's fingerprint (signed with the attacker's key), the key row's bytes pointed at his key under
    the genuine fingerprint, and the municipality's key swapped."""
    genuine_fp = fingerprint(bytes(setup.get_municipality(db).signing_public_key))
    attacker_private, attacker_public = new_signing_key()
    forged_id = _forge_rotation(db, attacker_public)
    with db.session() as s:
        entry = audit.record(s, SYSTEM_ACTOR, "audit.checkpoint", "audit", "", None, {
            "day": DAY.isoformat(), "reason": "troca da chave de assinatura", "key": genuine_fp[:16],
            audit.HAND_OVER: {"entry": forged_id, "key": fingerprint(attacker_public)}})
        count = s.scalar(select(AuditEntry.id).order_by(AuditEntry.id.desc()).limit(1))
        at = now().replace(microsecond=0)
        message = audit.checkpoint_message(entry.id, entry.hash, count, DAY, at, genuine_fp)
        s.add(AuditCheckpoint(at=at, day=DAY, last_id=entry.id, last_hash=entry.hash, entry_count=count,
                              key_fingerprint=genuine_fp, message=message,
                              signature=sign_text(attacker_private, message), made_by="sistema"))
        s.get(MunicipalitySettings, 1).signing_public_key = attacker_public
        for row in s.scalars(select(SigningKey)):
            row.public_key = attacker_public   # the fingerprint column still says the genuine key's
    with db.session(write=False) as s:
        assert audit.anchored_key_fingerprints(s) == {genuine_fp}
    with pytest.raises(ConflictError):
        sticker_check.check_sticker(db, sign_sticker(attacker_private, "0001/2026", "ABC1D23", UNTIL), DAY)
    assert not audit.verify(db).ok


def test_the_programs_rotation_is_handed_over_by_the_old_key_and_checks(db, configured, capsys):
    old_fp = fingerprint(bytes(setup.get_municipality(db).signing_public_key))
    new = setup.rotate_signing_key(db, configured, "troca anual")
    with db.session(write=False) as s:
        anchors = audit.key_anchors_in(s)
        hand_over = s.scalars(select(AuditCheckpoint).order_by(AuditCheckpoint.id.desc()).limit(1)).one()
    assert anchors.anchored == (old_fp, new.fingerprint) and anchors.current == new.fingerprint
    assert anchors.unvouched == () and hand_over.key_fingerprint == old_fp   # signed by the key it replaces
    sticker = sign_sticker(setup.signing_private_key(db), "0001/2026", "ABC1D23", UNTIL)
    assert sticker_check.check_sticker(db, sticker, DAY).status != "forged"
    assert audit.verify(db).ok
    # the gestor's command at the terminal (on PostgreSQL, with the owner's URL: here the test's owner), and the
    # routine of the next day signing with the newest key
    assert cli.main(["--db", db.url, "audit", "rotate-key", "--reason", "troca semestral"]) == 0, \
        capsys.readouterr().err
    assert checkpoints.daily_checkpoint(db, date(2026, 11, 19)) is not None
    check = audit.verify(db)
    assert check.ok, check.reason
    sticker = sign_sticker(setup.signing_private_key(db), "0001/2026", "ABC1D23", UNTIL)
    assert sticker_check.check_sticker(db, sticker, DAY).status != "forged"


def test_a_rotation_on_a_desk_without_the_key_in_force_changes_nothing(db, configured, tmp_path, monkeypatch):
    before = setup.signing_keys(db)
    monkeypatch.setenv("DESKTOP_KEY_DIR", str(tmp_path / "outra-estacao"))
    keystore.forget_loaded()
    with pytest.raises(DesktopError) as refused:
        setup.rotate_signing_key(db, configured, "troca anual")
    assert "chave em vigor" in str(refused.value) and "nada foi alterado" in str(refused.value)
    assert setup.signing_keys(db) == before
    assert not list((tmp_path / "outra-estacao").glob("*"))   # no pending key left on the other desk
    assert audit.verify(db).ok


def test_a_swapped_key_is_repaired_by_a_rotation_handed_over_by_the_last_anchored_key(db, configured):
    """After an insider's swap the program's rotation is vouched by the key the chain has in force — not by the
    swapped one — so the repair restores trust."""
    _attacker_private, attacker_public = new_signing_key()
    _forge_rotation(db, attacker_public)
    _swap_key(db, attacker_public)
    new = setup.rotate_signing_key(db, configured, "chave trocada fora do programa")
    with db.session(write=False) as s:
        anchors = audit.key_anchors_in(s)
    assert anchors.current == new.fingerprint and fingerprint(attacker_public) not in anchors.anchored
    sticker = sign_sticker(setup.signing_private_key(db), "0001/2026", "ABC1D23", UNTIL)
    assert sticker_check.check_sticker(db, sticker, DAY).status != "forged"
    check = audit.verify(db)   # the forged entry stays in the chain, and stays reported
    assert not check.ok and check.problem == "key_not_vouched"


def test_the_application_role_cannot_append_a_key_entry_even_with_a_correct_hash(roles_schema, capsys):  # noqa: F811
    """PostgreSQL with the two roles: the raw INSERT an insider at a desk would write, hash computed by hand."""
    from decimal import Decimal

    url, owner, app = roles_schema
    assert cli.main(["--db", url, "setup-server", "--app-role", app, "--owner-role", owner]) == 0
    capsys.readouterr()
    app_db = Database(_as(url, app))
    try:
        setup.initialize(app_db, setup.MunicipalityDraft(
            name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria de Mobilidade",
            ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("112.45")),
            setup.AdminDraft("gestora", "Gestora", "senha-forte-1"))
        _, attacker_public = new_signing_key()
        with app_db.session(write=False) as s:
            prev = s.scalar(select(AuditEntry.hash).order_by(AuditEntry.id.desc()).limit(1))
        at = now()
        after = audit.canonical_json({"key": fingerprint(attacker_public), "reason": "troca anual"})
        digest = audit._entry_hash(prev, audit._fields(at, None, "sistema", "signing_key.rotate", "municipality",
                                                       "1", None, after))
        with app_db.engine.connect() as conn:
            with pytest.raises(DBAPIError) as refused:
                conn.exec_driver_sql(
                    "INSERT INTO audit_entries (at, user_id, username, action, entity, entity_id, before, after, "
                    "prev_hash, hash) VALUES (%(at)s, NULL, 'sistema', 'signing_key.rotate', 'municipality', '1', "
                    "NULL, %(after)s, %(prev)s, %(hash)s)", {"at": at, "after": after, "prev": prev, "hash": digest})
            conn.rollback()
        assert "papel dono" in str(refused.value.orig)
        assert audit.verify(app_db).ok
    finally:
        app_db.dispose()
