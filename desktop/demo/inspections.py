"""Stage 7 of the demo: inspections — approved, failed with the Art. 16 §2 term, no-shows, and scheduled slots
without double booking — with their checklist lines."""
from __future__ import annotations

from datetime import date, timedelta

from desktop.domain import INSPECTION_CHECKLIST


def run(ctx) -> None:
    rng, w, today = ctx.rng, ctx.w, ctx.today
    first = w.next_id("inspections")
    iid = first
    rows = []
    item_rows = []
    item_id = w.next_id("inspection_items")
    ts_now = w.ts(ctx.now)
    recent = today - timedelta(days=45)
    detailed_all = ctx.n <= 20_000
    # The lines of desktop.domain.INSPECTION_CHECKLIST (Art. 2; Art. 13 XIII-XV; Art. 14; Art. 15 p.ú. I-VIII).

    item_keys = tuple(item.key for item in INSPECTION_CHECKLIST)
    # Future slots without double booking: next business days, 08:00-11:30 every 30 min, per inspector.
    slot_day = ctx.business(today + timedelta(days=1))
    if ctx.force:
        w.drain()
        cur = w.raw.cursor()
        cur.execute("SELECT MAX(scheduled_start) FROM inspections WHERE status = 'scheduled'")
        last = cur.fetchone()[0]
        cur.close()
        if last is not None:
            last_day = date.fromisoformat(str(last)[:10])
            slot_day = ctx.business(max(slot_day, last_day + timedelta(days=2)))
    slot_k = 0

    def next_slot():
        nonlocal slot_day, slot_k
        if slot_k >= 8 * len(ctx.inspectors):
            slot_day = ctx.business(slot_day + timedelta(days=1))
            slot_k = 0
        inspector = ctx.inspectors[slot_k % len(ctx.inspectors)]
        minute = (slot_k // len(ctx.inspectors)) * 30
        slot_k += 1
        return inspector, (slot_day, 8 + minute // 60, minute % 60)

    def add(kind, r, status, result, day, inspector=None, start=None, notes=None, regularize=None,
            previous=None, convocation=None):
        nonlocal iid, item_id
        i = r["i"]
        inspector = inspector or ctx.inspectors[i & 1]
        if start is None:
            start = (day, 8 + (i % 4), 30 * (i % 2))
        d0, h0, m0 = start
        end = (d0, h0, m0 + 30) if m0 < 30 else (d0, h0 + 1, m0 - 30)
        performed = w.at(d0, h0, m0 + 5) if status == "done" else None
        rows.append((iid, kind, ctx.vehicle_ids[i], r["id"], inspector, ctx.places[i % len(ctx.places)],
                     w.at(*start), w.at(*end), status, result, performed, notes, w.d(convocation),
                     w.d(regularize), None, None, None, None, previous, ctx.clerks[i & 1], 1, ts_now))
        if status == "done" and (detailed_all or result == "failed" or day >= recent):
            failing = set()
            if result == "failed":
                failing = set(rng.sample(("hygiene", "no_damage", "no_external_stickers", "air_conditioning",
                                          "mandatory_equipment"), ctx.ri(1, 2)))
            for key in item_keys:
                bad = key in failing
                item_rows.append((item_id, iid, key, not bad,
                                  "Pendência a regularizar em 5 dias (Art. 16, §2)." if bad else None, 1))
                item_id += 1
        iid += 1
        return iid - 1

    for r in ctx.recs:
        status = r["status"]
        if r.get("inspection"):
            add("initial", r, "done", "approved", r["inspection"], notes="Veículo aprovado (Art. 9; Art. 15).")
        if r.get("renewal_fee"):
            add("annual", r, "done", "approved", ctx.business(r["renewal_fee"] - timedelta(days=3)),
                notes="Vistoria anual aprovada (Art. 16).")
        if status == "approved":
            k = r["i"] % 5
            if k in (0, 1, 2):
                inspector, start = next_slot()
                add("initial", r, "scheduled", None, start[0], inspector=inspector, start=start,
                    convocation=r["decided"])
            elif k == 3:
                add("initial", r, "no_show", None, ctx.business(r["decided"] + timedelta(days=3)),
                    convocation=r["decided"], notes="Condutor não compareceu à vistoria convocada.")
                r["no_show"] = True
        elif status == "impeded":
            failed = add(ctx.pick(("annual", "extraordinary")), r, "done", "failed", r["failed_on"],
                         notes="Reprovado: pendências listadas nos itens (Art. 16, §2).",
                         regularize=r["regularize_by"], convocation=r["failed_on"] - timedelta(days=7))
            if r["i"] % 2 == 0:
                inspector, start = next_slot()
                add("reinspection", r, "scheduled", None, start[0], inspector=inspector, start=start,
                    previous=failed)
        if len(item_rows) > 50_000:
            w.insert("inspections", INSPECTION_COLS, rows)
            w.insert("inspection_items", ITEM_COLS, item_rows)
            rows, item_rows = [], []
    w.insert("inspections", INSPECTION_COLS, rows)
    w.insert("inspection_items", ITEM_COLS, item_rows)


INSPECTION_COLS = ("id", "kind", "vehicle_id", "authorization_id", "inspector_id", "place_id",
                   "scheduled_start", "scheduled_end", "status", "result", "performed_at", "notes",
                   "convocation_notified_on", "regularize_by", "term_start", "term_end",
                   "reschedule_reason", "cancel_reason", "previous_id", "created_by", "version",
                   "created_at")


ITEM_COLS = ("id", "inspection_id", "item_key", "passed", "note", "version")
