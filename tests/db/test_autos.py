"""Autos de infração (Art. 19, 22, 25, 26): drawing up, the proposal of `assess` from final priors, cancellation,
lists and the infractor's page — on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal

import pytest
from sqlalchemy import select

from desktop.domain import clock
from desktop.domain.ledger import EntryKind
from desktop.domain.roles import Role
from desktop.domain.workflow import AutoStatus
from desktop.errors import PermissionDenied, StaleRecordError, TransitionRefused, ValidationError
from desktop.services import autos, ledger
from desktop.services.autos import process
from desktop.services.autos import Attachment, AutoFilter
from desktop.services.ledger import Infractor
from tests.db.enforcement_factories import (
    UPFM_2025,
    UPFM_2026,
    authorized_driver,
    draft,
    final_without_defense,
    frozen_today,  # noqa: F401 (autouse: pins today)
    judgment,
    make_platform,
    notify,
    setup_upfm,
    staff,
)
from desktop.services.actors import SYSTEM_ACTOR


@pytest.fixture
def people(db, make_actor):
    setup_upfm(db)
    return staff(make_actor)


def test_art19_autos_take_the_next_number_of_the_year_and_post_the_fine_as_a_debit(db, people):
    fiscal, _, atendente = people
    driver_id, vehicle_id, auth_id = authorized_driver(db)
    first = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    second = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 5), driver_id=driver_id))
    with clock.frozen(datetime(2025, 9, 1, 16, 0)):  # drawn up in 2025 (Art. 25: the lavratura's year numbers it)
        old = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2025, 9, 1), driver_id=driver_id))
    assert (first.number, second.number, old.number) == ("0001/2026", "0002/2026", "0001/2025")
    assert first.status is AutoStatus.DRAWN_UP and first.agent_name == "Fiscal Ana Souza"
    # the authorization and vehicle of the driver are found by the service
    assert (first.authorization_id, first.vehicle_id) == (auth_id, vehicle_id)
    statement = ledger.statement(db, atendente, Infractor.driver(driver_id), until=date(2026, 3, 31))
    debits = [e for e in statement.entries if e.kind is EntryKind.DEBIT]
    assert [(e.auto_number, e.amount_upfm) for e in debits] == [
        ("0001/2025", Decimal(10)), ("0001/2026", Decimal(10)), ("0002/2026", Decimal(30))]
    assert statement.balance_upfm == Decimal(50)
    with db.session(write=False) as s:
        from desktop.models import AuditEntry

        actions = list(s.scalars(select(AuditEntry.action).where(AuditEntry.entity == "auto")))
    assert actions.count("auto.draw_up") == 3


def test_art25_amount_in_reais_uses_the_upfm_of_the_autos_year_rounded_half_up(db, people):
    fiscal, _, _ = people
    driver_id, _, _ = authorized_driver(db)
    view = autos.preview_assessment(db, SYSTEM_ACTOR, draft("ART26-III", date(2026, 3, 2), driver_id=driver_id))
    assert view.upfm == Decimal(20) and view.amount_reais == Decimal("62.51")  # 20 × 3,12525 = 62,505
    assert view.upfm_year == 2026
    with clock.frozen(datetime(2025, 10, 2, 15, 0)):  # drawn up on the day of the fact, in 2025
        info = autos.draw_up_auto(db, fiscal, draft("ART26-III", date(2025, 10, 2), driver_id=driver_id))
    assert info.upfm_value == UPFM_2025 and info.amount_reais == Decimal("108.00") and info.upfm_year == 2025
    assert info.art13_item == "VII"


def test_art25_an_auto_drawn_up_in_2026_for_a_fact_of_2025_is_numbered_and_valued_in_2026(db, people):
    """Issue 24 item 9; SPEC §3 (Art. 25): "an auto's amount in reais uses the value of the year the auto was drawn
    up (lavrado)" — and its number NNNN/AAAA is of that year. Both dates are stored and shown."""
    fiscal, _, atendente = people
    driver_id, _, _ = authorized_driver(db)
    with clock.frozen(datetime(2026, 1, 5, 9, 0)):
        info = autos.draw_up_auto(db, fiscal, draft("ART26-III", date(2025, 12, 20), driver_id=driver_id))
    assert info.number == "0001/2026" and info.upfm_year == 2026
    assert info.upfm_value == UPFM_2026 and info.amount_reais == Decimal("62.51")   # 20 × 3,12525 half-up
    assert info.drawn_up_at.date() == date(2025, 12, 20)
    assert info.lavrado_at == datetime(2026, 1, 5, 9, 0, tzinfo=clock.TIMEZONE)
    assert info.proposal is not None and info.proposal.upfm_year == 2026
    # the ledger's debit stays dated on the infraction's day (what the program did before; see the report)
    statement = ledger.statement(db, atendente, Infractor.driver(driver_id), until=date(2026, 3, 31))
    [debit] = [e for e in statement.entries if e.kind is EntryKind.DEBIT]
    assert debit.amount_upfm == Decimal(20) and debit.auto_number == "0001/2026"


