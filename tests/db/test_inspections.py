"""The inspectors' desk on SQLite and PostgreSQL (issue 5; Art. 9, 15, 16, 26 I-II): configuration, booking with
no double booking (also two desks at once), moving with a reason, cancelling, running the checklist and what the
authorization does after it, the annual list with bulk scheduling, and the Art. 26 candidates."""
from __future__ import annotations

import threading
from datetime import date, datetime, time, timedelta
from decimal import Decimal

import pytest
from registry_factories import TODAY as SUITE_TODAY
from registry_factories import active, approved, desk  # noqa: F401 - desk is a fixture
from sqlalchemy import func, select

from desktop.domain import TIMEZONE, INSPECTION_CHECKLIST, AuthorizationStatus, BusinessCalendar, clock
from desktop.domain.roles import Role
from desktop.errors import ConflictError, PermissionDenied, TransitionRefused, ValidationError
from desktop.models import Authorization, Inspection
from desktop.services import authorizations as auth
from desktop.services import inspections as svc
from desktop.services.holidays import calendar

S = AuthorizationStatus

# Inspections are booked and run "today", so today must be an open day: the suite's day, or the first one after
# it that is not a holiday (the suite may start on 25/12). Every test here runs on that day.
TODAY = SUITE_TODAY
while BusinessCalendar().holiday_name(TODAY):
    TODAY += timedelta(days=1)


@pytest.fixture(autouse=True)
def open_today():
    with clock.frozen(datetime.combine(TODAY, time(10), tzinfo=TIMEZONE), advancing=True):
        yield


def next_open_day(db, after: date) -> date:
    cal = calendar(db)
    d = after + timedelta(days=1)
    while cal.holiday_name(d):
        d += timedelta(days=1)
    return d


def at(d: date, h: int, m: int = 0) -> datetime:
    return datetime.combine(d, time(h, m), tzinfo=TIMEZONE)


@pytest.fixture
def office(db, desk, make_actor):
    """A place, two inspectors working every day 08:00-12:00 (8 slots of 30 minutes)."""
    admin = make_actor(Role.ADMINISTRADOR)
    place = svc.create_place(db, admin, "Pátio da Secretaria", "Rua Cipriano Curvo, 1")
    second = make_actor(Role.VISTORIADOR, full_name="Wagner Vistoriador")
    for inspector in (desk.inspector, second):
        for weekday in range(7):
            svc.add_schedule(db, admin, inspector.user_id, weekday, time(8), time(12), 30, place.id,
                             valid_from=TODAY - timedelta(days=400))
    desk.admin = admin
    desk.second = second
    desk.place = place
    return desk


def all_pass(**fails):
    return tuple(svc.ItemResult(i.key, i.key not in fails, fails.get(i.key, "")) for i in INSPECTION_CHECKLIST)


def test_configuration_gives_8_slots_a_morning_per_inspector_and_holidays_close(db, office):
    day = next_open_day(db, TODAY)
    data = svc.calendar_data(db, office.clerk, day, day)
    assert len(data.slots) == 16
    assert {s.inspector_id for s in data.slots} == {office.inspector.user_id, office.second.user_id}
    assert min(s.start for s in data.slots) == at(day, 8) and max(s.start for s in data.slots) == at(day, 11, 30)
    assert [i.full_name for i in svc.list_inspectors(db, office.clerk)] == ["Vera Vistoriadora",
                                                                          "Wagner Vistoriador"]
    # 25/12 is Natal: no slot, and the calendar says why.
    xmas = date(TODAY.year, 12, 25)
    closed = svc.calendar_data(db, office.clerk, xmas, xmas)
    assert closed.slots == () and closed.closed_days[xmas] == "Natal"


def test_blocked_day_for_one_inspector_and_refused_with_bookings(db, office):
    day = next_open_day(db, TODAY)
    svc.block_day(db, office.admin, day, "Férias", office.second.user_id)
    assert {s.inspector_id for s in svc.calendar_data(db, office.clerk, day, day).slots} == {office.inspector.user_id}
    a = approved(db, office)
    svc.book_inspection(db, office.clerk, a.id, "initial", office.inspector.user_id, at(day, 9))
    with pytest.raises(ConflictError, match="remarque-as"):
        svc.block_day(db, office.admin, day, "Ponto facultativo")
    with pytest.raises(PermissionDenied):
        svc.block_day(db, office.clerk, day, "Sem papel")


