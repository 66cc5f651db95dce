"""Cadastros lists and detail pages on a real SQLite database: filter-as-you-type through the services
("joao" finds "João", "conceicao" finds "Conceição", CPF and plate prefixes), status filters, server-side sorting,
the models checked by qtmodeltester, detail pages with the full timeline and the scans opened inside the program,
and the module reachable from the main window's sidebar."""
from __future__ import annotations

import pytest

from registry_fixtures import *  # noqa: F401,F403
from action_hands import act, finish_wizard, open_row, tab_of
from hands import (activate, choose_in_combo, click, click_button, click_close, click_row, find_button, in_modal,
                   type_into)


@pytest.fixture
def populated(db, staff):
    platform = make_platform(db, staff.clerk)
    joao = make_driver(db, staff.clerk, n=1, name="João da Silva", platform_ids=(platform.id,))
    maria = make_driver(db, staff.clerk, n=2, name="Maria Conceição")
    jose = make_driver(db, staff.clerk, n=3, name="José Pereira")
    vehicle = make_vehicle(db, staff.clerk, n=1)
    make_vehicle(db, staff.clerk, n=2, plate="ABC1234")
    return platform, joao, maria, jose, vehicle


def _page(qtbot, db, actor):
    from desktop.views.registry.page import RegistryPage

    page = RegistryPage(db, actor)
    qtbot.addWidget(page)
    page.resize(1200, 760)
    activate(page)
    return page


def _tab_titled(page, title):
    """Click the page's tab called `title`; the screen it shows."""
    index = page.tab_titles().index(title)
    tab_of(page.tabs, page.tabs.widget(index))
    return page.tabs.widget(index)


