"""The dates behind the home dashboard's tiles (issue 16), pure: the 30-day horizon, the last validity whose
renewal must be requested by then (Art. 3, §2: at least 15 business days before expiry) and the last approval
whose annual inspection falls due by this month (Art. 16, caput)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from desktop.domain.dates import BusinessCalendar, renewal_request_deadline
from desktop.domain.scheduling import is_due_by

HORIZON_DAYS = 30   # "nos próximos 30 dias": renewals whose last timely day comes, validities and documents ending


@dataclass(frozen=True)
class Window:
    """The dates a tile's condition needs, computed once per day from the calendar."""

    today: date
    horizon: date             # today + 30 days
    renewal_valid_until: date  # the last valid_until whose renewal deadline (Art. 3 §2) falls by the horizon
    annual_last_approval: date  # the last approval whose annual inspection falls due by this month (Art. 16)


def window(today: date, calendar: BusinessCalendar) -> Window:
    horizon = today + timedelta(days=HORIZON_DAYS)
    # renewal_request_deadline grows with valid_until: step forward while the deadline stays within the horizon.
    valid_until = horizon
    while renewal_request_deadline(valid_until + timedelta(days=1), calendar) <= horizon:
        valid_until += timedelta(days=1)
    # is_due_by(last, y, m) holds for every approval up to some day a year before: step to the last such day.
    last = date(today.year - 1, today.month, 1) + timedelta(days=40)
    while not is_due_by(last, today.year, today.month):
        last -= timedelta(days=1)
    return Window(today, horizon, valid_until, last)
