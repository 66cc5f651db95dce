"""The enforcement core: the auto loader, the debtor, the balance, the auto's status moves and steps, attachments.

Every enforcement service (autos, process, penalties, ledger, jobs) works inside the session it is given with these
helpers; none of them imports another service's private name for it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from typing import Literal

from sqlalchemy import select

from desktop.domain.steps import refusal
from desktop.domain.auto_steps import AutoFacts, auto_status_label, auto_step, notice_starts_term
from desktop.domain.dates import local_today
from desktop.domain.documents import format_cnpj, format_cpf
from desktop.domain.roles import ENFORCEMENT_ROLES, Role
from desktop.domain.workflow import AUTO_MACHINE, AutoStatus, TransitionNotAllowed, transition
from desktop.errors import NotFound, PermissionDenied, TransitionRefused
from desktop.models import Auto, AutoJudgment, AutoNotification, Document, Driver, Platform
from desktop.models.ledger_queries import (FINE_KINDS, auto_balance_in, code_in_force_column,  # noqa: F401
                                           code_in_force_in, fine_columns, fine_in)
from desktop.services.attachments import ACCEPTED_MIMES, check_attachment
from desktop.services.actors import Actor

ZERO = Decimal(0)
UPFM_PLACES = Decimal("0.0001")
CENT = Decimal("0.01")
READER_ROLES = ENFORCEMENT_ROLES.read


@dataclass(frozen=True, slots=True)
class Infractor:
    """Who owes: a driver or a platform."""

    kind: Literal["driver", "platform"]
    id: int

    def __post_init__(self):
        if self.kind not in ("driver", "platform"):
            raise ValueError(f"tipo de infrator inválido: {self.kind!r}")

    @classmethod
    def driver(cls, driver_id: int) -> Infractor:
        return cls("driver", int(driver_id))

    @classmethod
    def platform(cls, platform_id: int) -> Infractor:
        return cls("platform", int(platform_id))

    @property
    def label(self) -> str:
        return "Condutor" if self.kind == "driver" else "Plataforma"


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file to keep with an auto (evidence, proof of notice, defense, appeal)."""

    filename: str
    content: bytes
    mime: str = "application/pdf"
    kind: str = "evidence"


def debtor_of(auto) -> Infractor:
    """The debtor of an auto (Art. 20, 22): its driver if any, otherwise its platform."""
    if auto.infractor_driver_id is not None:
        return Infractor.driver(auto.infractor_driver_id)
    return Infractor.platform(auto.infractor_platform_id)


def load_auto(session, auto_id: int, lock: bool = False) -> Auto:
    """The auto row (locked for update when `lock`); NotFound in Portuguese when missing."""
    auto = session.get(Auto, auto_id, with_for_update=lock) if lock else session.get(Auto, auto_id)
    if auto is None:
        raise NotFound("Auto de infração não encontrado.")
    return auto


def require_reader(actor) -> None:
    """Reading an auto, its infractor or what a person owes needs a logged-in user with a role of
    `ENFORCEMENT_ROLES.read` (domain/roles.py): no actor is no read (issue 25 item 7)."""
    if not isinstance(actor, Actor) or not actor.has(*READER_ROLES):
        raise PermissionDenied("Permissão negada: consulta restrita aos servidores da Secretaria.")


def infractor_identity(session, infractor: Infractor) -> tuple[str, str]:
    """(name, formatted CPF/CNPJ) of an infractor; NotFound when missing."""
    if infractor.kind == "driver":
        row = session.get(Driver, infractor.id)
        if row is None:
            raise NotFound("Condutor não encontrado.")
        return row.name, format_cpf(row.cpf)
    row = session.get(Platform, infractor.id)
    if row is None:
        raise NotFound("Plataforma não encontrada.")
    return row.trade_name or row.legal_name, format_cnpj(row.cnpj)


# ---------------------------------------------------------------------------------------------------------
# The auto's status moves and steps (desktop.domain.workflow.AUTO_MACHINE, desktop.domain.auto_steps)
# ---------------------------------------------------------------------------------------------------------

def auto_transition(auto, target: AutoStatus) -> AutoStatus:
    """`domain.transition` on the auto machine, refused as TransitionRefused (Portuguese)."""
    try:
        return transition(AUTO_MACHINE, auto.status, target)
    except TransitionNotAllowed as exc:
        raise TransitionRefused(f"Auto {auto.number}: {exc}") from exc


