"""Autos de infração (Art. 19, 22; penalties Art. 24-27): the fiscal's form, what the law proposes for it, the
numbered auto with its debit in the ledger, its cancellation by a gestor, lists and the infractor's page.

An auto is never deleted. What `domain.assess` proposed is stored beside it (`assessment`); the gestor's decision
(process.judge) says which penalties take effect when the decision becomes final (penalties.py).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from desktop.domain.dates import TIMEZONE, local_today
from desktop.domain.ledger import EntryKind
from desktop.domain.penalties import (
    ART13_DUTIES,
    Assessment,
    InfractionNotInForce,
    Prior,
    Severity,
    UnknownInfractionCode,
    assess,
    fine_in_reais,
    normalize_code,
)
from desktop.domain.problems import Problem
from desktop.domain.roles import Role
from desktop.domain.workflow import (
    AUTO_COUNTS_FOR_RECURRENCE,
    AUTO_MACHINE,
    AutoStatus,
    TransitionNotAllowed,
    allowed,
    transition,
)
from desktop.errors import NotFound, PermissionDenied, TransitionRefused, ValidationError
from desktop.services.ledger import EntryInfo, Infractor, debtor_of

ZERO = Decimal(0)
READER_ROLES = (Role.ATENDENTE, Role.FISCAL, Role.GESTOR, Role.ADMINISTRADOR)
INFRACTOR_PAGE_LIMIT = 500


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file to keep with an auto (evidence, proof of notice, defense, appeal)."""

    filename: str
    content: bytes
    mime: str = "application/pdf"
    kind: str = "evidence"


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


@dataclass(frozen=True, slots=True)
class AssessmentView:
    """What the law proposes for a draft (SPEC §3: the system proposes, the gestor confirms)."""

    code: str
    article: str
    severity: Severity
    severity_label: str
    upfm: Decimal
    upfm_value: Decimal
    amount_reais: Decimal
    recurrence: bool
    recurrent_autos: tuple[str, ...]
    suspension_days: int
    suspension_months: int
    cassation: bool
    vehicle_seizure: bool
    impediment: bool
    articles: tuple[str, ...]
    penalty_text: str
    window_start: date | None
    assessment: Assessment


@dataclass(frozen=True, slots=True)
class DocumentRef:
    id: int
    kind: str
    filename: str
    mime: str
    size: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class AutoInfo:
    id: int
    number: str
    drawn_up_at: datetime
    place: str
    code: str
    article: str
    severity: Severity
    art13_item: str | None
    description: str
    driver_id: int | None
    driver_name: str
    platform_id: int | None
    platform_name: str
    vehicle_id: int | None
    plate: str
    authorization_id: int | None
    authorization_number: str
    agent_id: int | None
    agent_name: str
    status: AutoStatus
    status_label: str
    amount_upfm: Decimal
    upfm_value: Decimal
    amount_reais: Decimal
    recurrence: bool
    assessment: Assessment | None
    notice_joined_on: date | None
    defense_deadline: date | None
    appeal_deadline: date | None
    payment_deadline: date | None
    final_on: date | None
    cancel_reason: str | None
    balance_upfm: Decimal
    version: int

    @property
    def infractor(self) -> Infractor:
        """The debtor (ledger.debtor_of): the driver if any, else the platform."""
        if self.driver_id is not None:
            return Infractor.driver(self.driver_id)
        return Infractor.platform(self.platform_id)  # type: ignore[arg-type]

    @property
    def infractor_name(self) -> str:
        return self.driver_name or self.platform_name


@dataclass(frozen=True, slots=True)
class AutoAction:
    key: str
    label: str
    article: str
    roles: frozenset


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
    actions: tuple[AutoAction, ...] = ()


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


# ---------------------------------------------------------------------------------------------------------
# Actions the status machine allows (one table for the buttons and for the services)
# ---------------------------------------------------------------------------------------------------------

