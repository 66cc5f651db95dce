"""Writing autos (Art. 17, 19, 22): drawing one up with its debit in the ledger, cancelling it, keeping files.

Each use case has its session form `x_in(session, actor, ...)` and `x(db, actor, ...)` that opens the transaction."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from desktop.domain.dates import TIMEZONE, local_today
from desktop.domain.ledger import EntryKind
from desktop.domain.penalties import auto_year
from desktop.domain.problems import Problem
from desktop.domain.roles import ENFORCEMENT_ROLES
from desktop.domain.trips import one_fact_one_auto
from desktop.domain.workflow import AutoStatus
from desktop.errors import ValidationError
from desktop.models import LIVE_AUTHORIZATION_STATUSES, Auto, Authorization, Document, now
from desktop.models.platforms import AutoTripEvidence
from desktop.services import audit
from desktop.services.audit import snapshot
from desktop.services.autos.assessment import AutoDraft, assess_in, draft_problems_in
from desktop.services.locking import check_version
from desktop.services.permissions import require_role
from desktop.services.catalog import code_row_in_force, ensure_catalog, ensure_catalog_in, needs_art13
from desktop.services.changes import link_auto_in
from desktop.services.courses import link_absence_auto_in
from desktop.services.platform_lists import link_list_row_auto_in
from desktop.services.enforcement.core import (
    Attachment,
    auto_transition,
    debtor_of,
    load_auto,
    require_step,
    step_roles,
    store_attachment,
)
from desktop.services.enforcement.postings import post, reverse_auto_entries
from desktop.services.enforcement.records import RECURRENT_AUTOS_KEY, AutoInfo, DocumentRef, auto_info_in
from desktop.services.numbering import next_number
from desktop.services.penalties import apply_immediate_effects, lift_penalties_in


def document_ref(doc) -> DocumentRef:
    return DocumentRef(doc.id, doc.kind, doc.filename, doc.mime, doc.size, doc.created_at)


def _live_authorization(session, driver_id: int | None, vehicle_id: int | None):
    for column, value in ((Authorization.driver_id, driver_id), (Authorization.vehicle_id, vehicle_id)):
        if value is None:
            continue
        row = session.scalar(select(Authorization).where(
            column == value, Authorization.status.in_(LIVE_AUTHORIZATION_STATUSES))
            .order_by(Authorization.id.desc()).limit(1))
        if row is not None:
            return row
    return None


def _trips_already_in_an_auto(session, trip_ids) -> list[Problem]:
    """One fact, one auto (issue 24 item 10; Art. 19; domain.trips.one_fact_one_auto): a trip that is already the
    evidence of an auto not cancelled nor annulled is refused, naming that auto."""
    ids = sorted(set(trip_ids or ()))
    if not ids:
        return []
    rows = session.execute(select(AutoTripEvidence.trip_id, Auto.number, Auto.status)
                           .join(Auto, Auto.id == AutoTripEvidence.auto_id)
                           .where(AutoTripEvidence.trip_id.in_(ids)).order_by(Auto.id)).all()
    return one_fact_one_auto(rows)


def draw_up_auto_in(session, actor, draft: AutoDraft) -> AutoInfo:
    """`draw_up_auto` inside the caller's transaction."""
    require_role(actor, *ENFORCEMENT_ROLES.draw_up)
    ensure_catalog_in(session)
    problems = draft_problems_in(session, draft) + _trips_already_in_an_auto(session, draft.evidence_trip_ids)
    if problems:
        raise ValidationError(problems)
    # one moment of lavratura (Art. 25; issue 24 item 9): the stored moment, the number's year and the UPFM value's
    lavrado_at = now()
    view = assess_in(session, draft, lavrado_at=lavrado_at)
    code_row = code_row_in_force(session, draft.code, draft.on)
    authorization = _live_authorization(session, draft.driver_id, draft.vehicle_id)
    vehicle_id = draft.vehicle_id or (authorization.vehicle_id if authorization is not None else None)
    number = next_number(session, "auto", auto_year(draft.on, lavrado_at))
    stored = view.assessment.to_dict()
    stored[RECURRENT_AUTOS_KEY] = list(view.recurrent_autos)  # the priors' numbers, read back on the auto's page
    auto = Auto(
        number=number, drawn_up_at=datetime.combine(draft.on, draft.at, tzinfo=TIMEZONE),
        place=draft.place.strip(), infractor_driver_id=draft.driver_id,
        infractor_platform_id=draft.platform_id, vehicle_id=vehicle_id,
        authorization_id=authorization.id if authorization is not None else None,
        infraction_code_id=code_row.id, code=code_row.code,
        art13_item=((draft.art13_item or "").strip().upper() or None) if needs_art13(view.code) else None,
        description=draft.description.strip(), agent_id=draft.agent_id or actor.user_id,
        status=AutoStatus.DRAWN_UP.value, amount_upfm=view.upfm, upfm_value=view.upfm_value,
        amount_reais=view.amount_reais, recurrence=view.recurrence, assessment=stored, created_at=lavrado_at,
        lavrado_at=lavrado_at,  # SPEC (Art. 25; issue 24 item 9): the moment it was drawn up, beside the fact's
    )
    session.add(auto)
    session.flush()
    for doc_id in draft.evidence_document_ids:
        doc = session.get(Document, doc_id)
        doc.auto_id = auto.id
    for attachment in draft.evidence:
        store_attachment(session, actor, attachment, auto)
    for trip_id in dict.fromkeys(draft.evidence_trip_ids):  # issue 15: kept past the trips' retention period
        session.add(AutoTripEvidence(auto_id=auto.id, trip_id=trip_id))
    if draft.change_id is not None:  # SPEC §3: a late communication offered as an Art. 26, III infraction
        link_auto_in(session, actor, draft.change_id, auto)
    if draft.course_attendance_id is not None:  # issue 16: an unjustified course absence (Art. 13, XVI)
        link_absence_auto_in(session, actor, draft.course_attendance_id, auto)
    if draft.platform_list_row_id is not None:  # issue 27 (d): a discrepancy of a platform's list (Art. 5, VIII)
        link_list_row_auto_in(session, actor, draft.platform_list_row_id, auto)
    post(session, actor, kind=EntryKind.DEBIT, infractor=debtor_of(auto), amount_upfm=view.upfm,
         upfm_value=view.upfm_value, amount_reais=view.amount_reais, effective_on=draft.on, auto_id=auto.id,
         reason=f"Multa do auto {number} ({view.code}; {view.article})")
    session.flush()
    after = snapshot(auto)
    if draft.evidence_trip_ids:
        after["evidence_trip_ids"] = sorted(set(draft.evidence_trip_ids))
    audit.record(session, actor, "auto.draw_up", "auto", auto.id, None, after)
    apply_immediate_effects(session, actor, auto, draft.on)
    return auto_info_in(session, auto, actor)


