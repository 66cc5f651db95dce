"""Penalties taking effect (Art. 24 I; Art. 26 §§1-2; Art. 27) and the administrative measures of Art. 24 II with
the removal and storage costs of Art. 28.

On the day an auto's decision becomes final, the penalties the law proposed (and the gestor kept) change the
authorization's status through the domain's state machine, each change an `AuthorizationEvent` tagged with the auto
and an audit entry: suspension for 30 days (Art. 26 §1) or 12 months (Art. 24 sole paragraph; Art. 26 V, VI),
cassation (Art. 26 §2), revocation and deregistration (Art. 24 I c, d, f). A suspension applied here ends on its
last day (enforcement_jobs); only suspensions tagged with an auto are touched.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from sqlalchemy import select

from desktop.domain.dates import local_today, period_end
from desktop.domain.documents import format_plate
from desktop.domain.ledger import EntryKind
from desktop.domain.penalties import (
    VEHICLE_SEIZURE,
    AdministrativeMeasure,
    Assessment,
    Penalty,
    PenaltyOption,
)
from desktop.domain.problems import Problem
from desktop.domain.roles import ENFORCEMENT_ROLES
from desktop.domain.workflow import (
    AUTHORIZATION_MACHINE,
    AuthorizationStatus,
    TransitionNotAllowed,
    transition,
)
from desktop.errors import ConflictError, NotFound, ValidationError
from desktop.models import AdministrativeMeasure as Measure
from desktop.models import Authorization, AuthorizationEvent, Auto, Driver, Vehicle, now
from desktop.models import AuthorizationEvent as Ev
from desktop.services import audit
from desktop.services.audit import snapshot
from desktop.services.locking import check_version
from desktop.services.permissions import require_role
from desktop.services.enforcement.core import Infractor, code_in_force_in, require_reader, require_step, step_roles
from desktop.services.enforcement.postings import entry_info_in, post
from desktop.services.enforcement.recurrence import decision_options_in, reassess_in
from desktop.services.parameters import upfm_value_in

# Event kinds shared with the registration room (services.authorizations.EVENT_LABELS), so the authorization's
# history reads the same whoever wrote it; an event written here carries `auto_id` (that is how this module
# recognises its own suspensions). The immediate impediment of Art. 26 II is a plain status event.
KIND_SUSPENSION = "suspension"
KIND_SUSPENSION_END = "suspension_end"
KIND_CASSATION = "cassation"
KIND_REVOCATION = "revocation"
KIND_DEREGISTRATION = "deregistration"
KIND_STATUS = "status"
PENALTY_KINDS = (KIND_SUSPENSION, KIND_CASSATION, KIND_REVOCATION, KIND_DEREGISTRATION)
IMPEDIMENT = "impediment"
_LABELS = {
    Penalty.SUSPENSION.value: (Penalty.SUSPENSION.label, Penalty.SUSPENSION.article),
    Penalty.CASSATION.value: (Penalty.CASSATION.label, Penalty.CASSATION.article),
    Penalty.REVOCATION.value: (Penalty.REVOCATION.label, Penalty.REVOCATION.article),
    Penalty.DRIVER_DEREGISTRATION.value: (Penalty.DRIVER_DEREGISTRATION.label, Penalty.DRIVER_DEREGISTRATION.article),
    Penalty.VEHICLE_DEREGISTRATION.value: (Penalty.VEHICLE_DEREGISTRATION.label,
                                           Penalty.VEHICLE_DEREGISTRATION.article),
    IMPEDIMENT: ("Impedimento de realizar o serviço", "Art. 26, II; Art. 16, §2"),
}
COST_MEASURES = frozenset({AdministrativeMeasure.RETENTION_OR_REMOVAL, AdministrativeMeasure.VEHICLE_SEIZURE})
VEHICLE_MEASURES = COST_MEASURES


@dataclass(frozen=True, slots=True)
class PenaltyInfo:
    """A penalty an auto put in force. `kind` is a `Penalty` value, or "impediment" (Art. 26, II)."""

    authorization_id: int
    authorization_number: str
    kind: str
    label: str
    article: str
    effective_on: date
    ends_on: date | None
    lifted_on: date | None
    auto_id: int
    auto_number: str


@dataclass(frozen=True, slots=True)
class MeasureDraft:
    kind: AdministrativeMeasure
    applied_on: date
    auto_id: int | None = None
    driver_id: int | None = None
    vehicle_id: int | None = None
    place: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class MeasureInfo:
    id: int
    auto_id: int | None
    auto_number: str
    driver_id: int | None
    driver_name: str
    vehicle_id: int | None
    plate: str
    kind: AdministrativeMeasure
    kind_label: str
    article: str
    applied_on: date
    released_on: date | None
    place: str
    cost_reais: Decimal | None
    note: str
    version: int


# ---------------------------------------------------------------------------------------------------------
# Authorization changes
# ---------------------------------------------------------------------------------------------------------

def _change(session, actor, auth, target: AuthorizationStatus | None, kind: str, on: date, auto, reason: str,
            act: str | None = None, by_user_id: int | None = None, **fields) -> bool:
    """Move the authorization (when `target`) and record the event + audit. False when the machine refuses."""
    before = {"status": auth.status, "suspended_until": auth.suspended_until, "ended_on": auth.ended_on}
    current = auth.status
    if target is not None and target.value != current:
        try:
            transition(AUTHORIZATION_MACHINE, current, target)
        except TransitionNotAllowed as exc:
            audit.record(session, actor, "authorization.penalty_not_applied", "authorization", auth.id, before,
                         {"penalty": kind, "auto_id": auto.id, "reason": str(exc)})
            return False
        auth.status = target.value
    for key, value in fields.items():
        setattr(auth, key, value)
    session.add(AuthorizationEvent(
        authorization_id=auth.id, kind=kind, from_status=current, to_status=auth.status, at=now(),
        effective_on=on, by_user_id=by_user_id or actor.user_id, reason=reason,
        act_number=act or f"Auto {auto.number}",
        auto_id=auto.id))
    session.flush()
    audit.record(session, actor, f"authorization.{kind.replace(':', '.')}", "authorization", auth.id, before,
                 {"status": auth.status, "suspended_until": auth.suspended_until, "ended_on": auth.ended_on,
                  "auto_id": auto.id, "effective_on": on})
    return True


def _authorization_of(session, auto):
    if auto.authorization_id is None:
        return None
    return session.get(Authorization, auto.authorization_id)


def apply_immediate_effects(session, actor, auto, on: date) -> None:
    """Art. 26, II (Art. 16 §2): the vehicle operating against the failed inspection is impeded at once."""
    if not (auto.assessment or {}).get("impediment"):
        return
    auth = _authorization_of(session, auto)
    if auth is None or auth.status != AuthorizationStatus.ACTIVE.value:
        return
    _change(session, actor, auth, AuthorizationStatus.IMPEDED, KIND_STATUS, on, auto,
            f"Impedimento imediato (Art. 26, II; Art. 16, §2) — auto {auto.number}")


def _already_applied(session, auto_id: int) -> bool:
    return session.scalar(select(Ev.id).where(
        Ev.auto_id == auto_id, Ev.kind.in_(PENALTY_KINDS)).limit(1)) is not None


def _deregister(session, actor, model, row_id: int, on: date, reason: str, entity: str) -> None:
    row = session.get(model, row_id) if row_id is not None else None
    if row is None or row.status == "deregistered":
        return
    before = {"status": row.status}
    row.status = "deregistered"
    row.deregistered_on = on
    row.deregistration_reason = reason
    session.flush()
    audit.record(session, actor, f"{entity}.deregister", entity, row.id, before,
                 {"status": row.status, "deregistered_on": on, "reason": reason})


def decided_penalties(session, auto) -> tuple[PenaltyOption, ...]:
    """The penalties the auto's decision applies (issue 12 item 2), each with its article: those the judgment
    chose (`decision.penalties`), or — finalized with no judgment — all the catalogue names for its code and
    recurrence. Decisions stored before issue 12 (`apply_proposed`/`extra`) read as they were taken."""
    decision = (auto.assessment or {}).get("decision") or {}
    if "penalties" in decision:
        return tuple(PenaltyOption.from_dict(p) for p in decision["penalties"])
    if not auto.assessment:
        auto.assessment = reassess_in(session, auto).to_dict()
        session.flush()
    options = decision_options_in(session, auto, code_in_force_in(session, auto))
    if decision and not decision.get("apply_proposed", True):
        options = ()
    legacy = tuple(PenaltyOption(Penalty(p).value, Penalty(p).article) for p in decision.get("extra", ()))
    return tuple(options) + legacy


def apply_final_penalties(session, actor, auto, on: date) -> None:
    """The penalties a decision of the authority chose take effect on `on`, the day the decision is final
    (idempotent: an auto applies them once). Only those the catalogue names for the code in force (issue 12 item
    2); each event cites the article of the rule applied (a cassation cites Art. 26, §2 only on a recurrence of
    Art. 26, V) and carries the gestor who decided and the number of the decision.

    Issue 24 item 1 — Art. 26, §2: "será cassada pela autoridade administrativa"; SPEC §3: "a penalty other than the
    fine (suspension, cassation, seizure) exists only through a decision of the authority (a gestor), even when
    the auto became final without defense: the daily routine lists such cases for decision and never applies them
    itself." An auto final with no decision choosing its penalties applies none here: it waits for
    `process.decide_penalties` (recurrence.pending_penalty_options_in lists it)."""
    if _already_applied(session, auto.id):
        return
    decision = dict((auto.assessment or {}).get("decision") or {})
    if not ("penalties" in decision or "apply_proposed" in decision or "extra" in decision):
        if not auto.assessment:  # a row loaded without its proposal: the law's proposal is stored now
            auto.assessment = reassess_in(session, auto).to_dict()
            session.flush()
        pending = decision_options_in(session, auto, code_in_force_in(session, auto))
        if pending:
            audit.record(session, actor, "auto.penalty_decision_pending", "auto", auto.id, None, {
                "final_on": on, "proposed": [o.to_dict() for o in pending],
                "reason": "penalidade diversa da multa só por decisão da autoridade (Art. 26, §2)"})
        return
    applied = decided_penalties(session, auto)
    chosen = {o.penalty: o for o in applied}
    auth = _authorization_of(session, auto)
    where = f"auto {auto.number}"
    act = f"Decisão nº {decision['number']}" if decision.get("number") else None
    by = decision.get("by")
    cassation = chosen.get(Penalty.CASSATION.value)
    revocation = chosen.get(Penalty.REVOCATION.value)
    suspension = chosen.get(Penalty.SUSPENSION.value)
    if auth is not None:
        if cassation is not None:
            _change(session, actor, auth, AuthorizationStatus.CASSADA, KIND_CASSATION, on,
                    auto, f"Cassação da autorização ({cassation.article}) — {where}", act, by, ended_on=on)
        elif revocation is not None:
            _change(session, actor, auth, AuthorizationStatus.REVOKED, KIND_REVOCATION,
                    on, auto, f"Revogação da autorização ({revocation.article}) — {where}", act, by, ended_on=on)
        elif suspension is not None:
            end = period_end(on, days=suspension.days, months=suspension.months)
            until = max(end, auth.suspended_until) if auth.status == AuthorizationStatus.SUSPENDED.value \
                and auth.suspended_until else end
            _change(session, actor, auth, AuthorizationStatus.SUSPENDED, KIND_SUSPENSION,
                    on, auto, f"Suspensão da autorização até {end:%d/%m/%Y} ({suspension.article}) — {where}",
                    act, by, suspended_until=until)
    driver = chosen.get(Penalty.DRIVER_DEREGISTRATION.value)
    if driver is not None and auto.infractor_driver_id is not None:
        _deregister(session, actor, Driver, auto.infractor_driver_id, on,
                    f"Descadastramento do condutor ({driver.article}) — {where}", "driver")
        if auth is not None:
            _mark(session, actor, auth, Penalty.DRIVER_DEREGISTRATION, on, auto, driver.article)
    vehicle = chosen.get(Penalty.VEHICLE_DEREGISTRATION.value)
    if vehicle is not None and auto.vehicle_id is not None:
        _deregister(session, actor, Vehicle, auto.vehicle_id, on,
                    f"Descadastramento do veículo ({vehicle.article}) — {where}", "vehicle")
        if auth is not None:
            _mark(session, actor, auth, Penalty.VEHICLE_DEREGISTRATION, on, auto, vehicle.article)
    seizure = chosen.get(VEHICLE_SEIZURE)
    if seizure is not None:
        seize_vehicle_in(session, actor, auto, on, seizure)


def seize_vehicle_in(session, actor, auto, on: date, option: PenaltyOption):
    """The seizure of the vehicle a final decision applies (Art. 27, parágrafo único; Art. 24, II, d) is carried
    out as an administrative measure dated the final day, citing the decision's article; its removal and storage
    costs (Art. 28) are then charged on it. Once per auto: a seizure the fiscal already recorded for the auto and
    not released counts. None when the auto names no vehicle."""
    if auto.vehicle_id is None:
        audit.record(session, actor, "measure.not_applied", "auto", auto.id, None,
                     {"measure": VEHICLE_SEIZURE, "reason": "auto sem veículo", "article": option.article})
        return None
    existing = session.scalar(select(Measure).where(
        Measure.auto_id == auto.id, Measure.kind == AdministrativeMeasure.VEHICLE_SEIZURE.value,
        Measure.released_on.is_(None)).limit(1))
    if existing is not None:
        return existing
    row = Measure(auto_id=auto.id, driver_id=auto.infractor_driver_id, vehicle_id=auto.vehicle_id,
                  kind=AdministrativeMeasure.VEHICLE_SEIZURE.value, applied_on=on, article=option.article,
                  note=f"Apreensão do veículo decidida no julgamento, definitiva em {on:%d/%m/%Y} "
                       f"({option.article}) — auto {auto.number}", applied_by=actor.user_id)
    session.add(row)
    session.flush()
    audit.record(session, actor, "measure.apply", "administrative_measure", row.id, None, snapshot(row))
    return row


def _mark(session, actor, auth, penalty: Penalty, on: date, auto, article: str) -> None:
    """An event (no status change) so the auto's page lists the deregistration among its penalties."""
    _change(session, actor, auth, None, KIND_DEREGISTRATION, on, auto,
            f"{penalty.label} ({article}) — auto {auto.number}")


