"""The driver's and the vehicle's pages share their actions (desktop.views.registry.detail.SubjectDetailPage):
the gestor's descadastramento (Art. 24, I, d and f) from each page, with the reason required."""
from __future__ import annotations

from PySide6.QtWidgets import QDialog
from registry_fixtures import *  # noqa: F401,F403
from registry_fixtures import make_driver, make_vehicle

from desktop.services import drivers, vehicles
from desktop.views.registry import dialogs


def _answer(monkeypatch, values: dict, seen: list):
    """Replace the modal exec: fill the fields, press OK once, report what the dialog said."""
    def fake_exec(self):
        for name, value in values.items():
            self.set_value(name, value)
        seen.append(self)
        return QDialog.DialogCode.Accepted if self.confirm() else QDialog.DialogCode.Rejected
    monkeypatch.setattr(dialogs.ActionDialog, "exec", fake_exec)


def test_art24_i_d_driver_page_deregisters_with_reason(qtbot, db, staff, monkeypatch):
    from desktop.views.registry.drivers import DriverDetailPage

    driver = make_driver(db, staff.clerk)
    page = DriverDetailPage(db, staff.gestor, driver.id)
    qtbot.addWidget(page)
    seen: list = []
    _answer(monkeypatch, {"reason": ""}, seen)
    page.deregister()  # no reason: refused next to the field, nothing saved
    assert drivers.get_driver(db, staff.gestor, driver.id).status != "deregistered"
    _answer(monkeypatch, {"reason": "Condenação (Art. 12, §1)", "act_number": "Portaria 12/2026"}, seen)
    page.deregister()
    from PySide6.QtWidgets import QLabel

    assert any("Art. 24, I, d" in label.text() for label in seen[-1].findChildren(QLabel))
    assert drivers.get_driver(db, staff.gestor, driver.id).status == "deregistered"


def test_art24_i_f_vehicle_page_deregisters_with_reason(qtbot, db, staff, monkeypatch):
    from desktop.views.registry.vehicles import VehicleDetailPage

    vehicle = make_vehicle(db, staff.clerk)
    page = VehicleDetailPage(db, staff.gestor, vehicle.id)
    qtbot.addWidget(page)
    seen: list = []
    _answer(monkeypatch, {"reason": "Sinistro com perda total"}, seen)
    page.deregister()  # the act number is required too: said next to its field, nothing saved
    from PySide6.QtWidgets import QLabel

    assert "Informe número do ato." in [label.text() for label in seen[-1].findChildren(QLabel)]
    assert vehicles.get_vehicle(db, staff.gestor, vehicle.id).status != "deregistered"
    _answer(monkeypatch, {"reason": "Sinistro com perda total", "act_number": "Portaria 13/2026"}, seen)
    page.deregister()
    assert vehicles.get_vehicle(db, staff.gestor, vehicle.id).status == "deregistered"
