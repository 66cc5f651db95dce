"""The fines ledger in UPFM (SPEC §3; STYLE: Tryton's move, Beancount's entries).

Posted entries are never edited or deleted — the database refuses it with triggers. An auto posts a `debit`;
a payment a `payment` credit converted at the UPFM value of the debit; a reduction a `reduction`; a cancellation,
an annulment or a returned payment a `reversal` that points at its origin. A balance is a sum, never stored.

Debtor rule (Art. 20, 22): the fine of an auto naming a driver is the driver's; an auto naming only a platform
is the platform's. Entries carry the debtor only, so an infractor's statement holds exactly what it owes.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import BigInteger, Numeric, String, func, select, type_coerce

from desktop.domain.auto_steps import PAYABLE_STATUSES, divida_ativa_actions, status_after_returned_payment
from desktop.domain.dates import TIMEZONE, local_today
from desktop.domain.documents import format_cnpj, format_cpf
from desktop.domain.finance import GuideStatus
from desktop.domain.ledger import EntryKind
from desktop.domain.limits import amount_problems
from desktop.domain.penalties import reais_to_upfm
from desktop.domain.problems import Problem
from desktop.domain.roles import ENFORCEMENT_ROLES
from desktop.domain.workflow import AutoStatus
from desktop.domain.formatting import format_money
from desktop.errors import ConflictError, NotFound, PermissionDenied, ValidationError
from desktop.models import AuditEntry, Auto, Driver, PaymentGuide, Platform
from desktop.models import LedgerEntry as E
from desktop.services import audit
from desktop.services.permissions import require_role
from desktop.services.enforcement.core import (
    CENT,
    READER_ROLES,
    require_reader,
    UPFM_PLACES,
    ZERO,
    Infractor,
    auto_balance_in,
    auto_transition,
    debtor_of,
    infractor_identity,
    load_auto,
    require_step,
    step_roles,
)
from desktop.services.enforcement.postings import (
    ENTRY_KINDS,
    EntryInfo,
    entries_of_auto,
    entry_from_row,
    entry_info_in,
    infractor_clause,
    named_entries_stmt,
    post,
    reverse_auto_entries,
    refund_surplus_in,
    reverse_in,
    reversed_ids,
)
from desktop.services.guide_debts import PURPOSE_LABELS as GUIDE_DEBT_LABELS
from desktop.services.guide_debts import guide_number_conflict, overdue_guides_in
from dataclasses import replace as _replace

CASHIER_ROLES = step_roles("payment")
__all__ = [  # the shared helpers stay importable from here, where the other rooms found them
    "CASHIER_ROLES", "CENT", "EntryInfo", "Infractor", "LedgerFilter", "LedgerPage", "OverdueInfo",
    "PAYABLE_STATUSES", "PaymentDraft", "READER_ROLES", "Statement", "UPFM_PLACES", "ZERO", "auto_balance",
    "auto_balance_in", "balance", "balance_in", "debtor_of", "divida_ativa_list", "divida_ativa_list_in",
    "entries_of_auto", "entry_info_in", "infractor_identity", "ledger_page", "ledger_page_in", "ledger_totals",
    "ledger_totals_in", "overdue_list", "overdue_list_in", "post", "record_payment", "record_payment_in",
    "refund_surplus_in", "refunds", "refunds_in", "reverse_auto_entries", "reverse_entry", "reverse_entry_in",
    "reverse_in", "reversed_ids",
    "send_to_divida_ativa", "send_to_divida_ativa_in", "settle_auto", "statement", "statement_in",
]


@dataclass(frozen=True, slots=True)
class Statement:
    """Extrato: the entries of one infractor up to a date, with running balances (UPFM)."""

    infractor: Infractor
    infractor_name: str
    document: str
    until: date
    entries: tuple[EntryInfo, ...]
    balances: tuple[Decimal, ...]
    balance_upfm: Decimal
    balance_reais: Decimal


@dataclass(frozen=True, slots=True)
class PaymentDraft:
    """A payment of an auto. `confirm_overpayment`: a gestor confirms an amount above the balance (issue 12 item
    7); the surplus is then a `refund` entry, never a credit."""

    auto_id: int
    paid_on: date
    amount_reais: Decimal
    guide_number: str | None = None
    note: str = ""
    confirm_overpayment: bool = False


@dataclass(frozen=True, slots=True)
class OverdueInfo:
    """A debt past its term. A fine (`debt="fine"`: `auto_id`, `number` the auto's) or, in the dívida ativa list,
    an unpaid fee or ISSQN guide (`debt="fee"|"issqn"`: `auto_id` None, `number` and `guide_number` the
    guide's, `status` the guide's, `balance_upfm` 0)."""

    auto_id: int | None
    number: str
    infractor: Infractor | None
    infractor_name: str
    document: str
    status: AutoStatus
    payment_deadline: date
    days_overdue: int
    balance_upfm: Decimal
    balance_reais: Decimal
    debt: str = "fine"
    debt_label: str = "Multa"
    guide_number: str | None = None
    # the dívida ativa list's steps for this row (inscribe / certidão: domain.auto_steps.DIVIDA_ATIVA_STEPS); ()
    # for a guide and in the overdue list
    actions: tuple = ()


@dataclass(frozen=True, slots=True)
class LedgerFilter:
    infractor: Infractor | None = None
    kind: EntryKind | None = None
    auto_id: int | None = None
    date_from: date | None = None
    date_to: date | None = None


@dataclass(frozen=True, slots=True)
class LedgerPage:
    """One page of the ledger, newest posted first. `next_cursor` is the `after` of the next page (None: end)."""

    entries: tuple[EntryInfo, ...]
    next_cursor: int | None


def _sqlite_moment(text: str) -> datetime:
    """models.types.AwareDateTime's SQLite form (UTC, no offset) → aware local date-time."""
    return datetime.fromisoformat(text + "+00:00").astimezone(TIMEZONE)


def _fast_statement_rows(session, infractor: Infractor, until: date):
    """The statement's rows read through Core, the three decimal columns fetched raw and scaled here (the stored
    forms of models.types.Dec: scaled integers on SQLite, NUMERIC on PostgreSQL). Same values as the ORM path,
    several times faster for an infractor with thousands of entries."""
    sqlite = session.get_bind().dialect.name == "sqlite"
    raw = BigInteger() if sqlite else Numeric(asdecimal=True)
    day = type_coerce(E.effective_on, String()) if sqlite else E.effective_on
    moment = type_coerce(E.posted_at, String()) if sqlite else E.posted_at
    stmt = (select(E.id, E.kind, day, moment, type_coerce(E.amount_upfm, raw),
                   type_coerce(E.upfm_value, raw), type_coerce(E.amount_reais, raw), E.auto_id, Auto.number,
                   E.reverses_id, E.guide_number, E.reason)
            .outerjoin(Auto, Auto.id == E.auto_id)
            .where(infractor_clause(infractor), E.effective_on <= until)
            .order_by(E.effective_on, E.id))
    return session.connection().execute(stmt).all(), sqlite


# ---------------------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------------------

def balance_in(session, infractor: Infractor, until: date | None = None) -> Decimal:
    """`balance` inside the caller's transaction."""
    stmt = select(func.sum(E.amount_upfm)).where(infractor_clause(infractor))
    if until is not None:
        stmt = stmt.where(E.effective_on <= until)
    return session.scalar(stmt) or ZERO


def balance(db, actor, infractor: Infractor, until: date | None = None) -> Decimal:
    """What the infractor owes in UPFM (positive) on `until` (default: everything posted). For
    `ENFORCEMENT_ROLES.read` (issue 25 item 7)."""
    require_reader(actor)
    with db.session(write=False) as s:
        return balance_in(s, infractor, until)


def auto_balance(db, actor, auto_id: int) -> Decimal:
    """What is still owed on one auto, in UPFM (`ENFORCEMENT_ROLES.read`)."""
    require_reader(actor)
    with db.session(write=False) as s:
        return auto_balance_in(s, auto_id)[0]


def statement(db, actor, infractor: Infractor, until: date | None = None) -> Statement:
    """The extrato of any infractor at any date (SPEC §3): its entries dated on or before `until` (default
    today) in date order, the running balance and the balance in UPFM and in reais."""
    require_role(actor, *READER_ROLES)
    with db.session(write=False) as s:
        return statement_in(s, actor, infractor, until)


def statement_in(session, actor, infractor: Infractor, until: date | None = None) -> Statement:
    """`statement` inside the caller's session."""
    require_role(actor, *READER_ROLES)
    until = until or local_today()
    name, document = infractor_identity(session, infractor)
    rows, scaled = _fast_statement_rows(session, infractor, until)
    entries = []
    running: list[Decimal] = []
    total = ZERO
    total_reais = ZERO
    kinds = ENTRY_KINDS
    day, moment = date.fromisoformat, _sqlite_moment
    for r in rows:
        kind, label = kinds[r[1]]
        if scaled:  # SQLite: Dec columns are scaled integers, dates ISO text, date-times UTC text (models.types)
            upfm, value, reais = Decimal(r[4]).scaleb(-4), Decimal(r[5]).scaleb(-6), Decimal(r[6]).scaleb(-2)
            on, at = day(r[2]), moment(r[3])
        else:
            upfm, value, reais, on, at = r[4], r[5], r[6], r[2], r[3]
        total += upfm
        total_reais += reais
        running.append(total)
        entries.append(EntryInfo(r[0], kind, label, on, at, upfm, value, reais, r[7], r[8], r[9], r[10],
                                 r[11] or "", infractor, name))
    return Statement(infractor, name, document, until, tuple(entries), tuple(running), total, total_reais)


def ledger_page(db, actor, filter: LedgerFilter = LedgerFilter(), after: int | None = None,  # noqa: A002
                limit: int = 200) -> LedgerPage:
    """One page of the ledger screen, newest posted first (posting order, as a journal), by keyset on the id:
    the query reads `limit + 1` rows through the primary key, whatever the size of the table."""
    require_role(actor, *READER_ROLES)
    with db.session(write=False) as s:
        return ledger_page_in(s, actor, filter, after, limit)


def ledger_page_in(session, actor, filter: LedgerFilter = LedgerFilter(), after: int | None = None,  # noqa: A002
                   limit: int = 200) -> LedgerPage:
    """`ledger_page` inside the caller's session."""
    require_role(actor, *READER_ROLES)
    limit = max(1, min(int(limit), 2000))
    stmt = _filtered(named_entries_stmt(), filter)
    if after is not None:
        stmt = stmt.where(E.id < after)
    rows = session.execute(stmt.order_by(E.id.desc()).limit(limit + 1)).all()
    more = len(rows) > limit
    rows = rows[:limit]
    entries = tuple(entry_from_row(r) for r in rows)
    return LedgerPage(entries, entries[-1].id if more and entries else None)


def _filtered(stmt, f: LedgerFilter):
    if f.infractor is not None:
        stmt = stmt.where(infractor_clause(f.infractor))
    if f.kind is not None:
        stmt = stmt.where(E.kind == EntryKind(f.kind).value)
    if f.auto_id is not None:
        stmt = stmt.where(E.auto_id == f.auto_id)
    if f.date_from is not None:
        stmt = stmt.where(E.effective_on >= f.date_from)
    if f.date_to is not None:
        stmt = stmt.where(E.effective_on <= f.date_to)
    return stmt


def ledger_totals(db, actor, filter: LedgerFilter = LedgerFilter()) -> tuple[int, Decimal]:  # noqa: A002
    """(number of entries, sum in UPFM) under a filter — one aggregate query, for the screen's footer."""
    require_role(actor, *READER_ROLES)
    with db.session(write=False) as s:
        return ledger_totals_in(s, actor, filter)


def ledger_totals_in(session, actor, filter: LedgerFilter = LedgerFilter()) -> tuple[int, Decimal]:  # noqa: A002
    """`ledger_totals` inside the caller's session."""
    require_role(actor, *READER_ROLES)
    count, total = session.execute(_filtered(select(func.count(E.id), func.sum(E.amount_upfm)), filter)).one()
    return int(count or 0), total or ZERO


# ---------------------------------------------------------------------------------------------------------
# Payments and reversals
# ---------------------------------------------------------------------------------------------------------

def _payment_problems(draft: PaymentDraft) -> list[Problem]:
    problems: list[Problem] = []
    amount = draft.amount_reais
    limit = amount_problems("amount_reais", "valor pago", amount)  # NaN, infinity, above R$ 999.999.999,99
    if limit:
        problems += limit
    elif not isinstance(amount, Decimal) or amount <= 0:
        problems.append(Problem("amount_reais", "Informe o valor pago, em reais, maior que zero."))
    if not isinstance(draft.paid_on, date):
        problems.append(Problem("paid_on", "Informe a data do pagamento."))
    elif draft.paid_on > local_today():
        problems.append(Problem("paid_on", "A data do pagamento não pode ser futura."))
    return problems


def record_payment_in(session, actor, draft: PaymentDraft) -> EntryInfo:
    """`record_payment` inside the caller's transaction."""
    require_role(actor, *CASHIER_ROLES)
    problems = _payment_problems(draft)
    if problems:
        raise ValidationError(problems)
    amount = draft.amount_reais
    auto = load_auto(session, draft.auto_id, lock=True)
    require_step(auto, "payment")  # Art. 13, XXI: only from the statuses the machine leads to `paid`
    if draft.paid_on < auto.drawn_up_at.date():
        raise ValidationError([Problem("paid_on", "O pagamento não pode ser anterior à lavratura do auto.")])
    guide = (draft.guide_number or "").strip() or None
    if guide is not None:
        _check_guide(session, auto, guide)                                      # issue 12 item 7
        conflict = guide_number_conflict(session, guide, auto.id)               # item 6: a fee's guide
        if conflict:
            raise ConflictError(conflict)
    owed_upfm, owed_reais = auto_balance_in(session, auto.id)
    surplus = amount - max(owed_reais, ZERO)
    if surplus > 0:
        # issue 12 item 7: above the balance only when a gestor confirms it; the surplus is owed back (refund).
        if not draft.confirm_overpayment:
            raise ValidationError([Problem(
                "amount_reais", f"O valor pago ({format_money(amount)}) é maior que o saldo do auto "
                f"({format_money(max(owed_reais, ZERO))}). Confira o valor; se o infrator pagou mesmo a mais, um "
                "gestor confirma o excesso, que fica registrado como restituição devida.")])
        if not actor.has(*ENFORCEMENT_ROLES.decide):
            raise PermissionDenied("Só um gestor confirma um pagamento acima do saldo do auto (o excesso vira "
                                   "restituição devida).")
    upfm = payment_upfm(session, auto, amount, owed_upfm, owed_reais)
    if upfm <= 0 and (upfm < 0 or not _costs_owed(session, auto.id, owed_reais)):
        raise ValidationError([Problem("amount_reais", "Valor pequeno demais para ser registrado.")])
    row = post(session, actor, kind=EntryKind.PAYMENT, infractor=debtor_of(auto), amount_upfm=-upfm,
               upfm_value=auto.upfm_value, amount_reais=-amount, effective_on=draft.paid_on, auto_id=auto.id,
               guide_number=guide, reason=(draft.note or "").strip() or None)
    if surplus > 0:
        refund_surplus_in(session, actor, auto, draft.paid_on,
                          f"pagamento de {format_money(amount)} acima do saldo, confirmado pelo gestor")
    _, owed_reais = auto_balance_in(session, auto.id)
    if owed_reais <= 0:
        settle_auto(session, actor, auto, draft.paid_on)
    return entry_info_in(session, row.id)


def _costs_owed(session, auto_id: int, owed_reais: Decimal) -> Decimal:
    """The Art. 28 costs still owed on an auto, in reais (a payment settles the fine first, then the costs)."""
    # local: ReportLab-free helpers of the DAM's builder (as in _split_costs)
    from desktop.reports.guide import auto_costs_reais, split_fine_and_costs  # local: see above

    spent = auto_costs_reais(session, [auto_id]).get(auto_id, ZERO)
    return split_fine_and_costs(Decimal(owed_reais), spent)[1] if spent > 0 else ZERO


def payment_upfm(session, auto, amount: Decimal, owed_upfm: Decimal, owed_reais: Decimal) -> Decimal:
    """The UPFM a payment of `amount` reais carries (issue 23 point 6): only the part that settles the fine, at
    the auto's UPFM value — the fine first, then the Art. 28 costs, which are reais and carry none. A payment that
    settles the whole fine closes its UPFM exactly; only an excess above everything owed is converted."""
    costs = _costs_owed(session, auto.id, owed_reais)
    fine_reais = max(Decimal(owed_reais) - costs, ZERO)
    if fine_reais > 0 and amount < fine_reais:
        return reais_to_upfm(amount, auto.upfm_value)
    closed = max(Decimal(owed_upfm), ZERO) if fine_reais > 0 or owed_upfm > 0 else ZERO
    excess = amount - max(Decimal(owed_reais), ZERO)
    return closed + (reais_to_upfm(excess, auto.upfm_value) if excess > 0 else ZERO)


def _check_guide(session, auto, guide: str) -> None:
    """One bank guide pays one debt (issue 12 item 7): a guide already used by a payment, or a DAM issued for
    another debt, is refused (the unique index of migration 0008 also refuses two desks at once)."""
    used = session.execute(select(E.auto_id, Auto.number).outerjoin(Auto, Auto.id == E.auto_id).where(
        E.kind == EntryKind.PAYMENT.value, E.guide_number == guide).limit(1)).first()
    if used is not None:
        where = "neste auto" if used.auto_id == auto.id else f"no auto {used.number}"
        raise ValidationError([Problem("guide_number", f"A guia {guide} já foi usada em um pagamento {where}: "
                                                       "uma guia paga um só débito.")])
    issued = session.execute(select(PaymentGuide.purpose, PaymentGuide.auto_id)
                             .where(PaymentGuide.number == guide)).first()
    if issued is not None and (issued.purpose != "fine" or issued.auto_id not in (None, auto.id)):
        raise ValidationError([Problem("guide_number", f"A guia {guide} foi emitida para outro débito: uma guia "
                                                       "paga um só débito.")])


def record_payment(db, actor, draft: PaymentDraft) -> EntryInfo:
    """A payment of an auto (Art. 13 XXI): a credit in reais converted to UPFM at the value of the auto's debit.
    When the balance of an auto whose decision is final reaches zero it becomes `paid`. Paying is not a waiver
    (issue 12 item 3): a payment before the decision is final is kept, the auto keeps its status and its terms,
    and it becomes `paid` on the day the decision is final (process.make_final_in). An amount above the balance
    is refused unless a gestor confirms it (`confirm_overpayment`); the surplus is then a `refund` entry."""
    require_role(actor, *CASHIER_ROLES)
    problems = _payment_problems(draft)
    if problems:
        raise ValidationError(problems)
    with db.session() as s:
        return record_payment_in(s, actor, draft)


def settle_auto(session, actor, auto, on: date) -> None:
    """Mark an auto whose decision is final and whose balance is zero as paid. Before the decision is final the
    auto keeps its status (issue 12 item 3: paying is not a waiver; the penalties take effect on the final date,
    in process.make_final_in, never here)."""
    status = AutoStatus(auto.status)
    if status not in PAYABLE_STATUSES:
        return
    before = {"status": auto.status}
    auto.status = auto_transition(auto, AutoStatus.PAID).value
    session.flush()
    audit.record(session, actor, "auto.paid", "auto", auto.id, before, {"status": auto.status, "paid_on": on})


def refunds_in(session, actor) -> tuple[EntryInfo, ...]:
    """`refunds` inside the caller's session."""
    require_role(actor, *READER_ROLES)
    reversed_refunds = select(E.reverses_id).where(E.reverses_id.is_not(None))
    stmt = (named_entries_stmt().where(E.kind == EntryKind.REFUND.value, E.id.not_in(reversed_refunds))
            .order_by(E.effective_on, E.id))
    return tuple(entry_from_row(r) for r in session.execute(stmt))


def refunds(db, actor) -> tuple[EntryInfo, ...]:
    """What the municipality owes back (issue 12 item 7): every `refund` entry not reversed, oldest first."""
    require_role(actor, *READER_ROLES)
    with db.session(write=False) as s:
        return refunds_in(s, actor)


def reverse_entry_in(session, actor, entry_id: int, reason: str, on: date | None = None) -> EntryInfo:
    """`reverse_entry` inside the caller's transaction."""
    require_role(actor, *ENFORCEMENT_ROLES.decide)
    if not (reason or "").strip():
        raise ValidationError([Problem("reason", "Informe o motivo do estorno.")])
    row = session.get(E, entry_id)
    if row is None:
        raise NotFound("Lançamento não encontrado.")
    if row.kind == EntryKind.REQUALIFICATION.value:
        raise ConflictError("A requalificação decorre da decisão do auto: não é estornada sozinha. Só uma nova "
                            "decisão (o julgamento do recurso) ou a anulação do auto a alteram.")
    rev = reverse_in(session, actor, row, on or local_today(), reason.strip())
    if row.auto_id is not None:
        reopen_paid_auto_in(session, actor, session.get(Auto, row.auto_id), rev, reason.strip())
    return entry_info_in(session, rev.id)


def reopen_paid_auto_in(session, actor, auto, reversal, reason: str) -> AutoStatus | None:
    """A paid auto whose payment was reversed (a returned payment) owes again: it goes back to the status the
    machine says (`auto_steps.status_after_returned_payment`: final within its payment term, overdue past it,
    dívida ativa when it had been inscribed) with an audit entry, so the dashboard and the overdue and dívida
    ativa lists see it again. None when the auto is not paid or still owes nothing."""
    if auto is None or auto.status != AutoStatus.PAID.value or auto_balance_in(session, auto.id)[1] <= 0:
        return None
    inscribed = session.scalar(select(AuditEntry.id).where(
        AuditEntry.entity == "auto", AuditEntry.entity_id == str(auto.id),
        AuditEntry.action == "auto.divida_ativa").limit(1)) is not None
    target = status_after_returned_payment(auto.payment_deadline, local_today(), inscribed)
    before = {"status": auto.status}
    auto.status = auto_transition(auto, target).value
    session.flush()
    audit.record(session, actor, "auto.payment_returned", "auto", auto.id, before,
                 {"status": auto.status, "reversal_id": reversal.id, "reverses_id": reversal.reverses_id,
                  "on": reversal.effective_on, "payment_deadline": auto.payment_deadline, "reason": reason})
    return target


def reverse_entry(db, actor, entry_id: int, reason: str, on: date | None = None) -> EntryInfo:
    """A reversal of a posted entry (a returned payment, an undue cost), pointing at it. Gestor only."""
    require_role(actor, *ENFORCEMENT_ROLES.decide)
    if not (reason or "").strip():
        raise ValidationError([Problem("reason", "Informe o motivo do estorno.")])
    with db.session() as s:
        return reverse_entry_in(s, actor, entry_id, reason, on)


# ---------------------------------------------------------------------------------------------------------
# Overdue and dívida ativa
# ---------------------------------------------------------------------------------------------------------

def _owed_sums():
    return (select(E.auto_id.label("auto_id"), func.sum(E.amount_upfm).label("upfm"),
                   func.sum(E.amount_reais).label("reais"))
            .where(E.auto_id.is_not(None)).group_by(E.auto_id).subquery())


def owed_count_in(session, actor, statuses=(AutoStatus.FINAL, AutoStatus.OVERDUE), today: date | None = None) -> int:
    """How many rows `overdue_list_in` would return (a SQL COUNT, for the home dashboard; issue 16)."""
    require_role(actor, *READER_ROLES)
    today = today or local_today()
    # The balance of each candidate auto by its ledger index (not a GROUP BY over the whole ledger).
    owed = (select(func.coalesce(func.sum(E.amount_reais), 0)).where(E.auto_id == Auto.id)
            .correlate(Auto).scalar_subquery())
    stmt = (select(func.count(Auto.id))
            .where(Auto.status.in_([s.value for s in statuses]), Auto.payment_deadline < today, owed > 0))
    return int(session.scalar(stmt) or 0)


def _owed_autos(session, statuses, today: date) -> list[OverdueInfo]:
    sums = _owed_sums()
    stmt = (select(Auto.id, Auto.number, Auto.status, Auto.payment_deadline, Auto.infractor_driver_id,
                   Auto.infractor_platform_id, Driver.name, Driver.cpf, Platform.trade_name, Platform.cnpj,
                   sums.c.upfm, sums.c.reais)
            .join(sums, sums.c.auto_id == Auto.id)
            .outerjoin(Driver, Driver.id == Auto.infractor_driver_id)
            .outerjoin(Platform, Platform.id == Auto.infractor_platform_id)
            .where(Auto.status.in_([s.value for s in statuses]), Auto.payment_deadline < today,
                   sums.c.reais > 0)
            .order_by(Auto.payment_deadline, Auto.id))
    result = []
    for r in session.execute(stmt):
        if r.infractor_driver_id is not None:
            who, name, doc = Infractor.driver(r.infractor_driver_id), r.name, format_cpf(r.cpf)
        else:
            who, name, doc = Infractor.platform(r.infractor_platform_id), r.trade_name, format_cnpj(r.cnpj)
        result.append(OverdueInfo(r.id, r.number, who, name or "", doc, AutoStatus(r.status), r.payment_deadline,
                                  (today - r.payment_deadline).days, r.upfm, r.reais))
    return result


def overdue_list_in(session, actor, today: date | None = None) -> list[OverdueInfo]:
    """`overdue_list` inside the caller's transaction."""
    require_role(actor, *READER_ROLES)
    today = today or local_today()
    return _owed_autos(session, (AutoStatus.FINAL, AutoStatus.OVERDUE), today)


def overdue_list(db, actor, today: date | None = None) -> list[OverdueInfo]:
    """Final autos whose payment term has passed with something still owed (SPEC §3)."""
    require_role(actor, *READER_ROLES)
    with db.session(write=False) as s:
        return overdue_list_in(s, actor, today)


def divida_ativa_list_in(session, actor, today: date | None = None, inscribed: bool = False) -> list[OverdueInfo]:
    """`divida_ativa_list` inside the caller's transaction."""
    require_role(actor, *READER_ROLES)
    today = today or local_today()
    status = AutoStatus.DIVIDA_ATIVA if inscribed else AutoStatus.OVERDUE
    rows = [_replace(r, actions=divida_ativa_actions(r.status.value, actor.roles))
            for r in _split_costs(session, _owed_autos(session, (status,), today))]
    return rows if inscribed else rows + _owed_guides(session, today)


def _split_costs(session, rows: list[OverdueInfo]) -> list[OverdueInfo]:
    """Issue 23 point 6: an auto's Art. 28 costs (reais spent on removal and storage) are a debt of their own —
    a separate line of the dívida ativa, in reais, never added to the fine's UPFM."""

    # local: ReportLab-free helpers of the DAM's builder, read only by the dívida ativa list
    from desktop.reports.guide import COSTS_LABEL, auto_costs_reais, legacy_costs_upfm, split_fine_and_costs  # local: see above

    costs = auto_costs_reais(session, [r.auto_id for r in rows if r.auto_id is not None])
    legacy = legacy_costs_upfm(session, [auto_id for auto_id in costs])
    out = []
    for r in rows:
        spent = costs.get(r.auto_id, ZERO)
        if spent <= 0:
            out.append(r)
            continue
        fine, owed_costs = split_fine_and_costs(Decimal(r.balance_reais), spent)
        if fine > 0:
            # costs carry no UPFM (issue 23 point 6): the balance in UPFM is the fine's; only costs posted
            # converted (before migration 0022) make it recomputed from the fine's reais
            upfm = r.balance_upfm
            if r.auto_id in legacy:
                value = session.scalar(select(Auto.upfm_value).where(Auto.id == r.auto_id))
                upfm = reais_to_upfm(fine, value) if value else r.balance_upfm
            out.append(_replace(r, balance_upfm=upfm, balance_reais=fine, debt_label="Multa (Art. 25)"))
        if owed_costs > 0:
            out.append(_replace(r, balance_upfm=ZERO, balance_reais=owed_costs, debt="cost",
                                debt_label=COSTS_LABEL))
    return out


def _owed_guides(session, today: date) -> list[OverdueInfo]:
    """Unpaid fee and ISSQN guides past their due date (issue 13), beside the fines."""
    out = []
    for r in overdue_guides_in(session, today, inscribable_only=True):
        if r.driver_id is not None:
            who, doc = Infractor.driver(r.driver_id), format_cpf(r.payer_document or "")
        elif r.platform_id is not None:
            who, doc = Infractor.platform(r.platform_id), format_cnpj(r.payer_document or "")
        else:
            who, doc = None, r.payer_document or ""
        out.append(OverdueInfo(None, r.number, who, r.payer_name, doc, GuideStatus.OPEN, r.due_on,
                               (today - r.due_on).days, ZERO, r.amount_reais, r.purpose,
                               GUIDE_DEBT_LABELS.get(r.purpose, r.purpose), r.number))
    return out


def divida_ativa_list(db, actor, today: date | None = None, inscribed: bool = False) -> list[OverdueInfo]:
    """The debts for the dívida ativa: autos marked overdue and still owing, then the unpaid fee and ISSQN
    guides past their due date (issue 13). Only autos are sent from here (`send_to_divida_ativa`). With
    `inscribed`, the autos already inscribed and still owing instead (issue 28 point 9: their certidão)."""
    require_role(actor, *READER_ROLES)
    with db.session(write=False) as s:
        return divida_ativa_list_in(s, actor, today, inscribed)


def send_to_divida_ativa_in(session, actor, auto_ids: Sequence[int], on: date | None = None) -> int:
    """`send_to_divida_ativa` inside the caller's transaction."""
    require_role(actor, *step_roles("divida_ativa"))
    on = on or local_today()
    moved = 0
    for auto_id in auto_ids:
        auto = session.get(Auto, auto_id)
        if auto is None:
            raise NotFound(f"Auto de infração {auto_id} não encontrado.")
        require_step(auto, "divida_ativa")
        before = auto.status
        auto.status = auto_transition(auto, AutoStatus.DIVIDA_ATIVA).value
        session.flush()
        audit.record(session, actor, "auto.divida_ativa", "auto", auto.id, {"status": before},
                     {"status": auto.status, "on": on})
        moved += 1
    return moved


def send_to_divida_ativa(db, actor, auto_ids: Sequence[int], on: date | None = None) -> int:
    """Register the listed overdue autos as sent to the dívida ativa (gestor). Returns how many moved."""
    require_role(actor, *step_roles("divida_ativa"))
    with db.session() as s:
        return send_to_divida_ativa_in(s, actor, auto_ids, on)
