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
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from desktop.views.paged import PagedColumn, PagedModel, PagedView

PageLoader = Callable[[Any, int], tuple[Sequence[Any], Any]]
PAGE_SIZE = 200

LazyColumn = PagedColumn
"""One column: header, how to read the value from a row object, how to show it, and the service's name of the
order this column sorts by (None: not sortable)."""


def _keyset(loader: PageLoader) -> Callable[[Any, int], tuple[Sequence[Any], Any, None]]:
    def page(cursor: Any, limit: int) -> tuple[Sequence[Any], Any, None]:
        rows, next_cursor = loader(cursor, limit)
        return rows, next_cursor, None

    return page


class LazyRecordModel(PagedModel):
    """Rows arrive page by page through `fetchMore`; `reset(loader)` starts over (a new filter or order)."""

    sort_refused = Signal(int)   # the list is larger than local_sort_limit: kept in the service's order
    auto_align = True

    def __init__(self, columns: Sequence[LazyColumn], parent=None, page_size: int = PAGE_SIZE):
        super().__init__(columns, parent, page_size=page_size)
        self.sort_column = -1
        self.sort_descending = False
        self.on_sort: Callable[[str, bool], None] | None = None
        self.local_sort_limit = 5000

    def reset(self, loader: PageLoader | None) -> None:
        """Forget every row and load the first page with `loader` (None: an empty table)."""
        self.restart(_keyset(loader) if loader is not None else None)

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
        if not self.fetch_all(self.local_sort_limit):
            self.sort_refused.emit(len(self._rows))
            return
        self.reorder(spec.order_key, self.sort_descending)


class LazyRecordTable(PagedView):
    """Filters (given by the screen) + the lazy table + a status line. `selected()` is the row under the
    cursor. The screen calls `reset(loader)` whenever a filter or the order changes."""

    def __init__(self, columns: Sequence[LazyColumn], parent=None, filters: QWidget | None = None,
                 page_size: int = PAGE_SIZE):
        super().__init__(LazyRecordModel(columns, page_size=page_size), parent)
        self._setup_view()
        header = self.view.horizontalHeader()
        header.setResizeContentsPrecision(40)   # column widths from the first rows, not from every loaded one
        header.setSortIndicatorShown(True)
        header.setSectionsClickable(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # the service's own order until a click
        header.sortIndicatorChanged.connect(self._sort_clicked)
        self.status = QLabel(self)
        self.status.setStyleSheet("color: #555;")
        self._connect_selection()
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
        self.set_widths(widths)
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

    def select_row(self, row: int) -> None:
        index = self.model.index(row, 0)
        self.view.setCurrentIndex(index)
        self.view.selectRow(row)

    def loaded_rows(self) -> list[Any]:
        return self.model.rows()
