"""pt-BR formatting (SPEC §1) and the NNNN/AAAA numbers (SPEC §2), and the accent-insensitive search key."""
from datetime import date, datetime, timezone
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from desktop.domain import formatting as fmt
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


# --- the one locale module: every form the program prints (screens, documents and exports share it) ----------

UTC = timezone.utc
SAO_PAULO = ZoneInfo("America/Sao_Paulo")


@pytest.mark.parametrize("function, value, expected", [
    pytest.param(fmt.format_cpf, "11144477735", "111.444.777-35", id="cpf-stored"),
    pytest.param(fmt.format_cpf, " 111.444.777-35 ", "111.444.777-35", id="cpf-masked"),
    pytest.param(fmt.format_cpf, "123", "123", id="cpf-short-as-is"),
    pytest.param(fmt.format_cpf, None, "", id="cpf-none"),
    pytest.param(fmt.mask_cpf, "11144477735", "***.444.777-**", id="cpf-lgpd"),
    pytest.param(fmt.mask_cpf, "12", "***.***.***-**", id="cpf-lgpd-bad"),
    pytest.param(fmt.format_cnpj, "11222333000181", "11.222.333/0001-81", id="cnpj"),
    pytest.param(fmt.format_cnpj, "12ABC34501DE35", "12.ABC.345/01DE-35", id="cnpj-alphanumeric"),
    pytest.param(fmt.format_cnpj, "12.abc.345/01de-35", "12.ABC.345/01DE-35", id="cnpj-alphanumeric-typed"),
    pytest.param(fmt.format_cnpj, "", "", id="cnpj-empty"),
    pytest.param(fmt.format_document, "11144477735", "111.444.777-35", id="document-cpf"),
    pytest.param(fmt.format_document, "11222333000181", "11.222.333/0001-81", id="document-cnpj"),
    pytest.param(fmt.format_document, "12ABC34501DE35", "12.ABC.345/01DE-35", id="document-cnpj-alphanumeric"),
    pytest.param(fmt.format_document, None, "", id="document-none"),
    pytest.param(fmt.format_plate, "ABC1234", "ABC-1234", id="plate-old"),
    pytest.param(fmt.format_plate, "abc-1234", "ABC-1234", id="plate-old-typed"),
    pytest.param(fmt.format_plate, "ABC1D23", "ABC1D23", id="plate-mercosul"),
    pytest.param(fmt.format_plate, "abc 1d23", "ABC1D23", id="plate-mercosul-typed"),
    pytest.param(fmt.format_plate, None, "", id="plate-none"),
    pytest.param(fmt.format_cep, "78195000", "78195-000", id="cep"),
    pytest.param(fmt.format_cep, "781", "781", id="cep-short"),
    pytest.param(fmt.format_phone, "6533011234", "(65) 3301-1234", id="phone-landline"),
    pytest.param(fmt.format_phone, "65999991234", "(65) 99999-1234", id="phone-mobile"),
])
def test_spec1_documents_plates_and_phones(function, value, expected):
    assert function(value) == expected


@pytest.mark.parametrize("value, expected", [
    pytest.param(datetime(2026, 11, 18, 14, 5, tzinfo=UTC), "18/11/2026 10:05", id="utc-to-cuiaba"),
    pytest.param(datetime(2026, 11, 19, 2, 30, tzinfo=UTC), "18/11/2026 22:30", id="utc-next-day-is-cuiaba-today"),
    pytest.param(datetime(2026, 11, 18, 11, 0, tzinfo=SAO_PAULO), "18/11/2026 10:00", id="brasilia-to-cuiaba"),
    pytest.param(datetime(2026, 11, 18, 9, 7, tzinfo=ZoneInfo("America/Cuiaba")), "18/11/2026 09:07", id="local"),
    pytest.param(datetime(2026, 11, 18, 9, 7), "18/11/2026 09:07", id="naive-is-local"),
    pytest.param(None, "", id="none"),
])
def test_spec1_date_times_are_always_in_cuiaba(value, expected):
    assert fmt.format_datetime(value) == expected
    assert fmt.format_time(value) == expected[-5:]


def test_documents_write_a_dash_for_no_date_and_at_before_the_hour():
    from desktop.reports.common import fmt_date, fmt_date_long, fmt_datetime, fmt_decimal

    assert fmt_date(None) == "—" and fmt_date(date(2026, 1, 2)) == "02/01/2026"
    assert fmt_datetime(datetime(2026, 11, 18, 14, 5, tzinfo=UTC)) == "18/11/2026 às 10:05"
    assert fmt_date_long(date(2026, 3, 1)) == "1 de março de 2026"
    assert fmt_decimal(Decimal("1234.5")) == "1.234,50" and fmt_decimal(Decimal("40.0000"), 0) == "40"


