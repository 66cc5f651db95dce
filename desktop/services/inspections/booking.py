"""Booking and the checklist (issue 5; Art. 9, 15, 16, 26 I): the calendar of slots with every booking they hold;
book, move (with a reason), cancel; record a no-show; run an inspection with its checklist.

No double booking: the service checks the slot, and the database keeps one live booking per (inspector, start)
with the partial unique index `uq_inspections_inspector_slot` — when two desks book the same slot at once, one
wins and the other gets ConflictError with a Portuguese message. A done, missed or cancelled booking frees its
slot (a re-inspection may take the slot of the failed inspection; the calendar shows both).

What can be done with a booking comes from `desktop.domain.inspection` (its state machine and BOOKING_STEPS); the
kinds' authorization statuses from `KIND_STATUSES`. The authorization's side of a result (initial approval →
activation when the fee is paid; failure → the Art. 16 §2 term, impeded when it was active; re-inspection
approved → `active`) is `services.authorizations`' session form, inside this transaction.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from desktop.domain import INSPECTION_CHECKLIST, INSPECTION_ITEMS_BY_KEY, TIMEZONE, format_plate, inspection_problems
from desktop.domain.inspection import (
    INSPECTION_MACHINE,
    InspectionKind,
    InspectionResult,
    InspectionStatus,
    inspection_outcome,
    kind_problem,
)
from desktop.domain.problems import Problem
from desktop.domain.roles import INSPECTION_ROLES
from desktop.domain.scheduling import (
    Booked,
    Slot,
    blocked_reason,
    booking_conflicts,
    booking_term,
    free_slots,
    generate_slots,
    term_problem,
)
from desktop.domain.workflow import TransitionNotAllowed, transition
from desktop.errors import ConflictError, TransitionRefused, ValidationError
from desktop.models import Authorization, Driver, Inspection, Vehicle
from desktop.models.admin import User
from desktop.models.inspections import InspectionItem, InspectionPlace
from desktop.models.types import now
from desktop.services.authorizations import record_inspection_result_in
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.holidays import calendar_in
from desktop.services.inspections.common import (
    LIVE,
    SCHEDULED,
    SCHEDULERS,
    BookingInfo,
    BookingOptions,
    CalendarData,
    InspectionDetail,
    InspectorInfo,
    ItemLine,
    ItemResult,
    SlotInfo,
    audit_row,
    blocked,
    booking,
    booking_day,
    bookings,
    day_bounds,
    inspector_ids,
    live_rows,
    load,
    local,
    patterns,
    require_step,
    required_text,
    slots,
    snapshot,
    step_roles,
    today,
)
from desktop.services.lookups import get_or_404, user_names
from desktop.services.permissions import require_reader

_SHOWN = (InspectionStatus.SCHEDULED.value, InspectionStatus.DONE.value, InspectionStatus.NO_SHOW.value)


def _find_slot(session: Session, inspector_id: int, start: datetime) -> Slot:
    start = local(start)
    day = start.date()
    for slot in slots(session, day, day, inspector_id):
        if slot.start == start:
            return slot
    reason = blocked_reason(day, inspector_id, calendar_in(session), blocked(session, day, day))
    name = user_names(session, [inspector_id]).get(inspector_id, "o vistoriador")
    why = f" ({reason})" if reason else ""
    raise ValidationError([Problem("slot", f"{start:%d/%m/%Y %H:%M} não é um horário de atendimento de {name}"
                                           f"{why}.")])


def _check_free(session: Session, slot: Slot, vehicle_id: int, ignore_id: int | None = None) -> None:
    lo, hi = slot.start - timedelta(hours=12), slot.end + timedelta(hours=12)
    booked = [Booked(r.id, r.inspector_id, r.vehicle_id, r.scheduled_start, r.scheduled_end or r.scheduled_start)
              for r in session.scalars(select(Inspection).where(
                  Inspection.status.in_(LIVE), Inspection.scheduled_start >= lo,
                  Inspection.scheduled_start < hi,
                  or_(Inspection.inspector_id == slot.inspector_id, Inspection.vehicle_id == vehicle_id)))]
    problems = booking_conflicts(slot, vehicle_id, booked, ignore_id)
    if problems:
        raise ConflictError(problems[0].message)


def _term(session: Session, a: Authorization, kind: str) -> tuple[date | None, str]:
    return booking_term(kind, approved_on=a.decided_on if kind == InspectionKind.INITIAL else None,
                        regularize_by=a.regularize_by, calendar=calendar_in(session))


def _move(row: Inspection, target: InspectionStatus) -> str:
    """The booking's new status through the domain's state machine (require_step refused the rest already)."""
    try:
        return transition(INSPECTION_MACHINE, row.status, target).value
    except TransitionNotAllowed as refused:
        raise TransitionRefused(str(refused)) from None


def _check_kind(a: Authorization, kind: str) -> None:
    """The kinds' authorization statuses are domain data (domain.inspection.KIND_STATUSES)."""
    problem = kind_problem(kind, a.status)
    if problem is None:
        return
    if problem.article:
        raise TransitionRefused(problem.message)
    raise ValidationError([problem])


