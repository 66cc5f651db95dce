"""Financeiro → Retorno bancário (issue 13): choose the bank's return file (Padrão FEBRABAN de arrecadação), import
it in the background with progress and "Cancelar" (one transaction: cancel records nothing), then the report:
one line per payment of the file, recorded or not and why, and the files imported before."""
from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPushButton, QTabWidget, QVBoxLayout, QWidget

from desktop.domain.formatting import format_money
from desktop.views.operations import op
from desktop.views.table import Column, RecordTable
from desktop.domain.entities import Entity

PURPOSE_LABELS = {"fee": "Taxa", "fine": "Multa", "issqn": "ISSQN", "cost": "Custos", "": ""}
LINE_COLUMNS = (
    Column("Linha", lambda r: r.line),
    Column("Situação", lambda r: "Registrado" if r.recorded else "Não conciliado"),
    Column("Guia", lambda r: r.guide_number),
    Column("Tipo", lambda r: PURPOSE_LABELS.get(r.purpose, r.purpose)),
    Column("Valor (R$)", lambda r: r.amount, format_money),
    Column("Pago em", lambda r: r.paid_on),
    Column("Mensagem", lambda r: r.message),
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
    from desktop.services.demo import is_demo_db

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
        from desktop.services import bank_returns

        op(self, lambda: bank_returns.list_bank_returns(self.db, self.actor)).titled("Retorno bancário") \
            .success(lambda rows: self.files.set_rows(rows)).run()

    def choose_example_path(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Salvar arquivo de retorno de exemplo",
                                              "retorno-exemplo.txt", "Retorno bancário (*.txt)")
        if path:
            self.write_example(path)

    def write_example(self, path: str) -> bool:
        from pathlib import Path

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
        from desktop.services import bank_returns

        db, actor = self.db, self.actor
        self.summary.setText(f"Importando {path}…")
        return (op(self, lambda state: bank_returns.import_bank_return(db, actor, path, state=state))
                .titled("Retorno bancário").changes(Entity.GUIDES, Entity.LEDGER, Entity.AUTHORIZATIONS)
                .success(self.show_report).failure(self._failed)
                .background("Retorno bancário", "Conciliando os pagamentos…", pass_state=True).run())

    def _failed(self, error) -> bool:
        """A refused file: its lines named in the summary (nothing was recorded); no box to close."""
        from desktop.errors import DesktopError

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
