"""The program's own dialogs and lists driven by a person's hands (issue 27), on top of `hands`: a record opened by a
double-click on its row, an ActionDialog's fields filled as a clerk fills them (typed, chosen with the keyboard,
ticked), its OK clicked inside the exec() of the click that opened it, a tab clicked, a pop-up menu's entry
clicked. Nothing here calls a slot or sets a value."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog

from hands import activate, choose_in_combo, click_button, click_row, find_button, in_modal, tick, type_into
from registry_fixtures import shoot
from robot import click_tab


def open_row(qtbot, screen, record_id):
    """Double-click the record's row of a list-and-detail screen (its `list`): its page opens over the list."""
    qtbot.waitUntil(lambda: any(r.id == record_id for r in screen.list.visible_rows()), timeout=5000)
    row = next(i for i, r in enumerate(screen.list.visible_rows()) if r.id == record_id)
    click_row(screen.list, row, double=True)
    assert screen.detail_shown(), "the double-click opened no page"
    return screen.detail


def fill(qtbot, dialog, name, value):
    """Give the field `name` of an ActionDialog its value as a clerk does: typed, chosen, ticked."""
    from desktop.views.widgets.detail import RecordPicker

    widget = dialog.widget(name)
    if isinstance(widget, QComboBox):
        index = next(i for i in range(widget.count()) if widget.itemData(i) == value)
        choose_in_combo(widget, widget.itemText(index))
        assert widget.currentData() == value
    elif isinstance(widget, QCheckBox):
        if widget.isChecked() != bool(value):
            tick(widget)
    elif isinstance(widget, RecordPicker):
        # wait for the search of what was typed, not any record: the picker opens with its first list's first row
        searched = []
        widget.changed.connect(lambda: searched.append(widget.edit.text()))
        type_into(widget.edit, value)
        qtbot.waitUntil(lambda: not widget._timer.isActive() and searched and searched[-1] == widget.edit.text()
                        and widget.value() is not None, timeout=5000)
    elif isinstance(value, date):
        type_into(widget, value.strftime("%d/%m/%Y"), leave=True)
    elif isinstance(value, Decimal):
        type_into(widget, f"{value:.2f}".replace(".", ","), leave=True)
    else:
        type_into(widget, value)


def act(qtbot, opener, values=None, shot=None, kind=None):
    """Click `opener` (an action's button) with the mouse and, in the dialog it opens (inside its exec), fill
    `values` and click its OK. A refused dialog stays open saying why: it is photographed (`shot`) and closed
    with «Cancelar», as a person does after reading it. Returns (accepted, dialog)."""
    from desktop.views.registry.dialogs import ActionDialog

    def work(dialog):
        for name, value in (values or {}).items():
            fill(qtbot, dialog, name, value)
        click_button(dialog.ok_button)
        if dialog.isVisible():
            if shot:
                shoot(dialog, shot)
            click_button(find_button(dialog, "Cancelar"))

    activate(opener.window())
    done = in_modal(kind or ActionDialog, work)
    click_button(opener)
    dialog = done.check()
    return dialog.result() == QDialog.DialogCode.Accepted, dialog


def tab_of(tabs, widget):
    index = tabs.indexOf(widget)
    assert index >= 0
    click_tab(tabs, index)
    assert tabs.currentIndex() == index


def menu_choose(text):
    """Choose `text` in the menu that pops up (the QToolButton's menu runs its own loop, as exec does)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMenu

    chosen = []

    def poll():
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(20, poll)
            return
        action = next(a for a in menu.actions() if a.text().replace("&", "") == text)
        QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         menu.actionGeometry(action).center())
        chosen.append(action.text())

    QTimer.singleShot(0, poll)
    return chosen


def choose_file(button, path) -> None:
    """Click a button that asks for a file («Anexar…», «Escolher foto…»); the file dialog answers `path`, the
    file a person picks (the native dialog is the platform's, not the program's)."""
    import pytest
    from PySide6.QtWidgets import QFileDialog

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
        click_button(button)


def wizard_button(wizard, which: str):
    from PySide6.QtWidgets import QWizard

    return wizard.button({"next": QWizard.WizardButton.NextButton, "back": QWizard.WizardButton.BackButton,
                          "finish": QWizard.WizardButton.FinishButton,
                          "cancel": QWizard.WizardButton.CancelButton}[which])


def wizard_next(wizard) -> None:
    """«Avançar >» clicked (the page's checks run; a refused page stays)."""
    click_button(wizard_button(wizard, "next"))


def wizard_finish(wizard) -> None:
    """«Concluir» clicked on the page where the wizard offers it."""
    click_button(wizard_button(wizard, "finish"))


def finish_wizard(wizard) -> None:
    """«Avançar >» clicked to the page that offers «Concluir», then «Concluir», as a clerk does."""
    for _ in range(len(wizard.pageIds()) + 1):
        finish = wizard_button(wizard, "finish")
        if finish.isVisible() and finish.isEnabled():
            click_button(finish)
            return
        wizard_next(wizard)
    raise AssertionError("the wizard never offered «Concluir»")


def type_date(edit, day) -> None:
    """A date typed dd/mm/aaaa (empty when `day` is None) and the field left with Tab."""
    type_into(edit, "" if day is None else day.strftime("%d/%m/%Y"), leave=True)
