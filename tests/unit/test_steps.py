"""desktop.domain.steps: what can be done now, with the reason when it cannot (Issue 10 item 4)."""
from __future__ import annotations

import pytest

from desktop.domain.steps import Step, available_actions, find_action, is_enabled, refusal
from desktop.domain.roles import Role
from desktop.domain.workflow import AuthorizationStatus as S

FEE = Step("fee", "Registrar pagamento da taxa…", "Art. 10", frozenset({S.APPROVED, S.IN_ANALYSIS}),
           frozenset({Role.ATENDENTE, Role.GESTOR}),
           condition=lambda facts: "a taxa já foi paga" if facts.get("paid") else None)


@pytest.mark.parametrize("status, roles, facts, enabled, reason", [
    (S.APPROVED, {Role.ATENDENTE}, {}, True, ""),
    (S.ACTIVE, {Role.ATENDENTE}, {}, False, "disponível quando a situação for Aprovada ou Em análise (agora: Ativa)"),
    (S.APPROVED, {Role.FISCAL}, {}, False, "exige o perfil Atendente ou Gestor"),
    (S.APPROVED, {Role.GESTOR}, {"paid": True}, False, "a taxa já foi paga"),
])
def test_art10_fee_step_says_what_would_enable_it(status, roles, facts, enabled, reason):
    action = find_action(available_actions([FEE], status, roles, facts, label_of=lambda v: S(v).label), "fee")
    assert action.enabled is enabled
    assert action.reason == reason
    assert ("Indisponível" in action.tooltip) is (not enabled)
    assert "Art. 10" in action.tooltip


def test_refusal_is_what_services_check_before_acting():
    assert refusal(FEE, S.APPROVED, {Role.GESTOR}, {}) is None
    assert refusal(FEE, S.APPROVED, set(), {}) == "exige o perfil Atendente ou Gestor"


def test_blocked_reasons_from_the_database_disable_the_step():
    actions = available_actions([FEE], S.APPROVED, {Role.GESTOR}, {}, blocked={"fee": "há uma guia em aberto"})
    assert not is_enabled(actions, "fee")
    assert find_action(actions, "fee").reason == "há uma guia em aberto"
    assert find_action(actions, "other") is None
