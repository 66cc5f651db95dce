"""Change communications (Art. 13 XVIII): a change of the driver's or the vehicle's data must be communicated
within 7 days (SPEC §3 deadline rule). Each is recorded with the day it happened and the day it was communicated;
the late ones are offered to the fiscal as an Art. 26 III infraction."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from desktop.domain import data_change_notice_deadline, format_date, format_plate, local_today
from desktop.domain.text import fold
from desktop.domain.workflow import AutoStatus
from desktop.domain.problems import Problem
from desktop.domain.roles import CHANGE_ROLES
from desktop.errors import ValidationError
from desktop.models import Auto, ChangeCommunication, Driver, Vehicle
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.holidays import calendar_in
from desktop.services.permissions import FRONT_DESK, require_reader
from desktop.services.paging import check_page, Page
from desktop.services.lookups import get_or_404, user_names

__all__ = ["ChangeDraft", "ChangeInfo", "validate_change", "record_change", "list_changes", "late_changes",
           "page_changes", "CHANGE_FILTERS", "AUTO_CODE", "AUTO_ART13_ITEM",
           "record_change_in", "list_changes_in", "late_changes_in", "page_changes_in", "late_open_count_in"]

ARTICLE = "Art. 13, XVIII"
AUTO_CODE = "ART26-III"      # a late communication breaks the duty of Art. 13, XVIII: an Art. 26, III infraction
AUTO_ART13_ITEM = "XVIII"
# page_changes(status=...): "" every one; "late" / "on_time"; "late_open" the late ones without an auto (fiscal)
CHANGE_FILTERS = ("", "late", "late_open", "on_time")


@dataclass(frozen=True, slots=True)
class ChangeDraft:
    what_changed: str
    happened_on: date
    communicated_on: date
    driver_id: int | None = None
    vehicle_id: int | None = None


@dataclass(frozen=True, slots=True)
class ChangeInfo:
    id: int
    driver_id: int | None
    driver_name: str | None
    vehicle_id: int | None
    plate_display: str | None
    what_changed: str
    happened_on: date
    communicated_on: date
    deadline: date
    late: bool
    recorded_by_name: str
    created_at: datetime
    auto_id: int | None
    auto_number: str | None = None   # the Art. 26, III auto drawn up from it ("0012/2026")
    auto_cancelled: bool = False     # that auto was cancelled (Art. 17: drawn up in error): a new one may be drawn

    @property
    def awaiting_auto(self) -> bool:
        """Late and not (or no longer) answered by an auto: the fiscal's queue (Art. 26, III)."""
        return self.late and (self.auto_id is None or self.auto_cancelled)

    @property
    def late_text(self) -> str:
        if not self.late:
            return "No prazo"
        return f"Fora do prazo (vencia em {format_date(self.deadline)}; {ARTICLE})"


def validate_change(draft: ChangeDraft, today: date | None = None) -> list[Problem]:
    today = today or local_today()
    problems: list[Problem] = []
    if draft.driver_id is None and draft.vehicle_id is None:
        problems.append(Problem("driver_id", "Informe o condutor ou o veículo cuja informação mudou.", ARTICLE))
    if not (draft.what_changed or "").strip():
        problems.append(Problem("what_changed", "Descreva o que mudou.", ARTICLE))
    if draft.happened_on is None:
        problems.append(Problem("happened_on", "Informe a data da alteração.", ARTICLE))
    if draft.communicated_on is None:
        problems.append(Problem("communicated_on", "Informe a data da comunicação.", ARTICLE))
    if draft.happened_on and draft.communicated_on and draft.communicated_on < draft.happened_on:
        problems.append(Problem("communicated_on", "A comunicação não pode ser anterior à alteração.", ARTICLE))
    if draft.communicated_on and draft.communicated_on > today:
        problems.append(Problem("communicated_on", "A data da comunicação não pode ser futura."))
    return problems


