"""Cadastros → Veículos: the paged list (plate/RENAVAM as you type, status, sortable) and the vehicle's detail
page (CRLV data, ownership and lessor of Art. 8 §3, last service day of Art. 2, problems, authorizations,
documents, change communications, timeline) with its actions."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.domain.roles import Role
from desktop.views.registry.detail import SubjectDetailPage
from desktop.views.widgets.detail import DocumentsPanel, InfoGrid, TimelineTable
from desktop.views.registry.drivers import AUTHORIZATION_COLUMNS, CHANGE_COLUMNS
from desktop.views.registry.paged import ListColumn, PagedList
from desktop.views.registry.screen import ListDetailScreen
from desktop.views.table import RecordTable
from desktop.domain.entities import Entity
from desktop.services.vehicles import VEHICLE_STATUS_LABELS
from desktop.views.formatting import format_date
from desktop.services import vehicles
from desktop.views.table import Column
from desktop.services import issqn
from desktop.views.finance.issqn import ClassDecisionDialog
from desktop.views.registry.vehicle_wizard import VehicleWizard

VEHICLE_COLUMNS = (
    ListColumn("Placa", lambda r: r.plate_display, sort_key="plate"),
    ListColumn("RENAVAM", lambda r: r.renavam),
    ListColumn("Marca/modelo", lambda r: r.make_model, sort_key="make"),
    ListColumn("Ano", lambda r: r.manufacture_year, sort_key="manufacture_year"),
    ListColumn("Propriedade", lambda r: r.ownership_label),
    ListColumn("Situação", lambda r: r.status_label, sort_key="status"),
    ListColumn("Autorização", lambda r: r.authorization_number),
    ListColumn("Condutor", lambda r: r.driver_name),
)


def vehicle_statuses() -> tuple[tuple[str, str], ...]:

    return tuple(VEHICLE_STATUS_LABELS.items())


def fetch_vehicles(db, actor):
    def fetch(query, offset, limit):

        return vehicles.list_vehicles(db, actor, text=query.text, status=query.status or None,
                                      sort=query.sort or "plate", descending=query.descending, offset=offset,
                                      limit=limit)
    return fetch


def _yes_no(value) -> str:
    return "Sim" if value else "Não"


def _date(value) -> str:

    return format_date(value) if value else ""


class VehicleIssqnClassTab(QWidget):
    """The vehicle's estimation-class decisions (Art. 11 §1: who, from when, why), newest first, and
    "Enquadrar…" for the gestor (issue 13)."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.vehicle_id, self.plate = None, ""
        self.dialog = None
        self.table = RecordTable((
            Column("A partir de", lambda d: d.valid_from, _date),
            Column("Classe", lambda d: f"{d.class_code} — {d.class_name}"),
            Column("Decidido por", lambda d: d.decided_by_name),
            Column("Motivo", lambda d: d.reason)), self, show_filter=False)
        self.note = QLabel(self)
        self.classify_button = QPushButton("Enquadrar…", self)
        self.classify_button.clicked.connect(self.classify)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.classify_button, 0, Qt.AlignmentFlag.AlignLeft)

    def load(self, vehicle_id: int, plate: str) -> None:

        self.vehicle_id, self.plate = vehicle_id, plate
        self.classify_button.setEnabled(self.actor.has(*issqn.DECIDE_ROLES))
        if not self.actor.has(*issqn.READ_ROLES):
            self.note.setText("O histórico de classes do ISSQN é restrito aos perfis do Financeiro.")
            self.table.set_rows([])
            return
        rows = issqn.vehicle_class_history(self.db, self.actor, vehicle_id)
        self.note.setText("Sem classe de estimativa: o veículo aparece como pendência no ISSQN (Art. 11, §1)."
                          if not rows else f"Classe vigente: {rows[0].class_code} — {rows[0].class_name}.")
        self.table.set_rows(rows)

    def classify(self) -> None:

        self.dialog = ClassDecisionDialog(self.db, self.actor, self.vehicle_id, self.plate, self)
        self.dialog.done_callback = lambda: self.load(self.vehicle_id, self.plate)
        self.dialog.open()


