"""Adesivos pendentes: the active authorizations whose sticker was not printed since their last fee payment
(Art. 14), and "Gerar lote" — one archived PDF of every pending sticker, made in the background with progress and
"Cancelar" (a cancelled batch spends no number and records nothing: the service commits only at the end)."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QComboBox, QFormLayout, QHBoxLayout, QLabel, QListWidget, QProgressBar,
                               QPushButton, QVBoxLayout, QWidget)

from desktop.views.reports.kinds import issue_roles, may_issue, roles_text
from desktop.views.table import keyboard_list
from desktop.views.widgets import ERROR_LABEL_STYLE, error_text
from desktop.domain.entities import Entity
from desktop.background import Task
from desktop.services.documents import pending_stickers_job
from desktop.signals import bus
from desktop.background import Cancelled

LAYOUTS = (("sheet", "Folha de etiquetas A4 (8 por folha, com marcas de corte)"),
           ("page", "Um adesivo por página A4"))


def _alive(widget) -> bool:
    from shiboken6 import isValid  # lazy: Qt loads only when this runs (start-up cost)
    return isValid(widget)


class PendingStickersPanel(QWidget):
    sticker_chosen = Signal(str)   # the authorization number whose sticker is to print alone

    def __init__(self, db, actor, open_preview, parent=None, workers: int = 2):
        super().__init__(parent)
        self.db = db
        self.actor = actor
        self.workers = workers
        self._open_preview = open_preview
        self.load_task = None
        self.batch_task = None
        self.last_batch = None      # Issued of the last batch made here
        self.numbers: list[str] = []
        self.pool = None            # QThreadPool of the batch (None: the global one)

        self.count_label = QLabel(self)
        self.count_label.setStyleSheet("font-size: 12pt; font-weight: bold;")
        self.list = QListWidget(self)
        self.list.setAccessibleName("Autorizações com adesivo pendente")
        # Enter / double-click on a pending sticker: that one sticker printed (issue 29 point 1)
        self.list.itemActivated.connect(lambda item: self._allowed and self.sticker_chosen.emit(item.text()))
        keyboard_list(self.list)
        self.refresh_button = QPushButton("Atualizar", self)
        self.layout_box = QComboBox(self)
        for value, text in LAYOUTS:
            self.layout_box.addItem(text, value)
        self.generate_button = QPushButton("Gerar lote", self)
        self.generate_button.setEnabled(False)
        self.cancel_button = QPushButton("Cancelar", self)
        self.cancel_button.setVisible(False)
        self.view_button = QPushButton("Visualizar o último lote", self)
        self.view_button.setEnabled(False)
        self.progress = QProgressBar(self)
        self.progress.setVisible(False)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.role_note = QLabel(self)
        self.role_note.setWordWrap(True)
        allowed = may_issue(actor, "sticker")
        if not allowed:
            self.role_note.setText("Seu perfil não emite adesivos: exige o perfil "
                                   f"{roles_text(issue_roles('sticker'))}.")
            self.role_note.setStyleSheet(ERROR_LABEL_STYLE)
        else:
            self.role_note.setVisible(False)
        self._allowed = allowed
        explanation = QLabel(
            "Autorizações ativas sem adesivo impresso desde o último pagamento da taxa (Art. 14). O lote sai num só "
            "PDF, com um número de documento, e fica registrado no histórico de cada autorização.", self)
        explanation.setWordWrap(True)

        top = QHBoxLayout()
        top.addWidget(self.count_label, 1)
        top.addWidget(self.refresh_button)
        form = QFormLayout()
        form.addRow("Modelo", self.layout_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self.generate_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.view_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(explanation)
        layout.addLayout(top)
        layout.addWidget(self.list, 1)
        layout.addLayout(form)
        layout.addWidget(self.role_note)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)

        self.refresh_button.clicked.connect(self.load)
        self.generate_button.clicked.connect(self.generate)
        self.cancel_button.clicked.connect(self.cancel)
        self.view_button.clicked.connect(self.view_last)

    def busy(self) -> bool:
        return self.batch_task is not None and not self.batch_task.finished

    # -- pending list ---------------------------------------------------------------------------------------
    def load(self):
        from desktop.views.reports.jobs import pending_job  # cycle: desktop.views.reports.jobs imports this module at its top

        def show(numbers):
            if not _alive(self):
                return
            self.numbers = list(numbers)
            self.list.clear()
            self.list.addItems(self.numbers)
            count = len(self.numbers)
            self.count_label.setText("Nenhum adesivo pendente." if count == 0 else
                                     "1 adesivo pendente" if count == 1 else f"{count} adesivos pendentes")
            self.generate_button.setEnabled(self._allowed and count > 0 and not self.busy())

        def failed(error):
            if _alive(self):
                self.count_label.setText("")
                self._say(error_text(error), error=True)

        if not self._allowed:   # the pending list is read by those who print stickers (the service refuses others)
            self.numbers = []
            self.list.clear()
            self.count_label.setText("")
            return None
        self.count_label.setText("Contando os adesivos pendentes…")
        self.load_task = Task(pending_job, self.db, self.actor).success(show).failure(failed).run_in_background(
            self, show_progress=False)
        return self.load_task

    def _say(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(ERROR_LABEL_STYLE if error else "")

    # -- batch ----------------------------------------------------------------------------------------------
    def generate(self):

        if self.busy() or not self.generate_button.isEnabled():
            return None
        layout = self.layout_box.currentData()
        self.generate_button.setEnabled(False)
        self.refresh_button.setEnabled(False)
        self.cancel_button.setVisible(True)
        self.cancel_button.setEnabled(True)
        self.progress.setVisible(True)
        self.progress.setRange(0, 0)
        self._say("Gerando o lote de adesivos…")

        def progressed(done: int, total: int, text: str) -> None:
            if not _alive(self):
                return
            if total:
                self.progress.setRange(0, total)
                self.progress.setValue(min(done, total))
            if text:
                self._say(text)

        def finish() -> None:
            self.cancel_button.setVisible(False)
            self.progress.setVisible(False)
            self.refresh_button.setEnabled(True)

        def done(issued):
            if not _alive(self):
                return
            finish()
            self.last_batch = issued
            self.view_button.setEnabled(True)
            self._say(f"Lote arquivado como documento nº {issued.info.number}.")
            bus.data_changed.emit(Entity.ISSUED_DOCUMENT)
            self.load()
            self.view_last()

        def failed(error):
            if not _alive(self):
                return
            finish()
            if isinstance(error, Cancelled):
                self._say("Lote cancelado: nenhum documento foi numerado nem arquivado, e os adesivos continuam "
                          "pendentes.")
            else:
                self._say(error_text(error), error=True)
            self.load()

        self.batch_task = (Task(pending_stickers_job, self.db, self.actor, layout=layout, workers=self.workers)
                           .on_progress(progressed).success(done).failure(failed)
                           .run_in_background(self, title="Lote de adesivos", label="Gerando o lote de adesivos…",
                                              pool=self.pool))
        return self.batch_task

    def cancel(self) -> None:
        if self.busy():
            self.batch_task.cancel()
            self.cancel_button.setEnabled(False)
            self._say("Cancelando…")

    def view_last(self) -> None:
        if self.last_batch is None:
            return
        number = self.last_batch.info.number
        self._open_preview(self.last_batch.pdf, f"Lote de adesivos (documento nº {number})",
                           f"adesivos-{number.replace('/', '-')}.pdf")
