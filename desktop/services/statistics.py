"""Statistics for the secretary (issue 16: Relatórios → Estatísticas, and the monthly management report).

Each statistic is one function `(db, actor, period) -> StatTable`: a title, the column headers in Portuguese, the
rows (one per month, or per month and code), and the series the chart draws. Every figure comes from SQL
aggregates grouped by month (never a list loaded into Python and counted), so each answers in well under half a
second with the 100,000-driver database (bench/bench_statistics.py).

Months are the office's months (America/Cuiabá): a date column gives its month directly; a date-time column is
moved to the office's zone first (PostgreSQL `AT TIME ZONE`, SQLite by the zone's offset in the period — fixed at
UTC−4 since Cuiabá stopped daylight saving in 2019).

What each statistic counts (choices noted on the issue):
- authorizations by status at the end of each month: the status changes recorded in `authorization_events`
  (from → to, on `effective_on`, else the day recorded), summed from the first event — the stock at the end of a
  month is what entered a status minus what left it up to that month;
- new authorizations per month: first activations (`activated_on`); renewals keep their number (Art. 3 §2);
- time from request to activation: days from the protocol to the activation, median and 90th percentile, by
  month of activation;
- inspections done and failed, by month performed (no-shows apart: Art. 26 II);
- autos per code and month (drawn up; cancelled autos — errors of the auto itself — left out), and the
  recurrences (autos marked as recurrence, Art. 26 §§1–2) per month;
- revenue per month: fines (ledger payments, minus payments reversed), fees paid (Art. 10) and ISSQN guides paid
  (Art. 11), in reais, by the payment date;
- dívida ativa: the autos registered there and what they still owe, by the month their payment term ended.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from statistics import median, quantiles

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import aliased

from decimal import ROUND_HALF_EVEN

from desktop.domain.money import round_places
from desktop.domain.clock import TIMEZONE, today
from desktop.domain.formatting import format_decimal, format_integer, format_money, month_name
from desktop.domain.roles import STATISTICS_ROLES
from desktop.domain.workflow import AuthorizationStatus
from desktop.domain.problems import Problem
from desktop.errors import ValidationError
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.models import AuthorizationEvent as E
from desktop.models import Authorization as A
from desktop.models import Inspection as I
from desktop.models import Auto
from desktop.models import Fee
from desktop.models import PaymentGuide as G
from desktop.reports import records
from desktop.reports import statistics as report

READER_ROLES = STATISTICS_ROLES.read
MAX_MONTHS = 120


# --------------------------------------------------------------------------------------------------- the period

@dataclass(frozen=True, slots=True, order=True)
class Month:
    year: int
    month: int

    @classmethod
    def of(cls, d: date) -> Month:
        return cls(d.year, d.month)

    @classmethod
    def parse(cls, key: str) -> Month:
        year, month = key.split("-")
        return cls(int(year), int(month))

    @property
    def key(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    @property
    def label(self) -> str:
        return f"{month_name(self.month)[:3]}/{self.year}"

    @property
    def first_day(self) -> date:
        return date(self.year, self.month, 1)

    def next(self) -> Month:
        return Month(self.year + (self.month == 12), 1 if self.month == 12 else self.month + 1)

    def previous(self) -> Month:
        return Month(self.year - (self.month == 1), 12 if self.month == 1 else self.month - 1)


@dataclass(frozen=True, slots=True)
class Period:
    """From the first day of `first` to the last day of `last`, both months included."""

    first: Month
    last: Month

    @classmethod
    def last_months(cls, count: int = 12, until: date | None = None) -> Period:
        last = Month.of(until or today())
        first = last
        for _ in range(count - 1):
            first = first.previous()
        return cls(first, last)

    @property
    def months(self) -> list[Month]:
        out, m = [], self.first
        while m <= self.last:
            out.append(m)
            m = m.next()
        return out

    @property
    def start(self) -> date:
        return self.first.first_day

    @property
    def end(self) -> date:
        """The day after the last month (exclusive bound)."""
        return self.last.next().first_day

    @property
    def label(self) -> str:
        return self.first.label if self.first == self.last else f"{self.first.label} a {self.last.label}"


def period_problems(period: Period) -> list[Problem]:
    problems = []
    if period.first > period.last:
        problems.append(Problem("period", "O mês inicial é posterior ao mês final."))
    elif len(period.months) > MAX_MONTHS:
        problems.append(Problem("period", f"Escolha um período de até {MAX_MONTHS} meses."))
    if period.first.year < 1900 or period.last.year > 2100:
        problems.append(Problem("period", "Período fora do intervalo de 1900 a 2100."))
    return problems


# ----------------------------------------------------------------------------------------------------- results

@dataclass(frozen=True, slots=True)
class Series:
    name: str
    values: tuple[float, ...]


TEXT, INT, MONEY, DEC1, PCT = "text", "int", "money", "dec1", "pct"


def cell_text(value, kind: str) -> str:
    """A cell as the screen and the PDF show it (pt-BR); None is an empty cell, a dash where a rate has no base."""
    if value is None:
        return "—" if kind in (DEC1, PCT) else ""
    if kind == INT:
        return format_integer(int(value))
    if kind == MONEY:
        return format_money(Decimal(value))
    if kind == DEC1:
        return format_decimal(round_places(Decimal(str(value)), 1, ROUND_HALF_EVEN), 1)
    if kind == PCT:
        return f"{format_decimal(round_places(Decimal(str(value)), 1, ROUND_HALF_EVEN), 1)} %"
    return str(value)


@dataclass(frozen=True, slots=True)
class StatTable:
    """`values`: the rows as numbers (int, Decimal, float) and labels, for Excel; `kinds` says how each column
    prints; `rows` / `totals` are the same cells as text, for the screen and the PDF."""
    key: str
    title: str
    subtitle: str
    headers: tuple[str, ...]
    kinds: tuple[str, ...]
    values: tuple[tuple, ...]
    months: tuple[str, ...]                 # the x axis (month labels)
    series: tuple[Series, ...]              # one line/bar per series
    chart: str = "bar"                      # "bar" | "stacked" | "line"
    unit: str = ""                          # axis label
    total_values: tuple = field(default=())

    @property
    def rows(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(cell_text(v, k) for v, k in zip(row, self.kinds)) for row in self.values)

    @property
    def totals(self) -> tuple[str, ...]:
        return tuple(cell_text(v, k) for v, k in zip(self.total_values, self.kinds))

    @property
    def empty(self) -> bool:
        return all(not any(s.values) for s in self.series)


# -------------------------------------------------------------------------------------------- month expressions

def _offset_hours(period: Period) -> int:
    offset = TIMEZONE.utcoffset(datetime.combine(period.start, time(12)))
    return int(offset.total_seconds() // 3600)


def month_of_date(session, column):
    """'AAAA-MM' of a DATE column, on both databases."""
    if session.get_bind().dialect.name == "sqlite":
        return func.substr(column, 1, 7)
    return func.to_char(column, "YYYY-MM")


def month_of_moment(session, column, period: Period):
    """'AAAA-MM' of a date-time column in the office's zone."""
    if session.get_bind().dialect.name == "sqlite":
        return func.strftime("%Y-%m", column, f"{_offset_hours(period):+d} hours")
    return func.to_char(func.timezone(TIMEZONE.key, column), "YYYY-MM")


