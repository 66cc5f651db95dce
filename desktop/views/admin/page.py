"""Administração: users and roles, dated parameters, municipal holidays, municipality data, database settings,
automatic backups.

Each tab is its own widget owning its operations (STYLE: no god window); this page only arranges them and
shows the tabs the user's roles can use (the services still check every call).
"""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from desktop.domain.roles import Role
import importlib

ADMIN = frozenset({Role.ADMINISTRADOR})
ADMIN_OR_GESTOR = frozenset({Role.ADMINISTRADOR, Role.GESTOR})

# (title, "module:Class", roles that see the tab)
TABS = (
    ("Usuários", "desktop.views.admin.users:UsersScreen", ADMIN),
    ("Parâmetros", "desktop.views.admin.parameters:ParametersScreen", ADMIN_OR_GESTOR),
    ("Feriados municipais", "desktop.views.admin.holidays:HolidaysScreen", ADMIN_OR_GESTOR),
    ("Município", "desktop.views.admin.municipality:MunicipalityScreen", ADMIN),
    ("Banco de dados", "desktop.views.database_settings:DatabaseSettingsScreen", ADMIN),
    ("Cópias de segurança", "desktop.views.admin.backups:BackupsScreen", ADMIN),
)


class AdministrationPage(QWidget):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)

        self.db = db
        self.actor = actor
        self.tabs = QTabWidget(self)
        self.screens: dict[str, QWidget] = {}
        for title, factory, roles in TABS:
            if not any(role in roles for role in actor.roles):
                continue
            module_name, _, class_name = factory.partition(":")
            screen = getattr(importlib.import_module(module_name), class_name)(db, actor, self.tabs)
            self.screens[title] = screen
            self.tabs.addTab(screen, title)
        heading = QLabel("<h2>Administração</h2>", self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 8, 16, 8)
        layout.addWidget(heading)
        layout.addWidget(self.tabs)

    def tab_titles(self) -> list[str]:
        return [self.tabs.tabText(i) for i in range(self.tabs.count())]

    FILTER_TABS = {"backups": "Cópias de segurança", "users": "Usuários", "parameters": "Parâmetros"}

    def open_filtered(self, filter: dict) -> None:  # noqa: A002 — the dashboard's target filter
        """A dashboard tile opens its tab (e.g. {"tab": "backups"} → Cópias de segurança)."""
        title = self.FILTER_TABS.get(filter.get("tab", ""))
        if title in self.screens:
            self.show_tab(title)

    def show_tab(self, title: str) -> QWidget:
        screen = self.screens[title]
        self.tabs.setCurrentWidget(screen)
        return screen
