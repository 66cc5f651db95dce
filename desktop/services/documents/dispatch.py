"""Print dispatch: `python -m desktop print KIND --id NUMBER` (and the Relatórios page) issue one document by
the number users know (desktop.cli_print; `print sticker --all-pending` and `print reprint` call
`print_pending_stickers` and `reprint` directly)."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from desktop.errors import DesktopError
from desktop.services.actors import Actor
from desktop.services.documents import printing, stickers
from desktop.services.documents.archive import DOCUMENT_KINDS, Issued


def print_kind(db, actor: Actor, kind: str, record_number: str, layout: str = "page",
               notice_kind: str = "autuacao", state=None, reason: str | None = None) -> Issued:
    """Issues and archives one document of `kind` for the record users know as `record_number`. `state`
    (desktop.background.TaskState) lets a background job's "Cancelar" stop it before anything is archived; `reason`
    (archive.REISSUE_REASONS) says why a sticker, credential or termo in force is issued again."""
    if kind == "sticker":
        return stickers.print_sticker(db, actor, record_number, layout, state=state, reason=reason)
    if kind in ("credential", "certificate"):
        call = printing.print_credential if kind == "credential" else printing.print_certificate
        return call(db, actor, record_number, state=state, reason=reason)
    if kind == "notice":
        return printing.print_notice(db, actor, notice_kind, record_number, state=state)
    if kind == "edital":
        return printing.print_edital(db, actor, _parse_br_date(record_number), state=state)
    if kind in ("inspection", "attendance"):
        if not record_number.strip().isdigit():
            raise DesktopError(f"Informe o número interno (código) da {'vistoria' if kind == 'inspection' else 'turma'}"
                               f", por exemplo --id 12.")
        call = printing.print_inspection_report if kind == "inspection" else printing.print_attendance_list
        return call(db, actor, int(record_number), state=state)
    by_number = {"guide": printing.print_guide, "statement": printing.print_statement, "auto": printing.print_auto,
                 "data_request": printing.print_data_request,
                 "divida_ativa": printing.print_divida_ativa_certificate}   # issue 28 point 9: --id the auto
    if kind in by_number:
        return by_number[kind](db, actor, record_number, state=state)
    raise DesktopError(f"Tipo de documento desconhecido: {kind!r}. Tipos: {', '.join(DOCUMENT_KINDS)}.")


def _parse_br_date(text: str) -> date:
    """'02/04/2026' → date(2026, 4, 2); the edital is chosen by the date of its publication."""
    try:
        return datetime.strptime(text.strip(), "%d/%m/%Y").date()
    except ValueError:
        raise DesktopError(f"Data inválida: {text!r}. Para o edital, informe a data de publicação (dd/mm/aaaa), "
                           "por exemplo --id 02/04/2026.") from None


def kinds_help() -> Sequence[str]:
    return tuple(DOCUMENT_KINDS)