def _moment_bounds(period: Period) -> tuple[datetime, datetime]:
    return (datetime.combine(period.start, time(0), TIMEZONE), datetime.combine(period.end, time(0), TIMEZONE))


def _check(actor: Actor, period: Period) -> None:
    require_role(actor, *READER_ROLES)
    problems = period_problems(period)
    if problems:
        raise ValidationError(problems)


# ------------------------------------------------------------------------------------------------ authorizations

SHOWN_STATUSES = (AuthorizationStatus.REQUESTED, AuthorizationStatus.IN_ANALYSIS, AuthorizationStatus.APPROVED,
                  AuthorizationStatus.ACTIVE, AuthorizationStatus.IMPEDED, AuthorizationStatus.SUSPENDED)
ENDED_STATUSES = (AuthorizationStatus.REFUSED, AuthorizationStatus.REVOKED, AuthorizationStatus.CASSADA,
                  AuthorizationStatus.EXPIRED)


def authorizations_by_status_in(s, actor: Actor, period: Period) -> StatTable:
    """The authorizations in each status at the end of each month, from the status changes recorded."""

    _check(actor, period)
    day = func.coalesce(E.effective_on, func.date(E.at)) if s.get_bind().dialect.name == "sqlite" \
        else func.coalesce(E.effective_on, func.date(func.timezone(TIMEZONE.key, E.at)))
    month = month_of_date(s, day).label("m")
    changed = or_(E.from_status.is_(None), E.from_status != E.to_status)
    stmt = (select(month, E.from_status, E.to_status, func.count())
            .where(changed, day < period.end).group_by(month, E.from_status, E.to_status))
    flows: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for m, src, dst, n in s.execute(stmt):
        key = m if m >= period.first.key else "antes"
        flows[key][dst] += n
        if src is not None:
            flows[key][src] -= n
    level: dict[str, int] = defaultdict(int)
    for status, n in flows.get("antes", {}).items():
        level[status] += n
    statuses = SHOWN_STATUSES + ENDED_STATUSES
    per_month: list[dict[str, int]] = []
    for m in period.months:
        for status, n in flows.get(m.key, {}).items():
            level[status] += n
        per_month.append({st.value: max(level[st.value], 0) for st in statuses})
    headers = ("Mês",) + tuple(st.label for st in SHOWN_STATUSES) + ("Encerradas (total)",)
    values = tuple((m.label,) + tuple(c[st.value] for st in SHOWN_STATUSES)
                   + (sum(c[st.value] for st in ENDED_STATUSES),) for m, c in zip(period.months, per_month))
    series = tuple(Series(st.label, tuple(float(c[st.value]) for c in per_month)) for st in SHOWN_STATUSES)
    return StatTable("authorizations_by_status", "Autorizações por situação",
                     f"Situação no último dia de cada mês — {period.label}", headers,
                     (TEXT,) + (INT,) * (len(headers) - 1), values,
                     tuple(m.label for m in period.months), series, chart="stacked", unit="autorizações")


