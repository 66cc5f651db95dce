"""Recurrence (Art. 26, §§1-2): the debtor's autos with a final decision, and what the law proposes for a stored
auto. Shared by the assessment of a new auto (services.autos) and by penalties taking effect (services.penalties)."""
from __future__ import annotations

from sqlalchemy import select

from desktop.domain.dates import TIMEZONE
from desktop.domain.penalties import Assessment, PenaltyOption, Prior, assess, decision_options
from desktop.domain.workflow import AUTO_COUNTS_FOR_RECURRENCE
from desktop.models import Auto
from desktop.services.catalog import catalog_entries_in
from desktop.services.enforcement.core import Infractor, code_in_force_column, debtor_of
from desktop.services.parameters import parameter_value_in


def priors_in(session, debtor: Infractor, exclude_auto_id: int | None = None) -> list[tuple[Prior, str]]:
    """The debtor's autos with a final decision (`AUTO_COUNTS_FOR_RECURRENCE`: a cancelled or annulled auto is
    no prior), as (Prior, number)."""
    # the code in force (issue 12 item 1): a prior requalified by a partial decision counts under its new code
    stmt = select(code_in_force_column(), Auto.drawn_up_at, Auto.number, Auto.final_on).where(
        Auto.status.in_([s.value for s in AUTO_COUNTS_FOR_RECURRENCE]))
    if debtor.kind == "driver":
        stmt = stmt.where(Auto.infractor_driver_id == debtor.id)
    else:
        stmt = stmt.where(Auto.infractor_platform_id == debtor.id, Auto.infractor_driver_id.is_(None))
    if exclude_auto_id is not None:
        stmt = stmt.where(Auto.id != exclude_auto_id)
    # each prior carries the day its decision became final: assess counts it only if final on the new date
    return [(Prior(code, at.astimezone(TIMEZONE).date(), final_on), number)
            for code, at, number, final_on in session.execute(stmt)]


def recurrence_window_in(session, on) -> int:
    """The recurrence window in months on `on` (parameter `recurrence.window_months`; Art. 26, §1)."""
    return int(parameter_value_in(session, "recurrence.window_months", on))


def decision_options_in(session, auto, code: str) -> tuple[PenaltyOption, ...]:
    """The penalties a decision on `auto` under catalogue `code` may apply (domain.decision_options): those the
    code names and, when the debtor's final autos make it a recurrence of `code`, those of the recurrence rule."""
    on = auto.drawn_up_at.astimezone(TIMEZONE).date()
    priors = [p for p, _ in priors_in(session, debtor_of(auto), exclude_auto_id=auto.id)]
    return decision_options(code, on, priors, recurrence_window_in(session, on), catalog=catalog_entries_in(session))


def reassess_in(session, auto) -> Assessment:
    """What the law proposes for a stored auto that has no stored proposal (rows imported or loaded in bulk):
    the same `assess` over the debtor's final autos, the auto itself left out."""
    on = auto.drawn_up_at.astimezone(TIMEZONE).date()
    priors = [p for p, _ in priors_in(session, debtor_of(auto), exclude_auto_id=auto.id)]
    return assess(auto.code, on, priors, recurrence_window_in(session, on), catalog=catalog_entries_in(session))
