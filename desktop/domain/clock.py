"""The program's one clock: the current moment in Chapada dos Guimarães (America/Cuiaba) and its date.

Every "now" and "today" of the program comes from here (`desktop.domain.dates.local_now/local_today`,
`desktop.models.types.now`, `desktop.reports.common.now` delegate to it), so a legal act is dated by one rule and
the tests can set the day they run on.

The source is the system clock. Only Python code can replace it (`set_clock`, `frozen`): the test suite does, the
running program never does. There is deliberately no environment variable, setting or file that moves the date:
whoever could write it could backdate legal acts (autos, decisions, payments).

Pure Python: no Qt, no SQLAlchemy.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

# The one time zone of the program: Chapada dos Guimarães keeps Cuiabá's time (UTC-4, no daylight saving since
# 2019). Every other module imports this constant (desktop.domain.dates.TIMEZONE is the same object).
TIMEZONE = ZoneInfo("America/Cuiaba")

Source = Callable[[], datetime]


def system_now() -> datetime:
    """The operating system's clock, in America/Cuiaba."""
    return datetime.now(TIMEZONE)


_lock = threading.Lock()
_source: Source = system_now


def now() -> datetime:
    """The current moment, timezone-aware, in America/Cuiaba."""
    value = _source()
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError("o relógio devolveu uma data-hora sem fuso horário")
    return value.astimezone(TIMEZONE)


def today() -> date:
    """Today's date in America/Cuiaba (not the computer's own zone)."""
    return now().date()


def set_clock(source: Source) -> Source:
    """Make `source()` the program's clock; returns the previous source (to put it back)."""
    global _source
    if not callable(source):
        raise TypeError("o relógio deve ser uma função sem argumentos que devolve datetime")
    with _lock:
        previous, _source = _source, source
    return previous


def reset_clock() -> None:
    """Back to the system clock."""
    set_clock(system_now)


def current_source() -> Source:
    return _source


def _aware(at: datetime) -> datetime:
    if not isinstance(at, datetime):
        raise TypeError(f"esperava datetime, recebeu {type(at).__name__}")
    if at.tzinfo is None:
        return at.replace(tzinfo=TIMEZONE)     # a naive value is taken as Cuiabá's local time
    return at.astimezone(TIMEZONE)


def fixed(at: datetime) -> Source:
    """A clock that always says `at` (naive = America/Cuiaba)."""
    moment = _aware(at)
    return lambda: moment


def ticking(start: datetime) -> Source:
    """A clock that says `start` now and then advances in real time (durations, lockouts and ordering by
    time behave as with the real clock)."""
    origin = _aware(start)
    began = time.monotonic()
    return lambda: origin + timedelta(seconds=time.monotonic() - began)


@contextmanager
def frozen(at: datetime, *, advancing: bool = False) -> Iterator[Source]:
    """`with frozen(datetime(2026, 12, 25, 10, 0)):` — the clock says `at` inside the block (still, or
    advancing in real time with `advancing=True`); the previous clock is back afterwards."""
    source = ticking(at) if advancing else fixed(at)
    previous = set_clock(source)
    try:
        yield source
    finally:
        set_clock(previous)
