"""The authorization lifecycle (Art. 3, 8, 9, 10, 15, 16, 24, 26): request (protocolo) → analysis → approval or
refusal → inspection (or its waiver) and fee, in either order → active with its NNNN/AAAA number and valid-until →
renewal, vehicle substitution, suspension, revocation, cassation, deregistration.

Every status change goes through `desktop.domain.transition()` on AUTHORIZATION_MACHINE (a refused move becomes
`TransitionRefused`), writes one AuthorizationEvent (who, when, why, which act) and one audit entry. Nothing is
overwritten: the history is the events.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from desktop.domain import (
    AUTHORIZATION_MACHINE,
    AuthorizationStatus,
    TransitionNotAllowed,
    ValidityLimit,
    activation_problems,
    allowed,
    explain_valid_until,
    format_cpf,
    format_date,
    format_money,
    format_plate,
    local_today,
    period_end,
    presentation_deadline,
    regularization_deadline,
    renewal_request_deadline,
    law,
    transition,
)
from desktop.domain.problems import Problem
from desktop.domain.roles import Role
from desktop.domain.text import only_alphanumerics
from desktop.errors import ConflictError, TransitionRefused, ValidationError
from desktop.models import Authorization, AuthorizationEvent, Driver, Fee, Inspection, Vehicle
from desktop.models.authorizations import LIVE_AUTHORIZATION_STATUSES
from desktop.models.types import now
from desktop.services import audit
from desktop.services.attachments import DocumentInfo, documents_of
from desktop.services.base import Actor, check_version, require_role
from desktop.services.holidays import calendar_in
from desktop.services.numbering import next_number
from desktop.services.search import (
    FRONT_DESK,
    Page,
    TimelineEntry,
    check_page,
    count,
    get_or_404,
    order_by,
    prefix_range,
    require_reader,
    search_terms,
    user_names,
)

__all__ = [
    "AuthorizationInfo", "AuthorizationEventInfo", "AuthorizationRow", "AuthorizationDetail", "SuspensionBasis",
    "AUTHORIZATION_SORTS", "EVENT_LABELS",
    "request_authorization", "start_analysis", "analysis_problems", "approve_authorization", "refuse_authorization",
    "waive_inspection", "record_inspection_result", "record_inspection_result_in", "record_fee_payment",
    "request_renewal", "substitute_vehicle",
    "suspend_authorization", "revoke_authorization", "cassate_authorization", "get_authorization",
    "authorization_detail", "list_authorizations", "status_label",
]

S = AuthorizationStatus

EVENT_LABELS = {
    "request": "Requerimento protocolado",
    "analysis": "Análise iniciada",
    "approval": "Requerimento aprovado",
    "refusal": "Requerimento indeferido",
    "inspection": "Vistoria registrada",
    "inspection_waived": "Vistoria dispensada",
    "fee": "Taxa paga",
    "activation": "Autorização ativada",
    "renewal_request": "Renovação solicitada",
    "renewal": "Autorização renovada",
    "substitution": "Veículo substituído",
    "suspension": "Autorização suspensa",
    "suspension_end": "Fim da suspensão",
    "revocation": "Autorização revogada",
    "cassation": "Autorização cassada",
    "deregistration": "Encerrada por descadastramento",
    "expiry": "Autorização expirada",
    "impediment": "Autorização impedida",
    "status": "Mudança de situação",
}


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
    actions: tuple[str, ...]
    version: int


@dataclass(frozen=True, slots=True)
class AuthorizationEventInfo:
    id: int
    kind: str
    kind_label: str
    from_status: str | None
    from_label: str
    to_status: str
    to_label: str
    at: datetime
    effective_on: date | None
    by_name: str
    reason: str | None
    act_number: str | None
    old_plate_display: str | None
    new_plate_display: str | None


@dataclass(frozen=True, slots=True)
class AuthorizationRow:
    id: int
    number: str | None
    status: str
    status_label: str
    driver_id: int
    driver_name: str
    plate_display: str
    protocol_date: date
    valid_until: date | None
    driver_cpf_display: str = ""
    renewal_late: bool = False   # renewal requested after `renewal_request_deadline` (Art. 3, §2)


@dataclass(frozen=True, slots=True)
class AuthorizationDetail:
    authorization: AuthorizationInfo
    events: tuple[AuthorizationEventInfo, ...]
    problems: tuple[Problem, ...]
    vehicles: tuple  # tuple[VehicleRow, ...]
    documents: tuple[DocumentInfo, ...]


# ---------------------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------------------

def status_label(status: str | None) -> str:
    """The authorization status as the screens name it ("" for none)."""
    return S(status).label if status else ""


_label = status_label  # the name services/inspections.py imported before status_label was public


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


def _info(session: Session, a: Authorization, calendar=None) -> AuthorizationInfo:
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
    )


def _event_infos(session: Session, events) -> tuple[AuthorizationEventInfo, ...]:
    events = list(events)
    names = user_names(session, (e.by_user_id for e in events))
    vehicle_ids = {i for e in events for i in (e.old_vehicle_id, e.new_vehicle_id) if i}
    plates = dict(session.execute(select(Vehicle.id, Vehicle.plate).where(Vehicle.id.in_(vehicle_ids)))
                  .all()) if vehicle_ids else {}
    return tuple(AuthorizationEventInfo(
        id=e.id, kind=e.kind, kind_label=EVENT_LABELS.get(e.kind, e.kind), from_status=e.from_status,
        from_label=status_label(e.from_status), to_status=e.to_status, to_label=status_label(e.to_status), at=e.at,
        effective_on=e.effective_on,
        by_name=names.get(e.by_user_id, "") if e.by_user_id else "Sistema (rotina automática)",
        reason=e.reason, act_number=e.act_number,
        old_plate_display=format_plate(plates[e.old_vehicle_id]) if e.old_vehicle_id in plates else None,
        new_plate_display=format_plate(plates[e.new_vehicle_id]) if e.new_vehicle_id in plates else None,
    ) for e in events)


def event_timeline(session: Session, authorization_ids: Iterable[int]) -> list[TimelineEntry]:
    """The events of some authorizations as timeline lines (for the driver's and the vehicle's pages)."""
    ids = list(authorization_ids)
    if not ids:
        return []
    numbers = dict(session.execute(select(Authorization.id, Authorization.number)
                                   .where(Authorization.id.in_(ids))).all())
    events = session.execute(select(AuthorizationEvent).where(AuthorizationEvent.authorization_id.in_(ids))
                             .order_by(AuthorizationEvent.id)).scalars().all()
    result = []
    for e in _event_infos(session, events):
        auth_id = next(ev.authorization_id for ev in events if ev.id == e.id)
        name = numbers.get(auth_id) or f"requerimento {auth_id}"
        detail = " · ".join(x for x in (
            e.reason, f"ato {e.act_number}" if e.act_number else "",
            f"{e.old_plate_display} → {e.new_plate_display}" if e.old_plate_display else "") if x)
        result.append(TimelineEntry(e.at, f"Autorização {name}: {e.kind_label}", e.by_name, detail))
    return result


def authorization_rows(session: Session, auths) -> tuple[AuthorizationRow, ...]:
    auths = list(auths)
    if not auths:
        return ()
    drivers, cpfs = {}, {}
    for ident, name, cpf in session.execute(select(Driver.id, Driver.name, Driver.cpf)
                                            .where(Driver.id.in_({a.driver_id for a in auths}))):
        drivers[ident], cpfs[ident] = name, cpf
    plates = dict(session.execute(select(Vehicle.id, Vehicle.plate)
                                  .where(Vehicle.id.in_({a.vehicle_id for a in auths}))).all())
    return tuple(AuthorizationRow(
        id=a.id, number=a.number, status=a.status, status_label=status_label(a.status), driver_id=a.driver_id,
        driver_name=drivers.get(a.driver_id, ""), plate_display=format_plate(plates.get(a.vehicle_id, "")),
        protocol_date=a.protocol_date, valid_until=a.valid_until,
        driver_cpf_display=format_cpf(cpfs[a.driver_id]) if a.driver_id in cpfs else "",
        renewal_late=bool(a.renewal_late),
    ) for a in auths)


def get_authorization(db, actor: Actor, authorization_id: int) -> AuthorizationInfo:
    require_reader(actor)
    with db.session(write=False) as s:
        return _info(s, get_or_404(s, Authorization, authorization_id, "Autorização"))


def _analysis_problems(session: Session, a: Authorization, on: date) -> list[Problem]:
    from desktop.services.drivers import stored_checklist_problems
    from desktop.services.vehicles import stored_vehicle_problems

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
    require_reader(actor)
    with db.session(write=False) as s:
        return _analysis_problems(s, get_or_404(s, Authorization, authorization_id, "Autorização"),
                                  on or local_today())


def authorization_detail(db, actor: Actor, authorization_id: int, on: date | None = None) -> AuthorizationDetail:
    from desktop.services.vehicles import vehicle_rows

    require_reader(actor)
    on = on or local_today()
    with db.session(write=False) as s:
        a = get_or_404(s, Authorization, authorization_id, "Autorização")
        events = s.execute(select(AuthorizationEvent).where(AuthorizationEvent.authorization_id == a.id)
                           .order_by(AuthorizationEvent.id)).scalars().all()
        vehicle_ids = [a.vehicle_id] + [i for e in events for i in (e.old_vehicle_id, e.new_vehicle_id) if i]
        vehicle_ids = list(dict.fromkeys(vehicle_ids))
        vehicles = s.execute(select(Vehicle).where(Vehicle.id.in_(vehicle_ids))).scalars().all()
        vehicles = sorted(vehicles, key=lambda v: vehicle_ids.index(v.id))
        problems = _analysis_problems(s, a, on) if a.status in (S.REQUESTED, S.IN_ANALYSIS) else []
        return AuthorizationDetail(
            authorization=_info(s, a), events=_event_infos(s, events), problems=tuple(problems),
            vehicles=vehicle_rows(s, vehicles), documents=documents_of(s, authorization_id=a.id),
        )


# ---------------------------------------------------------------------------------------------------------
# Writing helpers
# ---------------------------------------------------------------------------------------------------------

def _snapshot(a: Authorization) -> dict:
    return audit.snapshot(a, exclude=("created_at", "updated_at"))


def _event(session: Session, actor: Actor, a: Authorization, kind: str, from_status: str | None, *,
           on: date | None, reason: str | None = None, act_number: str | None = None,
           old_vehicle_id: int | None = None, new_vehicle_id: int | None = None) -> AuthorizationEvent:
    event = AuthorizationEvent(
        authorization_id=a.id, kind=kind, from_status=from_status, to_status=a.status, at=now(), effective_on=on,
        by_user_id=actor.user_id, reason=(reason or "").strip() or None, act_number=(act_number or "").strip() or None,
        old_vehicle_id=old_vehicle_id, new_vehicle_id=new_vehicle_id,
    )
    session.add(event)
    return event


def _move(session: Session, actor: Actor, a: Authorization, target: S, kind: str, *, on: date,
          reason: str | None = None, act_number: str | None = None) -> AuthorizationEvent:
    """The one way a status changes: the domain machine, then the event."""
    try:
        transition(AUTHORIZATION_MACHINE, a.status, target)
    except TransitionNotAllowed as exc:
        raise TransitionRefused(str(exc)) from exc
    source = a.status
    a.status = target.value
    return _event(session, actor, a, kind, source, on=on, reason=reason, act_number=act_number)


def _audit(session: Session, actor: Actor, a: Authorization, kind: str, before: dict | None, **extra) -> None:
    session.flush()
    after = _snapshot(a)
    after.update({k: v for k, v in extra.items() if v is not None})
    audit.record(session, actor, f"authorization.{kind}", "authorization", a.id, before, after)


def _load(session: Session, authorization_id: int, expected_version: int) -> Authorization:
    a = get_or_404(session, Authorization, authorization_id, "Autorização")
    check_version(a, expected_version)
    return a


def _require_text(value: str | None, field: str, message: str, article: str = "") -> str:
    text = (value or "").strip()
    if not text:
        raise ValidationError([Problem(field, message, article)])
    return text


def _not_future(day: date, field: str, what: str) -> None:
    if day > local_today():
        raise ValidationError([Problem(field, f"A data {what} não pode ser futura.")])


def _try_activate(session: Session, actor: Actor, a: Authorization) -> bool:
    """Activation when both the fee is paid and the inspection approved or waived, in either order (Art. 9, 10;
    Art. 15 VI-VII), on the later of the two dates; the number is the next NNNN/AAAA of that year and the
    validity counts from the fee payment, never past the vehicle's age (Art. 3 §1; Art. 2 §§1-2)."""
    if a.status != S.APPROVED:
        return False
    vehicle = session.get(Vehicle, a.vehicle_id)
    inspection_on = a.inspection_approved_on or a.inspection_waived_on
    dates = [d for d in (a.fee_paid_on, inspection_on) if d is not None]
    on = max(dates) if dates else local_today()
    if activation_problems(on, a.fee_paid_on, a.inspection_approved_on, a.inspection_waived_on is not None,
                           vehicle.manufacture_year):
        return False
    before = _snapshot(a)
    validity = explain_valid_until(a.fee_paid_on, vehicle.manufacture_year)
    if a.number is None:  # taken before the status moves (an active authorization always has its number)
        a.number = next_number(session, "authorization", on.year)
    _move(session, actor, a, S.ACTIVE, "activation", on=on, reason=validity.reason)
    a.activated_on = on
    a.valid_until = validity.valid_until
    a.valid_until_limited_by = validity.limited_by.value
    a.regularize_by = None
    _audit(session, actor, a, "activation", before)
    return True


