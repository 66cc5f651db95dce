"""Administração → Parâmetros: the dated tables (UPFM value per year, fees, terms, ISS rate...).

Nothing is edited in place (STYLE: every number the decree or the tax code sets is a dated parameter): a change is
a new row valid from a date, so a fine drawn up in 2026 keeps using the 2026 value.
"""
from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QPushButton, QSplitter, QVBoxLayout, QWidget)

from desktop.domain import local_today  # the office's day (America/Cuiaba), not the machine's
from desktop.views.formatting import format_date
from desktop.views.table import Column, RecordTable, enter_presses, keyboard_list
from desktop.views.operations import op
from desktop.views.widgets import DecimalEdit, FieldErrors, add_field_rows, date_edit, error_label, qdate_to_date
from desktop.domain.entities import Entity
from desktop.services import parameters
from desktop.domain.problems import Problem
from desktop.signals import bus


def format_value(value, unit: str) -> str:
    """As services.parameters shows a value: R$ 1.234,56 · 5 % · 15 dias · 10 UPFM."""
    if value is None:
        return ""

    return parameters.format_value(value, unit)


def standing(row, rows, today: date) -> str:
    """"Em vigor" for the row that applies today, "Futuro" for later ones, "Substituído" for older ones."""
    if row.valid_from is None:
        return "Padrão (nenhum valor registrado)"
    if row.valid_from > today:
        return "Futuro"
    current = max((r.valid_from for r in rows if r.valid_from is not None and r.valid_from <= today),
                  default=None)
    return "Em vigor" if row.valid_from == current else "Substituído"


class NewValueDialog(QDialog):
    """"Novo valor a partir de…": a new dated row for one parameter, through services.parameters.set_parameter."""

    def __init__(self, db, actor, spec, parent=None, valid_from: date | None = None):
        super().__init__(parent)
        self.db, self.actor, self.spec = db, actor, spec
        self.saved = None
        self.setWindowTitle(f"Novo valor — {spec.label}")
        self.setMinimumWidth(460)
        self.date_edit = date_edit(self, valid_from or local_today())
        self.value_edit = DecimalEdit(self, places=None)
        self.note_edit = QLineEdit(self)
        self.note_edit.setPlaceholderText("ex.: Decreto nº …/2026")
        self.general_error = error_label(self)
        self.errors = FieldErrors(self.general_error)
        form = QFormLayout()
        unit = f" ({spec.unit})" if spec.unit else ""
        add_field_rows(form, self.errors, (("valid_from", "Válido a partir de:", self.date_edit),
                                           ("value", f"Valor{unit}:", self.value_edit),
                                           ("note", "Observação / ato:", self.note_edit)), self)
        explanation = QLabel("O valor anterior continua valendo para as datas antes desta. Nada é apagado.", self)
        explanation.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel,
                                   self)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(explanation)
        layout.addWidget(self.general_error)
        layout.addWidget(buttons)

    def save(self) -> bool:

        try:
            value = self.value_edit.value()
        except ValueError as error:  # the number as typed, before any service is asked
            self.errors.show([Problem("value", str(error))])
            return False
        key, valid_from, note = self.spec.key, qdate_to_date(self.date_edit.date()), self.note_edit.text().strip()
        return op(self, lambda: parameters.set_parameter(self.db, self.actor, key, valid_from, value, note)) \
            .fields(self.errors).changes(Entity.PARAMETERS).success(self._saved).run()

    def _saved(self, saved) -> None:
        self.saved = saved
        self.accept()


