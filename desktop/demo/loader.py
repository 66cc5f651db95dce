"""The demonstration data set (issue 2): realistic pt_BR records in every state, reproducible by seed, fast.

`load_demo(db, drivers=N, seed=S)` writes, in ONE transaction:
- the municipality's set-up when missing (admin `admin` / `admin12345`), demo staff for every role
  (password `demo12345`), UPFM values per year, municipal holidays and pontos facultativos, the infraction
  catalogue (Art. 26-27) when empty, inspection places and inspectors' schedules, ISSQN classes;
- 5 platforms (Art. 5-6), N drivers with the full checklist of Art. 12 / Art. 8 §1 and their platforms,
  N vehicles (Art. 2; Art. 8 §3 I-IV, individual lessors with at most 3 vehicles), one authorization per driver
  in every status (Requerida … Expirada) with its event history, numbers NNNN/AAAA without gaps, fees and their
  payment guides (DAM), inspections (approved, failed with the Art. 16 §2 term, no-shows, scheduled slots without
  double booking), autos de infração of every code in every status with notifications, defenses, judgments,
  measures and the ledger (debits, payments, reductions, reversals, Art. 28 costs), courses (Art. 12 §2) and
  late data-change communications (Art. 13 XVIII);
- ONE audit entry `demo.load` summarizing what was written (not one per row: a 100,000-driver load would
  otherwise write ~1.5 M chained hashes; the summary names the seed, so the data can be regenerated).

The records read as if the services had written them: each auto stores what `domain.assess` proposed over the
infractor's final autos (as `services.autos.draw_up_auto` does), with real recurrences (Art. 26 §1 and §2,
Art. 27 parágrafo único); partly upheld autos carry the reduced amount and the `reduction` entry (process.judge);
penalties are authorization events of the kinds `services.penalties` writes (`suspension`, `suspension_end`,
`cassation`, `revocation`, `deregistration`) naming their auto; open autos and suspensions are dated back from
`today` so their terms still run on the day the demo is loaded (the daily jobs of that day move nothing).

Everything random comes from `random.Random(seed)` in a fixed order, so the same seed (and the same `today`)
gives the same records on SQLite and PostgreSQL. Rows are built as tuples and written through the driver
(`BulkWriter`), the way NOTES.md measured to be fastest.

The work is split in stages, one module per record kind, each a `run(ctx)` on one shared `DemoContext`
(`desktop.demo.context`): `tables` (staff, parameters, holidays, catalogue, places), `platforms`, `drivers`,
`vehicles`, `authorizations` (with `penalties` and `timelines`, the autos behind their history), `fees`,
`inspections`, `autos` (and the ledger), `courses`, `finish` (deregistrations, numbering, the audit entry);
after the load, through the services: superseded stickers (`stickers`) and the correspondence desk's dispatches
(`dispatches`, issue 26).
The order of `STAGES` is the order of the random draws: changing it changes the data of a seed.
"""
from __future__ import annotations

import time as _time
from datetime import date

from sqlalchemy import func, select

from desktop.demo import (
    authorizations,
    autos,
    courses,
    drivers as driver_stage,
    fees,
    finish,
    guides as guide_stage,
    inspections,
    issqn,
    platforms,
    tables,
    vehicles,
)
from desktop.demo import values as V
from desktop.demo.brasao import demo_brasao_png
from desktop.demo.context import (
    ADMIN_PASSWORD,
    ADMIN_USERNAME,
    DEMO_PASSWORD,
    STAFF,
    DemoContext,
    DemoSummary,
    Progress,
)
from desktop.demo.tables import municipal_holidays_for, upfm_for_year
from desktop import domain
from desktop.domain.problems import Problem
from desktop.errors import ConflictError, ValidationError
from desktop.models import Driver
from desktop.services import setup
from desktop.services.users import count_users, find_user_or_none

__all__ = ["load_demo", "DemoSummary", "DEMO_PASSWORD", "ADMIN_USERNAME", "ADMIN_PASSWORD", "STAFF", "MAX_DRIVERS",
           "STAGES", "municipal_holidays_for", "upfm_for_year"]

MAX_DRIVERS = 1_000_000


def _autos_and_courses(ctx: DemoContext) -> None:
    autos.run(ctx)
    courses.run(ctx)


# (progress text, stage) in the order the random draws are made.
STAGES = (
    ("equipe, parâmetros e feriados", tables.run),
    ("plataformas e locadores", platforms.run),
    ("condutores", driver_stage.run),
    ("veículos", vehicles.run),
    ("autorizações", authorizations.run),
    ("taxas e guias", fees.run),
    ("vistorias", inspections.run),
    ("autos de infração e lançamentos", _autos_and_courses),
    ("guias de pagamento", guide_stage.run),   # issue 13: its own random draws (the stages above are unchanged)
    ("numeração e auditoria", finish.run),
    ("ISSQN: classes e 12 competências com guias", issqn.run),   # issue 13; after the numbers are saved
)


