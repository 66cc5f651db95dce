"""Courses and lectures (Art. 12, §2: drivers "deverão, quando convocados pelo Município, participarem de cursos e
palestras"), issue 16: sessions (date, time, place, topic, capacity, instructor); convocation of drivers chosen
by a filter, within the capacity; the convocation notice printed (`reports/course_convocation.py`) or the list
exported; attendance recorded from the printed list (`reports/attendance.py`); an excused absence recorded with
its document (`services.attachments.check_attachment`); an unjustified absence offered to the fiscal as an
Art. 26, III candidate (breaking the duty of Art. 13, XVI, "cumprir as determinações do município").

"New drivers" (the convocation filter "new"): drivers whose first authorization was activated in the last 12
months (NEW_DRIVER_MONTHS) — the ones who had no course yet. "With autos": drivers who are the infractor of an
auto drawn up in the last 12 months and not cancelled or annulled. Only drivers with an authorization in force
(active, impeded or suspended) are convoked: the duty binds the "condutores cadastrados e credenciados".
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from desktop.domain import TIMEZONE, format_cpf, format_date, local_today
from desktop.domain.courses import (
    ATTENDANCE_MACHINE,
    ATTENDANCE_STEPS,
    JUSTIFIABLE,
    SESSION_MACHINE,
    SESSION_STEPS,
    AttendanceFacts,
    AttendanceStatus,
    SessionFacts,
    SessionStatus,
    absence_offered_for_auto,
    attendance_after_list,
)
from desktop.domain.dates import add_months_clamped
from desktop.domain.problems import Problem
from desktop.domain.roles import COURSE_ROLES
from desktop.domain.steps import Action, available_actions, refusal
from desktop.domain.workflow import AutoStatus, transition
from desktop.errors import ConflictError, ValidationError
from desktop.models import Authorization, Auto, CourseAttendance, CourseSession, Driver
from desktop.models.types import now
from desktop.services import audit
from desktop.services.attachments import attach_document_in, check_attachment
from desktop.services.actors import Actor
from desktop.services.locking import check_version
from desktop.services.permissions import require_role
from desktop.services.numbering import next_notice_number_in, parse_number
from desktop.services.lookups import get_or_404
from desktop.services.permissions import require_reader
from desktop.reports.common import signer_of
from desktop.reports.records import settings_row

ARTICLE = "Art. 12, §2"
AUTO_CODE = "ART26-III"      # an unjustified absence breaks the duty of Art. 13, XVI: an Art. 26, III infraction
AUTO_ART13_ITEM = "XVI"
ORGANIZERS = COURSE_ROLES.organize
ENFORCERS = COURSE_ROLES.enforce
NEW_DRIVER_MONTHS = 12
AUTOS_LOOKBACK_MONTHS = 12
JUSTIFICATION_KIND = "Justificativa de falta a curso (Art. 12, §2)"
IN_FORCE = ("active", "impeded", "suspended")
CONVOCATION_FILTERS = {
    "new": "Condutores novos (primeira autorização ativada nos últimos 12 meses)",
    "autos": "Condutores com autos de infração nos últimos 12 meses",
    "all": "Todos os condutores com autorização em vigor",
}
STATUS_LABELS = {s.value: s.label for s in AttendanceStatus}          # domain/courses.py
SESSION_STATUS_LABELS = {s.value: s.label for s in SessionStatus}


@dataclass(frozen=True, slots=True)
class SessionDraft:
    held_on: date
    starts: time
    place: str
    topic: str
    capacity: int
    instructor: str = ""
    ends: time | None = None


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: int
    number: str                  # "0003/2026"
    held_on: date
    starts_at: datetime | None
    ends_at: datetime | None
    place: str
    topic: str
    instructor: str
    capacity: int
    status: SessionStatus
    status_label: str
    convoked: int
    present: int
    absent: int
    excused: int
    version: int
    actions: tuple[Action, ...] = ()   # SESSION_STEPS for the reader: enabled, or with what stops it

    @property
    def free(self) -> int:
        return max(0, self.capacity - self.convoked)


@dataclass(frozen=True, slots=True)
class AttendanceInfo:
    id: int
    session_id: int
    driver_id: int
    driver_name: str
    cpf_display: str
    status: AttendanceStatus
    status_label: str
    convoked_on: date | None
    notice_number: str | None
    note: str | None
    justification_document_id: int | None
    auto_id: int | None
    version: int
    actions: tuple[Action, ...] = ()   # ATTENDANCE_STEPS for the reader ("mark": on the signed list's check list)
    notice_joined_on: date | None = None   # the proof of the convocation notice joined (issue 24 item 12)

    @property
    def present(self) -> bool:
        return self.status is AttendanceStatus.PRESENT


@dataclass(frozen=True, slots=True)
class ConvocationResult:
    convoked: int
    already: int          # chosen but already convoked to this session
    left_out: int         # chosen but beyond the capacity
    capacity: int


@dataclass(frozen=True, slots=True)
class AbsenceCandidate:
    """An unjustified absence the fiscal may turn into an Art. 26, III auto (Art. 13, XVI)."""

    attendance_id: int
    session_id: int
    session_number: str
    driver_id: int
    driver_name: str
    held_on: date
    topic: str
    place: str
    notice_number: str | None
    code: str = AUTO_CODE
    article: str = "Art. 26, III"
    art13_item: str = AUTO_ART13_ITEM

    @property
    def description(self) -> str:
        notice = f" (notificação de convocação nº {self.notice_number})" if self.notice_number else ""
        return (f"Convocado{notice} ao curso/palestra «{self.topic}» da turma {self.session_number}, realizada em "
                f"{format_date(self.held_on)} em {self.place}, não compareceu nem justificou a ausência "
                "(Art. 12, §2; dever do Art. 13, XVI; infração do Art. 26, III).")


@dataclass(frozen=True, slots=True)
class DriverCourse:
    session_id: int
    session_number: str
    held_on: date
    topic: str
    status: AttendanceStatus
    status_label: str


_SESSION_STEP = {step.key: step for step in SESSION_STEPS}


def session_number(row: CourseSession) -> str:
    return f"{row.id:04d}/{row.held_on.year}"


# -- sessions ------------------------------------------------------------------------------------------------
def session_problems(draft: SessionDraft, today: date | None = None) -> list[Problem]:
    problems = []
    if not isinstance(draft.held_on, date):
        problems.append(Problem("held_on", "Informe a data da turma.", ARTICLE))
    elif draft.held_on < (today or local_today()):
        problems.append(Problem("held_on", "A data da turma não pode estar no passado.", ARTICLE))
    if not isinstance(draft.starts, time):
        problems.append(Problem("starts", "Informe o horário de início.", ARTICLE))
    elif draft.ends is not None and draft.ends <= draft.starts:
        problems.append(Problem("ends", "O horário de término deve ser depois do início.", ARTICLE))
    if not (draft.place or "").strip():
        problems.append(Problem("place", "Informe o local.", ARTICLE))
    if not (draft.topic or "").strip():
        problems.append(Problem("topic", "Informe o tema do curso ou palestra.", ARTICLE))
    if not isinstance(draft.capacity, int) or draft.capacity <= 0:
        problems.append(Problem("capacity", "A capacidade deve ser um número de vagas maior que zero.", ARTICLE))
    return problems


def _counts(s: Session, ids: Iterable[int]) -> dict[int, dict[str, int]]:
    ids = list(ids)
    out: dict[int, dict[str, int]] = {i: {} for i in ids}
    if ids:
        for sid, status, n in s.execute(select(CourseAttendance.session_id, CourseAttendance.status, func.count())
                                        .where(CourseAttendance.session_id.in_(ids))
                                        .group_by(CourseAttendance.session_id, CourseAttendance.status)):
            out[sid][status] = n
    return out


def _session_info(row: CourseSession, counts: dict[str, int], actor: Actor) -> SessionInfo:
    total = sum(counts.values())
    status = SESSION_MACHINE.state(row.status)
    return SessionInfo(row.id, session_number(row), row.held_on, row.starts_at, row.ends_at, row.place, row.topic,
                       row.instructor or "", row.capacity, status, status.label, total,
                       counts.get(AttendanceStatus.PRESENT, 0), counts.get(AttendanceStatus.ABSENT, 0),
                       counts.get(AttendanceStatus.EXCUSED, 0), row.version,
                       available_actions(SESSION_STEPS, status, actor.roles, SessionFacts(total), _session_label))


def _session_label(value: str) -> str:
    return SessionStatus(value).label


def _attendance_label(value: str) -> str:
    return AttendanceStatus(value).label


def get_session_in(s: Session, actor: Actor, session_id: int) -> SessionInfo:
    require_reader(actor)
    row = get_or_404(s, CourseSession, session_id, "Turma")
    return _session_info(row, _counts(s, [row.id])[row.id], actor)


def get_session(db, actor: Actor, session_id: int) -> SessionInfo:
    with db.session(write=False) as s:
        return get_session_in(s, actor, session_id)


def create_session_in(s: Session, actor: Actor, draft: SessionDraft) -> SessionInfo:
    require_role(actor, *ORGANIZERS)
    problems = session_problems(draft)
    if problems:
        raise ValidationError(problems)
    row = CourseSession(
        held_on=draft.held_on, starts_at=datetime.combine(draft.held_on, draft.starts, tzinfo=TIMEZONE),
        ends_at=datetime.combine(draft.held_on, draft.ends, tzinfo=TIMEZONE) if draft.ends else None,
        place=draft.place.strip(), topic=draft.topic.strip(), instructor=(draft.instructor or "").strip() or None,
        capacity=draft.capacity, status=SESSION_MACHINE.initial.value, created_by=actor.user_id,
        created_at=now())
    s.add(row)
    s.flush()
    audit.record(s, actor, "course.create", "course_session", row.id, None,
                 {"held_on": row.held_on, "topic": row.topic, "place": row.place, "capacity": row.capacity})
    return _session_info(row, {}, actor)


def create_session(db, actor: Actor, draft: SessionDraft) -> SessionInfo:
    """A course or lecture session (Art. 12, §2). Atendente or gestor."""
    with db.session() as s:
        return create_session_in(s, actor, draft)


def list_sessions_in(s: Session, actor: Actor) -> tuple[SessionInfo, ...]:
    require_reader(actor)
    rows = list(s.scalars(select(CourseSession).order_by(CourseSession.held_on.desc(), CourseSession.id.desc())
                          .limit(500)))
    counts = _counts(s, [r.id for r in rows])
    return tuple(_session_info(r, counts[r.id], actor) for r in rows)


def list_sessions(db, actor: Actor) -> tuple[SessionInfo, ...]:
    """The sessions, newest first."""
    with db.session(write=False) as s:
        return list_sessions_in(s, actor)


# -- convocation ---------------------------------------------------------------------------------------------
def _chosen(kind: str, on: date):
    """The driver ids a convocation filter chooses (a SELECT, ordered by name then id)."""
    if kind not in CONVOCATION_FILTERS:
        raise ValidationError([Problem("filter", f"Filtro de convocação desconhecido: {kind!r}.", ARTICLE)])
    in_force = select(Authorization.driver_id).where(Authorization.status.in_(IN_FORCE))
    stmt = select(Driver.id).where(Driver.status == "active", Driver.id.in_(in_force))
    if kind == "new":
        first = (select(Authorization.driver_id).where(Authorization.activated_on.is_not(None))
                 .group_by(Authorization.driver_id)
                 .having(func.min(Authorization.activated_on) >= add_months_clamped(on, -NEW_DRIVER_MONTHS)))
        stmt = stmt.where(Driver.id.in_(first))
    elif kind == "autos":
        since = datetime.combine(add_months_clamped(on, -AUTOS_LOOKBACK_MONTHS), time.min, tzinfo=TIMEZONE)
        stmt = stmt.where(Driver.id.in_(select(Auto.infractor_driver_id).where(
            Auto.infractor_driver_id.is_not(None), Auto.drawn_up_at >= since,
            Auto.status.not_in((AutoStatus.CANCELLED.value, AutoStatus.ANNULLED.value)))))
    return stmt.order_by(Driver.search_key, Driver.id)


def convocation_count_in(s: Session, actor: Actor, kind: str, on: date | None = None) -> int:
    """How many drivers a filter chooses (a SQL COUNT; the dialog shows it before convoking)."""
    require_reader(actor)
    return int(s.scalar(select(func.count()).select_from(_chosen(kind, on or local_today()).order_by(None)
                                                          .subquery())) or 0)


def convocation_count(db, actor: Actor, kind: str, on: date | None = None) -> int:
    with db.session(write=False) as s:
        return convocation_count_in(s, actor, kind, on)


def convoke_in(s: Session, actor: Actor, session_id: int, kind: str = "", driver_ids: Iterable[int] = (),
               on: date | None = None) -> ConvocationResult:
    """Convoke to a planned session the drivers chosen by `kind` (CONVOCATION_FILTERS) and/or named, in name
    order, up to its capacity; those beyond it are counted in `left_out` (nothing is half-saved)."""
    require_role(actor, *ORGANIZERS)
    on = on or local_today()
    row = get_or_404(s, CourseSession, session_id, "Turma")
    if refusal(_SESSION_STEP["convoke"], row.status, actor.roles) is not None:
        raise ConflictError(f"A turma {session_number(row)} está {SESSION_STATUS_LABELS[row.status].lower()}: "
                            "não recebe convocações.")
    wanted = list(s.scalars(_chosen(kind, on))) if kind else []
    wanted = list(dict.fromkeys(wanted + [int(i) for i in driver_ids]))
    if not wanted:
        raise ValidationError([Problem("filter", "Nenhum condutor atende ao filtro escolhido.", ARTICLE)])
    existing = set(s.scalars(select(CourseAttendance.driver_id).where(CourseAttendance.session_id == row.id)))
    new = [d for d in wanted if d not in existing]
    free = max(0, row.capacity - len(existing))
    chosen, left = new[:free], new[free:]
    for driver_id in chosen:
        s.add(CourseAttendance(session_id=row.id, driver_id=driver_id, convoked_on=on,
                               status=ATTENDANCE_MACHINE.initial.value))
    s.flush()
    audit.record(s, actor, "course.convoke", "course_session", row.id, None,
                 {"filter": kind or "named", "convoked": len(chosen), "left_out": len(left),
                  "already": len(wanted) - len(new)})
    return ConvocationResult(len(chosen), len(wanted) - len(new), len(left), row.capacity)


def convoke(db, actor: Actor, session_id: int, kind: str = "", driver_ids: Iterable[int] = (),
            on: date | None = None) -> ConvocationResult:
    """See convoke_in (one transaction)."""
    with db.session() as s:
        return convoke_in(s, actor, session_id, kind, driver_ids, on)


def _attendance_infos(s: Session, rows, actor: Actor) -> tuple[AttendanceInfo, ...]:
    rows = list(rows)
    drivers = {d.id: d for d in s.scalars(select(Driver).where(Driver.id.in_([r.driver_id for r in rows] or [0])))}
    out = []
    for r in rows:
        status = ATTENDANCE_MACHINE.state(r.status)
        out.append(AttendanceInfo(
            r.id, r.session_id, r.driver_id, drivers[r.driver_id].name, format_cpf(drivers[r.driver_id].cpf), status,
            status.label, r.convoked_on, r.notice_number, r.note, r.justification_document_id, r.auto_id, r.version,
            available_actions(ATTENDANCE_STEPS, status, actor.roles,
                              AttendanceFacts(r.auto_id is not None, r.notice_number is not None,
                                              r.notice_joined_on is not None), _attendance_label),
            r.notice_joined_on))
    return tuple(sorted(out, key=lambda a: (a.driver_name, a.id)))


def attendances_in(s: Session, actor: Actor, session_id: int) -> tuple[AttendanceInfo, ...]:
    require_reader(actor)
    get_or_404(s, CourseSession, session_id, "Turma")
    return _attendance_infos(s, s.scalars(select(CourseAttendance).where(CourseAttendance.session_id == session_id)),
                             actor)


def attendances(db, actor: Actor, session_id: int) -> tuple[AttendanceInfo, ...]:
    """The drivers convoked to a session with their situation, by name."""
    with db.session(write=False) as s:
        return attendances_in(s, actor, session_id)


CONVOCATION_HEADERS = ("Turma", "Data", "Horário", "Local", "Tema", "Condutor", "CPF", "Notificação", "Situação")


def export_convocation_list(db, actor: Actor, session_id: int, path) -> int:
    """The convocation list as a CSV (';', UTF-8 with BOM for spreadsheets): to send it instead of printing.
    Names and CPFs leave the program: through the one exports writer (issue 25 item 6: the session checked first,
    formulas as text, the file in place only after the audit entry is committed)."""
    from desktop.services.exports import write_audited  # lazy: openpyxl only when exporting

    with db.session(write=False) as s:
        info = get_session_in(s, actor, session_id)
        rows = attendances_in(s, actor, session_id)
    hour = info.starts_at.astimezone(TIMEZONE).strftime("%H:%M") if info.starts_at else ""
    cells = [[info.number, format_date(info.held_on), hour, info.place, info.topic, a.driver_name, a.cpf_display,
              a.notice_number or "", a.status_label] for a in rows]
    name = Path(path).name

    def record(s, n: int) -> None:
        audit.record(s, actor, "export", "course_session", session_id, None,
                     {"list": f"Convocação da turma {info.number}", "rows": n, "file": name, "format": "csv",
                      "personal_data": True})

    return write_audited(db, actor, path, CONVOCATION_HEADERS, cells, record=record, suffixes=None)


def record_notice_numbers_in(s: Session, session_id: int, number: str) -> int:
    """The printed convocation notice's number on each convocation still without one (called by the printing
    service in the transaction that archives the notice)."""
    rows = list(s.scalars(select(CourseAttendance).where(CourseAttendance.session_id == session_id,
                                                         CourseAttendance.notice_number.is_(None))))
    for r in rows:
        r.notice_number = number
    return len(rows)


def print_convocation_notice(db, actor: Actor, session_id: int, state=None):
    """The convocation notice (Art. 12, §2): one page per convoked driver, archived with its number and hash
    (kind "notice"); the number is written on each convocation."""
    from desktop.reports import course_convocation  # lazy: ReportLab only when a notice is printed (start-up)
    from desktop.services.documents.archive import ISSUE_ROLES, RecordRef, issue_rendered  # lazy: idem

    require_role(actor, *ISSUE_ROLES["notice"])
    require_role(actor, *ORGANIZERS)

    def build(s, meta):
        # issue 28: signed by who issues it; at least 3 business days before the session (Lei 9.784/99, art. 26, §2)
        from desktop.services.holidays import calendar_in  # lazy: idem (only when a notice is printed)
        signer = signer_of(s, actor, settings_row(s).secretariat)
        return RecordRef("course_session", int(session_id)), course_convocation.build_context(
            s, session_id, meta, signer=signer, calendar=calendar_in(s),
            notice_number=next_notice_number_in(s, parse_number(meta.number)[1]))   # issue 28 point 1

    def after(s, issued, ctx):
        record_notice_numbers_in(s, int(session_id), ctx.notice_number)

    return issue_rendered(db, actor, "notice", build, course_convocation.render, after=after, state=state)


# -- attendance ----------------------------------------------------------------------------------------------
def record_attendance_in(s: Session, actor: Actor, session_id: int, present_ids: Iterable[int],
                         expected_version: int) -> SessionInfo:
    """From the signed attendance list: the drivers in `present_ids` were present, every other convoked one
    absent (an excused absence is recorded afterwards with its document). The session becomes "held"."""
    require_role(actor, *ORGANIZERS)
    row = get_or_404(s, CourseSession, session_id, "Turma")
    check_version(row, expected_version)
    if row.status == SessionStatus.CANCELLED:
        raise ConflictError(f"A turma {session_number(row)} foi cancelada.")
    if row.held_on > local_today():
        raise ValidationError([Problem("held_on", f"A turma é de {format_date(row.held_on)}: a presença só é "
                                                  "registrada a partir desse dia.", ARTICLE)])
    present = {int(i) for i in present_ids}
    items = list(s.scalars(select(CourseAttendance).where(CourseAttendance.session_id == row.id)))
    unknown = present - {a.driver_id for a in items}
    if unknown:
        raise ValidationError([Problem("present", f"{len(unknown)} condutor(es) marcado(s) presente(s) não "
                                                  "foram convocados para esta turma.", ARTICLE)])
    before = {a.id: a.status for a in items}
    for a in items:
        # a justified absence stays; an absence already turned into an auto stays (domain/courses.py)
        after = attendance_after_list(a.status, a.driver_id in present, a.auto_id is not None)
        if after != a.status:
            a.status = transition(ATTENDANCE_MACHINE, a.status, after).value
    if row.status != SessionStatus.HELD:
        row.status = transition(SESSION_MACHINE, row.status, SessionStatus.HELD).value
    s.flush()
    audit.record(s, actor, "course.attendance", "course_session", row.id, {"statuses": before},
                 {"present": len([a for a in items if a.status == AttendanceStatus.PRESENT]),
                  "absent": len([a for a in items if a.status == AttendanceStatus.ABSENT]), "status": "held"})
    return _session_info(row, _counts(s, [row.id])[row.id], actor)


def record_attendance(db, actor: Actor, session_id: int, present_ids: Iterable[int],
                      expected_version: int) -> SessionInfo:
    with db.session() as s:
        return record_attendance_in(s, actor, session_id, present_ids, expected_version)


def justify_absence_in(s: Session, actor: Actor, attendance_id: int, reason: str, content: bytes, filename: str,
                       expected_version: int) -> AttendanceInfo:
    """An absence justified with its document (a medical certificate…): the file checked by the attachment
    policy, kept in the driver's documents, and the convocation marked excused."""
    require_role(actor, *ORGANIZERS)
    row = get_or_404(s, CourseAttendance, attendance_id, "Convocação")
    check_version(row, expected_version)
    problems = []
    if not (reason or "").strip():
        problems.append(Problem("reason", "Informe o motivo da ausência.", ARTICLE))
    if row.status not in JUSTIFIABLE:
        problems.append(Problem("status", f"Só uma ausência pode ser justificada (situação: "
                                          f"{STATUS_LABELS[row.status].lower()}).", ARTICLE))
    if row.auto_id is not None:
        problems.append(Problem("status", "Esta ausência já deu origem a um auto de infração.", "Art. 26, III"))
    try:
        checked = check_attachment(content, filename, field="document")
    except ValidationError as error:
        problems += list(error.problems)
        checked = None
    if problems:
        raise ValidationError(problems)
    doc = attach_document_in(s, actor, checked.content, checked.filename, JUSTIFICATION_KIND,
                             issued_on=local_today(), driver_id=row.driver_id)
    before = {"status": row.status}
    row.status = transition(ATTENDANCE_MACHINE, row.status, AttendanceStatus.EXCUSED).value
    row.note = reason.strip()
    row.justification_document_id = doc.id
    s.flush()
    audit.record(s, actor, "course.justify", "course_attendance", row.id, before,
                 {"status": "excused", "reason": row.note, "document_id": doc.id})
    return _attendance_infos(s, [row], actor)[0]


