"""The Fiscalização module (Art. 17–28): autos de infração, the administrative process, measures and the catalogue.

`EnforcementPage(db, actor, parent)` is the module of the main window: the list of autos (lazy, filtered) and the
page of one auto share a stack; "Novo auto de infração…" opens the fiscal's form. Two more tabs show the
administrative measures (Art. 24 II) and the infraction catalogue (Art. 25–27, 29). Every screen calls services
only, and reloads when `bus.data_changed` says autos or the ledger changed.
"""
from __future__ import annotations

from PySide6.QtWidgets import QDialog, QLabel, QStackedWidget, QTabWidget, QVBoxLayout, QWidget

from desktop.domain.entities import Entity
from desktop.signals import bus
from desktop.services.autos import READER_ROLES
from desktop.views.widgets import restricted_page
from desktop.views.enforcement.auto_form import AutoFormDialog
from desktop.views.enforcement.autos_list import AutosListScreen
from desktop.views.enforcement.catalog_view import CatalogScreen, MeasuresScreen
from desktop.views.enforcement.detail import AutoDetailScreen
from desktop.views.enforcement.lookups import Lookups, service_lookups
from desktop.domain.roles import Role


class EnforcementPage(QWidget):
    def __init__(self, db, actor, parent=None, lookups: Lookups | None = None):
        super().__init__(parent)
        self.db, self.actor = db, actor

        if not actor.has(*READER_ROLES):   # the services refuse it too; say so once
            restricted_page(self, "Fiscalização", READER_ROLES)
            return
        self.lookups = lookups or service_lookups(db, actor)
        self.list_screen = AutosListScreen(db, actor, self, lookups=self.lookups)
        self.detail_screen = AutoDetailScreen(db, actor, self)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.list_screen)
        self.stack.addWidget(self.detail_screen)
        self.measures_screen = MeasuresScreen(db, actor, self)
        self.catalog_screen = CatalogScreen(db, actor, self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.stack, "Autos de infração")
        self.tabs.addTab(self.measures_screen, "Medidas administrativas")
        self.tabs.addTab(self.catalog_screen, "Catálogo de infrações")
        self.changes_screen = None

        if actor.has(Role.FISCAL, Role.GESTOR):   # SPEC §3: late communications offered as Art. 26, III autos
            from desktop.views.authorizations.changes import ChangesScreen  # cycle: desktop.views.authorizations.changes imports this module at its top

            self.changes_screen = ChangesScreen(db, actor, self, fiscal_queue=True)
            self.tabs.addTab(self.changes_screen, "Comunicações fora do prazo (Art. 13, XVIII)")
        self.list_screen.opened.connect(self.open_auto)
        self.list_screen.new_requested.connect(self.new_auto)
        self.detail_screen.back_requested.connect(self.show_list)
        self.measures_screen.opened.connect(self.open_auto)
        heading = QLabel("<h2>Fiscalização</h2>", self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 8, 16, 8)
        layout.addWidget(heading)
        layout.addWidget(self.tabs)
        bus.data_changed.connect(self._data_changed)

    def _data_changed(self, entity: str) -> None:
        if entity in (Entity.AUTOS, Entity.LEDGER, Entity.DEMO, Entity.CATALOG):
            self.list_screen.reload()
            self.measures_screen.reload()
            if self.stack.currentWidget() is self.detail_screen and self.detail_screen.detail is not None:
                self.detail_screen.reload()   # e.g. sent to dívida ativa from Financeiro
            if entity == Entity.CATALOG:
                self.catalog_screen.reload()

    def open_filtered(self, filter: dict) -> None:  # noqa: A002 — issue 16: a home-dashboard tile
        """{"due": defense_week | appeal_week | judgment} → the autos list; {"tab": "changes"} → the late
        change communications (Art. 13, XVIII)."""
        if filter.get("tab") == "changes" and self.changes_screen is not None:
            self.tabs.setCurrentWidget(self.changes_screen)
            return
        self.tabs.setCurrentWidget(self.stack)
        self.show_list()
        self.list_screen.set_due(filter.get("due", ""))

    def open_auto(self, auto_id: int) -> None:
        self.tabs.setCurrentIndex(0)
        self.detail_screen.show_auto(auto_id)
        self.stack.setCurrentWidget(self.detail_screen)

    def show_list(self) -> None:
        self.stack.setCurrentWidget(self.list_screen)

    def new_auto(self) -> QDialog | None:

        dialog = AutoFormDialog(self.db, self.actor, self, lookups=self.lookups)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.saved is not None:
            self.open_auto(dialog.saved.id)
        return dialog


__all__ = ["EnforcementPage"]