def new_authorizations_in(s, actor: Actor, period: Period) -> StatTable:
    """First activations per month (a renewal keeps the authorization and its number: Art. 3 §2)."""

    _check(actor, period)
    month = month_of_date(s, A.activated_on).label("m")
    counts = dict(s.execute(select(month, func.count()).where(A.activated_on >= period.start,
                                                              A.activated_on < period.end).group_by(month)).all())
    values = [counts.get(m.key, 0) for m in period.months]
    return StatTable("new_authorizations", "Novas autorizações por mês",
                     f"Autorizações ativadas pela primeira vez — {period.label}", ("Mês", "Novas autorizações"),
                     (TEXT, INT), tuple((m.label, v) for m, v in zip(period.months, values)),
                     tuple(m.label for m in period.months), (Series("Novas", tuple(map(float, values))),),
                     unit="autorizações", total_values=("Total", sum(values)))


def time_to_activation_in(s, actor: Actor, period: Period) -> StatTable:
    """Days from the request (protocol) to the activation, by month of activation: median and 90th percentile."""

    _check(actor, period)
    if s.get_bind().dialect.name == "sqlite":
        days = func.julianday(A.activated_on) - func.julianday(A.protocol_date)
    else:
        days = A.activated_on - A.protocol_date
    month = month_of_date(s, A.activated_on)
    rows_db = s.execute(select(month, days).where(A.activated_on >= period.start, A.activated_on < period.end,
                                                  A.protocol_date.is_not(None))).all()
    by_month: dict[str, list[float]] = defaultdict(list)
    for m, d in rows_db:
        by_month[m].append(float(d))
    med, p90, count = [], [], []
    for m in period.months:
        values = by_month.get(m.key, [])
        count.append(len(values))
        med.append(float(median(values)) if values else 0.0)
        p90.append(float(quantiles(values, n=10, method="inclusive")[-1]) if len(values) >= 2
                   else (values[0] if values else 0.0))
    values = tuple((m.label, n, a if n else None, b if n else None)
                   for m, n, a, b in zip(period.months, count, med, p90))
    return StatTable("time_to_activation", "Tempo do requerimento à ativação",
                     f"Dias corridos do protocolo à ativação, por mês de ativação — {period.label}",
                     ("Mês", "Ativações", "Mediana (dias)", "90% em até (dias)"), (TEXT, INT, DEC1, DEC1), values,
                     tuple(m.label for m in period.months),
                     (Series("Mediana", tuple(med)), Series("90º percentil", tuple(p90))), chart="line", unit="dias")


