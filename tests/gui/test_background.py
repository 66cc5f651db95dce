"""desktop.background: long work off the UI thread, progress and cancel, results back by signal (STYLE: Anki/Orange3)."""
from __future__ import annotations

import threading

import pytest

from desktop.background import PROGRESS_DELAY_MS, Cancelled, Task, TaskState


def count_to(state, n, pause=0.0):
    """A job as the house writes them: a plain function of (state, args) that knows nothing of widgets."""
    total = 0
    for i in range(n):
        if state.cancelled:
            raise Cancelled()
        total += i
        state.progress(i + 1, n, f"Item {i + 1} de {n}")
        if pause and state.wait_cancelled(pause):   # the job's pace; a cancel ends the pause at once
            raise Cancelled()
    return total


def test_job_function_runs_without_any_widget():
    seen = []
    state = TaskState(on_progress=lambda done, total, text: seen.append((done, total, text)))
    assert count_to(state, 3) == 3
    assert seen[-1] == (3, 3, "Item 3 de 3")
    state.cancel()
    with pytest.raises(Cancelled):
        count_to(state, 3)


def test_task_runs_off_the_ui_thread_and_reports_back_on_it(qtbot):
    ui_thread = threading.get_ident()
    threads, results, progress = [], [], []

    def job(state, n):
        threads.append(threading.get_ident())
        return count_to(state, n)

    task = (Task(job, 5).success(lambda r: results.append((r, threading.get_ident())))
            .on_progress(lambda d, t, _text: progress.append((d, t, threading.get_ident()))))
    task.run_in_background(show_progress=False)
    qtbot.waitUntil(lambda: task.finished, timeout=5000)
    assert threads and threads[0] != ui_thread
    assert results == [(10, ui_thread)]
    assert progress[-1] == (5, 5, ui_thread)
    assert all(thread == ui_thread for *_rest, thread in progress)


def test_task_failure_comes_back_as_the_exception(qtbot):
    from desktop.errors import ValidationError
    from desktop.domain.problems import Problem

    errors = []

    def job(state):
        raise ValidationError([Problem("cpf", "CPF inválido.")])

    task = Task(job).success(lambda r: pytest.fail("must not succeed")).failure(errors.append)
    task.run_in_background(show_progress=False)
    qtbot.waitUntil(lambda: task.finished, timeout=5000)
    assert isinstance(errors[0], ValidationError)
    assert errors[0].problems[0].field == "cpf"


def test_cancel_stops_the_job(qtbot):
    errors = []
    task = Task(count_to, 1000, 0.01).failure(errors.append)
    task.run_in_background(show_progress=False)
    qtbot.waitUntil(lambda: task.state.done >= 2, timeout=5000)
    task.cancel()
    qtbot.waitUntil(lambda: task.finished, timeout=5000)
    assert isinstance(errors[0], Cancelled)
    assert task.state.done < 1000


def test_progress_dialog_only_for_work_longer_than_the_delay(qtbot):
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    quick = Task(count_to, 3).run_in_background(parent, title="Rápido")
    qtbot.waitUntil(lambda: quick.finished, timeout=5000)
    qtbot.wait(PROGRESS_DELAY_MS + 100)
    assert quick._dialog is None

    slow = Task(count_to, 200, 0.01).run_in_background(parent, title="Demorado")
    qtbot.waitUntil(lambda: slow._dialog is not None and slow._dialog.isVisible(), timeout=3000)
    dialog = slow._dialog
    assert dialog.windowTitle() == "Demorado"
    assert dialog.labelText().startswith("Item ")
    assert dialog.maximum() == 200
    from PySide6.QtWidgets import QPushButton

    [button] = [b for b in dialog.findChildren(QPushButton) if b.text().replace("&", "") == "Cancelar"]
    button.click()
    qtbot.waitUntil(lambda: slow.finished, timeout=5000)
    assert isinstance(slow.error, Cancelled)
    assert slow._dialog is None


