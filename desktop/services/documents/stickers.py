"""Printing stickers (Art. 14): one sticker, its preview, and the batch of pending stickers (one PDF for all the
active authorizations whose sticker was not printed since the last fee payment). Each printed sticker is recorded
in its authorization's history (`STICKER_EVENT`) in the same short transaction that archives the PDF."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from desktop.errors import ConflictError
from desktop.reports.common import DocumentMeta, now
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.documents.archive import ISSUE_ROLES, Issued, RecordRef, issue_rendered, reissue_text
from sqlalchemy import select
from desktop.models import Authorization, AuthorizationEvent
from desktop.reports import records
from sqlalchemy import and_, exists, func

STICKER_EVENT = "sticker"   # authorization_events.kind written when a sticker is printed


def _signing_key(db) -> bytes:
    """The municipality's private signing key, wherever desktop.services.setup keeps it."""
    from desktop.services.setup import signing_private_key  # lazy: SQLAlchemy loads once the database is used (start-up)
    return signing_private_key(db)


def _record_events(s, actor: Actor, numbers: Sequence[str], issued: Issued, reason: str | None = None) -> None:
    """The sticker in the history of each authorization printed (one query for the batch)."""

    when: datetime = issued.info.issued_at
    number = issued.info.number
    why = f" — nova emissão por {reissue_text(reason)}" if reason else ""
    for start in range(0, len(numbers), 500):
        rows = s.execute(select(Authorization.id, Authorization.status)
                         .where(Authorization.number.in_(list(numbers[start:start + 500]))))
        for authorization_id, status in rows:
            s.add(AuthorizationEvent(authorization_id=authorization_id, kind=STICKER_EVENT, from_status=status,
                                     to_status=status, at=when, effective_on=when.date(), by_user_id=actor.user_id,
                                     reason=f"Adesivo impresso (Art. 14) — documento nº {number}{why}",
                                     act_number=number))


def _authorization_ref(s, number: str) -> RecordRef:
    return RecordRef("authorization", records.authorization_row(s, number).id)


def sticker_for_authorization(db, actor: Actor, number: str, meta: DocumentMeta | None = None,
                              layout: str = "page"):
    """The sticker context (desktop.reports.sticker.StickerContext) of an active authorization, signed with
    the municipality's key: for a preview before issuing (the archive is written by `print_sticker`, which
    gives the document its number). Without `meta`, the footer says "prévia"."""
    from desktop.reports import sticker  # lazy: loads cryptography only when this runs
    require_role(actor, *ISSUE_ROLES["sticker"])
    meta = meta or DocumentMeta("prévia (não emitido)", now(), actor.full_name)
    key = _signing_key(db)
    with db.session(write=False) as s:
        return sticker.build_context(s, [number], meta, key, layout)


def print_sticker(db, actor: Actor, number: str, layout: str = "page", state=None,
                  reason: str | None = None) -> Issued:
    """Issues and archives the sticker of authorization `number` and records it in the authorization's history;
    `reason` (archive.REISSUE_REASONS) when a sticker in force exists (issue 12 item 17)."""
    from desktop.reports import sticker  # lazy: loads cryptography only when this runs
    require_role(actor, *ISSUE_ROLES["sticker"])
    key = _signing_key(db)

    def build(s, meta):
        ctx = sticker.build_context(s, [number], meta, key, layout)
        return _authorization_ref(s, number), ctx

    return issue_rendered(db, actor, "sticker", build, sticker.render, state=state, reason=reason,
                          after=lambda s, issued, _ctx: _record_events(s, actor, [number.strip()], issued, reason))


def _number_order(number: str) -> tuple[int, int]:
    """'0007/2026' → (2026, 7); numbers grow past 9999 (issue 12 item 20), so they are ordered as integers."""
    from desktop.services.numbering import parse_number  # lazy: SQLAlchemy loads once the database is used (start-up)
    try:
        sequence, year = parse_number(number)
    except ValueError:
        return (0, 0)
    return year, sequence


def pending_sticker_condition():
    """Active authorizations whose sticker was not printed since their (last) fee payment (on `authorizations`).
    An active authorization always has its number (check `active_has_number`), so the condition reads only
    columns of the index (status, activated_on, inspection_approved_on, fee_paid_on) (issue 16: 88 → 18 ms)."""

    since = func.coalesce(Authorization.fee_paid_on, Authorization.activated_on)
    printed = exists().where(and_(
        AuthorizationEvent.authorization_id == Authorization.id,
        AuthorizationEvent.kind == STICKER_EVENT,
        AuthorizationEvent.effective_on >= since,
    ))
    return and_(Authorization.status == "active", ~printed)


def pending_sticker_count_in(session) -> int:
    """How many stickers `pending_sticker_numbers` would list (a SQL COUNT, for the home dashboard; issue 16)."""

    return int(session.scalar(select(func.count(Authorization.id)).where(pending_sticker_condition())) or 0)


def pending_sticker_numbers(db, actor: Actor) -> list[str]:
    """Active authorizations whose sticker was not printed since their (last) fee payment — after a renewal the
    validity printed on the old sticker is out of date. By year, then number. Read by those who print stickers
    (ISSUE_ROLES["sticker"], as the home page's tile: issue 25 item 7)."""
    require_role(actor, *ISSUE_ROLES["sticker"])

    query = select(Authorization.number).where(pending_sticker_condition())
    with db.session(write=False) as s:
        numbers = list(s.scalars(query))
    return sorted(numbers, key=lambda n: (_number_order(n), n))


def print_pending_stickers(db, actor: Actor, layout: str = "sheet", workers: int = 1,
                           progress: Callable[[int, int, str], None] | None = None, state=None) -> Issued:
    """All pending stickers in one archived PDF (one per page or 8 per label sheet); each authorization's history
    records the batch's document number. `workers=2` encodes the QR codes on both cores."""
    from desktop.reports import sticker  # lazy: loads cryptography only when this runs
    require_role(actor, *ISSUE_ROLES["sticker"])
    numbers = pending_sticker_numbers(db, actor)
    if not numbers:
        raise ConflictError("Não há adesivos pendentes: todas as autorizações ativas já têm adesivo impresso "
                            "depois do último pagamento da taxa.")
    key = _signing_key(db)
    total = len(numbers)

    def build(s, meta):
        ctx = sticker.build_context(s, numbers, meta, key, layout)
        return _authorization_ref(s, numbers[0]), ctx

    def render(ctx):
        on_page = None
        if progress:
            progress(0, total, f"Assinando {total} adesivo(s)…")
            on_page = lambda done, pages: progress(  # noqa: E731
                min(total, done * total // max(pages, 1)), total, f"Página {done} de {pages}…")
        return sticker.render(ctx, workers=workers, on_page=on_page)

    issued = issue_rendered(db, actor, "sticker", build, render, state=state,
                            after=lambda s, issued, _ctx: _record_events(s, actor, numbers, issued))
    if progress:
        progress(total, total, f"{total} adesivo(s) no documento nº {issued.info.number}.")
    return issued


def pending_stickers_job(state, db, actor: Actor, layout: str = "sheet", workers: int = 2) -> Issued:
    """The batch of pending stickers as a background job (desktop.background: `Task(pending_stickers_job, db, actor)`):
    progress per page; "Cancelar" stops it before the commit, so no number is spent and nothing is recorded."""
    def progress(done: int, total: int, text: str) -> None:
        state.progress(done, total, text)
        if done < total:      # the last report comes after the commit: nothing to stop any more
            state.check()
    return print_pending_stickers(db, actor, layout=layout, workers=workers, progress=progress, state=state)