# ------------------------------------------------------------------------------------------------- inspections

def inspections_in(s, actor: Actor, period: Period) -> StatTable:
    """Inspections done (approved and failed) and no-shows per month (Art. 9, 16; Art. 26 II)."""

    _check(actor, period)
    moment = func.coalesce(I.performed_at, I.scheduled_start)
    month = month_of_moment(s, moment, period).label("m")
    start, end = _moment_bounds(period)
    stmt = (select(month, I.status, I.result, func.count())
            .where(moment >= start, moment < end, I.status.in_(("done", "no_show")))
            .group_by(month, I.status, I.result))
    approved, failed, no_show = defaultdict(int), defaultdict(int), defaultdict(int)
    for m, status, result, n in s.execute(stmt):
        if status == "no_show":
            no_show[m] += n
        elif result == "failed":
            failed[m] += n
        else:
            approved[m] += n
    keys = [m.key for m in period.months]
    values = tuple((m.label, approved[k] + failed[k], approved[k], failed[k],
                    Decimal(100 * failed[k]) / (approved[k] + failed[k]) if approved[k] + failed[k] else None,
                    no_show[k]) for m, k in zip(period.months, keys))
    return StatTable("inspections", "Vistorias realizadas e reprovadas",
                     f"Por mês de realização — {period.label}",
                     ("Mês", "Realizadas", "Aprovadas", "Reprovadas", "Reprovação", "Não comparecimentos"),
                     (TEXT, INT, INT, INT, PCT, INT), values,
                     tuple(m.label for m in period.months),
                     (Series("Aprovadas", tuple(float(approved[k]) for k in keys)),
                      Series("Reprovadas", tuple(float(failed[k]) for k in keys)),
                      Series("Não comparecimentos", tuple(float(no_show[k]) for k in keys))),
                     chart="stacked", unit="vistorias",
                     total_values=("Total", sum(approved.values()) + sum(failed.values()), sum(approved.values()),
                                   sum(failed.values()), None, sum(no_show.values())))


# ------------------------------------------------------------------------------------------------------- autos

def _autos_by_code(s, period: Period, only_recurrence: bool) -> tuple[dict[str, dict[str, int]], list[str]]:

    month = month_of_moment(s, Auto.drawn_up_at, period).label("m")
    start, end = _moment_bounds(period)
    conditions = [Auto.drawn_up_at >= start, Auto.drawn_up_at < end, Auto.status != "cancelled"]
    if only_recurrence:
        conditions.append(Auto.recurrence.is_(True))
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for m, code, n in s.execute(select(month, Auto.code, func.count()).where(*conditions)
                                .group_by(month, Auto.code)):
        counts[code][m] += n
    codes = sorted(counts, key=lambda c: (-sum(counts[c].values()), c))
    return counts, codes


def autos_by_code_in(s, actor: Actor, period: Period) -> StatTable:
    """Autos de infração drawn up per catalogue code and month (cancelled autos left out)."""
    _check(actor, period)
    counts, codes = _autos_by_code(s, period, only_recurrence=False)
    keys = [m.key for m in period.months]
    values = tuple((code,) + tuple(counts[code][k] for k in keys) + (sum(counts[code].values()),) for code in codes)
    month_totals = [sum(counts[c][k] for c in codes) for k in keys]
    shown = codes[:8]
    series = [Series(code, tuple(float(counts[code][k]) for k in keys)) for code in shown]
    if len(codes) > len(shown):
        series.append(Series("Outros códigos", tuple(float(sum(counts[c][k] for c in codes[8:])) for k in keys)))
    return StatTable("autos_by_code", "Autos de infração por código",
                     f"Autos lavrados por código do catálogo e mês — {period.label}",
                     ("Código",) + tuple(m.label for m in period.months) + ("Total",),
                     (TEXT,) + (INT,) * (len(keys) + 1), values,
                     tuple(m.label for m in period.months), tuple(series), chart="stacked", unit="autos",
                     total_values=("Total",) + tuple(month_totals) + (sum(month_totals),))


