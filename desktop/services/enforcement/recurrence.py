"""Recurrence (Art. 26, §§1-2): the debtor's autos with a final decision, and what the law proposes for a stored
auto. Shared by the assessment of a new auto (services.autos) and by penalties taking effect (services.penalties)."""
from __future__ import annotations

from sqlalchemy import select

from desktop.domain.dates import TIMEZONE
from desktop.domain.penalties import Assessment, PenaltyOption, Prior, assess, decision_options
from desktop.domain.workflow import AUTO_COUNTS_FOR_RECURRENCE
from desktop.models import Auto, AuthorizationEvent
from desktop.services.catalog import catalog_entries_in
from desktop.domain.auto_steps import DECIDED_STATUSES
from desktop.services.enforcement.core import Infractor, code_in_force_column, code_in_force_in, debtor_of
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


def pending_penalty_options_in(session, auto) -> tuple[PenaltyOption, ...]:
    """The penalties other than the fine that wait for the authority's decision on a final auto (issue 24 item 1):
    the auto became final with no judgment choosing them (no defense, or a waiver before the judgment) and the
    code or the recurrence rules name some. Art. 26, §2: "será cassada pela autoridade administrativa"; SPEC §3:
    "a penalty other than the fine (suspension, cassation, seizure) exists only through a decision of the
    authority (a gestor), even when the auto became final without defense: the daily routine lists such cases for
    decision and never applies them itself". Empty once a decision (a judgment or a penalty decision) chose."""
    if auto.status not in DECIDED_STATUSES:
        return ()
    decision = (auto.assessment or {}).get("decision") or {}
    if "penalties" in decision or "apply_proposed" in decision or "extra" in decision:
        return ()
    # penalties already in force for the auto (rows written before issue 24, when the routine applied them, or by
    # the demo as a gestor's act): nothing waits
    if session.scalar(select(AuthorizationEvent.id).where(
            AuthorizationEvent.auto_id == auto.id,
            AuthorizationEvent.kind.in_(("suspension", "cassation", "revocation", "deregistration"))).limit(1)):
        return ()
    return decision_options_in(session, auto, code_in_force_in(session, auto))


def reassess_in(session, auto) -> Assessment:
    """What the law proposes for a stored auto that has no stored proposal (rows imported or loaded in bulk):
    the same `assess` over the debtor's final autos, the auto itself left out."""
    on = auto.drawn_up_at.astimezone(TIMEZONE).date()
    priors = [p for p, _ in priors_in(session, debtor_of(auto), exclude_auto_id=auto.id)]
    return assess(auto.code, on, priors, recurrence_window_in(session, on), catalog=catalog_entries_in(session))
