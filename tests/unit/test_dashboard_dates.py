"""Dates of the home dashboard (issue 16), from the law's words: the last service year (Art. 2, §§1-2), the
window of renewals to request (Art. 3, §2: 15 business days before expiry) and of annual inspections due
(Art. 16, caput)."""
from __future__ import annotations

from datetime import date, timedelta

import pytest

from desktop.domain.dates import BusinessCalendar, renewal_request_deadline
from desktop.domain.scheduling import is_due_by
from desktop.domain.vehicle import last_service_year_of, vehicle_last_service_day
from desktop.domain.dashboard import HORIZON_DAYS, window

CAL = BusinessCalendar()


@pytest.mark.parametrize("year, manufacture_year", [(2026, 2016), (2027, 2017), (2030, 2020)])
def test_art2_par2_vehicle_of_ten_years_serves_its_last_year_through_31_december(year, manufacture_year):
    assert last_service_year_of(year) == manufacture_year
    assert vehicle_last_service_day(manufacture_year) == date(year, 12, 31)


@pytest.mark.parametrize("today", [date(2026, 11, 18), date(2026, 12, 24), date(2027, 2, 26), date(2027, 6, 1)])
def test_art3_par2_renewal_window_holds_every_validity_whose_last_timely_day_comes_in_30_days(today):
    w = window(today, CAL)
    horizon = today + timedelta(days=HORIZON_DAYS)
    assert renewal_request_deadline(w.renewal_valid_until, CAL) <= horizon
    assert renewal_request_deadline(w.renewal_valid_until + timedelta(days=1), CAL) > horizon


@pytest.mark.parametrize("today", [date(2026, 11, 18), date(2027, 3, 1), date(2028, 2, 29), date(2026, 1, 31)])
def test_art16_annual_window_ends_at_the_last_approval_due_by_this_month(today):
    w = window(today, CAL)
    assert is_due_by(w.annual_last_approval, today.year, today.month)
    assert not is_due_by(w.annual_last_approval + timedelta(days=1), today.year, today.month)
