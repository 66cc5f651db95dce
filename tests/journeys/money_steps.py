"""Steps journeys (b) and (c) share (tests/journeys/steps.py has those of (d)-(f); both were written at once) (issue 27 "journeys"): a modal dialog answered when it opens, a module opened from
the sidebar by its name, a tab clicked by its title, a file chosen in Qt's own file dialog by typing its path,
"Arquivo → Trocar usuário…" with the mouse and the login typed, and a PDF read back. Real input only: every step
is a mouse click on what a person sees or keys typed into the widget with the focus."""
from __future__ import annotations

import io
import time
import traceback

from PySide6.QtCore import Qt, QTimer
from pypdf import PdfReader
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QLineEdit, QMessageBox, QTabWidget

from hands import activate, click, click_button, settle, type_into
from robot import SIZE, click_tab, sidebar_click


def when_modal(kind, then, timeout: float = 15.0, title: str = "") -> dict:
    """Run `then(dialog)` as soon as a modal dialog of `kind` (whose title holds `title`) is active, inside its
    exec loop. The returned dict gets "done" once it ran."""
    start = time.monotonic()
    state: dict = {}

    def check():
        modal = QApplication.activeModalWidget()
        if isinstance(modal, kind) and title in modal.windowTitle() and modal.isVisible():
            state["done"] = True
            state["title"] = modal.windowTitle()
            try:
                then(modal)
            except BaseException as error:       # never leave a modal open: the test would hang, not fail
                state["error"] = error
                traceback.print_exc()
                if modal.isVisible():
                    modal.reject()
                raise
        elif time.monotonic() - start < timeout:
            QTimer.singleShot(30, check)

    QTimer.singleShot(30, check)
    return state


def answer_message(button_text: str = "OK", title: str = "") -> dict:
    """The next QMessageBox is answered with its button `button_text`; its text is kept in the returned dict."""
    seen: dict = {}

    def answer(box: QMessageBox) -> None:
        seen["text"] = box.text()
        for button in box.buttons():
            if button.text().replace("&", "") == button_text:
                click(button)
                return
        raise AssertionError(f"no «{button_text}» in the message «{box.text()}»")

    seen.update(when_modal(QMessageBox, answer, title=title))
    return seen


def choose_file_in_dialog(path, title: str = "") -> dict:
    """The next Qt file dialog gets `path` typed into its file name field, then its "Abrir" button is clicked (what
    a person does who knows where the file is). Not Enter: the field's completer list would take it."""

    def choose(dialog: QFileDialog) -> None:
        edit = dialog.findChild(QLineEdit, "fileNameEdit")
        assert edit is not None, "the file dialog has no file name field"
        type_into(edit, str(path))
        settle(50)
        popup = edit.completer().popup() if edit.completer() is not None else None
        if popup is not None and popup.isVisible():     # the completer's list would take the Enter
            QTest.keyClick(popup, Qt.Key.Key_Escape)
            settle()
        box = dialog.findChild(QDialogButtonBox, "buttonBox")
        accept = next(b for b in box.buttons() if box.buttonRole(b) == QDialogButtonBox.ButtonRole.AcceptRole)
        click_button(accept)

    return when_modal(QFileDialog, choose, title=title)


def sidebar_row(window, label: str) -> int:
    for row in range(window.sidebar.count()):
        if window.sidebar.item(row).text().replace("&", "").startswith(label):
            return row
    raise AssertionError(f"no «{label}» in the sidebar")


def open_module(window, label: str):
    """Click the module `label` in the sidebar; the page on screen."""
    return sidebar_click(window, sidebar_row(window, label))


def click_tab_titled(tabs: QTabWidget, title: str) -> None:
    for index in range(tabs.count()):
        if tabs.tabText(index).replace("&", "").startswith(title):
            click_tab(tabs, index)
            return
    raise AssertionError(f"no tab «{title}»: {[tabs.tabText(i) for i in range(tabs.count())]}")


def switch_user(qtbot, window, username: str, password: str):
    """Arquivo → Trocar usuário… with the mouse, the login typed, "Entrar" clicked; the new main window."""
    bar = window.menuBar()
    file_menu = next(a for a in bar.actions() if a.text().replace("&", "") == "Arquivo")
    click(bar, bar.actionGeometry(file_menu).center())
    menu = file_menu.menu()
    qtbot.waitUntil(menu.isVisible, timeout=3000)
    click(menu, menu.actionGeometry(window.switch_user_action).center())
    qtbot.waitUntil(lambda: window.relogin is not None and window.relogin.isVisible(), timeout=5000)
    login = window.relogin
    activate(login)
    type_into(login.username_edit, username)
    type_into(login.password_edit, password)
    click_button(login.login_button)
    qtbot.waitUntil(lambda: window.successor is not None, timeout=10000)
    successor = window.successor
    qtbot.addWidget(successor)
    successor.showNormal()
    successor.resize(*SIZE)
    activate(successor)
    return successor


def pdf_text(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return " ".join(" ".join((p.extract_text() or "") for p in reader.pages).split())


__all__ = ["when_modal", "answer_message", "choose_file_in_dialog", "open_module", "click_tab_titled", "switch_user",
           "pdf_text", "sidebar_row"]
