"""Legal results of judgments and payments (issue 12 items 1, 2, 3, 5, 7), on SQLite and PostgreSQL: the written
waiver makes a decision final; a payment before finality is kept and a later annulment or requalification turns
the difference into a refund; an overpayment needs a gestor and becomes a refund; one guide pays one debt; an
entry is reversed once, by two desks at once either (two processes on PostgreSQL); a cassation cites Art. 26 §2
only on a recurrence of Art. 26 V."""
from __future__ import annotations

from tests.files import tiny_pdf

import multiprocessing as mp
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import select

from desktop.domain.ledger import EntryKind
from desktop.domain.workflow import AutoStatus
from desktop.errors import ConflictError, PermissionDenied, TransitionRefused, ValidationError
from desktop.models import AutoWaiver, Document, LedgerEntry, PaymentGuide
from desktop.services import autos, ledger, penalties
from desktop.services.autos import process
from desktop.services.autos import Attachment
from desktop.services.ledger import PaymentDraft
from desktop.services.autos.process import WaiverDraft
from tests.db.enforcement_factories import (
    authorization_row,
    authorized_driver,
    draft,
    final_without_defense,
    frozen_today,  # noqa: F401 (autouse: pins today)
    judgment,
    decide_penalties,
    notify,
    notify_decision,
    setup_upfm,
    staff,
)
from desktop.services.actors import SYSTEM_ACTOR

WAIVER_PDF = Attachment("desistencia-assinada.pdf", tiny_pdf("Desisto do recurso"), kind="waiver")


@pytest.fixture
def people(db, make_actor):
    setup_upfm(db)
    return staff(make_actor)


def _judged(db, people, code="ART26-VI", driver=None):
    fiscal, gestor, atendente = people
    driver_id, _, auth_id = driver or authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft(code, date(2026, 3, 2), driver_id=driver_id))
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    info = process.file_defense(db, atendente, auto.id, date(2026, 3, 10), "defesa", info.version)
    info = process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 3, 20)), info.version)
    info = notify_decision(db, fiscal, info, date(2026, 3, 20))  # Art. 22 §2: the appeal term runs from here
    return info, auth_id


def test_issue12_item3_the_written_waiver_makes_the_decision_final_that_day(db, people):
    """Art. 22: final when the appeal term ends, when the appeal is judged, or on the infractor's written waiver
    (desistência) — recorded with its document; the penalty takes effect on that day, not on the payment."""
    fiscal, gestor, atendente = people
    info, auth_id = _judged(db, people)
    assert info.status is AutoStatus.JUDGED and info.appeal_deadline == date(2026, 4, 6)
    ledger.record_payment(db, atendente, PaymentDraft(info.id, date(2026, 3, 20), info.amount_reais))
    paid = autos.get_auto_info(db, SYSTEM_ACTOR, info.id)
    assert paid.status is AutoStatus.JUDGED and paid.balance_reais == 0   # paying is not a waiver
    assert authorization_row(db, auth_id)[0] == "active"
    with pytest.raises(ValidationError, match="Anexe a desistência") as refused:
        process.record_waiver(db, atendente, info.id, WaiverDraft(date(2026, 3, 25)), paid.version)
    assert refused.value.problems[0].field == "attachment"
    with pytest.raises(PermissionDenied):
        process.record_waiver(db, make_vistoriador(db), info.id, WaiverDraft(date(2026, 3, 25),
                                                                              attachment=WAIVER_PDF), paid.version)
    done = process.record_waiver(db, atendente, info.id, WaiverDraft(date(2026, 3, 25), "Desiste do recurso",
                                                                      attachment=WAIVER_PDF), paid.version)
    assert done.status is AutoStatus.PAID and done.final_on == date(2026, 3, 25)
    assert authorization_row(db, auth_id)[:2] == ("suspended", date(2027, 3, 24))  # 12 months, the day before (issue 24 item 2)
    with db.session(write=False) as s:
        waiver = s.scalars(select(AutoWaiver)).one()
        assert (waiver.instance, waiver.filed_on, waiver.statement) == ("appeal", date(2026, 3, 25),
                                                                         "Desiste do recurso")
        assert s.get(Document, waiver.document_id).filename == "desistencia-assinada.pdf"
    with pytest.raises(TransitionRefused):
        process.record_waiver(db, atendente, info.id, WaiverDraft(date(2026, 3, 26), attachment=WAIVER_PDF),
                              done.version)


