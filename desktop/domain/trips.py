"""Trip data the platforms share with the Município (Art. 4), as pure rules:

- the pinned CSV columns and how a header is matched (any order, no case, no accents);
- which columns or fields identify a passenger and are dropped while reading (Art. 4 caput: "garantida a
  privacidade e a confidencialidade dos dados pessoais dos usuários"; §2 again for the 24-hour requests);
- the hail type (`Tipo de chamada`: aplicativo | via pública; MDS 2.x `hail_type`): a street hail is the boarding
  forbidden by Art. 7 and typified by Art. 26, IV;
- what a trip shows against the register at the moment it started: no live authorization (Art. 27), a driver with
  a vehicle not his (Art. 8: one vehicle per driver; Art. 13, XIX), a vehicle impeded after a failed inspection
  (Art. 16, §2; Art. 26, II) or an authorization suspended (Art. 24, parágrafo único: the driver and the vehicle
  are kept off the service; serving anyway is service contrary to the Law, Art. 27);
- open statistics with k-anonymity (MDS Reports: a count below 10 is published as −1);
- the ISSQN class whose monthly base is nearest to the fares reported (Art. 11, §1: estimated base);
- the retention cut-off of trip data (a dated parameter, default 24 months).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum

from desktop.domain.dates import add_months_clamped, parse_month  # noqa: F401 — parse_month: the trips' name
from desktop.domain.problems import Problem
from desktop.domain.text import fold
from desktop.domain.workflow import AutoStatus
import math

# ------------------------------------------------------------------------------------------------ columns
CSV_COLUMNS: dict[str, str] = {
    "external_id": "ID da viagem",
    "plate": "Placa",
    "driver_cpf": "CPF do condutor",
    "started_at": "Início",
    "ended_at": "Fim",
    "origin_lat": "Origem lat",
    "origin_lon": "Origem lon",
    "destination_lat": "Destino lat",
    "destination_lon": "Destino lon",
    "distance_m": "Distância (m)",
    "duration_s": "Duração (s)",
    "fare_total": "Valor total (R$)",
    "fare_base": "Tarifa base (R$)",
    "fare_distance": "Valor por distância (R$)",
    "fare_time": "Valor por tempo (R$)",
    "fare_platform": "Taxa da plataforma (R$)",
    "fare_other": "Outros (R$)",
    "rating": "Avaliação",
    "hail": "Tipo de chamada",
}
REQUIRED_COLUMNS = ("external_id", "plate", "driver_cpf", "started_at", "fare_total", "hail")
ROUTE_COLUMNS: dict[str, str] = {"external_id": "ID da viagem", "at": "Momento", "lat": "Lat", "lon": "Lon"}
FARE_COLUMNS = ("fare_total", "fare_base", "fare_distance", "fare_time", "fare_platform", "fare_other")

FARES_EXPORT_HEADERS = ("Competência", "Placa", "CPF do condutor", "Viagens", "Distância (km)", "Valor total (R$)",
                        "Avaliação média")


def header_key(name: str | None) -> str:
    """The comparison form of a header: no case, no accents, no BOM, single spaces."""
    return fold((name or "").replace("\ufeff", "").replace("_", " "))


_CSV_BY_KEY = {header_key(v): k for k, v in CSV_COLUMNS.items()}
_ROUTE_BY_KEY = {header_key(v): k for k, v in ROUTE_COLUMNS.items()}

# Words that make a column or field identify a passenger (Art. 4 caput), in Portuguese or English. A header is
# split in words (non-letters are separators) and compared without case or accents.
_PASSENGER_WORDS = frozenset({
    "passageiro", "passageira", "passageiros", "passenger", "passengers", "rider", "riders", "usuario", "usuaria",
    "user", "cliente", "customer", "nome", "name", "cpf", "telefone", "fone", "celular", "phone", "mobile",
    "email", "mail", "rg", "documento", "document", "nascimento", "birth", "endereco", "address",
})
# Fields that carry one of the words but identify nobody (MDS 2.x `trip_attributes.passenger_count`).
_NOT_PERSONAL = frozenset({"passenger count", "passengers count", "numero de passageiros", "quantidade de passageiros"})
_WORD = re.compile(r"[a-z0-9]+")


def is_passenger_field(name: str | None) -> bool:
    """Whether a column or field name (not one of the pinned columns) identifies a passenger (Art. 4 caput)."""
    key = header_key(name).replace("-", "")
    if key in _NOT_PERSONAL or key.replace(" ", "_") == "passenger_count":
        return False
    words = _WORD.findall(key.replace("e mail", "email"))
    return any(w in _PASSENGER_WORDS for w in words)


_DRIVER_WORDS = frozenset({"condutor", "condutora", "motorista", "driver", "veiculo", "vehicle", "placa", "plate"})
_PASSENGER_ONLY_WORDS = frozenset({"passageiro", "passageira", "passageiros", "passenger", "passengers", "rider",
                                   "riders", "usuario", "usuaria", "user", "cliente", "customer"})


def answer_column_dropped(name: str | None) -> bool:
    """Whether a column (or field) of a platform's answer to a data request identifies a passenger and is dropped
    before the answer is stored (Art. 4 caput: "garantida a privacidade e a confidencialidade dos dados pessoais
    dos usuários"; SPEC §3: passengers' identity is never kept — "not in the stored answer to a data request";
    issue 24 item 11). The pinned trip columns are kept ("CPF do condutor"), and so is a column that names the
    driver or the vehicle and no passenger ("Nome do condutor", "Telefone do motorista"): Art. 4 §1 asks for the
    driver's data. Anything else with a passenger's word ("Nome do passageiro", "CPF", "Telefone") is dropped."""
    key = header_key(name)
    if key in _CSV_BY_KEY or key in _ROUTE_BY_KEY:
        return False
    if not is_passenger_field(name):
        return False
    words = set(_WORD.findall(key.replace("-", "").replace("e mail", "email")))
    return not (words & _DRIVER_WORDS and not words & _PASSENGER_ONLY_WORDS)


@dataclass(frozen=True, slots=True)
class HeaderMatch:
    positions: dict[str, int]        # CSV_COLUMNS key -> index in the header
    dropped: tuple[str, ...]         # passenger columns, as written (never read)
    ignored: tuple[str, ...]         # other columns, as written (never read)
    missing: tuple[str, ...]         # pinned names absent
    repeated: tuple[str, ...]        # pinned names present twice

    @property
    def ok(self) -> bool:
        return not self.missing and not self.repeated


def match_header(headers: Sequence[str | None], columns: dict[str, str] | None = None,
                 required: Iterable[str] | None = None) -> HeaderMatch:
    """Find the pinned columns in a header row; the rest is dropped (passenger) or ignored."""
    columns = CSV_COLUMNS if columns is None else columns
    by_key = _CSV_BY_KEY if columns is CSV_COLUMNS else (
        _ROUTE_BY_KEY if columns is ROUTE_COLUMNS else {header_key(v): k for k, v in columns.items()})
    required = tuple(REQUIRED_COLUMNS if required is None and columns is CSV_COLUMNS else
                     (required if required is not None else columns))
    positions: dict[str, int] = {}
    dropped, ignored, repeated = [], [], []
    for i, raw in enumerate(headers):
        key = by_key.get(header_key(raw))
        if key is None:
            if not (raw or "").strip():
                continue
            (dropped if is_passenger_field(raw) else ignored).append(str(raw).strip())
        elif key in positions:
            repeated.append(columns[key])
        else:
            positions[key] = i
    missing = tuple(columns[k] for k in required if k not in positions)
    return HeaderMatch(positions, tuple(dropped), tuple(ignored), missing, tuple(repeated))


# ------------------------------------------------------------------------------------------------ hail type
STREET_HAIL = "street_hail"
APP = "app"
MDS_HAIL_TYPES = ("street_hail", "phone_dispatch", "phone", "text", "app")
_HAIL_WORDS = {"aplicativo": APP, "app": APP, "via publica": STREET_HAIL, "street hail": STREET_HAIL}


def hail_type_of(text: str | None) -> str | None:
    """`Tipo de chamada` (aplicativo | via pública) or an MDS hail_type → the stored MDS value; None if unknown."""
    key = header_key(text)
    if key in _HAIL_WORDS:
        return _HAIL_WORDS[key]
    raw = (text or "").strip().lower()
    return raw if raw in MDS_HAIL_TYPES else None


def hail_key_map() -> dict[str, str]:
    """The folded words accepted in `Tipo de chamada`, for vectorised readers."""
    return dict(_HAIL_WORDS)


# ------------------------------------------------------------------------------------------------ infractions
LIVE = "active"
IMPEDED = "impeded"
SUSPENDED = "suspended"


class TripInfraction(StrEnum):
    NO_AUTHORIZATION = "no_authorization"
    NOT_HIS_VEHICLE = "not_his_vehicle"
    IMPEDED = "impeded"
    SUSPENDED = "suspended"
    STREET_HAIL = "street_hail"


@dataclass(frozen=True, slots=True)
class InfractionRule:
    kind: TripInfraction
    code: str                 # the catalogue code the auto is drawn up with (domain.penalties)
    art13_item: str | None
    article: str
    label: str


RULES: dict[TripInfraction, InfractionRule] = {r.kind: r for r in (
    InfractionRule(TripInfraction.NO_AUTHORIZATION, "ART27", None, "Art. 27",
                   "Viagem sem autorização vigente do condutor (transporte ilegal)"),
    InfractionRule(TripInfraction.NOT_HIS_VEHICLE, "ART26-III", "XIX", "Art. 8; Art. 13, XIX",
                   "Condutor em veículo que não é o da sua autorização"),
    InfractionRule(TripInfraction.IMPEDED, "ART26-II", None, "Art. 16, §2; Art. 26, II",
                   "Viagem durante o impedimento após reprovação na vistoria"),
    InfractionRule(TripInfraction.SUSPENDED, "ART27", None, "Art. 24, parágrafo único; Art. 27",
                   "Viagem durante a suspensão da autorização"),
    InfractionRule(TripInfraction.STREET_HAIL, "ART26-IV", None, "Art. 7; Art. 26, IV",
                   "Embarque na via pública, sem intermediação da plataforma"),
)}


@dataclass(frozen=True, slots=True)
class AuthorizationSpan:
    """An authorization's statuses over time: `changes` is ((moment, status), ...) in order of moment."""

    authorization_id: int
    driver_id: int
    vehicle_id: int
    changes: tuple[tuple[datetime, str], ...]

    def status_at(self, moment: datetime) -> str | None:
        status = None
        for at, value in self.changes:
            if at > moment:
                break
            status = value
        return status


