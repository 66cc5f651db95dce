"""Services date their acts by the one clock (issue 10 item 7): an act done "today" without a date given takes
Cuiabá's date from desktop.domain.clock, and its audit entry that moment — on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from registry_factories import desk, new_driver, new_vehicle  # noqa: F401 - desk is a fixture
from sqlalchemy import select

from desktop.domain import TIMEZONE, clock
from desktop.models import AuditEntry
from desktop.services import authorizations as auth
from desktop.services.jobs import run_due_transitions


@pytest.mark.parametrize("at", [
    pytest.param(datetime(2026, 12, 25, 10, 0, tzinfo=TIMEZONE), id="christmas"),
    pytest.param(datetime(2026, 12, 31, 23, 50, tzinfo=TIMEZONE), id="new-years-eve-late"),
])
def test_art9_analysis_started_today_is_the_clocks_day_in_cuiaba(db, desk, at):
    driver, vehicle = new_driver(db, desk), new_vehicle(db, desk)
    with clock.frozen(at):
        a = auth.request_authorization(db, desk.clerk, driver.id, vehicle.id, at.date(), "PROT-77")
        a = auth.start_analysis(db, desk.clerk, a.id, a.version)          # no date given: today
    assert a.analysis_started_on == at.date()
    with db.session(write=False) as s:
        moments = s.scalars(select(AuditEntry.at).where(AuditEntry.entity == "authorization")).all()
    assert moments and all(m == at for m in moments)


def test_art3_the_daily_job_expires_by_the_clocks_today(db, desk):
    from registry_factories import active

    a = active(db, desk)                                  # valid for 12 months from the suite's day
    assert run_due_transitions(db) == []
    with clock.frozen(datetime.combine(a.valid_until + timedelta(days=1), datetime.min.time(), tzinfo=TIMEZONE)):
        moved = run_due_transitions(db)                   # no date given: the clock's today
    assert [(t.number, t.to_status) for t in moved] == [(a.number, "expired")]
    assert auth.get_authorization(db, desk.clerk, a.id).status == "expired"
