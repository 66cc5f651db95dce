"""Unpaid guides of fees (Art. 10) and of the ISSQN (Art. 11) past their due date, for the dívida ativa list
beside the fines (issue 13). Models only, so the ledger can read them without importing the guides service
(which imports the ledger: no cycle)."""
from __future__ import annotations

from datetime import date

from sqlalchemy import select

from desktop.models import PaymentGuide

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
