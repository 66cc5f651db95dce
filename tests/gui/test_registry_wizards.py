"""Cadastros on a real SQLite database: the driver wizard (Art. 8, 12: data, checklist of Art. 12 I–IX, §1 and
Art. 8 §1 II with scans shown inside the program, platforms), the vehicle wizard (Art. 2, 8 §3, 15) and the platform
form (Art. 5–6) filled with good and bad data — the problems shown next to their fields with their articles, and
the record saved or not."""
from __future__ import annotations

from datetime import timedelta

import pytest
from PySide6.QtWidgets import QWizard

from registry_fixtures import *  # noqa: F401,F403


def _driver_count(db, actor):
    from desktop.services import drivers

    return drivers.list_drivers(db, actor).total


def _driver_wizard(qtbot, db, actor):
    from desktop.views.registry.driver_wizard import DriverWizard

    wizard = DriverWizard(db, actor)
    qtbot.addWidget(wizard)
    wizard.show()
    return wizard


def _fill_personal(wizard, qtbot, cpf_digits="52998224725", name="João da Silva"):
    page = wizard.personal_page
    qtbot.keyClicks(page.cpf_edit, cpf_digits)
    page.name_edit.setText(name)                     # accented text is set, not typed (NOTES)
    page.address_edit.setText("Rua Cuiabá, 100")
    page.district_edit.setText("Centro")
    qtbot.keyClicks(page.zip_edit, "78195000")
    page.phone_edit.setText("65999991234")


def _fill_cnh(wizard, qtbot):
    page = wizard.cnh_page
    qtbot.keyClicks(page.cnh_number_edit, "02650306461")
    page.cnh_category_combo.setCurrentIndex(page.cnh_category_combo.findData("B"))
    page.cnh_expiry_edit.set_value(today() + timedelta(days=800))
    page.cnh_ear_check.setChecked(True)
    qtbot.keyClicks(page.nit_edit, "12345678901")


def _tick_all(wizard, expiry_days=365):
    for row in wizard.checklist_page.rows.values():
        row.check.setChecked(True)
        row.number_edit.setText(f"N-{row.item.key}")
        row.issued_edit.set_value(today() - timedelta(days=5))
        if row.item.has_expiry:
            row.expires_edit.set_value(today() + timedelta(days=expiry_days))


def test_art12_driver_wizard_good_data_saves_driver_checklist_scans_and_platforms(qtbot, db, staff, tmp_path):
    platform = make_platform(db, staff.clerk)
    wizard = _driver_wizard(qtbot, db, staff.atendente)
    wizard.resize(1000, 780)
    _fill_personal(wizard, qtbot)
    assert wizard.personal_page.cpf_edit.text() == "529.982.247-25"       # the mask
    assert wizard.personal_page.photo.load_file(scan_png(tmp_path, "foto.png"))
    shoot(wizard, "driver_wizard_1_personal")
    wizard.next()
    assert wizard.currentId() == 1
    _fill_cnh(wizard, qtbot)
    wizard.next()
    assert wizard.currentId() == 2
    # Nothing ticked yet: every line says what is missing, with its article, all at once.
    rows = wizard.checklist_page.rows
    assert "Art. 12, IV" in rows["criminal_record"].problem_label.text()
    assert "Art. 8, §1, II" in rows["tax_clearance"].problem_label.text()
    assert "Não verificado" in rows["no_conviction"].problem_label.text()
    assert all(row.problem_label.isVisibleTo(wizard) for key, row in rows.items() if key != "cnh")
    shoot(wizard, "driver_wizard_3_checklist_missing")
    _tick_all(wizard)
    assert rows["cnh"].attach_file(scan_png(tmp_path, "cnh.png"))
    assert rows["criminal_record"].attach_file(scan_pdf(tmp_path, "antecedentes.pdf"))
    rows["cnh"].show_document()
    assert wizard.last_document_dialog.viewer.kind == "image"
    rows["criminal_record"].show_document()
    assert wizard.last_document_dialog.viewer.kind == "pdf"
    shoot(wizard.last_document_dialog, "driver_wizard_scan_pdf_viewer")
    wizard.last_document_dialog.close()
    assert "Ana Atendente" in rows["inss"].checked_label.text()           # who checked it: the current user
    wizard.validate_now()
    assert not any(row.problem_label.text() for row in rows.values())
    assert "Todas as exigências" in wizard.checklist_page.summary.text()
    shoot(wizard, "driver_wizard_3_checklist_done")
    wizard.next()
    assert wizard.currentId() == 3
    wizard.platforms_page.set_platform_ids([platform.id])
    shoot(wizard, "driver_wizard_4_platforms")
    wizard.accept()
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
    wizard.next()
    assert wizard.currentId() == 0
    message = wizard.personal_page.errors.message("cpf")
    assert "CPF" in message and "inválido" in message
    wizard.personal_page.email_edit.setText("sem-arroba")
    wizard.next()
    assert wizard.personal_page.errors.is_invalid("email")
    shoot(wizard, "driver_wizard_1_bad_cpf")
    assert _driver_count(db, staff.clerk) == 0


