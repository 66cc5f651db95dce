"""Scans chosen in a wizard stay in memory until Finish (issue 12, item 22; STYLE: wizard pages never write): a
cancelled wizard leaves no document row. On Finish the register's service stores them, after the draft passed its
own checks, inside the transaction that saves and links them to the new record: a save refused after the scans
were stored rolls them back with it.

Storing goes through the attachments service (`attach_document_in`, which keeps one row for the same bytes of the
same kind, so a Finish retried after a refusal stores nothing twice)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from desktop.domain.problems import Problem
from desktop.services import attachments
from desktop.services.actors import Actor

__all__ = ["Scan", "scan_problems", "store_scan", "store_scan_in"]


@dataclass(frozen=True, slots=True)
class Scan:
    """A file chosen in a wizard, not yet stored."""

    content: bytes
    filename: str

    @property
    def mime(self) -> str | None:
        return attachments.detect_mime(self.content)


def scan_problems(scan: Scan, field: str) -> list[Problem]:
    """What the wizard can say at once, before anything is stored: an empty file or a format not accepted."""
    if not scan.content:
        return [Problem(field, "O arquivo está vazio.")]
    if scan.mime is None:
        return [Problem(field, "Formato não aceito: anexe um arquivo PDF, JPG ou PNG.")]
    return []


def store_scan_in(session, actor: Actor, scan: Scan, kind: str, *, number: str | None = None,
                  issued_on: date | None = None, expires_on: date | None = None) -> int:
    """Store a wizard's scan (not yet owned: the registration links it) inside the save's transaction and return
    its document id."""
    return attachments.attach_document_in(session, actor, scan.content, scan.filename, kind, number=number,
                                          issued_on=issued_on, expires_on=expires_on).id


def store_scan(db, actor: Actor, scan: Scan, kind: str, *, number: str | None = None,
               issued_on: date | None = None, expires_on: date | None = None) -> int:
    """Store a wizard's scan in its own transaction (see `store_scan_in`)."""
    with db.session() as s:
        return store_scan_in(s, actor, scan, kind, number=number, issued_on=issued_on, expires_on=expires_on)
