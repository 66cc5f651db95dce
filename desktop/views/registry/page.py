"""Cadastros (issue 4): condutores, veículos (com locadores) e plataformas — lists, wizards, detail pages.

Each tab owns its widgets and operations (STYLE: no god window); every write goes through one service call and
is announced on `bus.data_changed`, so every open list and detail page reloads itself.
"""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget
from desktop.services.dashboard_queries import DRIVER_DUE
from desktop.views.registry.drivers import DriversScreen
from desktop.views.registry.platforms import PlatformsScreen
from desktop.views.registry.vehicles import VehiclesScreen


class RegistryPage(QWidget):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.tabs = QTabWidget(self)
        self.drivers = DriversScreen(db, actor, self.tabs)
        self.vehicles = VehiclesScreen(db, actor, self.tabs)
        self.platforms = PlatformsScreen(db, actor, self.tabs)
        self.tabs.addTab(self.drivers, "Condutores")
        self.tabs.addTab(self.vehicles, "Veículos")
        self.tabs.addTab(self.platforms, "Plataformas")
        heading = QLabel("<h2>Cadastros</h2>", self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 8, 16, 8)
        layout.addWidget(heading)
        layout.addWidget(self.tabs, 1)

    def tab_titles(self) -> list[str]:
        return [self.tabs.tabText(i) for i in range(self.tabs.count())]

    def open_filtered(self, filter: dict) -> None:  # noqa: A002 — issue 16: a home-dashboard tile
        """{"due": "documents"} → the drivers whose documents expire in 30 days (Art. 12)."""

        due = filter.get("due", "")
        self.tabs.setCurrentWidget(self.drivers)
        self.drivers.set_due(due, DRIVER_DUE.get(due, ""))

    def show_tab(self, title: str) -> QWidget:
        for i in range(self.tabs.count()):
            if self.tabs.tabText(i) == title:
                self.tabs.setCurrentIndex(i)
                return self.tabs.widget(i)
        raise KeyError(title)
