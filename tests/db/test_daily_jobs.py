"""The routines of the day run together after login (SPEC §3: "applied penalties change the authorization status
automatically on the date the decision becomes final"; "a suspended authorization returns to active … without
anyone remembering to do it")."""
from __future__ import annotations

from datetime import timedelta

from registry_factories import TODAY, active, desk  # noqa: F401 - desk is a fixture

from desktop.services import authorizations as auth
from desktop.services.daily import run_daily_jobs


def test_art3_par1_daily_routine_expires_an_authorization_past_its_validity_once(db, desk):
    a = active(db, desk)
    day = a.valid_until + timedelta(days=1)
    report = run_daily_jobs(db, day)
    assert report.changed and report.authorizations_changed == 1
    assert "1 autorização(ões)" in report.describe() and day.strftime("%d/%m/%Y") in report.describe()
    assert auth.get_authorization(db, desk.clerk, a.id).status == "expired"
    again = run_daily_jobs(db, day)  # a second desk running it the same day changes nothing
    assert not again.changed


def test_art26_par1_daily_routine_ends_a_suspension_the_day_after_its_last_day(db, desk):
    a = active(db, desk)
    s = auth.suspend_authorization(db, desk.manager, a.id, "art26_par1", TODAY - timedelta(days=40), "P-9",
                                   "Recorrência", a.version)
    report = run_daily_jobs(db, s.suspended_until + timedelta(days=1))
    assert report.authorizations_changed == 1
    assert auth.get_authorization(db, desk.clerk, a.id).status == "active"
