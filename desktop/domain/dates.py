"""Legal dates: business days, deadlines of N days, terms of N months (SPEC §3 "Dates and deadlines").

Pure: the `holidays` package gives the national and Mato Grosso holidays (imported on first use, cached per
year); the office's municipal holidays and pontos facultativos come in from the database as plain dates.
"""
from __future__ import annotations

import calendar as _calendar
import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime, timedelta
from functools import lru_cache
from types import MappingProxyType

from desktop.domain import clock, law
from desktop.domain.clock import TIMEZONE  # the one constant (re-exported here)
from desktop.domain.formatting import WEEKDAY_NAMES  # the one table of names

MUNICIPAL_HOLIDAY_NAME = "Feriado municipal"


@lru_cache(maxsize=256)
def _state_holidays(year: int) -> Mapping[date, str]:
    """National + Mato Grosso holidays of one year, named in Portuguese (NOTES: pass language="pt_BR")."""
    import holidays  # imported here: ≈ 45 ms, not needed to start the program

    found = holidays.Brazil(subdiv="MT", years=year, language="pt_BR")
    return MappingProxyType({d: str(name) for d, name in found.items()})


def _municipal_items(municipal_holidays) -> Iterable[tuple[date, str]]:
    if isinstance(municipal_holidays, Mapping):
        yield from ((d, str(name or MUNICIPAL_HOLIDAY_NAME)) for d, name in municipal_holidays.items())
        return
    for item in municipal_holidays:
        if isinstance(item, date) and not isinstance(item, datetime):
            yield item, MUNICIPAL_HOLIDAY_NAME
        elif isinstance(item, tuple) and len(item) == 2:
            yield item[0], str(item[1] or MUNICIPAL_HOLIDAY_NAME)
        elif hasattr(item, "day") and isinstance(getattr(item, "day"), date):
            # a record such as services.holidays.HolidayInfo(id, day, name, kind, active)
            if getattr(item, "active", True):
                yield item.day, str(getattr(item, "name", "") or MUNICIPAL_HOLIDAY_NAME)
        else:
            raise TypeError(f"feriado municipal inválido: {item!r}")


class BusinessCalendar:
    """Which days are business days (dias úteis) for the office (SPEC §3).

    A business day is Monday to Friday that is neither a national or Mato Grosso holiday (the `holidays` package)
    nor a municipal holiday or ponto facultativo configured by the office (Carnival days are such entries).

    `municipal_holidays` may be dates, `(date, name)` pairs, a `{date: name}` mapping, or records with `.day`,
    `.name` (and optionally `.active`), such as `services.holidays.HolidayInfo`.
    """

    __slots__ = ("_municipal",)

    def __init__(self, municipal_holidays: Iterable[date] | Mapping[date, str] = ()):
        self._municipal: Mapping[date, str] = MappingProxyType(dict(_municipal_items(municipal_holidays)))

    def __repr__(self) -> str:
        return f"BusinessCalendar(municipal_holidays={sorted(self._municipal)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BusinessCalendar) and dict(self._municipal) == dict(other._municipal)

    def __hash__(self) -> int:
        return hash(frozenset(self._municipal.items()))

    @property
    def municipal_holidays(self) -> Mapping[date, str]:
        """The office's own dates (municipal holidays and pontos facultativos) with their names."""
        return self._municipal

    def holiday_name(self, d: date) -> str | None:
        """The name of the holiday on `d` ("Natal", "Carnaval"...), or None. Weekends are not holidays."""
        name = self._municipal.get(d)
        if name is not None:
            return name
        return _state_holidays(d.year).get(d)

    def is_holiday(self, d: date) -> bool:
        return self.holiday_name(d) is not None

    def is_business_day(self, d: date) -> bool:
        return d.weekday() < 5 and self.holiday_name(d) is None

    def non_business_reason(self, d: date) -> str | None:
        """Why `d` is not a business day, in Portuguese ("sábado", "Natal"), or None when it is one."""
        name = self.holiday_name(d)
        if name is not None:
            return name
        if d.weekday() >= 5:
            return WEEKDAY_NAMES[d.weekday()]
        return None

    def next_business_day(self, d: date) -> date:
        """`d` itself when it is a business day, else the first business day after it."""
        while not self.is_business_day(d):
            d += timedelta(days=1)
        return d

    def previous_business_day(self, d: date) -> date:
        """`d` itself when it is a business day, else the last business day before it."""
        while not self.is_business_day(d):
            d -= timedelta(days=1)
        return d

    def add_business_days(self, d: date, n: int) -> date:
        """The n-th business day after `d` (n > 0) or before it (n < 0), `d` itself not counted; n = 0 gives `d`."""
        step = timedelta(days=1 if n >= 0 else -1)
        remaining = abs(n)
        while remaining:
            d += step
            if self.is_business_day(d):
                remaining -= 1
        return d

    def business_days_between(self, start: date, end: date) -> int:
        """How many business days lie after `start` up to and including `end` (0 when end <= start)."""
        count, d = 0, start
        while d < end:
            d += timedelta(days=1)
            if self.is_business_day(d):
                count += 1
        return count

    def holidays_in(self, year: int) -> list[tuple[date, str, str]]:
        """Every holiday of a year as (day, name, kind) with kind "nacional/estadual" or "municipal", sorted."""
        rows = [(d, n, "nacional/estadual") for d, n in _state_holidays(year).items()]
        rows += [(d, n, "municipal") for d, n in self._municipal.items() if d.year == year]
        return sorted(rows)


