"""How the screens write and read numbers, money, dates and phones in Brazilian Portuguese (SPEC §1).

Every function here is the one locale module's (`desktop.domain.formatting`), under the names the screens use:
`R$ 1.234,56`, `dd/mm/aaaa`, decimal comma. Money is always Decimal (STYLE), never float.

The names are looked up on first use (PEP 562 `__getattr__`), so importing this module — the login window does —
does not import the domain package on the start-up path.
"""
from __future__ import annotations

from decimal import Decimal
from importlib import import_module

# name here → (module, name there)
_FROM_DOMAIN = {
    "format_date": ("desktop.domain.formatting", "format_date"),
    "format_datetime": ("desktop.domain.formatting", "format_datetime"),
    "format_time": ("desktop.domain.formatting", "format_time"),
    "format_brl": ("desktop.domain.formatting", "format_money"),
    "format_integer": ("desktop.domain.formatting", "format_integer"),
    "format_upfm": ("desktop.domain.formatting", "format_upfm"),
    "format_cpf": ("desktop.domain.formatting", "format_cpf"),
    "format_cnpj": ("desktop.domain.formatting", "format_cnpj"),
    "format_plate": ("desktop.domain.formatting", "format_plate"),
    "format_phone": ("desktop.domain.formatting", "format_phone"),
    "phone_digits": ("desktop.domain.formatting", "phone_digits"),
    "parse_decimal_br": ("desktop.domain.formatting", "parse_decimal"),
    "fold": ("desktop.domain.text", "fold"),
}

__all__ = sorted([*_FROM_DOMAIN, "format_decimal_br"])


def __getattr__(name: str):
    try:
        module, attribute = _FROM_DOMAIN[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(import_module(module), attribute)
    globals()[name] = value          # later look-ups skip this function
    return value


def __dir__():
    return __all__


def format_decimal_br(value: Decimal | int | None, places: int | None = None) -> str:
    """Decimal → "1.234,56"; places=None keeps every decimal the value carries ("40.0000" → "40,0000")."""
    if value is None:
        return ""
    from desktop.domain.formatting import format_decimal

    return format_decimal(value, places, keep_scale=places is None)