def test_art12_expired_document_and_refused_cnh_category_are_shown_on_their_lines(qtbot, db, staff):
    wizard = _driver_wizard(qtbot, db, staff.clerk)
    _fill_personal(wizard, qtbot)
    wizard.next()
    _fill_cnh(wizard, qtbot)
    page = wizard.cnh_page
    page.cnh_category_combo.setCurrentIndex(page.cnh_category_combo.findData("A"))
    wizard.next()
    assert wizard.currentId() == 1                                  # category A blocks (Art. 12, I)
    assert "Art. 12, I" in page.errors.message("cnh_category")
    page.cnh_category_combo.setCurrentIndex(page.cnh_category_combo.findData("B"))
    wizard.next()
    _tick_all(wizard)
    rows = wizard.checklist_page.rows
    rows["criminal_record"].expires_edit.set_value(today() - timedelta(days=1))
    rows["app_insurance"].expires_edit.set_value(None)
    problems = wizard.validate_now()
    assert "Vencido em" in rows["criminal_record"].problem_label.text()
    assert "Art. 12, IV" in rows["criminal_record"].problem_label.text()
    assert "Informe a validade" in rows["app_insurance"].problem_label.text()
    assert {p.field for p in problems} == {"criminal_record", "app_insurance"}
    shoot(wizard, "driver_wizard_3_checklist_expired")
    # Saving is allowed (the checklist blocks the approval, not the register), the problems stay on the record.
    wizard.next()
    wizard.accept()
    from desktop.services import drivers

    detail = drivers.driver_detail(db, staff.clerk, wizard.saved.id)
    assert {p.field for p in detail.problems} >= {"criminal_record", "app_insurance"}


def test_duplicate_cpf_on_finish_goes_back_to_the_field_and_saves_nothing(qtbot, db, staff):
    existing = make_driver(db, staff.clerk)
    wizard = _driver_wizard(qtbot, db, staff.clerk)
    _fill_personal(wizard, qtbot, cpf_digits=existing.cpf, name="Outro Nome")
    wizard.next()
    wizard.next()
    wizard.next()
    assert wizard.currentId() == 3
    wizard.accept()
    assert wizard.saved is None and wizard.currentId() == 0
    assert wizard.personal_page.errors.is_invalid("cpf")
    assert _driver_count(db, staff.clerk) == 1


# -- vehicles -------------------------------------------------------------------------------------------------

def _vehicle_wizard(qtbot, db, actor, detail=None):
    from desktop.views.registry.vehicle_wizard import VehicleWizard

    wizard = VehicleWizard(db, actor, detail=detail)
    qtbot.addWidget(wizard)
    wizard.show()
    return wizard


def _fill_crlv(wizard, qtbot, plate="RTZ4E56", renavam_digits=None):
    page = wizard.crlv_page
    qtbot.keyClicks(page.plate_edit, plate.lower())
    qtbot.keyClicks(page.renavam_edit, renavam_digits or renavam(7777001))
    page.make_edit.setText("Fiat")
    page.model_edit.setText("Cronos")
    page.manufacture_year_spin.setValue(today().year - 1)
    page.model_year_spin.setValue(today().year)
    page.colour_edit.setText("Branco")
    page.air_check.setChecked(True)
    page.insurance_check.setChecked(True)


def test_art2_vehicle_wizard_good_data_own_vehicle_finishes_on_the_ownership_page(qtbot, db, staff, tmp_path):
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot)
    assert wizard.crlv_page.plate_edit.text() == "RTZ4E56"
    assert wizard.crlv_page.attach_crlv(scan_pdf(tmp_path, "crlv.pdf", "CRLV 2026"))
    assert wizard.validate_now() == []
    shoot(wizard, "vehicle_wizard_1_crlv")
    wizard.next()
    assert wizard.currentId() == 1 and wizard.ownership_page.nextId() == -1   # own: Finish here
    shoot(wizard, "vehicle_wizard_2_ownership")
    wizard.accept()
    assert wizard.saved is not None and wizard.saved.plate == "RTZ4E56"
    from desktop.services import vehicles

    detail = vehicles.vehicle_detail(db, staff.clerk, wizard.saved.id)
    assert [d.kind for d in detail.documents] == ["crlv"]


