"""What the inspectors' desk shares between its use cases: the data it returns (frozen), the labels, and the
helpers that read the schedule (patterns, blocked days, slots) and turn booking rows into `BookingInfo` with the
actions available now (from `desktop.domain.inspection.BOOKING_STEPS`)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from desktop.domain import TIMEZONE, InspectionKind, format_date, format_plate, local_today
from desktop.domain.steps import Action
from desktop.domain.dates import WEEKDAY_NAMES
from desktop.domain.inspection import (
    LIVE_STATUSES,
    SCHEDULER_ROLES,
    BOOKING_STEPS_BY_KEY,
    BookingFacts,
    InspectionResult,
    InspectionStatus,
    booking_actions,
    booking_refusal,
)
from desktop.domain.problems import Problem
from desktop.domain.roles import INSPECTION_ROLES, Role
from desktop.domain.scheduling import Slot, WorkPattern, generate_slots
from desktop.errors import TransitionRefused, ValidationError
from desktop.models import Authorization, Driver, Inspection, Vehicle
from desktop.models.admin import User, UserRole
from desktop.models.inspections import InspectionPlace, InspectorBlockedDay, InspectorSchedule
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.locking import check_version
from desktop.services.holidays import calendar_in
from desktop.services.lookups import get_or_404, user_names

SCHEDULERS = tuple(r for r in Role if r in SCHEDULER_ROLES)
CONFIGURERS = INSPECTION_ROLES.configure
ENFORCERS = INSPECTION_ROLES.enforce
STATUS_LABELS = {s.value: s.label for s in InspectionStatus}
RESULT_LABELS = {**{r.value: r.label for r in InspectionResult}, None: ""}
WEEKDAYS = tuple(name.capitalize() for name in WEEKDAY_NAMES)  # "Segunda-feira" … "Domingo"
LIVE = tuple(s.value for s in LIVE_STATUSES)  # the statuses that hold a slot ("scheduled")
SCHEDULED = InspectionStatus.SCHEDULED.value


def today() -> date:
    """The office's day (tests pin it)."""
    return local_today()


# ------------------------------------------------------------------------------------------------ data


@dataclass(frozen=True)
class PlaceInfo:
    id: int
    name: str
    address: str | None
    active: bool
    version: int


@dataclass(frozen=True)
class InspectorInfo:
    id: int
    full_name: str
    username: str


@dataclass(frozen=True)
class ScheduleInfo:
    id: int
    inspector_id: int
    inspector_name: str
    weekday: int
    weekday_label: str
    start_time: time
    end_time: time
    slot_minutes: int
    place_id: int | None
    place_name: str
    valid_from: date
    valid_to: date | None
    version: int


@dataclass(frozen=True)
class BlockedDayInfo:
    id: int
    inspector_id: int | None
    inspector_name: str
    day: date
    reason: str


@dataclass(frozen=True)
class BookingInfo:
    id: int
    kind: str
    kind_label: str
    status: str
    status_label: str
    result: str | None
    result_label: str
    vehicle_id: int
    plate_display: str
    authorization_id: int | None
    authorization_number: str
    authorization_status: str
    driver_name: str
    inspector_id: int | None
    inspector_name: str
    place_id: int | None
    place_name: str
    start: datetime | None
    end: datetime | None
    performed_at: datetime | None
    regularize_by: date | None
    term_end: date | None
    notes: str
    reschedule_reason: str
    cancel_reason: str
    version: int
    # What the reading user can do with it now (domain.inspection.BOOKING_STEPS): move, cancel, run, no_show,
    # convocation, report — each enabled or with the reason it is not.
    actions: tuple[Action, ...] = ()

    @property
    def title(self) -> str:
        return f"{self.plate_display} — {self.kind_label}"

    @property
    def live(self) -> bool:
        """It holds its slot (scheduled); a done, missed or cancelled booking frees it."""
        return self.status in LIVE

    @property
    def failed_or_missed(self) -> bool:
        """Done and failed (Art. 16, §2) or the vehicle did not come (Art. 26, I)."""
        return self.result == InspectionResult.FAILED or self.status == InspectionStatus.NO_SHOW


