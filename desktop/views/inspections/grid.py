"""The schedule grid: day and week views (rows = slot times, columns = day × inspector) and the month view (one
cell per day with its counts). A booking is dragged onto a free slot to move it (the page asks the reason).

A model/view pair: the model keeps every cell as plain Python (text, colour, the slot) and the view paints only
the visible cells, so a week of 10 inspectors × 20 slots costs no widget item per slot."""
from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtCore import QAbstractTableModel, QMimeData, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from desktop.domain import TIMEZONE
from desktop.domain.formatting import weekday_names
from desktop.views.table import keyboard_list


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


def slot_text(slot) -> str:
    """Every booking the slot holds, the past ones (with their result) then the live one; "Livre" when none.
    Two or more take one line each (plate · kind · situation), so none hides below the others."""
    held = slot.bookings
    if not held:
        return "Livre"
    if len(held) == 1:
        b = held[0]
        return booking_text(b) if b.live else f"{booking_text(b)}\n{b.result_label or b.status_label}"
    return "\n".join(f"{b.plate_display} · {b.kind_label} · {b.result_label or b.status_label}" for b in held)


def slot_tooltip(slot) -> str:
    return "\n\n".join(f"{b.kind_label} — {b.plate_display} ({b.result_label or b.status_label})\n{b.driver_name}\n"
                        f"Autorização {b.authorization_number or '(sem número)'}" for b in slot.bookings)


class _Cell:
    __slots__ = ("text", "brush", "foreground", "tooltip", "slot", "day", "flags")

    def __init__(self, text, brush, slot=None, day=None, flags=Qt.ItemFlag.ItemIsEnabled, foreground=None,
                 tooltip=""):
        self.text, self.brush, self.slot, self.day, self.flags = text, brush, slot, day, flags
        self.foreground, self.tooltip = foreground, tooltip


GREEN = QBrush(QColor("#2e7d32"))
_SELECTABLE = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


class ScheduleModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.cells: dict[tuple[int, int], _Cell] = {}
        self.rows: list[str] = []
        self.columns: list[str] = []

    def reset(self, rows: list[str], columns: list[str], cells: dict[tuple[int, int], _Cell]) -> None:
        self.beginResetModel()
        self.rows, self.columns, self.cells = rows, columns, cells
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        cell = self.cells.get((index.row(), index.column()))
        if cell is None:  # no slot there (the inspector does not work that day or at that time)
            return CLOSED if role == Qt.ItemDataRole.BackgroundRole else None
        if role == Qt.ItemDataRole.DisplayRole:
            return cell.text
        if role == Qt.ItemDataRole.BackgroundRole:
            return cell.brush
        if role == Qt.ItemDataRole.ForegroundRole:
            return cell.foreground
        if role == Qt.ItemDataRole.ToolTipRole:
            return cell.tooltip or None
        return None

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        labels = self.columns if orientation == Qt.Orientation.Horizontal else self.rows
        return labels[section] if 0 <= section < len(labels) else None

    def flags(self, index):
        cell = self.cells.get((index.row(), index.column()))
        return cell.flags if cell is not None else Qt.ItemFlag.ItemIsEnabled

    def mimeTypes(self) -> list[str]:
        return [MIME]

    def mimeData(self, indexes) -> QMimeData:
        mime = QMimeData()
        for index in indexes:
            cell = self.cells.get((index.row(), index.column()))
            if cell is not None and cell.slot is not None and cell.slot.booking is not None:  # the live one
                mime.setData(MIME, f"{index.row()},{index.column()}".encode())
                break
        return mime

    def supportedDropActions(self):
        return Qt.DropAction.MoveAction

    def supportedDragActions(self):
        return Qt.DropAction.MoveAction


