"""A payment guide (DAM) for every debt (issue 13): fines (Art. 25; Art. 13, XXI), fees (Art. 10; Art. 15,
parágrafo único, VII) and, through the ISSQN service, the ISSQN (Art. 11).

Each guide has its gap-free number `NNNN/AAAA` (numbering kind `guide`), a due date from the dated parameters
(`guide.fee_days`, `guide.fine_days`: N days, moved to the next business day), the FEBRABAN arrecadação barcode
(stored on the guide when the municipality's FEBRABAN code is configured, so the bank's return file finds it)
and, when printed, the PIX QR (`services.documents.printing.print_guide`, archived with its hash).

Statuses move by `GUIDE_MACHINE` (`domain.finance`); the steps of `domain.guides` refuse what the screen
disables. Nothing is edited: an overdue guide is reissued as a NEW guide (`replaces_id` → the old one), the old
one cancelled with the reason; the late charges of the Código Tributário Municipal are dated parameters with no
default — while they are unset, the new guide keeps the original amount and says so.

Payments (`record_guide_payment_in`, the desk or the bank's return file):
- a fee's guide → `services.authorizations.record_fee_payment_in` (activation or renewal from the payment date,
  Art. 3 §1) which writes the append-only `fee_payments` record; a fee not tied to an activation (inspection)
  gets its `fee_payments` record here;
- a fine's guide → a payment entry in the ledger (`services.ledger.record_payment_in`), the principal only (the
  ledger is in UPFM; late charges stay on the guide);
- an ISSQN or costs guide → only the guide row (status paid, paid_on, paid_amount): the ISSQN service reads it.
The same guide number never pays two debts (unique in `fee_payments`; a paid guide refuses a second payment).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from desktop.domain.clock import today as clock_today
from desktop.domain.finance import CHARGE_FILTER_LABELS, FEE_MACHINE, GUIDE_MACHINE, FeeStatus, GuideStatus
from desktop.domain.formatting import format_date, format_document, format_money, local_datetime
from desktop.domain.guides import (
    LATE_CHARGES_NOT_CONFIGURED,
    GuideFacts,
    fine_guide_statuses,
    guide_actions,
    guide_due_date,
    guide_overdue,
    guide_refusal,
    guide_step,
    late_charges,
    reissue_due_date,
    renewal_fee_due_date,
)
from desktop.domain.money import round_cents, to_reais
from desktop.domain.problems import Problem
from desktop.domain.roles import GUIDE_ROLES, Role
from desktop.domain.steps import Action
from desktop.domain.workflow import AutoStatus, TransitionNotAllowed, transition
from desktop.errors import ConflictError, NotFound, PermissionDenied, TransitionRefused, ValidationError
from desktop.models import Auto, Authorization, Driver, Fee, FeePayment, MunicipalitySettings, PaymentGuide, Platform
from desktop.reports import febraban
from desktop.services import audit
from desktop.services.authorizations import record_fee_payment_in
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.enforcement.core import auto_balance_in, debtor_of
from desktop.services.guide_debts import (
    follow_reissue_in,
    open_not_due_clause,
    overdue_clause,
    payment_returned_in,
    release_debts_in,
)
from desktop.services.holidays import calendar_in
from desktop.services.ledger import PaymentDraft, record_payment_in
from desktop.services.numbering import next_number
from desktop.services.parameters import late_percents_in, parameter_value_in, upfm_value_in

__all__ = [
    "DESK_ROLES", "GUIDE_FILTERS", "GuideInfo", "PURPOSE_LABELS", "READER_ROLES", "cancel_guide", "cancel_guide_in",
    "current_guide_in", "find_guide_by_barcode_in", "get_guide", "get_guide_in", "guides_of_authorization",
    "guides_of_auto", "issue_fee_guide", "issue_fee_guide_in", "issue_fine_guide", "issue_fine_guide_in",
    "late_charges_configured", "list_guides", "needs_own_transaction_step", "pay_guide_row_in", "payment_problem",
    "record_guide_payment", "record_guide_payment_in",
    "reissue_overdue_guide", "reissue_overdue_guide_in",
]

CENT = Decimal("0.01")
DESK_ROLES = GUIDE_ROLES.desk
READER_ROLES = GUIDE_ROLES.read
PURPOSE_LABELS = {"fee": "Taxa", "fine": "Multa", "issqn": "ISSQN", "cost": "Custas (Art. 28)"}
FEE_KIND_LABELS = {"authorization": "Taxa de autorização", "renewal": "Taxa de renovação",
                   "inspection": "Taxa de vistoria", "other": "Taxa"}
GUIDE_FILTERS = tuple(CHARGE_FILTER_LABELS)       # "", open, overdue, paid, cancelled (domain/finance.py)
FILTER_LABELS = dict(CHARGE_FILTER_LABELS)
PAYMENT_SOURCES = ("manual", "bank")


@dataclass(frozen=True, slots=True)
class GuideInfo:
    """A payment guide as the screens, the CLI and the ISSQN service see it (never the ORM row)."""

    id: int
    number: str
    purpose: str
    purpose_label: str
    status: str
    status_label: str
    amount_reais: Decimal
    late_charges_reais: Decimal
    due_on: date
    overdue: bool
    payer_name: str
    payer_document: str          # formatted CPF/CNPJ
    reference: str               # "Auto de infração nº 0003/2026" / "Taxa de autorização – autorização nº …"
    auto_id: int | None
    fee_id: int | None
    authorization_id: int | None
    barcode: str | None
    typed_line: str              # formatted, "" without barcode
    paid_on: date | None
    paid_amount: Decimal | None
    cancel_reason: str
    replaces_number: str | None
    replaced_by_number: str | None
    issued_on: date
    actions: tuple[Action, ...]
    version: int
    payment_returned: bool = False   # the bank's payment of this guide was returned (a reversal in the ledger)

    @property
    def principal_reais(self) -> Decimal:
        return self.amount_reais - self.late_charges_reais

    @property
    def state_label(self) -> str:
        """'Vencida' for an open guide past its due date, 'Pagamento devolvido' for a paid guide whose payment was
        returned (issue 23 point 4: the debt is open again), else the status label."""
        if self.payment_returned:
            return "Pagamento devolvido"
        return "Vencida" if self.overdue else self.status_label


# ---------------------------------------------------------------------------------------------------- reading
def _today() -> date:
    return clock_today()


def _reference(s: Session, row: PaymentGuide) -> tuple[str, int | None]:
    authorization_id = None
    if row.auto_id is not None:
        auto = s.get(Auto, row.auto_id)
        return f"Auto de infração nº {auto.number}", None
    if row.fee_id is not None:
        fee = s.get(Fee, row.fee_id)
        authorization_id = fee.authorization_id
        text = FEE_KIND_LABELS.get(fee.kind, "Taxa")
        if fee.authorization_id:
            a = s.get(Authorization, fee.authorization_id)
            text += f" – autorização nº {a.number}" if a.number else f" – requerimento {a.protocol_number or a.id}"
        return text, authorization_id
    return PURPOSE_LABELS.get(row.purpose, row.purpose), None


def guide_info_in(s: Session, row: PaymentGuide, roles: Iterable[Role] = (), today: date | None = None) -> GuideInfo:
    today = today or _today()
    reference, authorization_id = _reference(s, row)
    replaces = s.get(PaymentGuide, row.replaces_id).number if row.replaces_id else None
    replaced_by = s.scalar(select(PaymentGuide.number).where(PaymentGuide.replaces_id == row.id))
    status = GuideStatus(row.status)
    overdue = status == GuideStatus.OPEN and guide_overdue(row.due_on, today)
    facts = GuideFacts(row.due_on, today, row.purpose, replaced_by is not None)
    typed = ""
    if row.barcode and febraban.is_valid_barcode(row.barcode):
        typed = febraban.format_typed_line(febraban.typed_line(row.barcode))
    created = local_datetime(row.created_at).date() if isinstance(row.created_at, datetime) else today
    returned = status == GuideStatus.PAID and payment_returned_in(s, row.number)
    return GuideInfo(
        id=row.id, number=row.number, purpose=row.purpose, purpose_label=PURPOSE_LABELS.get(row.purpose, row.purpose),
        status=status.value, status_label=status.label, amount_reais=Decimal(row.amount_reais),
        late_charges_reais=Decimal(row.late_charges_reais or 0), due_on=row.due_on, overdue=overdue,
        payer_name=row.payer_name, payer_document=format_document(row.payer_document or ""), reference=reference,
        auto_id=row.auto_id, fee_id=row.fee_id, authorization_id=authorization_id, barcode=row.barcode,
        typed_line=typed, paid_on=row.paid_on, paid_amount=row.paid_amount, cancel_reason=row.cancel_reason or "",
        replaces_number=replaces, replaced_by_number=replaced_by, issued_on=created,
        actions=guide_actions(status.value, roles, facts), version=row.version, payment_returned=returned)


def _guide_row(s: Session, number: str, lock: bool = False) -> PaymentGuide:
    stmt = select(PaymentGuide).where(PaymentGuide.number == (number or "").strip())
    if lock:
        stmt = stmt.with_for_update()
    row = s.scalar(stmt)
    if row is None:
        raise NotFound(f"Guia nº {number} não encontrada.")
    return row


def get_guide_in(s: Session, actor: Actor, number: str) -> GuideInfo:
    require_role(actor, *READER_ROLES)
    return guide_info_in(s, _guide_row(s, number), actor.roles)


def get_guide(db, actor: Actor, number: str) -> GuideInfo:
    with db.session(write=False) as s:
        return get_guide_in(s, actor, number)


def current_guide_in(s: Session, number: str) -> PaymentGuide:
    """The guide in force for `number`: the guide itself or the newest one that replaced it (reissues)."""
    row = _guide_row(s, number)
    seen = 0
    while seen < 100:
        newer = s.scalar(select(PaymentGuide).where(PaymentGuide.replaces_id == row.id))
        if newer is None:
            return row
        row, seen = newer, seen + 1
    return row


def find_guide_by_barcode_in(s: Session, barcode: str) -> PaymentGuide | None:
    """The guide whose barcode is `barcode` (44 digits). A guide issued before the FEBRABAN code was configured
    (no barcode stored) is found by the guide number in the barcode's free field."""
    row = s.scalar(select(PaymentGuide).where(PaymentGuide.barcode == barcode))
    if row is not None or len(barcode) != 44 or not barcode.isdigit():
        return row
    digits = barcode[27:44].lstrip("0")
    if len(digits) < 5:
        return None
    number = f"{int(digits[4:]):04d}/{digits[:4]}"
    row = s.scalar(select(PaymentGuide).where(PaymentGuide.number == number, PaymentGuide.barcode.is_(None)))
    return row