def _last_suspension_event(session, auth_id: int):
    return session.scalar(select(Ev).where(Ev.authorization_id == auth_id,
                                           Ev.to_status == AuthorizationStatus.SUSPENDED.value)
                          .order_by(Ev.id.desc()).limit(1))


def _end_suspension(session, actor, auth, on: date, auto, reason: str) -> bool:
    target = AuthorizationStatus.ACTIVE
    if auth.valid_until is not None and auth.valid_until < on:
        target = AuthorizationStatus.EXPIRED  # Art. 3, §1: the validity ran out during the suspension
    return _change(session, actor, auth, target, KIND_SUSPENSION_END, on, auto, reason)


def end_suspensions_in(session, actor, today: date) -> int:
    """Suspensions applied by an auto whose last day has passed → the authorization is active again (or expired
    when its validity ended meanwhile). Suspensions from elsewhere are left alone."""
    ended = 0
    rows = session.scalars(select(Authorization).where(
        Authorization.status == AuthorizationStatus.SUSPENDED.value,
        Authorization.suspended_until.is_not(None), Authorization.suspended_until < today)
        .order_by(Authorization.id)).all()
    for auth in rows:
        event = _last_suspension_event(session, auth.id)
        # An auto's suspension: the event that suspended it carries the auto (this module writes kind
        # "suspension"; rows loaded in bulk may say "status").
        if event is None or event.auto_id is None or event.kind not in (KIND_SUSPENSION, KIND_STATUS):
            continue
        auto = session.get(Auto, event.auto_id)
        on = auth.suspended_until + timedelta(days=1)
        if _end_suspension(session, actor, auth, on, auto,
                           f"Fim da suspensão em {auth.suspended_until:%d/%m/%Y} (Art. 24, parágrafo único; "
                           f"Art. 26, §1) — auto {auto.number}"):
            ended += 1
    return ended