class ScheduleGrid(QTableView):
    """`show_range(data, mode)` fills the grid from services.inspections.CalendarData."""

    slot_activated = Signal(object)         # SlotInfo (double-click)
    slot_selected = Signal(object)          # SlotInfo or None
    day_activated = Signal(object)          # date (month view)
    move_requested = Signal(object, object)  # (BookingInfo, target SlotInfo)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.mode = "week"
        self.grid_model = ScheduleModel(self)
        self.setModel(self.grid_model)
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

        keyboard_list(self)   # Tab leaves the grid; Enter on a cell does what a double-click does (issue 29)
        self.activated.connect(lambda index: self._double_clicked(index.row(), index.column()))
        self.selectionModel().currentChanged.connect(
            lambda current, _previous: self.slot_selected.emit(self.slot_at(current.row(), current.column())))

    # ------------------------------------------------------------------------------------------- filling
    def show_range(self, data, mode: str, inspector_id: int | None = None) -> None:
        self.mode = mode
        if mode == "month":
            self._fill_month(data, inspector_id)
        else:
            self._fill_days(data, inspector_id)

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
        cells: dict[tuple[int, int], _Cell] = {}
        crowded: set[int] = set()  # rows with a slot holding more than one booking: taller, so all show
        for (d, i), col in col_of.items():
            if d in data.closed_days:
                for row in range(len(times)):
                    cells[(row, col)] = _Cell(data.closed_days[d], CLOSED)
        for s in slots:
            local = s.start.astimezone(TIMEZONE)
            col = col_of.get((local.date(), s.inspector_id))
            if col is None:
                continue
            # A slot shows every booking it holds; one without a live booking is free (a done or missed
            # booking frees its slot: a re-inspection may take it) and takes a dropped booking.
            last = s.past[-1] if s.past else None
            if s.booking is not None:
                brush, flags = TAKEN, _SELECTABLE | Qt.ItemFlag.ItemIsDragEnabled
            elif last is not None:
                brush = FAILED if last.failed_or_missed else DONE
                flags = _SELECTABLE | Qt.ItemFlag.ItemIsDropEnabled
            else:
                brush, flags = FREE, _SELECTABLE | Qt.ItemFlag.ItemIsDropEnabled
            cell = _Cell(slot_text(s), brush, s, flags=flags, foreground=GREEN if not s.bookings else None,
                         tooltip=slot_tooltip(s))
            cells[(row_of[local.time()], col)] = cell
            if len(s.bookings) > 1:
                crowded.add(row_of[local.time()])
        self.grid_model.reset([t.strftime("%H:%M") for t in times],
                              [f"{WEEKDAY_SHORT[d.weekday()]} {d:%d/%m}\n{i.full_name}" for d, i in columns], cells)
        self.verticalHeader().setDefaultSectionSize(44)
        for row in sorted(crowded):
            self.resizeRowToContents(row)

    def _fill_month(self, data, inspector_id) -> None:
        first = data.first - timedelta(days=data.first.weekday())
        weeks = ((data.last - first).days // 7) + 1
        per_day: dict[date, list] = {}
        for s in data.slots:
            if inspector_id is None or s.inspector_id == inspector_id:
                per_day.setdefault(s.start.astimezone(TIMEZONE).date(), []).append(s)
        cells: dict[tuple[int, int], _Cell] = {}
        for w in range(weeks):
            for wd in range(7):
                d = first + timedelta(weeks=w, days=wd)
                if d < data.first or d > data.last:
                    continue
                slots = per_day.get(d, [])
                taken = [s.booking for s in slots if s.booking is not None]
                held = [b for s in slots for b in s.bookings]
                if d in data.closed_days:
                    text, brush = f"{d:%d}\n{data.closed_days[d]}", CLOSED
                elif not slots:
                    text, brush = f"{d:%d}\nSem atendimento", CLOSED
                else:
                    plates = ", ".join(b.plate_display for b in held[:3]) + (" …" if len(held) > 3 else "")
                    text = f"{d:%d}\n{len(taken)} marcada(s), {len(slots) - len(taken)} livre(s)"
                    if len(held) > len(taken):
                        text += f", {len(held) - len(taken)} encerrada(s)"
                    text += f"\n{plates}" if plates else ""
                    brush = TAKEN if held else FREE
                cells[(w, wd)] = _Cell(text, brush, day=d, flags=_SELECTABLE)
        self.grid_model.reset([f"{(first + timedelta(weeks=w)):%d/%m}" for w in range(weeks)],
                              list(weekday_names(capital=True, short=True)), cells)
        self.verticalHeader().setDefaultSectionSize(70)

    # ------------------------------------------------------------------------------------------- reading
    def rowCount(self) -> int:
        return self.grid_model.rowCount()

    def columnCount(self) -> int:
        return self.grid_model.columnCount()

    def row_label(self, row: int) -> str:
        return self.grid_model.rows[row]

    def text_at(self, row: int, col: int) -> str:
        cell = self.grid_model.cells.get((row, col))
        return cell.text if cell is not None else ""

    def slot_at(self, row: int, col: int):
        cell = self.grid_model.cells.get((row, col))
        return cell.slot if cell is not None else None

    def set_current(self, row: int, col: int) -> None:
        self.setCurrentIndex(self.grid_model.index(row, col))

    def cell_of(self, predicate) -> tuple[int, int] | None:
        for (row, col), cell in sorted(self.grid_model.cells.items()):
            if cell.slot is not None and predicate(cell.slot):
                return row, col
        return None

    def _double_clicked(self, row: int, col: int) -> None:
        cell = self.grid_model.cells.get((row, col))
        if cell is None:
            return
        if cell.day is not None:
            self.day_activated.emit(cell.day)
        elif cell.slot is not None:
            self.slot_activated.emit(cell.slot)

    # ------------------------------------------------------------------------------------------ dragging
    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        target = self.indexAt(event.position().toPoint())
        slot = self.slot_at(target.row(), target.column()) if target.isValid() else None
        if event.mimeData().hasFormat(MIME) and slot is not None and slot.free:
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
        if source is None or source.booking is None or target is None or not target.free:
            return
        self.move_requested.emit(source.booking, target)
