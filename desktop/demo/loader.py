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

Everything random comes from `random.Random(seed)` in a fixed order, so the same seed (and the same `today`)
gives the same records on SQLite and PostgreSQL. Rows are built as tuples and written through the driver
(`BulkWriter`), the way NOTES.md measured to be fastest.
"""
from __future__ import annotations

import random
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal

from desktop.demo import values as V
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

# Inspection checklist lines (Art. 2 §1; Art. 13 XIII-XV; Art. 14; Art. 15, parágrafo único, I-VIII).
INSPECTION_ITEMS = (
    "doors_4", "air_conditioning", "seats_max_7", "original_characteristics", "mandatory_equipment",
    "ctb_requirements", "compulsory_insurance", "hygiene", "no_damage", "no_external_stickers",
    "municipal_sticker", "registered_in_municipality",
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

    def _deadline(self, start: date, days: int) -> date:
        from desktop.domain import deadline

        return deadline(start, days, self.calendar)

    def _business(self, d: date) -> date:
        return self.calendar.next_business_day(d)

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
                if status == "expired":
                    fee = self._rand_day(law_day + timedelta(days=15), today - timedelta(days=380))
                    if year + 10 < today.year:
                        fee = self._rand_day(law_day + timedelta(days=15), date(year + 10, 11, 30))
                else:
                    fee = self._rand_day(max(law_day + timedelta(days=15), today - timedelta(days=350)),
                                         today - timedelta(days=15))
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
                if status == "active" and fee < today - timedelta(days=300) and rng.random() < 0.5:
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
                    start = self._rand_day(r["activated"] + timedelta(days=20), today - timedelta(days=1))
                    start = max(r["activated"], min(start, today - timedelta(days=1)))
                    r["suspended_on"] = start
                    months12 = i % 2 == 0
                    r["suspension_code"] = "ART26-VI" if months12 else "ART26-IV"
                    r["suspended_until"] = term_end(start, 12) if months12 else start + timedelta(days=30)
                    if r["suspended_until"] <= today:
                        r["suspended_until"] = today + timedelta(days=self.ri(3, 25))
                elif status in ("revoked", "cassada"):
                    r["ended"] = self._rand_day(r["activated"] + timedelta(days=10), today - timedelta(days=1))
                    r["ended"] = max(r["activated"], min(r["ended"], today - timedelta(days=1), r["valid_until"]))
            recs.append(r)
        self.recs = recs
        # Numbers at activation, consecutive per year in activation order (no gaps, no repeats).
        order = sorted((r for r in recs if "activated" in r), key=lambda r: (r["activated"], r["i"]))
        for r in order:
            r["number"] = self._number("authorization", r["activated"].year)
        self._write_authorizations()

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
            ev(None, "requested", r["protocol"], clerks[i & 1], "Pedido protocolado (Art. 3).")
            if r.get("analysis"):
                ev("requested", "in_analysis", r["analysis"], clerks[i & 1], "Conferência dos documentos (Art. 12).")
            if status == "refused":
                ev("in_analysis", "refused", decided, gestor, reason, act=f"Despacho {aid}/{decided.year}")
                continue
            if decided:
                ev("in_analysis", "approved", decided, gestor, "Pedido aprovado (Art. 3; Art. 12).",
                   act=f"Despacho {aid}/{decided.year}")
            if "activated" not in r:
                continue
            ev("approved", "active", r["activated"], clerks[i & 1],
               "Taxa paga e vistoria " + ("dispensada (Art. 9, §1)." if r.get("waived") else "aprovada (Art. 9; Art. 10)."))
            if r.get("renewal_fee"):
                ev("active", "active", r["renewal_fee"], clerks[i & 1],
                   "Renovação: nova taxa paga" + (" (pedido fora do prazo do Art. 3, §2)." if r.get("renewal_late")
                                                  else " (pedido tempestivo, Art. 3, §2)."), kind="renewal")
            if status == "expired":
                ev("active", "expired", r["ended"], None, "Prazo de validade encerrado (Art. 3, §1).")
            elif status == "impeded":
                ev("active", "impeded", r["failed_on"], self.inspectors[i & 1],
                   "Veículo reprovado na vistoria; prazo de 5 dias para regularizar (Art. 16, §2).")
            elif status == "suspended":
                r["suspension_event"] = len(events)
                ev("active", "suspended", r["suspended_on"], gestor,
                   f"Suspensão até {r['suspended_until']:%d/%m/%Y} "
                   + ("(Art. 26, VI; Art. 24, parágrafo único)." if r["suspension_code"] == "ART26-VI"
                      else "(reincidência do Art. 26, IV — Art. 26, §1)."))
            elif status == "revoked":
                ev("active", "revoked", r["ended"], gestor, self.pick((
                    "Revogação a pedido do condutor.", "Revogação: veículo vendido sem substituição (Art. 8, §2).",
                    "Revogação por descumprimento reiterado das obrigações do Art. 13 (Art. 24, I, c).")))
            elif status == "cassada":
                r["cassation_event"] = len(events)
                ev("active", "cassada", r["ended"], gestor,
                   "Cassação por reincidência em agressão a agente fiscalizador (Art. 26, §2).")
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
                for key in INSPECTION_ITEMS:
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
    def _autos(self) -> None:
        from desktop.domain import ART13_DUTIES, CATALOG

        rng, w, today = self.rng, self.w, self.today
        statuses = [s for s in _auto_statuses()]
        codes = list(CATALOG)
        # Autos tied to the authorizations' history first (suspensions, cassations, no-shows), then a random mix
        # that covers every code in every status (11 statuses × 7 codes are coprime: 77 pairs cycle through all).
        plans = []
        for r in self.recs:
            if r["status"] == "suspended":
                plans.append((r, r["suspension_code"], "final", r["suspended_on"] - timedelta(days=40), True))
            elif r["status"] == "cassada":
                plans.append((r, "ART26-V", "paid", r["ended"] - timedelta(days=200), False))
                plans.append((r, "ART26-V", "final", r["ended"] - timedelta(days=30), True))
            elif r.get("no_show") and r["i"] % 2 == 0:
                plans.append((r, "ART26-I", "drawn_up", self._business(r["decided"] + timedelta(days=6)), False))
        extra = max(len(statuses) * len(codes), self.n * 6 // 100)
        pool = [r for r in self.recs if "activated" in r]
        if not pool:
            pool = self.recs
        for k in range(extra):
            r = pool[rng.randrange(len(pool))]
            status = statuses[k % len(statuses)]
            code = codes[k % len(codes)]
            plans.append((r, code, status, None, False))
        # Dates: each status needs a drawn-up date old enough for its steps.
        age = {"drawn_up": (1, 10), "notified": (8, 20), "in_defense": (20, 40), "judged": (40, 60),
               "in_appeal": (60, 80), "final": (80, 120), "paid": (90, 300), "overdue": (130, 250),
               "divida_ativa": (250, 400), "debt_register": (250, 400), "cancelled": (5, 200),
               "annulled": (40, 200)}
        dated = []
        for r, code, status, drawn, linked in plans:
            if drawn is None:
                lo, hi = age.get(status, (5, 60))
                drawn = today - timedelta(days=self.ri(lo, hi))
            # An auto about an authorized driver comes after the authorization started.
            drawn = max(drawn, date(2025, 6, 10), r.get("activated") or r["protocol"])
            dated.append((drawn, r["i"], code, status, r, linked))
        dated.sort(key=lambda x: (x[0], x[1], x[2]))

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
        self.auto_links: list[tuple[int, int]] = []   # (events index, auto id)
        for drawn, i, code, status, r, linked in dated:
            code_id, description, upfm = self.codes[code]
            year = drawn.year
            value = self.upfm[year]
            reais = _q2(upfm * value)
            number = self._number("auto", year)
            platform = status in ("notified", "final") and code in ("ART26-III", "ART27") and i % 4 == 0
            driver_id = None if platform else self.driver_ids[i]
            platform_id = self.active_platforms[i % len(self.active_platforms)] if platform else None
            drawn_at = self._dt(drawn, 8 + (i % 9), (i * 7) % 60)
            art13 = self.pick(list(ART13_DUTIES)) if code == "ART26-III" else None
            desc = description + (f" — Art. 13, {art13}: {ART13_DUTIES[art13]}" if art13 else "")
            step = _AUTO_ORDER.get(status, 0)
            joined = self._business(drawn + timedelta(days=self.ri(2, 6))) if step >= 1 else None
            defense_deadline = self._deadline(joined, self.defense_days) if joined else None
            appeal_deadline = final_on = payment_deadline = None
            reduced = None
            if step >= 2 or status == "annulled":
                def_rows.append((did, aid, "defense", w.d(min(defense_deadline, joined + timedelta(days=5))),
                                 "Defesa prévia alegando ausência de provas.", None, self.clerks[i & 1], 1, ts_now))
                did += 1
            if step >= 3 or status == "annulled":
                decided = min(today - timedelta(days=1), defense_deadline + timedelta(days=self.ri(3, 10)))
                outcome = "annulled" if status == "annulled" else (
                    "partly_upheld" if (i % 6 == 0 and code in ("ART26-IV", "ART26-VI")) else "upheld")
                if outcome == "partly_upheld":
                    reduced = (upfm / 2).quantize(Decimal("0.0001"))
                judg_rows.append((jid, aid, did - 1, "defense", w.d(decided), gestor, outcome, w.dec(reduced, 4),
                                  "Auto mantido: infração comprovada pelo agente." if outcome == "upheld" else
                                  "Auto anulado: vício na identificação do veículo." if outcome == "annulled" else
                                  "Multa reduzida à metade: circunstâncias atenuantes comprovadas.", 1, ts_now))
                jid += 1
                appeal_deadline = self._deadline(decided, self.appeal_days)
            if step >= 4:
                def_rows.append((did, aid, "appeal", w.d(appeal_deadline - timedelta(days=2)),
                                 "Recurso reiterando a defesa.", None, self.clerks[i & 1], 1, ts_now))
                did += 1
            if step >= 5:
                final_on = min(today - timedelta(days=1), (appeal_deadline or defense_deadline) + timedelta(days=1))
                payment_deadline = self._deadline(final_on, self.payment_days)
            if status == "overdue" and payment_deadline and payment_deadline >= today:
                payment_deadline = today - timedelta(days=1)
            if joined:
                notes_rows.append((nid, aid, "platform" if platform else "driver", forms[i % len(forms)],
                                   w.d(joined - timedelta(days=1)), w.d(joined), None, None, fiscal, 1, ts_now))
                nid += 1
            cancelled = status == "cancelled"
            # Art. 26 §1 (street boarding again) and §2 (aggression again) are recurrences.
            recurrence = linked and (code == "ART26-IV" or (code == "ART26-V" and status == "final"))
            auto_rows.append((
                aid, number, w.ts(drawn_at), self.pick(AUTO_PLACES), driver_id, platform_id,
                None if platform else self.vehicle_ids[i], None if platform else r["id"], code_id, code, art13, desc,
                fiscal, status, w.dec(upfm, 4), w.dec(value, 6), w.dec(reais, 2), recurrence, None, w.d(joined), w.d(defense_deadline),
                w.d(appeal_deadline), w.d(payment_deadline), w.d(final_on),
                "Erro na identificação da placa no auto." if cancelled else None, gestor if cancelled else None,
                w.at(min(today, drawn + timedelta(days=3)), 15) if cancelled else None, 1, ts_now,
            ))
            # Ledger (append-only): the debit when drawn up, then reductions, reversals and payments.
            debit_id = lid
            ledger_rows.append((lid, driver_id, platform_id, aid, "debit", w.dec(upfm, 4), w.dec(value, 6),
                                w.dec(reais, 2), w.d(drawn), w.ts(drawn_at), None, None, None, fiscal))
            lid += 1
            owed = upfm
            if reduced is not None:
                cut = reduced - upfm
                ledger_rows.append((lid, driver_id, platform_id, aid, "reduction", w.dec(cut, 4), w.dec(value, 6),
                                    w.dec(_q2(cut * value), 2), w.d(final_on or today), w.at(final_on or today, 11), None, None,
                                    "Redução decidida no julgamento da defesa.", gestor))
                lid += 1
                owed = reduced
            if status in ("cancelled", "annulled"):
                why = "Auto cancelado pelo gestor." if cancelled else "Auto anulado no julgamento da defesa."
                undone = min(today, drawn + timedelta(days=3)) if cancelled else today - timedelta(days=1)
                ledger_rows.append((lid, driver_id, platform_id, aid, "reversal", w.dec(-upfm, 4), w.dec(value, 6),
                                    w.dec(-reais, 2), w.d(undone), w.at(undone, 16), debit_id, None, why,
                                    gestor))
                lid += 1
            if step >= 5 and status not in ("cancelled", "annulled"):
                guide_number = self._number("guide", final_on.year)
                paid = status == "paid"
                paid_on = min(today, final_on + timedelta(days=self.ri(1, 20))) if paid else None
                amount_due = _q2(owed * value)
                guides.append((self.guide_seq, guide_number, "fine", w.dec(amount_due, 2), w.d(payment_deadline),
                               self.driver_names[i] if driver_id else self.platform_names[platform_id][0],
                               self.driver_cpfs[i] if driver_id else self.platform_names[platform_id][1], driver_id, platform_id,
                               None if platform else self.vehicle_ids[i], aid, None, "paid" if paid else "open",
                               w.d(paid_on), w.dec(amount_due if paid else None, 2), None, self.clerks[i & 1], 1,
                               ts_now))
                self.guide_seq += 1
                if paid:
                    ledger_rows.append((lid, driver_id, platform_id, aid, "payment", w.dec(-owed, 4),
                                        w.dec(value, 6), w.dec(-amount_due, 2), w.d(paid_on), w.at(paid_on, 14), None,
                                        guide_number, None, self.clerks[i & 1]))
                    lid += 1
            if code == "ART27" and status in ("final", "paid", "overdue") and driver_id:
                # Art. 27 sole paragraph / Art. 24 II d: vehicle seized; Art. 28: removal and storage costs.
                cost = Decimal(self.pick(("180.00", "240.00", "315.50")))
                measure_rows.append((mid, aid, driver_id, self.vehicle_ids[i], "vehicle_seizure", w.d(drawn),
                                     w.d(drawn + timedelta(days=self.ri(2, 9))), "Pátio municipal",
                                     w.dec(cost, 2), "Remoção por guincho e estada no pátio (Art. 28).", fiscal, 1,
                                     ts_now))
                mid += 1
                cost_upfm = (cost / value).quantize(Decimal("0.0001"))
                ledger_rows.append((lid, driver_id, None, aid, "costs", w.dec(cost_upfm, 4), w.dec(value, 6),
                                    w.dec(cost, 2), w.d(drawn + timedelta(days=2)), w.at(drawn + timedelta(days=2), 12), None, None,
                                    "Despesas de remoção e estada do veículo (Art. 28).", fiscal))
                lid += 1
            if linked and r["status"] in ("suspended", "cassada") and code in ("ART26-IV", "ART26-VI") \
                    or (linked and code == "ART26-V" and status == "final"):
                key = "suspension_event" if r["status"] == "suspended" else "cassation_event"
                if key in r:
                    self.auto_links.append((r[key], aid))
            aid += 1
        # Events that applied a penalty point at their auto.
        idx = self._event_cols.index("auto_id")
        for ev_index, auto_id in self.auto_links:
            row = self._events[ev_index]
            self._events[ev_index] = row[:idx] + (auto_id,) + row[idx + 1:]
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

_AUTO_ORDER = {"drawn_up": 0, "notified": 1, "in_defense": 2, "judged": 3, "in_appeal": 4, "final": 5,
               "paid": 5, "overdue": 5, "divida_ativa": 5, "debt_register": 5, "cancelled": 0, "annulled": 2}


def _auto_statuses() -> tuple[str, ...]:
    from desktop.models import AUTO_STATUSES

    return tuple(AUTO_STATUSES)


def _notification_forms() -> tuple[str, ...]:
    from desktop.models import NOTIFICATION_FORMS

    return tuple(NOTIFICATION_FORMS)


def _tz():
    from desktop.models.types import LOCAL_TZ

    return LOCAL_TZ