_F, _G, _A = Role.FISCAL, Role.GESTOR, Role.ATENDENTE
ACTIONS: dict[str, AutoAction] = {a.key: a for a in (
    AutoAction("notify", "Registrar notificação", "Art. 22, §1", frozenset({_F, _G})),
    AutoAction("join_proof", "Juntar prova da notificação", "Art. 22, §2", frozenset({_F, _G})),
    AutoAction("defense", "Registrar defesa prévia", "Art. 22, caput", frozenset({_A, _F, _G})),
    AutoAction("judge", "Julgar", "Art. 22, caput", frozenset({_G})),
    AutoAction("appeal", "Registrar recurso", "Art. 22, caput", frozenset({_A, _F, _G})),
    AutoAction("judge_appeal", "Julgar recurso", "Art. 22, caput", frozenset({_G})),
    AutoAction("finalize", "Encerrar prazo (decisão definitiva)", "Art. 22, caput", frozenset({_G})),
    AutoAction("payment", "Registrar pagamento", "Art. 13, XXI", frozenset({_A, _G})),
    AutoAction("measure", "Registrar medida administrativa", "Art. 24, II", frozenset({_F, _G})),
    AutoAction("cancel", "Cancelar auto", "Art. 17", frozenset({_G})),
    AutoAction("annul", "Anular de ofício", "Art. 17", frozenset({_G})),
    AutoAction("divida_ativa", "Inscrever em dívida ativa", "Art. 22, caput", frozenset({_G})),
)}
del _F, _G, _A


def auto_transition(auto, target: AutoStatus) -> AutoStatus:
    """`domain.transition` on the auto machine, refused as TransitionRefused (Portuguese)."""
    try:
        return transition(AUTO_MACHINE, auto.status, target)
    except TransitionNotAllowed as exc:
        raise TransitionRefused(f"Auto {auto.number}: {exc}") from exc


def action_keys(auto, today: date, pending_proof: bool = False) -> list[str]:
    """The actions open on an auto today, in button order (status machine + the running terms)."""
    status = AutoStatus(auto.status)
    reach = allowed(AUTO_MACHINE, status)
    keys: list[str] = []
    if status in (AutoStatus.DRAWN_UP, AutoStatus.NOTIFIED):
        keys.append("notify")
        if pending_proof:
            keys.append("join_proof")
    defense_open = auto.defense_deadline is not None and today <= auto.defense_deadline
    appeal_open = auto.appeal_deadline is not None and today <= auto.appeal_deadline
    if AutoStatus.IN_DEFENSE in reach and defense_open:
        keys.append("defense")
    if status is AutoStatus.IN_DEFENSE or (status is AutoStatus.NOTIFIED and not defense_open):
        keys.append("judge")
    if AutoStatus.IN_APPEAL in reach and appeal_open:
        keys.append("appeal")
    if status is AutoStatus.IN_APPEAL:
        keys.append("judge_appeal")
    if (status is AutoStatus.NOTIFIED and not defense_open) or (status is AutoStatus.JUDGED and not appeal_open):
        keys.append("finalize")
    if AutoStatus.PAID in reach:
        keys.append("payment")
    if status not in (AutoStatus.CANCELLED, AutoStatus.ANNULLED):
        keys.append("measure")
    if AutoStatus.DIVIDA_ATIVA in reach:
        keys.append("divida_ativa")
    if AutoStatus.CANCELLED in reach:
        keys.append("cancel")
    if AutoStatus.ANNULLED in reach and status in (AutoStatus.FINAL, AutoStatus.OVERDUE):
        keys.append("annul")
    return keys


def _actions_in(session, auto, actor=None, today: date | None = None) -> tuple[AutoAction, ...]:
    from sqlalchemy import select

    from desktop.models import AutoNotification

    pending = session.scalar(select(AutoNotification.id).where(
        AutoNotification.auto_id == auto.id, AutoNotification.proof_joined_on.is_(None)).limit(1)) is not None
    result = []
    for key in action_keys(auto, today or local_today(), pending):
        action = ACTIONS[key]
        if actor is None or actor.has(*action.roles):
            result.append(action)
    return tuple(result)


def allowed_actions(db, auto_id: int, actor=None) -> tuple[AutoAction, ...]:
    """The buttons to enable on an auto (with `actor`: only those its roles allow). The services check the same
    rules again, whatever the screen shows."""
    with db.session(write=False) as s:
        return _actions_in(s, _load(s, auto_id), actor)


# ---------------------------------------------------------------------------------------------------------
# Draft checks and the assessment
# ---------------------------------------------------------------------------------------------------------

