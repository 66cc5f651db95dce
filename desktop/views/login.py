"""Login (issue 2: Argon2 hashes; 5 wrong passwords lock the account for 15 minutes; the administrator unlocks).

The rules live in `services.auth.login`; this dialog only shows its Portuguese messages.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout)

from desktop.views.operations import op
from desktop.views.widgets import ERROR_LABEL_STYLE, error_text


class LoginDialog(QDialog):
    """`exec()` returns Accepted with `actor` set after a successful login.

    It may be shown before the database is open (`db=None`): the program starts faster that way, the user types
    while the database opens (and migrates) in the background, and "Entrar" is enabled by `set_database(db)`.
    """

    def __init__(self, db=None, parent=None, username: str = ""):
        super().__init__(parent)
        from desktop import APP_NAME, APP_ORG  # lazy: kept off the start-up path (the login window imports this module)

        self.db = db
        self.actor = None
        self.setWindowTitle(f"Entrar — {APP_NAME}")
        self.setMinimumWidth(420)
        title = QLabel(f"<b>{APP_NAME}</b><br>{APP_ORG}", self)
        title.setTextFormat(Qt.TextFormat.RichText)
        self.username_edit = QLineEdit(username, self)
        self.password_edit = QLineEdit(self)
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setStyleSheet(ERROR_LABEL_STYLE)
        self.message.setVisible(False)
        self.database_label = QLabel(self)
        self.database_label.setWordWrap(True)
        self.database_label.setStyleSheet("color: #555;")
        self.database_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(self)
        self.login_button = buttons.addButton("Entrar", QDialogButtonBox.ButtonRole.AcceptRole)
        self.login_button.setDefault(True)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.try_login)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Usuário:", self.username_edit)
        form.addRow("Senha:", self.password_edit)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addSpacing(8)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        layout.addSpacing(8)
        layout.addWidget(self.database_label)
        (self.password_edit if username else self.username_edit).setFocus()
        self.set_database(db)

    def set_database(self, db) -> None:
        self.db = db
        self.login_button.setEnabled(db is not None)
        self.database_label.setText(f"Banco de dados: {db.describe()}" if db is not None
                                    else "Abrindo o banco de dados (e atualizando-o, se preciso)…")

    def set_username(self, username: str) -> None:
        self.username_edit.setText(username)
        self.password_edit.setFocus()

    def try_login(self) -> bool:
        from desktop.services import auth  # lazy: kept off the start-up path (the login window imports this module)

        if self.db is None:
            self._say("Aguarde: o banco de dados ainda está sendo aberto.")
            return False
        username = self.username_edit.text().strip()
        if not username or not self.password_edit.text():
            self._say("Informe o usuário e a senha.")
            return False
        password = self.password_edit.text()
        logged_in = op(self, lambda: auth.login(self.db, username, password)).failure(self._refused)
        if not logged_in.run():
            return False
        self.actor = logged_in.result
        if not self._provisional_password_changed(username):
            self.actor = None
            return False
        self.message.setVisible(False)
        self.accept()
        return True

    def _refused(self, error: BaseException) -> bool:
        """Every refusal is said in the window itself, under the fields (no message box to dismiss)."""
        from desktop.errors import AccountLocked, AuthenticationError  # lazy: kept off the start-up path (the login window imports this module)
        from desktop.views.formatting import format_datetime  # lazy: kept off the start-up path (the login window imports this module)

        if isinstance(error, AccountLocked):
            text = str(error)
            if error.until is not None and format_datetime(error.until)[-5:] not in text:
                text += f" Bloqueada até {format_datetime(error.until)}."
            self._say(text)
        elif isinstance(error, AuthenticationError):
            self._say(str(error))
            self.password_edit.selectAll()
            self.password_edit.setFocus()
        else:  # e.g. the database server went away
            self._say(error_text(error))
        return True

    def _provisional_password_changed(self, username: str) -> bool:
        """services.users: after an administrator sets a password, the user must change it at the next log in."""
        from desktop.services import users  # lazy: kept off the start-up path (the login window imports this module)
        from desktop.views.password import ChangePasswordDialog  # lazy: kept off the start-up path (the login window imports this module)

        info = users.find_user_or_none(self.db, username)
        if info is None or not info.must_change_password:
            return True
        dialog = ChangePasswordDialog(self.db, self.actor, self, forced=True,
                                      current_password=self.password_edit.text())
        if dialog.exec() == QDialog.DialogCode.Accepted:
            return True
        self._say("Para entrar, troque a senha provisória definida pelo administrador.")
        return False

    def _say(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(True)
