"""A table over a list too large to load: pages asked from a service as the user scrolls (keyset pagination).

STYLE: "every list screen is lazy enough for 100,000 rows (query the page, not the table)". Qt asks the model
`canFetchMore()` when the view reaches the last loaded row and then `fetchMore()`; this model answers with the
next page from a `PageLoader` — a plain callable `loader(cursor, limit) -> (rows, next_cursor)` that wraps one
service call (the first page has `cursor=None`; `next_cursor=None` means there is no more). Nothing is ever
loaded past what the view has shown.

Sorting: when the column names a `sort_key` and the screen gave `on_sort(key, descending)`, the service sorts
(the order decides the keyset) and the screen resets the loader. Otherwise the rows are sorted in memory — but only
when the whole filtered list fits in `local_sort_limit` rows (the remaining pages are fetched first); a larger
list keeps the service's order and the status line asks the user to narrow the filters. Never the whole table.

`LazyRecordTable` is the one parametrized widget every lazy list of Fiscalização and Financeiro uses: a bar of
filters on top (whatever widgets the screen puts there), the table, and a line "N linhas carregadas" / "fim".
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from desktop.views.table import ROW_ROLE, default_text

PageLoader = Callable[[Any, int], tuple[Sequence[Any], Any]]
PAGE_SIZE = 200
ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


@dataclass(frozen=True)
class LazyColumn:
    """One column: header, how to read the value from a row object, how to show it, and the service's name of
    the order this column sorts by (None: not sortable)."""

    header: str
    value: Callable[[Any], Any]
    text: Callable[[Any], str] | None = None
    sort_key: str | None = None
    align: Qt.AlignmentFlag | None = None

    def display(self, row: Any) -> str:
        value = self.value(row)
        return self.text(value) if self.text is not None else default_text(value)

    def order_key(self, row: Any) -> tuple:
        """A key that orders any value: empty first, then numbers, dates, texts (accent-free)."""
        from desktop.views.table import Column

        return Column(self.header, self.value, self.text).sort_key(row)


class LazyRecordModel(QAbstractTableModel):
    """Rows arrive page by page through `fetchMore`; `reset(loader)` starts over (a new filter or order)."""

    loaded = Signal(int, bool)   # rows loaded so far, whether the end was reached
    failed = Signal(object)      # an exception raised by the loader (the screen shows it)
    sort_refused = Signal(int)   # the list is larger than local_sort_limit: kept in the service's order

    def __init__(self, columns: Sequence[LazyColumn], parent=None, page_size: int = PAGE_SIZE):
        super().__init__(parent)
        self._columns = list(columns)
        self._rows: list[Any] = []
        self._texts: list[list[str | None]] = []      # display text per cell, formatted once when first shown
        self._aligns: list[int | None] = [None] * len(self._columns)
        self._loader: PageLoader | None = None
        self._cursor: Any = None
        self._exhausted = True
        self.page_size = page_size
        self.pages_fetched = 0
        self.sort_column = -1
        self.sort_descending = False
        self.on_sort: Callable[[str, bool], None] | None = None
        self.local_sort_limit = 5000

    # -- pages ----------------------------------------------------------------------------------------------
    def reset(self, loader: PageLoader | None) -> None:
        """Forget every row and load the first page with `loader` (None: an empty table)."""
        self.beginResetModel()
        self._rows = []
        self._texts = []
        self._loader = loader
        self._cursor = None
        # nothing to fetch while the reset is announced (views ask canFetchMore inside modelReset)
        self._exhausted = True
        self.pages_fetched = 0
        self.endResetModel()
        if loader is not None:
            self._exhausted = False
            self.fetchMore(QModelIndex())

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:
        return not parent.isValid() and not self._exhausted

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> None:
        if parent.isValid() or self._exhausted or self._loader is None:
            return
        try:
            rows, cursor = self._loader(self._cursor, self.page_size)
        except Exception as error:  # noqa: BLE001 — the screen shows the message; the table stays usable
            self._exhausted = True
            self.failed.emit(error)
            return
        rows = list(rows)
        self.pages_fetched += 1
        self._cursor = cursor
        self._exhausted = cursor is None or not rows
        if rows:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
            self._rows.extend(rows)
            self._texts.extend([None] * len(self._columns) for _ in rows)
            self.endInsertRows()
        self.loaded.emit(len(self._rows), self._exhausted)

    @property
    def exhausted(self) -> bool:
        return self._exhausted

    def rows(self) -> list[Any]:
        return list(self._rows)

    def row_at(self, row: int) -> Any:
        return self._rows[row]

    def column(self, index: int) -> LazyColumn:
        return self._columns[index]

    # -- Qt model interface ---------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        if not (0 <= r < len(self._rows)) or not (0 <= c < len(self._columns)):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            # Formatting money with babel costs ~0.5 ms a cell: each cell is formatted once, when first shown.
            texts = self._texts[r]
            text = texts[c]
            if text is None:
                text = texts[c] = self._columns[c].display(self._rows[r])
            return text
        if role == Qt.ItemDataRole.TextAlignmentRole:
            align = self._aligns[c]
            if align is None:
                column = self._columns[c]
                if column.align is not None:
                    align = int(column.align | Qt.AlignmentFlag.AlignVCenter)
                else:
                    value = column.value(self._rows[r])
                    numeric = isinstance(value, (int, Decimal)) and not isinstance(value, bool)
                    align = RIGHT if numeric else LEFT
                self._aligns[c] = align
            return align
        if role == ROW_ROLE:
            return self._rows[r]
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
        return ROW_FLAGS

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """By the service when it can (the keyset follows the order), else in memory for a list that fits."""
        if not (0 <= column < len(self._columns)):
            return
        self.sort_column = column
        self.sort_descending = order == Qt.SortOrder.DescendingOrder
        spec = self._columns[column]
        if spec.sort_key is not None and self.on_sort is not None:
            self.on_sort(spec.sort_key, self.sort_descending)
            return
        while not self._exhausted and len(self._rows) < self.local_sort_limit:
            self.fetchMore(QModelIndex())
        if not self._exhausted:
            self.sort_refused.emit(len(self._rows))
            return
        self.layoutAboutToBeChanged.emit()
        order = sorted(range(len(self._rows)), key=lambda i: spec.order_key(self._rows[i]),
                       reverse=self.sort_descending)
        self._rows = [self._rows[i] for i in order]
        self._texts = [self._texts[i] for i in order]
        self.layoutChanged.emit()


class LazyRecordTable(QWidget):
    """Filters (given by the screen) + the lazy table + a status line. `selected()` is the row under the
    cursor. The screen calls `reset(loader)` whenever a filter or the order changes."""

    activated = Signal(object)
    selection_changed = Signal(object)

    def __init__(self, columns: Sequence[LazyColumn], parent=None, filters: QWidget | None = None,
                 page_size: int = PAGE_SIZE):
        super().__init__(parent)
        self.model = LazyRecordModel(columns, self, page_size=page_size)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(24)
        header = self.view.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setResizeContentsPrecision(40)   # column widths from the first rows, not from every loaded one
        header.setSortIndicatorShown(True)
        header.setSectionsClickable(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # the service's own order until a click
        header.sortIndicatorChanged.connect(self._sort_clicked)
        self.status = QLabel(self)
        self.status.setStyleSheet("color: #555;")
        self.view.doubleClicked.connect(lambda index: self.activated.emit(index.data(ROW_ROLE)))
        self.view.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self.selection_changed.emit(
                current.data(ROW_ROLE) if current.isValid() else None))
        self.model.loaded.connect(self._show_status)
        self.model.sort_refused.connect(lambda count: self.status.setText(
            f"Mais de {count} registros: a lista fica na ordem padrão (mais recentes primeiro). Refine os filtros "
            "para ordenar por esta coluna."))
        self.model.modelReset.connect(lambda: self.selection_changed.emit(None))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if filters is not None:
            layout.addWidget(filters)
        layout.addWidget(self.view)
        layout.addWidget(self.status)
        self._sized = False

    def set_columns_widths(self, widths: Sequence[int]) -> None:
        for index, width in enumerate(widths):
            self.view.setColumnWidth(index, width)
        self._sized = True

    def reset(self, loader: PageLoader | None) -> None:
        self.model.reset(loader)
        if not self._sized and self.model.rowCount():
            self.fit_columns()
            self._sized = True

    def fit_columns(self, sample: int = 25, limit: int = 420) -> None:
        """Column widths from the header and the first rows' texts (cheaper than Qt's resizeColumnsToContents,
        which asks every role of every cell)."""
        metrics = self.view.fontMetrics()
        header_metrics = self.view.horizontalHeader().fontMetrics()
        model = self.model
        rows = min(sample, model.rowCount())
        for column in range(model.columnCount()):
            width = header_metrics.horizontalAdvance(str(model.headerData(column, Qt.Orientation.Horizontal))) + 24
            for row in range(rows):
                text = model.data(model.index(row, column))
                width = max(width, metrics.horizontalAdvance(text or "") + 14)
            self.view.setColumnWidth(column, min(width, limit))

    def _sort_clicked(self, column: int, order: Qt.SortOrder) -> None:
        self.model.sort(column, order)

    def _show_status(self, count: int, exhausted: bool) -> None:
        if count == 0:
            self.status.setText("Nenhum registro encontrado com estes filtros.")
        elif exhausted:
            self.status.setText(f"{count} registro(s) — todos carregados.")
        else:
            self.status.setText(f"{count} registros carregados — role a lista para carregar mais.")

    def selected(self) -> Any:
        index = self.view.currentIndex()
        if not index.isValid() or not self.view.selectionModel().isRowSelected(index.row(), index.parent()):
            return None
        return index.data(ROW_ROLE)

    def select_row(self, row: int) -> None:
        index = self.model.index(row, 0)
        self.view.setCurrentIndex(index)
        self.view.selectRow(row)

    def loaded_rows(self) -> list[Any]:
        return self.model.rows()
