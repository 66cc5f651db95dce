"""The authorization request (protocolo): one driver + one vehicle (Art. 8), found by name/CPF and plate."""
from __future__ import annotations

from datetime import date

from desktop.views.widgets.detail import RecordPicker
from desktop.views.registry.dialogs import ActionDialog, FieldSpec
from desktop.domain.entities import Entity
from desktop.services import drivers
from desktop.services import vehicles
from desktop.services import authorizations

PICKER_LIMIT = 20


def driver_picker(db, actor, parent=None) -> RecordPicker:

    return RecordPicker(
        lambda text: drivers.list_drivers(db, actor, text=text, status="active", limit=PICKER_LIMIT).rows,
        lambda r: f"{r.name} — CPF {r.cpf_display}"
                  + (f" (autorização {r.authorization_status_label.lower()})" if r.authorization_status_label
                     else ""),
        parent, placeholder="Nome ou CPF do condutor…")


def vehicle_picker(db, actor, parent=None) -> RecordPicker:

    return RecordPicker(
        lambda text: vehicles.list_vehicles(db, actor, text=text, status="active", limit=PICKER_LIMIT).rows,
        lambda r: f"{r.plate_display} — {r.make_model} {r.manufacture_year}"
                  + (f" (autorização de {r.driver_name})" if r.driver_name else ""),
        parent, placeholder="Placa ou RENAVAM do veículo…")


class RequestDialog(ActionDialog):
    """Files the request through `services.authorizations.request_authorization` (one call)."""

    def __init__(self, db, actor, parent=None, driver=None, vehicle=None, today: date | None = None):

        self.driver_picker = driver_picker(db, actor)
        self.vehicle_picker = vehicle_picker(db, actor)
        super().__init__(
            "Requerimento de autorização",
            "Protocolo do pedido de autorização para <b>um condutor e um veículo</b> (Art. 8). Cada condutor e "
            "cada veículo só pode ter uma autorização em curso.",
            [FieldSpec("driver", "Condutor", "widget", widget=self.driver_picker),
             FieldSpec("vehicle", "Veículo", "widget", widget=self.vehicle_picker),
             FieldSpec("protocol_date", "Data do protocolo", "date"),
             FieldSpec("protocol_number", "Número do protocolo", required=False)],
            lambda x: authorizations.request_authorization(db, actor, x["driver"], x["vehicle"],
                                                           x["protocol_date"], x["protocol_number"] or None),
            parent, ok_text="Protocolar", today=today)
        self.driver_picker.search_now(driver.cpf_display if driver is not None else "")
        self.vehicle_picker.search_now(vehicle.plate_display if vehicle is not None else "")

    def confirm(self) -> bool:
        done = super().confirm()
        if done:
            from desktop.signals import bus  # local: imported only on this branch

            bus.data_changed.emit(Entity.AUTHORIZATIONS)
        return done