@dataclass(frozen=True)
class SlotInfo:
    """One slot of the calendar with every booking it holds: `booking` is the live one (None when the slot is
    free to book), `past` the done / missed ones of the same time, oldest first (a re-inspection may be booked
    in the slot of the failed inspection it follows)."""

    inspector_id: int
    start: datetime
    end: datetime
    place_id: int | None
    booking: BookingInfo | None
    past: tuple[BookingInfo, ...] = ()

    @property
    def bookings(self) -> tuple[BookingInfo, ...]:
        """Every booking of the slot, in time of booking: the past ones, then the live one."""
        return self.past + ((self.booking,) if self.booking is not None else ())

    @property
    def free(self) -> bool:
        return self.booking is None

    @property
    def shown(self) -> BookingInfo | None:
        """The booking the slot stands for: the live one, else the latest past one."""
        return self.booking if self.booking is not None else (self.past[-1] if self.past else None)


@dataclass(frozen=True)
class CalendarData:
    first: date
    last: date
    inspectors: tuple[InspectorInfo, ...]
    slots: tuple[SlotInfo, ...]
    closed_days: dict  # {day: reason} holidays and days blocked for everyone
    places: dict  # {place id: name}
    outside: tuple[BookingInfo, ...]  # live bookings not on a slot (the pattern changed since)


@dataclass(frozen=True)
class ItemResult:
    key: str
    passed: bool | None
    note: str = ""
    photo: bytes | None = None


@dataclass(frozen=True)
class ItemLine:
    key: str
    label: str
    article: str
    passed: bool | None
    note: str
    has_photo: bool


@dataclass(frozen=True)
class InspectionDetail:
    booking: BookingInfo
    items: tuple[ItemLine, ...]
    # After a result: what it did to the authorization, in plain words (domain.inspection.inspection_outcome).
    outcome: str = ""


@dataclass(frozen=True)
class BookingOptions:
    """What the booking dialog offers: the free slots (inside the term when there is one) and the term."""

    authorization_id: int
    kind: str
    plate_display: str
    driver_name: str
    term_last_day: date | None
    term_article: str
    slots: tuple[Slot, ...]
    outside_term: tuple[Slot, ...]  # offered to a gestor only, with a warning


@dataclass(frozen=True)
class AnnualDue:
    authorization_id: int
    authorization_number: str
    vehicle_id: int
    plate_display: str
    driver_name: str
    last_approved_on: date
    due_on: date
    overdue: bool


@dataclass(frozen=True)
class BulkResult:
    booked: int
    left: tuple[int, ...]  # authorizations without a free slot in the period
    first: date
    last: date

    @property
    def message(self) -> str:
        text = f"{self.booked} vistoria(s) anual(is) agendada(s) de {format_date(self.first)} a " \
               f"{format_date(self.last)}."
        if self.left:
            text += f" {len(self.left)} ficaram sem horário livre no período."
        return text


@dataclass(frozen=True)
class Art26Candidate:
    """A fact the fiscal may turn into an auto: a missed convocation (Art. 26, I) or an impeded vehicle whose
    5 days to regularize ended without an approved re-inspection (Art. 26, II)."""

    code: str  # "ART26-I" / "ART26-II"
    article: str
    authorization_id: int | None
    authorization_number: str
    plate_display: str
    driver_name: str
    driver_id: int | None
    on: date
    detail: str
    inspection_id: int | None


# --------------------------------------------------------------------------------------------- helpers


def kind_label(kind: str) -> str:
    try:
        return InspectionKind(kind).label
    except ValueError:
        return kind


def required_text(value: str | None, field: str, message: str, article: str = "") -> str:
    text = (value or "").strip()
    if not text:
        raise ValidationError([Problem(field, message, article)])
    return text


