"""Gap-free yearly numbers `NNNN/AAAA` for authorizations, autos, payment guides and issued documents
(SPEC §2, §4: numbers never repeat or skip, even with several desks saving at once).

The counter is a row of `number_sequences` moved by one atomic `UPDATE ... SET last = last + 1 RETURNING
last` inside the caller's transaction: the row stays locked until that transaction ends, so a second desk
waits for it, and a rolled-back transaction gives its number back. The row of a new (kind, year) is created by
`INSERT ... ON CONFLICT DO NOTHING`, which is safe when two desks start the year at the same moment.
On SQLite the write transaction (BEGIN IMMEDIATE) already excludes every other writer.
"""
from __future__ import annotations

import re

from sqlalchemy import update
from sqlalchemy.orm import Session

from desktop.models import NUMBER_KINDS, NumberSequence

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
