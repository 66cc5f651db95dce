"""Check digits of the payment guide and the signed sticker payload, against published examples."""
from datetime import date
from decimal import Decimal

import pytest

from desktop.reports import febraban, pix
from desktop.signing import (
    EXPIRED, FORGED, MALFORMED, VALID, generate_keypair, sign_sticker, sticker_message, verify_sticker,
)

# Published pair (a real utility bill, segment 3, value identifier 6), used as the example of the
# "boleto-validator" library: https://github.com/Tagliatti/Boleto-Validator-JS (README, "Validando convênio"),
# whose 44-digit barcode appears beside the same line in that library's tests.
PUBLISHED_LINE = "83640000001-1 33120138000-2 81288462711-6 08013618155-1"
PUBLISHED_BARCODE = "83640000001331201380008128846271108013618155"
# Barcode composed from its parts by the febraban_barcode package (segment 4, R$ 10,99, company 1042,
# due 31/12/2023, free data 54321) with its typed line in the same project's tests:
# https://github.com/WilliamSampaio/febraban_barcode (tests/test_barcode.py, tests/test_linha_digitavel.py)
COMPOSED_BARCODE = "84670000000109910422023123100000000000054321"
COMPOSED_LINE = "846700000009109910422020312310000004000000543215"


def test_febraban_typed_line_of_published_barcode():
    assert febraban.format_typed_line(febraban.typed_line(PUBLISHED_BARCODE)) == PUBLISHED_LINE
    assert febraban.is_valid_barcode(PUBLISHED_BARCODE)
    assert febraban.is_valid_typed_line(PUBLISHED_LINE)
    assert febraban.barcode_from_typed_line(PUBLISHED_LINE) == PUBLISHED_BARCODE


def test_febraban_general_check_digit_at_position_4_is_mod10_of_the_other_43():
    body = PUBLISHED_BARCODE[:3] + PUBLISHED_BARCODE[4:]
    assert febraban.mod10(body) == int(PUBLISHED_BARCODE[3]) == 4


def test_febraban_barcode_composed_from_value_company_due_date_and_free_field():
    built = febraban.arrecadacao_barcode(Decimal("10.99"), "1042", date(2023, 12, 31), "54321", segment="4")
    assert built == COMPOSED_BARCODE
    assert febraban.typed_line(built) == COMPOSED_LINE


def test_febraban_dam_barcode_layout_segment_1_value_in_cents_due_date_and_guide():
    code = febraban.arrecadacao_barcode(Decimal("1238.85"), "0123", date(2026, 12, 15), "0009/2026")
    assert len(code) == 44
    assert code[:3] == "816"                      # product 8, segment 1 (prefeituras), id 6 (reais, mod 10)
    assert code[4:15] == "00000123885"            # R$ 1.238,85 in cents
    assert code[15:19] == "0123"                  # FEBRABAN code of the municipality
    assert code[19:27] == "20261215"              # due date AAAAMMDD
    assert code[27:] == "20260009".zfill(17)      # guide 0009/2026
    assert febraban.is_valid_barcode(code)
    line = febraban.typed_line(code)
    assert len(line) == 48 and febraban.is_valid_typed_line(line)


def test_febraban_detects_a_wrong_digit():
    wrong = PUBLISHED_BARCODE[:10] + ("1" if PUBLISHED_BARCODE[10] != "1" else "2") + PUBLISHED_BARCODE[11:]
    assert not febraban.is_valid_barcode(wrong)
    assert not febraban.is_valid_typed_line(PUBLISHED_LINE.replace("-2 ", "-3 "))


def test_febraban_refuses_value_beyond_11_digits_and_bad_company():
    with pytest.raises(ValueError):
        febraban.arrecadacao_barcode(Decimal("1000000000.00"), "0123", date(2026, 1, 1), "1")
    with pytest.raises(ValueError):
        febraban.arrecadacao_barcode(Decimal("1"), "12", date(2026, 1, 1), "1")


# The example of the Banco Central's "Manual de Padrões para Iniciação do Pix", with its CRC 1D3D:
# https://www.bcb.gov.br/content/estabilidadefinanceira/pix/Regulamento_Pix/II_ManualdePadroesparaIniciacaodoPix.pdf
BCB_EXAMPLE = ("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
               "5913Fulano de Tal6008BRASILIA62070503***63041D3D")


def test_pix_crc16_ccitt_false_of_the_central_bank_example():
    assert f"{pix.crc16_ccitt_false(BCB_EXAMPLE[:-4].encode()):04X}" == "1D3D"
    assert pix.crc16_ccitt_false(b"123456789") == 0x29B1      # CRC-16/CCITT-FALSE check value
    assert pix.has_valid_crc(BCB_EXAMPLE)
    assert not pix.has_valid_crc(BCB_EXAMPLE[:-1] + "E")


