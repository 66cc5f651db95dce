"""Gap-free yearly numbers `NNNN/AAAA` for authorizations, autos, payment guides and issued documents
(SPEC §2, §4: numbers never repeat or skip, even with several desks saving at once), and the notices' own
series `NT-NNNN/AAAA` (issue 28 point 1: "Notificação nº 0009/2026" read as auto 0009/2026).

The counter is a row of `number_sequences` moved by one atomic `UPDATE ... SET last = last + 1 RETURNING
last` inside the caller's transaction: the row stays locked until that transaction ends, so a second desk
waits for it, and a rolled-back transaction gives its number back. The row of a new (kind, year) is created by
`INSERT ... ON CONFLICT DO NOTHING`, which is safe when two desks start the year at the same moment.
On SQLite the write transaction (BEGIN IMMEDIATE) already excludes every other writer.
"""
from __future__ import annotations

import re

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from desktop.models import NUMBER_KINDS, IssuedDocument, NumberSequence

_NUMBER = re.compile(r"^(?P<seq>\d{4,})/(?P<year>\d{4})$")


def format_number(sequence: int, year: int) -> str:
    return f"{sequence:04d}/{year:04d}"


def parse_number(number: str) -> tuple[int, int]:
    """"0007/2026" → (7, 2026); ValueError for anything else."""
    match = _NUMBER.match(number.strip())
    if not match:
        raise ValueError(f"Número inválido: {number!r} (esperado NNNN/AAAA)")
    return int(match.group("seq")), int(match.group("year"))


def next_number(session: Session, kind: str, year: int) -> str:
    """The next number of `kind` in `year`, consumed only if the surrounding transaction commits."""
    if kind not in NUMBER_KINDS:
        raise ValueError(f"Tipo de numeração desconhecido: {kind!r} (válidos: {', '.join(NUMBER_KINDS)})")
    if not 2000 <= int(year) <= 2999:
        raise ValueError(f"Ano fora do intervalo: {year}")
    year = int(year)
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert  # local: imported only on this branch
    else:
        from sqlalchemy.dialects.sqlite import insert  # local: imported only on this branch
    session.execute(
        insert(NumberSequence).values(kind=kind, year=year, last=0).on_conflict_do_nothing(
            index_elements=["kind", "year"]
        )
    )
    last = session.execute(
        update(NumberSequence)
        .where(NumberSequence.kind == kind, NumberSequence.year == year)
        .values(last=NumberSequence.last + 1)
        .returning(NumberSequence.last),
        execution_options={"synchronize_session": False},
    ).scalar_one()
    return format_number(last, year)


def peek_last(session: Session, kind: str, year: int) -> int:
    """The last number given for (kind, year), 0 when none (for screens and reports; does not reserve)."""
    row = session.get(NumberSequence, (kind, int(year)))
    return row.last if row is not None else 0


# ---------------------------------------------------------------------------------------------------- notices
NOTICE_PREFIX = "NT"
NOTICE_KIND = "notice"       # services.documents.archive's kind of every notice (autuação, penalty, list…)
_NOTICE = re.compile(r"^NT-(?P<seq>\d{4,})/(?P<year>\d{4})$", re.IGNORECASE)


def format_notice_number(sequence: int, year: int) -> str:
    """A notice's own number, "NT-0003/2026": never the shape of an auto's, a guide's or a document's number."""
    return f"{NOTICE_PREFIX}-{format_number(sequence, year)}"


def parse_notice_number(text: str) -> tuple[int, int] | None:
    """"NT-0003/2026" → (3, 2026); None for anything else."""
    match = _NOTICE.match((text or "").strip())
    return (int(match.group("seq")), int(match.group("year"))) if match else None


def _notices_of(year: int):
    return select(IssuedDocument.id).where(IssuedDocument.kind == NOTICE_KIND,
                                           IssuedDocument.number.like(f"%/{int(year):04d}"))


def next_notice_number_in(session: Session, year: int) -> str:
    """The number the next notice of `year` takes: the notices archived in the year, plus one. A notice is
    archived under the document number it was rendered with (services.documents.archive.issue_rendered), which
    is taken only if no other document was archived meanwhile and which locks the document series until the
    commit — so the count it was rendered with is still the count when it is archived, and the notices' series
    has no gap and no repeat without a series row of its own (no migration)."""
    count = session.scalar(select(func.count()).select_from(_notices_of(year).subquery()))
    return format_notice_number(int(count or 0) + 1, year)


def notice_number_of_in(session: Session, issued_document_id: int, number: str) -> str | None:
    """The notice's own number ("NT-0003/2026") of the archived notice `issued_document_id` whose document number
    is `number` (the year is the document's): its place among the year's notices. None for another number."""
    try:
        year = parse_number(number)[1]
    except (ValueError, AttributeError):
        return None
    place = session.scalar(select(func.count()).select_from(
        _notices_of(year).where(IssuedDocument.id <= issued_document_id).subquery()))
    return format_notice_number(int(place), year) if place else None


def notice_document_id_in(session: Session, notice_number: str) -> int | None:
    """The archived document (issued_documents.id) of notice "NT-0003/2026": the year's third notice."""
    parsed = parse_notice_number(notice_number)
    if parsed is None or parsed[0] < 1:
        return None
    sequence, year = parsed
    return session.scalar(_notices_of(year).order_by(IssuedDocument.id).offset(sequence - 1).limit(1))
