"""The fiscal's form and what the law proposes for it (Art. 19, 22; Art. 24-27): the draft, its problems all at
once (STYLE: Beancount's validators) and the assessment with the fine in UPFM and in reais."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time

from desktop.domain.dates import local_now, local_today
from desktop.domain.penalties import (
    ART13_DUTIES,
    InfractionNotInForce,
    UnknownInfractionCode,
    assess,
    auto_year,
    normalize_code,
)
from desktop.domain.problems import Problem
from desktop.errors import NotFound, ValidationError
from desktop.models import Document, Driver, Platform, User, Vehicle
from desktop.services.catalog import catalog_entries_in, code_row_in_force, ensure_catalog, needs_art13
from desktop.services.changes import link_problems_in
from desktop.services.courses import absence_link_problems_in
from desktop.services.platform_lists import list_row_link_problems_in
from desktop.services.enforcement.core import Attachment, Infractor, require_reader
from desktop.services.enforcement.records import AssessmentView, assessment_view
from desktop.services.enforcement.recurrence import priors_in, recurrence_window_in
from desktop.services.parameters import upfm_value_in


@dataclass(frozen=True, slots=True)
class AutoDraft:
    """The fiscal's form (Art. 19, 22). `agent_id` None: the fiscal saving it. `art13_item` only for ART26-III."""

    on: date
    at: time
    place: str
    code: str
    description: str
    driver_id: int | None = None
    platform_id: int | None = None
    vehicle_id: int | None = None
    art13_item: str | None = None
    agent_id: int | None = None
    evidence_document_ids: tuple[int, ...] = ()
    evidence: tuple[Attachment, ...] = ()
    change_id: int | None = None   # a late change communication (Art. 13, XVIII) this ART26-III auto answers
    course_attendance_id: int | None = None   # an unjustified course absence (Art. 12 §2, Art. 13 XVI; issue 16)
    evidence_trip_ids: tuple[int, ...] = ()  # issue 15: trips kept as evidence (auto_trip_evidence)
    platform_list_row_id: int | None = None  # a line of a platform's list (Art. 5, VIII) this auto answers


def draft_debtor(draft: AutoDraft) -> Infractor | None:
    """Who would owe the fine of the draft (Art. 20, 22): the driver if named, else the platform."""
    if draft.driver_id is not None:
        return Infractor.driver(draft.driver_id)
    if draft.platform_id is not None:
        return Infractor.platform(draft.platform_id)
    return None


def _code_problems(session, draft: AutoDraft) -> list[Problem]:
    code = normalize_code(draft.code or "")
    if not code:
        return [Problem("code", "Escolha o código da infração.", "Art. 26; Art. 27")]
    if not isinstance(draft.on, date):
        return []
    if code_row_in_force(session, code, draft.on) is None:
        return [Problem("code", f"O código {code} não existe ou não estava em vigor em {draft.on:%d/%m/%Y}.",
                        "Art. 29")]
    return []