def local(dt: datetime) -> datetime:
    if dt.tzinfo is None:
        raise ValueError("Data-hora sem fuso horário (use America/Cuiaba)")
    return dt.astimezone(TIMEZONE)


def day_bounds(first: date, last: date) -> tuple[datetime, datetime]:
    return (datetime.combine(first, time(0), tzinfo=TIMEZONE),
            datetime.combine(last + timedelta(days=1), time(0), tzinfo=TIMEZONE))


def booking_day(row) -> date | None:
    start = row.scheduled_start
    return start.astimezone(TIMEZONE).date() if start else None


def facts_of(row, on: date | None = None) -> BookingFacts:
    """What the booking steps' conditions read (the day of the booking, today, the authorization link)."""
    return BookingFacts(booking_day(row), on or today(), row.authorization_id is not None)


def bookings(session: Session, rows: Sequence[Inspection], actor: Actor | None = None) -> list[BookingInfo]:
    """BookingInfo for many rows with a fixed number of queries, whatever their number; with `actor`, each
    carries the actions that user may take now."""
    if not rows:
        return []
    vehicles = dict(session.execute(select(Vehicle.id, Vehicle.plate)
                                    .where(Vehicle.id.in_({r.vehicle_id for r in rows}))).all())
    auth_ids = {r.authorization_id for r in rows if r.authorization_id}
    auths = {a.id: a for a in session.execute(
        select(Authorization.id, Authorization.number, Authorization.status, Authorization.driver_id)
        .where(Authorization.id.in_(auth_ids))).all()} if auth_ids else {}
    drivers = dict(session.execute(select(Driver.id, Driver.name).where(
        Driver.id.in_({a.driver_id for a in auths.values()}))).all()) if auths else {}
    names = user_names(session, (r.inspector_id for r in rows))
    places = dict(session.execute(select(InspectionPlace.id, InspectionPlace.name)).all())
    on = today()
    roles = actor.roles if actor is not None else frozenset()
    out = []
    for r in rows:
        a = auths.get(r.authorization_id)
        out.append(BookingInfo(
            id=r.id, kind=r.kind, kind_label=kind_label(r.kind), status=r.status,
            status_label=STATUS_LABELS.get(r.status, r.status), result=r.result,
            result_label=RESULT_LABELS.get(r.result, r.result or ""), vehicle_id=r.vehicle_id,
            plate_display=format_plate(vehicles.get(r.vehicle_id, "")), authorization_id=r.authorization_id,
            authorization_number=(a.number or "") if a else "", authorization_status=a.status if a else "",
            driver_name=drivers.get(a.driver_id, "") if a else "", inspector_id=r.inspector_id,
            inspector_name=names.get(r.inspector_id, "") if r.inspector_id else "", place_id=r.place_id,
            place_name=places.get(r.place_id, "") if r.place_id else "", start=r.scheduled_start,
            end=r.scheduled_end, performed_at=r.performed_at, regularize_by=r.regularize_by, term_end=r.term_end,
            notes=r.notes or "", reschedule_reason=r.reschedule_reason or "", cancel_reason=r.cancel_reason or "",
            version=r.version,
            actions=booking_actions(r.status, roles, facts_of(r, on)) if actor is not None else ()))
    return out


def booking(session: Session, row: Inspection, actor: Actor | None = None) -> BookingInfo:
    return bookings(session, [row], actor)[0]


def inspector_ids(session: Session) -> list[int]:
    return list(session.scalars(
        select(User.id).join(UserRole, UserRole.user_id == User.id)
        .where(UserRole.role == Role.VISTORIADOR.value, User.active.is_(True)).order_by(User.full_name)))


