"""Which database the program uses (issue 2): the SQLite file in the user's data folder (one desk) or the
office's PostgreSQL server (several desks), chosen by a URL. Saved in the settings file; it takes effect the next
time the program starts (the command line `--db URL` and the variable DESKTOP_DB_URL still win over it).
"""
from __future__ import annotations

import dataclasses
import os

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QButtonGroup, QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QLineEdit,
                               QMessageBox, QPushButton, QRadioButton, QVBoxLayout, QWidget)

from desktop.views.operations import op
from desktop.views.widgets import ERROR_LABEL_STYLE, error_text
from desktop.settings import load_settings
from desktop.settings import save_settings
from desktop import migrate
from desktop.migrate import open_database
from desktop.db import default_sqlite_path

PG_EXAMPLE = "postgresql+psycopg://usuario:senha@servidor:5432/transporte"
RESTART_NOTE = "A alteração vale a partir da próxima vez que o programa for aberto."


def saved_url() -> str | None:

    return getattr(load_settings(), "database_url", None) or None


def save_url(url: str | None) -> None:

    settings = load_settings()
    if dataclasses.is_dataclass(settings):
        settings = dataclasses.replace(settings, database_url=url)
    else:
        settings.database_url = url
    save_settings(settings)


def check_connection(state, url: str) -> str:
    """Background job: connect, read the schema revision, disconnect. Returns the sentence shown to the user."""

    state.progress(0, 0, "Conectando…")
    db = open_database(url, migrate=False)
    try:
        revision = migrate.current(db)
        pending = migrate.pending(db)
        description = db.describe()
    finally:
        db.dispose()
    if revision is None:
        return (f"Conexão bem-sucedida com {description}. O banco está vazio: as tabelas serão criadas na "
                "próxima inicialização.")
    if pending:
        return (f"Conexão bem-sucedida com {description}. O banco será atualizado (migrações pendentes) na "
                "próxima inicialização; antes, faça uma cópia de segurança.")
    return f"Conexão bem-sucedida com {description}. O banco está atualizado."


