"""The second wave's states in the domain (issue 22 point 2): courses and attendance (Art. 12, §2; Art. 26, III)
and data requests (Art. 4), each a StrEnum, a state machine and a table of steps."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from desktop.domain.clock import TIMEZONE
from desktop.domain.courses import (
    ATTENDANCE_MACHINE,
    ATTENDANCE_STEPS,
    SESSION_MACHINE,
    SESSION_STEPS,
    AttendanceFacts,
    AttendanceStatus,
    SessionFacts,
    SessionStatus,
    attendance_after_list,
)
from desktop.domain.data_requests import (
    DATA_REQUEST_MACHINE,
    DATA_REQUEST_STEPS,
    LateRequestFacts,
    DataRequestStatus,
    awaiting_answer,
    request_countdown,
)
from desktop.domain.roles import Role
from desktop.domain.steps import available_actions, find_action
from desktop.domain.workflow import TransitionNotAllowed, transition

S, C, R = SessionStatus, AttendanceStatus, DataRequestStatus
ORGANIZER, FISCAL = {Role.ATENDENTE}, {Role.FISCAL}


def test_the_stored_strings_are_the_enum_values():
    from desktop.models.courses import ATTENDANCE_STATUSES, COURSE_STATUSES
    from desktop.models.platforms import DATA_REQUEST_STATUSES

    assert tuple(S) == COURSE_STATUSES and tuple(C) == ATTENDANCE_STATUSES and tuple(R) == DATA_REQUEST_STATUSES
    assert [s.label for s in S] == ["Prevista", "Realizada", "Cancelada"]
    assert [s.label for s in C] == ["Convocado", "Presente", "Ausente sem justificativa", "Ausência justificada"]
    assert R.SENT.label == "Notificada, aguardando resposta"


@pytest.mark.parametrize(("machine", "source", "target", "allowed"), [
    # Art. 12, §2: a session is held once the signed attendance list is recorded; held and cancelled are final
    (SESSION_MACHINE, S.PLANNED, S.HELD, True),
    (SESSION_MACHINE, S.PLANNED, S.CANCELLED, True),
    (SESSION_MACHINE, S.HELD, S.PLANNED, False),
    (SESSION_MACHINE, S.CANCELLED, S.HELD, False),
    # "quando convocados … participarem": the list says present or absent; an absence may be justified
    (ATTENDANCE_MACHINE, C.CONVOKED, C.PRESENT, True),
    (ATTENDANCE_MACHINE, C.CONVOKED, C.ABSENT, True),
    (ATTENDANCE_MACHINE, C.ABSENT, C.EXCUSED, True),
    (ATTENDANCE_MACHINE, C.ABSENT, C.PRESENT, True),
    (ATTENDANCE_MACHINE, C.PRESENT, C.EXCUSED, False),
    (ATTENDANCE_MACHINE, C.EXCUSED, C.ABSENT, False),
    # Art. 4, §2: the 24 hours run from the notification; answered and cancelled are final
    (DATA_REQUEST_MACHINE, R.DRAFT, R.SENT, True),
    (DATA_REQUEST_MACHINE, R.SENT, R.ANSWERED, True),
    (DATA_REQUEST_MACHINE, R.DRAFT, R.ANSWERED, False),
    (DATA_REQUEST_MACHINE, R.SENT, R.CANCELLED, True),
    (DATA_REQUEST_MACHINE, R.ANSWERED, R.CANCELLED, False),
    (DATA_REQUEST_MACHINE, R.CANCELLED, R.SENT, False),
])
def test_each_machine_allows_exactly_its_moves(machine, source, target, allowed):
    if allowed:
        assert transition(machine, source, target) is target
    else:
        with pytest.raises(TransitionNotAllowed):
            transition(machine, source, target)


def test_final_statuses():
    assert SESSION_MACHINE.terminal == {S.HELD, S.CANCELLED}
    assert ATTENDANCE_MACHINE.terminal == {C.EXCUSED}
    assert DATA_REQUEST_MACHINE.terminal == {R.ANSWERED, R.CANCELLED}


@pytest.mark.parametrize(("status", "present", "has_auto", "after"), [
    ("convoked", True, False, C.PRESENT),
    ("convoked", False, False, C.ABSENT),
    ("present", False, False, C.ABSENT),
    ("absent", True, False, C.PRESENT),
    ("excused", True, False, C.EXCUSED),     # a justified absence stays
    ("absent", True, True, C.ABSENT),         # Art. 26, III: an absence turned into an auto stays
])
def test_art12_par2_the_signed_list_decides_present_or_absent(status, present, has_auto, after):
    assert attendance_after_list(status, present, has_auto) is after


@pytest.mark.parametrize(("status", "roles", "convoked", "enabled"), [
    (S.PLANNED, ORGANIZER, 3, {"convoke", "notice", "export", "attendance_list", "record", "justify"}),
    (S.PLANNED, ORGANIZER, 0, {"convoke", "justify"}),
    (S.HELD, ORGANIZER, 3, {"notice", "export", "attendance_list", "record", "justify"}),
    (S.CANCELLED, ORGANIZER, 3, {"notice", "export", "attendance_list", "justify"}),
    (S.PLANNED, FISCAL, 3, set()),
])
def test_session_steps(status, roles, convoked, enabled):
    actions = available_actions(SESSION_STEPS, status, roles, SessionFacts(convoked), lambda v: S(v).label)
    assert {a.key for a in actions if a.enabled} == enabled
    if convoked == 0:
        assert find_action(actions, "record").reason == "nenhum condutor foi convocado para esta turma"
    if roles == FISCAL:
        assert find_action(actions, "convoke").reason == "exige o perfil Atendente ou Gestor"


@pytest.mark.parametrize(("status", "has_auto", "enabled"), [
    (C.CONVOKED, False, {"mark", "justify"}),
    (C.ABSENT, False, {"mark", "justify"}),
    (C.ABSENT, True, {"mark"}),
    (C.PRESENT, False, {"mark"}),
    (C.EXCUSED, False, set()),
])
def test_attendance_steps(status, has_auto, enabled):
    actions = available_actions(ATTENDANCE_STEPS, status, ORGANIZER, AttendanceFacts(has_auto))
    assert {a.key for a in actions if a.enabled} == enabled


@pytest.mark.parametrize(("status", "enabled"), [
    (R.DRAFT, {"notify", "print", "cancel"}),
    (R.SENT, {"answer", "print", "cancel"}),
    (R.ANSWERED, {"print"}),
    (R.CANCELLED, set()),
])
def test_art4_data_request_steps(status, enabled):
    actions = available_actions(DATA_REQUEST_STEPS, status, FISCAL, label_of=lambda v: R(v).label)
    assert {a.key for a in actions if a.enabled} == enabled
    assert not any(a.enabled for a in available_actions(DATA_REQUEST_STEPS, status, ORGANIZER))


@pytest.mark.parametrize(("status", "late", "code", "roles", "offered"), [
    (R.SENT, True, "DEC-09", FISCAL, True),       # the 24 hours ran out unanswered: the fiscal may draw the auto up
    (R.ANSWERED, True, "DEC-09", FISCAL, True),   # answered after them: late all the same (issue 24 item 12)
    (R.SENT, False, "DEC-09", FISCAL, False),     # they still run
    (R.SENT, True, None, FISCAL, True),           # no decree code cites Art. 4: offered, the fiscal chooses the code
    (R.DRAFT, True, "DEC-09", FISCAL, False),     # never notified: no term ran
    (R.CANCELLED, True, "DEC-09", FISCAL, False),
    (R.SENT, True, "DEC-09", {Role.GESTOR}, False),   # the gestor judges autos, the fiscal draws them up (Art. 19)
    (R.SENT, True, "DEC-09", ORGANIZER, False),
])
def test_art4_par2_the_auto_is_offered_once_the_24_hours_ran_out(status, late, code, roles, offered):
    action = find_action(available_actions(DATA_REQUEST_STEPS, status, roles, LateRequestFacts(late, code),
                                           label_of=lambda v: R(v).label), "late_auto")
    assert action.enabled is offered and "Art. 4, §2" in action.article
    if status is R.SENT and roles == FISCAL and not late:
        assert "24 horas" in action.reason


def test_art4_par2_countdown_and_awaiting():
    now = datetime(2026, 3, 10, 9, 0, tzinfo=TIMEZONE)
    due = now + timedelta(hours=2)
    assert awaiting_answer("sent", due, None)
    assert not awaiting_answer("sent", due, now)
    assert not awaiting_answer("draft", None, None)
    assert request_countdown("sent", due, None, now) == "faltam 02:00:00"
    assert request_countdown("sent", due, None, due + timedelta(minutes=1)) == "vencida há 00:01:00 (atrasada)"
    assert request_countdown("cancelled", due, None, now) == "cancelada"
    assert request_countdown("answered", due, now, now) == "respondida no prazo"


@pytest.mark.parametrize(("due_on", "today", "status"), [
    (None, "2026-03-10", "not_due"),            # Art. 6: neither registered nor delivered, nothing owed yet
    ("2026-03-10", "2026-03-10", "on_time"),    # Art. 5, VIII: the due day itself is on time
    ("2026-03-10", "2026-03-11", "overdue"),    # overdue from the day after
])
def test_art5_viii_list_delivery(due_on, today, status):
    from datetime import date

    from desktop.domain.platform_lists import ListDelivery, list_delivery

    parse = lambda text: date.fromisoformat(text) if text else None  # noqa: E731
    assert list_delivery(parse(due_on), parse(today)) is ListDelivery(status)


@pytest.mark.parametrize(("status", "code", "roles", "enabled"), [
    ("overdue", "DEC-07", {Role.FISCAL}, {"import", "late_notice", "late_auto"}),
    ("overdue", None, {Role.FISCAL}, {"import", "late_notice"}),     # the law types no fine for a late list
    ("on_time", "DEC-07", {Role.FISCAL}, {"import"}),
    ("overdue", "DEC-07", {Role.GESTOR}, {"import", "late_notice"}),  # only the fiscal draws up an auto
    ("overdue", "DEC-07", {Role.ADMINISTRADOR}, set()),
])
def test_art24_ii_a_platform_list_steps(status, code, roles, enabled):
    from desktop.domain.platform_lists import LIST_DELIVERY_MACHINE, PLATFORM_LIST_STEPS, LateListFacts

    actions = available_actions(PLATFORM_LIST_STEPS, status, roles, LateListFacts(code))
    assert {a.key for a in actions if a.enabled} == enabled
    assert LIST_DELIVERY_MACHINE.terminal == frozenset()
