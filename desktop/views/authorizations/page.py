"""Autorizações (issue 4): requests, decisions, fee, inspection, activation with the NNNN/AAAA number, renewal,
vehicle substitution, suspension, revocation, cassation — and the change communications of Art. 13 XVIII."""
from __future__ import annotations

from PySide6.QtWidgets import QDialog, QLabel, QTabWidget, QVBoxLayout, QWidget

from desktop.domain.roles import Role
from desktop.domain.workflow import AuthorizationStatus
from desktop.views.registry.paged import ListColumn, PagedList
from desktop.views.registry.screen import ListDetailScreen
from desktop.domain.entities import Entity
from dataclasses import fields
from desktop.services.authorizations import AuthorizationRow
from desktop.services import authorizations
from desktop.domain.workflow import AuthorizationStatus as S
from desktop.services.dashboard_queries import AUTHORIZATION_DUE
from desktop.views.authorizations.detail import AuthorizationDetailPage
from desktop.views.authorizations.request import RequestDialog
from desktop.views.authorizations.changes import ChangesScreen
from desktop.views.authorizations.jobs import DueTransitionsRunner

ALL_COLUMNS = (
    ListColumn("Número", lambda r: r.number or "(sem número)", sort_key="number"),
    ListColumn("Situação", lambda r: r.status_label, sort_key="status"),
    ListColumn("Condutor", lambda r: r.driver_name, sort_key="driver_name"),
    ListColumn("CPF", lambda r: r.driver_cpf_display),
    ListColumn("Placa", lambda r: r.plate_display, sort_key="plate"),
    ListColumn("Protocolo", lambda r: r.protocol_date, sort_key="protocol_date"),
    ListColumn("Válida até", lambda r: r.valid_until, sort_key="valid_until"),
    ListColumn("Renovação", lambda r: "Fora do prazo (Art. 3, §2)" if r.renewal_late else ""),
)
# The CPF and the late-renewal flag (Art. 3, §2) come with the service's AuthorizationRow
# (driver_cpf_display, renewal_late); a row type without them would simply drop the two columns.
_OPTIONAL = {"CPF": "driver_cpf_display", "Renovação": "renewal_late"}


def authorization_columns() -> tuple[ListColumn, ...]:

    names = {f.name for f in fields(AuthorizationRow)}
    return tuple(c for c in ALL_COLUMNS if _OPTIONAL.get(c.header, "id") in names)


def fetch_authorizations(db, actor, due=lambda: ""):
    def fetch(query, offset, limit):

        return authorizations.list_authorizations(
            db, actor, text=query.text, statuses=[query.status] if query.status else None,
            sort=query.sort or "protocol_date", descending=query.descending if query.sort else True,
            offset=offset, limit=limit, due=due())
    return fetch


class AuthorizationsScreen(ListDetailScreen):
    def __init__(self, db, actor, parent=None, today=None):
        super().__init__(db, actor, parent, entities=(Entity.AUTHORIZATIONS, Entity.DRIVERS, Entity.VEHICLES))

        self.today = today
        self.last_dialog = None
        self.new_button = self.add_button("Novo requerimento…", self.new_request)
        self.new_button.setEnabled(actor.has(Role.ATENDENTE, Role.GESTOR))
        paged = PagedList(authorization_columns(), fetch_authorizations(db, actor, lambda: self.due), self.list_page,
                          filter_placeholder="Filtrar por número (12/2026), nome, CPF ou placa…",
                          statuses=tuple((s.value, s.label) for s in AuthorizationStatus))
        paged.set_widths((100, 100, 240) + ((120,) if paged.model.columnCount() == 8 else ()) + (90, 90, 90))
        self.set_list(paged, lambda authorization_id: AuthorizationDetailPage(db, actor, authorization_id,
                                                                               self.stack, today=today))

    def new_request(self):

        dialog = RequestDialog(self.db, self.actor, self, today=self.today)
        self.last_dialog = dialog
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.result_value is not None:
            self.open_detail(dialog.result_value.id)
        return dialog


class AuthorizationsPage(QWidget):
    def __init__(self, db, actor, parent=None, run_jobs: bool = True):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.tabs = QTabWidget(self)
        self.authorizations = AuthorizationsScreen(db, actor, self.tabs)
        self.changes = ChangesScreen(db, actor, self.tabs)
        self.tabs.addTab(self.authorizations, "Autorizações")
        self.tabs.addTab(self.changes, "Comunicações de alteração")
        heading = QLabel("<h2>Autorizações</h2>", self)
        self.jobs_label = QLabel(self)
        self.jobs_label.setWordWrap(True)
        self.jobs_label.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 8, 16, 8)
        layout.addWidget(heading)
        layout.addWidget(self.jobs_label)
        layout.addWidget(self.tabs, 1)
        # Suspensions that ended and validities that passed change status by themselves (services.jobs).
        self.jobs = DueTransitionsRunner(db, self)
        self.jobs.finished.connect(self._jobs_done)
        self.jobs.failed.connect(lambda text: self._jobs_message(
            f"<span style='color:#c62828'>Não foi possível atualizar as situações automáticas: {text}</span>"))
        if run_jobs:
            self.jobs.run()

    def _jobs_done(self, changes: list) -> None:
        if not changes:
            return

        lines = [f"{c.number or '(sem número)'}: {S(c.from_status).label} → {S(c.to_status).label} "
                 f"({c.reason})" for c in changes[:5]]
        more = f"<br>… e mais {len(changes) - 5}." if len(changes) > 5 else ""
        self._jobs_message(f"<b>{len(changes)} autorização(ões) mudaram de situação automaticamente:</b><br>"
                           + "<br>".join(lines) + more)

    def _jobs_message(self, html: str) -> None:
        self.jobs_label.setText(html)
        self.jobs_label.setVisible(True)

    def tab_titles(self) -> list[str]:
        return [self.tabs.tabText(i) for i in range(self.tabs.count())]

    def open_filtered(self, filter: dict) -> None:  # noqa: A002 — issue 16: a home-dashboard tile
        """{"due": key of services.dashboard_queries.AUTHORIZATION_DUE} → the list of that tile."""

        due = filter.get("due", "")
        self.tabs.setCurrentWidget(self.authorizations)
        self.authorizations.set_due(due, AUTHORIZATION_DUE.get(due, ""))
