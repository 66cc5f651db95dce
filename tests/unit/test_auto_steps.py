"""desktop.domain.auto_steps: the auto's steps as a table of statuses × roles × terms, each with its article
(issue 10 item 4). The services refuse what this table refuses (tests/db/test_autos.py, test_process.py)."""
from __future__ import annotations

from datetime import date

import pytest

from desktop.domain.steps import find_action
from desktop.domain.auto_steps import (
    AUTO_STEP_KEYS,
    AUTO_STEPS,
    PAYABLE_STATUSES,
    AutoFacts,
    auto_actions,
    auto_refusal,
    auto_step,
)
from desktop.domain.roles import Role
from desktop.domain.workflow import AUTO_MACHINE, AutoStatus as S, allowed

TODAY = date(2026, 3, 10)
LATER = date(2026, 3, 20)
EARLIER = date(2026, 3, 1)
A, F, G, V, ADM = Role.ATENDENTE, Role.FISCAL, Role.GESTOR, Role.VISTORIADOR, Role.ADMINISTRADOR


def facts(status, defense=None, appeal=None, pending=False, today=TODAY):
    return AutoFacts(S(status), today, defense, appeal, pending)


def enabled(f, roles=None):
    return [a.key for a in auto_actions(f, roles) if a.enabled]


def test_every_step_cites_its_article_and_lists_its_roles():
    assert AUTO_STEP_KEYS == ("notify", "join_proof", "notify_decision", "defense", "judge", "appeal",
                              "judge_appeal", "finalize", "waiver", "decide_penalties", "payment", "measure",
                              "divida_ativa", "cancel", "annul")
    for step in AUTO_STEPS:
        assert step.article.startswith("Art. "), step.key
        assert step.roles, step.key
        assert step.statuses <= {str(s) for s in S}, step.key


@pytest.mark.parametrize("step, target", [
    ("defense", S.IN_DEFENSE), ("appeal", S.IN_APPEAL), ("divida_ativa", S.DIVIDA_ATIVA),
    ("cancel", S.CANCELLED), ("waiver", S.FINAL),
])
def test_status_moving_steps_are_offered_exactly_where_the_machine_allows_the_move(step, target):
    # The moves out of `paid` are no step a user takes: a returned payment (a reversal) puts the debt back.
    expected = {str(s) for s in S if target in allowed(AUTO_MACHINE, s)} - {str(S.PAID)}
    assert set(auto_step(step).statuses) == expected


@pytest.mark.parametrize("deadline, today, inscribed, expected", [
    pytest.param(date(2026, 4, 30), date(2026, 4, 30), False, S.FINAL, id="art13-xxi-last-day-of-the-term"),
    pytest.param(date(2026, 4, 30), date(2026, 5, 1), False, S.OVERDUE, id="art13-xxi-term-passed"),
    pytest.param(date(2026, 4, 30), date(2026, 4, 1), True, S.DIVIDA_ATIVA, id="art13-xxi-inscription-stays"),
])
def test_art13_xxi_a_returned_payment_puts_the_auto_back_where_the_machine_had_it(deadline, today, inscribed,
                                                                                   expected):
    from desktop.domain.auto_steps import status_after_returned_payment

    target = status_after_returned_payment(deadline, today, inscribed)
    assert target is expected and target in allowed(AUTO_MACHINE, S.PAID)


def test_art13_xxi_payable_statuses_come_from_the_machine():
    # issue 12 item 3 (the first wave let a payment settle a notified or judged auto): only a final decision is
    # settled as paid; paying is not a waiver.
    assert PAYABLE_STATUSES == {S.FINAL, S.OVERDUE, S.DIVIDA_ATIVA}
    assert S.PAID not in allowed(AUTO_MACHINE, S.NOTIFIED) and S.PAID not in allowed(AUTO_MACHINE, S.JUDGED)


