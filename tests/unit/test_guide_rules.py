"""Payment guides (issue 13) as pure rules: when a fine's guide may be issued (Art. 22; Art. 25), the due date
of N days moved to the next business day (SPEC §3; Código Civil art. 132 §1), the steps of a guide on
GUIDE_MACHINE, and late charges of the Código Tributário Municipal that are never invented."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from desktop.domain.dates import BusinessCalendar
from desktop.domain.finance import GUIDE_MACHINE
from desktop.domain.guides import (
    LATE_CHARGES_NOT_CONFIGURED,
    GuideFacts,
    fine_guide_statuses,
    guide_actions,
    guide_due_date,
    guide_refusal,
    late_charges,
    months_late,
)
from desktop.domain.roles import Role

CAL = BusinessCalendar()


@pytest.mark.parametrize("when, status, allowed", [
    (0, "drawn_up", False),      # Art. 22: not yet notified
    (0, "notified", True),       # after the notification (payment is not a waiver of the appeal)
    (0, "in_defense", False),    # the ledger takes no payment while the defense is being judged
    (0, "judged", True),
    (0, "final", True),
    (0, "overdue", True),
    (0, "divida_ativa", True),
    (0, "paid", False),
    (0, "cancelled", False),
    (1, "notified", False),      # gestor's parameter: only once the decision is final
    (1, "judged", False),
    (1, "final", True),
    (1, "overdue", True),
])
def test_art22_art25_fine_guide_statuses_follow_the_gestors_parameter(when, status, allowed):
    assert (status in fine_guide_statuses(when)) is allowed


@pytest.mark.parametrize("issued, days, due", [
    (date(2026, 11, 30), 30, date(2026, 12, 30)),   # Wednesday
    (date(2026, 11, 14), 30, date(2026, 12, 14)),   # Monday
    (date(2026, 12, 5), 30, date(2027, 1, 4)),      # Monday 04/01
    (date(2026, 11, 6), 30, date(2026, 12, 7)),     # Sunday 06/12 → Monday 07/12
    (date(2026, 11, 25), 30, date(2026, 12, 28)),   # Friday 25/12 (Natal) → Monday 28/12
])
def test_due_date_of_n_days_moves_to_the_next_business_day(issued, days, due):
    assert guide_due_date(issued, days, CAL) == due


@pytest.mark.parametrize("due, paid_by, months", [
    (date(2026, 12, 30), date(2026, 12, 30), 0),
    (date(2026, 12, 30), date(2026, 12, 31), 1),    # one day late: a fraction of a month counts
    (date(2026, 12, 30), date(2027, 1, 30), 1),
    (date(2026, 12, 30), date(2027, 1, 31), 2),
    (date(2026, 12, 30), date(2027, 2, 15), 2),
    (date(2026, 1, 31), date(2026, 2, 28), 1),
])
def test_months_late_counts_months_or_fractions(due, paid_by, months):
    assert months_late(due, paid_by) == months


def test_late_charges_are_not_invented_while_the_tax_code_rules_are_unset():
    for fine, interest in ((None, None), (Decimal("2"), None), (None, Decimal("1"))):
        c = late_charges(Decimal("55.50"), date(2026, 12, 30), date(2027, 2, 15), fine, interest)
        assert not c.configured and c.total == Decimal("55.50") and c.charges == 0
        assert c.note == LATE_CHARGES_NOT_CONFIGURED and "não configuradas" in c.note


@pytest.mark.parametrize("principal, fine, interest, new_due, expected_fine, expected_interest", [
    (Decimal("55.50"), Decimal("2"), Decimal("1"), date(2027, 2, 15), Decimal("1.11"), Decimal("1.11")),
    (Decimal("100.00"), Decimal("10"), Decimal("0.5"), date(2027, 6, 30), Decimal("10.00"), Decimal("3.00")),
    (Decimal("33.33"), Decimal("0.33"), Decimal("1"), date(2027, 1, 15), Decimal("0.11"), Decimal("0.33")),
    (Decimal("55.50"), Decimal("2"), Decimal("1"), date(2026, 12, 30), Decimal("0.00"), Decimal("0.00")),
])
def test_late_charges_once_configured(principal, fine, interest, new_due, expected_fine, expected_interest):
    c = late_charges(principal, date(2026, 12, 30), new_due, fine, interest)
    assert c.configured and (c.fine, c.interest) == (expected_fine, expected_interest)
    assert c.total == principal + expected_fine + expected_interest


def test_guide_steps_use_the_guide_machine_and_say_what_would_enable_them():
    assert ("open", "paid") in {(str(a), str(b)) for a, b in GUIDE_MACHINE.table}
    not_due = GuideFacts(date(2026, 12, 30), date(2026, 12, 1))
    overdue = GuideFacts(date(2026, 12, 30), date(2027, 1, 4))
    assert guide_refusal("reissue", "open", {Role.ATENDENTE}, not_due).startswith("a guia ainda não venceu")
    assert guide_refusal("reissue", "open", {Role.ATENDENTE}, overdue) is None
    assert "Paga" in guide_refusal("pay", "paid", {Role.ATENDENTE}, overdue)
    assert "Gestor" in guide_refusal("cancel", "open", {Role.ATENDENTE}, overdue)
    assert guide_refusal("pay", "open", {Role.FISCAL}, overdue).startswith("exige o perfil")
    actions = {a.key: a for a in guide_actions("open", {Role.GESTOR}, overdue)}
    assert all(actions[k].enabled for k in ("pay", "print", "reissue", "cancel"))


@pytest.mark.parametrize("today, days, valid_until, expected", [
    # Art. 3 §2: the renewal fee falls due before the authorization it renews ends (issue 23 point 10)
    (date(2026, 11, 20), 30, date(2026, 12, 5), date(2026, 12, 4)),    # ends on a Saturday: Friday before
    (date(2026, 11, 20), 30, date(2027, 3, 1), date(2026, 12, 21)),    # ends later: the usual 30 days
    (date(2026, 11, 20), 30, None, date(2026, 12, 21)),
    (date(2026, 11, 20), 30, date(2026, 11, 15), date(2026, 11, 20)),  # never before the issue day
])
def test_art3_par2_renewal_fee_due_before_the_authorization_ends(today, days, valid_until, expected):
    from desktop.domain.dates import BusinessCalendar
    from desktop.domain.guides import renewal_fee_due_date

    assert renewal_fee_due_date(today, days, valid_until, BusinessCalendar()) == expected


@pytest.mark.parametrize("today, expected", [
    # issue 23 point 3: a reissued / substitute guide falls due on a date of its own, never in the past
    (date(2026, 11, 24), date(2026, 12, 24)),
    (date(2026, 11, 18), date(2026, 12, 18)),
    (date(2026, 12, 2), date(2027, 1, 4)),     # 01/01 holiday, then the weekend... 01/01 → Monday 04/01
])
def test_reissued_guide_due_date_is_its_own_and_never_past(today, expected):
    from desktop.domain.dates import BusinessCalendar
    from desktop.domain.guides import reissue_due_date

    due = reissue_due_date(today, 30, BusinessCalendar())
    assert due == expected and due > today


@pytest.mark.parametrize("due, today, overdue", [
    (date(2026, 11, 10), date(2026, 11, 10), False), (date(2026, 11, 10), date(2026, 11, 11), True),
])
def test_guide_overdue_from_the_day_after_its_due_date(due, today, overdue):
    from desktop.domain.guides import guide_overdue

    assert guide_overdue(due, today) is overdue


@pytest.mark.parametrize("guide_status, due, platform, preview, roles, expected", [
    # Art. 11: the month in progress is a prévia (issue 23 point 2), no guide
    (None, None, True, True, {"atendente"}, {"issue_guide": False, "cancel_guide": False, "charge_driver": False}),
    (None, None, True, False, {"atendente"}, {"issue_guide": True, "cancel_guide": False, "charge_driver": False}),
    # the driver is charged as substitute only once the platform's guide is overdue, by a gestor
    ("open", date(2026, 11, 10), True, False, {"gestor"},
     {"issue_guide": False, "cancel_guide": True, "charge_driver": True}),
    ("open", date(2026, 11, 30), True, False, {"gestor"},
     {"issue_guide": False, "cancel_guide": True, "charge_driver": False}),
    ("open", date(2026, 11, 10), False, False, {"gestor"},
     {"issue_guide": False, "cancel_guide": True, "charge_driver": False}),
    ("paid", date(2026, 11, 10), True, False, {"gestor"},
     {"issue_guide": False, "cancel_guide": False, "charge_driver": False}),
])
def test_art11_issqn_share_steps(guide_status, due, platform, preview, roles, expected):
    from desktop.domain.finance import ISSQN_SHARE_STEPS, share_facts
    from desktop.domain.roles import Role
    from desktop.domain.steps import available_actions

    facts = share_facts(guide_status, due, platform, date(2026, 11, 18), preview)
    actions = available_actions(ISSQN_SHARE_STEPS, None, {Role(r) for r in roles}, facts)
    assert {a.key: a.enabled for a in actions} == expected


@pytest.mark.parametrize("current, target, allowed", [
    ("open", "assigned", True), ("open", "returned", True), ("assigned", "returned", False),
    ("returned", "open", False), ("assigned", "open", False),
])
def test_unreconciled_payment_moves_once(current, target, allowed):
    from desktop.domain.finance import ISSQN_SHARE_MACHINE, UNRECONCILED_MACHINE
    from desktop.domain.workflow import TransitionNotAllowed, transition

    if allowed:
        assert transition(UNRECONCILED_MACHINE, current, target).value == target
    else:
        with pytest.raises(TransitionNotAllowed):
            transition(UNRECONCILED_MACHINE, current, target)
    assert transition(ISSQN_SHARE_MACHINE, "open", "cancelled").value == "cancelled"


@pytest.mark.parametrize("fee_kind, authorization_status, debt", [
    # Art. 15, VII: the fee is paid once the request is approved — until the grant it is the grant's condition
    ("authorization", "requested", False),
    ("authorization", "in_analysis", False),
    ("authorization", "approved", False),
    ("authorization", "refused", False),
    # a granted authorization's fees are the Municipality's credit (Art. 10)
    ("authorization", "active", True),
    ("renewal", "active", True),
    ("renewal", "expired", True),
    ("inspection", "suspended", True),
    ("other", None, True),
])
def test_art10_art15_VII_a_fee_is_a_debt_for_the_divida_ativa_only_once_granted(fee_kind, authorization_status,
                                                                               debt):
    from desktop.domain.guides import fee_inscribable

    assert fee_inscribable(fee_kind, authorization_status) is debt
