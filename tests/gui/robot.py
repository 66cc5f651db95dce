"""The robot clerk (issues 27 and 29): walks the main window as a person does — every module opened from the
sidebar with the mouse, every tab of every tab widget clicked — and hands each visible list to a check.

`demo_window(tmp_path_factory)` builds a demonstration database once (the program's own demo load) with a user
holding every role; `walk(window, visit)` calls `visit(screen_name, view)` for every visible list with rows.
"""
from __future__ import annotations

import importlib
import pkgutil
import shutil

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractButton, QDialog, QAbstractItemView, QHeaderView, QListWidget, QTabBar, QTabWidget,
                               QWidget)

from hands import click, settle

ROBOT_USER, ROBOT_PASSWORD = "robo", "senha-do-robo-2026"
SIZE = (1366, 728)


def make_demo(path, drivers: int = 30):
    from desktop.migrate import open_database
    from desktop.demo import ADMIN_PASSWORD, ADMIN_USERNAME
    from desktop.domain.roles import Role
    from desktop.services import auth, users
    from desktop.demo.entry import load_demo

    db = open_database(f"sqlite:///{path}")
    load_demo(db, drivers=drivers, seed=2025)
    admin = auth.login(db, ADMIN_USERNAME, ADMIN_PASSWORD)
    users.create_user(db, admin, users.UserDraft(ROBOT_USER, "Roberta Robô", frozenset(Role), ROBOT_PASSWORD))
    db.dispose()
    return path


def open_copy(template, tmp_path):
    from desktop.migrate import open_database
    from desktop.services import auth

    path = tmp_path / "robot.sqlite3"
    shutil.copyfile(template, path)
    db = open_database(f"sqlite:///{path}")
    return db, auth.login(db, ROBOT_USER, ROBOT_PASSWORD)


def open_main_window(qtbot, template, tmp_path):
    """(window, db): the main window over a copy of the demo `template`, as the robot user, at SIZE, activated."""
    from desktop.views.main_window import MainWindow
    from hands import activate

    db, actor = open_copy(template, tmp_path)
    window = MainWindow(db, actor)
    qtbot.addWidget(window)
    window.resize(*SIZE)
    activate(window)
    return window, db


def close_main_window(window, db) -> None:
    """Close what the walk opened (previews, dialogs), the window, and the database."""
    from PySide6.QtWidgets import QApplication

    for widget in QApplication.topLevelWidgets():
        if widget.isVisible() and widget is not window:
            widget.close()
    window.close()
    db.dispose()


def built_dialogs(qtbot, db, actor):
    """(class, dialog) for each dialog class of the program that can be built from the database and the user
    alone; the others need a record or a file and are left out."""
    for cls in program_dialogs():
        dialog = None
        for args in ((db, actor), (db, actor, None), (), (db,)):
            try:
                dialog = cls(*args)
                break
            except Exception:   # noqa: BLE001 — needs a record or a file to be built: not one of these
                dialog = None
        if dialog is not None:
            qtbot.addWidget(dialog)
            yield cls, dialog


def sidebar_click(window, row: int) -> QWidget:
    """Open the module at `row` of the sidebar with a mouse click (and Enter, which opens as well)."""
    sidebar = window.sidebar
    item = sidebar.item(row)
    sidebar.scrollToItem(item)
    click(sidebar.viewport(), sidebar.visualItemRect(item).center())
    settle(150)
    return window.stack.currentWidget()


def sidebar_open(window, key: str) -> QWidget:
    """Open the module `key` ("fiscalizacao", "financeiro"…) with a mouse click on its row of the sidebar."""
    row = next((i + 1 for i, m in enumerate(window.modules) if m.key == key), None)
    assert row is not None, f"no module «{key}» in the sidebar of this user"
    page = sidebar_click(window, row)
    assert page is window.pages.get(key), f"the click on «{window.sidebar.item(row).text()}» opened another page"
    return page


def visible(widget: QWidget) -> bool:
    return widget.isVisible() and widget.width() > 0 and widget.height() > 0


