"""Cadastros on a real SQLite database: the driver wizard (Art. 8, 12: data, checklist of Art. 12 I–IX, §1 and
Art. 8 §1 II with scans shown inside the program, platforms), the vehicle wizard (Art. 2, 8 §3, 15) and the platform
form (Art. 5–6) filled with good and bad data — the problems shown next to their fields with their articles, and
the record saved or not."""
from __future__ import annotations

import os
import tempfile
from datetime import timedelta

import pytest
from PySide6.QtWidgets import QWizard

from registry_fixtures import *  # noqa: F401,F403
from action_hands import choose_file, finish_wizard, type_date, wizard_button, wizard_finish, wizard_next
from hands import activate, choose_in_combo, click_button, click_close, click_row, find_button, press, tick, type_into


def _driver_count(db, actor):
    from desktop.services import drivers

    return drivers.list_drivers(db, actor).total


def _driver_wizard(qtbot, db, actor):
    from desktop.views.registry.driver_wizard import DriverWizard

    wizard = DriverWizard(db, actor)
    qtbot.addWidget(wizard)
    activate(wizard)
    return wizard


def _choose(combo, data):
    choose_in_combo(combo, combo.itemText(combo.findData(data)))
    assert combo.currentData() == data


def _fill_personal(wizard, qtbot, cpf_digits="52998224725", name="João da Silva", photo=True):
    page = wizard.personal_page
    type_into(page.cpf_edit, cpf_digits, leave=True)
    type_into(page.name_edit, name)                  # accents typed one by one (hands, NOTES)
    type_into(page.address_edit, "Rua Cuiabá, 100")
    type_into(page.district_edit, "Centro")
    type_into(page.zip_edit, "78195000")
    type_into(page.phone_edit, "65999991234", leave=True)
    if photo:   # the credential's photo (Art. 13, I), through «Escolher foto…»
        choose_file(page.photo.choose_button, scan_png(tempfile.mkdtemp(), "foto.png"))
        assert page.photo.png() is not None


def test_issue28_art13_I_the_driver_wizard_asks_for_the_photo_before_going_on(qtbot, db, staff, tmp_path):
    """The credential is personal and carries the photo (Art. 13, I): «Avançar >» on the first page without one
    stays, the message beside «Foto»; the photo chosen, the page goes on."""
    wizard = _driver_wizard(qtbot, db, staff.clerk)
    _fill_personal(wizard, qtbot, photo=False)
    wizard_next(wizard)
    assert wizard.currentId() == 0
    message = wizard.personal_page.errors.message("photo")
    assert "foto" in message and "Art. 13, I" in message and "pessoal e intransferível" in message
    choose_file(wizard.personal_page.photo.choose_button, scan_png(tmp_path, "foto.png"))
    wizard_next(wizard)
    assert wizard.currentId() == 1


def _fill_cnh(wizard, qtbot):
    page = wizard.cnh_page
    type_into(page.cnh_number_edit, "02650306461")
    _choose(page.cnh_category_combo, "B")
    type_date(page.cnh_expiry_edit, today() + timedelta(days=800))
    if not page.cnh_ear_check.isChecked():
        tick(page.cnh_ear_check)
    type_into(page.nit_edit, "12345678901")


def _tick_all(wizard, expiry_days=365):
    for row in wizard.checklist_page.rows.values():
        if not row.check.isChecked():
            tick(row.check)
        assert row.check.isChecked()
        type_into(row.number_edit, f"N-{row.item.key}")
        type_date(row.issued_edit, today() - timedelta(days=5))
        if row.item.has_expiry:
            type_date(row.expires_edit, today() + timedelta(days=expiry_days))


def _attach(row, path) -> bool:
    """«Anexar…» of a checklist line; True when the line took the file."""
    choose_file(row.attach_button, path)
    return row.file_label.text() == os.path.basename(str(path))


def _problem_rows(wizard):
    return {key for key, row in wizard.checklist_page.rows.items() if row.problem_label.text()}


