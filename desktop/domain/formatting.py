"""The program's one locale module: how documents, dates, money and numbers look to a Brazilian clerk (pt-BR).

Screens (`desktop.views.formatting`), documents (`desktop.reports.common`) and spreadsheets
(`desktop.services.exports`) all print through these functions; the names they used before are re-exports.
Babel is imported on first use.

What the program prints (SPEC §1):
- CPF 123.456.789-09; on public documents only the middle digits, ***.456.789-** (LGPD).
- CNPJ 12.345.678/0001-95, also the alphanumeric CNPJ (IN RFB 2.229/2024): 12.ABC.345/01DE-35.
- Plates: the old pattern with a hyphen, ABC-1234; the Mercosul pattern as it is, ABC1D23.
- CEP 78195-000; phones (65) 3301-1234, (65) 99999-1234, 0800 647 1234.
- Dates dd/mm/aaaa; date-times dd/mm/aaaa HH:MM, always in America/Cuiaba (an aware value in another zone is
  converted; a naive one is taken as already local); long dates "4 de junho de 2025" as official acts write them.
- Money R$ 1.234,56 (babel, pt_BR) with an ORDINARY space after "R$": babel puts a non-breaking space there, which
  PDF text extraction and spreadsheet searches do not match with the space a clerk types. `nbsp=True` keeps
  babel's U+00A0 for the texts that have always carried it (parameter values, the fee sentence of an
  authorization), so that "R$" and the amount never wrap apart in a narrow cell.
- Numbers with a decimal comma and a dot for thousands: 1.234,5; integers 1.234.
- UPFM as many decimals as the amount has, trailing zeros dropped: "40 UPFM", "12,5 UPFM" (amounts are stored
  with 4 places, Art. 25).
- Month and weekday names: one table each (MONTH_NAMES, WEEKDAY_NAMES), lower case as written inside a
  sentence; `month_name`/`weekday_name` give the capitalised and the short forms.
"""
from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from desktop.domain.money import round_places
from desktop.domain.clock import TIMEZONE
from desktop.domain.text import only_alphanumerics, only_digits

_NUMBER = re.compile(r"^\s*(\d{1,9})\s*/\s*(\d{4})\s*$")
_DATE = re.compile(r"^\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*$")
_OLD_PLATE = re.compile(r"^[A-Z]{3}[0-9]{4}$")
_MERCOSUL_PLATE = re.compile(r"^[A-Z]{3}[0-9][A-Z][0-9]{2}$")
_CNPJ_SHAPE = re.compile(r"^[A-Z0-9]{12}[0-9]{2}$")

# The one table of names (Portuguese, lower case as inside a sentence; Monday first, as date.weekday()).
MONTH_NAMES = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
               "outubro", "novembro", "dezembro")
WEEKDAY_NAMES = ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo")


# --- names of months and weekdays ---------------------------------------------------------------------------

def month_name(month: int | date, capital: bool = False) -> str:
    """"novembro" (or "Novembro") for 11 or for a date in November."""
    number = month.month if isinstance(month, date) else month
    name = MONTH_NAMES[number - 1]
    return name.capitalize() if capital else name


def weekday_name(d: date, capital: bool = False, short: bool = False) -> str:
    """"quarta-feira"; capital → "Quarta-feira"; short → "quarta" (capital and short → "Quarta", "Sábado")."""
    name = WEEKDAY_NAMES[d.weekday()]
    if short:
        name = name.split("-")[0]
    return name.capitalize() if capital else name


def weekday_names(capital: bool = False, short: bool = False) -> tuple[str, ...]:
    """The seven names from Monday, in the form asked (for the headers of a week)."""
    return tuple(weekday_name(date(2026, 11, 16 + i), capital, short) for i in range(7))   # 16/11/2026: a Monday


# --- documents and plates ------------------------------------------------------------------------------------

def format_cpf(value: str | None) -> str:
    """CPF with its mask, 000.000.000-00 (the value is returned unchanged if it does not have 11 digits)."""
    stored = value and len(value) == 11 and value.isascii() and value.isdigit()    # fast path for exports
    digits = value if stored else only_digits(value)
    if len(digits) != 11:
        return (value or "").strip()
    return f"{digits[:3]}.{digits[3:6]}.{digits[6:9]}-{digits[9:]}"