def _record_fee_row(session: Session, actor: Actor, a: Authorization, kind: str, paid_on: date,
                    guide_number: str, amount: Decimal) -> None:
    """The paid fee in the finance table (Art. 10): the open fee of that guide is marked paid, or a paid one is
    written."""
    fee = session.execute(select(Fee).where(Fee.guide_number == guide_number)).scalar_one_or_none()
    if fee is not None:
        if fee.status == "paid" or (fee.authorization_id not in (None, a.id)):
            raise ConflictError(f"A guia {guide_number} já está paga ou vinculada a outra autorização.")
        fee.status, fee.paid_on, fee.paid_amount = "paid", paid_on, amount
        fee.authorization_id, fee.vehicle_id = a.id, a.vehicle_id
    else:
        session.add(Fee(kind=kind, vehicle_id=a.vehicle_id, authorization_id=a.id, due_on=paid_on,
                        amount_reais=amount, guide_number=guide_number, status="paid", paid_on=paid_on,
                        paid_amount=amount, created_by=actor.user_id))


# ---------------------------------------------------------------------------------------------------------
# The front desk
# ---------------------------------------------------------------------------------------------------------

def request_authorization(db, actor: Actor, driver_id: int, vehicle_id: int, protocol_date: date,
                          protocol_number: str | None = None) -> AuthorizationInfo:
    """File the request (protocolo) for one driver and one vehicle (Art. 8: one vehicle per driver, one live
    authorization per driver and per vehicle — the database refuses a second)."""
    require_role(actor, *FRONT_DESK)
    _not_future(protocol_date, "protocol_date", "do protocolo")
    with db.session() as s:
        driver = get_or_404(s, Driver, driver_id, "Condutor")
        vehicle = get_or_404(s, Vehicle, vehicle_id, "Veículo")
        problems = []
        if driver.status != "active":
            problems.append(Problem("driver", "O condutor está descadastrado.", "Art. 24, I, d"))
        if vehicle.status != "active":
            problems.append(Problem("vehicle", "O veículo está descadastrado.", "Art. 24, I, f"))
        if problems:
            raise ValidationError(problems)
        a = Authorization(driver_id=driver.id, vehicle_id=vehicle.id, status=S.REQUESTED.value,
                          protocol_date=protocol_date, protocol_number=(protocol_number or "").strip() or None,
                          created_by=actor.user_id, renewal_count=0, renewal_late=False)
        s.add(a)
        s.flush()
        _event(s, actor, a, "request", None, on=protocol_date)
        _audit(s, actor, a, "request", None)
        return _info(s, a)


