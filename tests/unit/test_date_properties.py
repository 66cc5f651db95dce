"""Property tests of the date rules (SPEC §3) with hypothesis."""
from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.domain import (
    BusinessCalendar,
    add_months_clamped,
    authorization_valid_until,
    deadline,
    renewal_request_deadline,
    term_end,
    vehicle_last_service_day,
)

DATES = st.dates(min_value=date(2020, 1, 1), max_value=date(2035, 12, 31))
MUNICIPAL = st.lists(DATES, max_size=20)


@settings(max_examples=300, deadline=None)
@given(start=DATES, days=st.integers(min_value=0, max_value=60), municipal=MUNICIPAL)
def test_spec3_deadline_never_before_its_start_and_always_a_business_day(start, days, municipal):
    calendar = BusinessCalendar(municipal)
    end = deadline(start, days, calendar)
    assert end >= start + timedelta(days=days) >= start
    assert calendar.is_business_day(end)
    # nothing skipped: every day between the nominal end and the result is a non-business day
    d = start + timedelta(days=days)
    while d < end:
        assert not calendar.is_business_day(d)
        d += timedelta(days=1)


@settings(max_examples=300, deadline=None)
@given(a=DATES, b=DATES, months=st.integers(min_value=0, max_value=36))
def test_cc132_par3_term_end_is_monotonic_in_its_start(a, b, months):
    if a > b:
        a, b = b, a
    assert term_end(a, months) <= term_end(b, months)


@settings(max_examples=300, deadline=None)
@given(start=DATES, months=st.integers(min_value=0, max_value=36))
def test_cc132_par3_term_end_is_the_same_day_or_the_first_of_the_next_month(start, months):
    end = term_end(start, months)
    assert end >= start
    assert end.day == start.day or (end.day == 1 and start.day > 28)
    assert add_months_clamped(start, months) <= end <= add_months_clamped(start, months) + timedelta(days=1)


@settings(max_examples=200, deadline=None)
@given(valid_until=DATES, municipal=MUNICIPAL)
def test_art3_par2_renewal_deadline_is_a_business_day_15_business_days_before(valid_until, municipal):
    calendar = BusinessCalendar(municipal)
    last = renewal_request_deadline(valid_until, calendar)
    assert last < valid_until
    assert calendar.is_business_day(last)
    # the valid-until date is not counted; `last` is the 15th business day counted back, so 14 lie between
    assert calendar.business_days_between(last, valid_until - timedelta(days=1)) == 14


@settings(max_examples=200, deadline=None)
@given(paid=DATES, year=st.integers(min_value=2010, max_value=2035))
def test_art2_authorization_never_runs_past_the_vehicle(paid, year):
    valid = authorization_valid_until(paid, year)
    assert valid <= vehicle_last_service_day(year)
    assert valid <= term_end(paid, 12)
    assert valid in (vehicle_last_service_day(year), term_end(paid, 12))
