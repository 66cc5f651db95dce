"""Journey (f), issue 27: a course convocation to an unjustified absence and its auto (Art. 12, §2; Art. 13, XVI;
Art. 26, III). On the demonstration database:

1. the atendente (ana.atendente, profile Atendente — the front desk organizes courses, `COURSE_ROLES.organize`)
   opens Cursos from the sidebar with the mouse, types the session's date with the keys (five business days ahead,
   so the convocation leaves the three business days before it that Lei 9.784/99, art. 26, §2 asks), the place,
   the topic and three places, and presses "Criar turma"; she clicks the new session, chooses "Todos os condutores
   com autorização em vigor" with the keyboard and presses "Convocar" (three convoked: the capacity), then
   "Imprimir notificações de convocação": the PDF is read back (the notice's number, the session's date, topic and
   place, each convoked driver);
2. the clock moves to the evening of the session (desktop.domain.clock); the atendente opens the program again,
   clicks the session, ticks the two drivers who
   signed the attendance list (a click on the row and Space) and presses "Registrar presença": the third is absent
   without justification; she clicks him and presses "Juntar prova da notificação" (issue 24 item 12: an absence
   is an auto only once the convocation's proof is joined);
3. the fiscal (fabio.fiscal, profile Fiscal — the one who draws autos up, `ENFORCEMENT_ROLES.draw_up`; the
   atendente's window is closed, his own opened) opens Cursos, the tab "Faltas sem justificativa (Art. 26, III)",
   clicks the absence with the mouse and presses "Lavrar auto de infração (Art. 26, III)…": the Fiscalização form
   opens prefilled (driver, ART26-III, Art. 13, XVI, the session in the description); he types the place and
   presses "Lavrar auto"; the absence leaves the list. In Fiscalização the auto is found by its number typed in the
   filter, opened with a double click and printed from "Imprimir…" (2 vias, Art. 19); the PDF is read back."""
from __future__ import annotations

import time
from datetime import datetime, time as dtime

import pytest
from PySide6.QtWidgets import QDialog

from hands import activate, choose_in_combo, click_button, click_close, click_row, press, settle, type_into
from robot import make_demo, open_copy
from tests.journeys.steps import (click_row_where, click_tab_titled, close_window, login, ok_when_box, open_module,
                                  open_window, pdf_text, print_auto_from_enforcement, when_modal)

TOPIC = "Direcao defensiva e atendimento ao passageiro"
PLACE = "Auditorio da Prefeitura Municipal"


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("journey-f") / "demo.sqlite3", drivers=30)


