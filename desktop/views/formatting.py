"""How the screens write and read numbers, money, dates and phones in Brazilian Portuguese (SPEC §1).

Every function here is the one locale module's (`desktop.domain.formatting`), under the names the screens use:
`R$ 1.234,56`, `dd/mm/aaaa`, decimal comma. Money is always Decimal (STYLE), never float.

The names are looked up on first use (PEP 562 `__getattr__`), so importing this module — the login window does —
does not import the domain package on the start-up path.
"""
from __future__ import annotations

from decimal import Decimal
from importlib import import_module

_DOMAIN = "desktop.domain.formatting"
# name here → (module, name there)
_FROM_DOMAIN = {name: (_DOMAIN, name) for name in (
    "format_date", "format_datetime", "format_time", "format_integer", "format_upfm", "format_cpf", "format_cnpj",
    "format_plate", "format_phone", "phone_digits")}
_FROM_DOMAIN.update(format_brl=(_DOMAIN, "format_money"), parse_decimal_br=(_DOMAIN, "parse_decimal"),
                    fold=("desktop.domain.text", "fold"))

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
    return sorted({*globals(), *__all__})


def format_decimal_br(value: Decimal | int | None, places: int | None = None) -> str:
    """Decimal → "1.234,56"; places=None keeps every decimal the value carries ("40.0000" → "40,0000")."""
    if value is None:
        return ""
    from desktop.domain.formatting import format_decimal  # lazy: kept off the start-up path (the login window imports this module)

    return format_decimal(value, places, keep_scale=places is None)
