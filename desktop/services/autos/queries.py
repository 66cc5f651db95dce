"""Reading autos: one auto with everything that happened to it and the actions open on it, the list with its
filters (keyset pages for 100,000 rows) and the infractor's page."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from sqlalchemy import func, or_, select

from desktop.domain.steps import Action
from desktop.domain.dates import TIMEZONE, local_today
from desktop.domain.documents import format_plate
from desktop.domain.penalties import Severity, UnknownInfractionCode, lookup, normalize_code
from desktop.domain.text import fold
from desktop.domain.workflow import AutoStatus
from desktop.models import Auto, Document, Driver, InfractionCode, Platform, User, Vehicle, starts_with
from desktop.models import LedgerEntry as E
from desktop.services.autos.commands import document_ref
from desktop.services.actors import Actor
from desktop.services.dashboard_queries import auto_condition
from desktop.services.enforcement.core import (
    ZERO,
    Infractor,
    code_in_force_column,
    fine_columns,
    infractor_identity,
    load_auto,
    require_reader,
)
from desktop.services.enforcement.postings import EntryInfo, entries_of_auto
from desktop.services.enforcement.records import (
    AutoInfo,
    DocumentRef,
    auto_info_in,
    defense_info,
    judgment_info,
    notification_info,
)
from desktop.services.penalties import measure_info, penalties_in

INFRACTOR_PAGE_LIMIT = 500


@dataclass(frozen=True, slots=True)
class AutoDetail:
    auto: AutoInfo
    notifications: tuple = ()
    defenses: tuple = ()
    judgments: tuple = ()
    measures: tuple = ()
    entries: tuple[EntryInfo, ...] = ()
    evidence: tuple[DocumentRef, ...] = ()
    penalties: tuple = ()
    actions: tuple[Action, ...] = ()   # = auto.actions: every step, enabled or with the reason it is not


@dataclass(frozen=True, slots=True)
class AutoFilter:
    status: AutoStatus | None = None
    driver_id: int | None = None
    platform_id: int | None = None
    code: str | None = None
    agent_id: int | None = None
    date_from: date | None = None
    date_to: date | None = None
    text: str = ""
    due: str = ""          # a home-dashboard tile (dashboard_queries.AUTO_DUE: defense/appeal terms, judgment)


@dataclass(frozen=True, slots=True)
class AutoSummary:
    id: int
    number: str
    drawn_up_at: datetime
    code: str
    severity: Severity
    status: AutoStatus
    status_label: str
    infractor_name: str
    plate: str
    agent_name: str
    amount_upfm: Decimal
    amount_reais: Decimal
    recurrence: bool


@dataclass(frozen=True, slots=True)
class AutoPage:
    items: tuple[AutoSummary, ...]
    next_cursor: int | None


@dataclass(frozen=True, slots=True)
class InfractorPage:
    infractor: Infractor
    name: str
    document: str
    autos: tuple[AutoSummary, ...]
    recurrences: tuple[AutoSummary, ...]
    balance_upfm: Decimal
    balance_reais: Decimal
    overdue_upfm: Decimal


def allowed_actions(db, actor: Actor, auto_id: int) -> tuple[Action, ...]:
    """The steps open now on an auto for `actor` (only those its roles allow), from `domain.auto_steps`. The
    services check the same table again, whatever the screen shows. Reading an auto needs a role of
    `ENFORCEMENT_ROLES.read` (issue 25 item 7)."""
    with db.session(write=False) as s:
        require_reader(actor)
        info = auto_info_in(s, load_auto(s, auto_id), actor)
    return tuple(a for a in info.actions if a.enabled)


def get_auto_in(session, actor: Actor, auto_id: int, today: date | None = None) -> AutoDetail:
    """`get_auto` inside the caller's session."""
    require_reader(actor)
    auto = load_auto(session, auto_id)
    docs = session.scalars(select(Document).where(Document.auto_id == auto.id).order_by(Document.id))
    info = auto_info_in(session, auto, actor, today)
    return AutoDetail(
        auto=info,
        notifications=tuple(notification_info(n) for n in auto.notifications),
        defenses=tuple(defense_info(d, auto) for d in auto.defenses),
        judgments=tuple(judgment_info(session, j) for j in auto.judgments),
        measures=tuple(measure_info(session, m) for m in auto.measures),
        entries=entries_of_auto(session, auto.id),
        evidence=tuple(document_ref(d) for d in docs),
        penalties=penalties_in(session, auto.id),
        actions=info.actions,
    )


