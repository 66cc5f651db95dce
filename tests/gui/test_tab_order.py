"""The Tab order follows the screen (issue 29 point 6): a walk with the Tab key over every dialog the program builds
from the database and the user, every tab of every module and the record pages (driver, vehicle, authorization,
auto) fails on a jump backwards in reading order — top to bottom, left to right — or on a stop the clerk cannot see.

"Backwards" is read from the screen, not from the program's code: of two consecutive stops, take the two widgets
just under their nearest common parent (a group box, a tab page, the dialog); the second is backwards when it lies
wholly above the first, or on the same line wholly to its left. One jump back is the Tab wrapping round to the
start. The walk presses the real Tab key (QTest.keyClick on the focused widget) and reads QApplication.focusWidget.
"""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QDialog, QScrollArea, QWidget

from hands import activate, click, click_row, describe, focused, press, settle
from robot import (_walk_tabs, built_dialogs, close_main_window, make_demo, open_copy, open_main_window,
                   sidebar_click)

PRESSES = 150


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("taborder") / "demo.sqlite3")


def _chain(widget: QWidget) -> list[QWidget]:
    chain = []
    while widget is not None:
        chain.append(widget)
        widget = widget.parentWidget()
    return chain


def _under_common_parent(a: QWidget, b: QWidget) -> tuple[QWidget, QWidget] | None:
    """The ancestors of `a` and `b` (themselves included) that are children of their nearest common parent."""
    chain_a, chain_b = _chain(a), _chain(b)
    ids_a = {id(w): i for i, w in enumerate(chain_a)}
    for j, widget in enumerate(chain_b):
        if id(widget) in ids_a:
            i = ids_a[id(widget)]
            if i == 0 or j == 0:
                return None      # one inside the other (a field inside a composite): no order between them
            return chain_a[i - 1], chain_b[j - 1]
    return None


def jumps_back(a: QWidget, b: QWidget) -> bool:
    pair = _under_common_parent(a, b)
    if pair is None:
        return False
    ra, rb = pair[0].geometry(), pair[1].geometry()
    if rb.bottom() < ra.top():
        return True                                      # wholly above
    same_line = ra.top() <= rb.center().y() <= ra.bottom() or rb.top() <= ra.center().y() <= rb.bottom()
    return same_line and rb.right() < ra.left()          # on the same line, wholly to the left


def invisible(widget: QWidget) -> bool:
    if not widget.isVisible() or widget.width() <= 1 or widget.height() <= 1:
        return True
    # a scroll area holds fields; it is no stop of its own (a list or a table is: it is a scroll area with rows)
    return isinstance(widget, QScrollArea) or (type(widget) is QAbstractScrollArea)


def tab_cycle(root: QWidget) -> tuple[list[QWidget], str]:
    """The stops Tab visits inside `root`'s window from the focus now, until it comes back (or a problem)."""
    if focused() is None:
        press("Tab", widget=root)
    start = focused()
    if start is None:
        return [], ""
    stops = [start]
    for _ in range(PRESSES):
        press("Tab")
        now = focused()
        if now is None:
            return stops, "o foco saiu da janela"
        if now is start:
            return stops, ""
        stops.append(now)
    return stops, f"{PRESSES} × Tab não voltaram ao início (foco preso em {describe(stops[-1])})"


def problems_of(stops: list[QWidget], trouble: str) -> list[str]:
    found = [trouble] if trouble else []
    found += [f"parada invisível: {describe(w)}" for w in stops if invisible(w)]
    cycle = stops + stops[:1]
    backs = [(a, b) for a, b in zip(cycle, cycle[1:]) if jumps_back(a, b)]
    if len(backs) > 1:       # one is the wrap back to the first field
        found += [f"volta de {describe(a)} para {describe(b)}" for a, b in backs]
    return found


def report(problems: dict[str, list[str]]) -> str:
    return "\n".join(f"{where}:\n  " + "\n  ".join(found) for where, found in problems.items())


