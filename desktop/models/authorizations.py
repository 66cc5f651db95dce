"""Authorizations (Art. 3, 8, 9, 10, 16, 24) and their event history.

At most one *live* authorization per driver and per vehicle (Art. 8: one vehicle per driver, one active
authorization per driver and per vehicle) is kept by the database itself with two partial unique indexes
over LIVE_AUTHORIZATION_STATUSES. A request already holds its driver and vehicle (a second request for either
is refused while the first is open), and so does a suspension (Art. 24 sole paragraph: driver and vehicle are
kept away for the suspension). Refused, revoked, cassada and expired ones release them.
"""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from desktop.domain.vehicle import ValidityLimit
from desktop.domain.workflow import AuthorizationStatus
from desktop.models.base import Base, Created, Updated, Versioned, one_of, user_fk
from desktop.models.types import AwareDateTime, CodeString, Dec

# The values of desktop.domain.workflow.AuthorizationStatus (requested, in_analysis, refused, approved, active,
# impeded, suspended, revoked, cassada, expired); the state machine there decides the transitions.
AUTHORIZATION_STATUSES = tuple(s.value for s in AuthorizationStatus)
LIVE_AUTHORIZATION_STATUSES = tuple(s.value for s in (
    AuthorizationStatus.REQUESTED,
    AuthorizationStatus.IN_ANALYSIS,
    AuthorizationStatus.APPROVED,
    AuthorizationStatus.ACTIVE,
    AuthorizationStatus.IMPEDED,    # Art. 16 §2: impeded, still the driver's authorization
    AuthorizationStatus.SUSPENDED,  # Art. 24 sole paragraph: driver and vehicle kept away meanwhile
))
_LIVE_SQL = "status IN (" + ", ".join(f"'{s}'" for s in LIVE_AUTHORIZATION_STATUSES) + ")"
LIVE_PREDICATE = text(_LIVE_SQL)

VALIDITY_LIMITS = tuple(v.value for v in ValidityLimit)  # which rule fixed valid_until (SPEC §3 Vehicle)


class Authorization(Versioned, Created, Updated, Base):
    """Autorização: one driver + one vehicle (Art. 8). `number` (NNNN/AAAA) is given at activation."""

    __tablename__ = "authorizations"
    __table_args__ = (
        one_of("status", AUTHORIZATION_STATUSES),
        one_of("valid_until_limited_by", VALIDITY_LIMITS),
        CheckConstraint("status NOT IN ('active', 'impeded', 'suspended') OR number IS NOT NULL",
                        name="active_has_number"),
        CheckConstraint("renewal_count >= 0", name="renewal_count_not_negative"),
        Index("uq_authorizations_live_driver", "driver_id", unique=True,
              sqlite_where=LIVE_PREDICATE, postgresql_where=LIVE_PREDICATE),
        Index("uq_authorizations_live_vehicle", "vehicle_id", unique=True,
              sqlite_where=LIVE_PREDICATE, postgresql_where=LIVE_PREDICATE),
        Index(None, "status"),
        Index(None, "valid_until"),
        # The list screen's default order (newest request first) and its status filter (revision 0004).
        Index(None, "protocol_date", "id"),
        Index(None, "status", "protocol_date", "id"),
        # The home dashboard's counts (issue 16, revision 0011): renewals and validities ending (Art. 3), the
        # annual inspections due (Art. 16) and the stickers to print (Art. 14) — each answered by one index.
        Index(None, "status", "valid_until", "renewal_requested_on"),
        Index("ix_authorizations_status_activation_dates", "status", "activated_on", "inspection_approved_on",
              "fee_paid_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str | None] = mapped_column(CodeString(20), unique=True)
    driver_id: Mapped[int] = mapped_column(ForeignKey("drivers.id"), index=True)
    vehicle_id: Mapped[int] = mapped_column(ForeignKey("vehicles.id"), index=True)
    status: Mapped[str] = mapped_column(String(20), default="requested")
    protocol_number: Mapped[str | None] = mapped_column(String(40))
    protocol_date: Mapped[date]
    analysis_started_on: Mapped[date | None]
    decided_on: Mapped[date | None]  # approval or refusal
    decided_by: Mapped[int | None] = user_fk()
    decision_reason: Mapped[str | None] = mapped_column(Text)
    presentation_deadline: Mapped[date | None]  # Art. 9: 5 days to present the vehicle
    # Art. 10 / 15 VII: the fee precedes activation.
    fee_paid_on: Mapped[date | None]
    fee_guide_number: Mapped[str | None] = mapped_column(String(20))
    fee_amount: Mapped[Decimal | None] = mapped_column(Dec(2))
    # Art. 9, 15 VI: inspection approved, or waived by a gestor (Art. 9 §1).
    inspection_approved_on: Mapped[date | None]
    inspection_waived_on: Mapped[date | None]
    inspection_waived_by: Mapped[int | None] = user_fk()
    activated_on: Mapped[date | None]
    valid_until: Mapped[date | None]
    valid_until_limited_by: Mapped[str | None] = mapped_column(String(20))
    # Art. 3 §2: renewal requested at least 15 business days before expiry.
    renewal_requested_on: Mapped[date | None]
    renewal_late: Mapped[bool] = mapped_column(default=False)
    renewal_count: Mapped[int] = mapped_column(default=0)
    regularize_by: Mapped[date | None]  # Art. 16 §2: 5 days after a failed inspection
    suspended_until: Mapped[date | None]
    ended_on: Mapped[date | None]
    created_by: Mapped[int | None] = user_fk()

    events: Mapped[list[AuthorizationEvent]] = relationship(
        back_populates="authorization", order_by="AuthorizationEvent.id"
    )


class AuthorizationEvent(Base):
    """One step of an authorization's history: a status change, a renewal, a fee, a vehicle substitution
    (Art. 8 §2, `old_vehicle_id` → `new_vehicle_id`). Never edited."""

    __tablename__ = "authorization_events"
    __table_args__ = (
        one_of("to_status", AUTHORIZATION_STATUSES),
        CheckConstraint(
            "from_status IS NULL OR from_status IN ("
            + ", ".join(f"'{s}'" for s in AUTHORIZATION_STATUSES) + ")",
            name="from_status_valid",
        ),
        Index(None, "kind", "authorization_id", "effective_on"),   # stickers printed since the fee (issue 16)
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    authorization_id: Mapped[int] = mapped_column(ForeignKey("authorizations.id"), index=True)
    kind: Mapped[str] = mapped_column(String(30), default="status")  # status, renewal, fee, substitution...
    from_status: Mapped[str | None] = mapped_column(String(20))
    to_status: Mapped[str] = mapped_column(String(20))
    at: Mapped[datetime] = mapped_column(AwareDateTime())
    effective_on: Mapped[date | None]
    by_user_id: Mapped[int | None] = user_fk()
    reason: Mapped[str | None] = mapped_column(Text)
    act_number: Mapped[str | None] = mapped_column(String(60))
    old_vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"))
    new_vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"))
    auto_id: Mapped[int | None] = mapped_column(ForeignKey("autos.id"))

    authorization: Mapped[Authorization] = relationship(back_populates="events")