def has_pending_proof(session, auto_id: int) -> bool:
    """A notice of the auto still waits for its proof (Art. 22, §2)."""
    return session.scalar(select(AutoNotification.id).where(
        AutoNotification.auto_id == auto_id, AutoNotification.proof_joined_on.is_(None)).limit(1)) is not None


DECISION_INSTANCES = ("defense", "appeal", "penalty")
"""The decisions of the authority that are notified to the infractor (Art. 22, §§1-2; issue 24 items 1 and 3)."""


def decision_to_notify_in(session, auto):
    """The last decision of the authority on the auto (a judgment of the defense or appeal that did not annul it,
    or a decision applying penalties) whose notice to the infractor has no proof joined yet, or None (Art. 22,
    §2)."""
    if AutoStatus(auto.status) in (AutoStatus.CANCELLED, AutoStatus.ANNULLED):
        return None
    last = session.scalar(select(AutoJudgment).where(
        AutoJudgment.auto_id == auto.id, AutoJudgment.instance.in_(DECISION_INSTANCES),
        AutoJudgment.outcome != "annulled").order_by(AutoJudgment.id.desc()).limit(1))
    if last is None:
        return None
    # only the infractor's notice counts: a copy to the driver's platform informs it (domain.notice_starts_term)
    joined = session.execute(select(AutoNotification.addressee, AutoNotification.platform_id).where(
        AutoNotification.judgment_id == last.id, AutoNotification.proof_joined_on.is_not(None))).all()
    if any(notice_starts_term(addressee, platform_id, auto.infractor_platform_id) for addressee, platform_id in joined):
        return None
    return last


def auto_facts_in(session, auto, today: date | None = None) -> AutoFacts:
    """What the auto's steps read (status, terms, pending proof, a decision to notify) on `today` (default: the
    office's today). Whether a penalty waits for the authority's decision is added by the caller that knows the
    recurrence rules (records.auto_info_in)."""
    return AutoFacts(AutoStatus(auto.status), today or local_today(), auto.defense_deadline,
                     auto.appeal_deadline, has_pending_proof(session, auto.id),
                     balance_due=auto_balance_in(session, auto.id)[1] > 0,
                     decision_to_notify=decision_to_notify_in(session, auto) is not None)


def require_step(auto, key: str, facts: AutoFacts | None = None) -> None:
    """Refuse step `key` of the auto's table as TransitionRefused when the table refuses it. Without `facts` only
    the statuses are checked (the caller checks the dates of the act as field problems). The roles are checked
    before the session opens, with `require_role(actor, *auto_step(key).roles)`."""
    step = auto_step(key)
    checked = step if facts is not None else replace(step, condition=None)
    reason = refusal(checked, auto.status, tuple(Role), facts, auto_status_label)
    if reason:
        raise TransitionRefused(f"Auto {auto.number}: {step.label.lower()} — {reason}.")


def step_roles(key: str) -> tuple[Role, ...]:
    """The roles that may do step `key` (for `require_role`), in a stable order."""
    return tuple(sorted(auto_step(key).roles))


# ---------------------------------------------------------------------------------------------------------
# Attachments
# ---------------------------------------------------------------------------------------------------------

def store_attachment(session, actor, attachment: Attachment, auto=None, field: str = "attachment") -> Document:
    """A `documents` row holding the file (bound to the auto and its driver when given). The one attachment policy
    of issue 11 (`services.attachments.check_attachment`): size limit, the type read from the bytes and proved by
    parsing them, a declared PDF/JPG/PNG type the bytes contradict refused, the name kept only as text. Refused →
    `ValidationError` naming `field`, and nothing is stored."""
    declared = attachment.mime if attachment.mime in ACCEPTED_MIMES else None
    checked = check_attachment(attachment.content, attachment.filename, declared, field=field)
    content = checked.content
    doc = Document(
        kind=attachment.kind or "evidence", sha256=checked.sha256, content=content,
        mime=checked.mime, filename=checked.filename,
        size=checked.size, auto_id=auto.id if auto is not None else None,
        driver_id=auto.infractor_driver_id if auto is not None else None,
        vehicle_id=auto.vehicle_id if auto is not None else None, uploaded_by=actor.user_id)
    session.add(doc)
    session.flush()
    return doc
