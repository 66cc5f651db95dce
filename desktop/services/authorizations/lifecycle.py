"""The authorization lifecycle's commands (Art. 3, 8, 9, 10, 15, 16, 24, 26): each in two forms, `x_in(session,
actor, ...)` inside a transaction it is given and `x(db, actor, ...)` opening its own. The steps that are not a
status move are refused by the table of `desktop.domain.authorization_steps` (the same table that draws the
buttons); status moves by AUTHORIZATION_MACHINE (`registry.events.move_authorization`)."""
from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation

from sqlalchemy import select
from sqlalchemy.orm import Session

from desktop.domain.money import round_cents
from desktop.domain import (
    AUTHORIZATION_MACHINE,
    AuthorizationStatus,
    TransitionNotAllowed,
    activation_problems,
    explain_valid_until,
    format_date,
    format_money,
    local_today,
    presentation_deadline,
    regularization_deadline,
    renewal_request_deadline,
    transition,
)
from desktop.domain.authorization import SuspensionBasis
from desktop.domain.authorization_steps import authorization_refusal, authorization_step, is_renewal_fee
from desktop.domain.problems import Problem
from desktop.domain.roles import REGISTRY_ROLES
from desktop.errors import ConflictError, TransitionRefused, ValidationError
from desktop.domain.finance import FEE_MACHINE, FeeStatus
from desktop.models import (
    Authorization,
    AuthorizationEvent,
    Driver,
    Fee,
    FeePayment,
    Inspection,
    LedgerEntry,
    PaymentGuide,
    Vehicle,
)
from desktop.models.types import now
from desktop.services.authorizations.queries import (
    AuthorizationInfo,
    analysis_problems_of,
    authorization_facts,
    authorization_info,
)
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.locking import check_version
from desktop.services.permissions import require_role
from desktop.services.holidays import calendar_in
from desktop.services.numbering import next_number
from desktop.services.registry.events import (
    audit_authorization,
    end_authorization,
    move_authorization,
    record_event,
    snapshot_authorization,
)
from desktop.services.registry.history import status_label
from desktop.services.permissions import FRONT_DESK
from desktop.services.lookups import get_or_404
from desktop.services.vehicles import stored_vehicle_problems

S = AuthorizationStatus

def _load(session: Session, authorization_id: int, expected_version: int) -> Authorization:
    a = get_or_404(session, Authorization, authorization_id, "Autorização")
    check_version(a, expected_version)
    return a


def _check_step(key: str, a: Authorization, actor: Actor, field: str) -> None:
    """Refuse the step `key` as the table of `desktop.domain.authorization_steps` does (the same rule that
    disables its button): a status that does not allow it is `TransitionRefused`; a condition of the record
    (already paid, already requested) is a `ValidationError` on `field`, with the article."""
    step = authorization_step(key)
    reason = authorization_refusal(key, authorization_facts(a), actor.roles)
    if reason is None:
        return
    if step.statuses and a.status not in step.statuses:
        raise TransitionRefused(f"Autorização {status_label(a.status).lower()}: {step.label.rstrip('…').lower()} — "
                                f"{reason} ({step.article}).")
    raise ValidationError([Problem(field, reason[0].upper() + reason[1:] + ".", step.article)])


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
    before = snapshot_authorization(a)
    validity = explain_valid_until(a.fee_paid_on, vehicle.manufacture_year)
    if a.number is None:  # taken before the status moves (an active authorization always has its number)
        a.number = next_number(session, "authorization", on.year)
    move_authorization(session, actor, a, S.ACTIVE, "activation", on=on, reason=validity.reason)
    a.activated_on = on
    a.valid_until = validity.valid_until
    a.valid_until_limited_by = validity.limited_by.value
    a.regularize_by = None
    audit_authorization(session, actor, a, "activation", before)
    return True


