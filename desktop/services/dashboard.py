"""The home dashboard (issue 16): what is due today, for the user's roles, as tiles — a count (SQL COUNT), a
severity, the list a click opens (`Target`: a module key and a filter the module's screen understands) and,
where the law gives one, the last timely day.

The counts reuse the queries of each room (their counting variants): `services.dashboard_queries` (the
conditions of the authorization, auto and driver lists), `inspections.annual`, `ledger`, `platform_lists`,
`data_requests`, `documents.stickers`, `changes`, `courses`; the audit checkpoint from `AuditCheckpoint`.
One read transaction; ≤ 300 ms on the 100,000-driver database (bench/bench_dashboard.py).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from types import MappingProxyType

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import Session

from desktop.domain.dates import local_now, renewal_request_deadline
from desktop.domain.roles import DASHBOARD_ROLES, Role
from desktop.models import AuditCheckpoint, Authorization, Auto, Driver, PaymentGuide
from desktop.services import changes, correspondence, courses, data_requests, ledger, platform_lists
from desktop.services.actors import Actor
from desktop.services.dashboard_queries import (
    Window,
    auto_condition,
    authorization_condition,
    driver_condition,
    window,
)
from desktop.services.documents.stickers import pending_sticker_count_in
from desktop.services.guide_debts import overdue_clause
from desktop.services.holidays import calendar_in
from desktop.services.inspections.annual import annual_due_count_in
from desktop.services.permissions import require_reader

OK, INFO, WARNING, DANGER = "ok", "info", "warning", "danger"
SEVERITIES = (OK, INFO, WARNING, DANGER)
SOON_DAYS = 3   # a last timely day within 3 days makes a tile "warning"


@dataclass(frozen=True)
class Target:
    """What a click on a tile opens: the main window's module key and a filter its screen's `open_filtered`
    understands (e.g. {"due": "renewal"} for Autorizações, {"tab": "overdue"} for Financeiro)."""

    module: str
    filter: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "filter", MappingProxyType(dict(self.filter)))


@dataclass(frozen=True)
class Tile:
    key: str
    title: str                      # pt-BR
    count: int
    severity: str                   # ok · info · warning · danger
    target: Target
    article: str = ""
    deadline: date | None = None    # the last timely day the law gives (the earliest among the tile's rows)
    deadline_label: str = ""        # what the day is ("Último dia para pedir no prazo", …)
    deadline_at: datetime | None = None   # a date-time term (Art. 4 §2: 24 hours) — the view counts it down
    detail: str = ""                # one more line (e.g. "3 com prazo vencido")


@dataclass(frozen=True)
class Dashboard:
    as_of: datetime
    tiles: tuple[Tile, ...]

    def tile(self, key: str) -> Tile:
        for t in self.tiles:
            if t.key == key:
                return t
        raise KeyError(key)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(t.key for t in self.tiles)


def _severity(count: int, deadline: date | None, today: date, overdue: bool = False) -> str:
    if not count:
        return OK
    if overdue or (deadline is not None and deadline < today):
        return DANGER
    if deadline is not None and deadline <= today + timedelta(days=SOON_DAYS):
        return WARNING
    return INFO


@dataclass(frozen=True)
class _Ctx:
    s: Session
    actor: Actor
    w: Window
    now: datetime
    calendar: object
    memo: dict = field(default_factory=dict)    # counts several tiles share, read once

    @property
    def today(self) -> date:
        return self.w.today


def _count_min(c: _Ctx, due: str, column=None, *extra) -> tuple[int, date | None]:
    """COUNT of a tile's authorizations and the MIN of one date column (only the columns its index holds)."""
    condition = and_(authorization_condition(due, c.w), *extra)
    if column is None:
        return int(c.s.scalar(select(func.count(Authorization.id)).where(condition)) or 0), None
    n, first = c.s.execute(select(func.count(Authorization.id), func.min(column)).where(condition)).one()
    return int(n or 0), first


def _count_split(c: _Ctx, due: str, column) -> tuple[int, int, date | None]:
    """One pass over a tile's rows: how many, how many whose `column` day has passed, and the next one ahead."""
    n, late, ahead = c.s.execute(select(
        func.count(Authorization.id), func.sum(case((column < c.today, 1), else_=0)),
        func.min(case((column >= c.today, column), else_=None))).where(authorization_condition(due, c.w))).one()
    return int(n or 0), int(late or 0), ahead


