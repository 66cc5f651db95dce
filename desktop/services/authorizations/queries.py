"""Reading authorizations: one record with the actions available now, its detail page, the list, what blocks
an approval and the values a dialog proposes (the fee, the suspension's end)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from desktop.domain import (
    AUTHORIZATION_MACHINE,
    AuthorizationStatus,
    ValidityLimit,
    activation_problems,
    allowed,
    explain_valid_until,
    format_cpf,
    format_date,
    format_money,
    format_plate,
    local_today,
    renewal_request_deadline,
)
from desktop.domain.steps import Action
from desktop.domain.authorization import SuspensionBasis, fee_in_reais, fee_parameter
from desktop.domain.authorization_steps import AuthorizationFacts, authorization_actions, is_renewal_fee
from desktop.domain.problems import Problem
from desktop.domain.roles import Role
from desktop.domain.text import only_alphanumerics
from desktop.errors import NotFound
from desktop.models import Authorization, AuthorizationEvent, Driver, Vehicle
from desktop.services import parameters
from desktop.services.attachments import DocumentInfo, documents_of
from desktop.services.actors import Actor
from desktop.services.drivers import stored_checklist_problems
from desktop.services.dashboard_queries import authorization_condition, window
from desktop.services.holidays import calendar_in
from desktop.services.registry.history import (
    AuthorizationEventInfo,
    AuthorizationRow,
    event_infos,
    status_label,
)
from desktop.services.paging import check_page, count, order_by, Page, prefix_range, search_terms
from desktop.services.lookups import get_or_404, user_names
from desktop.services.permissions import require_reader
from desktop.services.vehicles import VehicleRow, stored_vehicle_problems, vehicle_rows

S = AuthorizationStatus


@dataclass(frozen=True, slots=True)
class AuthorizationInfo:
    id: int
    number: str | None
    status: str
    status_label: str
    driver_id: int
    driver_name: str
    driver_cpf_display: str
    vehicle_id: int
    plate_display: str
    manufacture_year: int
    protocol_number: str | None
    protocol_date: date
    analysis_started_on: date | None
    decided_on: date | None
    decided_by_name: str
    decision_reason: str | None
    presentation_deadline: date | None
    fee_paid_on: date | None
    fee_guide_number: str | None
    fee_amount: Decimal | None
    inspection_approved_on: date | None
    inspection_waived_on: date | None
    activated_on: date | None
    valid_until: date | None
    valid_until_limited_by: str | None
    validity_reason: str
    renewal_requested_on: date | None
    renewal_deadline: date | None
    renewal_late: bool
    renewal_count: int
    regularize_by: date | None
    suspended_until: date | None
    ended_on: date | None
    facts: tuple[str, ...]
    pending: tuple[Problem, ...]
    actions: tuple[str, ...]       # the status targets AUTHORIZATION_MACHINE allows now (values)
    version: int
    # Every step of desktop.domain.authorization_steps for the user who asked: enabled, or why not.
    available: tuple[Action, ...] = ()
    renewal_fee: bool = False      # a fee recorded now is the renewal's (Art. 3, §2), not the first (Art. 10)


@dataclass(frozen=True, slots=True)
class AuthorizationDetail:
    authorization: AuthorizationInfo
    events: tuple[AuthorizationEventInfo, ...]
    problems: tuple[Problem, ...]
    vehicles: tuple[VehicleRow, ...]
    documents: tuple[DocumentInfo, ...]


def _validity_reason(a: Authorization, manufacture_year: int) -> str:
    if a.valid_until is None:
        return ""
    if a.fee_paid_on is not None:
        explained = explain_valid_until(a.fee_paid_on, manufacture_year)
        if explained.valid_until == a.valid_until:
            return explained.reason
    if a.valid_until_limited_by == ValidityLimit.VEHICLE_AGE.value:
        return (f"Válida até {format_date(a.valid_until)}: limitada pela idade máxima do veículo "
                "(Art. 2, §§1º e 2º).")
    return f"Válida até {format_date(a.valid_until)}: prazo contado do pagamento da taxa (Art. 3, §1º)."


def authorization_facts(a: Authorization) -> AuthorizationFacts:
    """What the step table's conditions read from the record."""
    return AuthorizationFacts(
        status=a.status, fee_paid_on=a.fee_paid_on, inspection_approved_on=a.inspection_approved_on,
        inspection_waived_on=a.inspection_waived_on, renewal_requested_on=a.renewal_requested_on,
        valid_until=a.valid_until, number=a.number)


