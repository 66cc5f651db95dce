"""Journey (a), issue 27: the atendente registers a driver and a vehicle through the wizards, and their authorization
goes through every step of its page to the sticker (Art. 3, 8, 9, 10, 12, 14, 15). On the demonstration database,
with the demo's robot user (every profile: atendente, gestor, vistoriador — robot.make_demo), mouse and keys only:

1. Cadastros → «Novo condutor…»: the driver wizard typed page by page — CPF, name, birth date, phone, an address in
   Chapada dos Guimarães, the photo through «Escolher foto…» (Art. 13, I: required), CNH category B with EAR, the
   NIT, every line of the Art. 12 checklist ticked with its number and dates, a platform — and «Concluir»;
2. Cadastros → Veículos → «Novo veículo…»: the vehicle wizard — plate, RENAVAM, make, model, a recent year (Art. 2,
   §§1-2), air conditioning and insurance, the CRLV scan — and on the ownership page the own vehicle (Art. 8, §3,
   I), «Concluir»;
3. Autorizações → «Novo requerimento…»: the driver found by his CPF and the vehicle by its plate, «Protocolar»:
   the request's page opens (Requerida); «Iniciar análise» (Em análise), «Aprovar…» (Aprovada, the Art. 9 term);
4. Vistorias → «Agendar…»: the plate typed, the first free slot of the day chosen, «Agendar»; the booking clicked on
   the calendar, «Realizar vistoria…», «Marcar todos como conformes», «Registrar resultado»: approved, the
   authorization waits for the fee (Art. 10);
5. back in Autorizações: «Emitir guia da taxa» (the DAM shown and read back), «Registrar pagamento da taxa…» with
   that guide's number (the DAM is paid with it): the authorization is active with its NNNN/AAAA number
   («Autorização ativada»);
6. «Imprimir» → «Selo do veículo (Art. 14)» clicked in the menu: the sticker's PDF read back, with the number and
   the plate.

Inspections are run on the day they are booked (Art. 15, parágrafo único) in the inspectors' hours of the demo
(weekdays 08:00-12:00), so the clock (desktop.domain.clock) is moved to 07:30 of the next business day."""
from __future__ import annotations

import time
from datetime import datetime, time as dtime, timedelta

import pytest

from action_hands import choose_file, fill, menu_choose, wizard_button, wizard_next
from hands import (activate, choose_in_combo, click_button, click_close, click_row, find_button, press, settle, tick,
                   type_into)
from registry_fixtures import cpf, renavam, scan_pdf
from robot import make_demo, open_copy
from tests.journeys.steps import (click_tab_titled, ok_when_box, open_module, open_window, pdf_text, when_modal)

NAME = "Benedito Arruda Campos"
PLATE = "RTZ4E56"


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("journey-a-sticker") / "demo.sqlite3", drivers=12)


def _date(day) -> str:
    return day.strftime("%d/%m/%Y")


