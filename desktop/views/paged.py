"""The one lazy, server-paged table of the back office (STYLE: "every list screen is lazy enough for 100,000 rows
— query the page, not the table"; "one parametrized widget, not copy-pasted screens").

`PagedModel` asks a `PageFetch` — `fetch(cursor, limit) -> (rows, next_cursor, total)` — for one page at a time:
the first page with `cursor=None`, the next ones through Qt's `canFetchMore` / `fetchMore` as the user scrolls.
The cursor is opaque: an offset (`offset_pages`, the registry lists) or the last key seen (keyset paging, the
enforcement and ledger lists). `next_cursor=None` means there is no more; `total` is the count when the service
knows it (else None). Each cell's display text is formatted once, when first shown (babel money costs ~0.5 ms a
cell). `PagedView` is the table widget part both list widgets share: row selection, double-click → the row object.

`desktop.views.registry.paged` (offset paging, filter box, "N registros") and
`desktop.views.enforcement.lazy_table` (keyset paging, the screen's filters, "N linhas carregadas") are thin
layers over these two classes.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from desktop.views.table import ROW_ROLE, Column, RecordTableModel, default_text
from desktop.views.table import keyboard_list
from desktop.views.table import watch_selection

PageFetch = Callable[[Any, int], tuple[Sequence[Any], Any, "int | None"]]
"""(cursor, limit) -> (rows, next_cursor or None at the end, total or None)."""

LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


@dataclass(frozen=True)
class PagedColumn:
    """One column: header, how to read the value from a row object, how to show it, and the service's name of
    the order this column sorts by (None: the service cannot sort by it)."""

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
        return Column(self.header, self.value, self.text).sort_key(row)


def offset_pages(fetch: Callable[[int, int], Any]) -> PageFetch:
    """Offset paging over `fetch(offset, limit)`, which returns a `services.search.Page` (rows + total) or a plain
    sequence of rows. The cursor is the offset of the next page."""

    def page(cursor: Any, limit: int) -> tuple[list[Any], Any, int | None]:
        offset = cursor or 0
        result = fetch(offset, limit)
        if hasattr(result, "rows") and hasattr(result, "total"):
            rows, total = list(result.rows), int(result.total)
        else:
            rows, total = list(result), None
        end = offset + len(rows)
        if total is not None and offset == 0:
            more = end < total
        else:
            more = len(rows) >= limit and (total is None or end < total)
        return rows, end if more else None, total

    return page


class PagedModel(RecordTableModel):
    """Read-only rows filled page by page from a `PageFetch`. `restart(fetch)` empties the table and loads the
    first page; `replace(...)` shows a first page already fetched (so a failed query can keep the old rows)."""

    loaded = Signal(int, bool)   # rows loaded so far, whether the end was reached
    failed = Signal(object)      # an exception raised by the fetch (the screen shows it)

    highlight: Callable[[Any], Any] | None = None   # row -> a QColor/QBrush for the background, or None
    auto_align = False   # columns without `align`: numbers right-aligned (True) or everything left (False)

    def __init__(self, columns: Sequence[PagedColumn], parent=None, page_size: int = 50,
                 fetch: PageFetch | None = None):
        super().__init__(columns, parent)
        self._texts: list[list[str | None]] = []      # display text per cell, formatted once when first shown
        self._aligns: list[int | None] = [None] * len(self._columns)
        self._fetch = fetch
        self._cursor: Any = None
        self._exhausted = True
        self._resetting = False
        self.page_size = page_size
        self.pages_fetched = 0
        self.total: int | None = None   # from the service, when it says
        self.error: BaseException | None = None

    # -- pages ----------------------------------------------------------------------------------------------
    def replace(self, fetch: PageFetch | None, rows: Sequence[Any], cursor: Any, total: int | None) -> None:
        """Show `rows` (a first page) and continue with `fetch` from `cursor` (None: nothing more)."""
        self.beginResetModel()
        self._fetch = fetch
        self._rows = list(rows)
        self._texts = [[None] * len(self._columns) for _ in self._rows]
        self._cursor = cursor
        self._exhausted = fetch is None or cursor is None
        self.total = total
        self.pages_fetched = 1 if self._rows else 0
        # Listeners of modelReset (views, testers) may ask for more rows while the reset is still being
        # announced; answer "nothing more" until it is over, then scrolling fetches normally.
        self._resetting = True
        try:
            self.endResetModel()
        finally:
            self._resetting = False

    def restart(self, fetch: PageFetch | None) -> None:
        """Forget every row and load the first page with `fetch` (None: an empty table)."""
        self.replace(fetch, [], None, None)
        self.pages_fetched = 0
        if fetch is not None:
            self._exhausted = False
            self.fetchMore(QModelIndex())

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:
        return not parent.isValid() and not self._exhausted and not self._resetting

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> None:
        if parent.isValid() or self._exhausted or self._resetting or self._fetch is None:
            return
        try:
            rows, cursor, total = self._fetch(self._cursor, self.page_size)
        except Exception as error:  # noqa: BLE001 — the screen shows the message; the table stays usable
            self.error = error
            self._exhausted = True
            self.failed.emit(error)
            return
        rows = list(rows)
        self.pages_fetched += 1
        self._cursor = cursor
        if total is not None:
            self.total = total
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

    def fetch_all(self, limit: int) -> bool:
        """Fetch pages until the end or `limit` rows; True when every row is loaded."""
        while not self._exhausted and len(self._rows) < limit:
            self.fetchMore(QModelIndex())
        return self._exhausted

    def reorder(self, key: Callable[[Any], Any], descending: bool) -> None:
        """Sort the loaded rows in memory (their cached texts follow)."""
        self.layoutAboutToBeChanged.emit()
        order = sorted(range(len(self._rows)), key=lambda i: key(self._rows[i]), reverse=descending)
        self._rows = [self._rows[i] for i in order]
        self._texts = [self._texts[i] for i in order]
        self.layoutChanged.emit()

    # -- Qt model interface (rowCount, columnCount, headerData, flags: RecordTableModel) ---------------------
    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        if not (0 <= r < len(self._rows)) or not (0 <= c < len(self._columns)):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            texts = self._texts[r]
            text = texts[c]
            if text is None:
                text = texts[c] = self._columns[c].display(self._rows[r])
            return text
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self._alignment(r, c)
        if role == Qt.ItemDataRole.BackgroundRole and self.highlight is not None:
            return self.highlight(self._rows[r])
        if role == ROW_ROLE:
            return self._rows[r]
        return None

    def _alignment(self, r: int, c: int) -> int:
        column = self._columns[c]
        if not self.auto_align:
            return int((column.align or Qt.AlignmentFlag.AlignLeft) | Qt.AlignmentFlag.AlignVCenter)
        align = self._aligns[c]
        if align is None:
            if column.align is not None:
                align = int(column.align | Qt.AlignmentFlag.AlignVCenter)
            else:
                value = column.value(self._rows[r])
                numeric = isinstance(value, (int, Decimal)) and not isinstance(value, bool)
                align = RIGHT if numeric else LEFT
            self._aligns[c] = align
        return align


class PagedView(QWidget):
    """Base of the list widgets: `self.view` (made by `_setup_view`), a read-only, single-row-selection table over `model`; emits the
    row object on double-click (`activated`) and when the current row changes (`selection_changed`)."""

    activated = Signal(object)
    selection_changed = Signal(object)

    def __init__(self, model: PagedModel, parent=None):
        super().__init__(parent)
        self.model = model
        model.setParent(self)

    def _setup_view(self) -> None:
        """Create `self.view` (here, not in __init__: the creation order of the children is the Tab order)."""
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

        keyboard_list(self.view)   # Tab leaves, Enter opens, focus selects (issue 29 point 1)
        self.view.activated.connect(lambda index: self.activated.emit(index.data(ROW_ROLE)))

    def _connect_selection(self) -> None:
        """Both signals, and the row as `selected()` sees it: a mouse click makes the row current before it selects
        it (issue 27 point 1)."""

        watch_selection(self.view, self.selected, self.selection_changed.emit)

    def set_widths(self, widths: Sequence[int]) -> None:
        for column, width in enumerate(widths):
            self.view.setColumnWidth(column, width)

    def selected(self) -> Any:
        index = self.view.currentIndex()
        if not index.isValid() or not self.view.selectionModel().isRowSelected(index.row(), index.parent()):
            return None
        return index.data(ROW_ROLE)
