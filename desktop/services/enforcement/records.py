"""The frozen infos the enforcement services return about an auto: the auto itself (`AutoInfo`, with the actions
open on it and the stored proposal with its amounts in reais), its notices, defenses and judgments.

Built from the rows inside the caller's session; screens read them and never compute an amount or compare a status.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum

from sqlalchemy import select

from desktop.domain.steps import Action
from desktop.domain.auto_steps import DECIDED_STATUSES, auto_actions, notice_platforms
from desktop.domain.dates import TIMEZONE
from desktop.domain.documents import format_plate
from desktop.domain.penalties import Assessment, NotificationForm, Severity, auto_year, fine_in_reais, lookup
from desktop.domain.workflow import AutoStatus
from desktop.models import Auto, Authorization, Driver, DriverPlatform, InfractionCode, Platform, User, Vehicle
from desktop.services.catalog import code_row_in_force
from desktop.services.enforcement.recurrence import pending_penalty_options_in
from desktop.services.enforcement.core import (
    Infractor,
    auto_balance_in,
    auto_facts_in,
    code_in_force_in,
    debtor_of,
    fine_in,
)


@dataclass(frozen=True, slots=True)
class AssessmentView:
    """What the law proposes for an auto (SPEC §3: the system proposes, the gestor confirms), with the fine in
    UPFM and in reais at the UPFM value of the auto's year and the numbers of the autos that make it a recurrence."""

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
    upfm_year: int | None = None   # the year of `upfm_value`: the auto's lavratura (Art. 25; issue 24 item 9)


def assessment_view(result: Assessment, upfm_value: Decimal, recurrent_autos: tuple[str, ...],
                    article: str | None = None, upfm_year: int | None = None) -> AssessmentView:
    """The view of a proposal: the amount in reais is `fine_in_reais` (Art. 25, half-up), computed here only."""
    upfm = Decimal(result.upfm)
    value = Decimal(upfm_value)
    if article is None:
        article = result.articles[0] if result.articles else ""
    return AssessmentView(
        code=result.code, article=article, severity=result.severity, severity_label=result.severity.label,
        upfm=upfm, upfm_value=value, amount_reais=fine_in_reais(upfm, value), recurrence=result.recurrence,
        recurrent_autos=tuple(recurrent_autos), suspension_days=result.suspension_days,
        suspension_months=result.suspension_months, cassation=result.cassation,
        vehicle_seizure=result.vehicle_seizure, impediment=result.impediment, articles=tuple(result.articles),
        penalty_text=result.penalty_text, window_start=result.window_start, assessment=result, upfm_year=upfm_year)


RECURRENT_AUTOS_KEY = "recurrent_autos"
"""Key of the stored assessment (autos.assessment JSON) holding the numbers of the prior autos (Art. 26, §§1-2)."""


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
    balance_reais: Decimal = Decimal(0)
    proposal: AssessmentView | None = None   # the stored proposal with its amounts in reais (None: not stored)
    actions: tuple[Action, ...] = ()         # every step of domain.auto_steps, enabled or with its reason
    original_code: str = ""                  # the code it was drawn up with (`code` is the code in force)
    # (platform id, name) that get the auto's notices: the platform infractor and the driver's platforms (Art. 22
    # caput: "à plataforma tecnológica e ao condutor"; issue 24 item 4)
    notice_platforms: tuple[tuple[int, str], ...] = ()
    # the moment it was drawn up (None: rows older than issue 24 item 9) and the year of its number and of its
    # UPFM value, the lavratura's (Art. 25; domain.auto_year)
    lavrado_at: datetime | None = None
    upfm_year: int = 0

    @property
    def requalified(self) -> bool:
        """A partial decision requalified it (issue 12 item 1): `code` differs from `original_code`."""
        return bool(self.original_code) and self.original_code != self.code

    @property
    def infractor(self) -> Infractor:
        """The debtor (core.debtor_of): the driver if any, else the platform."""
        if self.driver_id is not None:
            return Infractor.driver(self.driver_id)
        return Infractor.platform(self.platform_id)  # type: ignore[arg-type]

    @property
    def infractor_name(self) -> str:
        return self.driver_name or self.platform_name

    def reais_of(self, upfm: Decimal) -> Decimal:
        """An amount of this auto's UPFM in reais (Art. 25: the UPFM value of the auto's year, half-up), e.g. the
        fine a judgment would leave."""
        return fine_in_reais(Decimal(upfm), self.upfm_value)

    @property
    def printable(self) -> bool:
        """A cancelled auto prints nothing (Art. 17: it stays only as a record)."""
        return self.status is not AutoStatus.CANCELLED


