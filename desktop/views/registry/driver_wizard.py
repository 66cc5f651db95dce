"""The driver wizard (Art. 8, 12): personal data, CNH and INSS, the checklist of Art. 12 I–IX, §1 and Art. 8 §1 II
(one line per item: document scan, number, dates, who checked it), then the platforms he drives for.

Pages never write the driver: Finish calls `services.drivers.register_driver` (or `update_driver`) once. Scans
are stored through `services.attachments` when chosen (the contract lets a wizard attach before the record
exists and pass the document's id in the draft). Every problem of `validate_driver` is shown at once, next to
its field or checklist line, with its article; a `ValidationError` on Finish goes back to the page of its field.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path

from PySide6.QtCore import QRegularExpression, Qt, QTimer
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFileDialog, QFormLayout, QFrame, QGridLayout,
                               QLabel, QLineEdit, QListWidget, QListWidgetItem, QMessageBox, QPushButton,
                               QScrollArea, QVBoxLayout, QWidget, QWizard, QWizardPage)

from desktop.domain import law
from desktop.domain.driver import DRIVER_CHECKLIST, ChecklistItem, ItemKind
from desktop.domain.formatting import format_datetime, parse_date
from desktop.domain.problems import Problem
from desktop.views.operations import op, query_op
from desktop.views.registry.fields import (ACCEPTED_SCANS, DocumentDialog, DocumentNumberEdit, OptionalDateEdit,
                                           PhotoChooser, field_box, mime_of)
from desktop.views.widgets import FieldErrors, PhoneEdit, error_label, error_text, fit_size, set_wizard_buttons
from desktop.domain.entities import Entity
from desktop.domain.dates import local_now
from desktop.services.registry.scans import Scan, scan_problems
from desktop.services.drivers import ChecklistEntry
from desktop.services.drivers import driver_data_problems
from desktop.services import platforms
from desktop.domain.dates import local_today
from desktop.services.drivers import DriverDraft
from desktop.services.drivers import validate_driver
from desktop.services import drivers
from desktop.errors import DesktopError, StaleRecordError, ValidationError

PAGE_PERSONAL, PAGE_CNH, PAGE_CHECKLIST, PAGE_PLATFORMS = range(4)
UFS = ("AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR", "PE", "PI",
       "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO")
CNH_CATEGORIES = law.ACCEPTED_CNH_CATEGORIES + ("A", "ACC")   # A and ACC are offered so the refusal is explained
# Problems of these fields belong to the CNH line of the checklist too (as domain.checklist_status does).
CHECKLIST_OWNER = {"cnh_category": "cnh", "cnh_ear": "cnh"}


def _form_row(form: QFormLayout, page, field: str, label: str, widget: QWidget,
              message: QLabel | None = None) -> QLabel:
    """One form row: the widget with its error label under it, registered in the page's FieldErrors."""
    message = message if message is not None else error_label(widget.parentWidget())
    form.addRow(label, field_box(widget, message))
    page.errors.add(field, widget, message)
    page.fields.add(field)
    return message


def _page_errors(page: QWizardPage) -> tuple[QLabel, FieldErrors]:
    page.fields = set()
    general = error_label(page)
    return general, FieldErrors(general)


def _typed(edit):
    """The date of an optional date field, None while its text is not a date (its problem is listed apart)."""
    return None if edit.problem() else edit.value()


