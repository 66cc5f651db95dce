"""The steps every screen journey shares (issue 27 "journeys" a–f), one copy: a window per login, a module opened
from the sidebar with the mouse, a tab clicked by its title, a row found on screen and clicked, a modal dialog
answered inside its own loop, a message box answered by its button, a file chosen in Qt's own file dialog by typing
its path, "Arquivo → Trocar usuário…" with the mouse and the login typed, an auto printed from Fiscalização, and a
printed PDF read back. Nothing here calls a slot or sets a value: the hands are tests/gui/hands.py."""
from __future__ import annotations

import io

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QLineEdit, QMessageBox, QTabWidget

from hands import activate, click, click_button, click_close, click_row, in_modal, settle, type_into
from robot import SIZE, sidebar_click
from robot import click_tab as click_tab_at


# -- dialogs ------------------------------------------------------------------------------------------------------
def when_modal(kind, then, timeout: float = 15.0, title: str = ""):
    """Run `then(dialog)` as soon as a modal dialog of `kind` (whose title holds `title`) is active, inside its exec
    loop (hands.in_modal). An error inside `then` closes the dialog, so the click that opened it returns, and fails
    the test from Qt's event loop; `.check()` on the result raises it again where the journey stands."""
    return in_modal(kind, then, timeout=timeout, title=title, raise_in_loop=True)


def answer_message(button_text: str = "OK", title: str = "", into: list | None = None) -> dict:
    """The next QMessageBox (titled with `title`, when given) is read — its title and text kept in the returned
    dict, and appended as (title, text) to `into` — and answered by clicking its button `button_text`."""
    seen: dict = {}

    def answer(box: QMessageBox) -> None:
        seen["title"], seen["text"] = box.windowTitle(), box.text()
        if into is not None:
            into.append((box.windowTitle(), box.text()))
        for button in box.buttons():
            if button.text().replace("&", "") == button_text:
                click(button)
                return
        ok = box.button(QMessageBox.StandardButton.Ok) if button_text == "OK" else None
        if ok is not None:
            click(ok)
            return
        raise AssertionError(f"no «{button_text}» in the message «{box.text()}»")

    seen["work"] = when_modal(QMessageBox, answer, title=title)
    return seen


def ok_when_box(seen: list, title: str = "") -> dict:
    """The next QMessageBox (titled `title`, when given) is read into `seen` as (title, text) and closed with its
    OK button, clicked with the mouse."""
    return answer_message("OK", title=title, into=seen)


def choose_file_in_dialog(path, title: str = ""):
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


# -- windows, modules, tabs, rows ---------------------------------------------------------------------------------
def login(db, username: str):
    """The Actor of a demo staff member (desktop.demo.STAFF), logged in with the demo password."""
    from desktop.demo import DEMO_PASSWORD
    from desktop.services import auth

    return auth.login(db, username, DEMO_PASSWORD)


def open_window(qtbot, db, actor):
    """The main window of `actor` at the office's size, active (keys reach it)."""
    from desktop.views.main_window import MainWindow

    window = MainWindow(db, actor)
    qtbot.addWidget(window)
    window.resize(*SIZE)
    activate(window)
    return window


def close_window(window) -> None:
    import shiboken6

    window.close()
    settle()
    shiboken6.delete(window)


def sidebar_row(window, label: str) -> int:
    for row in range(window.sidebar.count()):
        if window.sidebar.item(row).text().replace("&", "").startswith(label):
            return row
    raise AssertionError(f"no «{label}» in the sidebar of {window.actor.username}: "
                         f"{[window.sidebar.item(r).text() for r in range(window.sidebar.count())]}")


def open_module(window, label: str):
    """Click the module called `label` in the sidebar; the page on screen."""
    page = sidebar_click(window, sidebar_row(window, label))
    assert window.current_module_key() != "inicio", f"«{label}» did not open"
    return page


def click_tab_titled(tabs: QTabWidget, title: str) -> None:
    """Click the tab whose title starts with `title`."""
    for index in range(tabs.count()):
        if tabs.tabText(index).replace("&", "").startswith(title):
            click_tab_at(tabs, index)
            assert tabs.currentIndex() == index
            return
    raise AssertionError(f"no tab «{title}»: {[tabs.tabText(i) for i in range(tabs.count())]}")


def click_row_where(table, predicate, double: bool = False):
    """Click (or double-click) the first row on screen of a RecordTable for which `predicate(row)` holds; the row."""
    rows = table.visible_rows()
    for index, row in enumerate(rows):
        if predicate(row):
            click_row(table, index, double=double)
            return row
    raise AssertionError(f"no such row among {len(rows)}")


def switch_user(qtbot, window, username: str, password: str):
    """Arquivo → Trocar usuário… with the mouse, the login typed, "Entrar" clicked; the new main window."""
    bar = window.menuBar()
    file_menu = next(a for a in bar.actions() if a.text().replace("&", "") == "Arquivo")
    click(bar, bar.actionGeometry(file_menu).center())
    menu = file_menu.menu()
    qtbot.waitUntil(menu.isVisible, timeout=3000)
    click(menu, menu.actionGeometry(window.switch_user_action).center())
    qtbot.waitUntil(lambda: window.relogin is not None and window.relogin.isVisible(), timeout=5000)
    login_window = window.relogin
    activate(login_window)
    type_into(login_window.username_edit, username)
    type_into(login_window.password_edit, password)
    click_button(login_window.login_button)
    qtbot.waitUntil(lambda: window.successor is not None, timeout=10000)
    successor = window.successor
    qtbot.addWidget(successor)
    successor.showNormal()
    successor.resize(*SIZE)
    activate(successor)
    return successor


# -- printed documents --------------------------------------------------------------------------------------------
def pdf_text(data: bytes) -> str:
    """The words of every page of a PDF, spaces folded (pypdf)."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return " ".join(" ".join((page.extract_text() or "") for page in reader.pages).split())


def print_auto_from_enforcement(qtbot, window, number: str) -> str:
    """In Fiscalização, the auto `number` opened from the list with a double click and printed from "Imprimir…"
    (Auto de infração, 2 vias, Art. 19) with the mouse; the PDF's text."""
    page = open_module(window, "Fiscalização")
    listing = page.list_screen
    type_into(listing.text_edit, number)                 # the filter: the auto's number, typed
    qtbot.waitUntil(lambda: [r.number for r in listing.rows()] == [number], timeout=15000)
    click_row(listing.table, 0, double=True)
    detail = page.detail_screen
    qtbot.waitUntil(lambda: detail.isVisible() and detail.detail is not None
                    and detail.detail.auto.number == number, timeout=15000)
    click_button(detail.print_button)
    menu = detail.print_button.menu()
    qtbot.waitUntil(menu.isVisible, timeout=5000)
    action = next(a for a in menu.actions() if a.text().replace("&", "").startswith("Auto de infração"))
    click(menu, menu.actionGeometry(action).center())
    qtbot.waitUntil(lambda: getattr(detail, "preview", None) is not None, timeout=60000)
    text = pdf_text(detail.preview._bytes)
    click_close(detail.preview)
    return text


__all__ = ["when_modal", "answer_message", "ok_when_box", "choose_file_in_dialog", "login", "open_window",
           "close_window", "sidebar_row", "open_module", "click_tab_titled", "click_row_where", "switch_user",
           "pdf_text", "print_auto_from_enforcement"]
