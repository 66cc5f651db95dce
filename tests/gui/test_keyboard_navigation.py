"""The clerk's keyboard on the main window and on forms (issue 29 points 3–5, issue 27 points 3–4), with real keys:
module shortcuts, the sidebar's arrows and Enter, Ctrl+F / Ctrl+N / Esc, "Trocar usuário…", the window on the
screen, and "Descartar os dados digitados?" on Esc, Cancelar and Ctrl+Q."""
from __future__ import annotations

from PySide6.QtWidgets import QApplication, QDialog, QPlainTextEdit, QVBoxLayout, QWidget

from hands import activate, click, click_button, find_button, focused, in_modal, press, settle, type_into, type_text


def _window(qtbot, db, actor):
    from desktop.views.main_window import MainWindow

    window = MainWindow(db, actor)
    qtbot.addWidget(window)
    window.resize(1366, 728)
    activate(window)
    return window


def test_ctrl_digits_open_the_modules_and_ctrl_0_goes_home(qtbot, db, admin):
    window = _window(qtbot, db, admin)
    assert window.sidebar_labels()[0] == "Início" and window.stack.currentWidget() is window.home
    press("Ctrl+1")
    assert window.current_module_key() == "cadastros"
    press("Ctrl+Shift+A")
    assert window.current_module_key() == "administracao"
    press("Ctrl+0")
    assert window.stack.currentWidget() is window.home and window.sidebar.currentRow() == 0


def test_the_sidebar_arrows_move_without_opening_and_enter_or_a_click_opens(qtbot, db, admin):
    window = _window(qtbot, db, admin)
    window.sidebar.setFocus()
    press("Down", "Down")
    assert window.pages == {} and window.stack.currentWidget() is window.home   # nothing opened by passing
    press("Return")
    assert window.current_module_key() == window.modules[1].key
    item = window.sidebar.item(1)
    click(window.sidebar.viewport(), window.sidebar.visualItemRect(item).center())
    assert window.current_module_key() == window.modules[0].key
    click(window.sidebar.viewport(), window.sidebar.visualItemRect(window.sidebar.item(0)).center())
    assert window.stack.currentWidget() is window.home


def test_ctrl_f_goes_to_the_filter_and_ctrl_n_opens_the_new_record(qtbot, db, admin):
    window = _window(qtbot, db, admin)
    window.open_module("administracao")
    settle(100)
    press("Ctrl+F")
    edit = focused()
    assert edit is not None and edit.placeholderText().lower().startswith("filtrar")
    done = in_modal(QDialog, lambda dialog: dialog.close())
    press("Ctrl+N")
    assert "usuário" in done.check().windowTitle().lower()


def test_f2_edits_the_row_chosen_with_the_mouse(qtbot, db, admin):
    """Issue 29 point 5: F2 is the record's "Editar…" — here a user chosen in Administração → Usuários."""
    from hands import click_row

    window = _window(qtbot, db, admin)
    window.open_module("administracao")
    settle(100)
    users = window.pages["administracao"].show_tab("Usuários")
    press("F2")                       # nothing chosen yet: "Editar…" is disabled, F2 does nothing
    assert QApplication.activeModalWidget() is None
    click_row(users.table, 0)
    done = in_modal(QDialog, lambda dialog: dialog.close())
    press("F2")
    assert done.check().windowTitle() == "Editar usuário"


def test_switch_user_goes_back_to_the_login_without_closing_the_program(qtbot, db, admin, credentials):
    window = _window(qtbot, db, admin)
    file_menu = window.menuBar().actions()[0].menu()
    texts = [a.text() for a in file_menu.actions()]
    assert "&Trocar usuário…" in texts
    window.switch_user_action.trigger()
    login = window.relogin
    qtbot.addWidget(login)
    assert login.isVisible() and not window.isVisible()
    user, password = credentials
    type_into(login.username_edit, user)
    type_into(login.password_edit, password)
    press("Return")
    qtbot.waitUntil(lambda: window.successor is not None, timeout=5000)
    qtbot.addWidget(window.successor)
    assert window.successor.actor.username == user and window.successor.isVisible()


def test_the_window_fits_the_screen_and_remembers_being_maximized_per_user(qtbot, db, admin):
    from PySide6.QtGui import QGuiApplication

    from desktop.views.main_window import MainWindow

    free = QGuiApplication.primaryScreen().availableGeometry()
    window = MainWindow(db, admin)
    qtbot.addWidget(window)
    assert window.width() <= min(1366, free.width()) and window.height() <= min(728, free.height())
    window.show_as_remembered()
    window.showMaximized()
    window.remember_geometry()
    window.close()
    again = MainWindow(db, admin)
    qtbot.addWidget(again)
    again.show_as_remembered()
    assert again.isMaximized()
    again.showNormal()
    again.remember_geometry()
    third = MainWindow(db, admin)
    qtbot.addWidget(third)
    third.show_as_remembered()
    assert not third.isMaximized() and free.contains(third.geometry())    # never drawn outside the screen


def test_enter_on_a_focused_button_presses_it_outside_dialogs(qtbot):
    from PySide6.QtWidgets import QPushButton

    from desktop.views import keyboard

    keyboard.install()
    host = QWidget()
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    pressed = []
    button = QPushButton("Atualizar", host)
    button.clicked.connect(lambda: pressed.append(1))
    layout.addWidget(button)
    activate(host)
    button.setFocus()
    press("Return")
    qtbot.waitUntil(lambda: pressed == [1], timeout=2000)


def test_tab_leaves_a_multi_line_field(qtbot):
    from PySide6.QtWidgets import QLineEdit

    from desktop.views import keyboard

    keyboard.install()
    host = QWidget()
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    text, after = QPlainTextEdit(host), QLineEdit(host)
    layout.addWidget(text)
    layout.addWidget(after)
    activate(host)
    click(text)
    type_text("Descrição")
    press("Tab")
    assert focused() is after and "\t" not in text.toPlainText()