def test_art12_driver_wizard_good_data_saves_driver_checklist_scans_and_platforms(qtbot, db, staff, tmp_path):
    platform = make_platform(db, staff.clerk)
    wizard = _driver_wizard(qtbot, db, staff.atendente)
    wizard.resize(1000, 780)
    _fill_personal(wizard, qtbot)
    assert wizard.personal_page.cpf_edit.text() == "529.982.247-25"       # the mask
    choose_file(wizard.personal_page.photo.choose_button, scan_png(tmp_path, "foto.png"))
    assert wizard.personal_page.photo.png() is not None
    shoot(wizard, "driver_wizard_1_personal")
    wizard_next(wizard)
    assert wizard.currentId() == 1
    _fill_cnh(wizard, qtbot)
    wizard_next(wizard)
    assert wizard.currentId() == 2
    # Nothing ticked yet: every line says what is missing, with its article, all at once.
    rows = wizard.checklist_page.rows
    assert "Art. 12, IV" in rows["criminal_record"].problem_label.text()
    assert "Art. 8, §1, II" in rows["tax_clearance"].problem_label.text()
    assert "Não verificado" in rows["no_conviction"].problem_label.text()
    assert all(row.problem_label.isVisibleTo(wizard) for key, row in rows.items() if key != "cnh")
    shoot(wizard, "driver_wizard_3_checklist_missing")
    _tick_all(wizard)
    assert _attach(rows["cnh"], scan_png(tmp_path, "cnh.png"))
    assert _attach(rows["criminal_record"], scan_pdf(tmp_path, "antecedentes.pdf"))
    click_button(rows["cnh"].view_button)
    assert wizard.last_document_dialog.viewer.kind == "image"
    click_button(rows["criminal_record"].view_button)
    assert wizard.last_document_dialog.viewer.kind == "pdf"
    shoot(wizard.last_document_dialog, "driver_wizard_scan_pdf_viewer")
    click_close(wizard.last_document_dialog)
    activate(wizard)
    assert "Ana Atendente" in rows["inss"].checked_label.text()           # who checked it: the current user
    qtbot.waitUntil(lambda: not _problem_rows(wizard), timeout=3000)    # checked again as the clerk types
    assert "Todas as exigências" in wizard.checklist_page.summary.text()
    shoot(wizard, "driver_wizard_3_checklist_done")
    wizard_next(wizard)
    assert wizard.currentId() == 3
    platforms = wizard.platforms_page.list
    row = next(i for i in range(platforms.count()) if platforms.item(i).text() == "Leva Já")
    click_row(platforms, row)
    press("Space")                                                       # ticked with the keyboard
    assert wizard.platforms_page.platform_ids() == (platform.id,)
    shoot(wizard, "driver_wizard_4_platforms")
    wizard_finish(wizard)
    assert wizard.result() == QWizard.DialogCode.Accepted and wizard.saved is not None

    from desktop.services import drivers

    detail = drivers.driver_detail(db, staff.atendente, wizard.saved.id)
    assert detail.driver.cpf == "52998224725" and detail.driver.name == "João da Silva"
    assert detail.driver.has_photo and drivers.driver_photo(db, staff.atendente, detail.driver.id)
    assert detail.problems == ()
    assert [name for _id, name in detail.platforms] == ["Leva Já"]
    lines = {line.key: line for line in detail.checklist}
    assert lines["cnh"].document_id and lines["criminal_record"].document_id
    assert lines["inss"].checked_by_name == "Ana Atendente"
    assert {d.kind for d in detail.documents} >= {"cnh", "criminal_record"}


def test_art12_driver_wizard_bad_cpf_blocks_the_page_with_the_message_next_to_it(qtbot, db, staff):
    wizard = _driver_wizard(qtbot, db, staff.clerk)
    _fill_personal(wizard, qtbot, cpf_digits="52998224724")
    wizard_next(wizard)
    assert wizard.currentId() == 0
    message = wizard.personal_page.errors.message("cpf")
    assert "CPF" in message and "inválido" in message
    type_into(wizard.personal_page.email_edit, "sem-arroba")
    wizard_next(wizard)
    assert wizard.currentId() == 0 and wizard.personal_page.errors.is_invalid("email")
    shoot(wizard, "driver_wizard_1_bad_cpf")
    assert _driver_count(db, staff.clerk) == 0


