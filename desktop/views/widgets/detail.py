"""Pieces every detail page shares (registry, authorizations, platforms): a read-only grid of data, the full
timeline (every event, who, when), the documents attached (opened inside the program), a picker that searches a
register list, and the page frame (title, "Voltar à lista", an action bar, tabs)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QTabWidget,
                               QVBoxLayout, QWidget)

from desktop.domain.driver import CHECKLIST_BY_KEY
from desktop.views.formatting import format_datetime
from desktop.views.table import Column, RecordTable
from desktop.views.operations import query_op
from desktop.views.widgets.documents import DocumentDialog
from desktop.services import attachments

DOCUMENT_KINDS = {"crlv": "CRLV", "photo": "Foto", "platform_registration": "Inscrição municipal",
                  "app_insurance": "Apólice de seguro APP"}


def document_kind_label(kind: str) -> str:
    item = CHECKLIST_BY_KEY.get(kind)
    if item is not None:
        return item.document_label or item.label
    return DOCUMENT_KINDS.get(kind, kind)


def size_text(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB".replace(".", ",")
    return f"{max(1, round(size / 1024))} KB"


TIMELINE_COLUMNS = (
    Column("Quando", lambda e: e.at, text=format_datetime),
    Column("O quê", lambda e: e.what),
    Column("Quem", lambda e: e.who),
    Column("Detalhes", lambda e: e.detail),
)

DOCUMENT_COLUMNS = (
    Column("Documento", lambda d: document_kind_label(d.kind)),
    Column("Arquivo", lambda d: d.filename),
    Column("Número", lambda d: d.number),
    Column("Emissão", lambda d: d.issued_on),
    Column("Validade", lambda d: d.expires_on),
    Column("Tamanho", lambda d: size_text(d.size), align=Qt.AlignmentFlag.AlignRight),
    Column("Anexado em", lambda d: d.created_at, text=format_datetime),
    Column("Por", lambda d: d.uploaded_by_name),
)


class TimelineTable(RecordTable):
    """Every event of a record, newest first: when, what, who, details."""

    def __init__(self, parent=None):
        super().__init__(TIMELINE_COLUMNS, parent, filter_placeholder="Filtrar o histórico…")

    def set_entries(self, entries: Sequence[Any]) -> None:
        self.set_rows(entries)
        self.view.setColumnWidth(0, 130)
        self.view.setColumnWidth(1, 260)
        self.view.setColumnWidth(2, 180)


class DocumentsPanel(QWidget):
    """The documents attached to a record; "Ver documento" opens the scan inside the program."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.table = RecordTable(DOCUMENT_COLUMNS, self, filter_placeholder="Filtrar documentos…")
        self.view_button = QPushButton("Ver documento", self)
        self.view_button.setEnabled(False)
        self.view_button.clicked.connect(self.open_selected)
        self.table.activated.connect(lambda _d: self.open_selected())
        self.table.selection_changed.connect(lambda d: self.view_button.setEnabled(d is not None))
        self.last_dialog = None
        buttons = QHBoxLayout()
        buttons.addWidget(self.view_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.table)

    def set_documents(self, documents: Sequence[Any]) -> None:
        self.table.set_rows(documents, keep=lambda d: d.id)

    def open_selected(self) -> None:
        document = self.table.selected()
        if document is not None:
            self.open_document(document.id)

    def open_document(self, document_id: int):

        read = query_op(self, lambda: attachments.document_content(self.db, self.actor, document_id)) \
            .titled("Não foi possível abrir o documento")
        if not read.run():
            return None
        info, content = read.result
        dialog = DocumentDialog(f"{document_kind_label(info.kind)} — {info.filename}", content, info.mime, self)
        self.last_dialog = dialog
        dialog.show()
        return dialog