def start_analysis(db, actor: Actor, authorization_id: int, expected_version: int,
                   on: date | None = None) -> AuthorizationInfo:
    require_role(actor, *FRONT_DESK)
    on = on or local_today()
    with db.session() as s:
        a = _load(s, authorization_id, expected_version)
        before = _snapshot(a)
        _move(s, actor, a, S.IN_ANALYSIS, "analysis", on=on)
        a.analysis_started_on = on
        _audit(s, actor, a, "analysis", before)
        return _info(s, a)


def record_fee_payment(db, actor: Actor, authorization_id: int, paid_on: date, guide_number: str, amount,
                       expected_version: int) -> AuthorizationInfo:
    """The fee paid (Art. 10; Art. 15 VII). Before activation it may complete it; with a renewal requested it
    renews: same number, validity counted again from this payment (Art. 3 §§1-2)."""
    require_role(actor, *FRONT_DESK)
    guide = _require_text(guide_number, "guide_number", "Informe o número da guia.")
    try:
        amount = Decimal(str(amount)).quantize(Decimal("0.01"))
    except (InvalidOperation, ValueError):
        raise ValidationError([Problem("amount", "Valor inválido.")]) from None
    if amount <= 0:
        raise ValidationError([Problem("amount", "Informe o valor pago.")])
    _not_future(paid_on, "paid_on", "do pagamento")
    with db.session() as s:
        a = _load(s, authorization_id, expected_version)
        before = _snapshot(a)
        if a.status in (S.REQUESTED, S.IN_ANALYSIS, S.APPROVED):
            a.fee_paid_on, a.fee_guide_number, a.fee_amount = paid_on, guide, amount
            _record_fee_row(s, actor, a, "authorization", paid_on, guide, amount)
            _event(s, actor, a, "fee", a.status, on=paid_on, reason=f"Guia {guide}, {format_money(amount)}")
            _audit(s, actor, a, "fee", before)
            _try_activate(s, actor, a)
            return _info(s, a)
        if a.renewal_requested_on is None or a.status not in (S.ACTIVE, S.IMPEDED, S.SUSPENDED, S.EXPIRED):
            raise ValidationError([Problem(
                "renewal", "Registre antes o pedido de renovação: esta autorização já tem a taxa paga.", "Art. 3, §2")])
        vehicle = s.get(Vehicle, a.vehicle_id)
        validity = explain_valid_until(paid_on, vehicle.manufacture_year)
        if a.valid_until is not None and validity.valid_until <= a.valid_until:
            raise ValidationError([Problem(
                "paid_on", f"A renovação não estenderia a validade ({format_date(a.valid_until)}): "
                           f"{validity.reason}", validity.article)])
        if a.status == S.EXPIRED:
            problems = activation_problems(paid_on, paid_on, a.inspection_approved_on,
                                           a.inspection_waived_on is not None, vehicle.manufacture_year)
            if problems:
                raise ValidationError(problems)
            _move(s, actor, a, S.ACTIVE, "renewal", on=paid_on, reason=validity.reason)
        else:
            _event(s, actor, a, "renewal", a.status, on=paid_on, reason=validity.reason)
        a.fee_paid_on, a.fee_guide_number, a.fee_amount = paid_on, guide, amount
        _record_fee_row(s, actor, a, "renewal", paid_on, guide, amount)
        a.valid_until = validity.valid_until
        a.valid_until_limited_by = validity.limited_by.value
        a.renewal_count += 1
        a.renewal_requested_on = None
        _audit(s, actor, a, "renewal", before)
        return _info(s, a)


