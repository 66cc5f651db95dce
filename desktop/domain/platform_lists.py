"""The platforms' 60-day lists (Art. 5, VIII) and their reconciliation with the register, line by line (pure).

The list format is a contract with the platforms (docs/platform-list-format.md): a header row with the columns of
LIST_COLUMNS in any order, matched without regard to case or accents; other columns are ignored and named in the
import report. Each line is validated by `validate_line` (every problem of the line at once) and, once stored,
reconciled by `reconcile_line` against what the register knows of its driver and its vehicle.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from functools import lru_cache

from desktop.domain import law
from desktop.domain.dates import BusinessCalendar, platform_data_due, platform_list_due
from desktop.domain.documents import (
    cnh_digits_ok,
    cpf_digits_ok,
    format_cpf,
    format_plate,
    mercosul_equivalent,
    normalize_cnpj,
    normalize_plate,
    normalize_renavam,
    renavam_digits_ok,
    validate_cnh,
    validate_cnpj,
    validate_cpf,
    validate_plate,
    validate_renavam,
)
from desktop.domain.roles import DOCUMENT_ROLES, ENFORCEMENT_ROLES, PLATFORM_LIST_ROLES
from desktop.domain.steps import Step
from desktop.domain.text import fold, only_alphanumerics, only_digits
from desktop.domain.workflow import StateMachine, Transition
from desktop.domain.problems import Problem

# --- The format (Art. 5, VIII: vehicles, their owners and the drivers who will serve) ------------------------

# key -> the column's name as published (pinned: the office's other tools and the platforms rely on it).
LIST_COLUMNS: dict[str, str] = {
    "driver_cpf": "CPF do condutor",
    "driver_name": "Nome do condutor",
    "cnh": "CNH",
    "plate": "Placa",
    "renavam": "RENAVAM",
    "owner_document": "CPF/CNPJ do proprietário",
    "owner_name": "Nome do proprietário",
}
NAME_MAX = 200  # the width of the name columns in the register


def column_key(header: str | None) -> str:
    """The comparison form of a header: no case, no accents, no repeated or surrounding spaces."""
    return fold((header or "").replace("\ufeff", ""))


_BY_KEY = {column_key(name): key for key, name in LIST_COLUMNS.items()}


@dataclass(frozen=True, slots=True)
class ColumnMatch:
    positions: Mapping[str, int]       # LIST_COLUMNS key -> index in the header row
    ignored: tuple[str, ...]           # headers that are none of the pinned columns, as written
    missing: tuple[str, ...]           # pinned column names absent from the header
    repeated: tuple[str, ...]          # pinned column names present more than once

    @property
    def ok(self) -> bool:
        return not self.missing and not self.repeated


def match_columns(headers: Sequence[str | None]) -> ColumnMatch:
    """Find the pinned columns in a header row, in any order, without regard to case or accents."""
    positions: dict[str, int] = {}
    ignored: list[str] = []
    repeated: list[str] = []
    for index, header in enumerate(headers):
        key = _BY_KEY.get(column_key(header))
        if key is None:
            text = (header or "").strip()
            if text:
                ignored.append(text)
        elif key in positions:
            if LIST_COLUMNS[key] not in repeated:
                repeated.append(LIST_COLUMNS[key])
        else:
            positions[key] = index
    missing = tuple(name for key, name in LIST_COLUMNS.items() if key not in positions)
    return ColumnMatch(positions, tuple(ignored), missing, tuple(repeated))


# --- One line ------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ListLine:
    """One driver–vehicle pair of a list, in normal form (digits, plates without hyphen)."""

    line: int                 # the line of the file (the header is line 1)
    driver_cpf: str
    driver_name: str
    cnh: str
    plate: str
    renavam: str
    owner_document: str
    owner_name: str

    @property
    def pair(self) -> tuple[str, str]:
        """The key of the pair: plates compare in Mercosul form (ABC-1234 is ABC1C34), CPFs by digits."""
        return plate_key(self.plate), self.driver_cpf


@dataclass(frozen=True, slots=True)
class LineError:
    line: int
    column: str               # the pinned column's name ("" for the whole line)
    message: str

    def __str__(self) -> str:
        where = f"linha {self.line}, coluna {self.column}" if self.column else f"linha {self.line}"
        return f"{where}: {self.message}"


# The validators are pure and their Problems immutable: within a list the same CPF comes back (driver and owner,
# a driver with two vehicles), so each distinct value is checked once.
_check_cpf = lru_cache(maxsize=65536)(validate_cpf)
_check_cnpj = lru_cache(maxsize=16384)(validate_cnpj)
_check_cnh = lru_cache(maxsize=65536)(validate_cnh)
_check_plate = lru_cache(maxsize=65536)(validate_plate)
_check_renavam = lru_cache(maxsize=65536)(validate_renavam)
# The Mercosul form of a plate, the key plates compare by (ABC-1234 is ABC1C34).
plate_key = lru_cache(maxsize=131072)(mercosul_equivalent)
_cpf_text = lru_cache(maxsize=131072)(format_cpf)
_plate_text = lru_cache(maxsize=131072)(format_plate)


def _owner_problem(value: str) -> str | None:
    text = value.strip()
    if not text:
        return "Informe o CPF ou o CNPJ do proprietário."
    if len(only_alphanumerics(text)) == 11 and only_digits(text) == only_alphanumerics(text):
        problem = _check_cpf(text, "owner_document")
    elif len(only_alphanumerics(text)) == 14:
        problem = _check_cnpj(text, "owner_document")
    else:
        return f"«{text[:40]}» não é um CPF (11 dígitos) nem um CNPJ (14 caracteres)."
    return problem.message if problem else None


def validate_line(line: int, cells: Mapping[str, str]) -> tuple[ListLine | None, list[LineError]]:
    """Every problem of one line (Art. 5, VIII: the list must identify driver, vehicle and owner), or the line in
    normal form. `cells` maps the keys of LIST_COLUMNS to the text of the cells (missing keys count as empty)."""
    text = {key: str(cells.get(key) or "").strip() for key in LIST_COLUMNS}
    errors: list[LineError] = []

    def add(key: str, message: str | None) -> None:
        if message:
            errors.append(LineError(line, LIST_COLUMNS[key], message))

    for key, check in (("driver_cpf", _check_cpf), ("cnh", _check_cnh), ("plate", _check_plate),
                       ("renavam", _check_renavam)):
        problem = check(text[key], key)
        add(key, problem.message if problem else None)
    for key, what in (("driver_name", "o nome do condutor"), ("owner_name", "o nome do proprietário")):
        if not text[key]:
            add(key, f"Informe {what}.")
        elif len(text[key]) > NAME_MAX:
            add(key, f"O nome tem {len(text[key])} caracteres; o máximo é {NAME_MAX}.")
    add("owner_document", _owner_problem(text["owner_document"]))
    # Errors come in the order of the published columns, so a reader finds them left to right.
    order = list(LIST_COLUMNS.values())
    errors.sort(key=lambda e: order.index(e.column))
    if errors:
        return None, errors
    owner = text["owner_document"]
    return ListLine(
        line=line, driver_cpf=only_digits(text["driver_cpf"]), driver_name=" ".join(text["driver_name"].split()),
        cnh=only_digits(text["cnh"]), plate=normalize_plate(text["plate"]),
        renavam=normalize_renavam(text["renavam"]),
        owner_document=normalize_cnpj(owner) if len(only_alphanumerics(owner)) == 14 else only_digits(owner),
        owner_name=" ".join(text["owner_name"].split()),
    ), []


# --- A whole list at once (issue 14: 20,000 lines in well under the 3 s budget) ------------------------------
#
# `validate_lines` gives exactly what `validate_line` gives line by line, but works column by column: each
# DISTINCT cell value of a column is checked once, and the common well-formed shapes (11 bare digits, a plate
# without mask) are accepted by a check-digit routine written here for speed; anything it does not accept goes
# through the register's own validators (validate-docbr), which give the message. So the fast path can only
# accept what those validators accept (tests/unit/test_platform_list_rules.py proves it on random values).

_ELEVEN_DIGITS = re.compile(r"[0-9]{11}")
_PLAIN_PLATE = re.compile(r"[A-Z]{3}[0-9][A-Z0-9][0-9]{2}")   # old ABC1234 or Mercosul ABC1D23


def _cpf_cell(text: str, key: str) -> tuple[str, str | None]:
    if _ELEVEN_DIGITS.fullmatch(text) and cpf_digits_ok(text):
        return text, None
    problem = _check_cpf(text, key)
    return only_digits(text), problem.message if problem else None


def _cnh_cell(text: str) -> tuple[str, str | None]:
    if _ELEVEN_DIGITS.fullmatch(text) and cnh_digits_ok(text):
        return text, None
    problem = _check_cnh(text, "cnh")
    return only_digits(text), problem.message if problem else None


def _plate_cell(text: str) -> tuple[str, str | None]:
    if _PLAIN_PLATE.fullmatch(text):       # ABC1234 or ABC1D23, upper case, no hyphen: valid as it is
        return text, None
    problem = _check_plate(text, "plate")
    return normalize_plate(text), problem.message if problem else None


def _renavam_cell(text: str) -> tuple[str, str | None]:
    if _ELEVEN_DIGITS.fullmatch(text) and renavam_digits_ok(text):
        return text, None
    problem = _check_renavam(text, "renavam")
    return normalize_renavam(text), problem.message if problem else None


def _name_cell(text: str, what: str) -> tuple[str, str | None]:
    if not text:
        return "", f"Informe {what}."
    if len(text) > NAME_MAX:
        return text, f"O nome tem {len(text)} caracteres; o máximo é {NAME_MAX}."
    return " ".join(text.split()), None


def _owner_cell(text: str) -> tuple[str, str | None]:
    if _ELEVEN_DIGITS.fullmatch(text) and cpf_digits_ok(text):
        return text, None
    message = _owner_problem(text)
    normal = normalize_cnpj(text) if len(only_alphanumerics(text)) == 14 else only_digits(text)
    return normal, message


_CELLS = {
    "driver_cpf": lambda text: _cpf_cell(text, "driver_cpf"),
    "driver_name": lambda text: _name_cell(text, "o nome do condutor"),
    "cnh": _cnh_cell,
    "plate": _plate_cell,
    "renavam": _renavam_cell,
    "owner_document": _owner_cell,
    "owner_name": lambda text: _name_cell(text, "o nome do proprietário"),
}


def _checked_column(key: str, values: Sequence[str]) -> list[tuple[str, str | None]]:
    check = _CELLS[key]
    seen: dict[str, tuple[str, str | None]] = {}
    out = []
    for value in values:
        result = seen.get(value)
        if result is None:
            result = seen[value] = check(str(value or "").strip())
        out.append(result)
    return out


def validate_lines(numbers: Sequence[int], columns: Mapping[str, Sequence[str]]
                   ) -> tuple[list[ListLine], list[LineError]]:
    """`validate_line` for a whole list at once: the same lines and the same errors (per line in the order of the
    published columns). `columns` maps the keys of LIST_COLUMNS to the cells of each line, in the order of
    `numbers` (a missing key counts as empty cells)."""
    size = len(numbers)
    checked = [_checked_column(key, columns.get(key) or [""] * size) for key in LIST_COLUMNS]
    names = list(LIST_COLUMNS.values())
    lines: list[ListLine] = []
    errors: list[LineError] = []
    for i, number in enumerate(numbers):
        cells = [column[i] for column in checked]
        if any(message for _, message in cells):
            errors.extend(LineError(number, names[k], message) for k, (_, message) in enumerate(cells) if message)
            continue
        lines.append(ListLine(number, *(normal for normal, _ in cells)))
    return lines, errors


def duplicate_errors(lines: Iterable[ListLine]) -> list[LineError]:
    """A pair listed twice in the same file (one row per driver–vehicle pair, Art. 5, VIII)."""
    first: dict[tuple[str, str], int] = {}
    errors: list[LineError] = []
    for item in lines:
        seen = first.setdefault(item.pair, item.line)
        if seen != item.line:
            errors.append(LineError(item.line, LIST_COLUMNS["plate"],
                                    f"O par condutor {format_cpf(item.driver_cpf)} e placa "
                                    f"{format_plate(item.plate)} já está na linha {seen}."))
    return errors


# --- Due dates (Art. 5, VIII: every 60 days) -----------------------------------------------------------------

LIST_INTERVAL_DAYS = law.PLATFORM_LIST_INTERVAL_DAYS  # Art. 5, VIII


def next_list_due(last_delivered_on: date | None, calendar: BusinessCalendar,
                  registered_on: date | None = None) -> date | None:
    """The day the next list is due: 60 days after the last one delivered (Art. 5, VIII), moved to the next
    business day when it falls on a day off. A platform that never delivered owes its first list 60 days after its
    municipal registration (Art. 6); with neither date there is no due date yet."""
    start = last_delivered_on or registered_on
    return platform_list_due(start, calendar) if start else None


def is_list_overdue(due_on: date | None, today: date) -> bool:
    """Art. 5, VIII: the list not delivered by its due day is overdue from the day after."""
    return due_on is not None and today > due_on


def delivered_late(delivered_on: date, due_on: date | None) -> bool:
    return due_on is not None and delivered_on > due_on


class ListDelivery(StrEnum):
    """Where a platform stands with its 60-day list (Art. 5, VIII), computed from the last list and the
    registration (Art. 6), never stored."""

    NOT_DUE = "not_due"      # neither registered nor delivered: no list owed yet
    ON_TIME = "on_time"
    OVERDUE = "overdue"      # the due day passed without a list (from the day after)

    @property
    def label(self) -> str:
        return _DELIVERY_LABELS[self]


_DELIVERY_LABELS = {ListDelivery.NOT_DUE: "Sem entrega prevista", ListDelivery.ON_TIME: "Em dia",
                    ListDelivery.OVERDUE: "Atrasada"}


def list_delivery(due_on: date | None, today: date) -> ListDelivery:
    """Art. 5, VIII: on time until the due day, overdue from the day after; no due date, nothing owed."""
    if due_on is None:
        return ListDelivery.NOT_DUE
    return ListDelivery.OVERDUE if is_list_overdue(due_on, today) else ListDelivery.ON_TIME


LIST_DELIVERY_MACHINE = StateMachine(
    name="platform_list", label="Lista da plataforma (Art. 5º, VIII)", states=ListDelivery,
    initial=ListDelivery.NOT_DUE,
    transitions=(
        Transition(ListDelivery.NOT_DUE, ListDelivery.ON_TIME, "Inscrição ou primeira lista", "Art. 5, VIII; Art. 6"),
        Transition(ListDelivery.ON_TIME, ListDelivery.OVERDUE, "Prazo de 60 dias vencido", "Art. 5, VIII"),
        Transition(ListDelivery.OVERDUE, ListDelivery.ON_TIME, "Lista entregue", "Art. 5, VIII"),
    ),
)
"""A list delivered starts the next 60 days (on time); the due day passing makes it overdue; a list delivered
after it puts the platform on time again. The moves happen by the calendar and the imports, not by a button."""


@dataclass(frozen=True, slots=True)
class LateListFacts:
    code: str | None       # the decree's code offered for a late list (late_list_code), if the catalogue has one


def _decree_code(facts: LateListFacts | None) -> str | None:
    if facts is not None and not facts.code:
        return "o catálogo não tem código do decreto que cite o Art. 5º, VIII (a lei não tipifica multa)"
    return None


PLATFORM_LIST_STEPS = (
    Step("import", "Importar lista…", "Art. 5, VIII", roles=frozenset(PLATFORM_LIST_ROLES.receive)),
    Step("late_notice", "Emitir notificação para regularização", "Art. 24, II, a",
         frozenset({ListDelivery.OVERDUE}), frozenset(DOCUMENT_ROLES.notice)),
    Step("late_auto", "Auto pelo código do decreto…", "Art. 5, VIII", frozenset({ListDelivery.OVERDUE}),
         frozenset(ENFORCEMENT_ROLES.draw_up), _decree_code),
)
"""What can be done about a platform's lists; its facts are `LateListFacts`."""


