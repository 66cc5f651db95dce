"""Financeiro → Retorno bancário (issue 13): choose the bank's return file (Padrão FEBRABAN de arrecadação), import
it in the background with progress and "Cancelar" (one transaction: cancel records nothing), then the report:
one line per payment of the file, recorded or not and why, and the files imported before; and (issue 23 point 8)
the payments no guide took, kept for the gestor to assign to a guide or return — the buttons drawn from the
actions the service returns for the selected payment."""
from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.domain.formatting import format_money
from desktop.views.operations import op
from desktop.views.table import Column, RecordTable
from desktop.domain.entities import Entity
from desktop.services.demo import is_demo_db
from desktop.services import bank_returns
from pathlib import Path
from desktop.errors import DesktopError

PURPOSE_LABELS = {"fee": "Taxa", "fine": "Multa", "issqn": "ISSQN", "cost": "Custas (Art. 28)", "": ""}
LINE_COLUMNS = (
    Column("Linha", lambda r: r.line),
    Column("Situação", lambda r: "Registrado" if r.recorded else "Não conciliado"),
    Column("Guia", lambda r: r.guide_number),
    Column("Tipo", lambda r: PURPOSE_LABELS.get(r.purpose, r.purpose)),
    Column("Valor (R$)", lambda r: r.amount, format_money),
    Column("Pago em", lambda r: r.paid_on),
    Column("Mensagem", lambda r: r.message),
)
UNRECONCILED_COLUMNS = (
    Column("Arquivo (NSA)", lambda u: f"{u.file_name} ({u.nsa})"),
    Column("Linha", lambda u: u.line),
    Column("Valor (R$)", lambda u: u.amount, format_money),
    Column("Pago em", lambda u: u.paid_on),
    Column("Guia do código de barras", lambda u: u.guide_number),
    Column("Motivo", lambda u: u.problem),
    Column("Situação", lambda u: u.status_label),
)
FILE_COLUMNS = (
    Column("NSA", lambda f: f.nsa),
    Column("Convênio", lambda f: f.agreement),
    Column("Banco", lambda f: f.bank_code),
    Column("Gerado em", lambda f: f.generated_on),
    Column("Arquivo", lambda f: f.file_name),
    Column("Pagamentos", lambda f: f.payments),
    Column("Registrados", lambda f: f.recorded),
    Column("Não conciliados", lambda f: f.rejected),
    Column("Total (R$)", lambda f: f.total_reais, format_money),
    Column("Importado em", lambda f: f.imported_at),
    Column("Por", lambda f: f.imported_by),
)


def _is_demo(db) -> bool:

    try:
        return is_demo_db(db)
    except Exception:  # noqa: BLE001 - a database that cannot say so is not a demo
        return False


class BankReturnScreen(QWidget):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.report = None
        self.choose_button = QPushButton("Escolher arquivo de retorno…", self)
        self.choose_button.clicked.connect(self.choose)
        # a demonstration database offers a return file that pays some of its open guides today
        self.example_button = QPushButton("Gerar arquivo de exemplo (demonstração)…", self)
        self.example_button.clicked.connect(self.choose_example_path)
        self.example_button.setVisible(_is_demo(db))
        self.summary = QLabel("Escolha o arquivo de retorno enviado pelo banco (padrão FEBRABAN de arrecadação, "
                              "registros A, G e Z de 150 posições). O arquivo inteiro é uma só transação: um "
                              "arquivo com erro de formato não registra nada, e o mesmo arquivo (NSA) não é "
                              "registrado duas vezes.", self)
        self.summary.setWordWrap(True)
        self.lines = RecordTable(LINE_COLUMNS, self, filter_placeholder="Filtrar as linhas do relatório…")
        self.files = RecordTable(FILE_COLUMNS, self, show_filter=False)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.lines, "Relatório da importação")
        self.tabs.addTab(self.files, "Arquivos importados")
        self.unreconciled = UnreconciledPanel(db, actor, self)
        self.tabs.addTab(self.unreconciled, "Pagamentos não conciliados")
        top = QHBoxLayout()
        top.addWidget(self.choose_button)
        top.addWidget(self.example_button)
        top.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(self.tabs, 1)
        self.reload_files()

    def reload_files(self) -> None:

        op(self, lambda: bank_returns.list_bank_returns(self.db, self.actor)).titled("Retorno bancário") \
            .success(lambda rows: self.files.set_rows(rows)).run()
        if getattr(self, "unreconciled", None) is not None:
            self.unreconciled.reload()

    def choose_example_path(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Salvar arquivo de retorno de exemplo",
                                              "retorno-exemplo.txt", "Retorno bancário (*.txt)")
        if path:
            self.write_example(path)

    def write_example(self, path: str) -> bool:

        from desktop.demo.guides import demo_example  # lazy: the demo package loads only when its example is asked for

        def written(result) -> None:
            content, count = result
            Path(path).write_bytes(content)
            self.summary.setText(f"Arquivo de exemplo gravado em {path} ({count} pagamento(s) de guias em aberto). "
                                 "Importe-o com «Escolher arquivo de retorno…».")

        return op(self, lambda: demo_example(self.db, self.actor)).titled("Retorno bancário") \
            .success(written).run()

    def choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Arquivo de retorno do banco", "",
                                              "Retorno bancário (*.txt *.ret *.RET *.TXT);;Todos os arquivos (*)")
        if path:
            self.import_file(path)

    def import_file(self, path: str):
        """Import in the background (progress, "Cancelar"); the report fills the table when done."""

        db, actor = self.db, self.actor
        self.summary.setText(f"Importando {path}…")
        return (op(self, lambda state: bank_returns.import_bank_return(db, actor, path, state=state))
                .titled("Retorno bancário").changes(Entity.GUIDES, Entity.LEDGER, Entity.AUTHORIZATIONS)
                .success(self.show_report).failure(self._failed)
                .background("Retorno bancário", "Conciliando os pagamentos…", pass_state=True).run())

    def _failed(self, error) -> bool:
        """A refused file: its lines named in the summary (nothing was recorded); no box to close."""

        if not isinstance(error, DesktopError):
            return False
        self.summary.setText(str(error))
        self.lines.set_rows([])
        return True

    def show_report(self, report) -> None:
        self.report = report
        self.summary.setText(report.describe())
        self.lines.set_rows(report.lines)
        self.tabs.setCurrentIndex(0)
        self.reload_files()