def request_renewal(db, actor: Actor, authorization_id: int, requested_on: date,
                    expected_version: int) -> AuthorizationInfo:
    """The renewal request (Art. 3 §2: at least 15 business days before expiry). A later one is received and
    marked late; after the validity ended it is a new request, not a renewal."""
    require_role(actor, *FRONT_DESK)
    _not_future(requested_on, "requested_on", "do pedido")
    with db.session() as s:
        a = _load(s, authorization_id, expected_version)
        if a.status not in (S.ACTIVE, S.IMPEDED, S.SUSPENDED) or a.valid_until is None:
            raise TransitionRefused(f"Autorização {status_label(a.status).lower()}: só uma autorização ativa, impedida "
                                    "ou suspensa pode ser renovada.")
        if a.renewal_requested_on is not None:
            raise ValidationError([Problem("renewal", f"A renovação já foi solicitada em "
                                                      f"{format_date(a.renewal_requested_on)}.", "Art. 3, §2")])
        if requested_on > a.valid_until:
            raise ValidationError([Problem(
                "requested_on", f"A autorização venceu em {format_date(a.valid_until)}: faça um novo requerimento.",
                "Art. 3, §2")])
        last_day = renewal_request_deadline(a.valid_until, calendar_in(s))
        before = _snapshot(a)
        a.renewal_requested_on = requested_on
        a.renewal_late = requested_on > last_day
        note = f"Último dia para pedir no prazo: {format_date(last_day)}"
        if a.renewal_late:
            note += " — pedido fora do prazo (Art. 3, §2)"
        _event(s, actor, a, "renewal_request", a.status, on=requested_on, reason=note)
        _audit(s, actor, a, "renewal_request", before)
        return _info(s, a)


