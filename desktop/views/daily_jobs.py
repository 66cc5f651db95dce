"""Routines that must happen on their date run off the UI thread when started and again when the day changes
(checked every hour). One runner, parametrized by its job:
- after login, `services.daily.run_daily_jobs` (penalties on the final date, ends of suspensions, expirations,
  overdue fines), whatever module the user opens — the summary goes to the status bar;
- the Autorizações module runs `services.jobs.run_due_transitions` when it opens, to list what changed.
The services are idempotent, so running them from several desks or screens changes nothing twice."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from desktop.domain.entities import Entity
from desktop.services.daily import run_daily_jobs
from desktop.services.auto_backup import run_auto_backup
from desktop.services.actors import SYSTEM_ACTOR
from desktop.domain.dates import local_today
from desktop.background import Task
from desktop.views.widgets import error_text

CHECK_EVERY_MS = 60 * 60 * 1000


def daily_jobs_job(state, db, today: date | None = None):

    state.progress(0, 0, "Executando as rotinas do dia…")
    return run_daily_jobs(db, today)


class DayRoutineRunner(QObject):
    finished = Signal(object)   # the job's result (a DailyReport, a list of transitions…)
    failed = Signal(str)

    def __init__(self, db, job: Callable[..., Any] = daily_jobs_job, parent=None, today: date | None = None,
                 entities: Iterable[Entity] = (Entity.AUTHORIZATIONS, Entity.AUTOS, Entity.LEDGER)):
        super().__init__(parent)
        self.db = db
        self.job = job
        self.today = today
        self.entities = tuple(entities)
        self.last_day: date | None = None
        self.task = None
        self.timer = QTimer(self)
        self.timer.setInterval(CHECK_EVERY_MS)
        self.timer.timeout.connect(self.run_if_new_day)
        self.timer.start()

    def start(self) -> None:
        self.run()

    def _day(self) -> date:

        return self.today or local_today()

    def run_if_new_day(self) -> None:
        if self._day() != self.last_day:
            self.run()

    def run(self) -> None:
        if self.task is not None and not self.task.finished:
            return

        self.last_day = self._day()
        self.task = (Task(self.job, self.db, self.today).success(self._done).failure(self._failed)
                     .run_in_background(show_progress=False))

    def _done(self, result) -> None:
        if getattr(result, "changed", result):
            from desktop.signals import bus  # local: imported only on this branch

            for entity in self.entities:
                bus.data_changed.emit(entity)
        if _alive(self):   # the screen may have been closed while the job ran
            self.finished.emit(result)

    def _failed(self, error: BaseException) -> None:

        if _alive(self):
            self.last_day = None   # try again at the next check
            self.failed.emit(error_text(error))


DailyJobsRunner = DayRoutineRunner


def auto_backup_job(state, db, today: date | None = None, actor=None):
    """The day's automatic copy (issue 17): made once per day, verified, rotated. Its outcome never raises."""

    state.progress(0, 0, "Fazendo a cópia de segurança do dia…")
    return run_auto_backup(db, actor or SYSTEM_ACTOR, on=today)


def _alive(obj: QObject) -> bool:
    import shiboken6  # lazy: Qt loads only when this runs (start-up cost)

    return shiboken6.isValid(obj)