def test_art12_expired_document_and_refused_cnh_category_are_shown_on_their_lines(qtbot, db, staff):
    wizard = _driver_wizard(qtbot, db, staff.clerk)
    _fill_personal(wizard, qtbot)
    wizard_next(wizard)
    _fill_cnh(wizard, qtbot)
    page = wizard.cnh_page
    _choose(page.cnh_category_combo, "A")
    wizard_next(wizard)
    assert wizard.currentId() == 1                                  # category A blocks (Art. 12, I)
    assert "Art. 12, I" in page.errors.message("cnh_category")
    _choose(page.cnh_category_combo, "B")
    wizard_next(wizard)
    assert wizard.currentId() == 2
    _tick_all(wizard)
    rows = wizard.checklist_page.rows
    type_date(rows["criminal_record"].expires_edit, today() - timedelta(days=1))
    type_date(rows["app_insurance"].expires_edit, None)
    qtbot.waitUntil(lambda: _problem_rows(wizard) == {"criminal_record", "app_insurance"}, timeout=3000)
    assert "Vencido em" in rows["criminal_record"].problem_label.text()
    assert "Art. 12, IV" in rows["criminal_record"].problem_label.text()
    assert "Informe a validade" in rows["app_insurance"].problem_label.text()
    shoot(wizard, "driver_wizard_3_checklist_expired")
    # Saving is allowed (the checklist blocks the approval, not the register), the problems stay on the record.
    finish_wizard(wizard)
    assert wizard.saved is not None
    from desktop.services import drivers

    detail = drivers.driver_detail(db, staff.clerk, wizard.saved.id)
    assert {p.field for p in detail.problems} >= {"criminal_record", "app_insurance"}


def test_duplicate_cpf_on_finish_goes_back_to_the_field_and_saves_nothing(qtbot, db, staff):
    existing = make_driver(db, staff.clerk)
    wizard = _driver_wizard(qtbot, db, staff.clerk)
    _fill_personal(wizard, qtbot, cpf_digits=existing.cpf, name="Outro Nome")
    wizard_next(wizard)
    wizard_next(wizard)
    wizard_next(wizard)
    assert wizard.currentId() == 3
    wizard_finish(wizard)
    assert wizard.saved is None and wizard.currentId() == 0
    assert wizard.personal_page.errors.is_invalid("cpf")
    assert _driver_count(db, staff.clerk) == 1


# -- vehicles -------------------------------------------------------------------------------------------------

def _vehicle_wizard(qtbot, db, actor, detail=None):
    from desktop.views.registry.vehicle_wizard import VehicleWizard

    wizard = VehicleWizard(db, actor, detail=detail)
    qtbot.addWidget(wizard)
    activate(wizard)
    return wizard


def _fill_crlv(wizard, qtbot, plate="RTZ4E56", renavam_digits=None):
    page = wizard.crlv_page
    type_into(page.plate_edit, plate.lower())
    type_into(page.renavam_edit, renavam_digits or renavam(7777001))
    type_into(page.make_edit, "Fiat")
    type_into(page.model_edit, "Cronos")
    type_into(page.manufacture_year_spin, str(today().year - 1))
    type_into(page.model_year_spin, str(today().year))
    type_into(page.colour_edit, "Branco")
    for check in (page.air_check, page.insurance_check):
        if not check.isChecked():
            tick(check)
    assert page.manufacture_year_spin.value() == today().year - 1 and page.model_year_spin.value() == today().year


def _mode(wizard, value):
    """The ownership's radio button clicked."""
    tick(wizard.ownership_page.radios[value])
    assert wizard.ownership_page.mode() == value