def list_guides(db, actor: Actor, state: str = "", purpose: str = "", text: str = "", offset: int = 0,
                limit: int = 200, today: date | None = None):
    """A page of guides (newest first): `state` ∈ GUIDE_FILTERS ('overdue' = open past the due date), `purpose`
    ∈ fee/fine/issqn/cost, `text` = number prefix or payer's name or document."""
    from desktop.services.paging import Page  # lazy: the Page type only (search imports the registry)
    require_role(actor, *READER_ROLES)
    if state not in GUIDE_FILTERS:
        raise ValidationError([Problem("state", f"Situação desconhecida: {state}.")])
    today = today or _today()
    stmt = select(PaymentGuide)
    if state == "overdue":
        stmt = stmt.where(overdue_clause(PaymentGuide, today))
    elif state == "open":
        stmt = stmt.where(open_not_due_clause(PaymentGuide, today))
    elif state:
        stmt = stmt.where(PaymentGuide.status == state)
    if purpose:
        stmt = stmt.where(PaymentGuide.purpose == purpose)
    typed = (text or "").strip()[:100]
    if typed:
        digits = "".join(ch for ch in typed if ch.isdigit())
        clauses = [PaymentGuide.number.startswith(typed), PaymentGuide.payer_name.ilike(f"%{typed}%")]
        if len(digits) >= 3:
            clauses.append(PaymentGuide.payer_document.startswith(digits))
        stmt = stmt.where(or_(*clauses))
    with db.session(write=False) as s:
        total = s.scalar(select(func.count()).select_from(stmt.subquery()))
        rows = s.scalars(stmt.order_by(PaymentGuide.id.desc()).offset(offset).limit(limit)).all()
        infos = tuple(guide_info_in(s, r, actor.roles, today) for r in rows)
    return Page(infos, total, offset, limit)


