"""Background runner for long work (STYLE: Anki `CollectionOp` / `QueryOp`, Orange3 `concurrent.py`).

The long job is a plain function `fn(state, *args, **kwargs)` with no widget in it: it reports progress with
`state.progress(done, total, text)` and stops early when `state.cancelled` becomes true. The UI wraps it::

    Task(load_demo_job, db, 300).success(self._loaded).failure(self._failed).run_in_background(self, title="...")

The function runs on a QThreadPool worker; its result, its exception and its progress come back to the UI thread
by queued signals, so callbacks may touch widgets. A QProgressDialog (with "Cancelar") appears only when the job
has run for `PROGRESS_DELAY_MS` (≈ 600 ms, as in Anki), so quick jobs never flash a dialog.

Rules for `fn`: it must not touch widgets, nor receive ORM objects or sessions from the UI thread (it opens its own
through the services it calls).
"""
from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from desktop.signals import guard_bool_refcounts

guard_bool_refcounts()  # progress is emitted once per item: see desktop/signals.py

PROGRESS_DELAY_MS = 600

# Tasks currently running: a task must outlive the call that started it (nothing else holds it).
_running: set["Task"] = set()


class Cancelled(Exception):
    """Raised by `TaskState.check()` inside a job when the user pressed "Cancelar"."""


class TaskState:
    """What the job sees: progress reporting and the cancel flag. Safe to use from the worker thread."""

    def __init__(self, on_progress: Callable[[int, int, str], None] | None = None):
        self._cancel = threading.Event()
        self._on_progress = on_progress
        self.done = 0
        self.total = 0
        self.text = ""

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def check(self) -> None:
        """Raise `Cancelled` if the user asked to stop (a convenience for loops)."""
        if self._cancel.is_set():
            raise Cancelled()

    def progress(self, done: int, total: int = 0, text: str = "") -> None:
        self.done, self.total, self.text = int(done), int(total), text
        if self._on_progress is not None:
            self._on_progress(self.done, self.total, text)


class _Bridge(QObject):
    """Lives in the UI thread. The worker emits its signals; the slots below are methods of this QObject, so
    Qt queues each call to the UI thread (a plain Python callable would not carry a thread affinity)."""

    progressed = Signal(int, int, str)
    succeeded = Signal(object)
    failed = Signal(object)

    def __init__(self, task: "Task"):
        super().__init__()
        self._task = task
        self.progressed.connect(self._on_progressed)
        self.succeeded.connect(self._on_succeeded)
        self.failed.connect(self._on_failed)

    @Slot(int, int, str)
    def _on_progressed(self, done: int, total: int, text: str) -> None:
        self._task._progressed(done, total, text)

    @Slot(object)
    def _on_succeeded(self, result: object) -> None:
        self._task._succeeded(result)

    @Slot(object)
    def _on_failed(self, error: object) -> None:
        self._task._failed(error)  # type: ignore[arg-type]

    @Slot()
    def _on_parent_destroyed(self) -> None:
        self._task._parent_gone()


class _Runnable(QRunnable):
    def __init__(self, task: "Task"):
        super().__init__()
        self.setAutoDelete(True)
        self._task = task

    def run(self) -> None:  # worker thread
        task = self._task
        try:
            result = task.fn(task.state, *task.args, **task.kwargs)
        except BaseException as error:  # noqa: BLE001 — every failure goes back to the UI thread
            error.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
            task._bridge.failed.emit(error)
        else:
            task._bridge.succeeded.emit(result)