def test_art2_vehicle_wizard_good_data_own_vehicle_finishes_on_the_ownership_page(qtbot, db, staff, tmp_path):
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot)
    assert wizard.crlv_page.plate_edit.text() == "RTZ4E56"
    choose_file(wizard.crlv_page.crlv_button, scan_pdf(tmp_path, "crlv.pdf", "CRLV 2026"))
    assert wizard.crlv_page.crlv_label.text() == "crlv.pdf"
    qtbot.wait(300)                                            # the live check runs after the typing pauses
    page = wizard.crlv_page
    invalid = [f for f in page.errors._fields if page.errors.is_invalid(f)]     # every field of the page
    assert invalid == [] and not page.general.text(), (invalid, page.general.text())
    shoot(wizard, "vehicle_wizard_1_crlv")
    wizard_next(wizard)
    assert wizard.currentId() == 1
    finish = wizard_button(wizard, "finish")
    assert finish.isVisible() and not wizard_button(wizard, "next").isVisible()   # own: Finish here
    shoot(wizard, "vehicle_wizard_2_ownership")
    wizard_finish(wizard)
    assert wizard.saved is not None and wizard.saved.plate == "RTZ4E56"
    from desktop.services import vehicles

    detail = vehicles.vehicle_detail(db, staff.clerk, wizard.saved.id)
    assert [d.kind for d in detail.documents] == ["crlv"]


def test_art2_vehicle_problems_are_shown_live_with_their_articles_and_nothing_is_saved(qtbot, db, staff):
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot)
    page = wizard.crlv_page
    type_into(page.doors_spin, "2")
    tick(page.air_check)
    assert not page.air_check.isChecked()
    type_into(page.seats_spin, "9")
    type_into(page.manufacture_year_spin, str(today().year - 12))
    type_into(page.model_year_spin, str(today().year - 12))
    type_into(page.municipality_edit, "Cuiabá")
    qtbot.waitUntil(lambda: page.errors.is_invalid("doors"), timeout=2000)   # live, debounced
    assert "Art. 2, §1" in page.errors.message("doors")
    assert "ar-condicionado" in page.errors.message("air_conditioning")
    assert "Art. 2, caput" in page.errors.message("seats")
    assert "Art. 2, §§1-2" in page.errors.message("manufacture_year")
    assert "Art. 8, §1, I" in page.errors.message("registration_municipality")
    shoot(wizard, "vehicle_wizard_1_problems")
    wizard_next(wizard)
    assert wizard.currentId() == 0
    from desktop.services import vehicles

    assert vehicles.list_vehicles(db, staff.clerk).total == 0


def test_art8_par3_iv_fourth_vehicle_of_an_individual_lessor_is_refused_with_the_article(qtbot, db, staff):
    """The page refuses the fourth vehicle and «Concluir» saves nothing (the service's own refusal of it is
    proved in tests/db)."""
    from desktop.services.vehicles import LessorDraft

    lessor_cpf = cpf(555000111)
    lessor = LessorDraft("individual", lessor_cpf, "Pedro Locador")
    for n in range(1, 4):
        make_vehicle(db, staff.clerk, n=n, mode="individual_lease", lessor=lessor)
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot, plate="RTZ4E57", renavam_digits=renavam(7777002))
    wizard_next(wizard)
    _mode(wizard, "individual_lease")
    assert wizard_button(wizard, "next").isVisible()             # the lessor's page comes next
    wizard_next(wizard)
    assert wizard.currentId() == 3
    page = wizard.lessor_page
    type_into(page.cpf_edit, lessor_cpf, leave=True)
    type_into(page.name_edit, "Pedro Locador")
    qtbot.waitUntil(lambda: page.lessor_message.isVisibleTo(wizard), timeout=3000)
    assert "Art. 8, §3, IV" in page.lessor_message.text() and "3" in page.lessor_message.text()
    shoot(wizard, "vehicle_wizard_4_lessor_refused")
    wizard_finish(wizard)                                        # refused: the wizard stays on the page
    assert wizard.isVisible() and wizard.currentId() == 3
    assert wizard.saved is None
    from desktop.services import vehicles

    assert vehicles.list_vehicles(db, staff.clerk).total == 3