def lift_penalties_in(session, actor, auto, on: date, reason: str) -> None:
    """An auto cancelled or annulled: the suspension it caused ends on `on`, and the impediment of Art. 26 II it
    caused is lifted while it is still the authorization's last one. Cassation and revocation are final statuses
    of the authorization; they are recorded in the audit for the gestor."""
    events = session.scalars(select(Ev).where(Ev.auto_id == auto.id, Ev.kind.in_(PENALTY_KINDS + (KIND_STATUS,)))
                             .order_by(Ev.id)).all()
    for event in events:
        auth = session.get(Authorization, event.authorization_id)
        if event.kind == KIND_STATUS:
            if event.to_status != AuthorizationStatus.IMPEDED.value \
                    or auth.status != AuthorizationStatus.IMPEDED.value:
                continue
            last = session.scalar(select(Ev).where(Ev.authorization_id == auth.id,
                                                   Ev.to_status == AuthorizationStatus.IMPEDED.value)
                                  .order_by(Ev.id.desc()).limit(1))
            if last is not None and last.id == event.id:
                _change(session, actor, auth, AuthorizationStatus.ACTIVE, KIND_STATUS, on, auto, reason)
        elif event.kind == KIND_SUSPENSION:
            last = _last_suspension_event(session, auth.id)
            if auth.status == AuthorizationStatus.SUSPENDED.value and last is not None and last.auto_id == auto.id:
                _end_suspension(session, actor, auth, on, auto, reason)
        else:
            audit.record(session, actor, "authorization.penalty_not_lifted", "authorization", auth.id, None,
                         {"auto_id": auto.id, "penalty": event.kind, "status": auth.status, "reason": reason})


