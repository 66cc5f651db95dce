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
from typing import Literal, NamedTuple

from desktop.domain.dates import TIMEZONE, local_today
from desktop.domain.ledger import EntryKind, entry_problems
from desktop.domain.ledger import LedgerEntry as DomainEntry
from desktop.domain.penalties import reais_to_upfm
from desktop.domain.problems import Problem
from desktop.domain.roles import Role
from desktop.domain.workflow import AUTO_MACHINE, AutoStatus, TransitionNotAllowed, transition
from desktop.errors import ConflictError, NotFound, TransitionRefused, ValidationError

READER_ROLES = (Role.ATENDENTE, Role.FISCAL, Role.GESTOR, Role.ADMINISTRADOR)
CASHIER_ROLES = (Role.ATENDENTE, Role.GESTOR)
ZERO = Decimal(0)
UPFM_PLACES = Decimal("0.0001")
CENT = Decimal("0.01")
PAYABLE_STATUSES = frozenset({AutoStatus.NOTIFIED, AutoStatus.JUDGED, AutoStatus.FINAL, AutoStatus.OVERDUE,
                              AutoStatus.DIVIDA_ATIVA})
"""The statuses from which the auto machine leads to `paid` (a payment is only taken on these)."""


@dataclass(frozen=True, slots=True)
class Infractor:
    """Who owes: a driver or a platform."""

    kind: Literal["driver", "platform"]
    id: int

    def __post_init__(self):
        if self.kind not in ("driver", "platform"):
            raise ValueError(f"tipo de infrator inválido: {self.kind!r}")

    @classmethod
    def driver(cls, driver_id: int) -> Infractor:
        return cls("driver", int(driver_id))

    @classmethod
    def platform(cls, platform_id: int) -> Infractor:
        return cls("platform", int(platform_id))

    @property
    def label(self) -> str:
        return "Condutor" if self.kind == "driver" else "Plataforma"


class EntryInfo(NamedTuple):
    """A posted entry as the screens and reports see it. An immutable named tuple, like Beancount's entries (STYLE):
    a statement builds thousands of them, and a tuple is built several times faster than a frozen dataclass."""

    id: int
    kind: EntryKind
    kind_label: str
    effective_on: date
    posted_at: datetime
    amount_upfm: Decimal
    upfm_value: Decimal
    amount_reais: Decimal
    auto_id: int | None
    auto_number: str | None
    reverses_id: int | None
    guide_number: str | None
    reason: str
    infractor: Infractor
    infractor_name: str


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
    auto_id: int
    paid_on: date
    amount_reais: Decimal
    guide_number: str | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class OverdueInfo:
    auto_id: int
    number: str
    infractor: Infractor
    infractor_name: str
    document: str
    status: AutoStatus
    payment_deadline: date
    days_overdue: int
    balance_upfm: Decimal
    balance_reais: Decimal


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


# ---------------------------------------------------------------------------------------------------------
# Helpers shared by the enforcement services (inside the caller's session)
# ---------------------------------------------------------------------------------------------------------

def debtor_of(auto) -> Infractor:
    """The debtor of an auto (module text): its driver if any, otherwise its platform."""
    if auto.infractor_driver_id is not None:
        return Infractor.driver(auto.infractor_driver_id)
    return Infractor.platform(auto.infractor_platform_id)


def _infractor_columns(infractor: Infractor) -> dict:
    if infractor.kind == "driver":
        return {"infractor_driver_id": infractor.id, "infractor_platform_id": None}
    return {"infractor_driver_id": None, "infractor_platform_id": infractor.id}


def _infractor_clause(infractor: Infractor):
    from desktop.models import LedgerEntry as E

    if infractor.kind == "driver":
        return E.infractor_driver_id == infractor.id
    return E.infractor_platform_id == infractor.id


def infractor_identity(session, infractor: Infractor) -> tuple[str, str]:
    """(name, formatted CPF/CNPJ) of an infractor; NotFound when missing."""
    from desktop.domain.documents import format_cnpj, format_cpf
    from desktop.models import Driver, Platform

    if infractor.kind == "driver":
        row = session.get(Driver, infractor.id)
        if row is None:
            raise NotFound("Condutor não encontrado.")
        return row.name, format_cpf(row.cpf)
    row = session.get(Platform, infractor.id)
    if row is None:
        raise NotFound("Plataforma não encontrada.")
    return row.trade_name or row.legal_name, format_cnpj(row.cnpj)