# ------------------------------------------------------------------------------------------------ calendar


def calendar_data_in(s: Session, actor: Actor, first: date, last: date) -> CalendarData:
    """Every slot from `first` to `last` with the bookings it holds: the live one (scheduled) and, for the past,
    the done / no-show ones of the same time — all of them, so a re-inspection booked in the slot of the failed
    inspection shows beside it (the day, week and month views). Each booking carries the actions of `actor`."""
    require_reader(actor)
    cal = calendar_in(s)
    closed_by = blocked(s, first, last)
    all_slots = generate_slots(patterns(s, first, last), first, last, cal, closed_by)
    lo, hi = day_bounds(first, last)
    shown = bookings(s, list(s.scalars(select(Inspection).where(
        Inspection.status.in_(_SHOWN), Inspection.scheduled_start >= lo,
        Inspection.scheduled_start < hi).order_by(Inspection.scheduled_start, Inspection.id))), actor)
    live: dict = {}
    past: dict = {}
    for b in shown:
        key = (b.inspector_id, b.start)
        if b.live:
            live[key] = b
        else:
            past.setdefault(key, []).append(b)
    out = [SlotInfo(slot.inspector_id, slot.start, slot.end, slot.place_id, live.pop(slot.key, None),
                    tuple(past.get(slot.key, ()))) for slot in all_slots]
    closed = {}
    d = first
    while d <= last:
        name = cal.holiday_name(d) or closed_by.get((None, d))
        if name:
            closed[d] = name
        d += timedelta(days=1)
    ids = inspector_ids(s)
    names = user_names(s, ids)
    users = dict(s.execute(select(User.id, User.username).where(User.id.in_(ids))).all()) if ids else {}
    places = dict(s.execute(select(InspectionPlace.id, InspectionPlace.name)).all())
    return CalendarData(first, last, tuple(InspectorInfo(i, names.get(i, ""), users.get(i, "")) for i in ids),
                        tuple(out), closed, places, tuple(live.values()))


def calendar_data(db, actor: Actor, first: date, last: date) -> CalendarData:
    """See calendar_data_in."""
    with db.session(write=False) as s:
        return calendar_data_in(s, actor, first, last)


def booking_options_in(s: Session, actor: Actor, authorization_id: int, kind: str, first: date | None = None,
                       days: int = 30) -> BookingOptions:
    """The free slots for an authorization's inspection of `kind`: inside its term (Art. 9 for the initial one,
    Art. 16 §2 for the re-inspection) — the slots after the term are listed apart, for a gestor."""
    require_reader(actor)
    first = first or today()
    a = get_or_404(s, Authorization, authorization_id, "Autorização")
    _check_kind(a, kind)
    last_day, article = _term(s, a, kind)
    last = first + timedelta(days=days)
    if last_day is not None:
        last = max(last, last_day)
    free = free_slots(slots(s, first, last), ((r.inspector_id, r.scheduled_start) for r in live_rows(s, first, last)))
    inside = tuple(x for x in free if last_day is None or x.day <= last_day)
    outside = tuple(x for x in free if last_day is not None and x.day > last_day)
    driver = s.get(Driver, a.driver_id)
    vehicle = s.get(Vehicle, a.vehicle_id)
    return BookingOptions(a.id, kind, format_plate(vehicle.plate), driver.name, last_day, article, inside, outside)