def _fill_driver(wizard, tmp_path, cpf_digits, today, seen):
    """The driver wizard, page by page, with the mouse and the keys."""
    from desktop.demo.photos import photo_for

    activate(wizard)
    personal = wizard.personal_page
    type_into(personal.cpf_edit, cpf_digits, leave=True)
    type_into(personal.name_edit, NAME)
    type_into(personal.birth_edit, "22071980", leave=True)
    type_into(personal.phone_edit, "65999112233", leave=True)
    type_into(personal.address_edit, "Rua Quilombo, 45")
    type_into(personal.district_edit, "Centro")
    type_into(personal.city_edit, "Chapada dos Guimarães")
    type_into(personal.zip_edit, "78195000")
    photo = tmp_path / "benedito.png"
    photo.write_bytes(photo_for(5))
    choose_file(personal.photo.choose_button, photo)         # «Escolher foto…» (Art. 13, I)
    assert personal.photo.png() is not None, personal.photo.message.text()
    seen["cpf_shown"] = personal.cpf_edit.text()
    wizard_next(wizard)
    assert wizard.currentPage() is wizard.cnh_page, (personal.general.text(),
                                                     [personal.errors.message(f) for f in personal.errors._fields])
    cnh = wizard.cnh_page
    type_into(cnh.cnh_number_edit, "02650306461")
    combo = cnh.cnh_category_combo
    choose_in_combo(combo, combo.itemText(combo.findData("B")))
    type_into(cnh.cnh_expiry_edit, _date(today + timedelta(days=900)), leave=True)
    if not cnh.cnh_ear_check.isChecked():
        tick(cnh.cnh_ear_check)                              # EAR (Art. 12, I)
    type_into(cnh.nit_edit, "12345678901")
    wizard_next(wizard)
    checklist = wizard.checklist_page
    assert wizard.currentPage() is checklist, cnh.general.text()
    for key, row in checklist.rows.items():
        if not row.check.isChecked():
            tick(row.check)
        type_into(row.number_edit, f"{key.upper()[:6]}-2026")
        type_into(row.issued_edit, _date(today - timedelta(days=3)), leave=True)
        if row.item.has_expiry:
            type_into(row.expires_edit, _date(today + timedelta(days=365)), leave=True)
    settle(400)                                              # the live check runs after the typing pauses
    seen["summary"] = checklist.summary.text()
    wizard_next(wizard)
    platforms = wizard.platforms_page
    assert wizard.currentPage() is platforms, checklist.summary.text()
    click_row(platforms.list, 0)
    press("Space")                                           # the first platform, ticked
    seen["platforms"] = platforms.platform_ids()
    click_button(wizard_button(wizard, "finish"))


def _fill_vehicle(wizard, tmp_path, today, seen):
    activate(wizard)
    page = wizard.crlv_page
    type_into(page.plate_edit, PLATE.lower())
    type_into(page.renavam_edit, renavam(8811002))
    type_into(page.make_edit, "Chevrolet")
    type_into(page.model_edit, "Onix Plus")
    type_into(page.manufacture_year_spin, str(today.year - 1))   # Art. 2, §§1-2: a recent vehicle
    type_into(page.model_year_spin, str(today.year))
    type_into(page.colour_edit, "Prata")
    for check in (page.air_check, page.insurance_check):
        if not check.isChecked():
            tick(check)
    choose_file(page.crlv_button, scan_pdf(tmp_path, "crlv.pdf", f"CRLV {PLATE}"))
    seen["plate_shown"] = page.plate_edit.text()
    settle(400)
    wizard_next(wizard)
    assert wizard.currentId() == 1, page.general.text()
    ownership = wizard.ownership_page
    tick(ownership.radios["own"])                            # own vehicle (Art. 8, §3, I)
    assert ownership.mode() == "own"
    finish = wizard_button(wizard, "finish")
    assert finish.isVisible() and not wizard_button(wizard, "next").isVisible()
    click_button(finish)


def _confirm(qtbot, opener, values=None, kind=None, before=None):
    """Click `opener`, fill the dialog it opens (inside its exec) with `values` as a clerk does, click its OK; a
    refusal fails the journey with what the dialog says next to its fields. Returns the dialog."""
    from desktop.views.registry.dialogs import ActionDialog

    def work(dialog):
        if before is not None:
            before(dialog)
        for name, value in (values or {}).items():
            fill(qtbot, dialog, name, value)
        click_button(dialog.ok_button)
        assert not dialog.isVisible(), (dialog.windowTitle(), dialog.general.text(),
                                        {f: dialog.errors.message(f) for f in dialog.errors._fields
                                         if dialog.errors.message(f)})

    activate(opener.window())
    done = when_modal(kind or ActionDialog, work)
    click_button(opener)
    return done.check()