def recurrences_in(s, actor: Actor, period: Period) -> StatTable:
    """Autos drawn up as recurrences (Art. 26 §§1–2: a second infraction within 12 months)."""
    _check(actor, period)
    counts, codes = _autos_by_code(s, period, only_recurrence=True)
    all_counts, _ = _autos_by_code(s, period, only_recurrence=False)
    keys = [m.key for m in period.months]
    rec = [sum(counts[c][k] for c in codes) for k in keys]
    total = [sum(v[k] for v in all_counts.values()) for k in keys]
    values = tuple((m.label, r, t, Decimal(100 * r) / t if t else None)
                   for m, r, t in zip(period.months, rec, total))
    return StatTable("recurrences", "Reincidências",
                     f"Autos lavrados como reincidência (Art. 26, §§ 1º e 2º) — {period.label}",
                     ("Mês", "Reincidências", "Autos no mês", "Proporção"), (TEXT, INT, INT, PCT), values,
                     tuple(m.label for m in period.months), (Series("Reincidências", tuple(map(float, rec))),),
                     unit="autos", total_values=("Total", sum(rec), sum(total), None))


# ------------------------------------------------------------------------------------------------------ revenue

def _fine_revenue(s, period: Period) -> dict[str, Decimal]:
    from desktop.models import LedgerEntry as E  # local: its name stands for something else at module level

    origin = aliased(E)
    month = month_of_date(s, E.effective_on).label("m")
    is_payment = or_(E.kind == "payment", and_(E.kind == "reversal", origin.kind == "payment"))
    stmt = (select(month, func.sum(E.amount_reais)).outerjoin(origin, origin.id == E.reverses_id)
            .where(is_payment, E.effective_on >= period.start, E.effective_on < period.end).group_by(month))
    return {m: -(v or Decimal(0)) for m, v in s.execute(stmt)}


def _fee_revenue(s, period: Period) -> dict[str, Decimal]:

    month = month_of_date(s, Fee.paid_on).label("m")
    stmt = (select(month, func.sum(func.coalesce(Fee.paid_amount, Fee.amount_reais)))
            .where(Fee.status == "paid", Fee.paid_on >= period.start, Fee.paid_on < period.end).group_by(month))
    return {m: v or Decimal(0) for m, v in s.execute(stmt)}


def _issqn_revenue(s, period: Period) -> dict[str, Decimal]:

    month = month_of_date(s, G.paid_on).label("m")
    stmt = (select(month, func.sum(func.coalesce(G.paid_amount, G.amount_reais)))
            .where(G.purpose == "issqn", G.status == "paid", G.paid_on >= period.start, G.paid_on < period.end)
            .group_by(month))
    return {m: v or Decimal(0) for m, v in s.execute(stmt)}


def revenue_in(s, actor: Actor, period: Period) -> StatTable:
    """What was collected per month, by the payment date: fines (Art. 25), fees (Art. 10), ISSQN (Art. 11)."""
    _check(actor, period)
    fines, fees, issqn = _fine_revenue(s, period), _fee_revenue(s, period), _issqn_revenue(s, period)
    keys = [m.key for m in period.months]
    zero = Decimal("0.00")
    values = tuple((m.label, fines.get(k, zero), fees.get(k, zero), issqn.get(k, zero),
                    fines.get(k, zero) + fees.get(k, zero) + issqn.get(k, zero))
                   for m, k in zip(period.months, keys))
    tf, te, ti = (sum((d.get(k, zero) for k in keys), zero) for d in (fines, fees, issqn))
    return StatTable("revenue", "Arrecadação por mês",
                     f"Valores recebidos, pela data do pagamento — {period.label}",
                     ("Mês", "Multas", "Taxas", "ISSQN", "Total"), (TEXT, MONEY, MONEY, MONEY, MONEY), values,
                     tuple(m.label for m in period.months),
                     (Series("Multas", tuple(float(fines.get(k, zero)) for k in keys)),
                      Series("Taxas", tuple(float(fees.get(k, zero)) for k in keys)),
                      Series("ISSQN", tuple(float(issqn.get(k, zero)) for k in keys))),
                     chart="stacked", unit="R$",
                     total_values=("Total", tf, te, ti, tf + te + ti))


