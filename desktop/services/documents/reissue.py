"""A document in force issued again (issue 12 item 17): before "Emitir" makes a new number, the desk learns
whether the authorization already has the sticker, credential or termo in force — then it offers the 2ª via (the
archived bytes, `reprint`) or a new issue with its reason (REISSUE_REASONS: lost, damaged, data changed), kept
in the audit log and, for a sticker, in the authorization's history.

"In force" means issued since the authorization's last fee payment (or activation): after a renewal the validity
printed on the old one is out of date, so a new one is simply due (the pending batch)."""
from __future__ import annotations

from datetime import datetime, time

from desktop.services.actors import Actor
from desktop.services.documents.archive import ALL_ROLES, ISSUE_ROLES, IssuedSummary, summaries_in
from desktop.services.permissions import require_role
from desktop.services.documents.stickers import STICKER_EVENT
from sqlalchemy import select
from desktop.domain import TIMEZONE
from desktop.models import AuthorizationEvent, IssuedDocument
from desktop.reports import records

REISSUABLE_KINDS = ("sticker", "credential", "certificate")   # the documents of an authorization a driver carries


def current_document(db, actor: Actor, kind: str, number: str) -> IssuedSummary | None:
    """The `kind` document in force of authorization `number`, or None (also for any other kind). Asked by the
    roles that may issue `kind` (ISSUE_ROLES), before they issue it again (issue 25 item 7)."""
    require_role(actor, *ISSUE_ROLES.get(kind, ALL_ROLES))
    if kind not in REISSUABLE_KINDS:
        return None
    with db.session(write=False) as s:
        auth = records.authorization_row(s, number)
        since = auth.fee_paid_on or auth.activated_on
        if kind == "sticker":     # a batch links its PDF to its first authorization: read the history
            query = select(AuthorizationEvent.act_number).where(
                AuthorizationEvent.authorization_id == auth.id, AuthorizationEvent.kind == STICKER_EVENT)
            if since is not None:
                query = query.where(AuthorizationEvent.effective_on >= since)
            document = s.scalar(query.order_by(AuthorizationEvent.id.desc()).limit(1))
            if document is None:
                return None
            found = summaries_in(s, IssuedDocument.number == document, IssuedDocument.kind == kind, limit=1)
        else:
            conditions = [IssuedDocument.kind == kind, IssuedDocument.record_type == "authorization",
                          IssuedDocument.record_id == auth.id]
            if since is not None:
                conditions.append(IssuedDocument.issued_at >= datetime.combine(since, time(0), TIMEZONE))
            found = summaries_in(s, *conditions, limit=1)
    return found[0] if found else None