def test_issue12_item3_a_payment_is_taken_before_the_decision_is_final_without_moving_the_auto():
    assert set(auto_step("payment").statuses) == {str(s) for s in (
        S.NOTIFIED, S.IN_DEFENSE, S.JUDGED, S.IN_APPEAL, S.FINAL, S.OVERDUE, S.DIVIDA_ATIVA)}


@pytest.mark.parametrize("f, expected", [
    # Art. 22, §1-2: a drawn-up auto is notified; its proof can be joined once a notice waits for it.
    (facts(S.DRAWN_UP), ["notify", "measure", "cancel"]),
    (facts(S.DRAWN_UP, pending=True), ["notify", "join_proof", "measure", "cancel"]),
    # Art. 22, caput: inside the defense term the defense is received; after it, judgment or finality.
    # issue 12 item 3: the written waiver (desistência) until the decision is final; a payment is taken all along.
    (facts(S.NOTIFIED, defense=LATER), ["notify", "defense", "waiver", "payment", "measure", "cancel"]),
    (facts(S.NOTIFIED, defense=EARLIER), ["notify", "judge", "finalize", "waiver", "payment", "measure", "cancel"]),
    (facts(S.IN_DEFENSE, defense=EARLIER), ["judge", "waiver", "payment", "measure", "cancel"]),
    (facts(S.JUDGED, appeal=LATER), ["appeal", "waiver", "payment", "measure", "cancel"]),
    (facts(S.JUDGED, appeal=EARLIER), ["finalize", "waiver", "payment", "measure", "cancel"]),
    (facts(S.IN_APPEAL), ["judge_appeal", "waiver", "payment", "measure", "cancel"]),
    # Art. 13, XXI and Art. 17: a final auto is paid, or annulled de ofício; overdue goes to the dívida ativa.
    (facts(S.FINAL), ["payment", "measure", "annul"]),
    (facts(S.OVERDUE), ["payment", "measure", "divida_ativa", "annul"]),
    (facts(S.DIVIDA_ATIVA), ["payment", "measure"]),
    (facts(S.PAID), ["measure"]),
    (facts(S.CANCELLED), []),
    (facts(S.ANNULLED), []),
])
def test_art22_steps_open_by_status_and_term(f, expected):
    assert enabled(f) == expected


@pytest.mark.parametrize("roles, expected", [
    ({F}, ["notify", "defense", "waiver", "measure"]),
    ({A}, ["defense", "waiver", "payment"]),
    ({G}, ["notify", "defense", "waiver", "payment", "measure", "cancel"]),
    ({V}, []),
    ({ADM}, []),
    ({A, F}, ["notify", "defense", "waiver", "payment", "measure"]),
])
def test_art17_art22_roles_decide_who_does_each_step(roles, expected):
    assert enabled(facts(S.NOTIFIED, defense=LATER), roles) == expected


@pytest.mark.parametrize("key, f, roles, reason", [
    ("judge", facts(S.NOTIFIED, defense=LATER), {G}, "o prazo de defesa prévia corre até 20/03/2026"),
    ("defense", facts(S.NOTIFIED, defense=EARLIER), {A}, "o prazo de defesa terminou em 01/03/2026"),
    ("appeal", facts(S.JUDGED, appeal=EARLIER), {A}, "o prazo de recurso terminou em 01/03/2026"),
    ("finalize", facts(S.JUDGED, appeal=LATER), {G}, "o prazo de recurso corre até 20/03/2026"),
    ("join_proof", facts(S.NOTIFIED), {F}, "não há notificação aguardando a prova"),
    ("cancel", facts(S.FINAL), {G},
     "disponível quando a situação for Em defesa, Em recurso, Julgado, Lavrado ou Notificado "
     "(agora: Decisão definitiva)"),
    ("judge", facts(S.IN_DEFENSE), {F}, "exige o perfil Gestor"),
    ("payment", facts(S.FINAL), {F}, "exige o perfil Atendente ou Gestor"),
])
def test_a_refused_step_says_what_would_enable_it(key, f, roles, reason):
    assert auto_refusal(key, f, roles) == reason
    action = find_action(auto_actions(f, roles), key)
    assert not action.enabled and action.reason == reason
    assert "Indisponível: " + reason in action.tooltip and action.article in action.tooltip