def test_art9_initial_booking_only_inside_the_5_days_unless_a_gestor_confirms(db, office):
    a = approved(db, office)
    options = svc.booking_options(db, office.clerk, a.id, "initial", first=TODAY)
    assert options.term_last_day == a.presentation_deadline and options.term_article == "Art. 9"
    assert options.slots and all(s.day <= a.presentation_deadline for s in options.slots)
    assert options.outside_term and all(s.day > a.presentation_deadline for s in options.outside_term)
    late = options.outside_term[0]
    with pytest.raises(ValidationError) as refused:
        svc.book_inspection(db, office.clerk, a.id, "initial", late.inspector_id, late.start)
    assert refused.value.problems[0].article == "Art. 9"
    # A gestor may book it, saying why; the booking keeps the term.
    with pytest.raises(ValidationError):
        svc.book_inspection(db, office.manager, a.id, "initial", late.inspector_id, late.start, override_term=True)
    b = svc.book_inspection(db, office.manager, a.id, "initial", late.inspector_id, late.start,
                            override_term=True, reason="Veículo em oficina, comprovado")
    assert b.status == "scheduled" and b.term_end == a.presentation_deadline
    assert b.plate_display == options.plate_display


def test_no_double_booking_of_a_slot_or_of_the_vehicle(db, office):
    day = next_open_day(db, TODAY)
    a1, a2 = approved(db, office), approved(db, office)
    svc.book_inspection(db, office.clerk, a1.id, "initial", office.inspector.user_id, at(day, 9))
    with pytest.raises(ConflictError, match="já está reservado"):
        svc.book_inspection(db, office.clerk, a2.id, "initial", office.inspector.user_id, at(day, 9))
    with pytest.raises(ConflictError, match="já tem outra vistoria"):
        svc.book_inspection(db, office.clerk, a1.id, "initial", office.second.user_id, at(day, 9))
    with pytest.raises(ValidationError, match="não é um horário"):
        svc.book_inspection(db, office.clerk, a2.id, "initial", office.inspector.user_id, at(day, 13))
    # The other inspector at the same time is fine.
    assert svc.book_inspection(db, office.clerk, a2.id, "initial", office.second.user_id, at(day, 9)).id


def test_two_desks_booking_the_same_slot_at_once_one_wins_the_other_gets_a_clear_message(db, office, monkeypatch):
    day = next_open_day(db, TODAY)
    a1, a2 = approved(db, office), approved(db, office)
    barrier = threading.Barrier(2, timeout=10)
    if db.is_postgresql:
        # Write transactions queue on the audit chain's lock (issue 12 item 19), so the two desks can no longer
        # interleave check and insert; the unique index must still decide when the check is not there.
        monkeypatch.setattr(svc.booking, "_check_free", lambda *args, **kw: None)
    results: dict[int, object] = {}

    def desk_books(aid):
        barrier.wait()
        try:
            results[aid] = svc.book_inspection(db, office.clerk, aid, "initial", office.inspector.user_id,
                                               at(day, 10))
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            results[aid] = exc

    threads = [threading.Thread(target=desk_books, args=(aid,)) for aid in (a1.id, a2.id)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    won = [r for r in results.values() if isinstance(r, svc.BookingInfo)]
    lost = [r for r in results.values() if not isinstance(r, svc.BookingInfo)]
    assert len(won) == 1 and len(lost) == 1
    assert isinstance(lost[0], ConflictError)
    assert str(lost[0]) == "Este horário do vistoriador já está reservado para outra vistoria."
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(Inspection).where(Inspection.status == "scheduled")) == 1


def test_move_needs_a_reason_keeps_it_and_frees_the_old_slot(db, office):
    day = next_open_day(db, TODAY)
    a1, a2 = approved(db, office), approved(db, office)
    b = svc.book_inspection(db, office.clerk, a1.id, "initial", office.inspector.user_id, at(day, 9))
    with pytest.raises(ValidationError, match="motivo"):
        svc.move_inspection(db, office.clerk, b.id, office.second.user_id, at(day, 10), " ", b.version)
    moved = svc.move_inspection(db, office.clerk, b.id, office.second.user_id, at(day, 10), "Pedido do condutor",
                                b.version)
    assert (moved.inspector_id, moved.start) == (office.second.user_id, at(day, 10))
    assert moved.reschedule_reason.startswith("Pedido do condutor (antes: ") and moved.version == b.version + 1
    # The old slot is free again.
    assert svc.book_inspection(db, office.clerk, a2.id, "initial", office.inspector.user_id, at(day, 9)).id
    cancelled = svc.cancel_inspection(db, office.clerk, moved.id, "Condutor desistiu", moved.version)
    assert cancelled.status_label == "Cancelada"
    with pytest.raises(TransitionRefused):
        svc.move_inspection(db, office.clerk, moved.id, office.second.user_id, at(day, 11), "x", cancelled.version)