class PersonalPage(QWizardPage):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTitle("Dados pessoais")
        self.setSubTitle("Identificação e endereço do condutor. O endereço deve ser no Município (Art. 12, VI).")
        self.general, self.errors = _page_errors(self)
        self.cpf_edit = DocumentNumberEdit("cpf", self)
        self.name_edit = QLineEdit(self)
        self.birth_edit = OptionalDateEdit(self, not_future=True, field="birth_date")
        self.phone_edit = PhoneEdit(self)
        self.email_edit = QLineEdit(self)
        self.email_edit.setPlaceholderText("nome@exemplo.com.br")
        self.address_edit = QLineEdit(self)
        self.address_edit.setPlaceholderText("Rua, número, complemento")
        self.district_edit = QLineEdit(self)
        self.city_edit = QLineEdit(law.HOME_MUNICIPALITY, self)
        self.uf_combo = QComboBox(self)
        self.uf_combo.addItems(UFS)
        self.uf_combo.setCurrentText(law.HOME_UF)
        self.zip_edit = QLineEdit(self)
        self.zip_edit.setInputMask("00000-000;_")
        self.photo = PhotoChooser(self)
        form = QFormLayout()
        _form_row(form, self, "cpf", "CPF:", self.cpf_edit, self.cpf_edit.message_label)
        _form_row(form, self, "name", "Nome completo:", self.name_edit)
        _form_row(form, self, "birth_date", "Data de nascimento:", self.birth_edit)
        _form_row(form, self, "phone", "Telefone:", self.phone_edit)
        _form_row(form, self, "email", "E-mail:", self.email_edit)
        _form_row(form, self, "address", "Endereço:", self.address_edit)
        _form_row(form, self, "district", "Bairro:", self.district_edit)
        _form_row(form, self, "city", "Município:", self.city_edit)
        _form_row(form, self, "uf", "UF:", self.uf_combo)
        _form_row(form, self, "zip_code", "CEP:", self.zip_edit)
        _form_row(form, self, "photo", "Foto:", self.photo)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.general)
        self.registerField("name*", self.name_edit)
        self.cpf_edit.textChanged.connect(lambda _t: self.completeChanged.emit())

    def isComplete(self) -> bool:
        return super().isComplete() and not self.cpf_edit.is_empty()

    def validatePage(self) -> bool:
        return self.wizard().check_page(PAGE_PERSONAL)


class CnhPage(QWizardPage):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTitle("CNH e INSS")
        self.setSubTitle("CNH categoria B ou superior com a observação \"exerce atividade remunerada\" "
                         "(Art. 12, I); inscrição no INSS (Art. 12, III); infrações gravíssimas (Art. 12, VII).")
        self.general, self.errors = _page_errors(self)
        self.cnh_number_edit = QLineEdit(self)
        self.cnh_number_edit.setValidator(QRegularExpressionValidator(QRegularExpression(r"\d{0,11}"), self))
        self.cnh_number_edit.setPlaceholderText("11 dígitos (número de registro)")
        self.cnh_category_combo = QComboBox(self)
        self.cnh_category_combo.addItem("", "")
        for category in CNH_CATEGORIES:
            self.cnh_category_combo.addItem(category, category)
        self.cnh_expiry_edit = OptionalDateEdit(self)
        self.cnh_ear_check = QCheckBox("A CNH contém a observação \"exerce atividade remunerada\" (EAR)", self)
        self.nit_edit = QLineEdit(self)
        self.nit_edit.setValidator(QRegularExpressionValidator(QRegularExpression(r"[\d.\-]{0,14}"), self))
        self.nit_edit.setPlaceholderText("NIT/PIS (11 dígitos)")
        self.gravissima_edit = QLineEdit(self)
        self.gravissima_edit.setPlaceholderText("dd/mm/aaaa; dd/mm/aaaa (vazio se não houver)")
        form = QFormLayout()
        _form_row(form, self, "cnh_number", "Número da CNH:", self.cnh_number_edit)
        _form_row(form, self, "cnh_category", "Categoria:", self.cnh_category_combo)
        _form_row(form, self, "cnh_expiry", "Validade da CNH:", self.cnh_expiry_edit)
        _form_row(form, self, "cnh_ear", "", self.cnh_ear_check)
        _form_row(form, self, "nit", "NIT (INSS):", self.nit_edit)
        _form_row(form, self, "gravissima_infractions", "Infrações gravíssimas:", self.gravissima_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.general)

    def gravissima_dates(self) -> tuple[tuple[date, ...], list[Problem]]:
        dates, problems = [], []
        for part in self.gravissima_edit.text().replace(",", ";").split(";"):
            if part.strip():
                try:
                    dates.append(parse_date(part.strip()))
                except ValueError:
                    problems.append(Problem("gravissima_infractions",
                                            f"Data inválida: «{part.strip()}». Use dd/mm/aaaa.", "Art. 12, VII"))
        return tuple(dates), problems

    def validatePage(self) -> bool:
        return self.wizard().check_page(PAGE_CNH)