def _load(session, auto_id: int, lock: bool = False):
    from desktop.models import Auto

    auto = session.get(Auto, auto_id, with_for_update=lock) if lock else session.get(Auto, auto_id)
    if auto is None:
        raise NotFound("Auto de infração não encontrado.")
    return auto


def _draft_debtor(draft: AutoDraft) -> Infractor | None:
    if draft.driver_id is not None:
        return Infractor.driver(draft.driver_id)
    if draft.platform_id is not None:
        return Infractor.platform(draft.platform_id)
    return None


def _code_problems(session, draft: AutoDraft) -> list[Problem]:
    from desktop.services.catalog import code_row_in_force

    code = normalize_code(draft.code or "")
    if not code:
        return [Problem("code", "Escolha o código da infração.", "Art. 26; Art. 27")]
    if not isinstance(draft.on, date):
        return []
    if code_row_in_force(session, code, draft.on) is None:
        return [Problem("code", f"O código {code} não existe ou não estava em vigor em {draft.on:%d/%m/%Y}.",
                        "Art. 29")]
    return []


def _draft_problems_in(session, draft: AutoDraft, full: bool = True) -> list[Problem]:
    from desktop.models import Document, Driver, Platform, User, Vehicle
    from desktop.services.catalog import _needs_art13

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
    if _needs_art13(draft.code or ""):
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
            from desktop.services.changes import link_problems_in

            problems += link_problems_in(session, draft.change_id, draft.driver_id, draft.code, draft.art13_item)
    return problems


def draft_problems(db, draft: AutoDraft) -> list[Problem]:
    """Everything wrong with the form, at once (STYLE: Beancount's validators)."""
    from desktop.services.catalog import ensure_catalog

    ensure_catalog(db)
    with db.session(write=False) as s:
        return _draft_problems_in(s, draft)


def priors_in(session, debtor: Infractor, exclude_auto_id: int | None = None) -> list[tuple[Prior, str]]:
    """The debtor's autos with a final decision (`AUTO_COUNTS_FOR_RECURRENCE`: a cancelled or annulled auto is
    no prior), as (Prior, number)."""
    from sqlalchemy import select

    from desktop.models import Auto

    stmt = select(Auto.code, Auto.drawn_up_at, Auto.number).where(
        Auto.status.in_([s.value for s in AUTO_COUNTS_FOR_RECURRENCE]))
    if debtor.kind == "driver":
        stmt = stmt.where(Auto.infractor_driver_id == debtor.id)
    else:
        stmt = stmt.where(Auto.infractor_platform_id == debtor.id, Auto.infractor_driver_id.is_(None))
    if exclude_auto_id is not None:
        stmt = stmt.where(Auto.id != exclude_auto_id)
    return [(Prior(code, at.astimezone(TIMEZONE).date()), number) for code, at, number in session.execute(stmt)]


def _assess_in(session, draft: AutoDraft, exclude_auto_id: int | None = None) -> AssessmentView:
    from desktop.services.catalog import catalog_entries_in
    from desktop.services.parameters import parameter_value_in, upfm_value_in

    problems = _draft_problems_in(session, draft, full=False)
    if problems:
        raise ValidationError(problems)
    debtor = _draft_debtor(draft)
    assert debtor is not None
    priors = priors_in(session, debtor, exclude_auto_id)
    window = int(parameter_value_in(session, "recurrence.window_months", draft.on))
    try:
        result = assess(draft.code, draft.on, [p for p, _ in priors], window, catalog=catalog_entries_in(session))
    except (UnknownInfractionCode, InfractionNotInForce) as exc:
        raise ValidationError([Problem("code", str(exc), "Art. 29")]) from exc
    numbers = tuple(sorted({n for p, n in priors if p in result.recurrent_priors}))
    try:
        value = upfm_value_in(session, draft.on.year)
    except NotFound as exc:  # the form shows it beside the date (Art. 25: fines in UPFM of the auto's year)
        raise ValidationError([Problem("on", str(exc), "Art. 25")]) from exc
    upfm = Decimal(result.upfm)
    article = result.articles[0] if result.articles else ""
    return AssessmentView(
        code=result.code, article=article, severity=result.severity, severity_label=result.severity.label,
        upfm=upfm, upfm_value=value, amount_reais=fine_in_reais(upfm, value), recurrence=result.recurrence,
        recurrent_autos=numbers, suspension_days=result.suspension_days,
        suspension_months=result.suspension_months, cassation=result.cassation,
        vehicle_seizure=result.vehicle_seizure, impediment=result.impediment, articles=result.articles,
        penalty_text=result.penalty_text, window_start=result.window_start, assessment=result)


