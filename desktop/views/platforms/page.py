"""The Plataformas module (issue 14): per platform, its municipal registration (Art. 6), APP insurance (Art. 5 X),
the 60-day lists delivered (Art. 5 VIII) with the next due date and the overdue flag, the reconciliation of the
latest list with the register, and the data requests (Art. 4) with the live countdown of the 24 hours of §2.

No SQL and no law here: the screen calls desktop.services.platform_lists / data_requests and draws what they
return; writes go through `op(...)` (the import in the background)."""
from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt, QTime, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.domain import local_now, local_today
from desktop.domain.formatting import format_date
from desktop.domain.data_requests import request_countdown
from desktop.domain.platform_lists import DATA_FIELDS
from desktop.domain.steps import find_action
from desktop.views.operations import op
from desktop.views.table import SEARCH_ROLE, Column, RecordTable, RecordTableModel
from desktop.views.widgets import FormDialog, qdate_to_date
from desktop.domain.entities import Entity
from desktop.domain.documents import format_cpf
from desktop.domain.documents import format_plate
from datetime import timedelta
from desktop.services.data_requests import DataRequestDraft
from desktop.services import data_requests
from desktop.views.date_fields import DateField
from desktop.views.table import enter_presses
from desktop.services import platform_lists
from desktop.errors import NotFound
from desktop.services import platforms
from desktop.views.pdf_preview import PdfPreviewDialog
from desktop.views.enforcement.auto_form import AutoFormDialog
from desktop.views.enforcement.lookups import service_lookups
from desktop.views.enforcement.widgets import SearchPicker
from desktop.views.widgets import show_info

__all__ = ["PlatformsPage", "DataRequestDialog"]


def _dt(value: datetime | None) -> str:
    return value.astimezone(local_now().tzinfo).strftime("%d/%m/%Y %H:%M") if value else "—"


