"""The Viagens module (issue 15; Art. 4): import a platform's trip file in the background (progress, cancel, the
report of what was dropped because it identifies passengers), the fares per driver and month with a chart over
months and the Excel export, the trips that show an infraction with "Ver trajeto" and "Lavrar auto", and the open
statistics for the transparency portal. Fiscal and gestor only; every view or export is logged by the services.
No SQL and no law here: the screen calls services.trips through op()."""
from __future__ import annotations

from PySide6.QtWidgets import (QComboBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QPlainTextEdit,
                               QPushButton, QTabWidget, QVBoxLayout, QWidget)

from desktop.domain import local_today
from desktop.domain.formatting import format_cpf, format_datetime, format_plate
from desktop.views.operations import op
from desktop.views.table import Column, RecordTable
from desktop.domain.entities import Entity
from desktop.views.date_fields import DateField
from desktop.services import platform_lists, trips
from desktop.services import data_requests
from desktop.errors import ValidationError
from desktop.views.operations import error_text
from desktop.views.enforcement.auto_form import AutoFormDialog

HAIL = {"app": "aplicativo", "street_hail": "via pública", "phone_dispatch": "central", "phone": "telefone",
        "text": "mensagem"}


def month_edit(parent):
    """The program's date field for a month (mm/aaaa typed, issue 29 point 2), on the current month."""

    today = local_today()
    return DateField(parent, today.replace(day=1), month=True, field="month", label="Mês")


def _competence(value) -> str:
    """A month as the office writes it: mm/aaaa."""
    text = str(value or "")
    if len(text) >= 7 and text[4] == "-":
        return f"{text[5:7]}/{text[:4]}"
    if hasattr(value, "month") and hasattr(value, "year"):
        return f"{value.month:02d}/{value.year:04d}"
    return text


def _month_of(edit) -> tuple[int, int]:
    d = edit.date()
    return d.year(), d.month()


