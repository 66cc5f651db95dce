"""Emitir documento: the list of every document kind on the left, the identifier the user knows on the right,
and "Emitir e visualizar" — the service numbers, renders and archives the document (there is no unnumbered draft:
what the preview shows is the archived document), then the preview opens to print or save."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QPushButton, QRadioButton, QSplitter, QVBoxLayout,
                               QWidget)

from desktop.errors import DesktopError
from desktop.views.reports.kinds import DATE, ENTRIES, ENTRIES_BY_KEY, issue_roles, may_issue, roles_text
from desktop.views.widgets import ERROR_LABEL_STYLE, date_edit, error_text, qdate_to_date
from desktop.domain.entities import Entity
from desktop.services.documents import REISSUABLE_KINDS, IssuedSummary
from desktop.views.operations import op
from desktop.services.documents import REISSUE_REASONS
from desktop.views.formatting import format_datetime
from desktop.views.table import keyboard_list

LAYOUTS = (("page", "Um adesivo por página A4"), ("sheet", "Folha de etiquetas A4 (8 por folha)"))


def _alive(widget) -> bool:
    from shiboken6 import isValid  # lazy: Qt loads only when this runs (start-up cost)
    return isValid(widget)


class IssuePanel(QWidget):
    """Signals `issued(Issued)` after a document was archived (the page refreshes its archive)."""

    issued = Signal(object)

    def __init__(self, db, actor, open_preview, parent=None):
        super().__init__(parent)
        self.db = db
        self.actor = actor
        self._open_preview = open_preview
        self.task = None

        self.kind_list = QListWidget(self)
        self.kind_list.setAccessibleName("Documentos")
        for entry in ENTRIES:
            item = QListWidgetItem(entry.label, self.kind_list)
            item.setData(Qt.ItemDataRole.UserRole, entry.key)
            if not may_issue(actor, entry.kind):
                item.setForeground(Qt.GlobalColor.gray)
                item.setToolTip(f"Exige o perfil {roles_text(issue_roles(entry.kind))}.")
        self.kind_list.setMinimumWidth(250)

        self.title = QLabel(self)
        self.title.setStyleSheet("font-size: 14pt; font-weight: bold;")
        self.help = QLabel(self)
        self.help.setWordWrap(True)
        self.id_label = QLabel(self)
        self.id_edit = QLineEdit(self)
        self.id_edit.setClearButtonEnabled(True)
        self.date_edit = date_edit(self)
        self.layout_box = QComboBox(self)
        for value, text in LAYOUTS:
            self.layout_box.addItem(text, value)
        self.layout_label = QLabel("Modelo", self)
        self.field_error = QLabel(self)
        self.field_error.setObjectName("field_error")
        self.field_error.setStyleSheet(ERROR_LABEL_STYLE)
        self.field_error.setWordWrap(True)
        self.field_error.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.field_error.setVisible(False)
        self.role_note = QLabel(self)
        self.role_note.setWordWrap(True)
        self.issue_button = QPushButton("Emitir e visualizar", self)
        self.issue_button.setDefault(True)
        self.issue_note = QLabel(
            "Ao emitir, o documento recebe número, é arquivado com o seu código de integridade (SHA-256) e "
            "abre na visualização para imprimir ou salvar. Para outra via, use \"Documentos emitidos\".", self)
        self.issue_note.setWordWrap(True)
        self.issue_note.setStyleSheet("color: #555;")
        self.status = QLabel(self)
        self.status.setWordWrap(True)

        field_row = QHBoxLayout()
        field_row.setContentsMargins(0, 0, 0, 0)
        field_row.addWidget(self.id_edit, 1)
        field_row.addWidget(self.date_edit)
        form = QFormLayout()
        form.addRow(self.id_label, field_row)
        form.addRow("", self.field_error)
        form.addRow(self.layout_label, self.layout_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self.issue_button)
        buttons.addStretch(1)

        right = QWidget(self)
        column = QVBoxLayout(right)
        column.addWidget(self.title)
        column.addWidget(self.help)
        column.addSpacing(8)
        column.addLayout(form)
        column.addWidget(self.role_note)
        column.addLayout(buttons)
        column.addWidget(self.issue_note)
        column.addWidget(self.status)
        column.addStretch(1)

        splitter = QSplitter(self)
        splitter.addWidget(self.kind_list)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

        self.kind_list.currentRowChanged.connect(self._entry_changed)
        # Enter / double-click on a kind (issue 29 point 1): on to its number or date, where Enter issues it
        self.kind_list.itemActivated.connect(lambda _item: self.focus_identifier())
        keyboard_list(self.kind_list)
        # a lambda: `clicked` would hand its `checked` (False) to issue() as the reissue reason, and a document in
        # force would be issued again without asking (issue 12 item 17)
        self.issue_button.clicked.connect(lambda: self.issue())
        self.id_edit.returnPressed.connect(lambda: self.issue())
        self.id_edit.textEdited.connect(lambda _text: self._clear_error())
        self.kind_list.setCurrentRow(0)

    # -- state ----------------------------------------------------------------------------------------------
    def entry(self):
        item = self.kind_list.currentItem()
        return ENTRIES_BY_KEY[item.data(Qt.ItemDataRole.UserRole)] if item is not None else ENTRIES[0]

    def choose_kind(self, key: str) -> None:
        for row in range(self.kind_list.count()):
            if self.kind_list.item(row).data(Qt.ItemDataRole.UserRole) == key:
                self.kind_list.setCurrentRow(row)
                return
        raise KeyError(key)

    def identifier(self) -> str:
        if self.entry().input == DATE:
            return qdate_to_date(self.date_edit.date()).strftime("%d/%m/%Y")
        return self.id_edit.text().strip()

    def _entry_changed(self, _row: int) -> None:
        entry = self.entry()
        self.title.setText(entry.label)
        self.help.setText(entry.help)
        self.id_label.setText(entry.field_label)
        self.id_edit.setPlaceholderText(entry.placeholder)
        self.id_edit.setVisible(entry.input != DATE)
        self.date_edit.setVisible(entry.input == DATE)
        self.layout_box.setVisible(entry.layout_choice)
        self.layout_label.setVisible(entry.layout_choice)
        allowed = may_issue(self.actor, entry.kind)
        roles = roles_text(issue_roles(entry.kind))
        if allowed:
            self.role_note.setText(f"Emitem este documento os perfis {roles}.")
            self.role_note.setStyleSheet("color: #2e7d32;")
        else:
            self.role_note.setText(f"Seu perfil não emite este documento: exige o perfil {roles}.")
            self.role_note.setStyleSheet(ERROR_LABEL_STYLE)
        self.issue_button.setEnabled(allowed and not self.busy())
        self._clear_error()
        self.status.clear()

    def focus_identifier(self) -> None:
        field = self.date_edit if self.entry().input == DATE else self.id_edit
        field.setFocus(Qt.FocusReason.OtherFocusReason)
        if field is self.id_edit:
            self.id_edit.selectAll()

    def issue_for(self, key: str, identifier: str):
        """Issue the document `key` for `identifier` as a person would: kind chosen, number typed, "Emitir"."""
        self.choose_kind(key)
        self.id_edit.setText(identifier)
        return self.issue()

    def busy(self) -> bool:
        return self.task is not None and not self.task.finished

    def _clear_error(self) -> None:
        self.field_error.clear()
        self.field_error.setVisible(False)
        self.id_edit.setStyleSheet("")

    def _show_error(self, text: str) -> None:
        self.field_error.setText(text)
        self.field_error.setVisible(True)
        if self.entry().input != DATE:
            self.id_edit.setStyleSheet("border: 1px solid #c62828; background: #fff5f5;")

    # -- issuing --------------------------------------------------------------------------------------------
    def issue(self, reason: str | None = None):
        """Runs the service in the background (op(...).background); on success opens the preview of the archived
        bytes. "Cancelar" (or closing the screen) while it is generated archives nothing. When the sticker,
        credential or termo of the authorization is already in force, `choose_reissue` asks first: its 2ª via
        (the archived bytes) or a new issue with a reason (issue 12 item 17)."""
        if self.busy() or not self.issue_button.isEnabled():
            return None
        entry = self.entry()
        identifier = self.identifier()
        if not identifier:
            self._show_error(f"Preencha o campo “{entry.field_label}” ({entry.placeholder}).")
            return None
        self._clear_error()
        return self._issue(entry, identifier, reason)

    def _issue(self, entry, identifier: str, reason: str | None):
        from desktop.views.reports.jobs import issue_job  # cycle: desktop.views.reports.jobs imports this module at its top

        self.issue_button.setEnabled(False)
        self.status.setText("Gerando o documento…")
        layout = self.layout_box.currentData() if entry.layout_choice else "page"

        def done(issued):
            if not _alive(self):
                return
            self.issue_button.setEnabled(True)
            if issued is None:
                self.status.setText("Emissão cancelada: nenhum documento foi arquivado.")
                return
            if isinstance(issued, IssuedSummary):
                self._in_force(entry, identifier, issued)
                return
            self.status.setText(f"{entry.label}: documento nº {issued.info.number} emitido e arquivado.")
            self.issued.emit(issued)
            self._open_preview(issued.pdf, f"{entry.label} — {identifier} (documento nº {issued.info.number})",
                               f"{entry.kind}-{issued.info.number.replace('/', '-')}.pdf")

        def failed(error) -> bool:
            if not _alive(self):
                return True
            self.issue_button.setEnabled(True)
            self.status.clear()
            if isinstance(error, DesktopError):
                self._show_error(error_text(error))     # next to the identifier field
                return True
            return False                                # a bug: op's "Erro inesperado" with the traceback

        db, actor = self.db, self.actor
        ask = entry.kind in REISSUABLE_KINDS
        operation = (op(self, lambda state: issue_job(state, db, actor, entry.kind, identifier, layout=layout,
                                                      notice_kind=entry.notice_kind, reason=reason,
                                                      ask_in_force=ask))
                     .success(done).failure(failed).titled(entry.label)
                     .background(entry.label, "Gerando o documento…", pass_state=True))
        operation.run()
        self.task = operation.task
        return self.task

    # -- a document in force (issue 12 item 17) ----------------------------------------------------------------
    def _in_force(self, entry, identifier: str, current) -> None:
        choice = self.choose_reissue(self, entry.label, identifier, current)
        if choice is None:
            self.status.setText(f"Nada emitido: o documento nº {current.number} continua em vigor.")
        elif choice == COPY:
            self._reprint(entry, current)
        else:
            self._issue(entry, identifier, choice)

    def _reprint(self, entry, current) -> None:
        from desktop.views.reports.jobs import reprint_job  # cycle: desktop.views.reports.jobs imports this module at its top

        def done(data: bytes) -> None:
            if not _alive(self):
                return
            self.issue_button.setEnabled(True)
            self.status.setText(f"2ª via do documento nº {current.number} ({entry.label}) pronta para imprimir.")
            self._open_preview(data, f"{entry.label} — documento nº {current.number} (nova via)",
                               f"{entry.kind}-{current.number.replace('/', '-')}-via.pdf")

        def failed(error) -> bool:
            if not _alive(self):
                return True
            self.issue_button.setEnabled(True)
            if isinstance(error, DesktopError):
                self._show_error(error_text(error))
                return True
            return False

        self.issue_button.setEnabled(False)
        db, actor = self.db, self.actor
        operation = (op(self, lambda state: reprint_job(state, db, actor, current.number))
                     .changes(Entity.ISSUED_DOCUMENT).success(done).failure(failed).titled("Reimprimir")
                     .background("Reimprimir", "Preparando a 2ª via…", pass_state=True))
        operation.run()
        self.task = operation.task

    @staticmethod
    def choose_reissue(parent, label: str, identifier: str, current):
        """COPY, a REISSUE_REASONS key, or None (cancel). Replaced in tests."""
        dialog = ReissueDialog(label, identifier, current, parent)
        return dialog.choice() if dialog.exec() == QDialog.DialogCode.Accepted else None


COPY = "copy"


class ReissueDialog(QDialog):
    """"O adesivo desta autorização já foi emitido (documento nº …)": 2ª via of the archived bytes, or a new
    issue (new number) with its reason — lost, damaged, data changed."""

    def __init__(self, label: str, identifier: str, current, parent=None):

        super().__init__(parent)
        self.setWindowTitle(f"{label} já emitido")
        text = QLabel(f"{label} de {identifier} já foi emitido e está em vigor: documento nº {current.number}, "
                      f"em {format_datetime(current.issued_at)}"
                      f"{' por ' + current.issued_by_name if current.issued_by_name else ''}.\n\n"
                      "Para outra cópia do mesmo documento, imprima a 2ª via (o arquivo emitido, com o carimbo de "
                      "via). Uma nova emissão recebe outro número: informe o motivo.", self)
        text.setWordWrap(True)
        self.copy_radio = QRadioButton(f"2ª via do documento nº {current.number}", self)
        self.new_radio = QRadioButton("Nova emissão, com novo número, pelo motivo:", self)
        self.copy_radio.setChecked(True)
        self.reason_box = QComboBox(self)
        for key, reason in REISSUE_REASONS.items():
            self.reason_box.addItem(reason.capitalize(), key)
        self.reason_box.setEnabled(False)
        self.new_radio.toggled.connect(self.reason_box.setEnabled)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Continuar")
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText("Cancelar")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.copy_radio)
        layout.addWidget(self.new_radio)
        layout.addWidget(self.reason_box)
        layout.addWidget(buttons)

    def choice(self) -> str:
        return COPY if self.copy_radio.isChecked() else self.reason_box.currentData()
