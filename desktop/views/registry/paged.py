"""Lists lazy enough for 100,000 rows (STYLE: query the page, not the table).

`PagedTableModel` asks a `fetch(query, offset, limit)` callable — a thin lambda over a service's list function —
for one page at a time: the first page when the query changes, the next ones through Qt's `canFetchMore` /
`fetchMore` as the user scrolls. Sorting a column sends its server-side key back to the service (the database
sorts, with its indexes); filtering sends the text typed (the service folds accents and case, so "joao" finds
"João" on SQLite and PostgreSQL alike). `PagedList` is the widget: filter box debounced ~150 ms, status filter,
sortable table, a "N registros" line.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QTableView, QVBoxLayout, QWidget)

from desktop.views.table import ROW_ROLE, default_text

PAGE_SIZE = 50   # a screenful and a half; the next pages come as the user scrolls (fetchMore)
FILTER_DELAY_MS = 150


@dataclass(frozen=True)
class ListColumn:
    """One column: header, how to read the value from a row (a frozen dataclass of a service), how to show it,
    and the name the service sorts by (None: the column is not sortable)."""

    header: str
    value: Callable[[Any], Any]
    text: Callable[[Any], str] | None = None
    sort_key: str | None = None
    align: Qt.AlignmentFlag | None = None

    def display(self, row: Any) -> str:
        value = self.value(row)
        return self.text(value) if self.text is not None else default_text(value)


@dataclass(frozen=True)
class ListQuery:
    """What the list shows: the text typed, the status chosen ("" = all), and the order."""

    text: str = ""
    status: str = ""
    sort: str | None = None
    descending: bool = False


Fetch = Callable[[ListQuery, int, int], Any]
"""(query, offset, limit) -> a `services.search.Page` (rows + total) or a plain sequence of rows."""


def _unpack(result: Any) -> tuple[list[Any], int | None]:
    if hasattr(result, "rows") and hasattr(result, "total"):
        return list(result.rows), int(result.total)
    return list(result), None


class PagedTableModel(QAbstractTableModel):
    """Read-only table filled page by page from a service (server-side filtering, sorting and paging)."""

    highlight: Callable[[Any], Any] | None = None   # row -> a QColor/QBrush for the background, or None

    def __init__(self, columns: Sequence[ListColumn], fetch: Fetch, parent=None, page_size: int = PAGE_SIZE):
        super().__init__(parent)
        self._columns = list(columns)
        self._fetch = fetch
        self._page_size = page_size
        self._rows: list[Any] = []
        self._exhausted = True
        self._resetting = False
        self._query = ListQuery()
        self.error: BaseException | None = None
        self.total: int | None = None   # from the service's Page, when it says

    # -- queries ---------------------------------------------------------------------------------------------
    @property
    def query(self) -> ListQuery:
        return self._query

    def set_query(self, query: ListQuery) -> None:
        """Fetch the first page of `query` (keeps the rows shown if the service fails, and records the error)."""
        try:
            rows, total = _unpack(self._fetch(query, 0, self._page_size))
        except Exception as error:  # noqa: BLE001 — the widget shows it; the list stays usable
            self.error = error
            return
        self.error = None
        self.beginResetModel()
        self._query = query
        self._rows = rows
        self.total = total
        self._exhausted = len(rows) < self._page_size if total is None else len(rows) >= total
        # Listeners of modelReset (views, testers) may ask for more rows while the reset is still being
        # announced; answer "nothing more" until it is over, then scrolling fetches normally.
        self._resetting = True
        try:
            self.endResetModel()
        finally:
            self._resetting = False

    def reload(self) -> None:
        self.set_query(self._query)

    def rows(self) -> list[Any]:
        return list(self._rows)

    def row_at(self, row: int) -> Any:
        return self._rows[row]

    def column(self, index: int) -> ListColumn:
        return self._columns[index]

    # -- lazy loading ----------------------------------------------------------------------------------------
    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:
        return not parent.isValid() and not self._exhausted and not self._resetting

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> None:
        if parent.isValid() or self._exhausted or self._resetting:
            return
        try:
            more, total = _unpack(self._fetch(self._query, len(self._rows), self._page_size))
        except Exception as error:  # noqa: BLE001
            self.error = error
            self._exhausted = True
            return
        if total is not None:
            self.total = total
        self._exhausted = len(more) < self._page_size or (total is not None and len(self._rows) + len(more)
                                                           >= total)
        if more:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(more) - 1)
            self._rows.extend(more)
            self.endInsertRows()

    # -- Qt model interface ----------------------------------------------------------------------------------
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
            align = column.align or Qt.AlignmentFlag.AlignLeft
            return int(align | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole and self.highlight is not None:
            return self.highlight(row)
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

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The database sorts: the column's server key goes into the query (columns without one keep the order)."""
        if not 0 <= column < len(self._columns) or self._columns[column].sort_key is None:
            return
        self.set_query(replace(self._query, sort=self._columns[column].sort_key,
                               descending=order == Qt.SortOrder.DescendingOrder))