def reassess_in(session, auto) -> Assessment:
    """What the law proposes for a stored auto that has no stored proposal (rows imported or loaded in bulk):
    the same `assess` over the debtor's final autos, the auto itself left out."""
    from desktop.services.catalog import catalog_entries_in
    from desktop.services.parameters import parameter_value_in

    on = auto.drawn_up_at.astimezone(TIMEZONE).date()
    priors = [p for p, _ in priors_in(session, debtor_of(auto), exclude_auto_id=auto.id)]
    window = int(parameter_value_in(session, "recurrence.window_months", on))
    return assess(auto.code, on, priors, window, catalog=catalog_entries_in(session))


def preview_assessment(db, draft: AutoDraft) -> AssessmentView:
    """What `domain.assess` proposes for the draft given the debtor's final autos, with the amount in UPFM and in
    reais at the UPFM value of the auto's year (half-up). Writes nothing."""
    from desktop.services.catalog import ensure_catalog

    ensure_catalog(db)
    with db.session(write=False) as s:
        return _assess_in(s, draft)


# ---------------------------------------------------------------------------------------------------------
# Reading helpers
# ---------------------------------------------------------------------------------------------------------

def auto_info_in(session, auto) -> AutoInfo:
    from desktop.domain.documents import format_plate
    from desktop.models import Authorization, Driver, InfractionCode, Platform, User, Vehicle
    from desktop.services.ledger import auto_balance_in

    driver = session.get(Driver, auto.infractor_driver_id) if auto.infractor_driver_id else None
    platform = session.get(Platform, auto.infractor_platform_id) if auto.infractor_platform_id else None
    vehicle = session.get(Vehicle, auto.vehicle_id) if auto.vehicle_id else None
    authorization = session.get(Authorization, auto.authorization_id) if auto.authorization_id else None
    agent = session.get(User, auto.agent_id) if auto.agent_id else None
    status = AutoStatus(auto.status)
    assessment = Assessment.from_dict(auto.assessment) if auto.assessment else None
    code_row = session.get(InfractionCode, auto.infraction_code_id)
    article = code_row.article if code_row is not None else (assessment.articles[0] if assessment else "")
    severity = Severity(code_row.severity) if code_row is not None else (
        assessment.severity if assessment else Severity.LEVE)
    return AutoInfo(
        id=auto.id, number=auto.number, drawn_up_at=auto.drawn_up_at, place=auto.place, code=auto.code,
        article=article, severity=severity,
        art13_item=auto.art13_item, description=auto.description,
        driver_id=auto.infractor_driver_id, driver_name=driver.name if driver else "",
        platform_id=auto.infractor_platform_id,
        platform_name=(platform.trade_name or platform.legal_name) if platform else "",
        vehicle_id=auto.vehicle_id, plate=format_plate(vehicle.plate) if vehicle else "",
        authorization_id=auto.authorization_id,
        authorization_number=(authorization.number or "") if authorization else "",
        agent_id=auto.agent_id, agent_name=agent.full_name if agent else "", status=status,
        status_label=status.label, amount_upfm=auto.amount_upfm, upfm_value=auto.upfm_value,
        amount_reais=auto.amount_reais, recurrence=bool(auto.recurrence), assessment=assessment,
        notice_joined_on=auto.notice_joined_on, defense_deadline=auto.defense_deadline,
        appeal_deadline=auto.appeal_deadline, payment_deadline=auto.payment_deadline, final_on=auto.final_on,
        cancel_reason=auto.cancel_reason, balance_upfm=auto_balance_in(session, auto.id)[0],
        version=auto.version)


def _document_ref(doc) -> DocumentRef:
    return DocumentRef(doc.id, doc.kind, doc.filename, doc.mime, doc.size, doc.created_at)


