"""The demo mark of a database (issue 11): `is_demo(session)` for window titles and the PDF mark, `own_records(db)`
for the guard that keeps demonstration data out of a real database, `mark_demo`/`unmark_demo`. Loading the data
set is the demo package's (`desktop.demo.entry.load_demo`), a client of the services: no service imports it."""
from __future__ import annotations
from sqlalchemy import select
from desktop.models import DatabaseMark
from sqlalchemy import text
from desktop.models import now
from sqlalchemy import delete

__all__ = ["is_demo", "is_demo_db", "own_records", "DEMO_MARK", "DEMO_LABEL", "mark_demo", "unmark_demo"]

from desktop.models.security import DEMO_MARK
DEMO_LABEL = "DEMONSTRAÇÃO — SEM VALOR LEGAL"
# Tables whose rows are the office's own work: any of them filled means a real database.
RECORD_TABLES = {
    "platforms": "plataformas", "drivers": "condutores", "vehicles": "veículos", "lessors": "locadores",
    "authorizations": "autorizações", "inspections": "vistorias", "autos": "autos de infração",
    "ledger_entries": "lançamentos", "fees": "taxas", "payment_guides": "guias", "documents": "documentos",
    "issued_documents": "documentos emitidos", "data_requests": "requisições de dados",
    "course_sessions": "turmas de curso", "trip_rows": "viagens importadas",
}


def is_demo(session) -> bool:
    """True when the database of this session is a demonstration (for window titles and the PDF mark)."""

    return session.scalar(select(DatabaseMark.key).where(DatabaseMark.key == DEMO_MARK)) is not None


def is_demo_db(db) -> bool:
    with db.session(write=False) as s:
        return is_demo(s)


def own_records(db) -> dict[str, int]:
    """Rows in the tables of the office's own work, by Portuguese label (only the non-empty ones)."""

    found: dict[str, int] = {}
    with db.session(write=False) as s:
        for table, label in RECORD_TABLES.items():
            if s.execute(text(f"SELECT 1 FROM {table} LIMIT 1")).first() is not None:
                found[label] = s.execute(text(f"SELECT count(*) FROM {table}")).scalar()
    return found


def mark_demo(db, summary_text: str) -> None:

    with db.session() as s:
        if s.get(DatabaseMark, DEMO_MARK) is None:
            s.add(DatabaseMark(key=DEMO_MARK, value=summary_text, at=now()))


def unmark_demo(db) -> None:

    with db.session() as s:
        s.execute(delete(DatabaseMark).where(DatabaseMark.key == DEMO_MARK))
