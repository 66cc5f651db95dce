"""The one way an authorization changes and is recorded: the domain machine for a status move, an
AuthorizationEvent for every step (who, when, why, which act) and an audit entry with the before and after.
Shared by the lifecycle commands (services.authorizations), the descadastramento (registry.deregistration) and
the automatic jobs (services.jobs)."""
from __future__ import annotations

from datetime import date

from sqlalchemy.orm import Session

from desktop.domain import AUTHORIZATION_MACHINE, AuthorizationStatus, TransitionNotAllowed, transition
from desktop.errors import TransitionRefused
from desktop.models import Authorization, AuthorizationEvent
from desktop.models.types import now
from desktop.services import audit
from desktop.services.actors import Actor

__all__ = ["snapshot_authorization", "record_event", "move_authorization", "audit_authorization",
           "end_authorization"]

S = AuthorizationStatus

def snapshot_authorization(a: Authorization) -> dict:
    """The authorization's columns for the audit log."""
    return audit.snapshot(a, exclude=("created_at", "updated_at"))


def record_event(session: Session, actor: Actor, a: Authorization, kind: str, from_status: str | None, *,
                 on: date | None, reason: str | None = None, act_number: str | None = None,
                 old_vehicle_id: int | None = None, new_vehicle_id: int | None = None) -> AuthorizationEvent:
    """One AuthorizationEvent for a step, with the status after it (`a.status`)."""
    event = AuthorizationEvent(
        authorization_id=a.id, kind=kind, from_status=from_status, to_status=a.status, at=now(), effective_on=on,
        by_user_id=actor.user_id, reason=(reason or "").strip() or None, act_number=(act_number or "").strip() or None,
        old_vehicle_id=old_vehicle_id, new_vehicle_id=new_vehicle_id,
    )
    session.add(event)
    return event


def move_authorization(session: Session, actor: Actor, a: Authorization, target: S, kind: str, *, on: date,
                       reason: str | None = None, act_number: str | None = None) -> AuthorizationEvent:
    """The one way a status changes: the domain machine, then the event."""
    try:
        transition(AUTHORIZATION_MACHINE, a.status, target)
    except TransitionNotAllowed as exc:
        raise TransitionRefused(str(exc)) from exc
    source = a.status
    a.status = target.value
    return record_event(session, actor, a, kind, source, on=on, reason=reason, act_number=act_number)


def audit_authorization(session: Session, actor: Actor, a: Authorization, kind: str, before: dict | None,
                        **extra) -> None:
    """The audit entry `authorization.<kind>` with the before and after (flushes first)."""
    session.flush()
    after = snapshot_authorization(a)
    after.update({k: v for k, v in extra.items() if v is not None})
    audit.record(session, actor, f"authorization.{kind}", "authorization", a.id, before, after)


def end_authorization(session: Session, actor: Actor, a: Authorization, target: S, kind: str, reason: str,
                      act_number: str | None, on: date) -> None:
    """A final move (refusal, revocation, cassation): the end date set, a pending renewal dropped."""
    before = snapshot_authorization(a)
    move_authorization(session, actor, a, target, kind, on=on, reason=reason, act_number=act_number)
    a.ended_on = on
    a.renewal_requested_on = None
    audit_authorization(session, actor, a, kind, before)
