"""A person's hands for GUI tests (issues 27 and 29): a row is chosen with a mouse click on the view's viewport, text
is typed key by key, a button is pressed with the mouse, a combo is opened and chosen with the keyboard, and keys
go to the widget that has the focus. None of these calls a slot or sets a value: what the test proves is what a
clerk would see.

    from hands import click_row, type_into, click_button, choose_in_combo, press, tab_until

Accented characters are typed one by one with `QTest.sendKeyEvent` (`qtbot.keyClicks` with ç/ã aborts, NOTES.md).
"""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QApplication, QComboBox, QLineEdit,
                               QPlainTextEdit, QTextEdit, QWidget)

LEFT = Qt.MouseButton.LeftButton


def settle(ms: int = 0) -> None:
    """Let queued signals, timers due and repaints run."""
    QApplication.processEvents()
    if ms:
        QTest.qWait(ms)


def activate(window: QWidget) -> None:
    """Show `window` and make it the active window: without it, focusWidget() is None and keys reach nothing."""
    import warnings

    window.show()
    window.activateWindow()
    with warnings.catch_warnings():   # deprecated in Qt 6, still what makes offscreen windows active
        warnings.simplefilter("ignore", DeprecationWarning)
        QApplication.setActiveWindow(window)
    settle()


def _view_of(table) -> QAbstractItemView:
    if isinstance(table, QAbstractItemView):
        return table
    view = getattr(table, "view", None)
    if isinstance(view, QAbstractItemView):
        return view
    raise TypeError(f"not a list: {table!r}")


def click_row(table, row: int, column: int = 0, double: bool = False) -> None:
    """Click (or double-click) the cell at `row`, `column` of a view (a QAbstractItemView, a RecordTable or a
    PagedView) with the mouse, where it is drawn on the viewport."""
    view = _view_of(table)
    index = view.model().index(row, column)
    assert index.isValid(), f"no row {row} in the list ({view.model().rowCount()} rows)"
    view.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)
    settle()
    pos = view.visualRect(index).center()
    assert view.viewport().rect().contains(pos), f"row {row} is not visible on the list"
    QTest.mouseClick(view.viewport(), LEFT, Qt.KeyboardModifier.NoModifier, pos)
    if double:
        QTest.mouseDClick(view.viewport(), LEFT, Qt.KeyboardModifier.NoModifier, pos)
    settle()


def click(widget: QWidget, pos: QPoint | None = None) -> None:
    """A left click at the middle of `widget` (or at `pos`)."""
    assert widget.isVisible(), f"{_name(widget)} is not visible"
    QTest.mouseClick(widget, LEFT, Qt.KeyboardModifier.NoModifier, pos if pos is not None else widget.rect().center())
    settle()


