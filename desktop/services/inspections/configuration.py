"""Configuration of the inspectors' desk (issue 5): the inspectors (users with the Vistoriador role), the places,
the working patterns (weekday, hours, minutes per slot) and the blocked days. Gestor or administrador write;
anyone reads. Each use case has its session form (`x_in(session, actor, ...)`)."""
from __future__ import annotations

from datetime import date, time

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from desktop.domain import format_date
from desktop.domain.problems import Problem
from desktop.domain.roles import Role
from desktop.domain.scheduling import pattern_problems
from desktop.errors import ConflictError, ValidationError
from desktop.models import Inspection
from desktop.models.admin import User
from desktop.models.inspections import InspectionPlace, InspectorBlockedDay, InspectorSchedule
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.locking import check_version
from desktop.services.permissions import require_role
from desktop.services.inspections.common import (
    CONFIGURERS,
    LIVE,
    BlockedDayInfo,
    InspectorInfo,
    PlaceInfo,
    ScheduleInfo,
    day_bounds,
    inspector_ids,
    required_text,
    schedule_info,
    today,
)
from desktop.services.lookups import get_or_404, user_names
from desktop.services.permissions import require_reader


def list_inspectors_in(s: Session, actor: Actor) -> list[InspectorInfo]:
    require_reader(actor)
    ids = inspector_ids(s)
    users = {u.id: u for u in s.scalars(select(User).where(User.id.in_(ids)))} if ids else {}
    return [InspectorInfo(i, users[i].full_name, users[i].username) for i in ids]


def list_inspectors(db, actor: Actor) -> list[InspectorInfo]:
    with db.session(write=False) as s:
        return list_inspectors_in(s, actor)


def list_places_in(s: Session, actor: Actor, include_inactive: bool = False) -> list[PlaceInfo]:
    require_reader(actor)
    stmt = select(InspectionPlace).order_by(InspectionPlace.name)
    if not include_inactive:
        stmt = stmt.where(InspectionPlace.active.is_(True))
    return [PlaceInfo(p.id, p.name, p.address, p.active, p.version) for p in s.scalars(stmt)]


def list_places(db, actor: Actor, include_inactive: bool = False) -> list[PlaceInfo]:
    with db.session(write=False) as s:
        return list_places_in(s, actor, include_inactive)


def create_place_in(s: Session, actor: Actor, name: str, address: str | None = None) -> PlaceInfo:
    require_role(actor, *CONFIGURERS)
    name = required_text(name, "name", "Informe o nome do local de vistoria.")
    p = InspectionPlace(name=name, address=(address or "").strip() or None, active=True)
    s.add(p)
    s.flush()
    audit.record(s, actor, "create", "inspection_place", p.id, None, {"name": p.name, "address": p.address})
    return PlaceInfo(p.id, p.name, p.address, p.active, p.version)


def create_place(db, actor: Actor, name: str, address: str | None = None) -> PlaceInfo:
    with db.session() as s:
        return create_place_in(s, actor, name, address)


def list_schedules_in(s: Session, actor: Actor, inspector_id: int | None = None,
                      on: date | None = None) -> list[ScheduleInfo]:
    """The working patterns in force on `on` (default today)."""
    require_reader(actor)
    on = on or today()
    stmt = select(InspectorSchedule).where(
        InspectorSchedule.valid_from <= on,
        or_(InspectorSchedule.valid_to.is_(None), InspectorSchedule.valid_to >= on)) \
        .order_by(InspectorSchedule.inspector_id, InspectorSchedule.weekday, InspectorSchedule.start_time)
    if inspector_id is not None:
        stmt = stmt.where(InspectorSchedule.inspector_id == inspector_id)
    return schedule_info(s, s.scalars(stmt))


def list_schedules(db, actor: Actor, inspector_id: int | None = None, on: date | None = None) -> list[ScheduleInfo]:
    """The working patterns in force on `on` (default today)."""
    with db.session(write=False) as s:
        return list_schedules_in(s, actor, inspector_id, on)


