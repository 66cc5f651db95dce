"""Requests for data to a platform (Art. 4): justified, with the period and the fields of §1 I–VII; for an
investigation (§2) the platform has 24 hours from the date-time it was notified. The answer is recorded with the
date-time it arrived and its file (kept as a Document of the platform); a late answer is flagged.

Each use case has two forms: `x_in(session, actor, …)` inside a given transaction, `x(db, actor, …)` opening one.
The ofício prints through the documents service (`desktop.services.documents.print_data_request`).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from sqlalchemy import select

from desktop.domain import local_now
from desktop.domain.data_requests import (
    DATA_REQUEST_MACHINE,
    DATA_REQUEST_STEPS,
    DataRequestStatus,
    LateRequestFacts,
    awaiting_answer,
)
from desktop.domain.steps import Action, available_actions, refusal
from desktop.domain.platform_lists import (
    DATA_FIELDS,
    countdown_text,
    data_request_due,
    data_request_late,
    late_request_code,
    left_out_fields,
    narrowing_problems,
    validate_data_request,
)
from desktop.domain.problems import Problem
from desktop.domain.roles import DATA_REQUEST_ROLES
from desktop.domain.workflow import transition
from desktop.errors import ConflictError, ValidationError
from desktop.importers.answers import clean_answer
from desktop.domain.documents import format_plate
from desktop.models import Driver, Platform, Vehicle
from desktop.models.platforms import DataRequest
from desktop.models.registry import Document
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.locking import check_version
from desktop.services.permissions import require_role
from desktop.services.catalog import list_codes_in
from desktop.services.numbering import next_number
from desktop.services.lookups import get_or_404
from desktop.services.permissions import require_reader
from sqlalchemy import func

__all__ = [
    "REQUEST_ROLES", "STATUS_LABELS", "DATA_REQUEST_STEPS", "ANSWER_KIND", "DataRequestDraft", "DataRequestInfo",
    "create_data_request_in", "create_data_request", "notify_data_request_in", "notify_data_request",
    "answer_data_request_in", "answer_data_request", "cancel_data_request_in", "cancel_data_request",
    "data_requests_of_in", "data_requests_of", "get_data_request", "print_data_request",
    "make_demo_data_requests_in", "OpenRequests", "open_request_counts_in",
]

REQUEST_ROLES = DATA_REQUEST_ROLES.request
ANSWER_KIND = "Resposta à requisição de dados (Art. 4º)"
MAX_ANSWER_BYTES = 64 * 1024 * 1024
STATUS_LABELS = {s.value: s.label for s in DataRequestStatus}   # domain/data_requests.py
_STEP = {s.key: s for s in DATA_REQUEST_STEPS}


@dataclass(frozen=True, slots=True)
class DataRequestDraft:
    platform_id: int
    justification: str
    period_start: date | None
    period_end: date | None
    want_origin_destination: bool = True
    want_time_distance: bool = True
    want_route: bool = True
    want_driver: bool = True
    want_fare: bool = True
    want_rating: bool = True
    other_data: str | None = None         # VII, described
    investigation: bool = False           # §2: 24-hour term
    notified_at: datetime | None = None   # when the platform was notified (may be recorded later)
    narrowing_reason: str | None = None   # why any of §1 I-VI is left out (all six by default; issue 24 item 12)
    driver_id: int | None = None          # the driver the request is about, if one (issue 24 item 12)
    vehicle_id: int | None = None         # the vehicle the request is about, if one


@dataclass(frozen=True, slots=True)
class DataRequestInfo:
    id: int
    number: str
    platform_id: int
    platform_name: str
    justification: str
    period_start: date
    period_end: date
    fields: tuple[str, ...]               # roman numerals of §1
    other_data: str | None
    investigation: bool
    notified_at: datetime | None
    due_at: datetime | None
    answered_at: datetime | None
    answer_document_id: int | None
    status: DataRequestStatus
    status_label: str
    late: bool
    countdown: str                        # as of the moment the info was read
    version: int
    actions: tuple[Action, ...]
    awaiting: bool = False                # notified, its 24 hours running or run out, unanswered (Art. 4, §2)
    # the columns of the answer dropped as passengers' data before it was stored (Art. 4 caput; issue 24 item 11):
    # given by `answer_data_request`, and kept in its audit entry
    answer_dropped: tuple[str, ...] = ()
    narrowing_reason: str | None = None   # why the request leaves out any of Art. 4 §1 I-VI
    late_code: str | None = None          # the decree's code offered for the late request's auto (issue 24 item 12)
    driver_id: int | None = None          # the driver / vehicle the request is about (issue 24 item 12)
    driver_name: str = ""
    vehicle_id: int | None = None
    plate: str = ""


def _wanted(obj) -> dict[str, bool]:
    return {k: bool(getattr(obj, k)) for k in DATA_FIELDS}


def _answer_document_in(session, row: DataRequest) -> int | None:
    return session.execute(select(Document.id).where(
        Document.platform_id == row.platform_id, Document.kind == ANSWER_KIND,
        Document.number == _number(row)).order_by(Document.id.desc()).limit(1)).scalar()


def _number(row: DataRequest) -> str:
    """The request's NNNN/AAAA; a request made before the series existed shows its internal code."""
    return row.number or f"{row.id:04d}/{row.period_end.year}"