def test_art2_vehicle_problems_are_shown_live_with_their_articles_and_nothing_is_saved(qtbot, db, staff):
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot)
    page = wizard.crlv_page
    page.doors_spin.setValue(2)
    page.air_check.setChecked(False)
    page.seats_spin.setValue(9)
    page.manufacture_year_spin.setValue(today().year - 12)
    page.model_year_spin.setValue(today().year - 12)
    page.municipality_edit.setText("Cuiabá")
    qtbot.waitUntil(lambda: page.errors.is_invalid("doors"), timeout=2000)   # live, debounced
    assert "Art. 2, §1" in page.errors.message("doors")
    assert "ar-condicionado" in page.errors.message("air_conditioning")
    assert "Art. 2, caput" in page.errors.message("seats")
    assert "Art. 2, §§1-2" in page.errors.message("manufacture_year")
    assert "Art. 8, §1, I" in page.errors.message("registration_municipality")
    shoot(wizard, "vehicle_wizard_1_problems")
    wizard.next()
    assert wizard.currentId() == 0
    from desktop.services import vehicles

    assert vehicles.list_vehicles(db, staff.clerk).total == 0


def test_art8_par3_iv_fourth_vehicle_of_an_individual_lessor_is_refused_with_the_article(qtbot, db, staff):
    from desktop.services.vehicles import LessorDraft

    lessor_cpf = cpf(555000111)
    lessor = LessorDraft("individual", lessor_cpf, "Pedro Locador")
    for n in range(1, 4):
        make_vehicle(db, staff.clerk, n=n, mode="individual_lease", lessor=lessor)
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot, plate="RTZ4E57", renavam_digits=renavam(7777002))
    wizard.next()
    wizard.ownership_page.set_mode("individual_lease")
    assert wizard.ownership_page.nextId() == 3
    wizard.next()
    assert wizard.currentId() == 3
    page = wizard.lessor_page
    qtbot.keyClicks(page.cpf_edit, lessor_cpf)
    page.name_edit.setText("Pedro Locador")
    assert page.lessor_message.isVisibleTo(wizard)
    assert "Art. 8, §3, IV" in page.lessor_message.text() and "3" in page.lessor_message.text()
    shoot(wizard, "vehicle_wizard_4_lessor_refused")
    assert not page.validatePage()
    wizard.accept()                                     # the service refuses it too
    assert wizard.saved is None
    from desktop.services import vehicles

    assert vehicles.list_vehicles(db, staff.clerk).total == 3


def test_art8_par3_iii_company_lessor_is_created_with_the_vehicle(qtbot, db, staff):
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot)
    wizard.next()
    wizard.ownership_page.set_mode("company_lease")
    wizard.next()
    page = wizard.lessor_page
    assert page.cnpj_edit.isVisibleTo(wizard) and not page.cpf_edit.isVisibleTo(wizard)
    qtbot.keyClicks(page.cnpj_edit, cnpj(44555666))
    page.name_edit.setText("Locadora Chapada Ltda")
    wizard.accept()
    assert wizard.saved is not None and wizard.saved.lessor_name == "Locadora Chapada Ltda"
    assert wizard.saved.ownership_article == "Art. 8, §3, III"


# -- platforms ------------------------------------------------------------------------------------------------

def test_art5_art6_platform_form_good_and_bad(qtbot, db, staff):
    from desktop.views.registry.platforms import PlatformDialog

    dialog = PlatformDialog(db, staff.clerk)
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.cnpj_edit, "11222333000180")
    dialog.cnpj_edit.check()
    assert "inválido" in dialog.cnpj_edit.message_label.text()
    assert not dialog.save()
    assert dialog.errors.is_invalid("legal_name") and dialog.errors.is_invalid("trade_name")
    dialog.cnpj_edit.clear()
    qtbot.keyClicks(dialog.cnpj_edit, "11222333000181")
    dialog.legal_name_edit.setText("Viagem Rápida Tecnologia Ltda")
    dialog.trade_name_edit.setText("Viagem Rápida")
    dialog.policy_edit.setText("APP-9")
    dialog.policy_until_edit.set_value(today() - timedelta(days=1))
    dialog.registration_number_edit.setText("IM-77")
    assert not dialog.save()
    assert "Art. 5, X" in dialog.errors.message("app_insurance_valid_until")
    assert "Art. 6" in dialog.errors.message("municipal_registration_date")
    shoot(dialog, "platform_form_problems")
    dialog.policy_until_edit.set_value(today() + timedelta(days=200))
    dialog.registration_date_edit.set_value(today() - timedelta(days=3))
    assert dialog.save()
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
    wizard.next()
    _fill_cnh(wizard, qtbot)
    wizard.next()
    _tick_all(wizard)
    row = wizard.checklist_page.rows["tax_clearance"]
    row.issued_edit.set_value(today() - timedelta(days=2))
    row.expires_edit.set_value(today() - timedelta(days=10))
    wizard.next()
    assert wizard.currentId() == 2
    assert "anterior à data de emissão" in row.problem_label.text() and "Art. 8, §1, II" in row.problem_label.text()
    row.expires_edit.set_value(today() + timedelta(days=30))
    wizard.next()
    assert wizard.currentId() == 3