def booking_options(db, actor: Actor, authorization_id: int, kind: str, first: date | None = None,
                    days: int = 30) -> BookingOptions:
    """See booking_options_in."""
    with db.session(write=False) as s:
        return booking_options_in(s, actor, authorization_id, kind, first, days)


# ------------------------------------------------------------------------------------------------ booking


def book_inspection_in(s: Session, actor: Actor, authorization_id: int, kind: str, inspector_id: int,
                       start: datetime, *, notified_on: date | None = None, override_term: bool = False,
                       reason: str = "", previous_id: int | None = None) -> BookingInfo:
    """Book a slot for the vehicle of an authorization.

    - initial: only inside the 5 days after the approval (Art. 9); after it, only a gestor, with
      `override_term` and a reason;
    - re-inspection: inside the 5 days to regularize (Art. 16, §2), same exception;
    - extraordinary: the day of the notification is recorded (Art. 16, §1).
    The slot must be one of the inspector's and free (ConflictError otherwise, also when another desk took it
    a moment before: the database index decides)."""
    require_role(actor, *SCHEDULERS)
    start = local(start)
    a = get_or_404(s, Authorization, authorization_id, "Autorização")
    _check_kind(a, kind)
    slot = _find_slot(s, inspector_id, start)
    if slot.day < today():
        raise ValidationError([Problem("slot", "Não é possível marcar vistoria em dia que já passou.")])
    last_day, article = _term(s, a, kind)
    problem = term_problem(slot.day, last_day, article)
    if problem is not None:
        if not (override_term and actor.has(*INSPECTION_ROLES.override_term)):
            raise ValidationError([problem])
        required_text(reason, "reason", "Informe por que a vistoria fica fora do prazo.", article)
    _check_free(s, slot, a.vehicle_id)
    if kind == InspectionKind.EXTRAORDINARY and notified_on is None:
        notified_on = today()
    row = Inspection(kind=kind, vehicle_id=a.vehicle_id, authorization_id=a.id, inspector_id=inspector_id,
                     place_id=slot.place_id, scheduled_start=slot.start, scheduled_end=slot.end,
                     status=SCHEDULED, convocation_notified_on=notified_on, term_end=last_day,
                     term_start=a.decided_on if kind == InspectionKind.INITIAL else None, previous_id=previous_id,
                     notes=(reason or "").strip() or None, created_by=actor.user_id)
    s.add(row)
    s.flush()
    audit_row(s, actor, "book", row, None, **({"outside_term": problem.message} if problem else {}))
    return booking(s, row, actor)


def book_inspection(db, actor: Actor, authorization_id: int, kind: str, inspector_id: int, start: datetime,
                    *, notified_on: date | None = None, override_term: bool = False, reason: str = "",
                    previous_id: int | None = None) -> BookingInfo:
    """See book_inspection_in."""
    with db.session() as s:
        return book_inspection_in(s, actor, authorization_id, kind, inspector_id, start, notified_on=notified_on,
                                  override_term=override_term, reason=reason, previous_id=previous_id)


def move_inspection_in(s: Session, actor: Actor, inspection_id: int, inspector_id: int, start: datetime,
                       reason: str, expected_version: int, *, override_term: bool = False) -> BookingInfo:
    """Reschedule (remarcar) to another free slot, with the reason (kept with the booking and in the audit)."""
    require_role(actor, *step_roles("move"))
    why = required_text(reason, "reason", "Informe o motivo da remarcação.")
    start = local(start)
    row = load(s, inspection_id, expected_version)
    require_step(row, "move", actor)
    before = snapshot(row)
    slot = _find_slot(s, inspector_id, start)
    if slot.day < today():
        raise ValidationError([Problem("slot", "Não é possível remarcar para um dia que já passou.")])
    problem = term_problem(slot.day, row.term_end, "Art. 9" if row.kind == InspectionKind.INITIAL else "Art. 16, §2")
    if problem is not None and not (override_term and actor.has(*INSPECTION_ROLES.override_term)):
        raise ValidationError([problem])
    _check_free(s, slot, row.vehicle_id, ignore_id=row.id)
    old = row.scheduled_start
    row.status = _move(row, InspectionStatus.SCHEDULED)  # remarcada: still scheduled
    row.inspector_id = slot.inspector_id
    row.place_id = slot.place_id
    row.scheduled_start = slot.start
    row.scheduled_end = slot.end
    row.reschedule_reason = f"{why} (antes: {old.astimezone(TIMEZONE):%d/%m/%Y %H:%M})" if old else why
    s.flush()
    audit_row(s, actor, "move", row, before, reason=why)
    return booking(s, row, actor)