def _penalty_key(event) -> str | None:
    """The penalty an event of this module stands for (a `Penalty` value or "impediment"), None otherwise."""
    if event.kind == KIND_SUSPENSION:
        return Penalty.SUSPENSION.value
    if event.kind == KIND_CASSATION:
        return Penalty.CASSATION.value
    if event.kind == KIND_REVOCATION:
        return Penalty.REVOCATION.value
    if event.kind == KIND_DEREGISTRATION:
        vehicle = (event.reason or "").startswith(Penalty.VEHICLE_DEREGISTRATION.label)
        return (Penalty.VEHICLE_DEREGISTRATION if vehicle else Penalty.DRIVER_DEREGISTRATION).value
    if event.kind == KIND_STATUS and event.to_status == AuthorizationStatus.IMPEDED.value:
        return IMPEDIMENT
    return None


def penalties_in(session, auto_id: int) -> tuple[PenaltyInfo, ...]:
    auto = session.get(Auto, auto_id)
    if auto is None:
        return ()
    events = session.scalars(select(Ev).where(Ev.auto_id == auto_id).order_by(Ev.id)).all()
    assessment = Assessment.from_dict(auto.assessment) if auto.assessment else None
    decided = {p["penalty"]: PenaltyOption.from_dict(p)
               for p in ((auto.assessment or {}).get("decision") or {}).get("penalties", ())}
    result = []
    for e in events:
        key = _penalty_key(e)
        if key is None:
            continue
        label, article = _LABELS.get(key, (key, ""))
        option = decided.get(key)
        if option is not None:
            article = option.article  # issue 12 item 2: each penalty cites the rule that was applied
        auth = session.get(Authorization, e.authorization_id)
        ends_on = None
        lifted = None
        if key == Penalty.SUSPENSION.value:
            if option is not None and (option.days or option.months):
                ends_on = period_end(e.effective_on, days=option.days, months=option.months)
            elif assessment is not None and assessment.suspends:
                ends_on = assessment.suspension_end(e.effective_on)
            # the end written by this module's job or by the registration room's (services.jobs)
            lifted = session.scalar(select(Ev.effective_on).where(
                Ev.authorization_id == e.authorization_id, Ev.kind == KIND_SUSPENSION_END, Ev.id > e.id)
                .order_by(Ev.id).limit(1))
        result.append(PenaltyInfo(e.authorization_id, auth.number or "", key, label, article, e.effective_on,
                                  ends_on, lifted, auto.id, auto.number))
    return tuple(result)


