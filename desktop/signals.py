"""One app-wide signal bus (STYLE: Anki's `operation_did_execute`).

After every write a screen emits `bus.data_changed.emit(entity)` — `entity` is a short English name such as
"users", "parameters", "holidays", "municipality" — and every open screen that shows that entity reloads
itself. Screens never call each other to refresh.

Also here, confined to this module: the guard against a reference-count bug of PySide6 6.12 on Python 3.11.
Measured on this machine (Python 3.11.7, a fresh interpreter per release, 20,000 emits of a connected
`Signal(int, int, str)`, 20,000 plain emits, 20,000 `QObject.setObjectName` calls): PySide6 6.12.0 takes one
reference from `True` on every `Signal.emit()` and one from `None` on every void Qt call without giving it back;
after about a thousand the count reaches zero and the interpreter aborts ("Fatal Python error: bool_dealloc" /
"none_dealloc"). The 24 releases 6.7.0-6.11.3 give every reference back, but they are no way out here: QtPdf
comes from PySide6-Addons before 6.12 (PySide6-Pdf is published only as 6.12.0.140, requiring Essentials
6.12.0), and with Essentials + Addons 6.11.3 the GUI suite aborts with a segmentation fault (garbage
collection on the UI thread while a worker prints a sticker, tests/gui/test_reports_module_page.py) in two
runs of two. Python 3.12 made True, False and None immortal. Here, only when the leak is detected, `guard_bool_refcounts()` and
`guard_none_refcount()` keep a reserve of references to the singletons in plain lists (`_Reserve`), and a daemon
thread tops the reserve up whenever a count falls under 262,144 — pure Python, no write into the interpreter's
objects. A lost reference costs the reserve 8 bytes (a week view of the scheduler about 35 KB; a working day of
heavy use a few tens of MB), where a count reaching zero would abort the program and lose the clerk's work.
`tests/gui/test_signals.py` fails when the installed PySide6 no longer leaks: then this guard and its calls go.
"""
from __future__ import annotations

import itertools
import sys
import threading
import time

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


class _Reserve:
    """References to a singleton held in a list, so that its count never falls to zero while PySide leaks."""

    FLOOR = 1 << 18          # a count under this is topped up…
    CHUNK = 1 << 19          # …by this many references (4 MB of list slots)
    POLL_SECONDS = 0.05      # 262,144 leaking calls from Python take well over a tenth of a second

    def __init__(self, singletons: tuple):
        self.singletons = singletons
        self.held: list = []

    def top_up(self) -> None:
        for singleton in self.singletons:
            if sys.getrefcount(singleton) < self.FLOOR:
                self.held.extend(itertools.repeat(singleton, self.CHUNK))   # each slot is one more reference


_reserves: list[_Reserve] = []
_watcher_lock = threading.Lock()
_watcher: threading.Thread | None = None


def _watch() -> None:
    while True:
        time.sleep(_Reserve.POLL_SECONDS)
        for reserve in list(_reserves):
            reserve.top_up()


def _keep(singletons: tuple) -> None:
    """Hold references to `singletons` now, and keep topping them up from a daemon thread."""
    global _watcher
    reserve = _Reserve(singletons)
    reserve.top_up()
    _reserves.append(reserve)
    with _watcher_lock:
        if _watcher is None:
            _watcher = threading.Thread(target=_watch, name="refcount-reserve", daemon=True)
            _watcher.start()


_guarded = False


def guard_bool_refcounts() -> bool:
    """Keep True/False alive when PySide's emit leaks their references. Returns True if applied.

    Idempotent; a no-op on Python ≥ 3.12 (immortal objects) and when the bug is absent.
    """
    global _guarded
    if _guarded or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return _guarded
    if not emit_leaks_true():
        return False
    _keep((True, False))
    _guarded = True
    return True


def void_calls_leak_none() -> bool:
    """True when a call of a void Qt method takes a reference from `None` (the same PySide6 6.12 bug on Python
    3.11, measured: `item.setBackground(b)` 1,000 times → None's count falls by 1,000; a week view of 1,400
    slots takes ~4,400, and the interpreter aborts with "none_dealloc" once the count reaches zero)."""
    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(16):
        probe.setObjectName("probe")
    return sys.getrefcount(None) < before


_none_guarded = False


def guard_none_refcount() -> bool:
    """The remedy of `guard_bool_refcounts` applied to `None`. Idempotent; a no-op on Python ≥ 3.12."""
    global _none_guarded
    if _none_guarded or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return _none_guarded
    if not void_calls_leak_none():
        return False
    _keep((None,))
    _none_guarded = True
    return True


def guard_singleton_refcounts() -> None:
    """Both guards: called by `run_gui`, by the GUI tests, and on import of this module."""
    guard_bool_refcounts()
    guard_none_refcount()


guard_singleton_refcounts()
bus = _Bus()
