"""The administrative process as the law writes it (issue 24), on SQLite and PostgreSQL: penalties only by a
decision of the authority (Art. 26 §2; SPEC §3), the decision notified and its proof joined before the appeal term
runs (Art. 22 §2), recurrence only on priors final on the new infraction's date (SPEC §3, Recurrence)."""
from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from pypdf import PdfReader

from desktop.services.actors import SYSTEM_ACTOR
from desktop.domain.workflow import AutoStatus
from desktop.services import autos
from desktop.services.autos import process
from desktop.services.enforcement_jobs import run_enforcement_jobs
from tests.files import tiny_pdf
from tests.db.enforcement_factories import (
    authorization_row,
    authorized_driver,
    draft,
    frozen_today,  # noqa: F401 (autouse: pins today)
    judgment,
    notify,
    setup_upfm,
    staff,
)


@pytest.fixture
def people(db, make_actor):
    from desktop.models import MunicipalitySettings

    setup_upfm(db)
    with db.session() as s:   # what the printed acts head with
        s.add(MunicipalitySettings(id=1, name="Chapada dos Guimarães", uf="MT", ouvidoria_phone="(65) 3301-1234",
                                   secretariat="Secretaria Municipal de Finanças"))
    return staff(make_actor)


def text_of(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())


# --- item 5: recurrence decided on the new infraction's date --------------------------------------------------

def test_spec3_art26_par1_a_prior_still_in_defense_on_the_new_date_is_no_recurrence(db, people):
    """SPEC §3: "The prior counts only if its decision was already final on the new infraction's date"."""
    fiscal, gestor, atendente = people
    driver_id, _, auth_id = authorized_driver(db)
    prior = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    info = notify(db, fiscal, prior, date(2026, 3, 3))
    info = process.file_defense(db, atendente, prior.id, date(2026, 3, 10), "não embarquei ninguém", info.version)
    new = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 20), driver_id=driver_id))
    # the prior becomes final after the new fact: by waiver of its defense
    from desktop.services.autos.process import WaiverDraft
    from desktop.services.enforcement.core import Attachment
    process.record_waiver(db, atendente, prior.id, WaiverDraft(date(2026, 4, 2), "desisto", attachment=Attachment(
        "desistencia.pdf", tiny_pdf("Desistência"), "application/pdf", "waiver")), info.version)
    assert autos.get_auto_info(db, SYSTEM_ACTOR, prior.id).status in (AutoStatus.FINAL, AutoStatus.PAID)
    new = autos.get_auto_info(db, SYSTEM_ACTOR, new.id)
    assert new.recurrence is False and new.proposal.suspension_days == 0
    # the decision offers what the flag says: no 30-day suspension of Art. 26, §1
    assert [o.penalty for o in process.decision_choices(db, gestor, new.id)] == []
    # a third auto, drawn after the prior was final, is a recurrence with the suspension, flag and penalty agreeing
    third = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 4, 10), driver_id=driver_id))
    assert third.recurrence is True and third.proposal.suspension_days == 30
    assert [o.penalty for o in process.decision_choices(db, gestor, third.id)] == ["suspension"]
    assert authorization_row(db, auth_id)[0] == "active"


# --- items 1, 3 and 6: the authority decides, the decision is printed and notified ------------------------------