def penalties_of_in(session, auto_id: int) -> tuple[PenaltyInfo, ...]:
    """`penalties_of` inside the caller's transaction."""
    return penalties_in(session, auto_id)


def penalties_of(db, actor, auto_id: int) -> tuple[PenaltyInfo, ...]:
    """The penalties an auto put in force, with their end and the day they were lifted
    (`ENFORCEMENT_ROLES.read`, issue 25 item 7)."""
    require_reader(actor)
    with db.session(write=False) as s:
        return penalties_of_in(s, auto_id)


# ---------------------------------------------------------------------------------------------------------
# Administrative measures (Art. 24 II) and costs (Art. 28)
# ---------------------------------------------------------------------------------------------------------

def measure_info(session, m) -> MeasureInfo:
    kind = AdministrativeMeasure(m.kind)
    auto = session.get(Auto, m.auto_id) if m.auto_id else None
    driver = session.get(Driver, m.driver_id) if m.driver_id else None
    vehicle = session.get(Vehicle, m.vehicle_id) if m.vehicle_id else None
    return MeasureInfo(m.id, m.auto_id, auto.number if auto else "", m.driver_id, driver.name if driver else "",
                       m.vehicle_id, format_plate(vehicle.plate) if vehicle else "", kind, kind.label,
                       m.article or kind.article,
                       m.applied_on, m.released_on, m.place or "", m.cost_reais, m.note or "", m.version)


