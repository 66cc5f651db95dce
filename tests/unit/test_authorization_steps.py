"""The table of what can be done to an authorization (desktop.domain.authorization_steps): statuses, roles and
conditions of every step, each naming its article (issue 10, item 4)."""
from __future__ import annotations

from datetime import date

import pytest

from desktop.domain.steps import find_action
from desktop.domain.authorization import SuspensionBasis, fee_in_reais, fee_parameter
from desktop.domain.authorization_steps import (
    AUTHORIZATION_STEPS,
    AuthorizationFacts,
    authorization_actions,
    authorization_refusal,
    is_renewal_fee,
)
from desktop.domain.roles import Role
from desktop.domain.workflow import AUTHORIZATION_MACHINE, AuthorizationStatus as S, allowed

ALL_ROLES = frozenset(Role)
DAY = date(2026, 3, 10)

# key → (statuses that allow it, roles that may do it, article it names)
TABLE = {
    "waive": ({S.IN_ANALYSIS, S.APPROVED}, {Role.GESTOR}, "Art. 9, §1"),
    "inspection": ({S.APPROVED, S.ACTIVE, S.IMPEDED}, {Role.VISTORIADOR}, "Art. 16, §2"),
    "fee": ({S.REQUESTED, S.IN_ANALYSIS, S.APPROVED, S.ACTIVE, S.IMPEDED, S.SUSPENDED, S.EXPIRED},
            {Role.ATENDENTE, Role.GESTOR}, "Art. 10"),
    "renewal": ({S.ACTIVE, S.IMPEDED, S.SUSPENDED}, {Role.ATENDENTE, Role.GESTOR}, "Art. 3, §2"),
    "substitute": ({S.APPROVED, S.ACTIVE, S.IMPEDED}, {Role.ATENDENTE, Role.GESTOR}, "Art. 8, §2"),
    "deregister_driver": ({S.REQUESTED, S.IN_ANALYSIS, S.APPROVED, S.ACTIVE, S.IMPEDED, S.SUSPENDED},
                          {Role.GESTOR}, "Art. 24, I, d"),
    "deregister_vehicle": ({S.REQUESTED, S.IN_ANALYSIS, S.APPROVED, S.ACTIVE, S.IMPEDED, S.SUSPENDED},
                           {Role.GESTOR}, "Art. 24, I, f"),
    "print": ({S.ACTIVE, S.IMPEDED, S.SUSPENDED}, {Role.ATENDENTE, Role.GESTOR}, "Art. 14"),
}


def _facts(status: S, **kw) -> AuthorizationFacts:
    """Facts under which every condition holds: only the status and the role decide."""
    base = dict(status=status.value, valid_until=date(2027, 3, 10), number="0001/2026")
    if status not in (S.REQUESTED, S.IN_ANALYSIS, S.APPROVED):
        base.update(fee_paid_on=date(2026, 3, 1), renewal_requested_on=DAY)
        if status in (S.ACTIVE, S.IMPEDED, S.SUSPENDED):
            base["renewal_requested_on"] = None
    base.update(kw)
    return AuthorizationFacts(**base)


@pytest.mark.parametrize("key", sorted(TABLE))
@pytest.mark.parametrize("status", list(S))
def test_each_step_is_allowed_in_its_statuses_only_and_names_its_article(key, status):
    statuses, _roles, article = TABLE[key]
    facts = _facts(status, renewal_requested_on=DAY) if key == "fee" and status not in (
        S.REQUESTED, S.IN_ANALYSIS, S.APPROVED) else _facts(status)
    action = find_action(authorization_actions(facts, ALL_ROLES), key)
    assert article in action.article
    if status in statuses:
        assert action.enabled, (key, status, action.reason)
    else:
        assert not action.enabled and "disponível quando a situação for" in action.reason
        assert status.label in action.reason            # "(agora: Requerida)"


@pytest.mark.parametrize("key", sorted(TABLE))
@pytest.mark.parametrize("role", list(Role))
def test_each_step_needs_its_roles(key, role):
    statuses, roles, _article = TABLE[key]
    status = sorted(statuses)[0]
    facts = _facts(status, renewal_requested_on=DAY) if key == "fee" and status not in (
        S.REQUESTED, S.IN_ANALYSIS, S.APPROVED) else _facts(status)
    reason = authorization_refusal(key, facts, {role})
    if role in roles:
        assert reason is None
    else:
        assert reason.startswith("exige o perfil")
        assert all(r.label in reason for r in roles)