def test_art25_a_fact_of_new_years_eve_drawn_up_after_midnight_in_cuiaba_is_of_the_new_year(db, people):
    fiscal, _, _ = people
    driver_id, _, _ = authorized_driver(db)
    fact = draft("ART26-I", date(2025, 12, 31), driver_id=driver_id, at=time(23, 30))
    with clock.frozen(datetime(2025, 12, 31, 23, 55)):
        before = autos.draw_up_auto(db, fiscal, fact)
    with clock.frozen(datetime(2026, 1, 1, 0, 10)):
        after = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2025, 12, 31), driver_id=driver_id,
                                                           at=time(23, 30)))
    assert (before.number, before.upfm_value) == ("0001/2025", UPFM_2025)
    assert (after.number, after.upfm_value) == ("0001/2026", UPFM_2026)


def test_art26_III_auto_records_the_broken_duty_of_art13(db, people):
    fiscal, _, _ = people
    driver_id, _, _ = authorized_driver(db)
    with pytest.raises(ValidationError) as err:
        autos.draw_up_auto(db, fiscal, draft("ART26-III", date(2026, 3, 2), driver_id=driver_id, art13_item=None))
    assert [p.field for p in err.value.problems] == ["art13_item"]
    with pytest.raises(ValidationError):
        autos.draw_up_auto(db, fiscal, draft("ART26-III", date(2026, 3, 2), driver_id=driver_id,
                                             art13_item="XXIV"))


def test_art22_the_form_shows_every_problem_at_once(db, people):
    problems = autos.draft_problems(db, SYSTEM_ACTOR, draft("ART99", date(2099, 1, 1), place=" ", description=""))
    fields = {p.field for p in problems}
    assert {"on", "place", "description", "driver_id", "code"} <= fields
    assert any(p.article == "Art. 20; Art. 22" for p in problems)


def test_recurrence_is_found_from_final_autos_only(db, people):
    """SPEC §3: a prior of the same code, with a final decision (not cancelled, annulled or still open), inside the
    window of 12 months."""
    fiscal, gestor, _ = people
    driver_id, _, _ = authorized_driver(db)

    def street_boarding(on):
        return autos.draw_up_auto(db, fiscal, draft("ART26-IV", on, driver_id=driver_id))

    open_prior = street_boarding(date(2026, 1, 5))
    cancelled = street_boarding(date(2026, 1, 6))
    autos.cancel_auto(db, gestor, cancelled.id, "Placa anotada errada", cancelled.version)
    annulled = notify(db, fiscal, street_boarding(date(2026, 1, 7)), date(2026, 1, 8))
    annulled = process.file_defense(db, people[2], annulled.id, date(2026, 1, 12), "Não era eu", annulled.version)
    annulled = process.judge(db, gestor, annulled.id, judgment("annulled", date(2026, 1, 20)), annulled.version)
    assert annulled.status is AutoStatus.ANNULLED

    later = draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id)
    view = autos.preview_assessment(db, SYSTEM_ACTOR, later)
    assert not view.recurrence and view.suspension_days == 0  # open, cancelled and annulled priors do not count

    final_without_defense(db, fiscal, open_prior, date(2026, 1, 9))
    view = autos.preview_assessment(db, SYSTEM_ACTOR, later)
    assert view.recurrence and view.recurrent_autos == (open_prior.number,)
    assert view.suspension_days == 30 and "Art. 26, §1" in view.articles  # Art. 26 §1
    # another code is no recurrence; outside the 12-month window neither
    assert not autos.preview_assessment(db, SYSTEM_ACTOR, draft("ART26-VI", date(2026, 3, 2), driver_id=driver_id)).recurrence
    drawn = autos.draw_up_auto(db, fiscal, later)
    assert drawn.recurrence and drawn.assessment.suspension_days == 30


