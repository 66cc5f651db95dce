"""The autos and penalties behind an authorization's history (suspension, cassation, revocation, a past
suspension, a vehicle seizure), planned while the authorizations are drawn and written by `autos`.

A plan is a dict `{"r": record, "code", "t": timeline, "status", "events", "extra"}`; its penalty events are
written as `services.penalties` writes them (`suspension`, `suspension_end`, `cassation`, `revocation`,
`deregistration`) and name their auto once `autos` has numbered it."""
from __future__ import annotations

from datetime import date, timedelta

from desktop.demo import timelines
from desktop.domain.dates import period_end


def closed_status(ctx, t: dict, i: int) -> str:
    """final while the payment term runs; afterwards paid (mostly) or overdue."""
    if t["payment_deadline"] >= ctx.today:
        return "paid" if i % 3 == 0 else "final"
    return "overdue" if i % 4 == 1 else "paid"


def add_plan(ctx, r: dict, code: str, t: dict, status: str | None = None, extra: tuple = ()) -> dict:
    plan = {"r": r, "code": code, "t": t, "status": status or closed_status(ctx, t, r["i"]),
            "events": [], "extra": list(extra)}
    r.setdefault("plans", []).append(plan)
    return plan


def penalty_event(ctx, r: dict, kind: str, src: str, dst: str, day: date, reason: str,
                  plan: dict | None, by: int | None) -> None:
    """An event of the authorization's history written as services.penalties writes it (`kind`, the auto's
    id and number); `{auto}` in the reason becomes the auto's number once it has one."""
    r.setdefault("penalty_events", []).append((kind, src, dst, day, reason, plan, by))


def plan_suspension(ctx, r: dict) -> None:
    today, act = ctx.today, r["activated"]
    if r["i"] % 2 == 0:
        # Art. 26, VI: cards offering rides outside the platform — 12 months (Art. 24, parágrafo único).
        lo = max(act + timedelta(days=75), today - timedelta(days=330))
        t = timelines.final_timeline(ctx, lo, max(lo, today - timedelta(days=1)), ("term", "appeal")[r["i"] % 4 // 2])
        plan = add_plan(ctx, r, "ART26-VI", t)
        start = t["final_on"]
        until = period_end(start, months=12)
        article = "Art. 26, VI, b; Art. 24, parágrafo único"
    else:
        # Art. 26, §1: street boarding again within 12 months — 30 days.
        t2 = timelines.final_timeline(ctx, today - timedelta(days=28), today - timedelta(days=1), "appeal")
        lo = max(act + timedelta(days=35), t2["drawn"] - timedelta(days=250))
        t1 = timelines.final_timeline(ctx, lo, max(lo, t2["drawn"] - timedelta(days=5)), "term")
        add_plan(ctx, r, "ART26-IV", t1, "paid")
        plan = add_plan(ctx, r, "ART26-IV", t2)
        start = t2["final_on"]
        until = period_end(start, days=30)
        article = "Art. 26, §1"
    r["suspended_on"], r["suspended_until"] = start, until
    penalty_event(ctx, r, "suspension", "active", "suspended", start,
                  f"Suspensão da autorização até {until:%d/%m/%Y} ({article}) — auto {{auto}}", plan,
                  ctx.gestor)


def plan_end(ctx, r: dict) -> None:
    today, act, i = ctx.today, r["activated"], r["i"]
    deregistered = i % 3 == 0          # the driver row says so (drivers stage): Art. 24, I, d
    if r["status"] == "cassada":
        # Art. 26, V then §2: a first aggression suspends for 12 months; a second one within 12 months
        # cassates the authorization.
        t1 = timelines.final_timeline(ctx, act + timedelta(days=60), act + timedelta(days=75), "term")
        first = add_plan(ctx, r, "ART26-V", t1, "paid")
        f1 = t1["final_on"]
        # issue 12 item 2: the cassation is the only penalty §2 adds (no deregistration: no article names it
        # for Art. 26, V; a driver deregistered afterwards is so by his own act, drivers stage).
        lo = f1 + timedelta(days=75 if deregistered else 45)
        t2 = timelines.final_timeline(ctx, lo, max(lo, min(today - timedelta(days=1), f1 + timedelta(days=250))),
                                      "appeal" if deregistered else "term")
        second = add_plan(ctx, r, "ART26-V", t2)
        until = period_end(f1, months=12)
        r["suspended_until"] = until
        r["ended"] = t2["final_on"]
        penalty_event(ctx, r, "suspension", "active", "suspended", f1,
                      f"Suspensão da autorização até {until:%d/%m/%Y} (Art. 26, V, b; Art. 24, parágrafo único) "
                      "— auto {auto}", first, ctx.gestor)
        penalty_event(ctx, r, "cassation", "suspended", "cassada", r["ended"],
                      "Cassação da autorização (Art. 26, §2) — auto {auto}", second, ctx.gestor)
        return
    # Revoked at the driver's request (issue 12 item 2: no law code names a revocation as a penalty; only a
    # decree code that names it could, services.penalties).
    ended = ctx.rand_day(act + timedelta(days=10), today - timedelta(days=1))
    r["ended"] = max(act, min(ended, today - timedelta(days=1), r["valid_until"]))
    reason = ctx.pick(("Revogação a pedido do condutor.",
                       "Revogação: veículo vendido sem substituição (Art. 8, §2)."))
    penalty_event(ctx, r, "revocation", "active", "revoked", r["ended"], reason, None, ctx.gestor)


def plan_past_suspension(ctx, r: dict) -> None:
    """An active authorization that served a 30-day suspension (Art. 26, §1) and is active again."""
    act, today = r["activated"], ctx.today
    t1 = timelines.final_timeline(ctx, act + timedelta(days=40), act + timedelta(days=70), "term")
    add_plan(ctx, r, "ART26-IV", t1, "paid")
    lo = t1["final_on"] + timedelta(days=40)
    hi = max(lo, min(t1["final_on"] + timedelta(days=200), today - timedelta(days=33)))
    t2 = timelines.final_timeline(ctx, lo, hi, "term")
    plan = add_plan(ctx, r, "ART26-IV", t2, "paid")
    start = t2["final_on"]
    until = period_end(start, days=30)
    if until >= today:
        return                          # no room left for the whole suspension: both autos stay, no penalty
    r["suspended_until"] = until       # left set after the end, as services.penalties leaves it
    penalty_event(ctx, r, "suspension", "active", "suspended", start,
                  f"Suspensão da autorização até {until:%d/%m/%Y} (Art. 26, §1) — auto {{auto}}", plan,
                  ctx.gestor)
    penalty_event(ctx, r, "suspension_end", "suspended", "active", until + timedelta(days=1),
                  f"Fim da suspensão em {until:%d/%m/%Y} (Art. 24, parágrafo único; Art. 26, §1) — "
                  "auto {auto}", plan, None)


def plan_seizure(ctx, r: dict) -> None:
    """Art. 27 again within 12 months: fine and seizure of the vehicle (Art. 27, parágrafo único)."""
    act, today = r["activated"], ctx.today
    t1 = timelines.final_timeline(ctx, act + timedelta(days=30), act + timedelta(days=60), "term")
    add_plan(ctx, r, "ART27", t1, "paid")
    lo = t1["final_on"] + timedelta(days=75)
    t2 = timelines.final_timeline(ctx, lo, max(lo, min(today - timedelta(days=1), lo + timedelta(days=200))), "appeal")
    add_plan(ctx, r, "ART27", t2)
