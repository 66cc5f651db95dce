"""Journey (a), with the keyboard alone (issue 27 "journeys", issue 29 "one journey with the keyboard alone"): on
the demonstration database the atendente opens Cadastros (Ctrl+1), starts a new driver (Ctrl+N), types every page
of the wizard with Tab, Space and Enter — CPF, name, birth date as `15031985`, the photo, CNH, category by its letter, the
checklist ticked with Space, a platform — and finishes with Enter; the driver's page opens, Esc goes back to the
list, where the filter (Ctrl+F) finds the new driver. Then, in Autorizações, the status filter chosen with the
arrows, Tab into the list, Enter opens an active authorization, and its sticker (Art. 14) is printed from the
"Imprimir" menu with Space, Down and Enter; the PDF is read back.

This journey proves the keyboard; the sticker it prints is a demonstration authorization's. The rest of journey (a)
— the vehicle wizard, and the new driver's own authorization through analysis, approval, the inspection booked and
run, the fee's guide and payment, to its own sticker — is tests/journeys/test_a_driver_and_vehicle_to_their_sticker.py
(mouse and keys)."""
from __future__ import annotations

import time

import pytest

from hands import activate, click_close, focused, in_modal, press, settle, tab_until, type_text
from robot import SIZE, make_demo, open_copy
from tests.journeys.steps import pdf_text


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("journey-a") / "demo.sqlite3", drivers=12)


def test_journey_a_driver_registered_with_the_keyboard_alone(qtbot, demo_template, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QWizard

    from desktop.demo.photos import photo_for
    from desktop.views.main_window import MainWindow
    from desktop.views.registry.driver_wizard import DriverWizard

    db, actor = open_copy(demo_template, tmp_path)
    window = MainWindow(db, actor)
    qtbot.addWidget(window)
    window.resize(*SIZE)
    activate(window)
    started = time.monotonic()
    press("Ctrl+1")
    page = window.pages["cadastros"]
    assert window.current_module_key() == "cadastros"
    done = {}

    def fill(wizard: DriverWizard) -> None:
        activate(wizard)
        personal = wizard.personal_page
        personal.cpf_edit.setFocus()        # the wizard opens on its first field
        type_text("11144477735")
        press("Tab")
        type_text("Joana Batista Moreira")
        press("Tab")
        assert focused() is personal.birth_edit
        type_text("15031985")
        press("Tab")
        type_text("65999887766")                       # phone
        press("Tab", "Tab")                            # e-mail stays empty
        type_text("Rua Cipriano Curvo, 120")
        press("Tab")
        type_text("Centro")
        tab_until(personal.zip_edit)
        type_text("78195000")
        tab_until(personal.photo.choose_button)
        press("Space")                                 # «Escolher foto…»: the file dialog answers the file picked
        assert personal.photo.png() is not None, personal.photo.message.text()
        done["birth"] = personal.birth_edit.value()
        tab_until(wizard.button(QWizard.WizardButton.NextButton))
        press("Return")                                # Avançar (Enter on the photo's button would choose again)
        settle(100)
        cnh = wizard.cnh_page
        assert wizard.currentPage() is cnh, personal.errors and personal.general.text()
        tab_until(cnh.cnh_number_edit)
        type_text("02650306461")
        press("Tab")
        type_text("B")                                 # the category by its letter
        press("Tab")
        type_text("10102030")
        press("Tab")
        press("Space")                                 # EAR
        press("Tab")
        type_text("12345678901")
        press("Return")
        settle(100)
        checklist = wizard.checklist_page
        assert wizard.currentPage() is checklist, cnh.general.text()
        for row in checklist.rows.values():
            tab_until(row.check)
            press("Space")
        press("Return")
        settle(100)
        platforms = wizard.platforms_page
        assert wizard.currentPage() is platforms
        tab_until(platforms.list)
        press("Space")                                  # the first platform, ticked
        done["platforms"] = platforms.platform_ids()
        press("Return")                                 # Concluir

    photo = tmp_path / "joana.png"
    photo.write_bytes(photo_for(3))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(photo), "")))
    filled = in_modal(DriverWizard, fill)
    press("Ctrl+N")
    settle(200)
    filled.check()                                     # what failed inside the wizard fails here
    screen = page.drivers
    wizard = screen.last_dialog
    assert wizard.saved is not None, "the wizard did not save"
    assert done["birth"].strftime("%d/%m/%Y") == "15/03/1985" and done["platforms"]
    from desktop.services import drivers

    detail = drivers.driver_detail(db, actor, wizard.saved.id)
    assert detail.driver.name == "Joana Batista Moreira" and detail.driver.cpf == "11144477735"
    assert detail.driver.birth_date.strftime("%d%m%Y") == "15031985"
    assert detail.driver.cnh_category == "B" and detail.driver.cnh_ear
    activate(window)                                    # the window manager gives the window back its focus
    press("Esc")                                        # from the driver's page back to the list
    settle(100)
    press("Ctrl+F")
    type_text("Joana Batista")
    qtbot.waitUntil(lambda: any(getattr(r, "name", "") == "Joana Batista Moreira"
                                for r in screen.list.visible_rows()), timeout=5000)
    # Art. 14: the sticker of an active authorization, printed from Autorizações with the keyboard, read back
    press("Ctrl+2")
    authorizations = window.pages["autorizacoes"].authorizations
    listing = authorizations.list
    tab_until(listing.status_combo)
    for _ in range(listing.status_combo.count()):
        if listing.status_combo.currentText() == "Ativa":
            break
        press("Down")
    qtbot.waitUntil(lambda: listing.model.rowCount() > 0, timeout=10000)
    tab_until(listing.view)                             # the focus selects the first row
    press("Return")                                     # opens it
    qtbot.waitUntil(lambda: getattr(authorizations, "detail", None) is not None
                    and authorizations.detail.isVisible(), timeout=10000)
    detail = authorizations.detail
    tab_until(detail.print_button)
    menu = detail.print_button.menu()
    press("Space")
    settle(100)
    assert menu.isVisible()
    press("Down", widget=menu)
    press("Down", widget=menu)
    assert "Selo" in menu.activeAction().text().replace("&", "")
    press("Return", widget=menu)
    qtbot.waitUntil(lambda: getattr(detail, "last_preview", None) is not None, timeout=60000)
    text = pdf_text(detail.last_preview._bytes)
    number = detail.data.authorization.number
    assert number in text, text[:300]
    click_close(detail.last_preview)
    assert time.monotonic() - started < 60
    window.close()
    import shiboken6

    shiboken6.delete(window)
    db.dispose()