def move_inspection(db, actor: Actor, inspection_id: int, inspector_id: int, start: datetime, reason: str,
                    expected_version: int, *, override_term: bool = False) -> BookingInfo:
    """See move_inspection_in."""
    with db.session() as s:
        return move_inspection_in(s, actor, inspection_id, inspector_id, start, reason, expected_version,
                                  override_term=override_term)


def cancel_inspection_in(s: Session, actor: Actor, inspection_id: int, reason: str,
                         expected_version: int) -> BookingInfo:
    require_role(actor, *step_roles("cancel"))
    why = required_text(reason, "reason", "Informe o motivo do cancelamento.")
    row = load(s, inspection_id, expected_version)
    require_step(row, "cancel", actor)
    before = snapshot(row)
    row.status = _move(row, InspectionStatus.CANCELLED)
    row.cancel_reason = why
    s.flush()
    audit_row(s, actor, "cancel", row, before, reason=why)
    return booking(s, row, actor)


def cancel_inspection(db, actor: Actor, inspection_id: int, reason: str, expected_version: int) -> BookingInfo:
    with db.session() as s:
        return cancel_inspection_in(s, actor, inspection_id, reason, expected_version)


def record_no_show_in(s: Session, actor: Actor, inspection_id: int, expected_version: int,
                      note: str = "") -> BookingInfo:
    """The vehicle did not come to the convocation: an Art. 26, I candidate for the fiscal."""
    require_role(actor, *step_roles("no_show"))
    row = load(s, inspection_id, expected_version)
    require_step(row, "no_show", actor)
    before = snapshot(row)
    row.status = _move(row, InspectionStatus.NO_SHOW)
    row.notes = "; ".join(p for p in (row.notes, (note or "").strip()) if p) or None
    s.flush()
    audit_row(s, actor, "no_show", row, before)
    return booking(s, row, actor)


def record_no_show(db, actor: Actor, inspection_id: int, expected_version: int, note: str = "") -> BookingInfo:
    """See record_no_show_in."""
    with db.session() as s:
        return record_no_show_in(s, actor, inspection_id, expected_version, note)


# ------------------------------------------------------------------------------------------------ checklist


def _required_keys(kind: str) -> tuple[str, ...]:
    keys = tuple(i.key for i in INSPECTION_CHECKLIST)
    if kind in (InspectionKind.INITIAL, InspectionKind.SUBSTITUTION):
        # The municipal sticker is handed out after this approval (Art. 14).
        return tuple(k for k in keys if k != "municipal_sticker")
    return keys


