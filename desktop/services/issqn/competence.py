"""The monthly competência run (Art. 11; SPEC §3 "Taxes"; issue 13).

Every vehicle whose authorization was active on any day of the month counts (suspended — Art. 24 —, impeded —
Art. 16 §2 — and ended days do not); its class and base in force that month, the rate in force, the amount
half-up to the cent (pro rata by active days when the parameter says so). One estimate per vehicle and month,
split in equal shares among the platforms it served (the cents to the first), unless a gestor designated one.

A run can be repeated: estimates without a guide are recalculated (their draft shares replaced); an estimate
whose share is on a guide is kept as it is — it changes only after the guide is cancelled with a reason
(`collection.cancel_issqn_guide`). A vehicle without a class is reported as a problem, never skipped silently.

The module-level `month_facts_in` is the one reading of "who counts this month" that the run, the screen's
problem list and the benchmarks share. Bulk writes go through Core executemany (NOTES.md: bulk inserts).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from sqlalchemy import bindparam, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from desktop.domain.formatting import format_plate, local_datetime
from desktop.domain.money import round_cents
from desktop.domain.problems import Problem
from desktop.domain.taxes import (
    ISS_MAX_RATE,
    ISS_MIN_RATE,
    active_days_in_month,
    active_periods,
    iss_rate_problem,
    issqn_for_month,
    split_among_platforms,
)
from desktop.errors import NotFound, ValidationError
from desktop.models import (
    Authorization,
    AuthorizationEvent,
    Driver,
    DriverPlatform,
    IssqnClass,
    IssqnEstimate,
    IssqnPlatformDesignation,
    IssqnShare,
    PlatformList,
    PlatformListRow,
    Vehicle,
    VehicleIssqnClass,
)
from desktop.models.types import now
from desktop.services import audit, parameters
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.issqn.common import (
    READ_ROLES,
    RUN_ROLES,
    RunResult,
    VehicleProblem,
    check_competence,
    competence_label,
    is_preview,
    month_end,
)

__all__ = ["VehicleMonth", "month_facts_in", "rate_in", "run_competence", "run_competence_in",
           "unclassified_vehicles"]

LIST_DAYS = 60   # Art. 5 VIII: a platform's list covers the 60 days after it is delivered when it names no period


@dataclass(frozen=True, slots=True)
class VehicleMonth:
    """What the month says about one vehicle: who drove it, its active days, class, base, platforms."""

    vehicle_id: int
    plate: str
    authorization_id: int
    driver_id: int
    driver_name: str
    periods: tuple[tuple[date, date | None], ...]
    days: int
    class_id: int | None        # the class row (base) in force in the month
    class_code: str | None
    base: Decimal | None
    platforms: tuple[int, ...]  # the platforms it served, in split order (lowest id first)
    designated: int | None


def rate_in(s: Session, year: int, month: int) -> tuple[Decimal, bool]:
    """The rate (%) and the pro-rata switch in force on the month's last day (dated parameters)."""
    last = month_end(year, month)
    try:
        rate = parameters.parameter_value_in(s, "issqn_rate_percent", last)
    except NotFound:
        raise ValidationError([Problem(
            "issqn_rate_percent",
            f"Não há alíquota do ISSQN vigente em {competence_label(year, month)}. O gestor deve cadastrá-la "
            f"(entre {ISS_MIN_RATE} % e {ISS_MAX_RATE} %) em Administração → Parâmetros.",
            "Art. 11; LC 116/2003, arts. 8, II e 8-A")]) from None
    problem = iss_rate_problem(Decimal(rate))
    if problem:
        raise ValidationError([problem])
    pro_rata = parameters.parameter_value_in(s, "issqn_pro_rata", last) == 1
    return Decimal(rate), pro_rata


def _segments(subs: list[tuple[date, int | None, int | None]], current_vehicle: int):
    """The authorization's vehicle over time: [(from, until, vehicle_id)] from its substitutions (Art. 8 §2)."""
    if not subs:
        return [(date.min, date.max, current_vehicle)]
    out = []
    start, vehicle = date.min, subs[0][1] or current_vehicle
    for on, old, new in subs:
        out.append((start, on - timedelta(days=1), vehicle))
        start, vehicle = on, new or current_vehicle
    out.append((start, date.max, vehicle))
    return out


