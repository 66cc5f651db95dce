"""The background jobs of the Relatórios page (STYLE: Orange3 — module-level functions `fn(state, …)` with no
widget in them, run by desktop.background.Task). Each calls one service, which opens its own session."""
from __future__ import annotations
from desktop.services import documents
from desktop.background import Cancelled


def issue_job(state, db, actor, kind: str, identifier: str, layout: str = "page", notice_kind: str = "autuacao",
              reason: str | None = None, ask_in_force: bool = False):
    """Issues, numbers and archives one document (desktop.services.documents.print_kind) → Issued, or None when
    the user cancelled (or closed the screen) before the archive: then nothing was archived (issue 12 item 16).
    With `ask_in_force` and no `reason`, a sticker, credential or termo already in force is returned instead
    (IssuedSummary) and nothing is issued: the screen offers its 2ª via or a new issue with a reason (item 17)."""
    if ask_in_force and reason is None:
        in_force = documents.current_document(db, actor, kind, identifier)
        if in_force is not None:
            return in_force
    state.progress(0, 0, "Gerando e arquivando o documento…")
    try:
        return documents.print_kind(db, actor, kind, identifier, layout=layout, notice_kind=notice_kind,
                                    state=state, reason=reason)
    except Cancelled:
        return None


def reprint_job(state, db, actor, number: str) -> bytes:
    """The archived bytes with the "Nª via" stamp (never a new rendering)."""
    state.progress(0, 0, f"Preparando a reimpressão do documento nº {number}…")
    return documents.reprint(db, actor, number)


def archive_job(state, db, actor, limit: int = 200):
    return documents.list_issued(db, actor, limit=limit)


def pending_job(state, db, actor) -> list[str]:
    return documents.pending_sticker_numbers(db, actor)


def check_job(state, db, text: str, keys: dict | None = None, sticker_number: str | None = None):
    """The sticker against its signature and the register. `keys` keeps the municipality's public key from the
    first check: when the database is out of reach later, the check is made offline (signed data, the
    signature's verdict, "confirme a situação atual")."""
    return documents.check_sticker_keeping_key(db, text, {} if keys is None else keys,
                                               sticker_number=sticker_number)