def patterns(session: Session, first: date, last: date, inspector_id: int | None = None) -> list[WorkPattern]:
    stmt = select(InspectorSchedule).where(
        InspectorSchedule.valid_from <= last,
        or_(InspectorSchedule.valid_to.is_(None), InspectorSchedule.valid_to >= first),
        InspectorSchedule.inspector_id.in_(inspector_ids(session)))
    if inspector_id is not None:
        stmt = stmt.where(InspectorSchedule.inspector_id == inspector_id)
    return [WorkPattern(p.inspector_id, p.weekday, p.start_time, p.end_time, p.slot_minutes, p.place_id,
                        p.valid_from, p.valid_to) for p in session.scalars(stmt)]


def blocked(session: Session, first: date, last: date) -> dict[tuple[int | None, date], str]:
    return {(b.inspector_id, b.day): b.reason or "Dia bloqueado" for b in session.scalars(
        select(InspectorBlockedDay).where(InspectorBlockedDay.day >= first, InspectorBlockedDay.day <= last))}


def live_rows(session: Session, first: date, last: date) -> list[Inspection]:
    lo, hi = day_bounds(first, last)
    return list(session.scalars(select(Inspection).where(
        Inspection.status.in_(LIVE), Inspection.scheduled_start >= lo, Inspection.scheduled_start < hi)
        .order_by(Inspection.scheduled_start)))


def slots(session: Session, first: date, last: date, inspector_id: int | None = None) -> list[Slot]:
    return generate_slots(patterns(session, first, last, inspector_id), first, last, calendar_in(session),
                          blocked(session, first, last))


def audit_row(session: Session, actor: Actor, action: str, row: Inspection, before: dict | None, **extra) -> None:
    after = {"status": row.status, "kind": row.kind, "vehicle_id": row.vehicle_id,
             "inspector_id": row.inspector_id,
             "start": row.scheduled_start.isoformat() if row.scheduled_start else None,
             "result": row.result, **extra}
    audit.record(session, actor, action, "inspection", row.id, before, after)


def snapshot(row: Inspection) -> dict:
    return {"status": row.status, "inspector_id": row.inspector_id,
            "start": row.scheduled_start.isoformat() if row.scheduled_start else None, "result": row.result}


def load(session: Session, inspection_id: int, expected_version: int | None) -> Inspection:
    row = get_or_404(session, Inspection, inspection_id, "Vistoria")
    if expected_version is not None:
        check_version(row, expected_version)
    return row


def step_roles(key: str) -> tuple[Role, ...]:
    """The roles that may take the booking step `key` (domain.inspection.BOOKING_STEPS), for require_role."""
    return tuple(r for r in Role if r in BOOKING_STEPS_BY_KEY[key].roles)


def require_step(row: Inspection, key: str, actor: Actor) -> None:
    """Refuse a booking step the table does not allow now (the same table draws the buttons,
    `domain.inspection.BOOKING_STEPS`): the status (TransitionRefused), then the step's own condition, the day
    (ValidationError, with the step's article). The role is checked first, by require_role(step_roles(key))."""
    step = BOOKING_STEPS_BY_KEY[key]
    if booking_refusal(key, row.status, actor.roles) is not None:
        raise TransitionRefused(f"A vistoria nº {row.id} está {STATUS_LABELS[row.status].lower()}: só uma vistoria "
                                "agendada pode ser remarcada, cancelada ou realizada.")
    reason = step.condition(facts_of(row)) if step.condition is not None else None
    if reason:
        raise ValidationError([Problem("status", f"{reason[0].upper()}{reason[1:]}.", step.article)])


def schedule_info(s: Session, rows: Iterable[InspectorSchedule]) -> list[ScheduleInfo]:
    rows = list(rows)
    names = user_names(s, (r.inspector_id for r in rows))
    places = dict(s.execute(select(InspectionPlace.id, InspectionPlace.name)).all())
    return [ScheduleInfo(r.id, r.inspector_id, names.get(r.inspector_id, ""), r.weekday, WEEKDAYS[r.weekday],
                         r.start_time, r.end_time, r.slot_minutes, r.place_id, places.get(r.place_id, ""),
                         r.valid_from, r.valid_to, r.version) for r in rows]