def substitute_vehicle(db, actor: Actor, authorization_id: int, new_vehicle_id: int, reason: str, on: date | None,
                       expected_version: int) -> AuthorizationInfo:
    """Art. 8 §2: another vehicle (sinistro, venda, locação) meeting Art. 2, after a new inspection. The number
    stays; an active authorization is impeded until the new vehicle's inspection is approved; both vehicles stay
    in the history."""
    from desktop.services.vehicles import stored_vehicle_problems

    require_role(actor, *FRONT_DESK)
    on = on or local_today()
    why = _require_text(reason, "reason", "Informe o motivo da substituição (sinistro, venda, locação).", "Art. 8, §2")
    with db.session() as s:
        a = _load(s, authorization_id, expected_version)
        if a.status not in (S.APPROVED, S.ACTIVE, S.IMPEDED):
            raise TransitionRefused(f"Autorização {status_label(a.status).lower()}: "
                                    "o veículo não pode ser substituído.")
        new = get_or_404(s, Vehicle, new_vehicle_id, "Veículo")
        if new.id == a.vehicle_id:
            raise ValidationError([Problem("vehicle", "Escolha um veículo diferente do atual.", "Art. 8, §2")])
        problems = stored_vehicle_problems(new, on)
        if problems:
            raise ValidationError(problems)
        before = _snapshot(a)
        old_id = a.vehicle_id
        a.vehicle_id = new.id
        a.inspection_approved_on = None
        a.inspection_waived_on = None
        a.inspection_waived_by = None
        s.flush()  # the partial unique index refuses a vehicle that already has a live authorization
        text = f"{why} — nova vistoria exigida (Art. 8, §2)"
        _event(s, actor, a, "substitution", a.status, on=on, reason=text, old_vehicle_id=old_id,
               new_vehicle_id=new.id)
        if a.status == S.ACTIVE:
            _move(s, actor, a, S.IMPEDED, "impediment", on=on,
                  reason="Aguardando a vistoria do novo veículo (Art. 8, §2)")
        if a.fee_paid_on is not None and a.valid_until is not None:
            validity = explain_valid_until(a.fee_paid_on, new.manufacture_year)
            a.valid_until = validity.valid_until
            a.valid_until_limited_by = validity.limited_by.value
        _audit(s, actor, a, "substitution", before, reason=why)
        return _info(s, a)


