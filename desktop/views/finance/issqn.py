"""Financeiro → ISSQN (issue 13; Art. 11; SPEC §3 "Taxes"): the monthly estimate per vehicle.

Month picker; "Calcular competência" in the background with progress and cancel; totals per platform and for the
month; per platform the vehicles (plate, driver, class, active days, base, rate, amount, guide, paid on,
overdue), a page at a time, with filters; "Emitir guia" per platform; cancel a guide or charge a share to its
driver (the substitute, Art. 11) with a reason; the vehicles without a class (with "Enquadrar…"); the platforms
with unpaid competências; the classes (a new base is a new dated row); a 12-month chart per platform
(matplotlib's Qt canvas, imported only when the chart opens) that also goes into the PDF report; export to Excel.
The screen holds no SQL and no rule: it calls `desktop.services.issqn` through `op()` and draws the actions the
rows carry.
"""
from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop.domain.clock import today
from desktop.domain.formatting import format_date, format_money
from desktop.views.operations import op
from desktop.views.table import Column, RecordTable, enter_presses, keyboard_list
from desktop.views.widgets import DecimalEdit, FieldErrors, date_edit, error_label, qdate_to_date
from desktop.domain.entities import Entity
from desktop.services import issqn
from desktop.signals import bus
from desktop.services.trips.common import TRIP_ROLES
from desktop.services import documents
from desktop.services import trips
from desktop.reports.issqn_report import series_figure
from desktop.views.charts import tidy
from desktop.views.pdf_preview import PdfPreviewDialog

PAGE = 100


def _money(value) -> str:
    return format_money(value, nbsp=True) if value is not None else ""


def _date(value) -> str:
    return format_date(value) if value else ""


SHARE_COLUMNS = (
    Column("Plataforma", lambda r: r.platform_name),
    Column("Placa", lambda r: r.plate_display),
    Column("Condutor", lambda r: r.driver_name),
    Column("Classe", lambda r: r.class_code),
    Column("Dias ativos", lambda r: r.days_active),
    Column("Base", lambda r: r.base, _money),
    Column("Alíquota (%)", lambda r: r.rate),
    Column("Valor", lambda r: r.amount, _money),
    Column("Guia", lambda r: r.guide_number),
    Column("Situação", lambda r: r.situation),
    Column("Vencimento", lambda r: r.due_on, _date),
    Column("Pago em", lambda r: r.paid_on, _date),
    Column("Vencida", lambda r: r.overdue),
)
TOTAL_COLUMNS = (
    Column("Plataforma", lambda t: t.platform_name),
    Column("CNPJ", lambda t: t.cnpj_display),
    Column("Veículos", lambda t: t.vehicles),
    Column("Total", lambda t: t.total, _money),
    Column("Sem guia", lambda t: t.without_guide, _money),
    Column("Em aberto", lambda t: t.open, _money),
    Column("Vencido", lambda t: t.overdue, _money),
    Column("Pago", lambda t: t.paid, _money),
    Column("Guias", lambda t: ", ".join(t.guide_numbers)),
)
CLASS_COLUMNS = (
    Column("Código", lambda c: c.code),
    Column("Descrição", lambda c: c.name),
    Column("Base mensal", lambda c: c.monthly_base, _money),
    Column("Vigente de", lambda c: c.valid_from, _date),
    Column("até", lambda c: c.valid_until, _date),
    Column("Motivo", lambda c: c.reason),
)
DECISION_COLUMNS = (
    Column("A partir de", lambda d: d.valid_from, _date),
    Column("Classe", lambda d: f"{d.class_code} — {d.class_name}"),
    Column("Decidido por", lambda d: d.decided_by_name),
    Column("Motivo", lambda d: d.reason),
)