# The law types no fine for a late list (Art. 5, VIII has no penalty of its own in Art. 26-27): the measure is the
# notice to regularize (Art. 24, II, a). A code that the gestor adds to the catalogue for the regulating decree
# and whose article cites Art. 5, VIII is the one offered for a late list.
_CITES_ART5_VIII = re.compile(r"\bart(?:igo)?\.?\s*5\s*(?:º|°|o)?\s*,?\s*(?:inciso\s*)?VIII\b", re.IGNORECASE)


def cites_late_list(article: str | None) -> bool:
    """Whether a catalogue code's legal basis cites Art. 5, VIII (the 60-day list)."""
    return bool(_CITES_ART5_VIII.search(article or ""))


def late_list_code(codes: Iterable[tuple[str, str | None]]) -> str | None:
    """The catalogue code (code, article) offered for a late list: the first whose article cites Art. 5, VIII;
    None when the catalogue has none (then only the Art. 24, II, a notice applies)."""
    for code, article in codes:
        if cites_late_list(article):
            return code
    return None


# --- Data requests (Art. 4) ----------------------------------------------------------------------------------

_CITES_ART4 = re.compile(r"\bart(?:igo)?\.?\s*4\s*(?:º|°|o)?(?![0-9])", re.IGNORECASE)


def cites_data_request(article: str | None) -> bool:
    """Whether a catalogue code's legal basis cites Art. 4 (the data the platform shares when requested)."""
    return bool(_CITES_ART4.search(article or ""))