def post(session, actor, *, kind: EntryKind, infractor: Infractor, amount_upfm: Decimal, upfm_value: Decimal,
         amount_reais: Decimal, effective_on: date, auto_id: int | None = None, reverses_id: int | None = None,
         reason: str | None = None, guide_number: str | None = None):
    """Post one entry (checked by `domain.entry_problems`) and audit it. Returns the row."""
    from desktop.models import LedgerEntry, now
    from desktop.services import audit

    amount_upfm = Decimal(amount_upfm).quantize(UPFM_PLACES)
    problems = entry_problems(DomainEntry(kind, effective_on, amount_upfm, reason or "", origin=reverses_id))
    if problems:
        raise ValidationError(problems)
    row = LedgerEntry(
        **_infractor_columns(infractor), auto_id=auto_id, kind=EntryKind(kind).value, amount_upfm=amount_upfm,
        upfm_value=upfm_value, amount_reais=Decimal(amount_reais).quantize(CENT), effective_on=effective_on,
        posted_at=now(), reverses_id=reverses_id, guide_number=guide_number, reason=reason,
        created_by=actor.user_id,
    )
    session.add(row)
    session.flush()
    audit.record(session, actor, f"ledger.{EntryKind(kind).value}", "ledger_entry", row.id, None, {
        "kind": row.kind, "auto_id": auto_id, "amount_upfm": amount_upfm, "amount_reais": row.amount_reais,
        "upfm_value": upfm_value, "effective_on": effective_on, "reverses_id": reverses_id, "reason": reason,
        "guide_number": guide_number, "infractor": f"{infractor.kind}:{infractor.id}",
    })
    return row


def reversed_ids(session, ids) -> set[int]:
    from sqlalchemy import select

    from desktop.models import LedgerEntry as E

    ids = list(ids)
    if not ids:
        return set()
    return set(session.scalars(select(E.reverses_id).where(E.reverses_id.in_(ids))))


def reverse_in(session, actor, row, on: date, reason: str):
    """Post the reversal of `row` (same amounts, opposite sign, pointing at it)."""
    if row.kind == EntryKind.REVERSAL.value:
        raise ConflictError("Um estorno não é estornado: lance um novo movimento, se for o caso.")
    if reversed_ids(session, [row.id]):
        raise ConflictError(f"O lançamento {row.id} já foi estornado.")
    infractor = (Infractor.driver(row.infractor_driver_id) if row.infractor_driver_id is not None
                 else Infractor.platform(row.infractor_platform_id))
    return post(session, actor, kind=EntryKind.REVERSAL, infractor=infractor, amount_upfm=-row.amount_upfm,
                upfm_value=row.upfm_value, amount_reais=-row.amount_reais, effective_on=on,
                auto_id=row.auto_id, reverses_id=row.id, reason=reason)


def reverse_auto_entries(session, actor, auto, on: date, reason: str) -> list:
    """Reverse every entry of an auto that is not a payment and not yet reversed (an auto cancelled or annulled
    is void, and so are its fine, reductions and costs). Payments stay: a credit left is to be refunded."""
    from sqlalchemy import select

    from desktop.models import LedgerEntry as E

    rows = list(session.scalars(select(E).where(E.auto_id == auto.id).order_by(E.id)))
    done = reversed_ids(session, [r.id for r in rows])
    posted = []
    for row in rows:
        if row.kind in (EntryKind.PAYMENT.value, EntryKind.REVERSAL.value) or row.id in done:
            continue
        posted.append(reverse_in(session, actor, row, on, reason))
    return posted


def auto_balance_in(session, auto_id: int) -> tuple[Decimal, Decimal]:
    """(UPFM, reais) still owed on one auto (all its entries)."""
    from sqlalchemy import func, select

    from desktop.models import LedgerEntry as E

    upfm, reais = session.execute(select(func.sum(E.amount_upfm), func.sum(E.amount_reais))
                                  .where(E.auto_id == auto_id)).one()
    return (upfm or ZERO), (reais or ZERO)


def _entry_columns():
    from desktop.models import Auto
    from desktop.models import LedgerEntry as E

    return (E.id, E.kind, E.effective_on, E.posted_at, E.amount_upfm, E.upfm_value, E.amount_reais, E.auto_id,
            Auto.number, E.reverses_id, E.guide_number, E.reason, E.infractor_driver_id, E.infractor_platform_id)


