"""The inspectors' desk (issue 5; Art. 9, 15, 16, 26 I-II): places, working patterns and blocked days; the
calendar of slots with their bookings; book, move (with a reason), cancel; run an inspection with its checklist;
no-shows; the annual inspections due with bulk scheduling; the Art. 26 candidates for the fiscal.

No double booking: the service checks the slot, and the database keeps one live booking per (inspector, start)
with the partial unique index `uq_inspections_inspector_slot` — when two desks book the same slot at once, one
wins and the other gets ConflictError with a Portuguese message.

The authorization's side of a result (initial approval → activation when the fee is paid; failure → `impeded`
with the Art. 16 §2 term; re-inspection approved → `active`) is done by `services.authorizations
.record_inspection_result`, inside this transaction.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from sqlalchemy import func, insert, or_, select
from sqlalchemy.orm import Session

from desktop.domain import (
    INSPECTION_CHECKLIST,
    INSPECTION_ITEMS_BY_KEY,
    TIMEZONE,
    AuthorizationStatus,
    InspectionKind,
    format_date,
    format_plate,
    inspection_problems,
    local_today,
)
from desktop.domain.formatting import weekday_names
from desktop.domain.problems import Problem
from desktop.domain.roles import Role
from desktop.domain.scheduling import (
    Booked,
    Slot,
    WorkPattern,
    blocked_reason,
    booking_conflicts,
    booking_term,
    fill_slots,
    free_slots,
    generate_slots,
    is_due_by,
    annual_due_on,
    pattern_problems,
    regularization_expired,
    term_problem,
)
from desktop.errors import ConflictError, TransitionRefused, ValidationError
from desktop.models import Authorization, Driver, Inspection, Vehicle
from desktop.models.admin import User, UserRole
from desktop.models.inspections import InspectionItem, InspectionPlace, InspectorBlockedDay, InspectorSchedule
from desktop.models.types import now
from desktop.services import audit
from desktop.services.base import Actor, check_version, require_role
from desktop.services.holidays import calendar_in
from desktop.services.search import get_or_404, require_reader, user_names

__all__ = [
    "PlaceInfo", "InspectorInfo", "ScheduleInfo", "BlockedDayInfo", "BookingInfo", "SlotInfo", "CalendarData",
    "ItemResult", "InspectionDetail", "AnnualDue", "BulkResult", "Art26Candidate", "BookingOptions",
    "STATUS_LABELS", "RESULT_LABELS", "SCHEDULERS",
    "list_inspectors", "list_places", "create_place", "list_schedules", "add_schedule", "end_schedule",
    "list_blocked_days", "block_day", "unblock_day", "calendar_data", "booking_options", "book_inspection",
    "move_inspection", "cancel_inspection", "record_no_show", "run_inspection", "get_inspection",
    "annual_due", "schedule_annual", "schedule_annual_job", "no_shows", "art26_ii_candidates",
]

S = AuthorizationStatus
SCHEDULERS = (Role.ATENDENTE, Role.VISTORIADOR, Role.GESTOR)
CONFIGURERS = (Role.GESTOR, Role.ADMINISTRADOR)
ENFORCERS = (Role.FISCAL, Role.GESTOR)
STATUS_LABELS = {"scheduled": "Agendada", "done": "Realizada", "no_show": "Não compareceu", "cancelled": "Cancelada"}
RESULT_LABELS = {"approved": "Aprovada", "failed": "Reprovada", None: ""}
WEEKDAYS = weekday_names(capital=True)      # "Segunda-feira" … "Domingo" (the one table, domain.formatting)

# Which authorization statuses each kind of inspection applies to.
_KIND_STATUSES = {
    "initial": (S.APPROVED,),
    "substitution": (S.APPROVED, S.IMPEDED),
    "reinspection": (S.APPROVED, S.IMPEDED),
    "annual": (S.ACTIVE,),
    "extraordinary": (S.ACTIVE, S.IMPEDED),
}


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

    @property
    def title(self) -> str:
        return f"{self.plate_display} — {self.kind_label}"


@dataclass(frozen=True)
class SlotInfo:
    """One slot of the calendar: free (booking None) or taken."""

    inspector_id: int
    start: datetime
    end: datetime
    place_id: int | None
    booking: BookingInfo | None


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


@contextmanager
def _joined(session: Session):
    yield session


class _InTransaction:
    """The Database as seen by another room's service called inside this transaction: its `session()` is this
    one, so both writes commit or roll back together."""

    def __init__(self, db, session: Session):
        self._db = db
        self._session = session

    def session(self, write: bool = True):
        return _joined(self._session)

    def __getattr__(self, name):
        return getattr(self._db, name)


def _kind_label(kind: str) -> str:
    try:
        return InspectionKind(kind).label
    except ValueError:
        return kind


def _text(value: str | None, field: str, message: str, article: str = "") -> str:
    text = (value or "").strip()
    if not text:
        raise ValidationError([Problem(field, message, article)])
    return text


def _local(dt: datetime) -> datetime:
    if dt.tzinfo is None:
        raise ValueError("Data-hora sem fuso horário (use America/Cuiaba)")
    return dt.astimezone(TIMEZONE)


def _day_bounds(first: date, last: date) -> tuple[datetime, datetime]:
    return (datetime.combine(first, time(0), tzinfo=TIMEZONE),
            datetime.combine(last + timedelta(days=1), time(0), tzinfo=TIMEZONE))


def _bookings(session: Session, rows: Sequence[Inspection]) -> list[BookingInfo]:
    """BookingInfo for many rows with four queries, whatever their number."""
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
    out = []
    for r in rows:
        a = auths.get(r.authorization_id)
        out.append(BookingInfo(
            id=r.id, kind=r.kind, kind_label=_kind_label(r.kind), status=r.status,
            status_label=STATUS_LABELS.get(r.status, r.status), result=r.result,
            result_label=RESULT_LABELS.get(r.result, r.result or ""), vehicle_id=r.vehicle_id,
            plate_display=format_plate(vehicles.get(r.vehicle_id, "")), authorization_id=r.authorization_id,
            authorization_number=(a.number or "") if a else "", authorization_status=a.status if a else "",
            driver_name=drivers.get(a.driver_id, "") if a else "", inspector_id=r.inspector_id,
            inspector_name=names.get(r.inspector_id, "") if r.inspector_id else "", place_id=r.place_id,
            place_name=places.get(r.place_id, "") if r.place_id else "", start=r.scheduled_start,
            end=r.scheduled_end, performed_at=r.performed_at, regularize_by=r.regularize_by, term_end=r.term_end,
            notes=r.notes or "", reschedule_reason=r.reschedule_reason or "", cancel_reason=r.cancel_reason or "",
            version=r.version))
    return out


def _booking(session: Session, row: Inspection) -> BookingInfo:
    return _bookings(session, [row])[0]


def _inspector_ids(session: Session) -> list[int]:
    return list(session.scalars(
        select(User.id).join(UserRole, UserRole.user_id == User.id)
        .where(UserRole.role == Role.VISTORIADOR.value, User.active.is_(True)).order_by(User.full_name)))


def _patterns(session: Session, first: date, last: date, inspector_id: int | None = None) -> list[WorkPattern]:
    stmt = select(InspectorSchedule).where(
        InspectorSchedule.valid_from <= last,
        or_(InspectorSchedule.valid_to.is_(None), InspectorSchedule.valid_to >= first),
        InspectorSchedule.inspector_id.in_(_inspector_ids(session)))
    if inspector_id is not None:
        stmt = stmt.where(InspectorSchedule.inspector_id == inspector_id)
    return [WorkPattern(p.inspector_id, p.weekday, p.start_time, p.end_time, p.slot_minutes, p.place_id,
                        p.valid_from, p.valid_to) for p in session.scalars(stmt)]


def _blocked(session: Session, first: date, last: date) -> dict[tuple[int | None, date], str]:
    return {(b.inspector_id, b.day): b.reason or "Dia bloqueado" for b in session.scalars(
        select(InspectorBlockedDay).where(InspectorBlockedDay.day >= first, InspectorBlockedDay.day <= last))}


def _live(session: Session, first: date, last: date) -> list[Inspection]:
    lo, hi = _day_bounds(first, last)
    return list(session.scalars(select(Inspection).where(
        Inspection.status == "scheduled", Inspection.scheduled_start >= lo, Inspection.scheduled_start < hi)
        .order_by(Inspection.scheduled_start)))


def _slots(session: Session, first: date, last: date, inspector_id: int | None = None) -> list[Slot]:
    return generate_slots(_patterns(session, first, last, inspector_id), first, last, calendar_in(session),
                          _blocked(session, first, last))


def _find_slot(session: Session, inspector_id: int, start: datetime) -> Slot:
    start = _local(start)
    day = start.date()
    for slot in _slots(session, day, day, inspector_id):
        if slot.start == start:
            return slot
    reason = blocked_reason(day, inspector_id, calendar_in(session), _blocked(session, day, day))
    name = user_names(session, [inspector_id]).get(inspector_id, "o vistoriador")
    why = f" ({reason})" if reason else ""
    raise ValidationError([Problem("slot", f"{start:%d/%m/%Y %H:%M} não é um horário de atendimento de {name}"
                                           f"{why}.")])


def _check_free(session: Session, slot: Slot, vehicle_id: int, ignore_id: int | None = None) -> None:
    lo, hi = slot.start - timedelta(hours=12), slot.end + timedelta(hours=12)
    booked = [Booked(r.id, r.inspector_id, r.vehicle_id, r.scheduled_start, r.scheduled_end or r.scheduled_start)
              for r in session.scalars(select(Inspection).where(
                  Inspection.status == "scheduled", Inspection.scheduled_start >= lo,
                  Inspection.scheduled_start < hi,
                  or_(Inspection.inspector_id == slot.inspector_id, Inspection.vehicle_id == vehicle_id)))]
    problems = booking_conflicts(slot, vehicle_id, booked, ignore_id)
    if problems:
        raise ConflictError(problems[0].message)


def _term(session: Session, a: Authorization, kind: str) -> tuple[date | None, str]:
    return booking_term(kind, approved_on=a.decided_on if kind == "initial" else None,
                        regularize_by=a.regularize_by, calendar=calendar_in(session))


def _check_kind(a: Authorization, kind: str) -> None:
    if kind not in _KIND_STATUSES:
        raise ValidationError([Problem("kind", "Escolha o tipo de vistoria.")])
    if a.status not in _KIND_STATUSES[kind]:
        from desktop.services.authorizations import _label
        raise TransitionRefused(f"Autorização {_label(a.status).lower()}: não cabe vistoria "
                                f"{_kind_label(kind).lower()} ({InspectionKind(kind).article}).")


def _audit_row(session: Session, actor: Actor, action: str, row: Inspection, before: dict | None, **extra) -> None:
    after = {"status": row.status, "kind": row.kind, "vehicle_id": row.vehicle_id,
             "inspector_id": row.inspector_id,
             "start": row.scheduled_start.isoformat() if row.scheduled_start else None,
             "result": row.result, **extra}
    audit.record(session, actor, action, "inspection", row.id, before, after)


def _snapshot(row: Inspection) -> dict:
    return {"status": row.status, "inspector_id": row.inspector_id,
            "start": row.scheduled_start.isoformat() if row.scheduled_start else None, "result": row.result}


def _load(session: Session, inspection_id: int, expected_version: int | None) -> Inspection:
    row = get_or_404(session, Inspection, inspection_id, "Vistoria")
    if expected_version is not None:
        check_version(row, expected_version)
    return row


def _require_scheduled(row: Inspection) -> None:
    if row.status != "scheduled":
        raise TransitionRefused(f"A vistoria nº {row.id} está {STATUS_LABELS[row.status].lower()}: só uma vistoria "
                                "agendada pode ser remarcada, cancelada ou realizada.")


# ------------------------------------------------------------------------------------------ configuration


def list_inspectors(db, actor: Actor) -> list[InspectorInfo]:
    require_reader(actor)
    with db.session(write=False) as s:
        ids = _inspector_ids(s)
        users = {u.id: u for u in s.scalars(select(User).where(User.id.in_(ids)))} if ids else {}
        return [InspectorInfo(i, users[i].full_name, users[i].username) for i in ids]


def list_places(db, actor: Actor, include_inactive: bool = False) -> list[PlaceInfo]:
    require_reader(actor)
    with db.session(write=False) as s:
        stmt = select(InspectionPlace).order_by(InspectionPlace.name)
        if not include_inactive:
            stmt = stmt.where(InspectionPlace.active.is_(True))
        return [PlaceInfo(p.id, p.name, p.address, p.active, p.version) for p in s.scalars(stmt)]


def create_place(db, actor: Actor, name: str, address: str | None = None) -> PlaceInfo:
    require_role(actor, *CONFIGURERS)
    name = _text(name, "name", "Informe o nome do local de vistoria.")
    with db.session() as s:
        p = InspectionPlace(name=name, address=(address or "").strip() or None, active=True)
        s.add(p)
        s.flush()
        audit.record(s, actor, "create", "inspection_place", p.id, None, {"name": p.name, "address": p.address})
        return PlaceInfo(p.id, p.name, p.address, p.active, p.version)


def _schedule_info(s: Session, rows: Iterable[InspectorSchedule]) -> list[ScheduleInfo]:
    rows = list(rows)
    names = user_names(s, (r.inspector_id for r in rows))
    places = dict(s.execute(select(InspectionPlace.id, InspectionPlace.name)).all())
    return [ScheduleInfo(r.id, r.inspector_id, names.get(r.inspector_id, ""), r.weekday, WEEKDAYS[r.weekday],
                         r.start_time, r.end_time, r.slot_minutes, r.place_id, places.get(r.place_id, ""),
                         r.valid_from, r.valid_to, r.version) for r in rows]


def list_schedules(db, actor: Actor, inspector_id: int | None = None, on: date | None = None) -> list[ScheduleInfo]:
    """The working patterns in force on `on` (default today)."""
    require_reader(actor)
    on = on or today()
    with db.session(write=False) as s:
        stmt = select(InspectorSchedule).where(
            InspectorSchedule.valid_from <= on,
            or_(InspectorSchedule.valid_to.is_(None), InspectorSchedule.valid_to >= on)) \
            .order_by(InspectorSchedule.inspector_id, InspectorSchedule.weekday, InspectorSchedule.start_time)
        if inspector_id is not None:
            stmt = stmt.where(InspectorSchedule.inspector_id == inspector_id)
        return _schedule_info(s, s.scalars(stmt))


def add_schedule(db, actor: Actor, inspector_id: int, weekday: int, start_time: time, end_time: time,
                 slot_minutes: int = 30, place_id: int | None = None, valid_from: date | None = None,
                 valid_to: date | None = None) -> ScheduleInfo:
    """A working pattern of an inspector (e.g. Monday 08:00–12:00, every 30 minutes → 8 slots)."""
    require_role(actor, *CONFIGURERS)
    problems = pattern_problems(weekday, start_time, end_time, slot_minutes)
    if problems:
        raise ValidationError(problems)
    with db.session() as s:
        user = get_or_404(s, User, inspector_id, "Usuário")
        if Role.VISTORIADOR not in user.roles or not user.active:
            raise ValidationError([Problem("inspector", f"{user.full_name} não é um vistoriador ativo.")])
        if place_id is not None:
            get_or_404(s, InspectionPlace, place_id, "Local de vistoria")
        row = InspectorSchedule(inspector_id=inspector_id, weekday=weekday, start_time=start_time,
                                end_time=end_time, slot_minutes=slot_minutes, place_id=place_id,
                                valid_from=valid_from or today(), valid_to=valid_to)
        s.add(row)
        s.flush()
        audit.record(s, actor, "create", "inspector_schedule", row.id, None,
                     {"inspector_id": inspector_id, "weekday": weekday, "start": start_time.isoformat(),
                      "end": end_time.isoformat(), "slot_minutes": slot_minutes})
        return _schedule_info(s, [row])[0]


def end_schedule(db, actor: Actor, schedule_id: int, last_day: date, expected_version: int) -> ScheduleInfo:
    """The pattern stops after `last_day` (kept for the history; bookings already made stay)."""
    require_role(actor, *CONFIGURERS)
    with db.session() as s:
        row = get_or_404(s, InspectorSchedule, schedule_id, "Horário de vistoriador")
        check_version(row, expected_version)
        last_day = max(last_day, row.valid_from)
        before = {"valid_to": row.valid_to.isoformat() if row.valid_to else None}
        row.valid_to = last_day
        s.flush()
        audit.record(s, actor, "end", "inspector_schedule", row.id, before, {"valid_to": last_day.isoformat()})
        return _schedule_info(s, [row])[0]


def list_blocked_days(db, actor: Actor, first: date, last: date) -> list[BlockedDayInfo]:
    require_reader(actor)
    with db.session(write=False) as s:
        rows = list(s.scalars(select(InspectorBlockedDay).where(
            InspectorBlockedDay.day >= first, InspectorBlockedDay.day <= last).order_by(InspectorBlockedDay.day)))
        names = user_names(s, (r.inspector_id for r in rows))
        return [BlockedDayInfo(r.id, r.inspector_id, names.get(r.inspector_id, "Todos os vistoriadores")
                               if r.inspector_id else "Todos os vistoriadores", r.day, r.reason or "")
                for r in rows]


def block_day(db, actor: Actor, day: date, reason: str, inspector_id: int | None = None) -> BlockedDayInfo:
    """A day without inspections for one inspector (leave, training) or for all (inspector_id None). Live
    bookings on that day must be moved first."""
    require_role(actor, *CONFIGURERS)
    why = _text(reason, "reason", "Informe o motivo do bloqueio.")
    with db.session() as s:
        lo, hi = _day_bounds(day, day)
        stmt = select(func.count()).select_from(Inspection).where(
            Inspection.status == "scheduled", Inspection.scheduled_start >= lo, Inspection.scheduled_start < hi)
        if inspector_id is not None:
            stmt = stmt.where(Inspection.inspector_id == inspector_id)
        taken = s.scalar(stmt)
        if taken:
            raise ConflictError(f"Há {taken} vistoria(s) marcada(s) em {format_date(day)}: remarque-as antes de "
                                "bloquear o dia.")
        row = InspectorBlockedDay(inspector_id=inspector_id, day=day, reason=why)
        s.add(row)
        s.flush()
        audit.record(s, actor, "block", "inspector_blocked_day", row.id, None,
                     {"inspector_id": inspector_id, "day": day.isoformat(), "reason": why})
        name = user_names(s, [inspector_id]).get(inspector_id, "") if inspector_id else "Todos os vistoriadores"
        return BlockedDayInfo(row.id, inspector_id, name, day, why)


def unblock_day(db, actor: Actor, blocked_id: int) -> None:
    require_role(actor, *CONFIGURERS)
    with db.session() as s:
        row = get_or_404(s, InspectorBlockedDay, blocked_id, "Dia bloqueado")
        audit.record(s, actor, "unblock", "inspector_blocked_day", row.id,
                     {"inspector_id": row.inspector_id, "day": row.day.isoformat(), "reason": row.reason}, None)
        s.delete(row)


# ------------------------------------------------------------------------------------------------ calendar


def calendar_data(db, actor: Actor, first: date, last: date) -> CalendarData:
    """Every slot from `first` to `last` with its booking — scheduled, or done / no-show for the past (the day,
    week and month views)."""
    require_reader(actor)
    with db.session(write=False) as s:
        cal = calendar_in(s)
        blocked = _blocked(s, first, last)
        slots = generate_slots(_patterns(s, first, last), first, last, cal, blocked)
        lo, hi = _day_bounds(first, last)
        shown = _bookings(s, list(s.scalars(select(Inspection).where(
            Inspection.status.in_(("scheduled", "done", "no_show")), Inspection.scheduled_start >= lo,
            Inspection.scheduled_start < hi).order_by(Inspection.scheduled_start, Inspection.id))))
        by_key: dict = {}
        for b in shown:  # a live booking wins over a past one of the same slot
            if b.status == "scheduled" or (b.inspector_id, b.start) not in by_key:
                by_key[(b.inspector_id, b.start)] = b
        out = []
        for slot in slots:
            out.append(SlotInfo(slot.inspector_id, slot.start, slot.end, slot.place_id, by_key.pop(slot.key, None)))
        closed = {}
        d = first
        while d <= last:
            name = cal.holiday_name(d) or blocked.get((None, d))
            if name:
                closed[d] = name
            d += timedelta(days=1)
        ids = _inspector_ids(s)
        names = user_names(s, ids)
        users = dict(s.execute(select(User.id, User.username).where(User.id.in_(ids))).all()) if ids else {}
        places = dict(s.execute(select(InspectionPlace.id, InspectionPlace.name)).all())
        return CalendarData(first, last, tuple(InspectorInfo(i, names.get(i, ""), users.get(i, "")) for i in ids),
                            tuple(out), closed, places, tuple(b for b in by_key.values() if b.status == "scheduled"))


def booking_options(db, actor: Actor, authorization_id: int, kind: str, first: date | None = None,
                    days: int = 30) -> BookingOptions:
    """The free slots for an authorization's inspection of `kind`: inside its term (Art. 9 for the initial one,
    Art. 16 §2 for the re-inspection) — the slots after the term are listed apart, for a gestor."""
    require_reader(actor)
    first = first or today()
    with db.session(write=False) as s:
        a = get_or_404(s, Authorization, authorization_id, "Autorização")
        _check_kind(a, kind)
        last_day, article = _term(s, a, kind)
        last = first + timedelta(days=days)
        if last_day is not None:
            last = max(last, last_day)
        slots = free_slots(_slots(s, first, last), ((r.inspector_id, r.scheduled_start) for r in _live(s, first, last)))
        inside = tuple(x for x in slots if last_day is None or x.day <= last_day)
        outside = tuple(x for x in slots if last_day is not None and x.day > last_day)
        driver = s.get(Driver, a.driver_id)
        vehicle = s.get(Vehicle, a.vehicle_id)
        return BookingOptions(a.id, kind, format_plate(vehicle.plate), driver.name, last_day, article, inside, outside)


# ------------------------------------------------------------------------------------------------ booking


def book_inspection(db, actor: Actor, authorization_id: int, kind: str, inspector_id: int, start: datetime,
                    *, notified_on: date | None = None, override_term: bool = False, reason: str = "",
                    previous_id: int | None = None) -> BookingInfo:
    """Book a slot for the vehicle of an authorization.

    - initial: only inside the 5 days after the approval (Art. 9); after it, only a gestor, with
      `override_term` and a reason;
    - re-inspection: inside the 5 days to regularize (Art. 16, §2), same exception;
    - extraordinary: the day of the notification is recorded (Art. 16, §1).
    The slot must be one of the inspector's and free (ConflictError otherwise, also when another desk took it
    a moment before: the database index decides)."""
    require_role(actor, *SCHEDULERS)
    start = _local(start)
    with db.session() as s:
        a = get_or_404(s, Authorization, authorization_id, "Autorização")
        _check_kind(a, kind)
        slot = _find_slot(s, inspector_id, start)
        if slot.day < today():
            raise ValidationError([Problem("slot", "Não é possível marcar vistoria em dia que já passou.")])
        last_day, article = _term(s, a, kind)
        problem = term_problem(slot.day, last_day, article)
        if problem is not None:
            if not (override_term and actor.has(Role.GESTOR)):
                raise ValidationError([problem])
            _text(reason, "reason", "Informe por que a vistoria fica fora do prazo.", article)
        _check_free(s, slot, a.vehicle_id)
        if kind == "extraordinary" and notified_on is None:
            notified_on = today()
        row = Inspection(kind=kind, vehicle_id=a.vehicle_id, authorization_id=a.id, inspector_id=inspector_id,
                         place_id=slot.place_id, scheduled_start=slot.start, scheduled_end=slot.end,
                         status="scheduled", convocation_notified_on=notified_on, term_end=last_day,
                         term_start=a.decided_on if kind == "initial" else None, previous_id=previous_id,
                         notes=(reason or "").strip() or None, created_by=actor.user_id)
        s.add(row)
        s.flush()
        _audit_row(s, actor, "book", row, None, **({"outside_term": problem.message} if problem else {}))
        return _booking(s, row)


def move_inspection(db, actor: Actor, inspection_id: int, inspector_id: int, start: datetime, reason: str,
                    expected_version: int, *, override_term: bool = False) -> BookingInfo:
    """Reschedule (remarcar) to another free slot, with the reason (kept with the booking and in the audit)."""
    require_role(actor, *SCHEDULERS)
    why = _text(reason, "reason", "Informe o motivo da remarcação.")
    start = _local(start)
    with db.session() as s:
        row = _load(s, inspection_id, expected_version)
        _require_scheduled(row)
        before = _snapshot(row)
        slot = _find_slot(s, inspector_id, start)
        if slot.day < today():
            raise ValidationError([Problem("slot", "Não é possível remarcar para um dia que já passou.")])
        problem = term_problem(slot.day, row.term_end, "Art. 9" if row.kind == "initial" else "Art. 16, §2")
        if problem is not None and not (override_term and actor.has(Role.GESTOR)):
            raise ValidationError([problem])
        _check_free(s, slot, row.vehicle_id, ignore_id=row.id)
        old = row.scheduled_start
        row.inspector_id = slot.inspector_id
        row.place_id = slot.place_id
        row.scheduled_start = slot.start
        row.scheduled_end = slot.end
        row.reschedule_reason = f"{why} (antes: {old.astimezone(TIMEZONE):%d/%m/%Y %H:%M})" if old else why
        s.flush()
        _audit_row(s, actor, "move", row, before, reason=why)
        return _booking(s, row)


def cancel_inspection(db, actor: Actor, inspection_id: int, reason: str, expected_version: int) -> BookingInfo:
    require_role(actor, *SCHEDULERS)
    why = _text(reason, "reason", "Informe o motivo do cancelamento.")
    with db.session() as s:
        row = _load(s, inspection_id, expected_version)
        _require_scheduled(row)
        before = _snapshot(row)
        row.status = "cancelled"
        row.cancel_reason = why
        s.flush()
        _audit_row(s, actor, "cancel", row, before, reason=why)
        return _booking(s, row)


def record_no_show(db, actor: Actor, inspection_id: int, expected_version: int, note: str = "") -> BookingInfo:
    """The vehicle did not come to the convocation: an Art. 26, I candidate for the fiscal."""
    require_role(actor, Role.VISTORIADOR, Role.GESTOR)
    with db.session() as s:
        row = _load(s, inspection_id, expected_version)
        _require_scheduled(row)
        if row.scheduled_start and row.scheduled_start.astimezone(TIMEZONE).date() > today():
            raise ValidationError([Problem("status", "A vistoria ainda não aconteceu: a ausência só pode ser "
                                                     "registrada no dia marcado ou depois.", "Art. 26, I")])
        before = _snapshot(row)
        row.status = "no_show"
        row.notes = "; ".join(p for p in (row.notes, (note or "").strip()) if p) or None
        s.flush()
        _audit_row(s, actor, "no_show", row, before)
        return _booking(s, row)


def _required_keys(kind: str) -> tuple[str, ...]:
    keys = tuple(i.key for i in INSPECTION_CHECKLIST)
    if kind in ("initial", "substitution"):  # the municipal sticker is handed out after this approval (Art. 14)
        return tuple(k for k in keys if k != "municipal_sticker")
    return keys


def run_inspection(db, actor: Actor, inspection_id: int, results: Sequence[ItemResult], note: str = "",
                   expected_version: int | None = None) -> InspectionDetail:
    """Record what the inspector checked (Art. 2 §1, 13 XIII-XV, 14, 15 I-VIII): approved when every required
    line passed, failed otherwise. The authorization follows (services.authorizations.record_inspection_result):
    the initial approval is recorded (active once the fee is paid); a failure gives the 5 days of Art. 16 §2
    and impedes the authorization until a re-inspection approves it."""
    from desktop.services import authorizations as auth_service

    require_role(actor, Role.VISTORIADOR)
    given = {r.key: r for r in results}
    unknown = sorted(set(given) - set(INSPECTION_ITEMS_BY_KEY))
    if unknown:
        raise ValidationError([Problem(k, f"Item de vistoria desconhecido: {k}.") for k in unknown])
    with db.session() as s:
        row = _load(s, inspection_id, expected_version)
        _require_scheduled(row)
        day = row.scheduled_start.astimezone(TIMEZONE).date() if row.scheduled_start else today()
        if day > today():
            raise ValidationError([Problem("status", f"A vistoria está marcada para {format_date(day)}: o resultado "
                                                     "é registrado no dia.")])
        problems = inspection_problems({k: r.passed for k, r in given.items() if r.passed is not None},
                                       _required_keys(row.kind))
        unchecked = [p for p in problems if p.message.startswith("Item não verificado")]
        if unchecked:
            raise ValidationError(unchecked)
        approved = not problems
        failed_text = "; ".join(INSPECTION_ITEMS_BY_KEY[p.field].label + (f" ({given[p.field].note.strip()})"
                                if given[p.field].note.strip() else "") for p in problems)
        text = "; ".join(t for t in ((note or "").strip(), failed_text) if t)
        before = _snapshot(row)
        result_note = text
        if row.authorization_id is not None:
            a = s.get(Authorization, row.authorization_id)
            last_id = s.scalar(select(func.max(Inspection.id))) or 0
            auth_service.record_inspection_result(_InTransaction(db, s), actor, a.id, approved, on=day,
                                                  note=result_note, expected_version=a.version)
            s.flush()
            # The lifecycle wrote its own "done" row; this booking is that inspection: keep one row.
            extra = s.scalars(select(Inspection).where(Inspection.id > last_id,
                                                       Inspection.authorization_id == a.id)).all()
            for other in extra:
                row.regularize_by = other.regularize_by
                row.performed_at = other.performed_at
                s.delete(other)
        else:
            row.regularize_by = None
        row.status = "done"
        row.result = "approved" if approved else "failed"
        row.performed_at = row.performed_at or now()
        row.notes = "; ".join(p for p in (row.notes, text) if p) or None
        for key, r in given.items():
            row.items.append(InspectionItem(item_key=key, passed=r.passed, note=(r.note or "").strip() or None,
                                            photo=r.photo))
        s.flush()
        _audit_row(s, actor, "inspect", row, before, regularize_by=row.regularize_by.isoformat()
                   if row.regularize_by else None)
        return _detail(s, row)


# Keys written by the demo loader for lines of INSPECTION_CHECKLIST (as services.documents reads them too).
_ITEM_ALIASES = {"doors_4": "four_doors", "seats_max_7": "capacity", "original_characteristics": "original_features"}


def _detail(s: Session, row: Inspection) -> InspectionDetail:
    by_key = {_ITEM_ALIASES.get(i.item_key, i.item_key): i for i in row.items}
    photos = {_ITEM_ALIASES.get(k, k) for k in s.scalars(select(InspectionItem.item_key).where(
        InspectionItem.inspection_id == row.id, InspectionItem.photo.is_not(None)))}
    lines = []
    for item in INSPECTION_CHECKLIST:
        got = by_key.get(item.key)
        lines.append(ItemLine(item.key, item.label, item.article, got.passed if got else None,
                              (got.note or "") if got else "", item.key in photos))
    return InspectionDetail(_booking(s, row), tuple(lines))


def get_inspection(db, actor: Actor, inspection_id: int) -> InspectionDetail:
    require_reader(actor)
    with db.session(write=False) as s:
        return _detail(s, get_or_404(s, Inspection, inspection_id, "Vistoria"))


def list_bookings(db, actor: Actor, authorization_id: int) -> list[BookingInfo]:
    """Every inspection of an authorization, newest first."""
    require_reader(actor)
    with db.session(write=False) as s:
        return _bookings(s, list(s.scalars(select(Inspection).where(Inspection.authorization_id == authorization_id)
                                           .order_by(Inspection.id.desc()))))


# ------------------------------------------------------------------------------------------------ annual


def annual_due(db, actor: Actor, year: int, month: int, include_booked: bool = False) -> list[AnnualDue]:
    """The active authorizations whose annual inspection falls due by (year, month): one year after the last
    approved inspection (`inspection_approved_on`, or the activation when it was waived; Art. 16, caput), the overdue ones too; without those already booked for one."""
    require_reader(actor)
    with db.session(write=False) as s:
        return _annual_due(s, year, month, include_booked)


def _annual_due(s: Session, year: int, month: int, include_booked: bool = False) -> list[AnnualDue]:
    booked = set() if include_booked else set(s.scalars(select(Inspection.authorization_id).where(
        Inspection.status == "scheduled", Inspection.kind.in_(("annual", "extraordinary")))))
    rows = s.execute(select(Authorization.id, Authorization.number, Authorization.vehicle_id,
                            Authorization.inspection_approved_on, Authorization.activated_on, Vehicle.plate,
                            Driver.name)
                     .join(Vehicle, Vehicle.id == Authorization.vehicle_id)
                     .join(Driver, Driver.id == Authorization.driver_id)
                     .where(Authorization.status == S.ACTIVE.value)).all()
    first_of_month = date(year, month, 1)
    out = []
    for aid, number, vid, approved_on, activated_on, plate, name in rows:
        if aid in booked:
            continue
        last = approved_on or activated_on  # the last approval (record_inspection_result keeps it current)
        if last is None or not is_due_by(last, year, month):
            continue
        due = annual_due_on(last)
        out.append(AnnualDue(aid, number or "", vid, format_plate(plate), name, last, due, due < first_of_month))
    out.sort(key=lambda d: (d.due_on, d.plate_display))
    return out


def schedule_annual(db, actor: Actor, authorization_ids: Sequence[int], first: date, last: date,
                    progress: Callable[[int, int, str], None] | None = None,
                    cancelled: Callable[[], bool] | None = None) -> BulkResult:
    """Bulk scheduling: the annual inspections of `authorization_ids` (in order) into the free slots from
    `first` to `last` (Art. 16, caput), one transaction, one audit entry. Authorizations not active or already
    booked are skipped (counted in `left`)."""
    require_role(actor, *SCHEDULERS)
    if last < first:
        raise ValidationError([Problem("last", "O fim do período deve ser depois do início.")])
    first = max(first, today())
    with db.session() as s:
        if progress:
            progress(0, 3, "Lendo a agenda dos vistoriadores…")
        slots = _slots(s, first, last)
        lo, hi = _day_bounds(first, last)
        taken = s.execute(select(Inspection.inspector_id, Inspection.scheduled_start).where(
            Inspection.status == "scheduled", Inspection.scheduled_start >= lo, Inspection.scheduled_start < hi)).all()
        free = free_slots(slots, [(i, st) for i, st in taken])
        wanted = list(dict.fromkeys(authorization_ids))
        live = set()
        vehicles: dict[int, int] = {}
        for chunk in range(0, len(wanted), 900):
            part = wanted[chunk:chunk + 900]
            vehicles.update(s.execute(select(Authorization.id, Authorization.vehicle_id).where(
                Authorization.id.in_(part), Authorization.status == S.ACTIVE.value)).all())
            live.update(s.scalars(select(Inspection.authorization_id).where(
                Inspection.authorization_id.in_(part), Inspection.status == "scheduled")))
        eligible = [a for a in wanted if a in vehicles and a not in live]
        skipped = [a for a in wanted if a not in vehicles or a in live]
        if cancelled and cancelled():
            raise ConflictError("Agendamento em lote cancelado: nada foi gravado.")
        pairs, left = fill_slots(eligible, free)
        if progress:
            progress(1, 3, f"Gravando {len(pairs)} vistorias…")
        created = now()
        rows = [dict(kind="annual", vehicle_id=vehicles[aid], authorization_id=aid, inspector_id=slot.inspector_id,
                     place_id=slot.place_id, scheduled_start=slot.start, scheduled_end=slot.end, status="scheduled",
                     version=1, created_at=created, created_by=actor.user_id) for aid, slot in pairs]
        if rows:
            s.execute(insert(Inspection), rows)
        audit.record(s, actor, "bulk_schedule", "inspection", None, None,
                     {"kind": "annual", "booked": len(rows), "first": first.isoformat(), "last": last.isoformat(),
                      "left": len(left) + len(skipped)})
        if progress:
            progress(3, 3, "Concluído")
        return BulkResult(len(rows), tuple(skipped + left), first, last)


def schedule_annual_job(state, db, actor: Actor, year: int, month: int, first: date, last: date) -> BulkResult:
    """The background task of the screen (desktop.tasks): every due annual inspection of (year, month) into the
    free slots of the period."""
    with db.session(write=False) as s:
        ids = [d.authorization_id for d in _annual_due(s, year, month)]

    def progress(done: int, total: int, text: str) -> None:
        if state is not None:
            state.progress(done, total, text)

    def cancelled() -> bool:
        return bool(state is not None and state.cancelled)

    return schedule_annual(db, actor, ids, first, last, progress=progress, cancelled=cancelled)


# --------------------------------------------------------------------------------------- for the fiscal


def no_shows(db, actor: Actor, first: date | None = None) -> list[Art26Candidate]:
    """Missed convocations (Art. 26, I: "deixar de comparecer à vistoria"), newest first."""
    require_role(actor, *ENFORCERS, Role.VISTORIADOR)
    with db.session(write=False) as s:
        stmt = select(Inspection).where(Inspection.status == "no_show").order_by(Inspection.scheduled_start.desc())
        if first is not None:
            stmt = stmt.where(Inspection.scheduled_start >= _day_bounds(first, first)[0])
        rows = _bookings(s, list(s.scalars(stmt.limit(2000))))
        drivers = _driver_ids(s, [r.authorization_id for r in rows])
        return [Art26Candidate("ART26-I", "Art. 26, I", r.authorization_id, r.authorization_number,
                               r.plate_display, r.driver_name, drivers.get(r.authorization_id),
                               r.start.astimezone(TIMEZONE).date() if r.start else today(),
                               f"Não compareceu à vistoria {r.kind_label.lower()} marcada para "
                               f"{r.start.astimezone(TIMEZONE):%d/%m/%Y %H:%M}" if r.start else "Não compareceu",
                               r.id) for r in rows]


def _driver_ids(s: Session, auth_ids: Iterable[int | None]) -> dict[int, int]:
    ids = {i for i in auth_ids if i}
    if not ids:
        return {}
    return dict(s.execute(select(Authorization.id, Authorization.driver_id).where(Authorization.id.in_(ids))).all())


def art26_ii_candidates(db, actor: Actor, on: date | None = None) -> list[Art26Candidate]:
    """Impeded authorizations whose 5 days to regularize (Art. 16, §2) ended without an approved
    re-inspection: if the vehicle serves, it is Art. 26, II."""
    require_role(actor, *ENFORCERS, Role.VISTORIADOR)
    on = on or today()
    with db.session(write=False) as s:
        rows = s.execute(select(Authorization.id, Authorization.number, Authorization.regularize_by,
                                Authorization.driver_id, Vehicle.plate, Driver.name)
                         .join(Vehicle, Vehicle.id == Authorization.vehicle_id)
                         .join(Driver, Driver.id == Authorization.driver_id)
                         .where(Authorization.status == S.IMPEDED.value, Authorization.regularize_by.is_not(None),
                                Authorization.regularize_by < on)
                         .order_by(Authorization.regularize_by)).all()
        failed = dict(s.execute(select(Inspection.authorization_id, func.max(Inspection.id)).where(
            Inspection.result == "failed", Inspection.authorization_id.in_([r[0] for r in rows] or [0]))
            .group_by(Inspection.authorization_id)).all())
        return [Art26Candidate("ART26-II", "Art. 26, II", aid, number or "", format_plate(plate), name, driver_id,
                               regularize_by, f"Prazo para regularizar terminou em {format_date(regularize_by)} "
                               "sem vistoria aprovada (Art. 16, §2)", failed.get(aid))
                for aid, number, regularize_by, driver_id, plate, name in rows
                if regularization_expired(regularize_by, on)]
