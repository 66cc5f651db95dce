"""The vehicle wizard (Art. 2, 8 §3, 15): the CRLV data with the problems of `validate_vehicle` shown live, next
to each field, with the article; then the ownership mode of Art. 8 §3 I–IV, which decides the next page (`nextId`):
own → Finish; relative (II) → the owner; leased (III, IV) → the lessor, found or created by CPF/CNPJ — an
individual lessor with 3 vehicles already is refused with the article (the service's message, shown live).

Pages never write the vehicle: Finish calls `services.vehicles.register_vehicle` (or `update_vehicle`) once.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path

from PySide6.QtCore import QRegularExpression, QTimer
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QComboBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel,
                               QLineEdit, QMessageBox, QPushButton, QRadioButton, QSpinBox, QVBoxLayout, QWidget,
                               QWizard, QWizardPage)

from desktop.domain import law
from desktop.domain.problems import Problem
from desktop.domain.vehicle import OwnershipMode
from desktop.views.registry.driver_wizard import UFS, _form_row, _page_errors
from desktop.views.operations import op, query_op
from desktop.views.registry.fields import ACCEPTED_SCANS, DocumentDialog, DocumentNumberEdit, PlateEdit
from desktop.views.widgets import PhoneEdit, error_text, set_wizard_buttons
from desktop.domain.entities import Entity
from PySide6.QtGui import QColor, QPalette
from desktop.services.registry.scans import Scan, scan_problems
from desktop.services import vehicles
from desktop.services.vehicles import LessorDraft
from desktop.domain.dates import local_today
from desktop.services.vehicles import VehicleDraft
from desktop.services.vehicles import validate_vehicle

PAGE_CRLV, PAGE_OWNERSHIP, PAGE_OWNER, PAGE_LESSOR = range(4)
RELATIONSHIPS = ("Cônjuge", "Companheiro(a)", "Pai", "Mãe", "Filho(a)", "Irmão(ã)", "Avô/Avó", "Neto(a)",
                 "Sogro(a)", "Genro/Nora", "Cunhado(a)", "Enteado(a)", "Padrasto/Madrasta")
NOT_BLOCKING = frozenset({"compulsory_insurance_paid"})
LEASES = (OwnershipMode.COMPANY_LEASE.value, OwnershipMode.INDIVIDUAL_LEASE.value)


class MarkedSpinBox(QSpinBox):
    """A spin box that shows "invalid" by its background: a border style sheet would make Qt draw the whole
    box by style sheet and lose its arrows."""

    def setStyleSheet(self, style: str) -> None:  # noqa: N802 — Qt's name

        palette = self.palette()
        base = QColor("#ffd6d6") if style else self.style().standardPalette().color(QPalette.ColorRole.Base)
        palette.setColor(QPalette.ColorRole.Base, base)
        self.setPalette(palette)


def _spin(parent, low: int, high: int, value: int) -> QSpinBox:
    spin = MarkedSpinBox(parent)
    spin.setRange(low, high)
    spin.setValue(value)
    return spin


class CrlvPage(QWizardPage):
    def __init__(self, wizard: "VehicleWizard"):
        super().__init__(wizard)
        self.setTitle("Dados do CRLV")
        self.setSubTitle("Quatro portas, ar-condicionado, até 7 pessoas incluindo o condutor, até 10 anos de "
                         "fabricação (Art. 2) e emplacado no Município (Art. 8, §1, I; Art. 15, VIII).")
        self.general, self.errors = _page_errors(self)
        year = wizard.on().year
        self.plate_edit = PlateEdit(self)
        self.renavam_edit = QLineEdit(self)
        self.renavam_edit.setValidator(QRegularExpressionValidator(QRegularExpression(r"\d{0,11}"), self))
        self.renavam_edit.setPlaceholderText("11 dígitos")
        self.chassis_edit = QLineEdit(self)
        self.chassis_edit.setMaxLength(17)
        self.make_edit = QLineEdit(self)
        self.model_edit = QLineEdit(self)
        self.manufacture_year_spin = _spin(self, 1950, year + 1, year)
        self.model_year_spin = _spin(self, 1950, year + 2, year)
        self.colour_edit = QLineEdit(self)
        self.doors_spin = _spin(self, 1, 9, law.REQUIRED_DOORS)
        self.seats_spin = _spin(self, 1, 60, 5)
        self.air_check = QCheckBox("Possui ar-condicionado", self)
        self.crlv_year_spin = _spin(self, 1950, year + 1, year)
        self.municipality_edit = QLineEdit(law.HOME_MUNICIPALITY, self)
        self.uf_combo = QComboBox(self)
        self.uf_combo.addItems(UFS)
        self.uf_combo.setCurrentText(law.HOME_UF)
        self.insurance_check = QCheckBox("Seguro obrigatório pago (Art. 15, IV)", self)
        self.crlv_button = QPushButton("Anexar CRLV…", self)
        self.crlv_view = QPushButton("Ver", self)
        self.crlv_view.setEnabled(False)
        self.crlv_label = QLabel("sem arquivo", self)
        crlv = QWidget(self)
        crlv_layout = QHBoxLayout(crlv)
        crlv_layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.crlv_button, self.crlv_view, self.crlv_label):
            crlv_layout.addWidget(widget)
        crlv_layout.addStretch(1)
        self.crlv_document_id: int | None = None
        self._crlv: tuple[bytes, str] | None = None
        self.crlv_scan = None   # chosen now, stored by the service on Finish (services.registry.scans.Scan)
        self.crlv_button.clicked.connect(self.choose_crlv)
        self.crlv_view.clicked.connect(self.show_crlv)

        left, right = QFormLayout(), QFormLayout()
        _form_row(left, self, "plate", "Placa:", self.plate_edit)
        _form_row(left, self, "renavam", "RENAVAM:", self.renavam_edit)
        _form_row(left, self, "chassis", "Chassi:", self.chassis_edit)
        _form_row(left, self, "make", "Marca:", self.make_edit)
        _form_row(left, self, "model", "Modelo:", self.model_edit)
        _form_row(left, self, "manufacture_year", "Ano de fabricação:", self.manufacture_year_spin)
        _form_row(left, self, "model_year", "Ano do modelo:", self.model_year_spin)
        _form_row(left, self, "colour", "Cor:", self.colour_edit)
        _form_row(right, self, "doors", "Portas:", self.doors_spin)
        _form_row(right, self, "seats", "Lotação (com o condutor):", self.seats_spin)
        _form_row(right, self, "air_conditioning", "", self.air_check)
        _form_row(right, self, "crlv_year", "Exercício do CRLV:", self.crlv_year_spin)
        municipality_message = _form_row(right, self, "registration_municipality", "Município do emplacamento:",
                                         self.municipality_edit)
        uf_message = _form_row(right, self, "registration_uf", "UF:", self.uf_combo)
        _form_row(right, self, "compulsory_insurance_paid", "", self.insurance_check)
        _form_row(right, self, "crlv_document_id", "CRLV digitalizado:", crlv)
        # domain.vehicle_problems names these two "municipality" and "uf": the same widgets and labels.
        for alias, widget, message in (("municipality", self.municipality_edit, municipality_message),
                                       ("uf", self.uf_combo, uf_message)):
            self.errors.add(alias, widget, message)
            self.fields.add(alias)
        columns = QHBoxLayout()
        columns.addLayout(left, 1)
        columns.addLayout(right, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(columns)
        layout.addWidget(self.general)
        for edit in (self.plate_edit, self.renavam_edit, self.chassis_edit, self.make_edit, self.model_edit,
                     self.colour_edit, self.municipality_edit):
            edit.textChanged.connect(wizard.schedule_validation)
        for spin in (self.manufacture_year_spin, self.model_year_spin, self.doors_spin, self.seats_spin,
                     self.crlv_year_spin):
            spin.valueChanged.connect(wizard.schedule_validation)
        for check in (self.air_check, self.insurance_check):
            check.toggled.connect(wizard.schedule_validation)
        self.uf_combo.currentIndexChanged.connect(wizard.schedule_validation)
        self.registerField("plate*", self.plate_edit)
        self.registerField("make*", self.make_edit)
        self.registerField("model*", self.model_edit)

    def choose_crlv(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Anexar CRLV", "", ACCEPTED_SCANS)
        if path:
            self.attach_crlv(path)

    def attach_crlv(self, path: str) -> bool:
        """Keep the CRLV scan in memory (nothing is written before Finish); the service stores it with the
        vehicle. A file not read or not accepted is said at once."""

        try:
            scan = Scan(Path(path).read_bytes(), Path(path).name)
        except OSError as error:
            problems = [Problem("crlv_document_id", error_text(error))]
        else:
            problems = scan_problems(scan, "crlv_document_id")
        if problems:
            self.errors.show([Problem(p.field, f"Não foi possível anexar: {p.message}") for p in problems])
            return False
        self.crlv_scan = scan
        self._crlv = (scan.content, scan.mime)
        self.crlv_label.setText(scan.filename)
        self.crlv_view.setEnabled(True)
        return True

    def show_crlv(self) -> None:
        if self._crlv is not None:
            dialog = DocumentDialog("CRLV", self._crlv[0], self._crlv[1], self)
            self.wizard().last_document_dialog = dialog
            dialog.show()

    def validatePage(self) -> bool:
        return self.wizard().check_page(PAGE_CRLV)


class OwnershipPage(QWizardPage):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTitle("Propriedade do veículo (Art. 8, §3)")
        self.setSubTitle("Em nome de quem o veículo está registrado.")
        self.group = QButtonGroup(self)
        self.radios: dict[str, QRadioButton] = {}
        layout = QVBoxLayout(self)
        for mode in OwnershipMode:
            radio = QRadioButton(f"{mode.label} — {mode.article}", self)
            self.group.addButton(radio)
            self.radios[mode.value] = radio
            layout.addWidget(radio)
            radio.toggled.connect(lambda _on: self._mode_changed())
        self.radios[OwnershipMode.OWN.value].setChecked(True)
        note = QLabel(f"Um locador pessoa física pode ter no máximo {law.MAX_VEHICLES_PER_INDIVIDUAL_LESSOR} "
                      "veículos no cadastro (Art. 8, §3, IV).", self)
        note.setWordWrap(True)
        note.setStyleSheet("color: #555;")
        layout.addSpacing(8)
        layout.addWidget(note)
        self.general, self.errors = _page_errors(self)
        self.errors.add("ownership_mode", self.radios[OwnershipMode.OWN.value], self.general)
        self.fields.add("ownership_mode")
        layout.addWidget(self.general)
        layout.addStretch(1)

    def _mode_changed(self) -> None:
        """The mode decides the next page (the owner's, the lessor's, or none): Qt recomputes «Avançar >» and
        «Concluir» from nextId() only when the page's final flag is set — completeChanged alone left «Concluir»
        alone on screen after a lease was chosen, and the lessor's page could not be reached by the mouse."""
        self.setFinalPage(self.nextId() == -1)
        self.completeChanged.emit()

    def mode(self) -> str:
        for value, radio in self.radios.items():
            if radio.isChecked():
                return value
        return OwnershipMode.OWN.value

    def set_mode(self, value: str) -> None:
        self.radios.get(value, self.radios[OwnershipMode.OWN.value]).setChecked(True)

    def nextId(self) -> int:
        mode = self.mode()
        if mode == OwnershipMode.RELATIVE.value:
            return PAGE_OWNER
        if mode in LEASES:
            return PAGE_LESSOR
        return -1


