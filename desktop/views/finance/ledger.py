"""Financeiro → the fines ledger in UPFM (SPEC §3; Art. 25, 28): every entry (lazy, keyset pages), an
infractor's page with autos, recurrences, balance and statement at any date, the overdue list and the list to
send to dívida ativa. Nothing here edits an entry: the ledger is append-only (STYLE: Tryton's move).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from PySide6.QtCore import QDate, Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QGridLayout, QHBoxLayout, QLabel, QMessageBox, QPushButton,
                               QSplitter, QVBoxLayout, QWidget)

from desktop.domain.dates import local_today
from desktop.domain.formatting import format_date, format_datetime, format_money, format_upfm
from desktop.domain.ledger import EntryKind
from desktop.domain.steps import find_action
from desktop.background import Task
from desktop.views.enforcement.lazy_table import LazyColumn, LazyRecordTable
from desktop.views.enforcement.lookups import Lookups
from desktop.views.enforcement.widgets import InfoGrid, SearchPicker
from desktop.views.operations import query_op
from desktop.views.table import Column, RecordTable
from desktop.views.widgets import date_edit, qdate_to_date, show_error
from desktop.domain.entities import Entity
from desktop.services.ledger import Infractor
from desktop.views.enforcement.lookups import service_lookups
from desktop.services.ledger import LedgerFilter
from desktop.services import ledger
from desktop.domain.roles import Role
from desktop.views.enforcement.widgets import ReasonDialog
from PySide6.QtWidgets import QDialog
from desktop.signals import bus
from desktop.services import autos
from desktop.services import documents
from desktop.views.operations import op
from desktop.views.pdf_preview import PdfPreviewDialog


def infractor_search(lookups: Lookups):
    """Drivers and platforms in one picker: the debtor of a fine is either (Art. 20, 22)."""

    def search(text: str):

        found = [(Infractor.driver(i), f"Condutor: {label}") for i, label in lookups.drivers(text)]
        found += [(Infractor.platform(i), f"Plataforma: {label}") for i, label in lookups.platforms(text)]
        return found

    return search


def signed_upfm(value: Decimal) -> str:
    return format_upfm(value)


def entry_upfm(value: Decimal) -> str:
    """An entry's UPFM; "—" for an entry of reais only (Art. 28 costs, their payment or reversal: issue 23.6)."""
    return "—" if Decimal(value) == 0 else format_upfm(value)


# -- Lançamentos: the whole ledger, lazily ------------------------------------------------------------------
LEDGER_COLUMNS = (
    LazyColumn("Data", lambda e: e.effective_on),
    LazyColumn("Lançado em", lambda e: e.posted_at, lambda v: format_datetime(v)),
    LazyColumn("Lançamento", lambda e: e.kind_label),
    LazyColumn("Infrator", lambda e: e.infractor_name),
    LazyColumn("Auto", lambda e: e.auto_number),
    LazyColumn("UPFM", lambda e: e.amount_upfm, entry_upfm),
    LazyColumn("R$", lambda e: e.amount_reais, format_money),
    LazyColumn("Guia", lambda e: e.guide_number),
    LazyColumn("Motivo", lambda e: e.reason),
)


