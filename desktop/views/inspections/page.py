"""Vistorias: the inspectors' calendar (day, week, month) with every slot and its vehicle; book, move (also by
dragging a booking onto a free slot), cancel, run the inspection, record a no-show; print the convocation and
the laudo; the annual inspections due with bulk scheduling in the background; the Art. 26 I and II lists for the
fiscal; the configuration of places, working patterns and blocked days."""
from __future__ import annotations

import calendar as month_calendar
from datetime import date, timedelta

from PySide6.QtCore import Qt, QTime
from PySide6.QtWidgets import (QComboBox, QDialog, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit,
                               QMessageBox, QPushButton, QSpinBox, QSplitter, QTabWidget, QVBoxLayout,
                               QWidget)

from desktop.domain import TIMEZONE
from desktop.domain.steps import find_action
from desktop.domain.formatting import MONTH_NAMES, weekday_names
from desktop.domain.inspection import BOOKING_STEPS, SCHEDULER_ROLES
from desktop.domain.roles import Role
from desktop.signals import bus
from desktop.views.formatting import format_date
from desktop.views.inspections.dialogs import BookDialog, MoveDialog, ReasonDialog, RunInspectionDialog
from desktop.views.inspections.grid import ScheduleGrid
from desktop.views.operations import op
from desktop.views.table import Column, RecordTable, enter_presses
from desktop.views.widgets import date_edit, qdate_to_date, show_info
from desktop.domain.entities import Entity
from desktop.services import inspections as service
from desktop.views.pdf_preview import PdfPreviewDialog
from desktop.services import documents
from desktop.views.enforcement.auto_form import AutoFormDialog

MODES = (("day", "Dia"), ("week", "Semana"), ("month", "Mês"))
WEEKDAYS = weekday_names(capital=True)      # the one table of names (domain.formatting)
MONTHS = MONTH_NAMES
RELOAD_ON = {Entity.INSPECTIONS, Entity.AUTHORIZATIONS, Entity.HOLIDAYS, Entity.USERS}
NOTHING_SELECTED = "Selecione uma vistoria na agenda."


def period(mode: str, anchor: date) -> tuple[date, date]:
    if mode == "day":
        return anchor, anchor
    if mode == "week":
        start = anchor - timedelta(days=anchor.weekday())
        return start, start + timedelta(days=6)
    last = month_calendar.monthrange(anchor.year, anchor.month)[1]
    return anchor.replace(day=1), anchor.replace(day=last)