def month_facts_in(s: Session, year: int, month: int, state=None) -> list[VehicleMonth]:
    """Every vehicle that counts in the month (authorization active on at least one day), with its facts."""
    first, last = date(year, month, 1), month_end(year, month)
    auths = s.execute(
        select(Authorization.id, Authorization.vehicle_id, Authorization.driver_id, Authorization.activated_on,
               Authorization.ended_on, Authorization.valid_until, Authorization.status)
        .where(Authorization.activated_on.is_not(None), Authorization.activated_on <= last,
               or_(Authorization.ended_on.is_(None), Authorization.ended_on >= first))
    ).all()
    if not auths:
        return []
    ids = [a.id for a in auths]
    moves: dict[int, list[tuple[date, str]]] = defaultdict(list)
    subs: dict[int, list] = defaultdict(list)
    for chunk in range(0, len(ids), 5000):
        for e in s.execute(
                select(AuthorizationEvent.authorization_id, AuthorizationEvent.effective_on, AuthorizationEvent.at,
                       AuthorizationEvent.to_status, AuthorizationEvent.kind, AuthorizationEvent.old_vehicle_id,
                       AuthorizationEvent.new_vehicle_id)
                .where(AuthorizationEvent.authorization_id.in_(ids[chunk:chunk + 5000]))
                .order_by(AuthorizationEvent.authorization_id, AuthorizationEvent.id)):
            on = e.effective_on or local_datetime(e.at).date()
            if on > last:
                continue
            moves[e.authorization_id].append((on, e.to_status))
            if e.kind == "substitution":
                subs[e.authorization_id].append((on, e.old_vehicle_id, e.new_vehicle_id))
    if state is not None:
        state.check()
    per_vehicle: dict[int, list] = defaultdict(list)   # vehicle → [(period, authorization, driver)]
    for a in auths:
        history = moves.get(a.id)
        if history:
            periods = active_periods(history)
        else:   # rows written without events (old imports): the activation to the end of validity
            periods = [(a.activated_on, (a.ended_on - timedelta(days=1)) if a.ended_on else a.valid_until)]
        pieces = []
        for start, end in periods:
            lo, hi = max(start, first), min(end or last, last)
            if lo > hi:
                continue
            for seg_from, seg_until, vehicle in _segments(subs.get(a.id, []), a.vehicle_id):
                s_lo, s_hi = max(lo, seg_from), min(hi, seg_until)
                if s_lo <= s_hi:
                    pieces.append(((s_lo, s_hi), vehicle))
        if pieces:
            # issue 23 point 10: one estimate per authorization and month, whatever substitutions (Art. 8 §2)
            # happened in it — the vehicle in service on the month's last active day carries all its days
            in_service = max(pieces, key=lambda piece: piece[0][1])[1]
            for period, _vehicle in pieces:
                per_vehicle[in_service].append((period, a.id, a.driver_id))
    if not per_vehicle:
        return []
    vehicle_ids = list(per_vehicle)
    plates = dict(s.execute(select(Vehicle.id, Vehicle.plate).where(Vehicle.id.in_(vehicle_ids))).all()) \
        if len(vehicle_ids) < 30000 else dict(s.execute(select(Vehicle.id, Vehicle.plate)).all())
    driver_ids = {d for items in per_vehicle.values() for _p, _a, d in items}
    names = dict(s.execute(select(Driver.id, Driver.name)).all()) if len(driver_ids) > 900 else \
        dict(s.execute(select(Driver.id, Driver.name).where(Driver.id.in_(driver_ids))).all())
    # classes: the latest decision on or before the month's last day, and the base of that code in the month
    decided: dict[int, int] = {}
    for vehicle_id, class_id in s.execute(
            select(VehicleIssqnClass.vehicle_id, VehicleIssqnClass.class_id)
            .where(VehicleIssqnClass.valid_from <= last)
            .order_by(VehicleIssqnClass.valid_from, VehicleIssqnClass.id)):
        decided[vehicle_id] = class_id
    class_rows = s.execute(select(IssqnClass.id, IssqnClass.code, IssqnClass.monthly_base, IssqnClass.valid_from,
                                  IssqnClass.valid_until).order_by(IssqnClass.valid_from)).all()
    code_of = {r.id: r.code for r in class_rows}
    in_force: dict[str, tuple[int, Decimal]] = {}
    for r in class_rows:
        if r.valid_from <= last and (r.valid_until is None or r.valid_until >= first):
            in_force[r.code] = (r.id, Decimal(r.monthly_base))
    designated: dict[int, int | None] = {}
    for vehicle_id, platform_id in s.execute(
            select(IssqnPlatformDesignation.vehicle_id, IssqnPlatformDesignation.platform_id)
            .where(IssqnPlatformDesignation.valid_from <= last)
            .order_by(IssqnPlatformDesignation.valid_from, IssqnPlatformDesignation.id)):
        designated[vehicle_id] = platform_id
    # platforms served: the platforms' 60-day lists covering the month (Art. 5 VIII) and the driver's links
    served: dict[int, set[int]] = defaultdict(set)
    list_ids = []
    for lst in s.execute(select(PlatformList.id, PlatformList.platform_id, PlatformList.received_on,
                                PlatformList.period_start, PlatformList.period_end, PlatformList.next_due_on)
                         .where(PlatformList.received_on <= last)):
        start = lst.period_start or lst.received_on
        end = lst.period_end or lst.next_due_on or (lst.received_on + timedelta(days=LIST_DAYS))
        if start <= last and end >= first:
            list_ids.append((lst.id, lst.platform_id))
    if list_ids:
        platform_of_list = dict(list_ids)
        for list_id, vehicle_id in s.execute(
                select(PlatformListRow.list_id, PlatformListRow.vehicle_id)
                .where(PlatformListRow.list_id.in_(list(platform_of_list)), PlatformListRow.vehicle_id.is_not(None))):
            served[vehicle_id].add(platform_of_list[list_id])
    links: dict[int, set[int]] = defaultdict(set)
    for driver_id, platform_id in s.execute(
            select(DriverPlatform.driver_id, DriverPlatform.platform_id)
            .where(or_(DriverPlatform.since.is_(None), DriverPlatform.since <= last),
                   or_(DriverPlatform.until.is_(None), DriverPlatform.until >= first))):
        links[driver_id].add(platform_id)
    if state is not None:
        state.check()
    out = []
    for vehicle_id, items in per_vehicle.items():
        periods = tuple(sorted({p for p, _a, _d in items}))
        _period, auth_id, driver_id = max(items, key=lambda i: i[0][0])
        class_id = code = base = None
        if vehicle_id in decided:
            code = code_of.get(decided[vehicle_id])
            if code in in_force:
                class_id, base = in_force[code]
        platforms = served.get(vehicle_id, set()) | set().union(*(links.get(d, set()) for _p, _a, d in items))
        out.append(VehicleMonth(
            vehicle_id=vehicle_id, plate=plates.get(vehicle_id, ""), authorization_id=auth_id, driver_id=driver_id,
            driver_name=names.get(driver_id, ""), periods=periods,
            days=active_days_in_month(periods, year, month), class_id=class_id, class_code=code, base=base,
            platforms=tuple(sorted(platforms)), designated=designated.get(vehicle_id)))
    out.sort(key=lambda v: v.plate)
    return out