def _book_today(db, office, a, kind="initial", hour=8):
    return svc.book_inspection(db, office.clerk, a.id, kind, office.inspector.user_id, at(TODAY, hour))


def test_art9_initial_inspection_approved_is_recorded_and_activates_with_the_fee(db, office):
    a = approved(db, office)
    b = _book_today(db, office, a)
    with pytest.raises(PermissionDenied):
        svc.run_inspection(db, office.clerk, b.id, all_pass(), expected_version=b.version)
    with pytest.raises(ValidationError, match="não verificado"):
        svc.run_inspection(db, office.inspector, b.id, all_pass()[:3], expected_version=b.version)
    detail = svc.run_inspection(db, office.inspector, b.id, all_pass(), expected_version=b.version)
    assert detail.booking.status == "done" and detail.booking.result_label == "Aprovada"
    assert all(line.passed for line in detail.items)
    info = auth.get_authorization(db, office.clerk, a.id)
    assert info.inspection_approved_on == TODAY and info.status == S.APPROVED
    info = auth.record_fee_payment(db, office.clerk, a.id, TODAY, "G000001", Decimal("150.00"), info.version)
    assert info.status == S.ACTIVE
    with db.session(write=False) as s:  # one inspection row: the booking itself
        assert s.scalar(select(func.count()).select_from(Inspection)) == 1


def test_art16_par2_failure_impedes_for_5_days_then_reinspection_approves(db, office):
    a = active(db, office)
    b = _book_today(db, office, a, "extraordinary", 9)
    detail = svc.run_inspection(db, office.inspector, b.id,
                                all_pass(hygiene="Bancos sujos", no_external_stickers="Adesivo na porta"),
                                note="Condutor avisado", expected_version=b.version)
    assert detail.booking.result == "failed"
    info = auth.get_authorization(db, office.clerk, a.id)
    assert info.status == S.IMPEDED
    assert info.regularize_by == detail.booking.regularize_by and info.regularize_by > TODAY
    failed = {line.key: line for line in detail.items if line.passed is False}
    assert set(failed) == {"hygiene", "no_external_stickers"} and failed["hygiene"].note == "Bancos sujos"
    assert "Bancos sujos" in detail.booking.notes
    # The re-inspection is offered inside the 5 days (Art. 16 §2) and approves.
    options = svc.booking_options(db, office.clerk, a.id, "reinspection", first=TODAY)
    assert options.term_last_day == info.regularize_by and options.term_article == "Art. 16, §2"
    re = _book_today(db, office, a, "reinspection", 10)
    svc.run_inspection(db, office.inspector, re.id, all_pass(), expected_version=re.version)
    assert auth.get_authorization(db, office.clerk, a.id).status == S.ACTIVE


def test_art26_i_no_show_listed_for_the_fiscal(db, office):
    """Issue 28: only a no-show after a summons that gave three business days (Lei 9.784/99, art. 26, §2º) is
    offered as Art. 26, I — the same day's summons, or none recorded, is not (the old test listed any no-show)."""
    a = approved(db, office)
    summoned = calendar(db).add_business_days(TODAY, -3)
    b = svc.book_inspection(db, office.clerk, a.id, "initial", office.inspector.user_id, at(TODAY, 8),
                            notified_on=summoned)
    short = svc.book_inspection(db, office.clerk, approved(db, office).id, "initial", office.inspector.user_id,
                                at(TODAY, 9), notified_on=calendar(db).add_business_days(TODAY, -2))
    unsummoned = _book_today(db, office, approved(db, office), hour=10)
    later = svc.book_inspection(db, office.clerk, approved(db, office).id, "initial", office.inspector.user_id,
                                at(next_open_day(db, TODAY), 8))
    with pytest.raises(ValidationError, match="ainda não aconteceu"):
        svc.record_no_show(db, office.inspector, later.id, later.version)
    for booking in (b, short, unsummoned):
        svc.record_no_show(db, office.inspector, booking.id, booking.version)
    listed = svc.no_shows(db, office.fiscal)
    assert [(c.code, c.article, c.inspection_id) for c in listed] == [("ART26-I", "Art. 26, I", b.id)]
    assert "Não compareceu" in listed[0].detail
    with pytest.raises(PermissionDenied):
        svc.no_shows(db, office.clerk)


