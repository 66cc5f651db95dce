"""Runs `services.daily.run_daily_jobs` off the UI thread right after login and again when the day changes
(checked every hour), so penalties, suspensions' ends and expirations happen on their date whichever module the
user opens. The result goes to the status bar; when something changed, every open screen refreshes."""
from __future__ import annotations

from datetime import date

from PySide6.QtCore import QObject, QTimer, Signal

CHECK_EVERY_MS = 60 * 60 * 1000


def daily_jobs_job(state, db, today: date | None = None):
    from desktop.services.daily import run_daily_jobs

    state.progress(0, 0, "Executando as rotinas do dia…")
    return run_daily_jobs(db, today)


class DailyJobsRunner(QObject):
    finished = Signal(str)   # the Portuguese summary for the status bar
    failed = Signal(str)

    def __init__(self, db, parent=None, today: date | None = None):
        super().__init__(parent)
        self.db = db
        self.today = today
        self.last_day: date | None = None
        self.task = None
        self.timer = QTimer(self)
        self.timer.setInterval(CHECK_EVERY_MS)
        self.timer.timeout.connect(self.run_if_new_day)

    def start(self) -> None:
        self.timer.start()
        self.run()

    def _day(self) -> date:
        from desktop.domain.dates import local_today

        return self.today or local_today()

    def run_if_new_day(self) -> None:
        if self._day() != self.last_day:
            self.run()

    def run(self) -> None:
        if self.task is not None and not self.task.finished:
            return
        from desktop.tasks import Task

        self.last_day = self._day()
        self.task = (Task(daily_jobs_job, self.db, self.today).success(self._done).failure(self._failed)
                     .run_in_background(show_progress=False))

    def _done(self, report) -> None:
        if report.changed:
            from desktop.signals import bus

            for entity in ("authorizations", "autos", "ledger"):
                bus.data_changed.emit(entity)
        if _alive(self):
            self.finished.emit(report.describe())

    def _failed(self, error: BaseException) -> None:
        from desktop.views.widgets import error_text

        if _alive(self):
            self.last_day = None  # try again at the next check
            self.failed.emit("Rotinas do dia não executadas: " + error_text(error))


def _alive(obj: QObject) -> bool:
    import shiboken6

    return shiboken6.isValid(obj)