_KINDS = {k.value: (k, k.label) for k in EntryKind}


def _entry(r, name: str | None = None) -> EntryInfo:
    kind, label = _KINDS[r[1]]
    infractor = Infractor("driver", r[12]) if r[12] is not None else Infractor("platform", r[13])
    return EntryInfo(r[0], kind, label, r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11] or "",
                     infractor, name if name is not None else (r[14] if len(r) > 14 else "") or "")


def _sqlite_moment(text: str) -> datetime:
    """models.types.AwareDateTime's SQLite form (UTC, no offset) → aware local date-time."""
    return datetime.fromisoformat(text + "+00:00").astimezone(TIMEZONE)


def _fast_statement_rows(session, infractor: Infractor, until: date):
    """The statement's rows read through Core, the three decimal columns fetched raw and scaled here (the stored
    forms of models.types.Dec: scaled integers on SQLite, NUMERIC on PostgreSQL). Same values as the ORM path,
    several times faster for an infractor with thousands of entries."""
    from sqlalchemy import BigInteger, Numeric, String, select, type_coerce

    from desktop.models import Auto
    from desktop.models import LedgerEntry as E

    sqlite = session.get_bind().dialect.name == "sqlite"
    raw = BigInteger() if sqlite else Numeric(asdecimal=True)
    day = type_coerce(E.effective_on, String()) if sqlite else E.effective_on
    moment = type_coerce(E.posted_at, String()) if sqlite else E.posted_at
    stmt = (select(E.id, E.kind, day, moment, type_coerce(E.amount_upfm, raw),
                   type_coerce(E.upfm_value, raw), type_coerce(E.amount_reais, raw), E.auto_id, Auto.number,
                   E.reverses_id, E.guide_number, E.reason)
            .outerjoin(Auto, Auto.id == E.auto_id)
            .where(_infractor_clause(infractor), E.effective_on <= until)
            .order_by(E.effective_on, E.id))
    return session.connection().execute(stmt).all(), sqlite


def entries_of_auto(session, auto_id: int) -> tuple[EntryInfo, ...]:
    from sqlalchemy import select

    from desktop.models import Auto, Driver, Platform
    from desktop.models import LedgerEntry as E

    stmt = (select(*_entry_columns(), Driver.name, Platform.trade_name)
            .outerjoin(Auto, Auto.id == E.auto_id)
            .outerjoin(Driver, Driver.id == E.infractor_driver_id)
            .outerjoin(Platform, Platform.id == E.infractor_platform_id)
            .where(E.auto_id == auto_id).order_by(E.id))
    return tuple(_entry(r, r[14] or r[15] or "") for r in session.execute(stmt))


def entry_info_in(session, entry_id: int) -> EntryInfo:
    from sqlalchemy import select

    from desktop.models import Auto, Driver, Platform
    from desktop.models import LedgerEntry as E

    r = session.execute(select(*_entry_columns(), Driver.name, Platform.trade_name)
                        .outerjoin(Auto, Auto.id == E.auto_id)
                        .outerjoin(Driver, Driver.id == E.infractor_driver_id)
                        .outerjoin(Platform, Platform.id == E.infractor_platform_id)
                        .where(E.id == entry_id)).one_or_none()
    if r is None:
        raise NotFound("Lançamento não encontrado.")
    return _entry(r, r[14] or r[15] or "")


def _auto_transition(auto, target: AutoStatus) -> AutoStatus:
    try:
        return transition(AUTO_MACHINE, auto.status, target)
    except TransitionNotAllowed as exc:
        raise TransitionRefused(f"Auto {auto.number}: {exc}") from exc


# ---------------------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------------------

def balance(db, infractor: Infractor, until: date | None = None) -> Decimal:
    """What the infractor owes in UPFM (positive) on `until` (default: everything posted)."""
    from sqlalchemy import func, select

    from desktop.models import LedgerEntry as E

    stmt = select(func.sum(E.amount_upfm)).where(_infractor_clause(infractor))
    if until is not None:
        stmt = stmt.where(E.effective_on <= until)
    with db.session(write=False) as s:
        return s.scalar(stmt) or ZERO


def auto_balance(db, auto_id: int) -> Decimal:
    """What is still owed on one auto, in UPFM."""
    with db.session(write=False) as s:
        return auto_balance_in(s, auto_id)[0]


