"""ISSQN per registered vehicle (Art. 11; LC 116/2003 arts. 8 II and 8-A)."""
from datetime import date
from decimal import Decimal

import pytest

from desktop.domain import active_days_in_month, iss_rate_problem, issqn_for_month

D = date


@pytest.mark.parametrize("rate, ok", [
    pytest.param(Decimal("1.99"), False, id="below-2-percent-lc157"),
    pytest.param(Decimal("2"), True, id="2-percent"),
    pytest.param(Decimal("5"), True, id="5-percent"),
    pytest.param(Decimal("5.01"), False, id="above-5-percent-lc116"),
])
def test_art11_iss_rate_between_2_and_5_percent(rate, ok):
    problem = iss_rate_problem(rate)
    assert (problem is None) is ok
    if problem:
        assert problem.field == "iss.rate"


@pytest.mark.parametrize("periods, days", [
    pytest.param([(D(2026, 1, 1), None)], 28, id="active-all-february"),
    pytest.param([(D(2026, 2, 27), None)], 2, id="activated-on-27-february"),
    pytest.param([(D(2025, 1, 1), D(2026, 2, 1))], 1, id="expired-on-1-february"),
    pytest.param([(D(2026, 1, 1), D(2026, 1, 31))], 0, id="expired-in-january"),
    pytest.param([(D(2026, 2, 1), D(2026, 2, 10)), (D(2026, 2, 5), D(2026, 2, 12))], 12, id="overlapping"),
])
def test_art11_active_days_in_month(periods, days):
    assert active_days_in_month(periods, 2026, 2) == days


@pytest.mark.parametrize("periods, pro_rata, expected", [
    pytest.param([(D(2026, 2, 27), None)], False, Decimal("60.00"), id="art11-any-day-counts-the-month"),
    pytest.param([(D(2026, 2, 15), None)], True, Decimal("30.00"), id="art11-pro-rata-14-of-28-days"),
    pytest.param([(D(2026, 2, 28), None)], True, Decimal("2.14"), id="art11-pro-rata-rounded-half-up"),
    pytest.param([(D(2025, 1, 1), D(2026, 1, 31))], False, Decimal("0.00"), id="art11-not-active-pays-nothing"),
])
def test_art11_issqn_for_month(periods, pro_rata, expected):
    assert issqn_for_month(Decimal("2000"), Decimal("3"), periods, 2026, 2, pro_rata) == expected


def test_art11_issqn_refuses_floats():
    with pytest.raises(TypeError):
        issqn_for_month(2000.0, Decimal("3"), [], 2026, 2)
