"""What can be done now to an authorization, as data (STYLE: Tryton — the table that refuses a step also draws its
button).

Two kinds of step share one table:
- the status moves of AUTHORIZATION_MACHINE that a user starts (analysis, approval, refusal, suspension, revocation,
  cassation): allowed from the sources the machine lists, with the machine's article;
- the steps that are not a status move, each with the statuses and roles that allow it, its article and its
  condition over the record's facts: waive the inspection (Art. 9, §1), record the inspection's result (Art. 9;
  Art. 16, §2), record the fee payment (Art. 10; Art. 15, VII; Art. 3, §2), request the renewal (Art. 3, §2),
  substitute the vehicle (Art. 8, §2), deregister the driver or the vehicle (Art. 24, I, d and f) and print the
  documents of a number in force (Art. 13, I; Art. 14).

Services check a step with `authorization_refusal()` before acting and return `authorization_actions()` with every
info; screens draw their buttons from those actions.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from desktop.domain.steps import Action, Step, available_actions, refusal
from desktop.domain.formatting import format_date
from desktop.domain.roles import Role
from desktop.domain.workflow import AUTHORIZATION_MACHINE, AuthorizationStatus as S

__all__ = [
    "AuthorizationFacts", "AUTHORIZATION_STEPS", "AUTHORIZATION_STEPS_BY_KEY", "MOVE_TARGETS",
    "PRE_ACTIVATION", "RENEWABLE", "authorization_actions", "authorization_refusal", "authorization_step",
    "authorization_status_label", "is_renewal_fee",
]

DESK = frozenset({Role.ATENDENTE, Role.GESTOR})
GESTOR = frozenset({Role.GESTOR})
VISTORIADOR = frozenset({Role.VISTORIADOR})

# Before activation the fee completes the request (Art. 10); afterwards a fee is the renewal's (Art. 3, §2).
PRE_ACTIVATION = frozenset({S.REQUESTED, S.IN_ANALYSIS, S.APPROVED})
# A renewal is asked for while the authorization is in force, impeded or suspended (Art. 3, §2).
RENEWABLE = frozenset({S.ACTIVE, S.IMPEDED, S.SUSPENDED})
# The renewal's fee may still arrive after the validity ended (Art. 3, §§1-2).
RENEWAL_FEE = RENEWABLE | {S.EXPIRED}
# Statuses that hold the driver and the vehicle (the same list as `desktop.models.LIVE_AUTHORIZATION_STATUSES`).
LIVE = frozenset({S.REQUESTED, S.IN_ANALYSIS, S.APPROVED, S.ACTIVE, S.IMPEDED, S.SUSPENDED})
# The term, the sticker and the credential are printed for a number in force (Art. 13, I; Art. 14).
PRINTABLE = frozenset({S.ACTIVE, S.IMPEDED, S.SUSPENDED})


@dataclass(frozen=True, slots=True)
class AuthorizationFacts:
    """What the conditions of the steps read from one authorization."""

    status: str
    fee_paid_on: date | None = None
    inspection_approved_on: date | None = None
    inspection_waived_on: date | None = None
    renewal_requested_on: date | None = None
    valid_until: date | None = None
    number: str | None = None


def is_renewal_fee(status: str) -> bool:
    """A fee paid after activation is the renewal's (Art. 3, §2); before it, the authorization's (Art. 10)."""
    return S(status) not in PRE_ACTIVATION


def _inspection_open(f: AuthorizationFacts) -> str | None:
    """Art. 9, §1: only one of the two — an approved inspection or its waiver."""
    if f.inspection_approved_on:
        return f"a vistoria já foi aprovada em {format_date(f.inspection_approved_on)}"
    if f.inspection_waived_on:
        return f"a vistoria já foi dispensada em {format_date(f.inspection_waived_on)}"
    return None


def _inspection_due(f: AuthorizationFacts) -> str | None:
    """Art. 9: an approved request's initial inspection, once (or its waiver, Art. 9 §1); an active authorization's
    annual inspection and an impeded one's re-inspection (Art. 16, §2) are always open."""
    if S(f.status) is S.APPROVED:
        return _inspection_open(f)
    return None


def _fee_due(f: AuthorizationFacts) -> str | None:
    """Art. 10 and Art. 15, VII: one fee before activation; Art. 3, §2: afterwards, only a requested renewal's."""
    if S(f.status) in PRE_ACTIVATION:
        return f"a taxa já foi paga em {format_date(f.fee_paid_on)}" if f.fee_paid_on else None
    if f.renewal_requested_on is None:
        return "registre antes o pedido de renovação: esta autorização já tem a taxa paga"
    return None