def join_convocation_proof_in(s: Session, actor: Actor, attendance_id: int, joined_on: date,
                              expected_version: int) -> AttendanceInfo:
    """The proof that the convocation notice reached the driver joined on `joined_on` (issue 24 item 12; Art. 22,
    §2): only then is an unjustified absence offered for an Art. 26, III auto. The notice must have been printed
    (its number on the convocation); the day is not in the future nor before the convocation."""
    require_role(actor, *ORGANIZERS)
    row = get_or_404(s, CourseAttendance, attendance_id, "Convocação")
    check_version(row, expected_version)
    problems = []
    if row.notice_number is None:
        problems.append(Problem("notice_joined_on", "Imprima antes a notificação de convocação.", ARTICLE))
    if row.notice_joined_on is not None:
        raise ConflictError(f"A prova desta notificação já foi juntada em {format_date(row.notice_joined_on)}.")
    if not isinstance(joined_on, date):
        problems.append(Problem("notice_joined_on", "Informe a data da juntada da prova.", "Art. 22, §2"))
    elif joined_on > local_today():
        problems.append(Problem("notice_joined_on", "A data da juntada não pode ser futura.", "Art. 22, §2"))
    elif row.convoked_on is not None and joined_on < row.convoked_on:
        problems.append(Problem("notice_joined_on", "A prova não pode ser juntada antes da convocação.",
                                "Art. 22, §2"))
    if problems:
        raise ValidationError(problems)
    row.notice_joined_on = joined_on
    s.flush()
    audit.record(s, actor, "course.notice_proof", "course_attendance", row.id, {"notice_joined_on": None},
                 {"notice_joined_on": joined_on, "notice_number": row.notice_number})
    return _attendance_infos(s, [row], actor)[0]


