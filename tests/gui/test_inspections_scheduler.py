"""Vistorias screens (issue 5), on a real SQLite database: the week/day/month calendar with every slot, booking
from a free slot, moving by dragging a booking onto a free slot (with the reason), running the checklist
(Art. 2 §1, 13 XIII-XV, 14, 15 I-VIII) and its effect on the authorization (Art. 9; Art. 16 §2), the lists and
the printed convocation (read back with pypdf)."""
from __future__ import annotations

import io
import os
from datetime import datetime, time, timedelta

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QDropEvent
from registry_fixtures import make_driver, make_vehicle, staff, today  # noqa: F401

from desktop.domain import TIMEZONE
from desktop.views.inspections import InspectionsPage
from desktop.views.inspections.dialogs import BookDialog, MoveDialog, RunInspectionDialog
from desktop.views.inspections.grid import MIME

SHOTS = "/tmp/shots/inspections"


def shoot(widget, name: str) -> str:
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, f"{name}.png")
    assert widget.grab().save(path)
    return path


def open_day(db, after):
    from desktop.services.holidays import calendar
    cal = calendar(db)
    d = after + timedelta(days=1)
    while cal.holiday_name(d):
        d += timedelta(days=1)
    return d


@pytest.fixture(autouse=True)
def open_today():
    """Inspections are booked and run "today", so today must be an open day: the suite's day, or the first one
    after it that is not a holiday (the suite may start on 25/12)."""
    from desktop.domain import BusinessCalendar, clock
    day = today()
    while BusinessCalendar().holiday_name(day):
        day += timedelta(days=1)
    with clock.frozen(at(day, 10), advancing=True):
        yield


@pytest.fixture
def office(db, staff):
    """Vítor works every day 08:00-12:00 (8 slots) at the Pátio; one approved authorization (Art. 9 running)."""
    from desktop.services import authorizations as auth
    from desktop.services import inspections as svc

    place = svc.create_place(db, staff.admin, "Pátio da Secretaria", "Rua Cipriano Curvo, 1")
    for weekday in range(7):
        svc.add_schedule(db, staff.gestor, staff.vistoriador.user_id, weekday, time(8), time(12), 30, place.id,
                         valid_from=today() - timedelta(days=30))
    driver = make_driver(db, staff.clerk, n=3, name="José Pereira")
    vehicle = make_vehicle(db, staff.clerk, n=3)
    a = auth.request_authorization(db, staff.clerk, driver.id, vehicle.id, today(), "PROT-9")
    a = auth.start_analysis(db, staff.clerk, a.id, a.version)
    a = auth.approve_authorization(db, staff.gestor, a.id, a.version)
    return staff, a


def at(d, h, m=0):
    return datetime.combine(d, time(h, m), tzinfo=TIMEZONE)


def test_week_view_shows_every_slot_and_books_from_a_free_slot(qtbot, db, office, messages):
    staff, a = office
    page = InspectionsPage(db, staff.clerk)
    qtbot.addWidget(page)
    page.resize(1400, 800)
    day = open_day(db, today())
    page.set_view("week", day)
    free_cells = [page.grid.slot_at(r, c) for r in range(page.grid.rowCount()) for c in range(page.grid.columnCount())
                  if page.grid.slot_at(r, c) is not None]
    assert page.grid.rowCount() == 8 and page.grid.row_label(0) == "08:00"
    assert len(free_cells) == 7 * 8 - 8 * sum(1 for d in page.data.closed_days)
    cell = page.grid.cell_of(lambda s: s.start == at(day, 9))
    assert page.grid.text_at(*cell) == "Livre"

    def fill_and_submit(dialog):
        assert isinstance(dialog, BookDialog)
        assert dialog.select_authorization(a.id)
        assert "Art. 9" in dialog.term.text()
        shoot(dialog, "book_dialog")
        dialog.submit()
        return dialog.result() == dialog.DialogCode.Accepted

    page._exec = fill_and_submit
    page.grid.set_current(*cell)
    page.slot_activated(page.grid.slot_at(*cell))  # double-click on a free slot
    cell = page.grid.cell_of(lambda s: s.start == at(day, 9))
    booked = page.grid.slot_at(*cell).booking
    assert booked is not None and booked.kind == "initial" and booked.driver_name == "José Pereira"
    assert booked.plate_display in page.grid.text_at(*cell)
    assert messages[-1][1] == "Vistoria agendada" and "09:00" in messages[-1][2]
    page.grid.set_current(*cell)
    assert page.move_button.isEnabled() and page.convocation_button.isEnabled()
    assert "José Pereira" in page.detail.text()
    shoot(page, "week_view")
    page.set_view("day", day)
    assert page.grid.columnCount() == 1 and page.grid.rowCount() == 8
    shoot(page, "day_view")
    page.set_view("month", day)
    month_texts = [page.grid.text_at(r, c) for r in range(page.grid.rowCount()) for c in range(7)]
    assert any("1 marcada(s), 7 livre(s)" in t and booked.plate_display in t for t in month_texts)
    shoot(page, "month_view")


