"""Gap-free yearly numbering NNNN/AAAA (SPEC §2 Authorization, §4: numbers never repeat or skip, even with two
desks saving at once) — issue 2: two processes numbering 200 autos at once get 200 distinct consecutive numbers
on both databases."""
from __future__ import annotations

import multiprocessing as mp
from datetime import date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import select

from desktop.db import Database
from desktop.models import LOCAL_TZ, Auto, Driver, InfractionCode
from desktop.services.numbering import format_number, next_number, parse_number

YEAR = 2026


def _prepare(db) -> tuple[int, int]:
    with db.session() as s:
        driver = Driver(cpf="52998224725", name="Maria Aparecida", cnh_category="B", cnh_ear=True)
        code = InfractionCode(code="ART26-IV", article="Art. 26, IV", description="Embarque na via pública",
                              severity="grave", upfm=Decimal(30), valid_from=date(2025, 1, 1))
        s.add_all([driver, code])
        s.flush()
        return driver.id, code.id


def _draw_up_autos(url: str, driver_id: int, code_id: int, count: int, start, worker: int) -> list[str]:
    """One desk: each auto in its own transaction, numbered inside it (Art. 19: the auto is drawn up)."""
    db = Database(url)
    start.wait(timeout=300)
    numbers = []
    try:
        for i in range(count):
            with db.session() as s:
                number = next_number(s, "auto", YEAR)
                s.add(Auto(number=number, drawn_up_at=datetime(2026, 5, 4, 10, i % 60, tzinfo=LOCAL_TZ),
                           place="Av. Cipriano Curvo", infractor_driver_id=driver_id, infraction_code_id=code_id,
                           code="ART26-IV", description=f"desk {worker} #{i}", amount_upfm=Decimal(30),
                           upfm_value=Decimal("150.00"), amount_reais=Decimal("4500.00")))
                numbers.append(number)
    finally:
        db.dispose()
    return numbers


def test_two_processes_numbering_200_autos_get_200_consecutive_numbers(db):
    driver_id, code_id = _prepare(db)
    ctx = mp.get_context("spawn")
    with ctx.Manager() as manager:
        start = manager.Barrier(2)
        with ctx.Pool(2) as pool:
            jobs = [pool.apply_async(_draw_up_autos, (db.url, driver_id, code_id, 100, start, w)) for w in (1, 2)]
            results = [j.get(timeout=600) for j in jobs]
    given = results[0] + results[1]
    assert len(given) == 200
    assert len(set(given)) == 200
    with db.session(write=False) as s:
        stored = s.scalars(select(Auto.number)).all()
    assert sorted(stored) == [format_number(n, YEAR) for n in range(1, 201)]


def test_number_is_consumed_only_when_the_transaction_commits(db):
    with db.session() as s:
        assert next_number(s, "authorization", YEAR) == "0001/2026"
    with pytest.raises(RuntimeError):
        with db.session() as s:
            assert next_number(s, "authorization", YEAR) == "0002/2026"
            raise RuntimeError("gravação cancelada")
    with db.session() as s:
        assert next_number(s, "authorization", YEAR) == "0002/2026"


def test_each_kind_and_year_has_its_own_sequence(db):
    with db.session() as s:
        assert next_number(s, "guide", YEAR) == "0001/2026"
        assert next_number(s, "guide", YEAR) == "0002/2026"
        assert next_number(s, "guide", YEAR + 1) == "0001/2027"
        assert next_number(s, "document", YEAR) == "0001/2026"
        assert next_number(s, "auto", YEAR) == "0001/2026"


def test_unknown_kind_is_refused(db):
    with db.session() as s:
        with pytest.raises(ValueError, match="desconhecido"):
            next_number(s, "protocolo", YEAR)


def test_parse_number():
    assert parse_number("0007/2026") == (7, 2026)
    assert parse_number("12345/2026") == (12345, 2026)
    with pytest.raises(ValueError):
        parse_number("7/26")