def store_attachment(session, actor, attachment: Attachment, auto=None):
    """A `documents` row holding the file (bound to the auto and its driver when given)."""
    from desktop.models import Document

    content = bytes(attachment.content)
    doc = Document(
        kind=attachment.kind or "evidence", sha256=hashlib.sha256(content).hexdigest(), content=content,
        mime=attachment.mime or "application/octet-stream", filename=attachment.filename or "arquivo",
        size=len(content), auto_id=auto.id if auto is not None else None,
        driver_id=auto.infractor_driver_id if auto is not None else None,
        vehicle_id=auto.vehicle_id if auto is not None else None, uploaded_by=actor.user_id)
    session.add(doc)
    session.flush()
    return doc


def get_auto(db, auto_id: int, actor=None) -> AutoDetail:
    """The auto with its notifications, defenses, judgments, measures, ledger entries, evidence, the penalties
    it put in force, and the actions open on it (for `actor` when given)."""
    from sqlalchemy import select

    from desktop.models import Document
    from desktop.services.ledger import entries_of_auto
    from desktop.services.penalties import measure_info, penalties_in
    from desktop.services.process import defense_info, judgment_info, notification_info

    with db.session(write=False) as s:
        auto = _load(s, auto_id)
        docs = s.scalars(select(Document).where(Document.auto_id == auto.id).order_by(Document.id))
        return AutoDetail(
            auto=auto_info_in(s, auto),
            notifications=tuple(notification_info(n) for n in auto.notifications),
            defenses=tuple(defense_info(d, auto) for d in auto.defenses),
            judgments=tuple(judgment_info(s, j) for j in auto.judgments),
            measures=tuple(measure_info(s, m) for m in auto.measures),
            entries=entries_of_auto(s, auto.id),
            evidence=tuple(_document_ref(d) for d in docs),
            penalties=penalties_in(s, auto.id),
            actions=_actions_in(s, auto, actor),
        )


def get_auto_info(db, auto_id: int) -> AutoInfo:
    with db.session(write=False) as s:
        return auto_info_in(s, _load(s, auto_id))


# ---------------------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------------------

def _live_authorization(session, driver_id: int | None, vehicle_id: int | None):
    from sqlalchemy import select

    from desktop.models import LIVE_AUTHORIZATION_STATUSES, Authorization

    for column, value in ((Authorization.driver_id, driver_id), (Authorization.vehicle_id, vehicle_id)):
        if value is None:
            continue
        row = session.scalar(select(Authorization).where(
            column == value, Authorization.status.in_(LIVE_AUTHORIZATION_STATUSES))
            .order_by(Authorization.id.desc()).limit(1))
        if row is not None:
            return row
    return None


def draw_up_auto(db, actor, draft: AutoDraft) -> AutoInfo:
    """Lavrar o auto (Art. 19, 22): the next NNNN/AAAA number, status `drawn_up`, what the law proposes stored
    beside it, the evidence bound to it and the fine posted as a debit in UPFM (SPEC §3). Fiscal only."""
    from desktop.models import Auto, Document, now
    from desktop.services import audit
    from desktop.services.audit import snapshot
    from desktop.services.base import require_role
    from desktop.services.catalog import _needs_art13, code_row_in_force, ensure_catalog
    from desktop.services.ledger import post
    from desktop.services.numbering import next_number
    from desktop.services.penalties import apply_immediate_effects

    require_role(actor, Role.FISCAL)
    ensure_catalog(db)
    with db.session() as s:
        problems = _draft_problems_in(s, draft)
        if problems:
            raise ValidationError(problems)
        view = _assess_in(s, draft)
        code_row = code_row_in_force(s, draft.code, draft.on)
        authorization = _live_authorization(s, draft.driver_id, draft.vehicle_id)
        vehicle_id = draft.vehicle_id or (authorization.vehicle_id if authorization is not None else None)
        number = next_number(s, "auto", draft.on.year)
        auto = Auto(
            number=number, drawn_up_at=datetime.combine(draft.on, draft.at, tzinfo=TIMEZONE),
            place=draft.place.strip(), infractor_driver_id=draft.driver_id,
            infractor_platform_id=draft.platform_id, vehicle_id=vehicle_id,
            authorization_id=authorization.id if authorization is not None else None,
            infraction_code_id=code_row.id, code=code_row.code,
            art13_item=((draft.art13_item or "").strip().upper() or None) if _needs_art13(view.code) else None,
            description=draft.description.strip(), agent_id=draft.agent_id or actor.user_id,
            status=AutoStatus.DRAWN_UP.value, amount_upfm=view.upfm, upfm_value=view.upfm_value,
            amount_reais=view.amount_reais, recurrence=view.recurrence,
            assessment=view.assessment.to_dict(), created_at=now(),
        )
        s.add(auto)
        s.flush()
        for doc_id in draft.evidence_document_ids:
            doc = s.get(Document, doc_id)
            doc.auto_id = auto.id
        for attachment in draft.evidence:
            store_attachment(s, actor, attachment, auto)
        if draft.change_id is not None:  # SPEC §3: a late communication offered as an Art. 26, III infraction
            from desktop.services.changes import link_auto_in

            link_auto_in(s, actor, draft.change_id, auto)
        post(s, actor, kind=EntryKind.DEBIT, infractor=debtor_of(auto), amount_upfm=view.upfm,
             upfm_value=view.upfm_value, amount_reais=view.amount_reais, effective_on=draft.on, auto_id=auto.id,
             reason=f"Multa do auto {number} ({view.code}; {view.article})")
        audit.record(s, actor, "auto.draw_up", "auto", auto.id, None, snapshot(auto))
        apply_immediate_effects(s, actor, auto, draft.on)
        return auto_info_in(s, auto)