def late_request_code(codes: Iterable[tuple[str, str | None]]) -> str | None:
    """The catalogue code (code, article) offered for a data request answered late or not at all (Art. 4, §2; issue
    24 item 12): the first whose article cites Art. 4. The law types no fine for it: only a code of the regulating
    decree (Art. 22: "penalidades previstas nesta Lei, no Código Tributário Municipal e, no Decreto
    regulamentador") can be offered; None when the catalogue has none."""
    for code, article in codes:
        if cites_data_request(article):
            return code
    return None

def data_request_due(investigation: bool, notified_at: datetime | None) -> datetime | None:
    """Art. 4, §2: for an investigation the platform has 24 hours from the date-time it was notified; other
    requests have no term in the law."""
    return platform_data_due(notified_at) if (investigation and notified_at is not None) else None


def data_request_late(due_at: datetime | None, answered_at: datetime | None, now: datetime) -> bool:
    """Art. 4, §2: answered after the 24 hours, or still unanswered when they ran out."""
    if due_at is None:
        return False
    return (answered_at or now) > due_at


def countdown_text(due_at: datetime | None, answered_at: datetime | None, now: datetime) -> str:
    """What the screen shows of the 24 hours of Art. 4, §2: the time left, or how late."""
    if due_at is None:
        return "sem prazo legal"
    if answered_at is not None:
        return "respondida com atraso" if answered_at > due_at else "respondida no prazo"
    seconds = int((due_at - now).total_seconds())
    left = abs(seconds)
    hours, rest = divmod(left, 3600)
    minutes, secs = divmod(rest, 60)
    clock = f"{hours:02d}:{minutes:02d}:{secs:02d}"
    return f"faltam {clock}" if seconds >= 0 else f"vencida há {clock}"   # a requisição: feminine (issue 27)


