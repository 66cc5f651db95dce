"""How dates, money and numbers look to a Brazilian clerk (pt-BR). Babel is imported on first use."""
from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal
from typing import NamedTuple

from desktop.domain.dates import TIMEZONE, WEEKDAY_NAMES

_NUMBER = re.compile(r"^\s*(\d{1,9})\s*/\s*(\d{4})\s*$")
_DATE = re.compile(r"^\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*$")
MONTH_NAMES = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
               "outubro", "novembro", "dezembro")


def format_date(d: date | None) -> str:
    """dd/mm/aaaa ("" for None). A datetime is shown as its date in America/Cuiaba."""
    if d is None:
        return ""
    if isinstance(d, datetime):
        d = d.astimezone(TIMEZONE).date() if d.tzinfo else d.date()
    return f"{d.day:02d}/{d.month:02d}/{d.year:04d}"


def format_datetime(dt: datetime | None) -> str:
    """dd/mm/aaaa hh:mm in America/Cuiaba ("" for None); a naive value is taken as already local."""
    if dt is None:
        return ""
    if dt.tzinfo is not None:
        dt = dt.astimezone(TIMEZONE)
    return f"{format_date(dt.date())} {dt.hour:02d}:{dt.minute:02d}"


def format_long_date(d: date) -> str:
    """"29 de novembro de 2026", as written in official acts."""
    return f"{d.day} de {MONTH_NAMES[d.month - 1]} de {d.year}"


def weekday_name(d: date) -> str:
    return WEEKDAY_NAMES[d.weekday()]


class DateParseError(ValueError):
    pass


def parse_date(text: str) -> date:
    """dd/mm/aaaa -> date; a Portuguese error for anything else (including impossible dates like 31/02/2026)."""
    match = _DATE.match(text or "")
    if not match:
        raise DateParseError(f"Data «{(text or '').strip()}» inválida: use dd/mm/aaaa.")
    day, month, year = (int(g) for g in match.groups())
    try:
        return date(year, month, day)
    except ValueError:
        raise DateParseError(f"Data «{text.strip()}» não existe no calendário.") from None


def format_money(value: Decimal | int | None, nbsp: bool = False) -> str:
    """R$ 1.234,56 (babel, pt_BR). The space after R$ is an ordinary space unless `nbsp` is asked for."""
    if value is None:
        return ""
    if isinstance(value, float):
        raise TypeError("use Decimal para valores monetários, nunca float")
    from babel.numbers import format_currency

    text = format_currency(Decimal(value), "BRL", locale="pt_BR")
    return text if nbsp else text.replace("\xa0", " ")


def format_decimal(value: Decimal | int, places: int | None = None) -> str:
    """A number in pt-BR: 1.234,5 (or with exactly `places` decimals)."""
    from babel.numbers import format_decimal as _fmt

    value = Decimal(value)
    if places is None:
        return _fmt(value, locale="pt_BR", decimal_quantization=False)
    pattern = "#,##0" + ("." + "0" * places if places else "")
    return _fmt(value, format=pattern, locale="pt_BR")


def format_upfm(value: Decimal | int) -> str:
    """"40 UPFM", "12,5 UPFM"."""
    value = Decimal(value)
    if value == value.to_integral_value():
        value = value.quantize(Decimal(1))
    return f"{format_decimal(value)} UPFM"


class DocumentNumber(NamedTuple):
    """A sequential number of the year (authorizations, autos, guides, documents): NNNN/AAAA."""

    seq: int
    year: int

    def __str__(self) -> str:
        return format_number(self.seq, self.year)


class NumberParseError(ValueError):
    pass


def format_number(seq: int, year: int) -> str:
    """"0007/2026": the sequence with at least four digits, a slash, the year."""
    if seq < 1:
        raise ValueError("a numeração começa em 1")
    if not 1000 <= year <= 9999:
        raise ValueError(f"ano inválido: {year}")
    return f"{seq:04d}/{year:04d}"


def parse_number(text: str) -> DocumentNumber:
    """"0007/2026" -> DocumentNumber(seq=7, year=2026); Portuguese error for anything else."""
    match = _NUMBER.match(text or "")
    if not match or int(match.group(1)) < 1:
        raise NumberParseError(f"Número «{(text or '').strip()}» inválido: use o formato NNNN/AAAA (ex.: 0007/2026).")
    return DocumentNumber(int(match.group(1)), int(match.group(2)))
