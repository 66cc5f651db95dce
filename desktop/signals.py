"""One app-wide signal bus (STYLE: Anki's `operation_did_execute`).

After every write a screen emits `bus.data_changed.emit(entity)` — `entity` is a short English name such as
"users", "parameters", "holidays", "municipality" — and every open screen that shows that entity reloads
itself. Screens never call each other to refresh.

PySide6 and the reference counts of True/None (measured on this machine, Python 3.11.7, 20,000 calls each, in a
fresh interpreter): PySide6 6.12.0 takes one reference from `True` on every `Signal.emit()` and one from `None` on
every call of a void Qt method (`QObject.setObjectName`) without giving it back; after about a thousand the count
reaches zero and the interpreter aborts ("Fatal Python error: bool_dealloc" / "none_dealloc"). Every release from
6.7.0 to 6.11.3 (24 measured: 6.7.0-6.7.3, 6.8.0-6.8.3 with the .1/.2 re-releases, 6.9.0-6.9.3, 6.10.0-6.10.3,
6.11.0-6.11.3) gives every reference back. So `pyproject.toml` pins PySide6 to `>=6.7,<6.12` (Essentials, and
Addons for QtPdf: the separate PySide6-Pdf exists only from 6.12), and `tests/gui/test_signals.py` runs the same
probe in a subprocess and fails on a PySide6 that leaks. Nothing here writes into CPython any more (the earlier
remedy raised the singletons' counts through ctypes, which would have corrupted memory silently for any other
leak).

`guard_bool_refcounts`, `guard_none_refcount` and `guard_singleton_refcounts` stay importable as no-ops until
their last callers drop them; `emit_leaks_true` and `void_calls_leak_none` still tell whether the PySide6 in use
leaks.
"""
from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Bus(QObject):
    data_changed = Signal(str)


def emit_leaks_true() -> bool:
    """True when emitting a Python signal takes a reference from `True` (the PySide6 6.12 bug)."""

    class _Probe(QObject):
        ping = Signal()

    probe = _Probe()
    before = sys.getrefcount(True)
    for _ in range(16):
        probe.ping.emit()
    return sys.getrefcount(True) < before


def void_calls_leak_none() -> bool:
    """True when a call of a void Qt method takes a reference from `None` (the same PySide6 6.12 bug)."""
    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(16):
        probe.setObjectName("probe")
    return sys.getrefcount(None) < before


def guard_bool_refcounts() -> bool:
    """No-op kept for its callers: returns False (nothing applied). The pinned PySide6 does not leak."""
    return False


def guard_none_refcount() -> bool:
    """No-op kept for its callers: returns False (nothing applied). The pinned PySide6 does not leak."""
    return False


def guard_singleton_refcounts() -> None:
    """No-op kept for its callers (`run_gui`, the GUI tests)."""


bus = _Bus()
