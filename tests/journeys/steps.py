"""Steps the screen journeys share (issue 27 "journeys" d–f): a window per login, a module opened from the sidebar
with the mouse, a row found on screen and clicked, a modal dialog answered inside its own loop, a printed PDF read
back. Nothing here calls a slot or sets a value: the hands are tests/gui/hands.py."""
from __future__ import annotations

import io
import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from hands import activate, click, click_row, settle
from robot import SIZE


def when_modal(kind, then, timeout: float = 15.0) -> None:
    """Run `then(dialog)` as soon as a modal dialog of `kind` is active (inside its exec loop)."""
    start = time.monotonic()

    def check():
        modal = QApplication.activeModalWidget()
        if isinstance(modal, kind):
            then(modal)
        elif time.monotonic() - start < timeout:
            QTimer.singleShot(30, check)

    QTimer.singleShot(30, check)


def ok_when_box(seen: list, title: str = "") -> None:
    """The next QMessageBox (titled `title`, when given) is read into `seen` and closed with its OK button, clicked
    with the mouse."""
    from PySide6.QtTest import QTest
    from PySide6.QtCore import Qt

    def answer(box: QMessageBox) -> None:
        if title and box.windowTitle() != title:
            when_modal(QMessageBox, answer)      # another box first: wait for ours
            return
        seen.append((box.windowTitle(), box.text()))
        button = box.button(QMessageBox.StandardButton.Ok) or box.buttons()[0]
        QTest.mouseClick(button, Qt.MouseButton.LeftButton, pos=button.rect().center())

    when_modal(QMessageBox, answer)


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


def open_module(window, label: str):
    """Click the module called `label` in the sidebar; its page."""
    sidebar = window.sidebar
    for row in range(sidebar.count()):
        item = sidebar.item(row)
        if item.text() == label:
            sidebar.scrollToItem(item)
            click(sidebar.viewport(), sidebar.visualItemRect(item).center())
            settle(100)
            page = window.stack.currentWidget()
            assert window.current_module_key() != "inicio", f"«{label}» did not open"
            return page
    raise AssertionError(f"no «{label}» in the sidebar of {window.actor.username}: "
                         f"{[sidebar.item(r).text() for r in range(sidebar.count())]}")


def click_tab(tabs, text: str) -> None:
    bar = tabs.tabBar()
    for index in range(tabs.count()):
        if tabs.tabText(index).replace("&", "").startswith(text):
            click(bar, bar.tabRect(index).center())
            settle(60)
            assert tabs.currentIndex() == index
            return
    raise AssertionError(f"no tab «{text}»: {[tabs.tabText(i) for i in range(tabs.count())]}")


def click_row_where(table, predicate, double: bool = False):
    """Click (or double-click) the first row on screen of a RecordTable for which `predicate(row)` holds; the row."""
    rows = table.visible_rows()
    for index, row in enumerate(rows):
        if predicate(row):
            click_row(table, index, double=double)
            return row
    raise AssertionError(f"no such row among {len(rows)}")


def pdf_text(data: bytes) -> str:
    """The words of every page of a PDF, spaces folded (pypdf)."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return " ".join(" ".join((page.extract_text() or "") for page in reader.pages).split())


def print_auto_from_enforcement(qtbot, window, number: str) -> str:
    """In Fiscalização, the auto `number` opened from the list with a double click and printed from "Imprimir…"
    (Auto de infração, 2 vias, Art. 19) with the mouse; the PDF's text."""
    from hands import click_button, type_into

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
    detail.preview.close()
    return text
