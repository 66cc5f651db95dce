"""Background work, one mechanism (issue 22 point 5; STYLE: Orange3 `Orange/widgets/utils/concurrent.py`, Anki
`QueryOp` / `CollectionOp`).

Three layers, each usable alone:

- `Executor`: a `concurrent.futures.Executor` over Qt's thread pool (Orange3's `ThreadExecutor`):
  `executor.submit(fn, *args) -> Future`. The standard `Future` carries the result or the exception; nothing of
  Qt reaches `fn`.
- `FutureWatcher`: a QObject of the UI thread told when its future is done, whatever thread finished it, and
  saying so by its `done(future)` signal ON THE UI THREAD (always queued: also for a future already done, so a
  slot connected after `set_future` is never missed). Its `progressed` signal carries a job's progress the same
  way, in order, before `done`.
- `Task`: the long job of a screen — a plain function `fn(state, *args, **kwargs)` with no widget in it that
  reports progress with `state.progress(done, total, text)` and stops early when `state.cancelled` (or
  `state.check()` raises `Cancelled`)::

      Task(load_demo_job, db, 300).success(self._loaded).failure(self._failed).run_in_background(self, title="…")

  It runs through the executor, with `desktop.db.retrying` around it (a job lost to another desk runs once more,
  issue 12 item 19); its result, its exception and its progress come back to the UI thread through its watcher,
  so callbacks may touch widgets. A QProgressDialog (with "Cancelar") appears only when the job has run for
  `PROGRESS_DELAY_MS` (≈ 600 ms, as in Anki), so quick jobs never flash a dialog.

Rules for `fn`: it must not touch widgets, nor receive ORM objects or sessions from the UI thread (it opens its own
through the services it calls). CPU-heavy work inside a job (a big file's parsing, QR codes by the thousand) goes
to worker processes through `desktop.processes`, so the interpreter lock stays free for the screen.

A job belongs to the screen that started it (`run_in_background(parent)`), as in Orange3: when that screen's window
closes (a dialog finished, a window whose close event was accepted) or the screen is destroyed, the job is asked to
stop (`state.cancelled`) and its callbacks are never called. Closing never raises (issue 12 item 16): the watcher
that carries the job's signals is owned by the application and deleted on the UI thread once the job's last
signal has been delivered, and a signal whose receiver is gone is dropped. `shutdown()` at exit asks every job to
stop and waits for the workers.

Views call services through `desktop.views.operations`: `op(...)` for a change, `query_op(...)` for a read; both
go to the background (this module) with `.background(...)`.
"""
from __future__ import annotations

import concurrent.futures
import threading
import traceback
import weakref
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRunnable, Qt, QThreadPool, QTimer, Signal, Slot
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QProgressDialog

PROGRESS_DELAY_MS = 600

# Tasks currently running: a task must outlive the call that started it (nothing else holds it).
_running: set["Task"] = set()


class Cancelled(Exception):
    """Raised by `TaskState.check()` inside a job when the user pressed "Cancelar"."""


def _deliver(emit: Callable[[], None]) -> None:
    """Emit from a worker. Once the job's screen is gone (or the application is shutting down) the watcher may
    already be deleted: PySide6 then raises RuntimeError ("Signal source has been deleted", "already deleted");
    nobody is left to receive the signal, so it is dropped instead of reaching stderr."""
    try:
        emit()
    except RuntimeError:
        pass


# ================================================================================ executor over the Qt pool
class _FutureRunnable(QRunnable):
    """Runs one submitted call on a pool thread and settles its future."""

    def __init__(self, future: concurrent.futures.Future, fn: Callable[..., Any], args: tuple, kwargs: dict):
        super().__init__()
        self.setAutoDelete(True)
        self._future, self._call = future, (fn, args, kwargs)

    def run(self) -> None:  # pool thread
        future, (fn, args, kwargs) = self._future, self._call
        self._future = self._call = None   # nothing of the call outlives it on this side
        if not future.set_running_or_notify_cancel():
            return
        try:
            result = fn(*args, **kwargs)
        except BaseException as error:  # noqa: BLE001 — every failure goes to the future (and the UI thread)
            error.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
            future.set_exception(error)
        else:
            future.set_result(result)


class Executor(concurrent.futures.Executor):
    """`concurrent.futures.Executor` whose calls run on a QThreadPool (the application's by default)."""

    def __init__(self, pool: QThreadPool | None = None):
        self._pool = pool
        self._lock = threading.Lock()
        self._futures: set[concurrent.futures.Future] = set()
        self._closed = False

    @property
    def pool(self) -> QThreadPool:
        return self._pool or QThreadPool.globalInstance()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future:
        with self._lock:
            if self._closed:
                raise RuntimeError("Executor encerrado: nenhuma tarefa nova é aceita.")
            future: concurrent.futures.Future = concurrent.futures.Future()
            self._futures.add(future)
        future.add_done_callback(self._forget)
        self.pool.start(_FutureRunnable(future, fn, args, kwargs))
        return future

    def _forget(self, future: concurrent.futures.Future) -> None:
        with self._lock:
            self._futures.discard(future)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            futures = list(self._futures)
        if cancel_futures:
            for future in futures:
                future.cancel()
        if wait:
            concurrent.futures.wait(futures)


_executor: Executor | None = None


def executor() -> Executor:
    """The application's executor (over QThreadPool.globalInstance())."""
    global _executor
    if _executor is None:
        _executor = Executor()
    return _executor


