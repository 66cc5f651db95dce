"""The administrative process of an auto (Art. 22): notification and its proof (§§1-2), defense, judgment,
appeal and finality — on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from desktop.domain.ledger import EntryKind
from desktop.domain.penalties import NotificationForm
from desktop.domain.workflow import AutoStatus
from desktop.errors import PermissionDenied, StaleRecordError, TransitionRefused, ValidationError
from desktop.services import autos, ledger
from desktop.services.autos import process
from desktop.services.autos import Attachment
from tests.files import tiny_pdf
from desktop.services.ledger import Infractor
from desktop.services.autos.process import NotificationDraft
from tests.db.enforcement_factories import (
    authorization_row,
    authorized_driver,
    draft,
    frozen_today,  # noqa: F401 (autouse: pins today)
    judgment,
    make_platform,
    notify,
    notify_decision,
    set_parameter,
    setup_upfm,
    staff,
)
from desktop.services.actors import SYSTEM_ACTOR


@pytest.fixture
def people(db, make_actor):
    setup_upfm(db)
    return staff(make_actor)


@pytest.fixture
def auto(db, people):
    driver_id, _, _ = authorized_driver(db)
    return autos.draw_up_auto(db, people[0], draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))


def test_art22_par2_the_defense_term_starts_on_the_day_the_proof_is_joined(db, people, auto):
    fiscal = people[0]
    post = NotificationDraft("driver", NotificationForm.POST, sent_on=date(2026, 3, 3))
    info = process.record_notification(db, fiscal, auto.id, post, auto.version)
    assert info.status is AutoStatus.DRAWN_UP and info.defense_deadline is None  # no proof yet: no term
    pending = autos.get_auto(db, SYSTEM_ACTOR, auto.id)
    assert "join_proof" in {a.key for a in pending.actions}
    ar = Attachment("aviso-de-recebimento.pdf", tiny_pdf("AR"), kind="notification_proof")
    info = process.join_proof(db, fiscal, pending.notifications[0].id, date(2026, 3, 10), info.version, proof=ar)
    assert info.status is AutoStatus.NOTIFIED and info.notice_joined_on == date(2026, 3, 10)
    assert info.defense_deadline == date(2026, 3, 25)  # 15 days (parameter) from the joining, a Wednesday
    detail = autos.get_auto(db, SYSTEM_ACTOR, auto.id)
    assert detail.notifications[0].proof_joined_on == date(2026, 3, 10)
    assert detail.notifications[0].form_label == "Aviso por via postal ou carta com AR"
    assert detail.notifications[0].article == "Art. 22, §1, V"
    assert "aviso-de-recebimento.pdf" in [e.filename for e in detail.evidence]


def test_art22_par2_a_term_ending_on_a_holiday_moves_to_the_next_business_day(db, people, auto):
    from desktop.models import Holiday

    with db.session() as s:
        s.add(Holiday(day=date(2026, 3, 18), name="Feriado municipal de teste", kind="municipal"))
    info = notify(db, people[0], auto, date(2026, 3, 3))
    assert info.defense_deadline == date(2026, 3, 19)


def test_art22_the_term_is_the_dated_parameter(db, people, auto):
    set_parameter(db, "term.defense_days", date(2026, 1, 1), Decimal(30))
    info = notify(db, people[0], auto, date(2026, 3, 3))
    assert info.defense_deadline == date(2026, 4, 2)


def test_art22_par1_every_attempt_is_recorded_and_the_first_proof_counts(db, people):
    fiscal = people[0]
    driver_id, _, _ = authorized_driver(db)
    platform_id = make_platform(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id,
                                                platform_id=platform_id))
    info = notify(db, fiscal, auto, date(2026, 3, 3), addressee="driver")
    edital = NotificationDraft("platform", NotificationForm.NOTICE_BOARD, date(2026, 3, 5), date(2026, 3, 6))
    info = process.record_notification(db, fiscal, auto.id, edital, info.version)
    assert info.notice_joined_on == date(2026, 3, 3)
    assert [n.addressee for n in autos.get_auto(db, SYSTEM_ACTOR, auto.id).notifications] == ["driver", "platform"]
    with pytest.raises(ValidationError) as err:
        process.record_notification(db, fiscal, auto.id, NotificationDraft(
            "driver", NotificationForm.DIRECT, date(2026, 3, 9), date(2026, 3, 8)), info.version)
    assert err.value.problems[0].field == "proof_joined_on"


def test_art22_notification_only_names_who_the_auto_names(db, people, auto):
    with pytest.raises(ValidationError) as err:
        process.record_notification(db, people[0], auto.id, NotificationDraft(
            "platform", NotificationForm.DIRECT, date(2026, 3, 3), date(2026, 3, 3)), auto.version)
    assert err.value.problems[0].field == "addressee"


def test_art22_defense_within_the_term_then_judgment_opens_the_appeal_term(db, people, auto):
    fiscal, gestor, atendente = people
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    info = process.file_defense(db, atendente, auto.id, date(2026, 3, 18), "Passageiro era meu parente",
                                info.version, attachment=Attachment("defesa.pdf", tiny_pdf("defesa"), kind="defense"))
    assert info.status is AutoStatus.IN_DEFENSE
    info = process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 3, 25)), info.version)
    # Art. 22, §2 (issue 24 item 3): no appeal term until the proof that the decision was notified is joined
    assert info.status is AutoStatus.JUDGED and info.appeal_deadline is None
    assert "finalize" not in {a.key for a in info.actions if a.enabled}
    info = notify_decision(db, fiscal, info, date(2026, 3, 25))
    assert info.status is AutoStatus.JUDGED and info.appeal_deadline == date(2026, 4, 9)
    detail = autos.get_auto(db, SYSTEM_ACTOR, auto.id)
    assert detail.defenses[0].timely and detail.defenses[0].document_id is not None
    assert detail.judgments[0].outcome_label == "Auto mantido" and detail.judgments[0].decided_by_name == "Gestor Rui"
    assert {a.key for a in detail.actions if a.enabled} >= {"finalize", "payment"}  # the appeal term is over today


def test_art22_a_late_defense_is_refused(db, people, auto):
    info = notify(db, people[0], auto, date(2026, 3, 3))
    with pytest.raises(ValidationError, match="Fora do prazo"):
        process.file_defense(db, people[2], auto.id, date(2026, 3, 19), "tarde", info.version)


def test_a_fiscal_cannot_judge(db, people, auto):
    fiscal, _, atendente = people
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    info = process.file_defense(db, atendente, auto.id, date(2026, 3, 10), "defesa", info.version)
    for actor in (fiscal, atendente):
        with pytest.raises(PermissionDenied):
            process.judge(db, actor, auto.id, judgment("annulled", date(2026, 3, 20)), info.version)
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).status is AutoStatus.IN_DEFENSE


def test_a_stale_save_is_refused(db, people, auto):
    fiscal, _, atendente = people
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    with pytest.raises(StaleRecordError):
        process.file_defense(db, atendente, auto.id, date(2026, 3, 10), "defesa", auto.version)  # old copy
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).version == info.version


def test_art22_judging_without_defense_waits_for_the_term(db, people, auto):
    fiscal, gestor, _ = people
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    with pytest.raises(ValidationError, match="ainda corre"):
        process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 3, 10)), info.version)
    with pytest.raises(ValidationError):
        process.finalize(db, gestor, auto.id, date(2026, 3, 18), info.version)
    info = process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 3, 19)), info.version)
    assert info.status is AutoStatus.JUDGED


def test_art25_partly_upheld_requalifies_to_another_code_whose_amount_applies(db, people, auto):
    """Issue 12 item 1 (the first wave took any smaller figure): "mantido em parte" requalifies ART26-IV (grave,
    30 UPFM) to ART26-III (média, 20 UPFM, Art. 25 II); the difference is a requalification entry naming the new
    code; the auto keeps its original code in its history and shows the code in force."""
    fiscal, gestor, atendente = people
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    info = process.file_defense(db, atendente, auto.id, date(2026, 3, 10), "primeira vez", info.version)
    with pytest.raises(TypeError):  # no free amount any more
        judgment("partly_upheld", date(2026, 3, 20), reduced_upfm=Decimal(20))
    with pytest.raises(ValidationError, match="aumentaria a multa") as refused:  # 40 UPFM > 30: never worse
        process.judge(db, gestor, auto.id, judgment("partly_upheld", date(2026, 3, 20), requalified_code="ART26-V"),
                      info.version)
    assert refused.value.problems[0].field == "requalified_code"
    with pytest.raises(ValidationError, match="código diferente"):
        process.judge(db, gestor, auto.id, judgment("partly_upheld", date(2026, 3, 20),
                                                    requalified_code="ART26-IV"), info.version)
    with pytest.raises(ValidationError, match="só cabe na decisão"):
        process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 3, 20), requalified_code="ART26-III"),
                      info.version)
    with pytest.raises(ValidationError, match="requalifique"):  # nothing partial in it
        process.judge(db, gestor, auto.id, judgment("partly_upheld", date(2026, 3, 20)), info.version)
    with pytest.raises(ValidationError) as no_item:  # issue 24 item 7: Art. 26, III names the inciso of Art. 13
        process.judge(db, gestor, auto.id, judgment("partly_upheld", date(2026, 3, 20), reasoning="Atenuante",
                                                    requalified_code="art26-iii"), info.version)
    assert no_item.value.problems[0].field == "art13_item" and "Art. 13" in no_item.value.problems[0].article
    info = process.judge(db, gestor, auto.id, judgment("partly_upheld", date(2026, 3, 20),
                                                       reasoning="Atenuante reconhecida",
                                                       requalified_code="art26-iii", art13_item="xii"), info.version)
    assert info.status is AutoStatus.JUDGED and info.amount_upfm == Decimal(20)
    assert (info.code, info.original_code, info.article) == ("ART26-III", "ART26-IV", "Art. 26, III")
    assert info.requalified and info.severity.value == "media"
    assert info.amount_reais == Decimal("62.51") and info.balance_upfm == Decimal(20)
    detail = autos.get_auto(db, SYSTEM_ACTOR, auto.id)
    debit, requalification = detail.entries
    assert requalification.kind is EntryKind.REQUALIFICATION and requalification.amount_upfm == Decimal(-10)
    assert debit.amount_reais + requalification.amount_reais == Decimal("62.51")
    assert "ART26-III" in requalification.reason and "Atenuante reconhecida" in requalification.reason
    assert detail.judgments[-1].requalified_code == "ART26-III"
    assert detail.judgments[-1].reduced_upfm == Decimal(20)


def test_art22_defense_upheld_annuls_the_auto_and_reverses_the_fine(db, people, auto):
    fiscal, gestor, atendente = people
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    info = process.file_defense(db, atendente, auto.id, date(2026, 3, 10), "viagem pelo aplicativo", info.version)
    info = process.judge(db, gestor, auto.id, judgment("annulled", date(2026, 3, 20),
                                                       reasoning="Viagem comprovada pelo aplicativo"), info.version)
    assert info.status is AutoStatus.ANNULLED and info.balance_upfm == 0
    entries = autos.get_auto(db, SYSTEM_ACTOR, auto.id).entries
    assert [e.kind for e in entries] == [EntryKind.DEBIT, EntryKind.REVERSAL]
    assert entries[1].reverses_id == entries[0].id and entries[1].effective_on == date(2026, 3, 20)


def test_art22_appeal_judged_makes_the_decision_final_that_day(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, auth_id = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-VI", date(2026, 3, 2), driver_id=driver_id))
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    info = process.file_defense(db, atendente, auto.id, date(2026, 3, 10), "defesa", info.version)
    info = process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 3, 20)), info.version)
    info = notify_decision(db, fiscal, info, date(2026, 3, 20))
    with pytest.raises(ValidationError, match="Fora do prazo"):
        process.file_appeal(db, atendente, auto.id, date(2026, 4, 7), "recurso", info.version)
    info = process.file_appeal(db, atendente, auto.id, date(2026, 4, 6), "recurso", info.version)
    assert info.status is AutoStatus.IN_APPEAL
    assert authorization_row(db, auth_id)[0] == "active"  # nothing takes effect before the decision is final
    info = process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 4, 20)), info.version)
    assert info.status is AutoStatus.FINAL and info.final_on == date(2026, 4, 20)
    assert info.payment_deadline == date(2026, 5, 20)  # term.payment_days (30) from the final date
    assert authorization_row(db, auth_id)[:2] == ("suspended", date(2027, 4, 19))  # Art. 24 §ún.: 12 months, the day before
    judgments = autos.get_auto(db, SYSTEM_ACTOR, auto.id).judgments
    assert [j.instance for j in judgments] == ["defense", "appeal"]


def test_art22_appeal_upheld_annuls(db, people, auto):
    fiscal, gestor, atendente = people
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    info = process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 3, 19)), info.version)
    info = process.file_appeal(db, atendente, auto.id, date(2026, 3, 30), "recurso", info.version)
    info = process.judge(db, gestor, auto.id, judgment("annulled", date(2026, 4, 10)), info.version)
    assert info.status is AutoStatus.ANNULLED
    assert ledger.balance(db, SYSTEM_ACTOR, info.infractor) == 0


def test_the_machine_refuses_steps_out_of_order(db, people, auto):
    fiscal, gestor, atendente = people
    with pytest.raises(TransitionRefused):
        process.file_defense(db, atendente, auto.id, date(2026, 3, 3), "cedo demais", auto.version)
    with pytest.raises(TransitionRefused):
        process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 3, 3)), auto.version)
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    with pytest.raises(TransitionRefused):
        process.file_appeal(db, atendente, auto.id, date(2026, 3, 4), "sem julgamento", info.version)
    with pytest.raises(TransitionRefused):  # Art. 22: no annulment without a defense to grant
        process.judge(db, gestor, auto.id, judgment("annulled", date(2026, 3, 20)), info.version)


def test_art17_annulment_de_oficio_of_a_final_auto(db, people):
    from tests.db.enforcement_factories import final_without_defense

    fiscal, gestor, _ = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    info = final_without_defense(db, fiscal, auto, date(2026, 3, 3))
    with pytest.raises(PermissionDenied):
        process.annul_auto(db, fiscal, auto.id, "erro", info.version)
    info = process.annul_auto(db, gestor, auto.id, "Notificação enviada a endereço errado", info.version,
                              on=date(2026, 5, 4))
    assert info.status is AutoStatus.ANNULLED and ledger.balance(db, SYSTEM_ACTOR, Infractor.driver(driver_id)) == 0
    assert autos.get_auto(db, SYSTEM_ACTOR, auto.id).judgments[-1].instance_label == "De ofício"


def test_art25_the_fine_shown_is_derived_from_the_ledger_not_overwritten_on_the_auto(db, people, auto):
    """Issue 12 item 4: a requalification is a ledger entry; the auto row keeps what was drawn up, and every amount
    the services show (the auto, the list) is the debit plus its requalifications. The requalification follows the
    decision: it is not reversed by itself (only a new decision or the annulment changes it)."""
    from desktop.errors import ConflictError
    from desktop.models import Auto

    fiscal, gestor, atendente = people
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    info = process.file_defense(db, atendente, auto.id, date(2026, 3, 10), "primeira vez", info.version)
    info = process.judge(db, gestor, auto.id, judgment("partly_upheld", date(2026, 3, 20),
                                                       requalified_code="ART26-III", art13_item="XII"), info.version)
    with db.session(write=False) as s:
        row = s.get(Auto, auto.id)
        assert (row.amount_upfm, row.amount_reais, row.code) == (Decimal(30), Decimal("93.76"), "ART26-IV")
    assert (info.amount_upfm, info.amount_reais) == (Decimal(20), Decimal("62.51"))
    listed = autos.list_autos(db, SYSTEM_ACTOR, autos.AutoFilter(driver_id=info.driver_id)).items[0]
    assert (listed.amount_upfm, listed.amount_reais) == (Decimal(20), Decimal("62.51"))
    assert listed.code == "ART26-III"
    requalification = autos.get_auto(db, SYSTEM_ACTOR, auto.id).entries[1]
    with pytest.raises(ConflictError, match="decisão"):
        ledger.reverse_entry(db, gestor, requalification.id, "Lançada por engano")
    again = autos.get_auto_info(db, SYSTEM_ACTOR, auto.id)
    assert (again.amount_upfm, again.amount_reais) == (Decimal(20), Decimal("62.51"))