def test_art8_par3_iii_company_lessor_is_created_with_the_vehicle(qtbot, db, staff):
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot)
    wizard_next(wizard)
    _mode(wizard, "company_lease")
    wizard_next(wizard)
    page = wizard.lessor_page
    assert page.cnpj_edit.isVisibleTo(wizard) and not page.cpf_edit.isVisibleTo(wizard)
    type_into(page.cnpj_edit, cnpj(44555666), leave=True)
    type_into(page.name_edit, "Locadora Chapada Ltda")
    wizard_finish(wizard)
    assert wizard.saved is not None and wizard.saved.lessor_name == "Locadora Chapada Ltda"
    assert wizard.saved.ownership_article == "Art. 8, §3, III"


# -- platforms ------------------------------------------------------------------------------------------------

def test_art5_art6_platform_form_good_and_bad(qtbot, db, staff):
    from desktop.views.registry.platforms import PlatformDialog

    dialog = PlatformDialog(db, staff.clerk)
    qtbot.addWidget(dialog)
    activate(dialog)
    save = find_button(dialog, "Salvar")
    type_into(dialog.cnpj_edit, "11222333000180", leave=True)    # Tab: the number is checked on leaving
    assert "inválido" in dialog.cnpj_edit.message_label.text()
    click_button(save)
    assert dialog.isVisible() and dialog.saved is None
    assert dialog.errors.is_invalid("legal_name") and dialog.errors.is_invalid("trade_name")
    type_into(dialog.cnpj_edit, "11222333000181", leave=True)
    type_into(dialog.legal_name_edit, "Viagem Rápida Tecnologia Ltda")
    type_into(dialog.trade_name_edit, "Viagem Rápida")
    type_into(dialog.policy_edit, "APP-9")
    type_date(dialog.policy_until_edit, today() - timedelta(days=1))
    type_into(dialog.registration_number_edit, "IM-77")
    click_button(save)
    assert dialog.isVisible() and dialog.saved is None
    assert "Art. 5, X" in dialog.errors.message("app_insurance_valid_until")
    assert "Art. 6" in dialog.errors.message("municipal_registration_date")
    shoot(dialog, "platform_form_problems")
    type_date(dialog.policy_until_edit, today() + timedelta(days=200))
    type_date(dialog.registration_date_edit, today() - timedelta(days=3))
    click_button(save)
    assert dialog.saved is not None and not dialog.isVisible()
    assert dialog.saved.cnpj_display == "11.222.333/0001-81"


@pytest.fixture
def populated(db, staff):
    platform = make_platform(db, staff.clerk)
    joao = make_driver(db, staff.clerk, n=1, name="João da Silva", platform_ids=(platform.id,))
    make_driver(db, staff.clerk, n=2, name="Maria Conceição")
    make_driver(db, staff.clerk, n=3, name="José Pereira")
    vehicle = make_vehicle(db, staff.clerk)
    return platform, joao, vehicle


def test_checklist_line_with_validity_before_issue_blocks_the_page(qtbot, db, staff):
    wizard = _driver_wizard(qtbot, db, staff.clerk)
    _fill_personal(wizard, qtbot)
    wizard_next(wizard)
    _fill_cnh(wizard, qtbot)
    wizard_next(wizard)
    _tick_all(wizard)
    row = wizard.checklist_page.rows["tax_clearance"]
    type_date(row.issued_edit, today() - timedelta(days=2))
    type_date(row.expires_edit, today() - timedelta(days=10))
    wizard_next(wizard)
    assert wizard.currentId() == 2
    assert "anterior à data de emissão" in row.problem_label.text() and "Art. 8, §1, II" in row.problem_label.text()
    type_date(row.expires_edit, today() + timedelta(days=30))
    wizard_next(wizard)
    assert wizard.currentId() == 3


