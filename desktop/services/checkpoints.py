"""Signing the head of the audit chain with the secretariat's key (issue 11): the gestor's checkpoint on demand,
the routine of the day's checkpoint, and the signed "termo de verificação" for publication.

Kept apart from `services.audit` because it needs the desk's private key (`services.setup`), and setup itself
writes the audit log: audit → setup → audit would be an import cycle (issue 10, item 2).
"""
from __future__ import annotations

from datetime import date

from sqlalchemy import select

from desktop.domain.dates import local_today
from desktop.domain.roles import DOCUMENT_ROLES, SETUP_ROLES
from desktop.errors import DesktopError
from desktop.models import AuditCheckpoint
from desktop.services.audit import AuditCheck, Checkpoint, lock_chain, make_checkpoint_in, verify
from desktop.services.actors import Actor, SYSTEM_ACTOR
from desktop.services.permissions import require_role
from desktop.services.setup import signing_private_key
from desktop.reports import audit_checkpoint
from desktop.reports.common import signer_of
from desktop.reports.records import settings_row


def make_checkpoint(db, actor: Actor, today: date | None = None) -> Checkpoint:
    """A gestor signs the head of the chain now (issue 11). Needs the secretariat's private key on this desk."""
    require_role(actor, *SETUP_ROLES.checkpoint)
    key = signing_private_key(db)
    with db.session() as s:
        return make_checkpoint_in(s, actor, key, today)


def daily_checkpoint(db, today: date | None = None) -> Checkpoint | None:
    """The routine of the day: one checkpoint per day, as SYSTEM_ACTOR; None when today's exists already or this
    desk holds no private key (it verifies, it cannot sign). Idempotent: several desks the same day sign once."""
    day = today or local_today()
    with db.session(write=False) as s:
        if s.scalar(select(AuditCheckpoint.id).where(AuditCheckpoint.day == day).limit(1)) is not None:
            return None
    try:
        key = signing_private_key(db)
    except DesktopError:
        return None
    with db.session() as s:
        lock_chain(s)
        if s.scalar(select(AuditCheckpoint.id).where(AuditCheckpoint.day == day).limit(1)) is not None:
            return None
        return make_checkpoint_in(s, SYSTEM_ACTOR, key, day, reason="rotina do dia")


def checkpoint_term(db, actor: Actor, today: date | None = None) -> tuple[Checkpoint, AuditCheck, bytes]:
    """A gestor signs the head now and gets the "termo de verificação" PDF for publication
    (`reports/audit_checkpoint.py`); the chain is verified first and the verdict printed on the termo.

    Issue 28 point 8: the termo is an act of the gestor who signs it — named, with office and matrícula (a
    routine or the machine's account cannot) — and a document of the archive, numbered NNNN/AAAA in its series
    and kept with its SHA-256 like every other (kind "audit_term")."""
    # local: ReportLab is imported only when a termo is printed (start-up cost)
    from desktop.services.documents.archive import RecordRef, issue_rendered  # lazy: the archive loads to print

    require_role(actor, *DOCUMENT_ROLES.audit_term)
    with db.session(write=False) as s:
        signer_of(s, actor)          # refuse before signing the chain: the termo must have its signer
    cp = make_checkpoint(db, actor, today)
    check = verify(db)

    def build(s, meta):
        signer = signer_of(s, actor, settings_row(s).secretariat)
        return (RecordRef("audit_checkpoint", cp.id),
                audit_checkpoint.build_context(s, cp, check.ok, check.reason, meta=meta, signer=signer))

    issued = issue_rendered(db, actor, "audit_term", build, audit_checkpoint.render)
    return cp, check, issued.pdf
