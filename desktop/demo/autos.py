"""Stage 8 of the demo: autos de infração of every code in every status (Art. 19-28) with their notices,
defenses, judgments, measures, guides and the ledger (debits, payments, reductions, reversals, Art. 28 costs)."""
from __future__ import annotations

import bisect
import hashlib
from datetime import timedelta
from decimal import Decimal

from desktop.demo import fees, timelines
from desktop.demo.authorizations import EVENT_COLS
from desktop.domain import ART13_DUTIES, AUTO_COUNTS_FOR_RECURRENCE, CATALOG, Prior, assess, fine_in_reais
from desktop.domain.penalties import penalty_options
from desktop.models import AUTO_STATUSES, NOTIFICATION_FORMS
from desktop.services.parameters import parameter_value_in

# issue 12 item 1: "mantido em parte" requalifies to another catalogue code whose Art. 25 amount applies (grave 30
# → média 20; média 20 → leve 10) — never a figure of its own (the first wave printed 5 and 15 UPFM).
REQUALIFY = {"ART26-IV": "ART26-III", "ART26-III": "ART26-I"}
WAIVER_PDF = b"%PDF-1.4\n% Desistencia do prazo de recurso, assinada pelo infrator (demonstracao)\n%%EOF\n"

AUTO_PLACES = (
    "Praça Dom Wunibaldo, Centro", "Rodovia MT-251, km 50, Portão do Inferno", "Rua Quinco Caldas, Centro",
    "Avenida Rio da Casca, Bom Clima", "Mirante do Centro Geodésico", "Rodoviária Municipal",
    "Acesso à Cachoeira Véu de Noiva", "Rua Tiradentes, em frente à Igreja de Sant'Ana",
)


