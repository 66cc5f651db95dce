"""The append-only ledger (SPEC §3, Art. 25, Art. 28): a balance is the sum of entries, never stored."""
from datetime import date
from decimal import Decimal

import pytest

from desktop.domain import EntryKind, LedgerEntry, balance, entry_problems, reversal_of

D = date
DEBIT = LedgerEntry(EntryKind.DEBIT, D(2026, 3, 1), Decimal("40"), id=1)
COSTS = LedgerEntry(EntryKind.COSTS, D(2026, 3, 2), Decimal("0"), id=2, reais=Decimal("180.00"))  # Art. 28: reais
PAYMENT = LedgerEntry(EntryKind.PAYMENT, D(2026, 4, 1), Decimal("-20"), id=3)


def test_spec3_balance_is_the_sum_of_entries():
    assert balance([]) == Decimal(0)
    assert balance([DEBIT, COSTS, PAYMENT]) == Decimal("20")
    assert balance([Decimal("1.25"), Decimal("-0.25")]) == Decimal("1.00")


def test_spec3_balance_at_any_date():
    assert balance([DEBIT, COSTS, PAYMENT], until=D(2026, 3, 31)) == Decimal("40")
    assert balance([DEBIT, COSTS, PAYMENT], until=D(2026, 2, 28)) == 0


def test_spec3_cancellation_posts_a_reversing_entry_pointing_at_its_origin():
    reversal = reversal_of(DEBIT, D(2026, 5, 1), "Auto cancelado: erro de digitação da placa")
    assert (reversal.kind, reversal.amount, reversal.origin) == (EntryKind.REVERSAL, Decimal("-40"), 1)
    assert entry_problems(reversal) == []
    assert balance([DEBIT, reversal]) == 0
    with pytest.raises(ValueError):
        reversal_of(LedgerEntry(EntryKind.DEBIT, D(2026, 3, 1), Decimal("40")), D(2026, 5, 1), "sem id")


@pytest.mark.parametrize("entry, field", [
    pytest.param(LedgerEntry(EntryKind.DEBIT, D(2026, 1, 1), Decimal("-40")), "amount", id="art25-debit-negative"),
    pytest.param(LedgerEntry(EntryKind.COSTS, D(2026, 1, 1), Decimal("0"), reais=Decimal("-1")), "amount_reais",
                 id="art28-costs-negative"),
    pytest.param(LedgerEntry(EntryKind.COSTS, D(2026, 1, 1), Decimal("5.5"), reais=Decimal("180")), "amount",
                 id="art28-costs-never-in-upfm"),
    pytest.param(LedgerEntry(EntryKind.PAYMENT, D(2026, 1, 1), Decimal("0"), reais=Decimal("10")), "amount",
                 id="costs-payment-positive"),
    pytest.param(LedgerEntry(EntryKind.PAYMENT, D(2026, 1, 1), Decimal("0")), "amount", id="payment-of-nothing"),
    pytest.param(LedgerEntry(EntryKind.PAYMENT, D(2026, 1, 1), Decimal("10")), "amount", id="payment-positive"),
    pytest.param(LedgerEntry(EntryKind.REDUCTION, D(2026, 1, 1), Decimal("-5")), "reason",
                 id="reduction-without-reason"),
    pytest.param(LedgerEntry(EntryKind.REVERSAL, D(2026, 1, 1), Decimal("-5"), "erro"), "origin",
                 id="reversal-without-origin"),
    pytest.param(LedgerEntry(EntryKind.DEBIT, D(2026, 1, 1), Decimal("0")), "amount", id="zero"),
    pytest.param(LedgerEntry(EntryKind.DEBIT, D(2026, 1, 1), 40.0), "amount", id="float"),
])
def test_spec3_entry_problems(entry, field):
    assert field in [p.field for p in entry_problems(entry)]


def test_spec3_good_entries_have_no_problems():
    costs_paid = LedgerEntry(EntryKind.PAYMENT, D(2026, 4, 2), Decimal("0"), reais=Decimal("-180.00"))
    costs_undone = reversal_of(COSTS, D(2026, 4, 3), "lançado em dobro")
    for entry in (DEBIT, COSTS, PAYMENT, LedgerEntry(EntryKind.REDUCTION, D(2026, 1, 1), Decimal("-10"), "decisão"),
                  costs_paid, costs_undone):
        assert entry_problems(entry) == []
    assert (costs_undone.amount, costs_undone.reais) == (Decimal("0"), Decimal("-180.00"))
    assert EntryKind.COSTS.label.startswith("Custas (Art. 28)")


# --- fees and payment guides as state machines (desktop.domain.finance; issue 10 item 4) --------------------

@pytest.mark.parametrize("machine_name", ["FEE_MACHINE", "GUIDE_MACHINE"])
@pytest.mark.parametrize("source, target, ok", [
    ("open", "paid", True), ("open", "cancelled", True), ("paid", "open", False), ("paid", "cancelled", False),
    ("cancelled", "open", False), ("cancelled", "paid", False),
])
def test_art10_fee_and_guide_open_to_paid_or_cancelled_only(machine_name, source, target, ok):
    from desktop.domain import finance
    from desktop.domain.workflow import TransitionNotAllowed, transition

    machine = getattr(finance, machine_name)
    if ok:
        assert transition(machine, source, target) == target
    else:
        with pytest.raises(TransitionNotAllowed, match="não é permitido"):
            transition(machine, source, target)
    assert machine.terminal == {"paid", "cancelled"}
    assert all(t.article.startswith("Art. 10") for t in machine.transitions)


def test_fee_and_guide_statuses_are_the_tables_values_with_portuguese_labels():
    from desktop.domain.finance import FeeStatus, GuideStatus
    from desktop.models.finance import FEE_STATUSES, GUIDE_STATUSES

    assert tuple(FeeStatus) == FEE_STATUSES and tuple(GuideStatus) == GUIDE_STATUSES
    assert [s.label for s in FeeStatus] == ["Em aberto", "Paga", "Cancelada"]
    assert GuideStatus.PAID.label == "Paga"
