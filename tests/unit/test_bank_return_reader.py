"""The reader of the bank's return file (Padrão FEBRABAN de arrecadação, layout 05: 150-byte records A, G, Z),
pure: field positions as documented in desktop/importers/bank_return.py, every bad line named."""
from __future__ import annotations

import importlib.util
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from desktop.errors import ValidationError
from desktop.importers.bank_return import parse_return

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("make_bank_return", ROOT / "tools" / "make_bank_return.py")
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)

BARCODE = "81640000000555004212026123000000000020260001"

# The sample return file of the febraban-barcode project ("Modelo arquivo retorno tipo G.txt", layout 05):
# two payments received by Banco Itaú on 04/04/2017, NSA 1 — read field by field.
SAMPLE = (
    "A20000855470019       TESTETESTETESTETESTE341BANCO ITAU S.A.     2017040500000104CODIGO DE BARRAS"
    + " " * 53 + "\n"
    "G3419999000000099999920170404201704058163000000241850299000000000010022203170100000000002418500001400000000"
    "109332   2001 093300001040417C   1         \n"
    "G3419999000000099999920170404201704058168000000092870299000000000010000093170300000000000928700001400000000"
    "209332   2002 093300001040417C   1         \n"
    "Z00000400000000000033472" + " " * 126 + "\n"
).encode("ascii")


def test_the_febraban_sample_file_is_read_field_by_field():
    f = parse_return(SAMPLE, "modelo.txt")
    h = f.header
    assert (h.agreement, h.company_name, h.bank_code, h.bank_name) == ("0000855470019", "TESTETESTETESTETESTE", "341",
                                                                       "BANCO ITAU S.A.")
    assert (h.generated_on, h.nsa, h.layout_version, h.service) == (date(2017, 4, 5), 1, "04", "CODIGO DE BARRAS")
    first, second = f.payments
    assert first.line == 2 and first.paid_on == date(2017, 4, 4) and first.credited_on == date(2017, 4, 5)
    assert first.barcode == "81630000002418502990000000000100222031701000"
    assert first.bank_fee == Decimal("1.40") and first.agency == "09332" and first.channel == "2"
    assert first.amount == Decimal("241.85") and second.amount == Decimal("92.87")
    assert first.nsr == 1 and second.nsr == 2
    assert f.total_amount == Decimal("334.72") and f.total_records == 4


def test_the_generator_writes_what_the_reader_reads():
    content = make.build_return([(BARCODE, Decimal("55.50"), date(2026, 11, 30))], nsa=12,
                                generated_on=date(2026, 12, 1))
    assert all(len(line) == 150 for line in content.decode("ascii").split("\r\n")[:-1])
    f = parse_return(content)
    assert f.header.nsa == 12 and f.header.agreement == "0421" and f.header.generated_on == date(2026, 12, 1)
    assert [(p.barcode, p.amount, p.paid_on, p.line) for p in f.payments] == [
        (BARCODE, Decimal("55.50"), date(2026, 11, 30), 2)]
    assert len(f.sha256) == 64


@pytest.mark.parametrize("content, message", [
    (b"", "vazio"),
    (make.build_return([(BARCODE, Decimal("1"), date(2026, 1, 2))], generated_on=date(2026, 1, 3),
                       trailer_records=2), "o trailer informa 2 registros"),
    (make.build_return([(BARCODE, Decimal("1"), date(2026, 1, 2))], generated_on=date(2026, 1, 3),
                       trailer_total=Decimal("2")), "o trailer informa o total de R$ 2,00"),
    (make.build_return([(BARCODE[:40] + "ABCD", Decimal("1"), date(2026, 1, 2))], generated_on=date(2026, 1, 3)),
     "Linha 2: G.05"),
])
def test_bad_files_are_refused_naming_the_line(content, message):
    with pytest.raises(ValidationError) as caught:
        parse_return(content)
    assert message in str(caught.value)


def test_a_bad_payment_date_is_named():
    good = make.build_return([(BARCODE, Decimal("1"), date(2026, 1, 2))], generated_on=date(2026, 1, 3))
    lines = good.decode("ascii").split("\r\n")
    lines[1] = lines[1][:21] + "20261332" + lines[1][29:]
    with pytest.raises(ValidationError, match="Linha 2: G.03"):
        parse_return("\r\n".join(lines).encode("ascii"))


def test_the_shipped_example_return_file_is_a_valid_febraban_file():
    """resources/examples/retorno-febraban-exemplo.txt: pays 4 fee and 4 fine guides of the demo loaded with
    `python -m desktop demo` (seed 2025, 1000 drivers) on 18/11/2026; on another day the screen of a demo
    database writes a fresh one (Retorno bancário → Gerar arquivo de exemplo)."""
    f = parse_return((ROOT / "resources" / "examples" / "retorno-febraban-exemplo.txt").read_bytes(), "exemplo")
    assert f.header.nsa == 1 and f.header.agreement == "0421" and len(f.payments) == 8
    assert all(p.paid_on == date(2026, 11, 18) and p.barcode[15:19] == "0421" for p in f.payments)