def guides_of_auto(db, actor: Actor, auto_id: int) -> tuple[GuideInfo, ...]:
    require_role(actor, *READER_ROLES)
    with db.session(write=False) as s:
        rows = s.scalars(select(PaymentGuide).where(PaymentGuide.auto_id == auto_id).order_by(PaymentGuide.id))
        return tuple(guide_info_in(s, r, actor.roles) for r in rows)


def guides_of_authorization(db, actor: Actor, authorization_id: int) -> tuple[GuideInfo, ...]:
    require_role(actor, *READER_ROLES)
    with db.session(write=False) as s:
        rows = s.scalars(select(PaymentGuide).join(Fee, Fee.id == PaymentGuide.fee_id)
                         .where(Fee.authorization_id == authorization_id).order_by(PaymentGuide.id))
        return tuple(guide_info_in(s, r, actor.roles) for r in rows)


def late_charges_configured(db, on: date | None = None) -> bool:
    """Whether the gestor set the late charges of the Código Tributário Municipal (both percentages)."""
    with db.session(write=False) as s:
        return None not in _late_percents(s, on or _today())


# ---------------------------------------------------------------------------------------------------- issuing
def _agreement(s: Session) -> str | None:
    settings = s.get(MunicipalitySettings, 1)
    code = ((settings.febraban_agreement if settings else None) or "").strip()
    return code if code.isdigit() and len(code) == 4 else None


def _barcode(s: Session, amount: Decimal, due: date, number: str) -> str | None:
    agreement = _agreement(s)
    return febraban.arrecadacao_barcode(amount, agreement, due, number) if agreement else None


def _days(s: Session, key: str, on: date) -> int:
    return int(parameter_value_in(s, key, on))