def authorization_info(session: Session, a: Authorization, roles: Iterable[Role] = (),
                       calendar=None) -> AuthorizationInfo:
    """The record as screens show it, with the actions the table allows now to a user holding `roles`."""
    driver = session.get(Driver, a.driver_id)
    vehicle = session.get(Vehicle, a.vehicle_id)
    names = user_names(session, [a.decided_by])
    renewal_deadline = None
    if a.valid_until is not None and a.status in (S.ACTIVE, S.IMPEDED, S.SUSPENDED, S.EXPIRED):
        calendar = calendar or calendar_in(session)
        renewal_deadline = renewal_request_deadline(a.valid_until, calendar)
    pending: list[Problem] = []
    if a.status == S.APPROVED:
        pending = activation_problems(max(local_today(), a.fee_paid_on or date.min), a.fee_paid_on,
                                      a.inspection_approved_on, a.inspection_waived_on is not None,
                                      vehicle.manufacture_year)
    validity = _validity_reason(a, vehicle.manufacture_year)
    facts: list[str] = []
    protocol = f"Protocolo {a.protocol_number} " if a.protocol_number else "Protocolo "
    facts.append(f"{protocol}em {format_date(a.protocol_date)}")
    if a.presentation_deadline and a.status == S.APPROVED and a.inspection_approved_on is None \
            and a.inspection_waived_on is None:
        late = " — vencido" if local_today() > a.presentation_deadline else ""
        facts.append(f"Prazo para apresentar o veículo à vistoria: {format_date(a.presentation_deadline)}{late} "
                     "(Art. 9)")
    if a.fee_paid_on:
        paid = f"Taxa paga em {format_date(a.fee_paid_on)}"
        if a.fee_guide_number:
            paid += f" (guia {a.fee_guide_number}"
            paid += f", {format_money(a.fee_amount)})" if a.fee_amount is not None else ")"
        facts.append(paid)
    if a.inspection_approved_on:
        facts.append(f"Vistoria aprovada em {format_date(a.inspection_approved_on)}")
    if a.inspection_waived_on:
        facts.append(f"Vistoria dispensada em {format_date(a.inspection_waived_on)} (Art. 9, §1)")
    if validity:
        facts.append(validity)
    if a.renewal_requested_on:
        text = f"Renovação solicitada em {format_date(a.renewal_requested_on)}"
        if renewal_deadline:
            text += f"; último dia para pedir no prazo: {format_date(renewal_deadline)}"
        if a.renewal_late:
            text += " — fora do prazo (Art. 3, §2)"
        facts.append(text)
    if a.regularize_by and a.status in (S.IMPEDED, S.APPROVED):
        facts.append(f"Prazo para regularizar: {format_date(a.regularize_by)} (Art. 16, §2)")
    if a.suspended_until and a.status == S.SUSPENDED:
        facts.append(f"Suspensa até {format_date(a.suspended_until)}")
    return AuthorizationInfo(
        id=a.id, number=a.number, status=a.status, status_label=status_label(a.status), driver_id=a.driver_id,
        driver_name=driver.name, driver_cpf_display=format_cpf(driver.cpf), vehicle_id=a.vehicle_id,
        plate_display=format_plate(vehicle.plate), manufacture_year=vehicle.manufacture_year,
        protocol_number=a.protocol_number, protocol_date=a.protocol_date, analysis_started_on=a.analysis_started_on,
        decided_on=a.decided_on, decided_by_name=names.get(a.decided_by, "") if a.decided_by else "",
        decision_reason=a.decision_reason, presentation_deadline=a.presentation_deadline,
        fee_paid_on=a.fee_paid_on, fee_guide_number=a.fee_guide_number, fee_amount=a.fee_amount,
        inspection_approved_on=a.inspection_approved_on, inspection_waived_on=a.inspection_waived_on,
        activated_on=a.activated_on, valid_until=a.valid_until, valid_until_limited_by=a.valid_until_limited_by,
        validity_reason=validity, renewal_requested_on=a.renewal_requested_on, renewal_deadline=renewal_deadline,
        renewal_late=a.renewal_late, renewal_count=a.renewal_count, regularize_by=a.regularize_by,
        suspended_until=a.suspended_until, ended_on=a.ended_on, facts=tuple(facts), pending=tuple(pending),
        actions=tuple(sorted(t.value for t in allowed(AUTHORIZATION_MACHINE, a.status))), version=a.version,
        available=authorization_actions(authorization_facts(a), roles), renewal_fee=is_renewal_fee(a.status),
    )


