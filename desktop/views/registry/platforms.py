"""Cadastros → Plataformas (Art. 5–6): the list, the form (CNPJ with its mask, razão social, nome fantasia,
contacts, municipal registration number and date — only registered platforms may operate, Art. 6 — and the APP
insurance policy with its validity, Art. 5 X) and the detail page with the platform's drivers and vehicles."""
from __future__ import annotations

from datetime import date

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from desktop.domain.roles import Role
from desktop.views.widgets.detail import DetailFrame, DocumentsPanel, InfoGrid, TimelineTable
from desktop.views.registry.dialogs import ActionDialog, FieldSpec
from desktop.views.operations import op
from desktop.views.registry.fields import DocumentNumberEdit, OptionalDateEdit, field_box
from desktop.views.registry.paged import ListColumn, PagedList
from desktop.views.registry.screen import ListDetailScreen
from desktop.views.table import Column, RecordTable
from desktop.views.widgets import FieldErrors, PhoneEdit, error_label, error_text
from desktop.domain.entities import Entity
from desktop.services.platforms import PLATFORM_STATUS_LABELS
from desktop.views.formatting import format_date
from desktop.services import platforms
from desktop.services.platforms import PlatformDraft
from desktop.services.platforms import validate_platform
from desktop.domain.problems import Problem
from desktop.errors import ConflictError, StaleRecordError, ValidationError
from desktop.signals import bus



def platform_statuses() -> tuple[tuple[str, str], ...]:
    """(value, label) of the platform statuses, as the service names them."""

    return tuple(PLATFORM_STATUS_LABELS.items())


PLATFORM_COLUMNS = (
    ListColumn("Nome fantasia", lambda r: r.trade_name, sort_key="trade_name"),
    ListColumn("Razão social", lambda r: r.legal_name, sort_key="legal_name"),
    ListColumn("CNPJ", lambda r: r.cnpj_display, sort_key="cnpj"),
    ListColumn("Inscrição municipal", lambda r: r.municipal_registration_number),
    ListColumn("Seguro APP até", lambda r: r.app_insurance_valid_until, sort_key="app_insurance_valid_until"),
    ListColumn("Situação", lambda r: r.status_label, sort_key="status"),
)

DRIVER_COLUMNS = (
    Column("Nome", lambda r: r.name),
    Column("CPF", lambda r: r.cpf_display),
    Column("Situação", lambda r: r.status_label),
    Column("Autorização", lambda r: r.authorization_number),
    Column("Situação da autorização", lambda r: r.authorization_status_label),
)

VEHICLE_COLUMNS = (
    Column("Placa", lambda r: r.plate_display),
    Column("Marca/modelo", lambda r: r.make_model),
    Column("Ano", lambda r: r.manufacture_year),
    Column("Condutor", lambda r: r.driver_name),
    Column("Autorização", lambda r: r.authorization_number),
)


def fetch_platforms(db, actor):
    def fetch(query, offset, limit):

        return platforms.list_platforms(db, actor, text=query.text, status=query.status or None,
                                        sort=query.sort or "trade_name", descending=query.descending,
                                        offset=offset, limit=limit)
    return fetch