def mask_cpf(value: str | None) -> str:
    """The CPF as printed on public documents (LGPD): only the middle six digits shown, ***.456.789-**."""
    digits = only_digits(value)
    if len(digits) != 11:
        return "***.***.***-**"
    return f"***.{digits[3:6]}.{digits[6:9]}-**"


def mask_cnh(value: str | None) -> str:
    """The CNH registration number as printed on the credential (LGPD, art. 6º, III: only what is needed):
    the last four digits, the rest hidden — "*******7890"; "—" without a number."""
    digits = only_digits(value)
    if not digits:
        return "—"
    return "*" * max(0, len(digits) - 4) + digits[-4:]


def format_cnpj(value: str | None) -> str:
    """CNPJ with its mask, 00.000.000/0000-00 (also the alphanumeric CNPJ, e.g. 12.ABC.345/01DE-35)."""
    key = value
    if not (value and _CNPJ_SHAPE.fullmatch(value)):     # not already the stored form (exports: 100,000 rows)
        key = only_alphanumerics(value)
        if not _CNPJ_SHAPE.fullmatch(key):
            return (value or "").strip()
    return f"{key[:2]}.{key[2:5]}.{key[5:8]}/{key[8:12]}-{key[12:]}"


def format_document(value: str | None) -> str:
    """A CPF or a CNPJ, masked by its shape (11 digits → CPF, 14 characters → CNPJ); anything else as it is."""
    if len(only_alphanumerics(value)) == 11 and len(only_digits(value)) == 11:
        return format_cpf(value)
    return format_cnpj(value)


def format_plate(value: str | None) -> str:
    """The plate as shown: old plates ABC-1234, Mercosul plates ABC1D23 (SPEC §1)."""
    stored = value and len(value) == 7 and value.isascii() and value.isupper()     # fast path for exports
    plate = value if stored else only_alphanumerics(value)
    if _OLD_PLATE.match(plate):
        return f"{plate[:3]}-{plate[3:]}"
    if _MERCOSUL_PLATE.match(plate):
        return plate
    return (value or "").strip().upper()


def format_cep(value: str | None) -> str:
    """CEP 78195-000 (the value as it is when it does not have 8 digits)."""
    digits = only_digits(value)
    return f"{digits[:5]}-{digits[5:]}" if len(digits) == 8 else (value or "").strip()


def phone_digits(text: str | None) -> str:
    return re.sub(r"\D", "", text or "")


def format_phone(text: str | None) -> str:
    """Brazilian phone written the usual way: (65) 3301-1234, (65) 99999-1234, 0800 647 1234.

    Other lengths are returned as typed, so nothing the user entered is lost.
    """
    digits = phone_digits(text)
    if len(digits) == 11 and digits.startswith("0800"):
        return f"{digits[:4]} {digits[4:7]} {digits[7:]}"
    if len(digits) == 10:
        return f"({digits[:2]}) {digits[2:6]}-{digits[6:]}"
    if len(digits) == 11:
        return f"({digits[:2]}) {digits[2:7]}-{digits[7:]}"
    return (text or "").strip()


# --- dates ---------------------------------------------------------------------------------------------------

def local_datetime(dt: datetime) -> datetime:
    """`dt` in America/Cuiaba; a naive value is taken as already local."""
    return dt.astimezone(TIMEZONE) if dt.tzinfo is not None else dt


def format_date(d: date | None, empty: str = "") -> str:
    """dd/mm/aaaa (`empty` for None). A datetime is shown as its date in America/Cuiaba."""
    if d is None:
        return empty
    if isinstance(d, datetime):
        d = local_datetime(d).date()
    return f"{d.day:02d}/{d.month:02d}/{d.year:04d}"


def format_time(dt: datetime | None) -> str:
    """HH:MM in America/Cuiaba ("" for None)."""
    if dt is None:
        return ""
    dt = local_datetime(dt)
    return f"{dt.hour:02d}:{dt.minute:02d}"