class IssqnPage(QWidget):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.last_result = None
        self.last_dialog = None
        self.last_issued = self.last_preview = None
        self.chart_dialog = None
        self.run_op = None
        self.offset = 0
        self._stale = False     # data changed while the page was hidden
        current = today()
        last = (current.year - 1, 12) if current.month == 1 else (current.year, current.month - 1)
        from desktop.views.date_fields import DateField   # the program's month field (issue 29 point 2)

        self.month_edit = DateField(self, date(last[0], last[1], 1), month=True, field="month",
                                    label="Competência", maximum=date(current.year, current.month, 1))
        self.month_edit.dateChanged.connect(lambda _d: self.reload())
        self.run_button = QPushButton("Calcular competência", self)
        self.run_button.setToolTip("Estima o ISSQN de cada veículo com autorização ativa no mês (Art. 11)")
        self.run_button.setEnabled(actor.has(*issqn.RUN_ROLES))
        self.run_button.clicked.connect(self.run_competence)
        self.classes_button = QPushButton("Classes de estimativa…", self)
        self.classes_button.clicked.connect(self.open_classes)
        self.chart_button = QPushButton("Gráfico 12 meses…", self)
        self.chart_button.clicked.connect(self.open_chart)
        self.report_button = QPushButton("Relatório PDF…", self)
        self.report_button.clicked.connect(lambda: self.save_report())
        self.export_button = QPushButton("Exportar Excel…", self)
        self.export_button.clicked.connect(lambda: self.export_to())
        top = QHBoxLayout()
        top.addWidget(QLabel("Competência:", self))
        top.addWidget(self.month_edit)
        for b in (self.run_button, self.classes_button, self.chart_button, self.report_button, self.export_button):
            top.addWidget(b)
        top.addStretch(1)
        self.status_label = QLabel(self)
        self.status_label.setWordWrap(True)
        self.month_label = QLabel(self)
        # totals per platform + "Emitir guia"
        self.totals = RecordTable(TOTAL_COLUMNS, self, show_filter=False)
        self.totals.selection_changed.connect(lambda _r: self._update_buttons())
        self.totals.activated.connect(self.open_total)     # Enter / double-click (issue 29 point 1)
        self.issue_button = QPushButton("Emitir guia", self)
        self.issue_button.setToolTip("Uma guia (DAM) por plataforma e competência, com código de barras FEBRABAN")
        self.issue_button.clicked.connect(self.issue_guide)
        self.print_button = QPushButton("Imprimir guia", self)
        self.print_button.clicked.connect(lambda: self.print_guide())
        # issue 28 point 4: the estimate is a lançamento — its notice per platform and competência (CTN art. 145)
        self.notice_button = QPushButton("Notificação de lançamento", self)
        self.notice_button.setToolTip("Notifica a plataforma do ISSQN estimado da competência: veículos, classes, "
                                      "bases, alíquota, valor, vencimento e prazo para impugnar (CTN, arts. 142, "
                                      "145 e 148)")
        self.notice_button.clicked.connect(lambda: self.print_notice())
        totals_box = QGroupBox("Totais por plataforma", self)
        tl = QVBoxLayout(totals_box)
        tl.addWidget(self.totals, 1)
        row = QHBoxLayout()
        row.addWidget(self.issue_button)
        row.addWidget(self.print_button)
        row.addWidget(self.notice_button)
        row.addStretch(1)
        row.addWidget(self.month_label)
        tl.addLayout(row)
        # filters + shares
        self.platform_filter = QComboBox(self)
        self.platform_filter.addItem("Todas as plataformas", None)
        for pid, name, cnpj in issqn.platform_choices(db, actor):
            self.platform_filter.addItem(f"{name} ({cnpj})", pid)
        self.situation_filter = QComboBox(self)
        for key, label in issqn.SITUATIONS.items():
            self.situation_filter.addItem(label, key)
        self.text_filter = QLineEdit(self)
        self.text_filter.setPlaceholderText("Placa, classe ou nome do condutor…")
        self.text_filter.setClearButtonEnabled(True)
        for widget in (self.platform_filter, self.situation_filter):
            widget.currentIndexChanged.connect(lambda _i: self.reload_rows())
        self.text_filter.textChanged.connect(lambda _t: self.reload_rows())
        self.shares = RecordTable(SHARE_COLUMNS, self, show_filter=False)
        self.shares.selection_changed.connect(lambda _r: self._update_buttons())
        self.more_button = QPushButton("Mais linhas", self)
        self.more_button.clicked.connect(self.more_rows)
        self.count_label = QLabel(self)
        self.cancel_button = QPushButton("Cancelar guia…", self)
        self.cancel_button.clicked.connect(self.cancel_guide)
        self.driver_button = QPushButton("Cobrar do condutor (substituto)…", self)
        # issue 15: the fares the platforms reported for the vehicle that month and the nearest class (Art. 11 §1)
        self.fares_button = QPushButton("Tarifas informadas…", self)
        self.fares_button.clicked.connect(lambda: self.show_fares())
        self.driver_button.clicked.connect(self.charge_driver)
        enter_presses(self.shares, self.fares_button)     # Enter on a vehicle: its fares and class (issue 29)
        shares_box = QGroupBox("Veículos da competência", self)
        sl = QVBoxLayout(shares_box)
        filters = QHBoxLayout()
        filters.addWidget(self.platform_filter)
        filters.addWidget(self.situation_filter)
        filters.addWidget(self.text_filter, 1)
        sl.addLayout(filters)
        sl.addWidget(self.shares, 1)
        actions = QHBoxLayout()
        actions.addWidget(self.cancel_button)
        actions.addWidget(self.driver_button)
        actions.addWidget(self.fares_button)
        actions.addStretch(1)
        actions.addWidget(self.count_label)
        actions.addWidget(self.more_button)
        sl.addLayout(actions)
        # problems
        self.unclassified = QListWidget(self)
        # Enter or a double-click on a vehicle without a class: "Enquadrar…" (issue 29 point 1)
        self.unclassified.itemActivated.connect(lambda item: self.classify(item.data(Qt.ItemDataRole.UserRole)))
        keyboard_list(self.unclassified)
        self.classify_button = QPushButton("Enquadrar veículo…", self)
        self.classify_button.clicked.connect(lambda: self.classify(self._selected_unclassified()))
        self.unpaid = QListWidget(self)
        # Enter on a platform with open competências: its first open month, its vehicles (issue 29 point 1)
        self.unpaid.itemActivated.connect(lambda item: self.open_unpaid(item.data(Qt.ItemDataRole.UserRole)))
        keyboard_list(self.unpaid)
        side = QWidget(self)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(QLabel("<b>Veículos sem classe (Art. 11, §1)</b>", side))
        side_layout.addWidget(self.unclassified, 1)
        side_layout.addWidget(self.classify_button)
        side_layout.addWidget(QLabel("<b>Plataformas com competências em aberto</b>", side))
        side_layout.addWidget(self.unpaid, 1)
        main = QWidget(self)
        ml = QVBoxLayout(main)
        ml.setContentsMargins(0, 0, 0, 0)
        ml.addWidget(totals_box, 2)
        ml.addWidget(shares_box, 5)
        splitter = QSplitter(self)
        splitter.addWidget(main)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 4)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(QLabel("<h3>ISSQN estimado por veículo (Art. 11)</h3>", self))
        layout.addLayout(top)
        layout.addWidget(self.status_label)
        layout.addWidget(splitter, 1)

        bus.data_changed.connect(self._data_changed)
        self.reload()

    # -- reading ----------------------------------------------------------------------------------------------
    def month(self) -> tuple[int, int]:
        d = self.month_edit.date()
        return d.year(), d.month()

    def set_month(self, year: int, month: int) -> None:
        self.month_edit.setDate(QDate(year, month, 1))

    def _data_changed(self, entity: str) -> None:
        import shiboken6  # lazy: Qt loads only when this runs (start-up cost)

        if not shiboken6.isValid(self):     # the bus outlives a closed screen
            return
        if entity in (Entity.ISSQN, Entity.GUIDES, Entity.DEMO):
            if self.isVisible():
                self.reload()
            else:       # a guide paid by the bank's file in another tab: read again when shown (issue 27)
                self._stale = True

    def showEvent(self, event) -> None:  # noqa: N802 — Qt name
        super().showEvent(event)
        if self._stale:
            self._stale = False
            self.reload()

    def reload(self) -> None:

        year, month = self.month()
        totals = issqn.month_totals(self.db, self.actor, year, month)
        self.totals.set_rows(list(totals.platforms), keep=lambda t: t.platform_id)
        self.month_label.setText(
            f"<b>{month:02d}/{year}: {totals.vehicles} veículos · total {_money(totals.total)} · pago "
            f"{_money(totals.paid)} · vencido {_money(totals.overdue)}</b>")
        # the vehicles without a class read every authorization of the month (≈ 1 s for 10,000): off the UI
        # thread, so the first page shows at once
        self.unclassified.clear()
        self.unclassified.addItem("Verificando…")
        self.unclassified_op = op(self, lambda: issqn.unclassified_vehicles(self.db, self.actor, year, month)) \
            .success(lambda problems: self._show_unclassified(year, month, problems)) \
            .background(show_progress=False)
        self.unclassified_op.run()
        self.unpaid.clear()
        for u in issqn.unpaid_platforms(self.db, self.actor):
            flag = " — VENCIDA" if u.overdue else ""
            item = QListWidgetItem(f"{u.platform_name}: {', '.join(u.competences)} ({_money(u.amount)}){flag}")
            item.setData(Qt.ItemDataRole.UserRole, (u.platform_id, u.competences[0] if u.competences else None))
            self.unpaid.addItem(item)
        self.reload_rows()

    def _show_unclassified(self, year: int, month: int, problems) -> None:
        import shiboken6  # lazy: Qt loads only when this runs (start-up cost)

        if not shiboken6.isValid(self) or self.month() != (year, month):
            return
        self.unclassified.clear()
        for problem in problems:
            item = QListWidgetItem(f"{problem.plate_display} — {problem.driver_name}: {problem.message}")
            item.setData(Qt.ItemDataRole.UserRole, (problem.vehicle_id, problem.plate_display))
            self.unclassified.addItem(item)

    def _filters(self) -> dict:
        return {"platform_id": self.platform_filter.currentData(), "text": self.text_filter.text(),
                "situation": self.situation_filter.currentData() or ""}

    def reload_rows(self) -> None:

        year, month = self.month()
        self.offset = 0
        rows = issqn.share_rows(self.db, self.actor, year, month, offset=0, limit=PAGE, **self._filters())
        self.shares.set_rows(rows, keep=lambda r: r.share_id)
        self._count = issqn.share_count(self.db, self.actor, year, month, **self._filters())
        self._show_count()

    def more_rows(self) -> None:

        year, month = self.month()
        self.offset += PAGE
        rows = issqn.share_rows(self.db, self.actor, year, month, offset=self.offset, limit=PAGE, **self._filters())
        self.shares.set_rows(self.shares.model.rows() + rows, keep=lambda r: r.share_id)
        self._show_count()

    def _show_count(self) -> None:
        shown = len(self.shares.model.rows())
        self.count_label.setText(f"{shown} de {self._count} linhas")
        self.more_button.setEnabled(shown < self._count)
        self._update_buttons()

    def _update_buttons(self) -> None:

        total = self.totals.selected()
        self.issue_button.setEnabled(bool(total and total.platform_id and total.without_guide > 0
                                          and self.actor.has(*issqn.ISSUE_ROLES)))
        self.print_button.setEnabled(bool(total and total.guide_numbers))
        self.notice_button.setEnabled(bool(total and total.platform_id and self.actor.has(*issqn.ISSUE_ROLES)))
        share = self.shares.selected()
        for button, key in ((self.cancel_button, "cancel_guide"), (self.driver_button, "charge_driver")):
            action = next((a for a in share.actions if a.key == key), None) if share else None
            button.setEnabled(bool(action and action.enabled))
            button.setToolTip(action.tooltip if action else "Selecione um veículo")
        self.classify_button.setEnabled(self.actor.has(*issqn.DECIDE_ROLES))

        may_see = self.actor.has(*TRIP_ROLES)
        self.fares_button.setEnabled(bool(share) and may_see)
        self.fares_button.setToolTip("As tarifas que as plataformas informaram para o veículo no mês e a classe de "
                                     "base mais próxima" if may_see else "Exige o perfil Fiscal ou Gestor "
                                     "(dados de viagens, Art. 4º)")

    def open_total(self, total) -> None:
        """Enter on a platform's total: that platform's vehicles of the competência, below (its detail)."""
        if total is None or total.platform_id is None:
            return
        self._show_platform(total.platform_id)

    def _show_platform(self, platform_id: int) -> None:
        index = self.platform_filter.findData(platform_id)
        if index >= 0:
            self.platform_filter.setCurrentIndex(index)
        self.shares.view.setFocus(Qt.FocusReason.OtherFocusReason)     # its first vehicle selected

    def open_unpaid(self, target) -> None:
        """A platform with competências in the open: that platform's vehicles in its first open month."""
        if not target:
            return
        platform_id, competence = target
        if competence:
            month, year = (int(part) for part in competence.split("/"))
            if (year, month) != self.month():
                self.set_month(year, month)
        self._show_platform(platform_id)

    def _selected_unclassified(self):
        item = self.unclassified.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    # -- the run ----------------------------------------------------------------------------------------------
    def run_competence(self) -> None:

        year, month = self.month()
        self.status_label.setText(f"Calculando a competência {month:02d}/{year}…")
        self.run_op = op(self, lambda state: issqn.run_competence(self.db, self.actor, year, month, state)) \
            .changes(Entity.ISSQN).success(self._ran).cancelled(lambda: self.status_label.setText(
                "Cálculo cancelado: nada foi gravado.")) \
            .background("ISSQN", f"Calculando a competência {month:02d}/{year}…", pass_state=True)
        self.run_op.run()

    def _ran(self, result) -> None:
        self.last_result = result
        self.status_label.setText(result.summary())
        self.reload()

    # -- guides -------------------------------------------------------------------------------------------------
    def issue_guide(self) -> None:

        total = self.totals.selected()
        if total is None or total.platform_id is None:
            return
        year, month = self.month()
        op(self, lambda: issqn.issue_issqn_guide(self.db, self.actor, total.platform_id, year, month)) \
            .changes(Entity.ISSQN, Entity.GUIDES).success(self._issued).run()

    def _issued(self, guide) -> None:
        self.last_guide = guide
        self.status_label.setText(f"Guia nº {guide.number} emitida para {guide.payer_name}: {_money(guide.amount)}, "
                                  f"vencimento {_date(guide.due_on)}.")
        self.reload()
        self.totals.select_where(lambda t: t.platform_id == guide.platform_id)

    def print_guide(self, number: str | None = None) -> None:
        """Print (and archive) the selected platform's open guide, shown in the preview to print or save."""

        total = self.totals.selected()
        number = number or (total.guide_numbers[-1] if total and total.guide_numbers else None)
        if not number:
            return

        def shown(issued):

            self.last_issued = issued
            self.last_preview = PdfPreviewDialog(issued.pdf, f"DAM nº {number}", self,
                                                 suggested_name=f"dam-{number.replace('/', '-')}.pdf")
            self.last_preview.show()

        self.print_op = op(self, lambda: documents.print_guide(self.db, self.actor, number)) \
            .changes(Entity.DOCUMENTS).success(shown).background("Guia (DAM)", f"Gerando a guia nº {number}…")
        self.print_op.run()

    def print_notice(self):
        """The selected platform's notice of the estimated lançamento, archived and shown (the service refuses a
        month in progress and says why)."""
        total = self.totals.selected()
        if total is None or total.platform_id is None:
            return None
        year, month = self.month()

        def shown(issued):
            self.last_issued = issued
            self.last_preview = PdfPreviewDialog(issued.pdf, f"Notificação de lançamento do ISSQN {month:02d}/{year}",
                                                 self, suggested_name=f"lancamento-issqn-{month:02d}-{year}.pdf")
            self.last_preview.show()

        self.notice_op = op(self, lambda state: issqn.print_lancamento_notice(self.db, self.actor, total.platform_id,
                                                                               year, month, state=state)) \
            .titled("Notificação de lançamento").changes(Entity.DOCUMENTS).success(shown) \
            .background("ISSQN", "Gerando a notificação de lançamento…", pass_state=True)
        self.notice_op.run()
        return self.notice_op

    def cancel_guide(self) -> None:

        share = self.shares.selected()
        if share is None or share.guide_id is None:
            return
        self.last_dialog = ReasonDialog(
            f"Cancelar a guia nº {share.guide_number}",
            "As cotas da guia voltam a ficar sem guia; o cálculo pode ser refeito e outra guia emitida.",
            lambda reason: issqn.cancel_issqn_guide(self.db, self.actor, share.guide_id, reason), self)
        self.last_dialog.done_callback = self.reload
        self.last_dialog.open()

    def charge_driver(self) -> None:

        share = self.shares.selected()
        if share is None:
            return
        self.last_dialog = ReasonDialog(
            f"Cobrar do condutor — {share.plate_display}",
            f"A cota de {_money(share.amount)} sai da guia vencida nº {share.guide_number} (cancelada e reemitida "
            f"sem ela) e vai para uma guia em nome de {share.driver_name}, substituto tributário (Art. 11).",
            lambda reason: issqn.charge_share_to_driver(self.db, self.actor, share.share_id, reason), self)
        self.last_dialog.done_callback = self.reload
        self.last_dialog.open()

    # -- classes ------------------------------------------------------------------------------------------------
    def classify(self, target) -> None:
        if not target:
            return
        vehicle_id, plate = target
        year, month = self.month()      # in force from the competência shown, so the run can count it
        self.last_dialog = ClassDecisionDialog(self.db, self.actor, vehicle_id, plate, self,
                                               valid_from=date(year, month, 1))
        self.last_dialog.done_callback = self.reload
        self.last_dialog.open()

    def show_fares(self, share=None):
        """Issue 15 beside the estimate: the fares reported for the vehicle that month (Art. 4 §1 V) and the class
        whose base is nearest, offered to the gestor as a reclassification to decide (the dialog, never applied
        by itself)."""

        share = share or self.shares.selected()
        if share is None:
            return None
        year, month = self.month()
        found = {}
        op(self, lambda: (trips.fares_of_vehicle_month(self.db, self.actor, share.vehicle_id, year, month),
                          trips.nearest_class_suggestion(self.db, self.actor, share.vehicle_id, year, month))) \
            .success(lambda result: found.setdefault("result", result)).run()
        if "result" not in found:
            return None
        fares, suggestion = found["result"]
        text = fares_text(share, fares, suggestion, year, month)
        self.last_dialog = ClassDecisionDialog(self.db, self.actor, share.vehicle_id, share.plate_display, self,
                                               valid_from=date(year, month, 1), info=text,
                                               suggested_code=suggestion.code if suggestion else None,
                                               reason=(f"Tarifas informadas em {month:02d}/{year}: "
                                                       f"{_money(fares.total)}" if fares.trips else ""))
        self.last_dialog.done_callback = self.reload
        self.last_dialog.open()
        return self.last_dialog

    def open_classes(self) -> None:
        self.last_dialog = ClassesDialog(self.db, self.actor, self)
        self.last_dialog.open()

    # -- chart, report, export ----------------------------------------------------------------------------------
    def open_chart(self) -> None:

        year, month = self.month()
        series = issqn.platform_series(self.db, self.actor, year, month)
        self.chart_dialog = ChartDialog(series, year, month, self)
        self.chart_dialog.show()

    def save_report(self, path: str | None = None) -> None:

        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Relatório do ISSQN", "issqn.pdf", "PDF (*.pdf)")
            if not path:
                return
        year, month = self.month()

        def write(result):
            self.status_label.setText(f"Relatório gravado em {path}.")

        self.report_op = op(self, lambda: issqn.write_report(self.db, self.actor, year, month, path)) \
            .success(write).background("ISSQN", "Gerando o relatório…")
        self.report_op.run()

    def export_to(self, path: str | None = None) -> None:

        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Exportar ISSQN", "issqn.xlsx",
                                                  "Planilha Excel (*.xlsx);;CSV (*.csv)")
            if not path:
                return
        year, month = self.month()
        self.export_op = op(self, lambda: issqn.export_issqn(self.db, self.actor, year, month, path)) \
            .success(lambda r: self.status_label.setText(f"{r.rows} linhas exportadas para {r.path}.")) \
            .background("ISSQN", "Exportando…")
        self.export_op.run()


