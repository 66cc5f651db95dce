"""The limits of every field, the same on SQLite and PostgreSQL (issue 12 item 21).

SQLite stores a 300-character address in a 200-character column and a NUL byte in a name; PostgreSQL refuses
both with a raw English error, so such data could never move to an office server. These functions say, in
Portuguese and naming the field, what either database would refuse (and a little more that no record needs):

- text: at most the column's length (`String(n)`), at most `TEXT_MAX_CHARS` for free text (`Text`), no NUL
  and no control characters other than tab and line breaks, no lone surrogates (not UTF-8);
- dates: from `MIN_DATE` to `MAX_DATE` (1900–2100), date-times alike;
- money and other amounts: finite (no NaN, no infinity) and at most `MAX_AMOUNT` in absolute value
  (R$ 999.999.999,99: the 64-bit integer SQLite keeps for a `Dec` column holds it at any scale used here);
- a year for a yearly parameter (the UPFM) within the same 1900–2100;
- a search text at most `SEARCH_MAX_CHARS` long.

Each returns `list[Problem]` (empty when the value is fine) so that a form shows all of them at once; the
model layer applies the same checks to every row before it is written (`desktop.models.base`), so no service
can forget them. Pure Python: no Qt, no SQLAlchemy.
"""
from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from desktop.domain.problems import Problem

MIN_DATE = date(1900, 1, 1)
MAX_DATE = date(2100, 12, 31)
MAX_AMOUNT = Decimal("999999999.99")   # R$ 999.999.999,99
TEXT_MAX_CHARS = 100_000                # free text (a reason, a description): ~50 pages; a 10 MB paste is refused
SEARCH_MAX_CHARS = 200                  # what anyone types in a search box

# NUL and the C0/C1 control characters except tab, line feed and carriage return; DEL; lone UTF-16 surrogates.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _label(label: str) -> str:
    return label[:1].upper() + label[1:] if label else "Campo"


def describe_char(ch: str) -> str:
    """'caractere nulo (NUL)' / 'caractere de controle U+001B'."""
    if ch == "\x00":
        return "o caractere nulo (NUL)"
    if "\ud800" <= ch <= "\udfff":
        return f"um caractere inválido (U+{ord(ch):04X})"
    name = unicodedata.name(ch, "")
    return f"o caractere de controle U+{ord(ch):04X}" + (f" ({name})" if name else "")


def text_problems(field: str, label: str, value: str | None, max_length: int | None) -> list[Problem]:
    """A text column: its length and its characters."""
    if value is None:
        return []
    if not isinstance(value, str):
        return [Problem(field, f"{_label(label)}: informe um texto.")]
    problems: list[Problem] = []
    limit = TEXT_MAX_CHARS if max_length is None else min(max_length, TEXT_MAX_CHARS)
    if len(value) > limit:
        problems.append(Problem(field, f"{_label(label)}: no máximo {limit:,} caracteres (tem {len(value):,})."
                                .replace(",", ".")))
    bad = _FORBIDDEN.search(value)
    if bad is not None:
        problems.append(Problem(field, f"{_label(label)}: contém {describe_char(bad.group())}, que não pode ser "
                                       "gravado. Apague-o ou digite o texto de novo."))
    return problems


def clean_text(value: str) -> str:
    """The text without the characters `text_problems` refuses (for an import that should not fail on them)."""
    return _FORBIDDEN.sub("", value)


def date_problems(field: str, label: str, value: date | datetime | None) -> list[Problem]:
    if value is None:
        return []
    if not isinstance(value, date):
        return [Problem(field, f"{_label(label)}: informe uma data.")]
    day = value.date() if isinstance(value, datetime) else value
    if not MIN_DATE <= day <= MAX_DATE:
        return [Problem(field, f"{_label(label)}: data fora do intervalo aceito (01/01/1900 a 31/12/2100).")]
    return []


def year_problems(field: str, label: str, year) -> list[Problem]:
    """A year typed for a yearly value (the UPFM of a year)."""
    if isinstance(year, bool) or not isinstance(year, (int, str)) or not str(year).strip().lstrip("-").isdigit():
        return [Problem(field, f"{_label(label)}: informe o ano com quatro algarismos.")]
    number = int(str(year).strip())
    if not MIN_DATE.year <= number <= MAX_DATE.year:
        return [Problem(field, f"{_label(label)}: ano fora do intervalo aceito ({MIN_DATE.year} a {MAX_DATE.year}).")]
    return []