def test_dragging_a_booking_to_a_free_slot_moves_it_with_the_reason(qtbot, db, office, messages):
    from desktop.services import inspections as svc
    staff, a = office
    day = open_day(db, today())
    b = svc.book_inspection(db, staff.clerk, a.id, "initial", staff.vistoriador.user_id, at(day, 9))
    page = InspectionsPage(db, staff.clerk)
    qtbot.addWidget(page)
    page.resize(1200, 700)
    page.set_view("day", day)
    source = page.grid.cell_of(lambda s: s.booking is not None)
    target = page.grid.cell_of(lambda s: s.start == at(day, 10, 30))
    seen = []

    def give_reason(dialog):
        assert isinstance(dialog, MoveDialog)
        seen.append(dialog)
        dialog.reason.setText("")  # refused without a reason: the dialog stays open with the message
        dialog.submit()
        assert not dialog.error.isHidden() and "motivo" in dialog.error.text()
        dialog.reason.setText("Pedido do condutor")
        dialog.submit()
        return dialog.result() == dialog.DialogCode.Accepted

    page._exec = give_reason
    mime = page.grid.model().mimeData([page.grid.model().index(*source)])
    assert mime.hasFormat(MIME)
    rect = page.grid.visualRect(page.grid.model().index(*target))
    event = QDropEvent(QPointF(rect.center()), Qt.DropAction.MoveAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    page.grid.dropEvent(event)
    assert seen, "the drop asked for the reason"
    moved = svc.get_inspection(db, staff.clerk, b.id).booking
    assert moved.start == at(day, 10, 30) and moved.reschedule_reason.startswith("Pedido do condutor")
    assert page.grid.slot_at(*target).booking.id == b.id
    assert page.grid.slot_at(*source).booking is None


def test_running_the_checklist_fails_impedes_nothing_before_activation_and_prints_the_laudo(
        qtbot, db, office, messages, monkeypatch):
    from pypdf import PdfReader

    from desktop.services import authorizations as auth
    from desktop.services import inspections as svc
    staff, a = office
    b = svc.book_inspection(db, staff.clerk, a.id, "initial", staff.vistoriador.user_id, at(today(), 8))
    page = InspectionsPage(db, staff.clerk)  # atendente + gestor + vistoriador
    qtbot.addWidget(page)
    page.resize(1300, 750)
    page.set_view("day", today())
    cell = page.grid.cell_of(lambda s: s.booking is not None and s.booking.id == b.id)
    page.grid.set_current(*cell)
    assert page.run_button.isEnabled()

    def check(dialog):
        assert isinstance(dialog, RunInspectionDialog)
        dialog.mark_all_conforming()
        assert "aprovada" in dialog.result_label.text()
        dialog.set_item("hygiene", False, "Bancos sujos")
        dialog.attach_photo("hygiene", b"\x89PNG\r\n\x1a\n fake")
        assert "reprovada" in dialog.result_label.text() and "Art. 16, §2" in dialog.result_label.text()
        shoot(dialog, "run_inspection_dialog")
        dialog.submit()
        return dialog.result() == dialog.DialogCode.Accepted

    page._exec = check
    page.run()
    detail = svc.get_inspection(db, staff.clerk, b.id)
    assert detail.booking.result == "failed" and detail.booking.regularize_by is not None
    hygiene = next(line for line in detail.items if line.key == "hygiene")
    assert hygiene.passed is False and hygiene.note == "Bancos sujos" and hygiene.has_photo
    info = auth.get_authorization(db, staff.clerk, a.id)
    assert info.regularize_by == detail.booking.regularize_by and info.inspection_approved_on is None
    assert messages[-1][1] == "Vistoria reprovada"
    # The calendar shows the done inspection; its laudo is printed from it, previewed and read back.
    done = page.grid.cell_of(lambda s: any(x.id == b.id for x in s.bookings))
    assert "Reprovada" in page.grid.text_at(*done)
    page.grid.set_current(*done)
    assert page.report_button.isEnabled() and not page.run_button.isEnabled()
    previews = []
    page._exec = lambda dialog: previews.append(dialog) or True
    page.print_report()  # rendered on a worker (op().background), previewed back on the UI thread
    qtbot.waitUntil(lambda: bool(previews), timeout=20000)
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(previews[-1].pdf_bytes())).pages)
    assert "Bancos sujos" in text or "higiene" in text.lower()
    assert "REPROVAD" in text.upper()


