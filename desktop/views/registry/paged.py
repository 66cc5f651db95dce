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

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout

from desktop.domain.formatting import format_integer
from desktop.views.paged import PagedColumn, PagedModel, PagedView, offset_pages

PAGE_SIZE = 50   # a screenful and a half; the next pages come as the user scrolls (fetchMore)
FILTER_DELAY_MS = 150

ListColumn = PagedColumn
"""One column: header, how to read the value from a row (a frozen dataclass of a service), how to show it, and
the name the service sorts by (None: the column is not sortable)."""


@dataclass(frozen=True)
class ListQuery:
    """What the list shows: the text typed, the status chosen ("" = all), and the order."""

    text: str = ""
    status: str = ""
    sort: str | None = None
    descending: bool = False


Fetch = Callable[[ListQuery, int, int], Any]
"""(query, offset, limit) -> a `services.search.Page` (rows + total) or a plain sequence of rows."""


class PagedTableModel(PagedModel):
    """Read-only table filled page by page from a service (server-side filtering, sorting and offset paging)."""

    def __init__(self, columns: Sequence[ListColumn], fetch: Fetch, parent=None, page_size: int = PAGE_SIZE):
        super().__init__(columns, parent, page_size=page_size)
        self._query_fetch = fetch
        self._query = ListQuery()

    @property
    def query(self) -> ListQuery:
        return self._query

    def set_query(self, query: ListQuery) -> None:
        """Fetch the first page of `query` (keeps the rows shown if the service fails, and records the error)."""
        pages = offset_pages(lambda offset, limit: self._query_fetch(query, offset, limit))
        try:
            rows, cursor, total = pages(None, self.page_size)
        except Exception as error:  # noqa: BLE001 — the widget shows it; the list stays usable
            self.error = error
            return
        self.error = None
        self._query = query
        self.replace(pages, rows, cursor, total)

    def reload(self) -> None:
        self.set_query(self._query)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The database sorts: the column's server key goes into the query (columns without one keep the order)."""
        if not 0 <= column < len(self._columns) or self._columns[column].sort_key is None:
            return
        self.set_query(replace(self._query, sort=self._columns[column].sort_key,
                               descending=order == Qt.SortOrder.DescendingOrder))


class PagedList(PagedView):
    """Filter box (debounced) + status filter + sortable, lazily filled table. Emits the row objects."""

    reloaded = Signal()

    def __init__(self, columns: Sequence[ListColumn], fetch: Fetch, parent=None,
                 filter_placeholder: str = "Filtrar…", statuses: Sequence[tuple[str, str]] = (),
                 page_size: int = PAGE_SIZE):
        super().__init__(PagedTableModel(columns, fetch, page_size=page_size), parent)
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

        self._setup_view()
        # No column sorted until the user clicks one: the service's own order (e.g. name, protocol date desc).
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSortingEnabled(True)
        self.view.horizontalHeader().setSortIndicatorShown(False)
        self._sorted = (-1, Qt.SortOrder.AscendingOrder)
        self.view.horizontalHeader().sortIndicatorChanged.connect(self._sort_indicator_changed)
        self._connect_selection()
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
            from desktop.views.widgets import error_text  # local: imported only on this branch

            self.error_label.setText(f"Não foi possível carregar a lista: {error_text(error)}")
        self.error_label.setVisible(error is not None)

    def _after_reset(self) -> None:
        total = self.model.total
        if total is None and not self.model.canFetchMore():
            total = self.model.rowCount()
        if total is None:
            self.count_label.setText(f"{self.model.rowCount()}+ registros")
        else:
            self.count_label.setText("1 registro" if total == 1 else f"{format_integer(total)} registros")
        self.selection_changed.emit(None)
        self.reloaded.emit()

    def select_where(self, predicate: Callable[[Any], bool]) -> bool:
        for row in range(self.model.rowCount()):
            if predicate(self.model.row_at(row)):
                self.view.selectRow(row)
                self.view.setCurrentIndex(self.model.index(row, 0))
                return True
        return False

    def visible_rows(self) -> list[Any]:
        return self.model.rows()
