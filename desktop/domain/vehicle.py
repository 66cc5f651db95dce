"""The vehicle's requirements (Art. 2, Art. 8 §1 I and §3, Art. 15) and how long it may serve."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from desktop.domain import law
from desktop.domain.dates import term_end
from desktop.domain.problems import Problem
from desktop.domain.text import same_place


@dataclass(frozen=True, slots=True)
class VehicleFacts:
    """What the CRLV and the inspection say about a vehicle.

    doors: side doors (a hatchback's tailgate, sometimes written "5 portas", is not a passenger door);
    seats: persons the vehicle carries INCLUDING the driver (Art. 2, caput); municipality/uf: where it is
    registered (emplacado), as printed on the CRLV.
    """

    doors: int
    seats: int
    air_conditioning: bool
    manufacture_year: int
    municipality: str
    uf: str


def vehicle_last_service_day(manufacture_year: int) -> date:
    """The last day a vehicle may serve: 31 December of (manufacture year + 10) (Art. 2, §§1-2).

    The age is counted year by year and changes only at the end of the year (§2): a 2016 vehicle serves through
    31/12/2026 and is refused on 01/01/2027.
    """
    return date(manufacture_year + law.VEHICLE_MAX_AGE_YEARS, 12, 31)


def last_service_year_of(year: int) -> int:
    """The manufacture year of the vehicles serving their LAST year in `year` (Art. 2, §§1-2): in 2026 the 2016
    vehicles (they serve through 31/12/2026), for the home dashboard (issue 16)."""
    return year - law.VEHICLE_MAX_AGE_YEARS


class ValidityLimit(StrEnum):
    """What set the end of an authorization (SPEC §3: the screen says which one limited it)."""

    TERM = "term"                # Art. 3, §1: up to 12 months from the payment of the fees
    VEHICLE_AGE = "vehicle_age"  # Art. 2, §§1-2: the vehicle's last service day

    @property
    def label(self) -> str:
        return _LIMIT_LABELS[self]

    @property
    def article(self) -> str:
        return "Art. 3, §1" if self is ValidityLimit.TERM else "Art. 2, §§1-2"


_LIMIT_LABELS = {
    ValidityLimit.TERM: "prazo de 12 meses do pagamento da taxa",
    ValidityLimit.VEHICLE_AGE: "idade máxima do veículo",
}


@dataclass(frozen=True, slots=True)
class ValidUntil:
    """The valid-until date of an authorization and what limited it, with a Portuguese sentence for the screen."""

    valid_until: date
    limited_by: ValidityLimit
    term_end: date
    vehicle_last_day: date

    @property
    def reason(self) -> str:
        if self.limited_by is ValidityLimit.VEHICLE_AGE:
            return (f"Válida até {self.valid_until:%d/%m/%Y}: limitada pela idade máxima do veículo "
                    f"(Art. 2, §§1º e 2º), antes do fim do prazo de 12 meses em {self.term_end:%d/%m/%Y}.")
        return f"Válida até {self.valid_until:%d/%m/%Y}: prazo contado do pagamento da taxa (Art. 3, §1º)."

    @property
    def article(self) -> str:
        return self.limited_by.article


def explain_valid_until(fee_paid_on: date, manufacture_year: int,
                        months: int = law.AUTHORIZATION_MAX_MONTHS) -> ValidUntil:
    """authorization_valid_until with the reason: the term (Art. 3 §1) or the vehicle's age (Art. 2 §§1-2).

    When both end on the same day the term is named (it is the ordinary limit).
    """
    if not 1 <= months <= law.AUTHORIZATION_MAX_MONTHS:
        raise ValueError(f"a autorização vale por até {law.AUTHORIZATION_MAX_MONTHS} meses (Art. 3, §1)")
    by_term = term_end(fee_paid_on, months)
    by_age = vehicle_last_service_day(manufacture_year)
    if by_age < by_term:
        return ValidUntil(by_age, ValidityLimit.VEHICLE_AGE, by_term, by_age)
    return ValidUntil(by_term, ValidityLimit.TERM, by_term, by_age)


def authorization_valid_until(fee_paid_on: date, manufacture_year: int,
                              months: int = law.AUTHORIZATION_MAX_MONTHS) -> date:
    """The earlier of the term from the fee payment (Art. 3 §1; CC art. 132 §3) and the vehicle's last service
    day (Art. 2 §§1-2): an authorization never runs past the vehicle's age (SPEC §3)."""
    return explain_valid_until(fee_paid_on, manufacture_year, months).valid_until


def vehicle_problems(facts: VehicleFacts, on: date, home_municipality: str = law.HOME_MUNICIPALITY,
                     home_uf: str = law.HOME_UF) -> list[Problem]:
    """Every reason the vehicle cannot serve on `on`, all at once (STYLE: validators return problems)."""
    problems: list[Problem] = []
    if facts.seats > law.MAX_PERSONS_INCLUDING_DRIVER:
        problems.append(Problem(
            "seats",
            f"O veículo deve ter capacidade para até {law.MAX_PERSONS_INCLUDING_DRIVER} pessoas, incluindo o "
            f"condutor; informado: {facts.seats}.",
            "Art. 2, caput"))
    elif facts.seats < 2:
        problems.append(Problem("seats", "Informe a lotação do veículo (pessoas, incluindo o condutor)."))
    if facts.doors < law.REQUIRED_DOORS:
        problems.append(Problem(
            "doors", f"O veículo deve ter {law.REQUIRED_DOORS} portas; informado: {facts.doors}.", "Art. 2, §1"))
    if not facts.air_conditioning:
        problems.append(Problem("air_conditioning", "O veículo deve ter ar-condicionado.",
                                "Art. 2, §1; Art. 15, parágrafo único, V"))
    year = facts.manufacture_year
    if year > on.year:
        problems.append(Problem("manufacture_year",
                                f"Ano de fabricação {year} é posterior ao ano corrente ({on.year})."))
    elif on > vehicle_last_service_day(year):
        problems.append(Problem(
            "manufacture_year",
            f"Veículo fabricado em {year} passou da idade máxima de {law.VEHICLE_MAX_AGE_YEARS} anos: "
            f"podia prestar o serviço somente até {vehicle_last_service_day(year):%d/%m/%Y}.",
            "Art. 2, §§1-2"))
    if not same_place(facts.municipality, home_municipality):
        shown = facts.municipality.strip() or "não informado"
        problems.append(Problem(
            "municipality",
            f"O veículo deve estar emplacado em {home_municipality}-{home_uf}; o CRLV indica: {shown}.",
            "Art. 8, §1, I; Art. 15, parágrafo único, VIII"))
    if not same_place(facts.uf, home_uf):
        problems.append(Problem(
            "uf", f"O veículo deve estar emplacado em {home_uf}; o CRLV indica: {facts.uf.strip() or 'não informado'}.",
            "Art. 8, §1, I; Art. 15, parágrafo único, VIII"))
    return problems


class OwnershipMode(StrEnum):
    """In whose name the vehicle may be registered (Art. 8, §3; Art. 15, caput)."""

    OWN = "own"                    # I - condutor proprietário, fiduciante ou arrendatário
    RELATIVE = "relative"          # II - cônjuge, companheiro ou parentes de até 2º grau
    COMPANY_LEASE = "company_lease"        # III - locado de pessoa jurídica locadora
    INDIVIDUAL_LEASE = "individual_lease"  # IV - locado de pessoa física (no máximo 3 veículos)

    @property
    def label(self) -> str:
        return _OWNERSHIP_LABELS[self]

    @property
    def article(self) -> str:
        return _OWNERSHIP_ARTICLES[self]


_OWNERSHIP_LABELS = {
    OwnershipMode.OWN: "Próprio (proprietário, fiduciante ou arrendatário)",
    OwnershipMode.RELATIVE: "Cônjuge, companheiro ou parente até 2º grau",
    OwnershipMode.COMPANY_LEASE: "Locado de pessoa jurídica",
    OwnershipMode.INDIVIDUAL_LEASE: "Locado de pessoa física",
}
_OWNERSHIP_ARTICLES = {
    OwnershipMode.OWN: "Art. 8, §3, I",
    OwnershipMode.RELATIVE: "Art. 8, §3, II",
    OwnershipMode.COMPANY_LEASE: "Art. 8, §3, III",
    OwnershipMode.INDIVIDUAL_LEASE: "Art. 8, §3, IV",
}


def individual_lessor_problem(vehicles_already_leased: int) -> Problem | None:
    """An individual lessor may lease at most 3 vehicles in the register (Art. 8, §3, IV).

    `vehicles_already_leased`: the lessor's vehicles in the register, not counting the one being added.
    """
    if vehicles_already_leased >= law.MAX_VEHICLES_PER_INDIVIDUAL_LESSOR:
        return Problem(
            "lessor",
            f"O locador pessoa física já tem {vehicles_already_leased} veículos cadastrados; o máximo é "
            f"{law.MAX_VEHICLES_PER_INDIVIDUAL_LESSOR}.",
            "Art. 8, §3, IV")
    return None