def _header_click(view, section):
    from PySide6.QtCore import QPoint

    header = view.horizontalHeader()
    click(header.viewport(), QPoint(header.sectionViewportPosition(section) + header.sectionSize(section) // 2,
                                    header.height() // 2))



def _names(paged):
    return [r.name for r in paged.visible_rows()]


def test_driver_list_filters_accent_and_case_insensitive_through_the_service(qtbot, db, staff, populated):
    page = _page(qtbot, db, staff.atendente)
    drivers = page.drivers.list
    assert _names(drivers) == ["João da Silva", "José Pereira", "Maria Conceição"]   # the service's order: name

    def shows(names):
        qtbot.waitUntil(lambda: _names(drivers) == names, timeout=3000)

    type_into(drivers.filter_edit, "joao")
    shows(["João da Silva"])
    type_into(drivers.filter_edit, "CONCEICAO")
    shows(["Maria Conceição"])
    type_into(drivers.filter_edit, "100.000.003")                # CPF prefix with the mask
    shows(["José Pereira"])
    assert drivers.count_label.text() == "1 registro"
    type_into(drivers.filter_edit, "")
    shows(["João da Silva", "José Pereira", "Maria Conceição"])
    _header_click(drivers.view, 0)                               # a click on «Nome» sorts by it …
    if _names(drivers) != ["Maria Conceição", "José Pereira", "João da Silva"]:
        _header_click(drivers.view, 0)                           # … and a second click turns the order
    shows(["Maria Conceição", "José Pereira", "João da Silva"])
    shoot(page, "drivers_list")


def test_status_filter_and_vehicle_plate_prefix(qtbot, db, staff, populated):
    from desktop.services import drivers as svc

    _platform, _joao, _maria, jose, _vehicle = populated
    info = svc.get_driver(db, staff.gestor, jose.id)
    svc.deregister_driver(db, staff.gestor, jose.id, "Mudou de município", "Portaria 1/2026", today(), info.version)
    page = _page(qtbot, db, staff.atendente)
    drivers = page.drivers.list
    combo = drivers.status_combo
    choose_in_combo(combo, combo.itemText(combo.findData("deregistered")))
    qtbot.waitUntil(lambda: _names(drivers) == ["José Pereira"], timeout=3000)
    assert drivers.model.data(drivers.model.index(0, 3)) == "Descadastrado"
    vehicles = _tab_titled(page, "Veículos").list
    type_into(vehicles.filter_edit, "abc-12")                    # with the dash, lower case
    qtbot.waitUntil(lambda: [r.plate_display for r in vehicles.visible_rows()] == ["ABC-1234"], timeout=3000)
    type_into(vehicles.filter_edit, "QBA1")
    qtbot.waitUntil(lambda: [r.plate_display for r in vehicles.visible_rows()] == ["QBA1C01"], timeout=3000)
    shoot(page, "vehicles_list")


def test_register_list_models_pass_qtmodeltester(qtmodeltester, db, staff, populated):
    from desktop.views.registry.drivers import DRIVER_COLUMNS, fetch_drivers
    from desktop.views.registry.paged import ListQuery, PagedTableModel
    from desktop.views.registry.platforms import PLATFORM_COLUMNS, fetch_platforms
    from desktop.views.registry.vehicles import VEHICLE_COLUMNS, fetch_vehicles

    for columns, fetch, expected in ((DRIVER_COLUMNS, fetch_drivers, 3), (VEHICLE_COLUMNS, fetch_vehicles, 2),
                                     (PLATFORM_COLUMNS, fetch_platforms, 1)):
        model = PagedTableModel(columns, fetch(db, staff.clerk), page_size=2)
        model.set_query(ListQuery())
        assert model.total == expected
        qtmodeltester.check(model, force_py=True)
        while model.canFetchMore():
            model.fetchMore()
        assert model.rowCount() == expected


def test_driver_detail_shows_data_checklist_timeline_and_opens_scans(qtbot, db, staff, populated, tmp_path):
    from pathlib import Path

    from desktop.services import attachments, drivers as svc
    from desktop.views.registry.driver_wizard import DriverWizard

    _platform, joao, *_ = populated
    scan = attachments.attach_document(db, staff.clerk, Path(scan_png(tmp_path)).read_bytes(), "residencia.png",
                                       "residence_proof", driver_id=joao.id)
    page = _page(qtbot, db, staff.clerk)
    detail = open_row(qtbot, page.drivers, joao.id)
    assert detail.tab_titles() == ["Dados", "Documentos exigidos", "Plataformas", "Autorizações", "Arquivos",
                                   "Comunicações de alteração", "Histórico", "Cursos"]   # Cursos: issue 16
    assert detail.info.value("CPF") == joao.cpf_display
    assert "Todas as exigências" in detail.problems_label.text()
    assert detail.checklist.model.rowCount() == 0                 # hidden tabs are filled when first shown
    tab_of(detail.tabs, detail.checklist)
    assert detail.checklist.model.rowCount() == 11
    shoot(page, "driver_detail_checklist")
    tab_of(detail.tabs, detail.platforms)
    assert detail.platforms.item(0).text() == "Leva Já"
    tab_of(detail.tabs, detail.timeline)
    timeline = detail.timeline.model.rows()
    assert timeline and all(entry.who for entry in timeline)      # every event says who
    shoot(page, "driver_detail_history")
    tab_of(detail.tabs, detail.documents)
    table = detail.documents.table
    click_row(table, next(i for i, d in enumerate(table.visible_rows()) if d.id == scan.id), double=True)
    dialog = detail.documents.last_dialog
    assert dialog is not None and dialog.isVisible() and dialog.viewer.kind == "image"
    click_close(dialog)
    # An edit by the wizard reloads the page (stale-free: the wizard carries the version).
    seen = {}

    def edit(wizard):
        seen["cpf_read_only"] = wizard.personal_page.cpf_edit.isReadOnly()
        type_into(wizard.personal_page.phone_edit, "65988887777", leave=True)
        finish_wizard(wizard)

    activate(page)
    done = in_modal(DriverWizard, edit)
    click_button(detail.edit_button)
    wizard = done.check()
    assert seen["cpf_read_only"]
    assert wizard.saved is not None and svc.get_driver(db, staff.clerk, joao.id).phone == "(65) 98888-7777"
    assert "(65) 98888-7777" in detail.info.value("Telefone")      # the page reloaded


def test_stale_driver_edit_offers_reload(qtbot, db, staff, populated):
    from PySide6.QtWidgets import QMessageBox

    from desktop.services import drivers as svc
    from desktop.views.registry.driver_wizard import DriverWizard

    _platform, joao, *_ = populated
    detail = svc.driver_detail(db, staff.clerk, joao.id)
    wizard = DriverWizard(db, staff.clerk, detail=detail)
    qtbot.addWidget(wizard)
    other = DriverWizard(db, staff.atendente, detail=detail)       # another desk saves first
    qtbot.addWidget(other)
    activate(other)
    type_into(other.personal_page.email_edit, "joao@exemplo.com.br")
    finish_wizard(other)
    assert other.saved is not None
    clicked = []

    def click_reload(box):
        clicked.append(box.text())
        click_button(find_button(box, "Recarregar"))

    activate(wizard)
    type_into(wizard.personal_page.phone_edit, "6533010000", leave=True)
    box = in_modal(QMessageBox, click_reload)
    finish_wizard(wizard)
    box.check()
    assert clicked and "alterado por outro usuário" in clicked[0]
    assert wizard.saved is None and wizard.isVisible()
    assert wizard.personal_page.email_edit.text() == "joao@exemplo.com.br"   # reloaded from the database
    finish_wizard(wizard)                                                   # now it saves
    assert wizard.saved is not None


def test_platform_detail_lists_its_drivers(qtbot, db, staff, populated):
    platform, joao, *_ = populated
    page = _page(qtbot, db, staff.clerk)
    screen = _tab_titled(page, "Plataformas")
    assert [r.trade_name for r in screen.list.visible_rows()] == ["Leva Já"]
    detail = open_row(qtbot, screen, platform.id)
    tab_of(detail.tabs, detail.drivers)
    assert [r.name for r in detail.drivers.model.rows()] == [joao.name]
    from robot import click_tab

    click_tab(detail.tabs, 0)
    assert detail.info.value("Inscrição municipal") == "IM-0001"
    shoot(page, "platform_detail")
    assert detail.status_button.isEnabled()                       # the clerk is also a gestor
    ok, dialog = act(qtbot, detail.status_button, {"status": "suspended"})
    assert not ok and dialog.errors.is_invalid("reason")
    ok, dialog = act(qtbot, detail.status_button, {"status": "suspended", "reason": "Seguro APP vencido (Art. 5, X)"})
    assert ok, dialog.general.text()
    qtbot.waitUntil(lambda: detail.data.platform.status == "suspended", timeout=3000)   # the page reloaded
    assert "Suspensa" in detail.subtitle.text()


def test_main_window_opens_cadastros_and_autorizacoes(qtbot, db, staff, populated):
    from desktop.views.main_window import MainWindow
    from robot import sidebar_open

    window = MainWindow(db, staff.clerk)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    activate(window)
    registry = sidebar_open(window, "cadastros")
    assert registry.tab_titles() == ["Condutores", "Veículos", "Plataformas"]
    shoot(window, "main_window_cadastros")
    authorizations = sidebar_open(window, "autorizacoes")
    assert authorizations.tab_titles() == ["Autorizações", "Comunicações de alteração"]
    qtbot.waitUntil(lambda: authorizations.jobs.task.finished, timeout=10000)   # the due-transitions job ran
    shoot(window, "main_window_autorizacoes")


