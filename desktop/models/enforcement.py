"""Enforcement (Art. 17-28): the infraction catalog, autos de infração with their notifications, defenses,
judgments and administrative measures, and the append-only fines ledger in UPFM."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from desktop.domain.ledger import EntryKind
from desktop.domain.penalties import AdministrativeMeasure as MeasureKind
from desktop.domain.penalties import NotificationForm, Severity
from desktop.domain.workflow import AutoStatus
from desktop.models.base import Base, Created, Versioned, one_of, user_fk
from desktop.models.types import AwareDateTime, CodeString, Dec, JSONData

# Value lists come from desktop.domain, so the CHECK constraints and the state machines agree.
SEVERITIES = tuple(s.value for s in Severity)  # Art. 25
AUTO_STATUSES = tuple(s.value for s in AutoStatus)  # drawn_up ... divida_ativa, cancelled, annulled
INFRACTOR_KINDS = ("driver", "platform")  # Art. 20, 22
NOTIFICATION_FORMS = tuple(f.value for f in NotificationForm)  # Art. 22 §1 I-VI
DEFENSE_KINDS = ("defense", "appeal")
JUDGMENT_OUTCOMES = ("upheld", "partly_upheld", "annulled")
MEASURE_KINDS = tuple(m.value for m in MeasureKind)  # Art. 24 II a)-d)
LEDGER_KINDS = tuple(k.value for k in EntryKind)  # debit, costs, payment, reduction, reversal, requalification, refund
WAIVER_INSTANCES = ("defense", "appeal")
PAYMENT_GUIDE_WHERE = "kind = 'payment' AND guide_number IS NOT NULL"

class InfractionCode(Versioned, Created, Base):
    """A catalog code (SPEC table; Art. 26-27; new ones for the regulating decree, Art. 29). A code in use is
    never edited: it is closed (`valid_to`) and replaced (`replaced_by_id`)."""

    __tablename__ = "infraction_codes"
    __table_args__ = (
        one_of("severity", SEVERITIES),
        UniqueConstraint("code", "valid_from"),
        CheckConstraint("upfm >= 0", name="upfm_not_negative"),
        CheckConstraint("valid_to IS NULL OR valid_to >= valid_from", name="valid_range"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(30), index=True)
    article: Mapped[str] = mapped_column(String(60))
    description: Mapped[str] = mapped_column(Text)
    severity: Mapped[str] = mapped_column(String(20))
    upfm: Mapped[Decimal] = mapped_column(Dec(4))
    extra_penalty: Mapped[str | None] = mapped_column(Text)
    recurrence_effect: Mapped[str | None] = mapped_column(Text)
    # The penalties a decree code names (Art. 29; `Penalty` values from domain.penalties.decree_penalty_kinds),
    # set when the row is created (a replacement is a new row); None/[] = the fine only, or the law's own rules.
    penalties: Mapped[list | None] = mapped_column(JSONData)
    valid_from: Mapped[date]
    valid_to: Mapped[date | None]
    replaced_by_id: Mapped[int | None] = mapped_column(ForeignKey("infraction_codes.id"))
    created_by: Mapped[int | None] = user_fk()


class Auto(Versioned, Created, Base):
    """Auto de infração (Art. 19, 22). Never deleted: cancelled with a reason by a gestor.
    `upfm_value` is the R$ value of one UPFM in the year it was drawn up (SPEC §3)."""

    __tablename__ = "autos"
    __table_args__ = (
        one_of("status", AUTO_STATUSES),
        CheckConstraint("infractor_driver_id IS NOT NULL OR infractor_platform_id IS NOT NULL",
                        name="has_infractor"),
        CheckConstraint("amount_upfm >= 0", name="amount_not_negative"),
        CheckConstraint("status <> 'cancelled' OR cancel_reason IS NOT NULL", name="cancel_has_reason"),
        Index(None, "status"),
        Index(None, "drawn_up_at"),
        Index(None, "code", "infractor_driver_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(CodeString(20), unique=True)
    drawn_up_at: Mapped[datetime] = mapped_column(AwareDateTime())
    place: Mapped[str] = mapped_column(String(300))
    infractor_driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"), index=True)
    infractor_platform_id: Mapped[int | None] = mapped_column(ForeignKey("platforms.id"), index=True)
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"), index=True)
    authorization_id: Mapped[int | None] = mapped_column(ForeignKey("authorizations.id"))
    infraction_code_id: Mapped[int] = mapped_column(ForeignKey("infraction_codes.id"))
    code: Mapped[str] = mapped_column(String(30))
    art13_item: Mapped[str | None] = mapped_column(String(6))  # ART26-III: the duty of Art. 13, I-XXIII
    description: Mapped[str] = mapped_column(Text)
    agent_id: Mapped[int | None] = user_fk()
    status: Mapped[str] = mapped_column(String(20), default="drawn_up")
    amount_upfm: Mapped[Decimal] = mapped_column(Dec(4))
    upfm_value: Mapped[Decimal] = mapped_column(Dec(6))
    amount_reais: Mapped[Decimal] = mapped_column(Dec(2))
    recurrence: Mapped[bool] = mapped_column(default=False)
    assessment: Mapped[dict | None] = mapped_column(JSONData)  # what domain.assess proposed
    notice_joined_on: Mapped[date | None]  # Art. 22 §2: terms start when the proof of notice is joined
    # Art. 22 §2 (issue 24 item 3): the appeal term runs from the joining of the proof the decision was notified
    decision_notice_joined_on: Mapped[date | None]
    # SPEC (Art. 25; issue 24 item 9): the moment the auto was drawn up; `drawn_up_at` is the infraction's
    lavrado_at: Mapped[datetime | None] = mapped_column(AwareDateTime())
    defense_deadline: Mapped[date | None]
    appeal_deadline: Mapped[date | None]
    payment_deadline: Mapped[date | None]
    final_on: Mapped[date | None]
    cancel_reason: Mapped[str | None] = mapped_column(Text)
    cancelled_by: Mapped[int | None] = user_fk()
    cancelled_at: Mapped[datetime | None] = mapped_column(AwareDateTime())

    notifications: Mapped[list[AutoNotification]] = relationship(order_by="AutoNotification.id")
    defenses: Mapped[list[AutoDefense]] = relationship(order_by="AutoDefense.id")
    judgments: Mapped[list[AutoJudgment]] = relationship(order_by="AutoJudgment.id")
    measures: Mapped[list[AdministrativeMeasure]] = relationship(order_by="AdministrativeMeasure.id")


class AutoNotification(Versioned, Created, Base):
    """One notification attempt (Art. 22 §1 I-VI) with its proof."""

    __tablename__ = "auto_notifications"
    __table_args__ = (one_of("addressee", INFRACTOR_KINDS), one_of("form", NOTIFICATION_FORMS))

    id: Mapped[int] = mapped_column(primary_key=True)
    auto_id: Mapped[int] = mapped_column(ForeignKey("autos.id"), index=True)
    addressee: Mapped[str] = mapped_column(String(20))
    form: Mapped[str] = mapped_column(String(20))
    sent_on: Mapped[date]
    proof_joined_on: Mapped[date | None]
    proof_document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    note: Mapped[str | None] = mapped_column(Text)
    recorded_by: Mapped[int | None] = user_fk()
    # issue 24 item 3: a notice of a decision (Art. 22 §2: the appeal term runs from the joining of its proof)
    judgment_id: Mapped[int | None] = mapped_column(ForeignKey("auto_judgments.id"))
    # issue 24 item 4: the platform's copy (Art. 22 caput), to a platform the driver works for
    platform_id: Mapped[int | None] = mapped_column(ForeignKey("platforms.id"))


class AutoDefense(Versioned, Created, Base):
    """A defesa prévia or a recurso received (Art. 22)."""

    __tablename__ = "auto_defenses"
    __table_args__ = (one_of("kind", DEFENSE_KINDS),)

    id: Mapped[int] = mapped_column(primary_key=True)
    auto_id: Mapped[int] = mapped_column(ForeignKey("autos.id"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    filed_on: Mapped[date]
    summary: Mapped[str] = mapped_column(Text, default="")
    document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    recorded_by: Mapped[int | None] = user_fk()


class AutoJudgment(Versioned, Created, Base):
    """A gestor's decision on a defense or appeal."""

    __tablename__ = "auto_judgments"
    __table_args__ = (
        one_of("outcome", JUDGMENT_OUTCOMES),
        CheckConstraint("outcome <> 'partly_upheld' OR reduced_upfm IS NOT NULL", name="reduction_has_amount"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    auto_id: Mapped[int] = mapped_column(ForeignKey("autos.id"), index=True)
    defense_id: Mapped[int | None] = mapped_column(ForeignKey("auto_defenses.id"))
    instance: Mapped[str] = mapped_column(String(20), default="defense")  # defense, appeal, ex_officio, penalty
    # issue 24 item 1: the decision is an act of its own, numbered NNNN/AAAA (series "decision")
    number: Mapped[str | None] = mapped_column(String(20), unique=True)
    decided_on: Mapped[date]
    decided_by: Mapped[int | None] = user_fk()
    outcome: Mapped[str] = mapped_column(String(20))
    reduced_upfm: Mapped[Decimal | None] = mapped_column(Dec(4))  # partly upheld: the fine in force after it
    requalified_code: Mapped[str | None] = mapped_column(String(30))  # issue 12 item 1: the code in force after it
    reasoning: Mapped[str] = mapped_column(Text)


class AutoWaiver(Versioned, Created, Base):
    """The infractor's written waiver (desistência) of the defense or of the appeal, with its document: the
    decision becomes final that day (Art. 22; issue 12 item 3 — paying is not a waiver)."""

    __tablename__ = "auto_waivers"
    __table_args__ = (one_of("instance", WAIVER_INSTANCES),)

    id: Mapped[int] = mapped_column(primary_key=True)
    auto_id: Mapped[int] = mapped_column(ForeignKey("autos.id"), index=True)
    instance: Mapped[str] = mapped_column(String(20))
    filed_on: Mapped[date]
    statement: Mapped[str] = mapped_column(Text, default="")
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"))
    recorded_by: Mapped[int | None] = user_fk()


class AdministrativeMeasure(Versioned, Created, Base):
    """Art. 24 II: notice to regularize, retention/removal, seizure of documents, equipment or vehicle;
    released on `released_on`. Art. 28 costs go to the ledger as `cost` entries."""

    __tablename__ = "administrative_measures"
    __table_args__ = (
        one_of("kind", MEASURE_KINDS),
        CheckConstraint("released_on IS NULL OR released_on >= applied_on", name="released_after_applied"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    auto_id: Mapped[int | None] = mapped_column(ForeignKey("autos.id"), index=True)
    driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"))
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"))
    kind: Mapped[str] = mapped_column(String(30))
    applied_on: Mapped[date]
    released_on: Mapped[date | None]
    place: Mapped[str | None] = mapped_column(String(300))
    cost_reais: Mapped[Decimal | None] = mapped_column(Dec(2))
    note: Mapped[str | None] = mapped_column(Text)
    # The rule a measure carries out when a decision ordered it (Art. 27, parágrafo único; Art. 24, II, d).
    article: Mapped[str | None] = mapped_column(String(200))
    applied_by: Mapped[int | None] = user_fk()


SIGN_MATCHES_KIND = ("(kind = 'debit' AND amount_upfm > 0)"
                     " OR (kind = 'costs' AND amount_upfm >= 0 AND amount_reais > 0)"
                     " OR (kind = 'refund' AND amount_upfm >= 0 AND amount_reais >= 0"
                     " AND (amount_upfm > 0 OR amount_reais > 0))"
                     " OR (kind = 'payment' AND amount_upfm <= 0 AND amount_reais < 0)"
                     " OR (kind IN ('reduction', 'requalification') AND amount_upfm < 0)"
                     " OR (kind = 'reversal' AND (amount_upfm <> 0 OR amount_reais <> 0))")


class LedgerEntry(Base):
    """A posted entry of the fines ledger (SPEC §3: append-only; STYLE: Tryton's move). Triggers in the
    database refuse UPDATE and DELETE. `amount_upfm` is signed as in desktop.domain.ledger: positive = owed by
    the infractor (debit, costs), negative = credit (payment, reduction); a reversal is the origin's opposite.
    A balance is the sum of entries up to a date; it is never stored."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        one_of("kind", LEDGER_KINDS),
        CheckConstraint("infractor_driver_id IS NOT NULL OR infractor_platform_id IS NOT NULL",
                        name="has_infractor"),
        CheckConstraint("kind <> 'reversal' OR (reverses_id IS NOT NULL AND reason IS NOT NULL)",
                        name="reversal_points_at_origin"),
        CheckConstraint("kind NOT IN ('reduction', 'requalification', 'refund') OR reason IS NOT NULL",
                        name="reduction_has_reason"),
        # desktop.domain.ledger: debits, costs and refunds increase the balance, payments, reductions and
        # requalifications decrease it. The Art. 28 costs are reais with no UPFM (migration 0022; rows of before
        # keep the UPFM they were posted with), so a payment or refund of costs alone and a reversal of costs
        # carry reais only.
        CheckConstraint(SIGN_MATCHES_KIND, name="sign_matches_kind"),
        # issue 12 item 5: an entry is reversed once, by two desks at once either (NULLs do not collide).
        Index("uq_ledger_entries_reverses_id", "reverses_id", unique=True),
        # issue 12 item 7: one bank guide pays one debt.
        Index("uq_ledger_entries_payment_guide", "guide_number", unique=True,
              sqlite_where=text(PAYMENT_GUIDE_WHERE), postgresql_where=text(PAYMENT_GUIDE_WHERE)),
        Index(None, "infractor_driver_id", "effective_on"),
        Index(None, "infractor_platform_id", "effective_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    infractor_driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"))
    infractor_platform_id: Mapped[int | None] = mapped_column(ForeignKey("platforms.id"))
    auto_id: Mapped[int | None] = mapped_column(ForeignKey("autos.id"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    amount_upfm: Mapped[Decimal] = mapped_column(Dec(4))
    upfm_value: Mapped[Decimal] = mapped_column(Dec(6))
    amount_reais: Mapped[Decimal] = mapped_column(Dec(2))
    effective_on: Mapped[date]
    posted_at: Mapped[datetime] = mapped_column(AwareDateTime())
    reverses_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_entries.id"))
    guide_number: Mapped[str | None] = mapped_column(String(20))
    reason: Mapped[str | None] = mapped_column(Text)
    created_by: Mapped[int | None] = user_fk()