def test_art26_par2_art22_par2_a_final_auto_waits_for_the_gestors_numbered_decision_printed_and_notified(
        db, people):
    """Issue 24 item 1: two ART26-V autos final without defense — the routine cassated with by_user_id None. Now
    the routine lists them; the gestor's decision (número, data, fundamentação) suspends, then cassates; it is
    printed (each sentence from the case, item 6) and notified with its proof (item 3)."""
    from desktop.domain.penalties import NotificationForm
    from desktop.errors import PermissionDenied, TransitionRefused, ValidationError
    from desktop.models import AuthorizationEvent as Ev
    from desktop.services.documents import printing
    from desktop.services.autos.process import NotificationDraft, PenaltyDecisionDraft
    from sqlalchemy import select

    fiscal, gestor, atendente = people
    driver_id, _, auth_id = authorized_driver(db)
    first = autos.draw_up_auto(db, fiscal, draft("ART26-V", date(2026, 1, 5), driver_id=driver_id))
    info = notify(db, fiscal, first, date(2026, 1, 6))
    report = run_enforcement_jobs(db, info.defense_deadline + timedelta(days=1))
    assert report.finalized == (first.number,) and report.penalties_applied == 0
    assert report.awaiting_decision == (first.number,)
    assert authorization_row(db, auth_id)[0] == "active"
    info = autos.get_auto_info(db, SYSTEM_ACTOR, first.id)
    # the penalty notice of the final auto prints without a decision: the fine only, no appeal, no suspension
    text = text_of(printing.print_notice(db, gestor, "penalty", first.number).pdf)
    assert "tornou-se definitivo" in text and "não cabe recurso" in text
    assert "cabe recurso no prazo" not in text and "A suspensão" not in text
    with pytest.raises(PermissionDenied):
        process.decide_penalties(db, fiscal, info.id, PenaltyDecisionDraft(info.final_on, "x"), info.version)
    with pytest.raises(ValidationError) as err:
        process.decide_penalties(db, gestor, info.id, PenaltyDecisionDraft(info.final_on, " "), info.version)
    assert err.value.problems[0].field == "reasoning"
    decided = process.decide_penalties(db, gestor, info.id, PenaltyDecisionDraft(
        info.final_on + timedelta(days=1), "Agressão física comprovada por boletim de ocorrência."), info.version)
    suspended_on = info.final_on + timedelta(days=1)
    assert authorization_row(db, auth_id)[:2] == ("suspended", date(suspended_on.year + 1, suspended_on.month,
                                                                     suspended_on.day) - timedelta(days=1))
    with pytest.raises(TransitionRefused):   # decided once
        process.decide_penalties(db, gestor, info.id, PenaltyDecisionDraft(suspended_on, "de novo"), decided.version)
    [judgment] = autos.get_auto(db, SYSTEM_ACTOR, first.id).judgments
    assert (judgment.instance, judgment.number, judgment.decided_by_name) == ("penalty", "0001/2026", "Gestor Rui")
    text = text_of(printing.print_notice(db, gestor, "penalty", first.number).pdf)
    for expected in ("Decisão nº 0001/2026", "Gestor Rui", "Agressão física comprovada", "12 meses",
                     "Art. 26, V, b; Art. 24, parágrafo único"):
        assert expected in text, expected
    assert "Art. 26, §1" not in text and "cabe recurso no prazo" not in text
    # the decision is notified and its proof joined (Art. 22, §§1-2), by edital too
    assert "notify_decision" in {a.key for a in decided.actions if a.enabled}
    noticed = process.record_notification(db, fiscal, first.id, NotificationDraft(
        "driver", NotificationForm.NEWSPAPER,
        suspended_on, suspended_on + timedelta(days=2)), decided.version)
    assert "notify_decision" not in {a.key for a in noticed.actions if a.enabled}
    assert [n.judgment_id for n in autos.get_auto(db, SYSTEM_ACTOR, first.id).notifications][-1] == judgment.id

    second = autos.draw_up_auto(db, fiscal, draft("ART26-V", date(2026, 4, 6), driver_id=driver_id))
    assert second.recurrence and second.assessment.cassation
    info = notify(db, fiscal, second, date(2026, 4, 7))
    run_enforcement_jobs(db, info.defense_deadline + timedelta(days=1))
    assert authorization_row(db, auth_id)[0] == "suspended"          # the routine does not cassate
    info = autos.get_auto_info(db, SYSTEM_ACTOR, second.id)
    process.decide_penalties(db, gestor, info.id, PenaltyDecisionDraft(
        info.final_on, "Segunda agressão no período de 12 meses."), info.version)
    assert authorization_row(db, auth_id)[0] == "cassada"
    with db.session(write=False) as s:
        events = s.scalars(select(Ev).where(Ev.authorization_id == auth_id, Ev.auto_id.is_not(None))).all()
        assert {(e.kind, e.by_user_id, e.act_number) for e in events} == {
            ("suspension", gestor.user_id, "Decisão nº 0001/2026"),
            ("cassation", gestor.user_id, "Decisão nº 0002/2026")}


