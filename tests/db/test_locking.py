"""Optimistic locking (SPEC §4: two desks editing the same record — the second save is refused with a clear
message and nothing is overwritten silently)."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from desktop.errors import StaleRecordError
from desktop.models import Base, Driver, Versioned
from desktop.services.base import check_version


def _driver(db) -> int:
    with db.session() as s:
        d = Driver(cpf="52998224725", name="José Ribeiro", cnh_category="B", cnh_ear=True)
        s.add(d)
        s.flush()
        return d.id


def test_spec4_second_desk_saving_a_stale_copy_is_refused(db):
    driver_id = _driver(db)
    # Two desks open the same driver.
    with db.session(write=False) as s:
        desk_a = s.get(Driver, driver_id)
    with db.session(write=False) as s:
        desk_b = s.get(Driver, driver_id)
    assert desk_a.version == desk_b.version == 1
    # Desk A saves first.
    with db.session() as s:
        d = s.merge(desk_a, load=False)
        d.phone = "(65) 99999-0001"
    # Desk B saves its old copy: refused by the UPDATE ... WHERE version = 1.
    with pytest.raises(StaleRecordError, match="alterado por outro usuário"):
        with db.session() as s:
            d = s.merge(desk_b, load=False)
            d.phone = "(65) 98888-0002"
    with db.session(write=False) as s:
        d = s.get(Driver, driver_id)
        assert d.phone == "(65) 99999-0001"
        assert d.version == 2


def test_spec4_check_version_refuses_the_version_the_screen_loaded_before(db):
    driver_id = _driver(db)
    with db.session() as s:
        s.get(Driver, driver_id).email = "jose@example.com"
    with pytest.raises(StaleRecordError):
        with db.session() as s:
            d = s.get(Driver, driver_id)
            check_version(d, 1)
            d.email = "outro@example.com"
    with db.session(write=False) as s:
        assert s.get(Driver, driver_id).email == "jose@example.com"


def test_every_editable_record_is_versioned():
    """The records that screens edit carry version_id_col; append-only ones (ledger, audit, events, documents,
    parameters, trips, list imports) are never updated, so they need none."""
    append_only = {"ledger_entries", "audit_entries", "authorization_events", "documents", "parameters",
                   "trip_rows", "platform_lists", "number_sequences", "user_roles"}
    for mapper in Base.registry.mappers:
        table = mapper.local_table.name
        if table in append_only:
            continue
        assert issubclass(mapper.class_, Versioned), table
        assert mapper.version_id_col is not None, table
        assert mapper.version_id_col.name == "version", table
