"""The user changes their own password (services.auth.change_own_password): from Arquivo → Alterar minha
senha…, and obligatorily at the first log in after an administrator set a provisional one."""
from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout

from desktop.domain.problems import Problem
from desktop.views.operations import op
from desktop.views.widgets import FieldErrors, add_field_rows, error_label
from desktop.domain.entities import Entity
from desktop.views.setup_wizard import password_rules
from desktop.services import auth


class ChangePasswordDialog(QDialog):
    def __init__(self, db, actor, parent=None, forced: bool = False, current_password: str = ""):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setWindowTitle("Alterar minha senha")
        self.setMinimumWidth(440)
        self.old_edit = QLineEdit(current_password, self)
        self.new_edit = QLineEdit(self)
        self.confirm_edit = QLineEdit(self)
        for edit in (self.old_edit, self.new_edit, self.confirm_edit):
            edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.general_error = error_label(self)
        self.errors = FieldErrors(self.general_error)
        form = QFormLayout()
        add_field_rows(form, self.errors, (("old_password", "Senha atual:", self.old_edit),
                                           ("new_password", "Nova senha:", self.new_edit),
                                           ("new_password_confirm", "Confirme a nova senha:", self.confirm_edit)), self)
        intro = QLabel(("O administrador definiu uma senha provisória para você. Escolha agora a sua senha; "
                        "só você a conhecerá." if forced else f"Usuário: {actor.full_name} ({actor.username})"),
                       self)
        intro.setWordWrap(True)

        rules = QLabel(f"Regras: {password_rules()}", self)
        rules.setWordWrap(True)
        rules.setStyleSheet("color: #555;")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel,
                                   self)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(rules)
        layout.addWidget(self.general_error)
        layout.addWidget(buttons)
        (self.new_edit if current_password else self.old_edit).setFocus()

    def save(self) -> bool:

        if self.new_edit.text() != self.confirm_edit.text():
            self.errors.show([Problem("new_password_confirm", "A confirmação não é igual à nova senha.")])
            return False
        old, new = self.old_edit.text(), self.new_edit.text()
        return op(self, lambda: auth.change_own_password(self.db, self.actor, old, new)).fields(self.errors) \
            .changes(Entity.USERS).success(lambda _done: self.accept()).run()
