"""Autorizações (issue 4): requests, decisions, fee, inspection, activation with the NNNN/AAAA number, renewal,
vehicle substitution, suspension, revocation, cassation — and the change communications of Art. 13 XVIII."""
from __future__ import annotations

from PySide6.QtWidgets import QDialog, QLabel, QTabWidget, QVBoxLayout, QWidget

from desktop.domain.roles import Role
from desktop.domain.workflow import AuthorizationStatus
from desktop.views.registry.paged import ListColumn, PagedList
from desktop.views.registry.screen import ListDetailScreen

AUTHORIZATION_COLUMNS = (
    ListColumn("Número", lambda r: r.number or "(sem número)", sort_key="number"),
    ListColumn("Situação", lambda r: r.status_label, sort_key="status"),
    ListColumn("Condutor", lambda r: r.driver_name, sort_key="driver_name"),
    ListColumn("CPF", lambda r: getattr(r, "driver_cpf_display", "")),
    ListColumn("Placa", lambda r: r.plate_display, sort_key="plate"),
    ListColumn("Protocolo", lambda r: r.protocol_date, sort_key="protocol_date"),
    ListColumn("Válida até", lambda r: r.valid_until, sort_key="valid_until"),
    ListColumn("Renovação", lambda r: "Fora do prazo" if getattr(r, "renewal_late", False) else ""),
)


def fetch_authorizations(db, actor):
    def fetch(query, offset, limit):
        from desktop.services import authorizations

        return authorizations.list_authorizations(
            db, actor, text=query.text, statuses=[query.status] if query.status else None,
            sort=query.sort or "protocol_date", descending=query.descending if query.sort else True,
            offset=offset, limit=limit)
    return fetch


class AuthorizationsScreen(ListDetailScreen):
    def __init__(self, db, actor, parent=None, today=None):
        super().__init__(db, actor, parent, entities=("authorizations", "drivers", "vehicles"))
        from desktop.views.authorizations.detail import AuthorizationDetailPage

        self.today = today
        self.last_dialog = None
        self.new_button = self.add_button("Novo requerimento…", self.new_request)
        self.new_button.setEnabled(actor.has(Role.ATENDENTE, Role.GESTOR))
        paged = PagedList(AUTHORIZATION_COLUMNS, fetch_authorizations(db, actor), self.list_page,
                          filter_placeholder="Filtrar por número (12/2026), nome, CPF ou placa…",
                          statuses=tuple((s.value, s.label) for s in AuthorizationStatus))
        paged.set_widths((100, 100, 240, 120, 90, 90, 90))
        self.set_list(paged, lambda authorization_id: AuthorizationDetailPage(db, actor, authorization_id,
                                                                               self.stack, today=today))

    def new_request(self):
        from desktop.views.authorizations.request import RequestDialog

        dialog = RequestDialog(self.db, self.actor, self, today=self.today)
        self.last_dialog = dialog
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.result_value is not None:
            self.open_detail(dialog.result_value.id)
        return dialog


class AuthorizationsPage(QWidget):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        from desktop.views.authorizations.changes import ChangesScreen

        self.db, self.actor = db, actor
        self.tabs = QTabWidget(self)
        self.authorizations = AuthorizationsScreen(db, actor, self.tabs)
        self.changes = ChangesScreen(db, actor, self.tabs)
        self.tabs.addTab(self.authorizations, "Autorizações")
        self.tabs.addTab(self.changes, "Comunicações de alteração")
        heading = QLabel("<h2>Autorizações</h2>", self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 8, 16, 8)
        layout.addWidget(heading)
        layout.addWidget(self.tabs, 1)

    def tab_titles(self) -> list[str]:
        return [self.tabs.tabText(i) for i in range(self.tabs.count())]
