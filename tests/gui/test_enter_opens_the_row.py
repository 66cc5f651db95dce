"""Enter on the selected row does the row's one action, in the lists where it did nothing (issue 29 point 1).

Each test opens the screen in the main window over the demonstration (a user with every role), clicks a row on the
viewport with the mouse, presses Enter on the list with QTest.keyClick, and checks what a clerk would see: the dialog
that opened (closed again by `Modals`), the tab or module now on screen, or the field that has the focus.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QTabWidget

from hands import activate, click_row, focused, settle
from robot import click_tab, close_main_window, make_demo, open_main_window

ENTER = Qt.Key.Key_Return


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("enter") / "demo.sqlite3")


@pytest.fixture
def window(qtbot, demo_template, tmp_path):
    main, db = open_main_window(qtbot, demo_template, tmp_path)
    yield main
    close_main_window(main, db)      # with the previews Enter opened


class Modals:
    """Records (class, title) of every modal dialog or message box that opens while Enter is pressed, and closes
    it (a question closed is answered "No"; a form closed keeps nothing)."""

    def __init__(self):
        self.seen: list[tuple[str, str]] = []
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._close)

    def _close(self) -> None:
        modal = QApplication.activeModalWidget()
        if modal is not None:
            self.seen.append((type(modal).__name__, modal.windowTitle()))
            modal.close()

    def __enter__(self):
        self.timer.start()
        return self

    def __exit__(self, *exc):
        settle(60)
        self._close()
        self.timer.stop()

    def titles(self) -> list[str]:
        return [title for _kind, title in self.seen]


def open_screen(window, module: str, *tabs: str):
    """The module opened, then each tab (by its text) clicked with the mouse; returns the module's page."""
    page = window.open_module(module)
    settle(100)
    root = page
    for text in tabs:
        widget = next(t for t in root.findChildren(QTabWidget) if t.isVisible()
                      and any(t.tabText(i).replace("&", "") == text for i in range(t.count())))
        index = next(i for i in range(widget.count()) if widget.tabText(i).replace("&", "") == text)
        click_tab(widget, index)
        root = widget.widget(index)
    return page


def enter_on(qtbot, table, row: int = 0) -> Modals:
    """Click `row` of `table` (RecordTable, PagedView or a view) on its viewport, then Enter on the view."""
    view = getattr(table, "view", table)
    qtbot.waitUntil(lambda: view.model().rowCount() > row, timeout=5000)
    activate(view.window())     # a dialog closed before: the window is the active one again, as on a desktop
    click_row(view, row)
    with Modals() as modals:
        QTest.keyClick(view, ENTER)
    return modals


def row_where(table, predicate) -> int:
    rows = table.model.rows() if hasattr(table.model, "rows") else table.loaded_rows()
    return next(i for i, r in enumerate(rows) if predicate(r))


def test_enter_on_an_art26_candidate_draws_up_its_auto(qtbot, window, monkeypatch):
    """The demonstration on the suite's day has no candidate (its no-shows lack a summons in term, issue 28): the
    lists are given one missed convocation and one overdue impediment."""
    from desktop.services import inspections
    from desktop.services.inspections import Art26Candidate

    def candidate(code, article):
        return Art26Candidate(code, article, None, "0007/2026", "", "Condutor de teste", None, inspections.today(),
                              "Não compareceu à vistoria", None)

    monkeypatch.setattr(inspections, "no_shows", lambda db, actor, first=None: [candidate("ART26-I", "Art. 26, I")])
    monkeypatch.setattr(inspections, "art26_ii_candidates",
                        lambda db, actor, on=None: [candidate("ART26-II", "Art. 26, II")])
    page = open_screen(window, "vistorias", "Ausências (Art. 26, I)")
    modals = enter_on(qtbot, page.no_show_table)
    assert modals.titles() == ["Novo auto de infração — Art. 26, I"]
    open_screen(window, "vistorias", "Prazo vencido (Art. 26, II)")
    modals = enter_on(qtbot, page.impeded_table)
    assert modals.titles() == ["Novo auto de infração — Art. 26, II"]


def test_enter_on_a_schedule_asks_to_end_it_and_on_a_blocked_day_to_unblock_it(qtbot, window):
    from datetime import timedelta

    from desktop.services import inspections

    page = open_screen(window, "vistorias", "Configuração")
    before = len(page.schedule_table.model.rows())
    modals = enter_on(qtbot, page.schedule_table)
    assert modals.titles() == ["Encerrar horário"]
    page.load_config()
    assert len(page.schedule_table.model.rows()) == before      # "No": nothing ended
    if not page.blocked_table.model.rows():
        inspections.block_day(window.db, window.actor, inspections.today() + timedelta(days=85), "Reforma", None)
        page.load_config()
    modals = enter_on(qtbot, page.blocked_table)
    assert modals.titles() == ["Desbloquear dia"]