def _renewal_open(f: AuthorizationFacts) -> str | None:
    """Art. 3, §2: one renewal request per validity, for an authorization that has one."""
    if f.valid_until is None:
        return "a autorização não tem validade a renovar"
    if f.renewal_requested_on is not None:
        return f"a renovação já foi solicitada em {format_date(f.renewal_requested_on)}"
    return None


def _numbered(f: AuthorizationFacts) -> str | None:
    return None if f.number else "a autorização ainda não tem número"


# The status moves a user starts: key → (label, target, roles, group).
MOVE_TARGETS: dict[str, tuple[str, S, frozenset[Role], int]] = {
    "analysis": ("Iniciar análise", S.IN_ANALYSIS, DESK, 0),
    "approve": ("Aprovar…", S.APPROVED, GESTOR, 0),
    "refuse": ("Indeferir…", S.REFUSED, GESTOR, 0),
    "suspend": ("Suspender…", S.SUSPENDED, GESTOR, 1),
    "revoke": ("Revogar…", S.REVOKED, GESTOR, 1),
    "cassate": ("Cassar…", S.CASSADA, GESTOR, 1),
}


def _move_step(key: str) -> Step:
    label, target, roles, group = MOVE_TARGETS[key]
    moves = [t for t in AUTHORIZATION_MACHINE.transitions if t.target == target]
    articles = "; ".join(dict.fromkeys(t.article for t in moves if t.article))
    return Step(key, label, articles, frozenset(t.source for t in moves), roles, None, group)


AUTHORIZATION_STEPS: tuple[Step, ...] = (
    _move_step("analysis"),
    _move_step("approve"),
    _move_step("refuse"),
    Step("waive", "Dispensar vistoria…", "Art. 9, §1", frozenset({S.IN_ANALYSIS, S.APPROVED}), GESTOR,
         _inspection_open),
    Step("inspection", "Resultado da vistoria…", "Art. 9; Art. 16, §2",
         frozenset({S.APPROVED, S.ACTIVE, S.IMPEDED}), VISTORIADOR, _inspection_due),
    Step("fee", "Registrar pagamento da taxa…", "Art. 10; Art. 15, VII; Art. 3, §2",
         PRE_ACTIVATION | RENEWAL_FEE, DESK, _fee_due),
    Step("renewal", "Solicitar renovação…", "Art. 3, §2", RENEWABLE, DESK, _renewal_open, group=1),
    Step("substitute", "Substituir veículo…", "Art. 8, §2", frozenset({S.APPROVED, S.ACTIVE, S.IMPEDED}), DESK,
         group=1),
    _move_step("suspend"),
    _move_step("revoke"),
    _move_step("cassate"),
    Step("deregister_driver", "Descadastrar condutor…", "Art. 24, I, d", LIVE, GESTOR, group=1),
    Step("deregister_vehicle", "Descadastrar veículo…", "Art. 24, I, f", LIVE, GESTOR, group=1),
    Step("print", "Imprimir", "Art. 13, I; Art. 14", PRINTABLE, DESK, _numbered),
)
AUTHORIZATION_STEPS_BY_KEY = {step.key: step for step in AUTHORIZATION_STEPS}


def authorization_step(key: str) -> Step:
    return AUTHORIZATION_STEPS_BY_KEY[key]


def authorization_status_label(value: str) -> str:
    return S(value).label if value else ""


def _article_now(step: Step, status: str) -> Step:
    """A status move names the article of the transition from the current status (the machine's own)."""
    if step.key not in MOVE_TARGETS:
        return step
    found = AUTHORIZATION_MACHINE.find(status, MOVE_TARGETS[step.key][1])
    if found is None or not found.article:
        return step
    return Step(step.key, step.label, found.article, step.statuses, step.roles, step.condition, step.group)


def authorization_refusal(key: str, facts: AuthorizationFacts, roles: Iterable[Role]) -> str | None:
    """Why the step `key` cannot be done now on this authorization by these roles (None: it can)."""
    step = _article_now(authorization_step(key), facts.status)
    return refusal(step, facts.status, roles, facts, authorization_status_label)


def authorization_actions(facts: AuthorizationFacts, roles: Iterable[Role]) -> tuple[Action, ...]:
    """Every step of the table as an `Action` for this authorization and these roles."""
    steps = [_article_now(step, facts.status) for step in AUTHORIZATION_STEPS]
    return available_actions(steps, facts.status, roles, facts, authorization_status_label)