def test_closing_the_screen_stops_the_job_and_skips_its_callbacks(qtbot):
    """Orange3: a widget that closes shuts its work down; no callback touches a deleted widget."""
    from PySide6.QtWidgets import QLabel, QWidget

    screen = QWidget()
    label = QLabel(screen)
    called = []
    task = (Task(count_to, 1000, 0.01).success(lambda r: (called.append(r), label.setText("fim")))
            .failure(lambda e: (called.append(e), label.setText("erro"))))
    task.run_in_background(screen, show_progress=False)
    qtbot.waitUntil(lambda: task.state.done >= 2, timeout=5000)
    screen.deleteLater()
    qtbot.waitUntil(lambda: task.finished, timeout=10000)
    assert task.state.cancelled
    assert called == []


def _watch_stderr(capfd):
    """What reached the process's stderr (Python tracebacks and Qt's own warnings alike)."""
    return capfd.readouterr().err


@pytest.mark.parametrize("how", ["close", "reject", "delete_on_close", "delete_later"])
def test_closing_the_dialog_mid_job_cancels_it_silently_issue12_item16(qtbot, capfd, how):
    """Issue 12 item 16: closing a dialog while its job runs never raises ("Signal source has been deleted"),
    the job is asked to stop and its callbacks are not called."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDialog, QLabel

    dialog = QDialog()
    if how == "delete_on_close":
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    label = QLabel(dialog)
    dialog.show()
    called = []
    task = (Task(count_to, 1000, 0.005).success(lambda r: (called.append(r), label.setText("fim")))
            .failure(lambda e: (called.append(e), label.setText("erro"))))
    task.run_in_background(dialog, title="Gerando")
    qtbot.waitUntil(lambda: task.state.done >= 2, timeout=5000)
    capfd.readouterr()
    {"close": dialog.close, "reject": dialog.reject, "delete_on_close": dialog.close,
     "delete_later": dialog.deleteLater}[how]()
    qtbot.waitUntil(lambda: task.finished, timeout=10000)
    qtbot.wait(PROGRESS_DELAY_MS + 100)  # the progress dialog's timer must not fire on a closed screen
    assert task.state.cancelled
    assert task.state.done < 1000
    assert called == []
    assert _watch_stderr(capfd) == ""
    if how in ("close", "reject"):
        dialog.deleteLater()


def test_closing_a_window_whose_child_started_the_job_cancels_it(qtbot, capfd):
    """A screen placed in a window after it started its job still follows that window."""
    from PySide6.QtWidgets import QMainWindow, QWidget

    screen = QWidget()
    called = []
    task = Task(count_to, 1000, 0.005).success(called.append).failure(called.append)
    task.run_in_background(screen, show_progress=False)
    window = QMainWindow()
    qtbot.addWidget(window)
    window.setCentralWidget(screen)
    window.show()
    qtbot.waitUntil(lambda: task.state.done >= 2, timeout=5000)
    capfd.readouterr()
    window.close()
    qtbot.waitUntil(lambda: task.finished, timeout=10000)
    assert task.state.cancelled and called == []
    assert _watch_stderr(capfd) == ""


def test_a_window_that_refuses_to_close_keeps_its_job(qtbot):
    from PySide6.QtWidgets import QWidget

    class Busy(QWidget):
        def closeEvent(self, event):  # noqa: N802 — Qt name
            event.ignore()

    window = Busy()
    qtbot.addWidget(window)
    window.show()
    results = []
    task = Task(count_to, 30, 0.005).success(results.append).run_in_background(window, show_progress=False)
    window.close()
    qtbot.waitUntil(lambda: task.finished, timeout=10000)
    assert not task.state.cancelled
    assert results == [sum(range(30))]


def test_the_progress_dialog_goes_with_the_closed_screen(qtbot, capfd):
    from PySide6.QtWidgets import QDialog

    dialog = QDialog()
    dialog.show()
    task = Task(count_to, 1000, 0.005).run_in_background(dialog, title="Demorado")
    qtbot.waitUntil(lambda: task._dialog is not None and task._dialog.isVisible(), timeout=3000)
    progress = task._dialog
    capfd.readouterr()
    dialog.reject()
    assert not progress.isVisible()
    qtbot.waitUntil(lambda: task.finished, timeout=10000)
    assert task.state.cancelled
    assert _watch_stderr(capfd) == ""
    dialog.deleteLater()


def test_a_job_reporting_after_its_bridge_is_gone_does_not_raise(qtbot):
    """The worker may still report progress once the UI side is gone (for example at exit): it is dropped."""
    task = Task(count_to, 3).run_in_background(show_progress=False)
    qtbot.waitUntil(lambda: task.finished, timeout=5000)
    qtbot.wait(50)  # the bridge is deleted on the UI thread
    task.state.progress(1, 3, "tarde demais")
    assert task.state.text == "tarde demais"


def test_issue12_19_a_job_lost_to_another_desk_runs_once_more(qtbot):
    from desktop.errors import TransientDatabaseError

    attempts, results = [], []

    def job(state):
        attempts.append(1)
        if len(attempts) == 1:
            raise TransientDatabaseError("Outra estação gravava os mesmos registros ao mesmo tempo.")
        return "feito"

    task = Task(job).success(results.append)
    task.run_in_background(None, show_progress=False)
    qtbot.waitUntil(lambda: task.finished, timeout=5000)
    assert attempts == [1, 1] and results == ["feito"]


# -- the layers under Task (Orange3's executor over the Qt pool, its watcher) ---------------------------------
def test_the_executor_runs_calls_on_the_qt_pool_and_settles_standard_futures():
    from concurrent.futures import Future

    from desktop.background import Executor

    ui_thread = threading.get_ident()
    runner = Executor()
    future = runner.submit(lambda a, b=0: (a + b, threading.get_ident()), 2, b=3)
    assert isinstance(future, Future)
    total, thread = future.result(timeout=5)
    assert total == 5 and thread != ui_thread
    failing = runner.submit(int, "não é número")
    with pytest.raises(ValueError):
        failing.result(timeout=5)
    assert "ValueError" in failing.exception().__traceback_text__
    runner.shutdown()
    with pytest.raises(RuntimeError):
        runner.submit(int, "1")


def test_the_watcher_says_done_on_the_ui_thread_even_for_a_future_already_done(qtbot):
    from concurrent.futures import Future

    from desktop.background import FutureWatcher, executor

    ui_thread = threading.get_ident()
    seen = []
    finished = Future()
    finished.set_result("pronto")
    watcher = FutureWatcher(finished)        # done before it is watched: still reported, through the event loop
    watcher.done.connect(lambda f: seen.append((f.result(), threading.get_ident())))
    assert seen == []
    qtbot.waitUntil(lambda: len(seen) == 1, timeout=5000)
    gate = threading.Event()
    later = FutureWatcher(executor().submit(gate.wait, 10))       # running on a worker until the gate opens
    later.done.connect(lambda f: seen.append((f.result(), threading.get_ident())))
    gate.set()
    qtbot.waitUntil(lambda: len(seen) == 2, timeout=5000)
    assert seen == [("pronto", ui_thread), (True, ui_thread)]


def test_progress_reaches_the_ui_thread_in_order_and_before_the_result(qtbot):
    events = []
    task = (Task(count_to, 50).on_progress(lambda d, t, _text: events.append(d))
            .success(lambda r: events.append("fim")))
    task.run_in_background(show_progress=False)
    qtbot.waitUntil(lambda: task.finished, timeout=5000)
    assert events == [*range(1, 51), "fim"]


def test_shutdown_stops_every_running_job_and_waits_for_it(qtbot):
    from desktop.background import _running, shutdown

    errors = []
    task = Task(count_to, 10_000, 0.01).failure(errors.append).run_in_background(show_progress=False)
    qtbot.waitUntil(lambda: task.state.done >= 1, timeout=5000)
    assert task in _running
    assert shutdown(10000)
    assert task.state.cancelled and task.state.done < 10_000
    qtbot.waitUntil(lambda: task.finished, timeout=5000)
    assert isinstance(errors[0], Cancelled)