def _new_guide(s: Session, actor: Actor, *, purpose: str, amount: Decimal, due_on: date, payer_name: str,
               payer_document: str | None, issued_on: date, driver_id=None, platform_id=None, vehicle_id=None,
               auto_id=None, fee_id=None, replaces_id=None, late_charges_reais=None) -> PaymentGuide:
    amount = round_cents(amount)
    if amount <= 0:
        raise ValidationError([Problem("amount", "A guia precisa de valor positivo: não há débito a cobrar.")])
    number = next_number(s, "guide", issued_on.year)
    row = PaymentGuide(number=number, purpose=purpose, amount_reais=amount, due_on=due_on,
                       payer_name=payer_name[:200], payer_document=payer_document, driver_id=driver_id,
                       platform_id=platform_id, vehicle_id=vehicle_id, auto_id=auto_id, fee_id=fee_id,
                       replaces_id=replaces_id, late_charges_reais=late_charges_reais,
                       barcode=_barcode(s, amount, due_on, number), status=GuideStatus.OPEN.value,
                       issued_by=actor.user_id)
    s.add(row)
    s.flush()
    audit.record(s, actor, "guide.issue", "payment_guide", row.id, None,
                 {"number": number, "purpose": purpose, "amount": str(amount), "due_on": due_on.isoformat(),
                  "auto_id": auto_id, "fee_id": fee_id, "replaces_id": replaces_id,
                  "late_charges": str(late_charges_reais) if late_charges_reais is not None else None})
    return row


def _open_guide_for(s: Session, **where) -> PaymentGuide | None:
    stmt = select(PaymentGuide).where(PaymentGuide.status == "open")
    for column, value in where.items():
        stmt = stmt.where(getattr(PaymentGuide, column) == value)
    return s.scalar(stmt.order_by(PaymentGuide.id.desc()))


def _cancel(s: Session, actor: Actor, row: PaymentGuide, reason: str, release: bool = True) -> None:
    """Cancel `row` with the reason; `release` (a plain cancellation, not a reissue): its debts stay open and
    can be guided again (issue 23.1: the ISSQN shares get open copies without a guide)."""
    try:
        target = transition(GUIDE_MACHINE, row.status, GuideStatus.CANCELLED)
    except TransitionNotAllowed as exc:
        raise TransitionRefused(f"Guia nº {row.number}: {exc}") from exc
    before = {"status": row.status}
    row.status, row.cancel_reason = target.value, reason
    s.flush()
    released = release_debts_in(s, row, reason) if release else []
    audit.record(s, actor, "guide.cancel", "payment_guide", row.id, before,
                 {"status": row.status, "reason": reason, "shares_released": len(released)})


def issue_fine_guide_in(s: Session, actor: Actor, auto_number: str) -> GuideInfo:
    """The DAM of an auto's fine (Art. 25; Art. 13, XXI) for the balance in reais the ledger shows, payable by
    its debtor (Art. 20, 22). Allowed after the notification or only once the decision is final, as the gestor's
    parameter `fine_guide_when` says; an open guide of the same amount is returned as it is, one of another
    amount (the balance changed) is cancelled and replaced."""
    require_role(actor, *GUIDE_ROLES.fine_guide)
    today = _today()
    auto = s.scalar(select(Auto).where(Auto.number == (auto_number or "").strip()).with_for_update())
    if auto is None:
        raise NotFound(f"Auto de infração nº {auto_number} não encontrado.")
    when = int(parameter_value_in(s, "fine_guide_when", today))
    allowed = fine_guide_statuses(when)
    if auto.status not in allowed:
        names = ", ".join(sorted(AutoStatus(v).label for v in allowed))
        moment = "após a decisão definitiva" if when else "após a notificação"
        raise TransitionRefused(f"Auto nº {auto.number} {AutoStatus(auto.status).label.lower()}: a guia da multa é "
                                f"emitida {moment} (parâmetro do gestor), com o auto em: {names}.")
    _, owed = auto_balance_in(s, auto.id)
    owed = round_cents(owed)
    if owed <= 0:
        raise ConflictError(f"O auto nº {auto.number} não tem saldo a pagar: nenhuma guia emitida.")
    existing = _open_guide_for(s, auto_id=auto.id)
    replaces_id = None
    if existing is not None:
        if guide_overdue(existing.due_on, today):
            raise ConflictError(f"A guia nº {existing.number} deste auto venceu em {format_date(existing.due_on)}: "
                                "reemita-a (Financeiro → Guias → Reemitir guia vencida).")
        if Decimal(existing.amount_reais) - Decimal(existing.late_charges_reais or 0) == owed:
            return guide_info_in(s, existing, actor.roles, today)
        _cancel(s, actor, existing, f"Saldo do auto alterado para {format_money(owed)}: substituída por nova guia.")
        replaces_id = existing.id
    debtor = debtor_of(auto)
    if debtor.kind == "driver":
        person = s.get(Driver, debtor.id)
        name, document, driver_id, platform_id = person.name, person.cpf, person.id, None
    else:
        company = s.get(Platform, debtor.id)
        name, document = company.legal_name or company.trade_name, company.cnpj
        driver_id, platform_id = None, company.id
    due = guide_due_date(today, _days(s, "guide.fine_days", today), calendar_in(s))
    row = _new_guide(s, actor, purpose="fine", amount=owed, due_on=due, payer_name=name, payer_document=document,
                     issued_on=today, driver_id=driver_id, platform_id=platform_id, vehicle_id=auto.vehicle_id,
                     auto_id=auto.id, replaces_id=replaces_id)
    return guide_info_in(s, row, actor.roles, today)


