"""Records of the integrity measures of issue 11: signed checkpoints of the audit chain, the public signing keys
with their validity periods, and the marks a database carries about itself (a demonstration database).

`audit_checkpoints` is append-only like the audit log (triggers of migration 0005).
"""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from desktop.models.base import Base, Versioned, user_fk
from desktop.models.types import AwareDateTime


class AuditCheckpoint(Versioned, Base):
    """The head of the audit chain on one day — last id, its hash, the count of entries — signed with the
    secretariat's Ed25519 key (services.audit). `message` is the exact signed text; `signature` is base64url."""

    __tablename__ = "audit_checkpoints"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(AwareDateTime())
    day: Mapped[date]
    last_id: Mapped[int]
    last_hash: Mapped[str] = mapped_column(String(64))
    entry_count: Mapped[int]
    key_fingerprint: Mapped[str] = mapped_column(String(64))
    message: Mapped[str] = mapped_column(Text)
    signature: Mapped[str] = mapped_column(String(100))
    made_by: Mapped[str] = mapped_column(String(60))
    user_id: Mapped[int | None] = user_fk()


class SigningKey(Versioned, Base):
    """A public key of the secretariat and the period it signed in (issue 11: old stickers and checkpoints still
    verify after a rotation). The private key is never stored here."""

    __tablename__ = "signing_keys"

    id: Mapped[int] = mapped_column(primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64), unique=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    valid_from: Mapped[datetime] = mapped_column(AwareDateTime())
    valid_to: Mapped[datetime | None] = mapped_column(AwareDateTime())
    created_by: Mapped[int | None] = user_fk()
    holder: Mapped[str] = mapped_column(Text, default="")   # which desk keeps the private key, and how
    note: Mapped[str] = mapped_column(Text, default="")


DEMO_MARK = "demo"   # the DatabaseMark key of a demonstration database (issue 11)


class DatabaseMark(Versioned, Base):
    """A fact the database states about itself, by key: `demo` (made by the demo loader, no legal value)."""

    __tablename__ = "database_marks"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[datetime] = mapped_column(AwareDateTime())
