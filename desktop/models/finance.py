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
    """An estimation class (Art. 11 §1: "estimado e classificado" by the secretariat), e.g. full-time /
    part-time, with its estimated monthly base. A new base is a NEW row of the same code valid from a date (the
    row before it gets `valid_until`); a base in force is never edited, so a past competência keeps its base."""

    __tablename__ = "issqn_classes"
    __table_args__ = (
        CheckConstraint("monthly_base >= 0", name="base_not_negative"),
        CheckConstraint("valid_until IS NULL OR valid_until >= valid_from", name="validity_range"),
        UniqueConstraint("code", "valid_from"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(30))
    name: Mapped[str] = mapped_column(String(120))   # the description shown on screens and exports
    monthly_base: Mapped[Decimal] = mapped_column(Dec(2))
    active: Mapped[bool] = mapped_column(default=True)
    valid_from: Mapped[date]
    valid_until: Mapped[date | None]
    created_by: Mapped[int | None] = user_fk()
    reason: Mapped[str | None] = mapped_column(Text)


class VehicleIssqnClass(Created, Base):
    """The gestor's dated decision placing a vehicle in an estimation class (Art. 11 §1): who, from when, why.
    A reclassification is a new row; the row in force in a month is the latest `valid_from` on or before the
    month's last day (the greatest id on the same date)."""

    __tablename__ = "vehicle_issqn_classes"
    __table_args__ = (Index(None, "vehicle_id", "valid_from"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    vehicle_id: Mapped[int] = mapped_column(ForeignKey("vehicles.id"))
    class_id: Mapped[int] = mapped_column(ForeignKey("issqn_classes.id"))
    valid_from: Mapped[date]
    decided_by: Mapped[int | None] = user_fk()
    reason: Mapped[str] = mapped_column(Text)


class IssqnPlatformDesignation(Created, Base):
    """A gestor designates the one platform that collects a vehicle's ISSQN (Art. 11 caput), dated, with the
    reason; `platform_id` NULL withdraws an earlier designation (the split among platforms applies again)."""

    __tablename__ = "issqn_platform_designations"
    __table_args__ = (Index(None, "vehicle_id", "valid_from"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    vehicle_id: Mapped[int] = mapped_column(ForeignKey("vehicles.id"))
    platform_id: Mapped[int | None] = mapped_column(ForeignKey("platforms.id"))
    valid_from: Mapped[date]
    decided_by: Mapped[int | None] = user_fk()
    reason: Mapped[str] = mapped_column(Text)


ISSQN_SHARE_STATUSES = ("open", "cancelled")


class IssqnShare(Created, Base):
    """The part of a vehicle's monthly estimate one platform collects (Art. 11 caput) — or the driver, as the
    substitute taxpayer, once the platform's guide is overdue. Paid / overdue is NOT kept here: it is read from
    the share's `payment_guides` row (status, paid_on, due_on), which the bank's return file updates. A share is
    never edited once it has a guide: it is cancelled with the reason and a new share takes its place."""

    __tablename__ = "issqn_shares"
    __table_args__ = (
        one_of("status", ISSQN_SHARE_STATUSES),
        CheckConstraint("(platform_id IS NULL) <> (driver_id IS NULL)", name="platform_or_driver"),
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint("status <> 'cancelled' OR cancel_reason IS NOT NULL", name="cancel_has_reason"),
        Index(None, "year", "month", "platform_id", "status"),
        Index(None, "estimate_id"),
        Index(None, "guide_id"),
        Index(None, "replaces_id"),   # deleting a draft share checks this self-reference: without it, a scan a row
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    estimate_id: Mapped[int] = mapped_column(ForeignKey("issqn_estimates.id"))
    year: Mapped[int]
    month: Mapped[int]
    platform_id: Mapped[int | None] = mapped_column(ForeignKey("platforms.id"))
    driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"))
    amount: Mapped[Decimal] = mapped_column(Dec(2))
    guide_id: Mapped[int | None] = mapped_column(ForeignKey("payment_guides.id"))
    status: Mapped[str] = mapped_column(String(20), default="open")
    cancel_reason: Mapped[str | None] = mapped_column(Text)
    replaces_id: Mapped[int | None] = mapped_column(ForeignKey("issqn_shares.id"))


class IssqnEstimate(Versioned, Created, Base):
    """ISSQN of one vehicle in one month (Art. 11: collected by the platform per registered vehicle, the driver
    as substitute). `rate` is the percentage (2-5, LC 116/2003 item 16.02; LC 157/2016)."""

    __tablename__ = "issqn_estimates"
    __table_args__ = (
        one_of("status", ISSQN_STATUSES),
        UniqueConstraint("vehicle_id", "year", "month"),
        CheckConstraint("month BETWEEN 1 AND 12", name="month_range"),
        # The 2-5 % bounds (LC 116/2003 arts. 8 II, 8-A) are checked by domain.taxes.iss_rate_problem and the
        # parameter; a SQL BETWEEN 2 AND 5 cannot hold on SQLite, where Dec(4) is stored scaled (3 % = 30000).
        CheckConstraint("rate > 0", name="rate_positive"),
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