def test_print_the_convocation_notice_of_a_booking(qtbot, db, office, messages):
    from pypdf import PdfReader

    from desktop.services import inspections as svc
    from desktop.services.holidays import calendar
    staff, a = office
    # issue 28: the convocation leaves three business days before the inspection (Lei 9.784/99, art. 26, §2º)
    # (past the 5 days of Art. 9 when a holiday falls in between: the gestor books it with the reason)
    day = calendar(db).add_business_days(today(), 3)
    svc.book_inspection(db, staff.clerk, a.id, "initial", staff.vistoriador.user_id, at(day, 11), override_term=True,
                        reason="Convocação com a antecedência de três dias úteis")
    page = InspectionsPage(db, staff.clerk)
    qtbot.addWidget(page)
    page.set_view("day", day)
    page.grid.set_current(*page.grid.cell_of(lambda s: s.booking is not None))
    previews = []
    page._exec = lambda dialog: previews.append(dialog) or True
    page.print_convocation()
    qtbot.waitUntil(lambda: bool(previews) or bool(messages), timeout=20000)
    assert previews, messages
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(previews[-1].pdf_bytes())).pages)
    assert "José Pereira".upper() in text.upper() and f"{day:%d/%m/%Y}" in text


def test_annual_list_bulk_schedules_in_the_background_and_art26_lists(qtbot, db, office, messages):
    from decimal import Decimal

    from desktop.services import authorizations as auth
    from desktop.services import inspections as svc
    staff, a = office
    a = auth.record_inspection_result(db, staff.vistoriador, a.id, True, on=today(), expected_version=a.version)
    a = auth.record_fee_payment(db, staff.clerk, a.id, today(), "G-1", Decimal("150.00"), a.version)
    from desktop.models import Authorization
    with db.session() as s:  # approved a year ago: due this month (Art. 16)
        s.get(Authorization, a.id).inspection_approved_on = today().replace(year=today().year - 1)
    page = InspectionsPage(db, staff.clerk)
    qtbot.addWidget(page)
    page.resize(1200, 700)
    page.tabs.setCurrentIndex(1)
    assert [r.authorization_id for r in page.annual_table.model.rows()] == [a.id]
    shoot(page, "annual_list")
    page.bulk_schedule()
    qtbot.waitUntil(lambda: hasattr(page, "bulk_result"), timeout=20000)
    assert page.bulk_result.booked == 1
    assert page.annual_table.model.rows() == []
    assert messages[-1][1] == "Agendamento em lote"
    page.tabs.setCurrentIndex(2)
    page.tabs.setCurrentIndex(3)
    shoot(page, "art26_lists")
    page.tabs.setCurrentIndex(4)
    assert page.schedule_table.model.rows() and page.schedule_table.model.rows()[0].slot_minutes == 30
    shoot(page, "configuration")


def test_main_window_opens_the_vistorias_module(qtbot, db, admin):
    from desktop.views.main_window import MainWindow

    window = MainWindow(db, admin)
    qtbot.addWidget(window)
    page = window.open_module("vistorias")
    assert isinstance(page, InspectionsPage)
    # The first user (administrador + gestor) configures and books, but only a vistoriador inspects.
    assert page.config_box.isEnabled() and page.book_button.isEnabled() and not page.run_button.isEnabled()
    assert "Nenhum vistoriador ativo" in page.detail.text()


def test_art26_i_no_show_is_offered_to_the_fiscal_as_a_prefilled_auto(qtbot, db, office, messages):
    from desktop.services import inspections as svc
    staff, a = office
    from desktop.services.holidays import calendar
    # issue 28: summoned three business days before (Lei 9.784/99, art. 26, §2º), so Art. 26, I may follow
    b = svc.book_inspection(db, staff.clerk, a.id, "initial", staff.vistoriador.user_id, at(today(), 8, 30),
                            notified_on=calendar(db).add_business_days(today(), -3))
    # The inspector records the absence from the calendar.
    desk = InspectionsPage(db, staff.vistoriador)
    qtbot.addWidget(desk)
    desk.set_view("day", today())
    desk.grid.set_current(*desk.grid.cell_of(lambda s: s.booking is not None and s.booking.id == b.id))
    desk._confirm = lambda title, text: "Art. 26, I" in text
    desk.no_show()
    cell = desk.grid.cell_of(lambda s: any(x.id == b.id for x in s.bookings))
    assert "Não compareceu" in desk.grid.text_at(*cell)
    # The fiscal sees it and opens the auto form filled with it.
    page = InspectionsPage(db, staff.fiscal)
    qtbot.addWidget(page)
    page.resize(1200, 600)
    page.tabs.setCurrentIndex(2)
    rows = page.no_show_table.model.rows()
    assert [(r.code, r.inspection_id, r.driver_name) for r in rows] == [("ART26-I", b.id, "José Pereira")]
    assert page.no_show_auto.isEnabled() and not page.book_button.isEnabled()
    page.no_show_table.select_where(lambda r: r.inspection_id == b.id)
    opened = []
    page._exec = lambda dialog: opened.append(dialog) or False
    page.no_show_auto.click()
    form = opened[-1]
    assert form.code_combo.currentData() == "ART26-I"
    assert form.driver_picker.value() is not None
    assert "Não compareceu" in form.description_edit.toPlainText() and "Art. 26, I" in form.description_edit.toPlainText()
    shoot(page, "no_shows_for_the_fiscal")


