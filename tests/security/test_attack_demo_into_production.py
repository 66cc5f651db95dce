"""Issue 11, attack 6: load demo data into production. `demo` (with or without --force) refuses a database that
holds records of its own; a demo database is marked as such; the demo staff must change the published password
at their first login."""
from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import func, select

from desktop import cli
from desktop.domain.roles import Role
from desktop.errors import ConflictError
from desktop.models import AuditEntry, Driver, Platform, User
from desktop.demo import entry as demo_entry
from desktop.services import demo
from desktop.services.platforms import PlatformDraft, create_platform

TODAY = date(2026, 11, 30)


def _counts(db):
    with db.session(write=False) as s:
        return (s.scalar(select(func.count()).select_from(Driver)), s.scalar(select(func.count()).select_from(User)),
                s.scalar(select(func.count()).select_from(AuditEntry)))


def test_issue11_attack6_demo_refuses_a_database_with_real_records_even_forced(db, configured, make_actor, capsys):
    clerk = make_actor(Role.ATENDENTE)
    create_platform(db, clerk, PlatformDraft(cnpj="11222333000181", legal_name="Leva e Traz Ltda",
                                             trade_name="LevaTraz"))
    before = _counts(db)
    for force in (False, True):
        with pytest.raises(ConflictError) as exc:
            demo_entry.load_demo(db, drivers=5, seed=1, force=force, today=TODAY)
        assert "registros próprios" in str(exc.value) and "1 plataformas" in str(exc.value)
    assert cli.main(["--db", db.url, "demo", "--drivers", "5", "--force"]) == 1
    assert "não é um banco de demonstração" in capsys.readouterr().err
    assert _counts(db) == before
    with db.session(write=False) as s:
        assert not demo.is_demo(s)
        assert s.scalar(select(func.count()).select_from(Platform)) == 1


def test_issue11_attack6_a_demo_database_is_marked_and_its_staff_must_change_the_password(db, configured):
    from desktop.services import auth

    demo_entry.load_demo(db, drivers=5, seed=3, today=TODAY)
    assert demo.is_demo_db(db)
    staff = [u for u, _, _ in demo_entry.STAFF]
    with db.session(write=False) as s:
        flags = dict(s.execute(select(User.username, User.must_change_password)
                               .where(User.username.in_(staff + ["gestora"]))).all())
    assert all(flags[u] for u in staff) and flags["gestora"] is False   # the real set-up password is not demo's
    auth.login(db, staff[0], demo_entry.DEMO_PASSWORD)   # logs in, and the login window then forces the change
    # more demo data may be added to a demo database
    demo_entry.load_demo(db, drivers=5, seed=3, force=True, today=TODAY)
    assert _counts(db)[0] == 10


@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_issue11_attack6_window_title_and_status_bar_say_demonstracao(qtbot, db, configured):
    import desktop.signals  # noqa: F401 — the PySide6 6.12 reference-count guard
    from desktop.views.main_window import MainWindow

    real = MainWindow(db, configured)
    qtbot.addWidget(real)
    assert "DEMONSTRAÇÃO" not in real.windowTitle() and "DEMONSTRAÇÃO" not in real.security_label.text()
    demo.mark_demo(db, "teste")
    window = MainWindow(db, configured)
    qtbot.addWidget(window)
    assert window.windowTitle().startswith("DEMONSTRAÇÃO")
    assert demo.DEMO_LABEL in window.security_label.text()
