"""Issue 11, attack 5 on screen: when a write of the logged-in user is refused because the user was deactivated,
the main window gives way to the login window with the reason; logging in again opens a fresh window."""
from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import update

import desktop.signals  # noqa: F401 — the PySide6 6.12 reference-count guard (see desktop/signals.py)
from desktop.models import User
from desktop.services import holidays
from desktop.services.actors import SessionRevoked

from tests.security.conftest import ADMIN_PASSWORD

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def test_issue11_attack5_deactivated_user_is_sent_back_to_the_login(qtbot, db, configured):
    from desktop.views.main_window import MainWindow

    window = MainWindow(db, configured)
    qtbot.addWidget(window)
    window.show()
    with db.session() as s:
        s.execute(update(User).where(User.id == configured.user_id).values(active=False))
    with pytest.raises(SessionRevoked):
        holidays.add_holiday(db, window.actor, date(2026, 10, 15), "Aniversário do município")
    qtbot.waitUntil(lambda: window.relogin is not None and window.relogin.isVisible(), timeout=5000)
    qtbot.addWidget(window.relogin)
    assert not window.isVisible()
    assert "desativado" in window.relogin.message.text()
    # the account is active again: logging in opens a new window with the fresh roles
    with db.session() as s:
        s.execute(update(User).where(User.id == configured.user_id).values(active=True))
    window.relogin.password_edit.setText(ADMIN_PASSWORD)
    assert window.relogin.try_login()
    assert window.successor is not None and window.successor.isVisible()
    qtbot.addWidget(window.successor)