class TripsPage(QWidget):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.trip_path: str | None = None
        self.routes_path: str | None = None
        self.last_report = None
        self.last_error = None
        self.last_dialog = None
        self.import_op = None
        self.fare_lines: tuple = ()
        self.findings_page = None
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self._import_tab(), "Importar viagens")
        self.tabs.addTab(self._fares_tab(), "Tarifas por condutor")
        self.tabs.addTab(self._infractions_tab(), "Viagens com infração")
        self.tabs.addTab(self._statistics_tab(), "Estatísticas abertas")
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        self.reload()

    # -- import -----------------------------------------------------------------------------------------------
    def _import_tab(self) -> QWidget:
        tab = QWidget(self)
        self.platform_combo = QComboBox(tab)
        self.platform_combo.currentIndexChanged.connect(lambda _i: self._fill_requests())
        self.request_combo = QComboBox(tab)
        self.trip_label = QLabel("(nenhum arquivo)", tab)
        self.routes_label = QLabel("(opcional)", tab)
        choose = QPushButton("Arquivo de viagens…", tab)
        choose.setToolTip("CSV no formato publicado ou MDS 2.x (JSON)")
        choose.clicked.connect(self.choose_trips)
        choose_routes = QPushButton("Pontos das rotas…", tab)
        choose_routes.clicked.connect(self.choose_routes)
        self.import_button = QPushButton("Importar", tab)
        self.import_button.clicked.connect(lambda: self.import_files())
        self.report = QPlainTextEdit(tab)
        self.report.setReadOnly(True)
        self.report.setPlaceholderText("O relatório da importação aparece aqui (colunas descartadas por "
                                       "identificarem passageiros, colunas ignoradas, erros por linha).")
        self.imports_table = RecordTable((
            Column("Importado em", lambda r: r.created_at),
            Column("Plataforma", lambda r: r.platform_name),
            Column("Arquivo", lambda r: r.filename),
            Column("Viagens", lambda r: r.trips),
            Column("Pontos de rota", lambda r: r.route_points),
            Column("Descartado (passageiros)", lambda r: ", ".join(r.dropped_columns)),
        ), tab, show_filter=False)
        self.imports_table.activated.connect(self.show_import)    # Enter / double-click: its report (issue 29)
        form = QFormLayout()
        form.addRow("Plataforma:", self.platform_combo)
        form.addRow("Responde à requisição:", self.request_combo)
        row = QHBoxLayout()
        row.addWidget(choose)
        row.addWidget(self.trip_label, 1)
        form.addRow("Viagens:", row)
        row = QHBoxLayout()
        row.addWidget(choose_routes)
        row.addWidget(self.routes_label, 1)
        form.addRow("Rotas:", row)
        layout = QVBoxLayout(tab)
        layout.addLayout(form)
        layout.addWidget(self.import_button)
        layout.addWidget(self.report, 1)
        layout.addWidget(QLabel("Arquivos importados:", tab))
        layout.addWidget(self.imports_table, 1)
        return tab

    def reload(self) -> None:

        current = self.platform_combo.currentData()
        self.platform_combo.blockSignals(True)
        self.platform_combo.clear()
        for row in platform_lists.due_dates(self.db, self.actor):
            self.platform_combo.addItem(row.trade_name, row.platform_id)
        if current is not None:
            self.platform_combo.setCurrentIndex(max(self.platform_combo.findData(current), 0))
        self.platform_combo.blockSignals(False)
        self._fill_requests()
        self.imports_table.set_rows(trips.imports(self.db, self.actor))

    def _fill_requests(self) -> None:

        self.request_combo.clear()
        self.request_combo.addItem("(nenhuma: arquivo avulso)", None)
        platform_id = self.platform_combo.currentData()
        if platform_id is None:
            return
        for r in data_requests.data_requests_of(self.db, self.actor, platform_id):
            if any(a.key == "answer" and a.enabled for a in r.actions):   # the step the service allows
                self.request_combo.addItem(f"{r.number} — {r.status_label}", r.id)

    def select_platform(self, platform_id: int) -> None:
        self.platform_combo.setCurrentIndex(self.platform_combo.findData(platform_id))

    def choose_trips(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Arquivo de viagens da plataforma", "",
                                              "Viagens (*.csv *.json *.txt)")
        if path:
            self.set_trip_file(path)

    def choose_routes(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Pontos das rotas", "", "Rotas (*.csv *.json *.txt)")
        if path:
            self.routes_path = path
            self.routes_label.setText(path)

    def set_trip_file(self, path: str, routes: str | None = None) -> None:
        self.trip_path = path
        self.trip_label.setText(path)
        if routes is not None:
            self.routes_path = routes
            self.routes_label.setText(routes)

    def import_files(self, path: str | None = None, routes: str | None = None) -> bool:

        if path is not None:
            self.set_trip_file(path, routes)
        if not self.trip_path:
            self.report.setPlainText("Escolha o arquivo de viagens.")
            return False
        platform_id, request_id = self.platform_combo.currentData(), self.request_combo.currentData()
        trip_path, routes_path = self.trip_path, self.routes_path
        self.last_report = self.last_error = None

        def call(state):
            return trips.import_trips(self.db, self.actor, platform_id, trip_path, routes=routes_path,
                                      data_request_id=request_id, state=state)

        self.import_button.setEnabled(False)
        self.import_op = op(self, call).titled("Arquivo de viagens recusado") \
            .changes(Entity.TRIPS, Entity.DATA_REQUEST) \
            .failure(self._refused).background("Importando viagens", "Lendo e gravando as viagens…",
                                               pass_state=True).success(self._imported)
        return self.import_op.run()

    def _refused(self, error) -> bool:

        self.import_button.setEnabled(True)
        self.last_error = error
        if isinstance(error, ValidationError):
            self.report.setPlainText("Arquivo recusado; nada foi gravado.\n" + "\n".join(
                p.message for p in error.problems))
        else:
            self.report.setPlainText(error_text(error))
        return True

    def _imported(self, report) -> None:
        self.import_button.setEnabled(True)
        self.last_report = report
        # issue 27 point 6: the files imported are done with; the next trip file does not take this route file again
        self.trip_path = self.routes_path = None
        self.trip_label.setText("(nenhum arquivo)")
        self.routes_label.setText("(opcional)")
        self.report.setPlainText(report.summary())
        self.reload()

    def show_import(self, done) -> None:
        """A file imported before: what was kept of it, in the report pane (passenger data never was)."""
        if done is None:
            return
        lines = [f"Arquivo {done.filename} da plataforma {done.platform_name}, importado em "
                 f"{format_datetime(done.created_at)}.", f"Viagens importadas: {done.trips}."]
        if done.route_points:
            lines.append(f"Pontos de rota: {done.route_points}.")
        lines.append("Descartados por identificarem passageiros (Art. 4º): "
                     + (", ".join(done.dropped_columns) + "." if done.dropped_columns else "nenhum campo."))
        self.report.setPlainText("\n".join(lines))
        self.report.setFocus()

    # -- fares ------------------------------------------------------------------------------------------------
    def _fares_tab(self) -> QWidget:
        from desktop.views.trips.chart import FaresChart  # cycle: desktop.views.trips.chart imports this module at its top

        tab = QWidget(self)
        self.fares_month = month_edit(tab)
        show = QPushButton("Mostrar", tab)
        show.clicked.connect(self.show_fares)
        self.chart_button = QPushButton("Gráfico por mês", tab)
        self.chart_button.clicked.connect(self.draw_chart)
        self.export_button = QPushButton("Exportar para Excel…", tab)
        self.export_button.clicked.connect(self.choose_fares_export)
        self.fares_table = RecordTable((
            Column("Competência", lambda r: r.month, text=_competence),   # 11/2026, not 2026-11 (issue 27)
            Column("Condutor", lambda r: r.driver_name or "(não cadastrado)"),
            Column("CPF", lambda r: format_cpf(r.driver_cpf)),
            Column("Placa", lambda r: format_plate(r.plate)),
            Column("Viagens", lambda r: r.trips),
            Column("km", lambda r: r.km),
            Column("Horas", lambda r: r.hours),
            Column("Valor total (R$)", lambda r: r.total),
            Column("Tarifa base", lambda r: r.base),
            Column("Por distância", lambda r: r.distance),
            Column("Por tempo", lambda r: r.time),
            Column("Taxa da plataforma", lambda r: r.platform_share),
            Column("Outros", lambda r: r.other),
            Column("Avaliação média", lambda r: r.rating),
        ), tab, filter_placeholder="Filtrar por nome, CPF ou placa…")
        self.chart = FaresChart(tab)
        row = QHBoxLayout()
        row.addWidget(QLabel("Competência:", tab))
        row.addWidget(self.fares_month)
        for b in (show, self.chart_button, self.export_button):
            row.addWidget(b)
        row.addStretch(1)
        layout = QVBoxLayout(tab)
        layout.addLayout(row)
        layout.addWidget(self.fares_table, 2)
        layout.addWidget(self.chart, 1)
        return tab

    def show_fares(self) -> bool:

        year, month = _month_of(self.fares_month)

        def shown(lines) -> None:
            self.fare_lines = lines
            self.fares_table.set_rows(lines)
            if lines:
                self.fares_table.view.selectRow(0)

        return op(self, lambda: trips.fares(self.db, self.actor, year, month)).success(shown).run()

    def draw_chart(self) -> bool:

        line = self.fares_table.selected()
        cpf = line.driver_cpf if line is not None else None
        title = f"Tarifas por mês — {line.driver_name or format_cpf(cpf)}" if line is not None else ""
        return op(self, lambda: trips.fares_over_months(self.db, self.actor, driver_cpf=cpf)) \
            .success(lambda months: self.chart.draw(months, title)).run()

    def choose_fares_export(self) -> None:
        year, month = _month_of(self.fares_month)
        path, _ = QFileDialog.getSaveFileName(self, "Exportar tarifas", f"tarifas-{year:04d}-{month:02d}.xlsx",
                                              "Excel (*.xlsx);;CSV (*.csv)")
        if path:
            self.export_fares_to(path)

    def export_fares_to(self, path: str) -> bool:

        year, month = _month_of(self.fares_month)
        return op(self, lambda: trips.export_fares(self.db, self.actor, f"{year:04d}-{month:02d}", path)) \
            .background("Exportando tarifas").run()

    # -- infractions ------------------------------------------------------------------------------------------
    def _infractions_tab(self) -> QWidget:
        tab = QWidget(self)
        self.infractions_month = month_edit(tab)
        search = QPushButton("Procurar", tab)
        search.clicked.connect(self.show_infractions)
        self.route_button = QPushButton("Ver trajeto…", tab)
        self.route_button.clicked.connect(self.open_route)
        self.auto_button = QPushButton("Lavrar auto…", tab)
        self.auto_button.setToolTip("Abre o auto de infração preenchido com a viagem como prova (o fiscal decide)")
        self.auto_button.clicked.connect(self.draw_up_auto)
        self.findings_label = QLabel(tab)
        self.findings_table = RecordTable((
            Column("Início", lambda f: f.trip.started_at, text=format_datetime),
            Column("Viagem", lambda f: f.trip.external_id),
            Column("Plataforma", lambda f: f.platform_name),
            Column("Condutor", lambda f: f.driver_name or format_cpf(f.trip.driver_cpf or "")),
            Column("Placa", lambda f: format_plate(f.trip.plate or "")),
            Column("Chamada", lambda f: HAIL.get(f.trip.hail_type or "", f.trip.hail_type or "")),
            Column("Infração", lambda f: f.rule.label),
            Column("Artigo", lambda f: f.rule.article),
            Column("Código", lambda f: f.rule.code + (f"-{f.rule.art13_item}" if f.rule.art13_item else "")),
            Column("Auto", lambda f: f.auto_number or "—"),   # one fact, one auto (Art. 19; issue 24 item 10)
        ), tab, filter_placeholder="Filtrar…")
        self.findings_table.activated.connect(lambda _row: self.open_route())
        row = QHBoxLayout()
        row.addWidget(QLabel("Competência:", tab))
        row.addWidget(self.infractions_month)
        row.addWidget(search)
        row.addStretch(1)
        row.addWidget(self.route_button)
        row.addWidget(self.auto_button)
        layout = QVBoxLayout(tab)
        layout.addLayout(row)
        layout.addWidget(self.findings_label)
        layout.addWidget(self.findings_table, 1)
        return tab

    def show_infractions(self) -> bool:

        year, month = _month_of(self.infractions_month)

        def shown(page) -> None:
            self.findings_page = page
            self.findings_table.set_rows(page.findings)
            more = f" (mostradas as primeiras {len(page.findings)})" if page.total > len(page.findings) else ""
            self.findings_label.setText(f"{page.total} viagem(ns) com infração entre {page.trips_checked} "
                                        f"conferidas{more}.")
            if page.findings:
                self.findings_table.view.selectRow(0)

        return op(self, lambda: trips.infractions(self.db, self.actor, year, month)) \
            .background("Conferindo as viagens", "Comparando cada viagem com as autorizações…").success(shown).run()

    def select_finding(self, predicate) -> bool:
        return self.findings_table.select_where(predicate)

    def open_route(self):
        from desktop.views.trips.route_view import RouteDialog  # cycle: desktop.views.trips.route_view imports this module at its top

        finding = self.findings_table.selected()
        if finding is None:
            return None
        result = {}
        op(self, lambda: trips.route(self.db, self.actor, finding.trip.id)).success(
            lambda r: result.setdefault("route", r)).run()
        if "route" not in result:
            return None
        dialog = RouteDialog(self.db, self.actor, result["route"], self)
        self.last_dialog = dialog
        dialog.open()
        return dialog

    def auto_form(self, finding):

        dialog = AutoFormDialog(self.db, self.actor, self)
        dialog.prefill_trip(finding)
        return dialog

    def draw_up_auto(self):
        finding = self.findings_table.selected()
        if finding is None:
            return None
        dialog = self.auto_form(finding)
        self.last_dialog = dialog
        dialog.exec()
        return dialog

    # -- open statistics --------------------------------------------------------------------------------------
    def _statistics_tab(self) -> QWidget:
        tab = QWidget(self)
        self.stats_month = month_edit(tab)
        show = QPushButton("Mostrar", tab)
        show.clicked.connect(self.show_statistics)
        export = QPushButton("Exportar CSV para o portal…", tab)
        export.clicked.connect(self.choose_statistics_export)
        self.stats_table = RecordTable((
            Column("Plataforma", lambda r: r.platform_name),
            Column("Mês", lambda r: r.month),
            Column("Viagens", lambda r: r.trips),
            Column("Via pública", lambda r: r.street_hail_trips),
            Column("Aplicativo", lambda r: r.app_trips),
            Column("km", lambda r: r.total_distance_km),
            Column("Horas", lambda r: r.total_duration_h),
            Column("Veículos", lambda r: r.unique_vehicles),
            Column("Condutores", lambda r: r.unique_drivers),
        ), tab, show_filter=False)
        row = QHBoxLayout()
        row.addWidget(QLabel("Mês:", tab))
        row.addWidget(self.stats_month)
        row.addWidget(show)
        row.addWidget(export)
        row.addStretch(1)
        layout = QVBoxLayout(tab)
        layout.addLayout(row)
        layout.addWidget(QLabel("Contagens abaixo de 10 são publicadas como −1 (k-anonimato, como no MDS Reports).",
                                tab))
        layout.addWidget(self.stats_table, 1)
        return tab

    def show_statistics(self) -> bool:

        year, month = _month_of(self.stats_month)
        return op(self, lambda: trips.statistics(self.db, self.actor, year, month)) \
            .success(self.stats_table.set_rows).run()

    def choose_statistics_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Exportar estatísticas abertas", "estatisticas-viagens.csv",
                                              "CSV (*.csv)")
        if path:
            self.export_statistics_to(path)

    def export_statistics_to(self, path: str) -> bool:

        year, month = _month_of(self.stats_month)
        return op(self, lambda: trips.export_statistics(self.db, self.actor, path, year, month)).run()


__all__ = ["TripsPage", "month_edit"]
