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
        assert problem.field == "issqn_rate_percent"


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


# ---------------------------------------------------------------- the split among platforms (Art. 11 caput)
from desktop.domain import active_periods, competence_problem, split_among_platforms  # noqa: E402


@pytest.mark.parametrize("amount, platforms, designated, expected", [
    pytest.param("90.00", [7], None, {7: "90.00"}, id="art11-one-platform-collects-it-all"),
    pytest.param("90.00", [7, 3], None, {7: "45.00", 3: "45.00"}, id="art11-two-platforms-equal-shares"),
    pytest.param("100.00", [1, 2, 3], None, {1: "33.34", 2: "33.33", 3: "33.33"},
                 id="art11-cent-of-the-split-goes-to-the-first"),
    pytest.param("100.00", [3, 2, 1], None, {3: "33.34", 2: "33.33", 1: "33.33"},
                 id="art11-first-is-the-order-given-not-the-lowest-id"),
    pytest.param("0.05", [1, 2, 3], None, {1: "0.03", 2: "0.01", 3: "0.01"}, id="art11-cents-only"),
    pytest.param("90.00", [1, 2, 3], 2, {2: "90.00"}, id="art11-designated-platform-takes-it-all"),
    pytest.param("90.00", [1, 1, 2], None, {1: "45.00", 2: "45.00"}, id="a-platform-listed-twice-counts-once"),
    pytest.param("90.00", [], None, {}, id="no-platform-nothing-to-split"),
])
def test_art11_split_among_platforms(amount, platforms, designated, expected):
    shares = split_among_platforms(Decimal(amount), platforms, designated)
    assert shares == {k: Decimal(v) for k, v in expected.items()}
    assert list(shares) == list(expected)
    if shares:
        assert sum(shares.values()) == Decimal(amount)


def test_art11_split_refuses_floats():
    with pytest.raises(TypeError):
        split_among_platforms(90.0, [1])


@pytest.mark.parametrize("moves, periods", [
    pytest.param([(D(2026, 3, 10), "active")], [(D(2026, 3, 10), None)], id="activated-still-active"),
    pytest.param([(D(2026, 3, 10), "active"), (D(2026, 4, 5), "suspended"), (D(2026, 5, 5), "active")],
                 [(D(2026, 3, 10), D(2026, 4, 4)), (D(2026, 5, 5), None)], id="art24-suspended-days-do-not-count"),
    pytest.param([(D(2026, 3, 10), "active"), (D(2026, 4, 1), "impeded")], [(D(2026, 3, 10), D(2026, 3, 31))],
                 id="art16-impeded-days-do-not-count"),
    pytest.param([(D(2026, 3, 10), "active"), (D(2027, 3, 11), "expired")], [(D(2026, 3, 10), D(2027, 3, 10))],
                 id="art3-expired-the-day-after-valid-until"),
    pytest.param([(D(2026, 3, 1), "requested"), (D(2026, 3, 2), "approved")], [], id="never-active"),
    pytest.param([(D(2026, 3, 10), "active"), (D(2026, 3, 10), "suspended")], [], id="suspended-the-same-day"),
])
def test_art11_active_periods_from_status_moves(moves, periods):
    assert active_periods(moves) == periods


@pytest.mark.parametrize("year, month, ok", [
    pytest.param(2026, 11, True, id="current-month"),
    pytest.param(2025, 12, True, id="past-month"),
    pytest.param(2026, 12, False, id="future-month-refused"),
    pytest.param(2026, 13, False, id="month-13"),
])
def test_art11_competence_in_the_future_refused(year, month, ok):
    assert (competence_problem(year, month, D(2026, 11, 18)) is None) is ok