def _renewal(c: _Ctx) -> Tile:
    n, first_valid = _count_min(c, "renewal", Authorization.valid_until)
    in_time = _first_valid_in_time(c)
    late = _count_min(c, "renewal", None, Authorization.valid_until < in_time)[0] if n else 0
    # The day shown is the next last timely day still ahead; when every one has passed, the earliest missed.
    next_valid = _count_min(c, "renewal", Authorization.valid_until, Authorization.valid_until >= in_time)[1] \
        if n > late else first_valid
    deadline = renewal_request_deadline(next_valid, c.calendar) if next_valid else None
    return Tile("renewal", "Renovações a pedir", n, DANGER if late else _severity(n, deadline, c.today),
                Target("autorizacoes", {"due": "renewal"}), "Art. 3, §2", deadline,
                "Último dia para pedir no prazo" if n > late else "Prazo para pedir no prazo vencido em",
                detail=f"{late} já fora do prazo de 15 dias úteis" if late else "")


def _first_valid_in_time(c: _Ctx) -> date:
    """The first valid_until whose renewal may still be requested on time today (Art. 3, §2)."""
    day = c.today
    while renewal_request_deadline(day, c.calendar) < c.today:
        day += timedelta(days=1)
    return day


def _expiring(c: _Ctx) -> Tile:
    n, first = _count_min(c, "expiring", Authorization.valid_until)
    return Tile("expiring", "Autorizações vencendo em 30 dias", n, _severity(n, first, c.today),
                Target("autorizacoes", {"due": "expiring"}), "Art. 3, §1", first, "Primeiro vencimento")


def _last_service_year(c: _Ctx) -> Tile:
    n = _count_min(c, "last_service_year")[0]
    last_day = date(c.today.year, 12, 31)
    return Tile("last_service_year", "Veículos no último ano de serviço", n, INFO if n else OK,
                Target("autorizacoes", {"due": "last_service_year"}), "Art. 2, §§1º-2º", last_day,
                "Último dia de serviço")


def _annual(c: _Ctx) -> Tile:
    n = annual_due_count_in(c.s, c.actor, c.today)
    return Tile("annual_due", "Vistorias anuais devidas sem agendamento", n, WARNING if n else OK,
                Target("vistorias", {"tab": "annual"}), "Art. 16, caput")


def _convocation(c: _Ctx) -> Tile:
    n, late, first = _count_split(c, "convocation", Authorization.presentation_deadline)
    return Tile("convocation", "Convocados à vistoria sem agendamento", n,
                DANGER if late else _severity(n, first, c.today), Target("autorizacoes", {"due": "convocation"}),
                "Art. 9", first, "Próximo fim do prazo para apresentar o veículo",
                detail=f"{late} com o prazo de 5 dias vencido" if late else "")


def _impeded(c: _Ctx) -> Tile:
    n, ended, running_first = _count_split(c, "impeded", Authorization.regularize_by)
    return Tile("impeded", "Impedidas: prazo de 5 dias para regularizar", n,
                DANGER if ended else _severity(n, running_first, c.today),
                Target("autorizacoes", {"due": "impeded"}), "Art. 16, §2", running_first,
                "Fim do próximo prazo", detail=f"{ended} com prazo vencido (Art. 26, II)" if ended else "")


def _changes(c: _Ctx) -> Tile:
    n = changes.late_open_count_in(c.s, c.actor)
    return Tile("changes", "Comunicações de alteração fora do prazo", n, DANGER if n else OK,
                Target("fiscalizacao", {"tab": "changes"}), "Art. 13, XVIII",
                detail="aguardando auto do Art. 26, III" if n else "")


def _autos(c: _Ctx, due: str, title: str, column, article: str, label: str) -> Tile:
    n, first = c.s.execute(select(func.count(Auto.id), func.min(column)).where(auto_condition(due, c.today))).one()
    return Tile(due, title, n, _severity(n, first, c.today), Target("fiscalizacao", {"due": due}), article, first,
                label)


def _defense(c: _Ctx) -> Tile:
    return _autos(c, "defense_week", "Prazos de defesa terminando nesta semana", Auto.defense_deadline,
                  "Art. 22, §§1º-2º", "Primeiro fim de prazo")


def _appeal(c: _Ctx) -> Tile:
    return _autos(c, "appeal_week", "Prazos de recurso terminando nesta semana", Auto.appeal_deadline,
                  "Art. 22, caput", "Primeiro fim de prazo")


def _judgment(c: _Ctx) -> Tile:
    n = c.s.scalar(select(func.count(Auto.id)).where(auto_condition("judgment", c.today))) or 0
    return Tile("judgment", "Autos aguardando julgamento", n, WARNING if n else OK,
                Target("fiscalizacao", {"due": "judgment"}), "Art. 22, caput")


