"""Issue 12 item 21: one set of field limits, the same on SQLite and PostgreSQL, each refusal a Portuguese
message naming the field (never "Erro inesperado", never a raw English database error), nothing half-saved.

The limits are `desktop.domain.limits`; every row passes them before it is written (`desktop.models.base`), so
the cases below go through the ordinary services.
"""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from desktop.domain.roles import Role
from desktop.errors import DesktopError, ValidationError
from desktop.models import Driver, LedgerEntry
from desktop.services import autos, ledger, parameters
from desktop.services import authorizations as auth
from desktop.services.drivers import list_drivers, register_driver
from tests.db.enforcement_factories import authorized_driver, draft, notify, setup_upfm
from tests.db.enforcement_factories import TODAY as ENF_TODAY
from tests.db.enforcement_factories import frozen_today  # noqa: F401 (autouse: pins today)
from tests.db.registry_factories import TODAY, approved, desk, driver_draft  # noqa: F401 (fixture)


def _fields(error: ValidationError) -> set[str]:
    return {p.field for p in error.problems}


def _count(db, model) -> int:
    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(model))


def test_item21_a_300_plus_character_address_is_refused_on_both_databases(db, desk):
    with pytest.raises(ValidationError) as raised:
        register_driver(db, desk.clerk, driver_draft(address="Rua " + "A" * 320))
    assert "address" in _fields(raised.value)
    assert "Endereço: no máximo 300 caracteres (tem 324)" in str(raised.value)
    assert _count(db, Driver) == 0


def test_item21_a_nul_byte_or_a_control_character_is_refused_and_named(db, desk):
    with pytest.raises(ValidationError) as raised:
        register_driver(db, desk.clerk, driver_draft(name="João\x00 da Silva"))
    assert "name" in _fields(raised.value)
    assert "caractere nulo (NUL)" in str(raised.value)
    with pytest.raises(ValidationError, match="caractere de controle U\\+001B"):
        register_driver(db, desk.clerk, driver_draft(address="Rua \x1b[31m das Flores"))
    assert _count(db, Driver) == 0
    # Tabs and line breaks are ordinary text.
    register_driver(db, desk.clerk, driver_draft(address="Rua das Flores, 10\nFundos"))
    assert _count(db, Driver) == 1


