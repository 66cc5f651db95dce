"""Administração → Usuários: list, create, edit roles, reset password, unlock, activate/deactivate (issue 2).

Every action is a call to `services.users` (administrador only, enforced there).
"""
from __future__ import annotations

from datetime import datetime, timezone

from PySide6.QtWidgets import (QCheckBox, QDialog, QGroupBox, QHBoxLayout,
                               QLabel, QLineEdit, QMessageBox, QPushButton, QVBoxLayout, QWidget)

from desktop.domain.problems import Problem
from desktop.domain.roles import Role
from desktop.views.formatting import format_datetime
from desktop.views.main_window import roles_text
from desktop.views.table import Column, RecordTable
from desktop.views.operations import op
from desktop.views.widgets import FormDialog
from desktop.domain.entities import Entity
from desktop.services import users
from desktop.signals import bus


def is_locked(user, now: datetime | None = None) -> bool:
    if user.locked_until is None:
        return False
    now = now or datetime.now(timezone.utc)
    until = user.locked_until if user.locked_until.tzinfo else user.locked_until.replace(tzinfo=timezone.utc)
    return until > now


def situation(user) -> str:
    if not user.active:
        return "Inativo"
    if is_locked(user):
        return f"Bloqueado até {format_datetime(user.locked_until)}"
    return "Ativo"


COLUMNS = (
    Column("Nome de acesso", lambda u: u.username),
    Column("Nome completo", lambda u: u.full_name),
    Column("Perfis", lambda u: roles_text(u.roles)),
    Column("Situação", situation),
    Column("Senhas erradas", lambda u: u.failed_logins),
    Column("Cargo", lambda u: u.office),
    Column("Matrícula", lambda u: u.registration),
)


