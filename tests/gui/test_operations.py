"""desktop.views.operations.op: the one way a screen calls a service (STYLE: Anki's CollectionOp)."""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QLineEdit, QWidget

from desktop.domain.problems import Problem
from desktop.errors import ConflictError, StaleRecordError, ValidationError
from desktop.signals import bus
from desktop.background import Cancelled
from desktop.views.operations import op
from desktop.views.widgets import FieldErrors


def _failing(error):
    def call():
        raise error
    return call


def test_success_runs_callback_and_announces_the_change(qtbot):
    seen, changed = [], []
    bus.data_changed.connect(changed.append)
    try:
        assert op(None, lambda: 41 + 1).changes("drivers", "authorizations").success(seen.append).run() is True
    finally:
        bus.data_changed.disconnect(changed.append)
    assert seen == [42]
    assert changed == ["drivers", "authorizations"]


def test_validation_problems_go_next_to_their_fields(qtbot, messages):
    parent = QWidget()
    qtbot.addWidget(parent)
    general, edit, label = QLabel(parent), QLineEdit(parent), QLabel(parent)
    errors = FieldErrors(general)
    errors.add("cpf", edit, label)
    problem = Problem("cpf", "CPF inválido: dígito verificador não confere.", "Art. 12")
    done = []
    ok = op(parent, _failing(ValidationError([problem]))).fields(errors).success(done.append).run()
    assert ok is False and done == []
    assert "dígito verificador" in errors.message("cpf") and errors.is_invalid("cpf")
    assert messages == []  # inline, no message box


def test_validation_without_fields_lists_problems_in_a_box(qtbot, messages):
    op(None, _failing(ValidationError([Problem("nome", "Informe o nome.")]))).run()
    assert messages and "Informe o nome." in messages[0][2]


def test_desktop_error_is_a_message_box_in_portuguese_and_nothing_changes(qtbot, messages):
    changed = []
    bus.data_changed.connect(changed.append)
    try:
        op(None, _failing(ConflictError("Já existe um condutor com este CPF."))).changes("drivers").run()
    finally:
        bus.data_changed.disconnect(changed.append)
    assert messages == [("warning", "Não foi possível concluir", "Já existe um condutor com este CPF.")]
    assert changed == []


def test_unexpected_error_is_shown_and_printed(qtbot, messages, capsys):
    op(None, _failing(KeyError("x"))).run()
    assert messages[0][2].startswith("Erro inesperado")
    assert "KeyError" in capsys.readouterr().err


def test_stale_record_offers_reload(qtbot, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    reloaded = []

    def click_reload(box):
        box.setProperty("seen", True)
        return 0

    monkeypatch.setattr(QMessageBox, "exec", click_reload)
    monkeypatch.setattr(QMessageBox, "clickedButton", lambda box: box.defaultButton())
    op(None, _failing(StaleRecordError())).stale(lambda: reloaded.append(True)).run()
    assert reloaded == [True]


def test_failure_callback_may_take_over(qtbot, messages):
    seen = []
    op(None, _failing(ConflictError("x"))).failure(lambda e: seen.append(e) or True).run()
    assert len(seen) == 1 and messages == []


def test_background_runs_off_the_ui_thread_and_reports_back(qtbot):
    import threading

    ui = threading.get_ident()
    threads, results = [], []

    def work(state):
        threads.append(threading.get_ident())
        state.progress(1, 1, "feito")
        return "pdf"

    operation = op(None, work).background("Gerando", pass_state=True).success(results.append)
    operation.run()
    qtbot.waitUntil(lambda: results == ["pdf"], timeout=5000)
    assert threads and threads[0] != ui


def test_background_cancel_shows_nothing(qtbot, messages):
    def work(state):
        raise Cancelled()

    operation = op(None, work).background(pass_state=True)
    operation.run()
    qtbot.waitUntil(lambda: operation.task.finished, timeout=5000)
    assert messages == []


def test_cancelled_callback_runs_instead_of_any_message(qtbot, messages):
    def work(state):
        raise Cancelled()

    seen, failed = [], []
    operation = op(None, work).background(pass_state=True).failure(failed.append) \
        .cancelled(lambda: seen.append("cancelado"))
    operation.run()
    qtbot.waitUntil(lambda: operation.task.finished, timeout=5000)
    assert seen == ["cancelado"] and failed == [] and messages == []


def test_stale_without_question_warns_then_reloads(qtbot, messages):
    """A screen that shows the record itself: the user is told, and the current version is loaded at once."""
    reloaded = []
    assert op(None, _failing(StaleRecordError("Salvo antes por outra mesa."))) \
        .stale(lambda: reloaded.append(True), ask=False).run() is False
    assert reloaded == [True]
    [(kind, title, text)] = messages
    assert kind == "warning" and "alterado por outro usuário" in text and "Salvo antes" in text


def test_stale_without_reload_is_a_plain_warning(qtbot, messages):
    op(None, _failing(StaleRecordError("Salvo antes por outra mesa."))).run()
    assert messages and "alterado por outro usuário" in messages[0][2]


def test_background_call_of_a_dialog_closed_mid_job_is_cancelled_silently_issue12_item16(qtbot, messages, capfd):
    from PySide6.QtWidgets import QDialog

    dialog = QDialog()
    dialog.show()
    seen = []

    def work(state):
        for i in range(400):
            state.check()
            state.progress(i, 400, "Gerando…")
            state.wait_cancelled(0.005)      # the job's pace; the dialog's close cancels it at once
        return "pdf"

    operation = op(dialog, work).background("Gerando", pass_state=True).success(seen.append) \
        .failure(seen.append).cancelled(lambda: seen.append("cancelado"))
    operation.run()
    qtbot.waitUntil(lambda: operation.task.state.done >= 2, timeout=5000)
    capfd.readouterr()
    dialog.reject()
    qtbot.waitUntil(lambda: operation.task.finished, timeout=10000)
    assert operation.task.state.cancelled
    assert seen == [] and messages == []
    assert capfd.readouterr().err == ""
    dialog.deleteLater()


def test_issue12_19_a_call_lost_to_a_deadlock_runs_once_more_and_the_user_sees_nothing(qtbot, messages):
    from desktop.errors import TransientDatabaseError

    attempts, seen = [], []

    def call():
        attempts.append(1)
        if len(attempts) == 1:
            raise TransientDatabaseError("Outra estação gravava os mesmos registros ao mesmo tempo.")
        return "gravado"

    assert op(None, call).success(seen.append).run() is True
    assert attempts == [1, 1] and seen == ["gravado"] and messages == []


def test_issue12_19_a_deadlock_twice_is_a_portuguese_message(qtbot, messages):
    from desktop.errors import TransientDatabaseError
    from desktop.errors import DEADLOCK_MESSAGE

    assert op(None, _failing(TransientDatabaseError(DEADLOCK_MESSAGE))).run() is False
    assert messages == [("warning", "Não foi possível concluir", DEADLOCK_MESSAGE)]


def test_issue12_21_a_nan_raised_outside_a_session_is_a_portuguese_message_not_erro_inesperado(qtbot, messages):
    from decimal import Decimal

    def compare_nan():
        return Decimal("NaN") <= 0   # what a service without the limits check used to do

    assert op(None, compare_nan).run() is False
    assert messages and "valor numérico é inválido" in messages[0][2] and "inesperado" not in messages[0][2]
