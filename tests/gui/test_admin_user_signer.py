"""Issue 28 point 2: Administração → Usuários keeps the office (cargo) and the registration number (matrícula)
that every act the user signs prints (Lei 9.784/99, art. 22, § 1º) — typed into the form, saved by the service,
shown in the list, and a matrícula already taken is shown next to its field."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox

from desktop.domain.roles import Role
from desktop.views.admin.page import AdministrationPage
from desktop.views.admin.users import UserDialog


def _type(widget, text: str) -> None:
    """One key per character (NOTES: keyClicks aborts on accented text)."""
    for ch in text:
        QTest.sendKeyEvent(QTest.KeyAction.Click, widget, Qt.Key.Key_unknown, ch, Qt.KeyboardModifier.NoModifier)


def _save(dialog) -> None:
    QTest.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Save), Qt.MouseButton.LeftButton)


def test_user_form_saves_office_and_registration_and_refuses_a_taken_matricula(qtbot, db, admin):
    from desktop.services import users

    page = AdministrationPage(db, admin)
    qtbot.addWidget(page)
    screen = page.show_tab("Usuários")
    dialog = UserDialog(db, admin, None, screen)
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.username_edit, "gabi")
    _type(dialog.full_name_edit, "Gabriela Curvo de Almeida")
    _type(dialog.office_edit, "Secretária Municipal de Finanças")
    qtbot.keyClicks(dialog.registration_edit, "4.001-7")
    QTest.mouseClick(dialog.role_checks[Role.GESTOR], Qt.MouseButton.LeftButton,
                     pos=dialog.role_checks[Role.GESTOR].rect().center())
    qtbot.keyClicks(dialog.password_edit, "senha-da-gabi-1")
    qtbot.keyClicks(dialog.confirm_edit, "senha-da-gabi-1")
    _save(dialog)
    assert dialog.saved is not None
    saved = users.find_user(db, "gabi")
    assert (saved.office, saved.registration) == ("Secretária Municipal de Finanças", "4.001-7")
    screen._changed()
    row = next(u for u in screen.table.visible_rows() if u.username == "gabi")
    assert row.office == "Secretária Municipal de Finanças"
    other = UserDialog(db, admin, None, screen)
    qtbot.addWidget(other)
    qtbot.keyClicks(other.username_edit, "outra")
    qtbot.keyClicks(other.full_name_edit, "Outra Pessoa")
    qtbot.keyClicks(other.office_edit, "Fiscal")
    qtbot.keyClicks(other.registration_edit, "4.001-7")
    QTest.mouseClick(other.role_checks[Role.FISCAL], Qt.MouseButton.LeftButton,
                     pos=other.role_checks[Role.FISCAL].rect().center())
    qtbot.keyClicks(other.password_edit, "senha-da-outra-1")
    qtbot.keyClicks(other.confirm_edit, "senha-da-outra-1")
    _save(other)
    assert other.saved is None
    assert other.errors.is_invalid("registration") and "já é de outro usuário" in other.errors.message("registration")
