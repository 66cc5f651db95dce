"""Stage 4 of the demo: the lessors (Art. 8 §3 III companies, IV individuals with at most 3 vehicles) and one
vehicle per driver (Art. 2; Art. 8 §3 I-IV), its age following the authorization's status."""
from __future__ import annotations

from desktop.demo import values as V


def run(ctx) -> None:
    rng, w, n, today = ctx.rng, ctx.w, ctx.n, ctx.today
    taken_plates = ctx.existing("SELECT plate FROM vehicles")
    taken_renavam = ctx.existing("SELECT renavam FROM vehicles")
    plates = [p for p in V.plates(rng, n + len(taken_plates) + 64) if p not in taken_plates][:n]
    renavams = [r for r in V.renavams(rng, n + len(taken_renavam) + 64) if r not in taken_renavam][:n]
    ts = w.ts(ctx.now)
    # Lessors: companies (Art. 8 §3 III) and individuals (IV, at most 3 vehicles each).
    lessor_rows = []
    lid = w.next_id("lessors")
    company_ids = []
    for k, name in enumerate(V.LESSOR_COMPANIES):
        company_ids.append(lid)
        lessor_rows.append((lid, "company", ctx.spare_cnpjs[k], name, V.phone(rng),
                            f"{ctx.pick(V.STREETS)}, {ctx.ri(1, 900)} — {V.CITY}–{V.UF}",
                            V.fold(name), 1, ts))
        lid += 1
    person_ids = []
    person_names = {}
    for cpf in ctx.lessor_cpfs:
        name, _ = V.person_name(rng, ctx.pools)
        person_ids.append(lid)
        person_names[lid] = (name, cpf)
        lessor_rows.append((lid, "individual", cpf, name, V.phone(rng), V.address(rng), V.fold(name), 1, ts))
        lid += 1
    w.insert("lessors", ("id", "kind", "document_number", "name", "phone", "address", "search_key", "version",
                         "created_at"), lessor_rows)
    person_load = {pid: 0 for pid in person_ids}
    free_people = list(person_ids)

    first = w.next_id("vehicles")
    ctx.vehicle_ids = list(range(first, first + n))
    ctx.vehicle_years: list[int] = []
    ctx.plates = plates
    rows = []
    this_year = today.year
    for i in range(n):
        status = ctx.statuses[i]
        if status in ("active", "impeded", "suspended", "approved", "in_analysis", "requested"):
            year = ctx.ri(this_year - 10, this_year)          # still within Art. 2 §1
        elif status == "expired" and i % 5 == 0:
            year = this_year - 11                                  # aged out on 31/12 (Art. 2 §2)
        else:
            year = ctx.ri(this_year - 10, this_year - 1)
        if status == "refused" and i % 7 == 3:
            year = this_year - 12                                  # refused: too old (Art. 2 §1)
        ctx.vehicle_years.append(year)
        make, model = ctx.pick(V.CAR_MODELS)
        seats = 7 if model == "Spin" else 5
        k = rng.random()
        driver_name, driver_cpf = ctx.driver_names[i], ctx.driver_cpfs[i]
        lessor_id = None
        owner_rel = None
        if k < 0.80:
            mode, owner, owner_doc = "own", driver_name, driver_cpf
        elif k < 0.88:
            rel_name, _ = V.person_name(rng, ctx.pools)
            mode, owner, owner_doc = "relative", rel_name, ctx.relative_cpfs[i]
            owner_rel = ctx.pick(("cônjuge", "companheiro(a)", "pai", "mãe", "filho(a)", "irmão(ã)", "avô(ó)"))
        elif k < 0.94 or not free_people:
            lessor_id = ctx.pick(company_ids)
            mode, owner, owner_doc = "company_lease", V.LESSOR_COMPANIES[company_ids.index(lessor_id)], \
                ctx.spare_cnpjs[company_ids.index(lessor_id)]
        else:
            lessor_id = free_people[rng.randrange(len(free_people))]
            person_load[lessor_id] += 1
            if person_load[lessor_id] >= 3:            # Art. 8 §3 IV: at most 3 vehicles per individual
                free_people.remove(lessor_id)
            mode = "individual_lease"
            owner, owner_doc = person_names[lessor_id]
        municipality = V.CITY
        if status == "refused" and i % 7 == 5:
            municipality = "Cuiabá"                                # Art. 8 §1 I / Art. 15 VIII
        rows.append((
            ctx.vehicle_ids[i], plates[i], renavams[i], V.chassis(rng), make, model, year,
            year + (1 if rng.random() < 0.4 else 0), ctx.pick(V.COLOURS), 4, seats, True, this_year,
            municipality, V.UF, True, mode, owner, owner_doc, owner_rel, lessor_id, "active", None, None,
            1, ts, ts,
        ))
    w.insert("vehicles", ("id", "plate", "renavam", "chassis", "make", "model", "manufacture_year", "model_year",
                          "colour", "doors", "seats", "air_conditioning", "crlv_year",
                          "registration_municipality", "registration_uf", "compulsory_insurance_paid",
                          "ownership_mode", "owner_name", "owner_document", "owner_relationship", "lessor_id",
                          "status", "deregistered_on", "deregistration_reason", "version", "created_at",
                          "updated_at"), rows)