def record_measure_in(session, actor, draft: MeasureDraft) -> MeasureInfo:
    """`record_measure` inside the caller's transaction."""
    require_role(actor, *step_roles("measure"))
    problems: list[Problem] = []
    try:
        kind = AdministrativeMeasure(draft.kind)
    except ValueError:
        kind = None
        problems.append(Problem("kind", "Escolha a medida administrativa.", "Art. 24, II"))
    if not isinstance(draft.applied_on, date):
        problems.append(Problem("applied_on", "Informe a data da medida."))
    elif draft.applied_on > local_today():
        problems.append(Problem("applied_on", "A data da medida não pode ser futura."))
    driver_id, vehicle_id = draft.driver_id, draft.vehicle_id
    if draft.auto_id is not None:
        auto = session.get(Auto, draft.auto_id)
        if auto is None:
            raise NotFound("Auto de infração não encontrado.")
        require_step(auto, "measure")  # Art. 24, II: a cancelled or annulled auto sustains no measure
        driver_id = driver_id or auto.infractor_driver_id
        vehicle_id = vehicle_id or auto.vehicle_id
        if isinstance(draft.applied_on, date) and draft.applied_on < auto.drawn_up_at.date():
            problems.append(Problem("applied_on", "A medida não pode ser anterior à lavratura do auto."))
    if driver_id is not None and session.get(Driver, driver_id) is None:
        problems.append(Problem("driver_id", "Condutor não encontrado."))
    if vehicle_id is not None and session.get(Vehicle, vehicle_id) is None:
        problems.append(Problem("vehicle_id", "Veículo não encontrado."))
    if kind in VEHICLE_MEASURES and vehicle_id is None:
        problems.append(Problem("vehicle_id", "Indique o veículo retido, removido ou apreendido.", kind.article))
    if driver_id is None and vehicle_id is None:
        problems.append(Problem("driver_id", "Indique o condutor ou o veículo atingido pela medida.",
                                "Art. 24, II"))
    if problems:
        raise ValidationError(problems)
    row = Measure(auto_id=draft.auto_id, driver_id=driver_id, vehicle_id=vehicle_id, kind=kind.value,
                  applied_on=draft.applied_on, place=(draft.place or "").strip() or None,
                  note=(draft.note or "").strip() or None, applied_by=actor.user_id)
    session.add(row)
    session.flush()
    audit.record(session, actor, "measure.apply", "administrative_measure", row.id, None, snapshot(row))
    return measure_info(session, row)


