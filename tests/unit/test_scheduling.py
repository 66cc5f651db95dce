"""The inspectors' schedule as pure rules (issue 5): slots, blocked days, conflicts and the terms of Art. 9 and
Art. 16 §2."""
from datetime import date, datetime, time, timedelta

from desktop.domain import TIMEZONE, BusinessCalendar
from desktop.domain.scheduling import (
    Booked,
    Slot,
    WorkPattern,
    blocked_reason,
    booking_conflicts,
    booking_term,
    day_slots,
    fill_slots,
    free_slots,
    generate_slots,
    is_due_by,
    annual_due_on,
    pattern_problems,
    regularization_expired,
    term_problem,
)

CAL = BusinessCalendar()
MONDAY = date(2026, 3, 2)


def at(d: date, h: int, m: int = 0) -> datetime:
    return datetime.combine(d, time(h, m), tzinfo=TIMEZONE)


def morning(inspector=1, weekday=0, **kw) -> WorkPattern:
    return WorkPattern(inspector, weekday, time(8), time(12), 30, place_id=7, **kw)


def test_morning_from_8_to_12_every_30_minutes_gives_8_slots_the_last_at_11_30():
    slots = day_slots(morning(), MONDAY)
    assert [s.start.strftime("%H:%M") for s in slots] == ["08:00", "08:30", "09:00", "09:30", "10:00", "10:30",
                                                           "11:00", "11:30"]
    assert slots[-1].end == at(MONDAY, 12)
    assert all(s.start.tzinfo is not None and s.place_id == 7 for s in slots)


def test_a_partial_last_slot_is_not_offered():
    slots = day_slots(WorkPattern(1, 0, time(8), time(9, 45), 30), MONDAY)
    assert [s.start.strftime("%H:%M") for s in slots] == ["08:00", "08:30", "09:00"]


def test_slots_only_on_the_patterns_weekdays_and_validity():
    patterns = [morning(weekday=0), morning(weekday=2, valid_from=MONDAY + timedelta(days=7))]
    slots = generate_slots(patterns, MONDAY, MONDAY + timedelta(days=13), CAL)
    days = sorted({s.day for s in slots})
    assert days == [MONDAY, MONDAY + timedelta(days=7), MONDAY + timedelta(days=9)]


def test_holidays_of_the_calendar_close_the_day_national_and_municipal():
    # 21/04/2026 (Tiradentes) is a Tuesday; 02/03/2026 made a municipal holiday.
    cal = BusinessCalendar({MONDAY: "Aniversário do Município"})
    patterns = [morning(weekday=0), morning(weekday=1)]
    slots = generate_slots(patterns, date(2026, 4, 20), date(2026, 4, 21), cal)
    assert {s.day for s in slots} == {date(2026, 4, 20)}
    assert generate_slots(patterns, MONDAY, MONDAY, cal) == []
    assert blocked_reason(date(2026, 4, 21), 1, cal) == "Tiradentes"


def test_blocked_day_for_one_inspector_or_for_everyone():
    patterns = [morning(1), morning(2)]
    one = generate_slots(patterns, MONDAY, MONDAY, CAL, {(1, MONDAY): "Férias"})
    assert {s.inspector_id for s in one} == {2}
    assert generate_slots(patterns, MONDAY, MONDAY, CAL, {(None, MONDAY): "Treinamento"}) == []
    assert blocked_reason(MONDAY, 1, CAL, {(1, MONDAY): "Férias"}) == "Férias"
    assert blocked_reason(MONDAY, 2, CAL, {(1, MONDAY): "Férias"}) is None


def test_overlapping_patterns_give_each_start_once_and_slots_are_sorted():
    patterns = [morning(1), WorkPattern(1, 0, time(11), time(13), 30)]
    slots = generate_slots(patterns, MONDAY, MONDAY, CAL)
    starts = [s.start for s in slots]
    assert len(starts) == len(set(starts)) == 10  # 08:00-11:30 and 12:00, 12:30
    assert starts == sorted(starts)