def _overdue(c: _Ctx) -> Tile:
    fines = ledger.owed_count_in(c.s, c.actor, today=c.today)
    # Guides of fees, ISSQN and costs (a fine's guide is the fine itself, already counted from the ledger).
    guides = c.s.scalar(select(func.count(PaymentGuide.id)).where(
        overdue_clause(PaymentGuide, c.today), PaymentGuide.purpose != "fine")) or 0
    n = fines + int(guides)
    return Tile("overdue", "Multas e guias vencidas", n, DANGER if n else OK, Target("financeiro", {"tab": "overdue"}),
                "Art. 25", detail=f"{fines} multa(s) · {guides} guia(s)" if n else "")


def _lists(c: _Ctx) -> Tile:
    dues = platform_lists.due_dates_in(c.s, c.actor, c.today)
    soon = [d for d in dues if d.next_due_on is not None and d.next_due_on <= c.w.horizon]
    overdue = [d for d in soon if d.overdue]
    first = min((d.next_due_on for d in soon), default=None)
    chosen = overdue[0] if overdue else (min(soon, key=lambda d: d.next_due_on) if soon else None)
    return Tile("platform_lists", "Listas das plataformas a receber ou vencidas", len(soon),
                _severity(len(soon), first, c.today, bool(overdue)),
                Target("plataformas", {"tab": "lists", "platform_id": chosen.platform_id if chosen else None}),
                "Art. 5, VIII", first, "Próxima lista devida",
                detail=f"{len(overdue)} vencida(s)" if overdue else "")


def _data_requests(c: _Ctx) -> Tile:
    r = data_requests.open_request_counts_in(c.s, c.actor, c.now)
    n = r.running + r.late
    return Tile("data_requests", "Requisições de dados com prazo de 24 horas", n,
                DANGER if r.late else (WARNING if r.running else OK),
                Target("plataformas", {"tab": "requests", "platform_id": r.next_platform_id}), "Art. 4, §2",
                r.next_due_at.date() if r.next_due_at else None, "Fim do prazo", deadline_at=r.next_due_at,
                detail=f"{r.late} sem resposta no prazo" if r.late else "")


def _documents(c: _Ctx) -> Tile:
    n = c.s.scalar(select(func.count(Driver.id)).where(driver_condition("documents", c.today))) or 0
    return Tile("driver_documents", "Condutores com documentos vencendo em 30 dias", n, WARNING if n else OK,
                Target("cadastros", {"due": "documents"}), "Art. 12, I, IV e IX")


def _stickers(c: _Ctx) -> Tile:
    n = pending_sticker_count_in(c.s)
    return Tile("stickers", "Adesivos a imprimir", n, INFO if n else OK, Target("relatorios", {"tab": "stickers"}),
                "Art. 14")


def _checkpoint(c: _Ctx) -> Tile:
    last = c.s.execute(select(AuditCheckpoint.day, AuditCheckpoint.at).order_by(AuditCheckpoint.id.desc())
                       .limit(1)).first()
    if last is None:
        return Tile("checkpoint", "Ponto de verificação da auditoria", 0, DANGER, Target("administracao"),
                    detail="nenhum ponto assinado ainda")
    days = (c.today - last[0]).days
    severity = OK if days <= 0 else (WARNING if days == 1 else DANGER)
    return Tile("checkpoint", "Ponto de verificação da auditoria", days, severity, Target("administracao"),
                deadline=last[0], deadline_label="Último ponto assinado",
                detail="assinado hoje" if days <= 0 else f"{days} dia(s) sem ponto assinado")


def _course_absences(c: _Ctx) -> Tile:
    n = courses.unjustified_absence_count_in(c.s, c.actor)
    return Tile("course_absences", "Faltas sem justificativa a cursos", n, WARNING if n else OK,
                Target("cursos", {"tab": "absences"}), "Art. 12, §2; Art. 13, XVI; Art. 26, III",
                detail="candidatas a auto do Art. 26, III" if n else "")


def _backup(c: _Ctx) -> Tile:
    """The day's automatic copy (issue 17): made and verified today, late, or an alert."""
    from desktop.services import auto_backup  # lazy: the folder listing is only needed for this tile

    state = auto_backup.state_of(c.s.get_bind().dialect.name == "postgresql", on=c.today)
    last = state.last.day if state.last is not None else None
    days = (c.today - last).days if last is not None else 0
    if state.status == auto_backup.DONE:
        severity = OK
    elif state.status == auto_backup.DBA:
        severity = INFO
    else:
        severity = DANGER if state.status != "stale" or days > 1 else WARNING
    return Tile("backup", "Cópia de segurança do dia", days, severity, Target("administracao", {"tab": "backups"}),
                deadline=last, deadline_label="Última cópia verificada" if last else "", detail=state.message)


def _desk(c: _Ctx) -> correspondence.DeskCounts:
    """The correspondence desk's four counts (issue 26), read once for its four tiles."""
    if "desk" not in c.memo:
        c.memo["desk"] = correspondence.desk_counts_in(c.s, c.actor, c.today)
    return c.memo["desk"]


