"""Novo auto de infração (Art. 19, 22, 24–27): the fiscal's form with the system's proposal beside it.

Every change of the date, the code or the infractor asks `services.autos.preview_assessment` (no write) and the
panel at the right shows at once what the law proposes for this infractor: recurrence found (with the prior autos'
numbers), suspension, cassation, seizure, impediment, the articles, and the fine in UPFM and in reais at the UPFM
value of the auto's year. "Lavrar auto" saves through `draw_up_auto`, which gives the next NNNN/AAAA number.
"""
from __future__ import annotations

import mimetypes
from datetime import date, time
from pathlib import Path

from PySide6.QtCore import QTime, QTimer
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout,
                               QHBoxLayout, QLabel, QLineEdit, QListWidget, QMessageBox, QPlainTextEdit,
                               QPushButton, QScrollArea, QSplitter, QVBoxLayout, QWidget)

from desktop.domain.dates import local_now
from desktop.domain.formatting import format_upfm
from desktop.domain.penalties import ART13_DUTIES
from desktop.views.date_fields import DateField, TimeField
from desktop.views.enforcement.assessment import AssessmentPanel
from desktop.views.enforcement.lookups import Lookups, service_lookups
from desktop.views.enforcement.widgets import SearchPicker
from desktop.views.operations import query_op
from desktop.views.widgets import FieldErrors, error_label, field_box, fit_size, qdate_to_date
from desktop.domain.entities import Entity
from desktop.domain import format_date
from desktop.domain.roles import Role
from desktop.services import catalog
from desktop.services.autos import Attachment
from desktop.services.autos import AutoDraft
from desktop.errors import DesktopError, ValidationError
from desktop.services import autos
from desktop.views.operations import op
from desktop.domain.formatting import format_money
from desktop.domain import format_datetime
from desktop.domain.formatting import format_cpf, format_plate

PREVIEW_DELAY_MS = 200
MAX_EVIDENCE_BYTES = 20 * 1024 * 1024


def code_label(code) -> str:
    return f"{code.code} ({code.severity_label}, {format_upfm(code.upfm)}) — {code.description}"