class OwnerPage(QWizardPage):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTitle("Proprietário (Art. 8, §3, II)")
        self.setSubTitle("Cônjuge, companheiro(a) ou parente até o 2º grau do condutor, em cujo nome está o "
                         "veículo.")
        self.general, self.errors = _page_errors(self)
        self.name_edit = QLineEdit(self)
        self.document_edit = DocumentNumberEdit("cpf", self, field="owner_document")
        self.relationship_combo = QComboBox(self)
        self.relationship_combo.setEditable(True)
        self.relationship_combo.addItems(RELATIONSHIPS)
        form = QFormLayout()
        _form_row(form, self, "owner_name", "Nome do proprietário:", self.name_edit)
        _form_row(form, self, "owner_document", "CPF do proprietário:", self.document_edit,
                  self.document_edit.message_label)
        _form_row(form, self, "owner_relationship", "Parentesco:", self.relationship_combo)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.general)
        layout.addStretch(1)

    def nextId(self) -> int:
        return -1

    def validatePage(self) -> bool:
        return self.wizard().check_page(PAGE_OWNER)


class LessorPage(QWizardPage):
    def __init__(self, wizard: "VehicleWizard"):
        super().__init__(wizard)
        self.setTitle("Locador (Art. 8, §3, III e IV)")
        self.general, self.errors = _page_errors(self)
        self.cpf_edit = DocumentNumberEdit("cpf", self, field="lessor_document")
        self.cnpj_edit = DocumentNumberEdit("cnpj", self, field="lessor_document")
        self.document_box = QWidget(self)
        box = QVBoxLayout(self.document_box)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        for widget in (self.cpf_edit, self.cpf_edit.message_label, self.cnpj_edit, self.cnpj_edit.message_label):
            box.addWidget(widget)
        self.lessor_message = QLabel(self)
        self.lessor_message.setWordWrap(True)
        self.lessor_message.setStyleSheet("color: #c62828;")
        self.lessor_message.setVisible(False)
        self.name_edit = QLineEdit(self)
        self.phone_edit = PhoneEdit(self)
        self.address_edit = QLineEdit(self)
        form = QFormLayout()
        self.document_label = QLabel("CPF do locador:", self)
        form.addRow(self.document_label, self.document_box)
        form.addRow("", self.lessor_message)
        # An existing lessor found by CPF/CNPJ: its name is filled and its count shown (Art. 8, §3, IV).
        self.lessor_found_label = QLabel(self)
        self.lessor_found_label.setWordWrap(True)
        self.lessor_found_label.setStyleSheet("color: #1b5e20;")
        self.lessor_found_label.setVisible(False)
        form.addRow("", self.lessor_found_label)
        self.errors.add("lessor", self.document_box, self.lessor_message)
        self.errors.add("lessor_document", self.document_box, self.lessor_message)
        self.fields.update({"lessor", "lessor_document"})
        _form_row(form, self, "lessor_name", "Nome / razão social:", self.name_edit)
        _form_row(form, self, "lessor_phone", "Telefone:", self.phone_edit)
        _form_row(form, self, "lessor_address", "Endereço:", self.address_edit)
        note = QLabel("Se o locador já estiver cadastrado, o cadastro existente (pelo CPF/CNPJ) é usado.", self)
        note.setWordWrap(True)
        note.setStyleSheet("color: #555;")
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.general)
        layout.addStretch(1)
        self.cpf_edit.editingFinished.connect(self.check_lessor)
        self.cnpj_edit.editingFinished.connect(self.check_lessor)
        self.cpf_edit.textChanged.connect(self._maybe_check)
        self.cnpj_edit.textChanged.connect(self._maybe_check)
        self.lessor_problem: Problem | None = None
        self.found_lessor = None        # services.vehicles.LessorInfo
        self._filled_name = ""

    def kind(self) -> str:
        return "individual" if self.wizard().ownership_page.mode() == OwnershipMode.INDIVIDUAL_LEASE.value \
            else "company"

    def document_edit(self) -> DocumentNumberEdit:
        return self.cpf_edit if self.kind() == "individual" else self.cnpj_edit

    def initializePage(self) -> None:
        individual = self.kind() == "individual"
        self.setSubTitle("Locado de pessoa física (Art. 8, §3, IV)" if individual else
                         "Locado de pessoa jurídica locadora (Art. 8, §3, III)")
        self.document_label.setText("CPF do locador:" if individual else "CNPJ da locadora:")
        self.cpf_edit.setVisible(individual)
        self.cnpj_edit.setVisible(not individual)
        self.cpf_edit.message_label.setVisible(False)
        self.cnpj_edit.message_label.setVisible(False)
        self.check_lessor()

    def _maybe_check(self, _text: str) -> None:
        if len(self.document_edit().value()) == (11 if self.kind() == "individual" else 14):
            self.check_lessor()

    def check_lessor(self) -> Problem | None:
        """The lessor already registered with this CPF/CNPJ, asked of the service as soon as the number is
        complete: its name, phone and address are filled, and its vehicle count shown live with the Art. 8 §3 IV
        limit (a 4th vehicle of an individual is refused here and again by the service)."""

        edit = self.document_edit()
        self.lessor_problem = None
        self.found_lessor = None
        if not edit.is_empty() and edit.problem() is None:
            wizard = self.wizard()
            self.found_lessor = query_op(self, lambda: vehicles.find_lessor(wizard.db, wizard.actor, edit.value(),
                                                                            wizard.vehicle_id())) \
                .failure(lambda error: setattr(self, "lessor_problem", Problem("lessor", error_text(error)))).get()
        found = self.found_lessor
        if found is not None:
            if found.kind == self.kind():
                self.lessor_problem = found.problem
            name = self.name_edit.text().strip()
            if not name or name == self._filled_name:
                self.name_edit.setText(found.name)
                self._filled_name = found.name
                if found.phone and not self.phone_edit.text().strip():
                    self.phone_edit.setText(found.phone)
                if found.address and not self.address_edit.text().strip():
                    self.address_edit.setText(found.address)
        self.lessor_found_label.setText(f"Locador já cadastrado: {found.count_text}" if found else "")
        self.lessor_found_label.setVisible(found is not None and self.lessor_problem is None)
        self.lessor_message.setText(str(self.lessor_problem) if self.lessor_problem else "")
        self.lessor_message.setVisible(self.lessor_problem is not None)
        return self.lessor_problem

    def lessor_draft(self):

        return LessorDraft(kind=self.kind(), document_number=self.document_edit().value(),
                           name=self.name_edit.text().strip(), phone=self.phone_edit.phone() or None,
                           address=self.address_edit.text().strip() or None)

    def nextId(self) -> int:
        return -1

    def validatePage(self) -> bool:
        edit = self.document_edit()
        good = edit.check()
        if self.check_lessor() is not None:
            good = False
        return self.wizard().check_page(PAGE_LESSOR) and good