def draft_problems_in(session, draft: AutoDraft, full: bool = True) -> list[Problem]:
    """Everything wrong with the form, at once. `full` False: only what the assessment needs."""
    problems: list[Problem] = []
    if not isinstance(draft.on, date) or isinstance(draft.on, datetime):
        problems.append(Problem("on", "Informe a data da infração.", "Art. 19"))
    elif draft.on > local_today():
        problems.append(Problem("on", "A data do auto não pode ser futura.", "Art. 19"))
    if full and not isinstance(draft.at, time):
        problems.append(Problem("at", "Informe a hora da infração.", "Art. 19"))
    if full and not (draft.place or "").strip():
        problems.append(Problem("place", "Informe o local da infração.", "Art. 19"))
    if full and not (draft.description or "").strip():
        problems.append(Problem("description", "Descreva o fato constatado.", "Art. 22"))
    if draft.driver_id is None and draft.platform_id is None:
        problems.append(Problem("driver_id", "Indique o infrator: o condutor, a plataforma ou ambos.",
                                "Art. 20; Art. 22"))
    if draft.driver_id is not None and session.get(Driver, draft.driver_id) is None:
        problems.append(Problem("driver_id", "Condutor não encontrado."))
    if draft.platform_id is not None and session.get(Platform, draft.platform_id) is None:
        problems.append(Problem("platform_id", "Plataforma não encontrada."))
    if draft.vehicle_id is not None and session.get(Vehicle, draft.vehicle_id) is None:
        problems.append(Problem("vehicle_id", "Veículo não encontrado."))
    problems += _code_problems(session, draft)
    if needs_art13(draft.code or ""):
        item = (draft.art13_item or "").strip().upper()
        if item not in ART13_DUTIES:
            problems.append(Problem("art13_item", "Indique o inciso do Art. 13 descumprido (I a XXIII).",
                                    "Art. 26, III"))
    if full:
        if draft.agent_id is not None and session.get(User, draft.agent_id) is None:
            problems.append(Problem("agent_id", "Agente fiscalizador não encontrado."))
        for doc_id in draft.evidence_document_ids:
            doc = session.get(Document, doc_id)
            if doc is None:
                problems.append(Problem("evidence_document_ids", f"Arquivo {doc_id} não encontrado."))
            elif doc.auto_id is not None:
                problems.append(Problem("evidence_document_ids",
                                        f"O arquivo «{doc.filename}» já pertence a outro auto."))
        for att in draft.evidence:
            if not att.content:
                problems.append(Problem("evidence", f"O arquivo «{att.filename}» está vazio."))
        if draft.change_id is not None:
            problems += link_problems_in(session, draft.change_id, draft.driver_id, draft.code, draft.art13_item)
        if draft.course_attendance_id is not None:
            problems += absence_link_problems_in(session, draft.course_attendance_id, draft.driver_id, draft.code,
                                                 draft.art13_item)
        if draft.platform_list_row_id is not None:
            problems += list_row_link_problems_in(session, draft.platform_list_row_id)
    return problems


def draft_problems(db, actor, draft: AutoDraft) -> list[Problem]:
    """Everything wrong with the form, at once (STYLE: Beancount's validators); it reads the infractor's records,
    so `ENFORCEMENT_ROLES.read` (issue 25 item 7)."""
    require_reader(actor)
    ensure_catalog(db)
    with db.session(write=False) as s:
        return draft_problems_in(s, draft)


def assess_in(session, draft: AutoDraft, exclude_auto_id: int | None = None,
              lavrado_at: datetime | None = None) -> AssessmentView:
    """What `domain.assess` proposes for the draft given the debtor's final autos (Art. 24-27), with the numbers
    of the autos that make it a recurrence and the amounts at the UPFM value of the auto's year: the year of the
    lavratura `lavrado_at` (Art. 25; SPEC §3: "the value of the year the auto was drawn up (lavrado)";
    `domain.auto_year`; None: the infraction's year). The recurrence is still counted on the infraction's date."""
    problems = draft_problems_in(session, draft, full=False)
    if problems:
        raise ValidationError(problems)
    debtor = draft_debtor(draft)
    assert debtor is not None
    priors = priors_in(session, debtor, exclude_auto_id)
    window = recurrence_window_in(session, draft.on)
    try:
        result = assess(draft.code, draft.on, [p for p, _ in priors], window, catalog=catalog_entries_in(session))
    except (UnknownInfractionCode, InfractionNotInForce) as exc:
        raise ValidationError([Problem("code", str(exc), "Art. 29")]) from exc
    numbers = tuple(sorted({n for p, n in priors if p in result.recurrent_priors}))
    year = auto_year(draft.on, lavrado_at)
    try:
        value = upfm_value_in(session, year)
    except NotFound as exc:  # the form shows it beside the date (Art. 25: fines in UPFM of the lavratura's year)
        raise ValidationError([Problem("on", str(exc), "Art. 25")]) from exc
    return assessment_view(result, value, numbers, upfm_year=year)


def preview_assessment(db, actor, draft: AutoDraft, lavrado_at: datetime | None = None) -> AssessmentView:
    """What `domain.assess` proposes for the draft given the debtor's final autos, with the amount in UPFM and in
    reais at the UPFM value of the auto's year (half-up): the year of its lavratura (Art. 25), `lavrado_at` or, by
    default, now — the form previews the auto it would draw up now. Writes nothing. The priors are the
    infractor's legal record: `ENFORCEMENT_ROLES.read` (issue 25 item 7)."""
    require_reader(actor)
    ensure_catalog(db)
    moment = lavrado_at if lavrado_at is not None else local_now()
    with db.session(write=False) as s:
        return assess_in(s, draft, lavrado_at=moment)