class Task:
    """A job to run off the UI thread. Build it, chain callbacks, then `run_in_background()`."""

    def __init__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any):
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self._bridge = _Bridge(self)
        self.state = TaskState(on_progress=self._bridge.progressed.emit)
        self._on_success: Callable[[Any], None] | None = None
        self._on_failure: Callable[[BaseException], None] | None = None
        self._on_progress: Callable[[int, int, str], None] | None = None
        self._dialog = None
        self._timer: QTimer | None = None
        self.finished = False
        self._orphaned = False
        self.result: Any = None
        self.error: BaseException | None = None

    # -- chaining -------------------------------------------------------------------------------------------
    def success(self, callback: Callable[[Any], None]) -> "Task":
        self._on_success = callback
        return self

    def failure(self, callback: Callable[[BaseException], None]) -> "Task":
        self._on_failure = callback
        return self

    def on_progress(self, callback: Callable[[int, int, str], None]) -> "Task":
        self._on_progress = callback
        return self

    # -- running --------------------------------------------------------------------------------------------
    def run_in_background(self, parent=None, title: str | None = None, label: str = "Aguarde…",
                          show_progress: bool = True, pool: QThreadPool | None = None) -> "Task":
        """Start the job. With `show_progress`, a progress dialog appears after PROGRESS_DELAY_MS."""
        _running.add(self)
        if parent is not None:
            # Orange3: a screen that closes shuts its work down — the job is asked to stop and its callbacks,
            # which would touch deleted widgets, are not called.
            parent.destroyed.connect(self._bridge._on_parent_destroyed)
        if show_progress:
            self._timer = QTimer(self._bridge)
            self._timer.setSingleShot(True)
            self._timer.timeout.connect(lambda: self._show_dialog(parent, title, label))
            self._timer.start(PROGRESS_DELAY_MS)
        (pool or QThreadPool.globalInstance()).start(_Runnable(self))
        return self

    def cancel(self) -> None:
        self.state.cancel()

    def _parent_gone(self) -> None:
        self._orphaned = True
        self.state.cancel()
        self._dialog = None  # it was a child of the parent: Qt deleted it with it

    # -- UI thread side -------------------------------------------------------------------------------------
    def _show_dialog(self, parent, title: str | None, label: str) -> None:
        if self.finished:
            return
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QProgressDialog

        dialog = QProgressDialog(label, "Cancelar", 0, 0, parent)
        dialog.setWindowTitle(title or "Processando")
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setMinimumDuration(0)
        dialog.setMinimumWidth(380)
        dialog.canceled.connect(self._cancel_from_dialog)
        self._dialog = dialog
        self._update_dialog(self.state.done, self.state.total, self.state.text)
        dialog.show()

    def _cancel_from_dialog(self) -> None:
        self.state.cancel()
        if self._dialog is not None:
            self._dialog.setLabelText("Cancelando…")

    def _update_dialog(self, done: int, total: int, text: str) -> None:
        dialog = self._dialog
        if dialog is None or self.state.cancelled:
            return
        dialog.setMaximum(max(total, 0))
        if total:
            dialog.setValue(min(done, total))
        if text:
            dialog.setLabelText(text)

    def _progressed(self, done: int, total: int, text: str) -> None:
        self._update_dialog(done, total, text)
        if self._on_progress is not None:
            self._on_progress(done, total, text)

    def _finish(self) -> None:
        self.finished = True
        if self._timer is not None:
            self._timer.stop()
        if self._dialog is not None:
            self._dialog.canceled.disconnect(self._cancel_from_dialog)
            self._dialog.close()
            self._dialog.deleteLater()
            self._dialog = None
        _running.discard(self)

    def _succeeded(self, result: Any) -> None:
        self.result = result
        self._finish()
        if self._orphaned:
            return
        if self._on_success is not None:
            self._on_success(result)

    def _failed(self, error: BaseException) -> None:
        self.error = error
        self._finish()
        if self._orphaned:
            return
        if self._on_failure is not None:
            self._on_failure(error)
        elif not isinstance(error, Cancelled):
            # Nobody listens: do not swallow a bug silently.
            import sys

            print(getattr(error, "__traceback_text__", repr(error)), file=sys.stderr)


def shutdown(timeout_ms: int = 5000) -> bool:
    """Ask every running job to stop and wait for the workers (at exit: no Python code may run in a worker while
    the interpreter finalizes). True when all finished in time."""
    for task in list(_running):
        task.cancel()
    return QThreadPool.globalInstance().waitForDone(timeout_ms)
