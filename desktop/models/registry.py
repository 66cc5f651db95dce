"""The register: platforms (Art. 5-6), drivers (Art. 8, 12), lessors and vehicles (Art. 2, 8 §3, 15),
scanned documents, and the change communications of Art. 13 XVIII."""
from __future__ import annotations

from datetime import date, datetime

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

from desktop.domain.law import ACCEPTED_CNH_CATEGORIES
from desktop.domain.vehicle import OwnershipMode
from desktop.models.base import Base, Created, Searchable, Updated, Versioned, one_of, user_fk
from desktop.models.types import AwareDateTime, CodeString

PLATFORM_STATUSES = ("pending", "active", "suspended", "deregistered")
# Art. 12 I: category B or higher.
CNH_CATEGORIES = tuple(ACCEPTED_CNH_CATEGORIES)
# Art. 24 I d), f): descadastramento of the driver or of the vehicle.
REGISTRATION_STATUSES = ("active", "deregistered")
# Art. 8 §3 I-IV.
OWNERSHIP_MODES = tuple(m.value for m in OwnershipMode)  # own, relative, company_lease, individual_lease
LESSOR_KINDS = ("individual", "company")


class Platform(Searchable, Versioned, Created, Updated, Base):
    """Plataforma tecnológica (Art. 5-6: only registered platforms may operate)."""

    __tablename__ = "platforms"
    __search_fields__ = ("trade_name", "legal_name")
    __table_args__ = (
        one_of("status", PLATFORM_STATUSES),
        CheckConstraint("length(cnpj) = 14", name="cnpj_length"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    cnpj: Mapped[str] = mapped_column(CodeString(14), unique=True)  # 14 characters, digits or alphanumeric CNPJ
    legal_name: Mapped[str] = mapped_column(String(200))  # razão social
    trade_name: Mapped[str] = mapped_column(String(200))  # nome fantasia
    contact_name: Mapped[str | None] = mapped_column(String(200))
    email: Mapped[str | None] = mapped_column(String(200))
    phone: Mapped[str | None] = mapped_column(String(40))
    address: Mapped[str | None] = mapped_column(String(300))
    municipal_registration_number: Mapped[str | None] = mapped_column(String(40), unique=True)
    municipal_registration_date: Mapped[date | None]
    # Art. 5 X: accident insurance for passengers (APP).
    app_insurance_policy: Mapped[str | None] = mapped_column(String(60))
    app_insurance_insurer: Mapped[str | None] = mapped_column(String(200))
    app_insurance_valid_until: Mapped[date | None]
    status: Mapped[str] = mapped_column(String(20), default="pending")


class Driver(Searchable, Versioned, Created, Updated, Base):
    """Condutor (Art. 8, 12). The checklist of Art. 12 I-IX, §1 and Art. 8 §1 is in DriverChecklistItem."""

    __tablename__ = "drivers"
    __search_fields__ = ("name",)
    __table_args__ = (
        one_of("cnh_category", CNH_CATEGORIES),
        one_of("status", REGISTRATION_STATUSES),
        CheckConstraint("length(cpf) = 11", name="cpf_length"),
        Index(None, "cnh_expiry"),   # the dashboard's documents expiring in 30 days (issue 16, Art. 12, I)
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    cpf: Mapped[str] = mapped_column(CodeString(11), unique=True)  # digits only
    name: Mapped[str] = mapped_column(String(200))
    birth_date: Mapped[date | None]
    # Art. 12 VI: address in the municipality.
    address: Mapped[str | None] = mapped_column(String(300))
    district: Mapped[str | None] = mapped_column(String(120))
    city: Mapped[str | None] = mapped_column(String(120))
    uf: Mapped[str | None] = mapped_column(String(2))
    zip_code: Mapped[str | None] = mapped_column(String(8))
    phone: Mapped[str | None] = mapped_column(String(40))
    email: Mapped[str | None] = mapped_column(String(200))
    photo: Mapped[bytes | None] = deferred(mapped_column(LargeBinary))
    photo_mime: Mapped[str | None] = mapped_column(String(40))
    # Art. 12 I: CNH category B or higher with the EAR remark ("exerce atividade remunerada").
    cnh_number: Mapped[str | None] = mapped_column(String(11))
    cnh_category: Mapped[str | None] = mapped_column(String(2))
    cnh_expiry: Mapped[date | None]
    cnh_ear: Mapped[bool] = mapped_column(default=False)
    nit: Mapped[str | None] = mapped_column(String(11))  # Art. 12 III: INSS / NIT
    status: Mapped[str] = mapped_column(String(20), default="active")
    deregistered_on: Mapped[date | None]
    deregistration_reason: Mapped[str | None] = mapped_column(Text)

    checklist: Mapped[list[DriverChecklistItem]] = relationship(
        back_populates="driver", order_by="DriverChecklistItem.requirement"
    )
    platform_links: Mapped[list[DriverPlatform]] = relationship(back_populates="driver")


class DriverPlatform(Versioned, Base):
    """The platforms a driver drives for (SPEC §2 Driver)."""

    __tablename__ = "driver_platforms"
    __table_args__ = (UniqueConstraint("driver_id", "platform_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    driver_id: Mapped[int] = mapped_column(ForeignKey("drivers.id"), index=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platforms.id"), index=True)
    since: Mapped[date | None]
    until: Mapped[date | None]

    driver: Mapped[Driver] = relationship(back_populates="platform_links")
    platform: Mapped[Platform] = relationship()


class DriverChecklistItem(Versioned, Base):
    """One line of the driver's checklist (Art. 12 I-IX, §1; Art. 8 §1 II): the requirement key (as named by
    `desktop.domain`), the document that proves it, its validity and who checked it. One current line per
    requirement; earlier proofs stay in `documents`."""

    __tablename__ = "driver_checklist_items"
    __table_args__ = (
        UniqueConstraint("driver_id", "requirement"),
        CheckConstraint("expires_on IS NULL OR issued_on IS NULL OR expires_on >= issued_on",
                        name="expiry_after_issue"),
        Index(None, "expires_on", "requirement", "driver_id"),   # documents expiring (issue 16, Art. 12)
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    driver_id: Mapped[int] = mapped_column(ForeignKey("drivers.id"))
    requirement: Mapped[str] = mapped_column(String(40))
    document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    number: Mapped[str | None] = mapped_column(String(80))
    issued_on: Mapped[date | None]
    expires_on: Mapped[date | None]
    note: Mapped[str | None] = mapped_column(Text)
    checked_by: Mapped[int | None] = user_fk()
    checked_at: Mapped[datetime | None] = mapped_column(AwareDateTime())

    driver: Mapped[Driver] = relationship(back_populates="checklist")


class Lessor(Searchable, Versioned, Created, Base):
    """Locador of Art. 8 §3 III (company, CNPJ) or IV (individual, CPF — at most 3 vehicles in the
    register, checked by the vehicle service)."""

    __tablename__ = "lessors"
    __search_fields__ = ("name",)
    __table_args__ = (
        one_of("kind", LESSOR_KINDS),
        CheckConstraint(
            "(kind = 'individual' AND length(document_number) = 11)"
            " OR (kind = 'company' AND length(document_number) = 14)",
            name="document_matches_kind",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    document_number: Mapped[str] = mapped_column(CodeString(14), unique=True)  # CPF or CNPJ, no mask
    name: Mapped[str] = mapped_column(String(200))
    phone: Mapped[str | None] = mapped_column(String(40))
    address: Mapped[str | None] = mapped_column(String(300))


class Vehicle(Versioned, Created, Updated, Base):
    """Veículo (Art. 2, 8 §3, 15). The plate is stored upper-case without the dash (ABC1234 / ABC1D23)."""

    __tablename__ = "vehicles"
    __table_args__ = (
        one_of("ownership_mode", OWNERSHIP_MODES),
        one_of("status", REGISTRATION_STATUSES),
        CheckConstraint("length(plate) = 7", name="plate_length"),
        CheckConstraint("length(renavam) = 11", name="renavam_length"),
        CheckConstraint("doors BETWEEN 1 AND 9", name="doors_range"),
        CheckConstraint("seats BETWEEN 1 AND 60", name="seats_range"),
        CheckConstraint("manufacture_year BETWEEN 1950 AND 2999", name="manufacture_year_range"),
        Index(None, "manufacture_year"),   # the dashboard's last service year (issue 16, Art. 2 §2)
        CheckConstraint("model_year BETWEEN manufacture_year AND manufacture_year + 1", name="model_year_range"),
        CheckConstraint("ownership_mode NOT IN ('company_lease', 'individual_lease') OR lessor_id IS NOT NULL",
                        name="leased_has_lessor"),
        Index(None, "chassis"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    plate: Mapped[str] = mapped_column(CodeString(7), unique=True)
    renavam: Mapped[str] = mapped_column(CodeString(11), unique=True)
    chassis: Mapped[str | None] = mapped_column(String(17))
    make: Mapped[str] = mapped_column(String(60))
    model: Mapped[str] = mapped_column(String(80))
    manufacture_year: Mapped[int]
    model_year: Mapped[int]
    colour: Mapped[str | None] = mapped_column(String(40))
    doors: Mapped[int]  # Art. 2: 4 doors
    seats: Mapped[int]  # Art. 2: at most 7 including the driver
    air_conditioning: Mapped[bool] = mapped_column(default=False)
    crlv_year: Mapped[int | None]
    registration_municipality: Mapped[str] = mapped_column(String(120))  # Art. 8 §1 I, Art. 15 VIII
    registration_uf: Mapped[str] = mapped_column(String(2))
    compulsory_insurance_paid: Mapped[bool] = mapped_column(default=False)  # Art. 15 IV
    ownership_mode: Mapped[str] = mapped_column(String(20), default=OwnershipMode.OWN.value)
    owner_name: Mapped[str | None] = mapped_column(String(200))
    owner_document: Mapped[str | None] = mapped_column(String(14))
    owner_relationship: Mapped[str | None] = mapped_column(String(60))  # mode II: spouse, partner, relative
    lessor_id: Mapped[int | None] = mapped_column(ForeignKey("lessors.id"), index=True)
    status: Mapped[str] = mapped_column(String(20), default="active")
    deregistered_on: Mapped[date | None]
    deregistration_reason: Mapped[str | None] = mapped_column(Text)

    lessor: Mapped[Lessor | None] = relationship()


class Document(Created, Base):
    """A scanned file attached to a record (SPEC §2 Document). Never replaced: a newer proof is a new row.
    The bytes live in `content` or, for big archives, in a content-addressed file named by `sha256`
    (`storage_path`)."""

    __tablename__ = "documents"
    __table_args__ = (
        CheckConstraint("content IS NOT NULL OR storage_path IS NOT NULL", name="has_bytes"),
        CheckConstraint("length(sha256) = 64", name="sha256_length"),
        CheckConstraint("expires_on IS NULL OR issued_on IS NULL OR expires_on >= issued_on",
                        name="expiry_after_issue"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(60))
    number: Mapped[str | None] = mapped_column(String(80))
    issued_on: Mapped[date | None]
    expires_on: Mapped[date | None]
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    content: Mapped[bytes | None] = deferred(mapped_column(LargeBinary))
    storage_path: Mapped[str | None] = mapped_column(String(400))
    mime: Mapped[str] = mapped_column(String(80))
    filename: Mapped[str] = mapped_column(String(255))
    size: Mapped[int] = mapped_column(default=0)
    driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"), index=True)
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"), index=True)
    platform_id: Mapped[int | None] = mapped_column(ForeignKey("platforms.id"), index=True)
    lessor_id: Mapped[int | None] = mapped_column(ForeignKey("lessors.id"))
    authorization_id: Mapped[int | None] = mapped_column(ForeignKey("authorizations.id"), index=True)
    auto_id: Mapped[int | None] = mapped_column(ForeignKey("autos.id"), index=True)
    uploaded_by: Mapped[int | None] = user_fk()


class ChangeCommunication(Versioned, Created, Base):
    """Art. 13 XVIII: a change of the driver's or vehicle's data must be communicated within 7 days.
    Late ones are offered to the fiscal as an Art. 26 III infraction (`auto_id` once drawn up)."""

    __tablename__ = "change_communications"
    __table_args__ = (
        CheckConstraint("driver_id IS NOT NULL OR vehicle_id IS NOT NULL", name="has_subject"),
        CheckConstraint("communicated_on >= happened_on", name="communicated_after_change"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"), index=True)
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"), index=True)
    what_changed: Mapped[str] = mapped_column(Text)
    happened_on: Mapped[date]
    communicated_on: Mapped[date]
    recorded_by: Mapped[int | None] = user_fk()
    auto_id: Mapped[int | None] = mapped_column(ForeignKey("autos.id"))
