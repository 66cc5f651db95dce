"""Legal dates (SPEC §3): business days, deadlines of N days, terms of months, renewal and other terms."""
from datetime import date, datetime, timedelta, timezone

import pytest

from desktop.domain import (
    TIMEZONE,
    BusinessCalendar,
    add_months_clamped,
    annual_inspection_due,
    data_change_notice_deadline,
    deadline,
    is_data_change_late,
    is_renewal_late,
    period_end,
    platform_data_due,
    renewal_request_deadline,
    term_end,
)

D = date
PLAIN = BusinessCalendar()
CARNIVAL_2026 = BusinessCalendar({D(2026, 2, 16): "Carnaval", D(2026, 2, 17): "Carnaval",
                                  D(2026, 2, 18): "Quarta-feira de Cinzas (ponto facultativo)"})
CORPUS_CHRISTI_2026 = BusinessCalendar([(D(2026, 6, 4), "Corpus Christi"),
                                        (D(2026, 6, 5), "Ponto facultativo")])
CHRISTMAS_EVE_2026 = BusinessCalendar({D(2026, 12, 24): "Ponto facultativo - véspera de Natal"})


# --- Business days ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("day, name", [
    pytest.param(D(2026, 1, 1), "Confraternização Universal", id="national-new-year"),
    pytest.param(D(2026, 4, 3), "Sexta-feira Santa", id="national-good-friday"),
    pytest.param(D(2026, 4, 21), "Tiradentes", id="national-tiradentes"),
    pytest.param(D(2026, 5, 1), "Dia do Trabalhador", id="national-labour-day"),
    pytest.param(D(2026, 9, 7), "Independência do Brasil", id="national-07-09"),
    pytest.param(D(2026, 10, 12), "Nossa Senhora Aparecida", id="national-12-10"),
    pytest.param(D(2026, 11, 2), "Finados", id="national-finados"),
    pytest.param(D(2026, 11, 15), "Proclamação da República", id="national-15-11"),
    pytest.param(D(2026, 11, 20), "Dia Nacional de Zumbi e da Consciência Negra", id="national-20-11"),
    pytest.param(D(2026, 12, 25), "Natal", id="national-christmas"),
    pytest.param(D(2023, 11, 20), "Consciência Negra", id="mato-grosso-20-11-before-it-was-national"),
])
def test_spec3_national_and_mato_grosso_holidays_are_named_in_portuguese(day, name):
    assert PLAIN.holiday_name(day) == name
    assert not PLAIN.is_business_day(day)
    assert PLAIN.non_business_reason(day) == name


def test_spec3_carnival_is_not_built_in_but_configured():
    # SPEC §3: Carnival days are entries of the office's table, not built in.
    assert PLAIN.is_business_day(D(2026, 2, 16))
    assert not CARNIVAL_2026.is_business_day(D(2026, 2, 16))
    assert CARNIVAL_2026.holiday_name(D(2026, 2, 16)) == "Carnaval"
    assert CARNIVAL_2026.holiday_name(D(2026, 2, 19)) is None


@pytest.mark.parametrize("day, business, reason", [
    pytest.param(D(2026, 3, 6), True, None, id="friday"),
    pytest.param(D(2026, 3, 7), False, "sábado", id="saturday"),
    pytest.param(D(2026, 3, 8), False, "domingo", id="sunday"),
    pytest.param(D(2026, 3, 9), True, None, id="monday"),
])
def test_spec3_business_day_is_monday_to_friday(day, business, reason):
    assert PLAIN.is_business_day(day) is business
    assert PLAIN.non_business_reason(day) == reason
    assert PLAIN.holiday_name(day) is None


def test_spec3_municipal_holidays_accept_dates_pairs_mappings_and_records():
    class Info:  # shaped like services.holidays.HolidayInfo
        def __init__(self, day, name, active):
            self.day, self.name, self.active = day, name, active

    as_dates = BusinessCalendar([D(2026, 7, 27)])
    as_records = BusinessCalendar([Info(D(2026, 7, 27), "Padroeira", True), Info(D(2026, 7, 28), "Antigo", False)])
    assert as_dates.holiday_name(D(2026, 7, 27)) == "Feriado municipal"
    assert as_records.holiday_name(D(2026, 7, 27)) == "Padroeira"
    assert as_records.is_business_day(D(2026, 7, 28))  # a removed (inactive) holiday does not count
    assert as_dates.municipal_holidays == {D(2026, 7, 27): "Feriado municipal"}
    with pytest.raises(TypeError):
        BusinessCalendar(["27/07/2026"])


