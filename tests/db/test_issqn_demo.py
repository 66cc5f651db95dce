"""The demo's ISSQN (issue 13): classes with a dated new base, class decisions (a few vehicles left without a
class), 12 competências computed by the service, each platform's guide, most paid, recent ones open or overdue
and old unpaid ones (for dívida ativa)."""
from __future__ import annotations

from datetime import date

from sqlalchemy import func, select

from desktop.demo.loader import load_demo
from desktop.models import IssqnClass, IssqnEstimate, IssqnShare, PaymentGuide, VehicleIssqnClass
from desktop.services import issqn
from desktop.services.actors import SYSTEM_ACTOR


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


def test_issue28_the_demo_gestor_notifies_a_platform_of_its_estimated_lancamento(db):
    """The demo sets a demonstration term to contest (the CTM's is the office's to set), so the notice of
    lançamento can be tried on the demo."""
    import io

    from pypdf import PdfReader

    from desktop.models import Platform, User
    from desktop.services.actors import Actor
    from desktop.domain.roles import Role

    load_demo(db, drivers=60, seed=7)
    with db.session(write=False) as s:
        user = next(u for u in s.scalars(select(User).order_by(User.id)) if Role.GESTOR in u.roles and u.office)
        gestor = Actor(user_id=user.id, username=user.username, full_name=user.full_name,
                       roles=frozenset({Role.GESTOR}))
        platform_id = s.scalar(select(IssqnShare.platform_id).where(IssqnShare.year == 2026, IssqnShare.month == 9,
                                                                    IssqnShare.platform_id.is_not(None)).limit(1))
        assert s.get(Platform, platform_id) is not None
    issued = issqn.print_lancamento_notice(db, gestor, platform_id, 2026, 9)
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(issued.pdf)).pages)
    assert "NOTIFICAÇÃO DE LANÇAMENTO DO ISSQN ESTIMADO" in text and "30 dias" in text and "09/2026" in text