def test_item21_a_10_mb_description_is_refused(db, make_actor):
    setup_upfm(db)
    fiscal = make_actor(Role.FISCAL)
    driver_id, _, _ = authorized_driver(db)
    big = "Fato constatado. " * (10_000_000 // 17)
    with pytest.raises(ValidationError) as raised:
        autos.draw_up_auto(db, fiscal, draft("ART26-I", ENF_TODAY - timedelta(days=1), driver_id=driver_id,
                                             description=big))
    assert "description" in _fields(raised.value)
    assert "Descrição: no máximo 100.000 caracteres" in str(raised.value)


@pytest.mark.parametrize("amount", [Decimal("1e30"), Decimal("NaN"), Decimal("Infinity"), Decimal(10) ** 18,
                                    "NaN", float("nan"), Decimal("-1e30")])
def test_item21_a_fine_payment_of_nan_infinity_or_beyond_the_limit_is_refused(db, make_actor, amount):
    setup_upfm(db)
    fiscal = make_actor(Role.FISCAL)
    cashier = make_actor(Role.ATENDENTE, Role.GESTOR)
    driver_id, _, _ = authorized_driver(db)
    info = autos.draw_up_auto(db, fiscal, draft("ART26-I", ENF_TODAY - timedelta(days=1), driver_id=driver_id))
    notify(db, fiscal, info, ENF_TODAY)
    entries = _count(db, LedgerEntry)
    with pytest.raises(ValidationError) as raised:
        ledger.record_payment(db, cashier, ledger.PaymentDraft(info.id, ENF_TODAY, amount, "G-1"))
    assert "amount_reais" in _fields(raised.value)
    assert "inesperado" not in str(raised.value)
    assert _count(db, LedgerEntry) == entries


@pytest.mark.parametrize("amount", [Decimal("1e30"), Decimal("NaN"), Decimal(10) ** 18, "inf"])
def test_item21_a_fee_payment_of_nan_or_beyond_the_limit_is_refused(db, desk, amount):
    a = approved(db, desk, protocol_date=TODAY - timedelta(days=3))
    a = auth.record_inspection_result(db, desk.inspector, a.id, True, on=TODAY - timedelta(days=2),
                                      expected_version=a.version)
    with pytest.raises(ValidationError) as raised:
        auth.record_fee_payment(db, desk.clerk, a.id, TODAY - timedelta(days=1), "G-21", amount, a.version)
    # the fee service's own check names "amount"; a NaN that slips past it is caught centrally (no field)
    assert _fields(raised.value) & {"amount", "fee_amount", ""}
    assert "inesperado" not in str(raised.value) and ("Valor" in str(raised.value) or "valor" in str(raised.value))


@pytest.mark.parametrize("year", [0, -1, 10000, 1899, 2101, "dois mil"])
def test_item21_the_upfm_of_an_impossible_year_is_refused(db, make_actor, year):
    gestor = make_actor(Role.GESTOR)
    with pytest.raises(ValidationError) as raised:
        parameters.set_upfm_value(db, gestor, year, Decimal("5.40"))
    assert "year" in _fields(raised.value) or "valid_from" in _fields(raised.value)


def test_item21_the_upfm_of_an_ordinary_year_is_saved(db, make_actor):
    gestor = make_actor(Role.GESTOR)
    saved = parameters.set_upfm_value(db, gestor, 2027, Decimal("5.40"))
    assert saved.value == Decimal("5.40")


def test_item21_a_100000_character_search_gets_a_message(db, desk):
    with pytest.raises(ValidationError, match="Busca: no máximo 200 caracteres"):
        list_drivers(db, desk.clerk, text="joão " * 20_000)
    assert list_drivers(db, desk.clerk, text="joão").total == 0


@pytest.mark.parametrize("born", [date(1850, 5, 1), date(2150, 1, 1)])
def test_item21_dates_outside_1900_2100_are_refused(db, desk, born):
    with pytest.raises(DesktopError) as raised:
        register_driver(db, desk.clerk, driver_draft(birth_date=born))
    assert "inesperado" not in str(raised.value)
    assert _count(db, Driver) == 0


def test_item21_the_model_check_and_the_database_agree_on_the_column_lengths(db, desk):
    """Exactly the column's length is accepted on both (PostgreSQL would refuse one more)."""
    info = register_driver(db, desk.clerk, driver_draft(address="R" * 300))
    with db.session(write=False) as s:
        assert len(s.get(Driver, info.id).address) == 300


# ------------------------------------------------------------------------ the CLI's --db: a database it cannot use

@pytest.mark.parametrize("url,expected", [
    ("mysql://usuario@servidor/base", "Banco de dados não suportado: «mysql»"),
    ("postgresql://postgres@127.0.0.1:1/transporte", "Não foi possível falar com o banco de dados"),
    ("postgresql://postgres@servidor-inexistente.invalid/transporte", "o nome do servidor não foi encontrado"),
    ("sqlite:///{tmp}/nao/existe/transporte.sqlite3", "O banco de dados não existe"),
])
@pytest.mark.parametrize("command", [["audit", "verify"], ["export", "drivers", "--out", "{tmp}/x.csv"], ["migrate"]])
def test_item21_the_cli_says_in_portuguese_why_it_cannot_use_the_database(tmp_path, capsys, url, expected, command):
    from desktop.cli import main

    if command == ["migrate"] and url.startswith("sqlite"):
        pytest.skip("migrate creates a new SQLite file on purpose (the first start of a desk)")
    args = ["--db", url.format(tmp=tmp_path)] + [c.format(tmp=tmp_path) for c in command]
    code = main(args)
    err = capsys.readouterr().err
    assert code != 0
    assert expected in err, err
    assert "inesperado" not in err and "Traceback" not in err
    assert not (tmp_path / "nao").exists()  # nothing created for a read-only command


def test_item21_through_the_service_an_unreachable_server_and_a_mysql_url_are_portuguese_messages():
    from desktop.db import Database
    from desktop.errors import DatabaseUnavailable
    from desktop.services.actors import Actor

    reader = Actor(user_id=None, username="teste", full_name="Teste", roles=frozenset({Role.ATENDENTE}))
    down = Database("postgresql+psycopg://postgres@127.0.0.1:1/transporte?connect_timeout=3")
    try:
        with pytest.raises(DatabaseUnavailable, match="Não foi possível falar com o banco de dados") as raised:
            list_drivers(down, reader, text="joão")
        assert "recusou a conexão" in str(raised.value) and "inesperado" not in str(raised.value)
    finally:
        down.dispose()
    with pytest.raises(DatabaseUnavailable, match="não suportado: «mysql»"):
        Database("mysql://usuario@servidor/base")
    with pytest.raises(DatabaseUnavailable, match="Endereço de banco de dados inválido"):
        Database("postgresql://usuario@servidor:porta/base")
