"""The dispatch register (protocolo de expedição, issue 26; Art. 22, §§1-2): every notice sent to a person or a
platform with its own code, its batch, and what came back. Rows are never deleted (a trigger refuses DELETE);
every change of state is written to the audit log, which is the register's history."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from desktop.domain.correspondence import DispatchForm, DispatchState, ReturnReason
from desktop.models.base import Base, Created, Versioned, one_of, user_fk
from desktop.models.types import AwareDateTime

DISPATCH_STATES = tuple(s.value for s in DispatchState)
DISPATCH_FORMS = tuple(f.value for f in DispatchForm)
RETURN_REASONS = tuple(r.value for r in ReturnReason)
CASE_TYPES = ("auto", "inspection", "course", "data_request")


class DispatchBatch(Created, Base):
    """The day's batch for the post: one archived PDF (notices, AR slips, mailing list). A reprint is the 2ª via
    of that archived PDF, never new codes."""

    __tablename__ = "dispatch_batches"

    id: Mapped[int] = mapped_column(primary_key=True)
    sent_on: Mapped[date]
    issued_document_id: Mapped[int | None] = mapped_column(ForeignKey("issued_documents.id"))
    items: Mapped[int] = mapped_column(default=0)
    created_by: Mapped[int | None] = user_fk()


class Dispatch(Versioned, Created, Base):
    """One notice dispatched (Art. 22, §1, I-VI) and its proof (§2)."""

    __tablename__ = "dispatches"
    __table_args__ = (
        one_of("state", DISPATCH_STATES), one_of("form", DISPATCH_FORMS),
        one_of("case_type", CASE_TYPES),
        one_of("return_reason", RETURN_REASONS),
        Index(None, "state", "form"),
        Index(None, "case_type", "case_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(20), unique=True)
    state: Mapped[str] = mapped_column(String(20), default=DispatchState.PENDING.value)
    document_kind: Mapped[str] = mapped_column(String(40))        # notice, data_request, ...
    issued_document_id: Mapped[int | None] = mapped_column(ForeignKey("issued_documents.id"))
    document_number: Mapped[str] = mapped_column(String(20))
    document_title: Mapped[str] = mapped_column(String(120), default="")
    recipient_name: Mapped[str] = mapped_column(String(200))
    address: Mapped[str | None] = mapped_column(Text)
    email: Mapped[str | None] = mapped_column(String(254))
    form: Mapped[str] = mapped_column(String(20))
    case_type: Mapped[str] = mapped_column(String(20))
    case_id: Mapped[int]
    case_label: Mapped[str] = mapped_column(String(60), default="")
    notification_id: Mapped[int | None] = mapped_column(ForeignKey("auto_notifications.id"))
    batch_id: Mapped[int | None] = mapped_column(ForeignKey("dispatch_batches.id"), index=True)
    sent_on: Mapped[date | None]
    received_on: Mapped[date | None]
    received_by: Mapped[str | None] = mapped_column(String(200))
    returned_on: Mapped[date | None]
    return_reason: Mapped[str | None] = mapped_column(String(40))
    edital_posted_on: Mapped[date | None]
    joined_on: Mapped[date | None]
    joined_at: Mapped[datetime | None] = mapped_column(AwareDateTime())
    proof_document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    message_id: Mapped[str | None] = mapped_column(String(250), unique=True)
    eml_document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    created_by: Mapped[int | None] = user_fk()
