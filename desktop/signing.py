"""Signed sticker payloads (Art. 14): an agent's phone checks a sticker's QR code without a network.

The municipality holds one Ed25519 key pair, created at setup (services.setup). The sticker's QR code carries a
compact text — the authorization number, the plate and the valid-until date — followed by an Ed25519 signature
of that text, base64url-encoded without padding:

    TPA1|0007/2026|ABC1D23|31/12/2026|<86 characters of signature>

`verify_sticker` needs only the public key and today's date. Whether the authorization was suspended or revoked
after the sticker was printed is a fact of the database: `desktop.services.documents.check_sticker` adds it.
Pure `cryptography`; no Qt, no database, no ReportLab.
"""
from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from datetime import date

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
import hashlib

PAYLOAD_PREFIX = "TPA1"
CREDENTIAL_PREFIX = "TPC1"   # the driver's credential: the sticker's fields plus the masked CPF and CNH (issue 28)
SEPARATOR = "|"

VALID = "valid"
EXPIRED = "expired"
FORGED = "forged"
MALFORMED = "malformed"
SUSPENDED = "suspended"   # added by the service layer, which knows the authorization's status
REVOKED = "revoked"       # added by the service layer (revogada, cassada, descadastrada)

_NUMBER_RE = re.compile(r"^\d{4,}/\d{4}$")  # numbers grow past 9999 (issue 12 item 20)
_PLATE_RE = re.compile(r"^[A-Z]{3}\d[A-Z0-9]\d{2}$")   # ABC1234 and the Mercosul ABC1D23
_DATE_RE = re.compile(r"^(\d{2})/(\d{2})/(\d{4})$")
_SIGNATURE_CHARS = 86   # 64 bytes in base64url without padding


@dataclass(frozen=True, slots=True)
class KeyPair:
    """Raw Ed25519 keys (32 bytes each). The private key stays in the database; the public key may be shared."""

    private_bytes: bytes
    public_bytes: bytes


@dataclass(frozen=True, slots=True)
class StickerCheck:
    """What an agent learns from a scanned sticker. `status` is one of valid, expired, forged, malformed
    (and, from the service layer, suspended or revoked); `message_pt` is the sentence shown on screen."""

    status: str
    number: str | None
    plate: str | None
    valid_until: date | None
    message_pt: str

    @property
    def ok(self) -> bool:
        return self.status == VALID


def generate_keypair() -> KeyPair:
    """A fresh Ed25519 key pair for the municipality (called once, at setup)."""
    private = Ed25519PrivateKey.generate()
    return KeyPair(
        private_bytes=private.private_bytes(
            serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
        ),
        public_bytes=private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw),
    )


def public_key_of(private_bytes: bytes) -> bytes:
    private = Ed25519PrivateKey.from_private_bytes(private_bytes)
    return private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def normalize_plate(plate: str) -> str:
    """'abc-1d23' → 'ABC1D23' (the form printed and signed)."""
    return re.sub(r"[\s\-]", "", plate or "").upper()


def sticker_message(number: str, plate: str, valid_until: date) -> str:
    """The signed part of the payload, without the signature."""
    return SEPARATOR.join((PAYLOAD_PREFIX, number, normalize_plate(plate), valid_until.strftime("%d/%m/%Y")))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class StickerSigner:
    """Signs many stickers with one loaded key (a batch of 1,000 does not parse the key 1,000 times)."""

    def __init__(self, private_bytes: bytes):
        self._key = Ed25519PrivateKey.from_private_bytes(private_bytes)

    def sign(self, number: str, plate: str, valid_until: date) -> str:
        if not _NUMBER_RE.match(number or ""):
            raise ValueError(f"Número de autorização inválido: {number!r} (esperado NNNN/AAAA).")
        message = sticker_message(number, plate, valid_until)
        if not _PLATE_RE.match(normalize_plate(plate)):
            raise ValueError(f"Placa inválida: {plate!r}.")
        signature = self._key.sign(message.encode("ascii"))
        return message + SEPARATOR + _b64url(signature)


def sign_sticker(private_bytes: bytes, number: str, plate: str, valid_until: date) -> str:
    """The full QR payload for one sticker: message | signature."""
    return StickerSigner(private_bytes).sign(number, plate, valid_until)


def credential_message(number: str, plate: str, valid_until: date, masked_cpf: str, masked_cnh: str) -> str:
    """The signed part of a credential's QR: it ties the card to its driver (Art. 13, I: "pessoal e
    intransferível") with the CPF and CNH as printed on it, masked (LGPD)."""
    for label, value in (("CPF", masked_cpf), ("CNH", masked_cnh)):
        if SEPARATOR in value or not value.isascii():
            raise ValueError(f"{label} mascarado inválido para o QR: {value!r}.")
    return SEPARATOR.join((CREDENTIAL_PREFIX, number, normalize_plate(plate), valid_until.strftime("%d/%m/%Y"),
                           masked_cpf, masked_cnh))


