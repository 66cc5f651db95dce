"""Fees (Art. 10), payment guides (DAM) and the ISSQN estimates per vehicle (Art. 11)."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from desktop.models.base import Base, Created, Versioned, one_of, user_fk
from desktop.models.types import AwareDateTime, Dec

FEE_KINDS = ("authorization", "renewal", "inspection", "other")
FEE_STATUSES = ("open", "paid", "cancelled")
GUIDE_PURPOSES = ("fee", "fine", "issqn", "cost")
GUIDE_STATUSES = ("open", "paid", "cancelled")
ISSQN_STATUSES = ("open", "paid", "cancelled")


class PaymentGuide(Versioned, Created, Base):
    """A DAM (municipal payment guide) with its gap-free number (numbering kind `guide`)."""

    __tablename__ = "payment_guides"
    __table_args__ = (
        one_of("purpose", GUIDE_PURPOSES),
        one_of("status", GUIDE_STATUSES),
        CheckConstraint("amount_reais > 0", name="amount_positive"),
        Index(None, "status", "due_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(String(20), unique=True)
    purpose: Mapped[str] = mapped_column(String(20))
    amount_reais: Mapped[Decimal] = mapped_column(Dec(2))
    due_on: Mapped[date]
    payer_name: Mapped[str] = mapped_column(String(200))
    payer_document: Mapped[str | None] = mapped_column(String(14))
    driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"), index=True)
    platform_id: Mapped[int | None] = mapped_column(ForeignKey("platforms.id"))
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"))
    auto_id: Mapped[int | None] = mapped_column(ForeignKey("autos.id"))
    barcode: Mapped[str | None] = mapped_column(String(48))
    status: Mapped[str] = mapped_column(String(20), default="open")
    paid_on: Mapped[date | None]
    paid_amount: Mapped[Decimal | None] = mapped_column(Dec(2))
    cancel_reason: Mapped[str | None] = mapped_column(Text)
    issued_by: Mapped[int | None] = user_fk()
    # issue 13 (services.guides): the fee it collects, the overdue guide it replaces (cancelled with a reason,
    # never edited) and the late charges of the Código Tributário Municipal included in `amount_reais`.
    fee_id: Mapped[int | None] = mapped_column(ForeignKey("fees.id"), index=True)
    replaces_id: Mapped[int | None] = mapped_column(ForeignKey("payment_guides.id"), unique=True)
    late_charges_reais: Mapped[Decimal | None] = mapped_column(Dec(2))


class Fee(Versioned, Created, Base):
    """A fee (taxa) of the Código Tributário Municipal per vehicle (Art. 10), its amount in UPFM and reais."""

    __tablename__ = "fees"
    __table_args__ = (
        one_of("kind", FEE_KINDS),
        one_of("status", FEE_STATUSES),
        CheckConstraint("amount_reais >= 0", name="amount_not_negative"),
        CheckConstraint("status <> 'paid' OR paid_on IS NOT NULL", name="paid_has_date"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"), index=True)
    authorization_id: Mapped[int | None] = mapped_column(ForeignKey("authorizations.id"), index=True)
    due_on: Mapped[date]
    amount_upfm: Mapped[Decimal | None] = mapped_column(Dec(4))
    upfm_value: Mapped[Decimal | None] = mapped_column(Dec(6))
    amount_reais: Mapped[Decimal] = mapped_column(Dec(2))
    guide_number: Mapped[str | None] = mapped_column(String(20), unique=True)
    status: Mapped[str] = mapped_column(String(20), default="open")
    paid_on: Mapped[date | None]
    paid_amount: Mapped[Decimal | None] = mapped_column(Dec(2))
    cancel_reason: Mapped[str | None] = mapped_column(Text)
    created_by: Mapped[int | None] = user_fk()


class IssqnClass(Versioned, Base):
    """An estimation class (Art. 11 §1), e.g. full-time / part-time, with its estimated monthly base."""

    __tablename__ = "issqn_classes"
    __table_args__ = (CheckConstraint("monthly_base >= 0", name="base_not_negative"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(30), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    monthly_base: Mapped[Decimal] = mapped_column(Dec(2))
    active: Mapped[bool] = mapped_column(default=True)


class IssqnEstimate(Versioned, Created, Base):
    """ISSQN of one vehicle in one month (Art. 11: collected by the platform per registered vehicle, the driver
    as substitute). `rate` is the percentage (2-5, LC 116/2003 item 16.02; LC 157/2016)."""

    __tablename__ = "issqn_estimates"
    __table_args__ = (
        one_of("status", ISSQN_STATUSES),
        UniqueConstraint("vehicle_id", "year", "month"),
        CheckConstraint("month BETWEEN 1 AND 12", name="month_range"),
        CheckConstraint("rate BETWEEN 2 AND 5", name="rate_range"),
        CheckConstraint("days_active IS NULL OR days_active BETWEEN 0 AND 31", name="days_range"),
        Index(None, "year", "month", "platform_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    vehicle_id: Mapped[int] = mapped_column(ForeignKey("vehicles.id"))
    authorization_id: Mapped[int | None] = mapped_column(ForeignKey("authorizations.id"))
    platform_id: Mapped[int | None] = mapped_column(ForeignKey("platforms.id"))
    class_id: Mapped[int] = mapped_column(ForeignKey("issqn_classes.id"))
    year: Mapped[int]
    month: Mapped[int]
    days_active: Mapped[int | None]
    base: Mapped[Decimal] = mapped_column(Dec(2))
    rate: Mapped[Decimal] = mapped_column(Dec(4))
    amount: Mapped[Decimal] = mapped_column(Dec(2))
    guide_number: Mapped[str | None] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(20), default="open")
    paid_on: Mapped[date | None]
    paid_amount: Mapped[Decimal | None] = mapped_column(Dec(2))
    computed_at: Mapped[datetime | None] = mapped_column(AwareDateTime())
