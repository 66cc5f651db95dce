"""Brazilian document numbers and plates: validators (Problem | None, Portuguese messages) and formatters.

Check digits come from `validate-docbr` (imported on first use). Validators never raise: they return a Problem
naming the field, or None when the value is good; `collect()` gathers several into the list a form shows.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from desktop.domain.formatting import format_cnpj, format_cpf, format_plate, mask_cpf  # noqa: F401 — re-exported
from desktop.domain.problems import Problem
from desktop.domain.text import only_alphanumerics, only_digits

_OLD_PLATE = re.compile(r"^[A-Z]{3}[0-9]{4}$")
_MERCOSUL_PLATE = re.compile(r"^[A-Z]{3}[0-9][A-Z][0-9]{2}$")
_PLATE_INPUT = re.compile(r"^[A-Z]{3}-?[0-9][A-Z0-9][0-9]{2}$")
_CNPJ_SHAPE = re.compile(r"^[A-Z0-9]{12}[0-9]{2}$")
_MASK_CHARS = re.compile(r"[\s.\-/]")


def _docbr():
    import validate_docbr  # ≈ 9 ms, only when a document is checked

    return validate_docbr


def collect(*results: Problem | Iterable[Problem] | None) -> list[Problem]:
    """The problems among validator results (None is skipped, lists are flattened), in order."""
    found: list[Problem] = []
    for result in results:
        if result is None:
            continue
        if isinstance(result, Problem):
            found.append(result)
        else:
            found.extend(result)
    return found


def _bad_characters(value: str, allow_letters: bool = False) -> bool:
    rest = _MASK_CHARS.sub("", value)
    return not all(ch.isascii() and (ch.isdigit() or (allow_letters and ch.isalpha())) for ch in rest)


# --- CPF ----------------------------------------------------------------------------------------------------

def normalize_cpf(value: str | None) -> str:
    """The 11 digits of a CPF, as stored ("123.456.789-09" -> "12345678909")."""
    return only_digits(value)


def validate_cpf(value: str | None, field: str = "cpf", required: bool = True) -> Problem | None:
    text = (value or "").strip()
    if not text:
        return Problem(field, "Informe o CPF.") if required else None
    if _bad_characters(text) or len(only_digits(text)) != 11:
        return Problem(field, "CPF deve ter 11 dígitos (000.000.000-00).")
    if not _docbr().CPF().validate(only_digits(text)):
        return Problem(field, f"CPF {format_cpf(text)} inválido: os dígitos verificadores não conferem.")
    return None


# --- CNPJ ---------------------------------------------------------------------------------------------------

def normalize_cnpj(value: str | None) -> str:
    """The 14 characters of a CNPJ, upper case, as stored (numeric or the new alphanumeric form)."""
    return only_alphanumerics(value)


def validate_cnpj(value: str | None, field: str = "cnpj", required: bool = True) -> Problem | None:
    text = (value or "").strip()
    if not text:
        return Problem(field, "Informe o CNPJ.") if required else None
    key = only_alphanumerics(text)
    if _bad_characters(text, allow_letters=True) or not _CNPJ_SHAPE.match(key):
        return Problem(field, "CNPJ deve ter 14 caracteres (00.000.000/0000-00); os dois últimos são dígitos.")
    if not _docbr().CNPJ().validate(key):
        return Problem(field, f"CNPJ {format_cnpj(key)} inválido: os dígitos verificadores não conferem.")
    return None


# --- CNH and RENAVAM ----------------------------------------------------------------------------------------

def validate_cnh(value: str | None, field: str = "cnh_number", required: bool = True) -> Problem | None:
    """The CNH registration number (número de registro, 11 digits)."""
    text = (value or "").strip()
    if not text:
        return Problem(field, "Informe o número de registro da CNH.") if required else None
    if _bad_characters(text) or len(only_digits(text)) != 11:
        return Problem(field, "O número de registro da CNH deve ter 11 dígitos.")
    if not _docbr().CNH().validate(only_digits(text)):
        return Problem(field, "Número de registro da CNH inválido: os dígitos verificadores não conferem.")
    return None


def normalize_renavam(value: str | None) -> str:
    """RENAVAM with 11 digits (older 9-digit numbers get leading zeros, as DETRAN does)."""
    digits = only_digits(value)
    return digits.zfill(11) if 9 <= len(digits) <= 11 else digits


def validate_renavam(value: str | None, field: str = "renavam", required: bool = True) -> Problem | None:
    text = (value or "").strip()
    if not text:
        return Problem(field, "Informe o RENAVAM.") if required else None
    digits = only_digits(text)
    if _bad_characters(text) or not 9 <= len(digits) <= 11:
        return Problem(field, "O RENAVAM deve ter 11 dígitos.")
    normal = normalize_renavam(digits)
    if set(normal) == {"0"} or not _docbr().RENAVAM().validate(normal):
        return Problem(field, f"RENAVAM {normal} inválido: o dígito verificador não confere.")
    return None


# --- Check digits, fast: a platform's list checks thousands of numbers; `validate_docbr` checks the same (and is
# the rule: tests/unit/test_platform_list_rules.py compares both on generated numbers), about three times slower --------

def cpf_digits_ok(digits: str) -> bool:
    """Check digits of a CPF given as 11 ASCII digits (Receita Federal's modulus 11); repeated digits are invalid."""
    if digits == digits[0] * 11:
        return False
    n = [ord(c) - 48 for c in digits]
    r = sum(n[i] * (10 - i) for i in range(9)) % 11
    if (0 if r < 2 else 11 - r) != n[9]:
        return False
    r = sum(n[i] * (11 - i) for i in range(10)) % 11
    return (0 if r < 2 else 11 - r) == n[10]


def cnh_digits_ok(digits: str) -> bool:
    """Check digits of a CNH registration number given as 11 ASCII digits (DENATRAN's rule, with its 'dsc')."""
    if digits == digits[0] * 11:
        return False
    n = [ord(c) - 48 for c in digits]
    first = sum(n[9 - w] * w for w in range(9, 0, -1)) % 11
    dsc = 0
    if first >= 10:
        first, dsc = 0, 2
    second = sum(n[w - 1] * w for w in range(1, 10)) % 11 - dsc
    if second < 0:
        second += 11
    if second >= 10:
        second = 0
    return first == n[9] and second == n[10]


_RENAVAM_WEIGHTS = (3, 2, 9, 8, 7, 6, 5, 4, 3, 2)


def renavam_digits_ok(digits: str) -> bool:
    """Check digit of an 11-digit RENAVAM (DENATRAN's modulus 11); all zeros is no RENAVAM."""
    if digits == "00000000000":
        return False
    n = [ord(c) - 48 for c in digits]
    last = sum(n[i] * _RENAVAM_WEIGHTS[i] for i in range(10)) * 10 % 11
    return (0 if last == 10 else last) == n[10]


# --- Plates -------------------------------------------------------------------------------------------------

def normalize_plate(value: str | None) -> str:
    """The stored form of a plate: upper case, no hyphen or spaces ("abc-1234" -> "ABC1234")."""
    return only_alphanumerics(value)


def is_mercosul_plate(value: str | None) -> bool:
    return bool(_MERCOSUL_PLATE.match(normalize_plate(value)))


def mercosul_equivalent(value: str | None) -> str:
    """The Mercosul form of an old plate (the 5th character, a digit, becomes a letter: 0->A ... 9->J).

    Lets a platform's list written in one form match a register written in the other.
    """
    plate = normalize_plate(value)
    if _OLD_PLATE.match(plate):
        return plate[:4] + "ABCDEFGHIJ"[int(plate[4])] + plate[5:]
    return plate


def validate_plate(value: str | None, field: str = "plate", required: bool = True) -> Problem | None:
    """Old plates (ABC1234 or ABC-1234) and Mercosul plates (ABC1D23)."""
    text = (value or "").strip().upper().replace(" ", "")
    if not text:
        return Problem(field, "Informe a placa.") if required else None
    plate = normalize_plate(text)
    if not _PLATE_INPUT.match(text) or not (_OLD_PLATE.match(plate) or _MERCOSUL_PLATE.match(plate)):
        return Problem(field, f"Placa «{value.strip()}» inválida: use ABC1234, ABC-1234 ou o padrão Mercosul ABC1D23.")
    return None