def _problem(v: VehicleMonth, message: str) -> VehicleProblem:
    return VehicleProblem(v.vehicle_id, format_plate(v.plate), v.driver_name, message)


def run_competence_in(s: Session, actor: Actor, year: int, month: int, state=None) -> RunResult:
    require_role(actor, *RUN_ROLES)
    check_competence(year, month)
    rate, pro_rata = rate_in(s, year, month)
    if state is not None:
        state.progress(0, 4, "Lendo autorizações, classes e plataformas do mês…")
    facts = month_facts_in(s, year, month, state)
    if state is not None:
        state.progress(1, 4, "Calculando as estimativas…")
    without_class, without_platform = [], []
    computed: dict[int, tuple[VehicleMonth, Decimal, dict[int, Decimal]]] = {}
    for v in facts:
        if v.class_id is None:
            message = ("sem classe de estimativa (Art. 11, §1)" if v.class_code is None else
                       f"a classe {v.class_code} não tem base vigente no mês")
            without_class.append(_problem(v, message))
            continue
        amount = issqn_for_month(v.base, rate, v.periods, year, month, pro_rata)
        if amount <= 0:
            continue
        shares = split_among_platforms(amount, v.platforms, v.designated)
        if not shares:
            without_platform.append(_problem(v, "nenhuma plataforma informou o veículo no mês (Art. 5, VIII)"))
        computed[v.vehicle_id] = (v, amount, shares)
    if state is not None:
        state.check()
        state.progress(2, 4, "Gravando…")
    E = IssqnEstimate
    existing = {r.vehicle_id: r for r in s.execute(
        select(E.id, E.vehicle_id, E.version, E.status, E.authorization_id, E.platform_id, E.class_id,
               E.days_active, E.base, E.rate, E.amount).where(E.year == year, E.month == month))}
    locked, drafts = set(), defaultdict(set)
    for estimate_id, platform_id, amount, guide_id in s.execute(
            select(IssqnShare.estimate_id, IssqnShare.platform_id, IssqnShare.amount, IssqnShare.guide_id)
            .where(IssqnShare.year == year, IssqnShare.month == month, IssqnShare.status == "open")):
        if guide_id is not None:
            locked.add(estimate_id)
        else:
            drafts[estimate_id].add((platform_id, Decimal(amount)))
    at = now()
    fields = ("authorization_id", "platform_id", "class_id", "days_active", "base", "rate", "amount")
    new_rows, changed, kept, redo = [], [], 0, []
    kept_rates: set[Decimal] = set()
    for vehicle_id, (v, amount, shares) in computed.items():
        values = {"authorization_id": v.authorization_id, "platform_id": next(iter(shares), None),
                  "class_id": v.class_id, "days_active": v.days, "base": v.base, "rate": rate, "amount": amount}
        old = existing.get(vehicle_id)
        if old is None:
            new_rows.append({"vehicle_id": vehicle_id, "year": year, "month": month, "version": 1,
                             "created_at": at, "computed_at": at, "status": "open", **values})
        elif old.id in locked:
            kept += 1
            kept_rates.add(Decimal(old.rate))
        elif (old.status == "open" and all(getattr(old, f) == values[f] for f in fields)
              and drafts.get(old.id, set()) == set(shares.items())):
            continue    # a repeated run with nothing new writes nothing for this vehicle
        else:
            redo.append(old.id)
            changed.append({"b_id": old.id, "b_version": old.version + 1,
                            **{f"v_{k}": x for k, x in values.items()}, "v_computed_at": at, "v_status": "open"})
    gone = [{"b_id": r.id, "b_version": r.version + 1} for vid, r in existing.items()
            if vid not in computed and r.id not in locked and r.status != "cancelled"]
    # the draft shares (no guide) of what changed are replaced; a share on a guide changes only when the guide
    # is cancelled (collection.cancel_issqn_guide)
    stale = redo + [g["b_id"] for g in gone]
    for chunk in range(0, len(stale), 2000):
        s.execute(delete(IssqnShare).where(IssqnShare.estimate_id.in_(stale[chunk:chunk + 2000]),
                                           IssqnShare.guide_id.is_(None), IssqnShare.status == "open")
                  .execution_options(synchronize_session=False))
    if new_rows:   # Core executemany through the driver (NOTES.md: the ORM's bulk path costs ≈ 3× more)
        s.connection().execute(insert(E.__table__), new_rows)
    if changed:
        s.connection().execute(
            update(E.__table__).where(E.__table__.c.id == bindparam("b_id"))
            .values(version=bindparam("b_version"), **{k[2:]: bindparam(k) for k in changed[0] if k.startswith("v_")}),
            changed)
    if gone:   # a draft of a vehicle that no longer counts (reclassified, authorization corrected) is withdrawn
        s.connection().execute(
            update(E.__table__).where(E.__table__.c.id == bindparam("b_id"))
            .values(version=bindparam("b_version"), status="cancelled"), gone)
    if state is not None:
        state.progress(3, 4, "Dividindo entre as plataformas…")
    ids = dict(s.execute(select(E.vehicle_id, E.id).where(E.year == year, E.month == month)).all())
    write = set(redo) | {ids[r["vehicle_id"]] for r in new_rows}
    share_rows = []
    for vehicle_id, (v, amount, shares) in computed.items():
        estimate_id = ids[vehicle_id]
        if estimate_id not in write:
            continue
        for platform_id, value in shares.items():
            share_rows.append({"estimate_id": estimate_id, "year": year, "month": month, "platform_id": platform_id,
                               "driver_id": None, "amount": value, "status": "open", "created_at": at})
    if share_rows:
        s.connection().execute(insert(IssqnShare.__table__), share_rows)
    vehicles, total = s.execute(
        select(func.count(), func.coalesce(func.sum(IssqnEstimate.amount), 0))
        .where(IssqnEstimate.year == year, IssqnEstimate.month == month, IssqnEstimate.status == "open")).one()
    result = RunResult(year, month, rate, pro_rata, int(vehicles), round_cents(Decimal(total)),
                       len(new_rows) + len(changed), kept, len(gone), tuple(without_class), tuple(without_platform),
                       preview=is_preview(year, month), kept_rates=tuple(sorted(kept_rates)))
    audit.record(s, actor, "issqn.run", "issqn_competence", f"{year:04d}-{month:02d}", None,
                 {"vehicles": result.vehicles, "total": str(result.total), "computed": result.computed,
                  "kept": kept, "withdrawn": len(gone), "rate": str(rate), "pro_rata": pro_rata,
                  "without_class": len(without_class), "without_platform": len(without_platform),
                  "preview": result.preview})
    if state is not None:
        state.progress(4, 4, "Concluído.")
    return result


def run_competence(db, actor: Actor, year: int, month: int, state=None) -> RunResult:
    """Compute (or recompute) the competência `month/year` in one transaction (see the module's text)."""
    with db.session() as s:
        return run_competence_in(s, actor, year, month, state)


def unclassified_vehicles(db, actor: Actor, year: int, month: int) -> list[VehicleProblem]:
    """The vehicles that count in the month but have no class (or whose class has no base in the month)."""
    require_role(actor, *READ_ROLES)
    with db.session(write=False) as s:
        return [_problem(v, "sem classe de estimativa (Art. 11, §1)" if v.class_code is None else
                         f"a classe {v.class_code} não tem base vigente no mês")
                for v in month_facts_in(s, year, month) if v.class_id is None]
