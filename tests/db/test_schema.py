"""The database itself keeps the rules (issue 2: constraints in the database, not only in code)."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import select, text

from desktop.errors import ConflictError
from desktop.models import Authorization, Driver, LedgerEntry, Vehicle, now


def make_driver(s, cpf="52998224725", name="João da Conceição"):
    d = Driver(cpf=cpf, name=name, cnh_category="B", cnh_ear=True)
    s.add(d)
    s.flush()
    return d


def make_vehicle(s, plate="QBA1D23", renavam="12345678901"):
    v = Vehicle(plate=plate, renavam=renavam, make="Fiat", model="Cronos", manufacture_year=2022,
                model_year=2023, doors=4, seats=5, air_conditioning=True,
                registration_municipality="Chapada dos Guimarães", registration_uf="MT")
    s.add(v)
    s.flush()
    return v


def test_smoke_driver_roundtrip_with_search_key(db):
    with db.session() as s:
        make_driver(s)
    with db.session(write=False) as s:
        d = s.scalars(select(Driver).where(Driver.search_key.like("joao%"))).one()
        assert d.name == "João da Conceição"
        assert d.search_key == "joao da conceicao"
        assert d.version == 1


def test_duplicate_cpf_is_refused_by_the_database(db):
    with db.session() as s:
        make_driver(s)
    with pytest.raises(ConflictError, match="Já existe um condutor com este CPF."):
        with db.session() as s:
            make_driver(s, name="Outro")


def test_art8_second_live_authorization_for_same_driver_is_refused(db):
    with db.session() as s:
        d = make_driver(s)
        v1 = make_vehicle(s)
        v2 = make_vehicle(s, plate="ABC1234", renavam="98765432100")
        s.add(Authorization(driver_id=d.id, vehicle_id=v1.id, protocol_date=date(2026, 3, 2)))
        ids = (d.id, v2.id)
    with pytest.raises(ConflictError, match="condutor já tem uma autorização"):
        with db.session() as s:
            s.add(Authorization(driver_id=ids[0], vehicle_id=ids[1], protocol_date=date(2026, 3, 3)))


def test_ledger_update_is_refused_by_the_database(db):
    with db.session() as s:
        d = make_driver(s)
        s.add(LedgerEntry(infractor_driver_id=d.id, kind="debit", amount_upfm=Decimal("10"),
                          upfm_value=Decimal("12.345678"), amount_reais=Decimal("123.46"),
                          effective_on=date(2026, 3, 2), posted_at=now()))
    with pytest.raises(ConflictError, match="somente inclusão"):
        with db.session() as s:
            s.execute(text("UPDATE ledger_entries SET amount_upfm = 0"))
    with db.session(write=False) as s:
        e = s.scalars(select(LedgerEntry)).one()
        assert e.amount_upfm == Decimal("10.0000")
        assert e.upfm_value == Decimal("12.345678")
