"""Cadastros lists and detail pages on a real SQLite database: filter-as-you-type through the services
("joao" finds "João", "conceicao" finds "Conceição", CPF and plate prefixes), status filters, server-side sorting,
the models checked by qtmodeltester, detail pages with the full timeline and the scans opened inside the program,
and the module reachable from the main window's sidebar."""
from __future__ import annotations

import pytest

from registry_fixtures import *  # noqa: F401,F403


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
    return page


def _names(paged):
    return [r.name for r in paged.visible_rows()]


def test_driver_list_filters_accent_and_case_insensitive_through_the_service(qtbot, db, staff, populated):
    page = _page(qtbot, db, staff.atendente)
    drivers = page.drivers.list
    assert _names(drivers) == ["João da Silva", "José Pereira", "Maria Conceição"]   # the service's order: name
    qtbot.keyClicks(drivers.filter_edit, "joao")
    qtbot.waitUntil(lambda: _names(drivers) == ["João da Silva"], timeout=2000)
    drivers.filter_edit.setText("CONCEICAO")
    drivers.apply_filter()
    assert _names(drivers) == ["Maria Conceição"]
    drivers.filter_edit.setText("100.000.003")                 # CPF prefix with the mask
    drivers.apply_filter()
    assert _names(drivers) == ["José Pereira"]
    assert drivers.count_label.text() == "1 registro"
    drivers.filter_edit.clear()
    drivers.apply_filter()
    drivers.view.sortByColumn(0, __import__("PySide6.QtCore", fromlist=["Qt"]).Qt.SortOrder.DescendingOrder)
    assert _names(drivers) == ["Maria Conceição", "José Pereira", "João da Silva"]
    shoot(page, "drivers_list")


def test_status_filter_and_vehicle_plate_prefix(qtbot, db, staff, populated):
    from desktop.services import drivers as svc

    _platform, _joao, _maria, jose, _vehicle = populated
    info = svc.get_driver(db, staff.gestor, jose.id)
    svc.deregister_driver(db, staff.gestor, jose.id, "Mudou de município", "Portaria 1/2026", today(), info.version)
    page = _page(qtbot, db, staff.atendente)
    drivers = page.drivers.list
    drivers.reload()
    drivers.status_combo.setCurrentIndex(drivers.status_combo.findData("deregistered"))
    assert _names(drivers) == ["José Pereira"]
    assert drivers.model.data(drivers.model.index(0, 3)) == "Descadastrado"
    vehicles = page.show_tab("Veículos").list
    vehicles.filter_edit.setText("abc-12")                      # with the dash, lower case
    vehicles.apply_filter()
    assert [r.plate_display for r in vehicles.visible_rows()] == ["ABC-1234"]
    vehicles.filter_edit.setText("QBA1")
    vehicles.apply_filter()
    assert [r.plate_display for r in vehicles.visible_rows()] == ["QBA1C01"]
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

    _platform, joao, *_ = populated
    scan = attachments.attach_document(db, staff.clerk, Path(scan_png(tmp_path)).read_bytes(), "residencia.png",
                                       "residence_proof", driver_id=joao.id)
    page = _page(qtbot, db, staff.clerk)
    detail = page.drivers.open_detail(joao.id)
    assert detail.tab_titles() == ["Dados", "Documentos exigidos", "Plataformas", "Autorizações", "Arquivos",
                                   "Comunicações de alteração", "Histórico", "Cursos"]   # Cursos: issue 16
    assert detail.info.value("CPF") == joao.cpf_display
    assert "Todas as exigências" in detail.problems_label.text()
    assert detail.checklist.model.rowCount() == 0                 # hidden tabs are filled when first shown
    detail.tabs.setCurrentIndex(1)
    assert detail.checklist.model.rowCount() == 11
    shoot(page, "driver_detail_checklist")
    detail.tabs.setCurrentIndex(2)
    assert detail.platforms.item(0).text() == "Leva Já"
    detail.tabs.setCurrentIndex(6)
    timeline = detail.timeline.model.rows()
    assert timeline and all(entry.who for entry in timeline)      # every event says who
    shoot(page, "driver_detail_history")
    detail.tabs.setCurrentIndex(4)
    detail.documents.table.select_where(lambda d: d.id == scan.id)
    dialog = detail.documents.open_document(scan.id)
    assert dialog.viewer.kind == "image"
    dialog.close()
    # An edit by the wizard reloads the page (stale-free: the wizard carries the version).
    from desktop.views.registry.driver_wizard import DriverWizard

    wizard = DriverWizard(db, staff.clerk, detail=detail.data)
    qtbot.addWidget(wizard)
    assert wizard.personal_page.cpf_edit.isReadOnly()
    wizard.personal_page.phone_edit.setText("(65) 98888-7777")
    wizard.accept()
    assert wizard.saved is not None and svc.get_driver(db, staff.clerk, joao.id).phone == "(65) 98888-7777"


