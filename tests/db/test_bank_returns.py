"""The bank's return file (issue 13; Padrão FEBRABAN de arrecadação, 150-byte records A/G/Z), on SQLite and
PostgreSQL: each G record paid on the bank's date (Art. 3 §1 for fees), every line that does not match reported
with its number, the same NSA imported twice records nothing, a malformed file records nothing; and the CLI."""
from __future__ import annotations

import importlib.util
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import func, select

from desktop.domain import clock
from desktop.errors import ValidationError
from desktop.models import BankReturnFile, FeePayment, LedgerEntry, Parameter, PaymentGuide
from desktop.reports import febraban
from desktop.services import authorizations as auth
from desktop.services import autos, bank_returns, guides
from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize
from tests.db.enforcement_factories import draft, frozen_today, make_driver, notify  # noqa: F401 (autouse)
from tests.db.registry_factories import Desk, approved
from desktop.services.actors import SYSTEM_ACTOR

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("make_bank_return", ROOT / "tools" / "make_bank_return.py")
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)

PAID = date(2026, 11, 30)


@pytest.fixture(autouse=True)
def monday():
    clock.set_clock(clock.ticking(datetime(2026, 11, 30, 15, 0)))


@pytest.fixture
def office(db, make_actor):
    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55"), pix_key="12345678000195",
        febraban_agreement="0421"), AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    # issue 23 point 10: the fees have no default; the office sets the CTM's (here 10 / 10 / 3 UPFM)
    with db.session() as s:
        for key, value in (("fee.authorization", "10"), ("fee.renewal", "10"), ("fee.inspection", "3")):
            s.add(Parameter(key=key, valid_from=date(2026, 1, 1), value=Decimal(value), note="CTM (teste)"))
    return Desk(make_actor)


@pytest.fixture
def debts(db, office):
    """A fee guide of an approved, inspected authorization; a notified auto's fine guide; an ISSQN guide."""
    a = approved(db, office, protocol_date=date(2026, 11, 20))
    a = auth.record_inspection_result(db, office.inspector, a.id, True, on=date(2026, 11, 23),
                                      expected_version=a.version)
    fee = guides.issue_fee_guide(db, office.clerk, authorization_id=a.id)
    auto = autos.draw_up_auto(db, office.fiscal, draft("ART26-I", date(2026, 11, 2), driver_id=make_driver(db)))
    notify(db, office.fiscal, auto, date(2026, 11, 3))
    fine = guides.issue_fine_guide(db, office.clerk, auto.number)
    with db.session() as s:
        number = "0950/2026"
        s.add(PaymentGuide(number=number, purpose="issqn", amount_reais=Decimal("240.00"), due_on=date(2026, 12, 10),
                           payer_name="Plataforma Exemplo", payer_document="12345678000195", status="open",
                           barcode=febraban.arrecadacao_barcode(Decimal("240.00"), "0421", date(2026, 12, 10),
                                                                number), version=1))
    issqn = guides.get_guide(db, office.clerk, "0950/2026")
    return a, fee, auto, fine, issqn


def pay(*gs, nsa=1, **kw):
    return make.build_return([(g.barcode, g.amount_reais, PAID) for g in gs], nsa=nsa, **kw)


def test_art3_par1_a_return_file_pays_a_fee_a_fine_and_an_issqn_guide_on_the_banks_date(db, office, debts):
    a, fee, auto, fine, issqn = debts
    report = bank_returns.import_bank_return(db, office.clerk, pay(fee, fine, issqn, nsa=17), "ret017.txt")
    assert (report.payments, report.recorded, report.rejected) == (3, 3, 0)
    assert report.recorded_reais == fee.amount_reais + fine.amount_reais + Decimal("240.00")
    assert "NSA 17" in report.describe() and "3 registrado(s)" in report.describe()
    info = auth.get_authorization(db, office.clerk, a.id)
    assert info.status == "active" and info.fee_paid_on == PAID and info.valid_until == date(2027, 11, 30)
    assert guides.get_guide(db, office.clerk, issqn.number).paid_on == PAID
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).balance_upfm == 0
    with db.session() as s:
        payment = s.scalar(select(FeePayment))
        assert payment.source == "bank" and payment.bank_return_id == report.file_id
        assert s.scalar(select(LedgerEntry.guide_number).where(LedgerEntry.kind == "payment")) == fine.number
        row = s.get(BankReturnFile, report.file_id)
        assert (row.nsa, row.agreement, row.recorded, row.rejected) == (17, "0421", 3, 0)
        assert len(row.file_sha256) == 64 and row.imported_by == office.clerk.user_id


def test_the_same_nsa_imported_twice_records_nothing_and_says_so(db, office, debts):
    _, fee, _, fine, _ = debts
    bank_returns.import_bank_return(db, office.clerk, pay(fee, nsa=5), "a.txt")
    again = bank_returns.import_bank_return(db, office.clerk, pay(fine, nsa=5), "b.txt")
    assert again.duplicate and again.recorded == 0 and "já foi importado" in again.describe()
    assert "NSA 5" in again.describe()
    assert guides.get_guide(db, office.clerk, fine.number).status == "open"
    same_bytes = bank_returns.import_bank_return(db, office.clerk, pay(fee, nsa=5), "a-copia.txt")
    assert same_bytes.duplicate and "o mesmo arquivo" in same_bytes.describe()
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(BankReturnFile)) == 1


