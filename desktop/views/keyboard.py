"""The clerk's keyboard, once for the whole program (issue 29 points 3, 4 and 5).

`install(app)` puts one event filter on the application:
- **Enter activates a focused button or tile** outside dialogs (Qt's push buttons in a main window answer Space
  only; in a dialog Enter already presses the focused or default button);
- **typed work is never thrown away**: a key typed into a text field of a dialog or wizard marks it; Esc, the
  dialog's "Cancelar" and the window's × then ask "Descartar os dados digitados?" (No keeps the dialog open);
- **no invisible Tab stop**: a scroll area never takes the focus (the fields inside it do);
- **Tab follows the screen** in the program's own windows: Tab and Shift+Tab move to the next stop in reading order,
  top to bottom, left to right (`desktop.views.reading_order`), whatever order the screen's code made its widgets
  in; a table, a multi-line field and a date field are left by one Tab;
- **Tab leaves a multi-line field** (`setTabChangesFocus(True)` on every QPlainTextEdit/QTextEdit when it first
  gets the focus): a legal text never receives tab characters;
- **every button of the program's dialogs and wizards has a mnemonic** (Alt+letter), unique within its dialog: when
  one is shown, its push buttons without one take their first letter still free (`give_mnemonics`); the items of
  the program's menus (a record page's "Imprimir" menu) the same when the menu opens (`give_menu_mnemonics`).

`has_typed_data(widget)` says whether the window of `widget` has typed data (the main window asks it of every
open dialog before Ctrl+Q closes the program).
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QAbstractSpinBox, QApplication, QComboBox,
                               QDialog, QDialogButtonBox, QLabel, QLineEdit, QMainWindow, QMenu, QMessageBox, QPlainTextEdit,
                               QPushButton, QScrollArea, QTextEdit, QToolButton, QWidget,
                               QWizard)

from desktop.views import reading_order

TYPED = "typed_data"      # the dialog's property, True once a key was typed into one of its text fields
DISCARD_TITLE = "Descartar os dados digitados?"
DISCARD_TEXT = "Descartar os dados digitados?\n\nO que foi digitado neste formulário será perdido."
ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


def _text_field(widget: QWidget | None) -> bool:
    if isinstance(widget, QLineEdit):
        return not widget.isReadOnly() and not _is_filter(widget)
    if isinstance(widget, (QPlainTextEdit, QTextEdit)):
        return not widget.isReadOnly()
    return isinstance(widget, QAbstractSpinBox)


def _is_filter(edit: QLineEdit) -> bool:
    """A filter or search box is not data: leaving it loses nothing."""
    text = (edit.placeholderText() or "").lower()
    return text.startswith(("filtrar", "buscar", "pesquisar", "procurar")) or edit.objectName().startswith("filter")


def _form_window(widget: QWidget | None) -> QDialog | None:
    window = widget.window() if widget is not None else None
    return window if isinstance(window, QDialog) and not isinstance(window, QMessageBox) else None


def has_typed_data(widget: QWidget | None) -> bool:
    window = widget.window() if widget is not None else None
    return bool(window is not None and window.property(TYPED))


def forget_typed_data(widget: QWidget) -> None:
    """After a save the form holds nothing unsaved (a screen that stays open calls this)."""
    widget.window().setProperty(TYPED, False)


def confirm_discard(parent: QWidget) -> bool:
    """True when the user agrees to lose what was typed."""
    return _ask(parent)


def _ask_with_box(parent: QWidget) -> bool:
    box = QMessageBox(QMessageBox.Icon.Question, DISCARD_TITLE, DISCARD_TEXT,
                      QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel, parent)
    box.button(QMessageBox.StandardButton.Discard).setText("&Descartar")
    box.button(QMessageBox.StandardButton.Cancel).setText("&Continuar editando")
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.setEscapeButton(QMessageBox.StandardButton.Cancel)
    return box.exec() == QMessageBox.StandardButton.Discard


_ask = _ask_with_box   # the question itself (tests/gui/conftest.py answers it for the tests that are not about it)


def _is_cancel(button: QAbstractButton, dialog: QDialog) -> bool:
    if isinstance(dialog, QWizard) and button is dialog.button(QWizard.WizardButton.CancelButton):
        return True
    box = button.parentWidget()
    while box is not None and box is not dialog and not isinstance(box, QDialogButtonBox):
        box = box.parentWidget()
    if isinstance(box, QDialogButtonBox):
        return box.buttonRole(button) == QDialogButtonBox.ButtonRole.RejectRole
    return False


class _KeyboardGuard(QObject):
    def eventFilter(self, obj, event):  # noqa: N802 — Qt name
        kind = event.type()
        if kind == QEvent.Type.KeyPress:
            return self._key(obj, event)
        if kind == QEvent.Type.Show and isinstance(obj, QDialog) and type(obj).__module__.startswith("desktop."):
            give_mnemonics(obj)     # the program's own dialogs; Qt's (file, message) carry their translations'
            return False
        if kind in (QEvent.Type.Show, QEvent.Type.EnabledChange) and isinstance(obj, (QPushButton, QToolButton)) \
                and obj.text() and "&" not in obj.text().replace("&&", "") and obj.isVisible() \
                and (kind == QEvent.Type.Show or obj.isEnabled()):
            _page_mnemonics(obj)
            return False
        if kind == QEvent.Type.Show and isinstance(obj, QMenu):
            give_menu_mnemonics(obj)
            return False
        if kind == QEvent.Type.Polish and isinstance(obj, QScrollArea) \
                and obj.focusPolicy() != Qt.FocusPolicy.NoFocus:
            obj.setFocusPolicy(Qt.FocusPolicy.NoFocus)   # a scroll area is no Tab stop; its fields are (issue 29.6)
            return False
        if kind == QEvent.Type.FocusIn and isinstance(obj, (QPlainTextEdit, QTextEdit)):
            if not obj.tabChangesFocus():
                obj.setTabChangesFocus(True)
            return False
        if kind == QEvent.Type.Close and isinstance(obj, QDialog) and obj.property(TYPED) and obj.isVisible() \
                and not obj.property("closing_confirmed") and event.spontaneous():
            if not confirm_discard(obj):
                event.ignore()
                return True
            obj.setProperty(TYPED, False)
            return False
        if kind == QEvent.Type.MouseButtonRelease and isinstance(obj, QAbstractButton) \
                and event.button() == Qt.MouseButton.LeftButton and obj.isEnabled() and obj.rect().contains(
                    event.position().toPoint()):
            dialog = _form_window(obj)
            if dialog is not None and dialog.property(TYPED) and _is_cancel(obj, dialog):
                if not confirm_discard(dialog):
                    obj.setDown(False)      # kept: the release never reaches the button, it must not stay down
                    return True
                dialog.setProperty(TYPED, False)
            return False
        return False

    def _key(self, obj, event) -> bool:
        if not isinstance(obj, QWidget):
            return False
        key = event.key()
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and _tab_in_reading_order(obj, event):
            return True
        dialog = _form_window(obj)
        if dialog is not None:
            if event.text() and event.text().isprintable() and _text_field(obj) \
                    and not event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier):
                dialog.setProperty(TYPED, True)
            elif key in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete) and _text_field(obj):
                dialog.setProperty(TYPED, True)
            if key == Qt.Key.Key_Escape and dialog.property(TYPED) and not _popup_open(obj):
                if confirm_discard(dialog):
                    dialog.setProperty(TYPED, False)
                    dialog.reject()
                return True
            if key in (Qt.Key.Key_Space,) and isinstance(obj, QAbstractButton) and dialog.property(TYPED) \
                    and _is_cancel(obj, dialog):
                if confirm_discard(dialog):
                    dialog.setProperty(TYPED, False)
                    obj.click()
                return True
            return False
        if key in ENTER_KEYS and isinstance(obj, (QPushButton, QToolButton)) and obj.isEnabled() \
                and obj is QApplication.focusWidget() \
                and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            obj.animateClick()
            return True
        return False


def _tab_in_reading_order(obj: QWidget, event) -> bool:
    """Tab / Shift+Tab in one of the program's windows moves in reading order (issue 29 point 6); Qt's own windows
    (file and message boxes, popups) and a cell being edited keep Qt's Tab."""
    if event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier) \
            or obj is not QApplication.focusWidget() or not type(obj.window()).__module__.startswith("desktop."):
        return False
    parent = obj.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractItemView):
            return False            # a cell editor: Tab commits it and moves to the next cell
        parent = parent.parentWidget()
    forward = event.key() == Qt.Key.Key_Tab and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier
    return reading_order.move_focus(obj, forward)


