"""Rules of the authorization itself (Art. 3, 8, 9, 10, 15): when it may become active."""
from __future__ import annotations

from datetime import date

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