def make_vistoriador(db):
    from desktop.domain.roles import Role
    from desktop.services.actors import Actor

    return Actor(user_id=None, username="v", full_name="Vistoriador", roles=frozenset({Role.VISTORIADOR}))


def test_issue12_item3_a_payment_before_an_annulled_appeal_becomes_a_refund(db, people):
    fiscal, gestor, atendente = people
    info, auth_id = _judged(db, people)
    ledger.record_payment(db, atendente, PaymentDraft(info.id, date(2026, 3, 21), info.amount_reais,
                                                      guide_number="0101/2026"))
    info = process.file_appeal(db, atendente, info.id, date(2026, 3, 30), "recurso",
                               autos.get_auto_info(db, SYSTEM_ACTOR, info.id).version)
    info = process.judge(db, gestor, info.id, judgment("annulled", date(2026, 4, 10), reasoning="Erro de fato"),
                         info.version)
    assert info.status is AutoStatus.ANNULLED and info.balance_upfm == 0 and info.balance_reais == 0
    kinds = [e.kind for e in autos.get_auto(db, SYSTEM_ACTOR, info.id).entries]
    assert kinds == [EntryKind.DEBIT, EntryKind.PAYMENT, EntryKind.REVERSAL, EntryKind.REFUND]
    (refund,) = ledger.refunds(db, atendente)
    assert refund.auto_id == info.id and refund.amount_reais == Decimal("93.76")
    assert refund.effective_on == date(2026, 4, 10) and "Restituição" in refund.reason
    assert authorization_row(db, auth_id)[0] == "active"  # nothing ever took effect