class InspectionsPage(QWidget):
    """`InspectionsPage(db, actor, parent)` — the Vistorias module."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.service = service
        self.db, self.actor = db, actor
        self.anchor = service.today()
        self.data = None
        self.names: dict[int, str] = {}
        self.selected_slot = None
        self._alone_reload = True

        # --- calendar tab -------------------------------------------------------------------------------
        self.mode = QComboBox(self)
        for key, label in MODES:
            self.mode.addItem(label, key)
        self.mode.setCurrentIndex(1)
        self.previous = QPushButton("◀", self, toolTip="Período anterior")
        self.today_button = QPushButton("Hoje", self)
        self.next = QPushButton("▶", self, toolTip="Próximo período")
        self.period_label = QLabel(self)
        self.inspector = QComboBox(self)
        self.book_button = QPushButton("Agendar…", self)
        # One button per booking step of the domain's table; each is enabled (or says why not) from the
        # actions of the selected slot's bookings (services.inspections.BookingInfo.actions).
        self.action_buttons = {step.key: QPushButton(step.label, self) for step in BOOKING_STEPS}
        self.move_button = self.action_buttons["move"]
        self.cancel_button = self.action_buttons["cancel"]
        self.run_button = self.action_buttons["run"]
        self.no_show_button = self.action_buttons["no_show"]
        self.convocation_button = self.action_buttons["convocation"]
        self.report_button = self.action_buttons["report"]
        self.grid = ScheduleGrid(self)
        self.detail = QLabel(self)
        self.detail.setWordWrap(True)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.detail.setMinimumWidth(260)
        top = QHBoxLayout()
        for w in (QLabel("Visão", self), self.mode, self.previous, self.today_button, self.next, self.period_label):
            top.addWidget(w)
        top.addStretch(1)
        top.addWidget(QLabel("Vistoriador", self))
        top.addWidget(self.inspector)
        actions = QHBoxLayout()
        for b in (self.book_button, *self.action_buttons.values()):
            actions.addWidget(b)
        actions.addStretch(1)
        splitter = QSplitter(self)
        splitter.addWidget(self.grid)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 1)
        agenda = QWidget(self)
        agenda_layout = QVBoxLayout(agenda)
        agenda_layout.addLayout(top)
        agenda_layout.addLayout(actions)
        agenda_layout.addWidget(splitter, 1)

        # --- annual tab -------------------------------------------------------------------------------
        annual = QWidget(self)
        self.annual_month = QComboBox(annual)
        for offset in range(-1, 13):
            y, m = divmod(self.anchor.month - 1 + offset, 12)
            self.annual_month.addItem(f"{MONTHS[m]}/{self.anchor.year + y}", (self.anchor.year + y, m + 1))
        self.annual_month.setCurrentIndex(1)
        self.bulk_first = date_edit(annual, self.anchor + timedelta(days=1))
        self.bulk_last = date_edit(annual, self.anchor + timedelta(days=30))
        self.bulk_button = QPushButton("Agendar em lote nos horários livres", annual)
        self.annual_table = RecordTable([
            Column("Autorização", lambda r: r.authorization_number),
            Column("Placa", lambda r: r.plate_display),
            Column("Condutor", lambda r: r.driver_name),
            Column("Última aprovação", lambda r: r.last_approved_on),
            Column("Vence em", lambda r: r.due_on),
            Column("Situação", lambda r: "Atrasada" if r.overdue else "No mês"),
        ], annual, filter_placeholder="Filtrar por placa, condutor…")
        self.annual_count = QLabel(annual)
        row = QHBoxLayout()
        for w in (QLabel("Vencimento até", annual), self.annual_month, QLabel("Agendar de", annual), self.bulk_first,
                  QLabel("a", annual), self.bulk_last, self.bulk_button):
            row.addWidget(w)
        row.addStretch(1)
        annual_layout = QVBoxLayout(annual)
        annual_layout.addWidget(QLabel("Vistoria anual (Art. 16): vence um ano após a última aprovação.", annual))
        annual_layout.addLayout(row)
        annual_layout.addWidget(self.annual_table, 1)
        annual_layout.addWidget(self.annual_count)

        # --- Art. 26 tabs ------------------------------------------------------------------------------
        candidate_columns = [
            Column("Data", lambda r: r.on),
            Column("Autorização", lambda r: r.authorization_number),
            Column("Placa", lambda r: r.plate_display),
            Column("Condutor", lambda r: r.driver_name),
            Column("Enquadramento", lambda r: f"{r.code} ({r.article})"),
            Column("Fato", lambda r: r.detail),
        ]
        self.no_show_table = RecordTable(candidate_columns, self)
        self.impeded_table = RecordTable(candidate_columns, self)
        self.no_show_auto = QPushButton("Lavrar auto (Art. 26, I)…", self)
        self.impeded_auto = QPushButton("Lavrar auto (Art. 26, II)…", self)
        self.no_show_auto.clicked.connect(lambda: self.draw_up_auto(self.no_show_table.selected()))
        self.impeded_auto.clicked.connect(lambda: self.draw_up_auto(self.impeded_table.selected()))
        enter_presses(self.no_show_table, self.no_show_auto)   # Enter on a candidate: its auto (issue 29 point 1)
        enter_presses(self.impeded_table, self.impeded_auto)
        no_show_tab = self._titled(self.no_show_table, "Ausências à convocação — candidatas a auto de infração "
                                   "do Art. 26, I (deixar de comparecer à vistoria).", self.no_show_auto)
        impeded_tab = self._titled(self.impeded_table, "Veículos impedidos cujo prazo de 5 dias para regularizar "
                                   "(Art. 16, §2) terminou sem vistoria aprovada — candidatos ao Art. 26, II, se "
                                   "o veículo for flagrado em serviço.", self.impeded_auto)

        # --- configuration tab ------------------------------------------------------------------------
        config = self._build_config()

        self.tabs = QTabWidget(self)
        self.tabs.addTab(agenda, "Agenda")
        self.tabs.addTab(annual, "Vistorias anuais")
        self.tabs.addTab(no_show_tab, "Ausências (Art. 26, I)")
        self.tabs.addTab(impeded_tab, "Prazo vencido (Art. 26, II)")
        self.tabs.addTab(config, "Configuração")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.tabs)

        self.mode.currentIndexChanged.connect(lambda *_: self.reload())
        self.previous.clicked.connect(lambda: self.shift(-1))
        self.next.clicked.connect(lambda: self.shift(1))
        self.today_button.clicked.connect(self.go_today)
        self.inspector.currentIndexChanged.connect(lambda *_: self.render())
        self.grid.slot_selected.connect(self.select_slot)
        self.grid.slot_activated.connect(self.slot_activated)
        self.grid.day_activated.connect(self.open_day)
        self.grid.move_requested.connect(self.move_to)
        self.book_button.clicked.connect(lambda: self.book())
        self.move_button.clicked.connect(lambda: self.move())
        self.cancel_button.clicked.connect(self.cancel)
        self.run_button.clicked.connect(self.run)
        self.no_show_button.clicked.connect(self.no_show)
        self.convocation_button.clicked.connect(self.print_convocation)
        self.report_button.clicked.connect(self.print_report)
        self.annual_month.currentIndexChanged.connect(lambda *_: self.load_annual())
        self.bulk_button.clicked.connect(self.bulk_schedule)
        self.tabs.currentChanged.connect(self.tab_changed)
        bus.data_changed.connect(self._data_changed)
        self._apply_roles()
        self.select_slot(None)
        self.reload()

    # ------------------------------------------------------------------------------------------ helpers
    def _titled(self, table, text: str, button: QPushButton) -> QWidget:
        box = QWidget(self)
        layout = QVBoxLayout(box)
        label = QLabel(text, box)
        label.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(label, 1)
        row.addWidget(button)
        layout.addLayout(row)
        layout.addWidget(table, 1)
        return box

    def _exec(self, dialog) -> bool:
        """Runs a modal dialog (tests replace it)."""
        return dialog.exec() == QDialog.DialogCode.Accepted

    def _confirm(self, title: str, text: str) -> bool:
        return QMessageBox.question(self, title, text) == QMessageBox.StandardButton.Yes

    def _changed(self, *entities: str) -> None:
        """A dialog saved (through op): tell the other screens, then reload this one once."""
        self._alone_reload = False
        for entity in entities:
            bus.data_changed.emit(entity)
        self._alone_reload = True
        self.reload()

    def _save(self, call, *entities: str, then=None) -> bool:
        """A write of this page through op(): refusals become messages, the change is announced to the other
        screens and this page reloads once (not once per entity)."""
        def saved(result) -> None:
            self.reload()
            if then is not None:
                then(result)

        self._alone_reload = False
        try:
            return op(self, call).changes(*entities).stale(self.reload).success(saved).run()
        finally:
            self._alone_reload = True

    def _read(self, call, show) -> bool:
        """A read through op(): a refusal is a message box, the result goes to `show`."""
        return op(self, call).success(show).run()

    def _data_changed(self, entity: str) -> None:
        if entity in RELOAD_ON and self._alone_reload:
            self.reload()

    def _apply_roles(self) -> None:
        schedules = self.actor.has(*SCHEDULER_ROLES)
        for b in (self.book_button, self.bulk_button):
            b.setEnabled(schedules)
        self.no_show_auto.setEnabled(self.actor.has(Role.FISCAL))
        self.impeded_auto.setEnabled(self.actor.has(Role.FISCAL))
        enforcer = self.actor.has(Role.FISCAL, Role.GESTOR, Role.VISTORIADOR)
        self.tabs.setTabEnabled(2, enforcer)
        self.tabs.setTabEnabled(3, enforcer)
        self.config_box.setEnabled(self.actor.has(Role.GESTOR, Role.ADMINISTRADOR))

    # ------------------------------------------------------------------------------------------ calendar
    def open_filtered(self, filter: dict) -> None:  # noqa: A002 — issue 16: a home-dashboard tile
        """{"tab": "annual"} → the annual inspections due by this month, without booking (Art. 16)."""
        if filter.get("tab") == "annual":
            self.annual_month.setCurrentIndex(1)   # this month (the first item is the month before)
            self.tabs.setCurrentIndex(1)
            self.load_annual()

    def current_period(self) -> tuple[date, date]:
        return period(self.mode.currentData(), self.anchor)

    def shift(self, step: int) -> None:
        mode = self.mode.currentData()
        if mode == "day":
            self.anchor += timedelta(days=step)
        elif mode == "week":
            self.anchor += timedelta(weeks=step)
        else:
            y, m = divmod(self.anchor.month - 1 + step, 12)
            self.anchor = date(self.anchor.year + y, m + 1, 1)
        self.reload()

    def go_today(self) -> None:
        self.anchor = self.service.today()
        self.reload()

    def set_view(self, mode: str, anchor: date | None = None) -> None:
        if anchor is not None:
            self.anchor = anchor
        index = self.mode.findData(mode)
        if index == self.mode.currentIndex():
            self.reload()
        else:
            self.mode.setCurrentIndex(index)

    def open_day(self, day: date) -> None:
        self.set_view("day", day)

    def reload(self) -> None:
        first, last = self.current_period()
        self._read(lambda: self.service.calendar_data(self.db, self.actor, first, last),
                   lambda data: self._show_calendar(data, first, last))

    def _show_calendar(self, data, first: date, last: date) -> None:
        self.data = data
        self.names = {i.id: i.full_name for i in self.data.inspectors}
        chosen = self.inspector.currentData()
        self.inspector.blockSignals(True)
        self.inspector.clear()
        self.inspector.addItem("Todos", 0)  # 0: every inspector (no None inside Qt: see grid.py)
        for i in self.data.inspectors:
            self.inspector.addItem(i.full_name, i.id)
        index = self.inspector.findData(chosen)
        self.inspector.setCurrentIndex(max(index, 0))
        self.inspector.blockSignals(False)
        label = format_date(first) if first == last else f"{format_date(first)} a {format_date(last)}"
        self.period_label.setText(f"<b>{label}</b>")
        self.render()
        if self.tabs.currentIndex() != 0:
            self.tab_changed(self.tabs.currentIndex())

    def render(self) -> None:
        if self.data is None:
            return
        self.grid.show_range(self.data, self.mode.currentData(), self.inspector.currentData() or None)
        self.select_slot(None)
        if not self.data.inspectors:
            self.detail.setText("Nenhum vistoriador ativo. Um administrador cria usuários com o papel "
                                "Vistoriador; o gestor configura os horários na aba Configuração.")
        elif not self.data.slots:
            self.detail.setText("Nenhum horário de atendimento neste período.")

    def _candidates(self, slot=None) -> list:
        """The bookings of the selected slot, in the order a step looks for its target: the live one, then the
        past ones from the newest."""
        slot = slot if slot is not None else self.selected_slot
        if slot is None:
            return []
        return ([slot.booking] if slot.booking is not None else []) + list(reversed(slot.past))

    def _action(self, key: str):
        """(booking, action) for the step `key` on the selected slot: the first booking where it is enabled,
        else the first booking's (disabled, with its reason); (None, None) when the slot holds no booking."""
        found = []
        for booking in self._candidates():
            action = find_action(booking.actions, key)
            if action is not None:
                if action.enabled:
                    return booking, action
                found.append((booking, action))
        return found[0] if found else (None, None)

    def _target(self, key: str):
        """The booking the step `key` applies to now, or None."""
        booking, action = self._action(key)
        return booking if action is not None and action.enabled else None

    def select_slot(self, slot) -> None:
        self.selected_slot = slot
        for key, button in self.action_buttons.items():
            _booking, action = self._action(key)
            button.setEnabled(bool(action and action.enabled))
            button.setToolTip(action.tooltip if action is not None else NOTHING_SELECTED)
        if slot is None:
            self.detail.setText("Selecione um horário. Duplo clique em um horário livre agenda; arraste uma "
                                "vistoria para um horário livre para remarcá-la.")
            return
        local = slot.start.astimezone(TIMEZONE)
        where = self.data.places.get(slot.place_id, "") if self.data else ""
        text = (f"<b>{format_date(local.date())} {local:%H:%M}–{slot.end.astimezone(TIMEZONE):%H:%M}</b><br>"
                f"Vistoriador: {self.names.get(slot.inspector_id, '')}<br>Local: {where or '—'}<br>")
        if slot.booking is None:
            text += "<br>Horário livre."
        for booking in reversed(self._candidates(slot)):
            text += (f"<br><br><b>{booking.kind_label}</b> — {booking.result_label or booking.status_label}<br>"
                     f"Placa: {booking.plate_display}<br>Condutor: {booking.driver_name}<br>Autorização: "
                     f"{booking.authorization_number or '(sem número)'}")
            if booking.term_end:
                text += f"<br>Prazo: até {format_date(booking.term_end)}"
            if booking.reschedule_reason:
                text += f"<br>Remarcada: {booking.reschedule_reason}"
        self.detail.setText(text)

    def slot_activated(self, slot) -> None:
        if slot.free:  # no live booking: a done or missed one frees its slot
            self.book(slot)
        elif self._target("run") is not None:
            self.run()

    # ------------------------------------------------------------------------------------------ actions
    def book(self, slot=None) -> None:
        dialog = BookDialog(self.db, self.actor, self.names, slot, self)
        if self._exec(dialog):
            b = dialog.result_booking
            local = b.start.astimezone(TIMEZONE)
            self._changed(Entity.INSPECTIONS)
            show_info(self, "Vistoria agendada", f"{b.kind_label} de {b.plate_display} agendada para "
                      f"{format_date(local.date())} às {local:%H:%M} com {b.inspector_name}.")

    def move(self, target=None) -> None:
        booking = self._target("move")
        if booking is not None:
            self.move_to(booking, target)

    def move_to(self, booking, target) -> None:
        dialog = MoveDialog(self.db, self.actor, booking, self.names, target, self)
        if self._exec(dialog):
            self._changed(Entity.INSPECTIONS)

    def cancel(self) -> None:
        booking = self._target("cancel")
        if booking is None:
            return
        dialog = ReasonDialog("Cancelar vistoria", f"Motivo do cancelamento da vistoria de "
                              f"{booking.plate_display}:", self)
        if not self._exec(dialog):
            return
        reason = dialog.text.text()
        self._save(lambda: self.service.cancel_inspection(self.db, self.actor, booking.id, reason, booking.version),
                   Entity.INSPECTIONS)

    def run(self) -> None:
        booking = self._target("run")
        if booking is None:
            return
        dialog = RunInspectionDialog(self.db, self.actor, booking, self)
        if self._exec(dialog):
            detail = dialog.detail
            self._changed(Entity.INSPECTIONS, Entity.AUTHORIZATIONS)
            title = "Vistoria reprovada" if detail.booking.failed_or_missed else "Vistoria aprovada"
            show_info(self, title, f"{detail.booking.plate_display}: {detail.outcome}")
            self.last_inspection = detail.booking

    def no_show(self) -> None:
        booking = self._target("no_show")
        if booking is None:
            return
        if not self._confirm("Registrar ausência", f"{booking.plate_display} não compareceu à vistoria? "
                             "A ausência vai para a lista do fiscal (Art. 26, I)."):
            return
        self._save(lambda: self.service.record_no_show(self.db, self.actor, booking.id, booking.version),
                   Entity.INSPECTIONS)

    def _preview(self, issued, title: str) -> None:
        dialog = PdfPreviewDialog(issued.pdf, title, self, suggested_name=f"{title}.pdf".replace("/", "-"))
        self.last_preview = dialog
        self._exec(dialog)

    def _print(self, call, title: str, label: str, heading: str) -> None:
        """Render and archive a document on a worker (op().background(): progress after 600 ms, "Cancelar"),
        then preview it here, on the UI thread."""
        self.print_op = op(self, call).background(title, label, pass_state=True).changes(Entity.DOCUMENTS) \
            .titled(title) \
            .success(lambda issued: self._preview(issued, f"{heading} {issued.info.number}"))
        self.print_op.run()

    def print_convocation(self) -> None:
        booking = self._target("convocation")
        if booking is None:
            return
        db, actor, code = self.db, self.actor, str(booking.id)
        self._print(lambda state: documents.print_notice(db, actor, "inspection_convocation", code, state=state),
                    "Convocação para vistoria", "Gerando a convocação…", "Convocação para vistoria")

    def print_report(self) -> None:
        """The laudo of the selected inspection (done), or of the last one run here."""
        booking = self._target("report") or getattr(self, "last_inspection", None)
        if booking is None:
            return
        db, actor, inspection_id = self.db, self.actor, booking.id
        self._print(lambda state: documents.print_inspection_report(db, actor, inspection_id, state=state),
                    "Laudo de vistoria", "Gerando o laudo…", "Laudo de vistoria")

    def draw_up_auto(self, candidate) -> None:
        """The fiscal's auto for a candidate, in the Fiscalização form, filled with the driver, the vehicle, the
        code (ART26-I / ART26-II) and the fact; the fiscal checks it and draws it up there."""
        if candidate is None:
            return
        dialog = AutoFormDialog(self.db, self.actor, self)
        dialog.setWindowTitle(f"Novo auto de infração — {candidate.article}")
        if candidate.driver_id is not None:
            dialog.driver_picker.set_choice(candidate.driver_id, candidate.driver_name)
        if candidate.plate_display:
            dialog.vehicle_picker.edit.setText(candidate.plate_display)
            dialog.vehicle_picker.search_now()
        try:
            dialog.select_code(candidate.code)
        except KeyError:  # the code is not in force in the catalogue: the fiscal chooses it
            pass
        dialog.description_edit.setPlainText(f"{candidate.detail} (infração do {candidate.article}). "
                                             f"Autorização {candidate.authorization_number or '(sem número)'}, "
                                             f"veículo {candidate.plate_display}.")
        self.last_auto_dialog = dialog
        if self._exec(dialog):
            self._changed(Entity.AUTOS)

    # ------------------------------------------------------------------------------------------ lists
    def tab_changed(self, index: int) -> None:
        if index == 1:
            self.load_annual()
        elif index == 2:
            self._load(self.no_show_table, lambda: self.service.no_shows(self.db, self.actor))
        elif index == 3:
            self._load(self.impeded_table, lambda: self.service.art26_ii_candidates(self.db, self.actor))
        elif index == 4:
            self.load_config()

    def _load(self, table, fetch) -> None:
        self._read(fetch, table.set_rows)

    def load_annual(self) -> None:
        year, month = self.annual_month.currentData()
        self._load(self.annual_table, lambda: self.service.annual_due(self.db, self.actor, year, month))
        self.annual_count.setText(f"{len(self.annual_table.model.rows())} vistoria(s) anual(is) a agendar.")

    def bulk_schedule(self) -> None:
        year, month = self.annual_month.currentData()
        first, last = qdate_to_date(self.bulk_first.date()), qdate_to_date(self.bulk_last.date())
        db, actor, job = self.db, self.actor, self.service.schedule_annual_job
        self.bulk_button.setEnabled(False)
        self.bulk_op = op(self, lambda state: job(state, db, actor, year, month, first, last)) \
            .background("Agendamento em lote", "Agendando vistorias anuais…", pass_state=True) \
            .changes(Entity.INSPECTIONS).titled("Agendamento em lote").success(self._bulk_done) \
            .failure(self._bulk_failed)
        self.bulk_op.run()
        self.bulk_task = self.bulk_op.task

    def _bulk_done(self, result) -> None:
        self.bulk_button.setEnabled(True)
        self.bulk_result = result
        self.load_annual()
        show_info(self, "Agendamento em lote", result.message)

    def _bulk_failed(self, error) -> bool:
        self.bulk_button.setEnabled(True)
        return False  # op() shows the message

    # ------------------------------------------------------------------------------------------ configuration
    def _build_config(self) -> QWidget:
        box = QWidget(self)
        self.config_box = box
        self.schedule_table = RecordTable([
            Column("Vistoriador", lambda r: r.inspector_name),
            Column("Dia", lambda r: r.weekday_label),
            Column("Início", lambda r: r.start_time.strftime("%H:%M")),
            Column("Fim", lambda r: r.end_time.strftime("%H:%M")),
            Column("Minutos por vistoria", lambda r: r.slot_minutes),
            Column("Local", lambda r: r.place_name),
            Column("Desde", lambda r: r.valid_from),
        ], box, show_filter=False)
        self.blocked_table = RecordTable([
            Column("Dia", lambda r: r.day),
            Column("Vistoriador", lambda r: r.inspector_name),
            Column("Motivo", lambda r: r.reason),
        ], box, show_filter=False)
        self.cfg_inspector = QComboBox(box)
        self.cfg_weekday = QComboBox(box)
        for n, name in enumerate(WEEKDAYS):
            self.cfg_weekday.addItem(name, n)
        from desktop.views.date_fields import TimeField   # the program's time field (issue 29 point 2)

        self.cfg_start = TimeField(QTime(8, 0), box, field="start", label="Das")
        self.cfg_end = TimeField(QTime(12, 0), box, field="end", label="Até")
        self.cfg_minutes = QSpinBox(box)
        self.cfg_minutes.setRange(5, 480)
        self.cfg_minutes.setValue(30)
        self.cfg_place = QComboBox(box)
        add_schedule = QPushButton("Adicionar horário", box)
        add_schedule.clicked.connect(self.add_schedule)
        end_schedule = QPushButton("Encerrar horário selecionado…", box)
        end_schedule.clicked.connect(self.end_schedule)
        enter_presses(self.schedule_table, end_schedule)   # Enter on a schedule: end it, after asking (issue 29)
        self.place_name = QLineEdit(box)
        self.place_address = QLineEdit(box)
        add_place = QPushButton("Adicionar local", box)
        add_place.clicked.connect(self.add_place)
        self.block_day_edit = date_edit(box, self.anchor + timedelta(days=1))
        self.block_inspector = QComboBox(box)
        self.block_reason = QLineEdit(box)
        block = QPushButton("Bloquear dia", box)
        block.clicked.connect(self.block_day)
        unblock = QPushButton("Desbloquear selecionado…", box)
        unblock.clicked.connect(self.unblock_day)
        enter_presses(self.blocked_table, unblock)   # Enter on a blocked day: unblock it, after asking (issue 29)

        pattern = QGroupBox("Horários de atendimento (vistoriadores)", box)
        form = QFormLayout(pattern)
        form.addRow("Vistoriador", self.cfg_inspector)
        form.addRow("Dia da semana", self.cfg_weekday)
        times = QHBoxLayout()
        for w in (self.cfg_start, QLabel("até", box), self.cfg_end, QLabel("a cada", box), self.cfg_minutes,
                  QLabel("minutos", box)):
            times.addWidget(w)
        form.addRow("Expediente", times)
        form.addRow("Local", self.cfg_place)
        buttons = QHBoxLayout()
        buttons.addWidget(add_schedule)
        buttons.addWidget(end_schedule)
        form.addRow(buttons)
        places = QGroupBox("Locais de vistoria", box)
        place_form = QFormLayout(places)
        place_form.addRow("Nome", self.place_name)
        place_form.addRow("Endereço", self.place_address)
        place_form.addRow(add_place)
        blocked = QGroupBox("Dias bloqueados (os feriados vêm do calendário)", box)
        blocked_form = QFormLayout(blocked)
        blocked_form.addRow("Dia", self.block_day_edit)
        blocked_form.addRow("Vistoriador", self.block_inspector)
        blocked_form.addRow("Motivo", self.block_reason)
        block_buttons = QHBoxLayout()
        block_buttons.addWidget(block)
        block_buttons.addWidget(unblock)
        blocked_form.addRow(block_buttons)
        left = QVBoxLayout()
        left.addWidget(pattern)
        left.addWidget(places)
        left.addWidget(blocked)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(QLabel("Horários em vigor", box))
        right.addWidget(self.schedule_table, 2)
        right.addWidget(QLabel("Dias bloqueados (próximos 90 dias)", box))
        right.addWidget(self.blocked_table, 1)
        layout = QHBoxLayout(box)
        layout.addLayout(left)
        layout.addLayout(right, 1)
        return box

    def load_config(self) -> None:
        def fetch():
            today = self.service.today()
            return (self.service.list_inspectors(self.db, self.actor), self.service.list_places(self.db, self.actor),
                    self.service.list_schedules(self.db, self.actor),
                    self.service.list_blocked_days(self.db, self.actor, today, today + timedelta(days=90)))
        self._read(fetch, self._show_config)

    def _show_config(self, loaded) -> None:
        inspectors, places, schedules, blocked = loaded
        self.schedule_table.set_rows(schedules)
        self.blocked_table.set_rows(blocked)
        for combo, everyone in ((self.cfg_inspector, False), (self.block_inspector, True)):
            combo.clear()
            if everyone:
                combo.addItem("Todos os vistoriadores", 0)
            for i in inspectors:
                combo.addItem(i.full_name, i.id)
        self.cfg_place.clear()
        self.cfg_place.addItem("—", 0)
        for p in places:
            self.cfg_place.addItem(p.name, p.id)

    def _config_call(self, fn, *args, **kw) -> bool:
        return self._save(lambda: fn(self.db, self.actor, *args, **kw), Entity.INSPECTIONS,
                          then=lambda _result: self.load_config())

    def add_schedule(self) -> None:
        problem = self.cfg_start.problem() or self.cfg_end.problem()
        if problem:
            QMessageBox.warning(self, "Horário", problem)
            return
        self._config_call(self.service.add_schedule, self.cfg_inspector.currentData(), self.cfg_weekday.currentData(),
                          self.cfg_start.value(), self.cfg_end.value(),
                          self.cfg_minutes.value(), self.cfg_place.currentData() or None)

    def end_schedule(self) -> None:
        row = self.schedule_table.selected()
        if row is not None and self._confirm(
                "Encerrar horário", f"Encerrar o horário de {row.inspector_name} ({row.weekday_label}, "
                f"{row.start_time:%H:%M}–{row.end_time:%H:%M}) a partir de hoje? Os agendamentos feitos continuam."):
            self._config_call(self.service.end_schedule, row.id, self.service.today(), row.version)

    def add_place(self) -> None:
        if self._config_call(self.service.create_place, self.place_name.text(), self.place_address.text()):
            self.place_name.clear()
            self.place_address.clear()

    def block_day(self) -> None:
        if self._config_call(self.service.block_day, qdate_to_date(self.block_day_edit.date()),
                             self.block_reason.text(), self.block_inspector.currentData() or None):
            self.block_reason.clear()

    def unblock_day(self) -> None:
        row = self.blocked_table.selected()
        if row is not None and self._confirm(
                "Desbloquear dia", f"Desbloquear {format_date(row.day)} ({row.inspector_name or 'todos'}"
                f"{', ' + row.reason if row.reason else ''})? O dia volta a ter horários livres."):
            self._config_call(self.service.unblock_day, row.id)