# ---------------------------------------------------------------------------------------------------------
# The gestor
# ---------------------------------------------------------------------------------------------------------

def approve_authorization(db, actor: Actor, authorization_id: int, expected_version: int, on: date | None = None,
                          note: str = "", act_number: str | None = None) -> AuthorizationInfo:
    """Approve after the analysis; refused with every problem of the driver and the vehicle. Sets the 5 days to
    present the vehicle (Art. 9)."""
    require_role(actor, Role.GESTOR)
    on = on or local_today()
    with db.session() as s:
        a = _load(s, authorization_id, expected_version)
        try:
            transition(AUTHORIZATION_MACHINE, a.status, S.APPROVED)
        except TransitionNotAllowed as exc:
            raise TransitionRefused(str(exc)) from exc
        problems = _analysis_problems(s, a, on)
        if problems:
            raise ValidationError(problems, "O requerimento não pode ser aprovado:\n"
                                  + "\n".join(f"• {p}" for p in problems))
        before = _snapshot(a)
        _move(s, actor, a, S.APPROVED, "approval", on=on, reason=note, act_number=act_number)
        a.decided_on, a.decided_by = on, actor.user_id
        a.decision_reason = (note or "").strip() or None
        a.presentation_deadline = presentation_deadline(on, calendar_in(s))
        _audit(s, actor, a, "approval", before)
        _try_activate(s, actor, a)
        return _info(s, a)


def refuse_authorization(db, actor: Actor, authorization_id: int, reason: str, expected_version: int,
                         on: date | None = None, act_number: str | None = None) -> AuthorizationInfo:
    require_role(actor, Role.GESTOR)
    on = on or local_today()
    why = _require_text(reason, "reason", "Informe o motivo do indeferimento.")
    with db.session() as s:
        a = _load(s, authorization_id, expected_version)
        before = _snapshot(a)
        _move(s, actor, a, S.REFUSED, "refusal", on=on, reason=why, act_number=act_number)
        a.decided_on, a.decided_by, a.decision_reason, a.ended_on = on, actor.user_id, why, on
        _audit(s, actor, a, "refusal", before)
        return _info(s, a)


def waive_inspection(db, actor: Actor, authorization_id: int, reason: str, expected_version: int,
                     on: date | None = None) -> AuthorizationInfo:
    """Art. 9 §1: the municipality may waive the inspection at the registration."""
    require_role(actor, Role.GESTOR)
    on = on or local_today()
    why = _require_text(reason, "reason", "Informe o motivo da dispensa de vistoria.", "Art. 9, §1")
    with db.session() as s:
        a = _load(s, authorization_id, expected_version)
        if a.status not in (S.IN_ANALYSIS, S.APPROVED):
            raise TransitionRefused("A vistoria só pode ser dispensada no cadastramento (requerimento em análise "
                                    "ou aprovado) (Art. 9, §1).")
        if a.inspection_approved_on or a.inspection_waived_on:
            raise ValidationError([Problem("inspection", "A vistoria já foi aprovada ou dispensada.", "Art. 9, §1")])
        before = _snapshot(a)
        a.inspection_waived_on, a.inspection_waived_by = on, actor.user_id
        _event(s, actor, a, "inspection_waived", a.status, on=on, reason=why)
        _audit(s, actor, a, "inspection_waived", before)
        _try_activate(s, actor, a)
        return _info(s, a)


def _end(session: Session, actor: Actor, a: Authorization, target: S, kind: str, reason: str,
         act_number: str | None, on: date) -> None:
    before = _snapshot(a)
    _move(session, actor, a, target, kind, on=on, reason=reason, act_number=act_number)
    a.ended_on = on
    a.renewal_requested_on = None
    _audit(session, actor, a, kind, before)