def sign_credential(private_bytes: bytes, number: str, plate: str, valid_until: date, masked_cpf: str,
                    masked_cnh: str) -> str:
    """The full QR payload of a credential: message | signature."""
    if not _NUMBER_RE.match(number or ""):
        raise ValueError(f"Número de autorização inválido: {number!r} (esperado NNNN/AAAA).")
    if not _PLATE_RE.match(normalize_plate(plate)):
        raise ValueError(f"Placa inválida: {plate!r}.")
    message = credential_message(number, plate, valid_until, masked_cpf, masked_cnh)
    signature = Ed25519PrivateKey.from_private_bytes(private_bytes).sign(message.encode("ascii"))
    return message + SEPARATOR + _b64url(signature)


def fingerprint(public_bytes: bytes) -> str:
    """SHA-256 of a raw public key, in hex: how checkpoints and the key table name a key."""

    return hashlib.sha256(bytes(public_bytes)).hexdigest()


def sign_text(private_bytes: bytes, text: str) -> str:
    """An Ed25519 signature of the UTF-8 text, base64url without padding (audit checkpoints)."""
    return _b64url(Ed25519PrivateKey.from_private_bytes(bytes(private_bytes)).sign(text.encode("utf-8")))


def verify_text(public_bytes: bytes, text: str, signature: str) -> bool:
    """True when `signature` (from `sign_text`) is the key's signature of `text`."""
    try:
        raw = base64.urlsafe_b64decode((signature or "") + "=" * (-len(signature or "") % 4))
        Ed25519PublicKey.from_public_bytes(bytes(public_bytes)).verify(raw, text.encode("utf-8"))
    except (InvalidSignature, binascii.Error, ValueError):
        return False
    return True


def _malformed(reason: str) -> StickerCheck:
    return StickerCheck(MALFORMED, None, None, None, f"Código não reconhecido: {reason}. "
                        "Este QR não é de um adesivo da Prefeitura (Art. 14 da Lei nº 2.103/2025).")


def verify_sticker(text: str, public_key: bytes, today: date) -> StickerCheck:
    """Checks a scanned payload offline: format, signature, then validity on `today`."""
    text = (text or "").strip()
    parts = text.split(SEPARATOR)
    holder = ""
    if len(parts) == 7 and parts[0] == CREDENTIAL_PREFIX:     # a credential: the sticker's check plus its holder
        holder = f" Credencial do condutor de CPF {parts[4]} e CNH {parts[5]}: confira com o documento dele."
        parts = parts[:4] + parts[6:]
        signed = SEPARATOR.join(text.split(SEPARATOR)[:6])
    elif len(parts) == 5 and parts[0] == PAYLOAD_PREFIX:
        signed = SEPARATOR.join(parts[:4])
    else:
        return _malformed("formato desconhecido")
    _, number, plate, until_text, signature_text = parts
    if not _NUMBER_RE.match(number):
        return _malformed("número de autorização ilegível")
    if not _PLATE_RE.match(plate):
        return _malformed("placa ilegível")
    match = _DATE_RE.match(until_text)
    try:
        valid_until = date(int(match.group(3)), int(match.group(2)), int(match.group(1))) if match else None
    except ValueError:
        valid_until = None
    if valid_until is None:
        return _malformed("data de validade ilegível")
    if len(signature_text) != _SIGNATURE_CHARS:
        return _malformed("assinatura incompleta")
    try:
        signature = base64.urlsafe_b64decode(signature_text + "==")
    except (binascii.Error, ValueError):
        return _malformed("assinatura ilegível")
    message = signed.encode("ascii", errors="replace")
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except InvalidSignature:
        return StickerCheck(
            FORGED, number, plate, valid_until,
            f"ADESIVO FALSO OU ADULTERADO: a assinatura não confere para a autorização nº {number}, placa {plate}. "
            "Retenha o adesivo e lavre o auto cabível (Art. 27 da Lei nº 2.103/2025).",
        )
    until_br = valid_until.strftime("%d/%m/%Y")
    if today > valid_until:
        return StickerCheck(
            EXPIRED, number, plate, valid_until,
            f"Adesivo autêntico, mas VENCIDO em {until_br}: autorização nº {number}, placa {plate} "
            "(Art. 3º, §1º da Lei nº 2.103/2025)." + holder,
        )
    what = "Credencial autêntica" if holder else "Adesivo autêntico"
    return StickerCheck(
        VALID, number, plate, valid_until,
        f"{what}: autorização nº {number}, placa {plate}, válida até {until_br}.{holder}",
    )