class ChecklistRow(QFrame):
    """One line of DRIVER_CHECKLIST: conferido (who, when), scan, number, issue and expiry dates, problems."""

    def __init__(self, item: ChecklistItem, wizard: "DriverWizard", parent=None):
        super().__init__(parent)
        self.item = item
        self.wizard = wizard
        self.document_id: int | None = None
        self.document_name = ""
        self._content: bytes | None = None
        self._mime = ""
        self.scan = None   # a file chosen now, stored by the service on Finish (services.registry.scans.Scan)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        condition = item.kind is ItemKind.CONDITION
        self.check = QCheckBox("Verificado: nada consta" if condition else "Conferido", self)
        self.checked_label = QLabel(self)
        self.checked_label.setStyleSheet("color: #555;")
        title = QLabel(f"<b>{item.article}</b> — {item.label}", self)
        title.setWordWrap(True)
        self.attach_button = QPushButton("Anexar…", self)
        self.attach_button.setToolTip(f"Anexar {item.document_label or 'documento'} (PDF, JPG ou PNG)")
        self.view_button = QPushButton("Ver", self)
        self.view_button.setEnabled(False)
        self.file_label = QLabel("sem arquivo", self)
        self.file_label.setStyleSheet("color: #555;")
        self.number_edit = QLineEdit(self)
        self.number_edit.setPlaceholderText("Número")
        self.issued_edit = OptionalDateEdit(self, not_future=True)
        self.expires_edit = OptionalDateEdit(self)
        self.expires_edit.setEnabled(item.has_expiry)
        self.expires_edit.setToolTip("Validade" if item.has_expiry else "Este documento não tem validade")
        self.problem_label = error_label(self)
        self.attach_button.clicked.connect(self.choose_file)
        self.view_button.clicked.connect(self.show_document)
        self.check.toggled.connect(self._ticked)
        for signal in (self.number_edit.textChanged, self.issued_edit.changed, self.expires_edit.changed):
            signal.connect(wizard.schedule_validation)

        grid = QGridLayout(self)
        grid.setContentsMargins(6, 4, 6, 4)
        grid.setVerticalSpacing(2)
        grid.addWidget(title, 0, 0, 1, 6)
        grid.addWidget(self.check, 1, 0)
        grid.addWidget(self.attach_button, 1, 1)
        grid.addWidget(self.view_button, 1, 2)
        grid.addWidget(self.number_edit, 1, 3)
        grid.addWidget(QLabel("Emissão:", self), 1, 4)
        grid.addWidget(self.issued_edit, 1, 5)
        grid.addWidget(self.checked_label, 2, 0, 1, 3)
        grid.addWidget(self.file_label, 2, 3)
        grid.addWidget(QLabel("Validade:", self), 2, 4)
        grid.addWidget(self.expires_edit, 2, 5)
        grid.addWidget(self.problem_label, 3, 0, 1, 6)
        grid.setColumnStretch(3, 1)

    def _ticked(self, on: bool) -> None:
        actor = self.wizard.actor
        self.checked_label.setText(f"por {actor.full_name} em {format_datetime(_now())}" if on else "")
        self.wizard.schedule_validation()

    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, f"Anexar — {self.item.document_label or self.item.label}",
                                              "", ACCEPTED_SCANS)
        if path:
            self.attach_file(path)

    def attach_file(self, path: str) -> bool:
        """Keep the scan in memory (nothing is written before Finish: a cancelled wizard leaves no document);
        the service stores it with the driver. A file not read or not accepted is said at once."""

        try:
            scan = Scan(Path(path).read_bytes(), Path(path).name)
        except OSError as error:
            problems = [Problem(self.item.key, error_text(error))]
        else:
            problems = scan_problems(scan, self.item.key)
        if problems:
            self.problem_label.setText(f"Não foi possível anexar: {problems[0].message}")
            self.problem_label.setVisible(True)
            return False
        self.scan = scan
        self.document_name = scan.filename
        self._content, self._mime = scan.content, scan.mime or mime_of(path)
        self.file_label.setText(scan.filename)
        self.view_button.setEnabled(True)
        if not self.check.isChecked():
            self.check.setChecked(True)
        self.wizard.schedule_validation()
        return True

    def set_existing(self, line) -> None:
        """Fill the row from a saved ChecklistLine (editing an existing driver)."""
        self.check.blockSignals(True)
        self.check.setChecked(bool(line.present))
        self.check.blockSignals(False)
        if line.present and line.checked_by_name:
            self.checked_label.setText(f"por {line.checked_by_name}"
                                       + (f" em {format_datetime(line.checked_at)}" if line.checked_at else ""))
        self.number_edit.setText(line.number or "")
        self.issued_edit.set_value(line.issued_on)
        self.expires_edit.set_value(line.expires_on)
        self.document_id = line.document_id
        if line.document_id:
            self.file_label.setText("documento anexado")
            self.view_button.setEnabled(True)

    def show_document(self) -> None:
        if self._content is None and self.document_id:
            from desktop.services import attachments  # local: imported only on this branch

            read = query_op(self, lambda: attachments.document_content(self.wizard.db, self.wizard.actor,
                                                                       self.document_id)).titled("Documento")
            if not read.run():
                return
            info, self._content = read.result
            self._mime = info.mime
        if self._content is not None:
            dialog = DocumentDialog(self.item.document_label or self.item.label, self._content, self._mime, self)
            self.wizard.last_document_dialog = dialog
            dialog.show()

    def entry(self):

        return ChecklistEntry(key=self.item.key, present=self.check.isChecked(), document_id=self.document_id,
                              scan=self.scan,
                              number=self.number_edit.text().strip() or None, issued_on=_typed(self.issued_edit),
                              expires_on=_typed(self.expires_edit) if self.item.has_expiry else None)

    def show_problems(self, problems: list[Problem]) -> None:
        self.problem_label.setText("\n".join(str(p) for p in problems))
        self.problem_label.setVisible(bool(problems))
        self.setStyleSheet("ChecklistRow { border: 1px solid #c62828; background: #fff5f5; }" if problems
                           else "ChecklistRow { border: 1px solid #2e7d32; }" if self.check.isChecked() else "")