def to_decimal(value) -> Decimal | None:
    """The Decimal a form or a script gave (Decimal, int, or text with a decimal comma), or None when it is not
    a finite number. Floats are taken by their shortest text ("0.1", not 0.1000000000000000055...)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        value = repr(value)
    if isinstance(value, str):
        text = value.strip().replace("R$", "").replace("\xa0", "").replace(" ", "")
        if "," in text:
            text = text.replace(".", "").replace(",", ".")
        value = text
    try:
        number = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return None
    return number if number.is_finite() else None


def amount_problems(field: str, label: str, value, *, positive: bool = False) -> list[Problem]:
    """An amount in reais (or UPFM, a rate): a finite number within ±R$ 999.999.999,99."""
    if value is None:
        return []
    number = to_decimal(value)
    if number is None:
        return [Problem(field, f"{_label(label)}: valor numérico inválido (não é um número finito).")]
    if abs(number) > MAX_AMOUNT:
        return [Problem(field, f"{_label(label)}: valor acima do limite aceito (999.999.999,99).")]
    if positive and number <= 0:
        return [Problem(field, f"{_label(label)}: informe um valor maior que zero.")]
    return []


def search_problems(field: str, text: str | None) -> list[Problem]:
    if not text:
        return []
    problems = []
    if len(text) > SEARCH_MAX_CHARS:
        problems.append(Problem(field, f"Busca: no máximo {SEARCH_MAX_CHARS} caracteres (tem {len(text):,})."
                                .replace(",", ".")))
    bad = _FORBIDDEN.search(text)
    if bad is not None:
        problems.append(Problem(field, f"Busca: contém {describe_char(bad.group())}."))
    return problems


# Portuguese names of the columns, for the messages of the check every row passes before it is written
# (`desktop.models.base`). A column may also say its own with `info={"label": "..."}`.
COLUMN_LABELS: dict[str, str] = {
    "name": "nome", "full_name": "nome completo", "legal_name": "razão social", "trade_name": "nome fantasia",
    "contact_name": "nome do contato", "email": "e-mail", "phone": "telefone", "address": "endereço",
    "district": "bairro", "city": "cidade", "uf": "UF", "zip_code": "CEP", "cpf": "CPF", "cnpj": "CNPJ",
    "plate": "placa", "renavam": "RENAVAM", "chassis": "chassi", "make": "marca", "model": "modelo",
    "color": "cor", "cnh_number": "número da CNH", "cnh_category": "categoria da CNH", "nit": "NIT",
    "description": "descrição", "place": "local", "note": "observação", "notes": "observações",
    "reason": "motivo", "cancel_reason": "motivo do cancelamento", "reasoning": "fundamentação",
    "decision_reason": "motivo da decisão", "deregistration_reason": "motivo do descadastramento",
    "reschedule_reason": "motivo da remarcação", "removed_reason": "motivo da remoção", "summary": "resumo",
    "justification": "justificativa", "resolution": "resolução", "what_changed": "o que mudou",
    "number": "número", "guide_number": "número da guia", "protocol_number": "número do protocolo",
    "act_number": "número do ato", "municipal_registration_number": "inscrição municipal",
    "username": "nome de usuário", "title": "título", "file_name": "nome do arquivo", "filename": "nome do arquivo",
    "amount": "valor", "amount_reais": "valor em reais", "amount_upfm": "valor em UPFM", "value": "valor",
    "fee_amount": "valor da taxa", "upfm_value": "valor da UPFM", "paid_on": "data do pagamento",
    "valid_from": "início da vigência", "valid_until": "validade", "due_on": "vencimento", "on": "data",
    "day": "dia", "birth_date": "data de nascimento", "protocol_date": "data do protocolo",
    "drawn_up_at": "data da lavratura", "effective_on": "data do lançamento", "issued_on": "data de emissão",
    "cnh_valid_until": "validade da CNH", "route": "trajeto", "other_data": "outros dados", "holder": "titular",
    "message": "mensagem", "extra_penalty": "penalidade adicional", "recurrence_effect": "efeito da reincidência",
    "app_insurance_policy": "apólice do seguro", "app_insurance_insurer": "seguradora",
}


def column_label(name: str) -> str:
    return COLUMN_LABELS.get(name, name.replace("_", " "))


# ------------------------------------------------------------------------------------------------ trips
# The limits of one trip of a platform's file (Art. 4 §1; issue 25 item 1). The fast path of the reader
# (desktop.importers.trips, Arrow casts) applies exactly these, so a cell past them is refused with its line named
# instead of overflowing a 64-bit integer or being stored:
# - each amount (the total and each part) from R$ 0,00 to TRIP_MAX_FARE: a trip in a municipality costs tens of
#   reais; R$ 10.000,00 is far above any real one and far below what a 64-bit count of cents holds;
# - the distance at most TRIP_MAX_DISTANCE_M (1.000 km), the duration at most TRIP_MAX_DURATION_S (24 h), and the
#   end at most that long after the start;
# - the start not before the retention cut-off (a trip older than the period the law lets the city keep is not
#   taken in, Art. 4 caput; a trip dated 1800 or 9999 would never expire) and not after the moment of the import
#   (plus TRIP_CLOCK_TOLERANCE_S for a platform's clock a little ahead); the end not after that moment either.
TRIP_MAX_FARE = Decimal("10000.00")
TRIP_MAX_FARE_CENTS = int(TRIP_MAX_FARE * 100)
TRIP_MAX_DISTANCE_M = 1_000_000
TRIP_MAX_DURATION_S = 86_400
TRIP_CLOCK_TOLERANCE_S = 300


@dataclass(frozen=True)
class TripWindow:
    """The instants a trip's start (and end) may have, in µs since the epoch (UTC), with their dates for the
    messages (dd/mm/aaaa)."""

    earliest_us: int
    latest_us: int
    earliest_text: str
    latest_text: str


def trip_window(now: datetime, cutoff: date) -> TripWindow:
    """From the retention cut-off (`domain.trips.retention_cutoff`, local midnight) to `now` plus the tolerance."""
    if now.tzinfo is None:
        raise ValueError("trip_window: now sem fuso horário")
    start = datetime(cutoff.year, cutoff.month, cutoff.day, tzinfo=now.tzinfo)
    earliest = int(start.timestamp()) * 1_000_000
    latest = (int(now.timestamp()) + TRIP_CLOCK_TOLERANCE_S) * 1_000_000
    return TripWindow(earliest, latest, start.strftime("%d/%m/%Y"), now.strftime("%d/%m/%Y %H:%M"))
