"""Cursos (issue 16; Art. 12, §2): sessions, the convocation of drivers chosen by a filter (within the capacity),
the convocation notice printed or the list exported, attendance recorded from the signed list, excused absences
with their document — and, for the fiscal, the unjustified absences as Art. 26, III candidates (Art. 13, XVI),
drawn up in the Fiscalização form (`AutoFormDialog.prefill_course_absence`).

A module of its own in the sidebar (not a Cadastro tab): it reads drivers, writes documents and feeds autos.
"""
from __future__ import annotations

from datetime import time
from pathlib import Path

from PySide6.QtCore import Qt, QTime
from PySide6.QtWidgets import (QComboBox, QFileDialog, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QPushButton, QSpinBox, QSplitter, QTabWidget,
                               QVBoxLayout, QWidget)

from desktop.domain.roles import COURSE_ROLES, ENFORCEMENT_ROLES
from desktop.domain.steps import find_action, is_enabled
from desktop.views.table import Column, RecordTable
from desktop.domain.entities import Entity
from desktop.services.courses import CONVOCATION_FILTERS
from desktop.signals import bus
from datetime import timedelta
from desktop.domain.dates import local_today
from desktop.views.table import enter_presses, keyboard_list
from desktop.services import courses
from desktop.services.courses import SessionDraft
from datetime import date
from desktop.views.operations import op
from desktop.services.documents import print_attendance_list
from desktop.views.pdf_preview import PdfPreviewDialog
from desktop.views.enforcement.auto_form import AutoFormDialog
from desktop.errors import ValidationError

SESSION_COLUMNS = (
    Column("Turma", lambda r: r.number),
    Column("Data", lambda r: r.held_on),
    Column("Tema", lambda r: r.topic),
    Column("Local", lambda r: r.place),
    Column("Convocados/vagas", lambda r: f"{r.convoked}/{r.capacity}"),
    Column("Situação", lambda r: r.status_label),
)
ATTENDANCE_COLUMNS = (
    Column("Condutor", lambda r: r.driver_name),
    Column("CPF", lambda r: r.cpf_display),
    Column("Notificação", lambda r: r.notice_number or ""),
    Column("Prova juntada em", lambda r: r.notice_joined_on.strftime("%d/%m/%Y") if r.notice_joined_on else ""),
    Column("Situação", lambda r: r.status_label),
    Column("Observação", lambda r: r.note or ""),
)
ABSENCE_COLUMNS = (
    Column("Turma", lambda r: r.session_number),
    Column("Data", lambda r: r.held_on),
    Column("Condutor", lambda r: r.driver_name),
    Column("Tema", lambda r: r.topic),
    Column("Notificação", lambda r: r.notice_number or ""),
)