def test_spec3_calendars_with_the_same_holidays_are_equal():
    assert BusinessCalendar([D(2026, 2, 16)]) == BusinessCalendar({D(2026, 2, 16): "Feriado municipal"})
    assert hash(BusinessCalendar()) == hash(BusinessCalendar([]))
    assert BusinessCalendar() != CARNIVAL_2026


def test_spec3_holidays_of_a_year_list_national_and_municipal():
    rows = CARNIVAL_2026.holidays_in(2026)
    assert (D(2026, 2, 16), "Carnaval", "municipal") in rows
    assert (D(2026, 12, 25), "Natal", "nacional/estadual") in rows
    assert rows == sorted(rows)


@pytest.mark.parametrize("day, expected", [
    pytest.param(D(2026, 3, 6), D(2026, 3, 6), id="business-day-is-itself"),
    pytest.param(D(2026, 3, 7), D(2026, 3, 9), id="saturday-to-monday"),
    pytest.param(D(2026, 12, 25), D(2026, 12, 28), id="christmas-friday-to-monday"),
    pytest.param(D(2026, 4, 2), D(2026, 4, 2), id="maundy-thursday-is-business"),
])
def test_spec3_next_business_day(day, expected):
    assert PLAIN.next_business_day(day) == expected


def test_spec3_previous_and_counting_business_days():
    assert PLAIN.previous_business_day(D(2026, 12, 27)) == D(2026, 12, 24)
    assert PLAIN.business_days_between(D(2026, 12, 24), D(2026, 12, 31)) == 4  # 28, 29, 30, 31
    assert PLAIN.add_business_days(D(2026, 12, 24), 1) == D(2026, 12, 28)
    assert PLAIN.add_business_days(D(2026, 12, 24), 0) == D(2026, 12, 24)


# --- Deadlines of N days ------------------------------------------------------------------------------------

@pytest.mark.parametrize("start, days, calendar, expected", [
    pytest.param(D(2026, 3, 4), 5, PLAIN, D(2026, 3, 9), id="art9-5-days-end-on-monday"),
    pytest.param(D(2026, 3, 2), 5, PLAIN, D(2026, 3, 9), id="art16-par2-ends-saturday-moves-to-monday"),
    pytest.param(D(2026, 3, 3), 5, PLAIN, D(2026, 3, 9), id="art16-par2-ends-sunday-moves-to-monday"),
    pytest.param(D(2026, 3, 6), 0, PLAIN, D(2026, 3, 6), id="zero-days-on-a-business-day"),
    pytest.param(D(2026, 3, 7), 0, PLAIN, D(2026, 3, 9), id="zero-days-on-a-saturday"),
    pytest.param(D(2026, 9, 2), 5, PLAIN, D(2026, 9, 8), id="art9-ends-on-07-09-independence"),
    pytest.param(D(2026, 11, 10), 5, PLAIN, D(2026, 11, 16), id="art9-ends-on-15-11-sunday"),
    pytest.param(D(2026, 11, 13), 7, PLAIN, D(2026, 11, 23), id="art13-xviii-ends-on-20-11-friday"),
    pytest.param(D(2026, 12, 20), 5, PLAIN, D(2026, 12, 28), id="art9-ends-on-christmas-friday"),
    pytest.param(D(2026, 4, 16), 5, PLAIN, D(2026, 4, 22), id="art9-ends-on-tiradentes"),
    pytest.param(D(2026, 10, 28), 5, PLAIN, D(2026, 11, 3), id="art9-ends-on-finados"),
    pytest.param(D(2023, 11, 15), 5, PLAIN, D(2023, 11, 21), id="art9-ends-on-mato-grosso-20-11-2023"),
    pytest.param(D(2026, 2, 11), 5, PLAIN, D(2026, 2, 16), id="carnival-not-configured-is-business"),
    pytest.param(D(2026, 2, 11), 5, CARNIVAL_2026, D(2026, 2, 19), id="art9-ends-on-configured-carnival"),
    pytest.param(D(2026, 5, 30), 5, CORPUS_CHRISTI_2026, D(2026, 6, 8),
                 id="art16-par2-ends-on-municipal-holiday-then-ponto-facultativo-then-weekend"),
    pytest.param(D(2026, 12, 31), 15, PLAIN, D(2027, 1, 15), id="defense-15-days-across-new-year"),
])
def test_spec3_deadline_counts_calendar_days_and_moves_to_next_business_day(start, days, calendar, expected):
    assert deadline(start, days, calendar) == expected


