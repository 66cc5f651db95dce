"""Fees (Art. 10) and payment guides (DAM) as state machines (STYLE: Tryton's workflow).

A fee of the Código Tributário Municipal is open until paid or cancelled; a DAM the same. Paid and cancelled are
final: a payment returned or a guide issued in error is a new record, never a status moved back. The statuses are
the values the `fees` and `payment_guides` tables accept (`models.finance.FEE_STATUSES`, `GUIDE_STATUSES`).
"""
from __future__ import annotations

from enum import StrEnum

from desktop.domain.workflow import StateMachine, Transition

__all__ = ["CHARGE_FILTER_LABELS", "FEE_MACHINE", "GUIDE_MACHINE", "ChargeStatus", "FeeStatus", "GuideStatus"]


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