def _record_fee_row(session: Session, actor: Actor, a: Authorization, kind: str, paid_on: date,
                    guide_number: str, amount: Decimal, source: str = "manual",
                    bank_return_id: int | None = None) -> None:
    """The fee paid (Art. 10) as an append-only `fee_payments` record (issue 12 item 6: who, when, how much,
    which guide, from the desk or the bank's return file). The `fees` row's paid state is set ONCE from it
    (open → paid by FEE_MACHINE; a fee paid without a fee row of its own gets one, written paid). A guide
    (DAM) of that number is marked paid with it; the same guide number never pays two debts."""
    guide = session.execute(select(PaymentGuide).where(PaymentGuide.number == guide_number)
                            .with_for_update()).scalar_one_or_none()
    if guide is not None:
        if guide.purpose != "fee":
            raise ConflictError(f"A guia {guide_number} não é de taxa: o mesmo número de guia não paga dois débitos.")
        if guide.status != "open":
            raise ConflictError(f"A guia {guide_number} já está {'paga' if guide.status == 'paid' else 'cancelada'}.")
        if Decimal(guide.amount_reais) != amount:
            raise ValidationError([Problem("amount", f"O valor pago ({format_money(amount)}) difere do valor da guia "
                                                     f"{guide_number} ({format_money(guide.amount_reais)}).")])
    if session.scalar(select(FeePayment.id).where(FeePayment.guide_number == guide_number)) is not None or \
            session.scalar(select(LedgerEntry.id).where(LedgerEntry.guide_number == guide_number,
                                                        LedgerEntry.kind == "payment").limit(1)) is not None:
        raise ConflictError(f"A guia {guide_number} já foi usada em outro pagamento: o mesmo número de guia não "
                            "paga dois débitos.")
    fee = session.get(Fee, guide.fee_id) if guide is not None and guide.fee_id else None
    if fee is None:
        fee = session.execute(select(Fee).where(Fee.guide_number == guide_number)).scalar_one_or_none()
    if fee is not None:
        if fee.status != "open" or (fee.authorization_id not in (None, a.id)):
            raise ConflictError(f"A guia {guide_number} já está paga ou vinculada a outra autorização.")
        fee.status = transition(FEE_MACHINE, fee.status, FeeStatus.PAID).value
        fee.paid_on, fee.paid_amount = paid_on, amount
        fee.authorization_id, fee.vehicle_id = a.id, a.vehicle_id
    else:
        fee = Fee(kind=kind, vehicle_id=a.vehicle_id, authorization_id=a.id, due_on=paid_on,
                  amount_reais=amount, guide_number=guide_number, status="paid", paid_on=paid_on,
                  paid_amount=amount, created_by=actor.user_id)
        session.add(fee)
    session.flush()
    payment = FeePayment(fee_id=fee.id, guide_id=guide.id if guide is not None else None, guide_number=guide_number,
                         paid_on=paid_on, amount=amount, source=source, bank_return_id=bank_return_id,
                         recorded_by=actor.user_id)
    session.add(payment)
    if guide is not None:
        guide.status, guide.paid_on, guide.paid_amount = "paid", paid_on, amount
    session.flush()
    audit.record(session, actor, "fee.payment", "fee", fee.id, None,
                 {"authorization_id": a.id, "kind": fee.kind, "guide": guide_number, "paid_on": paid_on.isoformat(),
                  "amount": str(amount), "source": source, "payment_id": payment.id})


def request_authorization_in(s: Session, actor: Actor, driver_id: int, vehicle_id: int, protocol_date: date,
                             protocol_number: str | None = None) -> AuthorizationInfo:
    """File the request (protocolo) for one driver and one vehicle (Art. 8: one vehicle per driver, one live
    authorization per driver and per vehicle — the database refuses a second)."""
    require_role(actor, *FRONT_DESK)
    _not_future(protocol_date, "protocol_date", "do protocolo")
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
    record_event(s, actor, a, "request", None, on=protocol_date)
    audit_authorization(s, actor, a, "request", None)
    return authorization_info(s, a, actor.roles)


def request_authorization(db, actor: Actor, driver_id: int, vehicle_id: int, protocol_date: date,
                          protocol_number: str | None = None) -> AuthorizationInfo:
    """Request authorization in its own transaction (see `request_authorization_in`)."""
    with db.session() as s:
        return request_authorization_in(s, actor, driver_id, vehicle_id, protocol_date, protocol_number)


def start_analysis_in(s: Session, actor: Actor, authorization_id: int, expected_version: int,
                      on: date | None = None) -> AuthorizationInfo:
    require_role(actor, *FRONT_DESK)
    on = on or local_today()
    a = _load(s, authorization_id, expected_version)
    before = snapshot_authorization(a)
    move_authorization(s, actor, a, S.IN_ANALYSIS, "analysis", on=on)
    a.analysis_started_on = on
    audit_authorization(s, actor, a, "analysis", before)
    return authorization_info(s, a, actor.roles)