# --- Reconciliation (Art. 3, 8, 13 XVIII–XIX, 27) ------------------------------------------------------------

class Situation(StrEnum):
    """What a line of a list shows against the register. The labels are pinned (the reconciliation export)."""

    NO_AUTHORIZATION = "no_auth"
    PAIR_MISMATCH = "pair"
    OWNER_MISMATCH = "owner"
    UNKNOWN_VEHICLE = "no_vehicle"
    UNKNOWN_DRIVER = "no_driver"
    NOT_LISTED = "not_listed"
    CNH_MISMATCH = "cnh"
    RENAVAM_MISMATCH = "renavam"

    @property
    def label(self) -> str:
        return _SITUATIONS[self][0]

    @property
    def article(self) -> str:
        return _SITUATIONS[self][1]


_SITUATIONS = {
    # Art. 3 and Art. 27: serving without authorization (a request in analysis or a refused one is none).
    Situation.NO_AUTHORIZATION: ("sem autorização", "Art. 3; Art. 27"),
    # Art. 8: one vehicle per driver; Art. 13, XIX: drive only the authorized vehicle.
    Situation.PAIR_MISMATCH: ("par diferente da autorização", "Art. 8; Art. 13, XIX"),
    # Art. 13, XVIII: a change of the vehicle's data (its owner) not communicated.
    Situation.OWNER_MISMATCH: ("proprietário diferente", "Art. 13, XVIII"),
    # Art. 3 and Art. 27: a vehicle or a driver the register does not know has no authorization either.
    Situation.UNKNOWN_VEHICLE: ("veículo desconhecido", "Art. 3; Art. 27"),
    Situation.UNKNOWN_DRIVER: ("condutor desconhecido", "Art. 3; Art. 27"),
    # Art. 5, VIII: an authorized driver that no platform listed.
    Situation.NOT_LISTED: ("autorizado fora das listas", "Art. 5, VIII"),
    # Art. 5, VIII: the list identifies the driver and the vehicle; a CNH or a RENAVAM other than the register's
    # is a change not communicated (Art. 13, XVIII) or a wrong list — compared only where the register has them.
    Situation.CNH_MISMATCH: ("CNH diferente do cadastro", "Art. 5, VIII; Art. 13, XVIII"),
    Situation.RENAVAM_MISMATCH: ("RENAVAM diferente do cadastro", "Art. 5, VIII; Art. 13, XVIII"),
}
SITUATION_LABELS = {s.value: s.label for s in Situation}