def get_authorization_in(s: Session, actor: Actor, authorization_id: int) -> AuthorizationInfo:
    require_reader(actor)
    return authorization_info(s, get_or_404(s, Authorization, authorization_id, "Autorização"), actor.roles)


def get_authorization(db, actor: Actor, authorization_id: int) -> AuthorizationInfo:
    """Get authorization in its own (read) transaction (see `get_authorization_in`)."""
    with db.session(write=False) as s:
        return get_authorization_in(s, actor, authorization_id)


def analysis_problems_of(session: Session, a: Authorization, on: date) -> list[Problem]:
    """What prevents approving `a` on `on` (see `analysis_problems`)."""
    driver = session.get(Driver, a.driver_id)
    vehicle = session.get(Vehicle, a.vehicle_id)
    problems: list[Problem] = []
    if driver.status != "active":
        problems.append(Problem("driver", "O condutor está descadastrado.", "Art. 24, I, d"))
    problems += stored_checklist_problems(session, driver, a.protocol_date, on)
    problems += stored_vehicle_problems(vehicle, on)
    return problems


def analysis_problems(db, actor: Actor, authorization_id: int, on: date | None = None) -> list[Problem]:
    """What prevents approving the request on `on`: the driver's checklist (missing or expired items, each with its
    article) and the vehicle (Art. 2, Art. 8 §1 I, Art. 15)."""
    with db.session(write=False) as s:
        return analysis_problems_in(s, actor, authorization_id, on)


def analysis_problems_in(s: Session, actor: Actor, authorization_id: int, on: date | None = None) -> list[Problem]:
    require_reader(actor)
    return analysis_problems_of(s, get_or_404(s, Authorization, authorization_id, "Autorização"), on or local_today())


def authorization_detail_in(s: Session, actor: Actor, authorization_id: int,
                            on: date | None = None) -> AuthorizationDetail:
    require_reader(actor)
    on = on or local_today()
    a = get_or_404(s, Authorization, authorization_id, "Autorização")
    events = s.execute(select(AuthorizationEvent).where(AuthorizationEvent.authorization_id == a.id)
                       .order_by(AuthorizationEvent.id)).scalars().all()
    vehicle_ids = [a.vehicle_id] + [i for e in events for i in (e.old_vehicle_id, e.new_vehicle_id) if i]
    vehicle_ids = list(dict.fromkeys(vehicle_ids))
    vehicles = s.execute(select(Vehicle).where(Vehicle.id.in_(vehicle_ids))).scalars().all()
    vehicles = sorted(vehicles, key=lambda v: vehicle_ids.index(v.id))
    problems = analysis_problems_of(s, a, on) if a.status in (S.REQUESTED, S.IN_ANALYSIS) else []
    return AuthorizationDetail(
        authorization=authorization_info(s, a, actor.roles), events=event_infos(s, events),
        problems=tuple(problems), vehicles=vehicle_rows(s, vehicles), documents=documents_of(s, authorization_id=a.id),
    )


def authorization_detail(db, actor: Actor, authorization_id: int, on: date | None = None) -> AuthorizationDetail:
    """Authorization detail in its own (read) transaction (see `authorization_detail_in`)."""
    with db.session(write=False) as s:
        return authorization_detail_in(s, actor, authorization_id, on)


def proposed_fee(db, actor: Actor, authorization_id: int, on: date | None = None) -> Decimal | None:
    """The fee in reais a payment dialog proposes: the dated parameter in UPFM (the renewal's after activation,
    Art. 3 §2; the first one's before, Art. 10) times the UPFM of the year. None when a parameter is missing (the
    clerk types the amount of the guide)."""
    require_reader(actor)
    on = on or local_today()
    with db.session(write=False) as s:
        a = get_or_404(s, Authorization, authorization_id, "Autorização")
        try:
            upfm = parameters.parameter_value_in(s, fee_parameter(is_renewal_fee(a.status)), on)
            return fee_in_reais(upfm, parameters.upfm_value_in(s, on.year))
        except NotFound:
            return None


@dataclass(frozen=True, slots=True)
class SuspensionDates:
    last_day: date      # the last day suspended
    resumes_on: date    # the day the authorization is active again (the jobs move it)


def suspension_dates(basis: SuspensionBasis | str, start_on: date) -> SuspensionDates:
    """The dates a suspension dialog shows for a basis and a start (Art. 24, parágrafo único; Art. 26, §1)."""
    basis = SuspensionBasis(basis)
    return SuspensionDates(basis.end(start_on), basis.resumes_on(start_on))