def _now():

    return local_now()


class ChecklistPage(QWizardPage):
    def __init__(self, wizard: "DriverWizard"):
        super().__init__(wizard)
        self.setTitle("Documentos exigidos (Art. 12, I a IX e §1; Art. 8, §1, II)")
        self.setSubTitle("Uma linha por exigência: anexe o documento, informe número e datas e marque como "
                         "conferido. Os problemas aparecem ao lado de cada linha; faltas impedem a aprovação do "
                         "requerimento, não o cadastro.")
        self.rows: dict[str, ChecklistRow] = {}
        holder = QWidget(self)
        rows_layout = QVBoxLayout(holder)
        rows_layout.setSpacing(4)
        for item in DRIVER_CHECKLIST:
            row = ChecklistRow(item, wizard, holder)
            self.rows[item.key] = row
            rows_layout.addWidget(row)
        rows_layout.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidget(holder)
        scroll.setWidgetResizable(True)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(scroll, 1)

    def initializePage(self) -> None:
        self.wizard().validate_now()

    def validatePage(self) -> bool:
        """Missing or expired items do not block the register (they block the approval); a line whose own
        dates are wrong (validity before issue, issue in the future) does."""

        wizard = self.wizard()
        blocking = [p for p in driver_data_problems(wizard.draft()) if p.field in self.rows]
        if blocking:
            problems = wizard.validate_now()
            for key, row in self.rows.items():
                mine = [p for p in blocking if p.field == key]
                if mine:
                    row.show_problems(mine + [p for p in problems if p.field == key and p not in mine])
        return not blocking

    def entries(self) -> tuple:
        return tuple(row.entry() for row in self.rows.values())

    def show_problems(self, problems: list[Problem]) -> None:
        by_key: dict[str, list[Problem]] = {key: [] for key in self.rows}
        for problem in problems:
            key = CHECKLIST_OWNER.get(problem.field, problem.field)
            if key in by_key:
                by_key[key].append(problem)
        for key, row in self.rows.items():
            row.show_problems(by_key[key])
        missing = sum(1 for items in by_key.values() if items)
        self.summary.setText(
            "<span style='color:#2e7d32'>Todas as exigências estão atendidas.</span>" if not missing else
            f"<span style='color:#c62828'>{missing} exigência(s) com problema — o condutor pode ser cadastrado, "
            "mas o requerimento só será aprovado com todas atendidas.</span>")

    def problems_of(self, key: str) -> str:
        return self.rows[key].problem_label.text()


