"""The term between a summons (intimação) and the day to appear: Lei nº 9.784/1999, art. 26, § 2º — "A intimação
observará a antecedência mínima de três dias úteis quanto à data de comparecimento." (issue 28 point 6).

Counting (Lei 9.784/99, art. 66): the day of the summons is not counted; only business days of the
municipality's calendar count; the earliest day to appear is the 3rd business day after the summons. A summons
delivered on Monday 30/11/2026 may call for Thursday 03/12/2026, not earlier. The fine of Lei 2.103/2025,
Art. 26, I ("deixar de comparecer à vistoria") follows only a summons that respected this term.
Pure: no Qt, no database.
"""
from __future__ import annotations

from datetime import date

from desktop.domain.formatting import format_date
from desktop.domain.problems import Problem

SUMMONS_MIN_BUSINESS_DAYS = 3          # Lei 9.784/99, art. 26, §2º
SUMMONS_ARTICLE = "Lei 9.784/99, art. 26, §2º"


def earliest_appearance(summoned_on: date, calendar) -> date:
    """The first day a person summoned on `summoned_on` can be called to appear (3rd business day after)."""
    return calendar.add_business_days(summoned_on, SUMMONS_MIN_BUSINESS_DAYS)


def summons_problem(summoned_on: date | None, appear_on: date, calendar, field: str = "appear_on") -> Problem | None:
    """Why a summons on `summoned_on` for `appear_on` does not respect the term, or None when it does."""
    if summoned_on is None:
        return Problem(field, "Não há data de intimação registrada: sem ela não se prova a antecedência mínima de "
                              "três dias úteis até o comparecimento.", SUMMONS_ARTICLE)
    first = earliest_appearance(summoned_on, calendar)
    if appear_on < first:
        return Problem(field, f"A intimação de {format_date(summoned_on)} para comparecer em "
                              f"{format_date(appear_on)} não respeita a antecedência mínima de três dias úteis: "
                              f"o comparecimento pode ser marcado a partir de {format_date(first)}.",
                       SUMMONS_ARTICLE)
    return None


def art26_i_may_follow(summoned_on: date | None, appear_on: date, calendar) -> bool:
    """Lei 2.103/2025, Art. 26, I: the missed appearance is an infraction only after a summons in term."""
    return summons_problem(summoned_on, appear_on, calendar) is None