def test_art22_par2_the_appeal_term_runs_from_the_joining_of_the_decisions_notice(db, people):
    """Issue 24 item 3: judged 24/11/2026 gave an appeal deadline of 09/12/2026 from the decision's date. Now the
    decision notified by post (Art. 22, §1, V), its proof joined on 30/11/2026: the 15 days run from the joining."""
    from desktop.domain.penalties import NotificationForm
    from desktop.errors import ValidationError
    from desktop.services.autos.process import NotificationDraft

    fiscal, gestor, atendente = people
    driver_id, _, auth_id = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 10, 26), driver_id=driver_id))
    info = notify(db, fiscal, auto, date(2026, 10, 27))
    info = process.file_defense(db, atendente, auto.id, date(2026, 11, 5), "não houve embarque", info.version)
    info = process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 11, 24)), info.version)
    assert info.status is AutoStatus.JUDGED and info.appeal_deadline is None
    assert run_enforcement_jobs(db, date(2026, 12, 10)).finalized == ()   # no term runs before the joining
    with pytest.raises(ValidationError, match="ainda não foi notificada"):
        process.finalize(db, gestor, auto.id, date(2026, 11, 30), info.version)
    with pytest.raises(ValidationError, match="anterior à decisão"):
        process.record_notification(db, fiscal, auto.id, NotificationDraft(
            "driver", NotificationForm.POST, date(2026, 11, 23)), info.version)
    info = process.record_notification(db, fiscal, auto.id, NotificationDraft(
        "driver", NotificationForm.POST, date(2026, 11, 25)), info.version)
    assert info.appeal_deadline is None                                     # sent, proof not joined yet
    [pending] = [n for n in autos.get_auto(db, SYSTEM_ACTOR, auto.id).notifications if n.proof_joined_on is None]
    info = process.join_proof(db, fiscal, pending.id, date(2026, 11, 30), info.version)
    assert info.appeal_deadline == date(2026, 12, 15)                      # 30/11 + 15 days (Art. 22, §2)
    detail = autos.get_auto(db, SYSTEM_ACTOR, auto.id)
    assert any(n.judgment_id is not None and n.proof_joined_on == date(2026, 11, 30) for n in detail.notifications)
    assert run_enforcement_jobs(db, date(2026, 12, 15)).finalized == ()
    assert run_enforcement_jobs(db, date(2026, 12, 16)).finalized == (auto.number,)
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).final_on == date(2026, 12, 16)


# --- item 4: the platform's copy ----------------------------------------------------------------------------

def test_art22_caput_every_auto_against_a_driver_gets_a_copy_to_the_drivers_platforms(db, people):
    """Art. 22 caput: "expedição da notificação à plataforma tecnológica e ao condutor" — the driver's platforms
    get a copy of the notices, each recorded with its own proof; the copy does not start the driver's term."""
    from desktop.domain.penalties import NotificationForm
    from desktop.errors import ValidationError
    from desktop.models import DriverPlatform
    from desktop.services.documents import printing
    from desktop.services.autos.process import NotificationDraft
    from tests.db.enforcement_factories import make_platform

    fiscal, gestor, _ = people
    driver_id, _, _ = authorized_driver(db)
    ride, other, stranger = make_platform(db, "Rota Certa"), make_platform(db, "Vai Já"), make_platform(db, "Longe")
    with db.session() as s:
        s.add_all([DriverPlatform(driver_id=driver_id, platform_id=ride),
                   DriverPlatform(driver_id=driver_id, platform_id=other)])
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    assert [pid for pid, _ in auto.notice_platforms] == [ride, other]
    with pytest.raises(ValidationError) as err:   # two platforms: which one
        process.record_notification(db, fiscal, auto.id, NotificationDraft(
            "platform", NotificationForm.ELECTRONIC, date(2026, 3, 3)), auto.version)
    assert err.value.problems[0].field == "platform_id"
    with pytest.raises(ValidationError):          # not one the driver works for
        process.record_notification(db, fiscal, auto.id, NotificationDraft(
            "platform", NotificationForm.ELECTRONIC, date(2026, 3, 3), platform_id=stranger), auto.version)
    info = process.record_notification(db, fiscal, auto.id, NotificationDraft(
        "platform", NotificationForm.ELECTRONIC, date(2026, 3, 3), date(2026, 3, 3), platform_id=ride), auto.version)
    assert info.status is AutoStatus.DRAWN_UP and info.defense_deadline is None   # the copy starts no term
    info = notify(db, fiscal, info, date(2026, 3, 4))
    assert info.status is AutoStatus.NOTIFIED and info.notice_joined_on == date(2026, 3, 4)
    notices = autos.get_auto(db, SYSTEM_ACTOR, auto.id).notifications
    assert [(n.addressee, n.platform_id, n.proof_joined_on) for n in notices] == [
        ("platform", ride, date(2026, 3, 3)), ("driver", None, date(2026, 3, 4))]
    text = text_of(printing.print_notice(db, gestor, "autuacao", auto.number).pdf)
    assert "Rota Certa" in text and "Vai Já" in text and "Longe" not in text


