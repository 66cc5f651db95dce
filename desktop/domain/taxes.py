"""ISSQN per registered vehicle (Art. 11; SPEC §3 "Taxes"): the rate's legal bounds and the monthly amount.

The estimation classes, their bases and the rate are parameters (Art. 11 §1: estimated and classified by the
secretariat); the bounds come from federal law: LC 116/2003 art. 8 II (at most 5 %) and art. 8-A, added by
LC 157/2016 (at least 2 %).
"""
from __future__ import annotations

import calendar as _calendar
from collections.abc import Iterable, Sequence
from datetime import date
from datetime import timedelta as _timedelta
from decimal import Decimal

from desktop.domain.money import round_cents
from desktop.domain.problems import Problem

ISS_MIN_RATE = Decimal("2")  # %, LC 116/2003 art. 8-A (LC 157/2016)
ISS_MAX_RATE = Decimal("5")  # %, LC 116/2003 art. 8, II


def iss_rate_problem(rate_percent: Decimal) -> Problem | None:
    if isinstance(rate_percent, float):
        raise TypeError("use Decimal para alíquotas, nunca float")
    if not ISS_MIN_RATE <= Decimal(rate_percent) <= ISS_MAX_RATE:
        return Problem("issqn_rate_percent",
                       f"A alíquota do ISSQN deve estar entre {ISS_MIN_RATE}% e {ISS_MAX_RATE}%; informada: "
                       f"{rate_percent}%.",
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
    return round_cents(amount)


def split_among_platforms(amount: Decimal, platform_ids: Sequence[int],
                          designated: int | None = None) -> dict[int, Decimal]:
    """A vehicle's monthly estimate split among the platforms it served (Art. 11 caput: collected by the platform;
    SPEC §3 "Taxes"): equal shares, the cents the division leaves go to the first platform in the given order so
    that the shares add up to the amount; a platform the gestor designated takes it all.

    Nothing to split (no platform) gives an empty dict; a platform listed twice counts once.
    """
    if isinstance(amount, float):
        raise TypeError("use Decimal para valores monetários, nunca float")
    amount = round_cents(amount)
    if designated is not None:
        return {designated: amount}
    ids = list(dict.fromkeys(platform_ids))
    if not ids:
        return {}
    cents = int(amount * 100)
    each, rest = divmod(cents, len(ids))
    shares = {pid: Decimal(each) / 100 for pid in ids}
    shares[ids[0]] += Decimal(rest) / 100
    return {pid: round_cents(value) for pid, value in shares.items()}


# Authorization statuses in which the vehicle serves (Art. 3: only an active authorization allows the service;
# suspended — Art. 24 —, impeded — Art. 16 §2 —, and ended days do not count for the ISSQN month).
SERVING_STATUS = "active"


def active_periods(moves: Iterable[tuple[date, str]]) -> list[tuple[date, date | None]]:
    """The periods an authorization was active, from its status moves `(effective date, status after)`.

    The status after a move holds from its effective date on: an activation on 10/03 counts 10/03; a suspension
    effective 05/04 makes 05/04 a suspended day, so the active period ends on 04/04. The last period is open
    (None) while the authorization is still active."""
    periods: list[tuple[date, date | None]] = []
    start: date | None = None
    for on, status in sorted(moves, key=lambda m: m[0]):
        if status == SERVING_STATUS:
            if start is None:
                start = on
        elif start is not None:
            end = on - _timedelta(days=1)
            if end >= start:
                periods.append((start, end))
            start = None
    if start is not None:
        periods.append((start, None))
    return periods


def month_bounds(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, _calendar.monthrange(year, month)[1])


def competence_problem(year: int, month: int, today: date) -> Problem | None:
    """A competência may be estimated from its first day on; a month still to come is refused (Art. 11: the tax
    is monthly, on the services of the month)."""
    if not 1 <= month <= 12 or not 2000 <= year <= 2999:
        return Problem("month", f"Competência inválida: {month:02d}/{year}.", "Art. 11")
    if (year, month) > (today.year, today.month):
        return Problem("month", f"A competência {month:02d}/{year} ainda não começou; só é possível estimar meses "
                                f"até {today.month:02d}/{today.year}.", "Art. 11")
    return None


PREVIEW_LABEL = "Prévia"
"""The mark of a competência estimated while it runs: on screen, in the PDF and the export (issue 23 point 2)."""


def competence_ended(year: int, month: int, today: date) -> bool:
    """True from the first day of the following month (Art. 11: the tax is on the services of the month, so the
    month is assessed — and guided — only once it is over)."""
    return (today.year, today.month) > (year, month)


def guide_competence_problem(year: int, month: int, today: date) -> Problem | None:
    """Why a competência cannot be guided yet (None: it can). While the month runs its estimate is only a
    prévia; the guide is issued from the first day of the following month (Art. 11; issue 23 point 2)."""
    problem = competence_problem(year, month, today)
    if problem is not None:
        return problem
    if not competence_ended(year, month, today):
        ny, nm = (year + 1, 1) if month == 12 else (year, month + 1)
        return Problem("month", f"Competência {month:02d}/{year}: a competência ainda não terminou. A estimativa "
                                "do mês em curso é só uma prévia, sem guia; a guia é emitida a partir de "
                                f"01/{nm:02d}/{ny}.",
                       "Art. 11")
    return None
