"""Fees (Art. 10) and payment guides (DAM) as state machines (STYLE: Tryton's workflow).

A fee of the Código Tributário Municipal is open until paid or cancelled; a DAM the same. Paid and cancelled are
final: a payment returned or a guide issued in error is a new record, never a status moved back. The statuses are
the values the `fees` and `payment_guides` tables accept (`models.finance.FEE_STATUSES`, `GUIDE_STATUSES`).
"""
from __future__ import annotations

from datetime import date
from enum import StrEnum

from desktop.domain.roles import Role
from desktop.domain.steps import Step
from desktop.domain.workflow import StateMachine, Transition

__all__ = ["CHARGE_FILTER_LABELS", "FEE_MACHINE", "GUIDE_MACHINE", "ISSQN_SHARE_MACHINE", "ISSQN_SHARE_STEPS",
           "UNRECONCILED_MACHINE", "UNRECONCILED_STEPS",
           "ChargeStatus", "FeeStatus", "GuideStatus", "IssqnShareStatus", "UnreconciledStatus", "share_facts"]


class ChargeStatus(StrEnum):
    """A charge of the office: a fee per vehicle (Art. 10; Art. 15, parágrafo único, VII: no activity without it
    paid) or a DAM, the municipal payment guide of a fee, a fine (Art. 13, XXI), the ISSQN (Art. 11) or costs
    (Art. 28). Both live the same three statuses."""

    OPEN = "open"
    PAID = "paid"
    CANCELLED = "cancelled"

    @property
    def label(self) -> str:
        return _CHARGE_LABELS[self]


_CHARGE_LABELS = {ChargeStatus.OPEN: "Em aberto", ChargeStatus.PAID: "Paga", ChargeStatus.CANCELLED: "Cancelada"}
FeeStatus = ChargeStatus
GuideStatus = ChargeStatus

FEE_MACHINE = StateMachine(
    name="fee", label="Taxa", states=FeeStatus, initial=FeeStatus.OPEN,
    transitions=(
        Transition(FeeStatus.OPEN, FeeStatus.PAID, "Registrar pagamento da taxa", "Art. 10"),
        Transition(FeeStatus.OPEN, FeeStatus.CANCELLED, "Cancelar taxa", "Art. 10"),
    ),
)
"""Fee statuses: open → paid | cancelled; both final."""

GUIDE_MACHINE = StateMachine(
    name="guide", label="Guia de pagamento (DAM)", states=GuideStatus, initial=GuideStatus.OPEN,
    transitions=(
        Transition(GuideStatus.OPEN, GuideStatus.PAID, "Registrar pagamento da guia", "Art. 10; Art. 13, XXI"),
        Transition(GuideStatus.OPEN, GuideStatus.CANCELLED, "Cancelar guia", "Art. 10; Art. 13, XXI"),
    ),
)
"""Payment guide statuses: open → paid | cancelled; both final."""

CHARGE_FILTER_LABELS = {"": "Todas", "open": "Em aberto", "overdue": "Vencidas", "paid": "Pagas",
                        "cancelled": "Canceladas"}
"""The filters of the lists of charges (guides, ISSQN shares) in their order: the statuses in the plural, and
"overdue" (open past the due date, a situation computed, never stored). One table for every list."""

class IssqnShareStatus(StrEnum):
    """The part of a vehicle's monthly ISSQN one platform (or the substitute driver) owes (Art. 11). Paid,
    overdue and "without guide" are not statuses of the share: they are read from the guide now covering it.
    A share on a guide is never edited: cancelled with the reason, an open copy takes its place (the guide
    reissued, cancelled or split for the substitute driver)."""

    OPEN = "open"
    CANCELLED = "cancelled"

    @property
    def label(self) -> str:
        return {IssqnShareStatus.OPEN: "Em vigor", IssqnShareStatus.CANCELLED: "Substituída"}[self]


ISSQN_SHARE_MACHINE = StateMachine(
    name="issqn_share", label="Cota do ISSQN", states=IssqnShareStatus, initial=IssqnShareStatus.OPEN,
    transitions=(
        Transition(IssqnShareStatus.OPEN, IssqnShareStatus.CANCELLED, "Substituir a cota (guia reemitida ou "
                   "cancelada, substituto tributário)", "Art. 11"),
    ),
)
"""ISSQN share statuses: open → cancelled (final; the open copy that replaces it is a new row)."""