def issue_fine_guide(db, actor: Actor, auto_number: str) -> GuideInfo:
    """Issue (or find the open) guide of an auto's fine in its own transaction (see `issue_fine_guide_in`)."""
    with db.session() as s:
        return issue_fine_guide_in(s, actor, auto_number)


def _authorization(s: Session, authorization_number: str, authorization_id: int | None) -> Authorization:
    if authorization_id is not None:
        a = s.get(Authorization, authorization_id)
    else:
        text = (authorization_number or "").strip()
        a = s.scalar(select(Authorization).where(Authorization.number == text))
        if a is None and text:
            found = s.scalars(select(Authorization).where(Authorization.protocol_number == text)
                              .order_by(Authorization.id.desc()).limit(2)).all()
            a = found[0] if len(found) == 1 else None
    if a is None:
        raise NotFound(f"Autorização {authorization_number or authorization_id} não encontrada (informe o número "
                       "da autorização ou o protocolo do requerimento).")
    return a


_FEE_KIND_STATUSES = {
    # Art. 15, parágrafo único, VII and Art. 10: the authorization fee is charged once the request is approved.
    "authorization": ("approved",),
    # Art. 3 §2: the renewal fee once the renewal is requested (active, impeded or expired with a request).
    "renewal": ("active", "impeded", "suspended", "expired"),
    # Art. 9, 16: the inspection fee of a live authorization.
    "inspection": ("approved", "active", "impeded", "suspended"),
}


def _fee_kind(a: Authorization, kind: str | None) -> str:
    if kind is None:
        kind = "renewal" if a.renewal_requested_on is not None and a.status != "approved" else "authorization"
    if kind not in _FEE_KIND_STATUSES:
        raise ValidationError([Problem("kind", f"Tipo de taxa desconhecido: {kind}.")])
    if a.status not in _FEE_KIND_STATUSES[kind]:
        from desktop.domain.workflow import AuthorizationStatus  # local: imported only on this branch
        names = ", ".join(AuthorizationStatus(v).label for v in _FEE_KIND_STATUSES[kind])
        raise TransitionRefused(
            f"{FEE_KIND_LABELS[kind]}: a guia é emitida com a autorização em {names} (agora: "
            f"{AuthorizationStatus(a.status).label}; Art. 10; Art. 15, parágrafo único, VII; Art. 3, §2).")
    if kind == "authorization" and a.fee_paid_on is not None:
        raise ConflictError(f"A taxa de autorização já foi paga em {format_date(a.fee_paid_on)}.")
    if kind == "renewal" and a.renewal_requested_on is None:
        raise TransitionRefused("A taxa de renovação é emitida depois do pedido de renovação (Art. 3, §2).")
    return kind


def issue_fee_guide_in(s: Session, actor: Actor, authorization_number: str = "", *, authorization_id: int | None = None,
                       kind: str | None = None) -> GuideInfo:
    """The DAM of a fee (Art. 10; Art. 15, parágrafo único, VII: issued when the request is approved; the renewal
    fee once the renewal is requested, Art. 3 §2): the fee in UPFM of the Código Tributário Municipal (parameter
    `fee.<kind>`) at the UPFM value of the year, payable by the driver. An open guide of the same fee is returned
    as it is. `authorization_number` is the authorization's number or, before activation, the request's protocol
    number; the screens pass `authorization_id`."""
    require_role(actor, *DESK_ROLES)
    today = _today()
    a = _authorization(s, authorization_number, authorization_id)
    kind = _fee_kind(a, kind)
    open_fee = s.scalar(select(Fee).where(Fee.authorization_id == a.id, Fee.kind == kind, Fee.status == "open")
                        .order_by(Fee.id.desc()))
    if open_fee is not None:
        existing = _open_guide_for(s, fee_id=open_fee.id)
        if existing is not None:
            if guide_overdue(existing.due_on, today):
                raise ConflictError(f"A guia nº {existing.number} desta taxa venceu em "
                                    f"{format_date(existing.due_on)}: reemita-a (Financeiro → Guias).")
            return guide_info_in(s, existing, actor.roles, today)
    try:
        upfm = parameter_value_in(s, f"fee.{kind}", today)
    except NotFound:   # issue 23 point 10: no invented amount — the CTM's fee must be set first
        raise ConflictError(f"{FEE_KIND_LABELS[kind]} não cadastrada: o valor vem do Código Tributário Municipal e "
                            "não tem valor padrão. O gestor o informa, com a lei ou o decreto que o fixa, em "
                            "Administração → Parâmetros; depois emita a guia.") from None
    value = upfm_value_in(s, today.year)
    amount = to_reais(upfm, value)
    if amount <= 0:
        raise ConflictError(f"{FEE_KIND_LABELS[kind]}: o valor cadastrado é zero; nenhuma guia a emitir.")
    if kind == "renewal":   # issue 23 point 10: due before the authorization it renews ends (Art. 3 §2)
        due = renewal_fee_due_date(today, _days(s, "guide.fee_days", today), a.valid_until, calendar_in(s))
    else:
        due = guide_due_date(today, _days(s, "guide.fee_days", today), calendar_in(s))
    driver = s.get(Driver, a.driver_id)
    if open_fee is None:
        open_fee = Fee(kind=kind, vehicle_id=a.vehicle_id, authorization_id=a.id, due_on=due, amount_upfm=upfm,
                       upfm_value=value, amount_reais=amount, status=FeeStatus.OPEN.value, created_by=actor.user_id)
        s.add(open_fee)
        s.flush()
    row = _new_guide(s, actor, purpose="fee", amount=Decimal(open_fee.amount_reais), due_on=due,
                     payer_name=driver.name, payer_document=driver.cpf, issued_on=today, driver_id=driver.id,
                     vehicle_id=a.vehicle_id, fee_id=open_fee.id)
    if open_fee.guide_number is None:
        open_fee.guide_number = row.number   # the first guide of the fee (later ones point at it by fee_id)
    s.flush()
    return guide_info_in(s, row, actor.roles, today)


