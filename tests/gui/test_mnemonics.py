"""Every button of a dialog has a mnemonic, unique within its dialog (issue 29 point 5).

The walk imports every module of desktop.views, builds each QDialog/QWizard subclass of the program that can be built
from the database and the user alone (over the demonstration), shows it, and reads its visible push buttons: each
text must carry an "&" and no two may share a letter. Dialogs that need a record to be built (an auto, a guide…) are
not built here; `give_mnemonics` is the same for them, and the last test proves it on a dialog of that kind.
"""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QPushButton

from hands import settle
from robot import built_dialogs, close_main_window, make_demo, open_copy, open_main_window


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("mnemonics") / "demo.sqlite3")


def problems_of(dialog) -> list[str]:
    texts = [b.text() for b in dialog.findChildren(QPushButton) if b.isVisible() and b.text()]
    found = [f"«{t}» sem mnemônico" for t in texts if "&" not in t.replace("&&", "")]
    letters = [t.replace("&&", "")[t.replace("&&", "").index("&") + 1].lower() for t in texts
               if "&" in t.replace("&&", "")]
    found += [f"Alt+{letter.upper()} repetido" for letter in sorted({x for x in letters if letters.count(x) > 1})]
    return found


def test_every_button_of_every_dialog_built_here_has_a_unique_mnemonic(qtbot, demo_template, tmp_path,
                                                                         monkeypatch):
    from desktop.views.inspections import dialogs as inspection_dialogs

    db, actor = open_copy(demo_template, tmp_path)
    # the booking dialog lists its free slots as soon as it opens, with the inspectors' names given by its page
    monkeypatch.setattr(inspection_dialogs, "slot_text", lambda slot, names: str(slot.start))
    built, problems = [], {}
    for cls, dialog in built_dialogs(qtbot, db, actor):
        dialog.show()
        settle(20)
        built.append(cls.__name__)
        found = problems_of(dialog)
        if found:
            problems[f"{cls.__module__}.{cls.__name__}"] = found
        dialog.hide()
    assert len(built) >= 15, built
    assert problems == {}


def test_a_dialog_that_needs_a_record_gets_its_mnemonics_when_shown_too(qtbot):
    from desktop.views.enforcement.widgets import ReasonDialog

    dialog = ReasonDialog("Estornar lançamento", "Informe o motivo:", None, submit=lambda reason: None,
                          ok_text="Estornar")
    qtbot.addWidget(dialog)
    extra = QPushButton("&Cópia", dialog)      # a button that has a mnemonic keeps it, and its letter is taken
    dialog.layout().addWidget(extra)
    dialog.show()
    settle(20)
    assert problems_of(dialog) == []
    assert extra.text() == "&Cópia"
    texts = sorted(b.text() for b in dialog.findChildren(QPushButton) if b.isVisible())
    assert "&Estornar" in texts and not any(t.startswith("&C") for t in texts if t != "&Cópia"), texts


def _menu_texts_when_clicked(button) -> list[str]:
    """Click `button` with the mouse; read the items of the menu it opens (inside the menu's exec) and close it."""
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMenu

    from hands import click_button

    seen: list[str] = []

    def poll(tries=[0]):
        menu = QApplication.activePopupWidget()
        if isinstance(menu, QMenu):
            seen.extend(a.text() for a in menu.actions() if not a.isSeparator() and a.text())
            QTest.keyClick(menu, Qt.Key.Key_Escape)
        elif tries[0] < 200:
            tries[0] += 1
            QTimer.singleShot(20, poll)

    QTimer.singleShot(20, poll)
    click_button(button)
    settle(50)
    return seen


@pytest.mark.parametrize("module, table_path", [("autorizacoes", "authorizations.list"),
                                                ("fiscalizacao", "list_screen.table")])
