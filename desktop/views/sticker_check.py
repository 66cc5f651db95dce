"""Verificar adesivo (Art. 14): the agent pastes or scans the text of a sticker's QR code; the signature is checked
with the municipality's public key and the authorization's current status is read from the database
(desktop.services.documents.check_sticker: every signed field compared with the register). The verdict is shown
big and coloured: válido, expirado, suspenso, revogado, cassado, substituído, adulterado, falsificado or ilegível,
with the number, plate, validity and the service's sentence. With the database out of reach, the check is made
offline with the key kept from the first check: "confirmar situação"."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QFormLayout, QFrame, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                               QVBoxLayout, QWidget)

from desktop.domain import sticker_check as verdict
from desktop.views.formatting import format_date
from desktop.views.widgets import error_text
from desktop.background import Task

# status → (word shown, background, foreground)
VERDICTS = {
    verdict.VALID: ("VÁLIDO", "#2e7d32", "#ffffff"),
    verdict.EXPIRED: ("EXPIRADO", "#ef6c00", "#ffffff"),
    verdict.SUSPENDED: ("SUSPENSO", "#f9a825", "#000000"),
    verdict.REVOKED: ("REVOGADO", "#6d4c41", "#ffffff"),
    verdict.CASSADA: ("CASSADO", "#4e342e", "#ffffff"),
    verdict.REPLACED: ("SUBSTITUÍDO", "#6d4c41", "#ffffff"),
    verdict.SUPERSEDED: ("SUBSTITUÍDO", "#6d4c41", "#ffffff"),
    verdict.NOT_ACTIVE: ("SEM VALIDADE", "#6d4c41", "#ffffff"),
    verdict.TAMPERED: ("ADULTERADO", "#c62828", "#ffffff"),
    verdict.FORGED: ("FALSIFICADO", "#c62828", "#ffffff"),
    verdict.UNCONFIRMED: ("CONFIRMAR SITUAÇÃO", "#1565c0", "#ffffff"),
    verdict.MALFORMED: ("ILEGÍVEL", "#546e7a", "#ffffff"),
}
ERROR_VERDICT = ("NÃO VERIFICADO", "#546e7a", "#ffffff")


def _alive(widget) -> bool:
    from shiboken6 import isValid  # lazy: Qt loads only when this runs (start-up cost)
    return isValid(widget)


class StickerCheckWidget(QWidget):
    def __init__(self, db, parent=None):
        super().__init__(parent)
        self.db = db
        self.task = None
        self.result = None      # the last StickerCheck
        self._keys: dict = {}   # the municipality's public key, kept for offline checks

        intro = QLabel("Leia o QR code do adesivo com o leitor (ou cole o texto lido pelo celular) e tecle Enter. "
                       "A assinatura é conferida com a chave do município e a situação atual da autorização é "
                       "consultada no cadastro (Art. 14).", self)
        intro.setWordWrap(True)
        self.text_edit = QLineEdit(self)
        self.text_edit.setPlaceholderText("TPA1|0007/2026|ABC1D23|31/12/2026|…")
        self.text_edit.setClearButtonEnabled(True)
        self.text_edit.setAccessibleName("Texto do QR code")
        self.sticker_number_edit = QLineEdit(self)  # issue 12 item 17: a superseded sticker says so
        self.sticker_number_edit.setPlaceholderText("nº do adesivo (rodapé), opcional")
        self.sticker_number_edit.setAccessibleName("Número do adesivo")
        self.sticker_number_edit.setMaximumWidth(220)
        self.check_button = QPushButton("Verificar", self)
        self.check_button.setDefault(True)
        self.clear_button = QPushButton("Limpar", self)

        self.verdict = QLabel(self)
        self.verdict.setObjectName("verdict")
        self.verdict.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.verdict.setMinimumHeight(96)
        self.verdict.setVisible(False)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setStyleSheet("font-size: 12pt;")
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.number_label = QLabel(self)
        self.plate_label = QLabel(self)
        self.valid_label = QLabel(self)
        for label in (self.number_label, self.plate_label, self.valid_label):
            label.setStyleSheet("font-size: 13pt; font-weight: bold;")
        self.details = QFrame(self)
        self.details_title = QLabel(self.details)
        details = QFormLayout(self.details)
        details.addRow(self.details_title)
        details.addRow("Autorização nº", self.number_label)
        details.addRow("Placa", self.plate_label)
        details.addRow("Válida até", self.valid_label)
        self.details.setVisible(False)

        row = QHBoxLayout()
        row.addWidget(self.text_edit, 1)
        row.addWidget(self.sticker_number_edit)
        row.addWidget(self.check_button)
        row.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(row)
        layout.addSpacing(8)
        layout.addWidget(self.verdict)
        layout.addWidget(self.details)
        layout.addWidget(self.message)
        layout.addStretch(1)

        self.check_button.clicked.connect(self.check)
        self.text_edit.returnPressed.connect(self.check)
        self.sticker_number_edit.returnPressed.connect(self.check)
        self.clear_button.clicked.connect(self.clear)

    def verdict_word(self) -> str:
        return self.verdict.text()

    def clear(self) -> None:
        self.result = None
        self.text_edit.clear()
        self.sticker_number_edit.clear()
        self.verdict.setVisible(False)
        self.details.setVisible(False)
        self.message.clear()
        self.text_edit.setFocus()

    def check(self):
        from desktop.views.reports.jobs import check_job  # cycle: desktop.views.reports.jobs imports this module at its top

        text = self.text_edit.text().strip()
        if not text:
            self._show(ERROR_VERDICT, "Leia o QR code do adesivo ou cole o texto lido.")
            return None
        if self.task is not None and not self.task.finished:
            return None
        self.check_button.setEnabled(False)

        def done(result):
            if not _alive(self):
                return
            self.check_button.setEnabled(True)
            self.show_result(result)

        def failed(error):
            if not _alive(self):
                return
            self.check_button.setEnabled(True)
            self.result = None
            self._show(ERROR_VERDICT, error_text(error))

        number = self.sticker_number_edit.text().strip() or None
        self.task = Task(check_job, self.db, text, self._keys, number).success(done).failure(failed).run_in_background(
            self, show_progress=False)
        return self.task

    def show_result(self, result) -> None:
        self.result = result
        self._show(VERDICTS.get(result.status, ERROR_VERDICT), result.message_pt)
        if result.number:
            if result.status == verdict.FORGED:
                self.details_title.setText("Dados impressos no adesivo — NÃO CONFIÁVEIS (assinatura inválida):")
                self.details_title.setStyleSheet("color: #c62828; font-weight: bold;")
            elif result.status == verdict.TAMPERED:
                self.details_title.setText("Dados assinados no adesivo — NÃO SÃO OS DO CADASTRO:")
                self.details_title.setStyleSheet("color: #c62828; font-weight: bold;")
            elif result.status == verdict.UNCONFIRMED:
                self.details_title.setText("Dados assinados no adesivo — situação atual NÃO consultada no cadastro:")
                self.details_title.setStyleSheet("color: #1565c0; font-weight: bold;")
            else:
                self.details_title.setText("Dados do adesivo, conferidos pela assinatura do município:")
                self.details_title.setStyleSheet("color: #555;")
            self.number_label.setText(result.number)
            self.plate_label.setText(result.plate or "—")
            self.valid_label.setText(format_date(result.valid_until) if result.valid_until else "—")
            self.details.setVisible(True)
        self.layout().activate()
        # the next scan replaces the text at once
        self.text_edit.selectAll()
        self.text_edit.setFocus()

    def _show(self, verdict, message: str) -> None:
        word, background, foreground = verdict
        self.verdict.setText(word)
        self.verdict.setStyleSheet(f"background: {background}; color: {foreground}; font-size: 32pt; "
                                   "font-weight: bold; border-radius: 8px; padding: 12px;")
        self.verdict.setVisible(True)
        self.details.setVisible(False)
        self.message.setText(message)
        self.layout().activate()


class StickerCheckDialog(QDialog):
    """The same check in its own window (an agent at the counter keeps it open beside the main window)."""

    def __init__(self, db, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Verificar adesivo")
        self.resize(640, 460)
        self.widget = StickerCheckWidget(db, self)
        close = QPushButton("Fechar", self)
        close.setAutoDefault(False)
        close.clicked.connect(self.accept)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.widget, 1)
        layout.addLayout(bottom)
