"""Demo: superseded stickers (issue 12 item 17), so a new user sees the case on the sticker check.

After the load, one active authorization gets its sticker printed and then printed again as a new issue for
loss ("extravio"): the first document is superseded by the second. Checking the first sticker with its printed
number says "substituído pelo adesivo nº …"; the second is valid. Written through the documents service (numbered,
archived with SHA-256, recorded in the authorization's history and the audit log), in its own short transactions
after the one of the load. A desk without the municipality's signing key skips it (it cannot sign stickers).
"""
from __future__ import annotations

from desktop.errors import DesktopError
from sqlalchemy import select
from desktop.models import Authorization, User
from desktop.services import documents
from desktop.services.actors import Actor


def superseded_stickers(db, summary) -> list[str]:
    """The document numbers printed (oldest first), or [] when skipped."""

    with db.session(write=False) as s:
        number = s.scalar(select(Authorization.number).where(Authorization.status == "active")
                          .order_by(Authorization.id).limit(1))
        clerk = s.scalar(select(User).where(User.username == "ana.atendente"))
        actor = Actor(clerk.id, clerk.username, clerk.full_name, frozenset(clerk.roles)) if clerk else None
    if number is None or actor is None:
        return []
    try:
        first = documents.print_sticker(db, actor, number)
        second = documents.print_kind(db, actor, "sticker", number, reason="lost")
    except DesktopError:  # no signing key on this desk (or no settings): nothing to show
        return []
    printed = [first.info.number, second.info.number]
    summary.counts["superseded_stickers"] = 1
    return printed
