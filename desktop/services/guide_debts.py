"""Unpaid guides of fees (Art. 10) and of the ISSQN (Art. 11) past their due date, for the dívida ativa list
beside the fines (issue 13). Models only, so the ledger can read them without importing the guides service
(which imports the ledger: no cycle)."""
from __future__ import annotations

from datetime import date

from sqlalchemy import select

from desktop.models import FeePayment, LedgerEntry, PaymentGuide

DEBT_PURPOSES = ("fee", "issqn")
PURPOSE_LABELS = {"fee": "Taxa", "issqn": "ISSQN"}


def overdue_guides_in(session, today: date):
    """Rows (id, number, purpose, payer_name, payer_document, driver_id, platform_id, due_on, amount_reais) of
    the open fee and ISSQN guides whose due date passed, oldest due first. A reissued guide counts once (the old
    one is cancelled)."""
    stmt = (select(PaymentGuide.id, PaymentGuide.number, PaymentGuide.purpose, PaymentGuide.payer_name,
                   PaymentGuide.payer_document, PaymentGuide.driver_id, PaymentGuide.platform_id,
                   PaymentGuide.due_on, PaymentGuide.amount_reais)
            .where(PaymentGuide.status == "open", PaymentGuide.purpose.in_(DEBT_PURPOSES),
                   PaymentGuide.due_on < today)
            .order_by(PaymentGuide.due_on, PaymentGuide.id))
    return session.execute(stmt).all()


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
