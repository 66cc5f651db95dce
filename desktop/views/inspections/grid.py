"""The schedule grid: day and week views (rows = slot times, columns = day × inspector) and the month view (one
cell per day with its counts). A booking is dragged onto a free slot to move it (the page asks the reason)."""
from __future__ import annotations

import sys
from datetime import date, timedelta

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from desktop.domain import TIMEZONE


def void_calls_leak_none() -> bool:
    """True when a call of a void Qt method takes a reference from `None` (PySide6 6.12 on Python 3.11,
    measured: `item.setBackground(b)` 1,000 times → None's count falls by 1,000; a week view of 1,400 slots
    takes ~4,400, and the interpreter aborts with "none_dealloc" once the count reaches zero)."""
    from PySide6.QtCore import QObject

    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(16):
        probe.setObjectName("probe")
    return sys.getrefcount(None) < before


_none_guarded = False


def guard_none_refcount() -> bool:
    """The `desktop.signals.guard_bool_refcounts` remedy applied to `None`: a very large reference count, so the
    leak can never free it (it never is freed in a healthy interpreter). Idempotent; no-op on Python ≥ 3.12."""
    global _none_guarded
    if _none_guarded or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return _none_guarded
    if not void_calls_leak_none():
        return False
    import ctypes

    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 40
    _none_guarded = True
    return True


guard_none_refcount()

MIME = "application/x-vistoria-id"
FREE = QBrush(QColor("#eef7ee"))
TAKEN = QBrush(QColor("#dbe8fb"))
CLOSED = QBrush(QColor("#eeeeee"))
DONE = QBrush(QColor("#e3f1e0"))
FAILED = QBrush(QColor("#fbe3e0"))
WEEKDAY_SHORT = ("seg", "ter", "qua", "qui", "sex", "sáb", "dom")


def booking_text(b) -> str:
    who = f"\n{b.driver_name}" if b.driver_name else ""
    return f"{b.plate_display} · {b.kind_label}{who}"


