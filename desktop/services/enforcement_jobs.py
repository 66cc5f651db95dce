"""The daily routine of enforcement, run as the system (SYSTEM_ACTOR). Idempotent: running it twice on the same day
changes nothing the second time.

1. An auto whose defense term (notified, no defense) or appeal term (judged, no appeal, counted from the joined
   proof of the decision's notice, Art. 22 §2) has passed becomes final on the day after the term (Art. 22); the
   penalties a gestor's judgment chose take effect that day (penalties.apply_final_penalties). The routine
   proposes and never decides (issue 24 item 1; Art. 26 §2 "pela autoridade administrativa"): an auto final with
   penalties no decision chose is listed in `awaiting_decision` for the gestor (process.decide_penalties).
2. A final auto past its payment term with something owed becomes overdue.
3. A suspension applied by an auto ends after its last day: the authorization is active again (Art. 24 sole
   paragraph; Art. 26 §1). Only suspensions tagged with an auto are touched.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import and_, func, or_, select

from desktop.domain.auto_steps import DECIDED_STATUSES
from desktop.domain.workflow import AutoStatus
from desktop.models import AuthorizationEvent as Ev
from desktop.models import Auto
from desktop.services import audit
from desktop.services.actors import SYSTEM_ACTOR
from desktop.services.enforcement.core import auto_balance_in, auto_transition
from desktop.services.penalties import PENALTY_KINDS, end_suspensions_in
from desktop.services.autos.process import finalize_auto_in
from desktop.services.enforcement.recurrence import pending_penalty_options_in


@dataclass(frozen=True, slots=True)
class JobReport:
    finalized: tuple[str, ...]
    penalties_applied: int
    suspensions_ended: int
    overdue: tuple[str, ...]
    awaiting_decision: tuple[str, ...] = ()   # autos whose penalties wait for the gestor (issue 24 item 1)

    @property
    def changed(self) -> bool:
        return bool(self.finalized or self.penalties_applied or self.suspensions_ended or self.overdue)

    def describe(self) -> str:
        """One line for the status bar."""
        return (f"Fiscalização: {len(self.finalized)} decisão(ões) definitiva(s), {self.penalties_applied} "
                f"penalidade(s) aplicada(s), {self.suspensions_ended} suspensão(ões) encerrada(s), "
                f"{len(self.overdue)} auto(s) vencido(s)."
                + (f" {len(self.awaiting_decision)} auto(s) aguardando a decisão do gestor sobre penalidades "
                   f"(Art. 26, §2): {', '.join(self.awaiting_decision[:5])}"
                   + ("…" if len(self.awaiting_decision) > 5 else "") + "." if self.awaiting_decision else ""))


def awaiting_penalty_decision_in(session) -> tuple[str, ...]:
    """The numbers of the final autos whose penalties other than the fine wait for the authority's decision
    (recurrence.pending_penalty_options_in), for the routine's report and the gestor's list."""
    rows = session.scalars(select(Auto).where(Auto.status.in_(sorted(DECIDED_STATUSES))).order_by(Auto.id))
    found = []
    for auto in rows:
        decision = (auto.assessment or {}).get("decision") or {}
        if "penalties" in decision or "apply_proposed" in decision or "extra" in decision:
            continue
        if pending_penalty_options_in(session, auto):
            found.append(auto.number)
    return tuple(found)


def _penalty_events(session) -> int:
    return int(session.scalar(select(func.count(Ev.id)).where(Ev.auto_id.is_not(None),
                                                              Ev.kind.in_(PENALTY_KINDS))) or 0)


def run_enforcement_jobs(db, today: date) -> JobReport:
    """Run the routine for `today`; each auto in its own transaction, so one failure does not block the rest."""
    actor = SYSTEM_ACTOR
    with db.session(write=False) as s:
        before_events = _penalty_events(s)
        due = list(s.scalars(select(Auto.id).where(or_(
            and_(Auto.status == AutoStatus.NOTIFIED.value, Auto.defense_deadline < today),
            and_(Auto.status == AutoStatus.JUDGED.value, Auto.appeal_deadline < today))).order_by(Auto.id)))
    finalized: list[str] = []
    for auto_id in due:
        with db.session() as s:
            auto = s.get(Auto, auto_id, with_for_update=True)
            if auto.status == AutoStatus.NOTIFIED.value and auto.defense_deadline < today:
                on = auto.defense_deadline + timedelta(days=1)
            elif auto.status == AutoStatus.JUDGED.value and auto.appeal_deadline < today:
                on = auto.appeal_deadline + timedelta(days=1)
            else:
                continue  # another desk moved it meanwhile
            finalize_auto_in(s, actor, auto, on)
            finalized.append(auto.number)

    with db.session(write=False) as s:
        candidates = list(s.scalars(select(Auto.id).where(
            Auto.status == AutoStatus.FINAL.value, Auto.payment_deadline < today).order_by(Auto.id)))
    overdue: list[str] = []
    for auto_id in candidates:
        with db.session() as s:
            auto = s.get(Auto, auto_id, with_for_update=True)
            if auto.status != AutoStatus.FINAL.value or auto_balance_in(s, auto.id)[1] <= 0:
                continue
            auto.status = auto_transition(auto, AutoStatus.OVERDUE).value
            s.flush()
            audit.record(s, actor, "auto.overdue", "auto", auto.id, {"status": AutoStatus.FINAL.value},
                         {"status": auto.status, "payment_deadline": auto.payment_deadline, "today": today})
            overdue.append(auto.number)

    with db.session() as s:
        ended = end_suspensions_in(s, actor, today)
    with db.session(write=False) as s:
        applied = _penalty_events(s) - before_events
        awaiting = awaiting_penalty_decision_in(s)
    return JobReport(tuple(finalized), applied, ended, tuple(overdue), awaiting)