class PlatformDialog(QDialog):
    """Create (`info=None`) or edit a platform; problems of `validate_platform` shown live next to each field."""

    FIELDS = ("cnpj", "legal_name", "trade_name", "contact_name", "email", "phone", "address",
              "municipal_registration_number", "municipal_registration_date", "app_insurance_policy",
              "app_insurance_insurer", "app_insurance_valid_until")

    def __init__(self, db, actor, parent=None, info=None, today: date | None = None):
        super().__init__(parent)
        self.db, self.actor, self.info, self.today = db, actor, info, today
        self.saved = None
        self.setWindowTitle("Editar plataforma" if info else "Nova plataforma")
        self.setMinimumWidth(620)
        self.cnpj_edit = DocumentNumberEdit("cnpj", self)
        self.legal_name_edit = QLineEdit(self)
        self.trade_name_edit = QLineEdit(self)
        self.contact_edit = QLineEdit(self)
        self.email_edit = QLineEdit(self)
        self.phone_edit = PhoneEdit(self)
        self.address_edit = QLineEdit(self)
        self.registration_number_edit = QLineEdit(self)
        self.registration_date_edit = OptionalDateEdit(self, not_future=True)
        self.policy_edit = QLineEdit(self)
        self.insurer_edit = QLineEdit(self)
        self.policy_until_edit = OptionalDateEdit(self)
        self.general = error_label(self)
        self.errors = FieldErrors(self.general)
        widgets = dict(zip(self.FIELDS, (
            self.cnpj_edit, self.legal_name_edit, self.trade_name_edit, self.contact_edit, self.email_edit,
            self.phone_edit, self.address_edit, self.registration_number_edit, self.registration_date_edit,
            self.policy_edit, self.insurer_edit, self.policy_until_edit)))
        labels = ("CNPJ:", "Razão social:", "Nome fantasia:", "Contato:", "E-mail:", "Telefone:", "Endereço:",
                  "Nº da inscrição municipal:", "Data da inscrição:", "Apólice do seguro APP:", "Seguradora:",
                  "Validade do seguro APP:")
        form = QFormLayout()
        for (field, widget), label in zip(widgets.items(), labels):
            message = widget.message_label if widget is self.cnpj_edit else error_label(self)
            form.addRow(label, field_box(widget, message, self))
            self.errors.add(field, widget, message)
        note = QLabel("Só plataformas inscritas no Município podem operar (Art. 6); sem inscrição a plataforma "
                      "fica pendente. O seguro APP é exigido pelo Art. 5, X.", self)
        note.setWordWrap(True)
        note.setStyleSheet("color: #555;")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel,
                                   self)
        buttons.button(QDialogButtonBox.StandardButton.Save).setText("Salvar")
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText("Cancelar")
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.general)
        layout.addWidget(buttons)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.validate_now)
        for edit in (self.legal_name_edit, self.trade_name_edit, self.email_edit, self.registration_number_edit,
                     self.policy_edit):
            edit.textChanged.connect(lambda _t: self._timer.start())
        for edit in (self.registration_date_edit, self.policy_until_edit):
            edit.changed.connect(self._timer.start)
        if info is not None:
            self._fill(info)

    def draft(self):

        def text(edit):
            return edit.text().strip() or None

        return PlatformDraft(
            cnpj=self.cnpj_edit.value(), legal_name=self.legal_name_edit.text().strip(),
            trade_name=self.trade_name_edit.text().strip(), contact_name=text(self.contact_edit),
            email=text(self.email_edit), phone=self.phone_edit.phone() or None, address=text(self.address_edit),
            municipal_registration_number=text(self.registration_number_edit),
            municipal_registration_date=self.registration_date_edit.value(),
            app_insurance_policy=text(self.policy_edit), app_insurance_insurer=text(self.insurer_edit),
            app_insurance_valid_until=self.policy_until_edit.value())

    def validate_now(self):
        """Live: the problems of the fields the user already filled (empty names are said on Save)."""

        self._timer.stop()
        problems = validate_platform(self.draft(), self.today)
        untouched = {"cnpj": self.cnpj_edit.is_empty(), "legal_name": not self.legal_name_edit.text().strip(),
                     "trade_name": not self.trade_name_edit.text().strip()}
        self.errors.show([p for p in problems if not untouched.get(p.field, False)])
        return problems

    def save(self) -> bool:
        """The one service call (views.operations.op); the dialog stays open on any failure."""

        draft = self.draft()
        problems = platforms.validate_platform(draft, self.today)
        if problems:
            self.errors.show(problems)
            return False
        info = self.info
        if info is None:
            def call():
                return platforms.create_platform(self.db, self.actor, draft)
        else:
            def call():
                return platforms.update_platform(self.db, self.actor, info.id, draft, info.version)
        return (op(self, call).fields(self.errors).stale(self._reload).failure(self._save_failed)
                .changes(Entity.PLATFORMS).success(self._saved).run())

    def _save_failed(self, error: BaseException) -> bool:
        """A CNPJ or inscrição the database refuses goes next to its field; other refusals under the form."""

        if isinstance(error, (ValidationError, StaleRecordError)):
            return False
        if isinstance(error, ConflictError):
            field = "municipal_registration_number" if "inscri" in str(error).lower() else "cnpj"
            self.errors.show([Problem(field, str(error))])
            return True
        self.errors.clear()
        self.general.setText(error_text(error))
        self.general.setVisible(True)
        return True

    def _saved(self, info) -> None:
        self.saved = info
        self.accept()

    def _reload(self) -> None:

        self.info = platforms.get_platform(self.db, self.actor, self.info.id)
        self._fill(self.info)

    def _fill(self, p) -> None:
        self.cnpj_edit.set_value(p.cnpj)
        self.cnpj_edit.setReadOnly(True)
        self.legal_name_edit.setText(p.legal_name)
        self.trade_name_edit.setText(p.trade_name)
        self.contact_edit.setText(p.contact_name or "")
        self.email_edit.setText(p.email or "")
        self.phone_edit.setText(p.phone or "")
        self.address_edit.setText(p.address or "")
        self.registration_number_edit.setText(p.municipal_registration_number or "")
        self.registration_date_edit.set_value(p.municipal_registration_date)
        self.policy_edit.setText(p.app_insurance_policy or "")
        self.insurer_edit.setText(p.app_insurance_insurer or "")
        self.policy_until_edit.set_value(p.app_insurance_valid_until)


def _date(value) -> str:

    return format_date(value) if value else ""