def _dispatch_waiting(c: _Ctx) -> Tile:
    n = _desk(c).waiting
    return Tile("dispatch_waiting", "Notificações aguardando envio", n, INFO if n else OK,
                Target("correspondencia", {"status": "pending"}), "Art. 22, §1",
                detail="expedição do dia ou e-mail a enviar" if n else "")


def _ars_overdue(c: _Ctx) -> Tile:
    n = _desk(c).ars_overdue
    return Tile("ars_overdue", "ARs fora há mais de 30 dias", n, WARNING if n else OK,
                Target("correspondencia", {"status": "ars_overdue"}), "Art. 22, §1, V",
                detail="cobrar o AR dos Correios" if n else "")


def _emails_unanswered(c: _Ctx) -> Tile:
    n = _desk(c).unanswered
    return Tile("emails_unanswered", "E-mails sem resposta", n, WARNING if n else OK,
                Target("correspondencia", {"status": "unanswered"}), "Art. 22, §1, VI",
                detail="oferecer a via postal" if n else "")


def _for_edital(c: _Ctx) -> Tile:
    n = _desk(c).for_edital
    return Tile("for_edital", "Processos aguardando edital", n, WARNING if n else OK,
                Target("correspondencia", {"status": "for_edital"}), "Art. 22, §1, II",
                detail="AR devolvido sem entrega" if n else "")


# Which roles see each tile (in this order on the page; domain/roles.py) and the function that computes it.
TILES: tuple[tuple[str, frozenset[Role], Callable[[_Ctx], Tile]], ...] = (
    ("renewal", frozenset(DASHBOARD_ROLES.renewal), _renewal),
    ("expiring", frozenset(DASHBOARD_ROLES.expiring), _expiring),
    ("last_service_year", frozenset(DASHBOARD_ROLES.last_service_year), _last_service_year),
    ("annual_due", frozenset(DASHBOARD_ROLES.annual_due), _annual),
    ("convocation", frozenset(DASHBOARD_ROLES.convocation), _convocation),
    ("impeded", frozenset(DASHBOARD_ROLES.impeded), _impeded),
    ("changes", frozenset(DASHBOARD_ROLES.changes), _changes),
    ("defense_week", frozenset(DASHBOARD_ROLES.defense_week), _defense),
    ("appeal_week", frozenset(DASHBOARD_ROLES.appeal_week), _appeal),
    ("judgment", frozenset(DASHBOARD_ROLES.judgment), _judgment),
    ("overdue", frozenset(DASHBOARD_ROLES.overdue), _overdue),
    ("platform_lists", frozenset(DASHBOARD_ROLES.platform_lists), _lists),
    ("data_requests", frozenset(DASHBOARD_ROLES.data_requests), _data_requests),
    ("driver_documents", frozenset(DASHBOARD_ROLES.driver_documents), _documents),
    ("stickers", frozenset(DASHBOARD_ROLES.stickers), _stickers),
    ("course_absences", frozenset(DASHBOARD_ROLES.course_absences), _course_absences),
    ("dispatch_waiting", frozenset(DASHBOARD_ROLES.dispatch_waiting), _dispatch_waiting),
    ("ars_overdue", frozenset(DASHBOARD_ROLES.ars_overdue), _ars_overdue),
    ("emails_unanswered", frozenset(DASHBOARD_ROLES.emails_unanswered), _emails_unanswered),
    ("for_edital", frozenset(DASHBOARD_ROLES.for_edital), _for_edital),
    ("checkpoint", frozenset(DASHBOARD_ROLES.checkpoint), _checkpoint),
    ("backup", frozenset(DASHBOARD_ROLES.backup), _backup),
)
TILE_KEYS = tuple(key for key, _, _ in TILES)


def tile_keys_for(roles) -> tuple[str, ...]:
    roles = set(roles)
    return tuple(key for key, allowed, _ in TILES if allowed & roles)


def dashboard_in(s: Session, actor: Actor, now: datetime | None = None) -> Dashboard:
    """The tiles of `actor`'s roles, counted inside the given (read) transaction."""
    require_reader(actor)
    now = now or local_now()
    calendar = calendar_in(s)
    c = _Ctx(s, actor, window(now.date(), calendar), now, calendar)
    roles = set(actor.roles)
    return Dashboard(now, tuple(compute(c) for _key, allowed, compute in TILES if allowed & roles))


def dashboard(db, actor: Actor, now: datetime | None = None) -> Dashboard:
    """The home dashboard in its own read transaction (see `dashboard_in`)."""
    with db.session(write=False) as s:
        return dashboard_in(s, actor, now)