class VehicleDetailPage(SubjectDetailPage):
    entity = Entity.VEHICLES

    def __init__(self, db, actor, vehicle_id: int, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.vehicle_id = db, actor, vehicle_id
        self.data = None
        self.last_dialog = None
        self.edit_button = self.add_action("Editar…", self.edit)
        self.change_button = self.add_action("Registrar comunicação de alteração…", self.record_change)
        self.deregister_button = self.add_action("Descadastrar…", self.deregister,
                                                 "Descadastramento do veículo por ato do gestor (Art. 24, I, f)")
        self.finish_actions()
        self.info = InfoGrid(self)
        self.problems_label = QLabel(self)
        self.problems_label.setWordWrap(True)
        data_tab = QWidget(self)
        data_layout = QVBoxLayout(data_tab)
        data_layout.addWidget(self.info)
        data_layout.addWidget(self.problems_label)
        data_layout.addStretch(1)
        self.authorizations = RecordTable(AUTHORIZATION_COLUMNS, self, show_filter=False)
        self.authorizations.activated.connect(lambda row: row is not None and self.open_authorization(row.id))
        self.documents = DocumentsPanel(db, actor, self)
        self.changes = RecordTable(CHANGE_COLUMNS, self, show_filter=False)
        self.timeline = TimelineTable(self)
        self.issqn_tab = VehicleIssqnClassTab(db, actor, self)   # issue 13: the class history (Art. 11 §1)
        for widget, title in ((data_tab, "Dados"), (self.authorizations, "Autorizações"),
                              (self.documents, "Arquivos"), (self.changes, "Comunicações de alteração"),
                              (self.timeline, "Histórico"), (self.issqn_tab, "Classe do ISSQN")):
            self.tabs.addTab(widget, title)
        self.load()

    def open_record(self, record_id: int) -> None:
        """Show another record in this page (the list reuses one page)."""
        previous = self.vehicle_id
        self.vehicle_id = record_id
        try:
            self.load()
        except Exception:
            self.vehicle_id = previous
            raise
        self.tabs.setCurrentIndex(0)

    def load(self) -> None:

        self.data = detail = vehicles.vehicle_detail(self.db, self.actor, self.vehicle_id)
        v = detail.vehicle
        self.title.setText(f"<h2>{v.plate_display} — {v.make} {v.model}</h2>")
        self.subtitle.setText(f"RENAVAM {v.renavam} · {v.status_label} · pode prestar o serviço até "
                              f"{_date(v.last_service_day)} (Art. 2, §§1º e 2º)")
        owner = ""
        if v.owner_name:
            owner = f"{v.owner_name} ({v.owner_relationship or 'proprietário'})"
        lessor = f"{v.lessor_name} — {v.lessor_document_display}" if v.lessor_id else ""
        self.info.set_items([
            ("Placa", v.plate_display), ("RENAVAM", v.renavam), ("Chassi", v.chassis or ""),
            ("Marca/modelo", f"{v.make} {v.model}"), ("Fabricação/modelo", f"{v.manufacture_year}/{v.model_year}"),
            ("Cor", v.colour or ""), ("Portas", str(v.doors)), ("Lotação (com o condutor)", str(v.seats)),
            ("Ar-condicionado", _yes_no(v.air_conditioning)), ("Exercício do CRLV", str(v.crlv_year or "")),
            ("Emplacamento", f"{v.registration_municipality}-{v.registration_uf}"),
            ("Seguro obrigatório pago", _yes_no(v.compulsory_insurance_paid)),
            ("Propriedade", f"{v.ownership_label} ({v.ownership_article})"), ("Proprietário", owner),
            ("Locador", lessor), ("Último dia de serviço", _date(v.last_service_day)),
            ("Situação", v.status_label), ("Descadastrado em", _date(v.deregistered_on)),
        ])
        if detail.problems:
            self.problems_label.setText("<b style='color:#c62828'>Problemas do veículo:</b><br>"
                                        + "<br>".join(f"• {p}" for p in detail.problems))
        else:
            self.problems_label.setText("<span style='color:#2e7d32'>O veículo atende ao Art. 2 e ao Art. 15."
                                        "</span>")
        self.fill_tab(self.authorizations, lambda: self.authorizations.set_rows(detail.authorizations))
        self.fill_tab(self.documents, lambda: self.documents.set_documents(detail.documents))
        self.fill_tab(self.changes, lambda: self.changes.set_rows(detail.changes))
        self.fill_tab(self.timeline, lambda: self.timeline.set_entries(detail.timeline))
        self.fill_tab(self.issqn_tab, lambda: self.issqn_tab.load(self.vehicle_id, v.plate_display))
        active = v.registered
        desk = self.actor.has(Role.ATENDENTE, Role.GESTOR)
        self.edit_button.setEnabled(desk and active)
        self.change_button.setEnabled(desk)
        self.deregister_button.setEnabled(self.actor.has(Role.GESTOR) and active)

    def edit(self) -> None:

        wizard = VehicleWizard(self.db, self.actor, self, detail=self.data)
        self.last_dialog = wizard
        loaded = self.data
        if wizard.exec() == QDialog.DialogCode.Accepted and self.data is loaded:
            self.load()

    def record_change(self) -> None:
        self._record_change_for(vehicle=self.data.vehicle)

    def deregister(self) -> None:

        v = self.data.vehicle
        self._deregister_with(
            "Descadastrar veículo",
            f"Descadastramento do veículo <b>{v.plate_display}</b> por ato do gestor (Art. 24, I, f). "
            "A autorização em curso do veículo será encerrada.",
            lambda values: vehicles.deregister_vehicle(self.db, self.actor, v.id, values["reason"],
                                                       values["act_number"], values["on"], v.version))

class VehiclesScreen(ListDetailScreen):
    def __init__(self, db, actor, parent=None):
        super().__init__(db, actor, parent, entities=(Entity.VEHICLES, Entity.AUTHORIZATIONS, Entity.CHANGES))
        self.last_dialog = None
        self.new_button = self.add_button("Novo veículo…", self.new_vehicle)
        self.new_button.setEnabled(actor.has(Role.ATENDENTE, Role.GESTOR))
        paged = PagedList(VEHICLE_COLUMNS, fetch_vehicles(db, actor), self.list_page,
                          filter_placeholder="Filtrar por placa (com ou sem hífen) ou RENAVAM…",
                          statuses=vehicle_statuses())
        paged.set_widths((100, 110, 200, 60, 220, 110, 100))
        self.set_list(paged, lambda vehicle_id: VehicleDetailPage(db, actor, vehicle_id, self.stack))

    def new_vehicle(self):

        wizard = VehicleWizard(self.db, self.actor, self)
        self.last_dialog = wizard
        if wizard.exec() == QDialog.DialogCode.Accepted and wizard.saved is not None:
            self.open_detail(wizard.saved.id)
        return wizard
