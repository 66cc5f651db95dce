"""Stage 2 of the demo: the platforms (Art. 5-6), one of them still pending registration."""
from __future__ import annotations

from datetime import date, timedelta

from desktop.demo import values as V


def run(ctx) -> None:
    rng, w = ctx.rng, ctx.w
    taken = ctx.existing("SELECT cnpj FROM platforms") | ctx.existing("SELECT document_number FROM lessors")
    wanted = len(V.PLATFORMS) + len(V.LESSOR_COMPANIES)
    cnpjs = [c for c in V.cnpjs(rng, wanted + len(taken) + 8) if c not in taken]
    first = w.next_id("platforms")
    rows = []
    ctx.platform_ids = []
    ctx.platform_names: dict[int, tuple[str, str]] = {}
    ts = w.ts(ctx.now)
    for k, (legal, trade) in enumerate(V.PLATFORMS):
        pid = first + k
        status = "pending" if k == len(V.PLATFORMS) - 1 else "active"
        reg_date = date(2025, 6, 20) + timedelta(days=17 * k)
        reg_number = None if status == "pending" else f"PLAT-{reg_date.year}-{pid:03d}"
        name, _ = V.person_name(rng, ctx.pools)
        rows.append((
            pid, cnpjs[k], legal, trade, name, f"contato@{V.fold(trade).replace(' ', '')}.example",
            V.phone(rng), f"Avenida Historiador Rubens de Mendonça, {1000 + 37 * k} — Cuiabá–MT",
            reg_number, w.d(reg_date if reg_number else None), f"APP-{ctx.ri(100000, 999999)}",
            ctx.pick(("Porto Seguro", "Mapfre Seguros", "Tokio Marine", "SulAmérica")),
            w.d(ctx.today + timedelta(days=ctx.ri(-20, 330))), status,
            V.fold(f"{trade} {legal}"), 1, ts, ts,
        ))
        ctx.platform_ids.append(pid)
        ctx.platform_names[pid] = (legal, cnpjs[k])
    w.insert("platforms", ("id", "cnpj", "legal_name", "trade_name", "contact_name", "email", "phone",
                           "address", "municipal_registration_number", "municipal_registration_date",
                           "app_insurance_policy", "app_insurance_insurer", "app_insurance_valid_until",
                           "status", "search_key", "version", "created_at", "updated_at"), rows)
    ctx.active_platforms = ctx.platform_ids[:-1]
    ctx.spare_cnpjs = cnpjs[len(V.PLATFORMS):]
