"""PIX BR Code ("copia e cola") for the payment guide, pure Python.

Banco Central do Brasil, Manual de Padrões para Iniciação do Pix: an EMV-MPM TLV string — each field is
ID (2 digits) + length (2 digits) + value — closed by field 63 with a CRC16-CCITT-FALSE (polynomial 0x1021,
initial value 0xFFFF) over the whole string including "6304".
"""
from __future__ import annotations

import binascii
import re
import unicodedata
from decimal import Decimal
from desktop.domain.money import round_cents

PIX_GUI = "br.gov.bcb.pix"


def crc16_ccitt_false(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR) — the standard
    library's `binascii.crc_hqx` with that initial value."""
    return binascii.crc_hqx(data, 0xFFFF)


def _tlv(tag: str, value: str) -> str:
    if len(value) > 99:
        raise ValueError(f"Campo PIX {tag} longo demais ({len(value)} caracteres).")
    return f"{tag}{len(value):02d}{value}"


def _ascii_text(text: str, limit: int) -> str:
    """Names and cities without accents (many bank apps reject them), cut to the EMV limit."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    plain = re.sub(r"[^A-Za-z0-9 .\-]", " ", plain)
    return re.sub(r"\s+", " ", plain).strip()[:limit].strip()


def pix_payload(key: str, merchant_name: str, merchant_city: str, amount: Decimal | None = None,
                txid: str = "***") -> str:
    """The static BR Code for `key` (CPF, CNPJ, e-mail, phone or random key), with the amount when given.

    txid: up to 25 letters and digits (the guide number without separators), or '***' when none.
    """
    key = key.strip()
    if not key:
        raise ValueError("Chave PIX vazia.")
    if txid != "***":
        txid = re.sub(r"[^A-Za-z0-9]", "", txid)[:25] or "***"
    account = _tlv("00", PIX_GUI) + _tlv("01", key)
    payload = (
        _tlv("00", "01")
        + _tlv("26", account)
        + _tlv("52", "0000")
        + _tlv("53", "986")
    )
    if amount is not None:
        value = round_cents(amount)
        if value <= 0:
            raise ValueError("Valor do PIX deve ser positivo.")
        payload += _tlv("54", f"{value:.2f}")
    payload += (
        _tlv("58", "BR")
        + _tlv("59", _ascii_text(merchant_name, 25))
        + _tlv("60", _ascii_text(merchant_city, 15))
        + _tlv("62", _tlv("05", txid))
    )
    payload += "6304"
    return payload + f"{crc16_ccitt_false(payload.encode('utf-8')):04X}"


def has_valid_crc(payload: str) -> bool:
    if len(payload) < 8 or payload[-8:-4] != "6304":
        return False
    return f"{crc16_ccitt_false(payload[:-4].encode('utf-8')):04X}" == payload[-4:].upper()
