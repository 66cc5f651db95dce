"""Read-only queries over the enforcement tables that both the services and the printed auto compute from (issue
12 item 4: a fine and a balance are sums of the ledger, never a column overwritten). They sit with the models so
that documents (desktop.reports) and services read the same sums without a document importing a service."""
from __future__ import annotations

from decimal import Decimal

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import aliased

from desktop.domain.ledger import EntryKind
from desktop.models.enforcement import Auto, AutoJudgment, LedgerEntry

ZERO = Decimal(0)


def auto_balance_in(session, auto_id: int) -> tuple[Decimal, Decimal]:
    """(UPFM, reais) still owed on one auto: the sum of all its entries (a balance is computed, never stored)."""
    upfm, reais = session.execute(select(func.sum(LedgerEntry.amount_upfm), func.sum(LedgerEntry.amount_reais))
                                  .where(LedgerEntry.auto_id == auto_id)).one()
    return (upfm or ZERO), (reais or ZERO)


FINE_KINDS = (EntryKind.DEBIT.value, EntryKind.REDUCTION.value, EntryKind.REQUALIFICATION.value)


def _fine_clause(entry=LedgerEntry):
    """The entries that make an auto's fine (Art. 25): its debit, the requalifications (and old reductions) of its
    judgments, and the reversal of one of those posted in error. The reversal of the debit (a cancelled or annulled
    auto) voids what is owed — the balance — not the fine the auto was drawn up with."""
    reduction = aliased(LedgerEntry)
    reversed_reductions = select(reduction.id).where(reduction.auto_id == entry.auto_id,
                                                     reduction.kind.in_(FINE_KINDS[1:]))
    return or_(entry.kind.in_(FINE_KINDS),
               and_(entry.kind == EntryKind.REVERSAL.value, entry.reverses_id.in_(reversed_reductions)))


def fine_in(session, auto) -> tuple[Decimal, Decimal]:
    """(UPFM, reais) of the auto's fine now, summed from its ledger entries (issue 12 item 4: never a column
    overwritten by a judgment); the amounts stored on the auto when it has no entry (rows loaded without one)."""
    upfm, reais = session.execute(select(func.sum(LedgerEntry.amount_upfm), func.sum(LedgerEntry.amount_reais))
                                  .where(LedgerEntry.auto_id == auto.id, _fine_clause())).one()
    if upfm is None:
        return auto.amount_upfm, auto.amount_reais
    return upfm, reais


def code_in_force_in(session, auto) -> str:
    """The catalogue code in force on an auto (issue 12 item 1): the code of its last partial decision that
    requalified it, else the code it was drawn up with (which the auto keeps, in `autos.code`, as its history)."""
    code = session.scalar(select(AutoJudgment.requalified_code).where(
        AutoJudgment.auto_id == auto.id, AutoJudgment.requalified_code.is_not(None))
        .order_by(AutoJudgment.id.desc()).limit(1))
    return code or auto.code


def code_in_force_column():
    """`code_in_force_in` as a correlated scalar subquery, for a list's or an export's SELECT."""
    judgment = aliased(AutoJudgment)
    last = (select(judgment.requalified_code)
            .where(judgment.auto_id == Auto.id, judgment.requalified_code.is_not(None))
            .order_by(judgment.id.desc()).limit(1).correlate(Auto).scalar_subquery())
    return func.coalesce(last, Auto.code)


def fine_columns() -> tuple:
    """(UPFM, reais) of each auto's fine as correlated scalar subqueries over its entries, for a list's SELECT
    (read only for the rows of the page, through the index on `ledger_entries.auto_id`)."""
    entry = aliased(LedgerEntry)
    where = and_(entry.auto_id == Auto.id, _fine_clause(entry))
    upfm = select(func.sum(entry.amount_upfm)).where(where).correlate(Auto).scalar_subquery()
    reais = select(func.sum(entry.amount_reais)).where(where).correlate(Auto).scalar_subquery()
    return func.coalesce(upfm, Auto.amount_upfm), func.coalesce(reais, Auto.amount_reais)