def test_esc_on_the_auto_form_with_typed_data_asks_before_discarding(qtbot, db, admin, discard_box):
    """Was: Esc closed "Novo auto de infração" at once, with date, place, driver and description gone."""
    from desktop.views.enforcement.auto_form import AutoFormDialog

    dialog = AutoFormDialog(db, admin)
    qtbot.addWidget(dialog)
    activate(dialog)
    type_into(dialog.place_edit, "Praça Dom Wunibaldo")
    discard_box.answer = "keep"
    press("Esc", widget=dialog.place_edit)
    assert dialog.isVisible() and discard_box.seen and "Descartar os dados digitados?" in discard_box.seen[-1]
    assert dialog.place_edit.text() == "Praça Dom Wunibaldo"
    cancel = find_button(dialog, "Cancelar")
    click_button(cancel)
    settle(50)
    assert dialog.isVisible() and len(discard_box.seen) == 2
    discard_box.answer = "discard"
    press("Esc", widget=dialog.place_edit)
    assert not dialog.isVisible()


def test_esc_on_an_untouched_form_closes_without_asking(qtbot, db, admin, discard_box):
    from desktop.views.enforcement.auto_form import AutoFormDialog

    dialog = AutoFormDialog(db, admin)
    qtbot.addWidget(dialog)
    activate(dialog)
    dialog.place_edit.setFocus()
    press("Esc")
    assert not dialog.isVisible() and discard_box.seen == []


def test_esc_on_the_driver_wizard_with_page_one_filled_asks(qtbot, db, admin, discard_box):
    from desktop.views.registry.driver_wizard import DriverWizard

    wizard = DriverWizard(db, admin)
    qtbot.addWidget(wizard)
    activate(wizard)
    type_into(wizard.personal_page.name_edit, "Maria da Conceição")
    discard_box.answer = "keep"
    press("Esc", widget=wizard.personal_page.name_edit)
    assert wizard.isVisible() and discard_box.seen
    assert wizard.personal_page.name_edit.text() == "Maria da Conceição"
    discard_box.answer = "discard"
    press("Esc", widget=wizard.personal_page.name_edit)
    assert not wizard.isVisible()


def test_ctrl_q_asks_when_a_dialog_has_typed_data(qtbot, db, admin, discard_box):
    window = _window(qtbot, db, admin)
    from desktop.views.enforcement.auto_form import AutoFormDialog

    dialog = AutoFormDialog(db, admin, parent=window)
    qtbot.addWidget(dialog)
    dialog.setModal(False)
    activate(dialog)
    type_into(dialog.place_edit, "Rua 1")
    activate(window)
    discard_box.answer = "keep"
    window.quit_action.trigger()
    assert window.isVisible() and discard_box.seen
    assert QApplication.activeModalWidget() is None


def _tab_walk(window, first, presses=60):
    """The widgets the focus visits from `first`, pressing Tab."""
    first.setFocus()
    seen = []
    for _ in range(presses):
        seen.append(focused())
        press("Tab")
    return seen


def test_tab_order_of_the_auto_form_has_no_invisible_stop_and_reaches_the_save_button(qtbot, db, admin):
    """Was: the scroll area was a Tab stop and Descrição ate Tab; "Agente", "Provas" and "Lavrar auto" were
    reachable only backwards."""
    from PySide6.QtWidgets import QScrollArea

    from desktop.views.enforcement.auto_form import AutoFormDialog

    dialog = AutoFormDialog(db, admin)
    qtbot.addWidget(dialog)
    activate(dialog)
    seen = _tab_walk(dialog, dialog.date_edit)
    invisible = [w for w in seen if w is not None and (not w.isVisible() or isinstance(w, QScrollArea))]
    assert invisible == []
    assert dialog.description_edit in seen and dialog.agent_combo in seen
    assert "\t" not in dialog.description_edit.toPlainText()
    texts = {w.text().replace("&", "") for w in seen if hasattr(w, "text") and callable(w.text)
             and isinstance(w.text(), str)}
    assert any(t.startswith("Lavrar") for t in texts), texts


def test_home_page_tab_stops_are_tiles_not_the_scroll_area(qtbot, db, admin):
    from PySide6.QtWidgets import QScrollArea

    window = _window(qtbot, db, admin)
    settle(300)
    seen = _tab_walk(window, window.home, presses=20)
    assert not [w for w in seen if isinstance(w, QScrollArea)]
    assert window.pages == {}, "tabbing through the home opened no module"


def test_every_menu_item_has_a_mnemonic_unique_in_its_menu(qtbot, db, admin):
    window = _window(qtbot, db, admin)
    titles = [a.text() for a in window.menuBar().actions()]
    assert all("&" in t for t in titles) and len({t[t.index("&") + 1].lower() for t in titles}) == len(titles)
    for title_action in window.menuBar().actions():
        actions = [a for a in title_action.menu().actions() if not a.isSeparator()]
        letters = []
        for action in actions:
            assert "&" in action.text(), f"{title_action.text()} → {action.text()} has no mnemonic"
            letters.append(action.text()[action.text().index("&") + 1].lower())
        assert len(letters) == len(set(letters)), f"{title_action.text()}: {letters}"


def test_with_mnemonics_gives_unique_letters():
    from desktop.views.keyboard import with_mnemonics

    labels = with_mnemonics(["Início", "Cadastros", "Autorizações", "&Cursos", "Cópias"])
    letters = [label[label.index("&") + 1].lower() for label in labels]
    assert labels[3] == "&Cursos" and len(set(letters)) == len(letters)
