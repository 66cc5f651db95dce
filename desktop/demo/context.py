"""What every stage of the demo loader shares: the summary it fills, the demo staff, and `DemoContext`.

A stage is a module of this package with a `run(ctx)` function (`tables`, `platforms`, `drivers`, `vehicles`,
`authorizations`, `fees`, `inspections`, `autos`, `courses`, `finish`); `desktop.demo.loader` runs them in a fixed
order on ONE `DemoContext`. The context holds the session, the bulk writer, the one `random.Random(seed)` every
stage draws from (so the order of the stages is part of the data: the same seed gives the same records), the
office's calendar and terms, and what a stage leaves for the later ones (ids, names, the per-driver records).
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from desktop.domain.money import round_cents
from desktop.domain.dates import TIMEZONE, deadline
from desktop.models.types import now

Progress = Callable[[int, int, str], None]

DEMO_PASSWORD = "demo12345"
ADMIN_USERNAME, ADMIN_PASSWORD = "admin", "admin12345"
CENT = Decimal("0.01")

# Staff of the demo secretariat (SPEC §1): user name, full name, roles.
STAFF = (
    ("ana.atendente", "Ana Paula Moraes", ("atendente",)),
    ("joao.atendente", "João Victor Arruda", ("atendente",)),
    ("vitor.vistoriador", "Vitor Hugo Campos", ("vistoriador",)),
    ("leticia.vistoriadora", "Letícia Amorim Figueiredo", ("vistoriador",)),
    ("fabio.fiscal", "Fábio Rondon Caldas", ("fiscal",)),
    ("gabriela.gestora", "Gabriela Curvo de Almeida", ("gestor",)),
)
# What an act signed by each of them prints (issue 28; Lei 9.784/99, art. 22, §1º): office and registration
# number ("DEMO-" marks them as fictitious). The login is never the matrícula.
STAFF_OFFICES = {
    "ana.atendente": ("Agente Administrativa", "DEMO-1001"),
    "joao.atendente": ("Agente Administrativo", "DEMO-1002"),
    "vitor.vistoriador": ("Vistoriador de Veículos", "DEMO-2001"),
    "leticia.vistoriadora": ("Vistoriadora de Veículos", "DEMO-2002"),
    "fabio.fiscal": ("Fiscal de Transportes", "DEMO-3001"),
    "gabriela.gestora": ("Secretária Municipal de Finanças", "DEMO-4001"),
}


@dataclass
class DemoSummary:
    seed: int
    drivers: int
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    created_admin: bool = False
    staff_password: str = DEMO_PASSWORD
    write_seconds: dict[str, float] = field(default_factory=dict)
    admin_username: str = ADMIN_USERNAME
    phase_seconds: dict[str, tuple[float, float]] = field(default_factory=dict)   # (wall, CPU) per phase

    def describe(self) -> str:
        labels = {
            "platforms": "plataformas", "drivers": "condutores", "vehicles": "veículos", "lessors": "locadores",
            "authorizations": "autorizações", "authorization_events": "eventos de autorizações",
            "driver_checklist_items": "itens de checklist", "fees": "taxas", "payment_guides": "guias (DAM)",
            "inspections": "vistorias", "inspection_items": "itens de vistoria", "autos": "autos de infração",
            "ledger_entries": "lançamentos", "course_attendances": "convocações para cursos",
        }
        parts = [f"{self.counts[k]} {v}" for k, v in labels.items() if self.counts.get(k)]
        text = f"Semente {self.seed}: " + ", ".join(parts) + "."
        if self.created_admin:
            text += f"\nAdministrador criado: {self.admin_username} / {ADMIN_PASSWORD} (troque a senha)."
        text += f"\nEquipe de demonstração ({', '.join(u for u, _, _ in STAFF)}): senha {self.staff_password}."
        return text


def q2(x: Decimal) -> Decimal:
    return round_cents(x)


class DemoContext:
    """The state of one load, shared by its stages (see the module text).

    Filled by `tables`: staff ids (`staff`, `gestor`, `clerks`, `inspectors`, `fiscal`), `upfm` per year, the fee
    and term parameters, `calendar`, infraction `codes`, inspection `places`, name `pools`. By `platforms`:
    `platform_ids`, `platform_names`, `active_platforms`, `spare_cnpjs`. By `drivers`: `statuses`, `driver_ids`,
    `driver_cpfs`, `driver_names`, `relative_cpfs`, `lessor_cpfs`, `refusal_key`. By `vehicles`: `vehicle_ids`,
    `vehicle_years`, `plates`. By `authorizations`: `recs` (one dict of dates per driver, read by every later
    stage), `auth_rows` and `events` (written by `fees` and `autos`, which complete them). By `fees`: `guides`,
    `fee_rows`, `fee_seq`, `guide_seq`.
    """

    def __init__(self, session, n: int, seed: int, today: date, report: Progress, force: bool,
                 summary: DemoSummary):
        from desktop.demo.bulk import BulkWriter  # cycle: desktop.demo.bulk imports this module at its top

        self.s = session
        self.n = n
        self.seed = seed
        self.today = today
        self.report = report
        self.force = force
        self.summary = summary
        self.rng = random.Random(seed)
        rnd = self.rng.random
        # random.randint/choice cost ≈ 0.6 µs a call; these ≈ 0.15 µs (1.5 M calls in a 100,000-driver load).
        self.ri = lambda a, b: a + int(rnd() * (b - a + 1))
        self.pick = lambda seq: seq[int(rnd() * len(seq))]
        self.w = BulkWriter(session)
        self.now = now()
        self.numbers: dict[tuple[str, int], int] = {}
        self._deadline_cache: dict[tuple[date, int], date] = {}
        self._business_cache: dict[date, date] = {}
        self.auth_rows: list[tuple] | None = None
        self.events: list[tuple] | None = None
        self.guides: list[tuple] = []
        self.fee_rows: list[tuple] = []

    def number(self, kind: str, year: int) -> str:
        """The next number NNNN/AAAA of `kind` in `year`: consecutive, no gaps (saved by `finish`)."""
        key = (kind, year)
        seq = self.numbers.get(key, 0) + 1
        self.numbers[key] = seq
        return f"{seq:04d}/{year:04d}"

    def existing(self, sql: str) -> set[str]:
        """The values a one-column query finds already in the database (only when adding to it: `force`)."""
        if not self.force:
            return set()
        self.w.drain()
        cur = self.w.raw.cursor()
        cur.execute(sql)
        out = {r[0] for r in cur.fetchall()}
        cur.close()
        return out

    def dt(self, day: date, hour: int, minute: int = 0) -> datetime:
        return datetime.combine(day, time(hour, minute), TIMEZONE)

    def rand_day(self, lo: date, hi: date) -> date:
        if hi <= lo:
            return lo
        return lo + timedelta(days=self.ri(0, (hi - lo).days))

    # Deadlines and business days are asked for the same few hundred dates tens of thousands of times: cached.
    def deadline(self, start: date, days: int) -> date:
        key = (start, days)
        end = self._deadline_cache.get(key)
        if end is None:
            end = self._deadline_cache[key] = deadline(start, days, self.calendar)
        return end

    def business(self, d: date) -> date:
        day = self._business_cache.get(d)
        if day is None:
            day = self._business_cache[d] = self.calendar.next_business_day(d)
        return day
