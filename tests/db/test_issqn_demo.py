"""The demo's ISSQN (issue 13): classes with a dated new base, class decisions (a few vehicles left without a
class), 12 competências computed by the service, each platform's guide, most paid, recent ones open or overdue
and old unpaid ones (for dívida ativa)."""
from __future__ import annotations

from datetime import date

from sqlalchemy import func, select

from desktop.demo.loader import load_demo
from desktop.models import IssqnClass, IssqnEstimate, IssqnShare, PaymentGuide, VehicleIssqnClass
from desktop.services import issqn
from desktop.services.base import SYSTEM_ACTOR


def test_demo_has_classes_decisions_and_12_competences_with_paid_and_overdue_guides(db):
    load_demo(db, drivers=120, seed=7)
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(IssqnClass).where(IssqnClass.code == "INTEGRAL")) == 2
        assert s.scalar(select(func.count()).select_from(VehicleIssqnClass)) > 0
        months = s.execute(select(IssqnEstimate.year, IssqnEstimate.month).distinct()).all()
        assert len(months) == 12 and (2026, 10) in months and (2025, 11) in months
        statuses = dict(s.execute(select(PaymentGuide.status, func.count()).where(PaymentGuide.purpose == "issqn")
                                  .group_by(PaymentGuide.status)).all())
        assert statuses.get("paid", 0) > 0 and statuses.get("open", 0) > 0
        old_unpaid = s.scalar(select(func.count()).select_from(PaymentGuide).where(
            PaymentGuide.purpose == "issqn", PaymentGuide.status == "open", PaymentGuide.due_on < date(2026, 4, 1)))
        assert old_unpaid > 0                                  # old enough for dívida ativa
        assert s.scalar(select(func.count()).select_from(IssqnShare).where(IssqnShare.guide_id.is_(None),
                                                                           IssqnShare.status == "open")) == 0
    unpaid = issqn.unpaid_platforms(db, SYSTEM_ACTOR)
    assert unpaid and any(u.overdue for u in unpaid)
    assert issqn.unclassified_vehicles(db, SYSTEM_ACTOR, 2026, 10)     # a few without a class, listed
