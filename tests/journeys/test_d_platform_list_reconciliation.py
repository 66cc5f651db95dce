"""Journey (d), issue 27: a platform's 60-day list (Art. 5, VIII) with discrepancies, to the reconciliation and an
auto. On the demonstration database, the fiscal (fabio.fiscal, profile Fiscal — the profile that receives the lists
and draws autos up, `PLATFORM_LIST_ROLES.receive`, `ENFORCEMENT_ROLES.draw_up`) opens Plataformas from the sidebar
with the mouse, clicks the first platform, types the delivery date with the keys, presses "Importar lista…" and
chooses the file in the file dialog by typing its path and Enter. The list (written here in the format of
docs/platform-list-format.md) has three lines after its header (lines 2–4 of the file): a driver with his own authorized vehicle (in order), a registered
driver without an active authorization on an unknown plate (sem autorização, Art. 3; Art. 27) and an authorized
driver on another driver's authorized vehicle (par diferente da autorização, Art. 8; Art. 13, XIX). The import's
summary is read and closed with OK; the Conciliação tab shows both discrepancies; the fiscal clicks the pair
mismatch with the mouse, presses "Rascunhar auto da linha…", and the Fiscalização form opens prefilled (driver,
platform, the facts of the line); he types the place, chooses Art. 26, III with the duty of Art. 13, XIX by the
keyboard and presses "Lavrar auto"; the line then shows the auto's number and offers no second one. In
Fiscalização the auto is found by its number typed in the filter, opened
with a double click and printed from "Imprimir…" (2 vias, Art. 19); the PDF is read back.

One login all the way: the fiscal. (The gestor and the atendente have no part in this journey.)"""
from __future__ import annotations

import time

import pytest
from PySide6.QtWidgets import QDialog, QFileDialog, QLineEdit

from hands import activate, choose_in_combo, click_button, press, settle, type_into
from robot import make_demo, open_copy
from tests.journeys.steps import (click_row_where, click_tab_titled, close_window, login, ok_when_box, open_module,
                                  open_window, print_auto_from_enforcement, when_modal)

HEADER = "CPF do condutor;Nome do condutor;CNH;Placa;RENAVAM;CPF/CNPJ do proprietário;Nome do proprietário"
UNKNOWN_PLATE = "QXZ9J87"


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("journey-d") / "demo.sqlite3", drivers=30)


def _register(db):
    """From the register (what the platform's own records would hold): two active driver–vehicle pairs and a
    registered driver with no live authorization, each with what the list must say of them."""
    from sqlalchemy import select

    from desktop.models import Authorization, Driver, Lessor, Vehicle

    with db.session(write=False) as s:
        active = s.execute(select(Authorization.driver_id, Authorization.vehicle_id)
                           .where(Authorization.status == "active").order_by(Authorization.id)).all()
        live = set(s.scalars(select(Authorization.driver_id).where(
            Authorization.status.in_(("active", "impeded", "suspended")))))
        assert len(active) >= 2, "the demo has fewer than two active authorizations"
        lessors = dict(s.execute(select(Lessor.id, Lessor.document_number)).all())

        def driver(did):
            d = s.get(Driver, did)
            return d.cpf, d.name, d.cnh_number

        def vehicle(vid, driver_cpf):
            v = s.get(Vehicle, vid)
            owner = v.owner_document or lessors.get(v.lessor_id) or driver_cpf
            return v.plate, v.renavam, owner

        (d1, v1), (d2, _v2) = active[0], active[1]
        first, second = driver(d1), driver(d2)
        car = vehicle(v1, first[0])
        outsider = next(d for d in s.scalars(select(Driver).order_by(Driver.id))
                        if d.id not in live and d.cnh_number)
        return first, second, car, (outsider.cpf, outsider.name, outsider.cnh_number)


def _renavam() -> str:
    from validate_docbr import RENAVAM

    return RENAVAM().generate()


