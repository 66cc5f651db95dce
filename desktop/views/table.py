"""One parametrized table for every list screen (STYLE: Qt's addressbook `TableModel` + QSortFilterProxyModel).

`Column(header, value, text=None, align=None)` says how to read one column from a row object (a frozen dataclass
returned by a service). `RecordTableModel` shows a list of rows; `RecordTable` is the widget: a "Filtrar…" box
that filters as you type (accent- and case-insensitive, over every column) above a sortable QTableView.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from PySide6.QtCore import (QAbstractTableModel, QEvent, QItemSelectionModel, QModelIndex, QObject,
                            QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal)
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLineEdit, QTableView, QVBoxLayout, QWidget

from desktop.views.formatting import fold, format_date, format_datetime, format_decimal_br

ROW_ROLE = Qt.ItemDataRole.UserRole + 1      # the row object itself
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 3   # the whole row folded to lower case without accents


def default_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if isinstance(value, datetime):
        return format_datetime(value)
    if isinstance(value, date):
        return format_date(value)
    if isinstance(value, Decimal):
        return format_decimal_br(value)
    return str(value)


@dataclass(frozen=True)
class Column:
    header: str
    value: Callable[[Any], Any]
    text: Callable[[Any], str] | None = None       # how to show the value; default: dd/mm/aaaa, 1.234,56...
    align: Qt.AlignmentFlag | None = None           # default: numbers right, the rest left
    color: Callable[[Any], str | None] | None = None  # the text colour of a row's cell ("#b00020"), or None

    def display(self, row: Any) -> str:
        value = self.value(row)
        return self.text(value) if self.text is not None else default_text(value)

    def sort_key(self, row: Any) -> tuple:
        """A key that orders every kind of value: empty first, then numbers, dates and texts (accent-free)."""
        value = self.value(row)
        if value is None:
            return (0, "")
        if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
            return (1, Decimal(value))
        if isinstance(value, datetime):
            return (2, value.isoformat())
        if isinstance(value, date):
            return (2, value.isoformat())
        return (3, fold(self.display(row)))


class RecordTableModel(QAbstractTableModel):
    """A read-only table over a list of row objects."""

    def __init__(self, columns: Sequence[Column], parent=None):
        super().__init__(parent)
        self._columns = list(columns)
        self._rows: list[Any] = []
        self._search: list[str] = []

    # -- data in --------------------------------------------------------------------------------------------
    def set_rows(self, rows: Sequence[Any]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._search = [fold(" ".join(c.display(r) for c in self._columns)) for r in self._rows]
        self.endResetModel()

    def rows(self) -> list[Any]:
        return list(self._rows)

    def row_at(self, row: int) -> Any:
        return self._rows[row]

    def column(self, index: int) -> Column:
        return self._columns[index]

    # -- Qt model interface ---------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)) \
                or not (0 <= index.column() < len(self._columns)):
            return None
        row = self._rows[index.row()]
        column = self._columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.display(row)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            align = column.align
            if align is None:
                value = column.value(row)
                numeric = isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)
                align = Qt.AlignmentFlag.AlignRight if numeric else Qt.AlignmentFlag.AlignLeft
            return int(align | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and column.color is not None:
            from PySide6.QtGui import QColor  # local: imported only on this branch

            color = column.color(row)
            return QColor(color) if color else None
        if role == SEARCH_ROLE:
            return self._search[index.row()]
        if role == ROW_ROLE:
            return row
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._columns[section].header if 0 <= section < len(self._columns) else None
        return str(section + 1)

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


class FoldingFilterProxy(QSortFilterProxyModel):
    """Filters rows whose text contains every word typed, ignoring accents and case ("joao" finds "João")."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._words: list[str] = []

    def set_filter_text(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt ≥ 6.9
            self.beginFilterChange()
            self._words = fold(text).split()
            self.endFilterChange()
        else:
            self._words = fold(text).split()
            self.invalidateFilter()

    def lessThan(self, left: QModelIndex | QPersistentModelIndex,
                 right: QModelIndex | QPersistentModelIndex) -> bool:
        """Sort by the Python value of the column (dates as dates, numbers as numbers), not by the text shown."""
        source = self.sourceModel()
        column = source.column(left.column())
        return column.sort_key(source.row_at(left.row())) < column.sort_key(source.row_at(right.row()))

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        if not self._words:
            return True
        source = self.sourceModel()
        haystack = source.data(source.index(source_row, 0, source_parent), SEARCH_ROLE) or ""
        return all(word in haystack for word in self._words)


class _ListKeys(QObject):
    """The keyboard of every list (issue 29 point 1): Enter/Return opens the current row (the view's `activated`,
    accepted here so the dialog's default button does not fire too); focus that arrives by Tab, Shift+Tab or a
    shortcut selects the current row (or the first), so the row the cursor is on is the row highlighted and the
    first Down goes to row 2."""

    ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)

    def eventFilter(self, obj, event):  # noqa: N802 — Qt name
        view = self.parent()
        kind = event.type()
        if kind == QEvent.Type.KeyPress and event.key() in self.ENTER_KEYS \
                and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            index = view.currentIndex()
            if index.isValid() and view.selectionModel() is not None \
                    and view.selectionModel().isSelected(index):
                view.activated.emit(index)
                return True
            return False
        if kind == QEvent.Type.FocusIn and event.reason() != Qt.FocusReason.MouseFocusReason \
                and event.reason() != Qt.FocusReason.PopupFocusReason:
            select_current_row(view)
        return False