def _popup_open(widget: QWidget) -> bool:
    """Esc in an open combo list or a completer closes that, not the dialog."""
    return isinstance(widget, QComboBox) and widget.view().isVisible()


def with_mnemonics(labels: list[str], taken: str = "") -> list[str]:
    """The labels with a mnemonic each (`&`), unique among them and `taken`: a label that has one keeps it, the
    others take a letter (or digit) of their own, the earliest one free — when the letters run short, a label
    gives up its first choice for another of its letters so that as many labels as possible get one (a maximum
    matching, Kuhn's augmenting paths) (issue 29 point 5)."""
    used = {c.lower() for c in taken}
    for label in labels:
        if "&" in label.replace("&&", ""):
            used.add(_mnemonic_of(label).lower())
    choices = {i: [j for j, ch in enumerate(label) if ch.isascii() and ch.isalnum() and ch.lower() not in used]
               for i, label in enumerate(labels) if "&" not in label.replace("&&", "")}
    owner: dict[str, int] = {}      # letter -> label index
    chosen: dict[int, int] = {}     # label index -> position of its letter

    def assign(i: int, seen: set[str]) -> bool:
        for j in choices[i]:
            letter = labels[i][j].lower()
            if letter in seen:
                continue
            seen.add(letter)
            if letter not in owner or assign(owner[letter], seen):
                owner[letter], chosen[i] = i, j
                return True
        return False

    for i, positions in choices.items():      # first, each its earliest letter still free (reading order)
        j = next((j for j in positions if labels[i][j].lower() not in owner), None)
        if j is not None:
            owner[labels[i][j].lower()], chosen[i] = i, j
    for i in choices:                          # then the labels left without one, moving as few others as can be
        if i not in chosen:
            assign(i, set())
    return [label[:chosen[i]] + "&" + label[chosen[i]:] if i in chosen else label for i, label in enumerate(labels)]


