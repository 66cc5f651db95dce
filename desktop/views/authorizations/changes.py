"""Comunicações de alteração (Art. 13, XVIII): a change of a driver's or vehicle's data must be communicated
within 7 days. The list shows every communication with its deadline; late ones are highlighted, and the fiscal
can narrow the list to the late ones not yet turned into an Art. 26 III auto."""
from __future__ import annotations

from datetime import date

from PySide6.QtGui import QBrush, QColor

from desktop.domain.roles import Role
from desktop.views.registry.dialogs import ActionDialog, FieldSpec
from desktop.views.registry.paged import ListColumn, PagedList
from desktop.views.widgets import show_info
from desktop.domain.entities import Entity
from desktop.services import changes
from desktop.views.authorizations.request import driver_picker, vehicle_picker
from desktop.signals import bus
from desktop.views.formatting import format_date
from PySide6.QtWidgets import QPushButton
from desktop.views.table import enter_presses
from desktop.views.enforcement.auto_form import AutoFormDialog

LATE_BRUSH = QBrush(QColor("#ffe0e0"))

CHANGE_COLUMNS = (
    ListColumn("Condutor", lambda c: c.driver_name),
    ListColumn("Veículo", lambda c: c.plate_display),
    ListColumn("Alteração", lambda c: c.what_changed),
    ListColumn("Ocorrida em", lambda c: c.happened_on),
    ListColumn("Comunicada em", lambda c: c.communicated_on),
    ListColumn("Prazo (7 dias)", lambda c: c.deadline),
    ListColumn("Situação", lambda c: "Fora do prazo (Art. 13, XVIII)" if c.late else "No prazo"),
    ListColumn("Auto", lambda c: f"{c.auto_number} (cancelado)" if c.auto_cancelled else c.auto_number or ""),
    ListColumn("Registrada por", lambda c: c.recorded_by_name),
)

FILTERS = (("late", "Fora do prazo"), ("late_open", "Fora do prazo, sem auto (fiscal)"), ("on_time", "No prazo"))


AUTO_BUTTON_TEXT = "Lavrar auto (Art. 26, III – inciso XVIII)"


def fetch_changes(db, actor):
    """One page from `services.changes.page_changes` (filtered by text and situation, with the total)."""
    def fetch(query, offset, limit):

        return changes.page_changes(db, actor, text=query.text, status=query.status, offset=offset, limit=limit)
    return fetch


def change_dialog(db, actor, parent=None, driver=None, vehicle=None, today: date | None = None) -> ActionDialog:
    """Record a change communication for `driver` or `vehicle` (or pick them when neither is given)."""

    fields = []
    if driver is None and vehicle is None:
        fields += [FieldSpec("driver", "Condutor", "widget", required=False, widget=driver_picker(db, actor)),
                   FieldSpec("vehicle", "Veículo", "widget", required=False, widget=vehicle_picker(db, actor))]
        subject = "do condutor ou do veículo"
    elif driver is not None:
        subject = f"do condutor <b>{driver.name}</b> (CPF {driver.cpf_display})"
    else:
        subject = f"do veículo <b>{vehicle.plate_display}</b>"
    fields += [FieldSpec("what_changed", "O que mudou", "multiline"),
               FieldSpec("happened_on", "Data da alteração", "date"),
               FieldSpec("communicated_on", "Data da comunicação", "date")]

    def submit(values):
        draft = changes.ChangeDraft(
            what_changed=values["what_changed"], happened_on=values["happened_on"],
            communicated_on=values["communicated_on"],
            driver_id=driver.id if driver is not None else values.get("driver"),
            vehicle_id=vehicle.id if vehicle is not None else values.get("vehicle"))
        return changes.record_change(db, actor, draft)

    dialog = ActionDialog(
        "Comunicação de alteração",
        f"Alteração de dados {subject}. A comunicação deve ser feita em até 7 dias (Art. 13, XVIII); fora do "
        "prazo, fica disponível ao fiscal como infração do Art. 26, III.",
        fields, submit, parent, ok_text="Registrar", today=today)
    if driver is None and vehicle is None:
        dialog.widget("driver").search_now("")
        dialog.widget("vehicle").search_now("")
        # Either one: the one the user leaves alone says "nenhum".
        for name in ("driver", "vehicle"):
            dialog.widget(name).combo.insertItem(0, "(nenhum)", None)
            dialog.widget(name).combo.setCurrentIndex(0)

    def announce():

        bus.data_changed.emit(Entity.CHANGES)
        info = dialog.result_value
        if info is not None and info.late:
            show_info(dialog.parentWidget(), "Comunicação fora do prazo",
                      f"A alteração de {format_date(info.happened_on)} foi comunicada em "
                      f"{format_date(info.communicated_on)}, depois do prazo de {format_date(info.deadline)} "
                      "(Art. 13, XVIII). Ela aparece na lista do fiscal (Art. 26, III).")

    dialog.accepted.connect(announce)
    return dialog