def test_lines_that_do_not_match_are_reported_with_their_line_number(db, office, debts):
    _, fee, _, fine, issqn = debts
    guides.cancel_guide(db, office.manager, issqn.number, "Competência recalculada")
    unknown = febraban.arrecadacao_barcode(Decimal("10.00"), "0421", date(2026, 12, 1), "0777/2026")
    content = make.build_return([(fee.barcode, fee.amount_reais, PAID),          # line 2: recorded
                                 (fine.barcode, Decimal("1.00"), PAID),          # line 3: amount differs
                                 (unknown, Decimal("10.00"), PAID),              # line 4: unknown barcode
                                 (issqn.barcode, issqn.amount_reais, PAID),      # line 5: cancelled
                                 (fee.barcode, fee.amount_reais, PAID)], nsa=9)  # line 6: already paid (line 2)
    report = bank_returns.import_bank_return(db, office.clerk, content, "ret.txt")
    assert (report.recorded, report.rejected) == (1, 4)
    messages = {r.line: r.message for r in report.rejected_lines}
    assert "difere" in messages[3] and "R$ 1,00" in messages[3]
    assert "desconhecido" in messages[4]
    assert "cancelada" in messages[5] and "Competência recalculada" in messages[5]
    assert "já foi paga" in messages[6]
    assert guides.get_guide(db, office.clerk, fine.number).status == "open"
    with db.session() as s:
        assert "Linha 3:" in s.get(BankReturnFile, report.file_id).report


@pytest.mark.parametrize("mutate, expected", [
    (lambda lines: lines[:1] + [lines[1][:149]] + lines[2:], "Linha 2: o registro tem 149 caracteres"),
    (lambda lines: lines[:-1] + ["Z000009" + lines[-1][7:]], "o trailer informa 9 registros, mas o arquivo tem 4"),
    (lambda lines: lines[:-1] + [lines[-1][:7] + "00000000000000001" + lines[-1][24:]], "o trailer informa o total"),
    (lambda lines: lines[:-1], "falta o trailer"),
    (lambda lines: [lines[0][:1] + "1" + lines[0][2:]] + lines[1:], "A.02"),
    (lambda lines: lines[:1] + ["X" + lines[1][1:]] + lines[2:], "tipo de registro «X»"),
])
def test_a_malformed_return_file_names_the_line_and_records_nothing(db, office, debts, mutate, expected):
    _, fee, _, fine, _ = debts
    lines = pay(fee, fine, nsa=3).decode("ascii").split("\r\n")[:-1]
    content = ("\r\n".join(mutate(lines)) + "\r\n").encode("ascii")
    with pytest.raises(ValidationError) as caught:
        bank_returns.import_bank_return(db, office.clerk, content, "ruim.txt")
    assert expected in str(caught.value) and "nada foi registrado" in str(caught.value)
    assert guides.get_guide(db, office.clerk, fee.number).status == "open"
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(BankReturnFile)) == 0


def test_a_fee_the_authorization_cannot_take_is_reported_not_recorded(db, office, debts):
    a, fee, _, fine, _ = debts
    info = auth.get_authorization(db, office.clerk, a.id)
    auth.record_fee_payment(db, office.clerk, a.id, date(2026, 11, 25), "G-BALCAO-1", Decimal("55.50"), info.version)
    report = bank_returns.import_bank_return(db, office.clerk, pay(fee, fine, nsa=4), "r.txt")
    assert report.recorded == 1 and report.rejected == 1
    assert report.rejected_lines[0].line == 2 and fee.number in report.rejected_lines[0].message
    assert guides.get_guide(db, office.clerk, fee.number).status == "open"
    assert guides.get_guide(db, office.clerk, fine.number).status == "paid"


def test_only_the_desk_imports_return_files(db, office, debts):
    from desktop.errors import PermissionDenied
    _, fee, *_ = debts
    with pytest.raises(PermissionDenied):
        bank_returns.import_bank_return(db, office.fiscal, pay(fee), "r.txt")


def test_cli_payments_import(db, office, debts, tmp_path, capsys):
    from desktop import cli
    _, fee, _, fine, _ = debts
    good = tmp_path / "retorno.txt"
    good.write_bytes(pay(fee, fine, nsa=21))
    bad = tmp_path / "ruim.txt"
    bad.write_bytes(pay(fee, nsa=22)[:-10])
    url = db.url
    assert cli.main(["payments", "import", str(bad), "--db", url]) == 1
    err = capsys.readouterr()
    assert "Linha" in err.err and "nada foi registrado" in err.err
    assert cli.main(["payments", "import", str(good), "--db", url]) == 0
    out = capsys.readouterr().out
    assert "2 registrado(s)" in out
    assert cli.main(["payments", "import", str(good), "--db", url]) == 1
    assert "já foi importado" in capsys.readouterr().err