def _page_mnemonics(button: QAbstractButton) -> None:
    """A button of the program shown (or enabled) without a mnemonic: the buttons shown in its window get theirs
    again, all together — in a dialog unique within it, in the main window unique among the buttons on screen and
    apart from the menu bar's letters (Alt+A is Arquivo)."""
    window = button.window()
    if not type(window).__module__.startswith("desktop.") or isinstance(window, QMessageBox):
        return
    bar = window.menuBar() if isinstance(window, QMainWindow) else None
    taken = "".join(_mnemonic_of(a.text()) for a in bar.actions()) if bar is not None else ""
    give_mnemonics(window, taken)


def _mnemonic_of(text: str) -> str:
    text = (text or "").replace("&&", "")
    index = text.find("&")
    return text[index + 1] if 0 <= index < len(text) - 1 else ""


def give_mnemonics(dialog: QWidget, taken: str = "") -> None:
    """Issue 29 point 5: the push buttons (and tool buttons with a text) shown in `dialog` — a wizard, a page of the
    main window — get a mnemonic each, unique among them; a letter its author wrote (`&Cópia`), those of its labels
    and check boxes, and `taken`, are kept. The letters given here are given again, all together, when another
    button appears (so a button shown later does not find every letter of its label used)."""
    buttons, plain = [], []
    for button in dialog.findChildren(QAbstractButton):
        if not isinstance(button, (QPushButton, QToolButton)) or not button.text() or not button.isVisibleTo(dialog):
            continue
        text = button.text()
        if text == button.property(MNEMONIC_LABEL):
            buttons.append(button)
            plain.append(button.property(MNEMONIC_PLAIN))
        elif "&" in text.replace("&&", ""):
            taken += _mnemonic_of(text)
        else:
            buttons.append(button)
            plain.append(text)
    if not buttons or all("&" in b.text() for b in buttons if b.isEnabled()) \
            and all(b.text() == b.property(MNEMONIC_LABEL) for b in buttons):
        return
    for widget in dialog.findChildren(QWidget):
        if isinstance(widget, (QLabel, QAbstractButton)) and not isinstance(widget, (QPushButton, QToolButton)) \
                and widget.isVisibleTo(dialog):
            taken += _mnemonic_of(widget.text())
    # the enabled buttons choose first: when a screen has more buttons than letters, a greyed one waits (it gets
    # its letter again when it is enabled)
    order = sorted(range(len(buttons)), key=lambda i: not buttons[i].isEnabled())
    buttons, plain = [buttons[i] for i in order], [plain[i] for i in order]
    for button, text, label in zip(buttons, plain, with_mnemonics(plain, taken)):
        if label != button.text():
            button.setText(label)
        button.setProperty(MNEMONIC_PLAIN, text)
        button.setProperty(MNEMONIC_LABEL, label)


MNEMONIC_PLAIN, MNEMONIC_LABEL = "mnemonic_plain", "mnemonic_label"     # a button's text before and after


def give_menu_mnemonics(menu: QMenu) -> None:
    """Issue 29 point 5: the items of a menu of the program (a print menu on a record page) get a mnemonic each,
    unique within the menu, when it opens; an item that has one keeps it."""
    owner = menu.parentWidget()
    if owner is None or not type(owner.window()).__module__.startswith("desktop."):
        return
    actions = [a for a in menu.actions() if not a.isSeparator() and a.text()]
    for action, label in zip(actions, with_mnemonics([a.text() for a in actions])):
        if label != action.text():
            action.setText(label)


def install(app: QApplication | None = None) -> None:
    app = app or QApplication.instance()
    if app is None or getattr(app, "_keyboard_guard", None) is not None:
        return
    guard = _KeyboardGuard(app)
    app.installEventFilter(guard)
    app._keyboard_guard = guard
