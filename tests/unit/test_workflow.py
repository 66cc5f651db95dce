"""State machines (SPEC §3): every pair of statuses is either listed (allowed) or refused."""
import itertools

import pytest

from desktop.domain import (
    AUTHORIZATION_MACHINE,
    AUTO_COUNTS_FOR_RECURRENCE,
    AUTO_MACHINE,
    AuthorizationStatus,
    AutoStatus,
    TransitionNotAllowed,
    UnknownStatus,
    actions,
    allowed,
    transition,
)

A = AuthorizationStatus
U = AutoStatus

# The lifecycle written out from SPEC §3, independently of the machine's table.
AUTHORIZATION_ALLOWED = {
    A.REQUESTED: {A.IN_ANALYSIS, A.REFUSED},                      # Art. 3
    A.IN_ANALYSIS: {A.APPROVED, A.REFUSED},                       # Art. 3, 12
    A.APPROVED: {A.ACTIVE, A.REVOKED},                            # Art. 9, 10, 15 VI-VII
    A.ACTIVE: {A.IMPEDED, A.SUSPENDED, A.REVOKED, A.CASSADA, A.EXPIRED},  # Art. 16 §2, 24, 3 §1
    A.IMPEDED: {A.ACTIVE, A.SUSPENDED, A.REVOKED, A.CASSADA, A.EXPIRED},
    A.SUSPENDED: {A.ACTIVE, A.REVOKED, A.CASSADA, A.EXPIRED},
    A.EXPIRED: {A.ACTIVE},                                        # Art. 3 §2: renewal requested in time
    A.REFUSED: set(), A.REVOKED: set(), A.CASSADA: set(),
}
AUTO_ALLOWED = {
    U.DRAWN_UP: {U.NOTIFIED, U.CANCELLED},                                       # Art. 19, 22
    # issue 12 item 3: paying is not a waiver (no notified/judged → paid); a written waiver makes it final.
    U.NOTIFIED: {U.IN_DEFENSE, U.JUDGED, U.FINAL, U.CANCELLED},                  # Art. 22 §§1-2
    U.IN_DEFENSE: {U.JUDGED, U.FINAL, U.ANNULLED, U.CANCELLED},
    U.JUDGED: {U.IN_APPEAL, U.FINAL, U.CANCELLED},
    U.IN_APPEAL: {U.FINAL, U.ANNULLED, U.CANCELLED},
    U.FINAL: {U.PAID, U.OVERDUE, U.ANNULLED},
    U.OVERDUE: {U.PAID, U.DIVIDA_ATIVA, U.ANNULLED},
    U.DIVIDA_ATIVA: {U.PAID},
    # issue 12 (second pass): a returned payment puts the debt back (auto_steps.status_after_returned_payment)
    U.PAID: {U.FINAL, U.OVERDUE, U.DIVIDA_ATIVA}, U.CANCELLED: set(), U.ANNULLED: set(),
}


def pairs(machine, table):
    for a, b in itertools.product(machine.states, repeat=2):
        yield pytest.param(machine, a, b, b in table[a], id=f"{machine.name}-{a.value}-to-{b.value}")


@pytest.mark.parametrize("machine, current, target, ok",
                         [*pairs(AUTHORIZATION_MACHINE, AUTHORIZATION_ALLOWED), *pairs(AUTO_MACHINE, AUTO_ALLOWED)])
def test_spec3_every_transition_allowed_or_refused(machine, current, target, ok):
    if ok:
        assert transition(machine, current, target) is target
        assert transition(machine.name, current.value, target.value) is target
    else:
        with pytest.raises(TransitionNotAllowed) as info:
            transition(machine, current, target)
        assert isinstance(info.value, ValueError)
        assert current.label in str(info.value) and target.label in str(info.value)
        assert "não é permitido" in str(info.value)


@pytest.mark.parametrize("machine, table", [
    pytest.param(AUTHORIZATION_MACHINE, AUTHORIZATION_ALLOWED, id="authorization"),
    pytest.param(AUTO_MACHINE, AUTO_ALLOWED, id="auto"),
])
def test_spec3_allowed_gives_the_buttons_from_the_same_table(machine, table):
    for state in machine.states:
        assert allowed(machine, state) == table[state]
        assert {t.target for t in actions(machine, state)} == table[state]
        assert all(t.action for t in actions(machine, state))
    assert machine.terminal == {s for s, targets in table.items() if not targets}


def test_spec3_authorization_labels_in_portuguese():
    assert [s.label for s in AuthorizationStatus] == [
        "Requerida", "Em análise", "Indeferida", "Aprovada", "Ativa", "Impedida", "Suspensa", "Revogada",
        "Cassada", "Expirada"]
    assert AUTHORIZATION_MACHINE.initial is A.REQUESTED


def test_spec3_auto_labels_and_recurrence_statuses():
    assert U.DRAWN_UP.label == "Lavrado" and U.DIVIDA_ATIVA.label == "Inscrito em dívida ativa"
    assert all(s.label for s in AutoStatus)
    # recurrence counts only final decisions that were not cancelled or annulled (SPEC §3)
    assert AUTO_COUNTS_FOR_RECURRENCE == {U.FINAL, U.PAID, U.OVERDUE, U.DIVIDA_ATIVA}
    assert AUTO_MACHINE.initial is U.DRAWN_UP


def test_unknown_status_or_machine_is_refused():
    with pytest.raises(UnknownStatus):
        transition(AUTHORIZATION_MACHINE, "ativa", "expired")
    with pytest.raises(ValueError):
        allowed("vehicle", "active")
