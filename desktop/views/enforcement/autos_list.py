"""Fiscalização → Autos de infração: the list by status, infractor, code, agent and period (Art. 19–27).

Lazy: `services.autos.list_autos` answers one keyset page at a time (newest first), so the list opens at once
over any number of autos; every filter change restarts it. Double-click opens the auto's page.
"""
from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtCore import QDate, QTimer, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                               QVBoxLayout, QWidget)

from desktop.domain.dates import local_today
from desktop.domain.formatting import format_datetime, format_money, format_upfm
from desktop.domain.workflow import AutoStatus
from desktop.background import Task
from desktop.views.enforcement.lazy_table import LazyColumn, LazyRecordTable
from desktop.views.enforcement.lookups import Lookups
from desktop.views.enforcement.widgets import SearchPicker
from desktop.views.operations import query_op
from desktop.views.widgets import date_edit, qdate_to_date, show_error
from desktop.views.enforcement.lookups import service_lookups
from desktop.domain.roles import Role
from desktop.services import catalog
from desktop.services.autos import AutoFilter
from desktop.services.dashboard_queries import AUTO_DUE
from desktop.services import autos

FILTER_DELAY_MS = 250

AUTO_COLUMNS = (
    LazyColumn("Número", lambda a: a.number),
    LazyColumn("Lavrado em", lambda a: a.drawn_up_at, lambda v: format_datetime(v)),
    LazyColumn("Código", lambda a: a.code),
    LazyColumn("Gravidade", lambda a: a.severity.label),
    LazyColumn("Situação", lambda a: a.status_label),
    LazyColumn("Infrator", lambda a: a.infractor_name),
    LazyColumn("Placa", lambda a: a.plate),
    LazyColumn("Agente", lambda a: a.agent_name),
    LazyColumn("UPFM", lambda a: a.amount_upfm, lambda v: format_upfm(v)),
    LazyColumn("R$", lambda a: a.amount_reais, lambda v: format_money(v)),
    LazyColumn("Reincidência", lambda a: a.recurrence),
)


