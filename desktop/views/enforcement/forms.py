"""The one base of every Fiscalização/Financeiro dialog that saves through a service (STYLE: habits).

`ServiceDialog` lays out labelled fields, each with an error line under it, calls `submit()` on OK and maps what
the service answers: `ValidationError` → each problem next to its field (unknown fields in the general line);
`StaleRecordError` → `stale = True`, the dialog closes and the screen offers "Recarregar"; any other
`DesktopError` → its Portuguese message in the general line (all through `views.operations.op`). The dialog
closes only on success, with the service's answer in `result_value`.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QPushButton,
                               QVBoxLayout, QWidget)

from desktop.views.widgets import FieldErrors, error_label, field_box
from desktop.views.operations import op
from desktop.errors import DesktopError, StaleRecordError, ValidationError

STALE_TEXT = ("Este auto foi alterado por outro usuário depois que você o abriu. Nada foi gravado. "
              "Recarregue e refaça a operação.")


class ServiceDialog(QDialog):
    """Subclasses add fields with `add_field(name, label, widget)` and define `submit()` (the service call,
    returning its answer)."""

    def __init__(self, title: str, parent=None, ok_text: str = "Salvar", width: int = 520):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumWidth(width)
        self.result_value: Any = None
        self.stale = False
        self.stale_message = ""
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.general_error = error_label(self)
        self.errors = FieldErrors(self.general_error)
        self.intro = QLabel(self)
        self.intro.setWordWrap(True)
        self.intro.setVisible(False)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel, self)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(ok_text)
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText("Cancelar")
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self.body = QVBoxLayout()
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(self.form)
        layout.addLayout(self.body)
        layout.addWidget(self.general_error)
        layout.addWidget(self.buttons)
        self._rows: dict[str, int] = {}

    def set_intro(self, html: str) -> None:
        self.intro.setText(html)
        self.intro.setVisible(True)

    def add_field(self, name: str, label: str, widget: QWidget) -> QWidget:
        """A labelled field with its error line under it; `name` is the draft's field name."""
        message = error_label(self)
        self.form.addRow(label, field_box(widget, message, self))
        self.errors.add(name, widget, message)
        self._rows[name] = self.form.rowCount() - 1
        # what the user corrects stops being marked as wrong at once
        signal = getattr(widget, "textChanged", None)
        if signal is not None:
            signal.connect(lambda *_args: self._field_edited(widget, message))
        return widget

    @staticmethod
    def _field_edited(widget: QWidget, message: QLabel) -> None:
        if widget.property("invalid"):
            widget.setStyleSheet("")
            widget.setProperty("invalid", False)
            message.clear()
            message.setVisible(False)

    def set_field_visible(self, name: str, visible: bool) -> None:
        self.form.setRowVisible(self._rows[name], visible)

    def local_problems(self) -> list:
        """Problems found before calling the service (e.g. a number that does not parse)."""
        return []

    def save(self) -> bool:
        """Call `submit()` through `views.operations.op`: problems go next to their fields, a stale record closes
        the dialog for the screen's "Recarregar", any other refusal shows in the general line."""

        problems = self.local_problems()
        if problems:
            self.errors.show(problems)
            return False
        return op(self, self.submit).fields(self.errors).failure(self._refused).success(self._accepted).run()

    def _accepted(self, value: Any) -> None:
        self.result_value = value
        self.accept()

    def _refused(self, error: BaseException) -> bool:
        """What this dialog shows itself (True) instead of `op`'s message box."""

        if isinstance(error, StaleRecordError):
            self.stale = True
            self.stale_message = str(error)
            self.reject()
            return True
        if isinstance(error, ValidationError) and error.problems:
            return False   # op shows them next to the fields
        if isinstance(error, DesktopError):
            self.errors.clear()
            self.general_error.setText(str(error))
            self.general_error.setVisible(True)
            return True
        return False


class StaleBanner(QWidget):
    """A yellow line at the top of a detail page: "alterado por outro usuário" with a "Recarregar" button."""

    def __init__(self, reload, parent=None):
        super().__init__(parent)
        self.setObjectName("stale")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet("QWidget#stale { background: #fff4cc; border: 1px solid #e0b400; }")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.reload_button = QPushButton("Recarregar", self)
        self.reload_button.clicked.connect(reload)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.reload_button)
        self.setVisible(False)

    def show_message(self, text: str) -> None:
        message = text or STALE_TEXT
        if "alterado por outro usuário" not in message:
            message = f"Registro alterado por outro usuário. {message}"
        self.label.setText(message)
        self.setVisible(True)