class VehicleWizard(QWizard):
    """New vehicle (`detail=None`) or edit one (`detail` = its VehicleDetail). `saved` holds the VehicleInfo."""

    def __init__(self, db, actor, parent=None, detail=None, today: date | None = None):
        super().__init__(parent)
        self.db, self.actor, self.detail, self.today = db, actor, detail, today
        self.saved = None
        self.last_document_dialog = None
        self.setWindowTitle("Editar veículo" if detail else "Novo veículo")
        set_wizard_buttons(self)
        self.resize(940, 640)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.validate_now)
        self.crlv_page = CrlvPage(self)
        self.ownership_page = OwnershipPage(self)
        self.owner_page = OwnerPage(self)
        self.lessor_page = LessorPage(self)
        for page_id, page in ((PAGE_CRLV, self.crlv_page), (PAGE_OWNERSHIP, self.ownership_page),
                              (PAGE_OWNER, self.owner_page), (PAGE_LESSOR, self.lessor_page)):
            self.setPage(page_id, page)
        if detail is not None:
            self._fill(detail.vehicle)

    def on(self) -> date:

        return self.today or local_today()

    def vehicle_id(self) -> int | None:
        return self.detail.vehicle.id if self.detail is not None else None

    def draft(self):

        c = self.crlv_page
        mode = self.ownership_page.mode()
        relative = mode == OwnershipMode.RELATIVE.value
        return VehicleDraft(
            plate=c.plate_edit.text().strip(), renavam=c.renavam_edit.text().strip(),
            make=c.make_edit.text().strip(), model=c.model_edit.text().strip(),
            manufacture_year=c.manufacture_year_spin.value(), model_year=c.model_year_spin.value(),
            doors=c.doors_spin.value(), seats=c.seats_spin.value(), air_conditioning=c.air_check.isChecked(),
            registration_municipality=c.municipality_edit.text().strip(),
            registration_uf=c.uf_combo.currentText(), chassis=c.chassis_edit.text().strip().upper() or None,
            colour=c.colour_edit.text().strip() or None, crlv_year=c.crlv_year_spin.value(),
            compulsory_insurance_paid=c.insurance_check.isChecked(), ownership_mode=mode,
            owner_name=self.owner_page.name_edit.text().strip() or None if relative else None,
            owner_document=self.owner_page.document_edit.value() or None if relative else None,
            owner_relationship=self.owner_page.relationship_combo.currentText().strip() or None if relative
            else None,
            lessor=self.lessor_page.lessor_draft() if mode in LEASES else None,
            crlv_document_id=c.crlv_document_id, crlv_scan=c.crlv_scan)

    def problems(self) -> list[Problem]:

        return list(validate_vehicle(self.draft(), self.on()))

    def schedule_validation(self, *_args) -> None:
        self._timer.start()

    def validate_now(self) -> list[Problem]:
        """Vehicle problems shown live next to the CRLV fields (Art. 2, 8 §1 I, 15)."""
        self._timer.stop()
        problems = self.problems()
        page = self.crlv_page
        # Empty required fields are said on Next, not while the user has not typed them yet.
        shown = [p for p in problems if p.field in page.fields and not self._untouched(p.field)]
        page.errors.show(shown)
        return problems

    def _untouched(self, field: str) -> bool:
        c = self.crlv_page
        widget = {"plate": c.plate_edit, "renavam": c.renavam_edit, "make": c.make_edit,
                  "model": c.model_edit, "chassis": c.chassis_edit}.get(field)
        return widget is not None and not widget.text().strip()

    def check_page(self, page_id: int) -> bool:
        page = self.page(page_id)
        mine = [p for p in self.problems() if p.field in page.fields]
        if page_id == PAGE_LESSOR and self.lessor_page.lessor_problem is not None:
            mine = [p for p in mine if p.field != "lessor"] + [self.lessor_page.lessor_problem]
        page.errors.show(mine)
        # Art. 15 IV (compulsory insurance) is shown but blocks the approval, not the register.
        return not [p for p in mine if p.field not in NOT_BLOCKING]

    def show_problems(self, problems) -> int:
        problems = list(problems)
        pages = set()
        placed = set()
        for page_id in (PAGE_CRLV, PAGE_OWNERSHIP, PAGE_OWNER, PAGE_LESSOR):
            page = self.page(page_id)
            mine = [p for p in problems if p.field in page.fields]
            page.errors.show(mine)
            if mine:
                pages.add(page_id)
                placed |= {id(p) for p in mine}
        unplaced = [p for p in problems if id(p) not in placed]
        if unplaced:
            QMessageBox.warning(self, "Corrija os dados", "\n".join(str(p) for p in unplaced))
        target = min(pages) if pages else self.currentId()
        # Going back follows the visited path, so the lessor/owner page is reached again by Next.
        while self.currentId() != target and self.currentId() != PAGE_CRLV and target in self.visitedIds():
            self.back()
        return target

    def accept(self) -> None:
        """Finish: the one service call (views.operations.op); on any failure the wizard stays open."""

        draft = self.draft()
        if self.detail is None:
            def call():
                return vehicles.register_vehicle(self.db, self.actor, draft, on=self.today)
        else:
            vehicle = self.detail.vehicle

            def call():
                return vehicles.update_vehicle(self.db, self.actor, vehicle.id, draft, vehicle.version,
                                               on=self.today)
        (op(self, call).fields(self.show_problems).stale(self._reload)
         .titled("Não foi possível salvar o veículo").changes(Entity.VEHICLES).success(self._saved).run())

    def _saved(self, info) -> None:
        self.saved = info
        super().accept()

    def _reload(self) -> None:

        self.detail = vehicles.vehicle_detail(self.db, self.actor, self.detail.vehicle.id)
        self._fill(self.detail.vehicle)

    def _fill(self, v) -> None:
        c = self.crlv_page
        c.plate_edit.setText(v.plate_display)
        c.renavam_edit.setText(v.renavam)
        c.chassis_edit.setText(v.chassis or "")
        c.make_edit.setText(v.make)
        c.model_edit.setText(v.model)
        c.manufacture_year_spin.setValue(v.manufacture_year)
        c.model_year_spin.setValue(v.model_year)
        c.colour_edit.setText(v.colour or "")
        c.doors_spin.setValue(v.doors)
        c.seats_spin.setValue(v.seats)
        c.air_check.setChecked(bool(v.air_conditioning))
        if v.crlv_year:
            c.crlv_year_spin.setValue(v.crlv_year)
        c.municipality_edit.setText(v.registration_municipality)
        c.uf_combo.setCurrentText(v.registration_uf)
        c.insurance_check.setChecked(bool(v.compulsory_insurance_paid))
        self.ownership_page.set_mode(v.ownership_mode)
        self.owner_page.name_edit.setText(v.owner_name or "")
        self.owner_page.document_edit.set_value(v.owner_document or "")
        if v.owner_relationship:
            self.owner_page.relationship_combo.setCurrentText(v.owner_relationship)
        if v.lessor_id:
            edit = self.lessor_page.cpf_edit if v.lessor_kind == "individual" else self.lessor_page.cnpj_edit
            edit.set_value(v.lessor_document_display or "")
            self.lessor_page.name_edit.setText(v.lessor_name or "")
