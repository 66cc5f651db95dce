"""Administration records: the municipality, users and roles, dated parameters, holidays, number counters,
the audit log and the archive of issued documents (SPEC §2, §4)."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import (
    CheckConstraint,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, deferred, mapped_column, relationship
from sqlalchemy.orm.attributes import flag_modified

from desktop.domain.roles import Role
from desktop.models.base import Base, Created, Updated, Versioned, one_of, user_fk
from desktop.models.types import AwareDateTime, Dec
from desktop import keystore

ROLES = tuple(r.value for r in Role)
NUMBER_KINDS = ("authorization", "auto", "guide", "document", "data_request", "decision")  # decision: issue 24
HOLIDAY_KINDS = ("municipal", "ponto_facultativo")


class MunicipalitySettings(Versioned, Updated, Base):
    """The one row of the municipality's settings (setup wizard, issue 2). `id` is always 1."""

    __tablename__ = "municipality"
    __table_args__ = (
        CheckConstraint("id = 1", name="single_row"),
        CheckConstraint("length(uf) = 2", name="uf_length"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, default=1)
    name: Mapped[str] = mapped_column(String(120))
    uf: Mapped[str] = mapped_column(String(2))
    secretariat: Mapped[str] = mapped_column(String(200))
    ouvidoria_phone: Mapped[str] = mapped_column(String(40))  # Art. 14: printed on the sticker
    cnpj: Mapped[str | None] = mapped_column(String(14))
    address: Mapped[str | None] = mapped_column(String(300))
    febraban_agreement: Mapped[str | None] = mapped_column(String(8))  # DAM barcode: código do órgão
    febraban_bank: Mapped[str | None] = mapped_column(String(3))       # the collecting bank (return file A.05)
    brasao_png: Mapped[bytes | None] = deferred(mapped_column(LargeBinary))
    pix_key: Mapped[str | None] = mapped_column(String(120))
    # Issue 28 point 4: the código da receita of each kind of debt a DAM collects (desktop.domain.revenue_codes);
    # no default — the law does not give them (migration 0021).
    revenue_code_fee_authorization: Mapped[str | None] = mapped_column(String(20))
    revenue_code_fee_renewal: Mapped[str | None] = mapped_column(String(20))
    revenue_code_fee_inspection: Mapped[str | None] = mapped_column(String(20))
    revenue_code_fine: Mapped[str | None] = mapped_column(String(20))
    revenue_code_issqn: Mapped[str | None] = mapped_column(String(20))
    revenue_code_costs: Mapped[str | None] = mapped_column(String(20))
    # Ed25519 key that signs the sticker QR payload (issue 7); the raw 32-byte public key. The private key is
    # not in the database (issue 11, migration 0005): it is on the desk that signs (desktop.keystore).
    signing_public_key: Mapped[bytes | None] = mapped_column(LargeBinary)

    @property
    def signing_private_key(self) -> bytes | None:
        """Bridge for code written when the key was a column: the private key from this desk's key store
        (`desktop.keystore.load`); raises `KeyUnavailable` on a desk without it. Prefer
        `services.setup.signing_private_key(db)`."""
        if self.signing_public_key is None:
            return None

        return keystore.load(self.signing_public_key)


class User(Versioned, Created, Base):
    """A member of the secretariat's staff (SPEC §1). Passwords: Argon2 hash only."""

    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint("failed_logins >= 0", name="failed_logins_not_negative"),
        CheckConstraint("length(username) > 0", name="username_not_empty"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(60), unique=True)  # stored lower-case by services.users
    full_name: Mapped[str] = mapped_column(String(200))
    # Issue 28: who signs an act prints their office and registration number (Lei 9.784/99, art. 22, §1º).
    office: Mapped[str] = mapped_column(String(120), default="", server_default="")        # cargo
    registration: Mapped[str] = mapped_column(String(40), default="", server_default="")   # matrícula
    password_hash: Mapped[str] = mapped_column(String(255))
    active: Mapped[bool] = mapped_column(default=True)
    must_change_password: Mapped[bool] = mapped_column(default=False)
    failed_logins: Mapped[int] = mapped_column(default=0)
    locked_until: Mapped[datetime | None] = mapped_column(AwareDateTime())
    last_login_at: Mapped[datetime | None] = mapped_column(AwareDateTime())

    role_links: Mapped[list[UserRole]] = relationship(
        back_populates="user", cascade="all, delete-orphan", lazy="selectin", order_by="UserRole.role"
    )

    @property
    def roles(self) -> frozenset[Role]:
        return frozenset(Role(link.role) for link in self.role_links)

    def set_roles(self, roles) -> None:
        """Replace the roles; touches the row so its version moves (a role change is an edit of the user)."""
        wanted = {Role(r).value for r in roles}
        self.role_links[:] = [link for link in self.role_links if link.role in wanted]
        have = {link.role for link in self.role_links}
        for role in sorted(wanted - have):
            self.role_links.append(UserRole(role=role))
        flag_modified(self, "full_name")  # forces an UPDATE of the row, so `version` moves too


class UserRole(Base):
    __tablename__ = "user_roles"
    __table_args__ = (one_of("role", ROLES),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    role: Mapped[str] = mapped_column(String(20), primary_key=True)

    user: Mapped[User] = relationship(back_populates="role_links")


class Parameter(Created, Base):
    """A dated value of the decree/tax-code numbers (UPFM value, fees, terms, ISS rate). Never overwritten:
    a change is a new row with a later `valid_from` (SPEC §3; STYLE habits)."""

    __tablename__ = "parameters"
    __table_args__ = (UniqueConstraint("key", "valid_from"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(60))
    valid_from: Mapped[date]
    value: Mapped[Decimal] = mapped_column(Dec(6))
    note: Mapped[str] = mapped_column(Text, default="")
    created_by: Mapped[int | None] = user_fk()


class Holiday(Versioned, Base):
    """A municipal holiday or ponto facultativo (national and MT ones come from the `holidays` package).
    Removing one deactivates it, with the reason (audited)."""

    __tablename__ = "holidays"
    __table_args__ = (one_of("kind", HOLIDAY_KINDS), Index(None, "day"))

    id: Mapped[int] = mapped_column(primary_key=True)
    day: Mapped[date]
    name: Mapped[str] = mapped_column(String(120))
    kind: Mapped[str] = mapped_column(String(20), default="municipal")
    active: Mapped[bool] = mapped_column(default=True)
    removed_reason: Mapped[str | None] = mapped_column(Text)


class NumberSequence(Base):
    """Counter of the gap-free yearly numbers `NNNN/AAAA` (services.numbering). Not versioned: it is only
    ever changed by one atomic `UPDATE ... SET last = last + 1`."""

    __tablename__ = "number_sequences"
    __table_args__ = (
        one_of("kind", NUMBER_KINDS),
        CheckConstraint("last >= 0", name="last_not_negative"),
        CheckConstraint("year BETWEEN 2000 AND 2999", name="year_range"),
    )

    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    year: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    last: Mapped[int] = mapped_column(default=0)


class AuditEntry(Base):
    """One line of the audit log (SPEC §4). Append-only: triggers refuse UPDATE and DELETE.

    `hash = sha256(prev_hash + canonical_json(fields))` chains each entry to the previous one
    (services.audit), so an edited or removed row shows in `audit verify`.
    `before` / `after` are the canonical JSON texts exactly as hashed.
    """

    __tablename__ = "audit_entries"
    __table_args__ = (Index(None, "entity", "entity_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(AwareDateTime())
    user_id: Mapped[int | None] = user_fk()
    username: Mapped[str] = mapped_column(String(60))
    action: Mapped[str] = mapped_column(String(60))
    entity: Mapped[str] = mapped_column(String(60))
    entity_id: Mapped[str] = mapped_column(String(60))
    before: Mapped[str | None] = mapped_column(Text)
    after: Mapped[str | None] = mapped_column(Text)
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64), unique=True)


class IssuedDocument(Versioned, Base):
    """Every printed PDF, archived with its number and SHA-256 (SPEC §3 Documents). A reprint is these same
    bytes with a copy mark; `copies` counts the reprints."""

    __tablename__ = "issued_documents"
    __table_args__ = (
        CheckConstraint("copies >= 0", name="copies_not_negative"),
        UniqueConstraint("kind", "number"),
        Index(None, "record_type", "record_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))  # sticker, credential, certificate, auto, notice, guide...
    number: Mapped[str] = mapped_column(String(20))
    record_type: Mapped[str] = mapped_column(String(40))  # authorization, auto, driver, fee...
    record_id: Mapped[int]
    pdf: Mapped[bytes] = deferred(mapped_column(LargeBinary))
    sha256: Mapped[str] = mapped_column(String(64))
    issued_at: Mapped[datetime] = mapped_column(AwareDateTime())
    issued_by: Mapped[int | None] = user_fk()
    copies: Mapped[int] = mapped_column(default=0)
    last_copy_at: Mapped[datetime | None] = mapped_column(AwareDateTime())