def issue_fee_guide(db, actor: Actor, authorization_number: str = "", *, authorization_id: int | None = None,
                    kind: str | None = None) -> GuideInfo:
    """Issue (or find the open) guide of an authorization's fee in its own transaction (see `issue_fee_guide_in`)."""
    with db.session() as s:
        return issue_fee_guide_in(s, actor, authorization_number, authorization_id=authorization_id, kind=kind)


# ---------------------------------------------------------------------------------------------------- reissue
def _late_percents(s: Session, on: date) -> tuple[Decimal | None, Decimal | None]:
    return late_percents_in(s, on)


def _root(s: Session, row: PaymentGuide) -> PaymentGuide:
    seen = 0
    while row.replaces_id is not None and seen < 100:
        row, seen = s.get(PaymentGuide, row.replaces_id), seen + 1
    return row


def _refuse_step(key: str, row: PaymentGuide, actor: Actor, today: date) -> None:
    facts = GuideFacts(row.due_on, today, row.purpose)
    reason = guide_refusal(key, row.status, actor.roles, facts)
    if reason is None:
        return
    step = guide_step(key)
    if not (set(step.roles) & set(actor.roles)) and row.status in step.statuses:
        raise PermissionDenied(f"{step.label.rstrip('…')}: {reason}.")
    raise TransitionRefused(f"Guia nº {row.number}: {step.label.rstrip('…').lower()} — {reason} ({step.article}).")


def reissue_overdue_guide_in(s: Session, actor: Actor, number: str, reason: str) -> GuideInfo:
    """An overdue guide reissued: a NEW guide (new number, new due date) replacing it, the old one cancelled
    with the reason — never edited. The late charges (multa and juros de mora of the Código Tributário
    Municipal) count from the first guide's due date; while the gestor has not set them, the new guide keeps
    the original amount (`domain.guides.LATE_CHARGES_NOT_CONFIGURED`)."""
    require_role(actor, *DESK_ROLES)
    why = (reason or "").strip()
    if not why:
        raise ValidationError([Problem("reason", "Informe o motivo da reemissão.")])
    today = _today()
    old = _guide_row(s, number, lock=True)
    _refuse_step("reissue", old, actor, today)
    key = "guide.fine_days" if old.purpose == "fine" else "guide.fee_days"
    due = reissue_due_date(today, _days(s, key, today), calendar_in(s))   # its own date, never in the past
    principal = Decimal(old.amount_reais) - Decimal(old.late_charges_reais or 0)
    if old.purpose == "fine" and old.auto_id is not None:
        _, owed = auto_balance_in(s, old.auto_id)
        if Decimal(owed) <= 0:
            raise ConflictError(f"O auto da guia nº {old.number} não tem saldo a pagar: cancele a guia em vez de "
                                "reemiti-la.")
        principal = round_cents(owed)
    fine_pct, interest_pct = _late_percents(s, today)
    charges = late_charges(principal, _root(s, old).due_on, due, fine_pct, interest_pct)
    _cancel(s, actor, old, f"Reemitida por atraso: {why}", release=False)
    row = _new_guide(s, actor, purpose=old.purpose, amount=charges.total, due_on=due, payer_name=old.payer_name,
                     payer_document=old.payer_document, issued_on=today, driver_id=old.driver_id,
                     platform_id=old.platform_id, vehicle_id=old.vehicle_id, auto_id=old.auto_id, fee_id=old.fee_id,
                     replaces_id=old.id, late_charges_reais=charges.charges if charges.configured else None)
    old.cancel_reason = f"Reemitida por atraso na guia nº {row.number}: {why}"
    moved = follow_reissue_in(s, old, row)   # issue 23.1: the ISSQN shares follow the guide that now covers them
    s.flush()
    if moved:
        audit.record(s, actor, "issqn.guide.reissue", "payment_guide", row.id, {"guide": old.number},
                     {"guide": row.number, "shares": len(moved)})
    return guide_info_in(s, row, actor.roles, today)


