"""Posting and reversing ledger entries inside the caller's session, and reading them back (SPEC §3; STYLE:
Tryton's move, Beancount's entries). Posted entries are never edited: a reversal points at its origin."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import NamedTuple

from sqlalchemy import select

from desktop.domain.money import round_cents, round_places
from desktop.domain.ledger import EntryKind, entry_problems, refund_due
from desktop.domain.ledger import LedgerEntry as DomainEntry
from desktop.errors import ConflictError, NotFound, ValidationError
from desktop.models import Auto, Driver, LedgerEntry, Platform, now
from desktop.services import audit
from desktop.services.enforcement.core import UPFM_PLACES, Infractor, auto_balance_in, debtor_of


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


ENTRY_KINDS = {k.value: (k, k.label) for k in EntryKind}
"""Stored kind → (EntryKind, Portuguese label)."""


def infractor_columns(infractor: Infractor) -> dict:
    if infractor.kind == "driver":
        return {"infractor_driver_id": infractor.id, "infractor_platform_id": None}
    return {"infractor_driver_id": None, "infractor_platform_id": infractor.id}


def infractor_clause(infractor: Infractor):
    if infractor.kind == "driver":
        return LedgerEntry.infractor_driver_id == infractor.id
    return LedgerEntry.infractor_platform_id == infractor.id


def post(session, actor, *, kind: EntryKind, infractor: Infractor, amount_upfm: Decimal, upfm_value: Decimal,
         amount_reais: Decimal, effective_on: date, auto_id: int | None = None, reverses_id: int | None = None,
         reason: str | None = None, guide_number: str | None = None) -> LedgerEntry:
    """Post one entry (checked by `domain.entry_problems`) and audit it. Returns the row."""
    amount_upfm = round_places(amount_upfm, -UPFM_PLACES.as_tuple().exponent)
    problems = entry_problems(DomainEntry(kind, effective_on, amount_upfm, reason or "", origin=reverses_id,
                                          reais=amount_reais if isinstance(amount_reais, Decimal) else None))
    if problems:
        raise ValidationError(problems)
    row = LedgerEntry(
        **infractor_columns(infractor), auto_id=auto_id, kind=EntryKind(kind).value, amount_upfm=amount_upfm,
        upfm_value=upfm_value, amount_reais=round_cents(amount_reais), effective_on=effective_on,
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


REVERSED_TWICE = "O lançamento {id} já foi estornado: um lançamento só pode ser estornado uma vez."


def reversed_ids(session, ids) -> set[int]:
    ids = list(ids)
    if not ids:
        return set()
    return set(session.scalars(select(LedgerEntry.reverses_id).where(LedgerEntry.reverses_id.in_(ids))))


def reverse_in(session, actor, row, on: date, reason: str) -> LedgerEntry:
    """Post the reversal of `row` (same amounts, opposite sign, pointing at it)."""
    if row.kind == EntryKind.REVERSAL.value:
        raise ConflictError("Um estorno não é estornado: lance um novo movimento, se for o caso.")
    if reversed_ids(session, [row.id]):
        raise ConflictError(REVERSED_TWICE.format(id=row.id))
    # Two desks at once: both pass the check above; the unique index on `reverses_id` (migration 0008) refuses
    # the second insert, which desktop.errors.CONSTRAINT_MESSAGES turns into the same Portuguese refusal.
    infractor = (Infractor.driver(row.infractor_driver_id) if row.infractor_driver_id is not None
                 else Infractor.platform(row.infractor_platform_id))
    return post(session, actor, kind=EntryKind.REVERSAL, infractor=infractor, amount_upfm=-row.amount_upfm,
                upfm_value=row.upfm_value, amount_reais=-row.amount_reais, effective_on=on,
                auto_id=row.auto_id, reverses_id=row.id, reason=reason)


def reverse_auto_entries(session, actor, auto, on: date, reason: str) -> list[LedgerEntry]:
    """Reverse every entry of an auto that is not a payment, a refund or a reversal and not yet reversed (an auto
    cancelled or annulled is void, and so are its fine, requalifications and costs). Payments stay: the credit
    they leave becomes a `refund` entry (issue 12 item 3), posted here too."""
    rows = list(session.scalars(select(LedgerEntry).where(LedgerEntry.auto_id == auto.id).order_by(LedgerEntry.id)))
    done = reversed_ids(session, [r.id for r in rows])
    posted = []
    kept = (EntryKind.PAYMENT.value, EntryKind.REVERSAL.value, EntryKind.REFUND.value)
    for row in rows:
        if row.kind in kept or row.id in done:
            continue
        posted.append(reverse_in(session, actor, row, on, reason))
    refund = refund_surplus_in(session, actor, auto, on, reason)
    if refund is not None:
        posted.append(refund)
    return posted


def refund_surplus_in(session, actor, auto, on: date, reason: str) -> LedgerEntry | None:
    """What was paid on an auto above what it owes now (a payment above the balance confirmed by a gestor, a
    payment before a decision annulled or requalified lower) is never left as a credit: it is a `refund` entry,
    what the municipality owes back (issue 12 items 3 and 7). None when nothing is owed back."""
    due = refund_due(*auto_balance_in(session, auto.id))
    if due is None:
        return None
    upfm, reais = due
    return post(session, actor, kind=EntryKind.REFUND, infractor=debtor_of(auto), amount_upfm=upfm,
                upfm_value=auto.upfm_value, amount_reais=reais, effective_on=on, auto_id=auto.id,
                reason=f"Restituição ao infrator — auto {auto.number}: {reason}")


def entry_columns():
    """The columns `entry_from_row` reads, in its order (append the debtor's names for `named_entries_stmt`)."""
    E = LedgerEntry
    return (E.id, E.kind, E.effective_on, E.posted_at, E.amount_upfm, E.upfm_value, E.amount_reais, E.auto_id,
            Auto.number, E.reverses_id, E.guide_number, E.reason, E.infractor_driver_id, E.infractor_platform_id)


def named_entries_stmt():
    """SELECT of `entry_columns()` plus the driver's and the platform's names, joined."""
    return (select(*entry_columns(), Driver.name, Platform.trade_name)
            .outerjoin(Auto, Auto.id == LedgerEntry.auto_id)
            .outerjoin(Driver, Driver.id == LedgerEntry.infractor_driver_id)
            .outerjoin(Platform, Platform.id == LedgerEntry.infractor_platform_id))


def entry_from_row(r, name: str | None = None) -> EntryInfo:
    kind, label = ENTRY_KINDS[r[1]]
    infractor = Infractor("driver", r[12]) if r[12] is not None else Infractor("platform", r[13])
    if name is None:
        name = (r[14] or (r[15] if len(r) > 15 else "")) if len(r) > 14 else ""
    return EntryInfo(r[0], kind, label, r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11] or "",
                     infractor, name or "")


def entries_of_auto(session, auto_id: int) -> tuple[EntryInfo, ...]:
    stmt = named_entries_stmt().where(LedgerEntry.auto_id == auto_id).order_by(LedgerEntry.id)
    return tuple(entry_from_row(r) for r in session.execute(stmt))


def entry_info_in(session, entry_id: int) -> EntryInfo:
    r = session.execute(named_entries_stmt().where(LedgerEntry.id == entry_id)).one_or_none()
    if r is None:
        raise NotFound("Lançamento não encontrado.")
    return entry_from_row(r)
