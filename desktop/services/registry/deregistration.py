"""Descadastramento of a driver or a vehicle (Art. 24, I, d and f): mark the record and end its live
authorization (a pending request is refused, any other revoked), inside the caller's transaction. Shared by
services.drivers and services.vehicles."""
from __future__ import annotations

from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from desktop.domain import AuthorizationStatus, local_today
from desktop.domain.problems import Problem
from desktop.domain.roles import REGISTRY_ROLES
from desktop.errors import ValidationError
from desktop.models import Authorization
from desktop.models.authorizations import LIVE_AUTHORIZATION_STATUSES
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.locking import check_version
from desktop.services.permissions import require_role
from desktop.services.registry.events import end_authorization
from desktop.services.lookups import get_or_404

__all__ = ["end_for_deregistration", "deregistration_problems", "deregister_subject", "deregister_record"]

S = AuthorizationStatus

def end_for_deregistration(session: Session, actor: Actor, a: Authorization, reason: str, act_number: str | None,
                           on: date) -> None:
    """The driver's or vehicle's descadastramento ends its live authorization: a pending request is refused, any
    other is revoked (Art. 24, I, d and f)."""
    target = S.REFUSED if a.status in (S.REQUESTED, S.IN_ANALYSIS) else S.REVOKED
    end_authorization(session, actor, a, target, "deregistration", reason, act_number, on)


def deregistration_problems(reason: str, article: str) -> None:
    """The reason is required (the act is contestable): raise before anything is opened."""
    if not (reason or "").strip():
        raise ValidationError([Problem("reason", "Informe o motivo do descadastramento.", article)])


def deregister_subject(session: Session, actor: Actor, subject, *, entity: str, label: str, owner_column,
                       reason: str, act_number: str | None, on: date, snapshot) -> None:
    """Descadastramento of a driver or a vehicle (Art. 24, I, d and f) inside the caller's session: mark the
    record, end its live authorizations (`end_for_deregistration`), audit before and after. `label` names the
    subject in Portuguese ("condutor", "veículo"); `owner_column` is Authorization.driver_id or .vehicle_id."""
    if subject.status == "deregistered":
        raise ValidationError([Problem("status", f"O {label} já está descadastrado.")])
    before = snapshot(subject)
    subject.status = "deregistered"
    subject.deregistered_on = on
    subject.deregistration_reason = reason.strip()
    live = session.execute(select(Authorization).where(
        owner_column == subject.id, Authorization.status.in_(LIVE_AUTHORIZATION_STATUSES))).scalars().all()
    for a in live:
        end_for_deregistration(session, actor, a, f"Descadastramento do {label}: {reason.strip()}", act_number, on)
    session.flush()
    audit.record(session, actor, f"{entity}.deregister", entity, subject.id, before,
                 {**snapshot(subject), "reason": reason.strip(), "act_number": act_number})


def deregister_record(session: Session, actor: Actor, model, record_id: int, expected_version: int, *,
                      not_found: str, article: str, entity: str, label: str, owner_column, reason: str,
                      act_number: str | None, on: date | None, snapshot):
    """The descadastramento use case of a driver or a vehicle by a gestor's act (Art. 24, I, d and f), inside
    the caller's session: the reason required, the record loaded at the version the user saw, then
    `deregister_subject`. Returns the record."""
    require_role(actor, *REGISTRY_ROLES.decide)
    on = on or local_today()
    deregistration_problems(reason, article)
    subject = get_or_404(session, model, record_id, not_found)
    check_version(subject, expected_version)
    deregister_subject(session, actor, subject, entity=entity, label=label, owner_column=owner_column,
                       reason=reason, act_number=act_number, on=on, snapshot=snapshot)
    return subject