@pytest.mark.parametrize("status", list(S))
def test_status_moves_follow_the_authorization_machine(status):
    """The buttons of a status move are enabled exactly when AUTHORIZATION_MACHINE allows the target (Art. 3,
    Art. 24); their article is the machine's transition from the current status."""
    targets = {"analysis": S.IN_ANALYSIS, "approve": S.APPROVED, "refuse": S.REFUSED, "suspend": S.SUSPENDED,
               "revoke": S.REVOKED, "cassate": S.CASSADA}
    actions = authorization_actions(_facts(status), ALL_ROLES)
    for key, target in targets.items():
        action = find_action(actions, key)
        assert action.enabled == (target in allowed(AUTHORIZATION_MACHINE, status)), (key, status)
        if action.enabled:
            assert action.article == AUTHORIZATION_MACHINE.find(status, target).article


@pytest.mark.parametrize("facts, key, reason", [
    # Art. 9, §1: the waiver is for an inspection still open.
    (AuthorizationFacts("approved", inspection_approved_on=DAY), "waive", "já foi aprovada em 10/03/2026"),
    (AuthorizationFacts("in_analysis", inspection_waived_on=DAY), "waive", "já foi dispensada em 10/03/2026"),
    # Art. 9: the initial inspection is recorded once; Art. 16, §2: an impeded one's re-inspection is open.
    (AuthorizationFacts("approved", inspection_waived_on=DAY), "inspection", "já foi dispensada"),
    (AuthorizationFacts("impeded", inspection_approved_on=DAY), "inspection", None),
    # Art. 10: one fee before activation; Art. 3, §2: afterwards only a requested renewal's.
    (AuthorizationFacts("approved", fee_paid_on=DAY), "fee", "a taxa já foi paga em 10/03/2026"),
    (AuthorizationFacts("active", fee_paid_on=DAY), "fee", "registre antes o pedido de renovação"),
    (AuthorizationFacts("expired", fee_paid_on=DAY, renewal_requested_on=DAY), "fee", None),
    # Art. 3, §2: one renewal request, for an authorization with a validity.
    (AuthorizationFacts("active", valid_until=DAY, renewal_requested_on=DAY), "renewal", "já foi solicitada"),
    (AuthorizationFacts("active", valid_until=None), "renewal", "não tem validade"),
    # Art. 13, I; Art. 14: documents of a numbered authorization.
    (AuthorizationFacts("active", number=None), "print", "ainda não tem número"),
])
def test_conditions_over_the_record_say_why(facts, key, reason):
    refused = authorization_refusal(key, facts, ALL_ROLES)
    if reason is None:
        assert refused is None
    else:
        assert reason in refused


def test_the_tooltip_names_the_article_and_what_would_enable_it():
    action = find_action(authorization_actions(AuthorizationFacts("requested"), {Role.ATENDENTE}), "waive")
    assert "Art. 9, §1" in action.tooltip and "Indisponível" in action.tooltip and "Aprovada" in action.tooltip
    action = find_action(authorization_actions(AuthorizationFacts("in_analysis"), {Role.ATENDENTE}), "approve")
    assert "exige o perfil Gestor" in action.tooltip


def test_every_step_names_an_article_and_keys_are_unique():
    assert all(step.article.startswith("Art.") for step in AUTHORIZATION_STEPS)
    assert len({step.key for step in AUTHORIZATION_STEPS}) == len(AUTHORIZATION_STEPS)


@pytest.mark.parametrize("status, renewal", [
    ("requested", False), ("in_analysis", False), ("approved", False),
    ("active", True), ("impeded", True), ("suspended", True), ("expired", True),
])
def test_art3_par2_art10_which_fee_is_due(status, renewal):
    assert is_renewal_fee(status) is renewal
    assert fee_parameter(renewal) == ("fee.renewal" if renewal else "fee.authorization")


def test_art10_fee_in_reais_is_upfm_times_its_value_to_the_cent():
    from decimal import Decimal

    assert fee_in_reais(Decimal("10"), Decimal("112.4567")) == Decimal("1124.57")


@pytest.mark.parametrize("basis, start, last, resumes", [
    # SPEC §3 (issue 24 item 2): 12 months end the day before the same date a year later; 30 days count the first
    (SuspensionBasis.ART24, date(2026, 1, 10), date(2027, 1, 9), date(2027, 1, 10)),
    (SuspensionBasis.ART26_PAR1, date(2026, 1, 10), date(2026, 2, 8), date(2026, 2, 9)),
])
def test_art24_sole_par_and_art26_par1_suspension_end_and_return(basis, start, last, resumes):
    assert basis.end(start) == last and basis.resumes_on(start) == resumes
