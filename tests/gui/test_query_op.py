"""desktop.views.operations.query_op: the one way a screen reads through a service (Anki's QueryOp), instead of
a try/except copied in each screen (issue 22 point 5)."""
from __future__ import annotations

import threading

from PySide6.QtWidgets import QLabel, QWidget

from desktop.errors import NotFound
from desktop.views.operations import query_op


def _failing(error):
    def call():
        raise error
    return call


def test_a_read_hands_its_result_to_the_screen(qtbot, messages):
    seen = []
    read = query_op(None, lambda: [1, 2, 3]).success(seen.append)
    assert read.run() is True and read.result == [1, 2, 3] and seen == [[1, 2, 3]]
    assert query_op(None, lambda: "linhas").get() == "linhas"
    assert messages == []


def test_a_failed_read_is_a_titled_box_in_portuguese_then_the_fallback(qtbot, messages):
    seen = []
    rows = query_op(None, _failing(NotFound("Auto não encontrado (código 7)."))) \
        .titled("Não foi possível abrir o auto").otherwise([]).success(seen.append).get()
    assert rows == [] and seen == [[]]
    assert messages == [("warning", "Não foi possível abrir o auto", "Auto não encontrado (código 7).")]


def test_a_failed_read_without_fallback_stops_there(qtbot, messages):
    seen = []
    read = query_op(None, _failing(RuntimeError("disco cheio"))).titled("Lista").success(seen.append)
    assert read.run() is False and seen == [] and read.result is None
    assert isinstance(read.error, RuntimeError)
    assert messages == [("warning", "Lista", "Erro inesperado: disco cheio")]


def test_inline_puts_the_message_in_the_screens_label(qtbot, messages):
    parent = QWidget()
    qtbot.addWidget(parent)
    label = QLabel(parent)
    label.setVisible(False)
    parent.show()
    assert query_op(parent, _failing(NotFound("Catálogo vazio."))).inline(label).otherwise([]).get() == []
    assert label.text() == "Catálogo vazio." and label.isVisible()
    assert messages == []


def test_failure_hands_the_error_to_the_screen(qtbot, messages):
    errors = []
    assert query_op(None, _failing(NotFound("Sem plataformas."))).failure(errors.append).get() is None
    assert [str(e) for e in errors] == ["Sem plataformas."] and messages == []


def test_a_slow_read_runs_in_the_background_and_answers_on_the_ui_thread(qtbot, messages):
    parent = QWidget()
    qtbot.addWidget(parent)
    ui_thread = threading.get_ident()
    threads, seen = [], []

    def read():
        threads.append(threading.get_ident())
        return "pronto"

    op = query_op(parent, read).background(show_progress=False).success(
        lambda r: seen.append((r, threading.get_ident())))
    assert op.run() is True
    qtbot.waitUntil(lambda: op.task.finished, timeout=5000)
    assert threads[0] != ui_thread and seen == [("pronto", ui_thread)]
    failed = query_op(parent, _failing(NotFound("Nada."))).titled("Leitura").background(show_progress=False)
    failed.run()
    qtbot.waitUntil(lambda: failed.task.finished, timeout=5000)
    assert messages == [("warning", "Leitura", "Nada.")]


def test_get_is_for_reads_on_this_thread_only(qtbot):
    import pytest

    with pytest.raises(RuntimeError, match="success"):
        query_op(None, lambda: 1).background(show_progress=False).get()