def _recurrent_numbers(session, auto, assessment: Assessment) -> tuple[str, ...]:
    """The numbers of the autos that made this one a recurrence: stored beside the proposal since it is drawn up;
    for older rows, the debtor's autos of the same code and day as the stored priors."""
    stored = (auto.assessment or {}).get(RECURRENT_AUTOS_KEY)
    if stored is not None:
        return tuple(stored)
    if not assessment.recurrent_priors:
        return ()
    debtor = debtor_of(auto)
    column = Auto.infractor_driver_id if debtor.kind == "driver" else Auto.infractor_platform_id
    wanted = {(p.code, p.on) for p in assessment.recurrent_priors}
    rows = session.execute(select(Auto.number, Auto.code, Auto.drawn_up_at).where(
        column == debtor.id, Auto.id != auto.id, Auto.code.in_(sorted({c for c, _ in wanted}))))
    return tuple(sorted({n for n, c, at in rows if (c, at.astimezone(TIMEZONE).date()) in wanted}))


def auto_info_in(session, auto, actor=None, today: date | None = None) -> AutoInfo:
    """The auto as the screens see it, with the actions open on it for `actor` (None: for any role) on `today`."""
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
    code = code_in_force_in(session, auto)
    if code != auto.code:  # issue 12 item 1: the code in force after a partial decision, with its article
        on = auto.drawn_up_at.astimezone(TIMEZONE).date()
        row = code_row_in_force(session, code, on)
        if row is not None:
            article, severity = row.article, Severity(row.severity)
        else:
            entry = lookup(code, None, on)
            article, severity = entry.article, entry.severity
    year = auto_year(auto.drawn_up_at.astimezone(TIMEZONE).date(), auto.lavrado_at)
    proposal = (assessment_view(assessment, auto.upfm_value, _recurrent_numbers(session, auto, assessment),
                                article, upfm_year=year) if assessment is not None else None)
    balance_upfm, balance_reais = auto_balance_in(session, auto.id)
    fine_upfm, fine_reais = fine_in(session, auto)
    facts = auto_facts_in(session, auto, today)
    if status.value in DECIDED_STATUSES:  # issue 24 item 1: penalties wait for the authority's decision
        from dataclasses import replace as _replace  # local: imported only on this branch
        facts = _replace(facts, penalty_decision_pending=bool(pending_penalty_options_in(session, auto)))
    actions = auto_actions(facts, actor.roles if actor is not None else None)
    return AutoInfo(
        id=auto.id, number=auto.number, drawn_up_at=auto.drawn_up_at, place=auto.place, code=code,
        original_code=auto.code,
        article=article, severity=severity,
        art13_item=auto.art13_item, description=auto.description,
        driver_id=auto.infractor_driver_id, driver_name=driver.name if driver else "",
        platform_id=auto.infractor_platform_id,
        platform_name=(platform.trade_name or platform.legal_name) if platform else "",
        vehicle_id=auto.vehicle_id, plate=format_plate(vehicle.plate) if vehicle else "",
        authorization_id=auto.authorization_id,
        authorization_number=(authorization.number or "") if authorization else "",
        agent_id=auto.agent_id, agent_name=agent.full_name if agent else "", status=status,
        status_label=_status_label(status, balance_reais), amount_upfm=fine_upfm, upfm_value=auto.upfm_value,
        amount_reais=fine_reais, recurrence=bool(auto.recurrence), assessment=assessment,
        notice_joined_on=auto.notice_joined_on, defense_deadline=auto.defense_deadline,
        appeal_deadline=auto.appeal_deadline, payment_deadline=auto.payment_deadline, final_on=auto.final_on,
        cancel_reason=auto.cancel_reason, balance_upfm=balance_upfm, version=auto.version,
        balance_reais=balance_reais, proposal=proposal, actions=actions,
        notice_platforms=notice_platforms_in(session, auto), lavrado_at=auto.lavrado_at, upfm_year=year)