def test_art8_par3_ii_relative_owner_needs_name_cpf_and_relationship(qtbot, db, staff):
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot)
    wizard.next()
    wizard.ownership_page.set_mode("relative")
    assert wizard.ownership_page.nextId() == 2
    wizard.next()
    assert wizard.currentId() == 2
    page = wizard.owner_page
    qtbot.keyClicks(page.document_edit, "11111111111")
    page.relationship_combo.setCurrentText("")
    assert not page.validatePage()
    assert page.errors.is_invalid("owner_name") and "Art. 8, §3, II" in page.errors.message("owner_name")
    assert "CPF" in page.errors.message("owner_document")
    shoot(wizard, "vehicle_wizard_3_owner_problems")
    page.name_edit.setText("Lúcia Pereira")
    page.document_edit.clear()
    qtbot.keyClicks(page.document_edit, cpf(200300400))
    page.relationship_combo.setCurrentText("Cônjuge")
    assert page.validatePage()
    wizard.accept()
    assert wizard.saved is not None and wizard.saved.owner_name == "Lúcia Pereira"
    assert wizard.saved.owner_relationship == "Cônjuge" and wizard.saved.ownership_article == "Art. 8, §3, II"


def test_art8_par3_iv_existing_lessor_fills_its_name_and_shows_its_count_live(qtbot, db, staff):
    import os

    from desktop.services.vehicles import LessorDraft

    lessor_cpf = cpf(555000222)
    make_vehicle(db, staff.clerk, n=1, mode="individual_lease",
                 lessor=LessorDraft("individual", lessor_cpf, "Pedro Locador", phone="(65) 99999-1234"))
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot, plate="RTZ4E58", renavam_digits=renavam(7777003))
    wizard.next()
    wizard.ownership_page.set_mode("individual_lease")
    wizard.next()
    page = wizard.lessor_page
    assert not page.lessor_found_label.isVisibleTo(wizard)
    qtbot.keyClicks(page.cpf_edit, lessor_cpf)
    assert page.name_edit.text() == "Pedro Locador"
    assert page.lessor_found_label.isVisibleTo(wizard) and not page.lessor_message.isVisibleTo(wizard)
    assert "já tem 1 veículo(s) no cadastro (máximo 3, Art. 8, §3, IV)" in page.lessor_found_label.text()
    os.makedirs("/tmp/shots/gaps", exist_ok=True)
    wizard.grab().save("/tmp/shots/gaps/vehicle_wizard_existing_lessor.png")
    wizard.accept()
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
    wizard.next()
    _fill_cnh(wizard, qtbot)
    wizard.next()
    _tick_all(wizard)
    rows = wizard.checklist_page.rows
    assert rows["cnh"].attach_file(scan_png(tmp_path, "cnh.png"))
    rows["cnh"].show_document()                                    # seen from memory
    assert wizard.last_document_dialog.viewer.kind == "image"
    wizard.last_document_dialog.close()
    bad = tmp_path / "nota.txt"
    bad.write_text("não é um documento")
    assert not rows["criminal_record"].attach_file(str(bad))        # said at once, nothing stored
    assert "Formato não aceito" in rows["criminal_record"].problem_label.text()
    assert _document_rows(db) == 0
    wizard.reject()
    assert _document_rows(db) == 0 and _driver_count(db, staff.atendente) == 0


def test_issue12_item22_a_cancelled_vehicle_wizard_leaves_no_document_row(qtbot, db, staff, tmp_path):
    wizard = _vehicle_wizard(qtbot, db, staff.clerk)
    _fill_crlv(wizard, qtbot)
    assert wizard.crlv_page.attach_crlv(scan_pdf(tmp_path, "crlv.pdf", "CRLV 2026"))
    assert _document_rows(db) == 0
    wizard.reject()
    assert _document_rows(db) == 0
