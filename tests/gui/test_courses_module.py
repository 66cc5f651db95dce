"""Issue 16, courses (Art. 12, §2) through the screen: a session is created, drivers convoked by filter within
the capacity, the notice printed, attendance recorded from the signed list, one absence justified with its
document and the other drawn up by the fiscal as an Art. 26, III auto (Art. 13, XVI) in the Fiscalização form.
The driver's page lists the courses."""
from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "db"))
from dashboard_factories import authorization  # noqa: E402
from hands import type_into  # noqa: E402

from desktop.views.courses import CoursesPage  # noqa: E402


def _png(tmp_path) -> str:
    from PIL import Image

    path = tmp_path / "atestado.png"
    Image.new("RGB", (8, 8), "white").save(path, "PNG")
    return str(path)


def test_art12_par2_session_to_absence_to_art26_iii_auto(qtbot, db, people, tmp_path, monkeypatch):
    from desktop.services import courses

    from datetime import datetime, time

    from desktop.domain import clock
    from desktop.domain.dates import local_today
    from desktop.services.holidays import calendar

    with db.session() as s:
        drivers = [authorization(s, activated_on=date(2026, 6, 1)).driver_id for _ in range(3)]
    # issue 28: the convocation leaves three business days before the session (Lei 9.784/99, art. 26, §2º)
    held_on = calendar(db).add_business_days(local_today(), 3)
    from PySide6.QtWidgets import QFileDialog

    from hands import activate, choose_in_combo, click_button, click_row, in_modal

    clerk_page = CoursesPage(db, people.atendente)
    qtbot.addWidget(clerk_page)
    clerk_page.resize(1300, 760)
    activate(clerk_page)
    type_into(clerk_page.date_edit, held_on.strftime("%d/%m/%Y"), leave=True)   # typed, as a clerk does
    type_into(clerk_page.place_edit, "Auditorio da Prefeitura")
    type_into(clerk_page.topic_edit, "Direcao defensiva")
    type_into(clerk_page.capacity_spin, "2")
    click_button(clerk_page.create_button)
    assert [r.topic for r in clerk_page.sessions.visible_rows()] == ["Direcao defensiva"]
    click_row(clerk_page.sessions, 0)
    new_filter = clerk_page.filter_combo.itemText(list(courses.CONVOCATION_FILTERS).index("new"))
    choose_in_combo(clerk_page.filter_combo, new_filter)
    qtbot.waitUntil(lambda: clerk_page.filter_count.text() == "3 condutor(es)", timeout=5000)
    click_button(clerk_page.convoke_button)
    assert "2 condutor(es) convocado(s)" in clerk_page.message.text() and "1 ficaram de fora" in \
        clerk_page.message.text()
    assert len(clerk_page.attendances.visible_rows()) == 2

    click_button(clerk_page.notice_button)
    qtbot.waitUntil(lambda: clerk_page.last_issued is not None, timeout=20000)
    numbers = {a.notice_number for a in clerk_page.attendances.visible_rows()}   # issue 28: the notices' own series
    assert len(numbers) == 1 and next(iter(numbers)).startswith("NT-")
    import io  # local: the printed page is read only here
    from pypdf import PdfReader  # local: idem
    printed = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(clerk_page.last_issued.pdf)).pages)
    assert f"Nº {next(iter(numbers))}" in printed

    # the operating system's file dialogs answer with the path a person would pick; the rest is the screen's
    exported = tmp_path / "convocados.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(exported), "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (_png(tmp_path), "")))
    click_button(clerk_page.export_button)
    assert "Direcao defensiva" in exported.read_text(encoding="utf-8-sig") and "2 convocado(s) exportado(s)" in \
        clerk_page.message.text()

    convoked = [a.driver_id for a in clerk_page.attendances.visible_rows()]
    clock.set_clock(clock.ticking(datetime.combine(held_on, time(18), tzinfo=clock.TIMEZONE)))  # the session held
    click_row(clerk_page.sessions, 0)                          # the screen reads the session again on its day
    assert not clerk_page.present_ids()                        # nobody ticked: both absent
    click_button(clerk_page.record_button)
    assert "0 presente(s), 2 ausente(s)" in clerk_page.message.text()

    def attendance_row(driver_id):
        return next(i for i, a in enumerate(clerk_page.attendances.visible_rows()) if a.driver_id == driver_id)

    click_row(clerk_page.attendances, attendance_row(convoked[0]))
    type_into(clerk_page.reason_edit, "Atestado medico")
    click_button(clerk_page.justify_button)
    statuses = {a.driver_id: a.status for a in clerk_page.attendances.visible_rows()}
    assert statuses == {convoked[0]: "excused", convoked[1]: "absent"}

    fiscal_page = CoursesPage(db, people.fiscal)
    qtbot.addWidget(fiscal_page)
    fiscal_page.resize(1300, 760)
    activate(fiscal_page)
    fiscal_page.open_filtered({"tab": "absences"})
    assert fiscal_page.tabs.currentWidget() is fiscal_page.absences_tab
    # issue 24 item 12 (Art. 22, §2): no absence is offered before the proof of its notice is joined
    assert fiscal_page.absences.visible_rows() == []
    activate(clerk_page)
    click_row(clerk_page.attendances, attendance_row(convoked[1]))
    click_button(clerk_page.proof_button)
    assert "Prova da notificação" in clerk_page.message.text(), clerk_page.message.text()
    fiscal_page.reload()
    assert [a.driver_id for a in fiscal_page.absences.visible_rows()] == [convoked[1]]
    monkeypatch.setattr("desktop.views.enforcement.auto_form.QMessageBox.information", lambda *a, **k: None)
    activate(fiscal_page)
    click_row(fiscal_page.absences, 0)

    def draw_up(form):
        assert form.code_combo.currentData() == "ART26-III" and form.art13_combo.currentData() == "XVI"
        assert "não compareceu" in form.description_edit.toPlainText()
        type_into(form.place_edit, "Sede da Secretaria")
        click_button(form.save_button)
        assert form.saved is not None, form.general_error.text()

    from desktop.views.enforcement.auto_form import AutoFormDialog

    done = in_modal(AutoFormDialog, draw_up)
    click_button(fiscal_page.auto_button)
    done.check()
    fiscal_page.reload()
    assert fiscal_page.absences.visible_rows() == []

    from desktop.services.courses import courses_of_driver
    assert [c.status for c in courses_of_driver(db, people.atendente, convoked[1])] == ["absent"]


def test_the_drivers_page_lists_the_courses(qtbot, db, people):
    from desktop.views.registry.drivers import DriverDetailPage

    with db.session() as s:
        from dashboard_factories import course_absence

        a = authorization(s)
        course_absence(s, a.driver_id)
        driver_id = a.driver_id
    page = DriverDetailPage(db, people.atendente, driver_id)
    qtbot.addWidget(page)
    from hands import activate
    from robot import click_tab

    page.resize(1200, 700)
    activate(page)
    click_tab(page.tabs, page.tabs.indexOf(page.courses))
    assert page.tabs.currentWidget() is page.courses
    assert [(r.topic, r.status_label) for r in page.courses.visible_rows()] == [
        ("Direção defensiva", "Ausente sem justificativa")]