def _require_date(value: object, name: str) -> date:
    if not isinstance(value, date) or isinstance(value, datetime):
        raise TypeError(f"{name} deve ser uma data (date), recebido {value!r}")
    return value


def easter_sunday(year: int) -> date:
    """Gregorian Easter Sunday of `year` (dateutil's algorithm): Carnival (47 days before) and Corpus Christi (60 days
    after) move with it, and the office keeps them as pontos facultativos in its table of municipal dates."""
    from dateutil.easter import EASTER_WESTERN, easter  # lazy: dateutil loads only when this runs (start-up cost)

    return easter(year, EASTER_WESTERN)


def deadline(start: date, days: int, calendar: BusinessCalendar) -> date:
    """The last day of a deadline of `days` days starting on `start` (SPEC §3; Art. 9, Art. 13 XVIII, Art. 16 §2).

    Calendar days are counted excluding the start day (Código Civil art. 132 caput; Lei 9.784/99 art. 66); when the
    last day is not a business day the deadline moves to the next business day (CC art. 132 §1; Lei 9.784 art. 66 §1).
    """
    _require_date(start, "start")
    if days < 0:
        raise ValueError("o prazo não pode ser negativo")
    return calendar.next_business_day(start + timedelta(days=days))


def _shift_month(d: date, months: int) -> tuple[int, int]:
    index = d.year * 12 + (d.month - 1) + months
    return index // 12, index % 12 + 1


def parse_month(text: str) -> tuple[int, int]:
    """A competência as the office writes it — `AAAA-MM` (the commands' form, 2026-10) or `MM/AAAA` (the screens'
    and the documents', 10/2026; one-digit months too) — as (year, month); ValueError in Portuguese naming the
    accepted forms otherwise. The one parser of the fares, the ISSQN and the statistics commands."""
    value = (text or "").strip()
    match = re.fullmatch(r"(\d{4})-(\d{1,2})", value) or re.fullmatch(r"(\d{1,2})/(\d{4})", value)
    if not match:
        raise ValueError(f"Competência inválida «{text}»: use AAAA-MM (ex.: 2026-10) ou MM/AAAA (ex.: 10/2026).")
    first, second = match.groups()
    year, month = (int(first), int(second)) if len(first) == 4 else (int(second), int(first))
    if not 1 <= month <= 12:
        raise ValueError(f"Competência inválida «{text}»: o mês vai de 01 a 12 (use AAAA-MM, ex.: 2026-10).")
    return year, month


def add_months_clamped(d: date, months: int) -> date:
    """The same day `months` later (or earlier, if negative), clamped to the last day of a shorter month.

    Used for look-back windows (recurrence, Art. 12 VII): 31/03/2026 - 1 month -> 28/02/2026.
    """
    year, month = _shift_month(d, months)
    return date(year, month, min(d.day, _calendar.monthrange(year, month)[1]))


