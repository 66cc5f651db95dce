"""Stage of the demo for the ISSQN (issue 13, Art. 11): the rate (a demonstration value), the vehicles' class
decisions (a few left without a class, to show the problem list), and the last 12 competências computed by the
real service (`services.issqn.run_competence_in`), each platform's guide issued, most paid on time, the recent
ones open or overdue, and some old ones unpaid long enough for dívida ativa.

Runs after `finish` (the number sequences are saved, so the guides take their numbers from `services.numbering`
like any desk would). One audit entry per competência run and per guide, as the services write them.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import insert, select

from desktop.domain import clock, law
from desktop.domain.roles import Role
from desktop.models import IssqnClass, IssqnShare, Parameter, PaymentGuide, Vehicle, VehicleIssqnClass
from desktop.services.actors import Actor

DEMO_RATE = Decimal("3")        # % — demonstration value (the real one is the Código Tributário Municipal's)
DEMO_CONTEST_DAYS = Decimal("30")   # days to contest a lançamento — demonstration value (issue 28 point 4)
MONTHS = 12
UNCLASSIFIED_EVERY = 40         # one vehicle in 40 has no class: listed as a problem on the screen


def _months_before(today: date, n: int) -> list[tuple[int, int]]:
    y, m = today.year, today.month
    out = []
    for _ in range(n):
        y, m = (y - 1, 12) if m == 1 else (y, m - 1)
        out.append((y, m))
    return list(reversed(out))


def run(ctx) -> None:
    from desktop.services import issqn  # lazy: the demo's stages import services only when they run

    s = ctx.s
    ctx.w.drain()
    s.flush()
    if s.scalar(select(Parameter.id).where(Parameter.key == "issqn_rate_percent")) is None:
        s.add(Parameter(key="issqn_rate_percent", valid_from=law.LAW_DATE, value=DEMO_RATE,
                        note="Valor de demonstração", created_by=ctx.gestor))
    if s.scalar(select(Parameter.id).where(Parameter.key == "issqn.contest_days")) is None:
        s.add(Parameter(key="issqn.contest_days", valid_from=law.LAW_DATE, value=DEMO_CONTEST_DAYS,
                        note="Valor de demonstração", created_by=ctx.gestor))
    classes = dict(s.execute(select(IssqnClass.code, IssqnClass.id)).all())
    if not classes:
        return
    full, part = classes.get("INTEGRAL"), classes.get("PARCIAL")
    # a new base for the full-time class from July of last year: a dated row, never an edit
    latest = s.scalars(select(IssqnClass).where(IssqnClass.code == "INTEGRAL")
                       .order_by(IssqnClass.valid_from.desc())).first()
    new_base_from = date(ctx.today.year - 1, 7, 1)
    if latest is not None and latest.valid_from < new_base_from:
        latest.valid_until = new_base_from - timedelta(days=1)
        s.add(IssqnClass(code="INTEGRAL", name=latest.name, monthly_base=Decimal("4800.00"), active=True,
                         valid_from=new_base_from, created_by=ctx.gestor,
                         reason="Nova base pela média das corridas informadas (Art. 4, V)"))
    decided = set(s.scalars(select(VehicleIssqnClass.vehicle_id)))
    rows = []
    for k, vehicle_id in enumerate(s.scalars(select(Vehicle.id).order_by(Vehicle.id))):
        if vehicle_id in decided or k % UNCLASSIFIED_EVERY == UNCLASSIFIED_EVERY - 1:
            continue
        class_id = full if k % 3 else part
        rows.append({"vehicle_id": vehicle_id, "class_id": class_id, "valid_from": law.LAW_DATE,
                     "decided_by": ctx.gestor, "reason": "Enquadramento inicial (demonstração)",
                     "created_at": ctx.now})
    if rows:
        s.execute(insert(VehicleIssqnClass), rows)
    gestor = Actor(user_id=ctx.gestor, username="gabriela.gestora", full_name="Gabriela Curvo de Almeida",
                   roles=frozenset({Role.GESTOR}))
    months = _months_before(ctx.today, MONTHS)
    guides = 0
    for index, (year, month) in enumerate(months):
        result = issqn.run_competence_in(s, gestor, year, month)
        if not result.vehicles:
            continue
        platforms = sorted(p for p in s.scalars(
            select(IssqnShare.platform_id).where(IssqnShare.year == year, IssqnShare.month == month,
                                                 IssqnShare.status == "open", IssqnShare.guide_id.is_(None))
            .distinct()) if p is not None)
        # issue 23.8: each month's guide is issued on the first day of the following month (its real issue date,
        # so it falls due on the month's due day and the bank's dates pay it), not on the demo's today
        ny, nm = (year + 1, 1) if month == 12 else (year, month + 1)
        previous = clock.set_clock(clock.fixed(datetime(ny, nm, 1, 9, 0)))
        try:
            issued = [issqn.issue_issqn_guide_in(s, gestor, platform_id, year, month) for platform_id in platforms]
        finally:
            clock.set_clock(previous)
        for n, guide in enumerate(issued):
            guides += 1
            row = s.get(PaymentGuide, guide.id)
            age = len(months) - index          # 12 = the oldest competência, 1 = last month
            unpaid = (age <= 2 and n % 2 == 0) or (age >= 9 and n == len(platforms) - 1)
            if not unpaid and row.due_on < ctx.today:
                row.status, row.paid_on, row.paid_amount = "paid", row.due_on - timedelta(days=n % 4), row.amount_reais
    s.flush()
    ctx.summary.counts["issqn_guides"] = guides
