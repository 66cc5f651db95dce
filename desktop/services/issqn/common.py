"""What the ISSQN services share (issue 13, Art. 11): roles, the competência, the frozen data they return and the
steps a share or a guide offers (Tryton's table that refuses a step also decides the button)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from desktop.domain.clock import today
from desktop.domain.dates import parse_month as parse_competence
from desktop.domain.finance import ISSQN_SHARE_STEPS, share_facts
from desktop.domain.problems import Problem
from desktop.domain.roles import ISSQN_ROLES, Role
from desktop.domain.steps import Action, Step, available_actions, refusal
from desktop.domain.taxes import (PREVIEW_LABEL, competence_ended, competence_problem, guide_competence_problem,
                                  month_bounds)
from desktop.errors import ValidationError
from desktop.domain.formatting import format_decimal, format_money

ART = "Art. 11"
READ_ROLES = ISSQN_ROLES.read
RUN_ROLES = ISSQN_ROLES.run            # the monthly estimate is the office's routine
DECIDE_ROLES = ISSQN_ROLES.decide      # classes, class decisions, designations, substitute, cancel
ISSUE_ROLES = ISSQN_ROLES.issue        # as every other guide (services.documents.archive)
PURPOSE = "issqn"

SHARE_STEPS = ISSQN_SHARE_STEPS        # issue 22 point 2: the table lives in domain/finance.py
STEPS_BY_KEY = {step.key: step for step in SHARE_STEPS}


def share_actions(facts: dict, roles) -> tuple[Action, ...]:
    return available_actions(SHARE_STEPS, None, roles, facts)


def share_refusal(key: str, facts: dict, roles) -> str | None:
    return refusal(STEPS_BY_KEY[key], None, roles, facts)


def month_end(year: int, month: int) -> date:
    return month_bounds(year, month)[1]


def check_competence(year: int, month: int) -> None:
    problem = competence_problem(year, month, today())
    if problem:
        raise ValidationError([problem])


def check_guidable(year: int, month: int) -> None:
    """A competência is guided only once it has ended (issue 23 point 2): before, its run is a prévia."""
    problem = guide_competence_problem(year, month, today())
    if problem:
        raise ValidationError([problem])


def is_preview(year: int, month: int) -> bool:
    """The competência is still running: its estimate is a prévia (no guide)."""
    return not competence_ended(year, month, today())


def parse_month(text: str) -> tuple[int, int]:
    """'2026-10' (AAAA-MM, the commands' form) or '10/2026' → (2026, 10) (`domain.dates.parse_month`); a
    ValidationError naming the field otherwise."""
    try:
        return parse_competence(text)
    except ValueError as error:
        raise ValidationError([Problem("month", str(error))]) from None


def competence_label(year: int, month: int) -> str:
    return f"{month:02d}/{year}"


def next_month(year: int, month: int) -> tuple[int, int]:
    return (year + 1, 1) if month == 12 else (year, month + 1)


# ---------------------------------------------------------------------------------------------- returned data
@dataclass(frozen=True, slots=True)
class ClassInfo:
    id: int
    code: str
    name: str
    monthly_base: Decimal
    valid_from: date
    valid_until: date | None
    reason: str


@dataclass(frozen=True, slots=True)
class ClassDecisionInfo:
    id: int
    vehicle_id: int
    class_id: int
    class_code: str
    class_name: str
    valid_from: date
    decided_by_name: str
    reason: str


@dataclass(frozen=True, slots=True)
class DesignationInfo:
    id: int
    vehicle_id: int
    platform_id: int | None
    platform_name: str
    valid_from: date
    decided_by_name: str
    reason: str


@dataclass(frozen=True, slots=True)
class VehicleProblem:
    vehicle_id: int
    plate_display: str
    driver_name: str
    message: str


@dataclass(frozen=True, slots=True)
class RunResult:
    year: int
    month: int
    rate: Decimal
    pro_rata: bool
    vehicles: int            # estimates in force for the month after the run
    total: Decimal
    computed: int            # estimates written or recalculated now
    kept: int                # estimates left as they were because a guide holds them
    removed: int             # draft estimates of vehicles that no longer count
    without_class: tuple[VehicleProblem, ...] = ()
    without_platform: tuple[VehicleProblem, ...] = ()
    preview: bool = False     # the month is still running: a prévia, no guide (issue 23 point 2)
    kept_rates: tuple[Decimal, ...] = ()   # the rates of the estimates kept because a guide holds them

    def summary(self) -> str:

        rates = sorted({Decimal(self.rate), *self.kept_rates}) if self.kept else [Decimal(self.rate)]
        if len(rates) > 1:   # issue 23 point 9: say the rate actually applied to each row
            rate_text = ("alíquotas " + " e ".join(f"{format_decimal(r.normalize())} %" for r in rates)
                         + f"; recalculados a {format_decimal(Decimal(self.rate).normalize())} %")
        else:
            rate_text = f"alíquota {format_decimal(rates[0].normalize())} %"
        text = (f"Competência {competence_label(self.year, self.month)}: {self.vehicles} veículos, total "
                f"{format_money(self.total)} ({rate_text}"
                f"{', proporcional aos dias' if self.pro_rata else ''}).")
        if self.preview:
            text = (f"{PREVIEW_LABEL.upper()} (o mês ainda não terminou; sem guia) — " + text)
        if self.kept:
            text += f" {self.kept} com guia emitida mantidos."
        if self.without_class:
            text += f" {len(self.without_class)} veículos sem classe de estimativa (não calculados)."
        if self.without_platform:
            text += f" {len(self.without_platform)} veículos sem plataforma no mês."
        return text


@dataclass(frozen=True, slots=True)
class GuideInfo:
    id: int
    number: str
    amount: Decimal
    due_on: date
    payer_name: str
    payer_document: str
    platform_id: int | None
    driver_id: int | None
    shares: int
    year: int
    month: int


@dataclass(frozen=True, slots=True)
class ShareRow:
    share_id: int
    estimate_id: int
    vehicle_id: int
    platform_id: int | None
    platform_name: str
    plate_display: str
    driver_name: str
    driver_cpf_display: str
    class_code: str
    class_name: str
    days_active: int
    base: Decimal
    rate: Decimal
    estimate_amount: Decimal
    amount: Decimal
    guide_id: int | None
    guide_number: str
    situation: str           # "Sem guia", "Em aberto", "Vencida", "Paga"
    due_on: date | None
    paid_on: date | None
    overdue: bool
    substitute: bool         # charged to the driver (Art. 11 substitute)
    actions: tuple[Action, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class PlatformTotal:
    platform_id: int | None
    platform_name: str
    cnpj_display: str
    vehicles: int
    total: Decimal
    without_guide: Decimal
    open: Decimal
    overdue: Decimal
    paid: Decimal
    guide_numbers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MonthTotals:
    year: int
    month: int
    platforms: tuple[PlatformTotal, ...]
    total: Decimal
    paid: Decimal
    overdue: Decimal
    vehicles: int


@dataclass(frozen=True, slots=True)
class SeriesPoint:
    year: int
    month: int
    total: Decimal
    paid: Decimal


@dataclass(frozen=True, slots=True)
class UnpaidPlatform:
    platform_id: int
    platform_name: str
    competences: tuple[str, ...]   # "09/2026", …
    amount: Decimal
    overdue: bool