class InfoGrid(QWidget):
    """Label: value pairs, two columns, selectable text (data of a record, read-only)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._forms = [QFormLayout(), QFormLayout()]
        for form in self._forms:
            form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
            self._layout.addLayout(form, 1)
        self.values: dict[str, QLabel] = {}

    def set_items(self, items: Sequence[tuple[str, str]]) -> None:
        if [label for label, _value in items] == list(self.values):   # same fields: only the texts change
            for label, value in items:
                self.values[label].setText(value or "—")
            return
        for form in self._forms:
            while form.rowCount():
                form.removeRow(0)
        self.values.clear()
        half = (len(items) + 1) // 2
        for index, (label, value) in enumerate(items):
            text = QLabel(value or "—", self)
            text.setWordWrap(True)
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self._forms[0 if index < half else 1].addRow(f"{label}:", text)
            self.values[label] = text

    def value(self, label: str) -> str:
        return self.values[label].text()


class DetailFrame(QWidget):
    """Title, "← Voltar à lista", an action bar and tabs. Subclasses fill them and implement `load()`."""

    back_requested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.back_button = QPushButton("← Voltar à lista", self)
        self.back_button.clicked.connect(self.back_requested.emit)
        self.title = QLabel(self)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.subtitle = QLabel(self)
        self.subtitle.setWordWrap(True)
        self.actions_bar = QHBoxLayout()
        self.tabs = QTabWidget(self)
        self._pending: dict[int, Callable[[], None]] = {}
        self.tabs.currentChanged.connect(self._fill_current)
        top = QHBoxLayout()
        top.addWidget(self.back_button)
        top.addWidget(self.title, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.subtitle)
        layout.addLayout(self.actions_bar)
        layout.addWidget(self.tabs, 1)

    def add_action(self, text: str, slot: Callable[[], None], tooltip: str = "") -> QPushButton:
        button = QPushButton(text, self)
        button.clicked.connect(slot)
        if tooltip:
            button.setToolTip(tooltip)
        self.actions_bar.addWidget(button)
        return button

    def finish_actions(self) -> None:
        self.actions_bar.addStretch(1)

    def tab_titles(self) -> list[str]:
        return [self.tabs.tabText(i) for i in range(self.tabs.count())]

    def fill_tab(self, widget: QWidget, fill: Callable[[], None]) -> None:
        """Fill a tab now if it is showing, else the first time it is shown (opening a detail page stays fast:
        hidden tables are not laid out for nothing)."""
        index = self.tabs.indexOf(widget)
        if index == self.tabs.currentIndex():
            self._pending.pop(index, None)
            fill()
        else:
            self._pending[index] = fill

    def fill_all_tabs(self) -> None:
        for index in list(self._pending):
            self._pending.pop(index)()

    def _fill_current(self, index: int) -> None:
        fill = self._pending.pop(index, None)
        if fill is not None:
            fill()


class RecordPicker(QWidget):
    """Find one record of a paged service list by what the user types (name, CPF, plate...): a debounced filter
    box and a combo with the first matches. `value()` is the chosen row's id (or None)."""

    changed = Signal()

    def __init__(self, search: Callable[[str], Sequence[Any]], describe: Callable[[Any], str], parent=None,
                 placeholder: str = "Digite para buscar…"):
        super().__init__(parent)
        self._search = search
        self._describe = describe
        self.edit = QLineEdit(self)
        self.edit.setPlaceholderText(placeholder)
        self.edit.setClearButtonEnabled(True)
        self.combo = QComboBox(self)
        self.combo.setMinimumWidth(320)
        self.error = QLabel(self)
        self.error.setStyleSheet("color: #c62828;")
        self.error.setVisible(False)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.refresh)
        self.edit.textChanged.connect(lambda _t: self._timer.start())
        self.combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.edit)
        layout.addWidget(self.combo)
        layout.addWidget(self.error)

    def refresh(self) -> None:
        self._timer.stop()
        read = query_op(self, lambda: list(self._search(self.edit.text().strip()))).inline(self.error).otherwise([])
        if read.run():
            self.error.setVisible(False)
        rows = read.result
        self.combo.blockSignals(True)
        self.combo.clear()
        for row in rows:
            self.combo.addItem(self._describe(row), row.id)
        if not rows:
            self.combo.addItem("Nenhum registro encontrado", None)
        self.combo.blockSignals(False)
        self.changed.emit()

    def value(self) -> int | None:
        return self.combo.currentData()

    def search_now(self, text: str) -> None:
        self.edit.setText(text)
        self.refresh()
