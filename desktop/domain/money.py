"""The one place where an amount is rounded (issue 23 point 7; STYLE "every amount in reais comes from one
function", as Tryton's `Currency.round`). Pure Python.

SPEC §3 (Art. 25): an amount in reais is the UPFM amount times the UPFM value used for that debit, rounded
half-up to the cent. Every amount in reais in the program — a fine, a fee, a guide, an ISSQN share, the
statement's lines, a payment typed at the desk — goes through `round_cents` / `to_reais`, so one amount never has
two roundings (Decimal's default is half-even: 62,505 would be 62,50 on one paper and 62,51 on another).
`round_places` is the same rule for other decimal quantities (UPFM with 4 places, kilometres, hours); a test
(`tests/unit/test_money.py`) fails on any `.quantize(` outside this module.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

__all__ = ["CENT", "ZERO", "cents_of", "from_cents", "reais_to_upfm", "round_cents", "round_places", "to_reais"]

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def _decimal(value) -> Decimal:
    if isinstance(value, float):
        raise TypeError("use Decimal (ou texto) para valores monetários, nunca float")
    if isinstance(value, Decimal):
        return value
    try:
        return Decimal(str(value)) if not isinstance(value, int) else Decimal(value)
    except InvalidOperation:
        raise ValueError(f"valor inválido: {value!r}") from None


_QUANTA = {n: Decimal(1).scaleb(-n) for n in range(0, 9)}


def round_places(value, places: int, rounding: str = ROUND_HALF_UP) -> Decimal:
    """`value` rounded to `places` decimal places (half-up unless a caller names another rule). The database
    types call it for every stored amount: the Decimal path is kept short."""
    quantum = _QUANTA.get(places) or Decimal(1).scaleb(-int(places))
    if value.__class__ is Decimal:
        return value.quantize(quantum, rounding=rounding)
    return _decimal(value).quantize(quantum, rounding=rounding)


def round_cents(value) -> Decimal:
    """An amount in reais, half-up to the cent (SPEC §3, Art. 25)."""
    return round_places(value, 2)


def to_reais(upfm, value) -> Decimal:
    """`upfm` UPFM at the UPFM value `value` (the value used for the debit), half-up to the cent."""
    return round_cents(_decimal(upfm) * _decimal(value))


def reais_to_upfm(reais, value, places: int = 4) -> Decimal:
    """Reais back in UPFM at `value` (a payment credited at the debit's value), half-up to `places`."""
    return round_places(_decimal(reais) / _decimal(value), places)


def cents_of(amount) -> int:
    """Whole cents of an amount (the bank's and the barcode's integer field)."""
    return int(round_places(_decimal(amount) * 100, 0))


def from_cents(cents: int) -> Decimal:
    """An integer number of cents as reais."""
    return round_cents(Decimal(int(cents)) / 100)
