"""Issue 25 point 8 (with issue 23 point 8): the bank's return file attacked by an insider with the office's login,
on SQLite and PostgreSQL. A return file pays guides, so each attack is money: a file of another bank or convênio,
one dated tomorrow, the same file again (as it is, renamed, or with its NSA re-used), one payment written twice,
a trailer that does not add up, garbage, a hostile file name, a payment of the wrong amount, a role that must not
import. Each is refused — in Portuguese, naming what is wrong, nothing stored — or stored only as an
unreconciled payment that a gestor must decide (the money received is never dropped, never paid twice)."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from desktop.domain import clock
from desktop.domain.roles import Role
from desktop.errors import PermissionDenied, ValidationError
from desktop.importers.bank_return import build_return
from desktop.models import AuditEntry, BankReturnFile, LedgerEntry, PaymentGuide, UnreconciledPayment
from desktop.services import autos, bank_returns, guides, setup
from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize
from tests.db.enforcement_factories import draft, frozen_today, make_driver, notify  # noqa: F401 (autouse)
from tests.db.registry_factories import Desk

PAID_ON = date(2026, 11, 30)    # the day the guides are issued (the clock below) and the file is written


@pytest.fixture(autouse=True)
def monday():
    clock.set_clock(clock.ticking(datetime(2026, 11, 30, 10, 0)))
    yield


@pytest.fixture
def office(db, make_actor):
    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55"), pix_key="12345678000195",
        febraban_agreement="0421", febraban_bank="001"), AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    return Desk(make_actor)


def _fine_guide(db, office, name="Maria Infratora"):
    driver_id = make_driver(db, name)
    auto = autos.draw_up_auto(db, office.fiscal, draft("ART26-III", date(2026, 11, 2), driver_id=driver_id))
    notify(db, office.fiscal, auto, date(2026, 11, 3))
    g = guides.issue_fine_guide(db, office.clerk, auto.number)
    with db.session(write=False) as s:
        barcode = s.get(PaymentGuide, g.id).barcode
    return g, barcode


def _counts(db):
    with db.session(write=False) as s:
        return (s.scalar(select(func.count()).select_from(BankReturnFile)),
                s.scalar(select(func.count()).select_from(UnreconciledPayment)),
                s.scalar(select(func.count()).select_from(LedgerEntry).where(LedgerEntry.kind == "payment")))


@pytest.mark.parametrize("kwargs, field, words", [
    ({"bank_code": "237"}, "A.05", ("237", "001")),                      # another bank's file
    ({"agreement": "9999"}, "A.03", ("9999", "0421")),                   # another convênio's
    ({"generated_on": date(2026, 12, 1)}, "A.07", ("01/12/2026",)),      # written tomorrow
])
def test_a_file_that_is_not_the_municipalitys_or_is_dated_tomorrow_pays_nothing(db, office, kwargs, field, words):
    g, barcode = _fine_guide(db, office)
    content = build_return([(barcode, g.amount_reais, PAID_ON)], **{"generated_on": PAID_ON, **kwargs})
    before = _counts(db)
    with pytest.raises(ValidationError) as exc:
        bank_returns.import_bank_return(db, office.manager, content, "retorno.txt")
    problem = next(p for p in exc.value.problems if p.field == field)
    assert all(w in problem.message for w in words), problem.message
    assert _counts(db) == before
    assert guides.get_guide(db, office.clerk, g.number).status == "open"


def test_the_same_file_again_renamed_or_with_its_nsa_reused_pays_nothing_twice(db, office):
    g, barcode = _fine_guide(db, office)
    other, other_code = _fine_guide(db, office, "Joana Segunda")
    content = build_return([(barcode, g.amount_reais, PAID_ON)], nsa=7, generated_on=PAID_ON)
    first = bank_returns.import_bank_return(db, office.manager, content, "retorno.txt")
    assert first.recorded == 1 and not first.duplicate
    after_first = _counts(db)
    again = bank_returns.import_bank_return(db, office.manager, content, "copia-renomeada.ret")
    assert again.duplicate and again.recorded == 0 and "já foi importado" in again.describe()
    # another file with the same NSA (the bank's sequence) is the same delivery, whatever it carries
    forged = build_return([(barcode, g.amount_reais, PAID_ON), (other_code, other.amount_reais, PAID_ON)], nsa=7,
                          generated_on=PAID_ON)
    reused = bank_returns.import_bank_return(db, office.manager, forged, "nsa7-de-novo.txt")
    assert reused.duplicate and "mesmo NSA 7" in reused.describe()
    assert _counts(db) == after_first
    assert guides.get_guide(db, office.clerk, other.number).status == "open"


def test_a_payment_written_twice_pays_the_guide_once_and_keeps_the_second_as_unreconciled(db, office):
    g, barcode = _fine_guide(db, office)
    content = build_return([(barcode, g.amount_reais, PAID_ON), (barcode, g.amount_reais, PAID_ON)],
                           generated_on=PAID_ON)
    report = bank_returns.import_bank_return(db, office.manager, content, "dobrado.txt")
    assert report.recorded == 1 and report.rejected == 1
    files, unreconciled, payments = _counts(db)
    assert (files, unreconciled, payments) == (1, 1, 1)       # the money of the second line is kept, not paid
    waiting = bank_returns.list_unreconciled(db, office.manager)
    assert [w.line for w in waiting] == [3] and waiting[0].guide_number == g.number


def test_a_new_file_paying_a_guide_already_paid_keeps_the_money_apart(db, office):
    g, barcode = _fine_guide(db, office)
    bank_returns.import_bank_return(db, office.manager, build_return([(barcode, g.amount_reais, PAID_ON)], nsa=1,
                                                                     generated_on=PAID_ON), "r1.txt")
    report = bank_returns.import_bank_return(db, office.manager, build_return(
        [(barcode, g.amount_reais, PAID_ON)], nsa=2, generated_on=PAID_ON), "r2.txt")
    assert report.recorded == 0 and report.rejected == 1
    assert _counts(db)[1:] == (1, 1)


def test_a_payment_of_another_amount_does_not_pay_the_guide(db, office):
    g, barcode = _fine_guide(db, office)
    report = bank_returns.import_bank_return(db, office.manager, build_return(
        [(barcode, g.amount_reais - Decimal("0.01"), PAID_ON)], generated_on=PAID_ON), "centavo.txt")
    assert report.recorded == 0
    assert guides.get_guide(db, office.clerk, g.number).status == "open"
    assert _counts(db)[1:] == (1, 0)


@pytest.mark.parametrize("trailer", [{"trailer_records": 9}, {"trailer_total": Decimal("1.00")}])
def test_a_trailer_that_does_not_add_up_refuses_the_whole_file(db, office, trailer):
    g, barcode = _fine_guide(db, office)
    content = build_return([(barcode, g.amount_reais, PAID_ON)], generated_on=PAID_ON, **trailer)
    before = _counts(db)
    with pytest.raises(ValidationError) as exc:
        bank_returns.import_bank_return(db, office.manager, content, "z.txt")
    assert "trailer informa" in str(exc.value) and "nada foi registrado" in str(exc.value)
    assert _counts(db) == before


@pytest.mark.parametrize("content", [
    b"",                                             # empty
    b"\x00\xff\xfe" * 200,                           # binary garbage
    "A2çãõ".encode("utf-8") * 40,                    # not the layout, not ASCII
    b"PK\x03\x04" + b"\x00" * 300,                   # a zip (a spreadsheet sent by mistake)
])
def test_garbage_is_refused_in_portuguese_and_nothing_is_stored(db, office, content):
    before = _counts(db)
    with pytest.raises(ValidationError) as exc:
        bank_returns.import_bank_return(db, office.manager, content, "lixo.bin")
    text = str(exc.value)
    assert text and "Traceback" not in text and "Error" not in text
    assert _counts(db) == before


def test_a_hostile_file_name_is_kept_escaped_in_the_audit_log(db, office):
    g, barcode = _fine_guide(db, office)
    name = "retorno.txt\r\nAUDITORIA: tudo certo\x1b[2J"
    bank_returns.import_bank_return(db, office.manager, build_return([(barcode, g.amount_reais, PAID_ON)],
                                                                     generated_on=PAID_ON), name)
    with db.session(write=False) as s:
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "bank_return.import")).one()
        text = str(entry.after)
    assert "\r" not in text and "\n" not in text and "\x1b" not in text


@pytest.mark.parametrize("role", [Role.VISTORIADOR, Role.FISCAL])
def test_a_role_that_does_not_receive_money_cannot_import_a_file(db, office, make_actor, role):
    g, barcode = _fine_guide(db, office)
    content = build_return([(barcode, g.amount_reais, PAID_ON)], generated_on=PAID_ON)
    before = _counts(db)
    with pytest.raises(PermissionDenied):
        bank_returns.import_bank_return(db, make_actor(role), content, "r.txt")
    assert _counts(db) == before


def test_the_collecting_bank_is_changed_by_the_administrador_only_and_then_guards_the_files(db, office, make_actor):
    """The check needs the municipality's bank (Administração → Município). A gestor cannot clear it to let another
    bank's file in; cleared by the administrador, another bank's file is read (the screen warns about that);
    configured again, refused."""
    from desktop.errors import PermissionDenied as Denied

    g, barcode = _fine_guide(db, office)
    info = setup.get_municipality(db)

    def with_bank(bank):
        return setup.MunicipalityDraft(name=info.name, uf=info.uf, secretariat=info.secretariat,
                                       ouvidoria_phone=info.ouvidoria_phone, pix_key=info.pix_key,
                                       febraban_agreement=info.febraban_agreement, febraban_bank=bank)
    with pytest.raises(Denied):
        setup.update_municipality(db, office.manager, with_bank(""), info.version)
    assert setup.get_municipality(db).febraban_bank == "001"
    admin = make_actor(Role.ADMINISTRADOR)
    setup.update_municipality(db, admin, with_bank(""), info.version)
    other = build_return([(barcode, g.amount_reais, PAID_ON)], bank_code="237", generated_on=PAID_ON)
    assert bank_returns.import_bank_return(db, office.manager, other, "237.txt").recorded == 1
    setup.update_municipality(db, admin, with_bank("1"), setup.get_municipality(db).version)
    assert setup.get_municipality(db).febraban_bank == "001"
    with pytest.raises(ValidationError):
        bank_returns.import_bank_return(db, office.manager, build_return(
            [(barcode, g.amount_reais, PAID_ON)], bank_code="237", nsa=2, generated_on=PAID_ON), "237b.txt")
