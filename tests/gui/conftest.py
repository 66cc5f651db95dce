"""GUI test fixtures: a real SQLite database (migrated once per session, copied per test), initialized through
the real `services.setup.initialize`, and a place for the settings file."""
from __future__ import annotations

import shutil
from decimal import Decimal

import pytest

ADMIN_USER = "admin"
ADMIN_PASSWORD = "senha-forte-2025"


@pytest.fixture(autouse=True)
def _settings_file(tmp_path, monkeypatch):
    """Never read or write the real user's settings file; no DESKTOP_DB_URL from the environment."""
    monkeypatch.setenv("DESKTOP_SETTINGS_FILE", str(tmp_path / "settings.json"))
    monkeypatch.delenv("DESKTOP_DB_URL", raising=False)


@pytest.fixture(autouse=True)
def _no_job_left_running():
    """A worker still running Python while the next test (or the interpreter) tears down would crash."""
    yield
    from desktop.background import shutdown

    assert shutdown(10000), "a background task did not stop"


@pytest.fixture(autouse=True)
def _discard_answered(qapp, monkeypatch):
    """Esc, Cancelar or × on a form with typed data asks "Descartar os dados digitados?" (issue 29 point 3); the
    tests that are not about that question answer "Descartar" (the old behaviour) without a modal box. The tests
    of the question use the `discard_box` fixture, which shows the real box."""
    from desktop.views import keyboard

    keyboard.install()    # as create_application() does in the program
    asked: list[str] = []

    def answer(parent):
        asked.append(parent.windowTitle())
        return True

    monkeypatch.setattr(keyboard, "_ask", answer)
    return asked


@pytest.fixture
def discard_box(monkeypatch):
    """The real "Descartar os dados digitados?" box; `discard_box.answer = "keep" | "discard"` is clicked with the
    mouse when it opens; `discard_box.seen` lists the texts of the boxes that opened."""
    from PySide6.QtCore import QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop.views import keyboard

    class Box:
        answer = "keep"
        seen: list[str] = []

    def ask(parent):
        def click_answer():
            box = QApplication.activeModalWidget()
            if not isinstance(box, QMessageBox):
                QTimer.singleShot(20, click_answer)
                return
            Box.seen.append(box.text())
            which = QMessageBox.StandardButton.Discard if Box.answer == "discard" else QMessageBox.StandardButton.Cancel
            button = box.button(which)
            QTest.mouseClick(button, Qt.MouseButton.LeftButton, pos=button.rect().center())

        from PySide6.QtCore import Qt

        QTimer.singleShot(20, click_answer)
        return keyboard._ask_with_box(parent)

    monkeypatch.setattr(keyboard, "_ask", ask)
    return Box


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory):
    from desktop.migrate import open_database

    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    db = open_database(f"sqlite:///{path}")
    db.dispose()
    return path


@pytest.fixture
def db(migrated_template, tmp_path):
    """An empty, migrated SQLite database of this test only (needs the setup wizard)."""
    from desktop.migrate import open_database

    path = tmp_path / "transporte.sqlite3"
    shutil.copyfile(migrated_template, path)
    database = open_database(f"sqlite:///{path}")
    yield database
    database.dispose()


def municipality_draft(**changes):
    from desktop.services.setup import MunicipalityDraft

    values = dict(name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
                  ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("112.45"))
    values.update(changes)
    return MunicipalityDraft(**values)


@pytest.fixture
def admin(db):
    """The database after the first start: returns the first administrator's Actor."""
    from desktop.services import setup

    return setup.initialize(db, municipality_draft(),
                            setup.AdminDraft(ADMIN_USER, "Ana Administradora", ADMIN_PASSWORD))


@pytest.fixture
def credentials():
    """(user name, password) of the first administrator created by the `admin` fixture."""
    return ADMIN_USER, ADMIN_PASSWORD


@pytest.fixture
def messages(monkeypatch):
    """Record QMessageBox.warning/information/critical instead of opening modal boxes."""
    from PySide6.QtWidgets import QMessageBox

    seen: list[tuple[str, str, str]] = []

    def fake(kind):
        def show(parent, title, text, *args, **kwargs):
            seen.append((kind, title, text))
            return QMessageBox.StandardButton.Ok
        return show

    for kind in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, kind, staticmethod(fake(kind)))
    return seen


def pytest_collection_modifyitems(config, items):
    """The offscreen platform cannot resize windows from their size hints and says so as a warning; that is
    the test platform talking, not the program (every other Qt warning still fails the test)."""
    for item in items:
        path = str(item.fspath).replace("\\", "/")
        if "tests/gui/" in path or "tests/journeys/" in path:
            # (a tooltip raises itself, a calendar popup grabs the keyboard: the offscreen platform cannot either)
            item.add_marker(pytest.mark.qt_log_ignore(
                r"This plugin does not support (propagateSizeHints\(\)|raise\(\)|grabbing the )"))

