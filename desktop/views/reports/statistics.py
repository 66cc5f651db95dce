"""Relatórios → Estatísticas (issue 16): pick a statistic and a period; the chart (matplotlib's Qt canvas, loaded
only when the first chart is drawn) with its table beside it; export to PDF (numbered and archived) or Excel; the
monthly management report (relatório gerencial) in one click. Every figure comes from `services.statistics`.
"""
from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QFileDialog, QHBoxLayout, QHeaderView, QLabel,
                               QListWidget, QListWidgetItem, QPushButton, QSplitter, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from desktop.domain.roles import Role
from desktop.views.operations import op
from desktop.domain.entities import Entity
from desktop.views.date_fields import DateField
from desktop.views.table import keyboard_list
from desktop.services import statistics
from desktop.domain.clock import today
from desktop.services.statistics import STATISTICS
from desktop.services.statistics import Month, Period
from desktop.errors import ValidationError
from desktop.reports.statistics import figure
from desktop.views.charts import tidy

REPORT_ROLES = (Role.GESTOR, Role.ADMINISTRADOR)


def month_edit(parent, value: date):
    """The program's month field (mm/aaaa typed, issue 29 point 2)."""

    return DateField(parent, value.replace(day=1), month=True, field="month", label="Mês")


def compute_job(state, db, actor, key, period):

    state.progress(0, 0, "Calculando…")
    return statistics.statistic(db, actor, key, period)


def report_job(state, db, actor, month):

    return statistics.management_report(db, actor, month, state)


def pdf_job(state, db, actor, key, period):

    state.progress(0, 0, "Gerando o PDF…")
    return statistics.export_pdf(db, actor, [key], period, state)


