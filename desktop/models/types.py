"""Column types shared by every model.

- `AwareDateTime`: date-times are always timezone-aware (STYLE). Stored in UTC (PostgreSQL `timestamptz`,
  SQLite ISO text without offset, which is UTC by convention here) and returned in America/Cuiaba.
- `Dec(scale)`: money, UPFM and rates as `Decimal`, never float. PostgreSQL keeps `NUMERIC(20, scale)`;
  SQLite has no decimal type (its NUMERIC affinity turns "0.10" into a binary float), so the value is kept as a
  scaled 64-bit INTEGER (10.25 with scale 2 → 1025). SUM(), ORDER BY, =, <, + and -, and multiplying by a
  whole number stay exact in SQL on both; on SQLite, multiplying or dividing two Dec columns, dividing at all,
  or comparing columns of different scales inside SQL is wrong — do that arithmetic in Python.
  Values are rounded half-up to `scale` digits on the way in, the same on both databases.
- `JSONData`: JSON text on SQLite, JSONB on PostgreSQL.
- `CodeString(n)`: text compared byte by byte — search keys, CPF, plates, RENAVAM, NNNN/AAAA numbers. On
  PostgreSQL it carries `COLLATE "C"`, so a plain b-tree index answers prefix searches (`LIKE 'joao%'` or the
  range of `desktop.models.starts_with`) whatever the server's locale; SQLite compares bytes already (BINARY).
"""
from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from sqlalchemy import JSON, BigInteger, DateTime, Numeric, String
from sqlalchemy.types import TypeDecorator

from desktop.domain import clock
from desktop.domain.clock import TIMEZONE as LOCAL_TZ  # the one time zone constant
from desktop.domain.money import round_places


def now() -> datetime:
    """The current moment, timezone-aware, in the municipality's zone (the one clock, domain.clock)."""
    return clock.now()


class AwareDateTime(TypeDecorator):
    """A timezone-aware datetime; naive values are refused (they hide a bug)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if not isinstance(value, datetime):
            raise TypeError(f"AwareDateTime espera datetime, recebeu {type(value).__name__}")
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError("Data-hora sem fuso horário (use America/Cuiaba)")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(LOCAL_TZ)

    def __repr__(self) -> str:
        return "AwareDateTime()"


class Dec(TypeDecorator):
    """An exact decimal with `scale` digits after the point (see the module text for SQLite)."""

    impl = Numeric
    cache_ok = True

    def __init__(self, scale: int = 2):
        super().__init__()
        self.scale = scale
        self._quantum = Decimal(1).scaleb(-scale)
        self._factor = Decimal(10) ** scale

    def load_dialect_impl(self, dialect):
        if dialect.name == "sqlite":
            return dialect.type_descriptor(BigInteger())
        return dialect.type_descriptor(Numeric(20, self.scale, asdecimal=True))

    def _quantize(self, value) -> Decimal:
        if isinstance(value, float):
            raise TypeError("Valores monetários são Decimal, nunca float")
        return round_places(value, self.scale)

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        value = self._quantize(value)
        if dialect.name == "sqlite":
            return int(value * self._factor)
        return value

    def process_literal_param(self, value, dialect):
        bound = self.process_bind_param(value, dialect)
        return "NULL" if bound is None else str(bound)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if dialect.name == "sqlite":
            if isinstance(value, float):  # an aggregate such as AVG(); SUM() of integers stays integer
                return round_places(Decimal(repr(value)) / self._factor, self.scale)
            return round_places(Decimal(int(value)) / self._factor, self.scale)
        return round_places(value, self.scale)

    @property
    def python_type(self):
        return Decimal

    def __repr__(self) -> str:
        return f"Dec({self.scale})"


class JSONData(TypeDecorator):
    """JSON: JSONB on PostgreSQL, JSON text on SQLite. (The PostgreSQL dialect package is imported only when a
    PostgreSQL database is used: it costs ~80 ms at start-up.)"""

    impl = JSON
    cache_ok = True

    def load_dialect_impl(self, dialect):
        if dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import JSONB  # local: imported only on this branch

            return dialect.type_descriptor(JSONB())
        return dialect.type_descriptor(JSON())

    def __repr__(self) -> str:
        return "JSONData()"


class CodeString(TypeDecorator):
    """VARCHAR(n) with byte-wise ("C") collation on PostgreSQL; a plain VARCHAR(n) on SQLite."""

    impl = String
    cache_ok = True

    def __init__(self, length: int | None = None):
        super().__init__(length)
        self.length = length

    def load_dialect_impl(self, dialect):
        if dialect.name == "postgresql":
            return dialect.type_descriptor(String(self.length, collation="C"))
        return dialect.type_descriptor(String(self.length))

    def __repr__(self) -> str:
        return "CodeString()" if self.length is None else f"CodeString({self.length})"