AUTHORIZATION_SORTS = {
    "number": Authorization.number,
    "status": Authorization.status,
    "driver_name": Driver.search_key,
    "plate": Vehicle.plate,
    "protocol_date": Authorization.protocol_date,
    "valid_until": Authorization.valid_until,
}
_NUMBER = re.compile(r"^\s*(\d{1,4})(?:\s*/\s*(\d{0,4}))?\s*$")
_PLATE_START = re.compile(r"^[A-Za-z]{3}-?\d")


def _text_filter(text: str):
    """The list's text as a condition on the authorizations table alone (drivers and vehicles as IN-subqueries
    answered by their indexes), so the count needs no join."""
    raw = (text or "").strip()
    if not raw:
        return None
    by_driver = lambda cond: Authorization.driver_id.in_(select(Driver.id).where(cond))  # noqa: E731
    match = _NUMBER.match(raw)
    if match and "/" in raw:
        seq, year = match.group(1), match.group(2) or ""
        return prefix_range(Authorization.number, f"{int(seq):04d}/{year}")
    digits = raw.replace(".", "").replace("-", "")
    if digits.isdigit():
        if len(digits) <= 4:
            return or_(prefix_range(Authorization.number, digits.zfill(4) if len(digits) == 4 else digits),
                       by_driver(prefix_range(Driver.cpf, digits)))
        return by_driver(prefix_range(Driver.cpf, digits))
    if _PLATE_START.match(raw):
        return Authorization.vehicle_id.in_(select(Vehicle.id).where(
            prefix_range(Vehicle.plate, only_alphanumerics(raw))))
    return by_driver(prefix_range(Driver.search_key, search_terms(raw)))


def list_authorizations_in(s: Session, actor: Actor, text: str = "", statuses: Iterable[str] | None = None,
                           sort: str = "protocol_date", descending: bool = True, offset: int = 0,
                           limit: int = 50, due: str = "") -> Page[AuthorizationRow]:
    """One page of authorizations. Text: a number ("12/2026"), a CPF, a plate ("ABC-1") or the driver's name
    (accent- and case-insensitive). `due`: a home-dashboard tile's filter (`dashboard_queries.AUTHORIZATION_DUE`:
    renewals to request, validities ending, last service year, convocations, impediments; issue 16)."""
    require_reader(actor)
    offset, limit = check_page(offset, limit)
    conditions = []
    condition = _text_filter(text)
    if condition is not None:
        conditions.append(condition)
    statuses = [S(x).value for x in statuses] if statuses else []
    if statuses:
        conditions.append(Authorization.status.in_(statuses))
    if due:
        conditions.append(authorization_condition(due, window(local_today(), calendar_in(s))))
    stmt = (select(Authorization.id, Authorization.number, Authorization.status, Authorization.driver_id,
                   Authorization.protocol_date, Authorization.valid_until, Authorization.renewal_late,
                   Driver.name, Driver.cpf, Vehicle.plate)
            .join(Driver, Driver.id == Authorization.driver_id)
            .join(Vehicle, Vehicle.id == Authorization.vehicle_id)
            .where(*conditions))
    result = s.execute(stmt.order_by(*order_by(AUTHORIZATION_SORTS, sort, descending, Authorization.id))
                       .offset(offset).limit(limit)).all()
    if offset == 0 and len(result) < limit:
        total = len(result)
    else:
        total = count(s, select(Authorization.id).where(*conditions))
    rows = tuple(AuthorizationRow(
        id=r.id, number=r.number, status=r.status, status_label=status_label(r.status), driver_id=r.driver_id,
        driver_name=r.name, plate_display=format_plate(r.plate), protocol_date=r.protocol_date,
        valid_until=r.valid_until, driver_cpf_display=format_cpf(r.cpf),
        renewal_late=bool(r.renewal_late)) for r in result)
    return Page(rows, total, offset, limit)


def list_authorizations(db, actor: Actor, text: str = "", statuses: Iterable[str] | None = None,
                        sort: str = "protocol_date", descending: bool = True, offset: int = 0,
                        limit: int = 50, due: str = "") -> Page[AuthorizationRow]:
    """List authorizations in its own (read) transaction (see `list_authorizations_in`)."""
    with db.session(write=False) as s:
        return list_authorizations_in(s, actor, text, statuses, sort, descending, offset, limit, due)