@pytest.mark.parametrize("value, places, keep_scale, expected", [
    pytest.param(Decimal("1234.5"), None, False, "1.234,5", id="significant"),
    pytest.param(Decimal("40.0000"), None, False, "40", id="significant-drops-zeros"),
    pytest.param(Decimal("40.0000"), None, True, "40,0000", id="keep-scale"),
    pytest.param(Decimal("1E+3"), None, True, "1.000", id="keep-scale-exponent"),
    pytest.param(Decimal("1234567.5"), 2, False, "1.234.567,50", id="places"),
    pytest.param(Decimal("2.345"), 2, False, "2,35", id="half-up"),   # issue 23 point 7: one rounding (money)
    pytest.param(Decimal("-0.001"), 2, False, "0,00", id="no-negative-zero"),
    pytest.param(Decimal("-12"), None, True, "-12", id="negative"),
    pytest.param(7, 0, False, "7", id="int"),
])
def test_numbers_have_a_decimal_comma_and_a_thousands_dot(value, places, keep_scale, expected):
    assert fmt.format_decimal(value, places, keep_scale=keep_scale) == expected


@pytest.mark.parametrize("value, expected", [(0, "0"), (999, "999"), (1234, "1.234"), (1234567, "1.234.567"),
                                             (-1500, "-1.500")])
def test_integers_have_a_thousands_dot(value, expected):
    assert fmt.format_integer(value) == expected


@pytest.mark.parametrize("value, expected", [
    pytest.param(Decimal("40.0000"), "40 UPFM", id="whole"),
    pytest.param(Decimal("12.5000"), "12,5 UPFM", id="half"),
    pytest.param(Decimal("0.1234"), "0,1234 UPFM", id="four-places"),
    pytest.param(Decimal("1500"), "1.500 UPFM", id="thousands"),
])
def test_art25_upfm_amounts_keep_only_their_significant_decimals(value, expected):
    assert fmt.format_upfm(value) == expected


def test_money_has_an_ordinary_space_unless_nbsp_is_asked():
    assert fmt.format_money(Decimal("1234.56")) == "R$ 1.234,56"
    assert fmt.format_money(Decimal("1234.56"), nbsp=True) == "R$\xa01.234,56"


@pytest.mark.parametrize("day, long, capital, short", [
    pytest.param(date(2026, 11, 16), "segunda-feira", "Segunda-feira", "Segunda", id="monday"),
    pytest.param(date(2026, 11, 17), "terça-feira", "Terça-feira", "Terça", id="tuesday"),
    pytest.param(date(2026, 11, 21), "sábado", "Sábado", "Sábado", id="saturday"),
    pytest.param(date(2026, 11, 22), "domingo", "Domingo", "Domingo", id="sunday"),
])
def test_weekday_names_come_from_one_table(day, long, capital, short):
    assert fmt.weekday_name(day) == long
    assert fmt.weekday_name(day, capital=True) == capital
    assert fmt.weekday_name(day, capital=True, short=True) == short
    assert fmt.weekday_names(capital=True)[day.weekday()] == capital


@pytest.mark.parametrize("month, name", [(1, "janeiro"), (3, "março"), (12, "dezembro")])
def test_month_names_come_from_one_table(month, name):
    assert fmt.month_name(month) == name
    assert fmt.month_name(date(2026, month, 1), capital=True) == name.capitalize()
    assert fmt.format_long_date(date(2026, month, 9)) == f"9 de {name} de 2026"


def test_every_copy_is_the_one_module():
    """Screens, documents, exports and the domain package print through the same functions."""
    from desktop import domain
    from desktop.domain import dates, documents
    from desktop.reports import common
    from desktop.services import exports, inspections
    from desktop.views import formatting as views

    assert common.fmt_cpf is fmt.format_cpf and common.fmt_cnpj is fmt.format_cnpj
    assert common.fmt_plate is fmt.format_plate and common.fmt_money is fmt.format_money
    assert common.mask_cpf is fmt.mask_cpf and common.fmt_document_id is fmt.format_document
    assert documents.format_cpf is fmt.format_cpf and domain.format_plate is fmt.format_plate
    assert exports.format_cpf is fmt.format_cpf and exports.format_date is fmt.format_date
    assert views.format_brl is fmt.format_money and views.format_phone is fmt.format_phone
    assert views.parse_decimal_br is fmt.parse_decimal and views.format_date is fmt.format_date
    assert dates.WEEKDAY_NAMES is fmt.WEEKDAY_NAMES
    assert inspections.WEEKDAYS == fmt.weekday_names(capital=True)


def test_export_cells_are_what_spreadsheets_read():
    from desktop.services.exports import csv_cell

    assert csv_cell(date(2026, 11, 18)) == "18/11/2026"
    assert csv_cell(datetime(2026, 11, 18, 14, 5, tzinfo=UTC)) == "18/11/2026 10:05"
    assert csv_cell(Decimal("1234.5600")) == "1234,56"     # a number cell: no thousands dot
    assert csv_cell(True) == "Sim" and csv_cell(None) == ""