def start_analysis(db, actor: Actor, authorization_id: int, expected_version: int,
                   on: date | None = None) -> AuthorizationInfo:
    """Start analysis in its own transaction (see `start_analysis_in`)."""
    with db.session() as s:
        return start_analysis_in(s, actor, authorization_id, expected_version, on)


def record_fee_payment_in(s: Session, actor: Actor, authorization_id: int, paid_on: date, guide_number: str, amount,
                          expected_version: int, *, source: str = "manual",
                          bank_return_id: int | None = None) -> AuthorizationInfo:
    """The fee paid (Art. 10; Art. 15 VII). Before activation it may complete it; with a renewal requested it
    renews: same number, validity counted again from this payment (Art. 3 §§1-2). `source` "bank" and
    `bank_return_id` when the payment comes from the bank's return file (services.bank_returns): the
    payment date is the bank's."""
    require_role(actor, *FRONT_DESK)
    guide = _require_text(guide_number, "guide_number", "Informe o número da guia.")
    try:
        amount = round_cents(Decimal(str(amount)))
    except (InvalidOperation, ValueError):
        raise ValidationError([Problem("amount", "Valor inválido.")]) from None
    if amount <= 0:
        raise ValidationError([Problem("amount", "Informe o valor pago.")])
    _not_future(paid_on, "paid_on", "do pagamento")
    a = _load(s, authorization_id, expected_version)
    _check_step("fee", a, actor, "renewal" if is_renewal_fee(a.status) else "fee_paid_on")
    before = snapshot_authorization(a)
    if not is_renewal_fee(a.status):
        a.fee_paid_on, a.fee_guide_number, a.fee_amount = paid_on, guide, amount
        _record_fee_row(s, actor, a, "authorization", paid_on, guide, amount, source, bank_return_id)
        record_event(s, actor, a, "fee", a.status, on=paid_on, reason=f"Guia {guide}, {format_money(amount)}")
        audit_authorization(s, actor, a, "fee", before)
        _try_activate(s, actor, a)
        return authorization_info(s, a, actor.roles)
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
        move_authorization(s, actor, a, S.ACTIVE, "renewal", on=paid_on, reason=validity.reason)
    else:
        record_event(s, actor, a, "renewal", a.status, on=paid_on, reason=validity.reason)
    a.fee_paid_on, a.fee_guide_number, a.fee_amount = paid_on, guide, amount
    _record_fee_row(s, actor, a, "renewal", paid_on, guide, amount, source, bank_return_id)
    a.valid_until = validity.valid_until
    a.valid_until_limited_by = validity.limited_by.value
    a.renewal_count += 1
    a.renewal_requested_on = None
    audit_authorization(s, actor, a, "renewal", before)
    return authorization_info(s, a, actor.roles)


def record_fee_payment(db, actor: Actor, authorization_id: int, paid_on: date, guide_number: str, amount,
                       expected_version: int) -> AuthorizationInfo:
    """Record fee payment in its own transaction (see `record_fee_payment_in`)."""
    with db.session() as s:
        return record_fee_payment_in(s, actor, authorization_id, paid_on, guide_number, amount, expected_version)


def request_renewal_in(s: Session, actor: Actor, authorization_id: int, requested_on: date,
                       expected_version: int) -> AuthorizationInfo:
    """The renewal request (Art. 3 §2: at least 15 business days before expiry). A later one is received and
    marked late; after the validity ended it is a new request, not a renewal."""
    require_role(actor, *FRONT_DESK)
    _not_future(requested_on, "requested_on", "do pedido")
    a = _load(s, authorization_id, expected_version)
    _check_step("renewal", a, actor, "renewal")
    if requested_on > a.valid_until:
        raise ValidationError([Problem(
            "requested_on", f"A autorização venceu em {format_date(a.valid_until)}: faça um novo requerimento.",
            "Art. 3, §2")])
    last_day = renewal_request_deadline(a.valid_until, calendar_in(s))
    before = snapshot_authorization(a)
    a.renewal_requested_on = requested_on
    a.renewal_late = requested_on > last_day
    note = f"Último dia para pedir no prazo: {format_date(last_day)}"
    if a.renewal_late:
        note += " — pedido fora do prazo (Art. 3, §2)"
    record_event(s, actor, a, "renewal_request", a.status, on=requested_on, reason=note)
    audit_authorization(s, actor, a, "renewal_request", before)
    return authorization_info(s, a, actor.roles)


