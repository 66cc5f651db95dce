"""What the ISSQN screen reads (issue 13): per platform the vehicles of a competência (a page at a time), the
totals per platform and for the month, the 12-month series per platform for the chart, the platforms with unpaid
competências. Paid / overdue come from each share's payment guide (status, paid_on, due_on)."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.orm import Session

from desktop.domain.clock import today
from desktop.domain.finance import CHARGE_FILTER_LABELS
from desktop.domain.money import round_cents
from desktop.domain.formatting import format_cnpj, format_cpf, format_plate
from desktop.domain.guides import guide_overdue
from desktop.domain.taxes import PREVIEW_LABEL
from desktop.domain.text import fold
from desktop.models import Driver, IssqnClass, IssqnEstimate, IssqnShare, PaymentGuide, Platform, Vehicle
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.guide_debts import open_not_due_clause, overdue_clause
from desktop.services.issqn.common import (
    READ_ROLES,
    MonthTotals,
    PlatformTotal,
    SeriesPoint,
    ShareRow,
    UnpaidPlatform,
    competence_label,
    is_preview,
    share_actions,
    share_facts,
)
from desktop.models import Authorization

__all__ = ["SITUATIONS", "share_rows", "share_count", "month_totals", "platform_series", "unpaid_platforms",
           "platform_choices"]

ZERO = Decimal("0.00")
SITUATIONS = {"": CHARGE_FILTER_LABELS[""], "no_guide": "Sem guia",
              **{k: CHARGE_FILTER_LABELS[k] for k in ("open", "overdue", "paid")}}   # domain/finance.py


def situation_of(guide_status: str | None, due_on: date | None, on: date) -> tuple[str, bool]:
    if guide_status is None:
        return "Sem guia", False
    if guide_status == "paid":
        return "Paga", False
    if guide_status == "cancelled":
        return "Cancelada", False
    overdue = due_on is not None and guide_overdue(due_on, on)
    return ("Vencida" if overdue else "Em aberto"), overdue


def _base_query(year: int, month: int, platform_id: int | None, text: str, situation: str, on: date):
    S, E, G = IssqnShare, IssqnEstimate, PaymentGuide
    stmt = (select(S.id, S.estimate_id, E.vehicle_id, S.platform_id, S.driver_id, S.amount, S.guide_id,
                   E.days_active, E.base, E.rate, E.amount.label("estimate_amount"), E.authorization_id,
                   Vehicle.plate, IssqnClass.code, IssqnClass.name.label("class_name"),
                   G.number, G.status.label("guide_status"), G.due_on, G.paid_on,
                   Platform.trade_name)
            .join(E, E.id == S.estimate_id)
            .join(Vehicle, Vehicle.id == E.vehicle_id)
            .join(IssqnClass, IssqnClass.id == E.class_id)
            .outerjoin(G, G.id == S.guide_id)
            .outerjoin(Platform, Platform.id == S.platform_id)
            .where(S.year == year, S.month == month, S.status == "open"))
    if platform_id is not None:
        stmt = stmt.where(S.platform_id == platform_id)
    text = (text or "").strip()
    if text:
        plate = "".join(ch for ch in text.upper() if ch.isalnum())
        stmt = stmt.where(or_(Vehicle.plate.like(f"{plate}%") if plate else False,
                              IssqnClass.code.like(f"{text.upper()}%"),
                              E.authorization_id.in_(_drivers_named(text))))
    if situation == "no_guide":
        stmt = stmt.where(S.guide_id.is_(None))
    elif situation == "open":
        stmt = stmt.where(open_not_due_clause(G, on))
    elif situation == "overdue":
        stmt = stmt.where(overdue_clause(G, on))
    elif situation == "paid":
        stmt = stmt.where(G.status == "paid")
    return stmt


def _drivers_named(text: str):

    folded = fold(text)
    return (select(Authorization.id).join(Driver, Driver.id == Authorization.driver_id)
            .where(Driver.search_key.like(f"{folded}%")))


def share_rows(db, actor: Actor, year: int, month: int, platform_id: int | None = None, text: str = "",
               situation: str = "", offset: int = 0, limit: int = 100) -> list[ShareRow]:
    """One page of the competência's shares (by plate), filtered by platform, text (plate, class, driver's name)
    and situation (no_guide / open / overdue / paid)."""
    require_role(actor, *READ_ROLES)
    on = today()
    with db.session(write=False) as s:
        stmt = (_base_query(year, month, platform_id, text, situation, on)
                .order_by(Vehicle.plate, IssqnShare.id).offset(offset).limit(limit))
        rows = s.execute(stmt).all()
        return _rows(s, actor, rows, on, is_preview(year, month))


def share_count(db, actor: Actor, year: int, month: int, platform_id: int | None = None, text: str = "",
                situation: str = "") -> int:
    require_role(actor, *READ_ROLES)
    with db.session(write=False) as s:
        inner = _base_query(year, month, platform_id, text, situation, today()).subquery()
        return int(s.scalar(select(func.count()).select_from(inner)))


def _rows(s: Session, actor: Actor, rows, on: date, preview: bool = False) -> list[ShareRow]:

    auth_ids = {r.authorization_id for r in rows if r.authorization_id}
    drivers = {}
    if auth_ids:
        for aid, name, cpf in s.execute(select(Authorization.id, Driver.name, Driver.cpf)
                                        .join(Driver, Driver.id == Authorization.driver_id)
                                        .where(Authorization.id.in_(auth_ids))):
            drivers[aid] = (name, cpf)
    out = []
    for r in rows:
        name, cpf = drivers.get(r.authorization_id, ("", ""))
        situation, overdue = situation_of(r.guide_status, r.due_on, on)
        if preview and r.guide_status is None:
            situation = PREVIEW_LABEL          # issue 23 point 2: the month in progress has no guide
        facts = share_facts(r.guide_status, r.due_on, r.platform_id is not None, on, preview)
        out.append(ShareRow(
            share_id=r.id, estimate_id=r.estimate_id, vehicle_id=r.vehicle_id, platform_id=r.platform_id,
            platform_name=r.trade_name or (f"Condutor: {name}" if r.driver_id else ""),
            plate_display=format_plate(r.plate), driver_name=name, driver_cpf_display=format_cpf(cpf) if cpf else "",
            class_code=r.code, class_name=r.class_name, days_active=r.days_active or 0, base=Decimal(r.base),
            rate=Decimal(r.rate), estimate_amount=Decimal(r.estimate_amount), amount=Decimal(r.amount),
            guide_id=r.guide_id, guide_number=r.number or "", situation=situation, due_on=r.due_on,
            paid_on=r.paid_on, overdue=overdue, substitute=r.driver_id is not None,
            actions=share_actions(facts, actor.roles)))
    return out


def _q(value) -> Decimal:
    return round_cents(Decimal(value or 0))


def month_totals(db, actor: Actor, year: int, month: int) -> MonthTotals:
    """Per platform (and the drivers charged as substitutes, as one line) and for the whole month."""
    require_role(actor, *READ_ROLES)
    on = today()
    S, G = IssqnShare, PaymentGuide
    with db.session(write=False) as s:
        rows = s.execute(
            select(S.platform_id, func.count(func.distinct(S.estimate_id)), func.sum(S.amount),
                   func.sum(case((S.guide_id.is_(None), S.amount), else_=0)),
                   func.sum(case((open_not_due_clause(G, on), S.amount), else_=0)),
                   func.sum(case((overdue_clause(G, on), S.amount), else_=0)),
                   func.sum(case((G.status == "paid", S.amount), else_=0)))
            .outerjoin(G, G.id == S.guide_id)
            .where(S.year == year, S.month == month, S.status == "open")
            .group_by(S.platform_id)).all()
        guides: dict[int | None, list[str]] = {}
        for pid, number in s.execute(
                select(S.platform_id, G.number).join(G, G.id == S.guide_id)
                .where(S.year == year, S.month == month, S.status == "open").distinct().order_by(G.number)):
            guides.setdefault(pid, []).append(number)
        names = {p.id: (p.trade_name, p.cnpj) for p in s.execute(select(Platform.id, Platform.trade_name,
                                                                         Platform.cnpj))}
        vehicles = int(s.scalar(select(func.count()).where(IssqnEstimate.year == year, IssqnEstimate.month == month,
                                                           IssqnEstimate.status == "open")) or 0)
    platforms = []
    for pid, count, total, no_guide, open_, overdue, paid in rows:
        name, cnpj = names.get(pid, ("Condutores (substitutos, Art. 11)", ""))
        platforms.append(PlatformTotal(pid, name, format_cnpj(cnpj) if cnpj else "", int(count), _q(total),
                                       _q(no_guide), _q(open_), _q(overdue), _q(paid), tuple(guides.get(pid, ()))))
    platforms.sort(key=lambda p: (p.platform_id is None, p.platform_name))
    return MonthTotals(year, month, tuple(platforms), _q(sum(p.total for p in platforms)),
                       _q(sum(p.paid for p in platforms)), _q(sum(p.overdue for p in platforms)), vehicles)


def _months_back(year: int, month: int, n: int) -> list[tuple[int, int]]:
    out = []
    for _ in range(n):
        out.append((year, month))
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    return list(reversed(out))


def platform_series(db, actor: Actor, year: int, month: int, months: int = 12) -> dict[str, list[SeriesPoint]]:
    """The last `months` competências up to month/year, per platform name: total and paid (the chart)."""
    require_role(actor, *READ_ROLES)
    wanted = _months_back(year, month, months)
    (y0, m0) = wanted[0]
    S, G = IssqnShare, PaymentGuide
    with db.session(write=False) as s:
        rows = s.execute(
            select(Platform.trade_name, S.year, S.month, func.sum(S.amount),
                   func.sum(case((G.status == "paid", S.amount), else_=0)))
            .join(Platform, Platform.id == S.platform_id).outerjoin(G, G.id == S.guide_id)
            .where(S.status == "open", S.platform_id.is_not(None),
                   or_(S.year > y0, and_(S.year == y0, S.month >= m0)),
                   or_(S.year < year, and_(S.year == year, S.month <= month)))
            .group_by(Platform.trade_name, S.year, S.month)).all()
    found: dict[str, dict[tuple[int, int], tuple[Decimal, Decimal]]] = {}
    for name, y, m, total, paid in rows:
        found.setdefault(name, {})[(y, m)] = (_q(total), _q(paid))
    return {name: [SeriesPoint(y, m, *points.get((y, m), (ZERO, ZERO))) for y, m in wanted]
            for name, points in sorted(found.items())}


def unpaid_platforms(db, actor: Actor) -> list[UnpaidPlatform]:
    """Platforms with competências not paid: shares without a guide or on an open guide (overdue flagged)."""
    require_role(actor, *READ_ROLES)
    on = today()
    S, G = IssqnShare, PaymentGuide
    with db.session(write=False) as s:
        rows = s.execute(
            select(S.platform_id, Platform.trade_name, S.year, S.month, func.sum(S.amount),
                   func.max(case((overdue_clause(G, on), 1), else_=0)))
            .join(Platform, Platform.id == S.platform_id).outerjoin(G, G.id == S.guide_id)
            .where(S.status == "open", or_(S.guide_id.is_(None), G.status == "open"))
            .group_by(S.platform_id, Platform.trade_name, S.year, S.month)
            .order_by(Platform.trade_name, S.year, S.month)).all()
    grouped: dict[int, list] = {}
    for pid, name, y, m, amount, overdue in rows:
        grouped.setdefault(pid, []).append((name, y, m, _q(amount), bool(overdue)))
    return [UnpaidPlatform(pid, items[0][0], tuple(competence_label(y, m) for _n, y, m, _a, _o in items),
                           _q(sum(a for *_x, a, _o in items)), any(o for *_x, o in items))
            for pid, items in grouped.items()]


def platform_choices(db, actor: Actor) -> list[tuple[int, str, str]]:
    """(id, trade name, CNPJ masked) of every platform, for the filters."""
    require_role(actor, *READ_ROLES)
    with db.session(write=False) as s:
        return [(p.id, p.trade_name, format_cnpj(p.cnpj))
                for p in s.execute(select(Platform.id, Platform.trade_name, Platform.cnpj)
                                   .order_by(Platform.trade_name))]
