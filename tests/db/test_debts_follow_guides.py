"""Money follows its debt (issue 23), on SQLite and PostgreSQL: a guide is the instrument of a debt, never the
debt. A reissued ISSQN guide is credited to its month when paid, a cancelled one leaves its shares open and
issuable again (Art. 11), from the Guias screen's service as from the ISSQN tab's."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest
from issqn_factories import build_world, classify
from sqlalchemy import select

from desktop.domain import clock
from desktop.models import IssqnShare, PaymentGuide
from desktop.services import guides, issqn

D = Decimal


def _at(day: date):
    clock.set_clock(clock.ticking(datetime(day.year, day.month, day.day, 10, 0)))


def _october(db):
    w = build_world(db, febraban="0421")
    classify(w, 1)
    classify(w, 2)
    issqn.run_competence(db, w.gestor, 2026, 10)
    guide = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)   # due 10/11/2026
    return w, guide


def test_art11_reissued_issqn_guide_paid_by_the_bank_credits_its_month(db):
    from desktop.importers.bank_return import build_return
    from desktop.services import bank_returns

    w, guide = _october(db)
    _at(date(2026, 11, 18))   # the platform's guide is overdue
    new = guides.reissue_overdue_guide(db, w.gestor, guide.number, "Plataforma pediu nova guia")
    assert new.replaces_number == guide.number and new.due_on > date(2026, 11, 18)
    rows = issqn.share_rows(db, w.gestor, 2026, 10)
    assert {r.guide_number for r in rows} == {new.number}          # the shares follow the new guide
    assert all(r.situation == "Em aberto" for r in rows)
    with db.session(write=False) as s:
        row = s.get(PaymentGuide, new.id)
        barcode, amount = row.barcode, row.amount_reais
        history = s.scalars(select(IssqnShare).where(IssqnShare.guide_id == guide.id)).all()
        assert history and all(h.status == "cancelled" and new.number in h.cancel_reason for h in history)
    content = build_return([(barcode, amount, date(2026, 11, 18))], nsa=3, generated_on=date(2026, 11, 18),
                           agreement="0421")
    report = bank_returns.import_bank_return(db, w.gestor, content, "retorno-3.txt")
    assert not report.rejected_lines
    rows = issqn.share_rows(db, w.gestor, 2026, 10)
    assert rows and all(r.situation == "Paga" and r.paid_on == date(2026, 11, 18) for r in rows)
    totals = issqn.month_totals(db, w.gestor, 2026, 10)
    assert totals.total == D("180.00") and totals.paid == D("180.00")
    assert issqn.unpaid_platforms(db, w.gestor) == []


def test_art11_issqn_guide_cancelled_on_the_guides_screen_can_be_issued_again(db):
    w, guide = _october(db)
    cancelled = guides.cancel_guide(db, w.gestor, guide.number, "Emitida com o CNPJ errado")
    assert cancelled.status == "cancelled"
    rows = issqn.share_rows(db, w.gestor, 2026, 10)
    assert rows and all(r.guide_number == "" and r.situation == "Sem guia" for r in rows)
    assert all(next(a for a in r.actions if a.key == "issue_guide").enabled for r in rows)
    totals = issqn.month_totals(db, w.gestor, 2026, 10)
    assert totals.platforms[0].without_guide == D("180.00")
    assert [u.competences for u in issqn.unpaid_platforms(db, w.gestor)] == [("10/2026",)]
    again = issqn.run_competence(db, w.gestor, 2026, 10)
    assert again.kept == 0 and "mantidos" not in again.summary()
    second = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)
    assert second.number != guide.number and second.amount == D("180.00") and second.shares == 2


@pytest.mark.parametrize("path", ["guias", "issqn"])
def test_art11_cancelling_either_way_leaves_the_debt_open_never_lost(db, path):
    w, guide = _october(db)
    if path == "guias":
        guides.cancel_guide(db, w.gestor, guide.number, "Guia emitida em duplicidade")
    else:
        issqn.cancel_issqn_guide(db, w.gestor, guide.id, "Guia emitida em duplicidade")
    with db.session(write=False) as s:
        open_shares = s.scalars(select(IssqnShare).where(IssqnShare.year == 2026, IssqnShare.month == 10,
                                                         IssqnShare.status == "open")).all()
    assert sum(Decimal(sh.amount) for sh in open_shares) == D("180.00")
    assert all(sh.guide_id is None and sh.replaces_id is not None for sh in open_shares)