def request_renewal(db, actor: Actor, authorization_id: int, requested_on: date,
                    expected_version: int) -> AuthorizationInfo:
    """Request renewal in its own transaction (see `request_renewal_in`)."""
    with db.session() as s:
        return request_renewal_in(s, actor, authorization_id, requested_on, expected_version)


def substitute_vehicle_in(s: Session, actor: Actor, authorization_id: int, new_vehicle_id: int, reason: str,
                          on: date | None, expected_version: int) -> AuthorizationInfo:
    """Art. 8 §2: another vehicle (sinistro, venda, locação) meeting Art. 2, after a new inspection. The number
    stays; an active authorization is impeded until the new vehicle's inspection is approved; both vehicles stay
    in the history."""
    require_role(actor, *FRONT_DESK)
    on = on or local_today()
    why = _require_text(reason, "reason", "Informe o motivo da substituição (sinistro, venda, locação).", "Art. 8, §2")
    a = _load(s, authorization_id, expected_version)
    _check_step("substitute", a, actor, "vehicle")
    new = get_or_404(s, Vehicle, new_vehicle_id, "Veículo")
    if new.id == a.vehicle_id:
        raise ValidationError([Problem("vehicle", "Escolha um veículo diferente do atual.", "Art. 8, §2")])
    problems = stored_vehicle_problems(new, on)
    if problems:
        raise ValidationError(problems)
    before = snapshot_authorization(a)
    old_id = a.vehicle_id
    a.vehicle_id = new.id
    a.inspection_approved_on = None
    a.inspection_waived_on = None
    a.inspection_waived_by = None
    s.flush()  # the partial unique index refuses a vehicle that already has a live authorization
    text = f"{why} — nova vistoria exigida (Art. 8, §2)"
    record_event(s, actor, a, "substitution", a.status, on=on, reason=text, old_vehicle_id=old_id,
                 new_vehicle_id=new.id)
    if a.status == S.ACTIVE:
        move_authorization(s, actor, a, S.IMPEDED, "impediment", on=on,
                           reason="Aguardando a vistoria do novo veículo (Art. 8, §2)")
    if a.fee_paid_on is not None and a.valid_until is not None:
        validity = explain_valid_until(a.fee_paid_on, new.manufacture_year)
        a.valid_until = validity.valid_until
        a.valid_until_limited_by = validity.limited_by.value
    audit_authorization(s, actor, a, "substitution", before, reason=why)
    return authorization_info(s, a, actor.roles)


def substitute_vehicle(db, actor: Actor, authorization_id: int, new_vehicle_id: int, reason: str, on: date | None,
                       expected_version: int) -> AuthorizationInfo:
    """Substitute vehicle in its own transaction (see `substitute_vehicle_in`)."""
    with db.session() as s:
        return substitute_vehicle_in(s, actor, authorization_id, new_vehicle_id, reason, on, expected_version)


def approve_authorization_in(s: Session, actor: Actor, authorization_id: int, expected_version: int,
                             on: date | None = None, note: str = "",
                             act_number: str | None = None) -> AuthorizationInfo:
    """Approve after the analysis; refused with every problem of the driver and the vehicle. Sets the 5 days to
    present the vehicle (Art. 9)."""
    require_role(actor, *REGISTRY_ROLES.decide)
    on = on or local_today()
    a = _load(s, authorization_id, expected_version)
    try:
        transition(AUTHORIZATION_MACHINE, a.status, S.APPROVED)
    except TransitionNotAllowed as exc:
        raise TransitionRefused(str(exc)) from exc
    problems = analysis_problems_of(s, a, on)
    if problems:
        raise ValidationError(problems, "O requerimento não pode ser aprovado:\n"
                              + "\n".join(f"• {p}" for p in problems))
    before = snapshot_authorization(a)
    move_authorization(s, actor, a, S.APPROVED, "approval", on=on, reason=note, act_number=act_number)
    a.decided_on, a.decided_by = on, actor.user_id
    a.decision_reason = (note or "").strip() or None
    a.presentation_deadline = presentation_deadline(on, calendar_in(s))
    audit_authorization(s, actor, a, "approval", before)
    _try_activate(s, actor, a)
    return authorization_info(s, a, actor.roles)


