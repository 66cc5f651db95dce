"""Cadastros → Condutores: the paged list (name/CPF as you type, status, sortable) and the driver's detail page
(data, checklist with problems and articles, platforms, authorizations, documents, change communications, full
timeline) with its actions."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QListWidget, QVBoxLayout, QWidget

from desktop.domain.roles import Role
from desktop.views.formatting import format_datetime
from desktop.views.registry.detail import SubjectDetailPage
from desktop.views.widgets.detail import DocumentsPanel, InfoGrid, TimelineTable
from desktop.views.registry.paged import ListColumn, PagedList
from desktop.views.registry.screen import ListDetailScreen
from desktop.views.table import Column, RecordTable
from desktop.domain.entities import Entity
from desktop.services.drivers import DRIVER_STATUS_LABELS
from desktop.views.formatting import format_date
from desktop.services import drivers
from desktop.services.courses import courses_of_driver
from desktop.views.registry.driver_wizard import DriverWizard
from desktop.views.authorizations.request import RequestDialog



def driver_statuses() -> tuple[tuple[str, str], ...]:

    return tuple(DRIVER_STATUS_LABELS.items())

DRIVER_COLUMNS = (
    ListColumn("Nome", lambda r: r.name, sort_key="name"),
    ListColumn("CPF", lambda r: r.cpf_display, sort_key="cpf"),
    ListColumn("Telefone", lambda r: r.phone),
    ListColumn("Situação", lambda r: r.status_label, sort_key="status"),
    ListColumn("Autorização", lambda r: r.authorization_number),
    ListColumn("Situação da autorização", lambda r: r.authorization_status_label),
)


def _yes_no(value) -> str:
    return "Sim" if value else "Não"


def _date(value) -> str:

    return format_date(value) if value else ""


def fetch_drivers(db, actor, due=lambda: ""):
    def fetch(query, offset, limit):

        return drivers.list_drivers(db, actor, text=query.text, status=query.status or None,
                                    sort=query.sort or "name", descending=query.descending, offset=offset,
                                    limit=limit, due=due())
    return fetch


def _line_situation(line) -> str:
    if line.problems:
        return "; ".join(p.message for p in line.problems)
    return "Atendida"


def _checked(line) -> str:
    if not line.checked_by_name:
        return ""
    return line.checked_by_name + (f" em {format_datetime(line.checked_at)}" if line.checked_at else "")


CHECKLIST_COLUMNS = (
    Column("Artigo", lambda l: l.article),
    Column("Exigência", lambda l: l.label),
    Column("Situação", _line_situation),
    Column("Número", lambda l: l.number),
    Column("Emissão", lambda l: l.issued_on),
    Column("Validade", lambda l: l.expires_on),
    Column("Conferido por", _checked),
)

AUTHORIZATION_COLUMNS = (
    Column("Número", lambda a: a.number or "(sem número)"),
    Column("Situação", lambda a: a.status_label),
    Column("Condutor", lambda a: a.driver_name),
    Column("Placa", lambda a: a.plate_display),
    Column("Protocolo", lambda a: a.protocol_date),
    Column("Válida até", lambda a: a.valid_until),
    Column("Renovação", lambda a: "Fora do prazo (Art. 3, §2)" if a.renewal_late else ""),
)

CHANGE_COLUMNS = (
    Column("Alteração", lambda c: c.what_changed),
    Column("Ocorrida em", lambda c: c.happened_on),
    Column("Comunicada em", lambda c: c.communicated_on),
    Column("Prazo", lambda c: c.deadline),
    Column("Situação", lambda c: "Fora do prazo (Art. 13, XVIII)" if c.late else "No prazo"),
    Column("Auto (Art. 26, III)", lambda c: f"{c.auto_number} (cancelado)" if c.auto_cancelled
           else c.auto_number or ""),
    Column("Registrada por", lambda c: c.recorded_by_name),
)


class DriverDetailPage(SubjectDetailPage):
    entity = Entity.DRIVERS

    def __init__(self, db, actor, driver_id: int, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.driver_id = db, actor, driver_id
        self.data = None
        self.last_dialog = None
        self.edit_button = self.add_action("Editar dados e documentos…", self.edit)
        self.request_button = self.add_action("Requerer autorização…", self.request_authorization)
        self.change_button = self.add_action("Registrar comunicação de alteração…", self.record_change)
        self.deregister_button = self.add_action("Descadastrar…", self.deregister,
                                                 "Descadastramento do condutor por ato do gestor (Art. 24, I, d)")
        self.finish_actions()
        self.info = InfoGrid(self)
        self.problems_label = QLabel(self)
        self.problems_label.setWordWrap(True)
        self.photo = QLabel(self)
        self.photo.setFixedSize(90, 120)
        self.photo.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.photo.setStyleSheet("border: 1px solid #ccc; color: #777;")
        data_tab = QWidget(self)
        data_layout = QVBoxLayout(data_tab)
        top = QHBoxLayout()
        top.addWidget(self.photo, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.info, 1)
        data_layout.addLayout(top)
        data_layout.addWidget(self.problems_label)
        data_layout.addStretch(1)
        self.checklist = RecordTable(CHECKLIST_COLUMNS, self, show_filter=False)
        self.platforms = QListWidget(self)
        self.authorizations = RecordTable(AUTHORIZATION_COLUMNS, self, show_filter=False)
        self.authorizations.activated.connect(lambda row: row is not None and self.open_authorization(row.id))
        self.documents = DocumentsPanel(db, actor, self)
        self.changes = RecordTable(CHANGE_COLUMNS, self, show_filter=False)
        self.timeline = TimelineTable(self)
        # Issue 16: the courses and lectures the driver was convoked to, with the situation (Art. 12, §2).
        self.courses = RecordTable((Column("Turma", lambda r: r.session_number), Column("Data", lambda r: r.held_on),
                                    Column("Tema", lambda r: r.topic), Column("Situação", lambda r: r.status_label)),
                                   self, show_filter=False)
        for widget, title in ((data_tab, "Dados"), (self.checklist, "Documentos exigidos"),
                              (self.platforms, "Plataformas"), (self.authorizations, "Autorizações"),
                              (self.documents, "Arquivos"), (self.changes, "Comunicações de alteração"),
                              (self.timeline, "Histórico"), (self.courses, "Cursos")):
            self.tabs.addTab(widget, title)
        self.load()

    def open_record(self, record_id: int) -> None:
        """Show another record in this page (the list reuses one page)."""
        previous = self.driver_id
        self.driver_id = record_id
        try:
            self.load()
        except Exception:
            self.driver_id = previous
            raise
        self.tabs.setCurrentIndex(0)

    def load(self) -> None:

        self.data = detail = drivers.driver_detail(self.db, self.actor, self.driver_id)
        d = detail.driver
        self.title.setText(f"<h2>{d.name}</h2>")
        self.subtitle.setText(f"CPF {d.cpf_display} · {d.status_label}")
        address = ", ".join(x for x in (d.address, d.district, f"{d.city or ''}-{d.uf or ''}".strip("-")) if x)
        self.info.set_items([
            ("CPF", d.cpf_display), ("Nome", d.name), ("Nascimento", _date(d.birth_date)),
            ("Telefone", d.phone or ""), ("E-mail", d.email or ""), ("Endereço", address),
            ("CEP", f"{d.zip_code[:5]}-{d.zip_code[5:]}" if d.zip_code and len(d.zip_code) == 8
                    else d.zip_code or ""), ("CNH", d.cnh_number or ""), ("Categoria", d.cnh_category or ""),
            ("Validade da CNH", _date(d.cnh_expiry)), ("Observação EAR", _yes_no(d.cnh_ear)),
            ("NIT (INSS)", d.nit or ""), ("Situação", d.status_label),
            ("Descadastrado em", _date(d.deregistered_on)), ("Motivo", d.deregistration_reason or ""),
        ])
        self._show_photo(d)
        if detail.problems:
            self.problems_label.setText("<b style='color:#c62828'>Pendências para aprovação:</b><br>"
                                        + "<br>".join(f"• {p}" for p in detail.problems))
        else:
            self.problems_label.setText("<span style='color:#2e7d32'>Todas as exigências do Art. 12 e do "
                                        "Art. 8, §1 estão atendidas.</span>")
        self.fill_tab(self.checklist, lambda: self._fill_checklist(detail.checklist))
        self.fill_tab(self.platforms, lambda: self._fill_platforms(detail.platforms))
        self.fill_tab(self.authorizations, lambda: self.authorizations.set_rows(detail.authorizations))
        self.fill_tab(self.documents, lambda: self.documents.set_documents(detail.documents))
        self.fill_tab(self.changes, lambda: self.changes.set_rows(detail.changes))
        self.fill_tab(self.timeline, lambda: self.timeline.set_entries(detail.timeline))
        self.fill_tab(self.courses, self._fill_courses)
        active = d.registered
        desk = self.actor.has(Role.ATENDENTE, Role.GESTOR)
        self.edit_button.setEnabled(desk and active)
        self.request_button.setEnabled(desk and active)
        self.change_button.setEnabled(desk)
        self.deregister_button.setEnabled(self.actor.has(Role.GESTOR) and active)

    def _fill_courses(self) -> None:

        self.courses.set_rows(courses_of_driver(self.db, self.actor, self.driver_id))

    def _show_photo(self, d) -> None:

        pixmap = QPixmap()
        data = drivers.driver_photo(self.db, self.actor, d.id) if d.has_photo else None
        if data and pixmap.loadFromData(data):
            self.photo.setPixmap(pixmap.scaled(self.photo.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                               Qt.TransformationMode.SmoothTransformation))
        else:
            self.photo.setPixmap(QPixmap())
            self.photo.setText("Sem foto")

    def _fill_checklist(self, lines) -> None:
        self.checklist.set_rows(lines)
        self.checklist.view.setColumnWidth(1, 360)   # long legal texts: the situation column stays in sight
        self.checklist.view.setColumnWidth(2, 220)

    def _fill_platforms(self, platforms) -> None:
        self.platforms.clear()
        for _pid, name in platforms:
            self.platforms.addItem(name)
        if not platforms:
            self.platforms.addItem("Nenhuma plataforma informada.")

    def edit(self) -> None:

        wizard = DriverWizard(self.db, self.actor, self, detail=self.data)
        self.last_dialog = wizard
        loaded = self.data
        if wizard.exec() == QDialog.DialogCode.Accepted and self.data is loaded:
            self.load()

    def request_authorization(self) -> None:

        dialog = RequestDialog(self.db, self.actor, self, driver=self.data.driver)
        self.last_dialog = dialog
        dialog.exec()

    def record_change(self) -> None:
        self._record_change_for(driver=self.data.driver)

    def deregister(self) -> None:

        d = self.data.driver
        self._deregister_with(
            "Descadastrar condutor",
            f"Descadastramento de <b>{d.name}</b> (CPF {d.cpf_display}) por ato do gestor (Art. 24, I, d). "
            "A autorização em curso do condutor será encerrada.",
            lambda v: drivers.deregister_driver(self.db, self.actor, d.id, v["reason"], v["act_number"], v["on"],
                                                d.version))

class DriversScreen(ListDetailScreen):
    def __init__(self, db, actor, parent=None):
        super().__init__(db, actor, parent,
                         entities=(Entity.DRIVERS, Entity.AUTHORIZATIONS, Entity.CHANGES, Entity.PLATFORMS))
        self.last_dialog = None
        self.new_button = self.add_button("Novo condutor…", self.new_driver)
        self.new_button.setEnabled(actor.has(Role.ATENDENTE, Role.GESTOR))
        paged = PagedList(DRIVER_COLUMNS, fetch_drivers(db, actor, lambda: self.due), self.list_page,
                          filter_placeholder="Filtrar por nome ou CPF (\"joao\" encontra \"João\")…",
                          statuses=driver_statuses())
        paged.set_widths((280, 120, 130, 110, 100))
        self.set_list(paged, lambda driver_id: DriverDetailPage(db, actor, driver_id, self.stack))

    def new_driver(self):

        wizard = DriverWizard(self.db, self.actor, self)
        self.last_dialog = wizard
        if wizard.exec() == QDialog.DialogCode.Accepted and wizard.saved is not None:
            self.open_detail(wizard.saved.id)
        return wizard