def _infos(session: Session, rows) -> tuple[ChangeInfo, ...]:
    rows = list(rows)
    if not rows:
        return ()
    calendar = calendar_in(session)
    names = user_names(session, (r.recorded_by for r in rows))
    driver_ids = {r.driver_id for r in rows if r.driver_id}
    vehicle_ids = {r.vehicle_id for r in rows if r.vehicle_id}
    drivers = dict(session.execute(select(Driver.id, Driver.name).where(Driver.id.in_(driver_ids))).all()) \
        if driver_ids else {}
    plates = dict(session.execute(select(Vehicle.id, Vehicle.plate).where(Vehicle.id.in_(vehicle_ids))).all()) \
        if vehicle_ids else {}
    auto_ids = {r.auto_id for r in rows if r.auto_id}
    autos, cancelled = {}, set()
    if auto_ids:
        for ident, number, status in session.execute(select(Auto.id, Auto.number, Auto.status)
                                                     .where(Auto.id.in_(auto_ids))):
            autos[ident] = number
            if status == AutoStatus.CANCELLED.value:
                cancelled.add(ident)
    result = []
    for r in rows:
        deadline = data_change_notice_deadline(r.happened_on, calendar)
        result.append(ChangeInfo(
            id=r.id, driver_id=r.driver_id, driver_name=drivers.get(r.driver_id),
            vehicle_id=r.vehicle_id, plate_display=format_plate(plates[r.vehicle_id]) if r.vehicle_id in plates else None,
            what_changed=r.what_changed, happened_on=r.happened_on, communicated_on=r.communicated_on,
            deadline=deadline, late=r.communicated_on > deadline,
            recorded_by_name=names.get(r.recorded_by, "") if r.recorded_by else "", created_at=r.created_at,
            auto_id=r.auto_id, auto_number=autos.get(r.auto_id), auto_cancelled=r.auto_id in cancelled,
        ))
    return tuple(result)


def changes_of(session: Session, *, driver_id: int | None = None, vehicle_id: int | None = None
               ) -> tuple[ChangeInfo, ...]:
    stmt = select(ChangeCommunication)
    if driver_id is not None:
        stmt = stmt.where(ChangeCommunication.driver_id == driver_id)
    if vehicle_id is not None:
        stmt = stmt.where(ChangeCommunication.vehicle_id == vehicle_id)
    return _infos(session, session.execute(stmt.order_by(ChangeCommunication.happened_on.desc(),
                                                         ChangeCommunication.id.desc())).scalars())


def record_change_in(s: Session, actor: Actor, draft: ChangeDraft) -> ChangeInfo:
    """Record a communicated change; whether it was late is computed (Art. 13 XVIII: 7 days)."""
    require_role(actor, *FRONT_DESK)
    problems = validate_change(draft)
    if problems:
        raise ValidationError(problems)
    if draft.driver_id is not None:
        get_or_404(s, Driver, draft.driver_id, "Condutor")
    if draft.vehicle_id is not None:
        get_or_404(s, Vehicle, draft.vehicle_id, "Veículo")
    row = ChangeCommunication(driver_id=draft.driver_id, vehicle_id=draft.vehicle_id,
                              what_changed=draft.what_changed.strip(), happened_on=draft.happened_on,
                              communicated_on=draft.communicated_on, recorded_by=actor.user_id)
    s.add(row)
    s.flush()
    info = _infos(s, [row])[0]
    after = {**audit.snapshot(row, exclude=("created_at",)), "late": info.late, "deadline": info.deadline}
    audit.record(s, actor, "change.record", "change_communication", row.id, None, after)
    for entity, ident in (("driver", draft.driver_id), ("vehicle", draft.vehicle_id)):
        if ident is not None:
            audit.record(s, actor, "change.record", entity, ident, None,
                         {"what_changed": row.what_changed, "late": info.late})
    return info


def record_change(db, actor: Actor, draft: ChangeDraft) -> ChangeInfo:
    """Record change in its own transaction (see `record_change_in`)."""
    with db.session() as s:
        return record_change_in(s, actor, draft)


