"""Issue 27 point 1, the bug class: a mouse click selected a row but the screen, asking `selected()` when the
current row changed, saw nothing selected (the click makes the row current before it selects it), and a click on
the only row a filter left changed no current row at all. The arrows worked. A click and the arrows must leave
the screen in the same state; here on the shared table, the way the screens use it."""
from __future__ import annotations

from dataclasses import dataclass

from hands import activate, click_row, press, type_into


@dataclass(frozen=True)
class Guide:
    number: str
    state: str


ROWS = [Guide("0362/2026", "Vencida"), Guide("0173/2026", "Vencida"), Guide("0165/2026", "Paga")]


def _screen(qtbot):
    from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

    from desktop.views.table import Column, RecordTable

    host = QWidget()
    qtbot.addWidget(host)
    table = RecordTable((Column("Guia", lambda g: g.number), Column("Situação", lambda g: g.state)), host)
    button = QPushButton("Reemitir guia vencida…", host)
    layout = QVBoxLayout(host)
    layout.addWidget(table)
    layout.addWidget(button)
    # the screens' pattern: enable from what is selected when the table says the selection changed
    table.selection_changed.connect(lambda _row: button.setEnabled(
        table.selected() is not None and table.selected().state == "Vencida"))
    table.set_rows(ROWS)
    button.setEnabled(False)
    host.resize(600, 400)
    activate(host)
    table._host_for_test = host     # alive as long as the test holds the table
    _alive.append(host)
    return table, button


_alive: list = []


def test_a_click_on_a_row_enables_what_the_arrows_enable(qtbot):
    table, button = _screen(qtbot)
    click_row(table, 0)
    assert table.selected() == ROWS[0] and button.isEnabled()
    click_row(table, 2)
    assert table.selected() == ROWS[2] and not button.isEnabled()
    press("Up", widget=table.view)
    assert table.selected() == ROWS[1] and button.isEnabled()


def test_a_click_on_the_only_row_a_filter_leaves_works(qtbot):
    table, button = _screen(qtbot)
    click_row(table, 2)
    type_into(table.filter_edit, "0362")
    assert table.proxy.rowCount() == 1
    click_row(table, 0)
    assert table.selected() == ROWS[0] and button.isEnabled()


def test_tab_into_the_list_selects_its_row_and_the_first_down_goes_to_row_two(qtbot):
    table, button = _screen(qtbot)
    table.filter_edit.setFocus()
    press("Tab")
    assert table.view.hasFocus() and table.selected() == ROWS[0] and button.isEnabled()
    press("Down")
    assert table.selected() == ROWS[1]
    press("Tab")
    assert not table.view.hasFocus()           # Tab leaves the table
    assert table.selected() == ROWS[1]         # and moved no selection