def test_jumps_back_reads_the_screen():
    """The rule itself, on a small form: two fields side by side, a note under them."""
    from PySide6.QtWidgets import QGridLayout, QLineEdit

    form = QWidget()
    grid = QGridLayout(form)
    left, right, below = QLineEdit(form), QLineEdit(form), QLineEdit(form)
    grid.addWidget(left, 0, 0)
    grid.addWidget(right, 0, 1)
    grid.addWidget(below, 1, 0, 1, 2)
    form.resize(400, 120)
    form.show()
    settle(20)
    assert not jumps_back(left, right) and not jumps_back(right, below)
    assert jumps_back(right, left) and jumps_back(below, right) and jumps_back(below, left)
    form.close()


def test_every_dialog_built_here_tabs_in_reading_order(qtbot, demo_template, tmp_path, monkeypatch):
    from desktop.views.inspections import dialogs as inspection_dialogs

    db, actor = open_copy(demo_template, tmp_path)
    monkeypatch.setattr(inspection_dialogs, "slot_text", lambda slot, names: str(slot.start))
    walked, problems = [], {}
    for cls, dialog in built_dialogs(qtbot, db, actor):
        activate(dialog)
        settle(20)
        stops, trouble = tab_cycle(dialog)
        walked.append((cls.__name__, len(stops)))
        found = problems_of(stops, trouble)
        if found:
            problems[f"{cls.__module__}.{cls.__name__}"] = found
        dialog.hide()
    assert len(walked) >= 15, walked
    assert problems == {}, report(problems)


@pytest.fixture
def window(qtbot, demo_template, tmp_path):
    main, db = open_main_window(qtbot, demo_template, tmp_path)
    yield main
    close_main_window(main, db)


def _walk_from_the_sidebar(window) -> list[str]:
    """Tab round the window from the sidebar's current module (clicked, as a person puts the focus there)."""
    sidebar = window.sidebar
    click(sidebar.viewport(), sidebar.visualItemRect(sidebar.currentItem()).center())
    settle(60)
    return problems_of(*tab_cycle(window))


def test_every_tab_of_every_module_tabs_in_reading_order(window):
    problems: dict[str, list[str]] = {}
    screens = []

    def visit(name, view, page):
        if name in screens:
            return
        screens.append(name)
        if window.stack.currentWidget() is not page:
            return
        found = _walk_from_the_sidebar(window)
        if found:
            problems[name] = found

    for row in range(1, window.sidebar.count()):
        page = sidebar_click(window, row)
        _walk_tabs(window, page, page, [], visit, {"screens": 0, "lists": 0}, depth=0)
    assert len(screens) >= 20, screens
    assert problems == {}, report(problems)


RECORD_PAGES = [   # (module, the tab holding the list, the list's attribute path, the page opened)
    ("cadastros", "Condutores", "drivers.list"),
    ("cadastros", "Veículos", "vehicles.list"),
    ("autorizacoes", None, "authorizations.list"),
    ("fiscalizacao", None, "list_screen.table"),
]


def _attr(root, path: str):
    for name in path.split("."):
        root = getattr(root, name)
    return root


@pytest.mark.parametrize("module, tab, table_path", RECORD_PAGES, ids=[f"{m}-{t or 'lista'}" for m, t, _ in
                                                                           RECORD_PAGES])
def test_record_pages_tab_in_reading_order(qtbot, window, module, tab, table_path):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QTabWidget

    from robot import click_tab

    page = window.open_module(module)
    settle(100)
    if tab is not None:
        tabs = next(t for t in page.findChildren(QTabWidget) if t.isVisible())
        click_tab(tabs, next(i for i in range(tabs.count()) if tabs.tabText(i).replace("&", "") == tab))
    table = _attr(page, table_path)
    view = getattr(table, "view", table)
    qtbot.waitUntil(lambda: view.model().rowCount() > 0, timeout=5000)
    click_row(view, 0)
    QTest.keyClick(view, Qt.Key.Key_Return)
    settle(200)
    assert QApplication.activeModalWidget() is None or not isinstance(QApplication.activeModalWidget(), QDialog)
    assert not view.isVisible(), "Enter opened the record's page"
    found = _walk_from_the_sidebar(window)
    assert found == [], report({module: found})