class FutureWatcher(QObject):
    """Tells the UI thread (the thread this object lives in) that its future is done, by `done(future)`."""

    done = Signal(object)
    progressed = Signal(int, int, str)
    _settled = Signal(object)
    _progress = Signal(int, int, str)
    parent_gone = Signal()

    def __init__(self, future: concurrent.futures.Future | None = None, parent: QObject | None = None):
        super().__init__(parent)
        # Always queued, from any thread: a future already done when watched still reports through the event loop.
        self._settled.connect(self._on_settled, Qt.ConnectionType.QueuedConnection)
        self._progress.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)
        self.future: concurrent.futures.Future | None = None
        if future is not None:
            self.set_future(future)

    def set_future(self, future: concurrent.futures.Future) -> None:
        self.future = future
        future.add_done_callback(lambda f: _deliver(lambda: self._settled.emit(f)))

    def report(self, done: int, total: int, text: str) -> None:
        """From the worker: progress, delivered on the UI thread before `done`."""
        _deliver(lambda: self._progress.emit(done, total, text))

    @Slot(object)
    def _on_settled(self, future) -> None:
        self.done.emit(future)

    @Slot(int, int, str)
    def _on_progress(self, done: int, total: int, text: str) -> None:
        self.progressed.emit(done, total, text)

    @Slot()
    def _on_parent_destroyed(self) -> None:
        self.parent_gone.emit()


# ================================================================================ the job of a screen
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

    def wait_cancelled(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the user to cancel; True as soon as they do. A job that must pause
        (waiting on something outside the program) pauses on this, so a cancel ends the pause at once."""
        return self._cancel.wait(timeout)

    def check(self) -> None:
        """Raise `Cancelled` if the user asked to stop (a convenience for loops)."""
        if self._cancel.is_set():
            raise Cancelled()

    def progress(self, done: int, total: int = 0, text: str = "") -> None:
        self.done, self.total, self.text = int(done), int(total), text
        if self._on_progress is not None:
            self._on_progress(self.done, self.total, text)


class _CloseWatch(QObject):
    """Tells the task when the window of its screen closes (Orange3: a widget that closes shuts its work down).

    A QDialog reports it by `finished` (accept, reject, done: no close event); any other window by an accepted
    close event (checked once the event has been handled, since `closeEvent` may ignore it). The window is the
    screen's at the time: a screen created before being placed in its window follows its ParentChange."""

    def __init__(self, task: "Task", screen, owner: QObject):
        super().__init__(owner)
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

    return isinstance(window, QDialog)


def _alive(obj) -> bool:
    """False once the C++ side of a Qt object has been deleted (its Python wrapper may outlive it)."""
    import shiboken6  # lazy: Qt loads only when this runs (start-up cost)

    return obj is not None and shiboken6.isValid(obj)


def _run_job(fn: Callable[..., Any], state: TaskState, args: tuple, kwargs: dict) -> Any:
    """The worker side of a Task: the job under `retrying`."""
    from desktop.db import retrying  # local: desktop.db loads SQLAlchemy, kept off the start-up path of this module

    return retrying(fn, state, *args, **kwargs)


class Task:
    """A job to run off the UI thread. Build it, chain callbacks, then `run_in_background()`."""

    def __init__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any):
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self._watcher = FutureWatcher()
        self._watcher.done.connect(self._done)
        self._watcher.progressed.connect(self._progressed)
        self._watcher.parent_gone.connect(self._parent_gone)
        self.state = TaskState(on_progress=self._watcher.report)
        self.future: concurrent.futures.Future | None = None
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
        # The application owns the watcher, so that Python dropping the last reference to this task (possibly on
        # the worker thread) never deletes a QObject of the UI thread; `_finish` deletes it on the UI thread.
        self._watcher.setParent(QCoreApplication.instance())
        if parent is not None:
            # Orange3: a screen that closes shuts its work down — the job is asked to stop and its callbacks,
            # which would touch deleted or hidden widgets, are not called.
            parent.destroyed.connect(self._watcher._on_parent_destroyed)
            self._watch = _CloseWatch(self, parent, self._watcher)
        if show_progress:
            self._timer = QTimer(self._watcher)
            self._timer.setSingleShot(True)
            screen = weakref.ref(parent) if parent is not None else (lambda: None)
            self._timer.timeout.connect(lambda: self._show_dialog(screen(), title, label, parent is not None))
            self._timer.start(PROGRESS_DELAY_MS)
        runner = executor() if pool is None else Executor(pool)
        self.future = runner.submit(_run_job, self.fn, self.state, self.args, self.kwargs)
        self._watcher.set_future(self.future)
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

    def _done(self, future: concurrent.futures.Future) -> None:
        if future.cancelled():
            self._failed(Cancelled())
            return
        error = future.exception()
        if error is not None:
            self._failed(error)
        else:
            self._succeeded(future.result())

    def _finish(self) -> None:
        """The job's last signal has arrived (on the UI thread): tidy up. The worker emits nothing after it,
        so the watcher (and the timer and close watch it owns) can be deleted now, on this thread."""
        self.finished = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._close_dialog()
        if self._watch is not None:
            self._watch.release()
            self._watch = None
        self._watcher.deleteLater()
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
            import sys  # local: imported only on this branch

            print(getattr(error, "__traceback_text__", repr(error)), file=sys.stderr)


def shutdown(timeout_ms: int = 5000) -> bool:
    """Ask every running job to stop and wait for the workers (at exit: no Python code may run in a worker while
    the interpreter finalizes). True when all finished in time."""
    for task in list(_running):
        task.cancel()
    return QThreadPool.globalInstance().waitForDone(timeout_ms)
