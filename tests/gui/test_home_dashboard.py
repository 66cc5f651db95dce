"""Issue 16: the home page shows a tile per item for the user's roles; clicking each opens its module with the
list behind it; the 24-hour data-request tile counts down."""
from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "db"))
from dashboard_factories import populate  # noqa: E402

from desktop.views.main_window import MainWindow  # noqa: E402


def _window(qtbot, db, actor):
    window = MainWindow(db, actor)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.home.board is not None, timeout=10000)
    return window


def _click(qtbot, window, key):
    qtbot.mouseClick(window.home.buttons[key], Qt.MouseButton.LeftButton)
    return window.stack.currentWidget()


def test_every_tile_opens_its_filtered_list(qtbot, db, admin):
    ids = populate(db)
    window = _window(qtbot, db, admin)        # the first administrator is also gestor: every tile
    home = window.home
    assert home.tile_keys()[:3] == ["renewal", "expiring", "last_service_year"]
    assert "1" in home.buttons["renewal"].label.text() and "Último dia para pedir no prazo" in \
        home.buttons["renewal"].label.text()

    for key, due, expected in (("renewal", "renewal", {ids["renewal"]}),
                               ("last_service_year", "last_service_year", {ids["last_year"]}),
                               ("convocation", "convocation", {ids["convocation"]}),
                               ("impeded", "impeded", {ids["impeded_running"], ids["impeded_ended"]})):
        page = _click(qtbot, window, key)
        screen = page.authorizations
        assert screen.due == due and screen.due_banner.isVisibleTo(page)
        assert {r.id for r in screen.list.visible_rows()} == expected, key
    screen.due_clear.click()
    assert screen.due == "" and len(screen.list.visible_rows()) > 4

    for key, expected in (("defense_week", ids["defense"]), ("appeal_week", ids["appeal"]),
                          ("judgment", ids["judgment"])):
        page = _click(qtbot, window, key)
        qtbot.waitUntil(lambda: [r.id for r in page.list_screen.rows()] == [expected], timeout=10000)
        assert page.list_screen.due == key

    page = _click(qtbot, window, "changes")
    assert page.tabs.currentWidget() is page.changes_screen

    page = _click(qtbot, window, "driver_documents")
    assert [r.id for r in page.drivers.list.visible_rows()] == [ids["documents_driver"]]

    page = _click(qtbot, window, "annual_due")
    assert page.tabs.currentIndex() == 1
    assert [r.authorization_id for r in page.annual_table.visible_rows()] == [ids["annual"]]

    page = _click(qtbot, window, "overdue")
    assert page.tabs.currentWidget() is page.overdue_screen

    page = _click(qtbot, window, "data_requests")
    assert page.tabs.currentIndex() == 2 and page.platform_id == ids["platform"]

    page = _click(qtbot, window, "platform_lists")
    assert page.tabs.currentIndex() == 0

    page = _click(qtbot, window, "stickers")
    assert page.tabs.currentWidget() is page.batch_panel

    page = _click(qtbot, window, "course_absences")
    assert page.tabs.currentWidget() is page.absences_tab
    assert [a.attendance_id for a in page.absences.visible_rows()] == [ids["absence"]]

    page = _click(qtbot, window, "checkpoint")
    assert window.stack.currentWidget() is window.pages["administracao"]

    page = _click(qtbot, window, "backup")
    assert page.tabs.currentWidget() is page.screens["Cópias de segurança"]


def test_the_24_hour_term_counts_down_and_data_changes_reload(qtbot, db, admin):
    populate(db)
    window = _window(qtbot, db, admin)
    home = window.home
    assert home.countdown_timer.isActive() and home.countdown_timer.interval() == 1000
    button = home.buttons["data_requests"]
    home.tick()
    assert "faltam 0" in button.label.text()
    first = home.board
    from desktop.signals import bus

    bus.data_changed.emit("autos")
    qtbot.waitUntil(lambda: home.board is not first, timeout=10000)


def test_a_clerk_sees_only_the_front_desk_tiles(qtbot, db, admin):
    from desktop.domain.roles import Role
    from desktop.services import auth, users

    users.create_user(db, admin, users.UserDraft("carla", "Carla Atendente", frozenset({Role.ATENDENTE}),
                                                 "senha-da-carla-1"))
    window = _window(qtbot, db, auth.login(db, "carla", "senha-da-carla-1"))
    keys = window.home.tile_keys()
    assert "renewal" in keys and "judgment" not in keys and "checkpoint" not in keys


def test_the_page_reloads_when_the_day_turns(qtbot, db, admin):
    """Issue 16: at midnight the terms move (a defense term ending "this week", a 30-day window): the minute
    check sees the new day and reads the dashboard again."""
    from datetime import datetime

    from desktop.domain import clock

    populate(db)
    window = _window(qtbot, db, admin)
    home = window.home
    assert home.day_timer.isActive()
    first = home.board
    home.check_day()                      # same day: nothing to do
    assert home.board is first and (home.task is None or home.task.finished)
    with clock.frozen(datetime(2026, 11, 19, 0, 1)):
        home.check_day()
        qtbot.waitUntil(lambda: home.board is not first, timeout=10000)
        assert home.board.as_of.date().isoformat() == "2026-11-19"


def test_art22_the_correspondence_tiles_open_the_desk_filtered(qtbot, db, admin):
    """Issue 26: a notice waiting for the post shows on its tile; a click opens Correspondência with that list."""
    from datetime import timedelta

    from desktop.domain.dates import local_today
    from desktop.services import correspondence as desk
    from tests.db.correspondence_factories import auto_with_notice

    from desktop.domain.roles import Role
    from desktop.services import auth, users

    users.create_user(db, admin, users.UserDraft("fabio", "Fábio Fiscal", frozenset({Role.FISCAL}),
                                                 "senha-do-fabio-1", office="Fiscal", registration="M-1"))
    fiscal = auth.login(db, "fabio", "senha-do-fabio-1")
    auto, issued = auto_with_notice(db, fiscal, local_today() - timedelta(days=1))
    waiting = desk.register_auto_notice(db, fiscal, auto.id, issued.info.id)
    window = _window(qtbot, db, admin)
    home = window.home
    for key in ("dispatch_waiting", "ars_overdue", "emails_unanswered", "for_edital"):
        assert key in home.tile_keys()
    assert "Notificações aguardando envio" in home.buttons["dispatch_waiting"].label.text()
    page = _click(qtbot, window, "dispatch_waiting")
    assert window.stack.currentWidget() is window.pages["correspondencia"]
    assert page.list.status_combo.currentData() == "pending"
    assert [r.code for r in page.list.visible_rows()] == [waiting.code]
    window.go_home()
    page = _click(qtbot, window, "for_edital")
    assert page.list.status_combo.currentData() == "for_edital" and page.list.visible_rows() == []
