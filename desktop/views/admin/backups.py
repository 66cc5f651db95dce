"""Administração → Cópias de segurança (issue 17): where this desk's automatic copies go, the copies kept by the
rotation (7 daily, 4 weekly, 12 monthly) with their verification, a copy now, and a restore (with the safety
checks of `services.backup.restore`: unknown revision refused, older copy migrated aside first, replaced file kept).

The screen holds no rule: `services.auto_backup` decides, copies, verifies and restores.
"""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QLabel, QLineEdit, QMessageBox, QPushButton,
                               QVBoxLayout, QWidget)

from desktop.views.formatting import format_date
from desktop.views.operations import op
from desktop.views.table import Column, RecordTable
from desktop.views.widgets import FieldErrors, error_label
from decimal import Decimal
from desktop.domain.formatting import format_decimal
from desktop.services.auto_backup import run_auto_backup
from desktop.services import auto_backup
from desktop.domain.dates import local_now
from PySide6.QtWidgets import QApplication


def _size(n: int) -> str:

    if n >= 1 << 20:
        return f"{format_decimal(Decimal(n) / (1 << 20), 1)} MB"
    return f"{format_decimal(Decimal(n) / 1024, 0)} KB"


def _verified(copy) -> str:
    if copy.verified is None:
        return "Sem verificação"
    return "Verificada" if copy.verified else "Falhou"


COLUMNS = (
    Column("Data", lambda c: c.day),
    Column("Guardada como", lambda c: (c.kept_by or "a remover").capitalize()),
    Column("Arquivo", lambda c: c.path.name),
    Column("Tamanho", lambda c: _size(c.size_bytes)),
    Column("Verificação", _verified),
    Column("O que foi conferido", lambda c: c.verification),
)


def backup_now_job(state, db, actor):

    state.progress(0, 0, "Copiando e verificando o banco de dados…")
    return run_auto_backup(db, actor, force=True)


class BackupsScreen(QWidget):
    def __init__(self, db, actor, parent=None, after_restore: Callable[[], None] | None = None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.after_restore = after_restore or self._quit_after_restore

        self.service = auto_backup
        intro = QLabel(
            "Na primeira entrada de cada dia o programa copia o banco de dados para a pasta abaixo (um disco "
            "externo ou uma pasta da rede), confere a cópia e guarda 7 cópias diárias, 4 semanais e 12 mensais.",
            self)
        intro.setWordWrap(True)
        self.folder_edit = QLineEdit(self)
        self.folder_edit.setPlaceholderText("ex.: E:\\CopiasTransporte")
        folder = auto_backup.configured_folder()
        self.folder_edit.setText(str(folder) if folder else "")
        self.choose_button = QPushButton("Escolher…", self)
        self.choose_button.clicked.connect(self._choose)
        self.save_button = QPushButton("Salvar pasta", self)
        self.save_button.clicked.connect(self.save_folder)
        self.folder_error = error_label(self)
        self.errors = FieldErrors()
        self.errors.add("backup_folder", self.folder_edit, self.folder_error)
        self.state_label = QLabel(self)
        self.state_label.setWordWrap(True)
        self.table = RecordTable(COLUMNS, self, show_filter=False)
        self.table.selection_changed.connect(lambda c: self.restore_button.setEnabled(c is not None))
        self.now_button = QPushButton("Fazer cópia agora", self)
        self.now_button.clicked.connect(self.backup_now)
        self.restore_button = QPushButton("Restaurar esta cópia…", self)
        self.restore_button.setEnabled(False)
        # a lambda: `clicked` hands its `checked` (False) to a slot that takes an argument — restore_selected(False)
        # would restore without asking
        self.restore_button.clicked.connect(lambda: self.restore_selected())

        row = QHBoxLayout()
        row.addWidget(QLabel("Pasta das cópias:", self))
        row.addWidget(self.folder_edit, 1)
        row.addWidget(self.choose_button)
        row.addWidget(self.save_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.now_button)
        buttons.addWidget(self.restore_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(row)
        layout.addWidget(self.folder_error)
        layout.addWidget(self.state_label)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.reload()

    # ------------------------------------------------------------------------------------------------ drawing
    def reload(self) -> None:
        state = self.service.backup_state(self.db)
        color = "#b00020" if state.alert else "#1b5e20"
        self.state_label.setText(state.message)
        self.state_label.setStyleSheet(f"color: {color}; font-weight: bold;")
        self.table.set_rows(self.service.list_copies())
        self.now_button.setEnabled(state.status != self.service.DBA and state.folder is not None)

    # ------------------------------------------------------------------------------------------------ actions
    def _choose(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Pasta das cópias de segurança", self.folder_edit.text())
        if chosen:
            self.folder_edit.setText(chosen)

    def save_folder(self) -> bool:
        self.errors.clear()
        return op(self, lambda: self.service.set_backup_folder(self.db, self.actor, self.folder_edit.text())) \
            .fields(self.errors).success(lambda path: (self.folder_edit.setText(str(path)), self.reload())).run()

    def backup_now(self) -> bool:
        return op(self, lambda state: backup_now_job(state, self.db, self.actor)) \
            .background("Cópia de segurança", "Copiando e verificando o banco de dados…", pass_state=True) \
            .success(self._done).run()

    def _done(self, outcome) -> None:
        """Every copy made says so, the second of the day too, and the status bar's line follows at once (issue 27
        point 7: a second "Fazer cópia agora" said nothing and the tooltip kept "não configurada")."""

        self.reload()
        window = self.window()
        if hasattr(window, "show_backup_outcome"):
            window.show_backup_outcome(outcome)
        if outcome.alert:
            QMessageBox.warning(self, "Cópia de segurança", outcome.message)
        else:
            self.state_label.setText(f"{outcome.message} (às {local_now():%H:%M} de {local_now():%d/%m/%Y})")

    def restore_selected(self, confirm: bool = True) -> bool:
        copy = self.table.selected()
        if copy is None:
            return False
        if confirm:
            answer = QMessageBox.question(
                self, "Restaurar cópia de segurança",
                f"Substituir o banco de dados atual pela cópia de {format_date(copy.day)}?\n\n"
                "Tudo o que foi registrado depois dela deixará de aparecer (o banco atual é guardado ao lado, "
                "com a data e a hora no nome). O programa será fechado em seguida e deve ser aberto de novo.",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
            if answer != QMessageBox.StandardButton.Yes:
                return False
        return op(self, lambda: self.service.restore_copy(self.db, self.actor, copy.path)) \
            .success(self._restored).run()

    def _restored(self, result) -> None:
        kept = f"\n\nO banco substituído foi guardado em {result.replaced_copy}." if result.replaced_copy else ""
        QMessageBox.information(self, "Cópia restaurada",
                                f"A cópia foi restaurada.{kept}\n\nO programa será fechado: abra-o de novo.")
        self.after_restore()

    @staticmethod
    def _quit_after_restore() -> None:

        app = QApplication.instance()
        if app is not None:
            app.quit()