class ParametersScreen(QWidget):
    def __init__(self, db, actor, parent=None, today: date | None = None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.today = today or local_today()
        self.specs = list(parameters.PARAMETERS.values()) if isinstance(parameters.PARAMETERS, dict) \
            else list(parameters.PARAMETERS)
        self.all_rows: list = []
        self.unit = ""  # the unit of the parameter shown, used by the "Valor" column
        self.keys = QListWidget(self)
        for spec in self.specs:
            item = QListWidgetItem(spec.label, self.keys)
            item.setData(Qt.ItemDataRole.UserRole, spec.key)
            item.setToolTip(spec.key)
        self.keys.setMinimumWidth(220)
        self.keys.setWordWrap(True)
        self.keys.setSpacing(2)
        self.title = QLabel(self)
        self.details = QLabel(self)
        self.details.setWordWrap(True)
        self.details.setStyleSheet("color: #555;")
        self.table = RecordTable((
            Column("Válido a partir de", lambda r: r.valid_from, text=lambda d: format_date(d) if d else "—"),
            Column("Valor", lambda r: r.value, text=lambda v: format_value(v, self.unit),
                   align=Qt.AlignmentFlag.AlignRight),
            Column("Situação", lambda r: standing(r, self._rows_of(r.key), self.today)),
            Column("Observação", lambda r: r.note or ""),
            Column("Registrado por", lambda r: r.created_by or ""),
        ), self, show_filter=False)
        self.new_button = QPushButton("Novo valor a partir de…", self)
        self.new_button.clicked.connect(self.new_value)
        # Enter / double-click on a parameter or on one of its values: "Novo valor a partir de…" (issue 29 point 1)
        enter_presses(self.table, self.new_button)
        self.keys.itemActivated.connect(lambda _item: self.new_button.isEnabled() and self.new_button.click())
        keyboard_list(self.keys)
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.new_button)
        right_layout.addLayout(header)
        right_layout.addWidget(self.details)
        right_layout.addWidget(self.table)
        splitter = QSplitter(self)
        splitter.addWidget(self.keys)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        intro = QLabel("Cada alteração é uma nova linha com a data em que passa a valer; os valores anteriores "
                       "continuam valendo para as datas passadas.", self)
        intro.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(splitter, 1)
        splitter.setSizes([250, 800])
        self.keys.currentRowChanged.connect(lambda _row: self._show_key())
        bus.data_changed.connect(self._data_changed)
        self.reload()
        if self.specs:
            self.keys.setCurrentRow(0)

    def _data_changed(self, entity: str) -> None:
        if entity in (Entity.PARAMETERS, Entity.SETUP, Entity.DEMO):
            self.reload()

    def _rows_of(self, key: str) -> list:
        return [r for r in self.all_rows if r.key == key]

    def current_spec(self):
        row = self.keys.currentRow()
        return self.specs[row] if 0 <= row < len(self.specs) else None

    def select_key(self, key: str) -> None:
        for row, spec in enumerate(self.specs):
            if spec.key == key:
                self.keys.setCurrentRow(row)

    def reload(self) -> None:

        loaded = op(self, lambda: parameters.list_parameters(self.db)).titled(
            "Não foi possível carregar os parâmetros")
        self.all_rows = loaded.result if loaded.run() else []
        self._show_key()

    def _show_key(self) -> None:
        spec = self.current_spec()
        if spec is None:
            self.table.set_rows([])
            return
        self.unit = unit = spec.unit or ""
        self.title.setText(f"<b>{spec.label}</b>" + (f" — unidade: {unit}" if unit else ""))
        rows = sorted(self._rows_of(spec.key), key=lambda r: r.valid_from or date.min, reverse=True)
        if not rows and spec.default is not None:
            from desktop.services.parameters import ParameterValue  # local: imported only on this branch

            rows = [ParameterValue(spec.key, spec.label, spec.unit, None, spec.default, "Valor padrão do catálogo",
                                   "")]
        self.details.setText(" ".join(part for part in (
            f"Base legal: {spec.article}." if spec.article else "", spec.help) if part))
        self.table.set_rows(rows)

    def new_value(self) -> None:
        spec = self.current_spec()
        if spec is None:
            return
        NewValueDialog(self.db, self.actor, spec, self).exec()  # its save announces "parameters"