def select_current_row(view: QAbstractItemView) -> None:
    """Select the row of the view's current index (the first row when there is none), unless one is selected."""
    model, selection = view.model(), view.selectionModel()
    if model is None or selection is None or model.rowCount() == 0 or selection.hasSelection():
        return
    index = view.currentIndex()
    if not index.isValid():
        index = model.index(0, 0)
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
    if view.selectionBehavior() == QAbstractItemView.SelectionBehavior.SelectRows:
        flags |= QItemSelectionModel.SelectionFlag.Rows
    selection.setCurrentIndex(index, flags)


def keyboard_list(view: QAbstractItemView) -> QAbstractItemView:
    """Every list of the program goes through here once: Tab and Shift+Tab leave it (Qt's tables walk their cells
    by default and never let the focus out), arrows move rows, Enter opens the row, focus selects it."""
    view.setTabKeyNavigation(False)
    keys = _ListKeys(view)
    view.installEventFilter(keys)
    view._list_keys = keys
    return view


def watch_selection(view: QAbstractItemView, selected: Callable[[], Any], emit: Callable[[Any], None]) -> None:
    """Call `emit(selected())` whenever the selected row changes, by mouse or by key (issue 27 point 1).

    A mouse press makes the row current first (nothing selected under it yet: the old row is still selected) and
    selects it afterwards; the arrow keys do both at once. Reacting to `currentRowChanged` alone saw no selection
    after a click, and a click on the only row a filter left changes no current row at all: the screen follows
    `selectionChanged`, and `currentRowChanged` only when it does not land in the middle of a click."""
    model = view.selectionModel()

    def changed(*_args) -> None:
        emit(selected())

    def current_changed(*_args) -> None:
        if selected() is not None or not model.hasSelection():
            emit(selected())

    model.selectionChanged.connect(changed)
    model.currentRowChanged.connect(current_changed)


def enter_presses(table, button) -> None:
    """Enter (or a double-click) on a row of `table` does what `button` does, when the button is there and enabled:
    the row's one action in a list whose rows have no page of their own (issue 29 point 1)."""
    table.activated.connect(lambda _row: button.isVisible() and button.isEnabled() and button.click())


class RecordTable(QWidget):
    """Filter box + sortable table. `selected()` is the row object under the cursor (or None)."""

    activated = Signal(object)          # double-click / Enter on a row
    selection_changed = Signal(object)  # the selected row object, or None

    def __init__(self, columns: Sequence[Column], parent=None, filter_placeholder: str = "Filtrar…",
                 show_filter: bool = True):
        super().__init__(parent)
        self.model = RecordTableModel(columns, self)
        self.proxy = FoldingFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText(filter_placeholder)
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self.proxy.set_filter_text)
        self.filter_edit.setVisible(show_filter)
        self.view = QTableView(self)
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(self.view.fontMetrics().height() + 10)
        self.view.setWordWrap(False)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        keyboard_list(self.view)
        # `activated` comes on a double-click and on Enter (keyboard_list), one signal for both
        self.view.activated.connect(lambda index: self.activated.emit(index.data(ROW_ROLE)))
        # Issue 27 point 1: a mouse click sets the current row first and selects it afterwards, the arrows do both
        # at once; a screen that asked `selected()` on currentRowChanged saw nothing selected after a click (and a
        # click on the only row left by a filter changes no current row at all). The signal follows both.
        watch_selection(self.view, self.selected, self.selection_changed.emit)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.view, 1)

    def set_rows(self, rows: Sequence[Any], keep: Callable[[Any], Any] | None = None) -> None:
        """Replace the rows; with `keep` (a key function, e.g. `lambda r: r.id`) the same record stays selected."""
        previous = self.selected()
        self.model.set_rows(rows)
        self.view.resizeColumnsToContents()
        if previous is not None and keep is not None:
            self.select_where(lambda row: keep(row) == keep(previous))
        else:
            self.selection_changed.emit(self.selected())

    def select_where(self, predicate: Callable[[Any], bool]) -> bool:
        for proxy_row in range(self.proxy.rowCount()):
            index = self.proxy.index(proxy_row, 0)
            if predicate(index.data(ROW_ROLE)):
                self.view.setCurrentIndex(index)
                self.view.selectRow(proxy_row)
                return True
        self.view.clearSelection()
        self.selection_changed.emit(None)
        return False

    def selected(self) -> Any:
        index = self.view.currentIndex()
        if not index.isValid() or not self.view.selectionModel().isRowSelected(index.row(), index.parent()):
            return None
        return index.data(ROW_ROLE)

    def visible_rows(self) -> list[Any]:
        return [self.proxy.index(r, 0).data(ROW_ROLE) for r in range(self.proxy.rowCount())]