def cancel_auto(db, actor, auto_id: int, reason: str, expected_version: int) -> AutoInfo:
    """Cancel an auto drawn up in error (Art. 17), with the reason; never deleted. The fine (and any reduction
    or cost) is reversed by entries pointing at their origins. Gestor only."""
    from desktop.models import now
    from desktop.services import audit
    from desktop.services.base import check_version, require_role
    from desktop.services.ledger import reverse_auto_entries
    from desktop.services.penalties import lift_penalties_in

    require_role(actor, Role.GESTOR)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError([Problem("reason", "Informe o motivo do cancelamento.", "Art. 17")])
    with db.session() as s:
        auto = _load(s, auto_id, lock=True)
        check_version(auto, expected_version)
        before = {"status": auto.status}
        auto.status = auto_transition(auto, AutoStatus.CANCELLED).value
        auto.cancel_reason = reason
        auto.cancelled_by = actor.user_id
        auto.cancelled_at = now()
        s.flush()
        reverse_auto_entries(s, actor, auto, local_today(), f"Auto {auto.number} cancelado: {reason}")
        lift_penalties_in(s, actor, auto, local_today(), f"Auto {auto.number} cancelado: {reason}")
        audit.record(s, actor, "auto.cancel", "auto", auto.id, before,
                     {"status": auto.status, "reason": reason})
        return auto_info_in(s, auto)


def attach_to_auto(db, actor, auto_id: int, attachment: Attachment) -> DocumentRef:
    """Keep one more file with the auto (evidence, a proof, a petition)."""
    from desktop.services import audit
    from desktop.services.base import require_role

    require_role(actor, Role.FISCAL, Role.GESTOR, Role.ATENDENTE)
    if not attachment.content:
        raise ValidationError([Problem("content", "O arquivo está vazio.")])
    with db.session() as s:
        auto = _load(s, auto_id)
        doc = store_attachment(s, actor, attachment, auto)
        audit.record(s, actor, "auto.attach", "auto", auto.id, None,
                     {"document_id": doc.id, "filename": doc.filename, "sha256": doc.sha256})
        return _document_ref(doc)


def require_reader(actor) -> None:
    if actor is not None and not actor.has(*READER_ROLES):
        raise PermissionDenied("Permissão negada: consulta restrita aos servidores da Secretaria.")


# ---------------------------------------------------------------------------------------------------------
# Lists and the infractor's page
# ---------------------------------------------------------------------------------------------------------

def _summary_stmt():
    from sqlalchemy import select

    from desktop.models import Auto, Driver, InfractionCode, Platform, User, Vehicle

    return (select(Auto.id, Auto.number, Auto.drawn_up_at, Auto.code, InfractionCode.severity, Auto.status,
                   Driver.name, Platform.trade_name, Vehicle.plate, User.full_name, Auto.amount_upfm,
                   Auto.amount_reais, Auto.recurrence)
            .join(InfractionCode, InfractionCode.id == Auto.infraction_code_id)
            .outerjoin(Driver, Driver.id == Auto.infractor_driver_id)
            .outerjoin(Platform, Platform.id == Auto.infractor_platform_id)
            .outerjoin(Vehicle, Vehicle.id == Auto.vehicle_id)
            .outerjoin(User, User.id == Auto.agent_id))