def divida_ativa_in(s, actor: Actor, period: Period) -> StatTable:
    """Autos registered in the dívida ativa and what they still owe, by the month their payment term ended."""
    from desktop.models import Auto, LedgerEntry as E  # local: its name stands for something else at module level

    _check(actor, period)
    sums = (select(E.auto_id.label("auto_id"), func.sum(E.amount_reais).label("owed"))
            .where(E.auto_id.is_not(None)).group_by(E.auto_id).subquery())
    month = month_of_date(s, Auto.payment_deadline).label("m")
    stmt = (select(month, func.count(), func.sum(sums.c.owed)).join(sums, sums.c.auto_id == Auto.id)
            .where(Auto.status == "divida_ativa", Auto.payment_deadline >= period.start,
                   Auto.payment_deadline < period.end).group_by(month))
    counts, owed = {}, {}
    for m, n, v in s.execute(stmt):
        counts[m], owed[m] = n, v or Decimal("0.00")
    keys = [m.key for m in period.months]
    zero = Decimal("0.00")
    values = tuple((m.label, counts.get(k, 0), owed.get(k, zero)) for m, k in zip(period.months, keys))
    return StatTable("divida_ativa", "Dívida ativa",
                     f"Autos inscritos em dívida ativa e saldo devedor, por mês de vencimento — {period.label}",
                     ("Mês de vencimento", "Autos", "Saldo devedor"), (TEXT, INT, MONEY), values,
                     tuple(m.label for m in period.months),
                     (Series("Saldo devedor (R$)", tuple(float(owed.get(k, zero)) for k in keys)),),
                     unit="R$", total_values=("Total", sum(counts.values()), sum(owed.values(), zero)))


# ------------------------------------------------------------------------------------------------- the catalogue

@dataclass(frozen=True, slots=True)
class StatDef:
    key: str
    title: str
    compute: Callable


STATISTICS: tuple[StatDef, ...] = (
    StatDef("authorizations_by_status", "Autorizações por situação", authorizations_by_status_in),
    StatDef("new_authorizations", "Novas autorizações por mês", new_authorizations_in),
    StatDef("time_to_activation", "Tempo do requerimento à ativação", time_to_activation_in),
    StatDef("inspections", "Vistorias realizadas e reprovadas", inspections_in),
    StatDef("autos_by_code", "Autos de infração por código", autos_by_code_in),
    StatDef("recurrences", "Reincidências", recurrences_in),
    StatDef("revenue", "Arrecadação por mês", revenue_in),
    StatDef("divida_ativa", "Dívida ativa", divida_ativa_in),
)
BY_KEY = {d.key: d for d in STATISTICS}


def statistic_in(s, actor: Actor, key: str, period: Period) -> StatTable:
    try:
        definition = BY_KEY[key]
    except KeyError:
        raise ValidationError([Problem("statistic", f"Estatística desconhecida: {key}.")]) from None
    return definition.compute(s, actor, period)


def statistic(db, actor: Actor, key: str, period: Period) -> StatTable:
    """One statistic for the period (read-only transaction)."""
    with db.session(write=False) as s:
        return statistic_in(s, actor, key, period)


def all_statistics(db, actor: Actor, period: Period, state=None) -> list[StatTable]:
    """Every statistic for the period, in the catalogue's order (the management report)."""
    out = []
    with db.session(write=False) as s:
        for i, definition in enumerate(STATISTICS):
            if state is not None:
                state.progress(i, len(STATISTICS), definition.title)
                state.check()
            out.append(definition.compute(s, actor, period))
    return out


# ------------------------------------------------------------------------------------------- PDF, XLSX, report

def _period_ref(period: Period):
    from desktop.services.documents import RecordRef  # lazy: ReportLab and the archive load only when a PDF is made

    return RecordRef("period", period.last.year * 100 + period.last.month)