def test_journey_a_driver_and_vehicle_registered_through_the_wizards_to_their_sticker(qtbot, demo_template, tmp_path):
    from desktop.domain import clock
    from desktop.services.holidays import calendar
    from desktop.views.authorizations.request import RequestDialog
    from desktop.views.inspections.dialogs import BookDialog, RunInspectionDialog
    from desktop.views.registry.driver_wizard import DriverWizard
    from desktop.views.registry.vehicle_wizard import VehicleWizard

    db, actor = open_copy(demo_template, tmp_path)
    assert {"atendente", "gestor", "vistoriador"} <= {str(r) for r in actor.roles}
    day = calendar(db).next_business_day(clock.today())
    started = time.monotonic()
    with clock.frozen(datetime.combine(day, dtime(7, 30)), advancing=True):
        today = clock.today()
        window = open_window(qtbot, db, actor)
        cpf_digits = cpf(731842590)

        # 1. the driver wizard
        registry = open_module(window, "Cadastros")
        drivers = registry.drivers
        seen: dict = {}
        driver_done = when_modal(DriverWizard, lambda w: _fill_driver(w, tmp_path, cpf_digits, today, seen))
        click_button(drivers.new_button)
        driver_done.check()
        wizard = drivers.last_dialog
        assert wizard.saved is not None, "the driver wizard did not save"
        assert seen["cpf_shown"] == f"{cpf_digits[:3]}.{cpf_digits[3:6]}.{cpf_digits[6:9]}-{cpf_digits[9:]}"
        assert "Todas as exigências" in seen["summary"] and seen["platforms"]
        assert drivers.detail_shown()                         # the new driver's page opens
        assert NAME in drivers.detail.title.text()
        click_button(drivers.detail.back_button)

        # 2. the vehicle wizard
        click_tab_titled(registry.tabs, "Veículos")
        vehicles = registry.vehicles
        vehicle_done = when_modal(VehicleWizard, lambda w: _fill_vehicle(w, tmp_path, today, seen))
        click_button(vehicles.new_button)
        vehicle_done.check()
        assert seen["plate_shown"] == PLATE                   # typed in lower case, shown in capitals
        assert vehicles.last_dialog.saved is not None and vehicles.last_dialog.saved.plate == PLATE
        plate_display = vehicles.last_dialog.saved.plate_display

        # 3. the request, its analysis and its approval
        screen = open_module(window, "Autorizações").authorizations
        driver_id, vehicle_id = wizard.saved.id, vehicles.last_dialog.saved.id

        def pick(picker, text, record_id):
            """A picker typed into; the record it shows once the typing pauses is the one registered above (the
            list it opened with may have chosen another)."""
            type_into(picker.edit, text)
            qtbot.waitUntil(lambda: picker.value() == record_id, timeout=5000)

        _confirm(qtbot, screen.new_button, kind=RequestDialog, before=lambda dialog: (
            pick(dialog.driver_picker, cpf_digits, driver_id), pick(dialog.vehicle_picker, PLATE, vehicle_id)))
        assert screen.detail_shown()
        detail = screen.detail
        assert "Requerida" in detail.title.text() and NAME in detail.subtitle.text()
        enabled = detail.enabled_actions()
        assert {"analysis", "refuse"} <= set(enabled) and not {"approve", "inspection", "waive"} & set(enabled)
        assert "fee" in enabled and detail.guide_button.isEnabled()     # the fee may come first (SPEC §3)
        assert not detail.print_button.isEnabled()
        _confirm(qtbot, detail.buttons["analysis"])
        assert "Em análise" in detail.title.text() and "approve" in detail.enabled_actions()
        _confirm(qtbot, detail.buttons["approve"], {"note": "Documentos conferidos (Art. 12)"})
        assert "Aprovada" in detail.title.text()
        assert "Prazo para apresentar o veículo" in detail.facts.text()
        assert {"fee", "inspection", "waive"} <= set(detail.enabled_actions()) and detail.guide_button.isEnabled()
        assert not detail.print_button.isEnabled() and detail.data.authorization.number is None

        # 4. Vistorias: the booking of today's first free slot, and the inspection run on it
        inspections = open_module(window, "Vistorias")
        booked: dict = {}

        def book(dialog):
            type_into(dialog.search, PLATE)
            qtbot.waitUntil(lambda: dialog.authorizations.count() == 1 and dialog.slots.count() > 0, timeout=5000)
            booked["authorization"] = dialog.authorizations.item(0).text()
            booked["term"] = dialog.term.text()
            row = next(i for i in range(dialog.slots.count())
                       if dialog.slots.item(i).text().startswith(_date(today)))
            click_row(dialog.slots, row)
            booked["slot"] = dialog.slots.item(row).text()
            click_button(find_button(dialog, "Agendar"))

        messages: list = []
        booking_done = when_modal(BookDialog, book)
        ok_when_box(messages, title="Vistoria agendada")
        click_button(inspections.book_button)
        booking_done.check()
        assert PLATE in booked["authorization"].replace("-", "") and "Aprovada" in booked["authorization"]
        assert "Art. 9" in booked["term"]
        qtbot.waitUntil(lambda: bool(messages), timeout=5000)
        assert "agendada para" in messages[-1][1] and _date(today) in messages[-1][1]
        grid = inspections.grid
        cell = grid.cell_of(lambda s: s.booking is not None and s.booking.plate_display == plate_display)
        assert cell is not None, "the booking is not on the calendar"
        booking = grid.slot_at(*cell).booking
        assert booking.kind == "initial" and booking.driver_name == NAME
        click_row(grid, *cell)
        assert inspections.run_button.isEnabled(), inspections.run_button.toolTip()
        assert PLATE in inspections.detail.text().replace("-", "")          # the booking's facts beside the grid
        ran: dict = {}

        def run(dialog):
            click_button(dialog.all_ok)                      # «Marcar todos como conformes»
            ran["result"] = dialog.result_label.text()
            click_button(find_button(dialog, "Registrar resultado"))

        run_done = when_modal(RunInspectionDialog, run)
        ok_when_box(messages, title="Vistoria aprovada")
        click_button(inspections.run_button)
        run_done.check()
        assert "aprovada" in ran["result"]
        qtbot.waitUntil(lambda: messages[-1][0] == "Vistoria aprovada", timeout=5000)
        assert "fica ativa quando a taxa for paga" in messages[-1][1]
        done = grid.cell_of(lambda s: any(x.id == booking.id for x in s.bookings))
        assert "Aprovada" in grid.text_at(*done)

        # 5. the fee: its guide issued and read back, its payment recorded
        screen = open_module(window, "Autorizações").authorizations
        assert screen.detail_shown() and screen.detail is detail
        qtbot.waitUntil(lambda: "Vistoria aprovada em" in detail.facts.text(), timeout=5000)
        assert "inspection" not in detail.enabled_actions() and "waive" not in detail.enabled_actions()
        assert "Aprovada" in detail.title.text() and "fee" in detail.enabled_actions()
        click_button(detail.guide_button)                    # «Emitir guia da taxa»
        qtbot.waitUntil(lambda: detail.guide_preview is not None and detail.guide_preview.isVisible(), timeout=30000)
        guide_title = detail.guide_preview.windowTitle()     # "DAM — guia nº …"
        guide_number = guide_title.split("nº", 1)[1].strip()
        guide_text = pdf_text(detail.guide_preview._bytes)
        assert guide_number in guide_text and NAME.upper() in guide_text.upper(), guide_text[:300]
        click_close(detail.guide_preview)
        activate(window)
        activated: list = []
        ok_when_box(activated, title="Autorização ativada")
        _confirm(qtbot, detail.buttons["fee"], {"paid_on": today, "guide_number": guide_number})
        qtbot.waitUntil(lambda: bool(activated), timeout=5000)
        a = detail.data.authorization
        assert a.status == "active" and a.number and a.number.endswith(f"/{today.year}")
        assert a.number in activated[0][1]
        assert f"Autorização {a.number} — Ativa" in detail.title.text()
        assert "Taxa paga em" in detail.facts.text() and detail.info.value("Válida até") != "—"
        assert detail.print_button.isEnabled() and not detail.guide_button.isEnabled()
        from desktop.services import guides

        assert guides.get_guide(db, actor, guide_number).status == "paid"     # the DAM paid with it
        assert "fee" not in detail.enabled_actions() and {"suspend", "renewal"} <= set(detail.enabled_actions())

        # 6. the sticker (Art. 14), chosen in the «Imprimir» menu with the mouse, read back
        activate(window)
        chosen = menu_choose("Selo do veículo (Art. 14)")
        click_button(detail.print_button)
        qtbot.waitUntil(lambda: bool(chosen) and detail.last_preview is not None, timeout=60000)
        text = pdf_text(detail.last_preview._bytes)
        assert a.number in text, text[:300]
        assert PLATE in text.replace("-", "").replace(" ", ""), text[:300]
        click_close(detail.last_preview)
        assert time.monotonic() - started < 60
        window.close()
    import shiboken6

    shiboken6.delete(window)
    db.dispose()
