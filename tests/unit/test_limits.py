"""Issue 12 item 21: the field limits of `desktop.domain.limits`, table-driven, and the CLI's messages for a
database it cannot use (an unreachable server, a missing file, a `mysql://` URL) — in Portuguese, never
"Erro inesperado"."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest

from desktop.domain import limits

TEXT_CASES = [
    # (value, max_length, expected fragment or None when accepted)
    ("Rua das Flores, 10", 300, None),
    ("A" * 300, 300, None),
    ("A" * 301, 300, "no máximo 300 caracteres (tem 301)"),
    ("linha 1\nlinha 2\tcom tab\r\n", 300, None),
    ("nul\x00byte", 300, "caractere nulo (NUL)"),
    ("esc\x1b[0m", 300, "U+001B"),
    ("bell\x07", 300, "U+0007"),
    ("del\x7f", 300, "U+007F"),
    ("c1\x85", 300, "U+0085"),
    ("lone \ud800 surrogate", 300, "caractere inválido (U+D800)"),
    ("x" * 100_000, None, None),
    ("x" * 10_000_000, None, "no máximo 100.000 caracteres"),
    ("João Ação Über ñ 日本", 40, None),
]


@pytest.mark.parametrize("value,max_length,expected", TEXT_CASES)
def test_item21_text_limits(value, max_length, expected):
    problems = limits.text_problems("address", "endereço", value, max_length)
    if expected is None:
        assert problems == []
    else:
        assert problems and problems[0].field == "address"
        assert expected in str(problems[0]) and str(problems[0]).startswith("Endereço:")


AMOUNT_CASES = [
    (Decimal("150.00"), True),
    (Decimal("999999999.99"), True),
    (Decimal("-999999999.99"), True),
    (Decimal("1000000000.00"), False),
    (Decimal("1e30"), False),
    (Decimal(10) ** 18, False),
    (Decimal("NaN"), False),
    (Decimal("sNaN"), False),
    (Decimal("Infinity"), False),
    (Decimal("-Infinity"), False),
    (float("nan"), False),
    (float("inf"), False),
    ("1.234,56", True),
    ("R$ 1.234,56", True),
    ("NaN", False),
    ("abc", False),
    (True, False),
]


@pytest.mark.parametrize("value,accepted", AMOUNT_CASES)
def test_item21_amount_limits_no_nan_no_infinity_up_to_999_999_999_99(value, accepted):
    problems = limits.amount_problems("amount", "valor pago", value)
    assert (problems == []) is accepted
    if not accepted:
        assert problems[0].field == "amount" and problems[0].message.startswith("Valor pago:")


@pytest.mark.parametrize("value,accepted", [
    (date(1900, 1, 1), True), (date(2100, 12, 31), True), (date(1899, 12, 31), False), (date(2101, 1, 1), False),
    (date(1, 1, 1), False), (datetime(2026, 11, 18, 10, 0), True), (datetime(9999, 1, 1), False)])
def test_item21_dates_from_1900_to_2100(value, accepted):
    assert (limits.date_problems("on", "data", value) == []) is accepted


@pytest.mark.parametrize("year,accepted", [(2026, True), ("2026", True), (1900, True), (2100, True), (0, False),
                                           (-1, False), (10000, False), (1899, False), ("dois mil", False),
                                           (2026.0, False), (True, False), (None, False)])
def test_item21_years(year, accepted):
    assert (limits.year_problems("year", "ano da UPFM", year) == []) is accepted


def test_item21_search_of_100000_characters_is_refused():
    assert limits.search_problems("search", "joão") == []
    problems = limits.search_problems("search", "a" * 100_000)
    assert problems and "no máximo 200 caracteres (tem 100.000)" in problems[0].message


def test_item21_every_column_of_the_models_has_a_portuguese_label_or_a_readable_name():
    import desktop.models  # noqa: F401 — registers the mappers
    from desktop.models import Base
    from desktop.models.base import _checked_columns

    for mapper in Base.registry.mappers:
        for key, column, _kind in _checked_columns(mapper):
            label = column.info.get("label") or limits.column_label(column.name)
            assert label and "_" not in label, (mapper.class_.__name__, key)


# -- issue 25 item 1: the window of a trip's start (Art. 4 caput: the data are kept for the retention period) ----
@pytest.mark.parametrize("moment, months, earliest, latest", [
    ("2026-11-18T10:00:00-04:00", 24, "18/11/2024", "18/11/2026 10:00"),
    ("2026-03-31T23:59:00-04:00", 1, "28/02/2026", "31/03/2026 23:59"),   # the 31st becomes the month's last day
])
def test_art4_a_trip_starts_between_the_retention_cutoff_and_now(moment, months, earliest, latest):
    from datetime import datetime

    from desktop.domain.limits import TRIP_CLOCK_TOLERANCE_S, trip_window
    from desktop.domain.trips import retention_cutoff

    now = datetime.fromisoformat(moment)
    window = trip_window(now, retention_cutoff(now.date(), months))
    assert (window.earliest_text, window.latest_text) == (earliest, latest)
    assert window.latest_us == (int(now.timestamp()) + TRIP_CLOCK_TOLERANCE_S) * 1_000_000
    start = datetime.strptime(earliest, "%d/%m/%Y").replace(tzinfo=now.tzinfo)
    assert window.earliest_us == int(start.timestamp()) * 1_000_000