def term_end(start: date, months: int) -> date:
    """The end of a term of `months` months from `start` (Código Civil art. 132 §3; Art. 3 §1).

    The term ends on the day of the same number `months` later, or on the next day when that month has no such day:
    10/03/2026 + 12 -> 10/03/2027; 29/02/2028 + 12 -> 01/03/2029; 31/01/2026 + 1 -> 01/03/2026.
    """
    _require_date(start, "start")
    if months < 0:
        raise ValueError("o número de meses não pode ser negativo")
    year, month = _shift_month(start, months)
    last = _calendar.monthrange(year, month)[1]
    if start.day <= last:
        return date(year, month, start.day)
    return date(year, month, last) + timedelta(days=1)


def period_end(start: date, *, days: int = 0, months: int = 0) -> date:
    """The last day of a period of restriction starting on `start` (a suspension, Art. 24 §ún.; Art. 26 §1).

    SPEC §3 (Auto flow): "A suspension of N days covers N days counting the first; one of 12 months ends the day
    before the same date a year later." The first day is itself a suspended day, so it is counted: 30 days from
    10/12/2026 are 10/12/2026 to 08/01/2027; 12 months from 22/01/2026 are 22/01/2026 to 21/01/2027 (the term of
    CC art. 132 §3 ends on the same date a year later, and the restriction is lifted that day). No move to a
    business day: a suspension is not a deadline for an act.
    """
    _require_date(start, "start")
    if days < 0 or months < 0:
        raise ValueError("o período não pode ser negativo")
    if not days and not months:
        raise ValueError("o período deve ter dias ou meses")
    return term_end(start, months) + timedelta(days=days) - timedelta(days=1)


def renewal_request_deadline(valid_until: date, calendar: BusinessCalendar,
                             business_days: int = law.RENEWAL_BUSINESS_DAYS) -> date:
    """The last timely day to request the renewal of an authorization (Art. 3, §2: at least 15 business days
    before expiry). Steps back from `valid_until` one calendar day at a time, counting only business days, until
    `business_days` are counted; `valid_until` itself is not counted (SPEC §3)."""
    _require_date(valid_until, "valid_until")
    if business_days < 1:
        raise ValueError("o número de dias úteis deve ser positivo")
    return calendar.add_business_days(valid_until, -business_days)


def is_renewal_late(requested_on: date, valid_until: date, calendar: BusinessCalendar,
                    business_days: int = law.RENEWAL_BUSINESS_DAYS) -> bool:
    """Whether a renewal request came after the last timely day (Art. 3, §2). It is still received, marked late."""
    return requested_on > renewal_request_deadline(valid_until, calendar, business_days)


def data_change_notice_deadline(changed_on: date, calendar: BusinessCalendar) -> date:
    """Last day to communicate a change of the driver's data (Art. 13, XVIII: "em até 07 (sete) dias")."""
    return deadline(changed_on, law.DATA_CHANGE_NOTICE_DAYS, calendar)


def is_data_change_late(changed_on: date, communicated_on: date, calendar: BusinessCalendar) -> bool:
    """A late communication may become an Art. 26, III infraction (breaking the duty of Art. 13, XVIII)."""
    return communicated_on > data_change_notice_deadline(changed_on, calendar)


def annual_inspection_due(last_inspection_on: date) -> date:
    """The day the next annual inspection falls due (Art. 16: "vistoria anual")."""
    return term_end(last_inspection_on, 12)


def platform_list_due(last_delivered_on: date, calendar: BusinessCalendar) -> date:
    """When the platform's next list of vehicles, owners and drivers is due (Art. 5, VIII: every 60 days)."""
    return deadline(last_delivered_on, law.PLATFORM_LIST_INTERVAL_DAYS, calendar)


def platform_data_due(notified_at: datetime) -> datetime:
    """When the platform's 24 hours to hand over trip data end (Art. 4, §2), counted from the notice."""
    if notified_at.tzinfo is None:
        raise ValueError("a data-hora da notificação deve ter fuso horário (America/Cuiaba)")
    return notified_at + timedelta(hours=law.PLATFORM_DATA_HOURS)


def local_now() -> datetime:
    """The current date-time in Chapada dos Guimarães (America/Cuiaba), from the one clock (domain.clock)."""
    return clock.now()


def local_today() -> date:
    """Today in America/Cuiaba, from the one clock (domain.clock)."""
    return clock.today()
