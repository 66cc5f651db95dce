"""The Relatórios module (issue 7): issue every official document, the archive of issued documents with
reprints ("2ª via"), the batch of pending stickers and the sticker check. Each tab owns its widgets; every
document is made by desktop.services.documents in the background and shown in PdfPreviewDialog."""
from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTabWidget, QVBoxLayout, QWidget

from desktop.domain.roles import Role
from desktop.views.reports.archive import ArchivePanel
from desktop.views.reports.batch import PendingStickersPanel
from desktop.views.reports.issue import IssuePanel
from desktop.views.reports.kinds import ENTRIES, may_issue
from desktop.views.sticker_check import StickerCheckWidget
from desktop.domain.entities import Entity
from desktop.signals import bus
from desktop.views.sticker_check import StickerCheckDialog


def _alive(widget) -> bool:
    from shiboken6 import isValid  # lazy: Qt loads only when this runs (start-up cost)
    return isValid(widget)


class ReportsPage(QWidget):
    """`ReportsPage(db, actor, parent)`. `preview_factory(pdf, title, parent, suggested_name)` builds the preview
    (PdfPreviewDialog by default); the page shows it without blocking and keeps it in `last_preview`."""

    def __init__(self, db, actor, parent=None, preview_factory=None, batch_workers: int = 2):
        super().__init__(parent)
        self.db = db
        self.actor = actor
        self.preview_factory = preview_factory
        self.last_preview = None
        self.check_dialog = None

        title = QLabel("<h2>Relatórios e documentos oficiais</h2>", self)
        allowed = [entry.label for entry in ENTRIES if may_issue(actor, entry.kind)]
        profile = ", ".join(role.label for role in Role if role in actor.roles) or "sem perfil"
        self.roles_label = QLabel(self)
        self.roles_label.setWordWrap(True)
        if allowed:
            self.roles_label.setText(f"Com o seu perfil ({profile}) você emite "
                                     f"{len(allowed)} de {len(ENTRIES)} documentos. Os demais aparecem em cinza.")
        else:
            self.roles_label.setText(f"O seu perfil ({profile}) não emite "
                                     "documentos; você pode consultar o arquivo e verificar adesivos.")
        self.check_window_button = QPushButton("Verificar adesivo em janela separada…", self)

        self.issue_panel = IssuePanel(db, actor, self.open_preview, self)
        self.archive_panel = ArchivePanel(db, actor, self.open_preview, self)
        self.batch_panel = PendingStickersPanel(db, actor, self.open_preview, self, workers=batch_workers)
        self.check_widget = StickerCheckWidget(db, self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.issue_panel, "Emitir documento")
        self.tabs.addTab(self.archive_panel, "Documentos emitidos")
        self.tabs.addTab(self.batch_panel, "Adesivos pendentes")
        self.tabs.addTab(self.check_widget, "Verificar adesivo")
        self.statistics_panel = None
        if actor.has(Role.ATENDENTE, Role.FISCAL, Role.GESTOR, Role.ADMINISTRADOR):
            from desktop.views.reports.statistics import StatisticsPanel  # cycle: desktop.views.reports.statistics imports this module at its top

            self.statistics_panel = StatisticsPanel(db, actor, lambda pdf, title, name: self.open_preview(
                pdf, title, name), self)
            self.tabs.addTab(self.statistics_panel, "Estatísticas")

        head = QHBoxLayout()
        head.addWidget(title, 1)
        head.addWidget(self.check_window_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addLayout(head)
        layout.addWidget(self.roles_label)
        layout.addWidget(self.tabs, 1)

        self.issue_panel.issued.connect(self._issued)
        self.batch_panel.sticker_chosen.connect(self.issue_sticker)
        self.check_window_button.clicked.connect(self.open_check_window)
        self.tabs.currentChanged.connect(self._tab_changed)
        bus.data_changed.connect(self._data_changed)
        self._loaded: set[int] = set()

    # -- tabs load their data when first shown, and again after a change --------------------------------------
    def _tab_changed(self, index: int) -> None:
        widget = self.tabs.widget(index)
        if widget is self.archive_panel:
            self.archive_panel.load()
        elif widget is self.batch_panel and not self.batch_panel.busy():
            self.batch_panel.load()
        elif widget is self.statistics_panel and self.statistics_panel.list.currentRow() < 0:
            self.statistics_panel.list.setCurrentRow(0)   # the first statistic, computed when first shown
        self._loaded.add(index)

    def _data_changed(self, entity: str) -> None:
        if not _alive(self):
            return
        if entity in (Entity.ISSUED_DOCUMENT, Entity.AUTHORIZATIONS):   # a fee payment announces "authorizations"
            current = self.tabs.currentWidget()
            if current is self.archive_panel:
                self.archive_panel.load()
            elif current is self.batch_panel and not self.batch_panel.busy():
                self.batch_panel.load()

    def issue_sticker(self, number: str):
        """Enter on a pending sticker: "Emitir documento" with the sticker of that authorization, issued."""
        self.tabs.setCurrentWidget(self.issue_panel)
        return self.issue_panel.issue_for("sticker", number)

    def _issued(self, _issued) -> None:
        bus.data_changed.emit(Entity.ISSUED_DOCUMENT)

    def open_filtered(self, filter: dict) -> None:  # noqa: A002 — issue 16: a home-dashboard tile
        """{"tab": "stickers"} → the pending stickers (Art. 14)."""
        self.show_tab("batch" if filter.get("tab") == "stickers" else filter.get("tab", "issue"))

    def show_tab(self, name: str) -> QWidget:
        widget = {"issue": self.issue_panel, "archive": self.archive_panel, "batch": self.batch_panel,
                  "check": self.check_widget, "statistics": self.statistics_panel}[name]
        self.tabs.setCurrentWidget(widget)
        return widget

    # -- preview and check window ------------------------------------------------------------------------------
    def open_preview(self, pdf: bytes, title: str, suggested_name: str = "documento.pdf"):
        if self.preview_factory is not None:
            dialog = self.preview_factory(pdf, title, self, suggested_name)
        else:
            from desktop.views.pdf_preview import PdfPreviewDialog  # local: imported only on this branch
            dialog = PdfPreviewDialog(pdf, title, self, suggested_name=suggested_name)
        self.last_preview = dialog
        dialog.show()
        return dialog

    def open_check_window(self):
        if self.check_dialog is None or not _alive(self.check_dialog):
            self.check_dialog = StickerCheckDialog(self.db, self)
        self.check_dialog.show()
        self.check_dialog.raise_()
        return self.check_dialog