def approve_authorization(db, actor: Actor, authorization_id: int, expected_version: int, on: date | None = None,
                          note: str = "", act_number: str | None = None) -> AuthorizationInfo:
    """Approve authorization in its own transaction (see `approve_authorization_in`)."""
    with db.session() as s:
        return approve_authorization_in(s, actor, authorization_id, expected_version, on, note, act_number)


def refuse_authorization_in(s: Session, actor: Actor, authorization_id: int, reason: str, expected_version: int,
                            on: date | None = None, act_number: str | None = None) -> AuthorizationInfo:
    require_role(actor, *REGISTRY_ROLES.decide)
    on = on or local_today()
    why = _require_text(reason, "reason", "Informe o motivo do indeferimento.")
    a = _load(s, authorization_id, expected_version)
    before = snapshot_authorization(a)
    move_authorization(s, actor, a, S.REFUSED, "refusal", on=on, reason=why, act_number=act_number)
    a.decided_on, a.decided_by, a.decision_reason, a.ended_on = on, actor.user_id, why, on
    audit_authorization(s, actor, a, "refusal", before)
    return authorization_info(s, a, actor.roles)


def refuse_authorization(db, actor: Actor, authorization_id: int, reason: str, expected_version: int,
                         on: date | None = None, act_number: str | None = None) -> AuthorizationInfo:
    """Refuse authorization in its own transaction (see `refuse_authorization_in`)."""
    with db.session() as s:
        return refuse_authorization_in(s, actor, authorization_id, reason, expected_version, on, act_number)


def waive_inspection_in(s: Session, actor: Actor, authorization_id: int, reason: str, expected_version: int,
                        on: date | None = None) -> AuthorizationInfo:
    """Art. 9 §1: the municipality may waive the inspection at the registration."""
    require_role(actor, *REGISTRY_ROLES.decide)
    on = on or local_today()
    why = _require_text(reason, "reason", "Informe o motivo da dispensa de vistoria.", "Art. 9, §1")
    a = _load(s, authorization_id, expected_version)
    _check_step("waive", a, actor, "inspection")
    before = snapshot_authorization(a)
    a.inspection_waived_on, a.inspection_waived_by = on, actor.user_id
    record_event(s, actor, a, "inspection_waived", a.status, on=on, reason=why)
    audit_authorization(s, actor, a, "inspection_waived", before)
    _try_activate(s, actor, a)
    return authorization_info(s, a, actor.roles)


def waive_inspection(db, actor: Actor, authorization_id: int, reason: str, expected_version: int,
                     on: date | None = None) -> AuthorizationInfo:
    """Waive inspection in its own transaction (see `waive_inspection_in`)."""
    with db.session() as s:
        return waive_inspection_in(s, actor, authorization_id, reason, expected_version, on)


def _end_by_act(s: Session, actor: Actor, authorization_id: int, target: S, kind: str, what: str, article: str,
                reason: str, act_number: str, on: date | None, expected_version: int) -> AuthorizationInfo:
    """A final move by a gestor's act: the reason and the act's number are required, both naming `article`."""
    require_role(actor, *REGISTRY_ROLES.decide)
    why = _require_text(reason, "reason", f"Informe o motivo da {what}.", article)
    act = _require_text(act_number, "act_number", "Informe o número do ato.", article)
    a = _load(s, authorization_id, expected_version)
    end_authorization(s, actor, a, target, kind, why, act, on or local_today())
    return authorization_info(s, a, actor.roles)


def revoke_authorization_in(s: Session, actor: Actor, authorization_id: int, reason: str, act_number: str,
                            on: date | None, expected_version: int) -> AuthorizationInfo:
    """Revogação (Art. 24, I, c) by a gestor's act."""
    return _end_by_act(s, actor, authorization_id, S.REVOKED, "revocation", "revogação", "Art. 24, I, c", reason,
                       act_number, on, expected_version)


def revoke_authorization(db, actor: Actor, authorization_id: int, reason: str, act_number: str, on: date | None,
                         expected_version: int) -> AuthorizationInfo:
    """Revoke authorization in its own transaction (see `revoke_authorization_in`)."""
    with db.session() as s:
        return revoke_authorization_in(s, actor, authorization_id, reason, act_number, on, expected_version)


def cassate_authorization_in(s: Session, actor: Actor, authorization_id: int, reason: str, act_number: str,
                             on: date | None, expected_version: int) -> AuthorizationInfo:
    """Cassação (Art. 24, I, e; Art. 26, §2) by a gestor's act."""
    return _end_by_act(s, actor, authorization_id, S.CASSADA, "cassation", "cassação", "Art. 24, I, e", reason,
                       act_number, on, expected_version)