class ResolveDialog(QDialog):
    """The gestor's decision on an unreconciled payment: the guide it paid (assign) and the reason."""

    def __init__(self, title: str, intro: str, ask_guide: bool, parent=None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.note = QLabel(intro, self)
        self.note.setWordWrap(True)
        self.guide = QLineEdit(self)
        self.guide.setPlaceholderText("NNNN/AAAA")
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText("Motivo (obrigatório)")
        form = QFormLayout()
        if ask_guide:
            form.addRow("Guia nº", self.guide)
        else:
            self.guide.hide()
        form.addRow("Motivo", self.reason)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addLayout(form)
        layout.addWidget(buttons)


class UnreconciledPanel(QWidget):
    """Financeiro → Retorno bancário → Pagamentos não conciliados (issue 23 point 8)."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.last_dialog = None
        self.table = RecordTable(UNRECONCILED_COLUMNS, self, filter_placeholder="Filtrar os pagamentos…")
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        for key, text in (("assign", "Atribuir a uma guia…"), ("return", "Devolver ao pagador…")):
            button = QPushButton(text, self)
            button.setEnabled(False)
            button.clicked.connect(lambda _checked=False, k=key: self.act(k))
            self.buttons[key] = button
            row.addWidget(button)
        row.addStretch(1)
        self.note = QLabel("Pagamentos recebidos pelo banco que não quitaram nenhuma guia em aberto: o dinheiro não "
                           "se perde — o gestor atribui cada um à guia do débito que pagou, ou o devolve, com o "
                           "motivo.", self)
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        self.table.selection_changed.connect(self._draw)
        self.reload()

    def reload(self) -> None:

        op(self, lambda: bank_returns.list_unreconciled(self.db, self.actor)).titled("Pagamentos não conciliados") \
            .success(lambda rows: self.table.set_rows(rows)).run()

    def _draw(self, payment) -> None:
        actions = {a.key: a for a in payment.actions} if payment is not None else {}
        for key, button in self.buttons.items():
            action = actions.get(key)
            button.setEnabled(bool(action and action.enabled))
            button.setToolTip((action.reason or action.article) if action else "Selecione um pagamento.")

    def dialog_for(self, key: str) -> ResolveDialog:
        if key == "assign":
            return ResolveDialog("Atribuir a uma guia", "A guia em aberto, do mesmo valor, do débito que este "
                                 "pagamento quitou. Ela é paga na data do banco.", True, self)
        return ResolveDialog("Devolver ao pagador", "O pagamento é devolvido pelo banco ao pagador; informe o "
                             "motivo.", False, self)

    def act(self, key: str):
        payment = self.table.selected()
        if payment is None:
            return None
        dialog = self.last_dialog = self.dialog_for(key)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return self.finish(key, dialog)

    def finish(self, key: str, dialog: ResolveDialog):

        payment = self.table.selected()
        reason, number = dialog.reason.text(), dialog.guide.text()
        if key == "assign":
            call = lambda: bank_returns.assign_unreconciled(self.db, self.actor, payment.id, number, reason)  # noqa: E731
        else:
            call = lambda: bank_returns.return_unreconciled(self.db, self.actor, payment.id, reason)  # noqa: E731
        return (op(self, call).titled(self.buttons[key].text().rstrip("…"))
                .changes("guides", "ledger", "authorizations").success(lambda _info: self.reload()).run())