def draw_up_auto(db, actor, draft: AutoDraft) -> AutoInfo:
    """Lavrar o auto (Art. 19, 22): the next NNNN/AAAA number, status `drawn_up`, what the law proposes stored
    beside it (with the numbers of the priors of a recurrence), the evidence bound to it and the fine posted as a
    debit in UPFM (SPEC §3). Fiscal only."""
    require_role(actor, *ENFORCEMENT_ROLES.draw_up)
    ensure_catalog(db)
    with db.session() as s:
        return draw_up_auto_in(s, actor, draft)


def _reason(reason: str, what: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError([Problem("reason", f"Informe o motivo {what}.", "Art. 17")])
    return reason


def cancel_auto_in(session, actor, auto_id: int, reason: str, expected_version: int) -> AutoInfo:
    """`cancel_auto` inside the caller's transaction."""
    require_role(actor, *step_roles("cancel"))
    reason = _reason(reason, "do cancelamento")
    auto = load_auto(session, auto_id, lock=True)
    check_version(auto, expected_version)
    require_step(auto, "cancel")
    before = {"status": auto.status}
    auto.status = auto_transition(auto, AutoStatus.CANCELLED).value
    auto.cancel_reason = reason
    auto.cancelled_by = actor.user_id
    auto.cancelled_at = now()
    session.flush()
    reverse_auto_entries(session, actor, auto, local_today(), f"Auto {auto.number} cancelado: {reason}")
    lift_penalties_in(session, actor, auto, local_today(), f"Auto {auto.number} cancelado: {reason}")
    audit.record(session, actor, "auto.cancel", "auto", auto.id, before, {"status": auto.status, "reason": reason})
    return auto_info_in(session, auto, actor)


def cancel_auto(db, actor, auto_id: int, reason: str, expected_version: int) -> AutoInfo:
    """Cancel an auto drawn up in error (Art. 17), with the reason; never deleted. The fine (and any reduction
    or cost) is reversed by entries pointing at their origins. Gestor only."""
    require_role(actor, *step_roles("cancel"))
    _reason(reason, "do cancelamento")
    with db.session() as s:
        return cancel_auto_in(s, actor, auto_id, reason, expected_version)


def attach_to_auto_in(session, actor, auto_id: int, attachment: Attachment) -> DocumentRef:
    """`attach_to_auto` inside the caller's transaction."""
    require_role(actor, *ENFORCEMENT_ROLES.attach)
    if not attachment.content:
        raise ValidationError([Problem("content", "O arquivo está vazio.")])
    auto = load_auto(session, auto_id)
    doc = store_attachment(session, actor, attachment, auto)
    audit.record(session, actor, "auto.attach", "auto", auto.id, None,
                 {"document_id": doc.id, "filename": doc.filename, "sha256": doc.sha256})
    return document_ref(doc)


def attach_to_auto(db, actor, auto_id: int, attachment: Attachment) -> DocumentRef:
    """Keep one more file with the auto (evidence, a proof, a petition)."""
    require_role(actor, *ENFORCEMENT_ROLES.attach)
    if not attachment.content:
        raise ValidationError([Problem("content", "O arquivo está vazio.")])
    with db.session() as s:
        return attach_to_auto_in(s, actor, auto_id, attachment)