class CoursesPage(QWidget):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.session_id: int | None = None
        self.last_auto_dialog = None
        self.last_issued = None
        organizer = actor.has(*COURSE_ROLES.organize)

        # --- sessions tab ---------------------------------------------------------------------------
        sessions_tab = QWidget(self)
        self.sessions = RecordTable(SESSION_COLUMNS, sessions_tab, "Filtrar turmas…")
        self.sessions.selection_changed.connect(lambda _row: self._session_chosen())
        form_box = QGroupBox("Nova turma (Art. 12, §2)", sessions_tab)

        from desktop.views.date_fields import DateField, TimeField   # the program's fields (issue 29 point 2)

        today = local_today()
        self.date_edit = DateField(form_box, today + timedelta(days=14), field="held_on", label="Data")
        self.starts_edit = TimeField(QTime(14, 0), form_box, field="starts", label="Início")
        self.ends_edit = TimeField(QTime(17, 0), form_box, field="ends", label="Fim")
        self.place_edit = QLineEdit(form_box)
        self.topic_edit = QLineEdit(form_box)
        self.instructor_edit = QLineEdit(form_box)
        self.capacity_spin = QSpinBox(form_box)
        self.capacity_spin.setRange(0, 1000)
        self.capacity_spin.setValue(40)
        self.create_button = QPushButton("Criar turma", form_box)
        self.create_button.clicked.connect(self.create_session)
        self.create_button.setEnabled(organizer)
        self.form_error = QLabel(form_box)
        self.form_error.setStyleSheet("color: #c62828;")
        self.form_error.setWordWrap(True)
        form = QFormLayout(form_box)
        hours = QHBoxLayout()
        hours.addWidget(self.starts_edit)
        hours.addWidget(QLabel("às", form_box))
        hours.addWidget(self.ends_edit)
        form.addRow("Data", self.date_edit)
        form.addRow("Horário", hours)
        form.addRow("Local", self.place_edit)
        form.addRow("Tema", self.topic_edit)
        form.addRow("Instrutor(a)", self.instructor_edit)
        form.addRow("Vagas", self.capacity_spin)
        form.addRow(self.form_error)
        form.addRow(self.create_button)
        left = QWidget(sessions_tab)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.sessions, 1)
        left_layout.addWidget(form_box)

        right = QWidget(sessions_tab)
        self.session_label = QLabel("Escolha uma turma.", right)
        self.session_label.setWordWrap(True)
        self.filter_combo = QComboBox(right)
        for key, label in CONVOCATION_FILTERS.items():
            self.filter_combo.addItem(label, key)
        self.filter_count = QLabel(right)
        self.filter_combo.currentIndexChanged.connect(lambda _i: self.show_filter_count())
        self.convoke_button = QPushButton("Convocar", right)
        self.convoke_button.clicked.connect(self.convoke)
        self.notice_button = QPushButton("Imprimir notificações de convocação", right)
        self.notice_button.clicked.connect(self.print_notice)
        self.export_button = QPushButton("Exportar lista (CSV)…", right)
        self.export_button.clicked.connect(self.choose_export)
        self.attendance_button = QPushButton("Imprimir lista de presença", right)
        self.attendance_button.clicked.connect(self.print_attendance)
        self.attendances = RecordTable(ATTENDANCE_COLUMNS, right, "Filtrar convocados…")
        self.present_list = QListWidget(right)
        # Enter / double-click (issue 29 point 1): on a session, its convocations; on a convocation, its step (the
        # presence to mark, or the reason of an absence to justify); on a name of the signed list, mark or unmark
        self.sessions.activated.connect(self.open_session)
        self.attendances.activated.connect(self.open_attendance)
        self.present_list.itemActivated.connect(self.toggle_present)
        keyboard_list(self.present_list)
        self.record_button = QPushButton("Registrar presença (da lista assinada)", right)
        self.record_button.clicked.connect(self.record_attendance)
        self.reason_edit = QLineEdit(right)
        self.reason_edit.setPlaceholderText("Motivo da ausência (ex.: atestado médico)")
        self.justify_button = QPushButton("Justificar ausência com documento…", right)
        self.justify_button.clicked.connect(self.choose_justification)
        # issue 24 item 12 (Art. 22, §2): the proof that the chosen convocation's notice reached the driver
        from desktop.views.date_fields import DateField  # local: the program's date field, only for this row

        self.proof_date = DateField(right, local_today(), not_future=True, field="notice_joined_on",
                                    label="Prova juntada em")
        self.proof_button = QPushButton("Juntar prova da notificação", right)
        self.proof_button.setEnabled(False)
        self.proof_button.clicked.connect(self.join_selected_proof)
        self.attendances.selection_changed.connect(self._attendance_chosen)
        self.message = QLabel(right)
        self.message.setWordWrap(True)
        # the buttons of the session's steps (services.courses: SessionInfo.actions, domain/courses.py)
        self._session_buttons = {"convoke": self.convoke_button, "notice": self.notice_button,
                                 "export": self.export_button, "attendance_list": self.attendance_button,
                                 "record": self.record_button, "justify": self.justify_button}
        for button in self._session_buttons.values():
            button.setEnabled(False)
        convoke_row = QHBoxLayout()
        convoke_row.addWidget(self.filter_combo, 1)
        convoke_row.addWidget(self.filter_count)
        convoke_row.addWidget(self.convoke_button)
        print_row = QHBoxLayout()
        for b in (self.notice_button, self.export_button, self.attendance_button):
            print_row.addWidget(b)
        justify_row = QHBoxLayout()
        justify_row.addWidget(self.reason_edit, 1)
        justify_row.addWidget(self.justify_button)
        right_layout = QVBoxLayout(right)
        right_layout.addWidget(self.session_label)
        right_layout.addLayout(convoke_row)
        right_layout.addLayout(print_row)
        right_layout.addWidget(self.attendances, 2)
        right_layout.addWidget(QLabel("Marque os presentes conforme a lista de presença assinada:", right))
        right_layout.addWidget(self.present_list, 1)
        right_layout.addWidget(self.record_button)
        right_layout.addLayout(justify_row)
        proof_row = QHBoxLayout()
        proof_row.addWidget(QLabel("Prova da notificação juntada em:", right))
        proof_row.addWidget(self.proof_date)
        proof_row.addWidget(self.proof_button)
        proof_row.addStretch(1)
        right_layout.addLayout(proof_row)
        right_layout.addWidget(self.message)
        splitter = QSplitter(sessions_tab)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 2)
        QVBoxLayout(sessions_tab).addWidget(splitter)

        # --- absences tab (fiscal) ------------------------------------------------------------------
        absences_tab = QWidget(self)
        self.absences = RecordTable(ABSENCE_COLUMNS, absences_tab, "Filtrar faltas…")
        self.auto_button = QPushButton("Lavrar auto de infração (Art. 26, III)…", absences_tab)
        self.auto_button.clicked.connect(lambda: self.draw_up_auto(self.absences.selected()))

        enter_presses(self.absences, self.auto_button)   # Enter on an unjustified absence: its auto (issue 29)
        self.auto_button.setEnabled(actor.has(*ENFORCEMENT_ROLES.draw_up))
        absences_layout = QVBoxLayout(absences_tab)
        absences_layout.addWidget(QLabel("Condutores convocados que faltaram sem justificativa: descumprem o dever "
                                         "do Art. 13, XVI (cumprir as determinações do Município) — infração do "
                                         "Art. 26, III.", absences_tab))
        absences_layout.addWidget(self.absences, 1)
        absences_layout.addWidget(self.auto_button)

        self.tabs = QTabWidget(self)
        self.tabs.addTab(sessions_tab, "Turmas e convocações")
        self.enforcer = actor.has(*COURSE_ROLES.enforce)
        if self.enforcer:
            self.tabs.addTab(absences_tab, "Faltas sem justificativa (Art. 26, III)")
        else:
            absences_tab.setVisible(False)
        self.absences_tab = absences_tab
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 8, 16, 8)
        layout.addWidget(QLabel("<h2>Cursos e palestras (Art. 12, §2)</h2>", self))
        layout.addWidget(self.tabs, 1)
        bus.data_changed.connect(self._data_changed)
        self.reload()

    # -- loading --------------------------------------------------------------------------------------------
    def _data_changed(self, entity: str) -> None:
        if entity in (Entity.COURSES, Entity.AUTOS, Entity.DRIVERS, Entity.DEMO):
            self.reload()

    def reload(self) -> None:

        keep = self.session_id
        self.sessions.set_rows(courses.list_sessions(self.db, self.actor), keep=lambda r: r.id)
        if keep is not None:
            self.sessions.select_where(lambda r: r.id == keep)
        self._session_chosen()
        if self.enforcer:
            self.absences.set_rows(courses.unjustified_absences(self.db, self.actor))

    def _session_chosen(self) -> None:

        row = self.sessions.selected()
        self.session_id = row.id if row is not None else None
        if row is None:
            self.session_label.setText("Escolha uma turma.")
            self.attendances.set_rows([])
            self.present_list.clear()
        else:
            hour = f"{row.starts_at:%H:%M}" if row.starts_at else ""
            self.session_label.setText(f"<b>Turma {row.number}</b> — {row.topic}<br>{row.held_on:%d/%m/%Y} {hour}, "
                                       f"{row.place} · {row.convoked} convocado(s) de {row.capacity} vaga(s) · "
                                       f"{row.status_label}")
            items = courses.attendances(self.db, self.actor, row.id)
            self.attendances.set_rows(items)
            self.present_list.clear()
            for a in items:
                if is_enabled(a.actions, "mark"):   # a convocation the signed list decides
                    item = QListWidgetItem(f"{a.driver_name} ({a.cpf_display})", self.present_list)
                    item.setData(Qt.ItemDataRole.UserRole, a.driver_id)
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                    item.setCheckState(Qt.CheckState.Checked if a.present else Qt.CheckState.Unchecked)
        actions = row.actions if row is not None else ()
        for key, button in self._session_buttons.items():
            action = find_action(actions, key)
            button.setEnabled(bool(action and action.enabled))
            if action is not None:
                button.setToolTip(action.tooltip)
        self.show_filter_count()

    def show_filter_count(self) -> None:

        if self.session_id is None:
            self.filter_count.setText("")
            return
        n = courses.convocation_count(self.db, self.actor, self.filter_combo.currentData())
        self.filter_count.setText(f"{n} condutor(es)")

    def _say(self, text: str, error: bool = False) -> None:
        self.message.setStyleSheet("color: #c62828;" if error else "color: #2e7d32;")
        self.message.setText(text)

    # -- sessions -------------------------------------------------------------------------------------------
    def draft(self):

        d, st, en = self.date_edit.date(), self.starts_edit.time(), self.ends_edit.time()

        return SessionDraft(held_on=date(d.year(), d.month(), d.day()), starts=time(st.hour(), st.minute()),
                            ends=time(en.hour(), en.minute()), place=self.place_edit.text().strip(),
                            topic=self.topic_edit.text().strip(), capacity=self.capacity_spin.value(),
                            instructor=self.instructor_edit.text().strip())

    def create_session(self) -> bool:

        self.form_error.setText("")

        def created(info) -> None:
            self.session_id = info.id
            self.place_edit.clear()
            self.topic_edit.clear()

        def refused(error) -> bool:

            if isinstance(error, ValidationError):
                self.form_error.setText("\n".join(p.message for p in error.problems))
                return True
            return False

        return op(self, lambda: courses.create_session(self.db, self.actor, self.draft())).failure(refused) \
            .changes(Entity.COURSES).success(created).run()

    def convoke(self) -> bool:

        sid, kind = self.session_id, self.filter_combo.currentData()

        def done(result) -> None:
            text = f"{result.convoked} condutor(es) convocado(s)."
            if result.already:
                text += f" {result.already} já estavam convocados."
            if result.left_out:
                text += f" {result.left_out} ficaram de fora: a turma tem {result.capacity} vagas."
            self._say(text)

        return op(self, lambda: courses.convoke(self.db, self.actor, sid, kind)).changes(Entity.COURSES) \
            .success(done).run()

    def print_notice(self) -> bool:

        sid = self.session_id
        return op(self, lambda: courses.print_convocation_notice(self.db, self.actor, sid)) \
            .background("Convocação", "Gerando as notificações…").changes(Entity.COURSES, Entity.DOCUMENTS) \
            .success(self._issued).run()

    def print_attendance(self) -> bool:

        sid = self.session_id
        return op(self, lambda: print_attendance_list(self.db, self.actor, sid)) \
            .background("Lista de presença", "Gerando a lista…").changes(Entity.DOCUMENTS).success(self._issued).run()

    def _issued(self, issued) -> None:
        self.last_issued = issued
        self._say(f"Documento nº {issued.info.number} emitido e arquivado.")
        # the preview opens over Cursos (issue 27 point 7: it used to jump to Relatórios)

        self.last_dialog = PdfPreviewDialog(issued.pdf, f"Documento {issued.info.number}", self)
        self.last_dialog.open()

    def choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Exportar lista de convocados", "convocados.csv", "CSV (*.csv)")
        if path:
            self.export_to(path)

    def export_to(self, path: str) -> bool:

        sid = self.session_id
        return op(self, lambda: courses.export_convocation_list(self.db, self.actor, sid, path)) \
            .success(lambda n: self._say(f"{n} convocado(s) exportado(s) para {Path(path).name}.")).run()

    # -- attendance -----------------------------------------------------------------------------------------
    def open_session(self, row) -> None:
        """Enter on a session: its convocations (the list on the right), or the convocation when nobody is yet."""
        if row is None:
            return
        if self.attendances.model.rowCount():
            self.attendances.view.setFocus(Qt.FocusReason.OtherFocusReason)    # the first convocation selected
        else:
            self.filter_combo.setFocus(Qt.FocusReason.OtherFocusReason)         # whom to convoke, then "Convocar"

    def open_attendance(self, attendance) -> None:
        if attendance is None:
            return
        if is_enabled(attendance.actions, "mark"):
            for i in range(self.present_list.count()):
                if self.present_list.item(i).data(Qt.ItemDataRole.UserRole) == attendance.driver_id:
                    self.present_list.setCurrentRow(i)
                    self.present_list.setFocus(Qt.FocusReason.OtherFocusReason)   # Space or Enter marks it
                    return
        if is_enabled(attendance.actions, "justify"):
            self.reason_edit.setFocus(Qt.FocusReason.OtherFocusReason)   # the reason, then the document
            self._say(f"Digite o motivo da ausência de {attendance.driver_name} e escolha o documento "
                      "(«Justificar ausência com documento…»).")

    def toggle_present(self, item) -> None:
        item.setCheckState(Qt.CheckState.Unchecked if item.checkState() == Qt.CheckState.Checked
                           else Qt.CheckState.Checked)

    def present_ids(self) -> list[int]:
        return [self.present_list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.present_list.count())
                if self.present_list.item(i).checkState() == Qt.CheckState.Checked]

    def set_present(self, driver_ids) -> None:
        wanted = set(driver_ids)
        for i in range(self.present_list.count()):
            item = self.present_list.item(i)
            item.setCheckState(Qt.CheckState.Checked if item.data(Qt.ItemDataRole.UserRole) in wanted
                               else Qt.CheckState.Unchecked)

    def record_attendance(self) -> bool:

        row = self.sessions.selected()
        present = self.present_ids()
        return op(self, lambda: courses.record_attendance(self.db, self.actor, row.id, present, row.version)) \
            .stale(self.reload).changes(Entity.COURSES) \
            .success(lambda info: self._say(f"Presença registrada: {info.present} presente(s), {info.absent} "
                                            "ausente(s).")).run()

    def _attendance_chosen(self, attendance) -> None:
        action = find_action(attendance.actions, "join_proof") if attendance is not None else None
        self.proof_button.setEnabled(bool(action and action.enabled))
        self.proof_button.setToolTip(action.tooltip if action is not None else "Escolha um convocado na lista.")

    def join_selected_proof(self) -> bool:

        a = self.attendances.selected()
        if a is None:
            return False
        return op(self, lambda: courses.join_convocation_proof(self.db, self.actor, a.id, self.proof_date.value(),
                                                               a.version)) \
            .stale(self.reload).changes(Entity.COURSES) \
            .success(lambda info: (self._say(f"Prova da notificação de {info.driver_name} juntada: a ausência, se "
                                             "houver, pode ser autuada (Art. 26, III)."), self._session_chosen())) \
            .run()

    def choose_justification(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Documento que justifica a ausência", "",
                                              "Documentos (*.pdf *.png *.jpg *.jpeg)")
        if path:
            self.justify_selected(path)

    def justify_selected(self, path: str) -> bool:

        a = self.attendances.selected()
        if a is None:
            self._say("Escolha na lista o convocado cuja ausência será justificada.", error=True)
            return False
        content = Path(path).read_bytes()
        reason = self.reason_edit.text().strip()

        def refused(error) -> bool:

            if isinstance(error, ValidationError):
                self._say("\n".join(p.message for p in error.problems), error=True)
                return True
            return False

        return op(self, lambda: courses.justify_absence(self.db, self.actor, a.id, reason, content, Path(path).name,
                                                        a.version)) \
            .failure(refused).stale(self.reload).changes(Entity.COURSES, Entity.DOCUMENTS) \
            .success(lambda info: self._say(f"Ausência de {info.driver_name} justificada.")).run()

    # -- the fiscal's candidates ----------------------------------------------------------------------------
    def _exec(self, dialog) -> bool:
        return bool(dialog.exec())

    def draw_up_auto(self, absence) -> None:
        """The Fiscalização form filled for the absence (ART26-III, item XVI); the fiscal checks and draws up."""
        if absence is None:
            return

        dialog = AutoFormDialog(self.db, self.actor, self)
        dialog.prefill_course_absence(absence)
        self.last_auto_dialog = dialog
        self._exec(dialog)

    def open_filtered(self, filter: dict) -> None:  # noqa: A002 — issue 16: a home-dashboard tile
        """{"tab": "absences"} → the unjustified absences (Art. 26, III candidates)."""
        if filter.get("tab") == "absences" and self.enforcer:
            self.tabs.setCurrentWidget(self.absences_tab)
        else:
            self.tabs.setCurrentIndex(0)