def tab_widgets(root: QWidget) -> list[QTabWidget]:
    return [t for t in root.findChildren(QTabWidget) if visible(t)]


def lists_in(root: QWidget) -> list[QAbstractItemView]:
    """The visible lists with rows (a list of records, not the sidebar, the calendar or a combo's popup)."""
    found = []
    for view in root.findChildren(QAbstractItemView):
        if not visible(view) or view.model() is None or view.model().rowCount() == 0:
            continue
        if isinstance(view, QHeaderView) or view.objectName() == "qt_calendar_calendarview" \
                or isinstance(view.parentWidget(), QTabBar):
            continue
        found.append(view)
    return found


def buttons_state(root: QWidget) -> dict[str, bool]:
    """Visible push/tool buttons of the screen by text (the first of equal texts), enabled or not."""
    state: dict[str, bool] = {}
    for button in root.findChildren(QAbstractButton):
        if not visible(button) or isinstance(button.parentWidget(), QTabBar):
            continue
        text = button.text().replace("&", "").strip()
        if not text or text in state:
            continue
        state[text] = button.isEnabled()
    return state


def screen_name(window, page: QWidget, path: list[str]) -> str:
    module = next((m.label for m in window.modules if window.pages.get(m.key) is page), "Início")
    return " → ".join([module, *path])


def click_tab(tabs: QTabWidget, index: int) -> None:
    bar = tabs.tabBar()
    click(bar, bar.tabRect(index).center())
    settle(120)


def walk(window, visit, modules=None) -> dict:
    """Visit every list of every tab of every module. Returns the figures: screens, lists, calls."""
    figures = {"screens": 0, "lists": 0}
    rows = range(1, window.sidebar.count()) if modules is None else modules    # row 0 is "Início"
    for row in rows:
        page = sidebar_click(window, row)
        _walk_tabs(window, page, page, [], visit, figures, depth=0)
    return figures


def _walk_tabs(window, page, root, path, visit, figures, depth):
    tabs = [t for t in tab_widgets(root) if not any(t is not o and o.isAncestorOf(t) for o in tab_widgets(root))]
    if not tabs or depth > 2:
        figures["screens"] += 1
        name = screen_name(window, page, path)
        for view in lists_in(root):
            if window.stack.currentWidget() is not page:
                break
            figures["lists"] += 1
            visit(name, view, page)
        return
    for tab_widget in tabs[:1]:     # the outermost tab widget here; inner ones are walked inside each tab
        for index in range(tab_widget.count()):
            if not tab_widget.isTabEnabled(index) or not tab_widget.isTabVisible(index):
                continue
            if not visible(tab_widget):     # a row opened a record over the list: back to it (Esc)
                window.back_to_list()
                settle(60)
            if not visible(tab_widget):
                figures.setdefault("lost", []).append(screen_name(window, page, path))
                return
            click_tab(tab_widget, index)
            _walk_tabs(window, page, tab_widget.widget(index), [*path, tab_widget.tabText(index).replace("&", "")],
                       visit, figures, depth + 1)
    if len(tabs) > 1:               # side-by-side tab widgets: the lists outside the first one
        figures["screens"] += 1
        for view in lists_in(root):
            if not tabs[0].isAncestorOf(view):
                figures["lists"] += 1
                visit(screen_name(window, page, path), view, page)


def is_sidebar(window, view) -> bool:
    return view is window.sidebar or isinstance(view, QListWidget) and view is getattr(window, "sidebar", None)


LEFT = Qt.MouseButton.LeftButton


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def program_dialogs() -> list[type]:
    """Every QDialog/QWizard subclass of desktop.views (each module of the package imported)."""
    import desktop.views as views

    for module in pkgutil.walk_packages(views.__path__, "desktop.views."):
        importlib.import_module(module.name)
    return sorted({c for c in _subclasses(QDialog) if c.__module__.startswith("desktop.")},
                  key=lambda c: (c.__module__, c.__name__))
