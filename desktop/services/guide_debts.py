"""The debts a guide covers (issue 23: "a guide is the instrument of a debt, never the debt") and the unpaid
guides of fees (Art. 10) and of the ISSQN (Art. 11) past their due date, for the dívida ativa list beside the
fines (issue 13). Models only (and the audit), so the ledger, the guides service and the ISSQN service all read
them without importing one another (the guides service imports the ledger: no cycle).

A guide covers: an auto's fine (`auto_id`, the ledger holds the debt), a fee (`fee_id`, the `fees` row), or
ISSQN shares (`issqn_shares.guide_id`, one row per vehicle and platform/driver). When a guide is reissued or
cancelled — from the Guias screen, the ISSQN tab or the command line — its ISSQN shares follow it here:
a share is never edited once on a guide, so it is cancelled with the reason and an open copy takes its place,
on the new guide (reissue) or on no guide (cancellation: the month can be guided again)."""
from __future__ import annotations

from datetime import date

from sqlalchemy import and_, select

from desktop.domain.finance import ISSQN_SHARE_MACHINE, IssqnShareStatus
from desktop.domain.workflow import transition

from desktop.domain.guides import fee_inscribable
from desktop.models import Authorization, Fee, FeePayment, IssqnShare, LedgerEntry, PaymentGuide

DEBT_PURPOSES = ("fee", "issqn")
PURPOSE_LABELS = {"fee": "Taxa", "issqn": "ISSQN"}


def overdue_clause(guide, on: date):
    """The SQL twin of `domain.guides.guide_overdue`: an open guide whose due date passed (`guide` is the
    PaymentGuide entity or an alias). Every list, total and export that says "Vencida" uses this clause."""
    return and_(guide.status == "open", guide.due_on < on)


def open_not_due_clause(guide, on: date):
    """An open guide still within its due date ("Em aberto")."""
    return and_(guide.status == "open", guide.due_on >= on)


def overdue_guides_in(session, today: date, inscribable_only: bool = False):
    """Rows (id, number, purpose, payer_name, payer_document, driver_id, platform_id, due_on, amount_reais) of
    the open fee and ISSQN guides whose due date passed, oldest due first. A reissued guide counts once (the old
    one is cancelled). `inscribable_only`: without the fees that are no debt for the dívida ativa (the fee of a
    request not yet granted: `domain.guides.fee_inscribable`)."""
    stmt = (select(PaymentGuide.id, PaymentGuide.number, PaymentGuide.purpose, PaymentGuide.payer_name,
                   PaymentGuide.payer_document, PaymentGuide.driver_id, PaymentGuide.platform_id,
                   PaymentGuide.due_on, PaymentGuide.amount_reais, Fee.kind, Authorization.status)
            .outerjoin(Fee, Fee.id == PaymentGuide.fee_id)
            .outerjoin(Authorization, Authorization.id == Fee.authorization_id)
            .where(overdue_clause(PaymentGuide, today), PaymentGuide.purpose.in_(DEBT_PURPOSES))
            .order_by(PaymentGuide.due_on, PaymentGuide.id))
    return [row for row in session.execute(stmt).all()
            if not inscribable_only or fee_inscribable(row[9], row[10])]


def guide_number_conflict(session, guide_number: str | None, auto_id: int | None = None) -> str | None:
    """Why a fine payment of `auto_id` may not cite `guide_number` (issue 12 items 6-7: the same bank guide number
    never pays two debts), or None: the number paid a fee, or is the DAM of another debt, or was already used by
    a payment of another auto."""
    number = (guide_number or "").strip()
    if not number:
        return None
    if session.scalar(select(FeePayment.id).where(FeePayment.guide_number == number)) is not None:
        return f"A guia {number} já pagou uma taxa: o mesmo número de guia não paga dois débitos."
    guide = session.execute(select(PaymentGuide.purpose, PaymentGuide.auto_id)
                            .where(PaymentGuide.number == number)).first()
    if guide is not None and (guide.purpose != "fine" or (auto_id is not None and guide.auto_id != auto_id)):
        return f"A guia {number} é de outro débito: o mesmo número de guia não paga dois débitos."
    other = session.scalar(select(LedgerEntry.auto_id).where(LedgerEntry.guide_number == number,
                                                             LedgerEntry.kind == "payment",
                                                             LedgerEntry.auto_id != auto_id).limit(1))
    if auto_id is not None and other is not None:
        return f"A guia {number} já pagou outro auto: o mesmo número de guia não paga dois débitos."
    return None


def _move_shares_in(session, guide: PaymentGuide, reason: str, new_guide_id: int | None) -> list:
    pairs = []
    for share in session.scalars(select(IssqnShare).where(IssqnShare.guide_id == guide.id,
                                                          IssqnShare.status == "open").order_by(IssqnShare.id)).all():
        share.status = transition(ISSQN_SHARE_MACHINE, share.status, IssqnShareStatus.CANCELLED).value
        share.cancel_reason = reason
        copy = IssqnShare(estimate_id=share.estimate_id, year=share.year, month=share.month,
                          platform_id=share.platform_id, driver_id=share.driver_id, amount=share.amount,
                          guide_id=new_guide_id, status="open", replaces_id=share.id)
        session.add(copy)
        pairs.append((share, copy))
    session.flush()
    return pairs


def release_debts_in(session, guide: PaymentGuide, reason: str) -> list:
    """A cancelled guide leaves its debts open and issuable again: its ISSQN shares are replaced by open copies
    without a guide (fees and fines need nothing: their open debt is read from the fee row and the ledger).
    Returns the (old, new) share pairs."""
    return _move_shares_in(session, guide, f"Guia nº {guide.number} cancelada: {reason}", None)


def follow_reissue_in(session, old: PaymentGuide, new: PaymentGuide) -> list:
    """A reissued guide covers the debts of the guide it replaces: the ISSQN shares move to `new` (as copies,
    the old shares cancelled with the reason), so the month is credited when the new guide is paid."""
    return _move_shares_in(session, old, f"Guia nº {old.number} reemitida como guia nº {new.number}", new.id)


def payment_returned_in(session, guide_number: str) -> bool:
    """The payment a guide made in the ledger was reversed (returned by the bank): the guide stays paid — a
    status is never moved back — but its debt is open again and the screens say "Pagamento devolvido"."""
    reversed_ids = select(LedgerEntry.reverses_id).where(LedgerEntry.reverses_id.is_not(None))
    return session.scalar(select(LedgerEntry.id).where(LedgerEntry.guide_number == guide_number,
                                                       LedgerEntry.kind == "payment",
                                                       LedgerEntry.id.in_(reversed_ids)).limit(1)) is not None