@dataclass(frozen=True, slots=True)
class TripFacts:
    trip_id: int
    started_at: datetime
    hail_type: str | None
    driver_id: int | None     # the register's driver with the trip's CPF (None: not registered)
    vehicle_id: int | None    # the register's vehicle with the trip's plate


def trip_infractions(trip: TripFacts, spans: Iterable[AuthorizationSpan]) -> tuple[InfractionRule, ...]:
    """What the trip shows at the moment it started (see the module text for each article)."""
    found: list[InfractionRule] = []
    if trip.hail_type == STREET_HAIL:
        found.append(RULES[TripInfraction.STREET_HAIL])
    mine = [s for s in spans if trip.driver_id is not None and s.driver_id == trip.driver_id]
    at = trip.started_at
    pair = [s.status_at(at) for s in mine if trip.vehicle_id is not None and s.vehicle_id == trip.vehicle_id]
    if LIVE in pair:
        return tuple(found)
    if IMPEDED in pair:
        return tuple(found + [RULES[TripInfraction.IMPEDED]])
    if SUSPENDED in pair:
        return tuple(found + [RULES[TripInfraction.SUSPENDED]])
    others = [s.status_at(at) for s in mine if s.vehicle_id != trip.vehicle_id]
    if LIVE in others:
        found.append(RULES[TripInfraction.NOT_HIS_VEHICLE])
    elif IMPEDED in others:
        found.append(RULES[TripInfraction.IMPEDED])
    elif SUSPENDED in others:
        found.append(RULES[TripInfraction.SUSPENDED])
    else:
        found.append(RULES[TripInfraction.NO_AUTHORIZATION])
    return tuple(found)