def revoke_authorization(db, actor: Actor, authorization_id: int, reason: str, act_number: str, on: date | None,
                         expected_version: int) -> AuthorizationInfo:
    """Revogação (Art. 24, I, c) by a gestor's act."""
    require_role(actor, Role.GESTOR)
    why = _require_text(reason, "reason", "Informe o motivo da revogação.", "Art. 24, I, c")
    act = _require_text(act_number, "act_number", "Informe o número do ato.", "Art. 24, I, c")
    with db.session() as s:
        a = _load(s, authorization_id, expected_version)
        _end(s, actor, a, S.REVOKED, "revocation", why, act, on or local_today())
        return _info(s, a)


def cassate_authorization(db, actor: Actor, authorization_id: int, reason: str, act_number: str, on: date | None,
                          expected_version: int) -> AuthorizationInfo:
    """Cassação (Art. 24, I, e; Art. 26, §2) by a gestor's act."""
    require_role(actor, Role.GESTOR)
    why = _require_text(reason, "reason", "Informe o motivo da cassação.", "Art. 24, I, e")
    act = _require_text(act_number, "act_number", "Informe o número do ato.", "Art. 24, I, e")
    with db.session() as s:
        a = _load(s, authorization_id, expected_version)
        _end(s, actor, a, S.CASSADA, "cassation", why, act, on or local_today())
        return _info(s, a)


def suspend_authorization(db, actor: Actor, authorization_id: int, basis: SuspensionBasis | str, start_on: date,
                          act_number: str, reason: str, expected_version: int) -> AuthorizationInfo:
    """Suspension (Art. 24, I, b) for 12 months (Art. 24, parágrafo único) or 30 days (Art. 26, §1); it ends by
    itself (services.jobs) the day after `suspended_until`."""
    require_role(actor, Role.GESTOR)
    try:
        basis = SuspensionBasis(basis)
    except ValueError:
        raise ValidationError([Problem("basis", "Escolha o prazo da suspensão.", "Art. 24, parágrafo único")]) from None
    why = _require_text(reason, "reason", "Informe o motivo da suspensão.", basis.article)
    act = _require_text(act_number, "act_number", "Informe o número do ato.", basis.article)
    with db.session() as s:
        a = _load(s, authorization_id, expected_version)
        before = _snapshot(a)
        until = basis.end(start_on)
        _move(s, actor, a, S.SUSPENDED, "suspension", on=start_on,
              reason=f"{why} — {basis.label}, até {format_date(until)}", act_number=act)
        a.suspended_until = until
        _audit(s, actor, a, "suspension", before, reason=why, act_number=act)
        return _info(s, a)


def end_for_deregistration(session: Session, actor: Actor, a: Authorization, reason: str, act_number: str | None,
                           on: date) -> None:
    """The driver's or vehicle's descadastramento ends its live authorization: a pending request is refused, any
    other is revoked (Art. 24, I, d and f)."""
    target = S.REFUSED if a.status in (S.REQUESTED, S.IN_ANALYSIS) else S.REVOKED
    _end(session, actor, a, target, "deregistration", reason, act_number, on)


def deregistration_problems(reason: str, article: str) -> None:
    """The reason is required (the act is contestable): raise before anything is opened."""
    if not (reason or "").strip():
        raise ValidationError([Problem("reason", "Informe o motivo do descadastramento.", article)])


def deregister_subject(session: Session, actor: Actor, subject, *, entity: str, label: str, owner_column,
                       reason: str, act_number: str | None, on: date, snapshot) -> None:
    """Descadastramento of a driver or a vehicle (Art. 24, I, d and f) inside the caller's session: mark the
    record, end its live authorizations (`end_for_deregistration`), audit before and after. `label` names the
    subject in Portuguese ("condutor", "veículo"); `owner_column` is Authorization.driver_id or .vehicle_id."""
    if subject.status == "deregistered":
        raise ValidationError([Problem("status", f"O {label} já está descadastrado.")])
    before = snapshot(subject)
    subject.status = "deregistered"
    subject.deregistered_on = on
    subject.deregistration_reason = reason.strip()
    live = session.execute(select(Authorization).where(
        owner_column == subject.id, Authorization.status.in_(LIVE_AUTHORIZATION_STATUSES))).scalars().all()
    for a in live:
        end_for_deregistration(session, actor, a, f"Descadastramento do {label}: {reason.strip()}", act_number, on)
    session.flush()
    audit.record(session, actor, f"{entity}.deregister", entity, subject.id, before,
                 {**snapshot(subject), "reason": reason.strip(), "act_number": act_number})


# ---------------------------------------------------------------------------------------------------------
# The vistoriador (until the inspection scheduler takes it over)
# ---------------------------------------------------------------------------------------------------------