def get_auto(db, actor: Actor, auto_id: int, today: date | None = None) -> AutoDetail:
    """The auto with its notifications, defenses, judgments, measures, ledger entries, evidence, the penalties
    it put in force, and every step of the auto as an `Action` (enabled for `actor`; a disabled one says what
    would enable it). The infractor's name and what he owes: only for `ENFORCEMENT_ROLES.read` (issue 25 item 7)."""
    with db.session(write=False) as s:
        return get_auto_in(s, actor, auto_id, today)


def get_auto_info(db, actor: Actor, auto_id: int) -> AutoInfo:
    """The auto as the screens list it, with its actions for `actor` (`ENFORCEMENT_ROLES.read`)."""
    with db.session(write=False) as s:
        require_reader(actor)
        return auto_info_in(s, load_auto(s, auto_id), actor)


# ---------------------------------------------------------------------------------------------------------
# Lists and the infractor's page
# ---------------------------------------------------------------------------------------------------------

def _summary_stmt():
    fine_upfm, fine_reais = fine_columns()  # the fine from the ledger (debit and reductions), per listed auto
    # the code in force (issue 12 item 1): the requalified one after a partial decision
    return (select(Auto.id, Auto.number, Auto.drawn_up_at, code_in_force_column(), InfractionCode.severity,
                   Auto.status, Driver.name, Platform.trade_name, Vehicle.plate, User.full_name, fine_upfm,
                   fine_reais, Auto.recurrence, Auto.code)
            .join(InfractionCode, InfractionCode.id == Auto.infraction_code_id)
            .outerjoin(Driver, Driver.id == Auto.infractor_driver_id)
            .outerjoin(Platform, Platform.id == Auto.infractor_platform_id)
            .outerjoin(Vehicle, Vehicle.id == Auto.vehicle_id)
            .outerjoin(User, User.id == Auto.agent_id))


def _summary(r) -> AutoSummary:
    status = AutoStatus(r[5])
    severity = Severity(r[4])
    if r[3] != r[13]:  # requalified: the severity of the code in force
        try:
            severity = lookup(r[3]).severity
        except UnknownInfractionCode:
            pass
    return AutoSummary(r[0], r[1], r[2], r[3], severity, status, status.label, r[6] or r[7] or "",
                       format_plate(r[8]) if r[8] else "", r[9] or "", r[10], r[11], bool(r[12]))


def _apply_filter(stmt, f: AutoFilter):
    if f.status is not None:
        stmt = stmt.where(Auto.status == AutoStatus(f.status).value)
    if f.driver_id is not None:
        stmt = stmt.where(Auto.infractor_driver_id == f.driver_id)
    if f.platform_id is not None:
        stmt = stmt.where(Auto.infractor_platform_id == f.platform_id)
    if f.code:
        stmt = stmt.where(Auto.code == normalize_code(f.code))
    if f.agent_id is not None:
        stmt = stmt.where(Auto.agent_id == f.agent_id)
    if f.date_from is not None:
        stmt = stmt.where(Auto.drawn_up_at >= datetime.combine(f.date_from, time.min, tzinfo=TIMEZONE))
    if f.date_to is not None:
        stmt = stmt.where(Auto.drawn_up_at < datetime.combine(f.date_to + timedelta(days=1), time.min,
                                                              tzinfo=TIMEZONE))
    if f.due:
        stmt = stmt.where(auto_condition(f.due, local_today()))
    text = (f.text or "").strip()
    if text:
        plate = text.upper().replace("-", "").replace(" ", "")
        stmt = stmt.where(or_(Auto.number.startswith(text, autoescape=True), starts_with(Driver.search_key, fold(text)),
                              starts_with(Platform.search_key, fold(text)), starts_with(Vehicle.plate, plate)))
    return stmt


