"""The Correspondência screen's dialogs (issue 26): what the carrier wrote on one AR (receipt or return, with the
scanned page as the proof) and the month's edital of the returned ARs (Art. 22, §1, II).

No SQL and no law: each dialog calls one service through `op(...)` and shows its problems next to the fields."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (QButtonGroup, QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QRadioButton,
                               QWidget, QFileDialog)

from desktop.domain.correspondence import DISPATCHED_FORMS, ReturnReason
from desktop.domain.dates import local_today
from desktop.domain.entities import Entity
from desktop.domain.formatting import format_date
from desktop.domain.problems import Problem
from desktop.errors import ValidationError
from desktop.services import correspondence
from desktop.views.date_fields import DateField
from desktop.views.operations import op
from desktop.views.table import Column, RecordTable
from desktop.views.widgets import FormDialog, fit_size

__all__ = ["ReceiveDialog", "EditalDialog", "RegisterPrintedDialog", "reason_combo", "PROOF_FILES", "DESK_CHANGES"]

PROOF_FILES = "AR digitalizado (*.pdf *.png *.jpg *.jpeg)"
DESK_CHANGES = (Entity.DISPATCHES, Entity.AUTOS, Entity.DOCUMENTS, Entity.DATA_REQUEST)
"""What joining a proof changes: the register, the auto's process (its notification and term), the documents."""


def reason_combo(parent: QWidget) -> QComboBox:
    """The carrier's boxes for an AR back undelivered, as printed on the slip."""
    combo = QComboBox(parent)
    combo.addItem("Escolha o motivo…", None)
    for reason in ReturnReason:
        combo.addItem(reason.value.capitalize(), reason.value)
    return combo


def _row(parent: QWidget, *widgets) -> QWidget:
    holder = QWidget(parent)
    line = QHBoxLayout(holder)
    line.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        line.addWidget(widget)
    line.addStretch(1)
    return holder