class AutosListScreen(QWidget):
    """Filters above a lazy table; `opened(auto_id)` on double-click or "Abrir"."""

    opened = Signal(int)
    new_requested = Signal()

    def __init__(self, db, actor, parent=None, lookups: Lookups | None = None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.lookups = lookups or service_lookups(db, actor)
        self._generation = 0
        self.count_task = None
        filters = QWidget(self)
        grid = QGridLayout(filters)
        grid.setContentsMargins(0, 0, 0, 0)
        self.text_edit = QLineEdit(filters)
        self.text_edit.setPlaceholderText("Número do auto, nome do infrator ou placa…")
        self.text_edit.setClearButtonEnabled(True)
        self.status_combo = QComboBox(filters)
        self.status_combo.addItem("Todas as situações", None)
        for status in AutoStatus:
            self.status_combo.addItem(status.label, status)
        self.code_combo = QComboBox(filters)
        self.code_combo.addItem("Todos os códigos", None)
        self._fill_codes()
        self.agent_combo = QComboBox(filters)
        self.agent_combo.addItem("Todos os agentes", None)
        self.agent_combo.addItem(f"Meus autos ({actor.full_name})", actor.user_id)
        self._fill_agents()
        self.infractor_picker = SearchPicker(self._search_infractors, "Infrator: nome, CPF ou CNPJ…", filters,
                                             empty_text="Todos os infratores")
        self.period_check = QCheckBox("Período de", filters)
        today = local_today()
        self.from_edit = date_edit(filters, today - timedelta(days=365))
        self.to_edit = date_edit(filters, today)
        for edit in (self.from_edit, self.to_edit):
            edit.setEnabled(False)
        self.period_check.toggled.connect(self.from_edit.setEnabled)
        self.period_check.toggled.connect(self.to_edit.setEnabled)
        self.new_button = QPushButton("Novo auto de infração…", filters)
        self.new_button.clicked.connect(self.new_requested.emit)

        if not actor.has(Role.FISCAL):   # the service refuses it too (Art. 19: the agent draws the auto up)
            self.new_button.setEnabled(False)
            self.new_button.setToolTip("Somente o perfil Fiscal lavra autos de infração.")
        self.open_button = QPushButton("Abrir", filters)
        self.open_button.clicked.connect(self._open_selected)
        self.count_label = QLabel(filters)
        for combo in (self.status_combo, self.code_combo, self.agent_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
        period = QWidget(filters)
        period_layout = QHBoxLayout(period)
        period_layout.setContentsMargins(0, 0, 0, 0)
        period_layout.addWidget(self.period_check)
        period_layout.addWidget(self.from_edit)
        period_layout.addWidget(QLabel("a", period))
        period_layout.addWidget(self.to_edit)
        period_layout.addStretch(1)
        grid.addWidget(self.text_edit, 0, 0)
        grid.addWidget(self.status_combo, 0, 1)
        grid.addWidget(self.code_combo, 0, 2)
        grid.addWidget(self.new_button, 0, 3)
        grid.addWidget(self.infractor_picker, 1, 0)
        grid.addWidget(self.agent_combo, 1, 1)
        grid.addWidget(self.open_button, 1, 3)
        grid.addWidget(period, 2, 0)
        grid.addWidget(self.count_label, 2, 1, 1, 3)
        grid.setColumnStretch(0, 1)
        self.table = LazyRecordTable(AUTO_COLUMNS, self, filters=filters)
        self.table.activated.connect(lambda auto: auto is not None and self.opened.emit(auto.id))
        self.table.model.failed.connect(lambda error: show_error(self, error, "Não foi possível listar os autos"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FILTER_DELAY_MS)
        self._timer.timeout.connect(self.reload)
        self.text_edit.textChanged.connect(lambda _t: self._timer.start())
        for combo in (self.status_combo, self.code_combo, self.agent_combo):
            combo.currentIndexChanged.connect(lambda _i: self.reload())
        self.infractor_picker.changed.connect(lambda _v: self.reload())
        self.period_check.toggled.connect(lambda _v: self.reload())
        for edit in (self.from_edit, self.to_edit):
            edit.dateChanged.connect(lambda _d: self.period_check.isChecked() and self.reload())
        self.reload()

    # -- filter choices -------------------------------------------------------------------------------------
    def _fill_codes(self) -> None:

        read = query_op(self, lambda: catalog.list_codes(self.db)).titled("Não foi possível ler o catálogo de infrações")
        if not read.run():
            return
        codes = read.result
        seen = []
        for code in codes:
            if code.code not in seen:
                seen.append(code.code)
                self.code_combo.addItem(f"{code.code} — {code.severity_label}", code.code)

    def _fill_agents(self) -> None:

        if not self.actor.has(Role.ADMINISTRADOR):
            return
        try:
            from desktop.services import users  # local: imported only on this branch

            others = users.list_users(self.db, self.actor)
        except Exception:  # noqa: BLE001 — "Todos" and "Meus autos" remain
            return
        for user in others:
            if Role.FISCAL in user.roles and user.id != self.actor.user_id:
                self.agent_combo.addItem(user.full_name, user.id)

    def _search_infractors(self, text: str):
        """Drivers and platforms together: the infractor of Art. 20 and 22 may be either."""
        found = [(("driver", ident), f"Condutor: {label}") for ident, label in self.lookups.drivers(text)]
        found += [(("platform", ident), f"Plataforma: {label}") for ident, label in self.lookups.platforms(text)]
        return found

    # -- loading --------------------------------------------------------------------------------------------
    def current_filter(self):

        infractor = self.infractor_picker.value()
        return AutoFilter(
            status=self.status_combo.currentData(),
            driver_id=infractor[1] if infractor and infractor[0] == "driver" else None,
            platform_id=infractor[1] if infractor and infractor[0] == "platform" else None,
            code=self.code_combo.currentData(), agent_id=self.agent_combo.currentData(),
            date_from=qdate_to_date(self.from_edit.date()) if self.period_check.isChecked() else None,
            date_to=qdate_to_date(self.to_edit.date()) if self.period_check.isChecked() else None,
            text=self.text_edit.text().strip(), due=getattr(self, "due", ""))

    def set_due(self, due: str) -> None:
        """Issue 16: a home-dashboard tile's filter (dashboard_queries.AUTO_DUE), cleared by "Limpar filtro"."""

        self.due = due
        if not hasattr(self, "due_label"):
            from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton  # local: imported only on this branch

            self.due_label = QLabel(self)
            self.due_label.setStyleSheet("color: #1565c0; font-weight: bold;")
            self.due_clear = QPushButton("Limpar filtro do painel", self)
            self.due_clear.clicked.connect(lambda: self.set_due(""))
            row = QHBoxLayout()
            row.addWidget(self.due_label, 1)
            row.addWidget(self.due_clear)
            self.layout().insertLayout(0, row)
        self.due_label.setText(f"Filtro do painel: {AUTO_DUE[due]}" if due else "")
        self.due_label.setVisible(bool(due))
        self.due_clear.setVisible(bool(due))
        self.reload()

    def reload(self) -> None:

        self._timer.stop()
        query = self.current_filter()

        def load(cursor, limit):
            page = autos.list_autos(self.db, self.actor, query, after=cursor, limit=limit)
            return page.items, page.next_cursor

        self.table.reset(load)
        self._generation += 1
        generation, db, actor = self._generation, self.db, self.actor

        def count(state):
            return autos.count_autos(db, actor, query)

        from shiboken6 import isValid  # lazy: Qt loads only when this runs (start-up cost)

        def show(total):
            # only the count of the filters on screen, and only while the screen exists (closed while counting)
            if generation == self._generation and isValid(self.count_label):
                self.count_label.setText(f"{total} auto(s) com estes filtros.")

        def failed(_error):
            if generation == self._generation and isValid(self.count_label):   # the list reported it already
                self.count_label.clear()

        self.count_label.setText("Contando…")
        # a COUNT over every auto of the filters: off the UI thread, the first page is already on screen
        self.count_task = Task(count).success(show).failure(failed).run_in_background(self, show_progress=False)

    def set_period(self, start: date, end: date) -> None:
        self.from_edit.setDate(QDate(start))
        self.to_edit.setDate(QDate(end))
        self.period_check.setChecked(True)
        self.reload()

    def _open_selected(self) -> None:
        auto = self.table.selected()
        if auto is not None:
            self.opened.emit(auto.id)

    def rows(self) -> list:
        return self.table.loaded_rows()