def _info_in(session, row: DataRequest, actor: Actor, now: datetime | None = None) -> DataRequestInfo:
    now = now or local_now()
    status = DATA_REQUEST_MACHINE.state(row.status)
    cancelled = status is DataRequestStatus.CANCELLED
    late = not cancelled and data_request_late(row.due_at, row.answered_at, now)
    platform = session.get(Platform, row.platform_id)
    late = not cancelled and data_request_late(row.due_at, row.answered_at, now)
    driver = session.get(Driver, row.driver_id) if row.driver_id is not None else None
    vehicle = session.get(Vehicle, row.vehicle_id) if row.vehicle_id is not None else None
    # issue 24 item 12: a late request offers its next step, the auto by a decree code citing Art. 4 (if any)
    late_code = late_request_code((c.code, c.article) for c in list_codes_in(session, on=now.date())) if late \
        else None
    fields = tuple(numeral for key, (numeral, _) in DATA_FIELDS.items() if getattr(row, key))
    if row.other_data:
        fields += ("VII",)
    return DataRequestInfo(
        id=row.id, number=_number(row), platform_id=row.platform_id,
        platform_name=platform.trade_name or platform.legal_name, justification=row.justification,
        period_start=row.period_start, period_end=row.period_end, fields=fields, other_data=row.other_data,
        investigation=row.investigation, notified_at=row.notified_at, due_at=row.due_at,
        answered_at=row.answered_at, answer_document_id=_answer_document_in(session, row) if row.answered_at else None,
        status=status, status_label=status.label,
        late=late,
        countdown=countdown_text(row.due_at, row.answered_at, now) if not cancelled else "cancelada",
        version=row.version,
        actions=available_actions(DATA_REQUEST_STEPS, status, actor.roles, LateRequestFacts(late, late_code),
                                  label_of=_label),
        late_code=late_code,
        awaiting=awaiting_answer(status, row.due_at, row.answered_at),
        narrowing_reason=row.narrowing_reason,
        driver_id=row.driver_id, driver_name=driver.name if driver is not None else "",
        vehicle_id=row.vehicle_id, plate=format_plate(vehicle.plate) if vehicle is not None else "",
    )


def _label(value: str) -> str:
    return DataRequestStatus(value).label


def _check_step(row: DataRequest, actor: Actor, key: str) -> None:
    reason = refusal(_STEP[key], row.status, actor.roles, label_of=_label)
    if reason:
        raise ConflictError(f"{_STEP[key].label.rstrip('…')}: {reason}.")