def reissue_overdue_guide(db, actor: Actor, number: str, reason: str) -> GuideInfo:
    """Reissue an overdue guide in its own transaction (see `reissue_overdue_guide_in`)."""
    with db.session() as s:
        return reissue_overdue_guide_in(s, actor, number, reason)


def cancel_guide_in(s: Session, actor: Actor, number: str, reason: str) -> GuideInfo:
    """A guide issued in error cancelled by the gestor, with the reason (the debt stays; issue another)."""
    require_role(actor, *READER_ROLES)
    why = (reason or "").strip()
    if not why:
        raise ValidationError([Problem("reason", "Informe o motivo do cancelamento.")])
    row = _guide_row(s, number, lock=True)
    _refuse_step("cancel", row, actor, _today())
    _cancel(s, actor, row, why)
    return guide_info_in(s, row, actor.roles)


def cancel_guide(db, actor: Actor, number: str, reason: str) -> GuideInfo:
    with db.session() as s:
        return cancel_guide_in(s, actor, number, reason)


# ---------------------------------------------------------------------------------------------------- payment
def _money(value, field: str) -> Decimal:
    try:
        amount = value if isinstance(value, Decimal) else Decimal(str(value))
        if isinstance(value, float) or not amount.is_finite():
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        raise ValidationError([Problem(field, "Valor inválido.")]) from None
    amount = round_cents(amount)
    if amount <= 0 or amount > Decimal("999999999.99"):
        raise ValidationError([Problem(field, "Informe o valor pago, maior que zero e até R$ 999.999.999,99.")])
    return amount


def _mark_paid(s: Session, actor: Actor, row: PaymentGuide, paid_on: date, amount: Decimal, source: str,
               audit_each: bool = True) -> None:
    try:
        target = transition(GUIDE_MACHINE, row.status, GuideStatus.PAID)
    except TransitionNotAllowed as exc:
        raise TransitionRefused(f"Guia nº {row.number}: {exc}") from exc
    before = {"status": row.status}
    row.status, row.paid_on, row.paid_amount = target.value, paid_on, amount
    if audit_each:
        s.flush()
        audit.record(s, actor, "guide.paid", "payment_guide", row.id, before,
                     {"status": row.status, "paid_on": paid_on.isoformat(), "amount": str(amount), "source": source})


def record_guide_payment_in(s: Session, actor: Actor, guide, paid_on: date, amount, source: str = "manual",
                            bank_return_id: int | None = None) -> GuideInfo:
    """A guide paid on `paid_on` (the bank's payment date for the return file). `guide` is its number or its
    GuideInfo. The amount must be the guide's. Fee → the authorization's fee payment (activation / renewal from
    this date, Art. 3 §1) and the append-only fee_payments record; fine → a payment entry in the ledger (the
    principal; Art. 13, XXI); ISSQN / costs → the guide row only."""
    require_role(actor, *DESK_ROLES)
    if source not in PAYMENT_SOURCES:
        raise ValidationError([Problem("source", f"Origem do pagamento desconhecida: {source}.")])
    number = guide.number if isinstance(guide, GuideInfo) else str(guide)
    amount = _money(amount, "amount")
    if not isinstance(paid_on, date):
        raise ValidationError([Problem("paid_on", "Informe a data do pagamento.")])
    today = _today()
    if paid_on > today:
        raise ValidationError([Problem("paid_on", "A data do pagamento não pode ser futura.")])
    row = _guide_row(s, number, lock=True)
    pay_guide_row_in(s, actor, row, paid_on, amount, source, bank_return_id, today=today)
    return guide_info_in(s, row, actor.roles, today)


def payment_problem(row: PaymentGuide, paid_on: date, amount: Decimal) -> str | None:
    """Why `row` cannot take this payment (None: it can): paid, cancelled, another amount, before its issue."""
    if row.status == GuideStatus.PAID.value:
        return (f"A guia nº {row.number} já foi paga em {format_date(row.paid_on)}: o mesmo número de guia não paga "
                "dois débitos.")
    if row.status == GuideStatus.CANCELLED.value:
        return f"A guia nº {row.number} está cancelada ({row.cancel_reason or 'sem motivo'})."
    if amount != Decimal(row.amount_reais):
        return (f"O valor pago ({format_money(amount)}) difere do valor da guia nº {row.number} "
                f"({format_money(row.amount_reais)}).")
    if row.created_at is not None and paid_on < local_datetime(row.created_at).date():
        return f"O pagamento ({format_date(paid_on)}) é anterior à emissão da guia nº {row.number}."
    return None