def run(ctx) -> None:
    """Autos of every code in every status (Art. 19-28), each with what `domain.assess` proposed over the
    infractor's final autos — stored as `services.autos.draw_up_auto` stores it — its notices, defenses,
    judgments, measures, guides and ledger entries, as the services of the process leave them."""
    rng, w, today, ri = ctx.rng, ctx.w, ctx.today, ctx.ri
    statuses = list(AUTO_STATUSES)
    codes = list(CATALOG)
    window = int(parameter_value_in(ctx.s, "recurrence.window_months", today))
    final_like = {s.value for s in AUTO_COUNTS_FOR_RECURRENCE}
    pool = [r for r in ctx.recs if "activated" in r and not r.get("plans")] or ctx.recs
    by_start = sorted(pool, key=lambda r: (r.get("activated") or r["protocol"], r["i"]))
    started = [r.get("activated") or r["protocol"] for r in by_start]
    used: set[tuple[int, str]] = set()
    ended_pool = [r for r in ctx.recs if r["status"] == "expired"]
    plans = [p for r in ctx.recs for p in r.get("plans", ())]
    for r in ctx.recs:
        if r.get("no_show") and r["i"] % 2 == 0:            # Art. 26, I: missed the convocation
            drawn = ctx.business(r["decided"] + timedelta(days=6))
            if drawn <= today:
                plans.append({"r": r, "code": "ART26-I", "t": {"drawn": drawn}, "status": "drawn_up",
                              "events": [], "extra": []})
        elif r["status"] == "impeded" and r["i"] % 3 == 0:  # Art. 26, II: serving while impeded
            drawn = min(today, r["failed_on"] + timedelta(days=ctx.ri(0, 2)))
            plans.append({"r": r, "code": "ART26-II", "t": {"drawn": drawn}, "status": "drawn_up",
                          "events": [], "extra": []})
    # Then a mix that covers every code in every status (11 statuses × 7 codes are coprime: 77 pairs).
    extra = max(len(statuses) * len(codes), ctx.n * 6 // 100)
    for k in range(extra):
        status = statuses[k % len(statuses)]
        code = codes[k % len(codes)]
        t = timelines.random_timeline(ctx, status, k)
        first = t["drawn"]
        r = None
        if code in ("ART26-V", "ART26-VI") and status in final_like:
            # A 12-month suspension proposed when the authorization had already expired: nothing to suspend
            # (services.penalties records "penalty not applied"); active ones keep their status.
            for _ in range(60 if ended_pool else 0):
                c = ended_pool[int(rng.random() * len(ended_pool))]
                late = timelines.random_timeline(ctx, status, k, not_before=c["ended"])
                if late is not None and late["final_on"] >= c["ended"] and late["drawn"] >= c["activated"]:
                    r, t = c, late
                    break
        if r is None:
            # One random auto per driver and code, so no recurrence (and no penalty) appears by chance.
            for _ in range(12):
                c = pool[int(rng.random() * len(pool))]
                if (c.get("activated") or c["protocol"]) <= first and (c["i"], code) not in used:
                    r = c
                    break
            else:
                older = bisect.bisect_right(started, first)
                r = by_start[int(rng.random() * older)] if older else by_start[0]
        used.add((r["i"], code))
        platform = code in ("ART26-III", "ART27") and status in ("notified", "final") and k % 4 == 0
        plans.append({"r": r, "code": code, "t": t, "status": status, "events": [], "extra": [],
                      "platform": platform, "k": k})
    plans.sort(key=lambda p: (p["t"]["drawn"], p["r"]["i"], p["code"], p["status"]))

    def debtor(p):
        i = p["r"]["i"]
        if p.get("platform"):
            return None, ctx.active_platforms[i % len(ctx.active_platforms)]
        return ctx.driver_ids[i], None

    # Recurrence (SPEC §3): the infractor's autos with a final decision, not cancelled nor annulled — the
    # same priors `services.autos.priors_in` reads; `assess` keeps those of the same code inside the window.
    # Each prior carries the day it became final (SPEC §3: it counts only if final on the new infraction's
    # date; issue 24 item 5) — the waiver below makes some final sooner, so that day is settled first.
    for p in plans:
        t, r = p["t"], p["r"]
        decided = t.get("decided")
        p["waived"] = bool(p["status"] == "paid" and decided is not None and not t.get("appeal_filed")
                           and not r.get("ended") and p.get("k", 1) % 2 == 0 and t.get("appeal_deadline")
                           and t["final_on"] > decided)
        p["final_on"] = (min(decided + timedelta(days=2), t["appeal_deadline"]) if p["waived"]
                         else t.get("final_on"))
    priors: dict[tuple, list] = {}
    for p in plans:
        if p["status"] in final_like:
            priors.setdefault(debtor(p), []).append(Prior(p["code"], p["t"]["drawn"], p["final_on"]))

    auto_rows, notes_rows, def_rows, judg_rows, ledger_rows, measure_rows, guides = [], [], [], [], [], [], []
    waiver_rows, doc_rows = [], []
    wid = w.next_id("auto_waivers")
    docid = w.next_id("documents")
    aid = w.next_id("autos")
    nid = w.next_id("auto_notifications")
    did = w.next_id("auto_defenses")
    jid = w.next_id("auto_judgments")
    lid = w.next_id("ledger_entries")
    mid = w.next_id("administrative_measures")
    ts_now = w.ts(ctx.now)
    gestor, fiscal = ctx.gestor, ctx.fiscal
    forms = tuple(NOTIFICATION_FORMS)
    events, cols = ctx.events, EVENT_COLS
    ev_reason, ev_act, ev_auto = cols.index("reason"), cols.index("act_number"), cols.index("auto_id")
    duties = list(ART13_DUTIES)
    assessed: dict[tuple, tuple] = {}
    upfm_years = ctx.upfm
    for p in plans:
        r, code, t, status = p["r"], p["code"], p["t"], p["status"]
        i = r["i"]
        drawn = t["drawn"]
        driver_id, platform_id = debtor(p)
        code_id, description, _ = ctx.codes[code]
        # assess() depends only on the code, the day and the priors of that code: most autos share a result.
        same = tuple((q.on, q.final_on) for q in priors.get((driver_id, platform_id), ()) if q.code == code)
        cached = assessed.get((code, drawn, same))
        if cached is None:
            found = assess(code, drawn, priors.get((driver_id, platform_id), ()), window)
            cached = assessed[(code, drawn, same)] = (found, found.to_dict(), w.json(found.to_dict()))
        assessment, proposal, stored = cached
        upfm = Decimal(assessment.upfm)
        value = upfm_years.get(drawn.year) or upfm_years[min(upfm_years)]
        reais = fine_in_reais(upfm, value)
        number = ctx.number("auto", drawn.year)
        p["number"] = number
        drawn_at = ctx.dt(drawn, 8 + (i % 9), (i * 7) % 60)
        art13 = ctx.pick(duties) if code == "ART26-III" else None
        desc = description + (f" — Art. 13, {art13}: {ART13_DUTIES[art13]}" if art13 else "")
        decided, appeal_decided = t.get("decided"), t.get("appeal_decided")
        waived = p["waived"]
        if waived:
            # issue 12 item 3: the infractor's written waiver of the appeal makes the decision final that day.
            t = dict(t)
            waiver_on = min(decided + timedelta(days=2), t["appeal_deadline"])
            shift = t["final_on"] - waiver_on
            t["final_on"], t["payment_deadline"] = waiver_on, ctx.business(t["payment_deadline"] - shift)
        outcome = requalified = None
        if decided is not None:
            if status == "annulled":
                outcome = "annulled"
            elif p.get("k", 1) % 4 == 0 and code in REQUALIFY:
                outcome = "partly_upheld"
                requalified = REQUALIFY[code]
            else:
                outcome = "upheld"
        new_upfm = Decimal(CATALOG[requalified].upfm) if requalified else upfm
        if outcome in ("upheld", "partly_upheld"):
            # process._record_decision: the code in force and the penalties its catalogue line names (issue 12
            # item 2), each with its article.
            in_force = requalified or code
            recurrent = assess(in_force, drawn, priors.get((driver_id, platform_id), ()), window).recurrence
            proposal = dict(proposal)
            proposal["decision"] = {"code": in_force,
                                    "penalties": [o.to_dict() for o in penalty_options(CATALOG[in_force],
                                                                                       recurrent)],
                                    "decided_on": (appeal_decided or decided).isoformat()}
        # the auto row keeps what was drawn up (issue 12 item 4); the fine in force is the ledger's
        amount_upfm, amount_reais = upfm, reais
        joined = t.get("joined")
        if joined is not None:
            notes_rows.append((nid, aid, "platform" if platform_id else "driver", forms[(i + aid) % len(forms)],
                               w.d(t["sent"]), w.d(joined), None, None, fiscal, 1, ts_now))
            nid += 1
        defense_id = appeal_id = None
        if t.get("defense_filed"):
            defense_id = did
            def_rows.append((did, aid, "defense", w.d(t["defense_filed"]),
                             ctx.pick(("Defesa prévia alegando ausência de provas.",
                                       "Defesa prévia: o condutor nega ter embarcado passageiro na via.",
                                       "Defesa prévia pedindo redução da multa por bons antecedentes.")),
                             None, ctx.clerks[i & 1], 1, ts_now))
            did += 1
        if t.get("appeal_filed"):
            appeal_id = did
            def_rows.append((did, aid, "appeal", w.d(t["appeal_filed"]), "Recurso reiterando a defesa.", None,
                             ctx.clerks[i & 1], 1, ts_now))
            did += 1
        if decided is not None:
            reasoning = ("Auto mantido: infração comprovada pelo agente." if outcome == "upheld" else
                         "Auto anulado: vício na identificação do veículo." if outcome == "annulled" else
                         f"Requalificado para {requalified}: o fato descrito corresponde a "
                         f"{CATALOG[requalified].article}.")
            judg_rows.append((jid, aid, defense_id, "defense", w.d(decided), gestor, outcome,
                              w.dec(new_upfm if requalified else None, 4), requalified, reasoning, 1, ts_now))
            jid += 1
        if appeal_decided is not None:
            judg_rows.append((jid, aid, appeal_id, "appeal", w.d(appeal_decided), gestor, "upheld", None, None,
                              "Recurso improvido: mantida a decisão de primeira instância.", 1, ts_now))
            jid += 1
        cancelled = status == "cancelled"
        cancelled_on = t.get("cancelled")
        auto_rows.append((
            aid, number, w.ts(drawn_at), ctx.pick(AUTO_PLACES), driver_id, platform_id,
            None if platform_id else ctx.vehicle_ids[i], None if platform_id else r["id"], code_id, code, art13,
            desc, fiscal, status, w.dec(amount_upfm, 4), w.dec(value, 6), w.dec(amount_reais, 2),
            assessment.recurrence, stored if "decision" not in proposal else w.json(proposal), w.d(joined),
            w.d(t.get("defense_deadline")),
            w.d(t.get("appeal_deadline")), w.d(t.get("payment_deadline")), w.d(t.get("final_on")),  # waiver: sooner
            "Erro na identificação da placa no auto." if cancelled else None, gestor if cancelled else None,
            w.at(cancelled_on, 15) if cancelled else None, 1, ts_now,
            w.ts(drawn_at),  # lavrado_at: the demo's fiscal draws the auto up on the spot (Art. 25: its year)
        ))
        # Ledger (append-only): the debit when drawn up, then reductions, costs, reversals and payments.
        debit_id = lid
        ledger_rows.append((lid, driver_id, platform_id, aid, "debit", w.dec(upfm, 4), w.dec(value, 6),
                            w.dec(reais, 2), w.d(drawn), w.ts(drawn_at), None, None,
                            f"Multa do auto {number} ({code}; {assessment.articles[0]})", fiscal))
        lid += 1
        owed_upfm, owed_reais = amount_upfm, amount_reais
        if requalified is not None:
            # process._post_requalification: the difference to the new code's Art. 25 amount, naming it
            new = CATALOG[requalified]
            new_reais = fine_in_reais(new_upfm, value)
            ledger_rows.append((lid, driver_id, platform_id, aid, "requalification", w.dec(new_upfm - upfm, 4),
                                w.dec(value, 6), w.dec(new_reais - reais, 2), w.d(decided),
                                w.at(decided, 11), None, None,
                                f"Auto {number} mantido em parte: requalificado de {code} para {requalified} "
                                f"({new.article}; {new.severity.label}, {new.upfm} UPFM, {new.severity.article})"
                                f" — {reasoning}", gestor))
            lid += 1
            owed_upfm, owed_reais = new_upfm, new_reais
        paid_before = None
        if status == "annulled" and decided is not None and p.get("k", 0) % 3 == 0 and joined is not None:
            # issue 12 item 3: paid before the decision was final; the annulment turns it into a refund
            paid_before = max(joined, decided - timedelta(days=1))
            ledger_rows.append((lid, driver_id, platform_id, aid, "payment", w.dec(-upfm, 4), w.dec(value, 6),
                                w.dec(-reais, 2), w.d(paid_before), w.at(paid_before, 9), None, None, None,
                                ctx.clerks[i & 1]))
            lid += 1
        if status in ("cancelled", "annulled"):
            why = (f"Auto {number} cancelado: erro na identificação da placa no auto." if cancelled
                   else f"Auto {number} anulado (defesa prévia): {reasoning}")
            undone = cancelled_on if cancelled else decided
            ledger_rows.append((lid, driver_id, platform_id, aid, "reversal", w.dec(-upfm, 4), w.dec(value, 6),
                                w.dec(-reais, 2), w.d(undone), w.at(undone, 16), debit_id, None, why, gestor))
            lid += 1
            if paid_before is not None:   # postings.refund_surplus_in: what the municipality owes back
                ledger_rows.append((lid, driver_id, platform_id, aid, "refund", w.dec(upfm, 4), w.dec(value, 6),
                                    w.dec(reais, 2), w.d(undone), w.at(undone, 16), None, None,
                                    f"Restituição ao infrator — auto {number}: {why}", gestor))
                lid += 1
        if waived:
            doc_rows.append((docid, "waiver", w.ts(ctx.dt(t["final_on"], 10, 0)), None, None,
                             hashlib.sha256(WAIVER_PDF).hexdigest(), WAIVER_PDF, None, "application/pdf", f"desistencia-{aid}.pdf",
                             len(WAIVER_PDF), driver_id, None, None, None, None, aid, ctx.clerks[i & 1]))
            waiver_rows.append((wid, aid, "appeal", w.d(t["final_on"]),
                                "O infrator desiste do prazo de recurso e reconhece a infração.", docid,
                                ctx.clerks[i & 1], 1, ts_now))
            wid += 1
            docid += 1
        if code == "ART27" and driver_id and status in final_like:
            # Art. 27 parágrafo único / Art. 24, II, d: the vehicle seized on a recurrence (retained otherwise,
            # Art. 24, II, b); Art. 28: removal and storage costs charged to the driver.
            seizure = assessment.vehicle_seizure
            cost = Decimal(ctx.pick(("180.00", "240.00", "315.50"))) * (2 if seizure else 1)
            measure_rows.append((mid, aid, driver_id, ctx.vehicle_ids[i],
                                 "vehicle_seizure" if seizure else "retention_or_removal", w.d(drawn),
                                 w.d(min(today, drawn + timedelta(days=ri(2, 9)))), "Pátio municipal",
                                 w.dec(cost, 2), "Remoção por guincho e estada no pátio (Art. 28).", fiscal, 1,
                                 ts_now))
            mid += 1
            # issue 23 point 6: reais spent, no UPFM (services.penalties.charge_costs)
            on = drawn + timedelta(days=2)
            ledger_rows.append((lid, driver_id, None, aid, "costs", w.dec(Decimal(0), 4), w.dec(value, 6),
                                w.dec(cost, 2), w.d(on), w.at(on, 12), None, None,
                                "Despesas de remoção e estada do veículo (Art. 28).", fiscal))
            lid += 1
            owed_reais += cost
        if status in final_like:
            final_on = t["final_on"]
            guide_number = ctx.number("guide", final_on.year)
            paid = status == "paid"
            paid_on = min(today, final_on + timedelta(days=ri(0, 25)), t["payment_deadline"]) if paid else None
            returned = not paid and status == "overdue" and p.get("k", 0) % 2 == 1
            if returned:   # the same draws, in the same order, as before (the rest of the demo is unchanged)
                paid_on = min(final_on + timedelta(days=ri(1, 10)), t["payment_deadline"])
                undone = min(today - timedelta(days=1), paid_on + timedelta(days=ri(3, 12)))
            # issue 23.8: a guide whose payment the bank returned was paid (a status never moves back): it reads
            # "Pagamento devolvido", the auto owes again and a new guide is issued for it
            guides.append((ctx.guide_seq, guide_number, "fine", w.dec(owed_reais, 2), w.d(t["payment_deadline"]),
                           ctx.driver_names[i] if driver_id else ctx.platform_names[platform_id][0],
                           ctx.driver_cpfs[i] if driver_id else ctx.platform_names[platform_id][1], driver_id,
                           platform_id, None if platform_id else ctx.vehicle_ids[i], aid, None,
                           "paid" if paid or returned else "open", w.d(paid_on),
                           w.dec(owed_reais if paid or returned else None, 2), None,
                           ctx.clerks[i & 1], 1, w.at(final_on, 9)))   # issued when final (issue 23.8)
            ctx.guide_seq += 1
            if paid:
                ledger_rows.append((lid, driver_id, platform_id, aid, "payment", w.dec(-owed_upfm, 4),
                                    w.dec(value, 6), w.dec(-owed_reais, 2), w.d(paid_on), w.at(paid_on, 14), None,
                                    guide_number, None, ctx.clerks[i & 1]))
                lid += 1
            elif returned:
                # A payment returned by the bank: reversed (ledger.reverse_entry), so the auto is owed again.
                ledger_rows.append((lid, driver_id, platform_id, aid, "payment", w.dec(-owed_upfm, 4),
                                    w.dec(value, 6), w.dec(-owed_reais, 2), w.d(paid_on), w.at(paid_on, 14), None,
                                    guide_number, None, ctx.clerks[i & 1]))
                ledger_rows.append((lid + 1, driver_id, platform_id, aid, "reversal", w.dec(owed_upfm, 4),
                                    w.dec(value, 6), w.dec(owed_reais, 2), w.d(undone), w.at(undone, 10), lid,
                                    None, "Pagamento devolvido pelo banco (compensação recusada).", gestor))
                lid += 2
        # The authorization events this auto's penalties wrote (services.penalties._change).
        for idx in p["events"]:
            row = list(events[idx])
            row[ev_reason] = row[ev_reason].replace("{auto}", number)
            row[ev_act] = f"Auto {number}"
            row[ev_auto] = aid
            events[idx] = tuple(row)
        aid += 1
    w.insert("autos", ("id", "number", "drawn_up_at", "place", "infractor_driver_id", "infractor_platform_id",
                       "vehicle_id", "authorization_id", "infraction_code_id", "code", "art13_item", "description",
                       "agent_id", "status", "amount_upfm", "upfm_value", "amount_reais", "recurrence",
                       "assessment", "notice_joined_on", "defense_deadline", "appeal_deadline",
                       "payment_deadline", "final_on", "cancel_reason", "cancelled_by", "cancelled_at",
                       "version", "created_at", "lavrado_at"), auto_rows)
    w.insert("authorization_events", EVENT_COLS, ctx.events)
    ctx.events = None
    ctx.guides.extend(guides)
    fees.flush(ctx)
    w.insert("auto_notifications", ("id", "auto_id", "addressee", "form", "sent_on", "proof_joined_on",
                                    "proof_document_id", "note", "recorded_by", "version", "created_at"),
             notes_rows)
    w.insert("auto_defenses", ("id", "auto_id", "kind", "filed_on", "summary", "document_id", "recorded_by",
                               "version", "created_at"), def_rows)
    w.insert("auto_judgments", ("id", "auto_id", "defense_id", "instance", "decided_on", "decided_by", "outcome",
                                "reduced_upfm", "requalified_code", "reasoning", "version", "created_at"), judg_rows)
    w.insert("documents", ("id", "kind", "created_at", "number", "issued_on", "sha256", "content", "storage_path",
                           "mime", "filename", "size", "driver_id", "vehicle_id", "platform_id", "lessor_id",
                           "authorization_id", "auto_id", "uploaded_by"), doc_rows)
    w.insert("auto_waivers", ("id", "auto_id", "instance", "filed_on", "statement", "document_id", "recorded_by",
                              "version", "created_at"), waiver_rows)
    w.insert("administrative_measures", ("id", "auto_id", "driver_id", "vehicle_id", "kind", "applied_on",
                                         "released_on", "place", "cost_reais", "note", "applied_by", "version",
                                         "created_at"), measure_rows)
    w.insert("ledger_entries", ("id", "infractor_driver_id", "infractor_platform_id", "auto_id", "kind",
                                "amount_upfm", "upfm_value", "amount_reais", "effective_on", "posted_at",
                                "reverses_id", "guide_number", "reason", "created_by"), ledger_rows)
