"""The correspondence desk's rules (Art. 22, §§1-2): forms, states, return reasons, the dispatch code, the term."""
from __future__ import annotations

from datetime import date

import pytest

from desktop.domain.correspondence import (
    FORMS_BY_ITEM,
    DispatchState as S,
    DispatchTransitionRefused,
    ReturnReason,
    ar_overdue,
    check_digit,
    code_is_valid,
    format_code,
    make_code,
    next_states,
    offers_post,
    parse_return_reason,
    receipt_problems,
    term_starts_on,
    transition,
)


@pytest.mark.parametrize("item, value, words", [
    ("I", "direct", "notificação direta"),
    ("II", "notice_board", "edital"),
    ("III", "newspaper", "jornal"),
    ("IV", "official_gazette", "Imprensa Oficial"),
    ("V", "post", "AR"),
    ("VI", "electronic", "eletrônico"),
])
def test_art22_par1_the_six_forms_of_notice(item, value, words):
    form = FORMS_BY_ITEM[item]
    assert form.value == value
    assert form.article == f"Art. 22, §1, {item}"
    assert words.lower() in form.label.lower()


@pytest.mark.parametrize("current, target", [
    (S.PENDING, S.SENT), (S.SENT, S.RECEIVED), (S.SENT, S.RETURNED), (S.RETURNED, S.EDITAL_POSTED),
    (S.RECEIVED, S.JOINED), (S.EDITAL_POSTED, S.JOINED),
])
def test_art22_par1_allowed_steps_of_a_dispatch(current, target):
    assert transition(current, target) is target


@pytest.mark.parametrize("current, target", [
    (S.PENDING, S.RECEIVED), (S.PENDING, S.JOINED), (S.SENT, S.JOINED), (S.RETURNED, S.JOINED),
    (S.JOINED, S.SENT), (S.JOINED, S.JOINED), (S.RECEIVED, S.RETURNED), (S.RETURNED, S.RECEIVED),
])
def test_art22_par2_a_proof_is_joined_once_and_only_after_receipt_or_edital(current, target):
    with pytest.raises(DispatchTransitionRefused):
        transition(current, target)


def test_a_joined_dispatch_has_no_next_state():
    assert next_states(S.JOINED) == ()
    assert set(next_states(S.SENT)) == {S.RECEIVED, S.RETURNED}


@pytest.mark.parametrize("typed, reason", [
    ("mudou-se", ReturnReason.MOVED), ("Mudou-se", ReturnReason.MOVED), ("desconhecido", ReturnReason.UNKNOWN),
    ("ausente tres vezes", ReturnReason.ABSENT_THREE_TIMES), ("AUSENTE TRÊS VEZES", ReturnReason.ABSENT_THREE_TIMES),
    ("recusado", ReturnReason.REFUSED), ("endereco  insuficiente", ReturnReason.INSUFFICIENT_ADDRESS),
    ("falecido", None), ("", None),
])
def test_art22_par1_V_return_reasons_of_the_carrier(typed, reason):
    assert parse_return_reason(typed) is reason


@pytest.mark.parametrize("year, seq, code", [
    (2026, 1, make_code(2026, 1)), (2026, 999999, make_code(2026, 999999)), (2027, 42, make_code(2027, 42)),
])
def test_dispatch_code_format_and_check_digit(year, seq, code):
    assert code.startswith(f"EX{year}{seq:06d}") and len(code) == 13
    assert int(code[-1]) == check_digit(code[2:12])
    assert code_is_valid(code) and code_is_valid(format_code(code))
    wrong = code[:-1] + str((int(code[-1]) + 1) % 10)
    assert not code_is_valid(wrong)


@pytest.mark.parametrize("digits, dv", [("2026000001", None), ("0000000000", 0)])
def test_check_digit_is_modulo_11_weights_2_to_9(digits, dv):
    total = sum(int(d) * w for d, w in zip(reversed(digits), [2, 3, 4, 5, 6, 7, 8, 9, 2, 3]))
    expected = 0 if 11 - total % 11 >= 10 else 11 - total % 11
    assert check_digit(digits) == (expected if dv is None else dv)


def test_a_swapped_digit_fails_the_check():
    code = make_code(2026, 123456)
    swapped = code[:8] + code[9] + code[8] + code[10:]
    assert swapped == code or not code_is_valid(swapped)


@pytest.mark.parametrize("received, joined", [
    (date(2026, 3, 5), date(2026, 3, 10)), (date(2026, 3, 5), date(2026, 3, 5)),
])
def test_art22_par2_the_term_starts_on_the_joining_not_the_receipt(received, joined):
    assert term_starts_on(joined) == joined
    assert not receipt_problems(date(2026, 3, 3), received, joined, date(2026, 3, 20))


@pytest.mark.parametrize("sent, received, joined, field", [
    (date(2026, 3, 3), None, None, "received_on"),
    (date(2026, 3, 3), date(2026, 3, 2), None, "received_on"),
    (date(2026, 3, 3), date(2026, 3, 25), None, "received_on"),
    (date(2026, 3, 3), date(2026, 3, 5), date(2026, 3, 4), "joined_on"),
    (date(2026, 3, 3), date(2026, 3, 5), date(2026, 3, 21), "joined_on"),
])
def test_art22_par2_receipt_and_joining_dates_are_checked(sent, received, joined, field):
    problems = receipt_problems(sent, received, joined, date(2026, 3, 20))
    assert [p.field for p in problems] == [field]


@pytest.mark.parametrize("sent, answered, today, offered", [
    (date(2026, 3, 1), False, date(2026, 3, 11), True),
    (date(2026, 3, 1), False, date(2026, 3, 10), False),
    (date(2026, 3, 1), True, date(2026, 4, 1), False),
    (None, False, date(2026, 4, 1), False),
])
def test_art22_par1_VI_no_answer_in_n_days_offers_the_post(sent, answered, today, offered):
    assert offers_post(sent, answered, today, 10) is offered


@pytest.mark.parametrize("state, sent, overdue", [
    (S.SENT, date(2026, 1, 1), True), (S.SENT, date(2026, 1, 31), False), (S.JOINED, date(2026, 1, 1), False),
])
def test_ar_out_more_than_30_days(state, sent, overdue):
    assert ar_overdue(sent, state, date(2026, 3, 2)) is overdue
