"""The declarative base, the constraint naming convention and the mixins every model uses.

Only models know tables (STYLE). Workflow lives in services and domain; here are columns and constraints.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Integer, MetaData, event
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, mapped_column

from desktop.domain.text import fold  # the one accent/case fold of the program (issue 3)
from desktop.errors import register_metadata
from desktop.models.types import AwareDateTime, CodeString, now
from sqlalchemy import and_
from sqlalchemy import Date, DateTime, String
from sqlalchemy.types import TypeDecorator
from sqlalchemy import inspect as sa_inspect
from desktop.domain import limits
from sqlalchemy.orm import Session

# Stable names let migrations and error messages refer to constraints on both databases.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# SQLite names only the columns of a UNIQUE refusal: desktop.errors finds the constraint (and its Portuguese
# message) in these tables, handed down because the models lie above desktop.errors in the room order.
register_metadata(Base.metadata)


class Versioned:
    """Optimistic locking (SPEC §4): every UPDATE says `WHERE version = :seen` and bumps it.

    When another desk saved first, SQLAlchemy raises StaleDataError, which `Database.session()` turns into
    `desktop.errors.StaleRecordError` with a Portuguese message.
    """

    version: Mapped[int] = mapped_column(Integer, nullable=False)

    @declared_attr.directive
    def __mapper_args__(cls):
        return {"version_id_col": cls.__table__.c.version}


class Created:
    created_at: Mapped[datetime] = mapped_column(AwareDateTime(), default=now, nullable=False)


class Updated:
    updated_at: Mapped[datetime] = mapped_column(AwareDateTime(), default=now, onupdate=now, nullable=False)


def user_fk(nullable: bool = True, **kw) -> Mapped:
    """A reference to the user who did something (who checked, who decided, who posted)."""
    return mapped_column(ForeignKey("users.id"), nullable=nullable, **kw)


def one_of(column: str, values: Iterable[str], name: str | None = None) -> CheckConstraint:
    """CHECK (column IN (...)) named `ck_<table>_<column>_valid`."""
    values = tuple(values)
    quoted = ", ".join("'" + v.replace("'", "''") + "'" for v in values)
    return CheckConstraint(f"{column} IN ({quoted})", name=name or f"{column}_valid")


def starts_with(column, prefix: str):
    """`column` begins with `prefix`, as a range (`>= prefix AND < prefix + U+10FFFF`) that a plain b-tree
    index answers on both databases (CodeString columns compare bytes). Give the prefix in the column's form
    (folded text for search keys, digits for CPF, upper case for plates)."""

    return and_(column >= prefix, column < prefix + "\U0010ffff")


class Searchable:
    """A stored, indexed `search_key` (folded text) so "joao" finds "João" on SQLite and PostgreSQL alike
    with an index-backed prefix query (`starts_with(Driver.search_key, fold(typed))`).
    Subclasses name the source columns in
    `__search_fields__`; the key is refreshed before every insert and update.
    """

    __search_fields__: tuple[str, ...] = ()

    search_key: Mapped[str] = mapped_column(CodeString(), nullable=False, default="", index=True)

    def refresh_search_key(self) -> None:
        parts = [fold(str(getattr(self, f) or "")) for f in self.__search_fields__]
        self.search_key = " ".join(p for p in parts if p)


@event.listens_for(Searchable, "before_insert", propagate=True)
@event.listens_for(Searchable, "before_update", propagate=True)
def _refresh_search_key(mapper, connection, target) -> None:
    target.refresh_search_key()


# ---------------------------------------------------------------------------------------------------------
# Field limits, the same on both databases (issue 12 item 21)
# ---------------------------------------------------------------------------------------------------------

# Rows the program writes itself, never typed: the audit chain's canonical JSON, stored files' metadata.
_UNCHECKED_TABLES = frozenset({"audit_entries", "alembic_version"})
_UNCHECKED_COLUMNS = frozenset({"search_key"})


def _column_kind(column):
    """("text", max_length) / ("amount", None) / ("date", None) / None for the columns the limits cover."""

    from desktop.models.types import AwareDateTime, Dec  # cycle: desktop.models.types imports this module at its top

    col_type = column.type
    if isinstance(col_type, Dec):
        return ("amount", None)
    if isinstance(col_type, (AwareDateTime, Date, DateTime)):
        return ("date", None)
    base = col_type.impl if isinstance(col_type, TypeDecorator) else col_type
    if isinstance(base, String) or isinstance(col_type, String):
        return ("text", getattr(col_type, "length", None) or getattr(base, "length", None))
    return None


_KINDS: dict = {}


def _checked_columns(mapper) -> list:
    cached = _KINDS.get(mapper)
    if cached is None:
        cached = []
        for attr in mapper.column_attrs:
            if len(attr.columns) != 1:
                continue
            column = attr.columns[0]
            if column.table.name in _UNCHECKED_TABLES or column.name in _UNCHECKED_COLUMNS:
                continue
            kind = _column_kind(column)
            if kind is not None:
                cached.append((attr.key, column, kind))
        _KINDS[mapper] = cached
    return cached


def row_problems(obj, only_changed: bool = False) -> list:
    """The problems of one ORM object against the limits of `desktop.domain.limits` (each naming its field)."""

    state = sa_inspect(obj)
    problems = []
    for key, column, (kind, length) in _checked_columns(state.mapper):
        if only_changed and not state.attrs[key].history.has_changes():
            continue
        value = state.dict.get(key)
        if value is None:
            continue
        label = column.info.get("label") or limits.column_label(column.name)
        if kind == "text":
            problems += limits.text_problems(key, label, value, length)
        elif kind == "amount":
            if not isinstance(value, float):  # a float is a bug Dec refuses by itself (STYLE: money is Decimal)
                problems += limits.amount_problems(key, label, value)
        else:
            problems += limits.date_problems(key, label, value)
    return problems


def _check_limits(session, flush_context, instances) -> None:
    """Every row inserted or changed passes the field limits before it is written, on SQLite as on PostgreSQL:
    a refusal is a ValidationError naming the field in Portuguese, and nothing of the transaction is saved."""
    problems = []
    for obj in session.new:
        problems += row_problems(obj)
    for obj in session.dirty:
        problems += row_problems(obj, only_changed=True)
    if problems:
        from desktop.errors import ValidationError  # local: imported only on this branch

        unique = list(dict.fromkeys(problems))
        raise ValidationError(unique)


def install_limits_check() -> None:

    if not event.contains(Session, "before_flush", _check_limits):
        event.listen(Session, "before_flush", _check_limits)


install_limits_check()