def export_pdf(db, actor: Actor, keys, period: Period, state=None):
    """The chosen statistics as a numbered, archived PDF (charts with their tables). Returns the `Issued`."""
    from desktop.services.documents import issue_rendered  # lazy: ReportLab and the archive load only when a PDF is made

    keys = list(keys)
    for key in keys:
        if key not in BY_KEY:
            raise ValidationError([Problem("statistic", f"Estatística desconhecida: {key}.")])
    _check(actor, period)

    def build(s, meta):
        tables = tuple(statistic_in(s, actor, key, period) for key in keys)
        title = tables[0].title if len(tables) == 1 else "Estatísticas"
        return _period_ref(period), report.StatisticsContext(records.header(s), meta, title.upper(),
                                                              f"Período: {period.label}", tables)

    return issue_rendered(db, actor, "statistics", build, report.render, state=state)


def export_xlsx(db, actor: Actor, keys, period: Period) -> bytes:
    """The chosen statistics as an Excel workbook, one sheet each, numbers as numbers."""

    with db.session(write=False) as s:
        tables = [statistic_in(s, actor, key, period) for key in keys]
    return report.render_xlsx(tables)


def report_summary(tables: dict[str, StatTable], month: Month) -> tuple[tuple[str, str], ...]:
    """The management report's key figures for its month, read from the month's row of each statistic."""
    def row(key: str) -> tuple:
        table = tables[key]
        return next((r for r in table.values if r[0] == month.label), ())

    status = tables["authorizations_by_status"]
    active = row("authorizations_by_status")
    active_count = active[status.headers.index(AuthorizationStatus.ACTIVE.label)] if active else 0
    inspections, revenue, new = row("inspections"), row("revenue"), row("new_authorizations")
    autos = tables["autos_by_code"]
    col = autos.headers.index(month.label) if month.label in autos.headers else None
    autos_month = sum(r[col] for r in autos.values) if col is not None else 0
    debt = tables["divida_ativa"].total_values
    return (
        ("Autorizações ativas no fim do mês", cell_text(active_count, INT)),
        ("Novas autorizações no mês", cell_text(new[1] if new else 0, INT)),
        ("Vistorias realizadas / reprovadas", f"{cell_text(inspections[1] if inspections else 0, INT)} / "
                                              f"{cell_text(inspections[3] if inspections else 0, INT)}"),
        ("Autos de infração lavrados no mês", cell_text(autos_month, INT)),
        ("Arrecadação do mês (multas, taxas, ISSQN)", cell_text(revenue[4] if revenue else 0, MONEY)),
        ("Dívida ativa (autos inscritos, saldo dos 12 meses)",
         f"{cell_text(debt[1], INT)} — {cell_text(debt[2], MONEY)}" if debt else "—"),
    )


def management_report(db, actor: Actor, month: Month, state=None):
    """The monthly management report (relatório gerencial) for the secretary: the month's key figures, then every
    statistic over the 12 months ending with it. Numbered and archived; gestor and administrador."""
    from desktop.services.documents import issue_rendered  # lazy: ReportLab and the archive load only when a PDF is made

    require_role(actor, *STATISTICS_ROLES.report)
    if month > Month.of(today()):
        raise ValidationError([Problem("month", "O mês do relatório ainda não começou.")])
    period = Period.last_months(12, month.first_day)
    _check(actor, period)

    def build(s, meta):
        tables = {}
        for i, definition in enumerate(STATISTICS):
            if state is not None:
                state.progress(i, len(STATISTICS) + 1, definition.title)
                state.check()
            tables[definition.key] = definition.compute(s, actor, period)
        return _period_ref(period), report.StatisticsContext(
            records.header(s), meta, "RELATÓRIO GERENCIAL MENSAL",
            f"{month_name(month.month, capital=True)} de {month.year} — séries de {period.label}",
            tuple(tables.values()), report_summary(tables, month))

    if state is not None:
        state.progress(0, len(STATISTICS) + 1, "Calculando as estatísticas…")
    return issue_rendered(db, actor, "management_report", build, report.render, state=state)


__all__ = ["export_pdf", "export_xlsx", "management_report", "report_summary", "BY_KEY", "Month", "Period", "STATISTICS", "Series", "StatTable", "all_statistics", "period_problems",
           "statistic", "statistic_in"]