def test_recurrence_window_is_the_dated_parameter(db, people):
    from tests.db.enforcement_factories import set_parameter

    fiscal, _, _ = people
    driver_id, _, _ = authorized_driver(db)
    prior = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2025, 8, 1), driver_id=driver_id))
    final_without_defense(db, fiscal, prior, date(2025, 8, 4))
    later = draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id)
    assert autos.preview_assessment(db, SYSTEM_ACTOR, later).recurrence
    set_parameter(db, "recurrence.window_months", date(2026, 1, 1), Decimal(6))
    view = autos.preview_assessment(db, SYSTEM_ACTOR, later)
    assert not view.recurrence and view.window_start == date(2025, 9, 2)


def test_art17_a_gestor_cancels_with_a_reason_and_the_fine_is_reversed(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    info = autos.draw_up_auto(db, fiscal, draft("ART26-VI", date(2026, 3, 2), driver_id=driver_id))
    with pytest.raises(PermissionDenied):
        autos.cancel_auto(db, fiscal, info.id, "erro", info.version)
    with pytest.raises(ValidationError):
        autos.cancel_auto(db, gestor, info.id, "  ", info.version)
    with pytest.raises(StaleRecordError):
        autos.cancel_auto(db, gestor, info.id, "erro", info.version - 1)
    cancelled = autos.cancel_auto(db, gestor, info.id, "Agente lavrou contra o condutor errado", info.version)
    assert cancelled.status is AutoStatus.CANCELLED and cancelled.balance_upfm == 0
    assert cancelled.cancel_reason == "Agente lavrou contra o condutor errado"
    detail = autos.get_auto(db, SYSTEM_ACTOR, info.id)
    debit, reversal = detail.entries
    assert debit.kind is EntryKind.DEBIT and reversal.kind is EntryKind.REVERSAL
    assert reversal.reverses_id == debit.id and reversal.amount_upfm == -debit.amount_upfm
    assert reversal.amount_reais == -debit.amount_reais
    assert ledger.balance(db, SYSTEM_ACTOR, Infractor.driver(driver_id)) == 0
    # cancelled is final in the machine: every step is offered disabled, saying why (domain.auto_steps)
    assert [a.key for a in detail.actions if a.enabled] == []
    assert all("Cancelado" in a.reason for a in detail.actions)
    with pytest.raises(TransitionRefused):
        autos.cancel_auto(db, gestor, info.id, "de novo", cancelled.version)


def test_a_final_auto_is_not_cancelled_but_annulled(db, people):
    fiscal, gestor, _ = people
    driver_id, _, _ = authorized_driver(db)
    info = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    info = final_without_defense(db, fiscal, info, date(2026, 3, 3))
    assert info.status is AutoStatus.FINAL
    with pytest.raises(TransitionRefused):
        autos.cancel_auto(db, gestor, info.id, "tarde demais", info.version)


def test_only_a_fiscal_draws_up_an_auto(db, people):
    _, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    for actor in (gestor, atendente):
        with pytest.raises(PermissionDenied):
            autos.draw_up_auto(db, actor, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))