def test_no_double_booking_of_a_slot_or_an_inspector():
    slot = Slot(at(MONDAY, 9), 1, at(MONDAY, 9, 30))
    taken = [Booked(10, 1, 99, at(MONDAY, 9, 15), at(MONDAY, 9, 45))]
    problems = booking_conflicts(slot, 5, taken)
    assert [p.field for p in problems] == ["slot"]
    assert "já está reservado" in problems[0].message
    # Moving the same booking onto itself is not a conflict.
    assert booking_conflicts(slot, 99, taken, ignore_id=10) == []
    # Back to back is not an overlap.
    assert booking_conflicts(Slot(at(MONDAY, 9, 45), 1, at(MONDAY, 10, 15)), 5, taken) == []


def test_one_vehicle_cannot_be_at_two_inspectors_at_once():
    slot = Slot(at(MONDAY, 9), 2, at(MONDAY, 9, 30))
    problems = booking_conflicts(slot, 99, [Booked(10, 1, 99, at(MONDAY, 9), at(MONDAY, 9, 30))])
    assert [p.field for p in problems] == ["vehicle"]


def test_free_slots_leave_out_the_taken_ones():
    slots = day_slots(morning(), MONDAY)
    free = free_slots(slots, [(1, at(MONDAY, 8)), (2, at(MONDAY, 8, 30))])
    assert len(free) == 7 and free[0].start == at(MONDAY, 8, 30)


def test_art9_initial_inspection_within_5_days_after_approval():
    # Approved Friday 06/03/2026: +5 = Wednesday 11/03.
    last, article = booking_term("initial", approved_on=date(2026, 3, 6), calendar=CAL)
    assert (last, article) == (date(2026, 3, 11), "Art. 9")
    assert term_problem(date(2026, 3, 11), last, article) is None
    problem = term_problem(date(2026, 3, 12), last, article)
    assert problem.article == "Art. 9" and "11/03/2026" in problem.message


def test_art9_term_ending_on_a_weekend_moves_to_the_next_business_day():
    # Approved Monday 02/03 + 5 = Saturday 07/03 → Monday 09/03.
    assert booking_term("initial", approved_on=MONDAY, calendar=CAL)[0] == date(2026, 3, 9)


def test_art16_par2_reinspection_within_the_regularization_term():
    last, article = booking_term("reinspection", regularize_by=date(2026, 3, 9), calendar=CAL)
    assert (last, article) == (date(2026, 3, 9), "Art. 16, §2")
    assert booking_term("annual", calendar=CAL) == (None, "")


def test_art16_annual_due_one_year_after_the_last_approval_listed_by_month():
    assert annual_due_on(date(2025, 3, 15)) == date(2026, 3, 15)
    assert is_due_by(date(2025, 3, 15), 2026, 3)
    assert is_due_by(date(2025, 1, 31), 2026, 3)  # overdue stays on the list
    assert not is_due_by(date(2025, 4, 1), 2026, 3)


def test_art16_par2_term_ended_without_approval_is_an_art26_ii_candidate():
    assert regularization_expired(date(2026, 3, 9), date(2026, 3, 10))
    assert not regularization_expired(date(2026, 3, 9), date(2026, 3, 9))
    assert not regularization_expired(None, date(2026, 3, 10))


def test_bulk_fill_gives_one_slot_per_request_in_order_and_reports_the_rest():
    slots = day_slots(morning(), MONDAY)
    pairs, left = fill_slots(list(range(10)), slots)
    assert [p[0] for p in pairs] == list(range(8)) and left == [8, 9]
    assert len({p[1].key for p in pairs}) == 8


def test_pattern_problems_all_at_once():
    fields = [p.field for p in pattern_problems(7, time(12), time(8), 2)]
    assert fields == ["weekday", "end", "slot_minutes"]
    assert pattern_problems(0, time(8), time(12), 30) == []
    assert [p.field for p in pattern_problems(0, time(8), time(8, 20), 30)] == ["slot_minutes"]