def list_changes_in(s: Session, actor: Actor, driver_id: int | None = None,
                    vehicle_id: int | None = None) -> list[ChangeInfo]:
    require_reader(actor)
    return list(changes_of(s, driver_id=driver_id, vehicle_id=vehicle_id))


def list_changes(db, actor: Actor, driver_id: int | None = None, vehicle_id: int | None = None) -> list[ChangeInfo]:
    """List changes in its own transaction (see `list_changes_in`)."""
    with db.session(write=False) as s:
        return list_changes_in(s, actor, driver_id, vehicle_id)


def late_changes_in(s: Session, actor: Actor, include_with_auto: bool = False) -> list[ChangeInfo]:
    """The late communications, oldest first, for the fiscal to draw up an Art. 26 III auto."""
    require_role(actor, *CHANGE_ROLES.enforce)
    stmt = select(ChangeCommunication)
    if not include_with_auto:
        stmt = stmt.where(_without_live_auto())
    infos = _infos(s, s.execute(stmt.order_by(ChangeCommunication.happened_on, ChangeCommunication.id)).scalars())
    return [i for i in infos if i.late]


def late_changes(db, actor: Actor, include_with_auto: bool = False) -> list[ChangeInfo]:
    """Late changes in its own transaction (see `late_changes_in`)."""
    with db.session(write=False) as s:
        return late_changes_in(s, actor, include_with_auto)


def late_open_count_in(s: Session, actor: Actor) -> int:
    """How many communications `page_changes_in(status="late_open")` lists (the fiscal's queue of Art. 26, III
    autos), for the home dashboard (issue 16). The database counts them per (happened, communicated) pair; only
    the pairs more than 7 days apart are judged against the business-day calendar (Art. 13, XVIII)."""
    require_role(actor, *CHANGE_ROLES.enforce)
    calendar = calendar_in(s)
    c = ChangeCommunication
    pairs = s.execute(select(c.happened_on, c.communicated_on, func.count())
                      .where(_without_live_auto(), c.communicated_on > c.happened_on)
                      .group_by(c.happened_on, c.communicated_on)).all()
    deadlines: dict[date, date] = {}
    total = 0
    for happened, communicated, n in pairs:
        if happened not in deadlines:
            deadlines[happened] = data_change_notice_deadline(happened, calendar)
        if communicated > deadlines[happened]:
            total += n
    return total


def _without_live_auto():
    """No auto, or only a cancelled one (Art. 17): the communication still awaits its Art. 26, III auto."""
    return or_(ChangeCommunication.auto_id.is_(None), ChangeCommunication.auto_id.in_(
        select(Auto.id).where(Auto.status == AutoStatus.CANCELLED.value)))


def page_changes_in(s: Session, actor: Actor, text: str = "", status: str = "", offset: int = 0,
                    limit: int = 50) -> Page[ChangeInfo]:
    """One page of the communications, newest communication first ("late_open": oldest change first, the
    fiscal's queue of Art. 26, III autos). `text` matches the driver's name, the plate or what changed, accent-
    and case-insensitive. Whether one is late depends on the business-day calendar (Art. 13, XVIII: 7 days), so
    the filter runs over the few columns it needs and only the page's rows are built in full."""
    if status not in CHANGE_FILTERS:
        raise ValueError(f"filtro desconhecido: {status!r} (válidos: {', '.join(CHANGE_FILTERS)})")
    if status == "late_open":
        require_role(actor, *CHANGE_ROLES.enforce)
    else:
        require_reader(actor)
    offset, limit = check_page(offset, limit)
    words = fold(text).split()
    calendar = calendar_in(s)
    stmt = (select(ChangeCommunication.id, ChangeCommunication.happened_on, ChangeCommunication.communicated_on,
                   ChangeCommunication.auto_id, ChangeCommunication.what_changed, Driver.name, Vehicle.plate)
            .outerjoin(Driver, Driver.id == ChangeCommunication.driver_id)
            .outerjoin(Vehicle, Vehicle.id == ChangeCommunication.vehicle_id))
    if status == "late_open":
        stmt = stmt.where(_without_live_auto()).order_by(
            ChangeCommunication.happened_on, ChangeCommunication.id)
    else:
        stmt = stmt.order_by(ChangeCommunication.communicated_on.desc(), ChangeCommunication.id.desc())
    deadlines: dict[date, date] = {}
    ids = []
    for ident, happened, communicated, _auto, what, name, plate in s.execute(stmt):
        if happened not in deadlines:
            deadlines[happened] = data_change_notice_deadline(happened, calendar)
        late = communicated > deadlines[happened]
        if (status in ("late", "late_open") and not late) or (status == "on_time" and late):
            continue
        if words:
            haystack = fold(" ".join(x for x in (name, format_plate(plate) if plate else "", plate, what) if x))
            if not all(w in haystack for w in words):
                continue
        ids.append(ident)
    chosen = ids[offset:offset + limit]
    rows = {r.id: r for r in s.execute(select(ChangeCommunication)
                                       .where(ChangeCommunication.id.in_(chosen))).scalars()} if chosen else {}
    return Page(_infos(s, [rows[i] for i in chosen]), len(ids), offset, limit)