def create_data_request_in(session, actor: Actor, draft: DataRequestDraft) -> DataRequestInfo:
    require_role(actor, *REQUEST_ROLES)
    now = local_now()
    problems = validate_data_request(draft.justification, draft.period_start, draft.period_end, _wanted(draft),
                                     draft.other_data, draft.investigation, draft.notified_at, now)
    problems += narrowing_problems(_wanted(draft), draft.narrowing_reason)  # Art. 4 §1: all six unless said why
    if draft.driver_id is not None and session.get(Driver, draft.driver_id) is None:
        problems.append(Problem("driver_id", "Condutor não encontrado."))
    if draft.vehicle_id is not None and session.get(Vehicle, draft.vehicle_id) is None:
        problems.append(Problem("vehicle_id", "Veículo não encontrado."))
    if problems:
        raise ValidationError(problems)
    platform = get_or_404(session, Platform, draft.platform_id, "Plataforma")
    row = DataRequest(
        platform_id=platform.id, justification=draft.justification.strip(), period_start=draft.period_start,
        period_end=draft.period_end, other_data=(draft.other_data or "").strip() or None,
        narrowing_reason=((draft.narrowing_reason or "").strip() or None) if left_out_fields(_wanted(draft)) else None,
        driver_id=draft.driver_id, vehicle_id=draft.vehicle_id,
        investigation=bool(draft.investigation), notified_at=draft.notified_at,
        due_at=data_request_due(draft.investigation, draft.notified_at),
        status=(DataRequestStatus.SENT if draft.notified_at else DATA_REQUEST_MACHINE.initial).value,
        created_by=actor.user_id, **_wanted(draft),
        # its own NNNN/AAAA series (issue 14), printed on the ofício and shown in the lists; consumed only when
        # this transaction commits (no gaps)
        number=next_number(session, "data_request", now.year))
    session.add(row)
    session.flush()
    audit.record(session, actor, "data_request.create", "platform", platform.id, None, audit.snapshot(row))
    return _info_in(session, row, actor, now)


def create_data_request(db, actor: Actor, draft: DataRequestDraft) -> DataRequestInfo:
    with db.session() as s:
        return create_data_request_in(s, actor, draft)


def notify_data_request_in(session, actor: Actor, request_id: int, notified_at: datetime,
                           expected_version: int) -> DataRequestInfo:
    """The platform was notified: for an investigation its 24 hours start now (Art. 4, §2)."""
    require_role(actor, *REQUEST_ROLES)
    row = get_or_404(session, DataRequest, request_id, "Requisição de dados")
    check_version(row, expected_version)
    _check_step(row, actor, "notify")
    now = local_now()
    if notified_at is None:
        raise ValidationError([Problem("notified_at", "Informe a data-hora da notificação.", "Art. 4, §2")])
    problems = [p for p in validate_data_request(row.justification, row.period_start, row.period_end,
                                                 _wanted(row), row.other_data, row.investigation, notified_at, now)]
    if problems:
        raise ValidationError(problems)
    before = {"status": row.status, "notified_at": row.notified_at}
    row.notified_at = notified_at
    row.due_at = data_request_due(row.investigation, notified_at)
    row.status = transition(DATA_REQUEST_MACHINE, row.status, DataRequestStatus.SENT).value
    session.flush()
    audit.record(session, actor, "data_request.notify", "platform", row.platform_id, before,
                 {"data_request_id": row.id, "status": "sent", "notified_at": notified_at, "due_at": row.due_at})
    return _info_in(session, row, actor, now)


def notify_data_request(db, actor: Actor, request_id: int, notified_at: datetime,
                        expected_version: int) -> DataRequestInfo:
    with db.session() as s:
        return notify_data_request_in(s, actor, request_id, notified_at, expected_version)