class PlatformsPage(QWizardPage):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.setTitle("Plataformas")
        self.setSubTitle("Plataformas tecnológicas pelas quais o condutor presta o serviço (Art. 5 e 6).")
        self.list = QListWidget(self)
        self.empty = QLabel("Nenhuma plataforma cadastrada. Cadastre-a em Cadastros → Plataformas.", self)
        self.general, self.errors = _page_errors(self)
        self.errors.add("platform_ids", self.list, self.general)
        self.fields.add("platform_ids")

        options = query_op(self, lambda: platforms.platform_options(db, actor)).failure(
            lambda error: self.empty.setText(f"Não foi possível carregar as plataformas: {error_text(error)}")) \
            .otherwise([]).get()
        for platform_id, name in options:
            item = QListWidgetItem(name, self.list)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            item.setData(Qt.ItemDataRole.UserRole, platform_id)
        self.empty.setVisible(not options)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        layout.addWidget(self.empty)
        layout.addWidget(self.general)

    def platform_ids(self) -> tuple[int, ...]:
        return tuple(self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())
                     if self.list.item(i).checkState() == Qt.CheckState.Checked)

    def set_platform_ids(self, ids) -> None:
        for i in range(self.list.count()):
            item = self.list.item(i)
            item.setCheckState(Qt.CheckState.Checked if item.data(Qt.ItemDataRole.UserRole) in set(ids)
                               else Qt.CheckState.Unchecked)


