"""Automatic transitions (no one has to remember them): a suspension ends the day after its last day and the
authorization returns to active — or to expired when its validity passed meanwhile (Art. 24 parágrafo único;
Art. 26 §1; Art. 3 §1) — and an authorization past its valid-until expires (Art. 3 §1).

`run_due_transitions` acts as SYSTEM_ACTOR, is idempotent (a second run the same day finds nothing), and writes
an AuthorizationEvent and an audit entry for each change. The application runs it at start-up and once a day.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import and_, or_, select

from desktop.domain import AuthorizationStatus, format_date, local_today
from desktop.models import Authorization, AuthorizationEvent
from desktop.services.actors import SYSTEM_ACTOR
from desktop.services.registry.events import audit_authorization, move_authorization, snapshot_authorization

__all__ = ["DueTransition", "run_due_transitions"]

S = AuthorizationStatus


@dataclass(frozen=True, slots=True)
class DueTransition:
    authorization_id: int
    number: str | None
    from_status: str
    to_status: str
    effective_on: date
    reason: str


def _suspending_auto(session, authorization_id: int) -> int | None:
    return session.execute(
        select(AuthorizationEvent.auto_id).where(AuthorizationEvent.authorization_id == authorization_id,
                                                 AuthorizationEvent.to_status == S.SUSPENDED.value)
        .order_by(AuthorizationEvent.id.desc()).limit(1)).scalar_one_or_none()


def run_due_transitions(db, today: date | None = None) -> list[DueTransition]:
    today = today or local_today()
    done: list[DueTransition] = []
    with db.session() as s:
        due = s.execute(
            select(Authorization).where(or_(
                and_(Authorization.status == S.SUSPENDED.value, Authorization.suspended_until < today),
                and_(Authorization.status.in_((S.ACTIVE.value, S.IMPEDED.value, S.SUSPENDED.value)),
                     Authorization.valid_until < today),
            )).order_by(Authorization.id).with_for_update()
        ).scalars().all()
        for a in due:
            source = a.status
            before = snapshot_authorization(a)
            expired = a.valid_until is not None and a.valid_until < today
            if expired:
                effective = a.valid_until + timedelta(days=1)
                reason = f"Validade encerrada em {format_date(a.valid_until)} (Art. 3, §1)"
                if source == S.SUSPENDED:
                    reason += f"; suspensão até {format_date(a.suspended_until)}"
                move_authorization(s, SYSTEM_ACTOR, a, S.EXPIRED, "expiry", on=effective, reason=reason)
                a.ended_on = effective
                kind = "expiry"
            else:
                effective = a.suspended_until + timedelta(days=1)
                reason = (f"Fim da suspensão: último dia {format_date(a.suspended_until)} "
                          "(Art. 24, parágrafo único; Art. 26, §1)")
                event = move_authorization(s, SYSTEM_ACTOR, a, S.ACTIVE, "suspension_end", on=effective, reason=reason)
                # A suspension applied by an auto (services.penalties) keeps its auto in the ending event too;
                # whichever job runs first ends it, the other finds it active.
                event.auto_id = _suspending_auto(s, a.id)
                kind = "suspension_end"
            audit_authorization(s, SYSTEM_ACTOR, a, kind, before)
            done.append(DueTransition(a.id, a.number, source, a.status, effective, reason))
    return done
