"""Stage 5 of the demo: one authorization per driver in every status (Requerida … Expirada), its dates, the autos
and penalties behind its history (`penalties`), its numbers NNNN/AAAA without gaps and its event history.

The rows are kept in `ctx.auth_rows` / `ctx.events`: `fees` adds the guide numbers before writing the
authorizations, `autos` names the auto of each penalty event before writing the events."""
from __future__ import annotations

from datetime import date, timedelta

from desktop.demo import penalties
from desktop.demo.context import q2
from desktop.demo.drivers import REFUSAL_REASONS
from desktop.domain import explain_valid_until, is_renewal_late, law

AUTH_COLS = ("id", "number", "driver_id", "vehicle_id", "status", "protocol_number", "protocol_date",
             "analysis_started_on", "decided_on", "decided_by", "decision_reason", "presentation_deadline",
             "fee_paid_on", "fee_guide_number", "fee_amount", "inspection_approved_on", "inspection_waived_on",
             "inspection_waived_by", "activated_on", "valid_until", "valid_until_limited_by", "renewal_requested_on",
             "renewal_late", "renewal_count", "regularize_by", "suspended_until", "ended_on", "created_by", "version",
             "created_at", "updated_at")
EVENT_COLS = ("id", "authorization_id", "kind", "from_status", "to_status", "at", "effective_on", "by_user_id",
              "reason", "act_number", "old_vehicle_id", "new_vehicle_id", "auto_id")


def run(ctx) -> None:
    rng, today = ctx.rng, ctx.today
    law_day = law.LAW_DATE + timedelta(days=6)     # the first requests: a week after the law (Art. 30)
    recs = []    # per driver: dict of dates (kept for fees, inspections and autos)
    for i, status in enumerate(ctx.statuses):
        r = {"i": i, "status": status}
        year = ctx.vehicle_years[i]
        if status == "requested":
            r["protocol"] = ctx.rand_day(today - timedelta(days=20), today - timedelta(days=1))
        elif status == "in_analysis":
            r["protocol"] = ctx.rand_day(today - timedelta(days=40), today - timedelta(days=6))
            r["analysis"] = r["protocol"] + timedelta(days=ctx.ri(1, 3))
        elif status == "refused":
            r["protocol"] = ctx.rand_day(law_day, today - timedelta(days=15))
            r["analysis"] = r["protocol"] + timedelta(days=ctx.ri(1, 3))
            r["decided"] = r["analysis"] + timedelta(days=ctx.ri(2, 9))
        elif status == "approved":
            r["protocol"] = ctx.rand_day(today - timedelta(days=30), today - timedelta(days=10))
            r["analysis"] = r["protocol"] + timedelta(days=ctx.ri(1, 2))
            r["decided"] = min(today - timedelta(days=1), r["analysis"] + timedelta(days=ctx.ri(2, 6)))
            r["presentation"] = ctx.deadline(r["decided"], 5)       # Art. 9
            if rng.random() < 0.5:
                r["fee_paid"] = min(today, r["decided"] + timedelta(days=ctx.ri(0, 3)))
        else:
            # Activated at some point: fee paid, inspection approved (or waived), then the later history.
            early = status in ("suspended", "cassada", "revoked") or (
                status == "active" and (i % 41 == 3 or i % 43 == 5))
            if status == "expired":
                fee = ctx.rand_day(law_day + timedelta(days=15), today - timedelta(days=380))
                if year + 10 < today.year:
                    fee = ctx.rand_day(law_day + timedelta(days=15), date(year + 10, 11, 30))
            else:
                # Authorizations whose history holds autos and penalties (suspension, cassation, revocation,
                # a past suspension, a vehicle seizure) were activated long enough ago for that history.
                lo = max(law_day + timedelta(days=15), today - timedelta(days=350))
                fee = ctx.rand_day(lo, max(lo, today - timedelta(days=160 if early else 15)))
            r["fee_paid"] = fee
            r["decided"] = fee - timedelta(days=ctx.ri(0, 6))
            r["analysis"] = r["decided"] - timedelta(days=ctx.ri(1, 5))
            r["protocol"] = r["analysis"] - timedelta(days=ctx.ri(0, 3))
            if rng.random() < 0.05:
                r["waived"] = r["decided"]                            # Art. 9 §1
                r["activated"] = fee
            else:
                r["inspection"] = ctx.business(r["decided"] + timedelta(days=ctx.ri(1, 5)))
                r["activated"] = max(fee, r["inspection"])
            explained = explain_valid_until(fee, year)
            r["valid_until"] = explained.valid_until
            r["limited_by"] = explained.limited_by.value
            # Renewals (Art. 3 §2): some of the oldest active ones paid a new fee.
            if status == "active" and not early and fee < today - timedelta(days=300) and rng.random() < 0.5:
                first_valid = r["valid_until"]
                req = first_valid - timedelta(days=ctx.ri(5, 40))
                new_fee = min(today - timedelta(days=1), first_valid - timedelta(days=ctx.ri(0, 4)))
                if req < new_fee:
                    r["renewal_requested"] = req
                    r["renewal_late"] = is_renewal_late(req, first_valid, ctx.calendar)
                    r["renewal_fee"] = new_fee
                    explained = explain_valid_until(new_fee, year)
                    r["valid_until"] = explained.valid_until
                    r["limited_by"] = explained.limited_by.value
            if status == "active" and r["valid_until"] < today:
                r["status"] = status = "expired"
                ctx.statuses[i] = status
            if status == "expired":
                r["ended"] = r["valid_until"] + timedelta(days=1)
            elif status == "impeded":
                r["failed_on"] = ctx.business(today - timedelta(days=ctx.ri(1, 4)))
                r["regularize_by"] = ctx.deadline(r["failed_on"], 5)   # Art. 16 §2
            elif status == "suspended":
                penalties.plan_suspension(ctx, r)
            elif status in ("revoked", "cassada"):
                penalties.plan_end(ctx, r)
            elif status == "active" and i % 41 == 3:
                penalties.plan_past_suspension(ctx, r)
            elif status == "active" and i % 43 == 5:
                penalties.plan_seizure(ctx, r)
        recs.append(r)
    ctx.recs = recs
    # Numbers at activation, consecutive per year in activation order (no gaps, no repeats).
    order = sorted((r for r in recs if "activated" in r), key=lambda r: (r["activated"], r["i"]))
    for r in order:
        r["number"] = ctx.number("authorization", r["activated"].year)
    write_authorizations(ctx)