def test_every_item_of_a_record_pages_print_menu_has_a_unique_mnemonic(qtbot, demo_template, tmp_path, module,
                                                                       table_path):
    """Issue 29 point 5: the "Imprimir" menu of the authorization's and the auto's page, opened by the mouse."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QAbstractButton, QApplication

    from hands import click_row

    window, db = open_main_window(qtbot, demo_template, tmp_path)
    page = window.open_module(module)
    settle(100)
    table = page
    for name in table_path.split("."):
        table = getattr(table, name)
    view = getattr(table, "view", table)
    qtbot.waitUntil(lambda: view.model().rowCount() > 0, timeout=5000)
    buttons = []
    for row in range(min(view.model().rowCount(), 12)):     # the first record whose page can print
        click_row(view, row)
        QTest.keyClick(view, Qt.Key.Key_Return)
        settle(200)
        buttons = [b for b in window.findChildren(QAbstractButton) if b.isVisible() and b.isEnabled()
                   and getattr(b, "menu", lambda: None)() is not None]
        if buttons:
            break
        QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Escape)     # back to the list
        settle(100)
        qtbot.waitUntil(view.isVisible, timeout=3000)
    assert buttons, "a record's page has its print menu"
    assert _window_button_problems(window) == []       # and every button of the record's page has its letter
    for button in buttons:
        texts = _menu_texts_when_clicked(button)
        assert len(texts) >= 2, texts
        assert all("&" in t.replace("&&", "") for t in texts), texts
        letters = [t.replace("&&", "")[t.replace("&&", "").index("&") + 1].lower() for t in texts]
        assert len(set(letters)) == len(letters), texts
    close_main_window(window, db)


def _window_button_problems(window) -> list[str]:
    """The visible buttons of the main window's screen: each with a mnemonic, no letter twice (the menu bar's
    titles included: Alt+A is Arquivo)."""
    from PySide6.QtWidgets import QAbstractButton, QToolButton

    shown = [b for b in window.findChildren(QAbstractButton) if isinstance(b, (QPushButton, QToolButton))
             and b.isVisible() and any(c.isascii() and c.isalnum() for c in b.text()) and b.window() is window]
    # (a button of a symbol alone, "◀" of the agenda's week, has no letter to give: its tooltip and the arrows; a
    # greyed one may wait for its letter when a screen has more buttons than letters — it gets one when enabled)
    texts = [b.text() for b in shown]
    found = [f"«{b.text()}» sem mnemônico" for b in shown if b.isEnabled() and "&" not in b.text().replace("&&", "")]
    letters = [t.replace("&&", "")[t.replace("&&", "").index("&") + 1].lower() for t in texts
               + [a.text() for a in window.menuBar().actions()] if "&" in t.replace("&&", "")]
    found += [f"Alt+{letter.upper()} repetido" for letter in sorted({x for x in letters if letters.count(x) > 1})]
    return found


def test_every_button_of_every_module_tab_has_a_unique_mnemonic(qtbot, demo_template, tmp_path):
    """Issue 29 point 5 on the main window: every tab of every module, walked as the robot clerk does."""
    from robot import _walk_tabs, sidebar_click

    window, db = open_main_window(qtbot, demo_template, tmp_path)
    problems, screens = {}, []

    def visit(name, view, page):
        if name in screens or window.stack.currentWidget() is not page:
            return
        screens.append(name)
        found = _window_button_problems(window)
        if found:
            problems[name] = found

    for row in range(0, window.sidebar.count()):
        page = sidebar_click(window, row)
        visit(window.sidebar.item(row).text(), None, page)
        _walk_tabs(window, page, page, [], visit, {"screens": 0, "lists": 0}, depth=0)
    assert len(screens) >= 20, screens
    assert problems == {}, problems
    close_main_window(window, db)


def test_a_greyed_button_waits_for_its_letter_and_gets_one_when_enabled(qtbot):
    """More buttons than letters: the enabled ones choose first; the one enabled later takes the letter back."""
    from desktop.views.enforcement.widgets import ReasonDialog

    dialog = ReasonDialog("Estornar lançamento", "Informe o motivo:", None, submit=lambda reason: None,
                          ok_text="Estornar")
    qtbot.addWidget(dialog)
    greyed, lit = QPushButton("W…", dialog), QPushButton("W!", dialog)    # one letter for the two
    greyed.setEnabled(False)
    dialog.layout().addWidget(greyed)
    dialog.layout().addWidget(lit)
    dialog.show()
    settle(20)
    assert lit.text() == "&W!" and greyed.text() == "W…"
    lit.setEnabled(False)
    greyed.setEnabled(True)          # the desk's state changed: this one is the action now
    settle(20)
    assert greyed.text() == "&W…" and lit.text() == "W!"
