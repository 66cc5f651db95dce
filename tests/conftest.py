"""Shared test set-up.

Qt must run headless before anything imports it (../shared/NOTES.md): set the platform here, at import time.

The suite never reads the real date. Before any test module is imported, the program's one clock
(`desktop.domain.clock`) is set to a fixed start instant — by default Wednesday 18/11/2026 10:00 in
America/Cuiaba, an ordinary business day — and advances in real time from there (lockout minutes, ordering by
time and durations behave as with the real clock). Each test starts again at that instant; the clock it set is
put back afterwards. To prove that no test depends on the day it runs, move the start:

    DESKTOP_TEST_CLOCK=2026-12-25T10:00 python -m pytest tests/unit ...

That variable is read here and nowhere else: the running program always takes its date from the system clock.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LANG", "C.UTF-8")
# The secretariat's signing key lives outside the database, in the desk's key store (desktop/keystore.py): the
# suite keeps the keys it makes in a folder of its own, never in the user's real one (subprocesses inherit it).
if "DESKTOP_KEY_DIR" not in os.environ:
    import tempfile

    os.environ["DESKTOP_KEY_DIR"] = tempfile.mkdtemp(prefix="chapada-test-keys-")
# Nor the user's settings file (database URL, backup folder): one of the suite's own.
if "DESKTOP_SETTINGS_FILE" not in os.environ:
    import tempfile

    os.environ["DESKTOP_SETTINGS_FILE"] = os.path.join(tempfile.mkdtemp(prefix="chapada-test-settings-"),
                                                       "settings.json")

from datetime import datetime  # noqa: E402

import pytest  # noqa: E402

from desktop.domain import clock  # noqa: E402

DEFAULT_TEST_CLOCK = "2026-11-18T10:00"     # a Wednesday, no holiday (national, MT or municipal)


def _start_instant() -> datetime:
    text = os.environ.get("DESKTOP_TEST_CLOCK", "").strip() or DEFAULT_TEST_CLOCK
    try:
        start = datetime.fromisoformat(text)
    except ValueError:
        raise pytest.UsageError(f"DESKTOP_TEST_CLOCK={text!r}: use AAAA-MM-DDTHH:MM (ex.: 2026-12-25T10:00)")
    return start.replace(tzinfo=clock.TIMEZONE) if start.tzinfo is None else start.astimezone(clock.TIMEZONE)


TEST_START = _start_instant()


def pytest_configure(config):
    # Set before the test modules are imported: values computed at import or collection time
    # (e.g. tests/db/registry_factories.TODAY) see the suite's day too.
    clock.set_clock(clock.ticking(TEST_START))


def pytest_report_header(config):
    return f"relógio dos testes: {TEST_START:%d/%m/%Y %H:%M} (America/Cuiaba; DESKTOP_TEST_CLOCK muda o início)"


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = str(item.fspath)
        if f"{os.sep}tests{os.sep}gui{os.sep}" in path:
            item.add_marker(pytest.mark.gui)
        elif f"{os.sep}tests{os.sep}db{os.sep}" in path:
            item.add_marker(pytest.mark.db)
        elif f"{os.sep}tests{os.sep}e2e{os.sep}" in path:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(autouse=True)
def suite_clock():
    """Every test starts at TEST_START (advancing in real time); whatever clock it sets is undone after it."""
    previous = clock.set_clock(clock.ticking(TEST_START))
    yield TEST_START
    clock.set_clock(previous)
