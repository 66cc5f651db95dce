"""Administração → Cópias de segurança (issue 17): the administrator chooses the folder, makes a copy now, sees
it verified in the list, and restores it; the status bar of the main window shows the day's automatic copy."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from desktop.domain.roles import Role
from desktop.services import auto_backup, users
from desktop.views.admin.page import AdministrationPage


def screen(qtbot, db, actor):
    page = AdministrationPage(db, actor)
    qtbot.addWidget(page)
    tab = page.show_tab("Cópias de segurança")
    tab.keep_page_alive = page
    return tab


def test_folder_copy_now_list_and_restore(qtbot, db, admin, tmp_path, messages):
    from hands import activate, click_button, click_row, in_modal, type_into

    tab = screen(qtbot, db, admin)
    activate(tab.keep_page_alive)
    assert "não configuradas" in tab.state_label.text() and not tab.now_button.isEnabled()
    # a folder that does not exist: the message sits next to the field, nothing saved
    type_into(tab.folder_edit, str(tmp_path / "nao-existe"))
    click_button(tab.save_button)
    assert "não existe" in tab.folder_error.text()
    assert auto_backup.configured_folder() is None
    folder = tmp_path / "copias"
    folder.mkdir()
    type_into(tab.folder_edit, str(folder))
    click_button(tab.save_button)
    assert auto_backup.configured_folder() == folder.resolve() and tab.now_button.isEnabled()
    assert "Nenhuma cópia" in tab.state_label.text()

    click_button(tab.now_button)
    qtbot.waitUntil(lambda: len(tab.table.visible_rows()) == 1, timeout=20000)
    copy = tab.table.visible_rows()[0]
    assert copy.verified and copy.kept_by == "diária"
    assert "verificada" in tab.state_label.text()
    assert tab.table.model.rowCount() == 1

    users.create_user(db, admin, users.UserDraft("depois.da.copia", "Depois", frozenset({Role.FISCAL}),
                                                 "senha-depois-1"))
    restored, asked = [], []
    tab.after_restore = lambda: restored.append(True)
    click_row(tab.table, 0)
    assert tab.restore_button.isEnabled()

    def answer(which):
        def work(box):
            asked.append(box.text())
            click_button(box.button(which))     # «Não» / «Sim» in the office's Portuguese
        return work

    # «Restaurar esta cópia…» asks first (a click once restored without asking: `clicked` handed False to
    # restore_selected(confirm)); No keeps the database as it is
    done = in_modal(QMessageBox, answer(QMessageBox.StandardButton.No))
    click_button(tab.restore_button)
    done.check()
    assert asked and "Substituir o banco de dados atual" in asked[-1] and restored == []
    assert "depois.da.copia" in {u.username for u in users.list_users(db, admin)}
    done = in_modal(QMessageBox, answer(QMessageBox.StandardButton.Yes))
    click_button(tab.restore_button)
    done.check()
    assert len(asked) == 2 and restored == [True]
    assert messages[-1][1] == "Cópia restaurada"
    assert "depois.da.copia" not in {u.username for u in users.list_users(db, admin)}


def test_only_the_administrator_sees_the_tab(qtbot, db, admin):
    from desktop.services.actors import Actor

    gestor = Actor(admin.user_id, admin.username, admin.full_name, frozenset({Role.GESTOR}))
    page = AdministrationPage(db, gestor)
    qtbot.addWidget(page)
    assert "Cópias de segurança" not in page.tab_titles()


def test_main_window_status_bar_shows_the_days_copy(qtbot, db, admin, tmp_path):
    from desktop.views.main_window import MainWindow

    window = MainWindow(db, admin)
    qtbot.addWidget(window)
    outcome = auto_backup.run_auto_backup(db, admin, folder=tmp_path / "desligado")
    window.show_backup_outcome(outcome)
    assert window.backup_label.text() == "Cópia de segurança do dia: ATENÇÃO"
    assert "não está acessível" in window.backup_label.toolTip()
    good = auto_backup.run_auto_backup(db, admin, folder=tmp_path)
    window.show_backup_outcome(good)
    assert window.backup_label.text() == "Cópia de segurança do dia: ok"