def _write_list(path, first, second, car, outsider) -> None:
    plate, renavam, owner = car
    lines = [HEADER,
             ";".join((first[0], first[1], first[2], plate, renavam, owner, first[1])),          # in order
             ";".join((outsider[0], outsider[1], outsider[2], UNKNOWN_PLATE, _renavam(), outsider[0],
                       outsider[1])),                                                             # not authorized
             ";".join((second[0], second[1], second[2], plate, renavam, owner, first[1]))]        # another's car
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_journey_d_platform_list_with_discrepancies_to_an_auto(qtbot, demo_template, tmp_path):
    db, _robot = open_copy(demo_template, tmp_path)
    first, second, car, outsider = _register(db)
    listing = tmp_path / "lista-60-dias.csv"
    _write_list(listing, first, second, car, outsider)
    fiscal = login(db, "fabio.fiscal")
    started = time.monotonic()
    window = open_window(qtbot, db, fiscal)
    page = open_module(window, "Plataformas")
    click_row_where(page.platforms, lambda r: True)                # the first platform, with the mouse
    assert page.platform_id is not None and page.platforms.selected().trade_name in page.title.text()
    click_tab_titled(page.tabs, "Listas")
    from desktop.domain import local_today

    today = local_today()
    type_into(page.delivered, today.strftime("%d%m%Y"), leave=True)  # delivered today, typed without slashes
    assert page.delivered.value() == today

    def choose(dialog: QFileDialog) -> None:
        activate(dialog)
        name = dialog.findChild(QLineEdit, "fileNameEdit")
        assert name is not None, "the file dialog has no file-name field"
        type_into(name, str(listing))
        press("Return", widget=name)

    summary: list = []
    ok_when_box(summary, "Lista importada")
    when_modal(QFileDialog, choose)
    click_button(page.import_button)
    qtbot.waitUntil(lambda: page.last_report is not None, timeout=30000)
    qtbot.waitUntil(lambda: bool(summary), timeout=10000)
    assert page.last_report.rows == 3, page.last_report.summary()
    assert "sem autorização" in summary[0][1] and "par diferente" in summary[0][1], summary
    # the reconciliation tab shows both discrepancies, the line in order shows none
    assert page.tabs.currentIndex() == 1
    found = {(r.line, r.label) for r in page.reconciliation.visible_rows() if r.line}
    # (a line is the file's: the header is line 1)
    assert not any(line == 2 for line, _ in found), found                  # the line in order shows nothing
    assert (3, "sem autorização") in found and (4, "par diferente da autorização") in found, found
    # the pair mismatch, chosen with the mouse, drafts the auto (the fiscal decides)
    chosen = click_row_where(page.reconciliation, lambda r: r.line == 4 and r.label == "par diferente da autorização")
    assert page.reconciliation.selected() == chosen
    drawn: dict = {}
    box: list = []

    def draw_up(form: QDialog) -> None:
        activate(form)
        drawn["description"] = form.description_edit.toPlainText()
        drawn["driver"] = form.driver_picker.value()
        drawn["platform"] = form.platform_picker.value()
        drawn["vehicle"] = form.vehicle_picker.value()
        type_into(form.place_edit, "Sede da Secretaria Municipal de Financas")
        choose_in_combo(form.code_combo, "ART26-III")
        settle(50)
        assert form.art13_visible(), "Art. 26, III asks for the duty of Art. 13"
        choose_in_combo(form.art13_combo, "XIX")
        ok_when_box(box, "Auto lavrado")
        click_button(form.save_button)
        drawn["saved"] = form.saved
        drawn["error"] = form.general_error.text()

    from desktop.views.enforcement.auto_form import AutoFormDialog

    when_modal(AutoFormDialog, draw_up)
    click_button(page.auto_button)
    settle(100)
    assert drawn.get("saved") is not None, drawn
    assert drawn["driver"] == chosen.driver_id and drawn["platform"] == page.platform_id
    assert chosen.vehicle_id is not None and drawn["vehicle"] == chosen.vehicle_id   # the listed car, not his own
    assert "linha 4 da lista" in drawn["description"] and "par diferente da autorização" in drawn["description"]
    number = drawn["saved"].number
    assert box and number in box[0][1]
    # the line keeps its auto: its number in the reconciliation, and no second auto offered for it
    activate(window)
    again = click_row_where(page.reconciliation, lambda r: r.line == 4 and r.label == "par diferente da autorização")
    assert again.auto_number == number and not page.auto_button.isEnabled(), page.auto_button.toolTip()
    # Art. 19: the auto printed from Fiscalização, read back
    text = print_auto_from_enforcement(qtbot, window, number)
    assert number in text, text[:400]
    assert "Art. 26" in text and "XIX" in text, text[:800]
    assert second[1].upper() in text.upper(), text[:1200]                  # the infractor: the listed driver
    assert "linha 4 da lista" in text, text[:1500]
    plate = car[0]
    assert f"Placa {plate[:3]}" in text and (plate in text or f"{plate[:3]}-{plate[3:]}" in text), text[:1500]
    assert time.monotonic() - started < 60
    close_window(window)
    db.dispose()
