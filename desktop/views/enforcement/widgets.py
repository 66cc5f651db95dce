"""Small widgets of the Fiscalização and Financeiro screens: a read-only grid of facts, a picker that finds a
record by typing part of its name or document (the search is a service call, debounced), a reason dialog.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel,
                               QLineEdit, QPlainTextEdit, QVBoxLayout, QWidget)

from desktop.views.widgets import FieldErrors, error_label
from desktop.views.widgets import ERROR_LABEL_STYLE
from desktop.domain.problems import Problem
from desktop.views.operations import op
from desktop.errors import DesktopError, StaleRecordError, ValidationError

SEARCH_DELAY_MS = 250


class InfoGrid(QGroupBox):
    """A titled block of "label: value" lines; `set_rows([(label, text), ...])` replaces them."""

    def __init__(self, title: str, parent=None):
        super().__init__(title, parent)
        self._form = QFormLayout(self)
        self._form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self._form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.values: dict[str, QLabel] = {}

    def set_rows(self, rows: Sequence[tuple[str, str]]) -> None:
        while self._form.rowCount():
            self._form.removeRow(0)
        self.values = {}
        for label, text in rows:
            value = QLabel(text or "—", self)
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self._form.addRow(f"{label}:", value)
            self.values[label] = value

    def text(self, label: str) -> str:
        return self.values[label].text()


class SearchPicker(QWidget):
    """Type part of a name, CPF, CNPJ or plate; the matches (from `search(text) -> [(id, label), ...]`) fill
    the combo below; `value()` is the chosen id (None when nothing is chosen). `changed` fires on a new choice.
    """

    changed = Signal(object)

    def __init__(self, search: Callable[[str], Sequence[tuple[Any, str]]], placeholder: str, parent=None,
                 empty_text: str = "(nenhum)"):
        super().__init__(parent)
        self._search = search
        self._empty_text = empty_text
        self.edit = QLineEdit(self)
        self.edit.setPlaceholderText(placeholder)
        self.edit.setClearButtonEnabled(True)
        self.edit.setMinimumWidth(150)
        self.combo = QComboBox(self)
        self.combo.setMinimumContentsLength(16)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.error = error_label(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SEARCH_DELAY_MS)
        self._timer.timeout.connect(self.search_now)
        self.edit.textEdited.connect(lambda _text: self._timer.start())
        self.combo.currentIndexChanged.connect(lambda _i: self.changed.emit(self.value()))
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 2)
        row.addWidget(self.combo, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.error)
        self._fill([])

    def _fill(self, matches: Sequence[tuple[Any, str]], keep: Any = None) -> None:
        """Replace the choices; the values stay Python objects (compared with ==, never through QVariant)."""
        previous = self.value() if keep is None else keep
        self.combo.blockSignals(True)
        self.combo.clear()
        self._values = [None]
        self.combo.addItem(self._empty_text)
        for ident, label in matches:
            self._values.append(ident)
            self.combo.addItem(label)
        position = self._values.index(previous) if previous is not None and previous in self._values else -1
        if position < 0 and len(matches) == 1:
            position = 1
        self.combo.setCurrentIndex(max(position, 0))
        self.combo.blockSignals(False)
        self.changed.emit(self.value())

    def search_now(self) -> None:
        self._timer.stop()
        text = self.edit.text().strip()
        try:
            matches = list(self._search(text)) if text else []
        except Exception as error:  # noqa: BLE001 — show the service's message under the field
            from desktop.views.widgets import error_text  # local: imported only on this branch

            self._note(error_text(error), error=True)
            matches = []
        else:
            self.error.setVisible(False)
            if text and not matches:
                self._note(f"Nada encontrado para «{text}».", error=True)
            elif len(matches) > 1:
                self._note(f"{len(matches)} encontrados: escolha na lista ao lado.", error=False)
        self._fill(matches)

    def _note(self, text: str, error: bool) -> None:

        self.error.setStyleSheet(ERROR_LABEL_STYLE if error else "color: #555;")
        self.error.setText(text)
        self.error.setVisible(True)

    def set_choice(self, ident: Any, label: str) -> None:
        """Show one known record as chosen (e.g. the driver of the vehicle picked)."""
        self._fill([(ident, label)], keep=ident)

    def choose_index(self, index: int) -> None:
        self.combo.setCurrentIndex(index)

    def value(self) -> Any:
        index = self.combo.currentIndex()
        values = getattr(self, "_values", [None])
        return values[index] if 0 <= index < len(values) else None

    def label(self) -> str:
        return self.combo.currentText() if self.value() is not None else ""

    def matches(self) -> list[str]:
        return [self.combo.itemText(i) for i in range(1, self.combo.count())]


class ReasonDialog(QDialog):
    """Asks for a required text (a cancellation's reason, a release note); `reason()` is what was typed.

    `accept_with(submit)` calls `submit(reason)`; its ValidationError problems appear under the field, any
    other DesktopError in the general label, and the dialog only closes when the call succeeds.
    """

    def __init__(self, title: str, prompt: str, parent=None, submit: Callable[[str], Any] | None = None,
                 ok_text: str = "Confirmar"):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumWidth(480)
        self._submit = submit
        self.result_value: Any = None
        self.text_edit = QPlainTextEdit(self)
        self.text_edit.setMinimumHeight(90)
        self.general_error = error_label(self)
        self.errors = FieldErrors(self.general_error)
        message = error_label(self)
        self.errors.add("reason", self.text_edit, message)
        prompt_label = QLabel(prompt, self)
        prompt_label.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok_text)
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText("Cancelar")
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(prompt_label)
        layout.addWidget(self.text_edit)
        layout.addWidget(message)
        layout.addWidget(self.general_error)
        layout.addWidget(buttons)

    def reason(self) -> str:
        return self.text_edit.toPlainText().strip()

    def save(self) -> bool:

        if not self.reason():
            self.errors.show([Problem("reason", "Informe o motivo.")])
            return False
        if self._submit is None:
            self.accept()
            return True
        reason = self.reason()
        return op(self, lambda: self._submit(reason)).fields(self.errors).failure(self._refused) \
            .success(self._accepted).run()

    def _accepted(self, value) -> None:
        self.result_value = value
        self.accept()

    def _refused(self, error: BaseException) -> bool:
        """A refusal other than field problems shows in the dialog's general line (True: handled here)."""

        if isinstance(error, ValidationError | StaleRecordError) or not isinstance(error, DesktopError):
            return False
        self.errors.clear()
        self.general_error.setText(str(error))
        self.general_error.setVisible(True)
        return True