def test_art26_ii_impeded_after_the_term_without_approval(db, office):
    a = active(db, office)
    auth.record_inspection_result(db, office.inspector, a.id, False, on=TODAY, note="Pneu careca",
                                  expected_version=a.version)
    info = auth.get_authorization(db, office.clerk, a.id)
    assert svc.art26_ii_candidates(db, office.fiscal, on=info.regularize_by) == []
    listed = svc.art26_ii_candidates(db, office.fiscal, on=info.regularize_by + timedelta(days=1))
    assert [(c.code, c.authorization_id) for c in listed] == [("ART26-II", a.id)]
    assert "Art. 16, §2" in listed[0].detail


def test_art16_annual_list_by_month_of_the_last_approval_and_bulk_scheduling(db, office):
    a1, a2, a3 = (active(db, office) for _ in range(3))
    with db.session() as s:  # two were approved a year ago this month, one only today
        for aid in (a1.id, a2.id):
            row = s.scalars(select(Inspection).where(Inspection.authorization_id == aid)).one()
            row.performed_at = at(TODAY.replace(year=TODAY.year - 1), 12)
            s.get(Authorization, aid).inspection_approved_on = row.performed_at.date()
    due = svc.annual_due(db, office.clerk, TODAY.year, TODAY.month)
    assert {d.authorization_id for d in due} == {a1.id, a2.id}
    assert all(d.due_on.year == TODAY.year for d in due)
    first = next_open_day(db, TODAY)
    result = svc.schedule_annual(db, office.clerk, [d.authorization_id for d in due] + [a3.id], first, first)
    assert result.booked == 3 and result.left == ()
    data = svc.calendar_data(db, office.clerk, first, first)
    taken = [s for s in data.slots if s.booking]
    assert len(taken) == 3 and {s.booking.kind for s in taken} == {"annual"}
    assert len({(s.inspector_id, s.start) for s in taken}) == 3
    # Already booked: not listed again, not booked twice.
    assert svc.annual_due(db, office.clerk, TODAY.year, TODAY.month) == []
    again = svc.schedule_annual(db, office.clerk, [a1.id], first, first)
    assert again.booked == 0 and again.left == (a1.id,)


def test_bulk_scheduling_reports_what_did_not_fit(db, office):
    ids = [active(db, office).id for _ in range(3)]
    first = next_open_day(db, TODAY)
    svc.block_day(db, office.admin, first, "Manutenção do pátio")  # every inspector
    result = svc.schedule_annual(db, office.clerk, ids, first, first)
    assert result.booked == 0 and result.left == tuple(ids)
    assert "3 ficaram sem horário livre" in result.message
    with pytest.raises(PermissionDenied):
        svc.schedule_annual(db, office.fiscal, ids, first, first)


def test_art8_par2_substitution_inspection_of_the_new_vehicle_lifts_the_impediment(db, office):
    from registry_factories import new_vehicle
    a = active(db, office)
    new = new_vehicle(db, office)
    a = auth.substitute_vehicle(db, office.clerk, a.id, new.id, "Sinistro", TODAY, a.version)
    assert a.status == S.IMPEDED
    with pytest.raises(TransitionRefused, match="não cabe vistoria anual"):
        svc.booking_options(db, office.clerk, a.id, "annual")
    b = _book_today(db, office, a, "substitution", 11)
    assert b.vehicle_id == new.id and b.kind_label == "Substituição de veículo"
    svc.run_inspection(db, office.inspector, b.id, all_pass(), expected_version=b.version)
    assert auth.get_authorization(db, office.clerk, a.id).status == S.ACTIVE


def test_art16_par1_extraordinary_on_notification_records_the_day_notified(db, office):
    a = active(db, office)
    day = next_open_day(db, TODAY)
    b = svc.book_inspection(db, office.clerk, a.id, "extraordinary", office.second.user_id, at(day, 8),
                            notified_on=TODAY)
    with db.session(write=False) as s:
        assert s.get(Inspection, b.id).convocation_notified_on == TODAY
    assert b.kind_label == "Extraordinária" and b.term_end is None
    # An initial inspection does not apply to an active authorization.
    with pytest.raises(TransitionRefused, match="Art. 9"):
        svc.book_inspection(db, office.clerk, a.id, "initial", office.second.user_id, at(day, 9))