_ISSQN_ISSUE = frozenset({Role.ATENDENTE, Role.GESTOR})    # as every other guide
_ISSQN_DECIDE = frozenset({Role.GESTOR})                   # cancel a guide, charge the substitute driver


def share_facts(guide_status: str | None, due_on: date | None, platform_share: bool, on: date,
                preview: bool = False) -> dict:
    """What the share's steps read: the status of the guide now covering it, whether that guide is overdue,
    whether the platform (not the substitute driver) owes it, and whether its month is still a prévia."""
    overdue = guide_status == "open" and due_on is not None and on > due_on   # domain.guides.guide_overdue
    return {"guide_status": guide_status, "overdue": overdue, "platform_share": platform_share, "preview": preview}


ISSQN_SHARE_STEPS: tuple[Step, ...] = (
    Step("issue_guide", "Emitir guia", "Art. 11", roles=_ISSQN_ISSUE,
         condition=lambda f: ("a competência ainda não terminou (prévia, sem guia)" if f.get("preview") else
                              None if f["guide_status"] is None else "a cota já está numa guia")),
    Step("cancel_guide", "Cancelar guia…", "Art. 11", roles=_ISSQN_DECIDE,
         condition=lambda f: None if f["guide_status"] == "open" else "não há guia em aberto"),
    Step("charge_driver", "Cobrar do condutor (substituto)…", "Art. 11 (condutor substituto tributário)",
         roles=_ISSQN_DECIDE,
         condition=lambda f: (None if f["platform_share"] and f["overdue"] else
                              "disponível quando a guia da plataforma estiver vencida" if f["platform_share"]
                              else "a cota já é cobrada do condutor")),
)
"""What a user does to an ISSQN share (the buttons of the ISSQN tab), Art. 11."""


class UnreconciledStatus(StrEnum):
    """A payment of the bank's return file that matched no open guide (issue 23 point 8): kept until a gestor
    assigns it to a debt's guide or returns it to the payer — the money received is never dropped."""

    OPEN = "open"
    ASSIGNED = "assigned"
    RETURNED = "returned"

    @property
    def label(self) -> str:
        return _UNRECONCILED_LABELS[self]


_UNRECONCILED_LABELS = {UnreconciledStatus.OPEN: "Não conciliado", UnreconciledStatus.ASSIGNED: "Atribuído a guia",
                        UnreconciledStatus.RETURNED: "Devolvido"}

UNRECONCILED_MACHINE = StateMachine(
    name="unreconciled_payment", label="Pagamento não conciliado", states=UnreconciledStatus,
    initial=UnreconciledStatus.OPEN,
    transitions=(
        Transition(UnreconciledStatus.OPEN, UnreconciledStatus.ASSIGNED, "Atribuir a uma guia",
                   "Art. 10; Art. 11; Art. 13, XXI"),
        Transition(UnreconciledStatus.OPEN, UnreconciledStatus.RETURNED, "Devolver ao pagador",
                   "Art. 10; Art. 11; Art. 13, XXI"),
    ),
)
"""Unreconciled payment statuses: open → assigned | returned; both final."""

_GESTOR = frozenset({Role.GESTOR})
UNRECONCILED_STEPS: tuple[Step, ...] = (
    Step("assign", UNRECONCILED_MACHINE.table[(UnreconciledStatus.OPEN, UnreconciledStatus.ASSIGNED)].action + "…",
         "Art. 10; Art. 11; Art. 13, XXI", frozenset({UnreconciledStatus.OPEN.value}), _GESTOR),
    Step("return", UNRECONCILED_MACHINE.table[(UnreconciledStatus.OPEN, UnreconciledStatus.RETURNED)].action + "…",
         "Art. 10; Art. 11; Art. 13, XXI", frozenset({UnreconciledStatus.OPEN.value}), _GESTOR),
)
"""What a gestor does to an unreconciled payment (the buttons of Financeiro → Pagamentos não conciliados)."""
