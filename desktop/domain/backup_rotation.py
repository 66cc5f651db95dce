"""Which automatic backup copies to keep (issue 17; SPEC §4: nothing legal is ever lost).

The office keeps **7 daily, 4 weekly and 12 monthly** copies. The rule is the one of `borg prune`
(`--keep-daily 7 --keep-weekly 4 --keep-monthly 12`), applied in that order over the copies, newest first:

- daily: the newest copy of each day, for the 7 most recent days that have a copy;
- weekly: the newest copy of each ISO week (Monday to Sunday), for the 4 most recent weeks that have a copy
  not already kept by the daily rule;
- monthly: the newest copy of each calendar month, for the 12 most recent months that have a copy not already
  kept by an earlier rule.

A copy kept by one rule is not counted by the next, so a machine that made a copy every day keeps exactly
7 + 4 + 12 = 23 copies, the oldest about 15 months back. Copies of a day the office did not work (no login)
simply do not exist: the rules count periods *with* copies, so a long holiday does not empty the folder.

Pure Python: the dates come from the file names; the service deletes what `to_remove` returns.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Hashable

KEEP_DAILY = 7
KEEP_WEEKLY = 4
KEEP_MONTHLY = 12

DAILY, WEEKLY, MONTHLY = "diária", "semanal", "mensal"


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    keep: int
    period: Callable[[date], Hashable]


RULES = (
    Rule(DAILY, KEEP_DAILY, lambda d: d),
    Rule(WEEKLY, KEEP_WEEKLY, lambda d: d.isocalendar()[:2]),
    Rule(MONTHLY, KEEP_MONTHLY, lambda d: (d.year, d.month)),
)


def kept_because(days: Iterable[date], rules: tuple[Rule, ...] = RULES) -> dict[date, str]:
    """The copies to keep, each with the rule that keeps it ("diária", "semanal", "mensal")."""
    ordered = sorted(set(days), reverse=True)
    kept: dict[date, str] = {}
    for rule in rules:
        last = None
        count = 0
        for day in ordered:
            if count >= rule.keep:
                break
            period = rule.period(day)
            if period == last:
                continue
            last = period
            if day not in kept:   # the newest copy of the period, unless an earlier rule holds it already
                kept[day] = rule.name
                count += 1
    return kept


def to_remove(days: Iterable[date], rules: tuple[Rule, ...] = RULES) -> list[date]:
    """The copies no rule keeps, oldest first."""
    days = set(days)
    kept = kept_because(days, rules)
    return sorted(d for d in days if d not in kept)