# ------------------------------------------------------------------------------------------------ one fact, one auto
RELEASED_AUTO_STATUSES: frozenset[AutoStatus] = frozenset({AutoStatus.CANCELLED, AutoStatus.ANNULLED})
"""An auto in these statuses no longer holds its trips as the evidence of a fact (Art. 17: cancelled as drawn up in
error; annulled by a decision): the fact may be drawn up again, correctly. The auto stays as a record, and its
trips stay kept past the retention period with it (issue 15)."""


def holds_evidence(status: AutoStatus | str) -> bool:
    """Whether an auto in `status` holds its trips as the evidence of its fact (issue 24 item 10; Art. 19): every
    status but those of `RELEASED_AUTO_STATUSES`."""
    return AutoStatus(status) not in RELEASED_AUTO_STATUSES


def one_fact_one_auto(trip_autos: Iterable[tuple[int, str, AutoStatus | str]]) -> list[Problem]:
    """The problems of drawing up an auto on trips already the evidence of another: one fact, one auto (issue 24
    item 10; Art. 19 — the auto is the record of the infraction found, drawn up once). `trip_autos` are
    (trip id, auto number, auto status) for the trips asked, in the order the autos were drawn up; each auto that
    still holds one of them (`holds_evidence`) is named once, the first one found for each trip."""
    first: dict[int, str] = {}
    for trip_id, number, status in trip_autos:
        if holds_evidence(status):
            first.setdefault(trip_id, number)
    return [Problem("evidence_trip_ids", f"Esta viagem já é prova do auto nº {number}: um fato, um auto.", "Art. 19")
            for number in dict.fromkeys(first.values())]