def cassate_authorization(db, actor: Actor, authorization_id: int, reason: str, act_number: str, on: date | None,
                          expected_version: int) -> AuthorizationInfo:
    """Cassate authorization in its own transaction (see `cassate_authorization_in`)."""
    with db.session() as s:
        return cassate_authorization_in(s, actor, authorization_id, reason, act_number, on, expected_version)


def suspend_authorization_in(s: Session, actor: Actor, authorization_id: int, basis: SuspensionBasis | str,
                             start_on: date, act_number: str, reason: str,
                             expected_version: int) -> AuthorizationInfo:
    """Suspension (Art. 24, I, b) for 12 months (Art. 24, parágrafo único) or 30 days (Art. 26, §1); it ends by
    itself (services.jobs) the day after `suspended_until`."""
    require_role(actor, *REGISTRY_ROLES.decide)
    try:
        basis = SuspensionBasis(basis)
    except ValueError:
        raise ValidationError([Problem("basis", "Escolha o prazo da suspensão.", "Art. 24, parágrafo único")]) from None
    why = _require_text(reason, "reason", "Informe o motivo da suspensão.", basis.article)
    act = _require_text(act_number, "act_number", "Informe o número do ato.", basis.article)
    a = _load(s, authorization_id, expected_version)
    before = snapshot_authorization(a)
    until = basis.end(start_on)
    move_authorization(s, actor, a, S.SUSPENDED, "suspension", on=start_on,
                       reason=f"{why} — {basis.label}, até {format_date(until)}", act_number=act)
    a.suspended_until = until
    audit_authorization(s, actor, a, "suspension", before, reason=why, act_number=act)
    return authorization_info(s, a, actor.roles)


def suspend_authorization(db, actor: Actor, authorization_id: int, basis: SuspensionBasis | str, start_on: date,
                          act_number: str, reason: str, expected_version: int) -> AuthorizationInfo:
    """Suspend authorization in its own transaction (see `suspend_authorization_in`)."""
    with db.session() as s:
        return suspend_authorization_in(s, actor, authorization_id, basis, start_on, act_number, reason,
                                        expected_version)


def record_inspection_result_in(s: Session, actor: Actor, authorization_id: int, approved: bool,
                                on: date | None = None, note: str = "",
                                expected_version: int | None = None) -> AuthorizationInfo:
    """The result of the vehicle's inspection, inside the given transaction: the initial one after approval
    (Art. 9), the new vehicle's after a substitution (Art. 8 §2), or a re-inspection. Approved may activate or
    lift the impediment; failed gives 5 days to regularize and impedes an active authorization (Art. 16 §2)."""
    require_role(actor, *REGISTRY_ROLES.inspect)
    on = on or local_today()
    _not_future(on, "on", "da vistoria")
    if not approved and not (note or "").strip():
        raise ValidationError([Problem("note", "Descreva o que reprovou o veículo.", "Art. 16, §2")])
    a = _load(s, authorization_id, expected_version)
    _check_step("inspection", a, actor, "inspection")
    before = snapshot_authorization(a)
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
            move_authorization(s, actor, a, S.ACTIVE, "inspection", on=on, reason=f"Vistoria {result}")
        else:
            record_event(s, actor, a, "inspection", a.status, on=on, reason=f"Vistoria {result}")
    else:
        a.regularize_by = regularize_by
        text = f"Vistoria {result} — regularizar até {format_date(regularize_by)} (Art. 16, §2)"
        if a.status == S.ACTIVE:
            move_authorization(s, actor, a, S.IMPEDED, "inspection", on=on, reason=text)
        else:
            record_event(s, actor, a, "inspection", a.status, on=on, reason=text)
    audit_authorization(s, actor, a, "inspection", before)
    _try_activate(s, actor, a)
    return authorization_info(s, a, actor.roles)


def record_inspection_result(db, actor: Actor, authorization_id: int, approved: bool, on: date | None = None,
                             note: str = "", expected_version: int | None = None) -> AuthorizationInfo:
    """The result of the vehicle's inspection in its own transaction (see `record_inspection_result_in`)."""
    with db.session() as s:
        return record_inspection_result_in(s, actor, authorization_id, approved, on=on, note=note,
                                           expected_version=expected_version)