def format_datetime(dt: datetime | None, empty: str = "", sep: str = " ") -> str:
    """dd/mm/aaaa HH:MM in America/Cuiaba (`empty` for None; documents use sep=" às ")."""
    if dt is None:
        return empty
    dt = local_datetime(dt)
    return f"{format_date(dt.date())}{sep}{format_time(dt)}"


def format_long_date(d: date) -> str:
    """"29 de novembro de 2026", as written in official acts."""
    return f"{d.day} de {MONTH_NAMES[d.month - 1]} de {d.year}"


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


# --- money and numbers ---------------------------------------------------------------------------------------

def format_money(value: Decimal | int | None, nbsp: bool = False) -> str:
    """R$ 1.234,56 (babel, pt_BR). The space after R$ is an ordinary space unless `nbsp` is asked for."""
    if value is None:
        return ""
    if isinstance(value, float):
        raise TypeError("use Decimal para valores monetários, nunca float")
    from babel.numbers import format_currency  # lazy: babel loads only when this runs (start-up cost)

    text = format_currency(Decimal(value), "BRL", locale="pt_BR")
    return text if nbsp else text.replace("\xa0", " ")


def _places_of(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def format_decimal(value: Decimal | int, places: int | None = None, *, keep_scale: bool = False) -> str:
    """A number in pt-BR, 1.234,5: with exactly `places` decimals (rounded half-even), or — places None — the
    value's significant decimals (40.0000 → "40"), or with `keep_scale` every decimal it carries ("40,0000")."""
    from babel.numbers import format_decimal as _fmt  # lazy: babel loads only when this runs (start-up cost)

    if isinstance(value, float):
        raise TypeError("use Decimal, nunca float")
    value = Decimal(value)
    if places is None and not keep_scale:
        return _fmt(value, locale="pt_BR", decimal_quantization=False)
    if places is None:
        places = _places_of(value)
    value = round_places(value, places)
    if value.is_zero():
        value = abs(value)           # no "-0,00"
    pattern = "#,##0" + ("." + "0" * places if places else "")
    return _fmt(value, format=pattern, locale="pt_BR")


def format_integer(value: int) -> str:
    """1.234 (thousands with a dot)."""
    return format_decimal(Decimal(int(value)), 0)


def format_upfm(value: Decimal | int) -> str:
    """"40 UPFM", "12,5 UPFM" (Art. 25: fines are given in UPFM)."""
    value = Decimal(value)
    if value == value.to_integral_value():
        value = round_places(value, 0)
    return f"{format_decimal(value)} UPFM"


_AMBIGUOUS = "Valor «{}» inválido: use vírgula para os centavos, por exemplo 1.234,56."


def parse_decimal(text: str) -> Decimal:
    """"1.234,56" / "1234,56" / "1234.56" / "R$ 12,5" → Decimal. ValueError with a Portuguese message otherwise."""
    cleaned = (text or "").replace("R$", "").replace("\xa0", "").replace(" ", "").strip()
    if not cleaned:
        raise ValueError("Informe um valor.")
    if "," in cleaned:
        # Brazilian form: dots are thousand separators, the comma is the decimal point.
        if not re.fullmatch(r"-?\d{1,3}(\.\d{3})*(,\d+)?|-?\d+(,\d+)?", cleaned):
            raise ValueError(_AMBIGUOUS.format(text.strip()))
        cleaned = cleaned.replace(".", "").replace(",", ".")
    elif not re.fullmatch(r"-?\d+(\.\d+)?", cleaned) or re.fullmatch(r"-?\d{1,3}(\.\d{3})+", cleaned):
        # "1.234" is ambiguous (one thousand two hundred...? one point two...?): ask for the comma.
        raise ValueError(_AMBIGUOUS.format(text.strip()))
    try:
        return Decimal(cleaned)
    except InvalidOperation as error:  # pragma: no cover — the patterns above already refuse it
        raise ValueError(f"Valor «{text.strip()}» inválido.") from error


# --- NNNN/AAAA numbers ---------------------------------------------------------------------------------------

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


def short_hash(full_hash: str) -> str:
    """The 12 characters of an audit chain head printed on documents: "3F2A9C-0B71D4"."""
    h = (full_hash or "").upper()[:12]
    return f"{h[:6]}-{h[6:]}"
