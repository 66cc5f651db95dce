"""The inspectors' schedule (issue 5): slots from working patterns, blocked days and the office's calendar;
conflicts (no double booking of a slot or an inspector); the terms a booking must respect (Art. 9; Art. 16 §2);
the annual inspections due (Art. 16, caput) and the bulk filling of free slots.

Pure Python: the services give it patterns, bookings and a BusinessCalendar and store what it decides.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from desktop.domain.dates import TIMEZONE, BusinessCalendar, annual_inspection_due, deadline
from desktop.domain import law
from desktop.domain.formatting import format_date
from desktop.domain.problems import Problem

DEFAULT_DAY_START = time(8, 0)
DEFAULT_DAY_END = time(12, 0)  # the last slot of a 08:00–12:00 morning starts at 11:30
DEFAULT_SLOT_MINUTES = 30


@dataclass(frozen=True, slots=True)
class WorkPattern:
    """An inspector works on `weekday` (0 = Monday) from `start` to `end`, one slot every `slot_minutes`, at
    `place_id`, from `valid_from` to `valid_to` (None = open-ended)."""

    inspector_id: int
    weekday: int
    start: time
    end: time
    slot_minutes: int = DEFAULT_SLOT_MINUTES
    place_id: int | None = None
    valid_from: date = date(2000, 1, 1)
    valid_to: date | None = None

    def applies_on(self, day: date) -> bool:
        return (day.weekday() == self.weekday and day >= self.valid_from
                and (self.valid_to is None or day <= self.valid_to))


@dataclass(frozen=True, slots=True, order=True)
class Slot:
    """One bookable time of one inspector (start and end are aware, America/Cuiaba)."""

    start: datetime
    inspector_id: int
    end: datetime
    place_id: int | None = None

    @property
    def key(self) -> tuple[int, datetime]:
        return (self.inspector_id, self.start)

    @property
    def day(self) -> date:
        return self.start.astimezone(TIMEZONE).date()


def pattern_problems(weekday: int, start: time, end: time, slot_minutes: int) -> list[Problem]:
    """What is wrong with a working pattern, for the form (all at once)."""
    problems: list[Problem] = []
    if not 0 <= weekday <= 6:
        problems.append(Problem("weekday", "Escolha o dia da semana."))
    if end <= start:
        problems.append(Problem("end", "O fim do expediente deve ser depois do início."))
    if not 5 <= slot_minutes <= 480:
        problems.append(Problem("slot_minutes", "A duração de cada horário deve ficar entre 5 e 480 minutos."))
    elif end > start:
        length = (datetime.combine(date.min, end) - datetime.combine(date.min, start)).seconds // 60
        if length < slot_minutes:
            problems.append(Problem("slot_minutes", "O expediente é mais curto do que um horário."))
    return problems


def day_slots(pattern: WorkPattern, day: date) -> list[Slot]:
    """The slots of one pattern on one day: from start, every slot_minutes, each ending by `end`."""
    step = timedelta(minutes=pattern.slot_minutes)
    at = datetime.combine(day, pattern.start, tzinfo=TIMEZONE)
    stop = datetime.combine(day, pattern.end, tzinfo=TIMEZONE)
    slots = []
    while at + step <= stop:
        slots.append(Slot(at, pattern.inspector_id, at + step, pattern.place_id))
        at += step
    return slots


def blocked_reason(day: date, inspector_id: int, calendar: BusinessCalendar,
                   blocked: Mapping[tuple[int | None, date], str] | None = None) -> str | None:
    """Why an inspector does not work on `day`: a holiday of the calendar (national, MT, municipal), a day
    blocked for every inspector (key (None, day)) or for this one; None when the day is open."""
    name = calendar.holiday_name(day)
    if name:
        return name
    if blocked:
        for key in ((inspector_id, day), (None, day)):
            if key in blocked:
                return blocked[key] or "Dia bloqueado"
    return None


def generate_slots(patterns: Iterable[WorkPattern], first: date, last: date, calendar: BusinessCalendar,
                   blocked: Mapping[tuple[int | None, date], str] | None = None) -> list[Slot]:
    """Every slot from `first` to `last` (inclusive) of the patterns, skipping holidays and blocked days;
    sorted by start then inspector. Two patterns of one inspector that overlap give each start once."""
    by_weekday: dict[int, list[WorkPattern]] = {}
    for p in patterns:
        by_weekday.setdefault(p.weekday, []).append(p)
    seen: set[tuple[int, datetime]] = set()
    out: list[Slot] = []
    day = first
    while day <= last:
        todays = [p for p in by_weekday.get(day.weekday(), ()) if p.applies_on(day)]
        if todays and calendar.holiday_name(day) is None:
            for p in todays:
                if blocked and ((p.inspector_id, day) in blocked or (None, day) in blocked):
                    continue
                for slot in day_slots(p, day):
                    if slot.key not in seen:
                        seen.add(slot.key)
                        out.append(slot)
        day += timedelta(days=1)
    out.sort()
    return out


def overlaps(a_start: datetime, a_end: datetime, b_start: datetime, b_end: datetime) -> bool:
    """Two half-open intervals [start, end) share a moment."""
    return a_start < b_end and b_start < a_end


@dataclass(frozen=True, slots=True)
class Booked:
    """A live booking as the conflict check sees it."""

    id: int
    inspector_id: int
    vehicle_id: int
    start: datetime
    end: datetime


def booking_conflicts(slot: Slot, vehicle_id: int, booked: Iterable[Booked], ignore_id: int | None = None
                      ) -> list[Problem]:
    """Why `slot` cannot take the vehicle: the inspector is busy then (no double booking of a slot or an
    inspector), or the vehicle is already booked at an overlapping time."""
    problems: list[Problem] = []
    for b in booked:
        if b.id == ignore_id or not overlaps(slot.start, slot.end, b.start, b.end):
            continue
        if b.inspector_id == slot.inspector_id:
            problems.append(Problem("slot", "Este horário do vistoriador já está reservado para outra vistoria."))
        elif b.vehicle_id == vehicle_id:
            problems.append(Problem("vehicle", "Este veículo já tem outra vistoria marcada neste horário."))
    return problems


def free_slots(slots: Iterable[Slot], taken: Iterable[tuple[int, datetime]]) -> list[Slot]:
    """The slots whose (inspector, start) is not booked."""
    busy = set(taken)
    return [s for s in slots if s.key not in busy]


# ------------------------------------------------------------------------------------------------- terms

def booking_term(kind: str, *, approved_on: date | None = None, regularize_by: date | None = None,
                 calendar: BusinessCalendar) -> tuple[date | None, str]:
    """The last day a booking of `kind` may take, and its article: the initial inspection within the 5 days
    after the approval (Art. 9); the re-inspection within the 5 days to regularize (Art. 16, §2). Other kinds
    have no term here (None)."""
    if kind == "initial" and approved_on is not None:
        return deadline(approved_on, law.INSPECTION_PRESENTATION_DAYS, calendar), "Art. 9"
    if kind == "reinspection" and regularize_by is not None:
        return regularize_by, "Art. 16, §2"
    return None, ""


def term_problem(day: date, term_last_day: date | None, article: str) -> Problem | None:
    """A problem when a booking's day falls after its term (the scheduler then asks a gestor to confirm)."""
    if term_last_day is None or day <= term_last_day:
        return None
    return Problem("slot", f"O dia {format_date(day)} fica fora do prazo, que termina em "
                           f"{format_date(term_last_day)} ({article}).", article)