def join_convocation_proof(db, actor: Actor, attendance_id: int, joined_on: date,
                           expected_version: int) -> AttendanceInfo:
    with db.session() as s:
        return join_convocation_proof_in(s, actor, attendance_id, joined_on, expected_version)


def justify_absence(db, actor: Actor, attendance_id: int, reason: str, content: bytes, filename: str,
                    expected_version: int) -> AttendanceInfo:
    with db.session() as s:
        return justify_absence_in(s, actor, attendance_id, reason, content, filename, expected_version)


# -- the fiscal's candidates (Art. 26, III) -------------------------------------------------------------------
def _unjustified():
    # domain.courses.absence_offered_for_auto, in SQL (the dashboard counts it): absent, no auto, notice proven
    return (CourseAttendance.status == AttendanceStatus.ABSENT.value, CourseAttendance.auto_id.is_(None),
            CourseAttendance.notice_joined_on.is_not(None))


def unjustified_absences_in(s: Session, actor: Actor) -> list[AbsenceCandidate]:
    """Unjustified absences without an auto, oldest session first: the fiscal's Art. 26, III candidates."""
    require_role(actor, *ENFORCERS)
    rows = s.execute(select(CourseAttendance.id, CourseSession.id, CourseSession.held_on, CourseSession.topic,
                            CourseSession.place, CourseAttendance.notice_number, Driver.id, Driver.name)
                     .join(CourseSession, CourseSession.id == CourseAttendance.session_id)
                     .join(Driver, Driver.id == CourseAttendance.driver_id)
                     .where(*_unjustified()).order_by(CourseSession.held_on, Driver.search_key).limit(2000)).all()
    return [AbsenceCandidate(aid, sid, f"{sid:04d}/{held.year}", did, name, held, topic, place, notice)
            for aid, sid, held, topic, place, notice, did, name in rows]


