"""One money module (issue 23 point 7; issue 22 point 9): every amount in reais is rounded half-up to the cent by
`desktop.domain.money`, and no other module of the program rounds with `.quantize(`."""
import re
from decimal import Decimal
from pathlib import Path

import pytest

import desktop
from desktop.domain.authorization import fee_in_reais
from desktop.domain.money import cents_of, from_cents, reais_to_upfm, round_cents, round_places, to_reais
from desktop.domain.penalties import fine_in_reais

ROOT = Path(desktop.__file__).parent
MONEY = ROOT / "domain" / "money.py"


@pytest.mark.parametrize("upfm, value, expected", [
    # issue 23 point 7: with a UPFM of 3,12525, 20 UPFM is 62,505 → 62,51 (half-even gave 62,50 on the notice)
    ("20", "3.12525", "62.51"),
    # 10 × 3,1245 = 31,245 → 31,25 everywhere (the payment dialog said 31,24)
    ("10", "3.1245", "31.25"),
    ("10", "5.40", "54.00"),
    ("40", "4.38", "175.20"),
    ("72.04", "117.51", "8465.42"),   # issue 28 point 3: 72,04 × 117,51
])
def test_art25_reais_are_upfm_times_the_debits_value_half_up(upfm, value, expected):
    assert to_reais(Decimal(upfm), Decimal(value)) == Decimal(expected)
    # the fine, the proposed fee and the money module agree on the same amount
    assert fine_in_reais(Decimal(upfm), Decimal(value)) == Decimal(expected)
    assert fee_in_reais(Decimal(upfm), Decimal(value)) == Decimal(expected)


@pytest.mark.parametrize("value, expected", [
    ("0.005", "0.01"), ("0.015", "0.02"), ("0.025", "0.03"), ("2.675", "2.68"), ("-0.005", "-0.01"), ("7", "7.00"),
])
def test_round_cents_is_half_up(value, expected):
    assert round_cents(Decimal(value)) == Decimal(expected)
    assert str(round_cents(Decimal(value))) == expected


def test_money_refuses_float():
    with pytest.raises(TypeError):
        round_cents(0.1)
    with pytest.raises(TypeError):
        to_reais(10, 5.4)


def test_cents_and_upfm_round_trip():
    assert cents_of(Decimal("31.245")) == 3125
    assert from_cents(3125) == Decimal("31.25")
    assert reais_to_upfm(Decimal("62.51"), Decimal("3.12525")) == Decimal("20.0016")
    assert round_places(Decimal("1.23456"), 4) == Decimal("1.2346")


_QUANTIZE = re.compile(r"\.quantize\(")


def test_no_quantize_outside_the_money_module():
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        if path == MONEY or "migrations" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            if _QUANTIZE.search(code):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == [], "arredonde pelo desktop.domain.money:\n" + "\n".join(offenders)
