"""Rules of the authorization itself (Art. 3, 8, 9, 10, 15, 24, 26): when it may become active, how long a
suspension lasts, which fee is due."""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from enum import StrEnum

from desktop.domain.money import to_reais
from desktop.domain import law
from desktop.domain.dates import period_end
from desktop.domain.problems import Problem
from desktop.domain.vehicle import vehicle_last_service_day


def activation_problems(on: date, fee_paid_on: date | None, inspection_approved_on: date | None,
                        inspection_waived: bool = False, manufacture_year: int | None = None) -> list[Problem]:
    """What still prevents an approved authorization from becoming active on `on` (SPEC §3: both the fee paid and
    the inspection approved or waived, in either order).

    Art. 10 and Art. 15 VII: no activity without the fee paid for the vehicle; Art. 9 §1 and Art. 15 VI: the
    inspection approved, or waived by the municipality; Art. 2 §§1-2: the vehicle still within its age.
    """
    problems: list[Problem] = []
    if fee_paid_on is None:
        problems.append(Problem("fee_paid_on", "Falta o pagamento da taxa do veículo.",
                                "Art. 10, parágrafo único; Art. 15, parágrafo único, VII"))
    elif fee_paid_on > on:
        problems.append(Problem("fee_paid_on", f"A taxa consta paga em {fee_paid_on:%d/%m/%Y}, data futura.",
                                "Art. 10, parágrafo único"))
    if inspection_approved_on is None and not inspection_waived:
        problems.append(Problem("inspection", "Falta a vistoria aprovada (ou a dispensa de vistoria).",
                                "Art. 9, §1; Art. 15, parágrafo único, VI"))
    elif inspection_approved_on is not None and inspection_approved_on > on:
        problems.append(Problem("inspection", f"A vistoria consta aprovada em {inspection_approved_on:%d/%m/%Y}, "
                                "data futura.", "Art. 15, parágrafo único, VI"))
    if manufacture_year is not None and on > vehicle_last_service_day(manufacture_year):
        problems.append(Problem("manufacture_year",
                                f"O veículo fabricado em {manufacture_year} só podia prestar o serviço até "
                                f"{vehicle_last_service_day(manufacture_year):%d/%m/%Y}.", "Art. 2, §§1-2"))
    return problems


class SuspensionBasis(StrEnum):
    """Which rule sets the length of a suspension (the gestor picks it)."""

    ART24 = "art24"            # Art. 24, parágrafo único: 12 months
    ART26_PAR1 = "art26_par1"  # Art. 26, §1: 30 days (the specific rule beats Art. 24's 12 months)

    @property
    def label(self) -> str:
        return ("12 meses (Art. 24, parágrafo único)" if self is SuspensionBasis.ART24
                else "30 dias (Art. 26, §1)")

    @property
    def article(self) -> str:
        return "Art. 24, parágrafo único" if self is SuspensionBasis.ART24 else "Art. 26, §1"

    def end(self, start_on: date) -> date:
        """The last day of the suspension."""
        if self is SuspensionBasis.ART24:
            return period_end(start_on, months=law.SUSPENSION_MONTHS)
        return period_end(start_on, days=law.STREET_BOARDING_RECURRENCE_SUSPENSION_DAYS)

    def resumes_on(self, start_on: date) -> date:
        """The day the authorization is active again: the day after the last day suspended (Art. 24, parágrafo
        único; Art. 26, §1)."""
        return self.end(start_on) + timedelta(days=1)


RENEWAL_FEE_PARAMETER = "fee.renewal"              # Art. 3, §2: the renewal's fee (decree value, in UPFM)
AUTHORIZATION_FEE_PARAMETER = "fee.authorization"  # Art. 10: the fee of the first authorization (in UPFM)


def fee_parameter(renewal: bool) -> str:
    """The dated parameter that holds the fee in UPFM: the renewal's (Art. 3, §2) or the first one's (Art. 10)."""
    return RENEWAL_FEE_PARAMETER if renewal else AUTHORIZATION_FEE_PARAMETER


def fee_in_reais(upfm_amount: Decimal, upfm_value: Decimal) -> Decimal:
    """A fee in UPFM times the UPFM of the year, in reais to the cent (Art. 10)."""
    return to_reais(upfm_amount, upfm_value)
