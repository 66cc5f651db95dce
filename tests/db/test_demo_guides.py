"""The demo of issue 13 (both databases): guides for fines and fees paid, open, overdue (in the dívida ativa list)
and reissued; every paid fee with its append-only payment record; the open guides carry their barcode, so the
example return file pays some of them through the real import."""
from __future__ import annotations

from collections import Counter
from datetime import date, datetime

from sqlalchemy import func, select

from desktop.demo import load_demo
from desktop.demo.guides import example_return
from desktop.domain import clock
from desktop.domain.roles import Role
from desktop.models import Fee, FeePayment, PaymentGuide
from desktop.reports import febraban
from desktop.services import bank_returns, ledger

TODAY = date(2026, 11, 18)


def test_demo_has_guides_in_every_state_and_a_return_file_that_pays_some(db, make_actor):
    clock.set_clock(clock.ticking(datetime(2026, 11, 18, 10, 0)))
    load_demo(db, drivers=120, seed=11, today=TODAY)
    clerk = make_actor(Role.ATENDENTE)
    with db.session(write=False) as s:
        states = Counter(s.execute(select(PaymentGuide.purpose, PaymentGuide.status)).all())
        assert states[("fee", "paid")] and states[("fee", "open")]
        assert states[("fine", "paid")] and states[("fine", "open")] and states[("fine", "cancelled")]
        reissued = s.scalars(select(PaymentGuide).where(PaymentGuide.replaces_id.is_not(None))).all()
        assert reissued and all(s.get(PaymentGuide, g.replaces_id).status == "cancelled" for g in reissued)
        assert all(g.number in s.get(PaymentGuide, g.replaces_id).cancel_reason for g in reissued)
        paid_fees = s.scalar(select(func.count()).select_from(Fee).where(Fee.status == "paid",
                                                                          Fee.guide_number.is_not(None)))
        assert paid_fees and s.scalar(select(func.count()).select_from(FeePayment)) == paid_fees
        open_guides = s.scalars(select(PaymentGuide).where(PaymentGuide.status == "open")).all()
        assert open_guides and all(febraban.is_valid_barcode(g.barcode) for g in open_guides)
        assert s.scalar(select(func.count()).select_from(PaymentGuide).where(
            PaymentGuide.purpose == "fee", PaymentGuide.fee_id.is_(None))) == 0
    debts = {r.debt for r in ledger.divida_ativa_list(db, clerk, TODAY)}
    # the demo's unpaid fees are of requests approved and not yet granted (Art. 15, VII): Vencidas on the guides
    # screen, no debt for the dívida ativa (issue 28 item 9); the fines, costs and ISSQN guides are
    assert {"fine", "issqn"} <= debts and "fee" not in debts
    from desktop.services import guides
    assert any(r.purpose == "fee" for r in guides.list_guides(db, clerk, "overdue", today=TODAY).rows)
    content, count = example_return(db, limit=5)
    assert count == 5
    report = bank_returns.import_bank_return(db, clerk, content, "exemplo.txt")
    assert report.recorded == 5 and report.rejected == 0, report.rejected_lines


def test_issue28_the_demo_prints_its_fake_codigos_da_receita_and_the_prefeituras_cnpj(db, make_actor):
    """The demo's códigos da receita are plausible but fake (an installation starts with none): a demo DAM of a
    fee prints the fee's code, the creditor's CNPJ and address."""
    import io

    from pypdf import PdfReader

    from desktop.demo.loader import DEMO_REVENUE_CODES
    from desktop.domain.guides import guide_overdue
    from desktop.services import documents

    clock.set_clock(clock.ticking(datetime(2026, 11, 18, 10, 0)))
    load_demo(db, drivers=120, seed=11, today=TODAY)
    codes = dict(DEMO_REVENUE_CODES)
    assert set(codes) == {"revenue_code_fee_authorization", "revenue_code_fee_renewal", "revenue_code_fee_inspection",
                          "revenue_code_fine", "revenue_code_issqn", "revenue_code_costs"}
    with db.session(write=False) as s:
        number = next(g.number for g in s.scalars(select(PaymentGuide).where(
            PaymentGuide.status == "open", PaymentGuide.purpose == "fine").order_by(PaymentGuide.id))
            if not guide_overdue(g.due_on, TODAY))
    pdf = documents.print_guide(db, make_actor(Role.ATENDENTE), number).pdf
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)
    assert f"Código da receita: {codes['revenue_code_fine']}" in text
    assert "CNPJ do credor" in text and "não configurado" not in text and "Rua Cipriano Curvo, 450" in text
