"""Administração → Feriados municipais: the office's own non-business days (SPEC §3 "Business day").

Municipal holidays and pontos facultativos (Carnival days are such entries) are added here and removed with a
reason (deactivated and audited, never deleted). The national and Mato Grosso holidays of the same year come from
the domain calendar (`BusinessCalendar.holidays_in`) and are shown read-only beside them.
"""
from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QInputDialog,
                               QLabel, QLineEdit, QPushButton, QSpinBox, QSplitter, QVBoxLayout, QWidget)

from desktop.domain import local_today  # the office's day (America/Cuiaba), not the machine's
from desktop.views.formatting import format_date
from desktop.views.operations import op
from desktop.views.table import Column, RecordTable, enter_presses
from desktop.views.widgets import FormDialog, date_edit, qdate_to_date
from desktop.domain.entities import Entity
from desktop.domain.formatting import weekday_name
from desktop.services import holidays
from desktop.signals import bus

KIND_LABELS = {"municipal": "Feriado municipal", "ponto_facultativo": "Ponto facultativo"}


def weekday(day: date) -> str:

    return weekday_name(day)


MUNICIPAL_COLUMNS = (
    Column("Data", lambda h: h.day),
    Column("Dia da semana", lambda h: weekday(h.day)),
    Column("Nome", lambda h: h.name),
    Column("Tipo", lambda h: KIND_LABELS.get(h.kind, h.kind)),
    Column("Situação", lambda h: "Em vigor" if h.active else "Removido"),
    Column("Motivo da remoção", lambda h: getattr(h, "removed_reason", None) or ""),
)

STATE_COLUMNS = (
    Column("Data", lambda row: row[0]),
    Column("Dia da semana", lambda row: weekday(row[0])),
    Column("Nome", lambda row: row[1]),
)


class HolidayDialog(FormDialog):
    def __init__(self, db, actor, year: int, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.saved = None
        self.setWindowTitle("Novo feriado municipal ou ponto facultativo")
        self.setMinimumWidth(460)
        today = local_today()
        self.date_edit = date_edit(self, today if today.year == year else date(year, 1, 1))
        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText("ex.: Aniversário de Chapada dos Guimarães")
        self.kind_combo = QComboBox(self)
        for kind, label in KIND_LABELS.items():
            self.kind_combo.addItem(label, kind)
        self.build_form([("day", "Data:", self.date_edit), ("name", "Nome:", self.name_edit),
                         ("kind", "Tipo:", self.kind_combo)])

    def save(self) -> bool:

        day, name, kind = qdate_to_date(self.date_edit.date()), self.name_edit.text().strip(), \
            self.kind_combo.currentData()
        return op(self, lambda: holidays.add_holiday(self.db, self.actor, day, name, kind=kind)) \
            .fields(self.errors).changes(Entity.HOLIDAYS).success(self._saved).run()

    def _saved(self, holiday) -> None:
        self.saved = holiday
        self.accept()


class HolidaysScreen(QWidget):
    def __init__(self, db, actor, parent=None, year: int | None = None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.year_spin = QSpinBox(self)
        self.year_spin.setRange(2000, 2100)
        self.year_spin.setValue(year or local_today().year)
        self.add_button = QPushButton("Adicionar…", self)
        self.remove_button = QPushButton("Remover…", self)
        self.add_button.clicked.connect(self.add)
        self.remove_button.clicked.connect(lambda: self.remove())
        self.municipal = RecordTable(MUNICIPAL_COLUMNS, self, filter_placeholder="Filtrar feriados municipais…")
        self.state = RecordTable(STATE_COLUMNS, self, show_filter=False)
        self.state.view.setObjectName("state_holidays")   # national and state days: read only, nothing to open
        # Enter / double-click on a municipal holiday: "Remover…", which asks the reason first (issue 29 point 1)
        enter_presses(self.municipal, self.remove_button)
        self.municipal.selection_changed.connect(
            lambda h: self.remove_button.setEnabled(h is not None and h.active))
        top = QHBoxLayout()
        top.addWidget(QLabel("Ano:", self))
        top.addWidget(self.year_spin)
        top.addStretch(1)
        top.addWidget(self.add_button)
        top.addWidget(self.remove_button)
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(QLabel("<b>Feriados municipais e pontos facultativos</b> (configurados aqui)", left))
        left_layout.addWidget(self.municipal)
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        self.state_title = QLabel(right)
        right_layout.addWidget(self.state_title)
        right_layout.addWidget(self.state)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        note = QLabel("Estes dias não contam como dias úteis nos prazos (por exemplo, os 5 dias do Art. 9 e os "
                      "15 dias úteis da renovação, Art. 3, §2).", self)
        note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(note)
        layout.addWidget(splitter, 1)
        self.year_spin.valueChanged.connect(lambda _year: self.reload())
        bus.data_changed.connect(self._data_changed)
        self.reload()

    @property
    def year(self) -> int:
        return self.year_spin.value()

    def _data_changed(self, entity: str) -> None:
        if entity in (Entity.HOLIDAYS, Entity.SETUP, Entity.DEMO):
            self.reload()

    def reload(self) -> None:

        year = self.year

        def load():
            return (holidays.list_holidays(self.db, year),
                    [(d, name) for d, name, kind in holidays.calendar(self.db).holidays_in(year)
                     if kind != "municipal"])

        loaded = op(self, load).titled("Não foi possível carregar os feriados")
        rows, state_rows = loaded.result if loaded.run() else ([], [])
        self.municipal.set_rows(sorted(rows, key=lambda h: h.day), keep=lambda h: h.id)
        self.state.set_rows(state_rows)
        self.state_title.setText(f"<b>Feriados nacionais e de Mato Grosso em {self.year}</b> (somente leitura)")
        selected = self.municipal.selected()
        self.remove_button.setEnabled(selected is not None and selected.active)

    def add(self) -> None:
        HolidayDialog(self.db, self.actor, self.year, self).exec()  # its save announces "holidays"

    def remove(self, reason: str | None = None) -> bool:

        holiday = self.municipal.selected()
        if holiday is None:
            return False
        if not reason:
            reason, ok = QInputDialog.getText(
                self, "Remover feriado",
                f"Motivo da remoção de «{holiday.name}» ({format_date(holiday.day)}):\n"
                "O registro fica no histórico e na auditoria.")
            if not ok or not reason.strip():
                return False
        return op(self, lambda: holidays.remove_holiday(self.db, self.actor, holiday.id, reason.strip())) \
            .changes(Entity.HOLIDAYS).run()