def test_art22_platform_and_driver_both_named_the_driver_owes(db, people):
    fiscal, _, atendente = people
    driver_id, _, _ = authorized_driver(db)
    platform_id = make_platform(db, "Leva Já")
    both = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id,
                                                platform_id=platform_id))
    alone = autos.draw_up_auto(db, fiscal, draft("ART27", date(2026, 3, 3), platform_id=platform_id))
    assert both.infractor == Infractor.driver(driver_id) and alone.infractor == Infractor.platform(platform_id)
    assert ledger.balance(db, SYSTEM_ACTOR, Infractor.driver(driver_id)) == Decimal(30)
    assert ledger.balance(db, SYSTEM_ACTOR, Infractor.platform(platform_id)) == Decimal(40)
    page = autos.infractor_page(db, atendente, Infractor.platform(platform_id))
    assert {a.number for a in page.autos} == {both.number, alone.number}  # it is named in both
    assert page.balance_upfm == Decimal(40) and page.document.count(".") == 2 and "/" in page.document


def test_art19_evidence_files_are_kept_with_the_auto(db, people):
    fiscal, _, _ = people
    driver_id, _, _ = authorized_driver(db)
    from tests.files import tiny_jpeg, tiny_pdf

    photo = Attachment("foto-placa.jpg", tiny_jpeg(), "image/jpeg")
    info = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id,
                                                evidence=(photo,)))
    ref = autos.attach_to_auto(db, fiscal, info.id, Attachment("../../relatorio.pdf", tiny_pdf("Relatório")))
    evidence = autos.get_auto(db, SYSTEM_ACTOR, info.id).evidence
    assert [(e.filename, e.mime) for e in evidence] == [("foto-placa.jpg", "image/jpeg"),
                                                        ("relatorio.pdf", "application/pdf")]
    assert evidence[1].id == ref.id and evidence[0].size == len(photo.content)


@pytest.mark.parametrize("attachment, words", [
    (Attachment("video.mp4", b"\x00\x00\x00\x18ftypmp42", "video/mp4"), "Formato não aceito"),
    (Attachment("foto.jpg", b"\xff\xd8\xff jpeg bytes", "image/jpeg"), "não pôde ser lida"),
    (Attachment("prova.pdf", b"%PDF-1.4 falso"), "não abre como PDF"),
    (Attachment("grande.pdf", b"%PDF-1.7\n" + b"0" * (21 * 1024 * 1024)), "o máximo é 20 MB"),
])
def test_issue11_evidence_of_an_auto_goes_through_the_one_attachment_policy(db, people, attachment, words):
    """Art. 19 evidence is proof: `store_attachment` reads the type from the bytes; nothing is half-saved."""
    from desktop.models import Auto, Document

    fiscal, _, _ = people
    driver_id, _, _ = authorized_driver(db)
    info = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    with pytest.raises(ValidationError, match=words):
        autos.attach_to_auto(db, fiscal, info.id, attachment)
    with pytest.raises(ValidationError, match=words):
        autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 3), driver_id=driver_id,
                                             evidence=(attachment,)))
    with db.session(write=False) as s:
        assert s.query(Document).filter(Document.auto_id.is_not(None)).count() == 0
        assert s.query(Auto).count() == 1       # the auto with refused evidence was not drawn up half-way


