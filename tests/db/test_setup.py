"""Set-up wizard service (issue 2): one transaction creates settings, UPFM, defaults, signing key and admin."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from desktop.domain.roles import Role
from desktop.errors import ConflictError, NotFound, PermissionDenied, StaleRecordError, ValidationError
from desktop.models import AuditEntry, MunicipalitySettings, Parameter, User
from desktop.services import audit, auth, parameters, setup


def _draft(**kw) -> setup.MunicipalityDraft:
    base = dict(name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
                ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("117.51"))
    base.update(kw)
    return setup.MunicipalityDraft(**base)


ADMIN = setup.AdminDraft("Prefeitura.Admin", "Maria das Graças Curvo", "senha-forte-1")


def test_initialize_creates_admin_settings_upfm_defaults_and_signing_key(db):
    assert setup.needs_setup(db) is True
    actor = setup.initialize(db, _draft(), ADMIN)
    assert setup.needs_setup(db) is False
    # The first user: administrador + gestor (documented choice), user name stored lower-case.
    assert actor.username == "prefeitura.admin"
    assert actor.roles == frozenset({Role.ADMINISTRADOR, Role.GESTOR})
    # The database works: the admin logs in with the password given to the wizard (Argon2 hash stored).
    logged = auth.login(db, "Prefeitura.Admin", "senha-forte-1")
    assert logged.user_id == actor.user_id
    with db.session(write=False) as s:
        user = s.get(User, actor.user_id)
        assert user.password_hash.startswith("$argon2id$")
        settings = s.get(MunicipalitySettings, 1)
        assert len(settings.signing_private_key) == 32 and len(settings.signing_public_key) == 32
        keys = set(s.scalars(select(Parameter.key)))
        # UPFM + every default of the catalog (issue 13: the ISSQN rate has none)
        # (nor the late charges of the Código Tributário Municipal: issue 13, no invented default)
        # (nor the fees, which are the CTM's too: issue 23 point 10 — the old seed of 10/10/3 UPFM was invented)
        # (nor the CTM's term to contest an ISSQN lançamento: issue 28 point 4)
        assert keys == set(parameters.PARAMETERS) - {"issqn_rate_percent", "late.fine_percent",
                                                      "late.interest_percent", "fee.authorization",
                                                      "fee.renewal", "fee.inspection", "issqn.contest_days"}
    assert parameters.upfm_value(db, 2026) == Decimal("117.51")
    info = setup.get_municipality(db)
    assert (info.name, info.uf, info.version) == ("Chapada dos Guimarães", "MT", 1)
    assert info.title == "Prefeitura Municipal de Chapada dos Guimarães–MT"
    assert audit.verify(db).ok


def test_signing_key_pair_matches(db):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    setup.initialize(db, _draft(), ADMIN)
    private = Ed25519PrivateKey.from_private_bytes(setup.signing_private_key(db))
    public = private.public_key()
    signature = private.sign(b"0001/2026")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    Ed25519PublicKey.from_public_bytes(setup.get_municipality(db).signing_public_key).verify(signature, b"0001/2026")
    assert public is not None


def test_initialize_refuses_bad_input_naming_each_field_and_writes_nothing(db):
    with pytest.raises(ValidationError) as exc:
        setup.initialize(db, _draft(uf="Mato Grosso", ouvidoria_phone="123-45", upfm_value=Decimal("0")),
                         setup.AdminDraft("ad", "", "curta"))
    fields = {p.field for p in exc.value.problems}
    assert {"uf", "ouvidoria_phone", "upfm_value", "username", "full_name", "password"} <= fields
    messages = " ".join(p.message for p in exc.value.problems)
    assert "duas letras" in messages and "8 caracteres" in messages and "maior que zero" in messages
    assert setup.needs_setup(db) is True
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(User)) == 0


def test_initialize_twice_is_refused(db):
    setup.initialize(db, _draft(), ADMIN)
    with pytest.raises(ConflictError):
        setup.initialize(db, _draft(), setup.AdminDraft("outro.admin", "Outro", "senha-forte-2"))


def test_phone_forms_accepted():
    assert setup.phone_problems("(65) 3301-1234") == []
    assert setup.phone_problems("65 99999-1234") == []
    assert setup.phone_problems("0800 647 1234") == []
    assert setup.phone_problems("156") == []
    assert setup.phone_problems("12345") != []


def test_update_municipality_is_administrador_only_and_optimistically_locked(db, make_actor):
    admin = setup.initialize(db, _draft(), ADMIN)
    info = setup.get_municipality(db)
    clerk = make_actor(Role.ATENDENTE)
    new = _draft(secretariat="Secretaria Municipal de Fazenda", ouvidoria_phone="0800 647 1234")
    with pytest.raises(PermissionDenied):
        setup.update_municipality(db, clerk, new, info.version)
    updated = setup.update_municipality(db, admin, new, info.version)
    assert updated.secretariat == "Secretaria Municipal de Fazenda" and updated.version == info.version + 1
    # A second desk saving on the version it loaded earlier is refused (SPEC §4).
    with pytest.raises(StaleRecordError):
        setup.update_municipality(db, admin, _draft(secretariat="Outra"), info.version)
    with db.session(write=False) as s:
        actions = list(s.scalars(select(AuditEntry.action).order_by(AuditEntry.id)))
    assert "municipality.update" in actions


def test_default_parameters_valid_from_the_law(db):
    setup.initialize(db, _draft(), ADMIN)
    assert parameters.parameter_value(db, "term.defense_days", date(2025, 6, 4)) == 15
    assert parameters.parameter_value(db, "issqn_pro_rata", date(2026, 1, 1)) == 0
    with pytest.raises(NotFound):   # issue 13: the ISSQN rate is the tax code's, never a default of the program
        parameters.parameter_value(db, "issqn_rate_percent", date(2026, 1, 1))


class _Undo(Exception):
    """Raised inside a caller's transaction to roll it back."""