class ScheduleGrid(QTableWidget):
    """`show_range(data, mode)` fills the grid from services.inspections.CalendarData."""

    slot_activated = Signal(object)         # SlotInfo (double-click)
    slot_selected = Signal(object)          # SlotInfo or None
    day_activated = Signal(object)          # date (month view)
    move_requested = Signal(object, object)  # (BookingInfo, target SlotInfo)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.mode = "week"
        # What each cell shows, kept in Python (not as QVariant data on the items: PySide6 6.12 mishandles the
        # reference counts of Python objects stored in items, which crashed the interpreter at exit).
        self._slots: dict[tuple[int, int], object] = {}
        self._days: dict[tuple[int, int], date] = {}
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setWordWrap(True)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setDefaultSectionSize(150)
        self.verticalHeader().setDefaultSectionSize(44)
        self.cellDoubleClicked.connect(self._double_clicked)
        self.currentCellChanged.connect(lambda row, col, *_: self.slot_selected.emit(self.slot_at(row, col)))

    # ------------------------------------------------------------------------------------------- filling
    def show_range(self, data, mode: str, inspector_id: int | None = None) -> None:
        self.mode = mode
        self.setUpdatesEnabled(False)
        try:
            self.clear()
            self._slots = {}
            self._days = {}
            if mode == "month":
                self._fill_month(data, inspector_id)
            else:
                self._fill_days(data, inspector_id)
        finally:
            self.setUpdatesEnabled(True)

    def _fill_days(self, data, inspector_id) -> None:
        working = {s.inspector_id for s in data.slots}  # an inspector without hours this period has no column
        inspectors = [i for i in data.inspectors if (inspector_id is None or i.id == inspector_id)
                      and i.id in working]
        days = []
        d = data.first
        while d <= data.last:
            days.append(d)
            d += timedelta(days=1)
        slots = [s for s in data.slots if inspector_id is None or s.inspector_id == inspector_id]
        times = sorted({s.start.astimezone(TIMEZONE).time() for s in slots})
        columns = [(d, i) for d in days for i in inspectors]
        col_of = {(d, i.id): n for n, (d, i) in enumerate(columns)}
        row_of = {t: n for n, t in enumerate(times)}
        self.setColumnCount(len(columns))
        self.setRowCount(len(times))
        self.setHorizontalHeaderLabels([f"{WEEKDAY_SHORT[d.weekday()]} {d:%d/%m}\n{i.full_name}"
                                        for d, i in columns])
        self.setVerticalHeaderLabels([t.strftime("%H:%M") for t in times])
        for (d, i), col in col_of.items():
            if d in data.closed_days:
                for row in range(len(times)):
                    item = QTableWidgetItem(data.closed_days[d])
                    item.setBackground(CLOSED)
                    item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                    self.setItem(row, col, item)
        for s in slots:
            local = s.start.astimezone(TIMEZONE)
            col = col_of.get((local.date(), s.inspector_id))
            if col is None:
                continue
            if s.booking is None:
                item = QTableWidgetItem("Livre")
                item.setBackground(FREE)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDropEnabled)
                item.setForeground(QBrush(QColor("#2e7d32")))
            elif s.booking.status != "scheduled":
                item = QTableWidgetItem(f"{booking_text(s.booking)}\n{s.booking.result_label or s.booking.status_label}")
                item.setBackground(FAILED if s.booking.result == "failed" or s.booking.status == "no_show" else DONE)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            else:
                item = QTableWidgetItem(booking_text(s.booking))
                item.setBackground(TAKEN)
                item.setToolTip(f"{s.booking.kind_label} — {s.booking.plate_display}\n{s.booking.driver_name}\n"
                                f"Autorização {s.booking.authorization_number or '(sem número)'}")
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled)
            self._slots[(row_of[local.time()], col)] = s
            self.setItem(row_of[local.time()], col, item)

    def _fill_month(self, data, inspector_id) -> None:
        first = data.first - timedelta(days=data.first.weekday())
        weeks = ((data.last - first).days // 7) + 1
        self.setColumnCount(7)
        self.setRowCount(weeks)
        self.setHorizontalHeaderLabels(["Segunda", "Terça", "Quarta", "Quinta", "Sexta", "Sábado", "Domingo"])
        self.setVerticalHeaderLabels([f"{(first + timedelta(weeks=w)):%d/%m}" for w in range(weeks)])
        per_day: dict[date, list] = {}
        for s in data.slots:
            if inspector_id is None or s.inspector_id == inspector_id:
                per_day.setdefault(s.start.astimezone(TIMEZONE).date(), []).append(s)
        for w in range(weeks):
            for wd in range(7):
                d = first + timedelta(weeks=w, days=wd)
                if d < data.first or d > data.last:
                    continue
                slots = per_day.get(d, [])
                taken = [s.booking for s in slots if s.booking]
                if d in data.closed_days:
                    text, brush = f"{d:%d}\n{data.closed_days[d]}", CLOSED
                elif not slots:
                    text, brush = f"{d:%d}\nSem atendimento", CLOSED
                else:
                    plates = ", ".join(b.plate_display for b in taken[:3]) + (" …" if len(taken) > 3 else "")
                    text = f"{d:%d}\n{len(taken)} marcada(s), {len(slots) - len(taken)} livre(s)"
                    text += f"\n{plates}" if plates else ""
                    brush = TAKEN if taken else FREE
                item = QTableWidgetItem(text)
                item.setBackground(brush)
                self._days[(w, wd)] = d
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                self.setItem(w, wd, item)
        self.verticalHeader().setDefaultSectionSize(70)

    # ------------------------------------------------------------------------------------------- reading
    def slot_at(self, row: int, col: int):
        return self._slots.get((row, col))

    def cell_of(self, predicate) -> tuple[int, int] | None:
        for (row, col), slot in sorted(self._slots.items()):
            if predicate(slot):
                return row, col
        return None

    def _double_clicked(self, row: int, col: int) -> None:
        if (row, col) in self._days:
            self.day_activated.emit(self._days[(row, col)])
        elif (row, col) in self._slots:
            self.slot_activated.emit(self._slots[(row, col)])

    # ------------------------------------------------------------------------------------------ dragging
    def mimeTypes(self) -> list[str]:
        return [MIME]

    def mimeData(self, items) -> QMimeData:
        mime = QMimeData()
        for item in items:
            slot = self.slot_at(item.row(), item.column())
            if slot is not None and slot.booking is not None and slot.booking.status == "scheduled":
                mime.setData(MIME, f"{item.row()},{item.column()}".encode())
                break
        return mime

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        target = self.indexAt(event.position().toPoint())
        slot = self.slot_at(target.row(), target.column()) if target.isValid() else None
        if event.mimeData().hasFormat(MIME) and slot is not None and slot.booking is None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event) -> None:
        """Never moves the cell itself: asks the page to move the booking (which reloads the grid)."""
        event.setDropAction(Qt.DropAction.IgnoreAction)
        event.accept()
        if not event.mimeData().hasFormat(MIME):
            return
        row, col = (int(x) for x in bytes(event.mimeData().data(MIME)).decode().split(","))
        source = self.slot_at(row, col)
        target_index = self.indexAt(event.position().toPoint())
        target = self.slot_at(target_index.row(), target_index.column()) if target_index.isValid() else None
        if source is None or source.booking is None or target is None or target.booking is not None:
            return
        self.move_requested.emit(source.booking, target)