def record_measure(db, actor, draft: MeasureDraft) -> MeasureInfo:
    """Record an administrative measure of Art. 24 II (notice to regularize, retention/removal, seizure of
    documents or equipment, seizure of the vehicle). Fiscal or gestor."""
    require_role(actor, *step_roles("measure"))
    with db.session() as s:
        return record_measure_in(s, actor, draft)


def _load_measure(session, measure_id: int):
    row = session.get(Measure, measure_id)
    if row is None:
        raise NotFound("Medida administrativa não encontrada.")
    return row


def release_measure_in(session, actor, measure_id: int, released_on: date, note: str,
                       expected_version: int) -> MeasureInfo:
    """`release_measure` inside the caller's transaction."""
    require_role(actor, *ENFORCEMENT_ROLES.measures)
    row = _load_measure(session, measure_id)
    check_version(row, expected_version)
    if row.released_on is not None:
        raise ConflictError(f"Esta medida já foi liberada em {row.released_on:%d/%m/%Y}.")
    problems: list[Problem] = []
    if not isinstance(released_on, date):
        problems.append(Problem("released_on", "Informe a data da liberação."))
    elif released_on > local_today():
        problems.append(Problem("released_on", "A data da liberação não pode ser futura."))
    elif released_on < row.applied_on:
        problems.append(Problem("released_on", "A liberação não pode ser anterior à medida "
                                f"({row.applied_on:%d/%m/%Y})."))
    if problems:
        raise ValidationError(problems)
    row.released_on = released_on
    if (note or "").strip():
        row.note = ((row.note + "\n") if row.note else "") + f"Liberação: {note.strip()}"
    session.flush()
    audit.record(session, actor, "measure.release", "administrative_measure", row.id, {"released_on": None},
                 {"released_on": released_on, "note": (note or "").strip()})
    return measure_info(session, row)


def release_measure(db, actor, measure_id: int, released_on: date, note: str, expected_version: int) -> MeasureInfo:
    """Release a measure (the vehicle or documents given back, the irregularity corrected)."""
    require_role(actor, *ENFORCEMENT_ROLES.measures)
    with db.session() as s:
        return release_measure_in(s, actor, measure_id, released_on, note, expected_version)


