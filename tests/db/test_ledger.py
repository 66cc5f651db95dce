"""The fines ledger (SPEC §3: append-only, balances computed), payments, statements, overdue and dívida ativa —
on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import select, text

from desktop.domain.ledger import EntryKind
from desktop.domain.workflow import AutoStatus
from desktop.errors import ConflictError, PermissionDenied, TransitionRefused, ValidationError
from desktop.models import LedgerEntry
from desktop.services import autos, ledger
from desktop.services.enforcement_jobs import run_enforcement_jobs
from desktop.services.ledger import Infractor, LedgerFilter, PaymentDraft
from tests.db.enforcement_factories import (
    authorization_row,
    authorized_driver,
    decide_penalties,
    draft,
    final_without_defense,
    frozen_today,  # noqa: F401 (autouse: pins today)
    notify,
    setup_upfm,
    staff,
)
from desktop.services.actors import SYSTEM_ACTOR


@pytest.fixture
def people(db, make_actor):
    setup_upfm(db)
    return staff(make_actor)


def test_payment_is_a_credit_converted_at_the_upfm_value_of_the_debit(db, people):
    fiscal, _, atendente = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-III", date(2026, 3, 2), driver_id=driver_id))  # R$ 62,51
    info = final_without_defense(db, fiscal, auto, date(2026, 3, 3))
    part = ledger.record_payment(db, atendente, PaymentDraft(auto.id, date(2026, 4, 1), Decimal("31.26"),
                                                             guide_number="0007/2026"))
    assert part.kind is EntryKind.PAYMENT and part.amount_reais == Decimal("-31.26")
    assert part.amount_upfm == Decimal("-10.0024")  # 31,26 / 3,12525 half-up to 4 places
    assert part.upfm_value == info.upfm_value and part.guide_number == "0007/2026"
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).status is AutoStatus.FINAL  # still owes
    rest = ledger.record_payment(db, atendente, PaymentDraft(auto.id, date(2026, 4, 2), Decimal("31.25")))
    assert rest.amount_upfm == Decimal("-9.9976")  # the balance closes exactly in UPFM too
    paid = autos.get_auto_info(db, SYSTEM_ACTOR, auto.id)
    assert paid.status is AutoStatus.PAID and paid.balance_upfm == 0
    assert ledger.balance(db, SYSTEM_ACTOR, Infractor.driver(driver_id)) == 0


def test_only_the_cashier_roles_record_payments(db, people):
    fiscal, _, _ = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    with pytest.raises(PermissionDenied):
        ledger.record_payment(db, fiscal, PaymentDraft(auto.id, date(2026, 3, 5), Decimal("54.00")))


def test_no_payment_before_notification_nor_in_the_future(db, people):
    fiscal, _, atendente = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    with pytest.raises(TransitionRefused):
        ledger.record_payment(db, atendente, PaymentDraft(auto.id, date(2026, 3, 5), Decimal("31.25")))
    notify(db, fiscal, auto, date(2026, 3, 3))
    with pytest.raises(ValidationError) as err:
        ledger.record_payment(db, atendente, PaymentDraft(auto.id, date(2099, 1, 1), Decimal("0")))
    assert {p.field for p in err.value.problems} == {"amount_reais", "paid_on"}


def test_issue12_item3_paying_before_the_decision_is_final_does_not_end_the_appeal_term(db, people):
    """The first wave took a payment in full as acceptance: final that day, suspension from the payment. Payment is
    not a waiver: the auto keeps its status and terms; it is final when the term ends without appeal, and the
    penalty takes effect on that final date; then the auto is paid."""
    from desktop.services.enforcement_jobs import run_enforcement_jobs

    fiscal, gestor, atendente = people
    driver_id, _, auth_id = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-VI", date(2026, 3, 2), driver_id=driver_id))
    notify(db, fiscal, auto, date(2026, 3, 3))
    ledger.record_payment(db, atendente, PaymentDraft(auto.id, date(2026, 3, 6), Decimal("93.76")))
    paid = autos.get_auto_info(db, SYSTEM_ACTOR, auto.id)
    assert paid.status is AutoStatus.NOTIFIED and paid.final_on is None and paid.balance_reais == 0
    assert paid.defense_deadline == date(2026, 3, 18)
    assert "defense" in {a.key for a in paid.actions if a.enabled} or paid.defense_deadline >= date(2026, 3, 6)
    assert authorization_row(db, auth_id)[0] == "active"  # nothing takes effect on the payment
    run_enforcement_jobs(db, date(2026, 3, 19))  # the defense term ended without defense
    final = autos.get_auto_info(db, SYSTEM_ACTOR, auto.id)
    assert final.status is AutoStatus.PAID and final.final_on == date(2026, 3, 19)
    # issue 24 item 1: the suspension waits for the authority's decision (Art. 26 §2), taken on the final date
    assert authorization_row(db, auth_id)[0] == "active"
    decide_penalties(db, gestor, final, final.final_on)
    assert authorization_row(db, auth_id)[:2] == ("suspended", date(2027, 3, 18))  # 12 months (issue 24 item 2)
    # a paid auto is a final prior: recurrence counts it
    assert autos.preview_assessment(db, SYSTEM_ACTOR, draft("ART26-VI", date(2026, 5, 4), driver_id=driver_id)).recurrence


def test_a_reversed_fine_leaves_a_zero_balance_and_both_entries(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    autos.cancel_auto(db, gestor, auto.id, "Lavrado em duplicidade", auto.version)
    st = ledger.statement(db, atendente, Infractor.driver(driver_id), until=date(2026, 12, 31))
    assert [e.kind for e in st.entries] == [EntryKind.DEBIT, EntryKind.REVERSAL]
    assert st.entries[1].reverses_id == st.entries[0].id and "duplicidade" in st.entries[1].reason
    assert st.balance_upfm == 0 and st.balance_reais == 0 and st.balances == (Decimal(30), Decimal(0))


def test_a_posted_entry_cannot_be_updated_or_deleted_the_database_refuses(db, people):
    fiscal, _, _ = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    # through the ORM, in a service-style session (the error comes out translated)
    with pytest.raises(ConflictError, match="somente inclusão"):
        with db.session() as s:
            row = s.scalar(select(LedgerEntry).where(LedgerEntry.auto_id == auto.id))
            row.amount_upfm = Decimal(1)
    with pytest.raises(ConflictError, match="somente inclusão"):
        with db.session() as s:
            s.execute(text("DELETE FROM ledger_entries"))
    with pytest.raises(ConflictError, match="somente inclusão"):
        with db.session() as s:
            s.execute(text("UPDATE ledger_entries SET reason = 'alterado'"))
    assert ledger.auto_balance(db, SYSTEM_ACTOR, auto.id) == Decimal(10)


def test_statement_of_an_infractor_at_any_date(db, people):
    fiscal, _, atendente = people
    driver_id, _, _ = authorized_driver(db, "Ester Extrato")
    first = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 2, 2), driver_id=driver_id))
    autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    final_without_defense(db, fiscal, first, date(2026, 2, 3))
    ledger.record_payment(db, atendente, PaymentDraft(first.id, date(2026, 3, 10), Decimal("31.25")))
    before = ledger.statement(db, atendente, Infractor.driver(driver_id), until=date(2026, 2, 28))
    assert [e.auto_number for e in before.entries] == [first.number] and before.balance_upfm == Decimal(10)
    later = ledger.statement(db, atendente, Infractor.driver(driver_id), until=date(2026, 3, 31))
    assert [e.kind for e in later.entries] == [EntryKind.DEBIT, EntryKind.DEBIT, EntryKind.PAYMENT]
    assert later.balances == (Decimal(10), Decimal(40), Decimal(30)) and later.balance_reais == Decimal("93.76")
    assert later.infractor_name == "Ester Extrato" and later.document.count(".") == 2
    assert ledger.balance(db, SYSTEM_ACTOR, Infractor.driver(driver_id), until=date(2026, 2, 28)) == Decimal(10)


def test_overdue_list_and_the_list_for_divida_ativa(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db, "Devedor Contumaz")
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    info = final_without_defense(db, fiscal, auto, date(2026, 3, 3))
    assert info.payment_deadline == date(2026, 4, 20)  # 30 days from 19/03 end on Saturday 18/04: moved to Monday
    assert ledger.overdue_list(db, atendente, today=date(2026, 4, 20)) == []
    [late] = ledger.overdue_list(db, atendente, today=date(2026, 4, 21))
    with db.session(write=False) as s:   # the home dashboard's SQL COUNT agrees with the list (issue 16)
        assert ledger.owed_count_in(s, atendente, today=date(2026, 4, 21)) == 1
        assert ledger.owed_count_in(s, atendente, today=date(2026, 4, 20)) == 0
    assert (late.number, late.days_overdue, late.balance_upfm, late.status) == (
        auto.number, 1, Decimal(10), AutoStatus.FINAL)
    assert ledger.divida_ativa_list(db, atendente, today=date(2026, 4, 21)) == []
    report = run_enforcement_jobs(db, date(2026, 4, 21))
    assert report.overdue == (auto.number,)
    [ready] = ledger.divida_ativa_list(db, atendente, today=date(2026, 5, 1))
    assert ready.infractor_name == "Devedor Contumaz" and ready.balance_reais == Decimal("31.25")
    with pytest.raises(PermissionDenied):
        ledger.send_to_divida_ativa(db, atendente, [auto.id], date(2026, 5, 1))
    assert ledger.send_to_divida_ativa(db, gestor, [auto.id], date(2026, 5, 1)) == 1
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).status is AutoStatus.DIVIDA_ATIVA
    assert ledger.divida_ativa_list(db, atendente, today=date(2026, 5, 2)) == []
    ledger.record_payment(db, atendente, PaymentDraft(auto.id, date(2026, 6, 1), Decimal("31.25")))
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).status is AutoStatus.PAID


def test_a_gestor_reverses_a_returned_payment_once(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    notify(db, fiscal, auto, date(2026, 3, 3))
    payment = ledger.record_payment(db, atendente, PaymentDraft(auto.id, date(2026, 3, 5), Decimal("10.00")))
    with pytest.raises(PermissionDenied):
        ledger.reverse_entry(db, atendente, payment.id, "cheque devolvido")
    with pytest.raises(ValidationError):
        ledger.reverse_entry(db, gestor, payment.id, " ")
    rev = ledger.reverse_entry(db, gestor, payment.id, "Pagamento estornado pelo banco", on=date(2026, 3, 9))
    assert rev.reverses_id == payment.id and rev.amount_upfm == -payment.amount_upfm
    assert ledger.auto_balance(db, SYSTEM_ACTOR, auto.id) == Decimal(10)
    with pytest.raises(ConflictError, match="já foi estornado"):
        ledger.reverse_entry(db, gestor, payment.id, "de novo")
    with pytest.raises(ConflictError):
        ledger.reverse_entry(db, gestor, rev.id, "estorno do estorno")


def test_ledger_pages_by_keyset_newest_first_with_filters(db, people):
    fiscal, _, atendente = people
    d1, _, _ = authorized_driver(db)
    d2, _, _ = authorized_driver(db)
    for day in range(2, 9):
        autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, day), driver_id=d1 if day % 2 else d2))
    page1 = ledger.ledger_page(db, atendente, limit=3)
    page2 = ledger.ledger_page(db, atendente, after=page1.next_cursor, limit=3)
    page3 = ledger.ledger_page(db, atendente, after=page2.next_cursor, limit=3)
    ids = [e.id for p in (page1, page2, page3) for e in p.entries]
    assert ids == sorted(ids, reverse=True) and len(ids) == len(set(ids)) == 7 and page3.next_cursor is None
    only_d1 = ledger.ledger_page(db, atendente, LedgerFilter(infractor=Infractor.driver(d1)))
    assert {e.infractor for e in only_d1.entries} == {Infractor.driver(d1)} and len(only_d1.entries) == 3
    march_4_to_6 = ledger.ledger_page(db, atendente, LedgerFilter(date_from=date(2026, 3, 4),
                                                                  date_to=date(2026, 3, 6)))
    assert sorted(e.effective_on.day for e in march_4_to_6.entries) == [4, 5, 6]
    assert ledger.ledger_totals(db, atendente, LedgerFilter(kind=EntryKind.DEBIT)) == (7, Decimal(70))
    assert page1.entries[0].infractor_name.startswith("Condutor Teste")