class AutoFormDialog(QDialog):
    """The form. `saved` is the `AutoInfo` after "Lavrar auto"."""

    def __init__(self, db, actor, parent=None, lookups: Lookups | None = None, today: date | None = None,
                 change=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.change = change   # services.changes.ChangeInfo: a late communication (Art. 13, XVIII → Art. 26, III)
        self.lookups = lookups or service_lookups(db, actor)
        self.saved = None
        self.preview = None
        self._evidence: list = []  # services.autos.Attachment
        self.setWindowTitle("Novo auto de infração")
        self.resize(fit_size(1100, 720, parent))  # fits 1366×728, the form scrolls (issue 12 item 23)
        now = local_now()
        # the program's date and time fields (issue 29 point 2): an infraction is never in the future
        self.date_edit = DateField(self, today or now.date(), not_future=True, field="on",
                                   label="Data da infração")
        self.time_edit = TimeField(QTime(now.hour, now.minute), self, field="on", label="Hora")
        self.place_edit = QLineEdit(self)
        self.place_edit.setPlaceholderText("Rua, número, bairro ou ponto de referência")
        self.driver_picker = SearchPicker(self.lookups.drivers, "Nome ou CPF do condutor…", self,
                                          empty_text="(sem condutor)")
        self.platform_picker = SearchPicker(self.lookups.platforms, "Nome ou CNPJ da plataforma…", self,
                                            empty_text="(sem plataforma)")
        self.vehicle_picker = SearchPicker(self.lookups.vehicles, "Placa ou RENAVAM…", self,
                                           empty_text="(sem veículo)")
        self.code_combo = QComboBox(self)
        self.code_combo.setMinimumContentsLength(40)
        self.code_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.art13_combo = QComboBox(self)
        self.art13_combo.addItem("(escolha o inciso do Art. 13)", None)
        for item, text in ART13_DUTIES.items():
            self.art13_combo.addItem(f"{item} — {text}", item)
        self.art13_combo.setMinimumContentsLength(40)
        self.art13_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.description_edit = QPlainTextEdit(self)
        self.description_edit.setPlaceholderText("O que o agente constatou, com as circunstâncias")
        self.description_edit.setMinimumHeight(70)
        self.description_edit.setMaximumHeight(120)
        self.agent_combo = QComboBox(self)
        self._fill_agents()
        self.evidence_list = QListWidget(self)
        self.evidence_list.setMaximumHeight(70)
        self.add_evidence_button = QPushButton("Anexar arquivo…", self)
        self.remove_evidence_button = QPushButton("Remover", self)
        self.add_evidence_button.clicked.connect(self._choose_evidence)
        self.remove_evidence_button.clicked.connect(self._remove_evidence)
        evidence_box = QWidget(self)
        evidence_layout = QHBoxLayout(evidence_box)
        evidence_layout.setContentsMargins(0, 0, 0, 0)
        evidence_buttons = QVBoxLayout()
        evidence_buttons.addWidget(self.add_evidence_button)
        evidence_buttons.addWidget(self.remove_evidence_button)
        evidence_buttons.addStretch(1)
        evidence_layout.addWidget(self.evidence_list, 1)
        evidence_layout.addLayout(evidence_buttons)

        self.general_error = error_label(self)
        self.errors = FieldErrors(self.general_error)
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        when = QWidget(self)
        when_layout = QHBoxLayout(when)
        when_layout.setContentsMargins(0, 0, 0, 0)
        when_layout.addWidget(self.date_edit)
        when_layout.addWidget(QLabel("às", when))
        when_layout.addWidget(self.time_edit)
        when_layout.addStretch(1)
        # Art. 25 (issue 24 item 9): the auto is of the year it is drawn up — the moment of saving, not the fact's
        self.lavrado_label = QLabel("no momento em que o auto for salvo (o número e o valor da UPFM são do ano da "
                                    "lavratura — Art. 25)", self)
        self.lavrado_label.setWordWrap(True)
        self.lavrado_label.setStyleSheet("color: #555;")
        self._rows: dict[str, int] = {}
        infractor_note = QLabel("Informe o condutor, a plataforma ou ambos (Art. 20 e 22: ambos são notificados; "
                                "a multa é devida pelo condutor quando houver).", self)
        infractor_note.setWordWrap(True)
        infractor_note.setStyleSheet("color: #555;")
        for field, label, widget in (
                ("on", "Data e hora da infração:", when), ("lavrado_at", "Lavrado em:", self.lavrado_label),
                ("place", "Local:", self.place_edit),
                ("driver_id", "Condutor:", self.driver_picker), ("platform_id", "Plataforma:", self.platform_picker),
                ("infractor_note", "", infractor_note),
                ("vehicle_id", "Veículo:", self.vehicle_picker), ("code", "Infração:", self.code_combo),
                ("art13_item", "Dever do Art. 13:", self.art13_combo),
                ("description", "Descrição:", self.description_edit), ("agent_id", "Agente:", self.agent_combo),
                ("evidence", "Provas:", evidence_box)):
            message = error_label(self)
            self.form.addRow(label, field_box(widget, message, self))
            self._rows[field] = self.form.rowCount() - 1
            if field != "infractor_note":
                self.errors.add(field, widget, message)
        form_widget = QWidget(self)
        form_layout = QVBoxLayout(form_widget)
        form_layout.addLayout(self.form)
        form_layout.addWidget(self.general_error)
        form_layout.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(form_widget)

        self.panel = AssessmentPanel(parent=self)
        self.panel.setMinimumWidth(340)
        splitter = QSplitter(self)
        splitter.addWidget(scroll)
        splitter.addWidget(self.panel)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        self.number_label = QLabel(self)
        self.number_label.setStyleSheet("font-size: 12pt; font-weight: bold; color: #1b5e20;")
        self.number_label.setVisible(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel,
                                   self)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setText("Lavrar auto")
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText("Cancelar")
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.number_label)
        layout.addWidget(buttons)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.refresh_preview)
        self._codes: dict[str, object] = {}
        self._load_codes()
        self.date_edit.dateChanged.connect(self._date_changed)
        self.code_combo.currentIndexChanged.connect(self._code_changed)
        for picker in (self.driver_picker, self.platform_picker):
            picker.changed.connect(lambda _value: self._schedule())
        self.vehicle_picker.changed.connect(self._vehicle_changed)
        self._code_changed()
        if change is not None:
            self.prefill_change(change)

    def _vehicle_changed(self, vehicle_id) -> None:
        """A vehicle with a live authorization brings its driver (the infractor of Art. 22), unless one is
        already chosen."""
        if vehicle_id is None or self.driver_picker.value() is not None or self.lookups.vehicle_driver is None:
            return
        found = self.lookups.vehicle_driver(vehicle_id)
        if found is not None:
            self.driver_picker.set_choice(*found)

    def prefill_change(self, change) -> None:
        """The auto for a change communicated late (Art. 13, XVIII): its driver and vehicle, code ART26-III,
        item XVIII, and a description naming the change and its dates."""

        self.setWindowTitle("Novo auto de infração — comunicação de alteração fora do prazo")
        if change.driver_id is not None:
            self.driver_picker.set_choice(change.driver_id, change.driver_name or "")
        if change.vehicle_id is not None and change.plate_display:
            self.vehicle_picker.edit.setText(change.plate_display)
            self.vehicle_picker.search_now()   # the vehicle found brings its driver when the change names none
        if "ART26-III" in self._codes:
            self.select_code("ART26-III")
            self.select_art13_item("XVIII")
        self.description_edit.setPlainText(
            f"Alteração de dados «{change.what_changed}» ocorrida em {format_date(change.happened_on)} e "
            f"comunicada somente em {format_date(change.communicated_on)}, depois do prazo de 7 dias, que "
            f"vencia em {format_date(change.deadline)} (Art. 13, XVIII; infração do Art. 26, III).")
        self._schedule()

    # -- choices --------------------------------------------------------------------------------------------
    def _fill_agents(self) -> None:
        """The actor is the agent by default (Art. 19: the agent who drew it up signs); an administrator who
        manages users may choose another fiscal."""

        self.agent_combo.addItem(f"{self.actor.full_name} ({self.actor.username})", self.actor.user_id)
        if not self.actor.has(Role.ADMINISTRADOR):
            return
        try:
            from desktop.services import users  # local: imported only on this branch

            others = users.list_users(self.db, self.actor)
        except Exception:  # noqa: BLE001 — only the actor is offered then
            return
        for user in others:
            if user.active and Role.FISCAL in user.roles and user.id != self.actor.user_id:
                self.agent_combo.addItem(f"{user.full_name} ({user.username})", user.id)

    def _load_codes(self) -> None:

        current = self.code_combo.currentData()
        codes = query_op(self, lambda: catalog.codes_in_force(self.db, self.on())).inline(self.general_error) \
            .otherwise([]).get()
        self._codes = {c.code: c for c in codes}
        self.code_combo.blockSignals(True)
        self.code_combo.clear()
        self.code_combo.addItem("(escolha a infração)", None)
        for code in codes:
            self.code_combo.addItem(code_label(code), code.code)
        position = self.code_combo.findData(current) if current else -1
        self.code_combo.setCurrentIndex(max(position, 0))
        self.code_combo.blockSignals(False)

    def _date_changed(self) -> None:
        self._load_codes()
        self._code_changed()

    def _code_changed(self) -> None:
        code = self._codes.get(self.code_combo.currentData())
        needs_item = bool(code is not None and code.needs_art13_item)
        self.form.setRowVisible(self._rows["art13_item"], needs_item)
        if not needs_item:
            self.art13_combo.setCurrentIndex(0)
        self._schedule()

    def select_code(self, code: str) -> None:
        position = self.code_combo.findData(code)
        if position < 0:
            raise KeyError(code)
        self.code_combo.setCurrentIndex(position)

    def select_art13_item(self, item: str) -> None:
        self.art13_combo.setCurrentIndex(self.art13_combo.findData(item))

    def art13_visible(self) -> bool:
        return self.form.isRowVisible(self._rows["art13_item"])

    # -- evidence -------------------------------------------------------------------------------------------
    def add_evidence_file(self, path: str) -> None:

        file = Path(path)
        content = file.read_bytes()
        if len(content) > MAX_EVIDENCE_BYTES:
            raise ValueError(f"O arquivo {file.name} tem mais de 20 MB.")
        mime = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        self._evidence.append(Attachment(filename=file.name, content=content, mime=mime, kind="evidence"))
        self.evidence_list.addItem(f"{file.name} ({len(content) // 1024 or 1} KB)")

    def _choose_evidence(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Anexar provas ao auto", "",
                                                "Documentos e fotos (*.pdf *.jpg *.jpeg *.png)")
        for path in paths:
            try:
                self.add_evidence_file(path)
            except (OSError, ValueError) as error:
                QMessageBox.warning(self, "Arquivo não anexado", str(error))

    def _remove_evidence(self) -> None:
        row = self.evidence_list.currentRow()
        if row >= 0:
            self.evidence_list.takeItem(row)
            del self._evidence[row]

    def evidence(self) -> tuple:
        return tuple(self._evidence)

    # -- draft and preview ----------------------------------------------------------------------------------
    def on(self) -> date:
        return qdate_to_date(self.date_edit.date())

    def at(self) -> time:
        value = self.time_edit.time()
        return time(value.hour(), value.minute())

    def draft(self):

        return AutoDraft(
            on=self.on(), at=self.at(), place=self.place_edit.text().strip(),
            code=self.code_combo.currentData() or "", description=self.description_edit.toPlainText().strip(),
            driver_id=self.driver_picker.value(), platform_id=self.platform_picker.value(),
            vehicle_id=self.vehicle_picker.value(),
            art13_item=self.art13_combo.currentData() if self.art13_visible() else None,
            agent_id=self.agent_combo.currentData(), evidence=self.evidence(),
            change_id=self.change.id if self.change is not None else None,
            course_attendance_id=getattr(self, "course_absence", None) and self.course_absence.attendance_id,
            evidence_trip_ids=tuple(getattr(self, "evidence_trip_ids", ())),
            platform_list_row_id=getattr(self, "platform_list_row_id", None))

    def _schedule(self) -> None:
        self._timer.start()

    def refresh_preview(self) -> None:
        """Ask the service what the law proposes for the draft as it stands (no write)."""

        self._timer.stop()
        try:
            draft = self.draft()
        except ValidationError as error:      # a date or time still being typed: said next to its field
            self.preview = None
            self.errors.show(error.problems)
            self.panel.show_waiting([])
            return
        if not draft.code or (draft.driver_id is None and draft.platform_id is None):
            self.preview = None
            self.panel.show_waiting([])
            return
        try:
            self.preview = autos.preview_assessment(self.db, self.actor, draft)
        except ValidationError as error:
            self.preview = None
            self.panel.show_waiting([str(p) for p in error.problems])
            return
        except DesktopError as error:
            self.preview = None
            self.panel.show_waiting([str(error)])
            return
        self.panel.show_view(self.preview)

    # -- save -----------------------------------------------------------------------------------------------
    def save(self) -> bool:

        return op(self, lambda: autos.draw_up_auto(self.db, self.actor, self.draft())).fields(self.errors) \
            .failure(self._refused).changes(Entity.AUTOS).success(self._drawn_up).run()

    def _refused(self, error: BaseException) -> bool:
        """A refusal other than field problems shows in the form's general line (True: handled here)."""

        if isinstance(error, ValidationError) or not isinstance(error, DesktopError):
            return False
        self.errors.clear()
        self.general_error.setText(str(error))
        self.general_error.setVisible(True)
        return True

    def _drawn_up(self, info) -> None:
        self.saved = info
        self.number_label.setText(f"Auto de infração nº {self.saved.number} lavrado.")
        self.number_label.setVisible(True)
        QMessageBox.information(self, "Auto lavrado",
                                f"Auto de infração nº {self.saved.number} lavrado em duas vias (Art. 19).\n"
                                f"Multa: {self._amount_text()}.")
        self.accept()

    def _amount_text(self) -> str:

        return f"{format_upfm(self.saved.amount_upfm)} = {format_money(self.saved.amount_reais)}"

    def prefill_course_absence(self, absence) -> None:
        """Issue 16: the auto for an unjustified absence from a course the driver was convoked to (Art. 12, §2):
        the driver, code ART26-III, the duty of Art. 13, XVI and a description naming the session; the auto is
        bound to the absence when drawn up (services.courses.link_absence_auto_in)."""
        self.course_absence = absence
        self.setWindowTitle("Novo auto de infração — ausência a curso convocado (Art. 12, §2)")
        self.driver_picker.set_choice(absence.driver_id, absence.driver_name)
        if absence.code in self._codes:
            self.select_code(absence.code)
            self.select_art13_item(absence.art13_item)
        self.description_edit.setPlainText(absence.description)

    def prefill_trip(self, finding) -> None:
        """The auto for a trip that shows an infraction (issue 15; `services.trips.TripFinding`): its driver (else
        the platform), its vehicle, the code of the rule (Art. 7/26 IV, Art. 8/13 XIX, Art. 16 §2/26 II, Art. 27),
        a description naming the trip, and the trip kept as evidence with the auto (past the retention period)."""

        trip, rule = finding.trip, finding.rule
        self.setWindowTitle(f"Novo auto de infração — viagem {trip.external_id}")
        if trip.driver_id is not None:
            self.driver_picker.set_choice(trip.driver_id, finding.driver_name or format_cpf(trip.driver_cpf))
        else:
            self.platform_picker.set_choice(finding.platform_id, finding.platform_name)
        if trip.vehicle_id is not None:
            self.vehicle_picker.set_choice(trip.vehicle_id, format_plate(trip.plate))
        if rule.code in self._codes:
            self.select_code(rule.code)
            if rule.art13_item:
                self.select_art13_item(rule.art13_item)
        if not self.place_edit.text().strip():
            self.place_edit.setText(f"Dados da plataforma {finding.platform_name} (Art. 4º)")
        self.description_edit.setPlainText(
            f"Viagem {trip.external_id} informada pela plataforma {finding.platform_name}, iniciada em "
            f"{format_datetime(trip.started_at)}, condutor CPF {format_cpf(trip.driver_cpf)}, placa "
            f"{format_plate(trip.plate)}: {rule.label} ({rule.article}).")
        self.evidence_trip_ids = (trip.id,)
        self._schedule()
