"""The scanned ARs beside their dispatches (issue 26; Art. 22, §1, V and §2): each page of the stack the clerk
scanned, its image, the dispatch its barcode names, and what the carrier wrote — the date and the receiver's name,
or the return reason. "Juntar esta página" joins the page as the proof; a page whose code could not be read is
matched by typing the code printed under the barcode. A code already joined is refused by the service, which
names the first joining."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (QButtonGroup, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
                               QPushButton, QRadioButton, QScrollArea, QSplitter, QVBoxLayout, QWidget)

from desktop.domain.formatting import format_date
from desktop.domain.problems import Problem
from desktop.errors import ValidationError
from desktop.services import correspondence
from desktop.views.correspondence.dialogs import DESK_CHANGES, reason_combo
from desktop.views.date_fields import DateField
from desktop.views.operations import op, query_op
from desktop.views.table import Column, RecordTable
from desktop.views.widgets import FieldErrors, error_label, field_box, fit_size

__all__ = ["ScansDialog"]

NO_CODE = "sem código legível"


class ScansDialog(QDialog):
    """The pages of one scanned stack (`correspondence.read_scan`'s lines), one at a time beside the form."""

    def __init__(self, db, actor, lines, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.lines = list(lines)
        self.dispatches = {line.page: line.dispatch for line in self.lines}    # the dispatch each page is for
        self.outcomes: dict[int, str] = {}                                     # page → what was joined
        self.joined: list = []
        self.setWindowTitle("ARs digitalizados")
        self.resize(fit_size(1200, 700, self))

        self.pages = RecordTable((
            Column("Pág.", lambda r: r.page),
            Column("Código", lambda r: r.code or NO_CODE),
            Column("Expedição", lambda r: self._dispatch_text(r.page)),
            Column("Situação", lambda r: self.outcomes.get(r.page, "a conferir")),
        ), self, show_filter=False)
        self.pages.selection_changed.connect(lambda *_: self._page_chosen())

        self.image = QLabel(self)
        self.image.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        image_area = QScrollArea(self)
        image_area.setWidget(self.image)
        image_area.setWidgetResizable(True)
        image_area.setMinimumWidth(300)

        form_box = QWidget(self)
        self.page_title = QLabel(form_box)
        self.page_title.setStyleSheet("font-size: 14px; font-weight: bold;")
        self.code = QLineEdit(form_box)
        self.code.setAccessibleName("Código da expedição")
        self.code.setPlaceholderText("EX2026000001-7, como impresso sob o código de barras")
        self.check_button = QPushButton("Conferir código", form_box)
        self.check_button.clicked.connect(self.check_code)
        self.dispatch_label = QLabel(form_box)
        self.dispatch_label.setWordWrap(True)
        self.received_radio = QRadioButton("Recebido", form_box)
        self.returned_radio = QRadioButton("Devolvido pelo correio", form_box)
        self.received_radio.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.received_radio)
        group.addButton(self.returned_radio)
        group.buttonToggled.connect(lambda *_: self._outcome_changed())
        self.received_on = DateField(form_box, None, optional=True, not_future=True, field="received_on",
                                     label="Data escrita no AR")
        self.received_by = QLineEdit(form_box)
        self.received_by.setAccessibleName("Recebido por")
        self.received_by.setPlaceholderText("Nome do recebedor, como escrito no AR")
        self.reason = reason_combo(form_box)
        self.reason.setAccessibleName("Motivo da devolução")
        self.join_button = QPushButton("&Juntar esta página", form_box)
        self.join_button.clicked.connect(self.join)
        self.general = error_label(form_box)
        self.errors = FieldErrors(self.general)

        form = QFormLayout()
        code_row = QWidget(form_box)
        code_line = QHBoxLayout(code_row)
        code_line.setContentsMargins(0, 0, 0, 0)
        code_line.addWidget(self.code, 1)
        code_line.addWidget(self.check_button)
        outcome_row = QWidget(form_box)
        outcome_line = QHBoxLayout(outcome_row)
        outcome_line.setContentsMargins(0, 0, 0, 0)
        outcome_line.addWidget(self.received_radio)
        outcome_line.addWidget(self.returned_radio)
        outcome_line.addStretch(1)
        for field, label, widget in (("code", "Código:", code_row), ("outcome", "", outcome_row),
                                     ("received_on", "Data no AR:", self.received_on),
                                     ("received_by", "Recebido por:", self.received_by),
                                     ("returned", "Motivo:", self.reason)):
            message = error_label(form_box)
            form.addRow(label, field_box(widget, message, form_box))
            self.errors.add(field, self.code if field == "code" else widget, message)
        form_layout = QVBoxLayout(form_box)
        form_layout.addWidget(self.page_title)
        form_layout.addWidget(self.dispatch_label)
        form_layout.addLayout(form)
        form_layout.addWidget(self.general)
        form_layout.addWidget(self.join_button)
        form_layout.addStretch(1)

        splitter = QSplitter(self)
        splitter.addWidget(self.pages)
        splitter.addWidget(image_area)
        splitter.addWidget(form_box)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        self.pages.setMinimumWidth(300)
        form_box.setMinimumWidth(390)
        splitter.setSizes([340, 440, 410])
        self.summary = QLabel(self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText("&Fechar")
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.summary)
        layout.addWidget(buttons)

        self.pages.set_rows(self.lines)
        self.pages.view.setColumnWidth(0, 40)
        self.pages.view.setColumnWidth(1, self.pages.view.fontMetrics().horizontalAdvance("EX20260000000") + 16)
        self._summarize()
        if self.lines:
            self.pages.select_where(lambda r: r.page == self.lines[0].page)
        self._page_chosen()

    # -- what is shown --------------------------------------------------------------------------------------
    def _dispatch_text(self, page: int) -> str:
        info = self.dispatches.get(page)
        if info is None:
            line = self._line(page)
            return "expedição não encontrada" if line is not None and line.code else "a identificar"
        return f"{info.document_title} — {info.recipient_name}"

    def _line(self, page: int):
        return next((line for line in self.lines if line.page == page), None)

    def current(self):
        return self.pages.selected()

    def _summarize(self) -> None:
        unread = sum(1 for line in self.lines if line.code is None)
        text = f"{len(self.lines)} página(s) lida(s); {len(self.outcomes)} juntada(s)"
        if unread:
            text += f"; {unread} sem código legível (digite o código impresso no AR)"
        self.summary.setText(text + ".")

    def _page_chosen(self) -> None:
        line = self.current()
        self.errors.clear()
        enabled = line is not None and line.page not in self.outcomes
        for widget in (self.code, self.check_button, self.received_radio, self.returned_radio, self.received_on,
                       self.received_by, self.reason, self.join_button):
            widget.setEnabled(enabled)
        if line is None:
            self.page_title.setText("Escolha uma página.")
            self.image.clear()
            self.dispatch_label.clear()
            return
        self.page_title.setText(f"Página {line.page} — {line.source}")
        pixmap = QPixmap()
        pixmap.loadFromData(line.png)
        if not pixmap.isNull():
            self.image.setPixmap(pixmap.scaledToWidth(min(460, pixmap.width()),
                                                      Qt.TransformationMode.SmoothTransformation))
        self.code.setText(line.code or (self.dispatches[line.page].code if self.dispatches.get(line.page) else ""))
        self.code.setReadOnly(line.code is not None)
        self.received_on.set_value(None)
        self.received_by.clear()
        self.reason.setCurrentIndex(0)
        self.received_radio.setChecked(True)
        self._show_dispatch(line.page)
        if line.page in self.outcomes:
            self.dispatch_label.setText(self.dispatch_label.text() + f"<br><b>{self.outcomes[line.page]}</b>")
        self._outcome_changed()

    def _show_dispatch(self, page: int) -> None:
        info = self.dispatches.get(page)
        if info is None:
            self.dispatch_label.setText("Página sem código legível: digite o código impresso no AR e confira."
                                        if not self.code.text() else "Código sem expedição no registro.")
            self.returned_radio.setEnabled(False)
            return
        sent = format_date(info.sent_on) if info.sent_on else "—"
        self.dispatch_label.setText(f"<b>{info.code_text}</b> · {info.document_title}<br>{info.case_label}<br>"
                                    f"Destinatário: {info.recipient_name}<br>Enviado em {sent} · {info.state_label}")
        self.returned_radio.setEnabled(self.join_button.isEnabled() and "return" in info.actions)

    def _outcome_changed(self) -> None:
        enabled = self.join_button.isEnabled()
        returned = self.returned_radio.isChecked()
        self.received_by.setEnabled(enabled and not returned)
        self.reason.setEnabled(enabled and returned)

    # -- the manual match ------------------------------------------------------------------------------------
    def check_code(self) -> None:
        line = self.current()
        typed = self.code.text().strip()
        if line is None:
            return
        if not typed:
            self.errors.show([Problem("code", "Digite o código impresso sob o código de barras.")])
            return
        self.errors.clear()

        def found(info) -> None:
            self.dispatches[line.page] = info
            self._refresh(line.page)

        query_op(self, lambda: correspondence.get_dispatch(self.db, self.actor, typed)) \
            .failure(lambda error: self.errors.show([Problem("code", str(error))])).success(found).run()

    # -- joining ---------------------------------------------------------------------------------------------
    def join(self) -> bool:
        line = self.current()
        if line is None:
            return False
        self.errors.clear()
        code = self.code.text().strip()
        returned = self.returned_radio.isChecked()

        def call():
            problems = []
            if not code:
                problems.append(Problem("code", "Digite o código impresso sob o código de barras."))
            try:
                received_on = self.received_on.value()
            except ValidationError as error:
                problems += error.problems
                received_on = None
            reason = self.reason.currentData()
            if returned and reason is None:
                problems.append(Problem("returned", "Escolha o motivo da devolução marcado pelo carteiro."))
            if problems:
                raise ValidationError(problems)
            proof = (f"ar-{code}-pagina-{line.page}.png", line.png, "image/png")
            if returned:
                return correspondence.receive(self.db, self.actor, code, proof=proof, received_on=received_on,
                                              returned=reason)
            return correspondence.receive(self.db, self.actor, code, proof=proof, received_on=received_on,
                                          received_by=self.received_by.text())

        return op(self, call).fields(self.errors).titled("AR não juntado").changes(*DESK_CHANGES) \
            .success(lambda info: self._joined(line.page, info)).run()

    def _joined(self, page: int, info) -> None:
        self.joined.append(info)
        self.dispatches[page] = info
        if info.return_reason and info.joined_on is None:
            self.outcomes[page] = f"devolvido ({info.return_reason})"
        else:
            self.outcomes[page] = f"juntado em {format_date(info.joined_on)}"
        pending = [line.page for line in self.lines if line.page not in self.outcomes and line.page > page]
        self._refresh(pending[0] if pending else page)

    def _refresh(self, select_page: int) -> None:
        self.pages.set_rows(self.lines)
        self.pages.select_where(lambda r: r.page == select_page)
        self._summarize()
        self._page_chosen()