class UserDialog(FormDialog):
    """Create a user (with the first password) or edit one (name, roles, active). Saves through the service."""

    def __init__(self, db, actor, user=None, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.user = db, actor, user
        self.saved = None
        self.stale = False
        self.setWindowTitle("Editar usuário" if user else "Novo usuário")
        self.setMinimumWidth(460)
        self.username_edit = QLineEdit(user.username if user else "", self)
        self.username_edit.setReadOnly(user is not None)
        self.full_name_edit = QLineEdit(user.full_name if user else "", self)
        # issue 28: what an act signed by this user prints under the name (Lei 9.784/99, art. 22, §1º)
        self.office_edit = QLineEdit(user.office if user else "", self)
        self.office_edit.setPlaceholderText("ex.: Fiscal de Tributos Municipais")
        self.registration_edit = QLineEdit(user.registration if user else "", self)
        self.registration_edit.setPlaceholderText("matrícula funcional, não o nome de acesso")
        self.role_checks: dict[Role, QCheckBox] = {}
        roles_box = QGroupBox("Perfis", self)
        roles_layout = QVBoxLayout(roles_box)
        for role in Role:
            check = QCheckBox(role.label, roles_box)
            check.setChecked(bool(user) and role in user.roles)
            roles_layout.addWidget(check)
            self.role_checks[role] = check
        note = QLabel("O Administrador cuida de usuários e configurações; as decisões legais são do Gestor.",
                      roles_box)
        note.setWordWrap(True)
        note.setStyleSheet("color: #555;")
        roles_layout.addWidget(note)
        self.active_check = QCheckBox("Ativo (pode entrar no sistema)", self)
        self.active_check.setChecked(user.active if user else True)
        self.password_edit = QLineEdit(self)
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.confirm_edit = QLineEdit(self)
        self.confirm_edit.setEchoMode(QLineEdit.EchoMode.Password)

        rows = [("username", "Nome de acesso:", self.username_edit),
                ("full_name", "Nome completo:", self.full_name_edit),
                ("office", "Cargo:", self.office_edit),
                ("registration", "Matrícula:", self.registration_edit),
                ("roles", "", roles_box), ("active", "", self.active_check)]
        if user is None:
            rows += [("password", "Senha inicial:", self.password_edit),
                     ("password_confirm", "Confirme a senha:", self.confirm_edit)]
        else:  # an existing user's password is changed by "Redefinir senha…", not here
            self.password_edit.hide()
            self.confirm_edit.hide()
        self.build_form(rows)

    def roles(self) -> frozenset[Role]:
        return frozenset(role for role, check in self.role_checks.items() if check.isChecked())

    def save(self) -> bool:

        if self.user is None and self.password_edit.text() != self.confirm_edit.text():
            self.errors.show([Problem("password_confirm", "A confirmação não é igual à senha.")])
            return False
        draft = users.UserDraft(username=self.username_edit.text().strip(),
                                full_name=self.full_name_edit.text().strip(), roles=self.roles(),
                                password=self.password_edit.text() if self.user is None else None,
                                active=self.active_check.isChecked(), office=self.office_edit.text().strip(),
                                registration=self.registration_edit.text().strip())
        if self.user is None:
            call = lambda: users.create_user(self.db, self.actor, draft)  # noqa: E731
        else:
            user_id, version = self.user.id, self.user.version
            call = lambda: users.update_user(self.db, self.actor, user_id, draft, version)  # noqa: E731
        return op(self, call).fields(self.errors).stale(self._stale, ask=False).changes(Entity.USERS) \
            .success(self._saved).run()

    def _saved(self, user) -> None:
        self.saved = user
        self.accept()

    def _stale(self) -> None:
        """Another desk saved this user first: close; the list shows the current version."""
        self.stale = True
        self.reject()


class PasswordDialog(FormDialog):
    """The administrator sets a new password for a user (services.users.reset_password)."""

    def __init__(self, db, actor, user, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.user = db, actor, user
        self.setWindowTitle(f"Redefinir senha — {user.username}")
        self.setMinimumWidth(420)
        self.password_edit = QLineEdit(self)
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.confirm_edit = QLineEdit(self)
        self.confirm_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.build_form([("password", "Nova senha:", self.password_edit),
                         ("password_confirm", "Confirme a senha:", self.confirm_edit)],
                        intro=QLabel(f"Usuário: {user.full_name} ({user.username})", self))

    def save(self) -> bool:

        if self.password_edit.text() != self.confirm_edit.text():
            self.errors.show([Problem("password_confirm", "A confirmação não é igual à senha.")])
            return False
        user_id, password = self.user.id, self.password_edit.text()
        return op(self, lambda: users.reset_password(self.db, self.actor, user_id, password)) \
            .fields(self.errors).changes(Entity.USERS).success(lambda _done: self.accept()).run()


class UsersScreen(QWidget):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.table = RecordTable(COLUMNS, self, filter_placeholder="Filtrar por usuário, nome, perfil ou situação…")
        self.new_button = QPushButton("Novo usuário…", self)
        self.edit_button = QPushButton("Editar…", self)
        self.password_button = QPushButton("Redefinir senha…", self)
        self.unlock_button = QPushButton("Desbloquear", self)
        self.active_button = QPushButton("Desativar", self)
        self.new_button.clicked.connect(self.new_user)
        self.edit_button.clicked.connect(self.edit_user)
        self.password_button.clicked.connect(self.reset_password)
        self.unlock_button.clicked.connect(self.unlock)
        self.active_button.clicked.connect(self.toggle_active)
        self.table.activated.connect(lambda _user: self.edit_user())
        self.table.selection_changed.connect(self._update_buttons)
        buttons = QHBoxLayout()
        for button in (self.new_button, self.edit_button, self.password_button, self.unlock_button,
                       self.active_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)
        bus.data_changed.connect(self._data_changed)
        self.reload()

    def _data_changed(self, entity: str) -> None:
        if entity in (Entity.USERS, Entity.SETUP, Entity.DEMO):
            self.reload()

    def reload(self) -> None:

        loaded = op(self, lambda: users.list_users(self.db, self.actor)).titled(
            "Não foi possível carregar os usuários")
        rows = loaded.result if loaded.run() else []
        self.table.set_rows(sorted(rows, key=lambda u: u.username), keep=lambda u: u.id)
        self._update_buttons(self.table.selected())

    def _update_buttons(self, user) -> None:
        for button in (self.edit_button, self.password_button, self.active_button):
            button.setEnabled(user is not None)
        self.unlock_button.setEnabled(user is not None and is_locked(user))
        self.active_button.setText("Ativar" if user is not None and not user.active else "Desativar")

    def _changed(self) -> None:

        bus.data_changed.emit(Entity.USERS)

    def new_user(self) -> None:
        dialog = UserDialog(self.db, self.actor, None, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:  # the save announced "users": the list has it
            self.table.select_where(lambda u: u.id == dialog.saved.id)

    def edit_user(self) -> None:
        user = self.table.selected()
        if user is None:
            return
        dialog = UserDialog(self.db, self.actor, user, self)
        dialog.exec()
        if dialog.stale:
            self._changed()

    def reset_password(self) -> None:
        user = self.table.selected()
        if user is not None and PasswordDialog(self.db, self.actor, user, self).exec() == QDialog.DialogCode.Accepted:
            QMessageBox.information(self, "Senha redefinida", f"A senha de {user.username} foi redefinida.")

    def unlock(self) -> None:

        user = self.table.selected()
        if user is None:
            return
        op(self, lambda: users.unlock_user(self.db, self.actor, user.id)).changes(Entity.USERS).run()

    def toggle_active(self) -> None:

        user = self.table.selected()
        if user is None:
            return
        draft = users.UserDraft(username=user.username, full_name=user.full_name, roles=frozenset(user.roles),
                                password=None, active=not user.active, office=user.office,
                                registration=user.registration)
        op(self, lambda: users.update_user(self.db, self.actor, user.id, draft, user.version)) \
            .stale(self._changed, ask=False).changes(Entity.USERS).run()
