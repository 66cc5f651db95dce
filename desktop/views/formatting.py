"""How the screens write and read numbers, money, dates and phones in Brazilian Portuguese (SPEC §1).

Pure functions, no Qt (dates, money and folding come from desktop.domain): `R$ 1.234,56`, `dd/mm/aaaa`,
decimal comma. Money is always Decimal (STYLE), never float.
"""
from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal, InvalidOperation



# The pt-BR forms live in desktop.domain; they are reached through these small wrappers so that importing this
# module (the login window does) does not import the whole domain package on the start-up path.
def format_date(value) -> str:
    """dd/mm/aaaa (desktop.domain.formatting.format_date)."""
    from desktop.domain.formatting import format_date as _format_date

    return _format_date(value)


def format_datetime(value) -> str:
    """dd/mm/aaaa hh:mm in America/Cuiaba (desktop.domain.formatting.format_datetime)."""
    from desktop.domain.formatting import format_datetime as _format_datetime

    return _format_datetime(value)


def fold(text: str | None) -> str:
    """Accent- and case-insensitive key: "João" → "joao" (desktop.domain.text.fold)."""
    from desktop.domain.text import fold as _fold

    return _fold(text)


def parse_decimal_br(text: str) -> Decimal:
    """"1.234,56" / "1234,56" / "1234.56" / "R$ 12,5" → Decimal. ValueError with a Portuguese message otherwise."""
    cleaned = (text or "").replace("R$", "").replace("\xa0", "").replace(" ", "").strip()
    if not cleaned:
        raise ValueError("Informe um valor.")
    if "," in cleaned:
        # Brazilian form: dots are thousand separators, the comma is the decimal point.
        if not re.fullmatch(r"-?\d{1,3}(\.\d{3})*(,\d+)?|-?\d+(,\d+)?", cleaned):
            raise ValueError(f"Valor «{text.strip()}» inválido: use vírgula para os centavos, por exemplo 1.234,56.")
        cleaned = cleaned.replace(".", "").replace(",", ".")
    elif not re.fullmatch(r"-?\d+(\.\d+)?", cleaned) or re.fullmatch(r"-?\d{1,3}(\.\d{3})+", cleaned):
        # "1.234" is ambiguous (one thousand two hundred...? one point two...?): ask for the comma.
        raise ValueError(f"Valor «{text.strip()}» inválido: use vírgula para os centavos, por exemplo 1.234,56.")
    try:
        return Decimal(cleaned)
    except InvalidOperation as error:  # pragma: no cover — the patterns above already refuse it
        raise ValueError(f"Valor «{text.strip()}» inválido.") from error


def format_decimal_br(value: Decimal | int | None, places: int | None = None) -> str:
    """Decimal → "1.234,56" (places=None keeps the value's own digits, without trailing zeros beyond them)."""
    if value is None:
        return ""
    value = Decimal(value)
    if places is not None:
        value = value.quantize(Decimal(1).scaleb(-places))
    sign = "-" if value < 0 else ""
    text = format(abs(value), "f")
    whole, _, frac = text.partition(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    out = sign + ".".join(groups)
    return f"{out},{frac}" if frac else out


def format_brl(value: Decimal | None) -> str:
    """Decimal → "R$ 1.234,56" (babel through desktop.domain.formatting, imported on first use)."""
    from desktop.domain.formatting import format_money

    return format_money(value)


def format_time(value: datetime | None) -> str:
    """"14:35" in Cuiabá's time (an aware date-time)."""
    return format_datetime(value)[-5:] if value is not None else ""


def phone_digits(text: str) -> str:
    return re.sub(r"\D", "", text or "")


def format_phone(text: str) -> str:
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