def test_art22_par2_the_decisions_copy_to_the_drivers_platform_starts_no_appeal_term(db, people):
    """Art. 22 caput and §2 (issue 24 item 4; domain.notice_starts_term): the platform the driver works for gets a
    copy of the decision's notice too; joining its proof informs the platform and starts no appeal term of the
    driver's — only the driver's own notice does."""
    from desktop.domain.penalties import NotificationForm
    from desktop.models import DriverPlatform
    from desktop.services.autos.process import NotificationDraft
    from tests.db.enforcement_factories import make_platform

    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    ride = make_platform(db, "Rota Certa")
    with db.session() as s:
        s.add(DriverPlatform(driver_id=driver_id, platform_id=ride))
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 10, 26), driver_id=driver_id))
    info = notify(db, fiscal, auto, date(2026, 10, 27))
    info = process.file_defense(db, atendente, auto.id, date(2026, 11, 5), "não houve embarque", info.version)
    info = process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 11, 24)), info.version)
    info = process.record_notification(db, fiscal, auto.id, NotificationDraft(
        "platform", NotificationForm.ELECTRONIC, date(2026, 11, 25), date(2026, 11, 25)), info.version)
    assert info.status is AutoStatus.JUDGED and info.appeal_deadline is None     # the copy starts no term
    copy = [n for n in autos.get_auto(db, SYSTEM_ACTOR, auto.id).notifications if n.addressee == "platform"]
    assert [(n.platform_id, n.proof_joined_on, n.judgment_id is not None) for n in copy] == [
        (ride, date(2026, 11, 25), True)]                                         # recorded with its own proof
    info = notify(db, fiscal, info, date(2026, 11, 30))
    assert info.appeal_deadline == date(2026, 12, 15)                             # the driver's: 30/11 + 15


# --- issue 28 item 1: a notice that no longer applies is refused; an annulled auto prints ANULADO ------------------

def test_issue28_art22_autuacao_refused_after_the_decision_and_art17_annulled_auto_marked(db, people):
    from desktop.errors import ConflictError
    from desktop.services.documents import printing

    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    assert "NOTIFICAÇÃO DE AUTUAÇÃO" in text_of(printing.print_notice(db, gestor, "autuacao", auto.number).pdf)
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    info = process.file_defense(db, atendente, auto.id, date(2026, 3, 10), "defesa", info.version)
    info = process.judge(db, gestor, auto.id, judgment("annulled", date(2026, 3, 20),
                                                       reasoning="Convocação não recebida."), info.version)
    with pytest.raises(ConflictError, match="não se aplica mais"):
        printing.print_notice(db, gestor, "autuacao", auto.number)
    with pytest.raises(ConflictError, match="anulado"):
        printing.print_notice(db, gestor, "penalty", auto.number)
    text = text_of(printing.print_auto(db, gestor, auto.number).pdf)
    assert text.count("AUTO ANULADO em 20/03/2026") == 2 and "Convocação não recebida." in text  # both copies


def test_issue28_item1_an_auto_printed_before_its_judgment_reprints_as_its_archived_original(db, people):
    """An act, once issued, is the archived original: the auto printed at its lavratura and annulled later prints
    the same bytes (2ª via, then 3ª), stamped AUTO ANULADO — never today's state drawn over the facts."""
    from desktop.models import IssuedDocument
    from desktop.services.documents import archive, printing

    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    original = printing.print_auto(db, fiscal, auto.number)
    assert "NOTIFICADO" in text_of(original.pdf) and "ANULADO" not in text_of(original.pdf)
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    info = process.file_defense(db, atendente, auto.id, date(2026, 3, 10), "defesa", info.version)
    process.judge(db, gestor, auto.id, judgment("annulled", date(2026, 3, 20), reasoning="Convocação não recebida."),
                  info.version)
    second = printing.print_auto(db, gestor, auto.number)
    text = text_of(second.pdf)
    assert second.info.number == original.info.number and second.info.copies == 1
    assert "2ª VIA" in text and "AUTO ANULADO em 20/03/2026" in text and "extrato do processo" in text
    assert text_of(original.pdf).split("Via do processo")[-1][:200] in text     # the original's words, unchanged
    assert "3ª VIA" in text_of(printing.print_auto(db, gestor, auto.number).pdf)
    with db.session(write=False) as s:
        assert s.query(IssuedDocument).filter_by(kind="auto", record_id=auto.id).count() == 1
    assert archive.archived_bytes(db, gestor, original.info.number) == original.pdf


