"""The lazy table of the ledger and autos lists (issue 6 benchmark: a ledger screen over 1,000,000 entries opens
without loading everything): pages come from a keyset loader only as the view needs them."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from PySide6.QtCore import Qt

from desktop.views.enforcement.lazy_table import LazyColumn, LazyRecordModel, LazyRecordTable


@dataclass(frozen=True)
class Row:
    id: int
    amount: Decimal


def keyset_loader(total: int, calls: list, descending: bool = False):
    """A stand-in for a service page query: rows after the cursor (an id), `limit` of them."""
    def load(cursor, limit):
        calls.append(cursor)
        if descending:
            start = total if cursor is None else cursor - 1
            ids = range(start, max(start - limit, 0), -1)
        else:
            start = 1 if cursor is None else cursor + 1
            ids = range(start, min(start + limit, total + 1))
        rows = [Row(i, Decimal(i) / 4) for i in ids]
        more = rows and (rows[-1].id < total if not descending else rows[-1].id > 1)
        return rows, (rows[-1].id if more else None)
    return load


COLUMNS = (LazyColumn("Nº", lambda r: r.id, sort_key="id"), LazyColumn("UPFM", lambda r: r.amount))


def test_lazy_model_passes_qt_model_tester(qtmodeltester):
    model = LazyRecordModel(COLUMNS, page_size=50)
    model.reset(keyset_loader(130, []))
    qtmodeltester.check(model, force_py=True)
    assert model.rowCount() >= 50


def test_million_rows_open_with_one_page_and_scroll_fetches_the_next(qtbot):
    calls: list = []
    table = LazyRecordTable(COLUMNS, page_size=100)
    qtbot.addWidget(table)
    table.resize(600, 400)
    table.reset(keyset_loader(1_000_000, calls))
    assert table.model.rowCount() == 100 and calls == [None]
    assert "role a lista" in table.status.text()
    table.view.scrollToBottom()          # the view reaches the end of what is loaded: Qt asks for more
    qtbot.waitUntil(lambda: table.model.rowCount() >= 200)
    assert calls[1] == 100               # keyset: the next page starts after the last id shown
    assert table.model.rowCount() < 1000  # never everything


def test_sorting_a_column_asks_the_service_for_that_order(qtbot):
    table = LazyRecordTable(COLUMNS, page_size=10)
    qtbot.addWidget(table)
    asked = []

    def on_sort(key, descending):
        asked.append((key, descending))
        table.reset(keyset_loader(25, [], descending=descending))

    table.model.on_sort = on_sort
    table.reset(keyset_loader(25, []))
    table.view.horizontalHeader().setSortIndicator(0, Qt.SortOrder.DescendingOrder)
    assert asked[-1] == ("id", True)
    assert table.model.row_at(0).id == 25
    # a column the service does not sort: sorted in memory, because the whole list (25 rows) fits
    table.view.horizontalHeader().setSortIndicator(1, Qt.SortOrder.AscendingOrder)
    assert asked[-1] == ("id", True)
    assert [r.id for r in table.model.rows()] == list(range(1, 26))


def test_a_list_too_large_to_sort_in_memory_keeps_the_service_order(qtbot):
    calls: list = []
    table = LazyRecordTable(COLUMNS, page_size=100)
    qtbot.addWidget(table)
    table.model.local_sort_limit = 300
    table.reset(keyset_loader(1_000_000, calls))
    table.view.horizontalHeader().setSortIndicator(1, Qt.SortOrder.DescendingOrder)
    assert table.model.rowCount() == 300          # fetched up to the limit, not the million
    assert [r.id for r in table.model.rows()[:3]] == [1, 2, 3]
    assert "Refine os filtros" in table.status.text()


def test_a_loader_error_is_reported_and_the_table_stays_usable(qtbot):
    table = LazyRecordTable(COLUMNS)
    qtbot.addWidget(table)
    errors = []
    table.model.failed.connect(errors.append)

    def broken(cursor, limit):
        raise RuntimeError("banco fora do ar")

    table.reset(broken)
    assert errors and "banco fora do ar" in str(errors[0])
    assert not table.model.canFetchMore()