# ------------------------------------------------------------------------------------------------ statistics
K_ANONYMITY = 10  # MDS Reports: counts below k are published as -1


def published_count(count: int, k: int = K_ANONYMITY) -> int:
    """A count as the open statistics publish it (k-anonymity: below k → −1)."""
    return int(count) if count >= k else -1


# ------------------------------------------------------------------------------------------------ ISSQN class
@dataclass(frozen=True, slots=True)
class ClassBase:
    code: str
    name: str
    monthly_base: Decimal


def nearest_class(amount: Decimal, classes: Iterable[ClassBase]) -> ClassBase | None:
    """The estimation class (Art. 11, §1) whose monthly base is nearest to the fares reported for a month; a tie
    goes to the lower base (the taxpayer's favour)."""
    best = None
    for c in classes:
        key = (abs(Decimal(c.monthly_base) - Decimal(amount)), Decimal(c.monthly_base))
        if best is None or key < best[0]:
            best = (key, c)
    return best[1] if best else None


# ------------------------------------------------------------------------------------------------ retention
DEFAULT_RETENTION_MONTHS = 24


def retention_cutoff(today: date, months: int) -> date:
    """Trips that started before this day are past the retention period (the same day `months` months ago;
    the 31st becomes the month's last day: `dates.add_months_clamped`)."""
    if months < 1:
        raise ValueError("o prazo de retenção é de pelo menos 1 mês")
    return add_months_clamped(today, -months)


def month_key(d: date | datetime) -> int:
    """YYYYMM of a local date (the `month` column of trip_rows)."""
    return d.year * 100 + d.month


# ------------------------------------------------------------------------------------------------ route geometry
EARTH_RADIUS_M = 6_371_008.8


def project(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """(lat, lon) → (x east, y north) in metres around the points' centre (equirectangular: a trip inside a
    municipality is a few km, where its error is far below a metre). Used by the screen and the printed page."""

    if not points:
        return []
    lat0 = sum(p[0] for p in points) / len(points)
    lon0 = sum(p[1] for p in points) / len(points)
    k = math.cos(math.radians(lat0))
    return [(math.radians(lon - lon0) * EARTH_RADIUS_M * k, math.radians(lat - lat0) * EARTH_RADIUS_M)
            for lat, lon in points]


def route_length_m(points: Sequence[tuple[float, float]]) -> float:

    xy = project(points)
    return sum(math.dist(a, b) for a, b in zip(xy, xy[1:]))


def scale_bar_m(span_m: float) -> int:
    """A round length (1, 2 or 5 × 10ⁿ metres) of about a quarter of the drawing's width."""
    target = max(span_m / 4, 1.0)
    best = 1
    for exponent in range(0, 7):
        for step in (1, 2, 5):
            value = step * 10 ** exponent
            if value <= target:
                best = value
    return best


def scale_label(metres: int) -> str:
    return f"{metres // 1000} km" if metres >= 1000 and metres % 1000 == 0 else f"{metres} m"