class ChangesScreen(PagedList):
    """Every communication (Autorizações tab); with `fiscal_queue`, the Fiscalização tab: opens on the late ones
    without an auto, and only the fiscal's button shows."""

    def __init__(self, db, actor, parent=None, fiscal_queue: bool = False):
        statuses = FILTERS if actor.has(Role.FISCAL, Role.GESTOR) else FILTERS[:1] + FILTERS[2:]
        super().__init__(CHANGE_COLUMNS, fetch_changes(db, actor), parent,
                         filter_placeholder="Filtrar por condutor, placa ou alteração…", statuses=statuses)

        self.db, self.actor = db, actor
        self.last_dialog = None
        self.model.highlight = lambda c: LATE_BRUSH if c.late else None
        self.new_button = QPushButton("Registrar comunicação…", self)
        self.new_button.clicked.connect(self.new_change)
        self.new_button.setEnabled(actor.has(Role.ATENDENTE, Role.GESTOR))
        self.layout().itemAt(0).layout().insertWidget(0, self.new_button)
        # SPEC §3: a late communication is offered to the fiscal as an Art. 26, III infraction.
        self.auto_button = QPushButton(AUTO_BUTTON_TEXT, self)
        self.auto_button.setToolTip("Abre o auto de infração preenchido com o condutor, o veículo, o código "
                                    "ART26-III (Art. 13, XVIII) e as datas da comunicação selecionada.")
        self.auto_button.setVisible(actor.has(Role.FISCAL))
        self.auto_button.setEnabled(False)
        self.auto_button.clicked.connect(self.draw_up_auto)
        self.layout().itemAt(0).layout().insertWidget(1, self.auto_button)

        enter_presses(self, self.auto_button)    # Enter on a late communication: its auto (issue 29 point 1)
        self.selection_changed.connect(self._selection_changed)
        if fiscal_queue:
            self.new_button.setVisible(False)
            self.status_combo.setCurrentIndex(max(self.status_combo.findData("late_open"), 0))
        self.set_widths((190, 80, 200, 95, 110, 100, 190, 120))
        bus.data_changed.connect(self._data_changed)   # a bound method: disconnected when the screen dies
        self.apply_filter()

    def _data_changed(self, entity: str) -> None:
        if entity in (Entity.CHANGES, Entity.DRIVERS, Entity.VEHICLES, Entity.AUTOS, Entity.DEMO):
            self.reload()

    def _selection_changed(self, change) -> None:
        self.auto_button.setEnabled(self._can_draw_up(change))

    def _can_draw_up(self, change) -> bool:
        return change is not None and change.awaiting_auto and self.actor.has(Role.FISCAL)

    def auto_form(self, change):
        """The auto form filled from `change` (not shown); `draw_up_auto` runs it."""

        return AutoFormDialog(self.db, self.actor, self, change=change)

    def draw_up_auto(self):
        change = self.selected()
        if not self._can_draw_up(change):
            return None
        dialog = self.auto_form(change)
        self.last_dialog = dialog
        dialog.exec()
        if dialog.saved is not None:
            self.reload()
        return dialog

    def new_change(self):
        dialog = change_dialog(self.db, self.actor, self)
        self.last_dialog = dialog
        dialog.exec()
        return dialog