class DatabaseSettingsWidget(QWidget):
    def __init__(self, current: str | None = None, parent=None):
        super().__init__(parent)

        self.task = None
        self.default_path = str(default_sqlite_path())
        intro = QLabel(f"<b>Banco de dados em uso agora:</b> {current}" if current else
                       "<b>Nenhum banco de dados aberto.</b>", self)
        intro.setWordWrap(True)
        intro.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.sqlite_radio = QRadioButton("Arquivo SQLite neste computador (uma única mesa — padrão)", self)
        self.sqlite_path = QLabel(f"Arquivo: {self.default_path}", self)
        self.sqlite_path.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.sqlite_path.setContentsMargins(24, 0, 0, 0)
        self.pg_radio = QRadioButton("Servidor PostgreSQL da secretaria (várias mesas)", self)
        self.url_edit = QLineEdit(self)
        self.url_edit.setPlaceholderText(PG_EXAMPLE)
        self.test_button = QPushButton("Testar conexão", self)
        self.test_button.clicked.connect(self.test_connection)
        url_row = QHBoxLayout()
        url_row.setContentsMargins(24, 0, 0, 0)
        url_row.addWidget(QLabel("URL:", self))
        url_row.addWidget(self.url_edit, 1)
        url_row.addWidget(self.test_button)
        self.group = QButtonGroup(self)
        self.group.addButton(self.sqlite_radio)
        self.group.addButton(self.pg_radio)
        self.result = QLabel(self)
        self.result.setWordWrap(True)
        notes = QLabel(f"{RESTART_NOTE} Não use um arquivo SQLite numa pasta de rede compartilhada: para várias "
                       "mesas, use o servidor PostgreSQL.", self)
        notes.setWordWrap(True)
        notes.setStyleSheet("color: #555;")
        self.override = QLabel(self)
        self.override.setWordWrap(True)
        if os.environ.get("DESKTOP_DB_URL"):
            self.override.setText("Atenção: a variável de ambiente DESKTOP_DB_URL está definida neste computador e "
                                  "tem precedência sobre esta configuração.")
        self.override.setVisible(bool(self.override.text()))
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addSpacing(8)
        layout.addWidget(self.sqlite_radio)
        layout.addWidget(self.sqlite_path)
        layout.addSpacing(4)
        layout.addWidget(self.pg_radio)
        layout.addLayout(url_row)
        layout.addWidget(self.result)
        layout.addWidget(notes)
        layout.addWidget(self.override)
        layout.addStretch(1)
        self.pg_radio.toggled.connect(self._update)
        self.load()

    def load(self) -> None:
        try:
            url = saved_url()
        except Exception as error:  # noqa: BLE001 — a damaged settings file must not stop the dialog
            url = None
            self._result(f"Não foi possível ler a configuração salva: {error_text(error)}", ok=False)
        if url and not url.startswith("sqlite"):
            self.pg_radio.setChecked(True)
            self.url_edit.setText(url)
        else:
            self.sqlite_radio.setChecked(True)
        self._update()

    def _update(self) -> None:
        postgres = self.pg_radio.isChecked()
        self.url_edit.setEnabled(postgres)
        self.test_button.setEnabled(postgres)

    def chosen_url(self) -> str | None:
        """None means the default SQLite file; otherwise the PostgreSQL URL typed."""
        if self.sqlite_radio.isChecked():
            return None
        return self.url_edit.text().strip()

    def validate(self) -> str | None:
        url = self.chosen_url()
        if url is None:
            return None
        if not url:
            return "Informe a URL do servidor PostgreSQL."
        if not url.startswith("postgresql"):
            return f"A URL deve começar com postgresql+psycopg://, por exemplo {PG_EXAMPLE}"
        return None

    def _result(self, text: str, ok: bool) -> None:
        self.result.setText(text)
        self.result.setStyleSheet("color: #2e7d32;" if ok else ERROR_LABEL_STYLE)

    def test_connection(self) -> None:
        problem = self.validate()
        if problem:
            self._result(problem, ok=False)
            return
        self.test_button.setEnabled(False)
        self._result("Testando a conexão…", ok=True)
        url = self.chosen_url()
        operation = op(self, lambda state: check_connection(state, url)) \
            .background("Testar conexão", "Conectando ao servidor…", pass_state=True) \
            .success(self._tested).failure(self._test_failed).cancelled(self._test_cancelled)
        operation.run()
        self.task = operation.task

    def _test_cancelled(self) -> None:
        self.test_button.setEnabled(True)
        self._result("Teste de conexão cancelado.", ok=False)

    def _tested(self, message: str) -> None:
        self.test_button.setEnabled(True)
        self._result(message, ok=True)

    def _test_failed(self, error: BaseException) -> bool:
        self.test_button.setEnabled(True)
        self._result(f"Falha na conexão: {error_text(error)}", ok=False)
        return True  # said in the screen, under the URL

    def save(self) -> bool:
        problem = self.validate()
        if problem:
            self._result(problem, ok=False)
            return False
        url = self.chosen_url()
        return op(self, lambda: save_url(url)).failure(self._save_failed).success(
            lambda _saved: self._result(f"Configuração salva. {RESTART_NOTE}", ok=True)).run()

    def _save_failed(self, error: BaseException) -> bool:
        self._result(f"Não foi possível salvar a configuração: {error_text(error)}", ok=False)
        return True  # said in the screen


class DatabaseSettingsDialog(QDialog):
    """Arquivo → Configurar banco de dados… (also offered when the database cannot be opened at start)."""

    def __init__(self, current: str | None = None, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Configurar banco de dados")
        self.setMinimumWidth(640)
        self.settings = DatabaseSettingsWidget(current, self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel,
                                   self)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.settings)
        layout.addWidget(buttons)

    def save(self) -> None:
        if self.settings.save():
            QMessageBox.information(self, "Configuração salva", RESTART_NOTE)
            self.accept()


class DatabaseSettingsScreen(QWidget):
    """The same settings as a tab of Administração."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.settings = DatabaseSettingsWidget(db.describe(), self)
        self.save_button = QPushButton("Salvar", self)
        self.save_button.clicked.connect(lambda: self.settings.save())
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.settings)
        layout.addLayout(row)