def _summary(r) -> AutoSummary:
    from desktop.domain.documents import format_plate

    status = AutoStatus(r[5])
    severity = Severity(r[4])
    return AutoSummary(r[0], r[1], r[2], r[3], severity, status, status.label, r[6] or r[7] or "",
                       format_plate(r[8]) if r[8] else "", r[9] or "", r[10], r[11], bool(r[12]))


def _apply_filter(stmt, f: AutoFilter):
    from sqlalchemy import or_

    from desktop.domain.text import fold
    from desktop.models import Auto, Driver, Platform, Vehicle, starts_with

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
    text = (f.text or "").strip()
    if text:
        plate = text.upper().replace("-", "").replace(" ", "")
        stmt = stmt.where(or_(Auto.number.startswith(text, autoescape=True), starts_with(Driver.search_key, fold(text)),
                              starts_with(Platform.search_key, fold(text)), starts_with(Vehicle.plate, plate)))
    return stmt


def list_autos(db, filter: AutoFilter = AutoFilter(), after: int | None = None,  # noqa: A002
               limit: int = 100) -> AutoPage:
    """Autos by status, infractor, code, agent and period, newest first, by keyset on the id (`after` = the
    previous page's `next_cursor`)."""
    from desktop.models import Auto

    limit = max(1, min(int(limit), 1000))
    stmt = _apply_filter(_summary_stmt(), filter)
    if after is not None:
        stmt = stmt.where(Auto.id < after)
    stmt = stmt.order_by(Auto.id.desc()).limit(limit + 1)
    with db.session(write=False) as s:
        rows = s.execute(stmt).all()
    items = tuple(_summary(r) for r in rows[:limit])
    return AutoPage(items, items[-1].id if len(rows) > limit and items else None)


def count_autos(db, filter: AutoFilter = AutoFilter()) -> int:  # noqa: A002
    from sqlalchemy import func, select

    from desktop.models import Auto, Driver, Platform, Vehicle

    stmt = (select(func.count(Auto.id))
            .outerjoin(Driver, Driver.id == Auto.infractor_driver_id)
            .outerjoin(Platform, Platform.id == Auto.infractor_platform_id)
            .outerjoin(Vehicle, Vehicle.id == Auto.vehicle_id))
    with db.session(write=False) as s:
        return int(s.scalar(_apply_filter(stmt, filter)) or 0)


def infractor_page(db, actor, infractor: Infractor) -> InfractorPage:
    """A driver's or a platform's page: its autos (newest first), those found as recurrences, what it owes and
    how much of it is overdue."""
    from sqlalchemy import func, select

    from desktop.models import Auto
    from desktop.models import LedgerEntry as E
    from desktop.services.ledger import infractor_identity

    require_reader(actor)
    column = Auto.infractor_driver_id if infractor.kind == "driver" else Auto.infractor_platform_id
    entry_column = E.infractor_driver_id if infractor.kind == "driver" else E.infractor_platform_id
    with db.session(write=False) as s:
        name, document = infractor_identity(s, infractor)
        rows = s.execute(_summary_stmt().where(column == infractor.id).order_by(Auto.id.desc())
                         .limit(INFRACTOR_PAGE_LIMIT)).all()
        upfm, reais = s.execute(select(func.sum(E.amount_upfm), func.sum(E.amount_reais))
                                .where(entry_column == infractor.id)).one()
        overdue = s.scalar(select(func.sum(E.amount_upfm)).join(Auto, Auto.id == E.auto_id).where(
            entry_column == infractor.id,
            Auto.status.in_([AutoStatus.OVERDUE.value, AutoStatus.DIVIDA_ATIVA.value])))
    autos = tuple(_summary(r) for r in rows)
    return InfractorPage(infractor, name, document, autos, tuple(a for a in autos if a.recurrence),
                         upfm or ZERO, reais or ZERO, overdue or ZERO)