class LedgerScreen(QWidget):
    """Every posted entry, newest first, a page at a time (`services.ledger.ledger_page`): opens at once over a
    million entries and loads more only as the user scrolls. The totals line is one aggregate query."""

    auto_opened = Signal(int)               # Enter / double-click on an entry of an auto: the auto's page
    infractor_opened = Signal(object, str)  # … on an entry of no auto (a fee, a cost): the infractor's statement

    def __init__(self, db, actor, parent=None, lookups: Lookups | None = None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.lookups = lookups or service_lookups(db, actor)
        self._generation = 0
        self.totals_task = None
        filters = QWidget(self)
        grid = QGridLayout(filters)
        grid.setContentsMargins(0, 0, 0, 0)
        self.infractor_picker = SearchPicker(infractor_search(self.lookups), "Infrator: nome, CPF ou CNPJ…",
                                             filters, empty_text="Todos os infratores")
        self.kind_combo = QComboBox(filters)
        self.kind_combo.addItem("Todos os lançamentos", None)
        for kind in EntryKind:
            self.kind_combo.addItem(kind.label, kind)
        self.period_check = QCheckBox("Período de", filters)
        today = local_today()
        self.from_edit = date_edit(filters, date(today.year, 1, 1))
        self.to_edit = date_edit(filters, today)
        for edit in (self.from_edit, self.to_edit):
            edit.setEnabled(False)
            self.period_check.toggled.connect(edit.setEnabled)
            edit.dateChanged.connect(lambda _d: self.period_check.isChecked() and self.reload())
        self.totals_label = QLabel(filters)
        self.totals_label.setStyleSheet("font-weight: bold;")
        self.reverse_button = QPushButton("Estornar lançamento…", filters)
        self.reverse_button.setToolTip("Gestor: um estorno aponta para o lançamento de origem; nada é apagado.")
        self.reverse_button.setEnabled(False)
        self.reverse_button.clicked.connect(self.reverse_selected)
        self.infractor_picker.setMinimumWidth(360)
        self.kind_combo.setMaximumWidth(300)
        period = QWidget(filters)
        period_layout = QHBoxLayout(period)
        period_layout.setContentsMargins(0, 0, 0, 0)
        period_layout.addWidget(self.period_check)
        period_layout.addWidget(self.from_edit)
        period_layout.addWidget(QLabel("a", period))
        period_layout.addWidget(self.to_edit)
        period_layout.addStretch(1)
        grid.addWidget(self.infractor_picker, 0, 0)
        grid.addWidget(self.kind_combo, 0, 1)
        grid.addWidget(period, 1, 0)
        grid.addWidget(self.reverse_button, 1, 1)
        grid.addWidget(self.totals_label, 2, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        self.table = LazyRecordTable(LEDGER_COLUMNS, self, filters=filters)
        self.table.model.failed.connect(lambda error: show_error(self, error, "Não foi possível ler o extrato"))
        self.table.selection_changed.connect(self._selection_changed)
        self.table.activated.connect(self.open_entry)     # issue 29 point 1
        self.infractor_picker.changed.connect(lambda _v: self.reload())
        self.kind_combo.currentIndexChanged.connect(lambda _i: self.reload())
        self.period_check.toggled.connect(lambda _v: self.reload())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        self.reload()

    def current_filter(self):

        checked = self.period_check.isChecked()
        return LedgerFilter(infractor=self.infractor_picker.value(), kind=self.kind_combo.currentData(),
                            date_from=qdate_to_date(self.from_edit.date()) if checked else None,
                            date_to=qdate_to_date(self.to_edit.date()) if checked else None)

    def reload(self) -> None:

        query = self.current_filter()

        def load(cursor, limit):
            page = ledger.ledger_page(self.db, self.actor, query, after=cursor, limit=limit)
            return page.entries, page.next_cursor

        self.table.reset(load)
        self._generation += 1
        generation = self._generation
        self.totals_label.setText("Somando os lançamentos…")
        db, actor = self.db, self.actor

        def totals(state):
            return ledger.ledger_totals(db, actor, query)

        def show(result):
            if generation != self._generation:   # a newer filter is already on screen
                return
            count, total = result
            self.totals_label.setText(f"{count} lançamento(s) — saldo dos lançamentos filtrados: "
                                      f"{format_upfm(total)}")

        def failed(_error):
            if generation == self._generation:
                self.totals_label.clear()   # the table already reported a failure of the same query

        # one aggregate over the whole table (≈ 0.5 s for 1,000,000 entries): off the UI thread, so the list
        # opens with its first page at once
        self.totals_task = Task(totals).success(show).failure(failed).run_in_background(self, show_progress=False)

    def open_entry(self, entry) -> None:
        if entry is None:
            return
        if entry.auto_id is not None:
            self.auto_opened.emit(entry.auto_id)
        else:
            self.infractor_opened.emit(entry.infractor, entry.infractor_name)

    def _selection_changed(self, entry) -> None:

        # a reversal is never reversed; a requalification follows its decision (services.ledger.reverse_entry)
        self.reverse_button.setEnabled(entry is not None and self.actor.has(Role.GESTOR)
                                       and str(entry.kind) not in (EntryKind.REVERSAL.value,
                                                                   EntryKind.REQUALIFICATION.value))

    def reverse_dialog(self):
        """The dialog that reverses the selected entry (a returned payment, an undue cost) with its reason."""

        entry = self.table.selected()
        if entry is None:
            return None
        return ReasonDialog(
            "Estornar lançamento",
            f"{entry.kind_label} de {format_date(entry.effective_on)} — {format_upfm(entry.amount_upfm)} "
            f"({format_money(entry.amount_reais)}), {entry.infractor_name}. O estorno é um novo lançamento de "
            "valor oposto que aponta para este; nada é apagado. Informe o motivo:",
            self, submit=lambda reason: ledger.reverse_entry(self.db, self.actor, entry.id, reason),
            ok_text="Estornar")

    def reverse_selected(self) -> None:

        dialog = self.reverse_dialog()
        if dialog is not None and dialog.exec() == QDialog.DialogCode.Accepted:
            bus.data_changed.emit(Entity.LEDGER)
            self.reload()


# -- Infrator: autos, recurrences, balance and statement at a date ------------------------------------------
@dataclass(frozen=True)
class StatementLine:
    entry: object
    balance: Decimal


STATEMENT_COLUMNS = (
    Column("Data", lambda s: s.entry.effective_on),
    Column("Lançamento", lambda s: s.entry.kind_label),
    Column("Auto", lambda s: s.entry.auto_number),
    Column("UPFM", lambda s: s.entry.amount_upfm, entry_upfm),
    Column("R$", lambda s: s.entry.amount_reais, format_money),
    Column("Saldo (UPFM)", lambda s: s.balance, signed_upfm),
    Column("Motivo", lambda s: s.entry.reason),
)
INFRACTOR_AUTO_COLUMNS = (
    Column("Número", lambda a: a.number),
    Column("Lavrado em", lambda a: a.drawn_up_at),
    Column("Código", lambda a: a.code),
    Column("Situação", lambda a: a.status_label),
    Column("UPFM", lambda a: a.amount_upfm, format_upfm),
    Column("R$", lambda a: a.amount_reais, format_money),
    Column("Reincidência", lambda a: a.recurrence),
)


class InfractorScreen(QWidget):
    """Choose a driver or a platform; see the autos, the recurrences, the balance and the statement (extrato)
    at the date chosen (any date: the balance is the sum of the entries up to it, never stored)."""

    auto_opened = Signal(int)

    def __init__(self, db, actor, parent=None, lookups: Lookups | None = None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.lookups = lookups or service_lookups(db, actor)
        self.page = None
        self.statement = None
        self.picker = SearchPicker(infractor_search(self.lookups), "Condutor ou plataforma: nome, CPF ou CNPJ…",
                                   self, empty_text="(escolha o infrator)")
        self.until_edit = date_edit(self, local_today())
        self.picker.changed.connect(lambda _v: self.reload())
        self.until_edit.dateChanged.connect(lambda _d: self.reload_statement())
        self.print_button = QPushButton("Imprimir extrato…", self)
        self.print_button.clicked.connect(self.print_statement)
        self.print_button.setEnabled(False)
        self.preview = None
        top = QHBoxLayout()
        top.addWidget(self.picker, 1)
        top.addWidget(QLabel("Extrato em:", self))
        top.addWidget(self.until_edit)
        top.addWidget(self.print_button)
        self.summary = InfoGrid("Infrator", self)
        self.autos = RecordTable(INFRACTOR_AUTO_COLUMNS, self, show_filter=False)
        self.recurrences = RecordTable(INFRACTOR_AUTO_COLUMNS, self, show_filter=False)
        self.lines = RecordTable(STATEMENT_COLUMNS, self, show_filter=False)
        for table in (self.autos, self.recurrences):
            table.activated.connect(lambda auto: auto is not None and self.auto_opened.emit(auto.id))
        self.balance_label = QLabel(self)
        self.balance_label.setStyleSheet("font-size: 11pt; font-weight: bold;")

        def titled(title: str, widget: QWidget) -> QWidget:
            box = QWidget(self)
            box_layout = QVBoxLayout(box)
            box_layout.setContentsMargins(0, 0, 0, 0)
            box_layout.addWidget(QLabel(f"<b>{title}</b>", box))
            box_layout.addWidget(widget)
            return box

        left = QSplitter(Qt.Orientation.Vertical, self)
        left.addWidget(self.summary)
        left.addWidget(titled("Autos", self.autos))
        left.addWidget(titled("Reincidências", self.recurrences))
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(QLabel("<b>Extrato (UPFM; reais pelo valor da UPFM de cada débito)</b>", right))
        right_layout.addWidget(self.lines)
        right_layout.addWidget(self.balance_label)
        splitter = QSplitter(self)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([460, 690])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        self.reload()

    def infractor(self):
        return self.picker.value()

    def show_infractor(self, infractor, label: str) -> None:
        self.picker.set_choice(infractor, label)

    def set_until(self, until: date) -> None:
        self.until_edit.setDate(QDate(until))

    def reload(self) -> None:

        infractor = self.infractor()
        self.print_button.setEnabled(infractor is not None)
        if infractor is None:
            self.page = None
            self.summary.set_rows([("Infrator", "escolha um condutor ou uma plataforma acima")])
            self.autos.set_rows([])
            self.recurrences.set_rows([])
            self.reload_statement()
            return
        read = query_op(self, lambda: autos.infractor_page(self.db, self.actor, infractor)) \
            .titled("Não foi possível abrir o infrator")
        if not read.run():
            return
        self.page = read.result
        page = self.page
        self.summary.set_rows([
            (infractor.label, page.name), ("CPF" if infractor.kind == "driver" else "CNPJ", page.document),
            ("Autos", str(len(page.autos))), ("Reincidências", str(len(page.recurrences))),
            ("Saldo hoje", f"{format_upfm(page.balance_upfm)} = {format_money(page.balance_reais)}"),
            ("Vencido", format_upfm(page.overdue_upfm)),
        ])
        self.autos.set_rows(page.autos)
        self.recurrences.set_rows(page.recurrences)
        self.reload_statement()

    def reload_statement(self) -> None:

        infractor = self.infractor()
        if infractor is None:
            self.statement = None
            self.lines.set_rows([])
            self.balance_label.clear()
            return
        until = qdate_to_date(self.until_edit.date())
        read = query_op(self, lambda: ledger.statement(self.db, self.actor, infractor, until)) \
            .titled("Não foi possível montar o extrato")
        if not read.run():
            return
        self.statement = read.result
        statement = self.statement
        self.lines.set_rows([StatementLine(e, b) for e, b in zip(statement.entries, statement.balances)])
        with_costs = any(e.kind == "costs" for e in statement.entries)   # Art. 28: reais, apart from the UPFM
        self.balance_label.setText(f"Saldo em {format_date(statement.until)}: {format_upfm(statement.balance_upfm)}"
                                   + (f" de multas; total com as custas (Art. 28, em reais): "
                                      f"{format_money(statement.balance_reais)}" if with_costs
                                      else f" = {format_money(statement.balance_reais)}"))

    def print_statement(self):
        """Issue the statement PDF (`services.documents.print_statement`) in the background, then preview it."""

        if self.page is None:
            return None
        db, actor, document, until = self.db, self.actor, self.page.document, qdate_to_date(self.until_edit.date())

        def job(state):
            return documents.print_statement(db, actor, document, until, state=state)

        def show(issued):

            self.preview = PdfPreviewDialog(issued.pdf, f"Extrato de {self.page.name} em {format_date(until)}", self,
                                            suggested_name=f"extrato-{issued.info.number.replace('/', '-')}.pdf")
            self.preview.show()

        return (Task(job).success(show).failure(lambda error: show_error(self, error))
                .run_in_background(self, title="Gerando o extrato"))


# -- Vencidos and Dívida ativa ------------------------------------------------------------------------------
OVERDUE_COLUMNS = (
    Column("Auto / guia", lambda o: o.number),
    Column("Débito", lambda o: o.debt_label),
    Column("Infrator", lambda o: o.infractor_name),
    Column("CPF/CNPJ", lambda o: o.document),
    Column("Situação", lambda o: o.status.label),
    Column("Vencimento", lambda o: o.payment_deadline),
    Column("Dias em atraso", lambda o: o.days_overdue),
    Column("Saldo (UPFM)", lambda o: o.balance_upfm, format_upfm),
    Column("Saldo (R$)", lambda o: o.balance_reais, format_money),
)


class DebtListScreen(QWidget):
    """One list widget for both debt lists: `kind="overdue"` (fines past their payment term) or
    `kind="divida_ativa"` (overdue fines ready to send; the gestor sends them from here)."""

    auto_opened = Signal(int)

    def __init__(self, db, actor, kind: str, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.kind = db, actor, kind
        self.today_edit = date_edit(self, local_today())
        self.today_edit.dateChanged.connect(lambda _d: self.reload())
        self.table = RecordTable(OVERDUE_COLUMNS, self, filter_placeholder="Filtrar por auto, nome ou documento…")
        self.table.activated.connect(
            lambda row: row is not None and row.auto_id is not None and self.auto_opened.emit(row.auto_id))
        self.total_label = QLabel(self)
        self.total_label.setStyleSheet("font-weight: bold;")
        top = QHBoxLayout()
        top.addWidget(QLabel("Posição em:", self))
        top.addWidget(self.today_edit)
        top.addStretch(1)
        self.send_selected_button = self.send_all_button = self.certidao_button = self.inscribed_check = None
        self.preview = None
        if kind == "divida_ativa":
            explanation = QLabel("Multas vencidas e não pagas, prontas para inscrição em dívida ativa, e as guias de "
                                 "taxas e de ISSQN vencidas e não pagas. A inscrição das multas é feita pelo gestor "
                                 "e fica registrada no histórico de cada auto.", self)
            self.send_selected_button = QPushButton("Inscrever o selecionado", self)
            self.send_all_button = QPushButton("Inscrever todos os listados", self)
            self.send_selected_button.clicked.connect(lambda: self.send(all_rows=False))
            self.send_all_button.clicked.connect(lambda: self.send(all_rows=True))
            top.addWidget(self.send_selected_button)
            top.addWidget(self.send_all_button)
            # issue 28 point 9: the autos already inscribed, each with its certidão (Lei 6.830/80, art. 2º, § 6º)
            self.inscribed_check = QCheckBox("Mostrar os já inscritos", self)
            self.inscribed_check.toggled.connect(lambda _on: self.reload())
            self.certidao_button = QPushButton("Imprimir certidão de dívida ativa", self)
            self.certidao_button.clicked.connect(self.print_certidao)
            self.table.selection_changed.connect(lambda _row: self._enable_row_actions())
            top.addWidget(self.inscribed_check)
            top.addWidget(self.certidao_button)
        else:
            explanation = QLabel("Multas com decisão definitiva cujo prazo de pagamento passou e que ainda têm "
                                 "saldo.", self)
        explanation.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(explanation)
        layout.addLayout(top)
        layout.addWidget(self.table)
        layout.addWidget(self.total_label)
        self.reload()

    def reload(self) -> None:

        on = qdate_to_date(self.today_edit.date())
        if self.kind == "overdue":
            rows = query_op(self, lambda: ledger.overdue_list(self.db, self.actor, on)) \
                .titled("Não foi possível montar a lista").otherwise([]).get()
        else:
            inscribed = self.inscribed_check is not None and self.inscribed_check.isChecked()
            rows = query_op(self, lambda: ledger.divida_ativa_list(self.db, self.actor, on, inscribed=inscribed)) \
                .titled("Não foi possível montar a lista").otherwise([]).get()
        self.table.set_rows(rows, keep=lambda r: r.auto_id)
        total = sum((r.balance_reais for r in rows), Decimal(0))
        autos_count = sum(1 for r in rows if r.auto_id is not None)
        text = f"{autos_count} auto(s)"
        if len(rows) != autos_count:
            text += f" e {len(rows) - autos_count} guia(s) de taxa/ISSQN"
        self.total_label.setText(f"{text} — total {format_money(total)}")
        self._enable_row_actions()

    def _enable_row_actions(self) -> None:
        """The buttons from the rows' actions (services.ledger: domain.auto_steps.DIVIDA_ATIVA_STEPS)."""
        if self.kind != "divida_ativa":
            return
        listed = [find_action(r.actions, "inscribe") for r in self.table.visible_rows()]
        self.send_all_button.setEnabled(any(a is not None and a.enabled for a in listed))
        row = self.table.selected()
        for button, key in ((self.send_selected_button, "inscribe"), (self.certidao_button, "certidao")):
            action = find_action(row.actions, key) if row is not None else None
            button.setEnabled(action is not None and action.enabled)
            button.setToolTip(action.tooltip if action is not None else "Selecione um auto da lista.")

    def print_certidao(self):
        """The selected inscribed auto's certidão, issued and archived in the background, then shown; returns the
        operation (its `task` runs in the background)."""
        row = self.table.selected()
        if row is None or row.auto_id is None:
            return None
        number = row.number

        def shown(issued) -> None:
            self.preview = PdfPreviewDialog(issued.pdf, f"Certidão de dívida ativa — auto nº {number}", self,
                                            suggested_name=f"certidao-divida-ativa-{number.replace('/', '-')}.pdf")
            self.preview.show()

        call = (op(self, lambda state: documents.print_divida_ativa_certificate(self.db, self.actor, number,
                                                                                 state=state))
                .titled("Certidão de dívida ativa").changes(Entity.DOCUMENTS).success(shown)
                .background("Certidão de dívida ativa", "Gerando a certidão…", pass_state=True))
        call.run()
        return call

    def send(self, all_rows: bool) -> int:

        rows = self.table.visible_rows() if all_rows else [r for r in [self.table.selected()] if r is not None]
        # guides of fees and ISSQN are listed, not sent here; an auto already inscribed is not inscribed again
        rows = [r for r in rows if r.auto_id is not None and (a := find_action(r.actions, "inscribe")) is not None
                and a.enabled]
        if not rows:
            return 0
        ids, on = [r.auto_id for r in rows], qdate_to_date(self.today_edit.date())

        def sent(count: int) -> None:
            QMessageBox.information(self, "Dívida ativa", f"{count} auto(s) inscrito(s) em dívida ativa.")
            self.reload()

        call = (op(self, lambda: ledger.send_to_divida_ativa(self.db, self.actor, ids, on)).titled("Dívida ativa")
                .changes(Entity.AUTOS, Entity.LEDGER).success(sent))
        return call.result if call.run() else 0