def unjustified_absences(db, actor: Actor) -> list[AbsenceCandidate]:
    with db.session(write=False) as s:
        return unjustified_absences_in(s, actor)


def unjustified_absence_count_in(s: Session, actor: Actor) -> int:
    """How many `unjustified_absences_in` lists (a SQL COUNT, for the home dashboard)."""
    require_role(actor, *ENFORCERS)
    return int(s.scalar(select(func.count(CourseAttendance.id)).where(*_unjustified())) or 0)


def absence_link_problems_in(s: Session, attendance_id: int, driver_id: int | None, code: str,
                             art13_item: str | None) -> list[Problem]:
    """What refuses an auto drawn up for an absence (checked with the auto's other problems)."""
    row = s.get(CourseAttendance, attendance_id)
    if row is None:
        return [Problem("course_attendance_id", "Convocação não encontrada.", ARTICLE)]
    problems = []
    if row.status != AttendanceStatus.ABSENT:
        problems.append(Problem("course_attendance_id", f"A convocação não é uma ausência sem justificativa "
                                                        f"(situação: {STATUS_LABELS[row.status].lower()}).",
                                "Art. 26, III"))
    if row.auto_id is not None:
        problems.append(Problem("course_attendance_id", "Esta ausência já deu origem a um auto de infração.",
                                "Art. 26, III"))
    elif row.status == AttendanceStatus.ABSENT and not absence_offered_for_auto(row.status, False,
                                                                                row.notice_joined_on):
        problems.append(Problem("course_attendance_id", "A prova de que o condutor recebeu a notificação de "
                                "convocação ainda não foi juntada: sem ela a ausência não é infração.",
                                "Art. 22, §2; Art. 26, III"))
    if (code or "").strip().upper() != AUTO_CODE:
        problems.append(Problem("code", "A ausência a curso convocado é infração do Art. 26, III.", "Art. 26, III"))
    elif (art13_item or "").strip().upper() != AUTO_ART13_ITEM:
        problems.append(Problem("art13_item", "O dever descumprido é o do Art. 13, XVI (cumprir as determinações "
                                              "do município).", "Art. 26, III"))
    if driver_id != row.driver_id:
        problems.append(Problem("driver_id", "O infrator deve ser o condutor convocado.", ARTICLE))
    return problems


