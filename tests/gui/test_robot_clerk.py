"""The robot clerk and the keyboard robot (issue 27 "how it is proved", issue 29 point 1).

One walk over the demonstration, as a person at 1366×728: every module opened from the sidebar with the mouse,
every tab clicked, and in every visible list with rows:
- the mouse clicks the first row, then Down+Up come back to it: the enabled buttons must be the same (a click
  that selects but enables nothing fails here, naming the screen and the button);
- Tab leaves the table (Qt's tables walk their cells and never let the focus out by default);
- Enter on the selected row opens it (a dialog, another page or another tab), where the list has something to
  open; Esc then brings the list back.

The figures of the walk (screens, lists, buttons compared) are printed with -s and kept in `FIGURES`.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QStackedWidget, QTabWidget, QWidget

from hands import activate, click_row, describe, focused, press, settle
from robot import SIZE, buttons_state, make_demo, open_copy, walk

FIGURES: dict[str, int] = {}

# Lists whose rows have nothing of their own to open: Enter there is a no-op by design (each with the reason). A key
# is a screen (all its lists) or one list of it, "screen [its description]" as the walk names it.
NOTHING_TO_OPEN = {
    "Vistorias → Semana": "the schedule grid: Enter on a free slot books, on a day opens it (checked below)",
    "Administração → Feriados municipais [QTableView(state_holidays)]":
        "the national and Mato Grosso holidays come from the calendar, read only: nothing to open or change",
    "Relatórios → Estatísticas [QTableWidget(statistics_grid)]":
        "the figures of the statistic chosen on the left (Enter there moves into them); a cell opens nothing",
}


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("robot") / "demo.sqlite3")


class ModalCloser:
    """Closes any modal dialog or message box that opens while a key is pressed, and remembers its title."""

    def __init__(self):
        self.seen: list[str] = []
        self.timer = QTimer()
        self.timer.setInterval(30)
        self.timer.timeout.connect(self._close)

    def _close(self) -> None:
        modal = QApplication.activeModalWidget()
        if modal is not None:
            self.seen.append(modal.windowTitle() or type(modal).__name__)
            modal.close()

    def __enter__(self):
        self.seen.clear()
        self.timer.start()
        return self

    def __exit__(self, *exc):
        settle(60)
        self._close()
        self.timer.stop()


def _snapshot(window, page: QWidget):
    tops = {id(w) for w in QApplication.topLevelWidgets() if w.isVisible()}
    inner = tuple((id(w), w.currentIndex()) for kind in (QStackedWidget, QTabWidget)
                  for w in page.findChildren(kind) if w.isVisible())
    return tops, window.stack.currentWidget(), inner


def _connected(obj, signature: str) -> bool:
    meta = obj.metaObject()
    index = meta.indexOfSignal(signature)
    return index >= 0 and obj.isSignalConnected(meta.method(index))


def _listened(view) -> bool:
    """Enter reached a screen's handler: the list widget's own `activated` (RecordTable, PagedView) or the
    view's is connected to something of the screen (a row opened in the background, a preview later)."""
    owner = view.parentWidget()
    if owner is not None and _connected(owner, "activated(PyObject)"):
        return True
    from PySide6.QtWidgets import QListWidget

    if isinstance(view, QListWidget):
        return _connected(view, "itemActivated(QListWidgetItem*)")
    return False


@pytest.fixture(scope="module")
def robot_walk(qapp, demo_template, tmp_path_factory):
    from desktop.views.main_window import MainWindow
    from PySide6.QtWidgets import QMessageBox

    db, actor = open_copy(demo_template, tmp_path_factory.mktemp("robot-run"))
    saved = {k: getattr(QMessageBox, k) for k in ("warning", "information", "critical", "question")}
    for kind in saved:   # a message box from a click must not block the walk (it is recorded as "opened")
        setattr(QMessageBox, kind, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Ok))
    window = MainWindow(db, actor)
    window.resize(*SIZE)
    activate(window)
    mouse_vs_keys: list[str] = []
    tab_trapped: list[str] = []
    enter_dead: list[str] = []
    compared = {"buttons": 0, "enter_opened": 0, "tab_left": 0}

    def visit(name: str, view, page) -> None:
        label = f"{name} [{describe(view)}]"
        click_row(view, 0)
        settle(80)
        after_click = buttons_state(page)
        press("Down", widget=view)
        press("Up", widget=view)
        settle(80)
        after_keys = buttons_state(page)
        compared["buttons"] += len(after_keys)
        for text in sorted(after_click.keys() | after_keys.keys()):
            if after_click.get(text) != after_keys.get(text):
                mouse_vs_keys.append(f"{label}: «{text}» {'habilitado' if after_click.get(text) else 'cinza'} "
                                     f"depois do clique, {'habilitado' if after_keys.get(text) else 'cinza'} "
                                     "depois de ↓↑")
        view.setFocus()
        press("Tab", widget=view)
        now = focused()
        if now is view or (now is not None and view.isAncestorOf(now)):
            tab_trapped.append(label)
        else:
            compared["tab_left"] += 1
        if name in NOTHING_TO_OPEN or label in NOTHING_TO_OPEN:
            return
        click_row(view, 0)
        before = _snapshot(window, page)
        emitted = []
        view.activated.connect(emitted.append)
        with ModalCloser() as closer:
            press("Return", widget=view)
        view.activated.disconnect(emitted.append)
        after = _snapshot(window, page)
        if closer.seen or after != before or (emitted and _listened(view)):
            compared["enter_opened"] += 1
            if window.stack.currentWidget() is page and after[2] != before[2]:
                press("Esc")        # back to the list (issue 29 point 5)
                settle(60)
        else:
            enter_dead.append(label)
        if window.stack.currentWidget() is not page:      # Enter opened a record in another module: come back
            module = next(m for m in window.modules if window.pages.get(m.key) is page)
            window.open_module(module.key)
            settle(60)
        for widget in QApplication.topLevelWidgets():   # a window Enter opened (a preview): closed again
            if widget.isVisible() and widget is not window and id(widget) not in before[0]:
                widget.close()
        settle(30)

    try:
        figures = walk(window, visit)
    finally:
        for kind, fn in saved.items():
            setattr(QMessageBox, kind, fn)
    FIGURES.update(figures, **compared)
    print(f"\nrobô: {FIGURES}")
    for title, items in (("clique ≠ ↓↑", mouse_vs_keys), ("Tab preso", tab_trapped), ("Enter não abre", enter_dead)):
        print(f"{title}: {len(items)}", *items, sep="\n  ")
    yield {"mouse_vs_keys": mouse_vs_keys, "tab_trapped": tab_trapped, "enter_dead": enter_dead,
           "figures": FIGURES}
    window.close()
    import shiboken6

    shiboken6.delete(window)
    db.dispose()


def test_robot_clerk_a_click_and_the_arrows_leave_every_list_in_the_same_state(robot_walk):
    figures = robot_walk["figures"]
    assert figures["screens"] >= 30 and figures["lists"] >= 25, figures
    assert robot_walk["mouse_vs_keys"] == []


def test_keyboard_robot_tab_leaves_every_table(robot_walk):
    assert robot_walk["figures"]["tab_left"] >= 25
    assert robot_walk["tab_trapped"] == []


def test_keyboard_robot_enter_opens_the_selected_row_of_every_list(robot_walk):
    assert robot_walk["figures"]["enter_opened"] >= 12
    assert robot_walk["enter_dead"] == []