def test_enter_on_a_catalogue_code_replaces_it_or_shows_it_whole(qtbot, window):
    page = open_screen(window, "fiscalizacao", "Catálogo de infrações")
    table = page.catalog_screen.table
    row = row_where(table, lambda c: c.valid_to is None)
    code = table.model.rows()[row].code
    modals = enter_on(qtbot, table, row)
    assert modals.titles() == [f"Encerrar e substituir {code}"]


def test_enter_on_a_ledger_entry_opens_its_auto(qtbot, window):
    page = open_screen(window, "financeiro", "Lançamentos")
    table = page.ledger_screen.table
    qtbot.waitUntil(lambda: table.model.rowCount() > 0, timeout=5000)
    row = row_where(table, lambda e: e.auto_id is not None)
    auto_id = table.loaded_rows()[row].auto_id
    enter_on(qtbot, table, row)
    assert window.current_module_key() == "fiscalizacao"
    fiscal = window.pages["fiscalizacao"]
    assert fiscal.stack.currentWidget() is fiscal.detail_screen and fiscal.detail_screen.auto_id == auto_id


def test_enter_on_a_ledger_entry_of_no_auto_opens_the_infractors_statement(qtbot, window, monkeypatch):
    """Every entry of the demonstration belongs to an auto; the list is given one of them as a payment of none."""
    from desktop.services import ledger

    real = ledger.ledger_page

    def page_of_one(db, actor, filter=ledger.LedgerFilter(), after=None, limit=200):  # noqa: A002
        first = real(db, actor, filter, after=None, limit=1).entries[0]
        return ledger.LedgerPage((first._replace(auto_id=None, auto_number=None),), None)

    monkeypatch.setattr(ledger, "ledger_page", page_of_one)
    page = open_screen(window, "financeiro", "Lançamentos")
    table = page.ledger_screen.table
    page.ledger_screen.reload()
    qtbot.waitUntil(lambda: table.model.rowCount() == 1, timeout=5000)
    entry = table.loaded_rows()[0]
    enter_on(qtbot, table, 0)
    assert page.tabs.currentWidget() is page.infractor_screen
    assert page.infractor_screen.infractor() == entry.infractor


def test_enter_on_issqn_rows_opens_the_platforms_vehicles_their_fares_and_the_open_month(qtbot, window, messages):
    page = open_screen(window, "financeiro", "ISSQN")
    issqn = page.issqn_page
    qtbot.waitUntil(lambda: issqn.totals.model.rowCount() > 0, timeout=5000)
    row = row_where(issqn.totals, lambda t: t.platform_id is not None)
    platform_id = issqn.totals.model.rows()[row].platform_id
    enter_on(qtbot, issqn.totals, row)
    assert issqn.platform_filter.currentData() == platform_id and focused() is issqn.shares.view
    assert {share.platform_id for share in issqn.shares.model.rows()} == {platform_id}
    modals = enter_on(qtbot, issqn.shares)
    assert any(kind == "ClassDecisionDialog" for kind, _title in modals.seen), modals.seen
    if issqn.unpaid.count():
        platform_id, competence = issqn.unpaid.item(0).data(Qt.ItemDataRole.UserRole)
        enter_on(qtbot, issqn.unpaid)
        month, year = (int(p) for p in competence.split("/"))
        assert issqn.month() == (year, month) and issqn.platform_filter.currentData() == platform_id
        assert focused() is issqn.shares.view
    assert messages == []


def test_enter_on_a_delivered_list_shows_its_reconciliation(qtbot, window):
    page = open_screen(window, "plataformas", "Listas (Art. 5º, VIII)")
    qtbot.waitUntil(lambda: page.lists.model.rowCount() > 0, timeout=5000)
    delivered = page.lists.model.rows()[0]
    enter_on(qtbot, page.lists)
    assert page.tabs.currentIndex() == 1
    assert delivered.filename in page.recon_title.text()
    assert focused() is page.reconciliation.view
    click_tab(page.tabs, 0)
    click_row(page.lists, 0, double=True)     # a double-click does what Enter does
    assert page.tabs.currentIndex() == 1