def notice_platforms_in(session, auto) -> tuple[tuple[int, str], ...]:
    """The platforms that get a copy of the auto's notices (Art. 22 caput; issue 24 item 4)."""
    driver_platforms = session.scalars(select(DriverPlatform.platform_id).where(
        DriverPlatform.driver_id == auto.infractor_driver_id)) if auto.infractor_driver_id is not None else ()
    ids = notice_platforms(auto.infractor_platform_id, auto.infractor_driver_id, driver_platforms)
    rows = session.scalars(select(Platform).where(Platform.id.in_(ids)).order_by(Platform.id)) if ids else ()
    return tuple((p.id, p.trade_name or p.legal_name) for p in rows)


def _status_label(status: AutoStatus, balance_reais) -> str:
    """The status, and "multa paga" when the fine was paid before the decision became final (issue 23 point 4:
    paying is not a waiver — the process goes on — but the debt is settled and the screen says so)."""
    if balance_reais <= 0 and status in _PAID_BEFORE_FINAL:
        return f"{status.label} — multa paga"
    return status.label


_PAID_BEFORE_FINAL = frozenset({AutoStatus.NOTIFIED, AutoStatus.IN_DEFENSE, AutoStatus.JUDGED, AutoStatus.IN_APPEAL})


# ---------------------------------------------------------------------------------------------------------
# The process of an auto (Art. 22): notices, defenses and appeals, judgments
# ---------------------------------------------------------------------------------------------------------

class Outcome(StrEnum):
    UPHELD = "upheld"
    PARTLY_UPHELD = "partly_upheld"
    ANNULLED = "annulled"

    @property
    def label(self) -> str:
        return {"upheld": "Auto mantido", "partly_upheld": "Auto mantido em parte (requalificado ou penalidade "
                                                           "afastada)",
                "annulled": "Auto anulado"}[self.value]


INSTANCE_LABELS = {"defense": "Defesa prévia", "appeal": "Recurso", "ex_officio": "De ofício",
                   "penalty": "Decisão de penalidade"}  # penalty: issue 24 item 1 (Art. 26, §2)


@dataclass(frozen=True, slots=True)
class NotificationInfo:
    id: int
    auto_id: int
    addressee: str
    form: NotificationForm
    form_label: str
    article: str
    sent_on: date
    proof_joined_on: date | None
    proof_document_id: int | None
    note: str
    version: int
    judgment_id: int | None = None   # a notice of this decision (issue 24 item 3)
    platform_id: int | None = None   # the platform's copy (issue 24 item 4)

    @property
    def of_decision(self) -> bool:
        return self.judgment_id is not None


@dataclass(frozen=True, slots=True)
class DefenseInfo:
    id: int
    auto_id: int
    kind: str
    kind_label: str
    filed_on: date
    summary: str
    document_id: int | None
    timely: bool
    version: int


@dataclass(frozen=True, slots=True)
class JudgmentInfo:
    id: int
    auto_id: int
    instance: str
    instance_label: str
    decided_on: date
    decided_by_name: str
    outcome: Outcome
    outcome_label: str
    reduced_upfm: Decimal | None
    reasoning: str
    requalified_code: str | None = None
    number: str = ""            # issue 24 item 1: the decision is a numbered act (NNNN/AAAA)


def notification_info(row) -> NotificationInfo:
    form = NotificationForm(row.form)
    return NotificationInfo(row.id, row.auto_id, row.addressee, form, form.label, form.article, row.sent_on,
                            row.proof_joined_on, row.proof_document_id, row.note or "", row.version,
                            row.judgment_id, row.platform_id)


def defense_info(row, auto) -> DefenseInfo:
    limit = auto.defense_deadline if row.kind == "defense" else auto.appeal_deadline
    return DefenseInfo(row.id, row.auto_id, row.kind, INSTANCE_LABELS[row.kind], row.filed_on, row.summary or "",
                       row.document_id, limit is None or row.filed_on <= limit, row.version)


def judgment_info(session, row) -> JudgmentInfo:
    user = session.get(User, row.decided_by) if row.decided_by else None
    outcome = Outcome(row.outcome)
    return JudgmentInfo(row.id, row.auto_id, row.instance, INSTANCE_LABELS.get(row.instance, row.instance),
                        row.decided_on, user.full_name if user else "", outcome, outcome.label, row.reduced_upfm,
                        row.reasoning, row.requalified_code, row.number or "")