@dataclass(frozen=True, slots=True)
class KnownDriver:
    id: int
    cpf: str
    name: str
    authorized_plate: str | None     # the plate of his ACTIVE authorization (Mercosul form), if any
    cnh: str | None = None           # the CNH registration number in the register, when it has one


@dataclass(frozen=True, slots=True)
class KnownVehicle:
    id: int
    plate: str                       # Mercosul form
    owner_document: str | None       # who the register says owns it (CPF/CNPJ), None when unknown
    authorized_cpf: str | None       # the driver of its ACTIVE authorization, if any
    renavam: str | None = None       # the RENAVAM in the register, when it has one


@dataclass(frozen=True, slots=True)
class Finding:
    situation: Situation
    detail: str

    @property
    def label(self) -> str:
        return self.situation.label

    @property
    def article(self) -> str:
        return self.situation.article


@dataclass(frozen=True, slots=True)
class LineResult:
    driver_id: int | None
    vehicle_id: int | None
    findings: tuple[Finding, ...] = field(default_factory=tuple)

    @property
    def code(self) -> str | None:
        """The stored form (platform_list_rows.discrepancy): the situations' codes joined by commas."""
        return ",".join(f.situation.value for f in self.findings) or None

    @property
    def details(self) -> str | None:
        """The stored form of the findings' details (platform_list_rows.discrepancy_detail), one per line."""
        return "\n".join(" ".join(f.detail.split()) for f in self.findings) or None