def test_stale_driver_edit_offers_reload(qtbot, db, staff, populated, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from desktop.services import drivers as svc
    from desktop.views.registry.driver_wizard import DriverWizard

    _platform, joao, *_ = populated
    detail = svc.driver_detail(db, staff.clerk, joao.id)
    wizard = DriverWizard(db, staff.clerk, detail=detail)
    qtbot.addWidget(wizard)
    other = DriverWizard(db, staff.atendente, detail=detail)       # another desk saves first
    qtbot.addWidget(other)
    other.personal_page.email_edit.setText("joao@exemplo.com.br")
    other.accept()
    assert other.saved is not None
    clicked = []

    def click_reload(box):
        clicked.append(box.text())
        next(b for b in box.buttons() if b.text() == "Recarregar").click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", click_reload)
    wizard.personal_page.phone_edit.setText("(65) 3301-0000")
    wizard.accept()
    assert clicked and "alterado por outro usuário" in clicked[0]
    assert wizard.saved is None
    assert wizard.personal_page.email_edit.text() == "joao@exemplo.com.br"   # reloaded from the database
    wizard.accept()                                                          # now it saves
    assert wizard.saved is not None


def test_platform_detail_lists_its_drivers(qtbot, db, staff, populated):
    platform, joao, *_ = populated
    page = _page(qtbot, db, staff.clerk)
    screen = page.show_tab("Plataformas")
    assert [r.trade_name for r in screen.list.visible_rows()] == ["Leva Já"]
    detail = screen.open_detail(platform.id)
    detail.tabs.setCurrentWidget(detail.drivers)
    assert [r.name for r in detail.drivers.model.rows()] == [joao.name]
    detail.tabs.setCurrentIndex(0)
    assert detail.info.value("Inscrição municipal") == "IM-0001"
    shoot(page, "platform_detail")
    assert detail.status_button.isEnabled()                       # the clerk is also a gestor
    dialog = detail.status_dialog()
    dialog.set_value("status", "suspended")
    assert not dialog.confirm() and dialog.errors.is_invalid("reason")
    dialog.set_value("reason", "Seguro APP vencido (Art. 5, X)")
    assert dialog.confirm()
    from desktop.signals import bus

    bus.data_changed.emit("platforms")
    assert detail.data.platform.status == "suspended" and "Suspensa" in detail.subtitle.text()


def test_main_window_opens_cadastros_and_autorizacoes(qtbot, db, staff, populated):
    from desktop.views.main_window import MainWindow

    window = MainWindow(db, staff.clerk)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    registry = window.open_module("cadastros")
    assert registry.tab_titles() == ["Condutores", "Veículos", "Plataformas"]
    shoot(window, "main_window_cadastros")
    authorizations = window.open_module("autorizacoes")
    assert authorizations.tab_titles() == ["Autorizações", "Comunicações de alteração"]
    qtbot.waitUntil(lambda: authorizations.jobs.task.finished, timeout=10000)   # the due-transitions job ran
    shoot(window, "main_window_autorizacoes")
