"""ISSQN per registered vehicle (Art. 11; SPEC §3 "Taxes"): the rate's legal bounds and the monthly amount.

The estimation classes, their bases and the rate are parameters (Art. 11 §1: estimated and classified by the
secretariat); the bounds come from federal law: LC 116/2003 art. 8 II (at most 5 %) and art. 8-A, added by
LC 157/2016 (at least 2 %).
"""
from __future__ import annotations

import calendar as _calendar
from collections.abc import Iterable
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from desktop.domain.problems import Problem

ISS_MIN_RATE = Decimal("2")  # %, LC 116/2003 art. 8-A (LC 157/2016)
ISS_MAX_RATE = Decimal("5")  # %, LC 116/2003 art. 8, II
CENT = Decimal("0.01")


def iss_rate_problem(rate_percent: Decimal) -> Problem | None:
    if isinstance(rate_percent, float):
        raise TypeError("use Decimal para alíquotas, nunca float")
    if not ISS_MIN_RATE <= Decimal(rate_percent) <= ISS_MAX_RATE:
        return Problem("iss.rate", f"A alíquota do ISSQN deve estar entre 2% e 5%; informada: {rate_percent}%.",
                       "LC 116/2003, arts. 8, II e 8-A")
    return None


def active_days_in_month(periods: Iterable[tuple[date, date | None]], year: int, month: int) -> int:
    """Days of the month covered by any of the active periods (start, end inclusive; end None = still active)."""
    first = date(year, month, 1)
    last = date(year, month, _calendar.monthrange(year, month)[1])
    days: set[int] = set()
    for start, end in periods:
        lo = max(start, first)
        hi = min(end or last, last)
        if lo <= hi:
            days.update(range(lo.day, hi.day + 1))
    return len(days)


def issqn_for_month(base: Decimal, rate_percent: Decimal, periods: Iterable[tuple[date, date | None]], year: int,
                    month: int, pro_rata: bool = False) -> Decimal:
    """The ISSQN of one vehicle for one month (Art. 11): base × rate, half-up to the cent.

    The vehicle counts in the month when its authorization was active on any day of it; with `pro_rata` the
    amount is proportional to the active days (a parameter, SPEC §3). Zero when it was not active at all.
    """
    if isinstance(base, float) or isinstance(rate_percent, float):
        raise TypeError("use Decimal para valores monetários, nunca float")
    days = active_days_in_month(list(periods), year, month)
    if days == 0:
        return Decimal("0.00")
    amount = Decimal(base) * Decimal(rate_percent) / Decimal(100)
    if pro_rata:
        amount = amount * days / _calendar.monthrange(year, month)[1]
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)
