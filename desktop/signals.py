"""One app-wide signal bus (STYLE: Anki's `operation_did_execute`).

After every write a screen emits `bus.data_changed.emit(entity)` — `entity` is a short English name such as
"users", "parameters", "holidays", "municipality" — and every open screen that shows that entity reloads
itself. Screens never call each other to refresh.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class _Bus(QObject):
    data_changed = Signal(str)


bus = _Bus()
