"""Runs `services.jobs.run_due_transitions` off the UI thread when the Autorizações module opens and again when
the day changes (checked every hour): a suspension ends the day after its last day and an authorization past its
validity expires without anyone remembering to do it (Art. 3 §1; Art. 24 parágrafo único; Art. 26 §1). The job is
idempotent, so running it from more than one desk or screen changes nothing twice."""
from __future__ import annotations

from datetime import date

from PySide6.QtCore import QObject, QTimer, Signal

CHECK_EVERY_MS = 60 * 60 * 1000


def due_transitions_job(state, db, today: date | None = None):
    from desktop.services import jobs

    state.progress(0, 0, "Atualizando situações das autorizações…")
    return jobs.run_due_transitions(db, today)


class DueTransitionsRunner(QObject):
    finished = Signal(list)     # the DueTransitions applied (possibly empty)
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
        self.timer.start()

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
        self.task = (Task(due_transitions_job, self.db, self.today).success(self._done).failure(self._failed)
                     .run_in_background(show_progress=False))

    def _done(self, changes) -> None:
        if changes:
            from desktop.signals import bus

            bus.data_changed.emit("authorizations")
        if _alive(self):   # the screen may have been closed while the job ran
            self.finished.emit(list(changes))

    def _failed(self, error: BaseException) -> None:
        from desktop.views.widgets import error_text

        if _alive(self):
            self.last_day = None   # try again at the next check
            self.failed.emit(error_text(error))


def _alive(obj: QObject) -> bool:
    import shiboken6

    return shiboken6.isValid(obj)
