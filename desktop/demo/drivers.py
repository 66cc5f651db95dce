"""Stage 3 of the demo: the drivers with their platforms and the checklist of Art. 12 / Art. 8 §1, and the status
every driver's authorization will have (drawn here, first, so the later stages follow it)."""
from __future__ import annotations

import random
from datetime import date, timedelta

from desktop.demo import values as V
from desktop.demo.photos import photo_for
from desktop.domain import DRIVER_CHECKLIST

# Status mix of the authorizations (weights; every status also appears at least once).
STATUS_WEIGHTS = (
    ("active", 58), ("expired", 8), ("requested", 4), ("in_analysis", 5), ("approved", 5), ("refused", 5),
    ("impeded", 3), ("suspended", 4), ("revoked", 4), ("cassada", 2),
)
REFUSAL_REASONS = (
    ("criminal_record", "Certidão de antecedentes criminais vencida (Art. 12, IV)."),
    ("cnh", "CNH sem a observação \"exerce atividade remunerada\" (Art. 12, I)."),
    ("residence_proof", "Comprovante de residência fora do Município (Art. 12, VI)."),
    ("no_gravissima", "Infração gravíssima nos 12 meses anteriores ao protocolo (Art. 12, VII)."),
    ("tax_clearance", "Débitos com a Fazenda Municipal (Art. 8, §1, II)."),
)


def weighted_statuses(rng: random.Random, n: int) -> list[str]:
    names = [s for s, _ in STATUS_WEIGHTS]
    weights = [w for _, w in STATUS_WEIGHTS]
    out = rng.choices(names, weights, k=n)
    for i, s in enumerate(names[: min(n, len(names))]):   # every status at least once
        out[i] = s
    return out


def run(ctx) -> None:
    rng, w, n, today = ctx.rng, ctx.w, ctx.n, ctx.today
    taken = ctx.existing("SELECT cpf FROM drivers") | ctx.existing("SELECT document_number FROM lessors")
    n_lessor_people = max(1, n // 150)
    cpfs = [c for c in V.cpfs(rng, n * 2 + n_lessor_people + len(taken) + 64) if c not in taken]
    ctx.driver_cpfs = cpfs[:n]
    ctx.relative_cpfs = cpfs[n:2 * n]
    ctx.lessor_cpfs = cpfs[2 * n:2 * n + n_lessor_people]
    ctx.statuses = weighted_statuses(rng, n)
    first = w.next_id("drivers")
    ctx.driver_ids = list(range(first, first + n))
    ctx.driver_names: list[str] = []
    ts = w.ts(ctx.now)
    rows = []
    links = []
    link_id = w.next_id("driver_platforms")
    categories = ("B", "B", "B", "B", "AB", "AB", "C", "D", "E", "AC", "AD", "AE")
    for i in range(n):
        name, folded = V.person(rng, ctx.pools)
        ctx.driver_names.append(name)
        status = ctx.statuses[i]
        birth = date(today.year - ctx.ri(21, 66), ctx.ri(1, 12), ctx.ri(1, 28))
        cnh_expiry = today + timedelta(days=ctx.ri(60, 1800))
        ear = not (status == "refused" and i % 5 == 1)
        deregistered = status in ("cassada", "revoked") and i % 3 == 0
        street = ctx.pick(V.STREETS)
        rows.append((
            ctx.driver_ids[i], ctx.driver_cpfs[i], name, w.d(birth),
            f"{street}, {ctx.ri(1, 2200)}", ctx.pick(V.NEIGHBOURHOODS), V.CITY, V.UF, "78195000",
            V.phone(rng), V.email_for(folded, i), V.cnh_number(rng), ctx.pick(categories), w.d(cnh_expiry),
            ear, f"1{ctx.ri(0, 9_999_999_999):010d}", "deregistered" if deregistered else "active",
            w.d(today - timedelta(days=ctx.ri(1, 60))) if deregistered else None,
            "Descadastramento após cassação da autorização (Art. 24, I, d)" if deregistered else None,
            folded, 1, ts, ts, photo_for(i), "image/png",
        ))
        k = rng.random()
        active = ctx.active_platforms
        p1 = active[int(rng.random() * len(active))]
        platforms = (p1,)
        if k < 0.35:
            p2 = active[int(rng.random() * len(active))]
            if p2 != p1:
                platforms = (p1, p2)
        for pid in platforms:
            links.append((link_id, ctx.driver_ids[i], pid, w.d(date(2025, 6, 20) + timedelta(
                days=ctx.ri(0, 400))), None, 1))
            link_id += 1
    w.insert("drivers", ("id", "cpf", "name", "birth_date", "address", "district", "city", "uf", "zip_code",
                         "phone", "email", "cnh_number", "cnh_category", "cnh_expiry", "cnh_ear", "nit",
                         "status", "deregistered_on", "deregistration_reason", "search_key", "version",
                         "created_at", "updated_at", "photo", "photo_mime"), rows)
    w.insert("driver_platforms", ("id", "driver_id", "platform_id", "since", "until", "version"), links)
    checklists(ctx, DRIVER_CHECKLIST)


def checklists(ctx, checklist) -> None:
    rng, w, today = ctx.rng, ctx.w, ctx.today
    item_id = w.next_id("driver_checklist_items")
    rows = []
    keys = [(item.key, item.has_expiry, item.document_label) for item in checklist]
    refusal_key = {}
    for i, status in enumerate(ctx.statuses):
        if status == "refused":
            refusal_key[i] = REFUSAL_REASONS[i % len(REFUSAL_REASONS)]
    ctx.refusal_key = refusal_key
    clerks = ctx.clerks
    rnd = rng.random
    d = w.d
    # Day offsets drawn as int(rnd() * k) inline: this loop builds ≈ 11 rows per driver.
    days = [timedelta(days=k) for k in range(0, 2000)]
    soon = today + timedelta(days=30)
    reasons = dict(REFUSAL_REASONS)
    prefixes = {key: label[:20] + " " for key, _, label in keys}
    for i, status in enumerate(ctx.statuses):
        driver_id = ctx.driver_ids[i]
        checked_day = today - days[1 + int(rnd() * 500)]
        checked_at = w.at(checked_day, 9 + int(rnd() * 8), (0, 15, 30, 45)[int(rnd() * 4)])
        checker = clerks[i & 1]
        skip = None
        if status == "requested":
            skip = {k for k, _, _ in keys if rnd() < 0.3}
        bad_key = refusal_key.get(i, (None,))[0]
        for key, has_expiry, _label in keys:
            if skip is not None and key in skip:
                continue
            issued = checked_day - days[int(rnd() * 61)]
            expires = None
            note = None
            if has_expiry:
                expires = issued + days[(180, 365, 730)[int(rnd() * 3)]]
                if expires < soon:
                    expires = today + days[30 + int(rnd() * 371)]
                if key == bad_key:
                    expires = issued + days[30]
                    note = reasons[key]
            elif key == bad_key:
                note = reasons[key]
            rows.append((item_id, driver_id, key, None, f"{prefixes[key]}{10000 + int(rnd() * 90000)}",
                         d(issued), d(expires), note, checker, checked_at, 1))
            item_id += 1
        if len(rows) >= 50_000:
            w.insert("driver_checklist_items", CHECKLIST_COLS, rows)
            rows = []
    w.insert("driver_checklist_items", CHECKLIST_COLS, rows)


CHECKLIST_COLS = ("id", "driver_id", "requirement", "document_id", "number", "issued_on", "expires_on", "note",
                  "checked_by", "checked_at", "version")
