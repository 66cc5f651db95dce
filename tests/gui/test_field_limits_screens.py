"""Issue 12 item 21 on the screens: what the database of the office would refuse is said next to the field that
holds it, in Portuguese, the same on SQLite as on PostgreSQL (the check every row passes before it is written)."""
from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate, Qt


def test_item21_a_nul_byte_in_a_holiday_name_is_shown_next_to_the_name_and_nothing_is_saved(qtbot, db, admin,
                                                                                           messages):
    from desktop.services import holidays
    from desktop.views.admin.holidays import HolidayDialog

    dialog = HolidayDialog(db, admin, 2026)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.date_edit.setDate(QDate(2026, 10, 26))
    dialog.name_edit.setText("Aniversário\x00 da cidade")
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Save), Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.saved is None
    assert "caractere nulo (NUL)" in dialog.errors.message("name") and dialog.errors.is_invalid("name")
    assert messages == []
    assert date(2026, 10, 26) not in {h.day for h in holidays.list_holidays(db, 2026)}
    dialog.name_edit.setText("Aniversário da cidade")
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Save), Qt.MouseButton.LeftButton)
    assert dialog.saved is not None


def test_item21_date_and_money_fields_stop_at_the_limits(qtbot):
    from desktop.views.widgets import DecimalEdit, date_edit

    edit = date_edit(None, date(2026, 11, 18))
    qtbot.addWidget(edit)
    assert edit.minimumDate() == QDate(1900, 1, 1) and edit.maximumDate() == QDate(2100, 12, 31)
    money = DecimalEdit(None, prefix="R$ ")
    qtbot.addWidget(money)
    qtbot.keyClicks(money, "9" * 40)
    assert len(money.text()) <= 21