def test_issue12_item1_item3_requalified_lower_after_payment_refunds_the_difference(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    ledger.record_payment(db, atendente, PaymentDraft(info.id, date(2026, 3, 5), Decimal("93.76")))
    info = process.file_defense(db, atendente, info.id, date(2026, 3, 10), "foi pelo aplicativo",
                                autos.get_auto_info(db, SYSTEM_ACTOR, info.id).version)
    info = process.judge(db, gestor, info.id, judgment("partly_upheld", date(2026, 3, 20),
                                                       requalified_code="ART26-III", art13_item="XII"), info.version)
    assert (info.code, info.amount_upfm, info.balance_reais) == ("ART26-III", Decimal(20), Decimal(0))
    (refund,) = ledger.refunds(db, atendente)
    assert refund.amount_reais == Decimal("31.25") and refund.amount_upfm == Decimal(10)


def test_issue12_item7_a_payment_above_the_balance_needs_a_gestor_and_leaves_a_refund_never_a_credit(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    huge = PaymentDraft(info.id, date(2026, 3, 5), Decimal("1000000.00"))
    with pytest.raises(ValidationError, match="maior que o saldo") as refused:
        ledger.record_payment(db, atendente, huge)
    assert refused.value.problems[0].field == "amount_reais"
    assert "R$ 31,25" in refused.value.problems[0].message
    with pytest.raises(PermissionDenied, match="gestor"):
        ledger.record_payment(db, atendente, PaymentDraft(info.id, date(2026, 3, 5), Decimal("1000000.00"),
                                                          confirm_overpayment=True))
    assert ledger.auto_balance(db, SYSTEM_ACTOR, info.id) == Decimal(10)  # nothing half-saved
    ledger.record_payment(db, gestor, PaymentDraft(info.id, date(2026, 3, 5), Decimal("1000000.00"),
                                                   confirm_overpayment=True))
    after = autos.get_auto_info(db, SYSTEM_ACTOR, info.id)
    assert after.balance_upfm == 0 and after.balance_reais == 0 and after.status is AutoStatus.NOTIFIED
    assert ledger.balance(db, SYSTEM_ACTOR, after.infractor) == 0  # never a negative balance credit
    (refund,) = ledger.refunds(db, gestor)
    assert refund.amount_reais == Decimal("999968.75")


def test_issue12_item7_the_same_bank_guide_cannot_pay_two_debts(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    first = notify(db, fiscal, autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2),
                                                                     driver_id=driver_id)), date(2026, 3, 3))
    second = notify(db, fiscal, autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2),
                                                                      driver_id=driver_id)), date(2026, 3, 3))
    ledger.record_payment(db, atendente, PaymentDraft(first.id, date(2026, 3, 5), Decimal("10.00"),
                                                      guide_number="0042/2026"))
    for target in (second.id, first.id):
        with pytest.raises(ValidationError, match="já foi usada") as refused:
            ledger.record_payment(db, atendente, PaymentDraft(target, date(2026, 3, 5), Decimal("10.00"),
                                                              guide_number="0042/2026"))
        assert refused.value.problems[0].field == "guide_number"
    with db.session() as s:  # a DAM issued for the first auto cannot pay the second
        s.add(PaymentGuide(number="0043/2026", purpose="fine", amount_reais=Decimal("31.25"),
                           due_on=date(2026, 4, 1), payer_name="Condutor", auto_id=first.id))
    with pytest.raises(ValidationError, match="emitida para outro débito"):
        ledger.record_payment(db, atendente, PaymentDraft(second.id, date(2026, 3, 5), Decimal("10.00"),
                                                          guide_number="0043/2026"))
    # the database itself refuses a second payment row with the same guide (two desks at once)
    with pytest.raises(ConflictError, match="uma guia paga um só débito"):
        with db.session() as s:
            row = s.scalars(select(LedgerEntry).where(LedgerEntry.guide_number == "0042/2026")).one()
            s.add(LedgerEntry(infractor_driver_id=row.infractor_driver_id, auto_id=second.id, kind="payment",
                              amount_upfm=Decimal(-1), upfm_value=row.upfm_value, amount_reais=Decimal("-3.13"),
                              effective_on=date(2026, 3, 5), posted_at=row.posted_at, guide_number="0042/2026"))


def test_issue12_item5_an_entry_is_reversed_once_the_service_and_the_database_refuse_a_second(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    info = notify(db, fiscal, autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2),
                                                                    driver_id=driver_id)), date(2026, 3, 3))
    payment = ledger.record_payment(db, atendente, PaymentDraft(info.id, date(2026, 3, 5), Decimal("10.00")))
    first = ledger.reverse_entry(db, gestor, payment.id, "Cheque devolvido", on=date(2026, 3, 9))
    with pytest.raises(ConflictError, match="só pode ser estornado uma vez"):
        ledger.reverse_entry(db, gestor, payment.id, "Outra vez", on=date(2026, 3, 9))
    with pytest.raises(ConflictError, match="só pode ser estornado uma vez"):
        with db.session() as s:  # past the service: the unique index on reverses_id
            s.add(LedgerEntry(infractor_driver_id=driver_id, auto_id=info.id, kind="reversal",
                              amount_upfm=-first.amount_upfm, upfm_value=first.upfm_value,
                              amount_reais=-first.amount_reais, effective_on=date(2026, 3, 9),
                              posted_at=first.posted_at, reverses_id=payment.id, reason="duplicado"))
    assert ledger.auto_balance(db, SYSTEM_ACTOR, info.id) == Decimal(10)


