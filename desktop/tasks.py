"""Background runner for long work (STYLE: Anki `CollectionOp` / `QueryOp`, Orange3 `concurrent.py`).

The long job is a plain function `fn(state, *args, **kwargs)` with no widget in it: it reports progress with
`state.progress(done, total, text)` and stops early when `state.cancelled` becomes true. The UI wraps it::

    Task(load_demo_job, db, 300).success(self._loaded).failure(self._failed).run_in_background(self, title="...")

The function runs on a QThreadPool worker; its result, its exception and its progress come back to the UI thread
by queued signals, so callbacks may touch widgets. A QProgressDialog (with "Cancelar") appears only when the job
has run for `PROGRESS_DELAY_MS` (≈ 600 ms, as in Anki), so quick jobs never flash a dialog.

Rules for `fn`: it must not touch widgets, nor receive ORM objects or sessions from the UI thread (it opens its own
through the services it calls).

A job belongs to the screen that started it (`run_in_background(parent)`), as in Orange3: when that screen's window
closes (a dialog finished, a window whose close event was accepted) or the screen is destroyed, the job is asked to
stop (`state.cancelled`) and its callbacks are never called. Closing never raises (issue 12 item 16): the bridge
that carries the worker's signals is owned by the application and deleted on the UI thread once the job's last
signal has been delivered, and a signal whose receiver is gone is dropped.
"""
from __future__ import annotations

import threading
import traceback
import weakref
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

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


def _deliver(emit: Callable[..., None], *values: Any) -> None:
    """Emit from the worker. Once the job's screen is gone (or the application is shutting down) the bridge may
    already be deleted: PySide6 then raises RuntimeError ("Signal source has been deleted"); nobody is left to
    receive the signal, so it is dropped instead of reaching stderr."""
    try:
        emit(*values)
    except RuntimeError:
        pass


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


class _CloseWatch(QObject):
    """Tells the task when the window of its screen closes (Orange3: a widget that closes shuts its work down).

    A QDialog reports it by `finished` (accept, reject, done: no close event); any other window by an accepted
    close event (checked once the event has been handled, since `closeEvent` may ignore it). The window is the
    screen's at the time: a screen created before being placed in its window follows its ParentChange."""

    def __init__(self, task: "Task", screen, bridge: QObject):
        super().__init__(bridge)
        self._task = task
        # weak: watching a screen must not keep it alive (when Python drops it, `destroyed` stops the job)
        self._screen_ref = weakref.ref(screen)
        self._window_ref = None
        screen.installEventFilter(self)
        self._watch(screen.window() if hasattr(screen, "window") else screen)

    @property
    def _screen(self):
        return self._screen_ref()

    @property
    def _window(self):
        return self._window_ref() if self._window_ref is not None else None

    def _watch(self, window) -> None:
        if window is self._window:
            return
        self._unwatch()
        self._window_ref = weakref.ref(window)
        if window is not self._screen:
            window.installEventFilter(self)
        if _is_dialog(window):
            window.finished.connect(self._closed)

    def _unwatch(self) -> None:
        window = self._window
        self._window_ref = None
        if window is None or not _alive(window):
            return
        if window is not self._screen:
            window.removeEventFilter(self)
        if _is_dialog(window):
            try:
                window.finished.disconnect(self._closed)
            except (RuntimeError, TypeError):  # already disconnected by Qt
                pass

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 — Qt name
        kind = event.type()
        if kind == QEvent.Type.Close and obj is self._window:
            QTimer.singleShot(0, self, self._check_closed)
        elif kind == QEvent.Type.ParentChange and obj is self._screen:
            self._watch(obj.window())
        return False

    @Slot()
    def _check_closed(self) -> None:
        window = self._window
        if window is None or not _alive(window) or not window.isVisible():
            self._closed()

    @Slot()
    def _closed(self, *_result) -> None:
        self._task._parent_gone()

    def release(self) -> None:
        screen = self._screen
        if screen is not None and _alive(screen):
            screen.removeEventFilter(self)
        self._unwatch()


