"""Issue 2: log in (5 wrong passwords lock the account for 15 minutes); the main window shows every module of
SPEC, says plainly which are not built yet, and shows user, roles and database in the status bar."""
from __future__ import annotations

from PySide6.QtCore import Qt

from desktop.domain.roles import Role
from desktop.views.login import LoginDialog
from desktop.views.main_window import MainWindow

ADMIN_USER, ADMIN_PASSWORD = "admin", "senha-forte-2025"  # as created by the `admin` fixture (conftest)

EIGHT_MODULES = ["Cadastros", "Autorizações", "Vistorias", "Fiscalização", "Financeiro/ISSQN", "Plataformas",
                 "Cursos", "Viagens", "Correspondência", "Relatórios", "Administração"]   # issues 16, 15, 26


def login_dialog(qtbot, db, user, password):
    dialog = LoginDialog(db)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.username_edit.setText(user)
    dialog.password_edit.setText(password)
    return dialog


def test_login_with_the_right_password_gives_the_actor(qtbot, db, admin):
    dialog = login_dialog(qtbot, db, ADMIN_USER, ADMIN_PASSWORD)
    assert db.describe() in dialog.database_label.text()
    assert dialog.login_button.text() == "&Entrar"     # Alt+E (issue 29 point 5)
    qtbot.mouseClick(dialog.login_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == LoginDialog.DialogCode.Accepted
    assert dialog.actor.username == ADMIN_USER
    assert Role.ADMINISTRADOR in dialog.actor.roles


def test_wrong_password_says_so_and_keeps_the_dialog_open(qtbot, db, admin):
    dialog = login_dialog(qtbot, db, ADMIN_USER, "errada-123")
    qtbot.mouseClick(dialog.login_button, Qt.MouseButton.LeftButton)
    assert dialog.actor is None
    assert dialog.isVisible()
    assert dialog.message.text().startswith("Usuário ou senha incorretos.")
    assert dialog.password_edit.hasSelectedText(), "ready to type the password again"


def test_five_wrong_passwords_lock_the_account_with_the_time(qtbot, db, admin):
    """Issue 2: 5 wrong passwords lock the account for 15 minutes; the message says until when."""
    dialog = login_dialog(qtbot, db, ADMIN_USER, "errada-123")
    for _ in range(5):
        dialog.try_login()
    text = dialog.message.text()
    assert "bloqueada" in text
    assert "até" in text and ":" in text  # dd/mm/aaaa hh:mm
    dialog.password_edit.setText(ADMIN_PASSWORD)  # even the right password is refused while locked
    assert not dialog.try_login()
    assert "bloqueada" in dialog.message.text()


def test_inactive_user_cannot_log_in(qtbot, db, admin):
    from desktop.services import users

    users.create_user(db, admin, users.UserDraft("joao.fiscal", "João Fiscal", frozenset({Role.FISCAL}),
                                                 "senha-do-joao-1", active=False))
    dialog = login_dialog(qtbot, db, "joao.fiscal", "senha-do-joao-1")
    assert not dialog.try_login()
    assert dialog.message.isVisible()
    assert dialog.message.text()  # the service's Portuguese message
    assert dialog.actor is None


def test_main_window_shows_the_eight_modules_and_the_status_bar(qtbot, db, admin):
    window = MainWindow(db, admin)
    qtbot.addWidget(window)
    window.show()
    assert window.module_labels() == EIGHT_MODULES
    assert window.user_label.text() == "Usuário: Ana Administradora (admin)"
    assert window.roles_label.text() == "Perfis: Gestor, Administrador"
    # issue 27: the label fits the status bar (the file's name); the whole path is its tooltip
    assert window.database_label.toolTip() == f"Banco de dados: {db.describe()}"
    assert window.database_label.text().startswith("Banco de dados: SQLite: ")
    assert window.database_label.text().endswith("transporte.sqlite3")
    menus = [action.text() for action in window.menuBar().actions()]
    assert menus == ["&Arquivo", "&Ir", "Aj&uda"]     # issue 29: the modules' keys in their own menu


def test_modules_not_built_yet_say_so_plainly(qtbot, db, admin):
    """Issue 2: a module that is not part of this version says so plainly (no fake content)."""
    from desktop.views.main_window import MODULES, UnavailableModulePage

    window = MainWindow(db, admin)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.pages == {}, "no module screen is created before the user chooses it"
    assert window.sidebar.currentRow() == 0 and window.sidebar.item(0).text() == "Início"   # issue 27 point 4
    for module in MODULES:
        assert (module.factory is None) == bool(module.unavailable), f"{module.key}: a screen or a plain message"
    not_built = [m for m in MODULES if m.factory is None]
    for module in not_built:
        page = window.open_module(module.key)
        assert isinstance(page, UnavailableModulePage)
        assert page.message.text().startswith(f"Módulo {module.label}: ainda não disponível nesta versão.")
        assert "Será entregue com" in page.message.text()
    assert list(window.pages) == [m.key for m in not_built], "only the modules opened were created"


def test_administration_is_shown_to_the_administrator_with_its_tabs(qtbot, db, admin):
    window = MainWindow(db, admin)
    qtbot.addWidget(window)
    page = window.open_module("administracao")
    assert page.tab_titles() == ["Usuários", "Parâmetros", "Feriados municipais", "Município", "Banco de dados",
                                 "Cópias de segurança"]


def test_a_clerk_does_not_see_administration(qtbot, db, admin):
    from desktop.services import auth, users

    users.create_user(db, admin, users.UserDraft("carla", "Carla Atendente", frozenset({Role.ATENDENTE}),
                                                 "senha-da-carla-1"))
    clerk = auth.login(db, "carla", "senha-da-carla-1")
    window = MainWindow(db, clerk)
    qtbot.addWidget(window)
    assert window.module_labels() == [m for m in EIGHT_MODULES if m not in ("Viagens", "Administração")]
    assert window.roles_label.text() == "Perfis: Atendente"


def test_provisional_password_must_be_changed_at_the_next_login(qtbot, db, admin, monkeypatch):
    """services.users.reset_password: the user must change the administrator's password at the next log in."""
    from desktop.services import auth, users
    from desktop.views.password import ChangePasswordDialog

    carla = users.create_user(db, admin, users.UserDraft("carla", "Carla Atendente", frozenset({Role.ATENDENTE}),
                                                         "senha-da-carla-1"))
    users.reset_password(db, admin, carla.id, "provisoria-123")
    shown = []

    def choose_new_password(dialog):
        shown.append(dialog.old_edit.text())
        dialog.new_edit.setText("minha-senha-2026")
        dialog.confirm_edit.setText("minha-senha-2026")
        return ChangePasswordDialog.DialogCode.Accepted if dialog.save() else ChangePasswordDialog.DialogCode.Rejected

    monkeypatch.setattr(ChangePasswordDialog, "exec", choose_new_password)
    dialog = login_dialog(qtbot, db, "carla", "provisoria-123")
    assert dialog.try_login()
    assert shown == ["provisoria-123"], "the provisional password is already filled in"
    assert users.find_user(db, "carla").must_change_password is False
    assert auth.login(db, "carla", "minha-senha-2026").username == "carla"


def test_login_refused_while_the_provisional_password_is_kept(qtbot, db, admin, monkeypatch):
    from desktop.services import users
    from desktop.views.password import ChangePasswordDialog

    carla = users.create_user(db, admin, users.UserDraft("carla", "Carla", frozenset({Role.ATENDENTE}),
                                                         "senha-da-carla-1"))
    users.reset_password(db, admin, carla.id, "provisoria-123")
    monkeypatch.setattr(ChangePasswordDialog, "exec", lambda d: ChangePasswordDialog.DialogCode.Rejected)
    dialog = login_dialog(qtbot, db, "carla", "provisoria-123")
    assert not dialog.try_login()
    assert dialog.actor is None
    assert "troque a senha provisória" in dialog.message.text()