def _reverse_at_once(url: str, actor, entry_id: int, start, worker: int, blind: bool):
    """One desk: the real service, started with the other at the same moment. `blind`: the service's own check
    sees no earlier reversal (as if both desks had checked before either wrote), so only the database's unique
    rule on the reversed entry can refuse the second. Since issue 12 item 19 every PostgreSQL write takes the
    audit lock first, so the two transactions run one after the other: the second meets the first's row."""
    from desktop.db import Database
    from desktop.errors import ConflictError
    from desktop.services import ledger
    from desktop.services.enforcement import postings

    if blind:
        postings.reversed_ids = lambda session, ids: set()
    db = Database(url)
    start.wait(timeout=120)
    try:
        info = ledger.reverse_entry(db, actor, entry_id, f"Estorno pela estação {worker}", on=date(2026, 3, 9))
        return "ok", info.id
    except ConflictError as exc:
        return "refused", str(exc)
    finally:
        db.dispose()


@pytest.mark.parametrize("blind", [False, True], ids=["service-check", "database-rule"])
def test_issue12_item5_two_desks_reversing_the_same_entry_at_once_on_postgresql(db, people, blind):
    if db.engine.dialect.name != "postgresql":
        pytest.skip("two desks at once: PostgreSQL (a SQLite file takes one writer at a time)")
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    info = notify(db, fiscal, autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2),
                                                                    driver_id=driver_id)), date(2026, 3, 3))
    payment = ledger.record_payment(db, atendente, PaymentDraft(info.id, date(2026, 3, 5), Decimal("10.00")))
    ctx = mp.get_context("spawn")
    with ctx.Manager() as manager:
        start = manager.Barrier(2)
        with ctx.Pool(2) as pool:
            jobs = [pool.apply_async(_reverse_at_once, (db.url, gestor, payment.id, start, w, blind))
                    for w in (1, 2)]
            results = sorted(j.get(timeout=300) for j in jobs)
    assert [r[0] for r in results] == ["ok", "refused"]
    assert "estornado" in results[1][1]
    with db.session(write=False) as s:
        reversals = s.scalars(select(LedgerEntry).where(LedgerEntry.reverses_id == payment.id)).all()
    assert [r.id for r in reversals] == [results[0][1]]


def test_art26_par2_a_cassation_cites_par2_only_on_a_recurrence_of_art26_v(db, people):
    fiscal, gestor, atendente = people
    driver = authorized_driver(db)
    first = autos.draw_up_auto(db, fiscal, draft("ART26-V", date(2026, 1, 5), driver_id=driver[0]))
    first = final_without_defense(db, fiscal, first, date(2026, 1, 6))
    decide_penalties(db, gestor, first, first.final_on)  # Art. 26 §2: by the authority (issue 24 item 1)
    (suspension,) = penalties.penalties_of(db, SYSTEM_ACTOR, first.id)
    assert (suspension.kind, suspension.article) == ("suspension", "Art. 26, V, b; Art. 24, parágrafo único")
    second = autos.draw_up_auto(db, fiscal, draft("ART26-V", date(2026, 3, 2), driver_id=driver[0]))
    assert {c.penalty: c.article for c in process.decision_choices(db, gestor, second.id)} == {
        "suspension": "Art. 26, V, b; Art. 24, parágrafo único", "cassation": "Art. 26, §2"}
    info = notify(db, fiscal, second, date(2026, 3, 3))
    info = process.judge(db, gestor, second.id, judgment("upheld", date(2026, 3, 19)), info.version)
    process.record_waiver(db, atendente, second.id, WaiverDraft(date(2026, 3, 20), attachment=WAIVER_PDF),
                          info.version)
    applied = {p.kind: p.article for p in penalties.penalties_of(db, SYSTEM_ACTOR, second.id)}
    assert applied == {"cassation": "Art. 26, §2"}
    assert authorization_row(db, driver[2])[0] == "cassada"