def run_inspection_in(s: Session, actor: Actor, inspection_id: int, results: Sequence[ItemResult], note: str = "",
                      expected_version: int | None = None) -> InspectionDetail:
    """Record what the inspector checked (Art. 2 §1, 13 XIII-XV, 14, 15 I-VIII): approved when every required
    line passed, failed otherwise. The authorization follows: the initial approval is recorded (active once the
    fee is paid); a failure gives the 5 days of Art. 16 §2 for the re-inspection — an active authorization is
    impeded meanwhile, an approved one stays approved (it never operated: Art. 9). `outcome` says which."""
    require_role(actor, *step_roles("run"))
    given = {r.key: r for r in results}
    unknown = sorted(set(given) - set(INSPECTION_ITEMS_BY_KEY))
    if unknown:
        raise ValidationError([Problem(k, f"Item de vistoria desconhecido: {k}.") for k in unknown])
    row = load(s, inspection_id, expected_version)
    require_step(row, "run", actor)
    day = booking_day(row) or today()
    problems = inspection_problems({k: r.passed for k, r in given.items() if r.passed is not None},
                                   _required_keys(row.kind))
    unchecked = [p for p in problems if p.message.startswith("Item não verificado")]
    if unchecked:
        raise ValidationError(unchecked)
    approved = not problems
    failed_text = "; ".join(INSPECTION_ITEMS_BY_KEY[p.field].label + (f" ({given[p.field].note.strip()})"
                            if given[p.field].note.strip() else "") for p in problems)
    text = "; ".join(t for t in ((note or "").strip(), failed_text) if t)
    before = snapshot(row)
    outcome = ""
    if row.authorization_id is not None:
        a = s.get(Authorization, row.authorization_id)
        status_before = a.status
        last_id = s.scalar(select(func.max(Inspection.id))) or 0
        info = record_inspection_result_in(s, actor, a.id, approved, on=day, note=text, expected_version=a.version)
        s.flush()
        # The lifecycle wrote its own "done" row; this booking is that inspection: keep one row.
        extra = s.scalars(select(Inspection).where(Inspection.id > last_id,
                                                   Inspection.authorization_id == a.id)).all()
        for other in extra:
            row.regularize_by = other.regularize_by
            row.performed_at = other.performed_at
            s.delete(other)
        outcome = inspection_outcome(approved, status_before, info.status, row.regularize_by)
    else:
        row.regularize_by = None
        outcome = inspection_outcome(approved, "", "")
    row.status = _move(row, InspectionStatus.DONE)
    row.result = (InspectionResult.APPROVED if approved else InspectionResult.FAILED).value
    row.performed_at = row.performed_at or now()
    row.notes = "; ".join(p for p in (row.notes, text) if p) or None
    for key, r in given.items():
        row.items.append(InspectionItem(item_key=key, passed=r.passed, note=(r.note or "").strip() or None,
                                        photo=r.photo))
    s.flush()
    audit_row(s, actor, "inspect", row, before, regularize_by=row.regularize_by.isoformat()
              if row.regularize_by else None)
    return _detail(s, row, actor, outcome)


def run_inspection(db, actor: Actor, inspection_id: int, results: Sequence[ItemResult], note: str = "",
                   expected_version: int | None = None) -> InspectionDetail:
    """See run_inspection_in."""
    with db.session() as s:
        return run_inspection_in(s, actor, inspection_id, results, note, expected_version)


# Keys written by the demo loader for lines of INSPECTION_CHECKLIST (as services.documents reads them too).
_ITEM_ALIASES = {"doors_4": "four_doors", "seats_max_7": "capacity", "original_characteristics": "original_features"}


def _detail(s: Session, row: Inspection, actor: Actor | None = None, outcome: str = "") -> InspectionDetail:
    by_key = {_ITEM_ALIASES.get(i.item_key, i.item_key): i for i in row.items}
    photos = {_ITEM_ALIASES.get(k, k) for k in s.scalars(select(InspectionItem.item_key).where(
        InspectionItem.inspection_id == row.id, InspectionItem.photo.is_not(None)))}
    lines = []
    for item in INSPECTION_CHECKLIST:
        got = by_key.get(item.key)
        lines.append(ItemLine(item.key, item.label, item.article, got.passed if got else None,
                              (got.note or "") if got else "", item.key in photos))
    return InspectionDetail(booking(s, row, actor), tuple(lines), outcome)


def get_inspection_in(s: Session, actor: Actor, inspection_id: int) -> InspectionDetail:
    require_reader(actor)
    return _detail(s, get_or_404(s, Inspection, inspection_id, "Vistoria"), actor)


def get_inspection(db, actor: Actor, inspection_id: int) -> InspectionDetail:
    with db.session(write=False) as s:
        return get_inspection_in(s, actor, inspection_id)


def list_bookings_in(s: Session, actor: Actor, authorization_id: int) -> list[BookingInfo]:
    """Every inspection of an authorization, newest first."""
    require_reader(actor)
    return bookings(s, list(s.scalars(select(Inspection).where(Inspection.authorization_id == authorization_id)
                                      .order_by(Inspection.id.desc()))), actor)


def list_bookings(db, actor: Actor, authorization_id: int) -> list[BookingInfo]:
    """Every inspection of an authorization, newest first."""
    with db.session(write=False) as s:
        return list_bookings_in(s, actor, authorization_id)
