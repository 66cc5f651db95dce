"""One page of a list and the search that fills it (issue 4): the page asked for (`offset`, `limit`) and the
total, never the whole table (STYLE: lazy enough for 100,000 rows); the indexed prefix search on the stored folded
`search_key` columns; whitelisted sorting; counting.

Filtering as you type uses `starts_with` (a range a plain b-tree index answers on SQLite and on PostgreSQL, the
columns being byte-compared), so "joao" finds "João" and "conceicao" finds "Conceição".
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import func, literal_column, select
from sqlalchemy.orm import Session

from desktop.domain.limits import search_problems
from desktop.domain.text import fold, only_digits
from desktop.errors import ValidationError
from desktop.models import starts_with

T = TypeVar("T")
MAX_PAGE = 500


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a list: the rows asked for and how many match in all."""

    rows: tuple[T, ...]
    total: int
    offset: int = 0
    limit: int = 50
    exact: bool = True  # False: `total` is a lower bound (a scan counted up to a cap)

    @property
    def has_more(self) -> bool:
        return self.offset + len(self.rows) < self.total


def search_terms(text: str | None) -> str:
    """The folded form of what the user typed ("  JOÃO " -> "joao"). A search longer than anyone types, or with
    control characters, is refused with a message (issue 12 item 21: `domain.limits.SEARCH_MAX_CHARS`)."""
    check_search(text)
    return fold(text)


def check_search(text: str | None) -> None:
    problems = search_problems("search", text)
    if problems:
        raise ValidationError(problems)


def prefix_range(column, text: str):
    """`column` begins with `text` (already in the column's form), answered by the column's index."""
    return starts_with(column, text)


def contains(column, text: str):
    """The fallback: `text` anywhere in `column` (a scan; only used when the prefix finds nothing)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return column.like(f"%{escaped}%", escape="\\")


def digits_query(text: str | None) -> str | None:
    """The digits typed when the text is a document number (CPF, CNPJ, RENAVAM), else None."""
    raw = (text or "").strip()
    if not raw:
        return None
    check_search(raw)
    stripped = raw.replace(".", "").replace("-", "").replace("/", "").replace(" ", "")
    if stripped.isdigit():
        return only_digits(stripped)
    return None


def check_page(offset: int, limit: int) -> tuple[int, int]:
    offset = max(0, int(offset))
    limit = max(1, min(int(limit), MAX_PAGE))
    return offset, limit


def order_by(sorts: Mapping[str, Any], sort: str, descending: bool, tiebreak) -> list:
    """ORDER BY for a whitelisted sort key (a column never comes from the caller's text)."""
    if sort not in sorts:
        raise ValueError(f"ordenação desconhecida: {sort!r} (válidas: {', '.join(sorts)})")
    column = sorts[sort]
    first = column.desc() if descending else column.asc()
    second = tiebreak.desc() if descending else tiebreak.asc()
    return [first, second]


def count(session: Session, statement) -> int:
    """How many rows a list's statement matches: `SELECT count(*) FROM ... WHERE ...` (no subquery, so the
    planner counts over the same index the filter uses)."""
    return session.execute(statement.with_only_columns(func.count(), maintain_column_froms=True)
                           .order_by(None)).scalar_one()


def capped_count(session: Session, statement, cap: int) -> int:
    """min(matches, cap): the count of a scan stops at the cap."""
    inner = statement.with_only_columns(literal_column("1"), maintain_column_froms=True).order_by(None).limit(cap)
    return session.execute(select(func.count()).select_from(inner.subquery())).scalar_one()