def test_issue12_item8_art9_failed_first_inspection_keeps_the_request_approved_and_says_so(db, office):
    a = approved(db, office)
    b = _book_today(db, office, a)
    detail = svc.run_inspection(db, office.inspector, b.id, all_pass(hygiene="Bancos sujos"),
                                expected_version=b.version)
    info = auth.get_authorization(db, office.clerk, a.id)
    assert info.status == S.APPROVED and info.regularize_by == detail.booking.regularize_by
    # It never operated: not impeded. Art. 9 (approved vehicle before activation), Art. 16 §2 (5 days).
    assert "continua Aprovada" in detail.outcome and "Art. 9" in detail.outcome
    assert "Art. 16, §2" in detail.outcome and "impedida" not in detail.outcome
    assert f"{info.regularize_by:%d/%m/%Y}" in detail.outcome
    # An active one that fails is impeded, and the outcome says that instead.
    act = active(db, office)
    e = _book_today(db, office, act, "extraordinary", 9)
    failed = svc.run_inspection(db, office.inspector, e.id, all_pass(no_damage="Para-choque solto"),
                                expected_version=e.version)
    assert auth.get_authorization(db, office.clerk, act.id).status == S.IMPEDED
    assert "fica impedida" in failed.outcome


def test_issue12_item9_a_slot_holds_every_booking_and_a_done_one_frees_it(db, office):
    a = approved(db, office)
    b = _book_today(db, office, a, hour=8)
    failed = svc.run_inspection(db, office.inspector, b.id, all_pass(hygiene="Bancos sujos"),
                                expected_version=b.version)
    slot_of = lambda data: next(s for s in data.slots  # noqa: E731
                                if (s.inspector_id, s.start) == (office.inspector.user_id, at(TODAY, 8)))
    done_slot = slot_of(svc.calendar_data(db, office.clerk, TODAY, TODAY))
    assert done_slot.free and done_slot.booking is None and [x.id for x in done_slot.past] == [b.id]
    # The re-inspection (Art. 16, §2) takes the same slot: both show, the live one is the booking.
    re = svc.book_inspection(db, office.clerk, a.id, "reinspection", office.inspector.user_id, at(TODAY, 8))
    slot = slot_of(svc.calendar_data(db, office.clerk, TODAY, TODAY))
    assert slot.booking.id == re.id and [x.id for x in slot.past] == [failed.booking.id]
    assert [x.id for x in slot.bookings] == [b.id, re.id] and not slot.free
    svc.run_inspection(db, office.inspector, re.id, all_pass(), expected_version=re.version)
    slot = slot_of(svc.calendar_data(db, office.clerk, TODAY, TODAY))
    assert [x.id for x in slot.past] == [b.id, re.id] and slot.free
    assert [x.result for x in slot.past] == ["failed", "approved"]


def test_bookings_carry_the_actions_of_the_reading_user_with_the_reason(db, office):
    a = approved(db, office)
    day = next_open_day(db, TODAY)
    b = svc.book_inspection(db, office.clerk, a.id, "initial", office.inspector.user_id, at(day, 9))
    by_key = {x.key: x for x in b.actions}
    assert by_key["move"].enabled and by_key["cancel"].enabled and by_key["convocation"].enabled
    assert not by_key["report"].enabled and "Realizada" in by_key["report"].reason
    seen = svc.get_inspection(db, office.inspector, b.id).booking
    run = next(x for x in seen.actions if x.key == "run")
    assert not run.enabled and f"{day:%d/%m/%Y}" in run.reason  # Art. 15: recorded on the day
    with pytest.raises(ValidationError, match="registrado no dia"):
        svc.run_inspection(db, office.inspector, b.id, all_pass(), expected_version=b.version)


def test_session_forms_work_inside_a_transaction_they_are_given(db, office):
    a = approved(db, office)
    day = next_open_day(db, TODAY)

    class Rollback(Exception):
        pass

    with pytest.raises(Rollback):
        with db.session() as s:
            b = svc.book_inspection_in(s, office.clerk, a.id, "initial", office.inspector.user_id, at(day, 9))
            moved = svc.move_inspection_in(s, office.clerk, b.id, office.inspector.user_id, at(day, 10),
                                           "Pedido do condutor", b.version)
            assert moved.start == at(day, 10)
            assert svc.calendar_data_in(s, office.clerk, day, day).slots
            raise Rollback  # the caller's transaction decides: nothing of it stays
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(Inspection)) == 0