def test_spec3_deadline_refuses_negative_days_and_datetimes():
    with pytest.raises(ValueError):
        deadline(D(2026, 3, 4), -1, PLAIN)
    with pytest.raises(TypeError):
        deadline(datetime(2026, 3, 4, 10, 0), 5, PLAIN)


# --- Terms of months (Código Civil art. 132 §3) ---------------------------------------------------------------

@pytest.mark.parametrize("start, months, expected", [
    pytest.param(D(2026, 3, 10), 12, D(2027, 3, 10), id="art3-par1-same-day-next-year"),
    pytest.param(D(2028, 2, 29), 12, D(2029, 3, 1), id="art3-par1-29-february-to-1-march"),
    pytest.param(D(2024, 2, 29), 48, D(2028, 2, 29), id="29-february-to-a-leap-year"),
    pytest.param(D(2026, 1, 31), 1, D(2026, 3, 1), id="cc132-par3-31-january-plus-1-month"),
    pytest.param(D(2028, 1, 31), 1, D(2028, 3, 1), id="cc132-par3-31-january-leap-year"),
    pytest.param(D(2028, 1, 30), 1, D(2028, 3, 1), id="cc132-par3-30-january-leap-year"),
    pytest.param(D(2028, 1, 29), 1, D(2028, 2, 29), id="29-january-to-29-february-leap-year"),
    pytest.param(D(2026, 3, 31), 1, D(2026, 5, 1), id="cc132-par3-31-march-plus-1-month"),
    pytest.param(D(2026, 8, 31), 1, D(2026, 10, 1), id="cc132-par3-31-august-plus-1-month"),
    pytest.param(D(2026, 10, 31), 2, D(2026, 12, 31), id="31-october-plus-2-months"),
    pytest.param(D(2026, 11, 30), 3, D(2027, 3, 1), id="cc132-par3-30-november-to-february"),
    pytest.param(D(2026, 12, 31), 12, D(2027, 12, 31), id="31-december-plus-12"),
    pytest.param(D(2026, 6, 15), 0, D(2026, 6, 15), id="zero-months"),
])
def test_cc132_par3_term_end(start, months, expected):
    assert term_end(start, months) == expected


@pytest.mark.parametrize("start, months, expected", [
    pytest.param(D(2026, 3, 31), -1, D(2026, 2, 28), id="31-march-minus-1-clamped"),
    pytest.param(D(2028, 2, 29), -12, D(2027, 2, 28), id="29-february-minus-12-clamped"),
    pytest.param(D(2026, 5, 15), -12, D(2025, 5, 15), id="same-day"),
    pytest.param(D(2026, 1, 31), 1, D(2026, 2, 28), id="forward-clamped"),
])
def test_spec3_window_months_clamp_to_month_end(start, months, expected):
    assert add_months_clamped(start, months) == expected


def test_cc132_term_end_refuses_negative_months():
    with pytest.raises(ValueError):
        term_end(D(2026, 1, 1), -1)


@pytest.mark.parametrize("start, kwargs, expected", [
    # Art. 24, parágrafo único ("pelo prazo de 12 (doze) meses"); SPEC §3: "one of 12 months ends the day before the
    # same date a year later" (issue 24 item 2: the old table ran 10/03/2026-10/03/2027, a day too long).
    pytest.param(D(2026, 3, 10), {"months": 12}, D(2027, 3, 9), id="art24-par-unico-12-months"),
    pytest.param(D(2026, 1, 22), {"months": 12}, D(2027, 1, 21), id="art24-par-unico-22-january"),
    pytest.param(D(2028, 2, 29), {"months": 12}, D(2029, 2, 28), id="art24-par-unico-29-february"),
    # Art. 26, §1 ("suspensão ... por 30 (trinta) dias"); SPEC §3: "A suspension of N days covers N days counting
    # the first" (issue 24 item 2: final on 10/12/2026, suspended through 08/01/2027, not 09/01/2027).
    pytest.param(D(2026, 12, 10), {"days": 30}, D(2027, 1, 8), id="art26-par1-30-days-counting-the-first"),
    pytest.param(D(2026, 3, 10), {"days": 30}, D(2026, 4, 8), id="art26-par1-30-days"),
    pytest.param(D(2026, 3, 7), {"days": 30}, D(2026, 4, 5), id="art26-par1-no-move-to-business-day"),
    pytest.param(D(2026, 3, 7), {"days": 1}, D(2026, 3, 7), id="art26-par1-one-day-is-the-first-day"),
])
def test_art24_art26_par1_suspension_period_end(start, kwargs, expected):
    assert period_end(start, **kwargs) == expected
    # the number of suspended days, first and last included, is the period itself
    if "days" in kwargs:
        assert (expected - start).days + 1 == kwargs["days"]


