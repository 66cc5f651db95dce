"""Payments of fees as append-only records (issue 12 item 6) and the bank's return files (issue 13).

`fee_payments`: one row per payment of a fee (who recorded it, when, how much, by which guide, from the desk or
the bank's return file). Triggers refuse UPDATE and DELETE, as on the fines ledger. The `fees` row's paid state
(`status`, `paid_on`, `paid_amount`) is set ONCE, in the same transaction, from the payment row (open → paid by
`FEE_MACHINE`); the payment row is the record, the fee's columns a copy for the lists.

`bank_return_files` (a trigger refuses DELETE): one row per imported return file of the Padrão FEBRABAN de arrecadação (its NSA, the
agreement code, the file's SHA-256, who imported it and the counts), so the same file is never recorded twice.
"""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from desktop.models.base import Base, one_of, user_fk
from desktop.models.types import AwareDateTime, Dec, now

FEE_PAYMENT_SOURCES = ("manual", "bank")
UNRECONCILED_STATUSES = ("open", "assigned", "returned")


class FeePayment(Base):
    """A fee paid (Art. 10; Art. 15, parágrafo único, VII). Append-only: a payment returned is a new record."""

    __tablename__ = "fee_payments"
    __table_args__ = (
        one_of("source", FEE_PAYMENT_SOURCES),
        CheckConstraint("amount > 0", name="amount_positive"),
        UniqueConstraint("guide_number"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    fee_id: Mapped[int] = mapped_column(ForeignKey("fees.id"), index=True)
    guide_id: Mapped[int | None] = mapped_column(ForeignKey("payment_guides.id"))
    guide_number: Mapped[str] = mapped_column(String(20))
    paid_on: Mapped[date]
    amount: Mapped[Decimal] = mapped_column(Dec(2))
    source: Mapped[str] = mapped_column(String(10))
    bank_return_id: Mapped[int | None] = mapped_column(ForeignKey("bank_return_files.id"))
    recorded_by: Mapped[int | None] = user_fk()
    recorded_at: Mapped[datetime] = mapped_column(AwareDateTime(), default=now)


class BankReturnFile(Base):
    """An imported return file (Padrão FEBRABAN de arrecadação, 150-byte records A/G/Z). Never deleted (a
    trigger refuses it); its counts are written once, in the transaction that imports it."""

    __tablename__ = "bank_return_files"
    __table_args__ = (
        UniqueConstraint("agreement", "nsa"),
        UniqueConstraint("file_sha256"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    nsa: Mapped[int]
    agreement: Mapped[str] = mapped_column(String(20))
    bank_code: Mapped[str] = mapped_column(String(3))
    generated_on: Mapped[date]
    file_name: Mapped[str] = mapped_column(String(255))
    file_sha256: Mapped[str] = mapped_column(String(64))
    lines: Mapped[int]
    payments: Mapped[int]
    recorded: Mapped[int]
    rejected: Mapped[int]
    total_reais: Mapped[Decimal] = mapped_column(Dec(2))
    report: Mapped[str] = mapped_column(Text)
    imported_by: Mapped[int | None] = user_fk()
    imported_at: Mapped[datetime] = mapped_column(AwareDateTime(), default=now)


class UnreconciledPayment(Base):
    """A payment of a bank return file that matched no open guide (unknown barcode, another amount, a guide
    cancelled or already paid, a refused step): money received is never dropped (issue 23 point 8). It waits
    for a gestor, who assigns it to a debt's guide or returns it, with the reason (audited). Never deleted (a
    trigger refuses it); its status moves once, open → assigned | returned (`domain.finance.UNRECONCILED_MACHINE`)."""

    __tablename__ = "unreconciled_payments"
    __table_args__ = (
        one_of("status", UNRECONCILED_STATUSES),
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint("status = 'open' OR resolution_reason IS NOT NULL", name="resolution_has_reason"),
        UniqueConstraint("bank_return_id", "line"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    bank_return_id: Mapped[int] = mapped_column(ForeignKey("bank_return_files.id"), index=True)
    line: Mapped[int]
    barcode: Mapped[str] = mapped_column(String(48))
    amount: Mapped[Decimal] = mapped_column(Dec(2))
    paid_on: Mapped[date]
    credited_on: Mapped[date | None]
    authentication: Mapped[str | None] = mapped_column(String(30))
    problem: Mapped[str] = mapped_column(Text)
    guide_id: Mapped[int | None] = mapped_column(ForeignKey("payment_guides.id"))   # the guide the line named
    status: Mapped[str] = mapped_column(String(20), default="open", index=True)
    resolved_guide_id: Mapped[int | None] = mapped_column(ForeignKey("payment_guides.id"))
    resolution_reason: Mapped[str | None] = mapped_column(Text)
    resolved_by: Mapped[int | None] = user_fk()
    resolved_at: Mapped[datetime | None] = mapped_column(AwareDateTime())
