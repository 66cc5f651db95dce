"""Whole enforcement stories, end to end through the services, on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from desktop.domain.ledger import EntryKind
from desktop.domain.penalties import CATALOG, fine_in_reais
from desktop.domain.workflow import AutoStatus
from desktop.services import audit, autos, ledger, penalties
from desktop.services.autos import process
from desktop.services.enforcement_jobs import run_enforcement_jobs
from desktop.services.ledger import Infractor, PaymentDraft
from tests.db.enforcement_factories import (
    UPFM_2026,
    authorization_row,
    authorized_driver,
    draft,
    final_without_defense,
    frozen_today,  # noqa: F401 (autouse: pins today)
    judgment,
    make_platform,
    decide_penalties,
    notify,
    notify_decision,
    setup_upfm,
    staff,
)
from desktop.services.actors import SYSTEM_ACTOR

# The suspension each code brings on a first occurrence (Art. 24 §ún.; Art. 26 V, VI) and its authorization's
# status once final; ART26-II impedes at once (Art. 26 II; Art. 16 §2).
FIRST_OCCURRENCE = {
    "ART26-I": "active", "ART26-II": "impeded", "ART26-III": "active", "ART26-IV": "active",
    "ART26-V": "suspended", "ART26-VI": "suspended", "ART27": "active",
}


def test_every_code_goes_through_the_whole_process(db, make_actor):
    """Art. 19-22, 24-27: drawn up → notified → defense → judged → appeal → final → paid, for every code."""
    setup_upfm(db)
    fiscal, gestor, atendente = staff(make_actor)
    assert set(FIRST_OCCURRENCE) == set(CATALOG)
    for code in sorted(CATALOG):
        driver_id, _, auth_id = authorized_driver(db)
        platform_id = make_platform(db) if code == "ART27" else None
        info = autos.draw_up_auto(db, fiscal, draft(code, date(2026, 3, 2), driver_id=driver_id,
                                                    platform_id=platform_id))
        assert info.status is AutoStatus.DRAWN_UP and info.amount_upfm == Decimal(CATALOG[code].upfm)
        assert info.amount_reais == fine_in_reais(CATALOG[code].upfm, UPFM_2026)
        info = notify(db, fiscal, info, date(2026, 3, 3))
        assert info.status is AutoStatus.NOTIFIED
        info = process.file_defense(db, atendente, info.id, date(2026, 3, 16), f"Defesa do auto {code}",
                                    info.version)
        assert info.status is AutoStatus.IN_DEFENSE
        info = process.judge(db, gestor, info.id, judgment("upheld", date(2026, 3, 23)), info.version)
        assert info.status is AutoStatus.JUDGED
        info = notify_decision(db, fiscal, info, date(2026, 3, 24))  # Art. 22 §2: the appeal term runs from here
        info = process.file_appeal(db, atendente, info.id, date(2026, 4, 1), f"Recurso do auto {code}",
                                   info.version)
        assert info.status is AutoStatus.IN_APPEAL
        info = process.judge(db, gestor, info.id, judgment("upheld", date(2026, 4, 15)), info.version)
        assert info.status is AutoStatus.FINAL and info.final_on == date(2026, 4, 15)
        assert "notify_decision" in {a.key for a in info.actions if a.enabled}  # the appeal's decision, too
        info = notify_decision(db, fiscal, info, date(2026, 4, 16))
        assert authorization_row(db, auth_id)[0] == FIRST_OCCURRENCE[code], code
        ledger.record_payment(db, atendente, PaymentDraft(info.id, date(2026, 5, 4), info.amount_reais))
        paid = autos.get_auto(db, SYSTEM_ACTOR, info.id)
        assert paid.auto.status is AutoStatus.PAID and paid.auto.balance_upfm == 0, code
        assert [e.kind for e in paid.entries] == [EntryKind.DEBIT, EntryKind.PAYMENT]
        assert [j.instance for j in paid.judgments] == ["defense", "appeal"]
        assert {a.key for a in paid.actions if a.enabled} == {"measure"}  # paid is final: only Art. 24 II measures remain
    assert audit.verify(db).ok


def test_recurrence_cassation_and_a_reversed_fine_in_one_drivers_history(db, make_actor):
    """A driver assaults an agent twice (Art. 26 V, §2): the first is suspended 12 months, a cancelled third auto
    counts for nothing, the second final one cassates the authorization; the cancelled fine nets to zero."""
    setup_upfm(db)
    fiscal, gestor, atendente = staff(make_actor)
    driver_id, _, auth_id = authorized_driver(db, "Caio Agressor")
    first = autos.draw_up_auto(db, fiscal, draft("ART26-V", date(2025, 8, 4), driver_id=driver_id))
    first = final_without_defense(db, fiscal, first, date(2025, 8, 5))
    first = decide_penalties(db, gestor, first, first.final_on)  # Art. 26 §2: by the authority (issue 24 item 1)
    assert authorization_row(db, auth_id)[:2] == ("suspended", first.final_on.replace(year=2026) - timedelta(days=1))  # SPEC §3: 12 months end the day before the same date a year later (issue 24 item 2)
    mistaken = autos.draw_up_auto(db, fiscal, draft("ART26-V", date(2026, 1, 12), driver_id=driver_id))
    assert mistaken.recurrence  # proposed; the gestor confirms or cancels
    autos.cancel_auto(db, gestor, mistaken.id, "Auto lavrado contra o irmão do condutor", mistaken.version)
    second = autos.draw_up_auto(db, fiscal, draft("ART26-V", date(2026, 3, 2), driver_id=driver_id))
    assert second.recurrence and second.assessment.recurrent_priors[0].on == date(2025, 8, 4)
    second = final_without_defense(db, fiscal, second, date(2026, 3, 3))
    assert authorization_row(db, auth_id)[0] == "suspended"  # the routine proposed the cassation, no more
    second = decide_penalties(db, gestor, second, second.final_on)
    assert authorization_row(db, auth_id)[0] == "cassada"
    kinds = [p.kind for p in penalties.penalties_of(db, SYSTEM_ACTOR, second.id)]
    assert kinds == ["cassation"]

    page = autos.infractor_page(db, atendente, Infractor.driver(driver_id))
    assert [a.number for a in page.recurrences] == [second.number, mistaken.number]
    before_cancel = ledger.statement(db, atendente, Infractor.driver(driver_id), until=date(2026, 6, 30))
    assert before_cancel.balance_upfm == Decimal(120)  # the reversal is dated the day of the cancellation (today)
    st = ledger.statement(db, atendente, Infractor.driver(driver_id))
    mistaken_entries = [e for e in st.entries if e.auto_id == mistaken.id]
    assert [e.kind for e in mistaken_entries] == [EntryKind.DEBIT, EntryKind.REVERSAL]
    assert sum(e.amount_upfm for e in mistaken_entries) == 0
    assert st.balance_upfm == Decimal(80)  # two final fines of 40 UPFM
    # the job later finds nothing to lift on a cassada authorization, and nothing twice
    assert run_enforcement_jobs(db, date(2026, 9, 1)).suspensions_ended == 0
    assert audit.verify(db).ok