def page_changes(db, actor: Actor, text: str = "", status: str = "", offset: int = 0, limit: int = 50
                 ) -> Page[ChangeInfo]:
    """Page changes in its own transaction (see `page_changes_in`)."""
    with db.session(write=False) as s:
        return page_changes_in(s, actor, text, status, offset, limit)


def link_problems_in(session: Session, change_id: int, driver_id: int | None, code: str,
                     art13_item: str | None) -> list[Problem]:
    """Why an auto may not be drawn up from this communication (Art. 26, III for the duty of Art. 13, XVIII):
    unknown, already turned into an auto, communicated in time, another code or item, another driver."""
    row = session.get(ChangeCommunication, change_id)
    if row is None:
        return [Problem("change_id", "Comunicação de alteração não encontrada.")]
    problems: list[Problem] = []
    if row.auto_id is not None:
        number, status = session.execute(select(Auto.number, Auto.status).where(Auto.id == row.auto_id)).one()
        if status != AutoStatus.CANCELLED.value:
            problems.append(Problem("change_id", f"Esta comunicação já deu origem ao auto {number}.",
                                    "Art. 26, III"))
    deadline = data_change_notice_deadline(row.happened_on, calendar_in(session))
    if row.communicated_on <= deadline:
        problems.append(Problem("change_id", f"A comunicação foi feita no prazo (vencia em {format_date(deadline)}): "
                                             "não há infração ao Art. 13, XVIII.", "Art. 26, III"))
    if (code or "").strip().upper() != AUTO_CODE:
        problems.append(Problem("code", "Uma comunicação fora do prazo é infração do Art. 26, III.", "Art. 26, III"))
    elif (art13_item or "").strip().upper() != AUTO_ART13_ITEM:
        problems.append(Problem("art13_item", "O dever descumprido é o do Art. 13, XVIII (comunicar a alteração "
                                              "em 7 dias).", "Art. 26, III"))
    if row.driver_id is not None and driver_id != row.driver_id:
        problems.append(Problem("driver_id", "O infrator deve ser o condutor da comunicação.", ARTICLE))
    return problems


def link_auto_in(session: Session, actor: Actor, change_id: int, auto) -> None:
    """Bind the communication to the auto drawn up from it, inside the auto's transaction (row locked; checked
    again under the lock so two fiscais cannot turn the same communication into two autos)."""
    row = session.get(ChangeCommunication, change_id, with_for_update=True)
    previous = row.auto_id
    if previous is not None and session.execute(select(Auto.status).where(Auto.id == previous)).scalar_one() \
            != AutoStatus.CANCELLED.value:
        raise ValidationError([Problem("change_id", "Esta comunicação já deu origem a outro auto.", "Art. 26, III")])
    row.auto_id = auto.id   # a cancelled earlier auto stays in the audit trail (before)
    session.flush()
    audit.record(session, actor, "change.auto", "change_communication", row.id, {"auto_id": previous},
                 {"auto_id": auto.id, "auto_number": auto.number})