def test_lists_of_autos_by_status_code_agent_infractor_period_and_pages(db, make_actor, people):
    fiscal, gestor, _ = people
    other_fiscal = make_actor(Role.FISCAL, full_name="Fiscal Bruno")
    d1, _, _ = authorized_driver(db, "Joaquim Brandão")
    d2, _, _ = authorized_driver(db, "Maria Aparecida")
    made = [
        autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 2, 2), driver_id=d1)),
        autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 2, 10), driver_id=d1)),
        autos.draw_up_auto(db, other_fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=d2)),
        autos.draw_up_auto(db, other_fiscal, draft("ART26-VI", date(2026, 3, 20), driver_id=d2)),
        autos.draw_up_auto(db, fiscal, draft("ART27", date(2026, 4, 1), driver_id=d2)),
    ]
    autos.cancel_auto(db, gestor, made[0].id, "erro de digitação", made[0].version)

    def numbers(**kw):
        return [a.number for a in autos.list_autos(db, SYSTEM_ACTOR, AutoFilter(**kw)).items]

    assert numbers() == [m.number for m in reversed(made)]  # newest first
    assert numbers(status=AutoStatus.CANCELLED) == [made[0].number]
    assert numbers(code="art26-iv") == [made[2].number, made[1].number]
    assert numbers(agent_id=other_fiscal.user_id) == [made[3].number, made[2].number]
    assert numbers(driver_id=d1) == [made[1].number, made[0].number]
    assert numbers(date_from=date(2026, 3, 1), date_to=date(2026, 3, 31)) == [made[3].number, made[2].number]
    assert numbers(text="joaq") == [made[1].number, made[0].number]  # name without accent or case
    assert numbers(text="0003/") == [made[2].number]
    assert autos.count_autos(db, SYSTEM_ACTOR, AutoFilter(driver_id=d2)) == 3
    page1 = autos.list_autos(db, SYSTEM_ACTOR, AutoFilter(), limit=2)
    page2 = autos.list_autos(db, SYSTEM_ACTOR, AutoFilter(), after=page1.next_cursor, limit=2)
    page3 = autos.list_autos(db, SYSTEM_ACTOR, AutoFilter(), after=page2.next_cursor, limit=2)
    seen = [a.number for p in (page1, page2, page3) for a in p.items]
    assert seen == [m.number for m in reversed(made)] and page3.next_cursor is None
    summary = page1.items[0]
    assert summary.infractor_name == "Maria Aparecida" and summary.plate.startswith("QBX")


def test_infractor_page_shows_autos_recurrences_and_balance(db, people):
    fiscal, _, atendente = people
    driver_id, _, _ = authorized_driver(db, "Paulo Recorrente")
    prior = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 1, 5), driver_id=driver_id))
    final_without_defense(db, fiscal, prior, date(2026, 1, 6))
    again = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    page = autos.infractor_page(db, atendente, Infractor.driver(driver_id))
    assert page.name == "Paulo Recorrente" and [a.number for a in page.autos] == [again.number, prior.number]
    assert [a.number for a in page.recurrences] == [again.number]
    assert page.balance_upfm == Decimal(60)


def test_allowed_actions_follow_the_machine_and_the_actors_roles(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    info = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    keys = {a.key for a in autos.allowed_actions(db, SYSTEM_ACTOR, info.id)}
    assert {"notify", "cancel", "measure"} <= keys and "judge" not in keys and "payment" not in keys
    assert {a.key for a in autos.allowed_actions(db, fiscal, info.id)} == {"notify", "measure"}
    assert {a.key for a in autos.allowed_actions(db, atendente, info.id)} == set()
    info = notify(db, fiscal, info, date(2026, 3, 3))
    # the defense term is over (today is after 18/03/2026): the gestor may judge or close the term
    assert {"judge", "finalize", "payment", "cancel"} <= {a.key for a in autos.allowed_actions(db, gestor, info.id)}
    assert "defense" not in {a.key for a in autos.allowed_actions(db, SYSTEM_ACTOR, info.id)}


def test_art25_without_the_upfm_value_of_the_year_the_form_says_so(db, make_actor):
    fiscal, _, _ = staff(make_actor)  # no UPFM value registered
    driver_id, _, _ = authorized_driver(db)
    with pytest.raises(ValidationError) as err:
        autos.preview_assessment(db, SYSTEM_ACTOR, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    [problem] = err.value.problems
    assert problem.field == "on" and "2026" in problem.message and problem.article == "Art. 25"
    with pytest.raises(ValidationError):
        autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    assert autos.count_autos(db, SYSTEM_ACTOR) == 0


def test_art26_par1_the_stored_proposal_of_a_recurrence_keeps_the_prior_autos_number(db, people):
    """Issue 12 item 10: the auto's page read its stored proposal back with the priors' dates only; the number of
    the earlier auto that made it a recurrence is kept beside the proposal and comes back with the auto."""
    fiscal, _, _ = people
    driver_id, _, _ = authorized_driver(db)
    prior = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 1, 5), driver_id=driver_id))
    final_without_defense(db, fiscal, prior, date(2026, 1, 9))
    again = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    proposal = autos.get_auto(db, SYSTEM_ACTOR, again.id).auto.proposal
    assert proposal.recurrence and proposal.recurrent_autos == (prior.number,)
    assert proposal.amount_reais == proposal.assessment.fine_in_reais(proposal.upfm_value)  # Art. 25, from the service
    assert autos.get_auto(db, SYSTEM_ACTOR, prior.id).auto.proposal.recurrent_autos == ()