class PlatformDetailPage(DetailFrame):
    def __init__(self, db, actor, platform_id: int, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.platform_id = db, actor, platform_id
        self.data = None
        self.last_dialog = None
        self.edit_button = self.add_action("Editar…", self.edit)
        self.status_button = self.add_action("Alterar situação…", self.change_status,
                                             "Suspender, reativar ou descadastrar a plataforma (gestor)")
        self.finish_actions()
        self.info = InfoGrid(self)
        data_tab = QWidget(self)
        data_layout = QVBoxLayout(data_tab)
        data_layout.addWidget(self.info)
        data_layout.addStretch(1)
        self.drivers = RecordTable(DRIVER_COLUMNS, self, filter_placeholder="Filtrar condutores…")
        self.vehicles = RecordTable(VEHICLE_COLUMNS, self, filter_placeholder="Filtrar veículos…")
        self.documents = DocumentsPanel(db, actor, self)
        self.timeline = TimelineTable(self)
        for widget, title in ((data_tab, "Dados"), (self.drivers, "Condutores"), (self.vehicles, "Veículos"),
                              (self.documents, "Arquivos"), (self.timeline, "Histórico")):
            self.tabs.addTab(widget, title)
        self.load()

    def open_record(self, record_id: int) -> None:
        """Show another record in this page (the list reuses one page)."""
        previous = self.platform_id
        self.platform_id = record_id
        try:
            self.load()
        except Exception:
            self.platform_id = previous
            raise
        self.tabs.setCurrentIndex(0)

    def load(self) -> None:

        self.data = detail = platforms.platform_detail(self.db, self.actor, self.platform_id)
        p = detail.platform
        self.title.setText(f"<h2>{p.trade_name}</h2>")
        self.subtitle.setText(f"{p.legal_name} · CNPJ {p.cnpj_display} · {p.status_label}")
        self.info.set_items([
            ("CNPJ", p.cnpj_display), ("Razão social", p.legal_name), ("Nome fantasia", p.trade_name),
            ("Contato", p.contact_name or ""), ("E-mail", p.email or ""), ("Telefone", p.phone or ""),
            ("Endereço", p.address or ""), ("Inscrição municipal", p.municipal_registration_number or ""),
            ("Data da inscrição", _date(p.municipal_registration_date)),
            ("Apólice APP", p.app_insurance_policy or ""), ("Seguradora", p.app_insurance_insurer or ""),
            ("Seguro APP válido até", _date(p.app_insurance_valid_until)), ("Situação", p.status_label),
            ("Condutores", str(len(detail.drivers))), ("Veículos", str(len(detail.vehicles))),
        ])
        self.fill_tab(self.drivers, lambda: self.drivers.set_rows(detail.drivers))
        self.fill_tab(self.vehicles, lambda: self.vehicles.set_rows(detail.vehicles))
        self.fill_tab(self.documents, lambda: self.documents.set_documents(detail.documents))
        self.fill_tab(self.timeline, lambda: self.timeline.set_entries(detail.timeline))
        self.edit_button.setEnabled(self.actor.has(Role.ATENDENTE, Role.GESTOR) and p.editable)
        self.status_button.setEnabled(self.actor.has(Role.GESTOR))

    def edit(self) -> None:
        dialog = PlatformDialog(self.db, self.actor, self, info=self.data.platform)
        self.last_dialog = dialog
        loaded = self.data
        if dialog.exec() == QDialog.DialogCode.Accepted and self.data is loaded:
            self.load()

    def status_dialog(self) -> ActionDialog:
        """Suspend, reactivate or deregister the platform (gestor, with the reason)."""

        p = self.data.platform
        options = [(value, label) for value, label in platform_statuses() if value != p.status]
        return ActionDialog(
            "Situação da plataforma", f"Plataforma <b>{p.trade_name}</b> — situação atual: {p.status_label}.",
            [FieldSpec("status", "Nova situação", "combo", options=options),
             FieldSpec("reason", "Motivo", "multiline")],
            lambda v: platforms.set_platform_status(self.db, self.actor, p.id, v["status"], v["reason"],
                                                    p.version),
            self, on_stale=self.load)

    def change_status(self) -> None:

        dialog = self.status_dialog()
        self.last_dialog = dialog
        if dialog.exec() == QDialog.DialogCode.Accepted:
            bus.data_changed.emit(Entity.PLATFORMS)


class PlatformsScreen(ListDetailScreen):
    def __init__(self, db, actor, parent=None):
        super().__init__(db, actor, parent, entities=(Entity.PLATFORMS, Entity.DRIVERS, Entity.AUTHORIZATIONS))
        self.last_dialog = None
        self.new_button = self.add_button("Nova plataforma…", self.new_platform)
        self.new_button.setEnabled(actor.has(Role.ATENDENTE, Role.GESTOR))
        paged = PagedList(PLATFORM_COLUMNS, fetch_platforms(db, actor), self.list_page,
                          filter_placeholder="Filtrar por nome ou CNPJ…", statuses=platform_statuses())
        paged.set_widths((200, 260, 150, 140, 120))
        self.set_list(paged, lambda platform_id: PlatformDetailPage(db, actor, platform_id, self.stack))

    def new_platform(self):
        dialog = PlatformDialog(self.db, self.actor, self)
        self.last_dialog = dialog
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.saved is not None:
            self.open_detail(dialog.saved.id)
        return dialog