class StatisticsPanel(QWidget):
    """`StatisticsPanel(db, actor, open_preview, parent)`; `open_preview(pdf, title, suggested_name)` shows a PDF."""

    def __init__(self, db, actor, open_preview, parent=None):
        super().__init__(parent)

        self.db, self.actor, self.open_preview = db, actor, open_preview
        self.table_data = None
        self.canvas = None
        self.last_issued = None
        self.saved_path = None
        self.list = QListWidget(self)
        for definition in STATISTICS:
            item = QListWidgetItem(definition.title, self.list)
            item.setData(Qt.ItemDataRole.UserRole, definition.key)
        self.list.setMaximumWidth(260)
        now = today()
        first = date(now.year - 1, now.month, 1) if now.month == 12 else date(now.year - 1, now.month + 1, 1)
        self.from_edit = month_edit(self, first)
        self.to_edit = month_edit(self, date(now.year, now.month, 1))
        self.refresh_button = QPushButton("Atualizar", self)
        self.pdf_button = QPushButton("Exportar PDF…", self)
        self.xlsx_button = QPushButton("Exportar Excel…", self)
        self.report_button = QPushButton("Relatório gerencial do mês", self)
        self.report_button.setToolTip("O mês é o do campo «até»; as séries cobrem os 12 meses que terminam nele.")
        may_report = actor.has(*REPORT_ROLES)
        self.report_button.setEnabled(may_report)
        if not may_report:
            self.report_button.setToolTip("Exige o perfil Gestor ou Administrador.")
        self.title_label = QLabel(self)
        self.title_label.setStyleSheet("font-size: 12pt; font-weight: bold;")
        self.subtitle_label = QLabel(self)
        self.subtitle_label.setWordWrap(True)
        self.status = QLabel(self)
        self.chart_box = QWidget(self)
        self.chart_layout = QVBoxLayout(self.chart_box)
        self.chart_layout.setContentsMargins(0, 0, 0, 0)
        self.grid = QTableWidget(self)
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setTabKeyNavigation(False)   # Tab leaves the table (issue 29)
        self.grid.setObjectName("statistics_grid")   # the figures: nothing of their own to open
        self.grid.verticalHeader().setVisible(False)
        self.grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)

        bar = QHBoxLayout()
        bar.addWidget(QLabel("De", self))
        bar.addWidget(self.from_edit)
        bar.addWidget(QLabel("até", self))
        bar.addWidget(self.to_edit)
        bar.addWidget(self.refresh_button)
        bar.addStretch(1)
        bar.addWidget(self.pdf_button)
        bar.addWidget(self.xlsx_button)
        bar.addWidget(self.report_button)
        body = QSplitter(Qt.Orientation.Horizontal, self)
        body.addWidget(self.chart_box)
        body.addWidget(self.grid)
        body.setStretchFactor(0, 3)
        body.setStretchFactor(1, 2)
        body.setSizes([620, 420])
        right = QVBoxLayout()
        right.addWidget(self.title_label)
        right.addWidget(self.subtitle_label)
        right.addWidget(body, 1)
        right.addWidget(self.status)
        main = QHBoxLayout()
        main.addWidget(self.list)
        main.addLayout(right, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addLayout(main, 1)

        self.list.currentRowChanged.connect(lambda _row: self.refresh())
        # Enter / double-click on a statistic (issue 29 point 1): into its figures, then Tab to the exports
        self.list.itemActivated.connect(lambda _item: self.open_figures())
        keyboard_list(self.list)
        self.refresh_button.clicked.connect(self.refresh)
        self.pdf_button.clicked.connect(self.export_pdf)
        self.xlsx_button.clicked.connect(lambda: self.export_xlsx())
        self.report_button.clicked.connect(self.management_report)

    # -------------------------------------------------------------------------------------------------- input
    def period(self):

        a, b = self.from_edit.date(), self.to_edit.date()
        return Period(Month(a.year(), a.month()), Month(b.year(), b.month()))

    def current_key(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def choose(self, key: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == key:
                if self.list.currentRow() == row:
                    self.refresh()
                else:
                    self.list.setCurrentRow(row)
                return
        raise KeyError(key)

    def open_figures(self) -> None:
        self.grid.setFocus(Qt.FocusReason.OtherFocusReason)
        if self.grid.rowCount() and self.grid.currentRow() < 0:
            self.grid.setCurrentCell(0, 0)

    # ------------------------------------------------------------------------------------------------ drawing
    def refresh(self) -> bool:
        key = self.current_key()
        if key is None:
            return False

        try:
            period = self.period()      # read here, on the UI thread, never from the worker
        except ValidationError as error:
            self.status.setText(str(error))
            return False
        self.status.setText("Calculando…")
        return op(self, lambda state: compute_job(state, self.db, self.actor, key, period)) \
            .background("Estatísticas", "Calculando…", pass_state=True) \
            .success(self.show_table).failure(lambda _e: self.status.setText("")).run()

    def show_table(self, table) -> None:
        self.table_data = table
        self.title_label.setText(table.title)
        self.subtitle_label.setText(table.subtitle)
        self.grid.clear()
        self.grid.setColumnCount(len(table.headers))
        self.grid.setHorizontalHeaderLabels(list(table.headers))
        rows = list(table.rows) + ([table.totals] if table.totals else [])
        self.grid.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if table.totals and r == len(rows) - 1:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.grid.setItem(r, c, item)
        self.draw_chart(table)
        self.status.setText("Sem registros no período." if table.empty else "")

    def draw_chart(self, table) -> None:
        # matplotlib is imported here, when the first chart is drawn (start-up budget, issue 16)
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg  # lazy: matplotlib loads only when this runs (start-up cost)

        if self.canvas is not None:
            self.chart_layout.removeWidget(self.canvas)
            self.canvas.setParent(None)
            self.canvas.deleteLater()

        chart = figure(table, figsize=(6.4, 3.6))
        tidy(chart)        # legend below, pt-BR ticks, layout for the canvas (issue 27 point 5)
        self.canvas = FigureCanvasQTAgg(chart)
        self.canvas.setMinimumSize(360, 300)
        self.chart_layout.addWidget(self.canvas)
        self.canvas.draw_idle()

    # ------------------------------------------------------------------------------------------------- export
    def export_pdf(self) -> bool:
        key = self.current_key()
        if key is None:
            return False
        return op(self, lambda state: pdf_job(state, self.db, self.actor, key, self.period())) \
            .background("Estatísticas", "Gerando o PDF…", pass_state=True).changes(Entity.ISSUED_DOCUMENT) \
            .success(self._show_pdf).run()

    def _show_pdf(self, issued) -> None:
        self.last_issued = issued
        self.status.setText(f"Arquivado como documento nº {issued.info.number}.")
        self.open_preview(issued.pdf, f"Estatísticas — documento nº {issued.info.number}",
                          f"estatisticas-{issued.info.number.replace('/', '-')}.pdf")

    def export_xlsx(self, path: str | None = None) -> bool:
        key = self.current_key()
        if key is None:
            return False
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Exportar para Excel", f"estatisticas-{key}.xlsx",
                                                  "Planilha Excel (*.xlsx)")
            if not path:
                return False

        def write():
            data = statistics.export_xlsx(self.db, self.actor, [key], self.period())
            with open(path, "wb") as fh:
                fh.write(data)
            return path

        return op(self, write).success(self._saved).run()

    def _saved(self, path) -> None:
        self.saved_path = path
        self.status.setText(f"Planilha gravada em {path}.")

    def management_report(self) -> bool:

        b = self.to_edit.date()
        month = Month(b.year(), b.month())
        return op(self, lambda state: report_job(state, self.db, self.actor, month)) \
            .background("Relatório gerencial", "Gerando o relatório gerencial…", pass_state=True) \
            .changes(Entity.ISSUED_DOCUMENT).success(self._show_report).run()

    def _show_report(self, issued) -> None:
        self.last_issued = issued
        self.status.setText(f"Relatório gerencial arquivado como documento nº {issued.info.number}.")
        self.open_preview(issued.pdf, f"Relatório gerencial — documento nº {issued.info.number}",
                          f"relatorio-gerencial-{issued.info.number.replace('/', '-')}.pdf")