def add_schedule_in(s: Session, actor: Actor, inspector_id: int, weekday: int, start_time: time, end_time: time,
                    slot_minutes: int = 30, place_id: int | None = None, valid_from: date | None = None,
                    valid_to: date | None = None) -> ScheduleInfo:
    """A working pattern of an inspector (e.g. Monday 08:00–12:00, every 30 minutes → 8 slots)."""
    require_role(actor, *CONFIGURERS)
    problems = pattern_problems(weekday, start_time, end_time, slot_minutes)
    if problems:
        raise ValidationError(problems)
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
    return schedule_info(s, [row])[0]


def add_schedule(db, actor: Actor, inspector_id: int, weekday: int, start_time: time, end_time: time,
                 slot_minutes: int = 30, place_id: int | None = None, valid_from: date | None = None,
                 valid_to: date | None = None) -> ScheduleInfo:
    """A working pattern of an inspector (e.g. Monday 08:00–12:00, every 30 minutes → 8 slots)."""
    with db.session() as s:
        return add_schedule_in(s, actor, inspector_id, weekday, start_time, end_time, slot_minutes, place_id,
                               valid_from, valid_to)


def end_schedule_in(s: Session, actor: Actor, schedule_id: int, last_day: date,
                    expected_version: int) -> ScheduleInfo:
    """The pattern stops after `last_day` (kept for the history; bookings already made stay)."""
    require_role(actor, *CONFIGURERS)
    row = get_or_404(s, InspectorSchedule, schedule_id, "Horário de vistoriador")
    check_version(row, expected_version)
    last_day = max(last_day, row.valid_from)
    before = {"valid_to": row.valid_to.isoformat() if row.valid_to else None}
    row.valid_to = last_day
    s.flush()
    audit.record(s, actor, "end", "inspector_schedule", row.id, before, {"valid_to": last_day.isoformat()})
    return schedule_info(s, [row])[0]


def end_schedule(db, actor: Actor, schedule_id: int, last_day: date, expected_version: int) -> ScheduleInfo:
    """The pattern stops after `last_day` (kept for the history; bookings already made stay)."""
    with db.session() as s:
        return end_schedule_in(s, actor, schedule_id, last_day, expected_version)


def list_blocked_days_in(s: Session, actor: Actor, first: date, last: date) -> list[BlockedDayInfo]:
    require_reader(actor)
    rows = list(s.scalars(select(InspectorBlockedDay).where(
        InspectorBlockedDay.day >= first, InspectorBlockedDay.day <= last).order_by(InspectorBlockedDay.day)))
    names = user_names(s, (r.inspector_id for r in rows))
    return [BlockedDayInfo(r.id, r.inspector_id, names.get(r.inspector_id, "Todos os vistoriadores")
                           if r.inspector_id else "Todos os vistoriadores", r.day, r.reason or "")
            for r in rows]


def list_blocked_days(db, actor: Actor, first: date, last: date) -> list[BlockedDayInfo]:
    with db.session(write=False) as s:
        return list_blocked_days_in(s, actor, first, last)


def block_day_in(s: Session, actor: Actor, day: date, reason: str, inspector_id: int | None = None) -> BlockedDayInfo:
    """A day without inspections for one inspector (leave, training) or for all (inspector_id None). Live
    bookings on that day must be moved first."""
    require_role(actor, *CONFIGURERS)
    why = required_text(reason, "reason", "Informe o motivo do bloqueio.")
    lo, hi = day_bounds(day, day)
    stmt = select(func.count()).select_from(Inspection).where(
        Inspection.status.in_(LIVE), Inspection.scheduled_start >= lo, Inspection.scheduled_start < hi)
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


def block_day(db, actor: Actor, day: date, reason: str, inspector_id: int | None = None) -> BlockedDayInfo:
    """A day without inspections for one inspector (leave, training) or for all (inspector_id None)."""
    with db.session() as s:
        return block_day_in(s, actor, day, reason, inspector_id)


def unblock_day_in(s: Session, actor: Actor, blocked_id: int) -> None:
    require_role(actor, *CONFIGURERS)
    row = get_or_404(s, InspectorBlockedDay, blocked_id, "Dia bloqueado")
    audit.record(s, actor, "unblock", "inspector_blocked_day", row.id,
                 {"inspector_id": row.inspector_id, "day": row.day.isoformat(), "reason": row.reason}, None)
    s.delete(row)


def unblock_day(db, actor: Actor, blocked_id: int) -> None:
    with db.session() as s:
        unblock_day_in(s, actor, blocked_id)
