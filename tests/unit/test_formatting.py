"""pt-BR formatting (SPEC §1) and the NNNN/AAAA numbers (SPEC §2), and the accent-insensitive search key."""
from datetime import date, datetime, timezone
from decimal import Decimal

import pytest

from desktop.domain import (
    DateParseError,
    DocumentNumber,
    NumberParseError,
    fold,
    format_date,
    format_datetime,
    format_decimal,
    format_long_date,
    format_money,
    format_number,
    format_upfm,
    parse_date,
    parse_number,
    same_place,
    weekday_name,
)


def test_spec1_dates_are_dd_mm_aaaa():
    assert format_date(date(2026, 3, 9)) == "09/03/2026"
    assert format_date(None) == ""
    # 02:30 UTC on the 10th is still the 9th in Cuiabá (UTC-4)
    assert format_date(datetime(2026, 3, 10, 2, 30, tzinfo=timezone.utc)) == "09/03/2026"
    assert format_datetime(datetime(2026, 3, 10, 2, 30, tzinfo=timezone.utc)) == "09/03/2026 22:30"
    assert format_long_date(date(2025, 6, 4)) == "4 de junho de 2025"
    assert weekday_name(date(2026, 3, 7)) == "sábado"


@pytest.mark.parametrize("text, expected", [
    pytest.param("09/03/2026", date(2026, 3, 9), id="padded"),
    pytest.param(" 9/3/2026 ", date(2026, 3, 9), id="unpadded"),
    pytest.param("29/02/2028", date(2028, 2, 29), id="leap-day"),
])
def test_parse_date(text, expected):
    assert parse_date(text) == expected


@pytest.mark.parametrize("text", ["31/02/2026", "29/02/2027", "2026-03-09", "", "9/3/26"])
def test_parse_date_refuses_impossible_dates_in_portuguese(text):
    with pytest.raises(DateParseError) as info:
        parse_date(text)
    assert "Data" in str(info.value)


@pytest.mark.parametrize("value, expected", [
    pytest.param(Decimal("1234.56"), "R$ 1.234,56", id="thousands"),
    pytest.param(Decimal("0.5"), "R$ 0,50", id="cents"),
    pytest.param(Decimal("1234567.891"), "R$ 1.234.567,89", id="millions"),
    pytest.param(175, "R$ 175,00", id="int"),
    pytest.param(Decimal("-10"), "-R$ 10,00", id="negative"),
])
def test_spec1_money_in_reais(value, expected):
    assert format_money(value) == expected


def test_spec1_money_refuses_float_and_can_keep_nbsp():
    with pytest.raises(TypeError):
        format_money(1.5)
    assert format_money(Decimal("1"), nbsp=True) == "R$\xa01,00"
    assert format_money(None) == ""


def test_numbers_and_upfm():
    assert format_decimal(Decimal("1234.5")) == "1.234,5"
    assert format_decimal(Decimal("5"), places=2) == "5,00"
    assert format_upfm(Decimal("40.0000")) == "40 UPFM"
    assert format_upfm(Decimal("12.5")) == "12,5 UPFM"


@pytest.mark.parametrize("seq, year, text", [
    pytest.param(7, 2026, "0007/2026", id="padded"),
    pytest.param(1234, 2026, "1234/2026", id="four-digits"),
    pytest.param(12345, 2027, "12345/2027", id="more-than-four-digits"),
])
def test_spec2_number_format_and_parse(seq, year, text):
    assert format_number(seq, year) == text
    assert parse_number(text) == DocumentNumber(seq, year)
    assert str(parse_number(text)) == text


@pytest.mark.parametrize("text", ["7-2026", "0000/2026", "0007/26", "abc", "", "0007/2026/1"])
def test_spec2_number_parse_errors(text):
    with pytest.raises(NumberParseError) as info:
        parse_number(text)
    assert "NNNN/AAAA" in str(info.value)


def test_spec2_number_format_refuses_zero():
    with pytest.raises(ValueError):
        format_number(0, 2026)


@pytest.mark.parametrize("text, key", [
    pytest.param("João", "joao", id="accent"),
    pytest.param("  CHAPADA   DOS GUIMARÃES ", "chapada dos guimaraes", id="spaces-and-case"),
    pytest.param("Conceição", "conceicao", id="cedilla"),
    pytest.param(None, "", id="none"),
])
def test_fold_is_the_accent_insensitive_search_key(text, key):
    assert fold(text) == key


def test_same_place_ignores_case_accents_and_hyphens():
    assert same_place("Chapada dos Guimarães", "CHAPADA-DOS-GUIMARAES")
    assert not same_place("Chapada dos Guimarães", "Chapada do Norte")