def link_absence_auto_in(s: Session, actor: Actor, attendance_id: int, auto) -> None:
    """Bind the absence to the auto drawn up from it, inside the auto's transaction."""
    row = s.get(CourseAttendance, attendance_id, with_for_update=True)
    problems = absence_link_problems_in(s, attendance_id, auto.infractor_driver_id, auto.code, auto.art13_item)
    if problems:
        raise ValidationError(problems)
    row.auto_id = auto.id
    s.flush()
    audit.record(s, actor, "course.absence_auto", "course_attendance", row.id, None, {"auto_id": auto.id})


# -- the driver's page ---------------------------------------------------------------------------------------
def courses_of_driver_in(s: Session, actor: Actor, driver_id: int) -> tuple[DriverCourse, ...]:
    require_reader(actor)
    rows = s.execute(select(CourseSession.id, CourseSession.held_on, CourseSession.topic, CourseAttendance.status)
                     .join(CourseAttendance, CourseAttendance.session_id == CourseSession.id)
                     .where(CourseAttendance.driver_id == driver_id)
                     .order_by(CourseSession.held_on.desc(), CourseSession.id.desc())).all()
    return tuple(DriverCourse(sid, f"{sid:04d}/{held.year}", held, topic, AttendanceStatus(status),
                              AttendanceStatus(status).label)
                 for sid, held, topic, status in rows)


def courses_of_driver(db, actor: Actor, driver_id: int) -> tuple[DriverCourse, ...]:
    """Every course the driver was convoked to, with the situation (the driver's page)."""
    with db.session(write=False) as s:
        return courses_of_driver_in(s, actor, driver_id)

