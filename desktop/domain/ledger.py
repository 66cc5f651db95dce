"""The infractor's ledger: append-only entries, and a balance that is only ever computed (SPEC §3; STYLE:
Beancount/Tryton — posted entries are never edited; a cancellation posts a reversing entry pointing at its origin).

Amounts are in UPFM (Art. 25), signed: positive is owed by the infractor, negative is a credit. Reais are derived
with the UPFM value used for the debit (penalties.fine_in_reais / reais_to_upfm).

The Art. 28 costs (removal and storage of the vehicle) are reais spent, not a fine: a `costs` entry carries its
reais and **no UPFM** (amount 0, issue 23 point 6), so the balance in UPFM is the fine's alone; a payment carries
in UPFM only the part that settles the fine (a payment settles the fine first, then the costs), and a payment of
costs alone carries none.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum

from desktop.domain.problems import Problem


# Issue 23 point 6: the Art. 28 costs' own line on the guide, the statement, the dívida ativa and its certidão.
COSTS_LABEL = "Custas (Art. 28) — remoção e estada do veículo"


class EntryKind(StrEnum):
    DEBIT = "debit"            # the fine of an auto (Art. 25)
    COSTS = "costs"            # removal and storage of the vehicle (Art. 28)
    PAYMENT = "payment"        # a payment, converted at the UPFM value of the debit
    REDUCTION = "reduction"    # the fine reduced by a decision
    REVERSAL = "reversal"      # an entry undone (auto cancelled or annulled, payment returned), pointing at it
    REQUALIFICATION = "requalification"  # a partial decision: the fine of the new code (Art. 25) minus the old
    REFUND = "refund"          # what the municipality owes back: a payment above what is owed (issue 12 item 7)

    @property
    def label(self) -> str:
        return _ENTRY_LABELS[self]

    @property
    def sign(self) -> int:
        """+1 the entry must increase the debt, -1 decrease it, 0 either (a reversal takes the origin's opposite)."""
        return _ENTRY_SIGNS[self]


_ENTRY_LABELS = {
    EntryKind.DEBIT: "Multa (débito)",
    EntryKind.COSTS: COSTS_LABEL,
    EntryKind.PAYMENT: "Pagamento",
    EntryKind.REDUCTION: "Redução",
    EntryKind.REVERSAL: "Estorno",
    EntryKind.REQUALIFICATION: "Requalificação (Art. 25)",
    EntryKind.REFUND: "Restituição devida",
}
_ENTRY_SIGNS = {EntryKind.DEBIT: 1, EntryKind.COSTS: 1, EntryKind.PAYMENT: -1, EntryKind.REDUCTION: -1,
                EntryKind.REVERSAL: 0, EntryKind.REQUALIFICATION: -1, EntryKind.REFUND: 1}
# Kinds that may carry reais and no UPFM: what settles, returns or undoes the Art. 28 costs (issue 23 point 6).
_REAIS_ONLY_KINDS = frozenset({EntryKind.PAYMENT, EntryKind.REFUND, EntryKind.REVERSAL})
REASONED_KINDS = frozenset({EntryKind.REVERSAL, EntryKind.REDUCTION, EntryKind.REQUALIFICATION, EntryKind.REFUND})
"""Entries that must say why (a reversal, a reduction, a requalification naming the new code, a refund)."""


def refund_due(balance_upfm: Decimal, balance_reais: Decimal) -> tuple[Decimal, Decimal] | None:
    """A debt's balance below zero is never left as a credit (issue 12 item 7): the surplus paid is a `refund`
    entry of the opposite amount, what the municipality owes back. None when nothing is owed back."""
    if balance_reais < 0 or (balance_reais == 0 and balance_upfm < 0):
        return -balance_upfm, -balance_reais
    return None


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One posted entry. `amount` is signed UPFM; `origin` is the id of the entry a reversal undoes; `reais` the
    signed amount in reais, when known (the costs of Art. 28 are reais only)."""

    kind: EntryKind
    on: date
    amount: Decimal
    reason: str = ""
    origin: int | None = None
    id: int | None = None
    reais: Decimal | None = None


def entry_problems(entry: LedgerEntry) -> list[Problem]:
    """What is wrong with an entry before it is posted (sign by kind, a reason and origin for reversals)."""
    problems: list[Problem] = []
    if not isinstance(entry.amount, Decimal):
        problems.append(Problem("amount", "O valor deve ser decimal (Decimal)."))
        return problems
    reais = entry.reais
    if entry.kind is EntryKind.COSTS:   # Art. 28: reais spent, never converted at a UPFM (issue 23 point 6)
        if entry.amount != 0:
            problems.append(Problem("amount", "As custas (Art. 28) são lançadas em reais, sem conversão em UPFM.",
                                    "Art. 28"))
        if reais is None or reais <= 0:
            problems.append(Problem("amount_reais", "Informe o valor das custas (Art. 28), em reais, maior que zero.",
                                    "Art. 28"))
    elif entry.amount == 0 and entry.kind in _REAIS_ONLY_KINDS and reais is not None and reais != 0:
        # a payment of costs alone, the refund of what was paid for costs, a reversal of costs: reais only
        if entry.kind.sign and (reais > 0) != (entry.kind.sign > 0):
            direction = "positivo (débito)" if entry.kind.sign > 0 else "negativo (crédito)"
            problems.append(Problem("amount", f"Lançamento de {entry.kind.label.lower()} deve ser {direction}."))
    elif entry.amount == 0:
        problems.append(Problem("amount", "O valor do lançamento não pode ser zero."))
    elif entry.kind.sign and (entry.amount > 0) != (entry.kind.sign > 0):
        direction = "positivo (débito)" if entry.kind.sign > 0 else "negativo (crédito)"
        problems.append(Problem("amount", f"Lançamento de {entry.kind.label.lower()} deve ser {direction}."))
    if entry.kind in REASONED_KINDS and not entry.reason.strip():
        problems.append(Problem("reason", "Informe o motivo do estorno, da redução, da requalificação ou da "
                                          "restituição."))
    if entry.kind is EntryKind.REVERSAL and entry.origin is None:
        problems.append(Problem("origin", "O estorno deve indicar o lançamento que desfaz."))
    return problems


def reversal_of(entry: LedgerEntry, on: date, reason: str) -> LedgerEntry:
    """The entry that undoes `entry` (the same amount, opposite sign), pointing at it."""
    if entry.id is None:
        raise ValueError("só um lançamento já gravado (com id) pode ser estornado")
    return LedgerEntry(EntryKind.REVERSAL, on, -entry.amount, reason, origin=entry.id,
                       reais=None if entry.reais is None else -entry.reais)


def balance(entries: Iterable[LedgerEntry | Decimal], until: date | None = None) -> Decimal:
    """The sum of the entries (positive: the infractor owes), optionally only those dated on or before `until`
    (the statement "at any date", SPEC §3)."""
    total = Decimal(0)
    for entry in entries:
        if isinstance(entry, Decimal):
            total += entry
        elif until is None or entry.on <= until:
            total += entry.amount
    return total