# ================================================================================================== the loader

def load_demo(db, drivers: int = 1000, seed: int = 2025, progress: Progress | None = None, force: bool = False,
              today: date | None = None) -> DemoSummary:
    """Load the demonstration data set (see the module text). Refuses a database that already has drivers
    unless `force` (then the new records are added beside the old ones, avoiding their CPFs and plates)."""
    if not isinstance(drivers, int) or drivers < 1 or drivers > MAX_DRIVERS:
        raise ValidationError([Problem("drivers", f"Informe de 1 a {MAX_DRIVERS} condutores.")])
    started = _time.perf_counter()
    report = progress or (lambda done, total, text: None)
    today = today or domain.local_today()
    summary = DemoSummary(seed=seed, drivers=drivers)
    _ensure_setup(db, summary, today)
    _load_in_one_transaction(db, lambda s: run_stages(DemoContext(s, drivers, seed, today, report, force, summary)))
    from desktop.demo.stickers import superseded_stickers  # after the load: the documents service numbers them

    superseded_stickers(db, summary)
    from desktop.demo.dispatches import demo_dispatches  # after the load: the services number the notices

    demo_dispatches(db, summary)
    summary.seconds = _time.perf_counter() - started
    return summary


def _load_in_one_transaction(db, work) -> None:
    """Run `work(session)` in one bulk write transaction (`Database.bulk_session`): on SQLite the per-row
    foreign-key checks are off for the load (they made inserting 100,000 authorizations ≈ 3× slower) and
    `PRAGMA foreign_key_check` proves every reference before the commit; any orphan row rolls the whole load
    back."""
    with db.bulk_session(check_fks=True) as session:
        work(session)


# Issue 28 point 5: the demo's PIX key is on a reserved domain (RFC 2606 ".invalid"): no bank's DICT can hold it,
# so a demo DAM's PIX code can never pay anyone — least of all an address that looks like the municipality's.
DEMO_PIX_KEY = "pix.demonstracao@prefeitura-exemplo.invalid"
# Issue 28 point 4: plausible but fake códigos da receita (the municipality's chart of revenues gives the real
# ones; an installation starts with none). The "9" in the last group marks them as the demo's.
DEMO_REVENUE_CODES = (
    ("revenue_code_fee_authorization", "1.1.2.1.01.91"),
    ("revenue_code_fee_renewal", "1.1.2.1.01.92"),
    ("revenue_code_fee_inspection", "1.1.2.1.01.93"),
    ("revenue_code_fine", "1.9.1.0.99.91"),
    ("revenue_code_issqn", "1.1.1.8.02.91"),
    ("revenue_code_costs", "1.9.2.2.99.91"),
)


def _ensure_setup(db, summary: DemoSummary, today: date) -> None:
    if not setup.needs_setup(db):
        return
    username = ADMIN_USERNAME
    if count_users(db) and find_user_or_none(db, username) is not None:
        username = "admin.demo"        # a user "admin" exists already (created by `users add`)
    summary.admin_username = username
    setup.initialize(
        db,
        setup.MunicipalityDraft(
            name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
            ouvidoria_phone="(65) 3301-1234", upfm_year=today.year, upfm_value=upfm_for_year(today.year),
            pix_key=DEMO_PIX_KEY, cnpj=V.cnpj_from_base(3_507_431),
            address="Rua Cipriano Curvo, 450 — Centro, Chapada dos Guimarães–MT, CEP 78195-000",
            febraban_agreement="0421", febraban_bank="001", brasao_png=demo_brasao_png(),
            revenue_codes=DEMO_REVENUE_CODES,
        ),
        setup.AdminDraft(username, "Administrador da Demonstração", ADMIN_PASSWORD),
    )
    summary.created_admin = True


def run_stages(ctx: DemoContext) -> None:
    """Every stage in order on `ctx`, timing each (wall and CPU) into the summary; the bulk writer is stopped when
    one fails, so the transaction rolls back whole."""
    existing = ctx.s.scalar(select(func.count()).select_from(Driver)) or 0
    if existing and not ctx.force:
        raise ConflictError(
            f"O banco já tem {existing} condutores cadastrados; os dados de demonstração não foram carregados. "
            f"Use --force para acrescentá-los mesmo assim (ou um banco novo)."
        )
    steps = len(STAGES)
    try:
        for k, (text, stage) in enumerate(STAGES):
            ctx.report(k, steps, text)
            cpu, wall = _time.process_time(), _time.perf_counter()
            stage(ctx)
            ctx.summary.phase_seconds[text] = (round(_time.perf_counter() - wall, 2),
                                               round(_time.process_time() - cpu, 2))
    except BaseException:
        ctx.w.abort()
        raise
    ctx.report(steps, steps, "concluído")