# --- issue 28 item 1: a notice's number is its own series, never the auto's shape ---------------------------------

def test_issue28_art22_notices_have_their_own_series_that_never_reads_as_an_auto_number(db, people):
    from desktop.models import IssuedDocument
    from desktop.services.documents import archive, printing
    from desktop.services.numbering import format_notice_number, parse_notice_number

    fiscal, gestor, _atendente = people
    driver_id, _, _ = authorized_driver(db)
    first = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    second = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 3), driver_id=driver_id))
    printing.print_auto(db, gestor, first.number)          # a document between the notices, not a notice
    one = printing.print_notice(db, gestor, "autuacao", first.number)
    two = printing.print_notice(db, gestor, "autuacao", second.number)
    text_one, text_two = text_of(one.pdf), text_of(two.pdf)
    assert "NOTIFICAÇÃO DE AUTUAÇÃO Nº NT-0001/2026" in text_one and f"Auto de infração nº {first.number}" in text_one
    assert "NOTIFICAÇÃO DE AUTUAÇÃO Nº NT-0002/2026" in text_two
    for text, auto in ((text_one, first), (text_two, second)):
        assert f"AUTUAÇÃO Nº {auto.number}" not in text and f"Documento nº {one.info.number}" in text_one
    # the footer keeps the archive's number; the notice's own number finds the same archived bytes
    assert archive.archived_bytes(db, gestor, "NT-0002/2026") == two.pdf == archive.archived_bytes(db, gestor, two.info.number)
    assert parse_notice_number("nt-0002/2026") == (2, 2026) and format_notice_number(2, 2026) == "NT-0002/2026"
    with db.session(write=False) as s:
        assert s.query(IssuedDocument).filter_by(kind="notice").count() == 2
    with pytest.raises(Exception, match="não encontrado"):
        archive.archived_bytes(db, gestor, "NT-0003/2026")


def test_issue28_a_notice_rendered_while_another_desk_archived_one_is_renumbered(db, people, monkeypatch):
    """The notice's number counts the notices archived; when another desk takes the document number first, the
    notice is built again — so two desks never print the same NT number."""
    from desktop.services.documents import archive, printing

    fiscal, gestor, _atendente = people
    driver_id, _, _ = authorized_driver(db)
    first = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    second = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 3), driver_id=driver_id))
    render, raced = archive.issue_rendered, []

    def racing(db_, actor, kind, build, render_, **kw):
        def render_then_race(ctx):
            data = render_(ctx)
            if not raced:            # the other desk archives its notice after this one was rendered
                raced.append(render(db_, actor, kind, lambda s, meta: build(s, meta), render_))
            return data
        return render(db_, actor, kind, build, render_then_race, **kw)

    monkeypatch.setattr(printing, "issue_rendered", racing)
    mine = printing.print_notice(db, gestor, "autuacao", second.number)
    other = raced[0]
    assert "Nº NT-0001/2026" in text_of(other.pdf)
    assert "Nº NT-0002/2026" in text_of(mine.pdf) and "Nº NT-0001/2026" not in text_of(mine.pdf)
    assert first.number != second.number

# --- item 9: the auto's year is the lavratura's (Art. 25) ------------------------------------------------------

def test_art25_the_printed_auto_says_both_dates_and_whose_upfm_it_uses(db, people):
    """SPEC §3 (Art. 25): "an auto's amount in reais uses the value of the year the auto was drawn up (lavrado)".
    A fact of 20/12/2025 drawn up on 05/01/2026 is auto 0001/2026 at the 2026 UPFM; both dates print."""
    from datetime import datetime

    from desktop.domain import clock
    from desktop.services.documents import printing

    fiscal, gestor, _ = people
    driver_id, _, _ = authorized_driver(db)
    with clock.frozen(datetime(2026, 1, 5, 9, 0)):
        auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2025, 12, 20), driver_id=driver_id))
    assert auto.number == "0001/2026"
    text = text_of(printing.print_auto(db, gestor, auto.number).pdf)
    assert "Data e hora da infração 20/12/2025 às 14:30" in text and "Lavrado em 05/01/2026 às 09:00" in text
    assert text.count("(UPFM de 2026, ano da lavratura — Art. 25)") == 2   # both copies (Art. 19)