class PagedList(QWidget):
    """Filter box (debounced) + status filter + sortable, lazily filled table. Emits the row objects."""

    activated = Signal(object)          # double-click / Enter on a row
    selection_changed = Signal(object)  # the selected row object, or None
    reloaded = Signal()

    def __init__(self, columns: Sequence[ListColumn], fetch: Fetch, parent=None,
                 filter_placeholder: str = "Filtrar…", statuses: Sequence[tuple[str, str]] = (),
                 page_size: int = PAGE_SIZE):
        super().__init__(parent)
        self.model = PagedTableModel(columns, fetch, self, page_size=page_size)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText(filter_placeholder)
        self.filter_edit.setClearButtonEnabled(True)
        self.status_combo = QComboBox(self)
        self.status_combo.addItem("Todas as situações", "")
        for value, label in statuses:
            self.status_combo.addItem(label, value)
        self.status_combo.setVisible(bool(statuses))
        self.count_label = QLabel(self)
        self.error_label = QLabel(self)
        self.error_label.setStyleSheet("color: #c62828;")
        self.error_label.setWordWrap(True)
        self.error_label.setVisible(False)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FILTER_DELAY_MS)
        self._timer.timeout.connect(self.apply_filter)
        self.filter_edit.textChanged.connect(lambda _text: self._timer.start())
        self.status_combo.currentIndexChanged.connect(lambda _i: self.apply_filter())

        self.view = QTableView(self)
        self.view.setModel(self.model)
        # No column sorted until the user clicks one: the service's own order (e.g. name, protocol date desc).
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSortingEnabled(True)
        self.view.horizontalHeader().setSortIndicatorShown(False)
        self._sorted = (-1, Qt.SortOrder.AscendingOrder)
        self.view.horizontalHeader().sortIndicatorChanged.connect(self._sort_indicator_changed)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(24)
        header = self.view.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.doubleClicked.connect(lambda index: self.activated.emit(index.data(ROW_ROLE)))
        self.view.activated.connect(lambda index: self.activated.emit(index.data(ROW_ROLE)))
        self.view.selectionModel().currentRowChanged.connect(
            lambda current, _p: self.selection_changed.emit(current.data(ROW_ROLE) if current.isValid() else None))
        self.model.modelReset.connect(self._after_reset)

        top = QHBoxLayout()
        top.addWidget(self.filter_edit, 1)
        top.addWidget(self.status_combo)
        top.addWidget(self.count_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.error_label)
        layout.addWidget(self.view)

    def _sort_indicator_changed(self, section: int, order: Qt.SortOrder) -> None:
        """Only columns the service can sort show the arrow; a click on another leaves the order as it was."""
        header = self.view.horizontalHeader()
        if 0 <= section < self.model.columnCount() and self.model.column(section).sort_key is not None:
            self._sorted = (section, order)
            header.setSortIndicatorShown(True)
            return
        header.blockSignals(True)
        header.setSortIndicator(*self._sorted)
        header.blockSignals(False)
        header.setSortIndicatorShown(self._sorted[0] >= 0)

    def set_widths(self, widths: Sequence[int]) -> None:
        for column, width in enumerate(widths):
            self.view.setColumnWidth(column, width)

    def query(self) -> ListQuery:
        return replace(self.model.query, text=self.filter_edit.text().strip(),
                       status=self.status_combo.currentData() or "")

    def apply_filter(self) -> None:
        """Run the query now (the debounce timer calls this ~150 ms after the last keystroke)."""
        self._timer.stop()
        self.model.set_query(self.query())
        self._show_error()

    def reload(self) -> None:
        self.model.reload()
        self._show_error()

    def _show_error(self) -> None:
        error = self.model.error
        if error is not None:
            from desktop.views.widgets import error_text

            self.error_label.setText(f"Não foi possível carregar a lista: {error_text(error)}")
        self.error_label.setVisible(error is not None)

    def _after_reset(self) -> None:
        total = self.model.total
        if total is None and not self.model.canFetchMore():
            total = self.model.rowCount()
        if total is None:
            self.count_label.setText(f"{self.model.rowCount()}+ registros")
        else:
            self.count_label.setText("1 registro" if total == 1 else f"{total:,} registros".replace(",", "."))
        self.selection_changed.emit(None)
        self.reloaded.emit()

    def selected(self) -> Any:
        index = self.view.currentIndex()
        if not index.isValid() or not self.view.selectionModel().isRowSelected(index.row(), index.parent()):
            return None
        return index.data(ROW_ROLE)

    def select_where(self, predicate: Callable[[Any], bool]) -> bool:
        for row in range(self.model.rowCount()):
            if predicate(self.model.row_at(row)):
                self.view.selectRow(row)
                self.view.setCurrentIndex(self.model.index(row, 0))
                return True
        return False

    def visible_rows(self) -> list[Any]:
        return self.model.rows()