@pytest.mark.parametrize(("data", "crc"), [
    (b"", 0xFFFF),                # the initial value, untouched
    (b"A", 0xB915),               # CRC-16/CCITT-FALSE of one byte
    (b"123456789", 0x29B1),       # the catalogue's check value
    ("0002012626".encode(), None),  # checked against the bitwise definition below
])
def test_pix_crc16_is_binascii_crc_hqx_with_the_bitwise_definitions_result(data, crc):
    """issue 22 point 3: `binascii.crc_hqx(data, 0xFFFF)` gives exactly the output of the manual's bit loop."""
    def bitwise(buffer: bytes) -> int:
        value = 0xFFFF
        for byte in buffer:
            value ^= byte << 8
            for _ in range(8):
                value = ((value << 1) ^ 0x1021) & 0xFFFF if value & 0x8000 else (value << 1) & 0xFFFF
        return value

    assert pix.crc16_ccitt_false(data) == bitwise(data)
    if crc is not None:
        assert pix.crc16_ccitt_false(data) == crc


def test_pix_payload_reproduces_the_central_bank_example():
    assert pix.pix_payload("123e4567-e12b-12d1-a456-426655440000", "Fulano de Tal", "BRASILIA") == BCB_EXAMPLE


def test_pix_payload_with_amount_txid_and_limits():
    payload = pix.pix_payload("12345678000195", "Prefeitura Municipal de Chapada dos Guimarães",
                              "Chapada dos Guimarães", Decimal("1238.85"), txid="DAM-2026/0009")
    assert "54071238.85" in payload
    assert "5925Prefeitura Municipal de C" in payload            # name cut to 25, accents removed
    assert "6015Chapada dos Gui" in payload                      # city cut to 15
    assert "62150511DAM20260009" in payload
    assert pix.has_valid_crc(payload)


def test_art14_sticker_payload_verifies_and_a_tampered_one_does_not():
    keys = generate_keypair()
    text = sign_sticker(keys.private_bytes, "0007/2026", "qab-1d23", date(2026, 12, 31))
    assert text.startswith("TPA1|0007/2026|QAB1D23|31/12/2026|")
    check = verify_sticker(text, keys.public_bytes, date(2026, 11, 29))
    assert check.status == VALID and check.number == "0007/2026" and check.plate == "QAB1D23"
    assert check.valid_until == date(2026, 12, 31)
    assert "válida até 31/12/2026" in check.message_pt
    tampered = text.replace("31/12/2026", "31/12/2027")
    assert verify_sticker(tampered, keys.public_bytes, date(2026, 11, 29)).status == FORGED
    other_plate = text.replace("QAB1D23", "QAB1D24")
    assert verify_sticker(other_plate, keys.public_bytes, date(2026, 11, 29)).status == FORGED
    other_key = generate_keypair()
    assert verify_sticker(text, other_key.public_bytes, date(2026, 11, 29)).status == FORGED


def test_art3_par1_sticker_after_valid_until_is_expired():
    keys = generate_keypair()
    text = sign_sticker(keys.private_bytes, "0007/2026", "QAB1D23", date(2026, 12, 31))
    assert verify_sticker(text, keys.public_bytes, date(2026, 12, 31)).status == VALID
    check = verify_sticker(text, keys.public_bytes, date(2027, 1, 1))
    assert check.status == EXPIRED and "VENCIDO em 31/12/2026" in check.message_pt


@pytest.mark.parametrize("text", ["", "hello", "TPA1|0007/2026|QAB1D23|31/12/2026",
                                  "TPA1|7/2026|QAB1D23|31/12/2026|" + "A" * 86,
                                  "TPA1|0007/2026|QAB1D23|31/02/2026|" + "A" * 86,
                                  "TPA1|0007/2026|QAB1D23|31/12/2026|" + "A" * 10,
                                  "XYZ9|0007/2026|QAB1D23|31/12/2026|" + "A" * 86])
def test_sticker_malformed_payloads(text):
    keys = generate_keypair()
    assert verify_sticker(text, keys.public_bytes, date(2026, 1, 1)).status == MALFORMED


def test_sticker_message_is_what_is_signed():
    assert sticker_message("0001/2026", "abc1234", date(2026, 2, 3)) == "TPA1|0001/2026|ABC1234|03/02/2026"


def test_issue12_20_guide_number_10000_goes_into_the_barcode():
    assert febraban.guide_digits("10000/2026") == "202610000"
    barcode = febraban.arrecadacao_barcode(Decimal("27.75"), "0123", date(2026, 12, 15), "10000/2026")
    assert barcode.endswith("202610000".zfill(17)) and len(barcode) == 44


def test_issue12_20_sticker_number_10000_signs_and_verifies():
    from desktop.signing import VALID, generate_keypair, sign_sticker, verify_sticker

    keys = generate_keypair()
    text = sign_sticker(keys.private_bytes, "10000/2026", "ABC1D23", date(2027, 3, 10))
    check = verify_sticker(text, keys.public_bytes, date(2026, 12, 1))
    assert check.status == VALID and check.number == "10000/2026"
