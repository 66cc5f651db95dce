"""A guide (DAM) for every debt (issue 13) and fee payments as append-only records (issue 12 item 6), on SQLite
and PostgreSQL: fee guides issued once the request is approved (Art. 10; Art. 15, parágrafo único, VII), fine
guides after notification or once final (gestor's parameter), payments through the guide (Art. 3 §1: the
validity counts from the payment), overdue guides reissued (never edited), late charges with no default, and the
dívida ativa list with unpaid fee and ISSQN guides."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select, text

from desktop.domain import clock
from desktop.domain.roles import Role
from desktop.domain.workflow import AutoStatus
from desktop.errors import ConflictError, NotFound, PermissionDenied, TransitionRefused, ValidationError
from desktop.models import Fee, FeePayment, LedgerEntry, MunicipalitySettings, Parameter, PaymentGuide
from desktop.reports import febraban
from desktop.services import authorizations as auth
from desktop.services import autos, guides, ledger
from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize
from tests.db.enforcement_factories import draft, frozen_today, make_driver, notify  # noqa: F401 (autouse)
from tests.db.registry_factories import Desk, approved
from desktop.services.actors import SYSTEM_ACTOR

TODAY = date(2026, 11, 30)   # Monday; the enforcement factories pin the same day
UPFM = Decimal("5.55")


@pytest.fixture(autouse=True)
def monday(monkeypatch):
    clock.set_clock(clock.ticking(datetime(2026, 11, 30, 10, 0)))
    yield


@pytest.fixture
def office(db, make_actor):
    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=UPFM, pix_key="12345678000195",
        febraban_agreement="0421"), AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    # issue 23 point 10: the fees have no default; the office sets the CTM's (here 10 / 10 / 3 UPFM)
    with db.session() as s:
        for key, value in (("fee.authorization", "10"), ("fee.renewal", "10"), ("fee.inspection", "3")):
            s.add(Parameter(key=key, valid_from=date(2026, 1, 1), value=Decimal(value), note="CTM (teste)"))
    return Desk(make_actor)


def set_param(db, key, value, valid_from=date(2026, 1, 1)):
    with db.session() as s:
        s.add(Parameter(key=key, valid_from=valid_from, value=Decimal(value), note="teste"))


def later(days: int):
    clock.set_clock(clock.ticking(datetime(2026, 11, 30, 10, 0) + timedelta(days=days)))


# ------------------------------------------------------------------------------------------------ fee guides
def test_art15_vii_fee_guide_is_issued_once_the_request_is_approved(db, office):
    a = approved(db, office, protocol_date=date(2026, 11, 20))
    g = guides.issue_fee_guide(db, office.clerk, authorization_id=a.id)
    assert g.purpose == "fee" and g.status == "open" and g.number.endswith("/2026")
    assert g.amount_reais == Decimal("55.50")          # fee.authorization 10 UPFM × R$ 5,55
    assert g.due_on == date(2026, 12, 30)              # 30 days, a Wednesday (business day)
    assert febraban.is_valid_barcode(g.barcode) and g.barcode[15:19] == "0421"
    assert g.payer_name == "João da Silva" and "autorização" in g.reference.lower()
    # Asking again gives the same open guide (no second debt, no second number)
    assert guides.issue_fee_guide(db, office.clerk, authorization_id=a.id).number == g.number
    with db.session() as s:
        fee = s.scalar(select(Fee).where(Fee.authorization_id == a.id))
        assert fee.status == "open" and fee.guide_number == g.number and fee.amount_upfm == 10


def test_fee_guide_is_refused_before_approval_and_by_the_fiscal(db, office):
    from tests.db.registry_factories import new_driver, new_vehicle
    d, v = new_driver(db, office), new_vehicle(db, office)
    a = auth.request_authorization(db, office.clerk, d.id, v.id, date(2026, 11, 20), "PROT-9")
    with pytest.raises(TransitionRefused, match="Aprovada"):
        guides.issue_fee_guide(db, office.clerk, "PROT-9")
    with pytest.raises(PermissionDenied):
        guides.issue_fee_guide(db, office.fiscal, authorization_id=a.id)
    with pytest.raises(NotFound):
        guides.issue_fee_guide(db, office.clerk, "9999/2026")


def test_art3_par1_fee_paid_through_its_guide_activates_from_the_payment_date(db, office):
    a = approved(db, office, protocol_date=date(2026, 11, 20))
    a = auth.record_inspection_result(db, office.inspector, a.id, True, on=date(2026, 11, 23),
                                      expected_version=a.version)
    g = guides.issue_fee_guide(db, office.clerk, authorization_id=a.id)
    later(2)
    paid = guides.record_guide_payment(db, office.clerk, g.number, date(2026, 12, 1), g.amount_reais)
    assert paid.status == "paid" and paid.paid_on == date(2026, 12, 1)
    info = auth.get_authorization(db, office.clerk, a.id)
    assert info.status == "active" and info.fee_paid_on == date(2026, 12, 1)
    assert info.valid_until == date(2027, 12, 1)       # 12 months from the payment (Art. 3 §1)
    with db.session() as s:
        payment = s.scalar(select(FeePayment))
        fee = s.get(Fee, payment.fee_id)
        assert (payment.guide_number, payment.amount, payment.source) == (g.number, Decimal("55.50"), "manual")
        assert payment.recorded_by == office.clerk.user_id and payment.recorded_at is not None
        assert fee.status == "paid" and fee.paid_on == date(2026, 12, 1)
    with pytest.raises(ConflictError, match="não paga dois débitos"):
        guides.record_guide_payment(db, office.clerk, g.number, date(2026, 12, 1), g.amount_reais)


def test_a_guide_payment_of_another_amount_is_refused(db, office):
    a = approved(db, office, protocol_date=date(2026, 11, 20))
    g = guides.issue_fee_guide(db, office.clerk, authorization_id=a.id)
    with pytest.raises(ValidationError, match="difere"):
        guides.record_guide_payment(db, office.clerk, g.number, date(2026, 11, 27), Decimal("50.00"))
    with pytest.raises(ValidationError, match="futura"):
        guides.record_guide_payment(db, office.clerk, g.number, date(2026, 12, 27), g.amount_reais)
    assert guides.get_guide(db, office.clerk, g.number).status == "open"


def test_issue12_item6_fee_payments_are_append_only_in_the_database(db, office):
    a = approved(db, office, protocol_date=date(2026, 11, 20))
    auth.record_inspection_result(db, office.inspector, a.id, True, on=date(2026, 11, 23),
                                  expected_version=auth.get_authorization(db, office.clerk, a.id).version)
    info = auth.get_authorization(db, office.clerk, a.id)
    auth.record_fee_payment(db, office.clerk, a.id, date(2026, 11, 24), "G-MANUAL-1", Decimal("55.50"), info.version)
    with db.session() as s:
        assert s.scalar(select(FeePayment.source)) == "manual"
    for statement in ("UPDATE fee_payments SET amount = 1", "DELETE FROM fee_payments"):
        with pytest.raises(ConflictError, match="somente inclusão"):   # the trigger's refusal, in Portuguese
            with db.session() as s:
                s.execute(text(statement))
    with db.session() as s:   # nothing changed (that the number cannot pay another debt: the next test)
        assert s.scalars(select(FeePayment.amount)).all() == [Decimal("55.50")]
        assert s.scalar(select(FeePayment.guide_number)) == "G-MANUAL-1"


def test_a_guide_number_used_for_a_fine_cannot_pay_a_fee(db, office):
    a = approved(db, office, protocol_date=date(2026, 11, 20))
    a = auth.record_inspection_result(db, office.inspector, a.id, True, on=date(2026, 11, 23),
                                      expected_version=a.version)
    driver_id = make_driver(db)
    auto = autos.draw_up_auto(db, office.fiscal, draft("ART26-I", date(2026, 11, 2), driver_id=driver_id))
    notify(db, office.fiscal, auto, date(2026, 11, 3))
    fine = guides.issue_fine_guide(db, office.clerk, auto.number)
    with pytest.raises(ConflictError, match="não é de taxa"):
        auth.record_fee_payment(db, office.clerk, a.id, date(2026, 11, 24), fine.number, fine.amount_reais,
                                a.version)


# ------------------------------------------------------------------------------------------------ fine guides
def test_art25_fine_guide_after_notification_for_the_ledger_balance(db, office):
    driver_id = make_driver(db, "Maria Infratora")
    auto = autos.draw_up_auto(db, office.fiscal, draft("ART26-III", date(2026, 11, 2), driver_id=driver_id))
    with pytest.raises(TransitionRefused, match="após a notificação"):
        guides.issue_fine_guide(db, office.clerk, auto.number)           # drawn up, not yet notified
    notify(db, office.fiscal, auto, date(2026, 11, 3))
    g = guides.issue_fine_guide(db, office.clerk, auto.number)
    assert g.purpose == "fine" and g.amount_reais == Decimal("111.00")   # 20 UPFM × 5,55 (Art. 25, média)
    assert g.payer_name == "Maria Infratora" and g.reference == f"Auto de infração nº {auto.number}"
    assert g.due_on == date(2026, 12, 30)
    paid = guides.record_guide_payment(db, office.clerk, g.number, date(2026, 11, 30), g.amount_reais)
    assert paid.status == "paid"
    with db.session() as s:
        entry = s.scalar(select(LedgerEntry).where(LedgerEntry.kind == "payment"))
        assert entry.guide_number == g.number and entry.amount_reais == Decimal("-111.00")
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).balance_upfm == 0


def test_fine_guide_only_once_final_when_the_gestor_says_so(db, office):
    set_param(db, "fine_guide_when", 1)
    driver_id = make_driver(db)
    auto = autos.draw_up_auto(db, office.fiscal, draft("ART26-I", date(2026, 11, 2), driver_id=driver_id))
    notify(db, office.fiscal, auto, date(2026, 11, 3))
    with pytest.raises(TransitionRefused, match="após a decisão definitiva"):
        guides.issue_fine_guide(db, office.clerk, auto.number)


# ------------------------------------------------------------------------------------------------ reissue
def _overdue_fee_guide(db, office):
    a = approved(db, office, protocol_date=date(2026, 11, 20))
    g = guides.issue_fee_guide(db, office.clerk, authorization_id=a.id)
    later(45)                                          # 14/01/2027: the guide (due 30/12/2026) is overdue
    return a, g


def test_overdue_guide_is_reissued_as_a_new_guide_and_the_old_one_cancelled(db, office):
    a, g = _overdue_fee_guide(db, office)
    assert guides.get_guide(db, office.clerk, g.number).overdue
    with pytest.raises(ValidationError):
        guides.reissue_overdue_guide(db, office.clerk, g.number, "  ")
    new = guides.reissue_overdue_guide(db, office.clerk, g.number, "Contribuinte pediu nova guia")
    assert new.number != g.number and new.replaces_number == g.number and new.number.endswith("/2027")
    assert new.amount_reais == g.amount_reais and new.late_charges_reais == 0   # late charges not configured
    assert new.due_on == date(2027, 2, 15)             # 30 days from 14/01/2027 = Sat 13/02 → Mon 15/02
    old = guides.get_guide(db, office.clerk, g.number)
    assert old.status == "cancelled" and new.number in old.cancel_reason and old.replaced_by_number == new.number
    assert not guides.late_charges_configured(db)
    # The reissued guide pays the fee: the payment reaches the authorization
    with pytest.raises(TransitionRefused):
        guides.reissue_overdue_guide(db, office.clerk, new.number, "ainda não venceu")


def test_reissued_guide_carries_the_late_charges_once_the_gestor_sets_them(db, office):
    set_param(db, "late.fine_percent", "2")
    set_param(db, "late.interest_percent", "1")
    a, g = _overdue_fee_guide(db, office)
    new = guides.reissue_overdue_guide(db, office.clerk, g.number, "Atraso")
    # 55,50 + 2 % (1,11) + 1 % × 2 months (due 30/12/2026 → 15/02/2027: 1 month and 16 days = 2) (1,11)
    assert new.late_charges_reais == Decimal("2.22") and new.amount_reais == Decimal("57.72")
    assert guides.late_charges_configured(db)


def test_a_guide_not_yet_due_is_not_reissued_and_only_the_gestor_cancels(db, office):
    a = approved(db, office, protocol_date=date(2026, 11, 20))
    g = guides.issue_fee_guide(db, office.clerk, authorization_id=a.id)
    with pytest.raises(TransitionRefused, match="ainda não venceu"):
        guides.reissue_overdue_guide(db, office.clerk, g.number, "Pedido")
    with pytest.raises(PermissionDenied):
        guides.cancel_guide(db, office.clerk, g.number, "Emitida por engano")
    cancelled = guides.cancel_guide(db, office.manager, g.number, "Emitida por engano")
    assert cancelled.status == "cancelled" and cancelled.cancel_reason == "Emitida por engano"


# ------------------------------------------------------------------------------------------------ dívida ativa
def as_renewal_fee_of_a_granted_authorization(db, a) -> None:
    with db.session() as s:
        s.execute(text(f"UPDATE authorizations SET status = 'active', number = '0999/2026' WHERE id = {a.id}"))
        s.execute(text(f"UPDATE fees SET kind = 'renewal' WHERE authorization_id = {a.id}"))


def test_divida_ativa_lists_unpaid_fee_and_issqn_guides_beside_fines(db, office):
    a, g = _overdue_fee_guide(db, office)
    # issue 28 item 9: the fee of a request not yet granted (Art. 15, VII) is the grant's condition, not a debt
    assert g.number not in {r.number for r in ledger.divida_ativa_list(db, office.clerk, date(2027, 1, 14))}
    assert g.number in {r.number for r in guides.list_guides(db, office.clerk, "overdue").rows}   # still Vencida
    as_renewal_fee_of_a_granted_authorization(db, a)    # the same unpaid guide as a granted one's fee is a debt
    with db.session() as s:
        s.add(PaymentGuide(number="0900/2026", purpose="issqn", amount_reais=Decimal("240.00"),
                           due_on=date(2026, 12, 10), payer_name="Plataforma Exemplo", payer_document="12345678000195",
                           status="open", version=1))
    rows = ledger.divida_ativa_list(db, office.clerk, date(2027, 1, 14))
    by_number = {r.number: r for r in rows}
    assert by_number[g.number].debt == "fee" and by_number[g.number].balance_reais == Decimal("55.50")
    assert by_number[g.number].auto_id is None and by_number[g.number].days_overdue == 15
    assert by_number["0900/2026"].debt_label == "ISSQN"
    paid_issqn = rows  # an ISSQN guide paid leaves the list
    with db.session() as s:
        s.execute(text("UPDATE payment_guides SET status = 'paid', paid_on = '2026-12-09', paid_amount = 240 "
                       "WHERE number = '0900/2026'"))
    assert "0900/2026" not in {r.number for r in ledger.divida_ativa_list(db, office.clerk, date(2027, 1, 14))}
    assert len(paid_issqn) == 2


def test_guides_list_filters_by_state_and_text(db, office):
    a = approved(db, office, protocol_date=date(2026, 11, 20))
    g = guides.issue_fee_guide(db, office.clerk, authorization_id=a.id)
    assert [r.number for r in guides.list_guides(db, office.clerk, "open").rows] == [g.number]
    assert guides.list_guides(db, office.clerk, "overdue").rows == ()
    assert guides.list_guides(db, office.clerk, text="joão").total == 1
    assert guides.list_guides(db, office.clerk, text=g.number[:4]).total == 1
    later(45)
    assert [r.number for r in guides.list_guides(db, office.clerk, "overdue").rows] == [g.number]
    actions = {x.key: x for x in guides.list_guides(db, office.clerk, "overdue").rows[0].actions}
    assert actions["reissue"].enabled and not actions["cancel"].enabled and "Gestor" in actions["cancel"].reason


def test_the_municipality_without_febraban_code_issues_guides_without_barcode(db, office):
    with db.session() as s:
        s.get(MunicipalitySettings, 1).febraban_agreement = None
    a = approved(db, office, protocol_date=date(2026, 11, 20))
    g = guides.issue_fee_guide(db, office.clerk, authorization_id=a.id)
    assert g.barcode is None and g.typed_line == ""
    assert Role.ATENDENTE in guides.DESK_ROLES


def test_divida_ativa_export_has_the_fee_guides_beside_the_fines(db, office, tmp_path, monkeypatch):
    import csv

    from desktop.services import exports
    a, g = _overdue_fee_guide(db, office)
    as_renewal_fee_of_a_granted_authorization(db, a)
    monkeypatch.setattr("desktop.services.ledger.local_today", lambda: date(2027, 1, 14))  # the clock moved on
    result = exports.export(db, office.clerk, "divida_ativa", tmp_path / "divida.csv")
    with open(result.path, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh, delimiter=";"))
    assert tuple(rows[0]) == exports.DIVIDA_ATIVA_HEADERS
    line = dict(zip(rows[0], next(r for r in rows[1:] if r[1] == g.number)))
    assert line["Débito"] == "Taxa" and line["Devedor"] == "João da Silva" and line["Vencimento"] == "30/12/2026"
    assert line["Saldo (R$)"] == "55,50" and line["Dias em atraso"] == "15"


def test_the_reissued_dam_prints_its_fee_and_the_late_charges(db, office):
    import io

    from pypdf import PdfReader

    from desktop.services import documents
    set_param(db, "late.fine_percent", "2")
    set_param(db, "late.interest_percent", "1")
    _a, g = _overdue_fee_guide(db, office)
    new = guides.reissue_overdue_guide(db, office.clerk, g.number, "Atraso")
    issued = documents.print_guide(db, office.clerk, new.number)
    text = " ".join(" ".join((p.extract_text() or "") for p in PdfReader(io.BytesIO(issued.pdf)).pages).split())
    assert "Taxa de autorização" in text and "Acréscimos por atraso" in text
    assert "R$ 57,72" in text and "R$ 2,22" in text
    assert guides.get_guide(db, office.clerk, new.number).barcode == new.barcode


def test_a_fee_guide_number_cannot_pay_a_fine_at_the_desk(db, office):
    a = approved(db, office, protocol_date=date(2026, 11, 20))
    fee = guides.issue_fee_guide(db, office.clerk, authorization_id=a.id)
    driver_id = make_driver(db)
    auto = autos.draw_up_auto(db, office.fiscal, draft("ART26-I", date(2026, 11, 2), driver_id=driver_id))
    notify(db, office.fiscal, auto, date(2026, 11, 3))
    with pytest.raises(ValidationError, match="emitida para outro débito"):
        ledger.record_payment(db, office.clerk, ledger.PaymentDraft(auto.id, date(2026, 11, 30), Decimal("55.50"),
                                                                    guide_number=fee.number))
    first = ledger.record_payment(db, office.clerk, ledger.PaymentDraft(auto.id, date(2026, 11, 30),
                                                                        Decimal("10.00"), guide_number="BANCO-77"))
    assert first.guide_number == "BANCO-77"
    other = autos.draw_up_auto(db, office.fiscal, draft("ART26-I", date(2026, 11, 4), driver_id=driver_id))
    notify(db, office.fiscal, other, date(2026, 11, 5))
    with pytest.raises(ValidationError, match="já foi usada em um pagamento no auto"):
        ledger.record_payment(db, office.clerk, ledger.PaymentDraft(other.id, date(2026, 11, 30), Decimal("10.00"),
                                                                    guide_number="BANCO-77"))


def test_cli_guide_auto_and_fee_issue_and_print_the_dam(db, office, tmp_path, capsys, monkeypatch):
    """The pinned `python -m desktop guide --auto NNNN/AAAA | --fee AUTHORIZATION --out FILE` (issue 13), issued
    by a named user whose password the terminal asks (issue 28: `--user`)."""
    import io

    from pypdf import PdfReader

    from desktop import cli

    a = approved(db, office, protocol_date=date(2026, 11, 20))
    protocol = auth.get_authorization(db, office.clerk, a.id).protocol_number
    fee_pdf = tmp_path / "taxa.pdf"
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "senha-de-teste")   # tests/db/conftest make_actor
    user = ["--user", office.clerk.username]
    assert cli.main(["--db", db.url, "guide", "--fee", protocol, "--out", str(fee_pdf)] + user) == 0
    out = capsys.readouterr().out
    assert "emitida e impressa" in out
    number = out.split("Guia nº ")[1].split(" ")[0]
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(fee_pdf.read_bytes())).pages)
    assert number in text and "55,50" in text
    driver_id = make_driver(db)
    auto = autos.draw_up_auto(db, office.fiscal, draft("ART26-I", date(2026, 11, 2), driver_id=driver_id))
    notify(db, office.fiscal, auto, date(2026, 11, 3))
    fine_pdf = tmp_path / "multa.pdf"
    assert cli.main(["--db", db.url, "guide", "--auto", auto.number, "--out", str(fine_pdf)] + user) == 0
    assert fine_pdf.read_bytes().startswith(b"%PDF")
    with db.session(write=False) as s:
        assert s.scalar(select(PaymentGuide.purpose).where(PaymentGuide.auto_id == auto.id)) == "fine"
    assert cli.main(["--db", db.url, "guide", "--auto", "9999/2026", "--out", str(fine_pdf)] + user) != 0
