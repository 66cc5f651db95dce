"""Issue 2: on first start a setup wizard (Portuguese) asks for the municipality's parameters and the first
administrator, and writes them once, on Finish, through services.setup.initialize."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QWizard

from hands import activate, click_button, tick, type_into
from desktop.views.setup_wizard import (PAGE_ADMIN, PAGE_DEMO, PAGE_MUNICIPALITY, PAGE_UPFM, PAGE_WELCOME,
                                        SetupWizard)


def type_text(qtbot, widget, text):
    """Click into the field, replace what it holds, type `text` key by key (accents too: hands.type_into)."""
    type_into(widget, text)


def next_page(qtbot, wizard):
    button = wizard.button(QWizard.WizardButton.NextButton)
    assert button.isEnabled(), f"Next disabled on page {wizard.currentId()}"
    click_button(button)


def back_page(wizard):
    click_button(wizard.button(QWizard.WizardButton.BackButton))


def finish(wizard):
    click_button(wizard.button(QWizard.WizardButton.FinishButton))


def show(wizard):
    activate(wizard)


def fill(qtbot, wizard, tmp_path, phone="6533011234", password="senha-forte-2025", confirm=None):
    assert wizard.currentId() == PAGE_WELCOME
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_MUNICIPALITY
    form = wizard.municipality_page.form
    assert form.name_edit.text() == "Chapada dos Guimarães"
    assert form.uf_combo.currentText() == "MT"
    type_text(qtbot, form.secretariat_edit, "Secretaria Municipal de Finanças")
    type_into(form.phone_edit, phone, leave=True)          # Tab: the phone is written back formatted
    image = QImage(40, 50, QImage.Format.Format_RGB32)
    image.fill(QColor("darkgreen"))
    image.save(str(tmp_path / "brasao.jpg"))
    from PySide6.QtWidgets import QFileDialog

    with pytest.MonkeyPatch.context() as patch:                # the file dialog answers the file a person picks
        patch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(tmp_path / "brasao.jpg"), "")))
        click_button(form.brasao.choose_button)
    assert form.brasao.png() is not None
    type_text(qtbot, form.pix_edit, "financas@chapada.mt.gov.br")
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_UPFM
    type_text(qtbot, wizard.upfm_page.value_edit, "1.112,45")
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_ADMIN
    type_text(qtbot, wizard.admin_page.username_edit, "maria.silva")
    type_text(qtbot, wizard.admin_page.full_name_edit, "Maria da Conceição Silva")
    type_text(qtbot, wizard.admin_page.password_edit, password)
    type_text(qtbot, wizard.admin_page.confirm_edit, password if confirm is None else confirm)


def test_setup_wizard_creates_municipality_upfm_and_first_administrator(qtbot, db, tmp_path):
    from desktop.services import auth, parameters, setup

    assert setup.needs_setup(db)
    wizard = SetupWizard(db, today=date(2026, 11, 29))
    qtbot.addWidget(wizard)
    show(wizard)
    assert db.describe() in wizard.welcome_page.where.text()
    fill(qtbot, wizard, tmp_path)
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_DEMO
    assert wizard.demo_page.demo_check.text() == "Carregar dados de demonstração?"
    assert setup.needs_setup(db), "wizard pages never write"
    finish(wizard)

    assert wizard.result() == QWizard.DialogCode.Accepted
    assert not setup.needs_setup(db)
    info = setup.get_municipality(db)
    assert (info.name, info.uf, info.secretariat) == ("Chapada dos Guimarães", "MT",
                                                      "Secretaria Municipal de Finanças")
    assert info.ouvidoria_phone == "(65) 3301-1234"
    assert info.pix_key == "financas@chapada.mt.gov.br"
    assert info.brasao_png.startswith(b"\x89PNG")
    # Art. 25: fines are in UPFM; the value of the year typed with a Brazilian comma is a Decimal
    assert parameters.upfm_value(db, 2026) == Decimal("1112.45")
    actor = auth.login(db, "maria.silva", "senha-forte-2025")
    assert actor.full_name == "Maria da Conceição Silva"
    assert wizard.actor.username == "maria.silva"


def test_password_confirmation_must_match_before_leaving_the_page(qtbot, db, tmp_path):
    wizard = SetupWizard(db)
    qtbot.addWidget(wizard)
    show(wizard)
    fill(qtbot, wizard, tmp_path, confirm="outra-senha-99")
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_ADMIN
    assert wizard.admin_page.errors.is_invalid("password_confirm")
    assert "não é igual" in wizard.admin_page.errors.message("password_confirm")


def test_upfm_value_with_letters_is_refused_beside_the_field(qtbot, db, tmp_path):
    wizard = SetupWizard(db)
    qtbot.addWidget(wizard)
    show(wizard)
    next_page(qtbot, wizard)
    type_text(qtbot, wizard.municipality_page.form.secretariat_edit, "Secretaria de Finanças")
    type_text(qtbot, wizard.municipality_page.form.phone_edit, "6533011234")
    next_page(qtbot, wizard)
    type_into(wizard.upfm_page.value_edit, "1.234")  # ambiguous without the comma
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_UPFM
    assert "vírgula" in wizard.upfm_page.errors.message("upfm_value")


def test_service_validation_error_goes_back_to_the_page_of_the_field(qtbot, db, tmp_path):
    """The phone is checked by services.setup (Art. 14: printed on the sticker); Finish returns to page 2."""
    from desktop.services import setup

    wizard = SetupWizard(db)
    qtbot.addWidget(wizard)
    show(wizard)
    fill(qtbot, wizard, tmp_path, phone="12345")
    next_page(qtbot, wizard)
    finish(wizard)
    assert wizard.currentId() == PAGE_MUNICIPALITY
    errors = wizard.municipality_page.form.errors
    assert errors.is_invalid("ouvidoria_phone")
    assert "Telefone inválido" in errors.message("ouvidoria_phone")
    assert setup.needs_setup(db), "nothing was written"
    # fix it and finish
    type_into(wizard.municipality_page.form.phone_edit, "(65) 99999-1234", leave=True)
    for _ in range(3):
        next_page(qtbot, wizard)
    finish(wizard)
    assert not setup.needs_setup(db)
    assert setup.get_municipality(db).ouvidoria_phone == "(65) 99999-1234"


def test_demo_data_is_loaded_in_the_background_after_finish(qtbot, db, tmp_path, messages):
    """Issue 2: the wizard offers demo data; it is loaded off the UI thread after the one initialize call."""
    from desktop.services import setup

    wizard = SetupWizard(db)
    qtbot.addWidget(wizard)
    show(wizard)
    fill(qtbot, wizard, tmp_path)
    next_page(qtbot, wizard)
    tick(wizard.demo_page.demo_check)
    assert wizard.demo_page.demo_check.isChecked()
    finish(wizard)
    assert not setup.needs_setup(db), "initialize ran first, once"
    assert not wizard.button(QWizard.WizardButton.FinishButton).isEnabled(), "no second Finish while loading"
    qtbot.waitUntil(lambda: wizard.result() == QWizard.DialogCode.Accepted, timeout=180000)
    assert wizard.demo_error is None
    assert wizard.demo_summary.drivers == 300
    assert wizard.demo_summary.counts.get("drivers", 0) >= 300
    kind, title, text = messages[-1]
    assert title == "Dados de demonstração" and "condutores" in text
    assert setup.get_municipality(db).name == "Chapada dos Guimarães"


def test_issue12_item15_the_wizard_asks_the_febraban_code_and_the_pix_key_on_first_run(qtbot, db, tmp_path):
    """Issue 12 items 14 and 15: the first guide needs the FEBRABAN code; the wizard asks it with the PIX key,
    explains what it is, and stores the PIX key as the BR Code carries it."""
    from desktop.services import setup

    wizard = SetupWizard(db, today=date(2026, 11, 29))
    qtbot.addWidget(wizard)
    show(wizard)
    next_page(qtbot, wizard)
    form = wizard.municipality_page.form
    assert form.febraban_edit.isVisible() and form.pix_edit.isVisible()
    assert "FEBRABAN" in form.febraban_note.text() and "código de barras" in form.febraban_note.text()
    assert form.febraban_missing.isVisible(), "says plainly that guides cannot be issued without it"
    type_into(form.febraban_edit, "0421")
    assert not form.febraban_missing.isVisible()
    back_page(wizard)
    fill(qtbot, wizard, tmp_path)  # ends on the administrator's page
    back_page(wizard)
    back_page(wizard)
    assert wizard.currentId() == PAGE_MUNICIPALITY
    type_into(form.pix_edit, "03.507.548/0001-10")
    assert "03507548000110 (CNPJ)" in form.pix_hint.text()
    assert form.febraban_edit.text() == "0421"
    for _ in range(3):
        next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_DEMO
    assert not wizard.demo_page.febraban_missing.isVisible()
    finish(wizard)
    info = setup.get_municipality(db)
    assert info.febraban_agreement == "0421"
    assert info.pix_key == "03507548000110"


def test_issue12_item14_a_pix_key_that_is_no_key_keeps_the_wizard_on_the_municipality_page(qtbot, db, tmp_path):
    wizard = SetupWizard(db)
    qtbot.addWidget(wizard)
    show(wizard)
    next_page(qtbot, wizard)
    form = wizard.municipality_page.form
    type_text(qtbot, form.secretariat_edit, "Secretaria de Finanças")
    type_text(qtbot, form.phone_edit, "6533011234")
    type_into(form.pix_edit, "(65) 3301-123")
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_MUNICIPALITY
    assert form.errors.is_invalid("pix_key")
    assert "Chave PIX" in form.errors.message("pix_key")
    type_into(form.pix_edit, "+55 65 3301-1234")
    type_into(form.febraban_edit, "12")
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_MUNICIPALITY
    assert form.errors.is_invalid("febraban_agreement") and not form.errors.is_invalid("pix_key")
    type_into(form.febraban_edit, "")
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_UPFM, "the code may be given later, in Administração"


def test_issue12_item15_the_last_page_repeats_that_guides_need_the_febraban_code(qtbot, db, tmp_path):
    wizard = SetupWizard(db)
    qtbot.addWidget(wizard)
    show(wizard)
    fill(qtbot, wizard, tmp_path)
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_DEMO
    assert wizard.demo_page.febraban_missing.isVisible()
    assert "Administração → Município" in wizard.demo_page.febraban_missing.text()


def test_issue23_the_wizard_asks_for_the_fees_with_their_act_and_keeps_those_typed(qtbot, db, tmp_path):
    """Issue 23 point 10: no invented fee; the UPFM page asks for the CTM's fees (optional) and the act that fixes
    them — a fee typed without the act is refused beside the field, and the blank ones stay for Parâmetros."""
    from desktop.services import parameters, setup

    wizard = SetupWizard(db, today=date(2026, 11, 29))
    qtbot.addWidget(wizard)
    show(wizard)
    fill(qtbot, wizard, tmp_path)
    # the fees are on the UPFM page (fill went on to the administrator's): back with the mouse
    back_page(wizard)
    assert wizard.currentId() == PAGE_UPFM
    page = wizard.upfm_page
    type_into(page.fee_edits["fee.authorization"], "12,50")
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_UPFM
    assert "lei ou o decreto" in page.errors.message("fees_act")
    type_into(page.act_edit, "Lei Complementar 45/2025, art. 12")
    next_page(qtbot, wizard)
    assert wizard.currentId() == PAGE_ADMIN
    next_page(qtbot, wizard)
    finish(wizard)
    assert not setup.needs_setup(db)
    assert parameters.parameter_value(db, "fee.authorization", date(2026, 11, 29)) == Decimal("12.50")
    from desktop.errors import NotFound

    with pytest.raises(NotFound):   # the renewal fee was left blank: still unset
        parameters.parameter_value(db, "fee.renewal", date(2026, 11, 29))