def tick(check) -> None:
    """Click a check box (or radio button) on its box, where a person aims: a click on the middle of a wide check
    box lands on empty space beside its text and changes nothing."""
    from PySide6.QtWidgets import QStyle, QStyleOptionButton

    option = QStyleOptionButton()
    option.initFrom(check)
    element = QStyle.SubElement.SE_RadioButtonIndicator if check.inherits("QRadioButton") \
        else QStyle.SubElement.SE_CheckBoxIndicator
    box = check.style().subElementRect(element, option, check)
    assert check.isEnabled(), f"{_name(check)} is disabled"
    click(check, box.center() if box.isValid() and not box.isEmpty() else QPoint(8, check.height() // 2))


def click_button(button: QAbstractButton) -> None:
    """Press a button with the mouse; it must be visible and enabled, as a person needs it to be."""
    assert button.isVisible(), f"button «{button.text()}» is not visible"
    assert button.isEnabled(), f"button «{button.text()}» is disabled"
    click(button)


def find_button(parent: QWidget, text: str) -> QAbstractButton:
    """The visible button whose text (without the & of its mnemonic) is `text`."""
    for button in parent.findChildren(QAbstractButton):
        if button.text().replace("&", "") == text and button.isVisible():
            return button
    raise AssertionError(f"no visible button «{text}» in {_name(parent)}")


def click_close(dialog: QWidget) -> None:
    """Close a dialog or a preview window as a person does: its «Fechar» button (or its button box's Close or
    Cancel) clicked with the mouse. Fails when it offers none, or stays open."""
    from PySide6.QtWidgets import QDialogButtonBox

    button = next((b for b in dialog.findChildren(QAbstractButton)
                   if b.isVisible() and b.text().replace("&", "") in ("Fechar", "Close")), None)
    if button is None:
        for box in dialog.findChildren(QDialogButtonBox):
            button = box.button(QDialogButtonBox.StandardButton.Close) or \
                box.button(QDialogButtonBox.StandardButton.Cancel)
            if button is not None and button.isVisible():
                break
            button = None
    assert button is not None, f"{_name(dialog)} has no «Fechar» button"
    click_button(button)
    assert not dialog.isVisible(), f"{_name(dialog)} stayed open"


def type_text(text: str, widget: QWidget | None = None) -> None:
    """Type `text` into the widget that has the focus (or `widget`), key by key."""
    target = widget or QApplication.focusWidget()
    assert target is not None, "no widget has the focus"
    for ch in text:
        if ch == "\n":
            QTest.keyClick(target, Qt.Key.Key_Return)
        elif ch.isascii():
            QTest.keyClicks(target, ch)
        else:
            QTest.sendKeyEvent(QTest.KeyAction.Click, target, Qt.Key.Key_unknown, ch, Qt.KeyboardModifier.NoModifier)
    settle()


def type_into(widget: QWidget, text: str, clear: bool = True, leave: bool = False) -> None:
    """Click into a text field, select what it holds (Ctrl+A) so typing replaces it, type `text`; with
    `leave=True` press Tab afterwards (the field's editingFinished runs, as when a person moves on)."""
    click(widget)
    if clear:
        QTest.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        if isinstance(widget, (QLineEdit, QPlainTextEdit, QTextEdit)):
            QTest.keyClick(widget, Qt.Key.Key_Delete)
    type_text(text, widget)
    if leave:
        press("Tab")


def choose_in_combo(combo: QComboBox, text: str) -> None:
    """Choose the item shown as `text` (or else the first starting with it) with the keyboard: focus, Home, then
    Down until it is the current item. Fails when the combo has no such item."""
    click(combo)
    popup = combo.view()
    if popup.isVisible():
        QTest.keyClick(popup, Qt.Key.Key_Escape)
        settle()
    combo.setFocus(Qt.FocusReason.TabFocusReason) if not combo.hasFocus() else None
    texts = [combo.itemText(i) for i in range(combo.count())]
    wanted = text if text in texts else next((t for t in texts if t.startswith(text)), None)   # exact first
    QTest.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(combo.count() + 1):
        if wanted is not None and combo.currentText() == wanted:
            settle()
            return
        QTest.keyClick(combo, Qt.Key.Key_Down)
    raise AssertionError(f"«{text}» is not in the combo ({[combo.itemText(i) for i in range(combo.count())]})")


def _key_of(name: str) -> tuple[Qt.Key, Qt.KeyboardModifier]:
    sequence = QKeySequence(name)
    assert sequence.count() == 1 and not sequence.isEmpty(), f"unknown key «{name}»"
    combo = sequence[0]
    return combo.key(), combo.keyboardModifiers()


def press(*keys: str, widget: QWidget | None = None) -> None:
    """Press keys given as Qt names ("Tab", "Shift+Tab", "Return", "Alt+Down", "Ctrl+N", "Esc", "F4") on the
    widget that has the focus (or `widget`)."""
    for name in keys:
        key, modifiers = _key_of("Esc" if name == "Escape" else name)
        target = widget or QApplication.focusWidget() or QApplication.activeWindow()
        assert target is not None, f"no widget to receive {name}"
        QTest.keyClick(target, key, modifiers)
        settle()


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def _inside(widget: QWidget | None, target: QWidget) -> bool:
    while widget is not None:
        if widget is target:
            return True
        widget = widget.parentWidget()
    return False


def tab_until(target: QWidget, limit: int = 80, backwards: bool = False) -> int:
    """Press Tab (Shift+Tab) until `target` (or a child of it) has the focus; the number of presses. Fails after
    `limit` presses, naming where the focus went."""
    seen = []
    for count in range(limit + 1):
        if _inside(focused(), target):
            return count
        seen.append(_name(focused()))
        press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"{limit} × Tab never reached {_name(target)}; the focus went through {seen[-12:]}")


def _name(widget: QWidget | None) -> str:
    if widget is None:
        return "nothing"
    text = ""
    for attr in ("text", "placeholderText", "accessibleName", "windowTitle"):
        getter = getattr(widget, attr, None)
        if callable(getter):
            try:
                text = getter()
            except TypeError:
                continue
            if text:
                break
    return f"{type(widget).__name__}({widget.objectName() or ''}{'«' + text + '»' if text else ''})"


describe = _name


class ModalWork:
    """What `in_modal` did: the dialog it found, and the error its work raised (raised again by `check()`)."""

    def __init__(self, kind):
        self.kind = kind
        self.dialog = None
        self.error: BaseException | None = None

    def check(self):
        if self.error is not None:
            raise self.error
        assert self.dialog is not None, f"no {self.kind.__name__} was opened"
        return self.dialog


def in_modal(kind, work, timeout: float = 10.0, title: str = "", raise_in_loop: bool = False) -> ModalWork:
    """Do `work(dialog)` as a person would, once a modal dialog of `kind` is open (inside its `exec()`, which the
    click that opened it is waiting on). An assertion that fails inside closes the dialog (so the click returns)
    and is raised again by `.check()` after the click:

        done = in_modal(PaymentDialog, lambda d: (type_into(d.amount_edit, "10,00"), click_button(...)))
        click_button(screen.buttons["payment"])
        done.check()

    `title`: only a dialog whose window title holds it (several QDialogs may open in turn). `raise_in_loop`: the
    error is also raised inside Qt's event loop, where pytest-qt fails the test — for steps (the journeys') that
    answer a dialog opened deep inside another and never call `check()`.
    """
    import time

    from PySide6.QtCore import QTimer

    done = ModalWork(kind)
    start = time.monotonic()

    def poll():
        modal = QApplication.activeModalWidget()
        if isinstance(modal, kind) and title in modal.windowTitle() and modal.isVisible():
            done.dialog = modal
            try:
                work(modal)
            except BaseException as error:   # noqa: BLE001 — kept and raised again by check()
                done.error = error
                if modal.isVisible():
                    modal.reject()
                if raise_in_loop:
                    raise
        elif time.monotonic() - start < timeout:
            QTimer.singleShot(20, poll)
        elif modal is not None:
            done.error = AssertionError(f"expected a {kind.__name__}, {type(modal).__name__} was open")
            modal.close()

    QTimer.singleShot(0, poll)
    return done