def statement(db, actor, infractor: Infractor, until: date | None = None) -> Statement:
    """The extrato of any infractor at any date (SPEC §3): its entries dated on or before `until` (default
    today) in date order, the running balance and the balance in UPFM and in reais."""
    from desktop.services.base import require_role

    require_role(actor, *READER_ROLES)
    until = until or local_today()
    with db.session(write=False) as s:
        name, document = infractor_identity(s, infractor)
        rows, scaled = _fast_statement_rows(s, infractor, until)
    entries = []
    running: list[Decimal] = []
    total = ZERO
    total_reais = ZERO
    kinds = _KINDS
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
    from sqlalchemy import select

    from desktop.models import Auto, Driver, Platform
    from desktop.models import LedgerEntry as E
    from desktop.services.base import require_role

    require_role(actor, *READER_ROLES)
    limit = max(1, min(int(limit), 2000))
    stmt = (select(*_entry_columns(), Driver.name, Platform.trade_name)
            .outerjoin(Auto, Auto.id == E.auto_id)
            .outerjoin(Driver, Driver.id == E.infractor_driver_id)
            .outerjoin(Platform, Platform.id == E.infractor_platform_id))
    stmt = _filtered(stmt, filter)
    if after is not None:
        stmt = stmt.where(E.id < after)
    stmt = stmt.order_by(E.id.desc()).limit(limit + 1)
    with db.session(write=False) as s:
        rows = s.execute(stmt).all()
    more = len(rows) > limit
    rows = rows[:limit]
    entries = tuple(_entry(r, r[14] or r[15] or "") for r in rows)
    return LedgerPage(entries, entries[-1].id if more and entries else None)


def _filtered(stmt, f: LedgerFilter):
    from desktop.models import LedgerEntry as E

    if f.infractor is not None:
        stmt = stmt.where(_infractor_clause(f.infractor))
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
    from sqlalchemy import func, select

    from desktop.models import LedgerEntry as E
    from desktop.services.base import require_role

    require_role(actor, *READER_ROLES)
    stmt = _filtered(select(func.count(E.id), func.sum(E.amount_upfm)), filter)
    with db.session(write=False) as s:
        count, total = s.execute(stmt).one()
    return int(count or 0), total or ZERO


# ---------------------------------------------------------------------------------------------------------
# Payments and reversals
# ---------------------------------------------------------------------------------------------------------

def record_payment(db, actor, draft: PaymentDraft) -> EntryInfo:
    """A payment of an auto (Art. 13 XXI): a credit in reais converted to UPFM at the value of the auto's debit.
    When the auto's balance reaches zero it becomes `paid`; a payment that settles an auto before its decision
    is final is taken as acceptance of the auto: the decision is final that day and its penalties take effect."""
    from desktop.models import Auto
    from desktop.services.base import require_role

    require_role(actor, *CASHIER_ROLES)
    problems: list[Problem] = []
    amount = draft.amount_reais
    if not isinstance(amount, Decimal) or amount <= 0:
        problems.append(Problem("amount_reais", "Informe o valor pago, em reais, maior que zero."))
    if not isinstance(draft.paid_on, date):
        problems.append(Problem("paid_on", "Informe a data do pagamento."))
    elif draft.paid_on > local_today():
        problems.append(Problem("paid_on", "A data do pagamento não pode ser futura."))
    if problems:
        raise ValidationError(problems)
    with db.session() as s:
        auto = s.get(Auto, draft.auto_id, with_for_update=True)
        if auto is None:
            raise NotFound("Auto de infração não encontrado.")
        status = AutoStatus(auto.status)
        if status not in PAYABLE_STATUSES:
            raise TransitionRefused(
                f"Auto {auto.number}: não se registra pagamento de um auto «{status.label}».")
        if draft.paid_on < auto.drawn_up_at.date():
            raise ValidationError([Problem("paid_on", "O pagamento não pode ser anterior à lavratura do auto.")])
        owed_upfm, owed_reais = auto_balance_in(s, auto.id)
        if owed_reais > 0 and amount >= owed_reais:
            # Paid in full: the UPFM still owed is closed exactly; only an excess is converted.
            upfm = owed_upfm + reais_to_upfm(amount - owed_reais, auto.upfm_value)
        else:
            upfm = reais_to_upfm(amount, auto.upfm_value)
        if upfm <= 0:
            raise ValidationError([Problem("amount_reais", "Valor pequeno demais para ser registrado.")])
        row = post(s, actor, kind=EntryKind.PAYMENT, infractor=debtor_of(auto), amount_upfm=-upfm,
                   upfm_value=auto.upfm_value, amount_reais=-amount, effective_on=draft.paid_on, auto_id=auto.id,
                   guide_number=(draft.guide_number or "").strip() or None,
                   reason=(draft.note or "").strip() or None)
        _, owed_reais = auto_balance_in(s, auto.id)
        if owed_reais <= 0:
            settle_auto(s, actor, auto, draft.paid_on)
        return entry_info_in(s, row.id)


