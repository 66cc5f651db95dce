"""Documentos emitidos: the archive (newest first, the last 200 or 2,000) and "Reimprimir": the archived bytes
with the "Nª via" stamp, checked against the SHA-256 of the issue — never a new rendering with today's data."""
from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.errors import DesktopError
from desktop.views.formatting import format_datetime
from desktop.views.reports.kinds import issue_roles, may_issue, record_text, roles_text
from desktop.views.table import Column, RecordTable
from desktop.views.widgets import ERROR_LABEL_STYLE, error_text
from desktop.domain.entities import Entity
from desktop.background import Task
from desktop.views.operations import op

COLUMNS = (
    Column("Documento nº", lambda r: r.number),
    Column("Tipo", lambda r: r.kind_label),
    Column("Registro", lambda r: r.record_label or record_text(r.record_type, r.record_id)),
    Column("Emitido em", lambda r: r.issued_at, text=format_datetime),
    Column("Emitido por", lambda r: r.issued_by_name or "—"),
    Column("Reimpressões", lambda r: r.copies),
    Column("SHA-256", lambda r: r.sha256[:16] + "…"),
)
LIMITS = ((200, "Últimos 200"), (2000, "Últimos 2.000"))


def _alive(widget) -> bool:
    from shiboken6 import isValid  # lazy: Qt loads only when this runs (start-up cost)
    return isValid(widget)


def next_copy_label(copies: int) -> str:
    """A document never reprinted gets its 2ª via; after n reprints, the (n + 2)ª."""
    return f"{copies + 2}ª via"


class ArchivePanel(QWidget):
    def __init__(self, db, actor, open_preview, parent=None):
        super().__init__(parent)
        self.db = db
        self.actor = actor
        self._open_preview = open_preview
        self.load_task = None
        self.reprint_task = None

        self.table = RecordTable(COLUMNS, self, filter_placeholder="Filtrar por número, tipo ou registro…")
        self.limit_box = QComboBox(self)
        for value, text in LIMITS:
            self.limit_box.addItem(text, value)
        self.refresh_button = QPushButton("Atualizar", self)
        self.reprint_button = QPushButton("&Reimprimir (2ª via)", self)
        self.reprint_button.setEnabled(False)
        self.count_label = QLabel(self)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        note = QLabel("A reimpressão é o documento arquivado, conferido pelo código de integridade (SHA-256), "
                      "com o carimbo \"2ª via\" (ou 3ª, 4ª…) em todas as páginas: nunca um documento novo com os "
                      "dados de hoje.", self)
        note.setWordWrap(True)
        note.setStyleSheet("color: #555;")

        bar = QHBoxLayout()
        bar.addWidget(self.limit_box)
        bar.addWidget(self.refresh_button)
        bar.addWidget(self.count_label, 1)
        bar.addWidget(self.reprint_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.message)
        layout.addWidget(note)

        self.refresh_button.clicked.connect(self.load)
        self.limit_box.currentIndexChanged.connect(lambda _i: self.load())
        self.table.selection_changed.connect(self._selected)
        self.table.activated.connect(lambda _row: self.reprint())
        self.reprint_button.clicked.connect(self.reprint)

    # -- loading --------------------------------------------------------------------------------------------
    def load(self):
        from desktop.views.reports.jobs import archive_job  # cycle: desktop.views.reports.jobs imports this module at its top

        def show(rows):
            if not _alive(self):
                return
            self.table.set_rows(rows, keep=lambda r: r.number)
            limit = self.limit_box.currentData()
            more = f" (os {limit} mais recentes)" if len(rows) >= limit else ""
            self.count_label.setText(f"{len(rows)} documento(s){more}")

        def failed(error):
            if _alive(self):
                self._say(error_text(error), error=True)

        self.count_label.setText("Carregando…")
        self.load_task = (Task(archive_job, self.db, self.actor, self.limit_box.currentData()).success(show).failure(failed)
                          .run_in_background(self, show_progress=False))
        return self.load_task

    def rows(self):
        return self.table.model.rows()

    def _selected(self, row) -> None:
        if row is None:
            self.reprint_button.setEnabled(False)
            self.reprint_button.setText("&Reimprimir (2ª via)")
            self.reprint_button.setToolTip("")
            return
        allowed = may_issue(self.actor, row.kind)
        self.reprint_button.setText(f"&Reimprimir ({next_copy_label(row.copies)})")
        self.reprint_button.setEnabled(allowed)
        self.reprint_button.setToolTip("" if allowed else
                                       f"Exige o perfil {roles_text(issue_roles(row.kind))}.")

    def _say(self, text: str, error: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(ERROR_LABEL_STYLE if error else "")

    # -- reprint --------------------------------------------------------------------------------------------
    def reprint(self):
        """The archived bytes with the "Nª via" stamp, in the background (op(...).background)."""
        from desktop.views.reports.jobs import reprint_job  # cycle: desktop.views.reports.jobs imports this module at its top

        row = self.table.selected()
        if row is None or not self.reprint_button.isEnabled():
            return None
        if self.reprint_task is not None and not self.reprint_task.finished:
            return None
        label = next_copy_label(row.copies)

        def done(data: bytes):
            if not _alive(self):
                return
            self._say(f"{label} do documento nº {row.number} ({row.kind_label}) pronta para imprimir.")
            self._open_preview(data, f"{row.kind_label} — documento nº {row.number} ({label})",
                               f"{row.kind}-{row.number.replace('/', '-')}-{label.replace('ª ', 'a-')}.pdf")

        def failed(error) -> bool:
            if not _alive(self):
                return True
            if isinstance(error, DesktopError):
                self._say(error_text(error), error=True)
                return True
            return False                                # a bug: op's "Erro inesperado" with the traceback

        self._say("")
        db, actor, number = self.db, self.actor, row.number
        operation = (op(self, lambda state: reprint_job(state, db, actor, number)).changes(Entity.ISSUED_DOCUMENT)
                     .success(done).failure(failed).titled("Reimprimir")
                     .background("Reimprimir", "Preparando a reimpressão…", pass_state=True))
        operation.run()
        self.reprint_task = operation.task
        return self.reprint_task