def test_art24_period_end_refuses_an_empty_period():
    with pytest.raises(ValueError):
        period_end(D(2026, 1, 1))


# --- Renewal (Art. 3 §2) --------------------------------------------------------------------------------------

@pytest.mark.parametrize("valid_until, calendar, expected", [
    pytest.param(D(2027, 3, 10), PLAIN, D(2027, 2, 17), id="art3-par2-no-holidays"),
    pytest.param(D(2027, 3, 15), PLAIN, D(2027, 2, 22), id="art3-par2-valid-until-monday-not-counted"),
    pytest.param(D(2026, 12, 31), PLAIN, D(2026, 12, 9), id="art3-par2-across-christmas"),
    pytest.param(D(2026, 12, 31), CHRISTMAS_EVE_2026, D(2026, 12, 8),
                 id="art3-par2-across-christmas-and-municipal-ponto-facultativo"),
    pytest.param(D(2026, 11, 24), PLAIN, D(2026, 10, 30), id="art3-par2-across-20-11-15-11-and-finados"),
    pytest.param(D(2026, 11, 25), PLAIN, D(2026, 11, 3), id="art3-par2-across-20-11-and-15-11"),
    pytest.param(D(2026, 3, 6), CARNIVAL_2026, D(2026, 2, 10), id="art3-par2-across-configured-carnival"),
    pytest.param(D(2026, 3, 6), PLAIN, D(2026, 2, 13), id="art3-par2-carnival-not-configured"),
])
def test_art3_par2_renewal_request_deadline_counts_15_business_days_back(valid_until, calendar, expected):
    assert renewal_request_deadline(valid_until, calendar) == expected
    assert calendar.business_days_between(expected, valid_until) == 15
    assert calendar.is_business_day(expected)


def test_art3_par2_late_renewal_is_marked_late():
    assert not is_renewal_late(D(2027, 2, 17), D(2027, 3, 10), PLAIN)
    assert is_renewal_late(D(2027, 2, 18), D(2027, 3, 10), PLAIN)


def test_art3_par2_renewal_with_other_number_of_days():
    assert renewal_request_deadline(D(2027, 3, 10), PLAIN, business_days=1) == D(2027, 3, 9)
    with pytest.raises(ValueError):
        renewal_request_deadline(D(2027, 3, 10), PLAIN, business_days=0)


# --- Other terms ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("changed, communicated, late", [
    pytest.param(D(2026, 3, 2), D(2026, 3, 9), False, id="art13-xviii-7th-day"),
    pytest.param(D(2026, 3, 2), D(2026, 3, 10), True, id="art13-xviii-8th-day-late"),
    pytest.param(D(2026, 11, 13), D(2026, 11, 23), False, id="art13-xviii-ends-on-holiday-moves"),
])
def test_art13_xviii_data_change_within_7_days(changed, communicated, late):
    assert is_data_change_late(changed, communicated, PLAIN) is late
    assert data_change_notice_deadline(changed, PLAIN) >= changed + timedelta(days=7)


def test_art16_annual_inspection_due_one_year_later():
    assert annual_inspection_due(D(2026, 3, 10)) == D(2027, 3, 10)


def test_art4_par2_platform_has_24_hours_from_the_notice():
    notified = datetime(2026, 3, 10, 16, 30, tzinfo=TIMEZONE)
    assert platform_data_due(notified) == datetime(2026, 3, 11, 16, 30, tzinfo=TIMEZONE)
    assert platform_data_due(datetime(2026, 3, 10, 20, 30, tzinfo=timezone.utc)).utcoffset() == timedelta(0)
    with pytest.raises(ValueError):
        platform_data_due(datetime(2026, 3, 10, 16, 30))


@pytest.mark.parametrize(("text", "expected"), [
    ("2026-10", (2026, 10)), ("10/2026", (2026, 10)), (" 2026-1 ", (2026, 1)), ("1/2027", (2027, 1)),
    ("2026-12", (2026, 12)),
])
def test_parse_month_reads_both_forms_of_a_competencia(text, expected):
    from desktop.domain.dates import parse_month

    assert parse_month(text) == expected


@pytest.mark.parametrize("text", ["outubro", "2026/10", "10-2026", "2026-13", "00/2026", "", "2026-10-01"])
def test_parse_month_refuses_in_portuguese_naming_the_forms(text):
    from desktop.domain.dates import parse_month

    with pytest.raises(ValueError, match="AAAA-MM"):
        parse_month(text)