def record_inspection_result(db, actor: Actor, authorization_id: int, approved: bool, on: date | None = None,
                             note: str = "", expected_version: int | None = None) -> AuthorizationInfo:
    """The result of the vehicle's inspection in its own transaction (see `record_inspection_result_in`)."""
    with db.session() as s:
        return record_inspection_result_in(s, actor, authorization_id, approved, on=on, note=note,
                                           expected_version=expected_version)


def record_inspection_result_in(s: Session, actor: Actor, authorization_id: int, approved: bool,
                                on: date | None = None, note: str = "",
                                expected_version: int | None = None) -> AuthorizationInfo:
    """The result of the vehicle's inspection, inside the given transaction: the initial one after approval
    (Art. 9), the new vehicle's after a substitution (Art. 8 §2), or a re-inspection. Approved may activate or
    lift the impediment; failed gives 5 days to regularize and impedes an active authorization (Art. 16 §2)."""
    require_role(actor, Role.VISTORIADOR)
    on = on or local_today()
    _not_future(on, "on", "da vistoria")
    if not approved and not (note or "").strip():
        raise ValidationError([Problem("note", "Descreva o que reprovou o veículo.", "Art. 16, §2")])
    a = _load(s, authorization_id, expected_version)
    if a.status not in (S.APPROVED, S.ACTIVE, S.IMPEDED):
        raise TransitionRefused(f"Autorização {status_label(a.status).lower()}: não há vistoria a registrar.")
    before = _snapshot(a)
    last_substitution = s.execute(
        select(AuthorizationEvent.id).where(AuthorizationEvent.authorization_id == a.id,
                                            AuthorizationEvent.kind == "substitution")
        .order_by(AuthorizationEvent.id.desc()).limit(1)).scalar_one_or_none()
    if a.status == S.APPROVED:
        kind = "substitution" if last_substitution else "initial"
    elif a.status == S.IMPEDED:
        kind = "substitution" if last_substitution and a.inspection_approved_on is None else "reinspection"
    else:
        kind = "annual"
    regularize_by = None if approved else regularization_deadline(on, calendar_in(s))
    performed = now() if on == local_today() else datetime.combine(on, time(12, 0), tzinfo=now().tzinfo)
    s.add(Inspection(kind=kind, vehicle_id=a.vehicle_id, authorization_id=a.id, inspector_id=actor.user_id,
                     status="done", result="approved" if approved else "failed", performed_at=performed,
                     notes=(note or "").strip() or None, regularize_by=regularize_by,
                     created_by=actor.user_id))
    result = "aprovada" if approved else f"reprovada: {note.strip()}"
    if approved:
        a.inspection_approved_on = on
        a.regularize_by = None
        if a.status == S.IMPEDED:
            _move(s, actor, a, S.ACTIVE, "inspection", on=on, reason=f"Vistoria {result}")
        else:
            _event(s, actor, a, "inspection", a.status, on=on, reason=f"Vistoria {result}")
    else:
        a.regularize_by = regularize_by
        text = f"Vistoria {result} — regularizar até {format_date(regularize_by)} (Art. 16, §2)"
        if a.status == S.ACTIVE:
            _move(s, actor, a, S.IMPEDED, "inspection", on=on, reason=text)
        else:
            _event(s, actor, a, "inspection", a.status, on=on, reason=text)
    _audit(s, actor, a, "inspection", before)
    _try_activate(s, actor, a)
    return _info(s, a)


# ---------------------------------------------------------------------------------------------------------
# List
# ---------------------------------------------------------------------------------------------------------

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


def list_authorizations(db, actor: Actor, text: str = "", statuses: Iterable[str] | None = None,
                        sort: str = "protocol_date", descending: bool = True, offset: int = 0,
                        limit: int = 50) -> Page[AuthorizationRow]:
    """One page of authorizations. Text: a number ("12/2026"), a CPF, a plate ("ABC-1") or the driver's name
    (accent- and case-insensitive)."""
    require_reader(actor)
    offset, limit = check_page(offset, limit)
    conditions = []
    condition = _text_filter(text)
    if condition is not None:
        conditions.append(condition)
    statuses = [S(x).value for x in statuses] if statuses else []
    if statuses:
        conditions.append(Authorization.status.in_(statuses))
    stmt = (select(Authorization.id, Authorization.number, Authorization.status, Authorization.driver_id,
                   Authorization.protocol_date, Authorization.valid_until, Authorization.renewal_late,
                   Driver.name, Driver.cpf, Vehicle.plate)
            .join(Driver, Driver.id == Authorization.driver_id)
            .join(Vehicle, Vehicle.id == Authorization.vehicle_id)
            .where(*conditions))
    with db.session(write=False) as s:
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
