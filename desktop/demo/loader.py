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
"""
from __future__ import annotations

import bisect
import random
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal

from desktop.demo import values as V
from desktop.domain.dates import period_end
from desktop.errors import ConflictError, ValidationError
from desktop.domain.problems import Problem

Progress = Callable[[int, int, str], None]

DEMO_PASSWORD = "demo12345"
ADMIN_USERNAME, ADMIN_PASSWORD = "admin", "admin12345"
CENT = Decimal("0.01")
MAX_DRIVERS = 1_000_000

# Staff of the demo secretariat (SPEC §1): user name, full name, roles.
STAFF = (
    ("ana.atendente", "Ana Paula Moraes", ("atendente",)),
    ("joao.atendente", "João Victor Arruda", ("atendente",)),
    ("vitor.vistoriador", "Vitor Hugo Campos", ("vistoriador",)),
    ("leticia.vistoriadora", "Letícia Amorim Figueiredo", ("vistoriador",)),
    ("fabio.fiscal", "Fábio Rondon Caldas", ("fiscal",)),
    ("gabriela.gestora", "Gabriela Curvo de Almeida", ("gestor",)),
)

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
PLACES = (
    ("Pátio da Secretaria Municipal de Finanças", "Rua Cipriano Curvo, 450 — Centro"),
    ("Posto de Vistoria do Bom Clima", "Avenida Fernando Corrêa da Costa, 1200 — Bom Clima"),
)
AUTO_PLACES = (
    "Praça Dom Wunibaldo, Centro", "Rodovia MT-251, km 50, Portão do Inferno", "Rua Quinco Caldas, Centro",
    "Avenida Rio da Casca, Bom Clima", "Mirante do Centro Geodésico", "Rodoviária Municipal",
    "Acesso à Cachoeira Véu de Noiva", "Rua Tiradentes, em frente à Igreja de Sant'Ana",
)


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


def _q2(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def _easter(year: int) -> date:
    """Gregorian Easter Sunday (anonymous algorithm) — for Carnival and Corpus Christi pontos facultativos."""
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month, day = divmod(h + l_ - 7 * m + 114, 31)
    return date(year, month, day + 1)


def municipal_holidays_for(year: int) -> list[tuple[date, str, str]]:
    easter = _easter(year)
    return [
        (easter - timedelta(days=48), "Carnaval (segunda-feira)", "ponto_facultativo"),
        (easter - timedelta(days=47), "Carnaval (terça-feira)", "ponto_facultativo"),
        (easter - timedelta(days=46), "Quarta-feira de Cinzas", "ponto_facultativo"),
        (easter + timedelta(days=60), "Corpus Christi", "ponto_facultativo"),
        (date(year, 7, 26), "Dia de Sant'Ana, padroeira do Município", "municipal"),
        (date(year, 10, 28), "Dia do Servidor Público", "ponto_facultativo"),
    ]


def upfm_for_year(year: int) -> Decimal:
    """Demo UPFM values: R$ 112,45 in 2025, corrected ≈ 4,5 % a year."""
    value = Decimal("112.45")
    for _ in range(2025, year):
        value = _q2(value * Decimal("1.045"))
    for _ in range(year, 2025):
        value = _q2(value / Decimal("1.045"))
    return value


def _weighted_statuses(rng: random.Random, n: int) -> list[str]:
    names = [s for s, _ in STATUS_WEIGHTS]
    weights = [w for _, w in STATUS_WEIGHTS]
    out = rng.choices(names, weights, k=n)
    for i, s in enumerate(names[: min(n, len(names))]):   # every status at least once
        out[i] = s
    return out


# ================================================================================================== the loader

def load_demo(db, drivers: int = 1000, seed: int = 2025, progress: Progress | None = None, force: bool = False,
              today: date | None = None) -> DemoSummary:
    """Load the demonstration data set (see the module text). Refuses a database that already has drivers
    unless `force` (then the new records are added beside the old ones, avoiding their CPFs and plates)."""
    if not isinstance(drivers, int) or drivers < 1 or drivers > MAX_DRIVERS:
        raise ValidationError([Problem("drivers", f"Informe de 1 a {MAX_DRIVERS} condutores.")])
    started = _time.perf_counter()
    report = progress or (lambda done, total, text: None)
    from desktop.domain import local_today

    today = today or local_today()
    summary = DemoSummary(seed=seed, drivers=drivers)
    _ensure_setup(db, summary, today)
    _load_in_one_transaction(db, lambda s: _Loader(s, drivers, seed, today, report, force, summary).run())
    summary.seconds = _time.perf_counter() - started
    return summary


def _load_in_one_transaction(db, work) -> None:
    """Run `work(session)` in one write transaction. On SQLite the per-row foreign-key checks are switched off
    for the load (they made inserting 100,000 authorizations ≈ 3× slower) and `PRAGMA foreign_key_check` proves
    every reference before the commit; any orphan row rolls the whole load back."""
    from sqlalchemy.orm import Session

    from desktop.services.base import map_db_error

    with db.write_engine.connect() as conn:
        raw = conn.connection.driver_connection if db.is_sqlite else None
        if raw is not None:
            raw.execute("PRAGMA foreign_keys=OFF")   # only takes effect outside a transaction
        try:
            with conn.begin():
                session = Session(bind=conn, expire_on_commit=False)
                try:
                    work(session)
                    session.flush()
                finally:
                    session.close()
                if raw is not None:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchmany(5)
                    if broken:
                        raise RuntimeError(f"Dados de demonstração com referências quebradas: {broken}")
        except Exception as exc:
            mapped = map_db_error(exc)
            if mapped is None or mapped is exc:
                raise
            raise mapped from exc
        finally:
            if raw is not None:
                raw.execute("PRAGMA foreign_keys=ON")


def _ensure_setup(db, summary: DemoSummary, today: date) -> None:
    from desktop.services import setup

    if not setup.needs_setup(db):
        return
    from desktop.services.users import count_users, find_user_or_none

    username = ADMIN_USERNAME
    if count_users(db) and find_user_or_none(db, username) is not None:
        username = "admin.demo"        # a user "admin" exists already (created by `users add`)
    summary.admin_username = username
    setup.initialize(
        db,
        setup.MunicipalityDraft(
            name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
            ouvidoria_phone="(65) 3301-1234", upfm_year=today.year, upfm_value=upfm_for_year(today.year),
            pix_key="financas@chapadadosguimaraes.mt.gov.br", cnpj=V.cnpj_from_base(3_507_431),
            address="Rua Cipriano Curvo, 450 — Centro, Chapada dos Guimarães–MT, CEP 78195-000",
            febraban_agreement="0421",
        ),
        setup.AdminDraft(username, "Administrador da Demonstração", ADMIN_PASSWORD),
    )
    summary.created_admin = True


class _Loader:
    def __init__(self, session, n: int, seed: int, today: date, report: Progress, force: bool,
                 summary: DemoSummary):
        from desktop.demo.bulk import BulkWriter
        from desktop.services.holidays import calendar_in

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
        self.calendar_in = calendar_in
        self.now = datetime.now(_tz())
        self.numbers: dict[tuple[str, int], int] = {}
        self._deadline_cache: dict[tuple[date, int], date] = {}
        self._business_cache: dict[date, date] = {}

    # ------------------------------------------------------------------------------------------ orchestration
    def run(self) -> None:
        from sqlalchemy import func, select

        from desktop.models import Driver

        existing = self.s.scalar(select(func.count()).select_from(Driver)) or 0
        if existing and not self.force:
            raise ConflictError(
                f"O banco já tem {existing} condutores cadastrados; os dados de demonstração não foram carregados. "
                f"Use --force para acrescentá-los mesmo assim (ou um banco novo)."
            )
        steps = 9
        phases = (
            ("equipe, parâmetros e feriados", self._setup_tables),
            ("plataformas e locadores", self._platforms),
            ("condutores", self._drivers),
            ("veículos", self._vehicles),
            ("autorizações", self._authorizations),
            ("taxas e guias", self._fees),
            ("vistorias", self._inspections),
            ("autos de infração e lançamentos", self._autos_and_more),
            ("numeração e auditoria", self._finish),
        )
        try:
            for k, (text, step) in enumerate(phases):
                self.report(k, steps, text)
                cpu, wall = _time.process_time(), _time.perf_counter()
                step()
                self.summary.phase_seconds[text] = (round(_time.perf_counter() - wall, 2),
                                                    round(_time.process_time() - cpu, 2))
        except BaseException:
            self.w.abort()
            raise
        self.report(steps, steps, "concluído")

    def _setup_tables(self) -> None:
        self.staff = self._staff()
        self._parameters()
        self._holidays()
        self.calendar = self.calendar_in(self.s)
        self.codes = self._infraction_codes()
        self.places = self._places()
        self._issqn_classes()
        self._load_number_sequences()
        self.pools = V.name_pools(self.seed)
        # Every table the bulk writer fills: read their highest ids before its thread owns the connection.
        self.w.prefetch_ids(("platforms", "drivers", "driver_platforms", "driver_checklist_items", "lessors",
                             "vehicles", "authorizations", "authorization_events", "fees", "payment_guides",
                             "inspections", "inspection_items", "autos", "auto_notifications", "auto_defenses",
                             "auto_judgments", "ledger_entries", "administrative_measures", "course_sessions",
                             "course_attendances", "change_communications"))

    def _autos_and_more(self) -> None:
        self._autos()
        self._courses_and_communications()

    def _finish(self) -> None:
        self.w.drain()
        self._deregistrations()
        self._save_number_sequences()
        self.w.fix_sequences()
        self._audit()
        self.w.close()

    # ------------------------------------------------------------------------------------------- small tables
    def _staff(self) -> dict[str, int]:
        from sqlalchemy import select

        from desktop.models import User
        from desktop.services.auth import hash_password

        ids: dict[str, int] = {}
        hashed = None
        for username, full_name, roles in STAFF:
            user = self.s.scalar(select(User).where(User.username == username))
            if user is None:
                hashed = hashed or hash_password(DEMO_PASSWORD)
                user = User(username=username, full_name=full_name, password_hash=hashed, active=True,
                            failed_logins=0)
                user.set_roles(roles)
                self.s.add(user)
                self.s.flush()
            ids[username] = user.id
        admin = self.s.scalar(select(User.id).where(User.username == self.summary.admin_username))
        ids["admin"] = admin or ids["gabriela.gestora"]
        self.gestor = ids["gabriela.gestora"]
        self.clerks = [ids["ana.atendente"], ids["joao.atendente"]]
        self.inspectors = [ids["vitor.vistoriador"], ids["leticia.vistoriadora"]]
        self.fiscal = ids["fabio.fiscal"]
        return ids

    def _parameters(self) -> None:
        from sqlalchemy import select

        from desktop.models import Parameter

        self.upfm: dict[int, Decimal] = {}
        for year in range(2025, self.today.year + 1):
            row = self.s.scalar(select(Parameter).where(
                Parameter.key == "upfm_value", Parameter.valid_from >= date(year, 1, 1),
                Parameter.valid_from <= date(year, 12, 31)).order_by(Parameter.valid_from.desc()).limit(1))
            if row is None:
                value = upfm_for_year(year)
                self.s.add(Parameter(key="upfm_value", valid_from=date(year, 1, 1), value=value,
                                     note="Dados de demonstração", created_by=self.gestor))
            else:
                value = row.value
            self.upfm[year] = _q2(value) if value == _q2(value) else value
        from desktop.services.parameters import parameter_value_in

        self.s.flush()
        self.fee_upfm = {k: parameter_value_in(self.s, f"fee.{k}", self.today)
                         for k in ("authorization", "renewal", "inspection")}
        self.defense_days = int(parameter_value_in(self.s, "term.defense_days", self.today))
        self.appeal_days = int(parameter_value_in(self.s, "term.appeal_days", self.today))
        self.payment_days = int(parameter_value_in(self.s, "term.payment_days", self.today))

    def _holidays(self) -> None:
        from sqlalchemy import select

        from desktop.models import Holiday

        taken = set(self.s.scalars(select(Holiday.day).where(Holiday.active.is_(True))))
        for year in range(2025, self.today.year + 2):
            for day, name, kind in municipal_holidays_for(year):
                if day not in taken:
                    self.s.add(Holiday(day=day, name=name, kind=kind, active=True))
                    taken.add(day)
        self.s.flush()

    def _infraction_codes(self) -> dict[str, tuple[int, str, Decimal]]:
        from sqlalchemy import select

        from desktop.domain import CATALOG, law
        from desktop.models import InfractionCode

        codes: dict[str, tuple[int, str, Decimal]] = {}
        for code, entry in CATALOG.items():
            row = self.s.scalar(select(InfractionCode).where(InfractionCode.code == code)
                                .order_by(InfractionCode.valid_from).limit(1))
            if row is None:
                row = InfractionCode(
                    code=code, article=entry.article, description=entry.description,
                    severity=entry.severity.value, upfm=Decimal(entry.upfm),
                    extra_penalty=entry.penalty_text if getattr(entry, "penalty_text", None) else None,
                    recurrence_effect=entry.recurrence_text if entry.has_recurrence_effect else None,
                    valid_from=law.LAW_DATE, created_by=self.gestor,
                )
                self.s.add(row)
                self.s.flush()
            codes[code] = (row.id, row.description, Decimal(row.upfm))
        return codes

    def _places(self) -> list[int]:
        from sqlalchemy import select

        from desktop.models import InspectionPlace, InspectorSchedule

        ids = []
        for name, address in PLACES:
            place = self.s.scalar(select(InspectionPlace).where(InspectionPlace.name == name))
            if place is None:
                place = InspectionPlace(name=name, address=address, active=True)
                self.s.add(place)
                self.s.flush()
            ids.append(place.id)
        have = set(self.s.scalars(select(InspectorSchedule.inspector_id)))
        for k, inspector in enumerate(self.inspectors):
            if inspector in have:
                continue
            for weekday in range(5):
                self.s.add(InspectorSchedule(inspector_id=inspector, weekday=weekday, start_time=time(8, 0),
                                             end_time=time(12, 0), slot_minutes=30, place_id=ids[k % len(ids)],
                                             valid_from=date(2025, 6, 4)))
        self.s.flush()
        return ids

    def _issqn_classes(self) -> None:
        from sqlalchemy import select

        from desktop.models import IssqnClass

        for code, name, base in (("INTEGRAL", "Dedicação integral", Decimal("4500.00")),
                                 ("PARCIAL", "Dedicação parcial", Decimal("2000.00"))):
            if self.s.scalar(select(IssqnClass.id).where(IssqnClass.code == code)) is None:
                self.s.add(IssqnClass(code=code, name=name, monthly_base=base, active=True))
        self.s.flush()

    def _deregistrations(self) -> None:
        """The drivers deregistered with the end of their authorization (Art. 24, I, d): the day and the act are
        those of the authorization's history (known only after the autos were numbered)."""
        w = self.w
        rows = []
        for r in self.recs:
            if r["status"] not in ("cassada", "revoked") or r["i"] % 3 or "ended" not in r:
                continue
            plan = r.get("deregistration_plan")
            reason = (f"Descadastramento do condutor (Art. 24, I, d) — auto {plan['number']}" if plan
                      else "Descadastramento do condutor após a revogação da autorização (Art. 24, I, d)")
            rows.append((w.d(r["ended"]), reason, self.driver_ids[r["i"]]))
        w.update("drivers", ("deregistered_on", "deregistration_reason"), "id", rows)

    def _load_number_sequences(self) -> None:
        from sqlalchemy import select

        from desktop.models import NumberSequence

        for row in self.s.scalars(select(NumberSequence)):
            self.numbers[(row.kind, row.year)] = row.last

    def _number(self, kind: str, year: int) -> str:
        key = (kind, year)
        seq = self.numbers.get(key, 0) + 1
        self.numbers[key] = seq
        return f"{seq:04d}/{year:04d}"

    def _save_number_sequences(self) -> None:
        from desktop.models import NumberSequence

        for (kind, year), last in sorted(self.numbers.items()):
            row = self.s.get(NumberSequence, (kind, year))
            if row is None:
                self.s.add(NumberSequence(kind=kind, year=year, last=last))
            elif row.last != last:
                row.last = last
        self.s.flush()

    # --------------------------------------------------------------------------------------------- helpers
    def _existing(self, sql: str) -> set[str]:
        if not self.force:
            return set()
        self.w.drain()
        cur = self.w.raw.cursor()
        cur.execute(sql)
        out = {r[0] for r in cur.fetchall()}
        cur.close()
        return out

    def _dt(self, day: date, hour: int, minute: int = 0) -> datetime:
        return datetime.combine(day, time(hour, minute), _tz())

    def _rand_day(self, lo: date, hi: date) -> date:
        if hi <= lo:
            return lo
        return lo + timedelta(days=self.ri(0, (hi - lo).days))

    # Deadlines and business days are asked for the same few hundred dates tens of thousands of times: cached.
    def _deadline(self, start: date, days: int) -> date:
        key = (start, days)
        end = self._deadline_cache.get(key)
        if end is None:
            from desktop.domain import deadline

            end = self._deadline_cache[key] = deadline(start, days, self.calendar)
        return end

    def _business(self, d: date) -> date:
        day = self._business_cache.get(d)
        if day is None:
            day = self._business_cache[d] = self.calendar.next_business_day(d)
        return day

    # ------------------------------------------------------------------------------------------- platforms
    def _platforms(self) -> None:
        rng, w = self.rng, self.w
        taken = self._existing("SELECT cnpj FROM platforms") | self._existing("SELECT document_number FROM lessors")
        wanted = len(V.PLATFORMS) + len(V.LESSOR_COMPANIES)
        cnpjs = [c for c in V.cnpjs(rng, wanted + len(taken) + 8) if c not in taken]
        first = w.next_id("platforms")
        rows = []
        self.platform_ids = []
        self.platform_names: dict[int, tuple[str, str]] = {}
        ts = w.ts(self.now)
        for k, (legal, trade) in enumerate(V.PLATFORMS):
            pid = first + k
            status = "pending" if k == len(V.PLATFORMS) - 1 else "active"
            reg_date = date(2025, 6, 20) + timedelta(days=17 * k)
            reg_number = None if status == "pending" else f"PLAT-{reg_date.year}-{pid:03d}"
            name, _ = V.person_name(rng, self.pools)
            rows.append((
                pid, cnpjs[k], legal, trade, name, f"contato@{V.fold(trade).replace(' ', '')}.com.br",
                V.phone(rng), f"Avenida Historiador Rubens de Mendonça, {1000 + 37 * k} — Cuiabá–MT",
                reg_number, w.d(reg_date if reg_number else None), f"APP-{self.ri(100000, 999999)}",
                self.pick(("Porto Seguro", "Mapfre Seguros", "Tokio Marine", "SulAmérica")),
                w.d(self.today + timedelta(days=self.ri(-20, 330))), status,
                V.fold(f"{trade} {legal}"), 1, ts, ts,
            ))
            self.platform_ids.append(pid)
            self.platform_names[pid] = (legal, cnpjs[k])
        w.insert("platforms", ("id", "cnpj", "legal_name", "trade_name", "contact_name", "email", "phone",
                               "address", "municipal_registration_number", "municipal_registration_date",
                               "app_insurance_policy", "app_insurance_insurer", "app_insurance_valid_until",
                               "status", "search_key", "version", "created_at", "updated_at"), rows)
        self.active_platforms = self.platform_ids[:-1]
        self.spare_cnpjs = cnpjs[len(V.PLATFORMS):]

    # --------------------------------------------------------------------------------------------- drivers
    def _drivers(self) -> None:
        from desktop.domain import DRIVER_CHECKLIST

        rng, w, n, today = self.rng, self.w, self.n, self.today
        taken = self._existing("SELECT cpf FROM drivers") | self._existing("SELECT document_number FROM lessors")
        n_lessor_people = max(1, n // 150)
        cpfs = [c for c in V.cpfs(rng, n * 2 + n_lessor_people + len(taken) + 64) if c not in taken]
        self.driver_cpfs = cpfs[:n]
        self.relative_cpfs = cpfs[n:2 * n]
        self.lessor_cpfs = cpfs[2 * n:2 * n + n_lessor_people]
        self.statuses = _weighted_statuses(rng, n)
        first = w.next_id("drivers")
        self.driver_ids = list(range(first, first + n))
        self.driver_names: list[str] = []
        ts = w.ts(self.now)
        rows = []
        links = []
        link_id = w.next_id("driver_platforms")
        categories = ("B", "B", "B", "B", "AB", "AB", "C", "D", "E", "AC", "AD", "AE")
        for i in range(n):
            name, folded = V.person(rng, self.pools)
            self.driver_names.append(name)
            status = self.statuses[i]
            birth = date(today.year - self.ri(21, 66), self.ri(1, 12), self.ri(1, 28))
            cnh_expiry = today + timedelta(days=self.ri(60, 1800))
            ear = not (status == "refused" and i % 5 == 1)
            deregistered = status in ("cassada", "revoked") and i % 3 == 0
            street = self.pick(V.STREETS)
            rows.append((
                self.driver_ids[i], self.driver_cpfs[i], name, w.d(birth),
                f"{street}, {self.ri(1, 2200)}", self.pick(V.NEIGHBOURHOODS), V.CITY, V.UF, "78195000",
                V.phone(rng), V.email_for(folded, i), V.cnh_number(rng), self.pick(categories), w.d(cnh_expiry),
                ear, f"1{self.ri(0, 9_999_999_999):010d}", "deregistered" if deregistered else "active",
                w.d(today - timedelta(days=self.ri(1, 60))) if deregistered else None,
                "Descadastramento após cassação da autorização (Art. 24, I, d)" if deregistered else None,
                folded, 1, ts, ts,
            ))
            k = rng.random()
            active = self.active_platforms
            p1 = active[int(rng.random() * len(active))]
            platforms = (p1,)
            if k < 0.35:
                p2 = active[int(rng.random() * len(active))]
                if p2 != p1:
                    platforms = (p1, p2)
            for pid in platforms:
                links.append((link_id, self.driver_ids[i], pid, w.d(date(2025, 6, 20) + timedelta(
                    days=self.ri(0, 400))), None, 1))
                link_id += 1
        w.insert("drivers", ("id", "cpf", "name", "birth_date", "address", "district", "city", "uf", "zip_code",
                             "phone", "email", "cnh_number", "cnh_category", "cnh_expiry", "cnh_ear", "nit",
                             "status", "deregistered_on", "deregistration_reason", "search_key", "version",
                             "created_at", "updated_at"), rows)
        w.insert("driver_platforms", ("id", "driver_id", "platform_id", "since", "until", "version"), links)
        self._checklists(DRIVER_CHECKLIST)

    def _checklists(self, checklist) -> None:
        rng, w, today = self.rng, self.w, self.today
        item_id = w.next_id("driver_checklist_items")
        rows = []
        keys = [(item.key, item.has_expiry, item.document_label) for item in checklist]
        refusal_key = {}
        for i, status in enumerate(self.statuses):
            if status == "refused":
                refusal_key[i] = REFUSAL_REASONS[i % len(REFUSAL_REASONS)]
        self.refusal_key = refusal_key
        clerks = self.clerks
        rnd = rng.random
        d = w.d
        # Day offsets drawn as int(rnd() * k) inline: this loop builds ≈ 11 rows per driver.
        days = [timedelta(days=k) for k in range(0, 2000)]
        soon = today + timedelta(days=30)
        reasons = dict(REFUSAL_REASONS)
        prefixes = {key: label[:20] + " " for key, _, label in keys}
        for i, status in enumerate(self.statuses):
            driver_id = self.driver_ids[i]
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
                w.insert("driver_checklist_items", self._checklist_cols, rows)
                rows = []
        w.insert("driver_checklist_items", self._checklist_cols, rows)

    _checklist_cols = ("id", "driver_id", "requirement", "document_id", "number", "issued_on", "expires_on", "note",
                       "checked_by", "checked_at", "version")

    # -------------------------------------------------------------------------------------------- vehicles
    def _vehicles(self) -> None:
        rng, w, n, today = self.rng, self.w, self.n, self.today
        taken_plates = self._existing("SELECT plate FROM vehicles")
        taken_renavam = self._existing("SELECT renavam FROM vehicles")
        plates = [p for p in V.plates(rng, n + len(taken_plates) + 64) if p not in taken_plates][:n]
        renavams = [r for r in V.renavams(rng, n + len(taken_renavam) + 64) if r not in taken_renavam][:n]
        ts = w.ts(self.now)
        # Lessors: companies (Art. 8 §3 III) and individuals (IV, at most 3 vehicles each).
        lessor_rows = []
        lid = w.next_id("lessors")
        company_ids = []
        for k, name in enumerate(V.LESSOR_COMPANIES):
            company_ids.append(lid)
            lessor_rows.append((lid, "company", self.spare_cnpjs[k], name, V.phone(rng),
                                f"{self.pick(V.STREETS)}, {self.ri(1, 900)} — {V.CITY}–{V.UF}",
                                V.fold(name), 1, ts))
            lid += 1
        person_ids = []
        person_names = {}
        for cpf in self.lessor_cpfs:
            name, _ = V.person_name(rng, self.pools)
            person_ids.append(lid)
            person_names[lid] = (name, cpf)
            lessor_rows.append((lid, "individual", cpf, name, V.phone(rng), V.address(rng), V.fold(name), 1, ts))
            lid += 1
        w.insert("lessors", ("id", "kind", "document_number", "name", "phone", "address", "search_key", "version",
                             "created_at"), lessor_rows)
        person_load = {pid: 0 for pid in person_ids}
        free_people = list(person_ids)

        first = w.next_id("vehicles")
        self.vehicle_ids = list(range(first, first + n))
        self.vehicle_years: list[int] = []
        self.plates = plates
        rows = []
        this_year = today.year
        for i in range(n):
            status = self.statuses[i]
            if status in ("active", "impeded", "suspended", "approved", "in_analysis", "requested"):
                year = self.ri(this_year - 10, this_year)          # still within Art. 2 §1
            elif status == "expired" and i % 5 == 0:
                year = this_year - 11                                  # aged out on 31/12 (Art. 2 §2)
            else:
                year = self.ri(this_year - 10, this_year - 1)
            if status == "refused" and i % 7 == 3:
                year = this_year - 12                                  # refused: too old (Art. 2 §1)
            self.vehicle_years.append(year)
            make, model = self.pick(V.CAR_MODELS)
            seats = 7 if model == "Spin" else 5
            k = rng.random()
            driver_name, driver_cpf = self.driver_names[i], self.driver_cpfs[i]
            lessor_id = None
            owner_rel = None
            if k < 0.80:
                mode, owner, owner_doc = "own", driver_name, driver_cpf
            elif k < 0.88:
                rel_name, _ = V.person_name(rng, self.pools)
                mode, owner, owner_doc = "relative", rel_name, self.relative_cpfs[i]
                owner_rel = self.pick(("cônjuge", "companheiro(a)", "pai", "mãe", "filho(a)", "irmão(ã)", "avô(ó)"))
            elif k < 0.94 or not free_people:
                lessor_id = self.pick(company_ids)
                mode, owner, owner_doc = "company_lease", V.LESSOR_COMPANIES[company_ids.index(lessor_id)], \
                    self.spare_cnpjs[company_ids.index(lessor_id)]
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
                self.vehicle_ids[i], plates[i], renavams[i], V.chassis(rng), make, model, year,
                year + (1 if rng.random() < 0.4 else 0), self.pick(V.COLOURS), 4, seats, True, this_year,
                municipality, V.UF, True, mode, owner, owner_doc, owner_rel, lessor_id, "active", None, None,
                1, ts, ts,
            ))
        w.insert("vehicles", ("id", "plate", "renavam", "chassis", "make", "model", "manufacture_year", "model_year",
                              "colour", "doors", "seats", "air_conditioning", "crlv_year",
                              "registration_municipality", "registration_uf", "compulsory_insurance_paid",
                              "ownership_mode", "owner_name", "owner_document", "owner_relationship", "lessor_id",
                              "status", "deregistered_on", "deregistration_reason", "version", "created_at",
                              "updated_at"), rows)

    # -------------------------------------------------------------------------------------- authorizations
    def _authorizations(self) -> None:
        from desktop.domain import explain_valid_until, is_renewal_late, term_end

        rng, today = self.rng, self.today
        law_day = date(2025, 6, 10)
        recs = []    # per driver: dict of dates (kept for fees, inspections and autos)
        for i, status in enumerate(self.statuses):
            r = {"i": i, "status": status}
            year = self.vehicle_years[i]
            if status == "requested":
                r["protocol"] = self._rand_day(today - timedelta(days=20), today - timedelta(days=1))
            elif status == "in_analysis":
                r["protocol"] = self._rand_day(today - timedelta(days=40), today - timedelta(days=6))
                r["analysis"] = r["protocol"] + timedelta(days=self.ri(1, 3))
            elif status == "refused":
                r["protocol"] = self._rand_day(law_day, today - timedelta(days=15))
                r["analysis"] = r["protocol"] + timedelta(days=self.ri(1, 3))
                r["decided"] = r["analysis"] + timedelta(days=self.ri(2, 9))
            elif status == "approved":
                r["protocol"] = self._rand_day(today - timedelta(days=30), today - timedelta(days=10))
                r["analysis"] = r["protocol"] + timedelta(days=self.ri(1, 2))
                r["decided"] = min(today - timedelta(days=1), r["analysis"] + timedelta(days=self.ri(2, 6)))
                r["presentation"] = self._deadline(r["decided"], 5)       # Art. 9
                if rng.random() < 0.5:
                    r["fee_paid"] = min(today, r["decided"] + timedelta(days=self.ri(0, 3)))
            else:
                # Activated at some point: fee paid, inspection approved (or waived), then the later history.
                early = status in ("suspended", "cassada", "revoked") or (
                    status == "active" and (i % 41 == 3 or i % 43 == 5))
                if status == "expired":
                    fee = self._rand_day(law_day + timedelta(days=15), today - timedelta(days=380))
                    if year + 10 < today.year:
                        fee = self._rand_day(law_day + timedelta(days=15), date(year + 10, 11, 30))
                else:
                    # Authorizations whose history holds autos and penalties (suspension, cassation, revocation,
                    # a past suspension, a vehicle seizure) were activated long enough ago for that history.
                    lo = max(law_day + timedelta(days=15), today - timedelta(days=350))
                    fee = self._rand_day(lo, max(lo, today - timedelta(days=160 if early else 15)))
                r["fee_paid"] = fee
                r["decided"] = fee - timedelta(days=self.ri(0, 6))
                r["analysis"] = r["decided"] - timedelta(days=self.ri(1, 5))
                r["protocol"] = r["analysis"] - timedelta(days=self.ri(0, 3))
                if rng.random() < 0.05:
                    r["waived"] = r["decided"]                            # Art. 9 §1
                    r["activated"] = fee
                else:
                    r["inspection"] = self._business(r["decided"] + timedelta(days=self.ri(1, 5)))
                    r["activated"] = max(fee, r["inspection"])
                explained = explain_valid_until(fee, year)
                r["valid_until"] = explained.valid_until
                r["limited_by"] = explained.limited_by.value
                # Renewals (Art. 3 §2): some of the oldest active ones paid a new fee.
                if status == "active" and not early and fee < today - timedelta(days=300) and rng.random() < 0.5:
                    first_valid = r["valid_until"]
                    req = first_valid - timedelta(days=self.ri(5, 40))
                    new_fee = min(today - timedelta(days=1), first_valid - timedelta(days=self.ri(0, 4)))
                    if req < new_fee:
                        r["renewal_requested"] = req
                        r["renewal_late"] = is_renewal_late(req, first_valid, self.calendar)
                        r["renewal_fee"] = new_fee
                        explained = explain_valid_until(new_fee, year)
                        r["valid_until"] = explained.valid_until
                        r["limited_by"] = explained.limited_by.value
                if status == "active" and r["valid_until"] < today:
                    r["status"] = status = "expired"
                    self.statuses[i] = status
                if status == "expired":
                    r["ended"] = r["valid_until"] + timedelta(days=1)
                elif status == "impeded":
                    r["failed_on"] = self._business(today - timedelta(days=self.ri(1, 4)))
                    r["regularize_by"] = self._deadline(r["failed_on"], 5)   # Art. 16 §2
                elif status == "suspended":
                    self._plan_suspension(r)
                elif status in ("revoked", "cassada"):
                    self._plan_end(r)
                elif status == "active" and i % 41 == 3:
                    self._plan_past_suspension(r)
                elif status == "active" and i % 43 == 5:
                    self._plan_seizure(r)
            recs.append(r)
        self.recs = recs
        # Numbers at activation, consecutive per year in activation order (no gaps, no repeats).
        order = sorted((r for r in recs if "activated" in r), key=lambda r: (r["activated"], r["i"]))
        for r in order:
            r["number"] = self._number("authorization", r["activated"].year)
        self._write_authorizations()

    # ------------------------------------------------------------------ autos behind the authorizations' history
    # The dates of an auto follow the process of Art. 22 with the office's terms (parameters) and calendar:
    # notice joined (the defense term starts, §2) → defense → judgment → appeal term → appeal → final (payment
    # term). Open autos are dated back from "today" so their terms are still running when the demo is loaded
    # (otherwise the daily jobs would move them all on the first start); closed ones are dated back from the day
    # their decision became final.

    def _defense_before(self, t: dict, filed: date) -> None:
        """A defense filed on `filed`, inside the defense term of a notice joined a few days before."""
        joined = filed - timedelta(days=self.ri(1, max(1, min(12, self.defense_days - 1))))
        t.update(joined=joined, defense_deadline=self._deadline(joined, self.defense_days), defense_filed=filed)

    def _judged_on(self, t: dict, decided: date) -> None:
        """First-instance judgment on `decided` of a defense filed before it; the appeal term runs from it."""
        self._defense_before(t, decided - timedelta(days=self.ri(2, 15)))
        t.update(decided=decided, appeal_deadline=self._deadline(decided, self.appeal_days))

    def _drawn_before(self, t: dict) -> dict:
        joined = t.get("joined")
        if joined is not None:
            t["sent"] = joined - timedelta(days=self.ri(0, 2))
            t["drawn"] = t["sent"] - timedelta(days=self.ri(0, 4))
        return t

    def _open_timeline(self, status: str) -> dict:
        """Dates of an auto still open today (lavrado, notificado, em defesa, julgado, em recurso)."""
        today, ri = self.today, self.ri
        t: dict = {}
        if status == "drawn_up":
            t["drawn"] = today - timedelta(days=ri(0, 10))
        elif status == "notified":          # the defense term (Art. 22, §2) ends after today
            joined = today - timedelta(days=ri(0, max(0, min(12, self.defense_days - 1))))
            t.update(joined=joined, defense_deadline=self._deadline(joined, self.defense_days))
        elif status == "in_defense":        # awaiting judgment (no term runs against the office)
            self._defense_before(t, today - timedelta(days=ri(0, 40)))
        elif status == "judged":            # the appeal term ends after today
            self._judged_on(t, today - timedelta(days=ri(1, max(1, min(12, self.appeal_days - 1)))))
        elif status == "in_appeal":
            filed = today - timedelta(days=ri(0, 30))
            self._judged_on(t, filed - timedelta(days=ri(1, max(1, min(12, self.appeal_days - 1)))))
            t["appeal_filed"] = filed
        return self._drawn_before(t)

    def _final_timeline(self, lo: date, hi: date, path: str) -> dict:
        """Dates of an auto whose decision became final between `lo` and `hi` (about): by the end of the defense
        term without defense ("term"), by the end of the appeal term ("judged_term") or on the appeal judgment
        ("appeal"). The payment term runs from the final day."""
        final = self._rand_day(lo, hi)
        t: dict = {}
        if path in ("term", "judged_term"):
            days = self.defense_days if path == "term" else self.appeal_days
            start = final - timedelta(days=days + 1)
            for _ in range(8):             # the last day may move to a business day: step back until it fits
                end = self._deadline(start, days)
                over = (end + timedelta(days=1) - hi).days
                if over <= 0:
                    break
                start -= timedelta(days=over)
            if path == "term":
                t.update(joined=start, defense_deadline=end)
            else:
                self._judged_on(t, start)
            t["final_on"] = end + timedelta(days=1)
        else:
            filed = final - timedelta(days=self.ri(3, 20))
            self._judged_on(t, filed - timedelta(days=self.ri(1, max(1, min(12, self.appeal_days - 1)))))
            t.update(appeal_filed=filed, appeal_decided=final, final_on=final)
        t["payment_deadline"] = self._deadline(t["final_on"], self.payment_days)
        return self._drawn_before(t)

    def _closed_status(self, t: dict, i: int) -> str:
        """final while the payment term runs; afterwards paid (mostly) or overdue."""
        if t["payment_deadline"] >= self.today:
            return "paid" if i % 3 == 0 else "final"
        return "overdue" if i % 4 == 1 else "paid"

    def _plan(self, r: dict, code: str, t: dict, status: str | None = None, extra: tuple = ()) -> dict:
        plan = {"r": r, "code": code, "t": t, "status": status or self._closed_status(t, r["i"]),
                "events": [], "extra": list(extra)}
        r.setdefault("plans", []).append(plan)
        return plan

    def _penalty_event(self, r: dict, kind: str, src: str, dst: str, day: date, reason: str,
                       plan: dict | None, by: int | None) -> None:
        """An event of the authorization's history written as services.penalties writes it (`kind`, the auto's
        id and number); `{auto}` in the reason becomes the auto's number once it has one."""
        r.setdefault("penalty_events", []).append((kind, src, dst, day, reason, plan, by))

    def _plan_suspension(self, r: dict) -> None:
        today, act = self.today, r["activated"]
        if r["i"] % 2 == 0:
            # Art. 26, VI: cards offering rides outside the platform — 12 months (Art. 24, parágrafo único).
            lo = max(act + timedelta(days=75), today - timedelta(days=330))
            t = self._final_timeline(lo, max(lo, today - timedelta(days=1)), ("term", "appeal")[r["i"] % 4 // 2])
            plan = self._plan(r, "ART26-VI", t)
            start = t["final_on"]
            until = period_end(start, months=12)
            article = "Art. 24, parágrafo único"
        else:
            # Art. 26, §1: street boarding again within 12 months — 30 days.
            t2 = self._final_timeline(today - timedelta(days=28), today - timedelta(days=1), "appeal")
            lo = max(act + timedelta(days=35), t2["drawn"] - timedelta(days=250))
            t1 = self._final_timeline(lo, max(lo, t2["drawn"] - timedelta(days=5)), "term")
            self._plan(r, "ART26-IV", t1, "paid")
            plan = self._plan(r, "ART26-IV", t2)
            start = t2["final_on"]
            until = period_end(start, days=30)
            article = "Art. 26, §1"
        r["suspended_on"], r["suspended_until"] = start, until
        self._penalty_event(r, "suspension", "active", "suspended", start,
                            f"Suspensão da autorização até {until:%d/%m/%Y} ({article}) — auto {{auto}}", plan,
                            self.gestor)

    def _plan_end(self, r: dict) -> None:
        today, act, i = self.today, r["activated"], r["i"]
        deregistered = i % 3 == 0          # the driver row says so (_drivers): Art. 24, I, d
        if r["status"] == "cassada":
            # Art. 26, V then §2: a first aggression suspends for 12 months; a second one within 12 months
            # cassates the authorization.
            t1 = self._final_timeline(act + timedelta(days=60), act + timedelta(days=75), "term")
            first = self._plan(r, "ART26-V", t1, "paid")
            f1 = t1["final_on"]
            # A gestor who also deregisters the driver decides it in a judgment (the appeal's, here).
            lo = f1 + timedelta(days=75 if deregistered else 45)
            t2 = self._final_timeline(lo, max(lo, min(today - timedelta(days=1), f1 + timedelta(days=250))),
                                      "appeal" if deregistered else "term")
            extra = ("driver_deregistration",) if deregistered else ()
            second = self._plan(r, "ART26-V", t2, extra=extra)
            if deregistered:
                r["deregistration_plan"] = second
            until = period_end(f1, months=12)
            r["suspended_until"] = until
            r["ended"] = t2["final_on"]
            self._penalty_event(r, "suspension", "active", "suspended", f1,
                                f"Suspensão da autorização até {until:%d/%m/%Y} (Art. 24, parágrafo único) — "
                                "auto {auto}", first, self.gestor)
            self._penalty_event(r, "cassation", "suspended", "cassada", r["ended"],
                                "Cassação da autorização (Art. 24, I, e; Art. 26, §2) — auto {auto}", second,
                                self.gestor)
            if deregistered:
                self._penalty_event(r, "deregistration", "cassada", "cassada", r["ended"],
                                    "Descadastramento do condutor (Art. 24, I, d) — auto {auto}", second, self.gestor)
            return
        # Revoked: by the gestor in the judgment of an Art. 26, III auto (Art. 24, I, c), or at the driver's request.
        if i % 2 == 0:
            lo = act + timedelta(days=75)
            t = self._final_timeline(lo, max(lo, today - timedelta(days=1)), "appeal")
            extra = ("revocation", "driver_deregistration") if deregistered else ("revocation",)
            plan = self._plan(r, "ART26-III", t, extra=extra)
            if deregistered:
                r["deregistration_plan"] = plan
            r["ended"] = t["final_on"]
            self._penalty_event(r, "revocation", "active", "revoked", r["ended"],
                                "Revogação da autorização (Art. 24, I, c) — auto {auto}", plan, self.gestor)
            if deregistered:
                self._penalty_event(r, "deregistration", "revoked", "revoked", r["ended"],
                                    "Descadastramento do condutor (Art. 24, I, d) — auto {auto}", plan, self.gestor)
        else:
            ended = self._rand_day(act + timedelta(days=10), today - timedelta(days=1))
            r["ended"] = max(act, min(ended, today - timedelta(days=1), r["valid_until"]))
            self._penalty_event(r, "revocation", "active", "revoked", r["ended"], self.pick((
                "Revogação a pedido do condutor.", "Revogação: veículo vendido sem substituição (Art. 8, §2).")),
                None, self.gestor)

    def _plan_past_suspension(self, r: dict) -> None:
        """An active authorization that served a 30-day suspension (Art. 26, §1) and is active again."""
        act, today = r["activated"], self.today
        t1 = self._final_timeline(act + timedelta(days=40), act + timedelta(days=70), "term")
        self._plan(r, "ART26-IV", t1, "paid")
        lo = t1["final_on"] + timedelta(days=40)
        hi = max(lo, min(t1["final_on"] + timedelta(days=200), today - timedelta(days=33)))
        t2 = self._final_timeline(lo, hi, "term")
        plan = self._plan(r, "ART26-IV", t2, "paid")
        start = t2["final_on"]
        until = period_end(start, days=30)
        if until >= today:
            return                          # no room left for the whole suspension: both autos stay, no penalty
        r["suspended_until"] = until       # left set after the end, as services.penalties leaves it
        self._penalty_event(r, "suspension", "active", "suspended", start,
                            f"Suspensão da autorização até {until:%d/%m/%Y} (Art. 26, §1) — auto {{auto}}", plan,
                            self.gestor)
        self._penalty_event(r, "suspension_end", "suspended", "active", until + timedelta(days=1),
                            f"Fim da suspensão em {until:%d/%m/%Y} (Art. 24, parágrafo único; Art. 26, §1) — "
                            "auto {auto}", plan, None)

    def _plan_seizure(self, r: dict) -> None:
        """Art. 27 again within 12 months: fine and seizure of the vehicle (Art. 27, parágrafo único)."""
        act, today = r["activated"], self.today
        t1 = self._final_timeline(act + timedelta(days=30), act + timedelta(days=60), "term")
        self._plan(r, "ART27", t1, "paid")
        lo = t1["final_on"] + timedelta(days=75)
        t2 = self._final_timeline(lo, max(lo, min(today - timedelta(days=1), lo + timedelta(days=200))), "appeal")
        self._plan(r, "ART27", t2)

    def _write_authorizations(self) -> None:
        w = self.w
        first = w.next_id("authorizations")
        ev_id = w.next_id("authorization_events")
        rows, events = [], []
        ts_now = w.ts(self.now)
        gestor, clerks = self.gestor, self.clerks
        for r in self.recs:
            i = r["i"]
            aid = first + i
            r["id"] = aid
            status = r["status"]
            decided = r.get("decided")
            reason = None
            if status == "refused":
                reason = self.refusal_key.get(i, REFUSAL_REASONS[0])[1]
            elif status == "approved":
                reason = "Documentação completa (Art. 8, §1; Art. 12)."
            elif decided:
                reason = "Documentação completa (Art. 8, §1; Art. 12)."
            fee_paid = r.get("renewal_fee") or r.get("fee_paid")
            number = r.get("number")
            guide = None   # filled by _fees through the fee rows (the authorization keeps the last guide)
            fee_amount = None
            if fee_paid:
                kind = "renewal" if r.get("renewal_fee") else "authorization"
                fee_amount = _q2(self.fee_upfm[kind] * self.upfm[fee_paid.year])
            rows.append((
                aid, number, self.driver_ids[i], self.vehicle_ids[i], status, f"PROT-{r['protocol'].year}-{aid:06d}",
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
                ev("active", "impeded", r["failed_on"], self.inspectors[i & 1],
                   "Veículo reprovado na vistoria; prazo de 5 dias para regularizar (Art. 16, §2).",
                   kind="inspection")
            # Penalties (services.penalties): kind of the penalty, the auto that applied it (patched in _autos).
            for kind, src, dst, day, why, plan, by in r.get("penalty_events", ()):
                if plan is not None:
                    plan["events"].append(len(events))
                ev(src, dst, day, by, why, kind=kind)
        self._auth_cols = ("id", "number", "driver_id", "vehicle_id", "status", "protocol_number", "protocol_date",
                           "analysis_started_on", "decided_on", "decided_by", "decision_reason",
                           "presentation_deadline", "fee_paid_on", "fee_guide_number", "fee_amount",
                           "inspection_approved_on", "inspection_waived_on", "inspection_waived_by", "activated_on",
                           "valid_until", "valid_until_limited_by", "renewal_requested_on", "renewal_late",
                           "renewal_count", "regularize_by", "suspended_until", "ended_on", "created_by", "version",
                           "created_at", "updated_at")
        self._auth_rows = rows
        self._events = events
        self._event_cols = ("id", "authorization_id", "kind", "from_status", "to_status", "at", "effective_on",
                            "by_user_id", "reason", "act_number", "old_vehicle_id", "new_vehicle_id", "auto_id")

    # ------------------------------------------------------------------------------------------ fees, guides
    def _fees(self) -> None:
        """Authorization and renewal fees (Art. 10) with their DAM guides; written with the authorizations
        (which keep the guide number of their last fee)."""
        w = self.w
        fee_id = w.next_id("fees")
        guide_id = w.next_id("payment_guides")
        fees, guides = [], []
        ts_now = w.ts(self.now)
        guide_of_auth: dict[int, str] = {}
        issued = []
        for r in self.recs:
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
            value = self.upfm[year]
            upfm = self.fee_upfm[kind]
            amount = _q2(upfm * value)
            number = self._number("guide", year)
            due = issued_on + timedelta(days=10)
            status = "paid" if paid_on else "open"
            guides.append((guide_id, number, "fee", w.dec(amount, 2), w.d(due), self.driver_names[i],
                           self.driver_cpfs[i], self.driver_ids[i], None, self.vehicle_ids[i], None, None, status,
                           w.d(paid_on), w.dec(amount if paid_on else None, 2), None, self.clerks[i & 1], 1, ts_now))
            fees.append((fee_id, kind, self.vehicle_ids[i], r["id"], w.d(due), w.dec(upfm, 4), w.dec(value, 6),
                         w.dec(amount, 2), number, status, w.d(paid_on), w.dec(amount if paid_on else None, 2), None,
                         self.clerks[i & 1], 1, ts_now))
            guide_of_auth[r["id"]] = number
            guide_id += 1
            fee_id += 1
        # The authorization rows carry the guide of their last fee (column fee_guide_number).
        idx = self._auth_cols.index("fee_guide_number")
        first = self.recs[0]["id"] if self.recs else 0
        for r in self.recs:
            g = guide_of_auth.get(r["id"])
            if g is not None:
                row = self._auth_rows[r["id"] - first]
                self._auth_rows[r["id"] - first] = row[:idx] + (g,) + row[idx + 1:]
        w.insert("authorizations", self._auth_cols, self._auth_rows)
        self._auth_rows = None
        self._guides, self._fees_rows = guides, fees
        self.fee_seq = fee_id
        self.guide_seq = guide_id

    def _flush_fees(self) -> None:
        self.w.insert("payment_guides", self._guide_cols, self._guides)
        self.w.insert("fees", self._fee_cols, self._fees_rows)

    _guide_cols = ("id", "number", "purpose", "amount_reais", "due_on", "payer_name", "payer_document", "driver_id",
                   "platform_id", "vehicle_id", "auto_id", "barcode", "status", "paid_on", "paid_amount",
                   "cancel_reason", "issued_by", "version", "created_at")
    _fee_cols = ("id", "kind", "vehicle_id", "authorization_id", "due_on", "amount_upfm", "upfm_value",
                 "amount_reais", "guide_number", "status", "paid_on", "paid_amount", "cancel_reason", "created_by",
                 "version", "created_at")

    # ---------------------------------------------------------------------------------------------- inspections
    def _inspections(self) -> None:
        rng, w, today = self.rng, self.w, self.today
        first = w.next_id("inspections")
        iid = first
        rows = []
        item_rows = []
        item_id = w.next_id("inspection_items")
        ts_now = w.ts(self.now)
        recent = today - timedelta(days=45)
        detailed_all = self.n <= 20_000
        # The lines of desktop.domain.INSPECTION_CHECKLIST (Art. 2; Art. 13 XIII-XV; Art. 14; Art. 15 p.ú. I-VIII).
        from desktop.domain import INSPECTION_CHECKLIST

        item_keys = tuple(item.key for item in INSPECTION_CHECKLIST)
        # Future slots without double booking: next business days, 08:00-11:30 every 30 min, per inspector.
        slot_day = self._business(today + timedelta(days=1))
        if self.force:
            w.drain()
            cur = w.raw.cursor()
            cur.execute("SELECT MAX(scheduled_start) FROM inspections WHERE status = 'scheduled'")
            last = cur.fetchone()[0]
            cur.close()
            if last is not None:
                last_day = date.fromisoformat(str(last)[:10])
                slot_day = self._business(max(slot_day, last_day + timedelta(days=2)))
        slot_k = 0

        def next_slot():
            nonlocal slot_day, slot_k
            if slot_k >= 8 * len(self.inspectors):
                slot_day = self._business(slot_day + timedelta(days=1))
                slot_k = 0
            inspector = self.inspectors[slot_k % len(self.inspectors)]
            minute = (slot_k // len(self.inspectors)) * 30
            slot_k += 1
            return inspector, (slot_day, 8 + minute // 60, minute % 60)

        def add(kind, r, status, result, day, inspector=None, start=None, notes=None, regularize=None,
                previous=None, convocation=None):
            nonlocal iid, item_id
            i = r["i"]
            inspector = inspector or self.inspectors[i & 1]
            if start is None:
                start = (day, 8 + (i % 4), 30 * (i % 2))
            d0, h0, m0 = start
            end = (d0, h0, m0 + 30) if m0 < 30 else (d0, h0 + 1, m0 - 30)
            performed = w.at(d0, h0, m0 + 5) if status == "done" else None
            rows.append((iid, kind, self.vehicle_ids[i], r["id"], inspector, self.places[i % len(self.places)],
                         w.at(*start), w.at(*end), status, result, performed, notes, w.d(convocation),
                         w.d(regularize), None, None, None, None, previous, self.clerks[i & 1], 1, ts_now))
            if status == "done" and (detailed_all or result == "failed" or day >= recent):
                failing = set()
                if result == "failed":
                    failing = set(rng.sample(("hygiene", "no_damage", "no_external_stickers", "air_conditioning",
                                              "mandatory_equipment"), self.ri(1, 2)))
                for key in item_keys:
                    bad = key in failing
                    item_rows.append((item_id, iid, key, not bad,
                                      "Pendência a regularizar em 5 dias (Art. 16, §2)." if bad else None, 1))
                    item_id += 1
            iid += 1
            return iid - 1

        for r in self.recs:
            status = r["status"]
            if r.get("inspection"):
                add("initial", r, "done", "approved", r["inspection"], notes="Veículo aprovado (Art. 9; Art. 15).")
            if r.get("renewal_fee"):
                add("annual", r, "done", "approved", self._business(r["renewal_fee"] - timedelta(days=3)),
                    notes="Vistoria anual aprovada (Art. 16).")
            if status == "approved":
                k = r["i"] % 5
                if k in (0, 1, 2):
                    inspector, start = next_slot()
                    add("initial", r, "scheduled", None, start[0], inspector=inspector, start=start,
                        convocation=r["decided"])
                elif k == 3:
                    add("initial", r, "no_show", None, self._business(r["decided"] + timedelta(days=3)),
                        convocation=r["decided"], notes="Condutor não compareceu à vistoria convocada.")
                    r["no_show"] = True
            elif status == "impeded":
                failed = add(self.pick(("annual", "extraordinary")), r, "done", "failed", r["failed_on"],
                             notes="Reprovado: pendências listadas nos itens (Art. 16, §2).",
                             regularize=r["regularize_by"], convocation=r["failed_on"] - timedelta(days=7))
                if r["i"] % 2 == 0:
                    inspector, start = next_slot()
                    add("reinspection", r, "scheduled", None, start[0], inspector=inspector, start=start,
                        previous=failed)
            if len(item_rows) > 50_000:
                w.insert("inspections", self._inspection_cols, rows)
                w.insert("inspection_items", self._item_cols, item_rows)
                rows, item_rows = [], []
        w.insert("inspections", self._inspection_cols, rows)
        w.insert("inspection_items", self._item_cols, item_rows)

    _inspection_cols = ("id", "kind", "vehicle_id", "authorization_id", "inspector_id", "place_id",
                                 "scheduled_start", "scheduled_end", "status", "result", "performed_at", "notes",
                                 "convocation_notified_on", "regularize_by", "term_start", "term_end",
                                 "reschedule_reason", "cancel_reason", "previous_id", "created_by", "version",
                                 "created_at")
    _item_cols = ("id", "inspection_id", "item_key", "passed", "note", "version")

    # ----------------------------------------------------------------------------------------------- autos
    def _random_timeline(self, status: str, k: int, not_before: date | None = None) -> dict | None:
        """Dates of an auto in `status`; `not_before`: the earliest day its decision may become final (None when
        that day cannot be met)."""
        today, ri = self.today, self.ri
        if status in ("drawn_up", "notified", "in_defense", "judged", "in_appeal"):
            return self._open_timeline(status)
        path = ("term", "judged_term", "appeal")[k % 3]
        day = timedelta(days=1)
        if not_before is not None:
            if status in ("final", "overdue", "divida_ativa"):
                hi = today - day if status == "final" else \
                    today - (self.payment_days + (10 if status == "overdue" else 60)) * day
                lo = max(not_before, today - max(1, self.payment_days - 1) * day) if status == "final" \
                    else max(not_before, hi - 190 * day)
            else:
                lo, hi = max(not_before, today - 400 * day), today - 2 * day
            if lo > hi:
                return None
            return self._final_timeline(lo, hi, "appeal")     # final on the appeal judgment: exactly in range
        if status == "final":               # the payment term still runs today
            lo, hi = today - max(1, self.payment_days - 1) * day, today - day
            t = self._final_timeline(lo, max(lo, hi), path)
            if t["payment_deadline"] < today:
                t = self._final_timeline(lo, max(lo, hi), "appeal")
        elif status in ("overdue", "divida_ativa"):   # the payment term is over
            hi = today - (self.payment_days + (10 if status == "overdue" else 60)) * day
            lo = hi - 190 * day
            t = self._final_timeline(lo, hi, path)
            if t["payment_deadline"] >= today:
                t = self._final_timeline(lo, hi, "appeal")
        elif status == "paid":
            t = self._final_timeline(today - 400 * day, today - 2 * day, path)
        elif status == "annulled":          # the defense was upheld: the auto is void (Art. 22)
            t = {}
            decided = today - ri(2, 200) * day
            self._defense_before(t, decided - ri(2, 15) * day)
            t["decided"] = decided
            self._drawn_before(t)
        else:                               # cancelled by the gestor for an error in the auto
            drawn = today - ri(5, 200) * day
            t = {"drawn": drawn, "cancelled": min(today, drawn + ri(1, 3) * day)}
        return t

    def _autos(self) -> None:
        """Autos of every code in every status (Art. 19-28), each with what `domain.assess` proposed over the
        infractor's final autos — stored as `services.autos.draw_up_auto` stores it — its notices, defenses,
        judgments, measures, guides and ledger entries, as the services of the process leave them."""
        from desktop.domain import ART13_DUTIES, AUTO_COUNTS_FOR_RECURRENCE, CATALOG, Prior, assess, fine_in_reais, \
            reais_to_upfm
        from desktop.services.parameters import parameter_value_in

        rng, w, today, ri = self.rng, self.w, self.today, self.ri
        statuses = list(_auto_statuses())
        codes = list(CATALOG)
        window = int(parameter_value_in(self.s, "recurrence.window_months", today))
        final_like = {s.value for s in AUTO_COUNTS_FOR_RECURRENCE}
        pool = [r for r in self.recs if "activated" in r and not r.get("plans")] or self.recs
        by_start = sorted(pool, key=lambda r: (r.get("activated") or r["protocol"], r["i"]))
        started = [r.get("activated") or r["protocol"] for r in by_start]
        used: set[tuple[int, str]] = set()
        ended_pool = [r for r in self.recs if r["status"] == "expired"]
        plans = [p for r in self.recs for p in r.get("plans", ())]
        for r in self.recs:
            if r.get("no_show") and r["i"] % 2 == 0:            # Art. 26, I: missed the convocation
                drawn = self._business(r["decided"] + timedelta(days=6))
                if drawn <= today:
                    plans.append({"r": r, "code": "ART26-I", "t": {"drawn": drawn}, "status": "drawn_up",
                                  "events": [], "extra": []})
            elif r["status"] == "impeded" and r["i"] % 3 == 0:  # Art. 26, II: serving while impeded
                drawn = min(today, r["failed_on"] + timedelta(days=self.ri(0, 2)))
                plans.append({"r": r, "code": "ART26-II", "t": {"drawn": drawn}, "status": "drawn_up",
                              "events": [], "extra": []})
        # Then a mix that covers every code in every status (11 statuses × 7 codes are coprime: 77 pairs).
        extra = max(len(statuses) * len(codes), self.n * 6 // 100)
        for k in range(extra):
            status = statuses[k % len(statuses)]
            code = codes[k % len(codes)]
            t = self._random_timeline(status, k)
            first, last = t["drawn"], t.get("final_on") or t["drawn"]
            r = None
            if code in ("ART26-V", "ART26-VI") and status in final_like:
                # A 12-month suspension proposed when the authorization had already expired: nothing to suspend
                # (services.penalties records "penalty not applied"); active ones keep their status.
                for _ in range(12 if ended_pool else 0):
                    c = ended_pool[int(rng.random() * len(ended_pool))]
                    late = self._random_timeline(status, k, not_before=c["ended"])
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
                return None, self.active_platforms[i % len(self.active_platforms)]
            return self.driver_ids[i], None

        # Recurrence (SPEC §3): the infractor's autos with a final decision, not cancelled nor annulled — the
        # same priors `services.autos.priors_in` reads; `assess` keeps those of the same code inside the window.
        priors: dict[tuple, list] = {}
        for p in plans:
            if p["status"] in final_like:
                priors.setdefault(debtor(p), []).append(Prior(p["code"], p["t"]["drawn"]))

        auto_rows, notes_rows, def_rows, judg_rows, ledger_rows, measure_rows, guides = [], [], [], [], [], [], []
        aid = w.next_id("autos")
        nid = w.next_id("auto_notifications")
        did = w.next_id("auto_defenses")
        jid = w.next_id("auto_judgments")
        lid = w.next_id("ledger_entries")
        mid = w.next_id("administrative_measures")
        ts_now = w.ts(self.now)
        gestor, fiscal = self.gestor, self.fiscal
        forms = _notification_forms()
        events, cols = self._events, self._event_cols
        ev_reason, ev_act, ev_auto = cols.index("reason"), cols.index("act_number"), cols.index("auto_id")
        duties = list(ART13_DUTIES)
        assessed: dict[tuple, tuple] = {}
        upfm_years = self.upfm
        for p in plans:
            r, code, t, status = p["r"], p["code"], p["t"], p["status"]
            i = r["i"]
            drawn = t["drawn"]
            driver_id, platform_id = debtor(p)
            code_id, description, _ = self.codes[code]
            # assess() depends only on the code, the day and the priors of that code: most autos share a result.
            same = tuple(q.on for q in priors.get((driver_id, platform_id), ()) if q.code == code)
            cached = assessed.get((code, drawn, same))
            if cached is None:
                found = assess(code, drawn, priors.get((driver_id, platform_id), ()), window)
                cached = assessed[(code, drawn, same)] = (found, found.to_dict(), w.json(found.to_dict()))
            assessment, proposal, stored = cached
            upfm = Decimal(assessment.upfm)
            value = upfm_years.get(drawn.year) or upfm_years[min(upfm_years)]
            reais = fine_in_reais(upfm, value)
            number = self._number("auto", drawn.year)
            p["number"] = number
            drawn_at = self._dt(drawn, 8 + (i % 9), (i * 7) % 60)
            art13 = self.pick(duties) if code == "ART26-III" else None
            desc = description + (f" — Art. 13, {art13}: {ART13_DUTIES[art13]}" if art13 else "")
            decided, appeal_decided = t.get("decided"), t.get("appeal_decided")
            outcome = reduced = None
            if decided is not None:
                if status == "annulled":
                    outcome = "annulled"
                elif p.get("k", 1) % 4 == 0 and code in ("ART26-I", "ART26-II", "ART26-III", "ART26-IV"):
                    outcome = "partly_upheld"
                    reduced = (upfm / 2).quantize(Decimal("0.0001"))
                else:
                    outcome = "upheld"
            if outcome in ("upheld", "partly_upheld"):
                # process._record_decision: the gestor's choice of penalties beside the proposal.
                proposal = dict(proposal)
                proposal["decision"] = {"apply_proposed": True, "extra": sorted(p["extra"]),
                                        "decided_on": (appeal_decided or decided).isoformat()}
            amount_upfm, amount_reais = upfm, reais
            if reduced is not None:                     # process._post_reduction: the auto keeps the new amount
                amount_upfm, amount_reais = reduced, fine_in_reais(reduced, value)
            joined = t.get("joined")
            if joined is not None:
                notes_rows.append((nid, aid, "platform" if platform_id else "driver", forms[(i + aid) % len(forms)],
                                   w.d(t["sent"]), w.d(joined), None, None, fiscal, 1, ts_now))
                nid += 1
            defense_id = appeal_id = None
            if t.get("defense_filed"):
                defense_id = did
                def_rows.append((did, aid, "defense", w.d(t["defense_filed"]),
                                 self.pick(("Defesa prévia alegando ausência de provas.",
                                            "Defesa prévia: o condutor nega ter embarcado passageiro na via.",
                                            "Defesa prévia pedindo redução da multa por bons antecedentes.")),
                                 None, self.clerks[i & 1], 1, ts_now))
                did += 1
            if t.get("appeal_filed"):
                appeal_id = did
                def_rows.append((did, aid, "appeal", w.d(t["appeal_filed"]), "Recurso reiterando a defesa.", None,
                                 self.clerks[i & 1], 1, ts_now))
                did += 1
            if decided is not None:
                reasoning = ("Auto mantido: infração comprovada pelo agente." if outcome == "upheld" else
                             "Auto anulado: vício na identificação do veículo." if outcome == "annulled" else
                             "Multa reduzida à metade: circunstâncias atenuantes comprovadas.")
                judg_rows.append((jid, aid, defense_id, "defense", w.d(decided), gestor, outcome, w.dec(reduced, 4),
                                  reasoning, 1, ts_now))
                jid += 1
            if appeal_decided is not None:
                judg_rows.append((jid, aid, appeal_id, "appeal", w.d(appeal_decided), gestor, "upheld", None,
                                  "Recurso improvido: mantida a decisão de primeira instância.", 1, ts_now))
                jid += 1
            cancelled = status == "cancelled"
            cancelled_on = t.get("cancelled")
            auto_rows.append((
                aid, number, w.ts(drawn_at), self.pick(AUTO_PLACES), driver_id, platform_id,
                None if platform_id else self.vehicle_ids[i], None if platform_id else r["id"], code_id, code, art13,
                desc, fiscal, status, w.dec(amount_upfm, 4), w.dec(value, 6), w.dec(amount_reais, 2),
                assessment.recurrence, stored if "decision" not in proposal else w.json(proposal), w.d(joined), w.d(t.get("defense_deadline")),
                w.d(t.get("appeal_deadline")), w.d(t.get("payment_deadline")), w.d(t.get("final_on")),
                "Erro na identificação da placa no auto." if cancelled else None, gestor if cancelled else None,
                w.at(cancelled_on, 15) if cancelled else None, 1, ts_now,
            ))
            # Ledger (append-only): the debit when drawn up, then reductions, costs, reversals and payments.
            debit_id = lid
            ledger_rows.append((lid, driver_id, platform_id, aid, "debit", w.dec(upfm, 4), w.dec(value, 6),
                                w.dec(reais, 2), w.d(drawn), w.ts(drawn_at), None, None,
                                f"Multa do auto {number} ({code}; {assessment.articles[0]})", fiscal))
            lid += 1
            owed_upfm, owed_reais = amount_upfm, amount_reais
            if reduced is not None:
                ledger_rows.append((lid, driver_id, platform_id, aid, "reduction", w.dec(reduced - upfm, 4),
                                    w.dec(value, 6), w.dec(amount_reais - reais, 2), w.d(decided),
                                    w.at(decided, 11), None, None, f"Auto {number} mantido em parte: {reasoning}",
                                    gestor))
                lid += 1
            if status in ("cancelled", "annulled"):
                why = (f"Auto {number} cancelado: erro na identificação da placa no auto." if cancelled
                       else f"Auto {number} anulado (defesa prévia): {reasoning}")
                undone = cancelled_on if cancelled else decided
                ledger_rows.append((lid, driver_id, platform_id, aid, "reversal", w.dec(-upfm, 4), w.dec(value, 6),
                                    w.dec(-reais, 2), w.d(undone), w.at(undone, 16), debit_id, None, why, gestor))
                lid += 1
            if code == "ART27" and driver_id and status in final_like:
                # Art. 27 parágrafo único / Art. 24, II, d: the vehicle seized on a recurrence (retained otherwise,
                # Art. 24, II, b); Art. 28: removal and storage costs charged to the driver.
                seizure = assessment.vehicle_seizure
                cost = Decimal(self.pick(("180.00", "240.00", "315.50"))) * (2 if seizure else 1)
                measure_rows.append((mid, aid, driver_id, self.vehicle_ids[i],
                                     "vehicle_seizure" if seizure else "retention_or_removal", w.d(drawn),
                                     w.d(min(today, drawn + timedelta(days=ri(2, 9)))), "Pátio municipal",
                                     w.dec(cost, 2), "Remoção por guincho e estada no pátio (Art. 28).", fiscal, 1,
                                     ts_now))
                mid += 1
                cost_upfm = reais_to_upfm(cost, value)
                on = drawn + timedelta(days=2)
                ledger_rows.append((lid, driver_id, None, aid, "costs", w.dec(cost_upfm, 4), w.dec(value, 6),
                                    w.dec(cost, 2), w.d(on), w.at(on, 12), None, None,
                                    "Despesas de remoção e estada do veículo (Art. 28).", fiscal))
                lid += 1
                owed_upfm += cost_upfm
                owed_reais += cost
            if status in final_like:
                final_on = t["final_on"]
                guide_number = self._number("guide", final_on.year)
                paid = status == "paid"
                paid_on = min(today, final_on + timedelta(days=ri(0, 25)), t["payment_deadline"]) if paid else None
                guides.append((self.guide_seq, guide_number, "fine", w.dec(owed_reais, 2), w.d(t["payment_deadline"]),
                               self.driver_names[i] if driver_id else self.platform_names[platform_id][0],
                               self.driver_cpfs[i] if driver_id else self.platform_names[platform_id][1], driver_id,
                               platform_id, None if platform_id else self.vehicle_ids[i], aid, None,
                               "paid" if paid else "open", w.d(paid_on), w.dec(owed_reais if paid else None, 2), None,
                               self.clerks[i & 1], 1, ts_now))
                self.guide_seq += 1
                if paid:
                    ledger_rows.append((lid, driver_id, platform_id, aid, "payment", w.dec(-owed_upfm, 4),
                                        w.dec(value, 6), w.dec(-owed_reais, 2), w.d(paid_on), w.at(paid_on, 14), None,
                                        guide_number, None, self.clerks[i & 1]))
                    lid += 1
                elif status == "overdue" and p.get("k", 0) % 2 == 1:
                    # A payment returned by the bank: reversed (ledger.reverse_entry), so the auto is owed again.
                    paid_on = min(final_on + timedelta(days=ri(1, 10)), t["payment_deadline"])
                    undone = min(today - timedelta(days=1), paid_on + timedelta(days=ri(3, 12)))
                    ledger_rows.append((lid, driver_id, platform_id, aid, "payment", w.dec(-owed_upfm, 4),
                                        w.dec(value, 6), w.dec(-owed_reais, 2), w.d(paid_on), w.at(paid_on, 14), None,
                                        guide_number, None, self.clerks[i & 1]))
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
                           "version", "created_at"), auto_rows)
        w.insert("authorization_events", self._event_cols, self._events)
        self._events = None
        self._guides.extend(guides)
        self._flush_fees()
        w.insert("auto_notifications", ("id", "auto_id", "addressee", "form", "sent_on", "proof_joined_on",
                                        "proof_document_id", "note", "recorded_by", "version", "created_at"),
                 notes_rows)
        w.insert("auto_defenses", ("id", "auto_id", "kind", "filed_on", "summary", "document_id", "recorded_by",
                                   "version", "created_at"), def_rows)
        w.insert("auto_judgments", ("id", "auto_id", "defense_id", "instance", "decided_on", "decided_by", "outcome",
                                    "reduced_upfm", "reasoning", "version", "created_at"), judg_rows)
        w.insert("administrative_measures", ("id", "auto_id", "driver_id", "vehicle_id", "kind", "applied_on",
                                             "released_on", "place", "cost_reais", "note", "applied_by", "version",
                                             "created_at"), measure_rows)
        w.insert("ledger_entries", ("id", "infractor_driver_id", "infractor_platform_id", "auto_id", "kind",
                                    "amount_upfm", "upfm_value", "amount_reais", "effective_on", "posted_at",
                                    "reverses_id", "guide_number", "reason", "created_by"), ledger_rows)

    # ---------------------------------------------------------------------------------- courses, Art. 13 XVIII
    def _courses_and_communications(self) -> None:
        from desktop.domain import is_data_change_late

        rng, w, today = self.rng, self.w, self.today
        ts_now = w.ts(self.now)
        sid = w.next_id("course_sessions")
        att_id = w.next_id("course_attendances")
        sessions, attendances = [], []
        active = [r for r in self.recs if r["status"] == "active"]
        topics = (("Normas de trânsito e direção defensiva", "held", -60),
                  ("Atendimento a passageiros com deficiência (Lei 13.146/2015; Art. 13, XXII-XXIII)", "held", -20),
                  ("Legislação municipal do transporte por aplicativo (Lei nº 2.103/2025)", "planned", 25))
        for topic, status, offset in topics:
            held_on = self._business(today + timedelta(days=offset))
            sessions.append((sid, w.d(held_on), w.at(held_on, 14), "Auditório da Prefeitura Municipal",
                             topic, "Equipe da Secretaria Municipal de Finanças", 40, status, self.gestor, 1, ts_now))
            chosen = rng.sample(active, min(30, len(active)))
            for r in chosen:
                if status == "planned":
                    att = "convoked"
                else:
                    att = rng.choices(("present", "absent", "excused"), (80, 12, 8))[0]
                attendances.append((att_id, sid, self.driver_ids[r["i"]], w.d(held_on - timedelta(days=15)), att,
                                    "Falta sem justificativa (Art. 12, §2)." if att == "absent" else None, 1))
                att_id += 1
            sid += 1
        w.insert("course_sessions", ("id", "held_on", "starts_at", "place", "topic", "instructor", "capacity",
                                     "status", "created_by", "version", "created_at"), sessions)
        w.insert("course_attendances", ("id", "session_id", "driver_id", "convoked_on", "status", "note", "version"),
                 attendances)
        comms = []
        cid = w.next_id("change_communications")
        for r in active[: max(2, self.n // 100)]:
            happened = today - timedelta(days=self.ri(10, 120))
            communicated = happened + timedelta(days=self.pick((2, 5, 7, 12, 30)))
            late = is_data_change_late(happened, communicated, self.calendar)
            comms.append((cid, self.driver_ids[r["i"]], None,
                          self.pick(("Mudança de endereço", "Novo telefone", "Renovação da CNH", "Novo e-mail"))
                          + (" — comunicado fora do prazo de 7 dias (Art. 13, XVIII)" if late else ""),
                          w.d(happened), w.d(min(communicated, today)), self.clerks[r["i"] & 1], None, 1, ts_now))
            cid += 1
        w.insert("change_communications", ("id", "driver_id", "vehicle_id", "what_changed", "happened_on",
                                           "communicated_on", "recorded_by", "auto_id", "version", "created_at"),
                 comms)

    # ---------------------------------------------------------------------------------------------- audit
    def _audit(self) -> None:
        from desktop.services import audit
        from desktop.services.base import SYSTEM_ACTOR

        counts = dict(sorted(self.w.counts.items()))
        counts["users"] = len(self.staff)
        self.summary.counts = counts
        self.summary.write_seconds = dict(self.w.seconds)
        audit.record(self.s, SYSTEM_ACTOR, "demo.load", "database", "", None, {
            "seed": self.seed, "drivers": self.n, "today": self.today.isoformat(), "force": self.force,
            "rows": counts,
            "note": "Dados de demonstração gerados em lote: uma entrada resume a carga (não uma por registro).",
        })


# ----------------------------------------------------------------------------------------------- small helpers

def _auto_statuses() -> tuple[str, ...]:
    from desktop.models import AUTO_STATUSES

    return tuple(AUTO_STATUSES)


def _notification_forms() -> tuple[str, ...]:
    from desktop.models import NOTIFICATION_FORMS

    return tuple(NOTIFICATION_FORMS)


def _tz():
    from desktop.models.types import LOCAL_TZ

    return LOCAL_TZ