def needs_own_transaction_step(s: Session, row: PaymentGuide) -> bool:
    """True when paying `row` goes through another service that may refuse it (an authorization's fee, an auto's
    fine): the bank import then pays it inside a savepoint."""
    if row.purpose == "fine" and row.auto_id is not None:
        return True
    if row.purpose == "fee" and row.fee_id is not None:
        fee = s.get(Fee, row.fee_id)
        return fee.authorization_id is not None and fee.kind in ("authorization", "renewal")
    return False


def pay_guide_row_in(s: Session, actor: Actor, row: PaymentGuide, paid_on: date, amount: Decimal,
                     source: str = "manual", bank_return_id: int | None = None, *, today: date | None = None,
                     audit_each: bool = True) -> None:
    """The payment of a loaded (and locked) guide row; see `record_guide_payment_in`. `audit_each=False` (the
    bank import): the guides that change only their own row (ISSQN, costs, fees that activate nothing) are
    audited once, by the import's entry that lists them."""
    require_role(actor, *DESK_ROLES)
    today = today or _today()
    problem = payment_problem(row, paid_on, amount)
    if problem is not None:
        if "difere" in problem:
            raise ValidationError([Problem("amount", problem)])
        if "anterior" in problem:
            raise ValidationError([Problem("paid_on", problem)])
        raise ConflictError(problem)
    _refuse_step("pay", row, actor, today)
    if row.purpose == "fee" and row.fee_id is not None:
        fee = s.get(Fee, row.fee_id)
        if fee.authorization_id is not None and fee.kind in ("authorization", "renewal"):
            a = s.get(Authorization, fee.authorization_id)
            # Art. 3 §1: validity from the payment date; the fee payment record and the guide are written there.
            record_fee_payment_in(s, actor, a.id, paid_on, row.number, amount, a.version, source=source,
                                  bank_return_id=bank_return_id)
            s.refresh(row)
            if row.status != GuideStatus.PAID.value:  # defensive: the fee path always marks its guide
                _mark_paid(s, actor, row, paid_on, amount, source)
        else:
            _pay_plain_fee(s, actor, fee, row, paid_on, amount, source, bank_return_id, audit_each)
    elif row.purpose == "fine" and row.auto_id is not None:
        principal = amount - Decimal(row.late_charges_reais or 0)
        note = f"Guia nº {row.number}" + (" (retorno bancário)" if source == "bank" else "")
        if row.late_charges_reais:
            note += f"; acréscimos por atraso de {format_money(row.late_charges_reais)} recolhidos na guia"
        record_payment_in(s, actor, PaymentDraft(row.auto_id, paid_on, principal, row.number, note))
        _mark_paid(s, actor, row, paid_on, amount, source)
    else:
        _mark_paid(s, actor, row, paid_on, amount, source, audit_each)


def _pay_plain_fee(s, actor, fee: Fee, row: PaymentGuide, paid_on: date, amount: Decimal, source: str,
                   bank_return_id: int | None, audit_each: bool = True) -> None:
    """A fee that activates nothing (inspection, other): its fee_payments record, the fee's paid state set once."""
    if s.scalar(select(FeePayment.id).where(FeePayment.guide_number == row.number)) is not None:
        raise ConflictError(f"A guia nº {row.number} já pagou uma taxa.")
    try:
        target = transition(FEE_MACHINE, fee.status, FeeStatus.PAID)
    except TransitionNotAllowed as exc:
        raise TransitionRefused(str(exc)) from exc
    payment = FeePayment(fee_id=fee.id, guide_id=row.id, guide_number=row.number, paid_on=paid_on, amount=amount,
                         source=source, bank_return_id=bank_return_id, recorded_by=actor.user_id)
    s.add(payment)
    fee.status, fee.paid_on, fee.paid_amount = target.value, paid_on, amount
    if audit_each:
        s.flush()
        audit.record(s, actor, "fee.payment", "fee", fee.id, {"status": "open"},
                     {"status": fee.status, "paid_on": paid_on.isoformat(), "amount": str(amount),
                      "guide": row.number, "source": source, "payment_id": payment.id})
    _mark_paid(s, actor, row, paid_on, amount, source, audit_each)


def record_guide_payment(db, actor: Actor, number: str, paid_on: date, amount, source: str = "manual") -> GuideInfo:
    """Record a guide's payment at the desk in its own transaction (see `record_guide_payment_in`)."""
    with db.session() as s:
        return record_guide_payment_in(s, actor, number, paid_on, amount, source)
