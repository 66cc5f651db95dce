"""Which automatic copies stay (issue 17: 7 daily, 4 weekly, 12 monthly — the `borg prune` rule)."""
from __future__ import annotations

from datetime import date, timedelta

import pytest

from desktop.domain.backup_rotation import DAILY, MONTHLY, WEEKLY, kept_because, to_remove


def every_day(first: date, last: date) -> list[date]:
    return [first + timedelta(days=i) for i in range((last - first).days + 1)]


def test_four_hundred_days_of_daily_copies_keep_exactly_seven_four_and_twelve():
    days = every_day(date(2025, 10, 28), date(2026, 12, 1))
    assert len(days) == 400
    kept = kept_because(days)
    assert sorted(kept.values()).count(DAILY) == 7
    assert sorted(kept.values()).count(WEEKLY) == 4
    assert sorted(kept.values()).count(MONTHLY) == 12
    # the 7 most recent days
    assert [d for d, why in kept.items() if why == DAILY] == every_day(date(2026, 11, 25), date(2026, 12, 1))[::-1]
    # the Sundays of the 4 weeks before the daily ones (ISO weeks end on Sunday); the week of 23–29/11 is
    # already represented by the daily copies of 25–29/11
    assert sorted(d for d, why in kept.items() if why == WEEKLY) == [
        date(2026, 11, 1), date(2026, 11, 8), date(2026, 11, 15), date(2026, 11, 22)]
    # the last day of each of the 12 months before, December and November being held already by the daily
    # copies of 01/12 and 30/11
    assert sorted(d for d, why in kept.items() if why == MONTHLY) == [
        date(2025, 11, 30), date(2025, 12, 31), date(2026, 1, 31), date(2026, 2, 28), date(2026, 3, 31),
        date(2026, 4, 30), date(2026, 5, 31), date(2026, 6, 30), date(2026, 7, 31), date(2026, 8, 31),
        date(2026, 9, 30), date(2026, 10, 31)]
    assert len(to_remove(days)) == 400 - 23


@pytest.mark.parametrize("days, kept", [
    ([], set()),
    ([date(2026, 12, 1)], {date(2026, 12, 1)}),
    # a holiday fortnight with no login: the rule counts days WITH copies, nothing is lost by the gap
    ([date(2026, 12, 1), date(2026, 11, 10)], {date(2026, 12, 1), date(2026, 11, 10)}),
    # two copies of one month before the daily window: only the newest counts as the month's copy
    (every_day(date(2026, 1, 1), date(2026, 1, 2)), {date(2026, 1, 1), date(2026, 1, 2)}),
])
def test_small_folders_keep_everything_a_rule_covers(days, kept):
    assert set(kept_because(days)) == kept
    assert to_remove(days) == []


def test_removal_is_oldest_first_and_never_touches_the_newest():
    days = every_day(date(2024, 1, 1), date(2026, 12, 1))
    gone = to_remove(days)
    assert gone == sorted(gone)
    assert date(2026, 12, 1) not in gone