def test_session_forms_join_the_callers_transaction(db, make_actor):
    admin = setup.initialize(db, _draft(), ADMIN)
    info = setup.get_municipality(db)
    with pytest.raises(_Undo):
        with db.session() as s:
            changed = setup.update_municipality_in(s, admin, _draft(secretariat="Secretaria de Fazenda"),
                                                   info.version)
            assert changed.secretariat == "Secretaria de Fazenda"
            raise _Undo
    assert setup.get_municipality(db) == info
    keys = setup.signing_keys(db)
    with pytest.raises(_Undo):
        with db.session() as s:
            assert setup.rotate_signing_key_in(s, admin, "troca anual").current
            raise _Undo
    assert setup.signing_keys(db) == keys and setup.get_municipality(db) == info
    clerk = make_actor(Role.ATENDENTE)
    with pytest.raises(PermissionDenied):
        with db.session() as s:
            setup.update_municipality_in(s, clerk, _draft(), info.version)


# ------------------------------------------------------------------ issue 23 point 10: the fees are the CTM's
def test_initialize_keeps_the_fees_typed_at_set_up_with_the_act_that_fixes_them(db):
    """The law leaves the fees to the Código Tributário Municipal (Art. 10): none is invented; those the
    secretariat types at set-up are dated parameters whose note is the act, and the others stay unset."""
    actor = setup.initialize(db, _draft(fees=(("fee.authorization", Decimal("12.5")), ("fee.inspection", Decimal("3"))),
                                        fees_act="LC nº 45/2025, art. 12"), ADMIN)
    assert parameters.parameter_value(db, "fee.authorization", date(2026, 3, 1)) == Decimal("12.5")
    assert parameters.parameter_value(db, "fee.inspection", date(2026, 3, 1)) == Decimal("3")
    with db.session(write=False) as s:
        rows = {r.key: r for r in s.scalars(select(Parameter).where(Parameter.key.like("fee.%")))}
        assert set(rows) == {"fee.authorization", "fee.inspection"}          # renewal: still to be set
        assert {r.note for r in rows.values()} == {"LC nº 45/2025, art. 12"}
        assert {r.valid_from for r in rows.values()} == {date(2026, 1, 1)}
        assert {r.created_by for r in rows.values()} == {actor.user_id}
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "setup.initialize")).one()
        assert "fee.authorization" in str(entry.after) and "LC nº 45/2025" in str(entry.after)


@pytest.mark.parametrize("fees, act, field, words", [
    ((("fee.authorization", Decimal("10")),), "", "fees_act", "lei ou o decreto"),
    ((("fee.renewal", Decimal("-1")),), "Lei 1/2025", "fee.renewal", "entre"),
    ((("fee.inspection", Decimal("5000")),), "Lei 1/2025", "fee.inspection", "entre"),
    ((("fee.other", Decimal("1")),), "Lei 1/2025", "fees", "desconhecida"),
    ((("fee.authorization", Decimal("NaN")),), "Lei 1/2025", "fee.authorization", "número"),
])
def test_initialize_refuses_a_fee_out_of_bounds_or_without_its_act_and_writes_nothing(db, fees, act, field, words):
    with pytest.raises(ValidationError) as exc:
        setup.initialize(db, _draft(fees=fees, fees_act=act), ADMIN)
    problem = next(p for p in exc.value.problems if p.field == field)
    assert words in problem.message
    assert setup.needs_setup(db) is True