def answer_data_request_in(session, actor: Actor, request_id: int, answered_at: datetime, content: bytes,
                           filename: str, expected_version: int) -> DataRequestInfo:
    """The platform's answer arrived at `answered_at` with its file; after the 24 hours it is flagged late."""
    require_role(actor, *REQUEST_ROLES)
    row = get_or_404(session, DataRequest, request_id, "Requisição de dados")
    check_version(row, expected_version)
    _check_step(row, actor, "answer")
    now = local_now()
    content = bytes(content or b"")
    problems = []
    if answered_at is None:
        problems.append(Problem("answered_at", "Informe a data-hora em que a resposta chegou."))
    elif answered_at.tzinfo is None:
        problems.append(Problem("answered_at", "A data-hora da resposta precisa do fuso horário."))
    elif answered_at > now + timedelta(minutes=5):
        problems.append(Problem("answered_at", "A resposta não pode ter chegado no futuro."))
    elif row.notified_at and answered_at < row.notified_at:
        problems.append(Problem("answered_at", "A resposta não pode ser anterior à notificação."))
    if not content:
        problems.append(Problem("file", "Anexe o arquivo da resposta da plataforma."))
    elif len(content) > MAX_ANSWER_BYTES:
        problems.append(Problem("file", f"O arquivo tem mais de {MAX_ANSWER_BYTES // (1024 * 1024)} MB."))
    if not (filename or "").strip():
        problems.append(Problem("file", "Informe o nome do arquivo da resposta."))
    if problems:
        raise ValidationError(problems)
    name = filename.replace("\\", "/").rsplit("/", 1)[-1].strip()[-255:]
    # Art. 4 caput (SPEC §3: passengers' identity is never kept, "not in the stored answer to a data request"):
    # only the cleaned file is stored; the names of the columns dropped go to the audit, never their values
    clean = clean_answer(content, name)
    received = hashlib.sha256(content).hexdigest()
    content = clean.content
    digest = hashlib.sha256(content).hexdigest()
    doc = Document(kind=ANSWER_KIND, number=_number(row), issued_on=answered_at.date(), sha256=digest,
                   content=content, mime=_mime(name), filename=name, size=len(content),
                   uploaded_by=actor.user_id, platform_id=row.platform_id)
    session.add(doc)
    before = {"status": row.status, "answered_at": None}
    row.answered_at = answered_at
    row.status = transition(DATA_REQUEST_MACHINE, row.status, DataRequestStatus.ANSWERED).value
    session.flush()
    late = data_request_late(row.due_at, answered_at, now)
    audit.record(session, actor, "data_request.answer", "platform", row.platform_id, before,
                 {"data_request_id": row.id, "answered_at": answered_at, "document_id": doc.id, "sha256": digest,
                  "received_sha256": received, "dropped_columns": list(clean.dropped), "late": late})
    return replace(_info_in(session, row, actor, now), answer_dropped=clean.dropped)


def _mime(filename: str) -> str:
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return {"csv": "text/csv", "pdf": "application/pdf", "json": "application/json", "zip": "application/zip",
            "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}.get(
        ext, "application/octet-stream")


def answer_data_request(db, actor: Actor, request_id: int, answered_at: datetime, content: bytes, filename: str,
                        expected_version: int) -> DataRequestInfo:
    with db.session() as s:
        return answer_data_request_in(s, actor, request_id, answered_at, content, filename, expected_version)


def cancel_data_request_in(session, actor: Actor, request_id: int, reason: str,
                           expected_version: int) -> DataRequestInfo:
    require_role(actor, *REQUEST_ROLES)
    row = get_or_404(session, DataRequest, request_id, "Requisição de dados")
    check_version(row, expected_version)
    _check_step(row, actor, "cancel")
    if not (reason or "").strip():
        raise ValidationError([Problem("reason", "Informe o motivo do cancelamento.")])
    before = {"status": row.status}
    row.status = transition(DATA_REQUEST_MACHINE, row.status, DataRequestStatus.CANCELLED).value
    session.flush()
    audit.record(session, actor, "data_request.cancel", "platform", row.platform_id, before,
                 {"data_request_id": row.id, "status": "cancelled", "reason": reason.strip()})
    return _info_in(session, row, actor)


def cancel_data_request(db, actor: Actor, request_id: int, reason: str, expected_version: int) -> DataRequestInfo:
    with db.session() as s:
        return cancel_data_request_in(s, actor, request_id, reason, expected_version)


