"""The municipality's PIX key as the BR Code carries it (issue 12 item 14).

The key goes, unchanged, into field 26-01 of the static BR Code printed on the DAM (`reports/pix.py`), and the
payer's bank looks it up in the DICT exactly as written: "03.507.548/0001-10" is not the key 03507548000110. The
forms a key takes are set by the Banco Central, not by Lei 2.103/2025 (Manual de Padrões para Iniciação do Pix,
BR Code, and the Manual Operacional do DICT, "formato das chaves"):

- CPF: the 11 digits; CNPJ: the 14 characters (digits, or the alphanumeric CNPJ), no mask — check digits verified;
- phone: "+55", the DDD and the number, digits only (E.164): +5565999991234;
- e-mail: lower case, at most 77 characters;
- random key (EVP): the UUID the bank gave, as given.

Anything else is refused, with a Portuguese message naming the field. Pure: no Qt, no database.
"""
from __future__ import annotations

import re
from enum import StrEnum

from desktop.domain.documents import validate_cnpj, validate_cpf
from desktop.domain.problems import Problem
from desktop.domain.text import only_alphanumerics, only_digits

PIX_KEY_FIELD = "pix_key"
MAX_PIX_KEY_LENGTH = 77  # Manual Operacional do DICT: the longest key (an e-mail) has 77 characters
PIX_KEY_HINT = ("use o CPF ou o CNPJ (com ou sem máscara), o telefone com DDD (ex.: +55 65 99999-1234), "
                "o e-mail ou a chave aleatória fornecida pelo banco")

# Anatel: the area codes (DDD) in use in Brazil.
DDDS = frozenset({
    11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45, 46,
    47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85,
    86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
})

_EVP = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_CPF_SHAPE = re.compile(r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}")
_CNPJ_SHAPE = re.compile(r"[0-9A-Za-z]{2}\.?[0-9A-Za-z]{3}\.?[0-9A-Za-z]{3}/?[0-9A-Za-z]{4}-?\d{2}")
# a Brazilian phone written without "+55": (65) 99999-1234, 65 3301-1234, 6533011234
_NATIONAL_PHONE = re.compile(r"\(?\d{2}\)?[\s-]*\d{4,5}[\s-]?\d{4}")
_INTERNATIONAL_PHONE = re.compile(r"\+[\d\s().-]+")
_EMAIL = re.compile(r"[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
                    r"(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+")


class PixKeyKind(StrEnum):
    CPF = "cpf"
    CNPJ = "cnpj"
    PHONE = "phone"
    EMAIL = "email"
    EVP = "evp"

    @property
    def label(self) -> str:
        return _KIND_LABELS[self]


_KIND_LABELS = {PixKeyKind.CPF: "CPF", PixKeyKind.CNPJ: "CNPJ", PixKeyKind.PHONE: "telefone",
                PixKeyKind.EMAIL: "e-mail", PixKeyKind.EVP: "chave aleatória"}


def pix_key_kind(raw: str | None) -> PixKeyKind | None:
    """Which kind of key the text is written as (None: empty, or no kind fits)."""
    text = (raw or "").strip()
    if not text:
        return None
    if "@" in text:
        return PixKeyKind.EMAIL
    if _EVP.fullmatch(text):
        return PixKeyKind.EVP
    if _INTERNATIONAL_PHONE.fullmatch(text):
        return PixKeyKind.PHONE
    if _CPF_SHAPE.fullmatch(text):
        return PixKeyKind.CPF
    if _CNPJ_SHAPE.fullmatch(text):
        return PixKeyKind.CNPJ
    if _NATIONAL_PHONE.fullmatch(text):
        return PixKeyKind.PHONE
    return None


def _national_phone(text: str) -> str:
    """The DDD and the number of a phone key ("+55 (65) 99999-1234" -> "65999991234"); "" if not Brazilian."""
    digits = only_digits(text)
    if text.startswith("+"):
        return digits[2:] if digits.startswith("55") else ""
    return digits


def normalize_pix_key(raw: str | None) -> str:
    """The key as the BR Code and the DICT carry it; "" for no key. A text that is no key comes back stripped
    (`pix_key_problems` says why)."""
    text = (raw or "").strip()
    kind = pix_key_kind(text)
    if kind is PixKeyKind.CPF:
        return only_digits(text)
    if kind is PixKeyKind.CNPJ:
        return only_alphanumerics(text)
    if kind is PixKeyKind.PHONE:
        national = _national_phone(text)
        return "+55" + national if national else text
    if kind is PixKeyKind.EMAIL:
        return text.lower()
    return text  # a random key (EVP) as the bank gave it; anything else unchanged


def _phone_problem(text: str, field: str) -> Problem | None:
    national = _national_phone(text)
    if not national:
        return Problem(field, "Chave PIX (telefone): só telefones do Brasil, com +55, o DDD e o número "
                              "(ex.: +55 65 99999-1234).")
    if len(national) not in (10, 11):
        return Problem(field, "Chave PIX (telefone): informe o DDD e o número, com 8 dígitos (fixo) ou 9 dígitos "
                              "(celular), ex.: +55 65 99999-1234.")
    if int(national[:2]) not in DDDS:
        return Problem(field, f"Chave PIX (telefone): o DDD {national[:2]} não existe.")
    number = national[2:]
    if len(number) == 9 and number[0] != "9":
        return Problem(field, "Chave PIX (telefone): um celular tem 9 dígitos e começa com 9.")
    if len(number) == 8 and number[0] not in "2345":
        return Problem(field, "Chave PIX (telefone): um telefone fixo tem 8 dígitos e começa com 2, 3, 4 ou 5; "
                              "um celular tem 9 dígitos e começa com 9.")
    return None


def pix_key_problems(raw: str | None, field: str = PIX_KEY_FIELD) -> list[Problem]:
    """What is wrong with the key as typed (an empty key is no problem: the PIX key is optional)."""
    text = (raw or "").strip()
    if not text:
        return []
    if len(text) > MAX_PIX_KEY_LENGTH:
        return [Problem(field, f"A chave PIX tem no máximo {MAX_PIX_KEY_LENGTH} caracteres.")]
    kind = pix_key_kind(text)
    if kind is None:
        return [Problem(field, f"Chave PIX não reconhecida: {PIX_KEY_HINT}.")]
    problem: Problem | None = None
    if kind is PixKeyKind.CPF:
        problem = validate_cpf(text, field=field)
    elif kind is PixKeyKind.CNPJ:
        problem = validate_cnpj(text, field=field)
    elif kind is PixKeyKind.PHONE:
        problem = _phone_problem(text, field)
    elif kind is PixKeyKind.EMAIL and not _EMAIL.fullmatch(text.lower()):
        problem = Problem(field, "Chave PIX (e-mail) inválida: confira o endereço "
                                 "(ex.: financas@prefeitura.mt.gov.br).")
    if problem is None:
        return []
    if not problem.message.startswith("Chave PIX"):
        problem = Problem(field, f"Chave PIX ({kind.label}): {problem.message}", problem.article)
    return [problem]
