"""The routines that must happen on their date without anyone remembering them, run together after each login
and when the day changes (SPEC §3):
- authorizations: a suspension ends the day after its last day, validity past → expired
  (`services.jobs.run_due_transitions`; Art. 3 §1, Art. 24 sole paragraph, Art. 26 §1);
- enforcement: decisions become final when their terms pass without appeal, their penalties take effect that
  day, suspensions applied by autos end, unpaid fines fall overdue (`services.enforcement_jobs`; Art. 22, 24, 26).
- platforms: the lists overdue (Art. 5, VIII: every 60 days) are counted for the status bar
  (`services.platform_lists.overdue_lists`);
- trips: those past the retention period (`trip_retention_months`, default 24) are removed, except the evidence
  of autos (`services.trips.retention`; Art. 4 caput, LGPD);
- audit: once a day the head of the audit chain is signed with the secretariat's key, when this desk holds it
  (`services.checkpoints.daily_checkpoint`; issue 11: anchored audit).
All are idempotent and act as SYSTEM_ACTOR, so several desks running them the same day change nothing twice.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from desktop.domain.dates import local_today
from desktop.services.checkpoints import daily_checkpoint
from desktop.services.actors import SYSTEM_ACTOR
from desktop.services.enforcement_jobs import run_enforcement_jobs
from desktop.services.platform_lists import overdue_lists
from desktop.services.jobs import run_due_transitions
from desktop.services.trips.retention import remove_expired_trips


@dataclass(frozen=True)
class DailyReport:
    day: date
    authorizations_changed: int
    enforcement_summary: str
    enforcement_changed: bool
    checkpoint_made: bool = False
    overdue_platform_lists: int = 0
    trips_removed: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.authorizations_changed or self.enforcement_changed)

    def describe(self) -> str:
        """One line for the status bar, in Portuguese."""
        return (f"Rotinas de {self.day:%d/%m/%Y}: {self.authorizations_changed} autorização(ões) com situação "
                f"atualizada. {self.enforcement_summary}"
                + (f" {self.overdue_platform_lists} plataforma(s) com a lista de 60 dias vencida (Art. 5, VIII)."
                   if self.overdue_platform_lists else "")
                + (f" {self.trips_removed} viagem(ns) apagada(s) após o prazo de retenção." if self.trips_removed
                   else "")
                + (" Ponto de verificação da auditoria assinado." if self.checkpoint_made else ""))


def run_daily_jobs(db, today: date | None = None) -> DailyReport:
    day = today or local_today()
    report = run_enforcement_jobs(db, day)   # penalties first: a suspension they start may end the same run
    changed = run_due_transitions(db, day)
    overdue = overdue_lists(db, SYSTEM_ACTOR, day)
    retention = remove_expired_trips(db, day)
    checkpoint = daily_checkpoint(db, day)   # last: it signs the head after the day's automatic acts
    return DailyReport(day=day, authorizations_changed=len(changed),
                       enforcement_summary=report.describe(), enforcement_changed=report.changed,
                       checkpoint_made=checkpoint is not None, overdue_platform_lists=len(overdue),
                       trips_removed=retention.removed)