def stored_findings(code: str | None, details: str | None) -> tuple[Finding, ...]:
    """The findings kept on a row at import (code and details), read back without the register."""
    situations = findings_of(code)
    texts = (details or "").split("\n")
    return tuple(Finding(s, texts[i] if i < len(texts) else "") for i, s in enumerate(situations))


def reconcile_line(cpf: str, plate: str, owner_document: str | None, driver: KnownDriver | None,
                   vehicle: KnownVehicle | None, cnh: str | None = None, renavam: str | None = None) -> LineResult:
    """Everything one line shows against the register (the fiscal decides what to do with it). The listed CNH
    and RENAVAM are compared only where both the list and the register have them."""
    key = plate_key(plate)
    found: list[Finding] = []
    if driver is None:
        found.append(Finding(Situation.UNKNOWN_DRIVER,
                             f"O CPF {_cpf_text(cpf)} não está no cadastro de condutores."))
    if vehicle is None:
        found.append(Finding(Situation.UNKNOWN_VEHICLE,
                             f"A placa {_plate_text(plate)} não está no cadastro de veículos."))
    driver_plate = driver.authorized_plate if driver else None
    vehicle_cpf = vehicle.authorized_cpf if vehicle else None
    if driver_plate != key:
        if driver_plate or vehicle_cpf:
            parts = []
            if driver_plate:
                parts.append(f"o condutor está autorizado com a placa {_plate_text(driver_plate)}")
            if vehicle_cpf:
                parts.append(f"a placa está autorizada para o condutor {_cpf_text(vehicle_cpf)}")
            found.append(Finding(Situation.PAIR_MISMATCH, "; ".join(parts).capitalize() + "."))
        elif driver is not None or vehicle is not None:
            who = []
            if driver is not None:
                who.append(f"o condutor {_cpf_text(cpf)}")
            if vehicle is not None:
                who.append(f"o veículo {_plate_text(plate)}")
            found.append(Finding(Situation.NO_AUTHORIZATION,
                                 f"Sem autorização ativa para {' nem para '.join(who)} "
                                 "(pedido em análise ou indeferido não é autorização)."))
    if vehicle is not None and vehicle.owner_document and owner_document \
            and vehicle.owner_document != owner_document:
        if only_alphanumerics(vehicle.owner_document) != only_alphanumerics(owner_document):
            found.append(Finding(Situation.OWNER_MISMATCH,
                                 f"A lista diz proprietário {owner_document}; o cadastro diz "
                                 f"{vehicle.owner_document} (mudança não comunicada?)."))
    if driver is not None and driver.cnh and cnh and only_digits(driver.cnh) != only_digits(cnh):
        found.append(Finding(Situation.CNH_MISMATCH,
                             f"A lista diz CNH {only_digits(cnh)}; o cadastro do condutor {_cpf_text(cpf)} diz "
                             f"{only_digits(driver.cnh)}."))
    if vehicle is not None and vehicle.renavam and renavam \
            and normalize_renavam(vehicle.renavam) != normalize_renavam(renavam):
        found.append(Finding(Situation.RENAVAM_MISMATCH,
                             f"A lista diz RENAVAM {normalize_renavam(renavam)}; o cadastro da placa "
                             f"{_plate_text(plate)} diz {normalize_renavam(vehicle.renavam)}."))
    return LineResult(driver.id if driver else None, vehicle.id if vehicle else None, tuple(found))