def test_issue12_items8_9_failed_first_inspection_message_and_the_reinspection_in_its_slot(qtbot, db, office,
                                                                                          messages):
    from desktop.services import inspections as svc
    from desktop.services.holidays import calendar
    from desktop.domain import clock
    staff, a = office
    # a business day whatever date the suite starts on (DESKTOP_TEST_START): slots exist only on business days
    day = calendar(db).next_business_day(today())
    clock.set_clock(clock.ticking(datetime.combine(day, time(8, 0), TIMEZONE)))
    b = svc.book_inspection(db, staff.clerk, a.id, "initial", staff.vistoriador.user_id, at(today(), 9))
    page = InspectionsPage(db, staff.clerk)
    qtbot.addWidget(page)
    page.resize(1300, 750)
    page.set_view("day", today())
    page.grid.set_current(*page.grid.cell_of(lambda s: s.booking is not None and s.booking.id == b.id))

    def fail(dialog):
        dialog.mark_all_conforming()
        dialog.set_item("hygiene", False, "Bancos sujos")
        assert "impedida" not in dialog.result_label.text() and "Art. 9" in dialog.result_label.text()
        dialog.submit()
        return dialog.result() == dialog.DialogCode.Accepted

    page._exec = fail
    page.run()
    # Item 8: the request never operated — it stays Aprovada (Art. 9); 5 days for the re-inspection (Art. 16 §2).
    kind, title, text = messages[-1]
    assert title == "Vistoria reprovada" and "continua Aprovada" in text and "impedida" not in text
    assert "Art. 9" in text and "Art. 16, §2" in text
    # The failed inspection frees its slot: a double-click there books (the re-inspection), not runs.
    cell = page.grid.cell_of(lambda s: any(x.id == b.id for x in s.bookings))
    slot = page.grid.slot_at(*cell)
    assert slot.free and "Reprovada" in page.grid.text_at(*cell)
    opened = []

    def book_reinspection(dialog):
        opened.append(dialog)
        assert isinstance(dialog, BookDialog)
        dialog.set_kind("reinspection")
        assert dialog.select_authorization(a.id)
        assert "Art. 16, §2" in dialog.term.text()
        dialog.submit()
        return dialog.result() == dialog.DialogCode.Accepted

    page._exec = book_reinspection
    page.slot_activated(slot)
    assert opened and messages[-1][1] == "Vistoria agendada"
    # Item 9: the cell shows both bookings, the failed one and the re-inspection booked in its slot.
    cell = page.grid.cell_of(lambda s: any(x.id == b.id for x in s.bookings))
    text = page.grid.text_at(*cell)
    assert "Inicial" in text and "Reprovada" in text and "Revistoria" in text
    assert page.grid.rowHeight(cell[0]) > 44  # the row grows so no booking hides under another
    page.grid.set_current(*cell)
    assert page.run_button.isEnabled() and page.report_button.isEnabled()  # run the live one, print the past one
    assert "Revistoria" in page.detail.text() and "Reprovada" in page.detail.text()
    shoot(page, "reinspection_in_the_failed_slot")


def test_disabled_booking_buttons_say_what_would_enable_them(qtbot, db, office, messages):
    from desktop.services import inspections as svc
    staff, a = office
    day = open_day(db, today())
    b = svc.book_inspection(db, staff.clerk, a.id, "initial", staff.vistoriador.user_id, at(day, 10))
    page = InspectionsPage(db, staff.fiscal)
    qtbot.addWidget(page)
    page.set_view("day", day)
    assert "Selecione uma vistoria" in page.move_button.toolTip()
    page.grid.set_current(*page.grid.cell_of(lambda s: s.booking is not None and s.booking.id == b.id))
    assert not page.move_button.isEnabled() and "exige o perfil" in page.move_button.toolTip()
    assert not page.report_button.isEnabled() and "Realizada" in page.report_button.toolTip()
    assert page.convocation_button.isEnabled()
