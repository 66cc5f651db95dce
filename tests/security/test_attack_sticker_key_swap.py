"""Issue 25 item 5: swap the key the sticker check trusts. As the desks' application role (PostgreSQL),
`UPDATE municipality SET signing_public_key = <attacker key>` changed the row with no audit entry; a QR
signed by the attacker then checked "Adesivo autêntico", the genuine one "FALSO", and `audit verify` said "íntegro".

Now (a) PostgreSQL refuses the write itself — the application role may not UPDATE that column, nor add a key row
or a key audit entry once a key exists (migration 0017); rotation goes through the owner role (`audit rotate-key`
with the owner's URL); and (b) on both databases a key that is not anchored in the audit chain (an entry
`signing_key.create`/`signing_key.rotate` with its fingerprint) is refused by the sticker check and by
`audit verify`, so even a swap written behind the program's back (triggers off, SQLite file edited) is caught."""
from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy.exc import DBAPIError

from desktop import cli
from desktop.db import Database
from desktop.errors import ConflictError, PermissionDenied
from desktop.services import audit, setup
from desktop.services.documents import sticker_check
from desktop.services.setup import new_signing_key
from desktop.signing import sign_sticker
from tests.security.conftest import tamper
from tests.security.test_attack_disable_triggers import _as, roles_schema  # noqa: F401 - fixture

DAY = date(2026, 11, 18)


def _swap_sql(public: bytes) -> str:
    return f"UPDATE municipality SET signing_public_key = {_bytes_literal(public)} WHERE id = 1"


def _bytes_literal(public: bytes) -> str:
    return f"X'{public.hex()}'"


def _pg_swap_sql(public: bytes) -> str:
    return f"UPDATE municipality SET signing_public_key = '\\x{public.hex()}'::bytea WHERE id = 1"


def test_issue25_item5_a_key_swapped_behind_the_programs_back_is_refused(db, configured):
    genuine = sign_sticker(setup.signing_private_key(db), "0001/2026", "ABC1D23", date(2027, 11, 30))
    assert sticker_check.check_sticker(db, genuine, DAY).status != "forged"
    assert audit.verify(db).ok
    attacker_private, attacker_public = new_signing_key()
    forged = sign_sticker(attacker_private, "0001/2026", "ABC1D23", date(2027, 11, 30))
    tamper(db, _swap_sql(attacker_public) if db.is_sqlite else _pg_swap_sql(attacker_public))
    for text in (forged, genuine):
        with pytest.raises(ConflictError) as exc:
            sticker_check.check_sticker(db, text, DAY)
        assert "não está registrada no registro de auditoria" in str(exc.value)
    check = audit.verify(db)
    assert not check.ok and check.problem == "key_not_anchored" and "fora do programa" in check.reason


def test_issue25_item5_a_rotation_through_the_program_is_anchored(db, configured):
    setup.rotate_signing_key(db, configured, "troca anual")
    sticker = sign_sticker(setup.signing_private_key(db), "0001/2026", "ABC1D23", date(2027, 11, 30))
    assert sticker_check.check_sticker(db, sticker, DAY).status != "forged"
    assert audit.verify(db).ok


def test_issue25_item5_the_application_role_cannot_write_a_key(roles_schema, capsys):  # noqa: F811
    url, owner, app = roles_schema
    assert cli.main(["--db", url, "setup-server", "--app-role", app, "--owner-role", owner]) == 0
    capsys.readouterr()
    owner_db, app_db = Database(_as(url, owner)), Database(_as(url, app))
    try:
        from decimal import Decimal

        first = setup.initialize(app_db, setup.MunicipalityDraft(   # the first set-up, by a desk, still works
            name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria de Mobilidade",
            ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("112.45")),
            setup.AdminDraft("gestora", "Gestora", "senha-forte-1"))
        _, attacker_public = new_signing_key()
        fp = "f" * 64
        refused = [
            _pg_swap_sql(attacker_public),
            "DELETE FROM municipality",
            f"INSERT INTO signing_keys (fingerprint, public_key, valid_from, holder, note) VALUES ('{fp}', "
            f"'\\x{attacker_public.hex()}'::bytea, now(), 'x', 'x')",
            "UPDATE signing_keys SET public_key = public_key",
            "DELETE FROM signing_keys",
        ]
        for sql in refused:
            with app_db.engine.connect() as conn:
                with pytest.raises(DBAPIError) as exc:
                    conn.exec_driver_sql(sql)
                conn.rollback()
            message = str(exc.value.orig)
            assert "permission denied" in message or "permissão negada" in message or "papel dono" in message, \
                (sql, message)
        # a key audit entry forged through the program's own audit function is refused too
        with pytest.raises(DBAPIError) as exc:
            with app_db.session() as s:
                audit.record(s, first, "signing_key.rotate", "municipality", "1", None, {"key": fp})
        assert "papel dono" in str(exc.value.orig)
        # the rotation through the application role: a Portuguese refusal, nothing changed
        before = setup.get_municipality(app_db).signing_public_key
        with pytest.raises(PermissionDenied) as denied:
            setup.rotate_signing_key(app_db, first, "troca")
        assert "papel dono" in str(denied.value) and setup.get_municipality(app_db).signing_public_key == before
        # the owner rotates (the gestor's command with the owner's URL): anchored, verified
        assert cli.main(["--db", _as(url, owner), "audit", "rotate-key", "--reason", "troca anual"]) == 0
        assert setup.get_municipality(app_db).signing_public_key != before
        assert audit.verify(app_db).ok
        # other settings are still the application's to change
        info = setup.get_municipality(app_db)
        draft = setup.MunicipalityDraft(name=info.name, uf=info.uf, secretariat="Secretaria de Mobilidade Urbana",
                                        ouvidoria_phone=info.ouvidoria_phone, upfm_year=2026,
                                        upfm_value=Decimal("112.45"))
        setup.update_municipality(app_db, first, draft, info.version)
    finally:
        owner_db.dispose()
        app_db.dispose()