def settle_auto(session, actor, auto, on: date) -> None:
    """Mark an auto whose balance is zero as paid (machine permitting)."""
    from desktop.services import audit

    status = AutoStatus(auto.status)
    if status not in PAYABLE_STATUSES:
        return
    before = {"status": auto.status, "final_on": auto.final_on}
    accepted = status in (AutoStatus.NOTIFIED, AutoStatus.JUDGED)
    auto.status = _auto_transition(auto, AutoStatus.PAID).value
    if accepted and auto.final_on is None:
        auto.final_on = on
    session.flush()
    audit.record(session, actor, "auto.paid", "auto", auto.id, before,
                 {"status": auto.status, "final_on": auto.final_on})
    if accepted:
        from desktop.services.penalties import apply_final_penalties

        apply_final_penalties(session, actor, auto, auto.final_on)


def reverse_entry(db, actor, entry_id: int, reason: str, on: date | None = None) -> EntryInfo:
    """A reversal of a posted entry (a returned payment, an undue cost), pointing at it. Gestor only."""
    from desktop.models import LedgerEntry as E
    from desktop.services.base import require_role

    require_role(actor, Role.GESTOR)
    if not (reason or "").strip():
        raise ValidationError([Problem("reason", "Informe o motivo do estorno.")])
    with db.session() as s:
        row = s.get(E, entry_id)
        if row is None:
            raise NotFound("Lançamento não encontrado.")
        rev = reverse_in(s, actor, row, on or local_today(), reason.strip())
        return entry_info_in(s, rev.id)


# ---------------------------------------------------------------------------------------------------------
# Overdue and dívida ativa
# ---------------------------------------------------------------------------------------------------------

def _owed_autos(session, statuses, today: date) -> list[OverdueInfo]:
    from sqlalchemy import func, select

    from desktop.domain.documents import format_cnpj, format_cpf
    from desktop.models import Auto, Driver, Platform
    from desktop.models import LedgerEntry as E

    sums = (select(E.auto_id.label("auto_id"), func.sum(E.amount_upfm).label("upfm"),
                   func.sum(E.amount_reais).label("reais"))
            .where(E.auto_id.is_not(None)).group_by(E.auto_id).subquery())
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


def overdue_list(db, actor, today: date | None = None) -> list[OverdueInfo]:
    """Final autos whose payment term has passed with something still owed (SPEC §3)."""
    from desktop.services.base import require_role

    require_role(actor, *READER_ROLES)
    today = today or local_today()
    with db.session(write=False) as s:
        return _owed_autos(s, (AutoStatus.FINAL, AutoStatus.OVERDUE), today)


def divida_ativa_list(db, actor, today: date | None = None) -> list[OverdueInfo]:
    """The autos to send to the dívida ativa: marked overdue and still owing."""
    from desktop.services.base import require_role

    require_role(actor, *READER_ROLES)
    today = today or local_today()
    with db.session(write=False) as s:
        return _owed_autos(s, (AutoStatus.OVERDUE,), today)


def send_to_divida_ativa(db, actor, auto_ids: Sequence[int], on: date | None = None) -> int:
    """Register the listed overdue autos as sent to the dívida ativa (gestor). Returns how many moved."""
    from desktop.models import Auto
    from desktop.services import audit
    from desktop.services.base import require_role

    require_role(actor, Role.GESTOR)
    on = on or local_today()
    moved = 0
    with db.session() as s:
        for auto_id in auto_ids:
            auto = s.get(Auto, auto_id)
            if auto is None:
                raise NotFound(f"Auto de infração {auto_id} não encontrado.")
            before = auto.status
            auto.status = _auto_transition(auto, AutoStatus.DIVIDA_ATIVA).value
            s.flush()
            audit.record(s, actor, "auto.divida_ativa", "auto", auto.id, {"status": before},
                         {"status": auto.status, "on": on})
            moved += 1
    return moved