def test_art26_par1_a_stored_proposal_without_numbers_finds_the_priors_by_code_and_day(db, people):
    """Rows stored before the numbers were kept (or loaded in bulk) find their priors' numbers by code and day."""
    from desktop.models import Auto

    fiscal, _, _ = people
    driver_id, _, _ = authorized_driver(db)
    prior = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 1, 5), driver_id=driver_id))
    final_without_defense(db, fiscal, prior, date(2026, 1, 9))
    again = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    with db.session() as s:
        row = s.get(Auto, again.id)
        row.assessment = {k: v for k, v in row.assessment.items() if k != "recurrent_autos"}
    assert autos.get_auto(db, SYSTEM_ACTOR, again.id).auto.proposal.recurrent_autos == (prior.number,)


@pytest.mark.parametrize("key", ["defense", "appeal", "judge", "judge_appeal", "finalize", "payment",
                                 "divida_ativa", "annul"])
def test_art22_a_drawn_up_auto_refuses_every_step_its_table_refuses(db, people, key):
    """The services check the same step table the buttons follow (domain.auto_steps): what the table disables on a
    drawn-up auto, the service refuses, whatever a screen shows."""
    from desktop.domain.steps import find_action

    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    info = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    action = find_action(autos.get_auto(db, gestor, info.id).actions, key)
    assert not action.enabled and "Lavrado" in action.reason
    on = date(2026, 3, 10)
    calls = {
        "defense": lambda: process.file_defense(db, atendente, info.id, on, "Defesa", info.version),
        "appeal": lambda: process.file_appeal(db, atendente, info.id, on, "Recurso", info.version),
        "judge": lambda: process.judge(db, gestor, info.id, judgment("upheld", on), info.version),
        "judge_appeal": lambda: process.judge(db, gestor, info.id, judgment("upheld", on), info.version),
        "finalize": lambda: process.finalize(db, gestor, info.id, on, info.version),
        "payment": lambda: ledger.record_payment(db, atendente, ledger.PaymentDraft(info.id, on, Decimal(10))),
        "divida_ativa": lambda: ledger.send_to_divida_ativa(db, gestor, [info.id], on),
        "annul": lambda: process.annul_auto(db, gestor, info.id, "Motivo", info.version),
    }
    with pytest.raises(TransitionRefused, match="Lavrado"):
        calls[key]()
    assert autos.get_auto_info(db, SYSTEM_ACTOR, info.id).status is AutoStatus.DRAWN_UP


def test_art17_the_roles_of_a_step_are_the_roles_its_service_requires(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    info = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    cancel = [a for a in autos.get_auto(db, fiscal, info.id).actions if a.key == "cancel"][0]
    assert not cancel.enabled and cancel.reason == "exige o perfil Gestor" and cancel.roles == {Role.GESTOR}
    with pytest.raises(PermissionDenied):
        autos.cancel_auto(db, fiscal, info.id, "Erro", info.version)
    assert autos.cancel_auto(db, gestor, info.id, "Erro", info.version).status is AutoStatus.CANCELLED
