"""Inspections (vistorias, Art. 9, 15, 16) and the inspectors' schedule (issue 5)."""
from __future__ import annotations

from datetime import date, datetime, time

from sqlalchemy import CheckConstraint, ForeignKey, Index, LargeBinary, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, deferred, mapped_column, relationship

from desktop.models.base import Base, Created, Versioned, one_of, user_fk
from desktop.models.types import AwareDateTime

INSPECTION_KINDS = ("initial", "annual", "extraordinary", "substitution", "reinspection")
INSPECTION_STATUSES = ("scheduled", "done", "no_show", "cancelled")
INSPECTION_RESULTS = ("approved", "failed")

_BOOKED = text("status = 'scheduled'")


class InspectionPlace(Versioned, Base):
    __tablename__ = "inspection_places"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    address: Mapped[str | None] = mapped_column(String(300))
    active: Mapped[bool] = mapped_column(default=True)


class InspectorSchedule(Versioned, Base):
    """A working pattern of an inspector (a user with the vistoriador role): on `weekday` (0 = Monday), from
    `start_time` to `end_time`, one slot every `slot_minutes`, at `place_id`."""

    __tablename__ = "inspector_schedules"
    __table_args__ = (
        CheckConstraint("weekday BETWEEN 0 AND 6", name="weekday_range"),
        CheckConstraint("end_time > start_time", name="end_after_start"),
        CheckConstraint("slot_minutes BETWEEN 5 AND 480", name="slot_minutes_range"),
        CheckConstraint("valid_to IS NULL OR valid_to >= valid_from", name="valid_range"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    inspector_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    weekday: Mapped[int]
    start_time: Mapped[time]
    end_time: Mapped[time]
    slot_minutes: Mapped[int] = mapped_column(default=30)
    place_id: Mapped[int | None] = mapped_column(ForeignKey("inspection_places.id"))
    valid_from: Mapped[date]
    valid_to: Mapped[date | None]


class InspectorBlockedDay(Versioned, Base):
    """A day an inspector (or, with no inspector, every inspector) does not work."""

    __tablename__ = "inspector_blocked_days"
    __table_args__ = (UniqueConstraint("inspector_id", "day"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    inspector_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    day: Mapped[date] = mapped_column(index=True)
    reason: Mapped[str | None] = mapped_column(Text)


class Inspection(Versioned, Created, Base):
    """A vistoria: booked slot, who, where, and its result. No double booking: one scheduled inspection per
    inspector and start time, kept by a partial unique index."""

    __tablename__ = "inspections"
    __table_args__ = (
        one_of("kind", INSPECTION_KINDS),
        one_of("status", INSPECTION_STATUSES),
        one_of("result", INSPECTION_RESULTS),
        CheckConstraint("status <> 'done' OR result IS NOT NULL", name="done_has_result"),
        CheckConstraint("scheduled_end IS NULL OR scheduled_end > scheduled_start", name="end_after_start"),
        Index("uq_inspections_inspector_slot", "inspector_id", "scheduled_start", unique=True,
              sqlite_where=_BOOKED, postgresql_where=_BOOKED),
        Index(None, "scheduled_start"),
        Index(None, "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    vehicle_id: Mapped[int] = mapped_column(ForeignKey("vehicles.id"), index=True)
    authorization_id: Mapped[int | None] = mapped_column(ForeignKey("authorizations.id"), index=True)
    inspector_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    place_id: Mapped[int | None] = mapped_column(ForeignKey("inspection_places.id"))
    scheduled_start: Mapped[datetime | None] = mapped_column(AwareDateTime())
    scheduled_end: Mapped[datetime | None] = mapped_column(AwareDateTime())
    status: Mapped[str] = mapped_column(String(20), default="scheduled")
    result: Mapped[str | None] = mapped_column(String(20))
    performed_at: Mapped[datetime | None] = mapped_column(AwareDateTime())
    notes: Mapped[str | None] = mapped_column(Text)
    convocation_notified_on: Mapped[date | None]
    regularize_by: Mapped[date | None]  # Art. 16 §2: failed → 5 days to regularize
    term_start: Mapped[date | None]  # e.g. Art. 9: 5 days after approval to present the vehicle
    term_end: Mapped[date | None]
    reschedule_reason: Mapped[str | None] = mapped_column(Text)
    cancel_reason: Mapped[str | None] = mapped_column(Text)
    previous_id: Mapped[int | None] = mapped_column(ForeignKey("inspections.id"))  # the failed one re-done
    created_by: Mapped[int | None] = user_fk()

    items: Mapped[list[InspectionItem]] = relationship(
        back_populates="inspection", order_by="InspectionItem.item_key", cascade="all, delete-orphan"
    )


class InspectionItem(Versioned, Base):
    """One checked line (Art. 2 §1, 13 XIII-XV, 14, 15 I-VIII): pass/fail, note, optional photo."""

    __tablename__ = "inspection_items"
    __table_args__ = (UniqueConstraint("inspection_id", "item_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    inspection_id: Mapped[int] = mapped_column(ForeignKey("inspections.id"))
    item_key: Mapped[str] = mapped_column(String(40))
    passed: Mapped[bool | None]
    note: Mapped[str | None] = mapped_column(Text)
    photo: Mapped[bytes | None] = deferred(mapped_column(LargeBinary))

    inspection: Mapped[Inspection] = relationship(back_populates="items")
