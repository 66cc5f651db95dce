"""Journeys (issues 26, 27): one case across modules, with real input only where a screen is used, each ending with
the printed PDF read back. The screen journeys use the GUI tests' hands (tests/gui/hands.py) and their isolation;
the service journeys run on both databases with the fixtures of tests/db."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.db.conftest import db, make_actor, pg_schema_url, sqlite_template  # noqa: F401,E402 (fixtures)

GUI = Path(__file__).resolve().parents[1] / "gui"
if str(GUI) not in sys.path:
    sys.path.insert(0, str(GUI))


@pytest.fixture(autouse=True)
def _settings_file(tmp_path, monkeypatch):
    """Never the real user's settings (the window's geometry included); no DESKTOP_DB_URL from outside."""
    monkeypatch.setenv("DESKTOP_SETTINGS_FILE", str(tmp_path / "settings.json"))
    monkeypatch.delenv("DESKTOP_DB_URL", raising=False)


@pytest.fixture(autouse=True)
def _keyboard(qapp):
    from desktop.views import keyboard

    keyboard.install()
    yield
    from desktop.background import shutdown

    assert shutdown(10000), "a background task did not stop"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/journeys/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore(
                r"This plugin does not support (propagateSizeHints\(\)|raise\(\)|grabbing the )"))