class ReasonDialog(QDialog):
    """A reason for a cancellation or a substitution; the call runs on "Confirmar"."""

    def __init__(self, title: str, text: str, call, parent=None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.call = call
        self.done_callback = None
        self.reason_edit = QLineEdit(self)
        self.general = error_label(self)
        self.reason_error = error_label(self)
        self.errors = FieldErrors(self.general)
        self.errors.add("reason", self.reason_edit, self.reason_error)
        label = QLabel(text, self)
        label.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Confirmar")
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(label)
        form.addRow("Motivo:", self.reason_edit)
        form.addRow(self.reason_error)
        form.addRow(self.general)
        form.addRow(buttons)

    def save(self) -> bool:
        def ok(_result):
            self.accept()
            if self.done_callback:
                self.done_callback()

        return op(self, lambda: self.call(self.reason_edit.text())).fields(self.errors) \
            .changes(Entity.ISSQN, Entity.GUIDES).success(ok).run()


def fares_text(share, fares, suggestion, year: int, month: int) -> str:
    """What the gestor reads before deciding a reclassification (issue 15 beside issue 13)."""
    if not fares.trips:
        return (f"Nenhuma viagem do veículo {share.plate_display} foi informada pelas plataformas em "
                f"{month:02d}/{year}: não há tarifas para comparar com a base da classe {share.class_code}.")
    text = (f"Em {month:02d}/{year} as plataformas ({', '.join(fares.platforms)}) informaram {fares.trips} viagem(ns) "
            f"do veículo {share.plate_display}, {_money(fares.total)} em tarifas. Classe atual: {share.class_code} "
            f"(base {_money(share.base)}).")
    if suggestion is not None:
        text += (f" Classe de base mais próxima das tarifas: {suggestion.code} — {suggestion.name} "
                 f"(base {_money(suggestion.monthly_base)}). Reenquadrar é uma decisão do gestor, com motivo.")
    return text


class ClassDecisionDialog(QDialog):
    """The gestor places a vehicle in an estimation class from a date, with the reason (Art. 11 §1)."""

    def __init__(self, db, actor, vehicle_id: int, plate: str, parent=None, valid_from: date | None = None,
                 info: str = "", suggested_code: str | None = None, reason: str = ""):
        super().__init__(parent)

        self.db, self.actor, self.vehicle_id = db, actor, vehicle_id
        self.done_callback = None
        self.setWindowTitle(f"Enquadrar o veículo {plate} (Art. 11, §1)")
        self.class_combo = QComboBox(self)
        for c in issqn.list_classes(db, actor, on=today()):
            self.class_combo.addItem(f"{c.code} — {c.name} ({_money(c.monthly_base)})", c.id)
            if suggested_code is not None and c.code == suggested_code:
                self.class_combo.setCurrentIndex(self.class_combo.count() - 1)
        self.from_edit = date_edit(self, valid_from or today().replace(day=1))
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setText(reason)
        self.general = error_label(self)
        self.errors = FieldErrors(self.general)
        form = QFormLayout(self)
        self.info_label = QLabel(info, self)
        self.info_label.setWordWrap(True)
        self.info_label.setVisible(bool(info))
        form.addRow(self.info_label)
        for field, label, widget in (("class_id", "Classe:", self.class_combo), ("valid_from", "A partir de:",
                                                                                    self.from_edit),
                                     ("reason", "Motivo:", self.reason_edit)):
            err = error_label(self)
            self.errors.add(field, widget, err)
            form.addRow(label, widget)
            form.addRow(err)
        self.history = RecordTable(DECISION_COLUMNS, self, show_filter=False)
        self.history.set_rows(issqn.vehicle_class_history(db, actor, vehicle_id))
        form.addRow(QLabel("Histórico de enquadramentos:", self))
        form.addRow(self.history)
        form.addRow(self.general)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def save(self) -> bool:

        def ok(_r):
            self.accept()
            if self.done_callback:
                self.done_callback()

        return op(self, lambda: issqn.decide_vehicle_class(
            self.db, self.actor, self.vehicle_id, self.class_combo.currentData(),
            qdate_to_date(self.from_edit.date()), self.reason_edit.text())) \
            .fields(self.errors).changes(Entity.ISSQN, Entity.VEHICLES).success(ok).run()


class ClassesDialog(QDialog):
    """The estimation classes with their history; a new class or a new base (a new dated row)."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setWindowTitle("Classes de estimativa do ISSQN (Art. 11, §1)")
        self.table = RecordTable(CLASS_COLUMNS, self, show_filter=False)
        self.table.selection_changed.connect(self._picked)
        self.code_edit = QLineEdit(self)
        self.name_edit = QLineEdit(self)
        self.base_edit = DecimalEdit(self, "R$ ")
        self.from_edit = date_edit(self, today().replace(day=1))
        self.reason_edit = QLineEdit(self)
        self.general = error_label(self)
        self.errors = FieldErrors(self.general)
        form = QFormLayout()
        for field, label, widget in (("code", "Código:", self.code_edit), ("name", "Descrição:", self.name_edit),
                                     ("monthly_base", "Base mensal estimada:", self.base_edit),
                                     ("valid_from", "Vigente a partir de:", self.from_edit),
                                     ("reason", "Motivo:", self.reason_edit)):
            err = error_label(self)
            self.errors.add(field, widget, err)
            form.addRow(label, widget)
            form.addRow(err)
        self.new_class_button = QPushButton("Nova classe", self)
        self.new_class_button.clicked.connect(self.new_class)
        self.new_base_button = QPushButton("Nova base para a classe", self)
        self.new_base_button.clicked.connect(self.new_base)

        can = actor.has(*issqn.DECIDE_ROLES)
        self.new_class_button.setEnabled(can)
        self.new_base_button.setEnabled(can)
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_class_button)
        buttons.addWidget(self.new_base_button)
        buttons.addStretch(1)
        close = QPushButton("Fechar", self)
        close.clicked.connect(self.accept)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(form)
        layout.addWidget(self.general)
        layout.addLayout(buttons)
        self.reload()

    def reload(self) -> None:

        self.table.set_rows(issqn.list_classes(self.db, self.actor))

    def _picked(self, row) -> None:
        if row is not None:
            self.code_edit.setText(row.code)
            self.name_edit.setText(row.name)

    def _base(self):
        try:
            return self.base_edit.value()
        except ValueError:
            return self.base_edit.text()

    def new_class(self) -> bool:

        return op(self, lambda: issqn.create_class(self.db, self.actor, self.code_edit.text(), self.name_edit.text(),
                                                   self._base(), qdate_to_date(self.from_edit.date()),
                                                   self.reason_edit.text())) \
            .fields(self.errors).changes(Entity.ISSQN).success(lambda _r: self.reload()).run()

    def new_base(self) -> bool:

        return op(self, lambda: issqn.new_class_base(self.db, self.actor, self.code_edit.text(), self._base(),
                                                     qdate_to_date(self.from_edit.date()), self.reason_edit.text(),
                                                     self.name_edit.text() or None)) \
            .fields(self.errors).changes(Entity.ISSQN).success(lambda _r: self.reload()).run()


class ChartDialog(QDialog):
    """The last 12 competências per platform (total and paid). matplotlib is imported here, when it opens."""

    def __init__(self, series, year: int, month: int, parent=None):
        super().__init__(parent)
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg  # lazy: matplotlib loads only when this runs (start-up cost)

        self.setWindowTitle(f"ISSQN — 12 competências até {month:02d}/{year}")
        self.figure = series_figure(series, year, month)

        tidy(self.figure)
        self.canvas = FigureCanvasQTAgg(self.figure)
        layout = QVBoxLayout(self)
        layout.addWidget(self.canvas)
        self.resize(900, 520)

    def done(self, result: int) -> None:   # free the figure's memory with the window
        self.figure.clear()
        super().done(result)