def not_listed(authorized: Iterable[KnownDriver], listed_cpfs: set[str]) -> list[Finding]:
    """Authorized drivers on none of the platforms' current lists (Art. 5, VIII)."""
    return [Finding(Situation.NOT_LISTED,
                    f"{d.name} ({_cpf_text(d.cpf)}), autorizado com a placa {_plate_text(d.authorized_plate)}, "
                    "não está na lista atual de nenhuma plataforma.")
            for d in authorized if d.authorized_plate and d.cpf not in listed_cpfs]


def findings_of(code: str | None) -> tuple[Situation, ...]:
    """The situations of a stored code (see LineResult.code); unknown codes are skipped."""
    out = []
    for part in (code or "").split(","):
        try:
            out.append(Situation(part))
        except ValueError:
            continue
    return tuple(out)


# Art. 4, §1: the data the Município may request (the flags of desktop.models.platforms.DataRequest).
DATA_FIELDS: dict[str, tuple[str, str]] = {
    "want_origin_destination": ("I", "origem e destino da viagem"),
    "want_time_distance": ("II", "tempo e distância da viagem"),
    "want_route": ("III", "mapa do trajeto da viagem"),
    "want_driver": ("IV", "identificação do condutor"),
    "want_fare": ("V", "composição do valor pago"),
    "want_rating": ("VI", "avaliação do serviço pelo usuário"),
}


def left_out_fields(wanted: Mapping[str, bool]) -> tuple[str, ...]:
    """The numerals of Art. 4 §1 I-VI a request does not ask for (in the law's order)."""
    return tuple(numeral for key, (numeral, _) in DATA_FIELDS.items() if not wanted.get(key))


def narrowing_problems(wanted: Mapping[str, bool], reason: str | None) -> list[Problem]:
    """A request asks for all six data of Art. 4 §1 I-VI by default; one that leaves any out says why, in writing
    (issue 24 item 12: "default to all six; narrowing needs a written reason"). Checked when the request is made."""
    left_out = left_out_fields(wanted)
    if left_out and not (reason or "").strip():
        return [Problem("narrowing_reason", f"Explique por que a requisição não pede o(s) dado(s) {', '.join(left_out)} "
                        "do §1: por padrão são pedidos os seis (I a VI).", "Art. 4, §1")]
    return []


def validate_data_request(justification: str | None, period_start: date | None, period_end: date | None,
                          wanted: Mapping[str, bool], other_data: str | None, investigation: bool,
                          notified_at: datetime | None, now: datetime) -> list:
    """Every problem of a data request at once (Art. 4): justified (caput), a period, at least one field of §1
    (VII, other data, described in words); the notification date-time, when given, is not in the future."""

    problems = []
    if not (justification or "").strip():
        problems.append(Problem("justification", "Informe a justificativa da requisição.", "Art. 4, caput"))
    if period_start is None:
        problems.append(Problem("period_start", "Informe o início do período dos dados."))
    if period_end is None:
        problems.append(Problem("period_end", "Informe o fim do período dos dados."))
    if period_start and period_end and period_end < period_start:
        problems.append(Problem("period_end", "O fim do período não pode ser anterior ao início."))
    if not any(wanted.get(k) for k in DATA_FIELDS) and not (other_data or "").strip():
        problems.append(Problem("fields", "Marque ao menos um dos dados do §1 (I a VII).", "Art. 4, §1"))
    if notified_at is not None:
        if notified_at.tzinfo is None:
            problems.append(Problem("notified_at", "A data-hora da notificação precisa do fuso horário."))
        elif notified_at > now:
            problems.append(Problem("notified_at", "A notificação não pode estar no futuro."))
    return problems
