"""Runs `services.jobs.run_due_transitions` off the UI thread when the Autorizações module opens and again when
the day changes: a suspension ends the day after its last day and an authorization past its validity expires
without anyone remembering to do it (Art. 3 §1; Art. 24 parágrafo único; Art. 26 §1). The runner is the shared
one of desktop/views/daily_jobs.py; the job is idempotent, so running it from more than one desk changes nothing
twice."""
from __future__ import annotations

from datetime import date

from desktop.views.daily_jobs import DayRoutineRunner
from desktop.domain.entities import Entity
from desktop.services import jobs


def due_transitions_job(state, db, today: date | None = None):

    state.progress(0, 0, "Atualizando situações das autorizações…")
    return jobs.run_due_transitions(db, today)


def DueTransitionsRunner(db, parent=None, today: date | None = None) -> DayRoutineRunner:  # noqa: N802 — a class-like factory
    """Emits `finished(list)` with the DueTransitions applied (possibly empty)."""
    return DayRoutineRunner(db, due_transitions_job, parent, today, entities=(Entity.AUTHORIZATIONS,))