def write_authorizations(ctx) -> None:
    w = ctx.w
    first = w.next_id("authorizations")
    ev_id = w.next_id("authorization_events")
    rows, events = [], []
    ts_now = w.ts(ctx.now)
    gestor, clerks = ctx.gestor, ctx.clerks
    for r in ctx.recs:
        i = r["i"]
        aid = first + i
        r["id"] = aid
        status = r["status"]
        decided = r.get("decided")
        reason = None
        if status == "refused":
            reason = ctx.refusal_key.get(i, REFUSAL_REASONS[0])[1]
        elif status == "approved":
            reason = "Documentação completa (Art. 8, §1; Art. 12)."
        elif decided:
            reason = "Documentação completa (Art. 8, §1; Art. 12)."
        fee_paid = r.get("renewal_fee") or r.get("fee_paid")
        number = r.get("number")
        guide = None   # filled by the fees stage through the fee rows (the authorization keeps the last guide)
        fee_amount = None
        if fee_paid:
            kind = "renewal" if r.get("renewal_fee") else "authorization"
            fee_amount = q2(ctx.fee_upfm[kind] * ctx.upfm[fee_paid.year])
        rows.append((
            aid, number, ctx.driver_ids[i], ctx.vehicle_ids[i], status, f"PROT-{r['protocol'].year}-{aid:06d}",
            w.d(r["protocol"]), w.d(r.get("analysis")), w.d(decided), gestor if decided else None, reason,
            w.d(r.get("presentation")), w.d(fee_paid), guide, w.dec(fee_amount, 2), w.d(r.get("inspection")),
            w.d(r.get("waived")), gestor if r.get("waived") else None, w.d(r.get("activated")),
            w.d(r.get("valid_until")), r.get("limited_by"), w.d(r.get("renewal_requested")),
            bool(r.get("renewal_late", False)), 1 if r.get("renewal_fee") else 0, w.d(r.get("regularize_by")),
            w.d(r.get("suspended_until")), w.d(r.get("ended")), clerks[i & 1], 1, ts_now, ts_now,
        ))
        # History: every transition as an event (who, when, why, which act).
        def ev(from_s, to_s, day, by, why, kind="status", act=None, aid=aid):
            nonlocal ev_id
            events.append((ev_id, aid, kind, from_s, to_s, w.at(day, 10, 0), w.d(day), by, why, act,
                           None, None, None))
            ev_id += 1
        ev(None, "requested", r["protocol"], clerks[i & 1], "Pedido protocolado (Art. 3).", kind="request")
        if r.get("analysis"):
            ev("requested", "in_analysis", r["analysis"], clerks[i & 1], "Conferência dos documentos (Art. 12).",
               kind="analysis")
        if status == "refused":
            ev("in_analysis", "refused", decided, gestor, reason, act=f"Despacho {aid}/{decided.year}", kind="refusal")
            continue
        if decided:
            ev("in_analysis", "approved", decided, gestor, "Pedido aprovado (Art. 3; Art. 12).",
               act=f"Despacho {aid}/{decided.year}", kind="approval")
        if "activated" not in r:
            continue
        ev("approved", "active", r["activated"], clerks[i & 1],
           "Taxa paga e vistoria " + ("dispensada (Art. 9, §1)." if r.get("waived") else "aprovada (Art. 9; Art. 10)."),
           kind="activation")
        if r.get("renewal_fee"):
            ev("active", "active", r["renewal_fee"], clerks[i & 1],
               "Renovação: nova taxa paga" + (" (pedido fora do prazo do Art. 3, §2)." if r.get("renewal_late")
                                              else " (pedido tempestivo, Art. 3, §2)."), kind="renewal")
        if status == "expired":
            ev("active", "expired", r["ended"], None, f"Validade encerrada em {r['valid_until']:%d/%m/%Y} "
               "(Art. 3, §1).", kind="expiry")
        elif status == "impeded":
            ev("active", "impeded", r["failed_on"], ctx.inspectors[i & 1],
               "Veículo reprovado na vistoria; prazo de 5 dias para regularizar (Art. 16, §2).",
               kind="inspection")
        # Penalties (services.penalties): kind of the penalty, the auto that applied it (patched by the autos stage).
        for kind, src, dst, day, why, plan, by in r.get("penalty_events", ()):
            if plan is not None:
                plan["events"].append(len(events))
            ev(src, dst, day, by, why, kind=kind)
    ctx.auth_rows = rows
    ctx.events = events
