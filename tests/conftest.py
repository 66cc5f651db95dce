"""Shared test set-up.

Qt must run headless before anything imports it (../shared/NOTES.md): set the platform here, at import time.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LANG", "C.UTF-8")

import pytest  # noqa: E402


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = str(item.fspath)
        if f"{os.sep}tests{os.sep}gui{os.sep}" in path:
            item.add_marker(pytest.mark.gui)
        elif f"{os.sep}tests{os.sep}db{os.sep}" in path:
            item.add_marker(pytest.mark.db)
        elif f"{os.sep}tests{os.sep}e2e{os.sep}" in path:
            item.add_marker(pytest.mark.e2e)