def list_autos(db, actor: Actor, filter: AutoFilter = AutoFilter(), after: int | None = None,  # noqa: A002
               limit: int = 100) -> AutoPage:
    """Autos by status, infractor, code, agent and period, newest first, by keyset on the id (`after` = the
    previous page's `next_cursor`). For `ENFORCEMENT_ROLES.read` (issue 25 item 7)."""
    with db.session(write=False) as s:
        return list_autos_in(s, actor, filter, after, limit)


def list_autos_in(session, actor: Actor, filter: AutoFilter = AutoFilter(),  # noqa: A002
                  after: int | None = None, limit: int = 100) -> AutoPage:
    """`list_autos` inside the caller's session."""
    require_reader(actor)
    limit = max(1, min(int(limit), 1000))
    stmt = _apply_filter(_summary_stmt(), filter)
    if after is not None:
        stmt = stmt.where(Auto.id < after)
    rows = session.execute(stmt.order_by(Auto.id.desc()).limit(limit + 1)).all()
    items = tuple(_summary(r) for r in rows[:limit])
    return AutoPage(items, items[-1].id if len(rows) > limit and items else None)


def count_autos_in(session, actor: Actor, filter: AutoFilter = AutoFilter()) -> int:  # noqa: A002
    """`count_autos` inside the caller's transaction (`ENFORCEMENT_ROLES.read`)."""
    require_reader(actor)
    stmt = (select(func.count(Auto.id))
            .outerjoin(Driver, Driver.id == Auto.infractor_driver_id)
            .outerjoin(Platform, Platform.id == Auto.infractor_platform_id)
            .outerjoin(Vehicle, Vehicle.id == Auto.vehicle_id))
    return int(session.scalar(_apply_filter(stmt, filter)) or 0)


def count_autos(db, actor: Actor, filter: AutoFilter = AutoFilter()) -> int:  # noqa: A002
    with db.session(write=False) as s:
        return count_autos_in(s, actor, filter)


def infractor_page(db, actor, infractor: Infractor) -> InfractorPage:
    """A driver's or a platform's page: its autos (newest first), those found as recurrences, what it owes and
    how much of it is overdue."""
    require_reader(actor)
    with db.session(write=False) as s:
        return infractor_page_in(s, actor, infractor)


def infractor_page_in(session, actor, infractor: Infractor) -> InfractorPage:
    """`infractor_page` inside the caller's session."""
    require_reader(actor)
    column = Auto.infractor_driver_id if infractor.kind == "driver" else Auto.infractor_platform_id
    entry_column = E.infractor_driver_id if infractor.kind == "driver" else E.infractor_platform_id
    name, document = infractor_identity(session, infractor)
    rows = session.execute(_summary_stmt().where(column == infractor.id).order_by(Auto.id.desc())
                           .limit(INFRACTOR_PAGE_LIMIT)).all()
    upfm, reais = session.execute(select(func.sum(E.amount_upfm), func.sum(E.amount_reais))
                                  .where(entry_column == infractor.id)).one()
    overdue = session.scalar(select(func.sum(E.amount_upfm)).join(Auto, Auto.id == E.auto_id).where(
        entry_column == infractor.id,
        Auto.status.in_([AutoStatus.OVERDUE.value, AutoStatus.DIVIDA_ATIVA.value])))
    autos = tuple(_summary(r) for r in rows)
    return InfractorPage(infractor, name, document, autos, tuple(a for a in autos if a.recurrence),
                         upfm or ZERO, reais or ZERO, overdue or ZERO)
