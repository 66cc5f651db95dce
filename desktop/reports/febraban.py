"""FEBRABAN arrecadação barcode for the municipal payment guide (DAM), pure Python.

"Layout Padrão de Arrecadação/Recebimento com Utilização do Código de Barras" (FEBRABAN): 44 digits,
interleaved 2 of 5, typed line ("linha digitável") of 48 digits.

    pos  1      product            "8" (arrecadação)
    pos  2      segment            "1" (prefeituras)
    pos  3      value identifier   "6" (value in reais, check digits by modulo 10)
    pos  4      general check digit (modulo 10 over the other 43 digits)
    pos  5–15   value in cents (11 digits)
    pos 16–19   company/organ id given by FEBRABAN to the municipality (4 digits)
    pos 20–44   free field (25 digits): due date AAAAMMDD + guide number (17 digits)

The typed line splits the 44 digits into 4 blocks of 11 and appends each block's modulo-10 check digit.
"""
from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from desktop.domain.money import cents_of

PRODUCT = "8"
SEGMENT_PREFEITURAS = "1"
VALUE_ID_REAIS_MOD10 = "6"
MAX_CENTS = 10**11 - 1


def mod10(digits: str) -> int:
    """FEBRABAN modulo 10: weights 2,1,2,1… from the right; products' digits summed; DV = (10 − sum mod 10) mod 10."""
    total = 0
    weight = 2
    for ch in reversed(digits):
        product = int(ch) * weight
        total += product // 10 + product % 10
        weight = 1 if weight == 2 else 2
    return (10 - total % 10) % 10


def guide_digits(guide_number: str) -> str:
    """'0012/2026' → '20260012'; a string of digits stays as it is. At most 17 digits."""
    guide_number = guide_number.strip()
    match = re.fullmatch(r"(\d{1,6})/(\d{4})", guide_number)
    digits = match.group(2) + match.group(1).zfill(4) if match else guide_number
    if not digits.isdigit() or len(digits) > 17:
        raise ValueError(f"Número de guia inválido para o código de barras: {guide_number!r}.")
    return digits


def arrecadacao_barcode(amount: Decimal, company_id: str, due: date, guide_number: str,
                        segment: str = SEGMENT_PREFEITURAS) -> str:
    """The 44 digits of the barcode of a municipal guide."""
    cents = cents_of(amount)
    if cents < 0 or cents > MAX_CENTS:
        raise ValueError(f"Valor fora do limite do código de barras: {amount}.")
    if not (company_id.isdigit() and len(company_id) == 4):
        raise ValueError(f"Código FEBRABAN do órgão deve ter 4 dígitos: {company_id!r}.")
    if not (segment.isdigit() and len(segment) == 1):
        raise ValueError(f"Segmento inválido: {segment!r}.")
    free_field = due.strftime("%Y%m%d") + guide_digits(guide_number).zfill(17)
    body = PRODUCT + segment + VALUE_ID_REAIS_MOD10 + f"{cents:011d}" + company_id + free_field
    dv = mod10(body)
    barcode = body[:3] + str(dv) + body[3:]
    assert len(barcode) == 44
    return barcode


def typed_line(barcode: str) -> str:
    """48 digits: four blocks of 11 digits of the barcode, each followed by its modulo-10 check digit."""
    _check_barcode_shape(barcode)
    if barcode[2] not in "67":
        raise ValueError("Somente códigos com dígitos verificadores em módulo 10 (identificador 6 ou 7).")
    blocks = [barcode[i:i + 11] for i in range(0, 44, 11)]
    return "".join(block + str(mod10(block)) for block in blocks)


def format_typed_line(line: str) -> str:
    """'836400000011…' → '83640000001-1 33120138000-2 81288462711-6 08013618155-1'."""
    if len(line) != 48 or not line.isdigit():
        raise ValueError("A linha digitável tem 48 dígitos.")
    return " ".join(f"{line[i:i + 11]}-{line[i + 11]}" for i in range(0, 48, 12))


def barcode_from_typed_line(line: str) -> str:
    digits = re.sub(r"\D", "", line)
    if len(digits) != 48:
        raise ValueError("A linha digitável tem 48 dígitos.")
    return "".join(digits[i:i + 11] for i in range(0, 48, 12))


def is_valid_barcode(barcode: str) -> bool:
    try:
        _check_barcode_shape(barcode)
    except ValueError:
        return False
    if barcode[2] not in "67":
        return False
    return mod10(barcode[:3] + barcode[4:]) == int(barcode[3])


def is_valid_typed_line(line: str) -> bool:
    digits = re.sub(r"\D", "", line)
    if len(digits) != 48:
        return False
    blocks_ok = all(mod10(digits[i:i + 11]) == int(digits[i + 11]) for i in range(0, 48, 12))
    return blocks_ok and is_valid_barcode(barcode_from_typed_line(digits))


def _check_barcode_shape(barcode: str) -> None:
    if len(barcode) != 44 or not barcode.isdigit() or barcode[0] != PRODUCT:
        raise ValueError("O código de barras de arrecadação tem 44 dígitos e começa por 8.")
