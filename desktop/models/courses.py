"""Course sessions and attendance (Art. 12 §2)."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from desktop.models.base import Base, Created, Versioned, one_of, user_fk
from desktop.models.types import AwareDateTime

COURSE_STATUSES = ("planned", "held", "cancelled")
ATTENDANCE_STATUSES = ("convoked", "present", "absent", "excused")


class CourseSession(Versioned, Created, Base):
    __tablename__ = "course_sessions"
    __table_args__ = (
        one_of("status", COURSE_STATUSES),
        CheckConstraint("capacity > 0", name="capacity_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    held_on: Mapped[date] = mapped_column(index=True)
    starts_at: Mapped[datetime | None] = mapped_column(AwareDateTime())
    place: Mapped[str] = mapped_column(String(300))
    topic: Mapped[str] = mapped_column(String(300))
    instructor: Mapped[str | None] = mapped_column(String(200))
    ends_at: Mapped[datetime | None] = mapped_column(AwareDateTime())   # issue 16: the session's time range
    capacity: Mapped[int]
    status: Mapped[str] = mapped_column(String(20), default="planned")
    created_by: Mapped[int | None] = user_fk()

    attendances: Mapped[list[CourseAttendance]] = relationship(back_populates="session")


class CourseAttendance(Versioned, Base):
    """A driver convoked to a session; absence is recorded (Art. 12 §2)."""

    __tablename__ = "course_attendances"
    __table_args__ = (one_of("status", ATTENDANCE_STATUSES), UniqueConstraint("session_id", "driver_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("course_sessions.id"))
    driver_id: Mapped[int] = mapped_column(ForeignKey("drivers.id"), index=True)
    convoked_on: Mapped[date | None]
    status: Mapped[str] = mapped_column(String(20), default="convoked")
    note: Mapped[str | None] = mapped_column(Text)
    # issue 16: the number of the printed convocation notice; the document that justifies an excused absence
    # (services.attachments); the Art. 26, III auto drawn up for an unjustified one (Art. 13, XVI).
    notice_number: Mapped[str | None] = mapped_column(String(20))
    # the day the proof that the convocation notice reached the driver was joined (issue 24 item 12; Art. 22 §2)
    notice_joined_on: Mapped[date | None]
    justification_document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    auto_id: Mapped[int | None] = mapped_column(ForeignKey("autos.id"))

    session: Mapped[CourseSession] = relationship(back_populates="attendances")