def test_enter_on_a_session_goes_to_its_convocations_and_on_a_convocation_to_its_step(qtbot, window):
    page = open_screen(window, "cursos", "Turmas e convocações")
    qtbot.waitUntil(lambda: page.sessions.model.rowCount() > 0, timeout=5000)
    row = row_where(page.sessions, lambda s: s.convoked > 0)
    enter_on(qtbot, page.sessions, row)
    assert focused() is page.attendances.view
    assert page.attendances.selected() is not None
    enter_on(qtbot, page.attendances)
    assert focused() in (page.present_list, page.reason_edit)
    if focused() is page.present_list:
        item = page.present_list.currentItem()
        before = item.checkState()
        QTest.keyClick(page.present_list, ENTER)
        assert item.checkState() != before


def test_enter_on_an_imported_trip_file_shows_its_report(qtbot, window):
    page = open_screen(window, "viagens", "Importar viagens")
    qtbot.waitUntil(lambda: page.imports_table.model.rowCount() > 0, timeout=5000)
    done = page.imports_table.model.rows()[0]
    enter_on(qtbot, page.imports_table)
    assert done.filename in page.report.toPlainText() and "passageiros" in page.report.toPlainText()


def test_enter_on_a_document_kind_goes_to_its_number_and_enter_there_issues(qtbot, window):
    page = open_screen(window, "relatorios", "Emitir documento")
    panel = page.issue_panel
    enter_on(qtbot, panel.kind_list, 0)
    assert focused() in (panel.id_edit, panel.date_edit) or panel.date_edit.isAncestorOf(focused())


def test_enter_on_a_pending_sticker_prints_that_sticker(qtbot, window):
    page = open_screen(window, "relatorios", "Adesivos pendentes")
    batch = page.batch_panel
    qtbot.waitUntil(lambda: batch.list.count() > 0, timeout=10000)
    number = batch.list.item(0).text()
    enter_on(qtbot, batch.list, 0)
    assert page.tabs.currentWidget() is page.issue_panel
    qtbot.waitUntil(lambda: getattr(page, "last_preview", None) is not None, timeout=20000)
    assert number in page.last_preview.windowTitle()


def test_enter_on_a_statistic_goes_into_its_figures(qtbot, window):
    page = open_screen(window, "relatorios", "Estatísticas")
    stats = page.statistics_panel
    qtbot.waitUntil(lambda: stats.grid.rowCount() > 0, timeout=20000)
    enter_on(qtbot, stats.list, 0)
    assert focused() is stats.grid


def test_enter_on_a_parameter_or_its_value_opens_new_value(qtbot, window):
    page = open_screen(window, "administracao", "Parâmetros")
    from desktop.views.admin.parameters import ParametersScreen

    screen = page.findChild(ParametersScreen)
    label = screen.current_spec().label
    modals = enter_on(qtbot, screen.keys, 0)
    assert modals.titles() == [f"Novo valor — {screen.current_spec().label}"]
    modals = enter_on(qtbot, screen.table, 0)
    assert modals.titles() == [f"Novo valor — {label}"] or screen.current_spec().label != label


def test_enter_on_a_municipal_holiday_asks_the_reason_to_remove_it(qtbot, window):
    from datetime import date

    from desktop.services import holidays

    page = open_screen(window, "administracao", "Feriados municipais")
    from desktop.views.admin.holidays import HolidaysScreen

    screen = page.findChild(HolidaysScreen)
    if not screen.municipal.model.rows():
        holidays.add_holiday(window.db, window.actor, date(screen.year, 11, 20), "Consciência Negra (municipal)")
        screen.reload()
    before = [h.active for h in screen.municipal.model.rows()]
    modals = enter_on(qtbot, screen.municipal, 0)
    assert modals.titles() == ["Remover feriado"]
    screen.reload()
    assert [h.active for h in screen.municipal.model.rows()] == before   # cancelled: nothing removed


def test_enter_on_a_code_the_user_may_not_replace_shows_it_whole(qtbot, window, messages):
    from desktop.domain.roles import Role
    from desktop.services import auth, users
    from desktop.views.enforcement.catalog_view import CatalogScreen

    users.create_user(window.db, window.actor, users.UserDraft("fiscal2", "Fábio Fiscal", frozenset({Role.FISCAL}),
                                                               "senha-do-fiscal-2026"))
    fiscal = auth.login(window.db, "fiscal2", "senha-do-fiscal-2026")
    screen = CatalogScreen(window.db, fiscal)
    qtbot.addWidget(screen)
    activate(screen)
    code = screen.table.model.rows()[0]
    click_row(screen.table, 0, double=True)      # a double-click does what Enter does
    assert messages and messages[-1][1] == f"Infração {code.code}" and code.article in messages[-1][2]
    messages.clear()
    click_row(screen.table, 0)
    QTest.keyClick(screen.table.view, ENTER)
    assert messages and messages[-1][1] == f"Infração {code.code}"
