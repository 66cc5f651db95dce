"""Stage 6 of the demo: authorization and renewal fees (Art. 10) with their payment guides (DAM)."""
from __future__ import annotations

from datetime import timedelta

from desktop.demo.authorizations import AUTH_COLS
from desktop.demo.context import q2

def run(ctx) -> None:
    """Authorization and renewal fees (Art. 10) with their DAM guides; written with the authorizations
    (which keep the guide number of their last fee)."""
    w = ctx.w
    fee_id = w.next_id("fees")
    guide_id = w.next_id("payment_guides")
    fees, guides = [], []
    ts_now = w.ts(ctx.now)
    guide_of_auth: dict[int, str] = {}
    issued = []
    for r in ctx.recs:
        if not r.get("decided") or r["status"] == "refused":
            continue
        i = r["i"]
        entries = [("authorization", r["decided"], r.get("fee_paid"))]
        if r.get("renewal_fee"):
            entries.append(("renewal", r["renewal_requested"], r["renewal_fee"]))
        for kind, issued_on, paid_on in entries:
            issued.append((issued_on, i, kind, paid_on, r))
    issued.sort(key=lambda x: (x[0], x[1], x[2]))
    for issued_on, i, kind, paid_on, r in issued:
        year = issued_on.year
        value = ctx.upfm[year]
        upfm = ctx.fee_upfm[kind]
        amount = q2(upfm * value)
        number = ctx.number("guide", year)
        due = issued_on + timedelta(days=10)
        status = "paid" if paid_on else "open"
        guides.append((guide_id, number, "fee", w.dec(amount, 2), w.d(due), ctx.driver_names[i],
                       ctx.driver_cpfs[i], ctx.driver_ids[i], None, ctx.vehicle_ids[i], None, None, status,
                       w.d(paid_on), w.dec(amount if paid_on else None, 2), None, ctx.clerks[i & 1], 1,
                       w.at(issued_on, 9)))   # issue 23.8: issued that day, so the bank's earlier dates pay it
        fees.append((fee_id, kind, ctx.vehicle_ids[i], r["id"], w.d(due), w.dec(upfm, 4), w.dec(value, 6),
                     w.dec(amount, 2), number, status, w.d(paid_on), w.dec(amount if paid_on else None, 2), None,
                     ctx.clerks[i & 1], 1, ts_now))
        guide_of_auth[r["id"]] = number
        guide_id += 1
        fee_id += 1
    # The authorization rows carry the guide of their last fee (column fee_guide_number).
    idx = AUTH_COLS.index("fee_guide_number")
    first = ctx.recs[0]["id"] if ctx.recs else 0
    for r in ctx.recs:
        g = guide_of_auth.get(r["id"])
        if g is not None:
            row = ctx.auth_rows[r["id"] - first]
            ctx.auth_rows[r["id"] - first] = row[:idx] + (g,) + row[idx + 1:]
    w.insert("authorizations", AUTH_COLS, ctx.auth_rows)
    ctx.auth_rows = None
    ctx.guides, ctx.fee_rows = guides, fees
    ctx.fee_seq = fee_id
    ctx.guide_seq = guide_id


def flush(ctx) -> None:
    ctx.w.insert("payment_guides", GUIDE_COLS, ctx.guides)
    ctx.w.insert("fees", FEE_COLS, ctx.fee_rows)


GUIDE_COLS = ("id", "number", "purpose", "amount_reais", "due_on", "payer_name", "payer_document", "driver_id",
              "platform_id", "vehicle_id", "auto_id", "barcode", "status", "paid_on", "paid_amount",
              "cancel_reason", "issued_by", "version", "created_at")


FEE_COLS = ("id", "kind", "vehicle_id", "authorization_id", "due_on", "amount_upfm", "upfm_value",
            "amount_reais", "guide_number", "status", "paid_on", "paid_amount", "cancel_reason", "created_by",
            "version", "created_at")