def slots_within(slots: Iterable[Slot], first: date, last: date | None) -> list[Slot]:
    """The slots from `first` up to the term's last day (all from `first` when there is no term)."""
    return [s for s in slots if s.day >= first and (last is None or s.day <= last)]


def annual_due_on(last_approved_on: date) -> date:
    """The day the next annual inspection falls due: one year after the last approval (Art. 16, caput)."""
    return annual_inspection_due(last_approved_on)


def is_due_by(last_approved_on: date, year: int, month: int) -> bool:
    """True when the annual inspection is due in (year, month) or earlier — the list of the month shows the
    vehicles approved in that month of the year before, and the overdue ones (Art. 16, caput)."""
    due = annual_due_on(last_approved_on)
    return (due.year, due.month) <= (year, month)


def regularization_expired(regularize_by: date | None, today: date) -> bool:
    """The 5 days of Art. 16 §2 ended without an approved re-inspection (Art. 26, II candidate when it serves)."""
    return regularize_by is not None and regularize_by < today


def fill_slots(request_ids: Sequence[int], slots: Sequence[Slot]) -> tuple[list[tuple[int, Slot]], list[int]]:
    """Bulk scheduling: give each request (in order) the next free slot (slots in order); one request per
    slot. Returns the pairs and the requests left without a slot."""
    pairs = list(zip(request_ids, slots))
    left = list(request_ids[len(pairs):])
    return pairs, left