def data_requests_of_in(session, actor: Actor, platform_id: int) -> tuple[DataRequestInfo, ...]:
    require_reader(actor)
    now = local_now()
    rows = session.execute(select(DataRequest).where(DataRequest.platform_id == platform_id)
                           .order_by(DataRequest.id.desc())).scalars().all()
    return tuple(_info_in(session, r, actor, now) for r in rows)


def data_requests_of(db, actor: Actor, platform_id: int) -> tuple[DataRequestInfo, ...]:
    with db.session(write=False) as s:
        return data_requests_of_in(s, actor, platform_id)


@dataclass(frozen=True, slots=True)
class OpenRequests:
    """The notified requests still unanswered (Art. 4, §2: 24 hours), for the home dashboard (issue 16)."""

    running: int                     # the term runs (due_at in the future)
    late: int                        # the term passed without an answer
    next_due_at: datetime | None     # the soonest end of a running term (the tile's live countdown)
    next_platform_id: int | None     # its platform (the tile opens it); the late one's when none runs


def open_request_counts_in(session, actor: Actor, now: datetime | None = None) -> OpenRequests:
    """SQL COUNTs of the unanswered notified requests: running and late, and the soonest deadline."""

    require_reader(actor)
    now = now or local_now()
    waiting = (DataRequest.status == DataRequestStatus.SENT.value, DataRequest.answered_at.is_(None), DataRequest.due_at.is_not(None))
    running = session.scalar(select(func.count(DataRequest.id)).where(*waiting, DataRequest.due_at > now)) or 0
    late = session.scalar(select(func.count(DataRequest.id)).where(*waiting, DataRequest.due_at <= now)) or 0
    soonest = (DataRequest.due_at > now) if running else (DataRequest.due_at <= now)
    first = session.execute(select(DataRequest.due_at, DataRequest.platform_id).where(*waiting, soonest)
                            .order_by(DataRequest.due_at, DataRequest.id).limit(1)).first()
    return OpenRequests(int(running), int(late), first[0] if first is not None and running else None,
                        first[1] if first is not None else None)


def get_data_request(db, actor: Actor, request_id: int) -> DataRequestInfo:
    require_reader(actor)
    with db.session(write=False) as s:
        return _info_in(s, get_or_404(s, DataRequest, request_id, "Requisição de dados"), actor)


def print_data_request(db, actor: Actor, request_id: int):
    """The ofício (the documents service numbers, archives and renders it)."""
    from desktop.services import documents  # lazy: ReportLab and the documents package load only to print

    return documents.print_data_request(db, actor, str(request_id))


def make_demo_data_requests_in(session, actor: Actor, now: datetime | None = None) -> dict[str, int]:
    """Demo records on the first active platform: one answered on time, one open within its 24 hours, one late
    (open after its 24 hours) and one answered late. Returns {"requests": n}."""
    now = now or local_now()
    platform = session.execute(select(Platform).where(Platform.status == "active").order_by(Platform.id)
                               .limit(1)).scalar()
    if platform is None:
        return {"requests": 0}
    today = now.date()
    specs = [  # (hours ago notified, hours after notification answered or None)
        (30, 20), (3, None), (40, None), (50, 30)]
    made = 0
    for hours_ago, answered_after in specs:
        notified = now - timedelta(hours=hours_ago)
        row = DataRequest(platform_id=platform.id, justification="Apuração de denúncia recebida pela Ouvidoria.",
                          period_start=today - timedelta(days=30), period_end=today - timedelta(days=1),
                          investigation=True, notified_at=notified, due_at=data_request_due(True, notified),
                          status=DataRequestStatus.SENT.value, created_by=actor.user_id,
                          number=next_number(session, "data_request", now.year))
        if answered_after is not None:
            row.answered_at = notified + timedelta(hours=answered_after)
            row.status = DataRequestStatus.ANSWERED.value
        session.add(row)
        session.flush()
        audit.record(session, actor, "data_request.create", "platform", platform.id, None, audit.snapshot(row))
        made += 1
    return {"requests": made}
