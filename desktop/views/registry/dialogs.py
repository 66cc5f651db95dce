"""One parametrized dialog for every act a screen records with one service call (STYLE: one parametrized widget,
not copy-pasted screens): approve, refuse with the reason, waive the inspection, record the fee, suspend with the
end date and the act number, revoke, cassate, deregister, record a change communication...

`ActionDialog(title, intro, fields, submit)`: `fields` say what to collect (`FieldSpec`), `submit(values)` makes
the one service call, made through `views.operations.op`: a `ValidationError` puts each problem next to its field;
a `StaleRecordError` offers "Recarregar"; any other error is shown in the dialog, which stays open with what was
typed.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QFrame, QLabel,
                               QLineEdit, QPlainTextEdit, QScrollArea, QVBoxLayout, QWidget)

from desktop.domain.problems import Problem
from desktop.views.operations import op
from desktop.views.registry.fields import OptionalDateEdit, field_box, offer_reload
from desktop.views.widgets import DecimalEdit, FieldErrors, error_label, error_text, scrolling
from desktop.errors import StaleRecordError, ValidationError


@dataclass(frozen=True)
class FieldSpec:
    """name: the key in `values` (and the Problem.field of the service); kind: text, multiline, date (required
    date, default today), optional_date, money, combo (options: (value, label) pairs), bool, widget (a ready
    widget with `value()`)."""

    name: str
    label: str
    kind: str = "text"
    required: bool = True
    default: Any = None
    options: Sequence[tuple[Any, str]] = ()
    placeholder: str = ""
    widget: QWidget | None = field(default=None, compare=False)
    help: str = ""


class ActionDialog(QDialog):
    def __init__(self, title: str, intro: str, fields: Sequence[FieldSpec], submit: Callable[[dict], Any],
                 parent=None, ok_text: str = "Confirmar", on_stale: Callable[[], None] | None = None,
                 today: date | None = None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumWidth(520)
        self._submit = submit
        self._on_stale = on_stale
        self.result_value: Any = None
        self.specs = list(fields)
        self.widgets: dict[str, QWidget] = {}
        self.general = error_label(self)
        self.errors = FieldErrors(self.general)
        intro_label = QLabel(intro, self)
        intro_label.setWordWrap(True)
        intro_label.setTextFormat(Qt.TextFormat.RichText)
        form = QFormLayout()
        for spec in self.specs:
            widget = self._make(spec, today)
            self.widgets[spec.name] = widget
            message = error_label(self)
            box = field_box(widget, message, self)
            if spec.help:
                hint = QLabel(spec.help, box)
                hint.setWordWrap(True)
                hint.setStyleSheet("color: #555;")
                box.layout().addWidget(hint)
            form.addRow(f"{spec.label}:" if spec.kind != "bool" else "", box)
            self.errors.add(spec.name, widget, message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   self)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(ok_text)
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText("Cancelar")
        buttons.accepted.connect(self.confirm)
        buttons.rejected.connect(self.reject)
        # A refusal may list many problems (every missing document with its article): they scroll.
        self.general_area = QScrollArea(self)
        self.general_area.setWidget(self.general)
        self.general_area.setWidgetResizable(True)
        self.general_area.setFrameShape(QFrame.Shape.NoFrame)
        self.general_area.setMaximumHeight(200)
        self.general_area.setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(intro_label)
        content = QWidget(self)
        content.setLayout(form)
        layout.addWidget(scrolling(content, self))  # a long list of fields scrolls (issue 12 item 23)
        layout.addWidget(self.general_area)
        layout.addWidget(buttons)

    def _make(self, spec: FieldSpec, today: date | None) -> QWidget:
        if spec.widget is not None:
            spec.widget.setParent(self)
            return spec.widget
        if spec.kind == "multiline":
            edit = QPlainTextEdit(self)
            edit.setPlaceholderText(spec.placeholder)
            edit.setFixedHeight(80)
            if spec.default:
                edit.setPlainText(str(spec.default))
            return edit
        if spec.kind in ("date", "optional_date"):
            from desktop.domain.dates import local_today  # local: imported only on this branch

            default = spec.default if spec.default is not None or spec.kind == "optional_date" \
                else (today or local_today())
            return OptionalDateEdit(self, default, optional=spec.kind == "optional_date", field=spec.name)
        if spec.kind == "money":
            edit = DecimalEdit(self, prefix="R$ ")
            if spec.default is not None:
                edit.set_value(spec.default)
            return edit
        if spec.kind == "combo":
            combo = QComboBox(self)
            for value, label in spec.options:
                combo.addItem(label, value)
            if spec.default is not None:
                combo.setCurrentIndex(max(combo.findData(spec.default), 0))
            return combo
        if spec.kind == "bool":
            check = QCheckBox(spec.label, self)
            check.setChecked(bool(spec.default))
            return check
        edit = QLineEdit(self)
        edit.setPlaceholderText(spec.placeholder)
        if spec.default:
            edit.setText(str(spec.default))
        return edit

    # -- values --------------------------------------------------------------------------------------------
    def widget(self, name: str) -> QWidget:
        return self.widgets[name]

    def set_value(self, name: str, value: Any) -> None:
        widget = self.widgets[name]
        if isinstance(widget, QPlainTextEdit):
            widget.setPlainText(value)
        elif isinstance(widget, OptionalDateEdit):
            widget.set_value(value)
        elif isinstance(widget, DecimalEdit):
            widget.setText(value if isinstance(value, str) else "")
            if not isinstance(value, str):
                widget.set_value(value)
        elif isinstance(widget, QComboBox):
            widget.setCurrentIndex(widget.findData(value))
        elif isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))
        elif isinstance(widget, QLineEdit):
            widget.setText(value)
        else:
            widget.set_value(value)  # type: ignore[attr-defined]

    def values(self) -> tuple[dict, list[Problem]]:
        values: dict[str, Any] = {}
        problems: list[Problem] = []
        for spec in self.specs:
            widget = self.widgets[spec.name]
            if isinstance(widget, QPlainTextEdit):
                value: Any = widget.toPlainText().strip()
            elif isinstance(widget, OptionalDateEdit):
                value = None
                if widget.problem():
                    problems.append(Problem(spec.name, widget.problem()))
                else:
                    value = widget.value()
            elif isinstance(widget, DecimalEdit):
                try:
                    value = widget.value() if widget.text().strip() else None
                except ValueError as error:
                    problems.append(Problem(spec.name, str(error)))
                    value = None
            elif isinstance(widget, QComboBox):
                value = widget.currentData()
            elif isinstance(widget, QCheckBox):
                value = widget.isChecked()
            elif isinstance(widget, QLineEdit):
                value = widget.text().strip()
            else:
                value = widget.value()  # type: ignore[attr-defined]
            if spec.required and spec.kind != "bool" and value in (None, "") and \
                    not any(p.field == spec.name for p in problems):
                problems.append(Problem(spec.name, f"Informe {spec.label[0].lower() + spec.label[1:]}."))
            values[spec.name] = value
        return values, problems

    # -- confirm: one service call -------------------------------------------------------------------------
    def confirm(self) -> bool:
        values, problems = self.values()
        if problems:
            self._show(problems)
            return False
        return (op(self, lambda: self._submit(values)).fields(self._show).failure(self._failed)
                .success(self._done).run())

    def _done(self, result: Any) -> None:
        self.result_value = result
        self.accept()

    def _failed(self, error: BaseException) -> bool:
        """The dialog keeps what was typed: problems go next to their fields (op's `.fields`), any other refusal
        or a database failure is shown inside the dialog; a stale record offers "Recarregar" and closes it."""

        if isinstance(error, ValidationError):
            return False
        if isinstance(error, StaleRecordError):
            offer_reload(self, error, self._on_stale or (lambda: None))
            self.reject()
            return True
        self._show_general(error_text(error))
        return True

    def _show(self, problems) -> None:
        self.errors.show(problems)
        self.general_area.setVisible(not self.general.isHidden())
        self.adjustSize()

    def _show_general(self, text: str) -> None:
        self.errors.clear()
        self.general.setText(text)
        self.general.setVisible(True)
        self.general_area.setVisible(True)
        self.adjustSize()
