"""Financeiro/ISSQN, the module of the main window: the fines ledger in UPFM (Art. 25, 28; SPEC §3) — every entry,
an infractor's statement at any date, the overdue list and the list to send to dívida ativa (`finance.ledger`) —,
the guides of every debt and the bank's return file (`finance.guides`, `finance.bank_return`), and the ISSQN
estimate per vehicle (Art. 11, `finance.issqn.IssqnPage`), built the first time its tab is shown.
"""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from desktop.domain.entities import Entity
from desktop.views.enforcement.lookups import Lookups
from desktop.views.widgets import restricted_page
from desktop.signals import bus
from desktop.views.enforcement.lookups import service_lookups
from desktop.views.finance.ledger import DebtListScreen, InfractorScreen, LedgerScreen
from desktop.services.ledger import READER_ROLES
from desktop.views.finance.bank_return import BankReturnScreen
from desktop.views.finance.guides import GuidesScreen
from desktop.services.bank_returns import IMPORT_ROLES


class FinancePage(QWidget):
    def __init__(self, db, actor, parent=None, lookups: Lookups | None = None):
        super().__init__(parent)

        self.db, self.actor = db, actor

        if not actor.has(*READER_ROLES):   # the services refuse it too; say so once, not in four error boxes
            restricted_page(self, "Financeiro", READER_ROLES)
            return
        self.lookups = lookups or service_lookups(db, actor)
        self.infractor_screen = InfractorScreen(db, actor, self, lookups=self.lookups)
        self.ledger_screen = LedgerScreen(db, actor, self, lookups=self.lookups)
        self.overdue_screen = DebtListScreen(db, actor, "overdue", self)
        self.divida_screen = DebtListScreen(db, actor, "divida_ativa", self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.infractor_screen, "Infrator e extrato")
        self.tabs.addTab(self.ledger_screen, "Lançamentos")
        self.tabs.addTab(self.overdue_screen, "Multas vencidas")
        self.tabs.addTab(self.divida_screen, "Dívida ativa")
        # issue 13: the guides of every debt and the bank's return file

        self.guides_screen = GuidesScreen(db, actor, self)
        self.tabs.addTab(self.guides_screen, "Guias")
        self.bank_return_screen = None
        if actor.has(*IMPORT_ROLES):   # the bank's file is the cashier's (atendente) and the gestor's
            self.bank_return_screen = BankReturnScreen(db, actor, self)
            self.tabs.addTab(self.bank_return_screen, "Retorno bancário")
        # issue 13: the ISSQN estimate per vehicle (Art. 11), built when its tab is first shown
        self.issqn_page = None
        self.issqn_tab = QWidget(self)
        QVBoxLayout(self.issqn_tab).setContentsMargins(0, 0, 0, 0)
        self.tabs.addTab(self.issqn_tab, "ISSQN")
        self.tabs.currentChanged.connect(self._tab_shown)
        heading = QLabel("<h2>Financeiro — multas em UPFM, guias e ISSQN</h2>", self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 8, 16, 8)
        layout.addWidget(heading)
        layout.addWidget(self.tabs, 1)
        bus.data_changed.connect(self._data_changed)
        for screen in (self.infractor_screen, self.overdue_screen, self.divida_screen):
            screen.auto_opened.connect(self.open_auto)
        self.ledger_screen.auto_opened.connect(self.open_auto)
        self.ledger_screen.infractor_opened.connect(self.open_infractor)

    def _tab_shown(self, index: int) -> None:
        if self.tabs.widget(index) is self.issqn_tab:
            self.open_issqn()

    def open_issqn(self):
        """The ISSQN tab (Financeiro → ISSQN), created on first use."""
        if self.issqn_page is None:
            from desktop.views.finance.issqn import IssqnPage  # local: imported only on this branch

            self.issqn_page = IssqnPage(self.db, self.actor, self.issqn_tab)
            self.issqn_tab.layout().addWidget(self.issqn_page)
        self.tabs.setCurrentWidget(self.issqn_tab)
        return self.issqn_page

    def open_auto(self, auto_id: int):
        """Double-click on an auto of the statement or of a debt list: its page in Fiscalização (the main window
        hosts the navigation)."""
        window = self.window()
        if not hasattr(window, "open_module"):
            return None
        page = window.open_module("fiscalizacao")
        page.open_auto(auto_id)
        return page

    def open_infractor(self, infractor, label: str) -> None:
        """Enter on a ledger entry of no auto: the infractor's page and statement (issue 29 point 1)."""
        self.tabs.setCurrentWidget(self.infractor_screen)
        self.infractor_screen.show_infractor(infractor, label)

    def _data_changed(self, entity: str) -> None:
        if entity in (Entity.AUTOS, Entity.LEDGER, Entity.DEMO, Entity.GUIDES):
            self.infractor_screen.reload()
            self.ledger_screen.reload()
            self.overdue_screen.reload()
            self.divida_screen.reload()
            self.guides_screen.reload()

    def open_filtered(self, filter: dict) -> None:  # noqa: A002 — issue 16: a home-dashboard tile
        """{"tab": "overdue"} → the overdue fines (the dashboard's "Multas e guias vencidas")."""
        if hasattr(self, "tabs"):
            self.tabs.setCurrentWidget(self.divida_screen if filter.get("tab") == "divida_ativa"
                                       else self.overdue_screen)

    def tab_titles(self) -> list[str]:
        return [self.tabs.tabText(i) for i in range(self.tabs.count())]