class ReceiveDialog(FormDialog):
    """"Registrar recebimento…": the date and the receiver's name written on the AR — or, for a letter the post
    brought back, the reason — and the scanned AR as the proof. Joining it starts the case's term (Art. 22, §2)."""

    def __init__(self, db, actor, info, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.info = db, actor, info
        self.saved = None
        self.proof: tuple[str, bytes, str] | None = None
        self.setWindowTitle(f"Registrar recebimento — {info.code_text}")
        intro = QLabel(f"<b>{info.document_title}</b> — {info.case_label}<br>Destinatário: {info.recipient_name}"
                       f"<br>Enviado em {format_date(info.sent_on) if info.sent_on else '—'} ({info.form_label})",
                       self)
        intro.setWordWrap(True)
        self.received_radio = QRadioButton("Recebido (AR assinado / resposta)", self)
        self.returned_radio = QRadioButton("Devolvido pelo correio", self)
        self.received_radio.setChecked(True)
        self.returned_radio.setVisible("return" in info.actions)
        group = QButtonGroup(self)
        group.addButton(self.received_radio)
        group.addButton(self.returned_radio)
        self.received_on = DateField(self, local_today(), not_future=True, field="received_on",
                                     label="Data escrita no AR")
        self.received_by = QLineEdit(self)
        self.received_by.setAccessibleName("Recebido por")
        self.received_by.setPlaceholderText("Nome do recebedor, como escrito no AR")
        self.reason = reason_combo(self)
        self.reason.setAccessibleName("Motivo da devolução")
        self.proof_button = QPushButton("Escolher arquivo…", self)
        self.proof_button.clicked.connect(self.choose_proof)
        self.proof_label = QLabel("nenhum arquivo escolhido", self)
        self.build_form([("outcome", "", _row(self, self.received_radio, self.returned_radio)),
                         ("received_on", "Data no AR:", self.received_on),
                         ("received_by", "Recebido por:", self.received_by),
                         ("returned", "Motivo da devolução:", self.reason),
                         ("proof", "AR digitalizado:", _row(self, self.proof_button, self.proof_label))],
                        intro=intro)
        self.buttons.button(self.buttons.StandardButton.Save).setText("&Juntar")
        group.buttonToggled.connect(lambda *_: self._outcome_changed())
        self._outcome_changed()

    def _outcome_changed(self) -> None:
        returned = self.returned_radio.isChecked()
        self.received_by.setEnabled(not returned)
        self.reason.setEnabled(returned)

    def choose_proof(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "AR digitalizado", "", PROOF_FILES)
        if path:
            self.use_proof(path)

    def use_proof(self, path: str) -> None:
        file = Path(path)
        self.proof = (file.name, file.read_bytes(), "")
        self.proof_label.setText(file.name)
        self.errors.clear_field("proof")

    def call(self):
        """The service call, reading the fields (a bad date is a ValidationError naming its field)."""
        problems = []
        try:
            received_on = self.received_on.value()
        except ValidationError as error:
            problems += error.problems
            received_on = None
        if self.proof is None:
            problems.append(Problem("proof", "Escolha o arquivo do AR digitalizado (PDF ou imagem)."))
        returned = self.reason.currentData() if self.returned_radio.isChecked() else None
        if self.returned_radio.isChecked() and returned is None:
            problems.append(Problem("returned", "Escolha o motivo da devolução marcado pelo carteiro."))
        if problems:
            raise ValidationError(problems)
        if returned is not None:
            return correspondence.receive(self.db, self.actor, self.info.code, proof=self.proof,
                                          received_on=received_on, returned=returned)
        return correspondence.receive(self.db, self.actor, self.info.code, proof=self.proof,
                                      received_on=received_on, received_by=self.received_by.text())

    def save(self) -> bool:
        self.errors.clear()
        return op(self, self.call).fields(self.errors).changes(*DESK_CHANGES).success(self._saved).run()

    def _saved(self, info) -> None:
        self.saved = info
        self.accept()


class EditalDialog(FormDialog):
    """"Publicar edital do mês…": the autos whose AR came back undelivered go on one edital affixed on the notice
    board (Art. 22, §1, II); the affixing date is the joined proof, the term runs from it (§2)."""

    def __init__(self, db, actor, waiting, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.saved = None
        self.setWindowTitle("Publicar edital do mês (Art. 22, §1º, II)")
        lines = "".join(f"<li>{d.case_label} — {d.recipient_name} (AR {d.code_text}: {d.return_reason})</li>"
                        for d in waiting)
        self.intro = QLabel(f"<p>{len(waiting)} processo(s) com AR devolvido entram no edital:</p><ul>{lines}</ul>",
                            self)
        self.intro.setWordWrap(True)
        self.posted_on = DateField(self, local_today(), not_future=True, field="posted_on", label="Afixado em")
        self.build_form([("posted_on", "Afixado no mural em:", self.posted_on)], intro=self.intro)
        self.buttons.button(self.buttons.StandardButton.Save).setText("&Publicar")

    def save(self) -> bool:
        self.errors.clear()

        def call():
            return correspondence.post_edital(self.db, self.actor, self.posted_on.value())

        return op(self, call).fields(self.errors).changes(*DESK_CHANGES, Entity.ISSUED_DOCUMENT) \
            .success(self._saved).run()

    def _saved(self, issued) -> None:
        self.saved = issued
        self.accept()


PRINTED_COLUMNS = (
    Column("Documento", lambda n: f"{n.kind_label} nº {n.number}"),
    Column("Emitido em", lambda n: n.issued_on),
    Column("Processo", lambda n: n.case_label),
    Column("Destinatário", lambda n: n.recipient_name),
    Column("Endereço / e-mail", lambda n: n.where),
)


class RegisterPrintedDialog(FormDialog):
    """"Registrar notificação impressa…": a notice printed on its own screen (the auto's notices, a data request's
    ofício, an inspection's convocation) enters the register for one addressee, with the form of Art. 22, §1 —
    it then has its code and goes to the day's batch (post) or out by e-mail."""

    def __init__(self, db, actor, printed, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.saved = None
        self.setWindowTitle("Registrar notificação impressa (Art. 22, §1º)")
        self.intro = QLabel(f"{len(printed)} notificação(ões) impressa(s) fora do registro de expedição. Escolha "
                            "uma e a forma de notificação: ela recebe o seu código e entra na expedição.", self)
        self.intro.setWordWrap(True)
        self.table = RecordTable(PRINTED_COLUMNS, self, filter_placeholder="Filtrar por documento, processo ou "
                                                                           "destinatário…")
        self.table.set_rows(list(printed))
        self.table.setMinimumSize(760, 220)
        self.form_combo = QComboBox(self)
        for form in DISPATCHED_FORMS:
            self.form_combo.addItem(form.label, form.value)
        self.table.selection_changed.connect(self._chosen)
        self.build_form([("notice", "Notificação:", self.table), ("form", "Forma:", self.form_combo)],
                        intro=self.intro)
        self.buttons.button(self.buttons.StandardButton.Save).setText("&Registrar")
        self.resize(fit_size(880, 520, parent))

    def _chosen(self, notice) -> None:
        """A platform or a recipient with e-mail only: e-mail first (Art. 22, §1, VI); else the post with AR."""
        if notice is None:
            return
        wanted = "electronic" if notice.addressee == "platform" and notice.email else "post"
        self.form_combo.setCurrentIndex(max(0, self.form_combo.findData(wanted)))

    def save(self) -> bool:
        self.errors.clear()
        notice = self.table.selected()
        if notice is None:
            self.errors.show([Problem("notice", "Escolha na lista a notificação a registrar.")])
            return False

        def call():
            return correspondence.register_printed(self.db, self.actor, notice.issued_document_id, notice.addressee,
                                                   self.form_combo.currentData())

        return op(self, call).fields(self.errors).changes(Entity.DISPATCHES).success(self._saved).run()

    def _saved(self, info) -> None:
        self.saved = info
        self.accept()
