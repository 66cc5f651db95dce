"""Automatic transitions (Art. 3 §1; Art. 24 parágrafo único; Art. 26 §1): idempotent, as the system, each with an
event and an audit entry (issue 4)."""
from __future__ import annotations

from datetime import timedelta

from registry_factories import TODAY, active, desk  # noqa: F401 - desk is a fixture
from sqlalchemy import select

from desktop.models import AuditEntry
from desktop.services import authorizations as auth
from desktop.services.jobs import run_due_transitions


def test_art26_par1_suspension_returns_to_active_the_day_after_its_last_day(db, desk):
    a = active(db, desk)
    start = TODAY - timedelta(days=40)
    s = auth.suspend_authorization(db, desk.manager, a.id, "art26_par1", start, "P-1", "Recorrência", a.version)
    assert s.suspended_until == start + timedelta(days=29)  # Art. 26 §1: 30 days counting the first (issue 24 item 2)
    assert run_due_transitions(db, s.suspended_until) == []  # still suspended on its last day
    done = run_due_transitions(db, s.suspended_until + timedelta(days=1))
    assert [(d.authorization_id, d.from_status, d.to_status, d.effective_on) for d in done] == \
        [(a.id, "suspended", "active", s.suspended_until + timedelta(days=1))]
    assert run_due_transitions(db, s.suspended_until + timedelta(days=1)) == []  # idempotent
    detail = auth.authorization_detail(db, desk.clerk, a.id)
    assert detail.authorization.status == "active"
    last = detail.events[-1]
    assert (last.kind, last.by_name) == ("suspension_end", "Sistema (rotina automática)")
    with db.session(write=False) as s_:
        entry = s_.execute(select(AuditEntry).where(AuditEntry.action == "authorization.suspension_end")).scalar_one()
        assert entry.username == "sistema" and entry.entity_id == str(a.id)


def test_art3_par1_active_authorization_past_valid_until_expires(db, desk):
    a = active(db, desk)
    assert run_due_transitions(db, a.valid_until) == []
    done = run_due_transitions(db, a.valid_until + timedelta(days=1))
    assert [(d.to_status, d.number) for d in done] == [("expired", a.number)]
    assert auth.get_authorization(db, desk.clerk, a.id).status_label == "Expirada"


def test_suspension_ending_after_validity_goes_to_expired(db, desk):
    a = active(db, desk)
    s = auth.suspend_authorization(db, desk.manager, a.id, "art24", TODAY + timedelta(days=2), "P-2", "Cartões",
                                   a.version)
    assert s.suspended_until > a.valid_until
    done = run_due_transitions(db, s.suspended_until + timedelta(days=1))
    assert [d.to_status for d in done] == ["expired"]


def test_renewal_requested_in_time_reactivates_an_expired_one_on_payment(db, desk):
    from decimal import Decimal

    start = TODAY - timedelta(days=380)
    a = active(db, desk, on=start)
    a = auth.request_renewal(db, desk.clerk, a.id, a.valid_until - timedelta(days=40), a.version)
    assert not a.renewal_late
    run_due_transitions(db, TODAY)
    expired = auth.get_authorization(db, desk.clerk, a.id)
    assert expired.status == "expired"
    renewed = auth.record_fee_payment(db, desk.clerk, a.id, TODAY, "DAM-R9", Decimal("80"), expired.version)
    assert renewed.status == "active" and renewed.number == a.number and renewed.valid_until > TODAY