def charge_costs_in(session, actor, measure_id: int, amount_reais: Decimal, on: date, reason: str,
                 expected_version: int):
    """`charge_costs` inside the caller's transaction."""
    require_role(actor, *ENFORCEMENT_ROLES.measures_read)
    problems: list[Problem] = []
    if not isinstance(amount_reais, Decimal) or amount_reais <= 0:
        problems.append(Problem("amount_reais", "Informe o valor das despesas, em reais, maior que zero.",
                                "Art. 28"))
    if not isinstance(on, date):
        problems.append(Problem("on", "Informe a data do lançamento."))
    elif on > local_today():
        problems.append(Problem("on", "A data do lançamento não pode ser futura."))
    if not (reason or "").strip():
        problems.append(Problem("reason", "Descreva as despesas (remoção, estada, dias)."))
    row = _load_measure(session, measure_id)
    check_version(row, expected_version)
    kind = AdministrativeMeasure(row.kind)
    if kind not in COST_MEASURES:
        raise ValidationError([Problem("measure_id", "Só a remoção, a retenção ou a apreensão do veículo geram "
                                       "despesas de remoção e estada.", "Art. 28")])
    driver_id = row.driver_id
    if driver_id is None and row.auto_id is not None:
        driver_id = session.get(Auto, row.auto_id).infractor_driver_id
    if driver_id is None:
        problems.append(Problem("measure_id", "As despesas são do condutor: a medida não indica o condutor.",
                                "Art. 28"))
    if isinstance(on, date) and on < row.applied_on:
        problems.append(Problem("on", "O lançamento não pode ser anterior à medida."))
    if problems:
        raise ValidationError(problems)
    # issue 23 point 6: reais spent, never converted at a UPFM — the entry carries no UPFM (the column keeps the
    # value of the auto's fine, or of the year, for reference only; nothing is computed from it)
    auto = session.get(Auto, row.auto_id) if row.auto_id is not None else None
    value = auto.upfm_value if auto is not None else upfm_value_in(session, on.year)
    entry = post(session, actor, kind=EntryKind.COSTS, infractor=Infractor.driver(driver_id), amount_upfm=Decimal(0),
                 upfm_value=value, amount_reais=amount_reais, effective_on=on, auto_id=row.auto_id,
                 reason=f"{kind.label} (Art. 28): {reason.strip()}")
    row.cost_reais = (row.cost_reais or Decimal(0)) + amount_reais
    session.flush()
    return entry_info_in(session, entry.id)


def charge_costs(db, actor, measure_id: int, amount_reais: Decimal, on: date, reason: str,
                 expected_version: int):
    """Art. 28: the removal and storage costs of the vehicle are the driver's — a `costs` entry in the ledger in
    reais, never converted to UPFM (issue 23 point 6): a debt of its own beside the fine. Several charges add up
    on the measure."""
    require_role(actor, *ENFORCEMENT_ROLES.measures_read)
    with db.session() as s:
        return charge_costs_in(s, actor, measure_id, amount_reais, on, reason, expected_version)


def list_measures_in(session, open_only: bool = False, driver_id: int | None = None,
                  vehicle_id: int | None = None) -> list[MeasureInfo]:
    """`list_measures` inside the caller's transaction."""
    stmt = select(Measure).order_by(Measure.applied_on.desc(), Measure.id.desc())
    if open_only:
        stmt = stmt.where(Measure.released_on.is_(None))
    if driver_id is not None:
        stmt = stmt.where(Measure.driver_id == driver_id)
    if vehicle_id is not None:
        stmt = stmt.where(Measure.vehicle_id == vehicle_id)
    return [measure_info(session, m) for m in session.scalars(stmt.limit(2000))]


def list_measures(db, actor, open_only: bool = False, driver_id: int | None = None,
                  vehicle_id: int | None = None) -> list[MeasureInfo]:
    """Measures, newest first (open ones: not yet released); `ENFORCEMENT_ROLES.read` (issue 25 item 7)."""
    require_reader(actor)
    with db.session(write=False) as s:
        return list_measures_in(s, open_only, driver_id, vehicle_id)