class DriverWizard(QWizard):
    """New driver (`driver=None`) or edit one (`detail` = its DriverDetail). `saved` holds the DriverInfo."""

    def __init__(self, db, actor, parent=None, detail=None, today: date | None = None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.detail = detail
        self.today = today
        self.saved = None
        self.last_document_dialog = None
        self.setWindowTitle("Editar condutor" if detail else "Novo condutor")
        set_wizard_buttons(self)
        self.resize(fit_size(980, 760, parent))  # 1366×768 less the taskbar (issue 12 item 23)
        self.personal_page = PersonalPage(self)
        self.cnh_page = CnhPage(self)
        self.checklist_page = ChecklistPage(self)
        self.platforms_page = PlatformsPage(db, actor, self)
        self.setPage(PAGE_PERSONAL, self.personal_page)
        self.setPage(PAGE_CNH, self.cnh_page)
        self.setPage(PAGE_CHECKLIST, self.checklist_page)
        self.setPage(PAGE_PLATFORMS, self.platforms_page)
        self._pages_errors = {PAGE_PERSONAL: self.personal_page.errors, PAGE_CNH: self.cnh_page.errors,
                              PAGE_PLATFORMS: self.platforms_page.errors}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.validate_now)
        for edit in (self.cnh_page.cnh_number_edit, self.cnh_page.gravissima_edit):
            edit.textChanged.connect(self.schedule_validation)
        self.cnh_page.cnh_category_combo.currentIndexChanged.connect(self.schedule_validation)
        self.cnh_page.cnh_ear_check.toggled.connect(self.schedule_validation)
        self.cnh_page.cnh_expiry_edit.changed.connect(self.schedule_validation)
        self.personal_page.city_edit.textChanged.connect(self.schedule_validation)
        if detail is not None:
            self._fill(detail)

    # -- the draft -----------------------------------------------------------------------------------------
    def on(self) -> date:

        return self.today or local_today()

    def draft(self):

        p, c = self.personal_page, self.cnh_page
        gravissimas, _ = c.gravissima_dates()
        return DriverDraft(
            cpf=p.cpf_edit.value(), name=p.name_edit.text().strip(), birth_date=_typed(p.birth_edit),
            address=p.address_edit.text().strip() or None, district=p.district_edit.text().strip() or None,
            city=p.city_edit.text().strip() or None, uf=p.uf_combo.currentText() or None,
            zip_code="".join(ch for ch in p.zip_edit.text() if ch.isdigit()) or None,
            phone=p.phone_edit.phone() or None, email=p.email_edit.text().strip() or None,
            cnh_number=c.cnh_number_edit.text().strip() or None,
            cnh_category=c.cnh_category_combo.currentData() or None, cnh_expiry=_typed(c.cnh_expiry_edit),
            cnh_ear=c.cnh_ear_check.isChecked(), nit="".join(ch for ch in c.nit_edit.text() if ch.isdigit()) or None,
            checklist=self.checklist_page.entries(), platform_ids=self.platforms_page.platform_ids(),
            gravissima_infractions=gravissimas, photo=p.photo.png(),
            photo_mime="image/png" if p.photo.png() is not None else None,
            photo_required=self.detail is None or not self.detail.driver.has_photo)

    def problems(self) -> list[Problem]:
        """Every problem of `validate_driver` (data + checklist, with articles) plus unreadable dates typed."""

        _, date_problems = self.cnh_page.gravissima_dates()
        typed = [Problem(field, edit.problem()) for field, edit in (
            ("birth_date", self.personal_page.birth_edit), ("cnh_expiry", self.cnh_page.cnh_expiry_edit))
            if edit.problem()]
        return typed + list(validate_driver(self.draft(), self.on())) + date_problems

    # -- showing problems ----------------------------------------------------------------------------------
    def schedule_validation(self, *_args) -> None:
        self._timer.start()

    def validate_now(self) -> list[Problem]:
        self._timer.stop()
        problems = self.problems()
        self.checklist_page.show_problems(problems)
        return problems

    def check_page(self, page_id: int) -> bool:
        """validatePage of the data pages: show that page's data problems; only they block going on."""

        errors = self._pages_errors[page_id]
        data_problems = list(driver_data_problems(self.draft()))
        if page_id == PAGE_CNH:
            data_problems += self.cnh_page.gravissima_dates()[1]
            # The CNH's own requirements (Art. 12, I) are shown here too, without blocking the page.
            shown = data_problems + [p for p in self.problems() if p.field in ("cnh_category", "cnh_ear")
                                     and p not in data_problems]
        else:
            shown = data_problems
        mine = [p for p in shown if p.field in self.page(page_id).fields]
        errors.show(mine)
        if page_id == PAGE_PERSONAL:
            self.personal_page.cpf_edit.check()
        return not any(p in data_problems for p in mine)

    def show_problems(self, problems) -> int:
        """Problems of a refused Finish: each next to its field; go back to the first page that has one."""
        problems = list(problems)
        pages: set[int] = set()
        for page_id, errors in self._pages_errors.items():
            mine = [p for p in problems if p.field in self.page(page_id).fields]
            errors.show(mine)
            if mine:
                pages.add(page_id)
        checklist = [p for p in problems if CHECKLIST_OWNER.get(p.field, p.field) in self.checklist_page.rows]
        if checklist:
            self.checklist_page.show_problems(checklist)
            pages.add(PAGE_CHECKLIST)
        placed = {id(p) for p in checklist}
        for page_id in self._pages_errors:
            placed |= {id(p) for p in problems if p.field in self.page(page_id).fields}
        unplaced = [p for p in problems if id(p) not in placed]
        if unplaced:
            QMessageBox.warning(self, "Corrija os dados", "\n".join(str(p) for p in unplaced))
        target = min(pages) if pages else self.currentId()
        while self.currentId() > target:
            self.back()
        return target

    # -- Finish: one service call ----------------------------------------------------------------------------
    def accept(self) -> None:
        """Finish: the one service call (views.operations.op). Problems go to their pages; on any failure the
        wizard stays open with what was typed."""

        draft = self.draft()
        if self.detail is None:
            def call():
                return drivers.register_driver(self.db, self.actor, draft)
        else:
            driver = self.detail.driver

            def call():
                return drivers.update_driver(self.db, self.actor, driver.id, draft, driver.version)
        (op(self, call).fields(self.show_problems).stale(self._reload).failure(self._save_failed)
         .titled("Não foi possível salvar o condutor").changes(Entity.DRIVERS).success(self._saved).run())

    def _save_failed(self, error: BaseException) -> bool:
        """A CPF the database refuses (already registered) is shown next to the CPF field."""

        if isinstance(error, DesktopError) and not isinstance(error, (ValidationError, StaleRecordError)) \
                and "CPF" in str(error):
            self.show_problems([Problem("cpf", str(error))])
            return True
        return False

    def _saved(self, info) -> None:
        self.saved = info
        super().accept()

    def _reload(self) -> None:

        self.detail = drivers.driver_detail(self.db, self.actor, self.detail.driver.id)
        self._fill(self.detail)

    def _fill(self, detail) -> None:
        d = detail.driver
        p, c = self.personal_page, self.cnh_page
        p.cpf_edit.set_value(d.cpf)
        p.cpf_edit.setReadOnly(True)
        p.name_edit.setText(d.name)
        p.birth_edit.set_value(d.birth_date)
        p.phone_edit.setText(d.phone or "")
        p.email_edit.setText(d.email or "")
        p.address_edit.setText(d.address or "")
        p.district_edit.setText(d.district or "")
        p.city_edit.setText(d.city or "")
        p.uf_combo.setCurrentText(d.uf or law.HOME_UF)
        p.zip_edit.setText(d.zip_code or "")
        if d.has_photo:
            from desktop.services import drivers  # local: imported only on this branch

            try:
                p.photo.show_photo(drivers.driver_photo(self.db, self.actor, d.id))
            except Exception:  # noqa: BLE001 — the photo is a courtesy; the data still load
                p.photo.show_photo(None)
        c.cnh_number_edit.setText(d.cnh_number or "")
        index = c.cnh_category_combo.findData(d.cnh_category or "")
        c.cnh_category_combo.setCurrentIndex(max(index, 0))
        c.cnh_expiry_edit.set_value(d.cnh_expiry)
        c.cnh_ear_check.setChecked(bool(d.cnh_ear))
        c.nit_edit.setText(d.nit or "")
        for line in detail.checklist:
            row = self.checklist_page.rows.get(line.key)
            if row is not None:
                row.set_existing(line)
        self.platforms_page.set_platform_ids(d.platform_ids)