def test_journey_f_course_convocation_to_an_unjustified_absence_and_its_auto(qtbot, demo_template, tmp_path):
    from desktop.domain import clock
    from desktop.domain.dates import local_today
    from desktop.services.holidays import calendar

    db, _robot = open_copy(demo_template, tmp_path)
    held_on = calendar(db).add_business_days(local_today(), 5)
    started = time.monotonic()
    # 1. the atendente: the session, the convocation, its notice
    clerk = login(db, "ana.atendente")
    window = open_window(qtbot, db, clerk)
    page = open_module(window, "Cursos")
    type_into(page.date_edit, held_on.strftime("%d%m%Y"), leave=True)
    assert page.date_edit.value() == held_on, page.date_edit.problem()
    type_into(page.place_edit, PLACE)
    type_into(page.topic_edit, TOPIC)
    type_into(page.instructor_edit, "Equipe da Secretaria")
    type_into(page.capacity_spin, "3")
    click_button(page.create_button)
    assert not page.form_error.text(), page.form_error.text()
    session = click_row_where(page.sessions, lambda r: r.topic == TOPIC)
    assert page.session_id == session.id and f"Turma {session.number}" in page.session_label.text()
    choose_in_combo(page.filter_combo, "Todos os condutores")
    click_button(page.convoke_button)
    assert "3 condutor(es) convocado(s)" in page.message.text(), page.message.text()
    convoked = page.attendances.visible_rows()
    assert len(convoked) == 3
    click_button(page.notice_button)
    qtbot.waitUntil(lambda: page.last_issued is not None and getattr(page, "last_dialog", None) is not None,
                    timeout=60000)
    notice = page.last_issued.info.number
    text = pdf_text(page.last_dialog._bytes)
    click_close(page.last_dialog)
    activate(window)                     # the window manager gives the window back its focus
    assert notice in text and held_on.strftime("%d/%m/%Y") in text, text[:600]
    assert TOPIC in text and PLACE in text, text[:600]
    for a in convoked:
        assert a.driver_name.upper() in text.upper(), (a.driver_name, text[:600])
    assert "Art. 12" in text, text[:600]

    # 2. the session is held: two signed the list, one did not come and sent no justification
    close_window(window)
    clock.set_clock(clock.ticking(datetime.combine(held_on, dtime(18), tzinfo=clock.TIMEZONE)))
    window = open_window(qtbot, db, clerk)                  # that evening the atendente opens the program again
    page = open_module(window, "Cursos")
    click_row_where(page.sessions, lambda r: r.topic == TOPIC)
    assert page.present_list.count() == 3 and page.record_button.isEnabled()
    absent_name = page.present_list.item(2).text()
    for row in (0, 1):
        click_row(page.present_list, row)
        press("Space")
    assert len(page.present_ids()) == 2
    click_button(page.record_button)
    assert "2 presente(s), 1 ausente(s)" in page.message.text(), page.message.text()
    absent = next(a for a in page.attendances.visible_rows() if absent_name.startswith(a.driver_name))
    assert absent.status == "absent"
    # the proof that the convocation reached him is joined (issue 24 item 12: only then is the absence an auto)
    click_row_where(page.attendances, lambda a: a.id == absent.id)
    click_button(page.proof_button)
    assert "Prova da notificação" in page.message.text(), page.message.text()
    close_window(window)

    # 3. the fiscal: the unjustified absence to an Art. 26, III auto, printed
    fiscal = login(db, "fabio.fiscal")
    window = open_window(qtbot, db, fiscal)
    page = open_module(window, "Cursos")
    click_tab_titled(page.tabs, "Faltas sem justificativa")
    chosen = click_row_where(page.absences, lambda a: a.session_id == session.id)
    assert chosen.driver_id == absent.driver_id
    drawn: dict = {}
    box: list = []

    def draw_up(form: QDialog) -> None:
        activate(form)
        drawn["code"] = form.code_combo.currentData()
        drawn["item"] = form.art13_combo.currentData()
        drawn["driver"] = form.driver_picker.value()
        drawn["description"] = form.description_edit.toPlainText()
        type_into(form.place_edit, PLACE)
        ok_when_box(box, "Auto lavrado")
        click_button(form.save_button)
        drawn["saved"] = form.saved
        drawn["error"] = form.general_error.text()

    from desktop.views.enforcement.auto_form import AutoFormDialog

    when_modal(AutoFormDialog, draw_up)
    click_button(page.auto_button)
    settle(100)
    assert drawn.get("saved") is not None, drawn
    assert drawn["code"] == "ART26-III" and drawn["item"] == "XVI" and drawn["driver"] == absent.driver_id
    assert "não compareceu" in drawn["description"] and session.number in drawn["description"]
    number = drawn["saved"].number
    assert box and number in box[0][1]
    qtbot.waitUntil(lambda: not any(a.session_id == session.id for a in page.absences.visible_rows()), timeout=5000)
    text = print_auto_from_enforcement(qtbot, window, number)
    assert number in text and "Art. 26" in text and "XVI" in text, text[:800]
    assert absent.driver_name.upper() in text.upper(), text[:800]
    assert time.monotonic() - started < 60
    close_window(window)
    db.dispose()
