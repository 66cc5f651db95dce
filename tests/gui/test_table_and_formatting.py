"""The one parametrized table of every list screen (checked with pytest-qt's qtmodeltester), and the Brazilian
forms of numbers, money and phones the screens read and write (SPEC §1)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt

from desktop.views.formatting import format_brl, format_decimal_br, format_phone, parse_decimal_br
from desktop.views.table import Column, RecordTable, RecordTableModel


@dataclass(frozen=True)
class Row:
    id: int
    name: str
    day: date
    amount: Decimal
    note: str | None = None


ROWS = [Row(1, "João da Silva", date(2026, 3, 10), Decimal("1234.5")),
        Row(2, "Ana Souza", date(2025, 12, 31), Decimal("99.99"), "ok"),
        Row(3, "Márcia Conceição", date(2026, 1, 2), Decimal("100"))]
COLUMNS = (Column("Nome", lambda r: r.name), Column("Data", lambda r: r.day),
           Column("Valor", lambda r: r.amount, text=lambda v: format_brl(v)), Column("Obs.", lambda r: r.note))


def test_record_table_model_passes_qt_model_tester(qtmodeltester):
    model = RecordTableModel(COLUMNS)
    model.set_rows(ROWS)
    qtmodeltester.check(model, force_py=True)
    assert model.index(0, 1).data() == "10/03/2026"
    assert model.index(0, 2).data() == "R$ 1.234,50"
    assert model.index(1, 3).data() == "ok" and model.index(0, 3).data() == ""
    assert model.headerData(2, Qt.Orientation.Horizontal) == "Valor"
    assert model.index(0, 2).data(Qt.ItemDataRole.TextAlignmentRole) & int(Qt.AlignmentFlag.AlignRight)


def test_filter_proxy_passes_qt_model_tester(qtbot, qtmodeltester):
    table = RecordTable(COLUMNS)
    qtbot.addWidget(table)
    table.set_rows(ROWS)
    table.filter_edit.setText("conceicao")
    qtmodeltester.check(table.proxy, force_py=True)
    assert [r.id for r in table.visible_rows()] == [3]


def test_filter_as_you_type_ignores_accents_and_case_and_needs_every_word(qtbot):
    table = RecordTable(COLUMNS)
    qtbot.addWidget(table)
    table.set_rows(ROWS)
    qtbot.keyClicks(table.filter_edit, "JOAO")
    assert [r.id for r in table.visible_rows()] == [1]
    table.filter_edit.setText("silva 2026")
    assert [r.id for r in table.visible_rows()] == [1]
    table.filter_edit.setText("silva 2025")
    assert table.visible_rows() == []
    table.filter_edit.clear()
    assert len(table.visible_rows()) == 3


def test_sorting_uses_dates_and_numbers_not_the_text_shown(qtbot):
    table = RecordTable(COLUMNS)
    qtbot.addWidget(table)
    table.set_rows(ROWS)
    table.view.sortByColumn(1, Qt.SortOrder.AscendingOrder)  # 31/12/2025 < 02/01/2026 < 10/03/2026
    assert [r.id for r in table.visible_rows()] == [2, 3, 1]
    table.view.sortByColumn(2, Qt.SortOrder.DescendingOrder)  # 1.234,50 > 100 > 99,99
    assert [r.id for r in table.visible_rows()] == [1, 3, 2]


def test_selection_survives_a_reload(qtbot):
    table = RecordTable(COLUMNS)
    qtbot.addWidget(table)
    table.set_rows(ROWS)
    assert table.select_where(lambda r: r.id == 2)
    table.set_rows(list(reversed(ROWS)), keep=lambda r: r.id)
    assert table.selected().id == 2


@pytest.mark.parametrize("text, value", [("1.234,56", Decimal("1234.56")), ("1234,56", Decimal("1234.56")),
                                         ("R$ 112,45", Decimal("112.45")), ("12,5", Decimal("12.5")),
                                         ("7", Decimal("7")), ("3.5", Decimal("3.5"))])
def test_brazilian_decimal_comma_reads_as_decimal(text, value):
    assert parse_decimal_br(text) == value
    assert isinstance(parse_decimal_br(text), Decimal)


@pytest.mark.parametrize("text", ["", "abc", "1,2,3", "1.234", "12,34.5"])
def test_malformed_numbers_get_a_portuguese_message(text):
    with pytest.raises(ValueError) as error:
        parse_decimal_br(text)
    assert "Informe um valor" in str(error.value) or "vírgula" in str(error.value)


def test_numbers_and_phones_are_written_the_brazilian_way():
    assert format_decimal_br(Decimal("1234567.5"), 2) == "1.234.567,50"
    assert format_decimal_br(Decimal("-12")) == "-12"
    assert format_phone("6533011234") == "(65) 3301-1234"
    assert format_phone("65 99999 1234") == "(65) 99999-1234"
    assert format_phone("08006471234") == "0800 647 1234"
    assert format_phone("156") == "156"
