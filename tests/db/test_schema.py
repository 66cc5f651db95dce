"""The database itself keeps the rules (issue 2: constraints in the database, not only in code)."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import StatementError

from desktop.errors import ConflictError
from desktop.models import LOCAL_TZ, Authorization, Driver, LedgerEntry, Vehicle, now


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


def test_duplicate_plate_is_refused_by_the_database(db):
    with db.session() as s:
        make_vehicle(s)
    with pytest.raises(ConflictError, match="Já existe um veículo com esta placa."):
        with db.session() as s:
            make_vehicle(s, renavam="11111111111")


def test_duplicate_renavam_is_refused_by_the_database(db):
    with db.session() as s:
        make_vehicle(s)
    with pytest.raises(ConflictError, match="Já existe um veículo com este RENAVAM."):
        with db.session() as s:
            make_vehicle(s, plate="ABC1234")


def test_art8_second_live_authorization_for_same_vehicle_is_refused(db):
    with db.session() as s:
        d1 = make_driver(s)
        d2 = make_driver(s, cpf="11144477735", name="Ana Lúcia")
        v = make_vehicle(s)
        s.add(Authorization(driver_id=d1.id, vehicle_id=v.id, protocol_date=date(2026, 3, 2),
                            status="active", number="0001/2026"))
        ids = (d2.id, v.id)
    with pytest.raises(ConflictError, match="veículo já tem uma autorização"):
        with db.session() as s:
            s.add(Authorization(driver_id=ids[0], vehicle_id=ids[1], protocol_date=date(2026, 3, 3)))


@pytest.mark.parametrize("ended", ["refused", "revoked", "cassada", "expired"])
def test_art8_an_ended_authorization_releases_driver_and_vehicle(db, ended):
    with db.session() as s:
        d = make_driver(s)
        v = make_vehicle(s)
        first = Authorization(driver_id=d.id, vehicle_id=v.id, protocol_date=date(2025, 3, 2))
        s.add(first)
        s.flush()
        ids = (d.id, v.id, first.id)
    with db.session() as s:
        s.get(Authorization, ids[2]).status = ended
    with db.session() as s:
        s.add(Authorization(driver_id=ids[0], vehicle_id=ids[1], protocol_date=date(2026, 3, 2)))
    with db.session(write=False) as s:
        assert len(s.scalars(select(Authorization)).all()) == 2


@pytest.mark.parametrize("held", ["requested", "in_analysis", "approved", "active", "impeded", "suspended"])
def test_art8_and_art24_live_statuses_hold_the_driver(db, held):
    with db.session() as s:
        d = make_driver(s)
        v1 = make_vehicle(s)
        v2 = make_vehicle(s, plate="ABC1234", renavam="98765432100")
        s.add(Authorization(driver_id=d.id, vehicle_id=v1.id, protocol_date=date(2026, 3, 2), status=held,
                            number="0001/2026"))
        ids = (d.id, v2.id)
    with pytest.raises(ConflictError):
        with db.session() as s:
            s.add(Authorization(driver_id=ids[0], vehicle_id=ids[1], protocol_date=date(2026, 3, 3)))


def test_authorization_number_is_unique(db):
    with db.session() as s:
        d1 = make_driver(s)
        d2 = make_driver(s, cpf="11144477735", name="Ana Lúcia")
        v1 = make_vehicle(s)
        v2 = make_vehicle(s, plate="ABC1234", renavam="98765432100")
        s.add(Authorization(driver_id=d1.id, vehicle_id=v1.id, protocol_date=date(2026, 3, 2),
                            status="active", number="0001/2026"))
        ids = (d2.id, v2.id)
    with pytest.raises(ConflictError, match="autorização com este número"):
        with db.session() as s:
            s.add(Authorization(driver_id=ids[0], vehicle_id=ids[1], protocol_date=date(2026, 3, 2),
                                status="active", number="0001/2026"))


def _posted_fine(db) -> int:
    with db.session() as s:
        d = make_driver(s)
        e = LedgerEntry(infractor_driver_id=d.id, kind="debit", amount_upfm=Decimal("30"),
                        upfm_value=Decimal("150"), amount_reais=Decimal("4500"),
                        effective_on=date(2026, 3, 2), posted_at=now())
        s.add(e)
        s.flush()
        return e.id


def test_spec3_ledger_delete_is_refused_by_the_database(db):
    _posted_fine(db)
    with pytest.raises(ConflictError, match="somente inclusão"):
        with db.session() as s:
            s.execute(text("DELETE FROM ledger_entries"))
    with db.session(write=False) as s:
        assert len(s.scalars(select(LedgerEntry)).all()) == 1


def test_spec3_ledger_orm_edit_is_refused_by_the_database(db):
    entry_id = _posted_fine(db)
    with pytest.raises(ConflictError, match="somente inclusão"):
        with db.session() as s:
            s.get(LedgerEntry, entry_id).reason = "editado"


def test_spec3_ledger_truncate_is_refused(db):
    _posted_fine(db)
    # SQLite has no TRUNCATE: its equivalent is an unqualified DELETE, whose fast path is off when a DELETE
    # trigger exists, so the trigger refuses it.
    statement = "DELETE FROM ledger_entries" if db.is_sqlite else "TRUNCATE ledger_entries"
    with pytest.raises(ConflictError, match="somente inclusão"):
        with db.session() as s:
            s.execute(text(statement))
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(LedgerEntry)) == 1


def test_spec3_reversal_posts_a_new_entry_pointing_at_its_origin(db):
    origin = _posted_fine(db)
    with db.session() as s:
        d = s.scalars(select(Driver)).one()
        s.add(LedgerEntry(infractor_driver_id=d.id, kind="reversal", amount_upfm=Decimal("-30"),
                          upfm_value=Decimal("150"), amount_reais=Decimal("-4500"), reverses_id=origin,
                          reason="Auto anulado em julgamento", effective_on=date(2026, 4, 1), posted_at=now()))
    with db.session(write=False) as s:
        total = s.scalar(select(func.sum(LedgerEntry.amount_upfm)))
        assert total == Decimal("0")


@pytest.mark.parametrize("kind, amount", [("debit", "-10"), ("payment", "10"), ("costs", "0")])
def test_ledger_sign_must_match_the_kind(db, kind, amount):
    with db.session() as s:
        d = make_driver(s)
        driver_id = d.id
    with pytest.raises(ConflictError):
        with db.session() as s:
            s.add(LedgerEntry(infractor_driver_id=driver_id, kind=kind, amount_upfm=Decimal(amount),
                              upfm_value=Decimal("150"), amount_reais=Decimal(amount) * 150,
                              effective_on=date(2026, 3, 2), posted_at=now()))


def test_foreign_keys_are_enforced(db):
    with pytest.raises(ConflictError):
        with db.session() as s:
            s.add(Authorization(driver_id=999, vehicle_id=999, protocol_date=date(2026, 3, 2)))


def test_status_check_constraint_refuses_unknown_values(db):
    with pytest.raises(ConflictError):
        with db.session() as s:
            d = make_driver(s)
            d.status = "sumido"


def test_decimal_values_are_exact_on_both_databases(db):
    with db.session() as s:
        d = make_driver(s)
        for cents in ("0.10", "0.20", "1234567.89"):
            s.add(LedgerEntry(infractor_driver_id=d.id, kind="debit", amount_upfm=Decimal(cents),
                              upfm_value=Decimal("1"), amount_reais=Decimal(cents),
                              effective_on=date(2026, 3, 2), posted_at=now()))
    with db.session(write=False) as s:
        total = s.scalar(select(func.sum(LedgerEntry.amount_reais)))
        assert total == Decimal("1234568.19")
        assert isinstance(total, Decimal)
        big = s.scalars(select(LedgerEntry).where(LedgerEntry.amount_reais > Decimal("100"))).one()
        assert big.amount_reais == Decimal("1234567.89")


def test_datetimes_come_back_timezone_aware(db):
    when = datetime(2026, 11, 29, 8, 30, tzinfo=LOCAL_TZ)
    _ = _posted_fine(db)
    with db.session() as s:
        s.scalars(select(LedgerEntry)).one()
        d = s.scalars(select(Driver)).one()
        s.add(LedgerEntry(infractor_driver_id=d.id, kind="debit", amount_upfm=Decimal("1"),
                          upfm_value=Decimal("1"), amount_reais=Decimal("1"), effective_on=date(2026, 3, 2),
                          posted_at=when))
    with db.session(write=False) as s:
        got = s.scalars(select(LedgerEntry).order_by(LedgerEntry.id.desc())).first().posted_at
        assert got == when
        assert got.utcoffset() == when.utcoffset()


def test_naive_datetime_is_refused(db):
    with pytest.raises(StatementError, match="sem fuso"):
        with db.session() as s:
            d = make_driver(s)
            s.add(LedgerEntry(infractor_driver_id=d.id, kind="debit", amount_upfm=Decimal("1"),
                              upfm_value=Decimal("1"), amount_reais=Decimal("1"),
                              effective_on=date(2026, 3, 2), posted_at=datetime(2026, 1, 1, 8, 0)))


def test_search_key_follows_edits(db):
    with db.session() as s:
        d = make_driver(s)
        driver_id = d.id
    with db.session() as s:
        s.get(Driver, driver_id).name = "MARÍLIA Gonçalves"
    with db.session(write=False) as s:
        assert s.scalar(select(Driver.search_key).where(Driver.id == driver_id)) == "marilia goncalves"


def test_prefix_search_is_accent_and_case_insensitive_on_both_databases(db):
    from desktop.models import fold, starts_with

    with db.session() as s:
        make_driver(s, cpf="52998224725", name="João da Conceição")
        make_driver(s, cpf="11144477735", name="Joana Prado")
        make_driver(s, cpf="39053344705", name="Conceição Aparecida")
    with db.session(write=False) as s:
        def names(typed):
            rows = s.scalars(select(Driver.name).where(starts_with(Driver.search_key, fold(typed)))
                             .order_by(Driver.search_key)).all()
            return rows
        assert names("joao") == ["João da Conceição"]
        assert names("JOA") == ["Joana Prado", "João da Conceição"]
        assert names("conceicao") == ["Conceição Aparecida"]
        assert names("xyz") == []
        assert s.scalars(select(Driver.name).where(starts_with(Driver.cpf, "111"))).all() == ["Joana Prado"]


def _document(db) -> int:
    import hashlib

    from desktop.models import Document

    content = b"%PDF-1.4 certidao"
    with db.session() as s:
        d = make_driver(s)
        doc = Document(kind="certidao_criminal", sha256=hashlib.sha256(content).hexdigest(), content=content,
                       mime="application/pdf", filename="certidao.pdf", size=len(content), driver_id=d.id)
        s.add(doc)
        s.flush()
        return doc.id


def test_spec2_a_document_is_never_silently_replaced(db):
    from desktop.models import Document

    doc_id = _document(db)
    with pytest.raises(ConflictError, match="somente inclusão"):
        with db.session() as s:
            doc = s.get(Document, doc_id)
            doc.content = b"%PDF-1.4 outra"
    with pytest.raises(ConflictError, match="somente inclusão"):
        with db.session() as s:
            s.execute(text("UPDATE documents SET sha256 = :h"), {"h": "0" * 64})
    with pytest.raises(ConflictError, match="somente inclusão"):
        with db.session() as s:
            s.execute(text("DELETE FROM documents"))
    # Describing it better (its number or dates) is allowed.
    with db.session() as s:
        s.get(Document, doc_id).number = "123/2026"
    with db.session(write=False) as s:
        doc = s.get(Document, doc_id)
        assert doc.content == b"%PDF-1.4 certidao" and doc.number == "123/2026"