class DataRequestDialog(FormDialog):
    """A justified request (Art. 4, caput) with the period and the fields of §1 I–VII; `notified_at` starts the
    24 hours of §2 when it serves an investigation."""

    def __init__(self, db, actor, platform_id: int, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.platform_id = db, actor, platform_id
        self.saved = None
        self.setWindowTitle("Nova requisição de dados (Art. 4º)")
        self.justification = QPlainTextEdit(self)
        self.justification.setPlaceholderText("Por que o Município precisa destes dados (Art. 4º, caput)")

        from desktop.views.date_fields import DateField, TimeField   # the program's fields (issue 29 point 2)

        today = local_today()
        self.start = DateField(self, today - timedelta(days=30), field="period_start", label="Período de")
        self.end = DateField(self, today, field="period_end", label="até")
        # issue 24 item 12 (the manual: "período, condutor ou veículo, motivo"): a request may be about one of each
        lookups = service_lookups(db, actor)
        self.driver_picker = SearchPicker(lookups.drivers, "Nome ou CPF do condutor…", self,
                                          empty_text="(todos os condutores)")
        self.vehicle_picker = SearchPicker(lookups.vehicles, "Placa ou RENAVAM…", self,
                                           empty_text="(todos os veículos)")
        self.checks: dict[str, QCheckBox] = {}
        fields_box = QGroupBox("Dados requisitados (Art. 4º, §1º)", self)
        fields_layout = QVBoxLayout(fields_box)
        for key, (numeral, text) in DATA_FIELDS.items():
            box = QCheckBox(f"{numeral} – {text}", fields_box)
            box.setChecked(True)
            self.checks[key] = box
            fields_layout.addWidget(box)
        self.other = QLineEdit(fields_box)
        self.other.setPlaceholderText("VII – outros dados (descreva)")
        fields_layout.addWidget(self.other)
        # issue 24 item 12: the six data of §1 I-VI are asked by default; leaving one out needs a written reason
        self.narrowing_reason = QLineEdit(self)
        self.narrowing_reason.setPlaceholderText("Se desmarcar algum de I a VI: por que a requisição não o pede")
        self.investigation = QCheckBox("Serve a investigação de irregularidade: prazo de 24 horas (Art. 4º, §2º)",
                                       self)
        self.notified = QCheckBox("A plataforma já foi notificada em:", self)
        now = local_now()
        self.notified_at = DateField(self, now.date(), not_future=True, field="notified_at",
                                     label="Notificada em")
        self.notified_time = TimeField(QTime(now.hour, now.minute), self, field="notified_at", label="às")
        self.general = self.general_error
        self.build_form([("justification", "Justificativa:", self.justification),
                         ("period_start", "Período de:", self.start), ("period_end", "até:", self.end),
                         ("driver_id", "Condutor:", self.driver_picker), ("vehicle_id", "Veículo:", self.vehicle_picker),
                         ("fields", "", fields_box), ("narrowing_reason", "Dados não pedidos:", self.narrowing_reason),
                         ("investigation", "", self.investigation),
                         ("notified_at", "", self._row(self.notified, self.notified_at,
                                                                     self.notified_time))])

    def _row(self, *widgets) -> QWidget:
        holder = QWidget(self)
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        for w in widgets:
            row.addWidget(w)
        row.addStretch(1)
        return holder

    def draft(self):

        notified = None
        if self.notified.isChecked():
            from datetime import datetime  # local: imported only on this branch

            notified = datetime.combine(self.notified_at.value(), self.notified_time.value(),
                                        tzinfo=local_now().tzinfo)
        return DataRequestDraft(
            platform_id=self.platform_id, justification=self.justification.toPlainText(),
            period_start=qdate_to_date(self.start.date()), period_end=qdate_to_date(self.end.date()),
            other_data=self.other.text(), investigation=self.investigation.isChecked(), notified_at=notified,
            narrowing_reason=self.narrowing_reason.text(),
            driver_id=self.driver_picker.value(), vehicle_id=self.vehicle_picker.value(),
            **{key: box.isChecked() for key, box in self.checks.items()})

    def save(self) -> bool:

        self.errors.clear()
        return op(self, lambda: data_requests.create_data_request(self.db, self.actor, self.draft())) \
            .fields(self.errors).changes(Entity.DATA_REQUEST).success(self._saved).run()

    def _saved(self, info) -> None:
        self.saved = info
        self.accept()


class _LazySearchModel(RecordTableModel):
    """A RecordTableModel that folds a row's text for the filter only when the filter first asks for it: a list
    of 20,000 lines opens without folding 30,000 findings up front."""

    def set_rows(self, rows) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._folded: dict[int, str] = {}
        self.endResetModel()

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role == SEARCH_ROLE and index.isValid() and 0 <= index.row() < len(self._rows):
            text = self._folded.get(index.row())
            if text is None:
                from desktop.domain.text import fold  # local: imported only on this branch

                row = self._rows[index.row()]
                text = self._folded[index.row()] = fold(" ".join(c.display(row) for c in self._columns))
            return text
        return super().data(index, role)


class ReconciliationTable(RecordTable):
    """The reconciliation's table: lazy filter text, and column widths measured on the first rows only."""

    def __init__(self, columns, parent=None, filter_placeholder: str = "Filtrar…"):
        super().__init__(columns, parent, filter_placeholder)
        self.model = _LazySearchModel(columns, self)
        self.proxy.setSourceModel(self.model)
        self.view.horizontalHeader().setResizeContentsPrecision(200)
        self._sized = False

    def set_rows(self, rows, keep=None) -> None:
        """Column widths are measured on the first fill with rows only (issue 14: the screen opens in ≤ 200 ms;
        measuring again on each reload of 30,000 findings costs more than reading them)."""
        if self._sized:
            previous = self.selected()
            self.model.set_rows(rows)
            if previous is not None and keep is not None:
                self.select_where(lambda row: keep(row) == keep(previous))
            else:
                self.selection_changed.emit(self.selected())
            return
        super().set_rows(rows, keep)
        self._sized = bool(self.model.rowCount())


RECON_COLUMNS = (
    Column("Linha", lambda r: r.line),
    Column("CPF do condutor", lambda r: r.driver_cpf, text=lambda v: _cpf(v)),
    Column("Placa", lambda r: r.plate, text=lambda v: _plate(v)),
    Column("Situação", lambda r: r.label),
    Column("Artigo", lambda r: r.article),
    Column("Detalhe", lambda r: r.detail),
    Column("Auto", lambda r: r.auto_number or ""),     # the auto drawn up from the line (one per line)
)


def _cpf(value) -> str:
    return format_cpf(value)


def _late_unanswered(request) -> bool:
    return bool(request.late and request.answered_at is None)


def _days(count: int) -> str:
    return f"{count} dia" if count == 1 else f"{count} dias"


def _plate(value) -> str:
    return format_plate(value)


class PlatformsPage(QWidget):
    """The module: the platforms with their due dates on the left, the chosen platform's page on the right."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.platform_id: int | None = None
        self.requests: tuple = ()
        self.last_dialog = None
        self.last_answer_note = ""   # the columns dropped from the last answer recorded (Art. 4; issue 24 item 11)
        self.last_report = None
        self.platforms = RecordTable((
            Column("Plataforma", lambda r: r.trade_name),
            Column("Última lista", lambda r: r.last_delivered_on),
            Column("Próxima até", lambda r: r.next_due_on),
            # issue 27 point 7: "ATRASADA" in red, as the manual says; "1 dia", "10 dias"
            Column("Situação", lambda r: f"ATRASADA há {_days(r.days_overdue)}" if r.overdue else "em dia",
                   color=lambda r: "#b00020" if r.overdue else None),
        ), self, filter_placeholder="Filtrar plataformas…")
        # the table's own signal: it follows the selection a mouse click makes (issue 27 point 1)
        self.platforms.selection_changed.connect(lambda *_: self._platform_chosen())
        self.title = QLabel(self)
        self.title.setStyleSheet("font-size: 16px; font-weight: bold;")
        self.registration = QLabel(self)
        self.insurance = QLabel(self)
        self.due = QLabel(self)
        self.late_measure = QLabel(self)
        for label in (self.registration, self.insurance, self.due, self.late_measure):
            label.setWordWrap(True)
        # Art. 24, II, a: the notice to regularize an overdue list; a decree code that cites Art. 5, VIII, if any
        self.late_offer = None
        self.late_notice_button = QPushButton("Notificar regularização da lista (Art. 24, II, a)", self)
        self.late_notice_button.setToolTip("Notificação para a plataforma entregar a lista de 60 dias em atraso")
        self.late_notice_button.clicked.connect(self.print_late_notice)
        self.late_auto_button = QPushButton("Auto pelo código do decreto…", self)
        self.late_auto_button.clicked.connect(self.draw_up_late_auto)
        self.import_button = QPushButton("Importar lista…", self)
        self.import_button.setToolTip("Lista de condutores, veículos e proprietários (Art. 5º, VIII), CSV ou XLSX")
        self.import_button.clicked.connect(self.choose_file)

        # a delivery is never in the future (issue 27 point 2: "Entregue em" took 2027)
        self.delivered = DateField(self, local_today(), not_future=True, field="received_on", label="Entregue em")
        self.lists = RecordTable((
            Column("Entregue em", lambda r: r.received_on),
            Column("Arquivo", lambda r: r.filename),
            Column("Linhas", lambda r: r.row_count),
            Column("Divergências", lambda r: r.discrepancies),
            Column("Com atraso", lambda r: "sim" if r.late else "não"),
            Column("Importada por", lambda r: r.imported_by_name),
            Column("SHA-256", lambda r: r.file_sha256[:16] + "…"),
        ), self)
        # Enter / double-click on a delivered list: its reconciliation (issue 29 point 1)
        self.lists.activated.connect(self.open_list)
        self.recon_title = QLabel(self)
        self.reconciliation = ReconciliationTable(RECON_COLUMNS, self, filter_placeholder="Filtrar por CPF, placa, "
                                                                                 "situação…")
        self.auto_button = QPushButton("Rascunhar auto da linha…", self)
        self.auto_button.setToolTip("Abre o auto de infração preenchido com os fatos da linha (o fiscal decide)")
        self.auto_button.clicked.connect(self.draw_up_auto)

        enter_presses(self.reconciliation, self.auto_button)   # Enter on a discrepancy: its auto (issue 29)
        self.reconciliation.selection_changed.connect(self._line_chosen)
        self.export_button = QPushButton("Exportar conciliação…", self)
        self.export_button.clicked.connect(self.choose_export)
        self.requests_table = RecordTable((
            Column("Nº", lambda r: r.number),
            Column("Período", lambda r: f"{format_date(r.period_start)} a {format_date(r.period_end)}"),
            Column("Dados (§1º)", lambda r: ", ".join(r.fields)),
            Column("Notificada em", lambda r: _dt(r.notified_at)),
            Column("Prazo (§2º)", lambda r: _dt(r.due_at)),
            # Art. 4, §2: a request whose 24 hours ran out unanswered says so, in red (issue 27 journey (e))
            Column("Situação", lambda r: f"ATRASADA — {r.status_label.lower()}" if _late_unanswered(r)
                   else r.status_label, color=lambda r: "#b00020" if _late_unanswered(r) else None),
            Column("Contagem", lambda r: self.countdown_of(r),
                   color=lambda r: "#b00020" if _late_unanswered(r) else None),
        ), self)
        self.new_request_button = QPushButton("Nova requisição de dados…", self)
        self.new_request_button.clicked.connect(self.new_request)
        self.print_button = QPushButton("Imprimir ofício", self)
        self.print_button.clicked.connect(self.print_request)
        self.answer_button = QPushButton("Registrar resposta…", self)
        self.answer_button.clicked.connect(self.choose_answer)
        # issue 24 item 12: the next step of a late request, the auto by the decree's code citing Art. 4
        self.request_auto_button = QPushButton("Lavrar auto (resposta em atraso)…", self)
        self.request_auto_button.clicked.connect(self.draw_up_request_auto)
        self.requests_table.selection_changed.connect(self._request_chosen)
        self.countdown = QLabel(self)
        self.countdown.setStyleSheet("font-weight: bold;")
        self.timer = QTimer(self)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self.tick)

        detail = QWidget(self)
        dl = QVBoxLayout(detail)
        dl.addWidget(self.title)
        dl.addWidget(self.registration)
        dl.addWidget(self.insurance)
        dl.addWidget(self.due)
        late_row = QHBoxLayout()
        late_row.addWidget(self.late_measure, 1)
        late_row.addWidget(self.late_notice_button)
        late_row.addWidget(self.late_auto_button)
        dl.addLayout(late_row)
        self.tabs = QTabWidget(detail)
        lists_tab = QWidget(self.tabs)
        ll = QVBoxLayout(lists_tab)
        row = QHBoxLayout()
        row.addWidget(QLabel("Entregue em:", lists_tab))
        row.addWidget(self.delivered)
        row.addWidget(self.import_button)
        row.addStretch(1)
        ll.addLayout(row)
        ll.addWidget(self.lists)
        recon_tab = QWidget(self.tabs)
        rl = QVBoxLayout(recon_tab)
        rl.addWidget(self.recon_title)
        rl.addWidget(self.reconciliation)
        row = QHBoxLayout()
        row.addWidget(self.auto_button)
        row.addWidget(self.export_button)
        row.addStretch(1)
        rl.addLayout(row)
        req_tab = QWidget(self.tabs)
        ql = QVBoxLayout(req_tab)
        ql.addWidget(self.countdown)
        ql.addWidget(self.requests_table)
        row = QHBoxLayout()
        for b in (self.new_request_button, self.answer_button, self.print_button, self.request_auto_button):
            row.addWidget(b)
        row.addStretch(1)
        ql.addLayout(row)
        self.tabs.addTab(lists_tab, "Listas (Art. 5º, VIII)")
        self.tabs.addTab(recon_tab, "Conciliação")
        self.tabs.addTab(req_tab, "Requisições de dados (Art. 4º)")
        dl.addWidget(self.tabs, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.platforms)
        splitter.addWidget(detail)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([380, 920])   # the platform list shows its four columns (name, last list, due, situation)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        self.reload()

    # -- loading ------------------------------------------------------------------------------------------------
    def reload(self) -> None:

        keep = self.platform_id
        self.platforms.set_rows(platform_lists.due_dates(self.db, self.actor), keep=lambda r: r.platform_id)
        if keep is None and self.platforms.model.rowCount():
            self.platforms.view.selectRow(0)
        elif keep is not None:
            self.platforms.select_where(lambda r: r.platform_id == keep)
        self._platform_chosen()

    def _platform_chosen(self) -> None:
        row = self.platforms.selected()
        self.platform_id = row.platform_id if row is not None else None
        self.show_platform()

    def open_filtered(self, filter: dict) -> None:  # noqa: A002 — issue 16: a home-dashboard tile
        """{"tab": "lists" | "requests", "platform_id": id} → that platform, on its lists (Art. 5, VIII) or its
        data requests (Art. 4, §2)."""
        if filter.get("platform_id") is not None:
            self.select_platform(int(filter["platform_id"]))
        self.tabs.setCurrentIndex(2 if filter.get("tab") == "requests" else 0)

    def select_platform(self, platform_id: int) -> None:
        self.platforms.select_where(lambda r: r.platform_id == platform_id)
        self._platform_chosen()

    def show_platform(self) -> None:

        enabled = self.platform_id is not None
        for b in (self.import_button, self.auto_button, self.export_button, self.new_request_button,
                  self.print_button, self.answer_button, self.request_auto_button):
            b.setEnabled(enabled)
        if not enabled:
            self.title.setText("Nenhuma plataforma inscrita.")
            self.late_offer = None
            self.late_measure.setText("")
            self.late_notice_button.setVisible(False)
            self.late_auto_button.setVisible(False)
            return
        info = platforms.get_platform(self.db, self.actor, self.platform_id)
        self.title.setText(f"{info.trade_name} — {info.cnpj_display}")
        self.registration.setText(
            f"Inscrição municipal (Art. 6º): {info.municipal_registration_number} de "
            f"{format_date(info.municipal_registration_date)}" if info.municipal_registration_number
            else "Sem inscrição municipal: a plataforma não pode operar (Art. 6º).")
        valid = info.app_insurance_valid_until
        if valid is None:
            self.insurance.setText("Seguro APP (Art. 5º, X): não informado.")
        else:
            state = "VENCIDO" if valid < local_today() else "válido"
            self.insurance.setText(f"Seguro APP (Art. 5º, X): apólice {info.app_insurance_policy}, {state} até "
                                   f"{format_date(valid)}.")
        due = self.platforms.selected()
        if due is not None and due.next_due_on is not None:
            text = f"Próxima lista (Art. 5º, VIII) até {format_date(due.next_due_on)}"
            self.due.setText(text + (f" — ATRASADA há {_days(due.days_overdue)}." if due.overdue else "."))
            self.due.setStyleSheet("color: #b00020; font-weight: bold;" if due.overdue else "")
        else:
            self.due.setText("Sem data de entrega prevista (sem inscrição nem lista entregue).")
        self.show_late_offer(platform_lists.late_list_offer(self.db, self.actor, self.platform_id))
        self.lists.set_rows(platform_lists.lists_of(self.db, self.actor, self.platform_id))
        try:
            rec = platform_lists.reconciliation(self.db, self.actor, platform_id=self.platform_id)
            self.reconciliation.set_rows(rec.lines)
            self.recon_title.setText("Conciliação da última lista entregue.")
        except NotFound:
            self.reconciliation.set_rows(())
            self.recon_title.setText("Nenhuma lista entregue.")
        self.requests = data_requests.data_requests_of(self.db, self.actor, self.platform_id)
        self.requests_table.set_rows(self.requests, keep=lambda r: r.id)
        self._request_chosen(self.requests_table.selected())
        self.tick()
        if any(r.awaiting for r in self.requests):
            self.timer.start()
        else:
            self.timer.stop()

    def open_list(self, delivered) -> None:
        """The reconciliation of one delivered list (an older one too), on the "Conciliação" tab."""
        if delivered is None:
            return
        try:
            rec = platform_lists.reconciliation(self.db, self.actor, list_id=delivered.id)
        except NotFound as error:
            show_info(self, "Lista", str(error))
            return
        self.reconciliation.set_rows(rec.lines)
        self.recon_title.setText(f"Conciliação da lista entregue em {format_date(delivered.received_on)} "
                                 f"({delivered.filename}).")
        self.tabs.setCurrentIndex(1)
        self.reconciliation.view.setFocus()

    def _request_chosen(self, request) -> None:
        """The chosen request's steps (DataRequestInfo.actions, domain/data_requests.py) enable its buttons."""
        actions = request.actions if request is not None else ()
        for key, button in (("answer", self.answer_button), ("print", self.print_button),
                            ("late_auto", self.request_auto_button)):
            action = find_action(actions, key)
            button.setEnabled(bool(action and action.enabled))
            button.setToolTip(action.tooltip if action is not None else "Escolha uma requisição na lista.")

    def show_late_offer(self, offer) -> None:
        """What the services offer for an overdue list (Art. 5, VIII): the notice, and a decree code if any."""
        self.late_offer = offer
        overdue = bool(offer and offer.overdue)
        self.late_measure.setText(offer.measure + (f" Prazo da notificação: {format_date(offer.regularize_by)}."
                                                   if overdue and offer.regularize_by else "") if overdue else "")
        self.late_notice_button.setVisible(overdue)
        self.late_auto_button.setVisible(overdue and offer.code is not None)
        for key, button in (("late_notice", self.late_notice_button), ("late_auto", self.late_auto_button)):
            action = find_action(offer.actions, key) if offer is not None else None
            button.setEnabled(bool(action and action.enabled))
            if action is not None:
                button.setToolTip(action.tooltip)
        if overdue and offer.code:
            self.late_auto_button.setText(f"Auto pelo código {offer.code} do decreto…")

    def print_late_notice(self) -> bool:

        platform_id = self.platform_id
        return op(self, lambda: platform_lists.print_overdue_list_notice(self.db, self.actor, platform_id)) \
            .titled("Notificação não emitida").changes(Entity.ISSUED_DOCUMENT) \
            .background("Emitindo a notificação").success(self._late_notice_printed).run()

    def _late_notice_printed(self, issued) -> None:

        self.last_dialog = PdfPreviewDialog(issued.pdf, f"Notificação para regularização nº {issued.info.number}",
                                            self)
        self.last_dialog.open()

    def late_auto_form(self):
        """The auto form with the platform and the decree code offered for its late list (not shown)."""

        offer = self.late_offer
        dialog = AutoFormDialog(self.db, self.actor, self)
        dialog.platform_picker.set_choice(offer.platform_id, offer.trade_name)
        dialog.select_code(offer.code)
        last = format_date(offer.last_delivered_on) if offer.last_delivered_on else "nenhuma desde a inscrição"
        dialog.description_edit.setPlainText(
            f"A plataforma {offer.trade_name} não entregou a relação de veículos, proprietários e condutores devida "
            f"em {format_date(offer.due_on)} (Art. 5º, VIII); última entregue: {last}; {_days(offer.days_overdue)} "
            "em atraso.")
        return dialog

    def request_auto_form(self, request):
        """The auto form for a data request left unanswered or answered late (Art. 4, §2), with the platform and
        the decree's code the service offered (`DataRequestInfo.late_code`)."""

        dialog = AutoFormDialog(self.db, self.actor, self)
        dialog.platform_picker.set_choice(request.platform_id, request.platform_name)
        dialog.setWindowTitle(f"Novo auto de infração — requisição de dados {request.number} em atraso")
        if request.late_code:            # else the fiscal chooses the code (the law types none for Art. 4, §2)
            dialog.select_code(request.late_code)
        when = (f"respondida somente em {_dt(request.answered_at)}" if request.answered_at
                else "sem resposta até agora")
        dialog.description_edit.setPlainText(
            f"A plataforma {request.platform_name} não entregou os dados da requisição nº {request.number} no prazo "
            f"de 24 horas (Art. 4º, §2º), contado da notificação em {_dt(request.notified_at)}: {when}.")
        return dialog

    def draw_up_request_auto(self):
        request = self.requests_table.selected()
        if request is None or not any(a.key == "late_auto" and a.enabled for a in request.actions):
            return None
        dialog = self.request_auto_form(request)
        self.last_dialog = dialog
        dialog.exec()
        if dialog.saved is not None:
            self.show_platform()
        return dialog

    def draw_up_late_auto(self):
        if self.late_offer is None or not self.late_offer.code:
            return None
        dialog = self.late_auto_form()
        self.last_dialog = dialog
        dialog.exec()
        if dialog.saved is not None:
            self.reload()
        return dialog

    # -- countdown (Art. 4, §2) ---------------------------------------------------------------------------------
    def countdown_of(self, request) -> str:
        return request_countdown(request.status, request.due_at, request.answered_at, local_now())

    def tick(self) -> None:
        open_ones = [r for r in self.requests if r.awaiting]
        if not open_ones:
            self.countdown.setText("Nenhuma requisição aguardando resposta no prazo de 24 horas.")
            return
        now = local_now()
        if any(not r.late and r.due_at <= now for r in open_ones):
            self.show_platform()     # a term ran out while the screen was open: its auto is offered now
            return
        first = min(open_ones, key=lambda r: r.due_at)
        self.countdown.setText(f"Requisição {first.number}: {self.countdown_of(first)} "
                               f"(prazo {_dt(first.due_at)}, Art. 4º, §2º)")
        self.requests_table.model.dataChanged.emit(
            self.requests_table.model.index(0, 6),
            self.requests_table.model.index(max(0, self.requests_table.model.rowCount() - 1), 6))

    # -- import (Art. 5, VIII) ----------------------------------------------------------------------------------
    def choose_file(self) -> None:
        if self.delivered.problem():
            QMessageBox.warning(self, "Entregue em", self.delivered.problem())
            self.delivered.setFocus()
            return
        path, _ = QFileDialog.getOpenFileName(self, "Lista da plataforma", "", "Listas (*.csv *.xlsx)")
        if path:
            self.import_file(path)

    def import_file(self, path: str, delivered=None) -> bool:

        delivered = delivered or qdate_to_date(self.delivered.date())
        platform_id = self.platform_id
        with open(path, "rb") as handle:
            content = handle.read()

        def call():
            return platform_lists.import_list(self.db, self.actor, platform_id, content, path, delivered)

        return op(self, call).titled("Lista recusada").changes(Entity.PLATFORM_LIST) \
            .background("Importando a lista", "Lendo, conferindo e conciliando…").success(self._imported).run()

    def _imported(self, report) -> None:

        self.last_report = report
        self.reload()
        self.tabs.setCurrentIndex(1)
        show_info(self, "Lista importada", report.summary())

    def choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Exportar conciliação", "conciliacao.csv", "CSV (*.csv)")
        if path:
            self.export_to(path)

    def export_to(self, path: str) -> bool:

        platform_id = self.platform_id
        return op(self, lambda: platform_lists.export_reconciliation(self.db, self.actor, path,
                                                                     platform_id=platform_id)).run()

    # -- from a line to an auto (the fiscal decides) -----------------------------------------------------------
    def auto_form(self, line):
        """The auto form filled with the facts of a reconciliation line (not shown)."""

        dialog = AutoFormDialog(self.db, self.actor, self)
        dialog.platform_list_row_id = line.row_id     # the auto answers this line (services.platform_lists)
        if line.driver_id is not None:
            dialog.driver_picker.set_choice(line.driver_id, f"{_cpf(line.driver_cpf)}")
        if line.vehicle_id is not None:     # the listed vehicle (issue 27 journey (d): the auto printed the driver's
            dialog.vehicle_picker.set_choice(line.vehicle_id, _plate(line.plate))   # own car for a pair mismatch)
        elif line.driver_id is None and line.plate:
            dialog.vehicle_picker.edit.setText(_plate(line.plate))
            dialog.vehicle_picker.search_now()
        if self.platform_id is not None:
            row = self.platforms.selected()
            dialog.platform_picker.set_choice(self.platform_id, row.trade_name if row else "")
        where = f"linha {line.line} da lista" if line.line else "conciliação das listas"
        dialog.description_edit.setPlainText(
            f"Conciliação da lista da plataforma ({where}): condutor {_cpf(line.driver_cpf)}, placa "
            f"{_plate(line.plate)} — {line.label} ({line.article}). {line.detail}")
        return dialog

    def _line_chosen(self, line) -> None:
        """A line that already gave its auto offers no other (the service refuses a second one too)."""
        done = line is not None and line.auto_number is not None
        self.auto_button.setEnabled(self.platform_id is not None and not done)
        self.auto_button.setToolTip(f"Esta linha já deu origem ao auto nº {line.auto_number}." if done else
                                    "Abre o auto de infração preenchido com os fatos da linha (o fiscal decide)")

    def draw_up_auto(self):
        line = self.reconciliation.selected()
        if line is None or line.auto_number is not None:
            return None
        dialog = self.auto_form(line)
        self.last_dialog = dialog
        dialog.exec()
        if dialog.saved is not None:
            self.reload()
        return dialog

    # -- data requests (Art. 4) ---------------------------------------------------------------------------------
    def request_dialog(self) -> DataRequestDialog:
        return DataRequestDialog(self.db, self.actor, self.platform_id, self)

    def new_request(self):
        dialog = self.request_dialog()
        self.last_dialog = dialog
        dialog.exec()
        if dialog.saved is not None:
            self.show_platform()
        return dialog

    def print_request(self) -> bool:

        row = self.requests_table.selected()
        if row is None:
            return False
        return op(self, lambda: data_requests.print_data_request(self.db, self.actor, row.id)) \
            .changes(Entity.ISSUED_DOCUMENT).background("Imprimindo o ofício") \
            .success(lambda issued: self._printed(issued, row.number)).run()

    def _printed(self, issued, number: str = "") -> None:
        # the request's own number first, the archive's document number beside it (issue 27 point 7: the preview
        # of "Ofício 0005/2026" was titled with the document number 0003/2026)
        title = (f"Ofício de requisição de dados nº {number} (documento {issued.info.number})" if number
                 else f"Ofício de requisição de dados — documento {issued.info.number}")
        self.last_dialog = PdfPreviewDialog(issued.pdf, title, self)
        self.last_dialog.open()

    def choose_answer(self) -> None:
        row = self.requests_table.selected()
        if row is None:
            return
        path, _ = QFileDialog.getOpenFileName(self, "Arquivo da resposta da plataforma")
        if path:
            self.record_answer(row, path, local_now())

    def record_answer(self, row, path: str, answered_at) -> bool:

        with open(path, "rb") as handle:
            content = handle.read()
        return op(self, lambda: data_requests.answer_data_request(self.db, self.actor, row.id, answered_at,
                                                                  content, path, row.version)) \
            .stale(self.show_platform).changes(Entity.DATA_REQUEST).success(self._answered).run()

    def _answered(self, info) -> None:
        self.show_platform()
        if info.answer_dropped:  # Art. 4 caput (issue 24 item 11): what was not kept, by name
            self.last_answer_note = ("Resposta registrada. Colunas descartadas por identificarem passageiros "
                                     f"(Art. 4): {', '.join(info.answer_dropped)}.")
            show_info(self, "Resposta da plataforma", self.last_answer_note)