def _is_dialog(window) -> bool:
    from PySide6.QtWidgets import QDialog

    return isinstance(window, QDialog)


def _alive(obj) -> bool:
    """False once the C++ side of a Qt object has been deleted (its Python wrapper may outlive it)."""
    import shiboken6

    return obj is not None and shiboken6.isValid(obj)


class _Runnable(QRunnable):
    def __init__(self, task: "Task"):
        super().__init__()
        self.setAutoDelete(True)
        self._task = task

    def run(self) -> None:  # worker thread
        task = self._task
        try:
            from desktop.db import retrying  # a job lost to another desk runs once more (issue 12 item 19)

            result = retrying(task.fn, task.state, *task.args, **task.kwargs)
        except BaseException as error:  # noqa: BLE001 — every failure goes back to the UI thread
            error.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
            _deliver(task._bridge.failed.emit, error)
        else:
            _deliver(task._bridge.succeeded.emit, result)


class Task:
    """A job to run off the UI thread. Build it, chain callbacks, then `run_in_background()`."""

    def __init__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any):
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self._bridge = _Bridge(self)
        self.state = TaskState(on_progress=self._emit_progress)
        self._on_success: Callable[[Any], None] | None = None
        self._on_failure: Callable[[BaseException], None] | None = None
        self._on_progress: Callable[[int, int, str], None] | None = None
        self._dialog = None
        self._timer: QTimer | None = None
        self._watch: _CloseWatch | None = None
        self.finished = False
        self._orphaned = False
        self.result: Any = None
        self.error: BaseException | None = None

    def _emit_progress(self, done: int, total: int, text: str) -> None:  # worker thread
        _deliver(self._bridge.progressed.emit, done, total, text)

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
        # The application owns the bridge, so that Python dropping the last reference to this task (possibly on
        # the worker thread) never deletes a QObject of the UI thread; `_finish` deletes it on the UI thread.
        self._bridge.setParent(QCoreApplication.instance())
        if parent is not None:
            # Orange3: a screen that closes shuts its work down — the job is asked to stop and its callbacks,
            # which would touch deleted or hidden widgets, are not called.
            parent.destroyed.connect(self._bridge._on_parent_destroyed)
            self._watch = _CloseWatch(self, parent, self._bridge)
        if show_progress:
            self._timer = QTimer(self._bridge)
            self._timer.setSingleShot(True)
            screen = weakref.ref(parent) if parent is not None else (lambda: None)
            self._timer.timeout.connect(lambda: self._show_dialog(screen(), title, label, parent is not None))
            self._timer.start(PROGRESS_DELAY_MS)
        (pool or QThreadPool.globalInstance()).start(_Runnable(self))
        return self

    def cancel(self) -> None:
        self.state.cancel()

    def _parent_gone(self) -> None:
        """The screen closed or was destroyed: stop the job; none of its callbacks will be called."""
        if self._orphaned or self.finished:
            return
        self._orphaned = True
        self.state.cancel()
        if self._timer is not None and _alive(self._timer):
            self._timer.stop()
        self._close_dialog()  # a child of the screen: already gone if the screen was destroyed

    def _close_dialog(self) -> None:
        dialog, self._dialog = self._dialog, None
        if dialog is not None and _alive(dialog):
            dialog.canceled.disconnect(self._cancel_from_dialog)
            dialog.close()
            dialog.deleteLater()

    # -- UI thread side -------------------------------------------------------------------------------------
    def _show_dialog(self, parent, title: str | None, label: str, had_parent: bool = False) -> None:
        if self.finished or self._orphaned or (had_parent and (parent is None or not _alive(parent))):
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
        """The worker's last signal has arrived (on the UI thread): tidy up. The worker emits nothing after it,
        so the bridge (and the timer and close watch it owns) can be deleted now, on this thread."""
        self.finished = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._close_dialog()
        if self._watch is not None:
            self._watch.release()
            self._watch = None
        self._bridge.deleteLater()
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
