"""Last stage of the demo: the writer drained, drivers deregistered with their authorization, number sequences
saved, id sequences moved past the new rows, and ONE audit entry `demo.load` that summarizes the load."""
from __future__ import annotations

from desktop.demo import tables
from desktop.services import audit
from desktop.services.actors import SYSTEM_ACTOR


def run(ctx) -> None:
    ctx.w.drain()
    deregistrations(ctx)
    tables.save_number_sequences(ctx)
    ctx.w.fix_sequences()
    write_audit(ctx)
    ctx.w.close()


def deregistrations(ctx) -> None:
    """The drivers deregistered with the end of their authorization (Art. 24, I, d): the day and the act are
    those of the authorization's history (known only after the autos were numbered)."""
    w = ctx.w
    rows = []
    for r in ctx.recs:
        if r["status"] not in ("cassada", "revoked") or r["i"] % 3 or "ended" not in r:
            continue
        plan = r.get("deregistration_plan")
        reason = (f"Descadastramento do condutor (Art. 24, I, d) — auto {plan['number']}" if plan
                  else "Descadastramento do condutor a pedido, com o fim da autorização")
        rows.append((w.d(r["ended"]), reason, ctx.driver_ids[r["i"]]))
    w.update("drivers", ("deregistered_on", "deregistration_reason"), "id", rows)


def write_audit(ctx) -> None:
    counts = dict(sorted(ctx.w.counts.items()))
    counts["users"] = len(ctx.staff)
    ctx.summary.counts = counts
    ctx.summary.write_seconds = dict(ctx.w.seconds)
    audit.record(ctx.s, SYSTEM_ACTOR, "demo.load", "database", "", None, {
        "seed": ctx.seed, "drivers": ctx.n, "today": ctx.today.isoformat(), "force": ctx.force,
        "rows": counts,
        "note": "Dados de demonstração gerados em lote: uma entrada resume a carga (não uma por registro).",
    })