def test_the_day_of_the_act_is_the_day_the_term_is_read():
    # Art. 22, §2: a defense protocoled on the last day is received even if it is entered later.
    assert auto_refusal("defense", facts(S.NOTIFIED, defense=TODAY, today=TODAY), {A}) is None
    assert auto_refusal("defense", facts(S.NOTIFIED, defense=TODAY, today=LATER), {A}) is not None


def test_unknown_step_is_an_error():
    with pytest.raises(ValueError):
        auto_step("fly")


# --- issue 24 item 3: Art. 22, §2 — "a partir da juntada nos autos"; SPEC §3: "The appeal term, like the defense
# term, runs from the joining of the proof that the *decision* was notified."
@pytest.mark.parametrize("status, to_notify, appeal, key, expected", [
    pytest.param(S.JUDGED, True, None, "notify_decision", None, id="art22-par1-a-judged-auto-notifies-its-decision"),
    pytest.param(S.JUDGED, False, LATER, "notify_decision", "não há decisão aguardando notificação",
                 id="art22-par1-a-decision-notified-once"),
    pytest.param(S.FINAL, True, None, "notify_decision", None, id="art22-par1-the-appeal-decision-is-notified-too"),
    pytest.param(S.JUDGED, True, None, "appeal", "o prazo de recurso ainda não começou (falta juntar a prova da "
                 "notificação da decisão)", id="art22-par2-no-appeal-term-before-the-joining"),
    pytest.param(S.JUDGED, True, None, "finalize", "a decisão ainda não foi notificada: o prazo de recurso corre da "
                 "juntada da prova (Art. 22, §2)", id="art22-par2-no-finality-before-the-joining"),
    pytest.param(S.JUDGED, False, LATER, "appeal", None, id="art22-par2-appeal-term-runs-from-the-joining"),
    pytest.param(S.JUDGED, False, EARLIER, "finalize", None, id="art22-final-after-the-term-from-the-joining"),
    pytest.param(S.IN_DEFENSE, True, None, "notify_decision", "(agora: Em defesa)", id="art22-no-decision-yet"),
])
def test_art22_par2_the_decision_is_notified_and_the_appeal_term_runs_from_the_joining(status, to_notify, appeal,
                                                                                       key, expected):
    f = AutoFacts(status, TODAY, None, appeal, False, decision_to_notify=to_notify)
    reason = auto_refusal(key, f, (G,))
    if expected is None:
        assert reason is None
    else:
        assert reason is not None and expected in reason


# --- issue 24 item 1: Art. 26, §2 "será cassada pela autoridade administrativa"; SPEC §3: "a penalty other than
# the fine (suspension, cassation, seizure) exists only through a decision of the authority (a gestor)".
@pytest.mark.parametrize("status, pending, roles, allowed_", [
    pytest.param(S.FINAL, True, (G,), True, id="art26-par2-the-gestor-decides-a-final-autos-penalties"),
    pytest.param(S.PAID, True, (G,), True, id="art26-par2-paid-is-final-too"),
    pytest.param(S.FINAL, True, (F,), False, id="art26-par2-a-fiscal-does-not-decide"),
    pytest.param(S.FINAL, True, (A,), False, id="art26-par2-an-atendente-does-not-decide"),
    pytest.param(S.FINAL, False, (G,), False, id="art26-par2-nothing-to-decide"),
    pytest.param(S.NOTIFIED, True, (G,), False, id="art22-not-final-yet-judge-instead"),
])
def test_art26_par2_penalties_only_by_the_authoritys_decision(status, pending, roles, allowed_):
    f = AutoFacts(status, TODAY, penalty_decision_pending=pending)
    assert (auto_refusal("decide_penalties", f, roles) is None) is allowed_
    assert ("decide_penalties" in enabled(f, roles)) is allowed_
    assert auto_step("decide_penalties").roles == frozenset({G})