def test_art8_par3_ii_relative_owner_needs_name_cpf_and_relationship(qtbot, db, staff):
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot)
    wizard_next(wizard)
    _mode(wizard, "relative")
    wizard_next(wizard)
    assert wizard.currentId() == 2
    page = wizard.owner_page
    type_into(page.document_edit, "11111111111", leave=True)
    type_into(page.relationship_combo.lineEdit(), "")
    wizard_finish(wizard)                                        # refused: stays on the owner's page
    assert wizard.currentId() == 2 and wizard.saved is None
    assert page.errors.is_invalid("owner_name") and "Art. 8, §3, II" in page.errors.message("owner_name")
    assert "CPF" in page.errors.message("owner_document")
    shoot(wizard, "vehicle_wizard_3_owner_problems")
    type_into(page.name_edit, "Lúcia Pereira")
    type_into(page.document_edit, cpf(200300400), leave=True)
    type_into(page.relationship_combo.lineEdit(), "Cônjuge")
    wizard_finish(wizard)
    assert wizard.saved is not None and wizard.saved.owner_name == "Lúcia Pereira"
    assert wizard.saved.owner_relationship == "Cônjuge" and wizard.saved.ownership_article == "Art. 8, §3, II"


def test_art8_par3_iv_existing_lessor_fills_its_name_and_shows_its_count_live(qtbot, db, staff):
    from desktop.services.vehicles import LessorDraft

    lessor_cpf = cpf(555000222)
    make_vehicle(db, staff.clerk, n=1, mode="individual_lease",
                 lessor=LessorDraft("individual", lessor_cpf, "Pedro Locador", phone="(65) 99999-1234"))
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot, plate="RTZ4E58", renavam_digits=renavam(7777003))
    wizard_next(wizard)
    _mode(wizard, "individual_lease")
    wizard_next(wizard)
    page = wizard.lessor_page
    assert not page.lessor_found_label.isVisibleTo(wizard)
    type_into(page.cpf_edit, lessor_cpf)
    qtbot.waitUntil(lambda: page.name_edit.text() == "Pedro Locador", timeout=3000)
    assert page.lessor_found_label.isVisibleTo(wizard) and not page.lessor_message.isVisibleTo(wizard)
    assert "já tem 1 veículo(s) no cadastro (máximo 3, Art. 8, §3, IV)" in page.lessor_found_label.text()
    os.makedirs("/tmp/shots/gaps", exist_ok=True)
    wizard.grab().save("/tmp/shots/gaps/vehicle_wizard_existing_lessor.png")
    wizard_finish(wizard)
    assert wizard.saved is not None and wizard.saved.lessor_name == "Pedro Locador"


def _document_rows(db) -> int:
    from sqlalchemy import func, select

    from desktop.models import Document

    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(Document))


def test_issue12_item22_a_cancelled_driver_wizard_leaves_no_document_row(qtbot, db, staff, tmp_path):
    """Wizard pages never write: the scans chosen are kept in memory and stored on Finish only."""
    wizard = _driver_wizard(qtbot, db, staff.atendente)
    _fill_personal(wizard, qtbot)
    wizard_next(wizard)
    _fill_cnh(wizard, qtbot)
    wizard_next(wizard)
    _tick_all(wizard)
    rows = wizard.checklist_page.rows
    assert _attach(rows["cnh"], scan_png(tmp_path, "cnh.png"))
    click_button(rows["cnh"].view_button)                          # seen from memory
    assert wizard.last_document_dialog.viewer.kind == "image"
    click_close(wizard.last_document_dialog)
    activate(wizard)
    bad = tmp_path / "nota.txt"
    bad.write_text("não é um documento")
    assert not _attach(rows["criminal_record"], bad)               # said at once, nothing stored
    assert "Formato não aceito" in rows["criminal_record"].problem_label.text()
    assert _document_rows(db) == 0
    click_button(wizard_button(wizard, "cancel"))
    assert not wizard.isVisible()
    assert _document_rows(db) == 0 and _driver_count(db, staff.atendente) == 0


def test_issue12_item22_a_cancelled_vehicle_wizard_leaves_no_document_row(qtbot, db, staff, tmp_path):
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot)
    choose_file(wizard.crlv_page.crlv_button, scan_pdf(tmp_path, "crlv.pdf", "CRLV 2026"))
    assert wizard.crlv_page.crlv_label.text() == "crlv.pdf"
    assert _document_rows(db) == 0
    click_button(wizard_button(wizard, "cancel"))
    assert not wizard.isVisible()
    assert _document_rows(db) == 0


