"""Journey (e), issue 27: a data request to a platform (Art. 4) that runs late, to its auto. On the demonstration
database, one login all the way — the fiscal (fabio.fiscal, profile Fiscal: he requests the data,
`DATA_REQUEST_ROLES.request`, and draws autos up, `ENFORCEMENT_ROLES.draw_up`):

1. he opens Plataformas from the sidebar with the mouse, clicks the first platform and the tab of the data
   requests, presses "Nova requisição de dados…" and, in the form, types the justification, ticks "Serve a
   investigação" (the 24 hours of Art. 4, §2) and "A plataforma já foi notificada em", types the date and the hour
   of the notification with the keys and presses "Salvar";
2. he clicks the new request and presses "Imprimir ofício": the PDF is read back (its number, the 24 hours of
   Art. 4, §2, the data of §1 requested, the platform);
3. the clock moves past the 24 hours (desktop.domain.clock) while the screen is open: the screen's countdown sees
   the term run out and reloads; the request shows "ATRASADA" and "vencida há … (atrasada)";
4. he clicks it and presses "Lavrar auto (resposta em atraso)…": the Fiscalização form opens with the platform and
   the facts of the request; the law types no fine of its own for Art. 4, §2, so he chooses the code, Art. 27
   (service in disagreement with the law), with the keyboard, types the place and presses "Lavrar auto". In
   Fiscalização the auto is found by its number typed in the filter, opened with a double click and printed from
   "Imprimir…" (2 vias, Art. 19); the PDF is read back.

Until this journey the screen offered no auto for a late request (it showed the countdown only): the step "auto"
of `DATA_REQUEST_STEPS` and its button were added for it (commit d9e8ca1)."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from PySide6.QtWidgets import QDialog

from hands import activate, click, click_button, click_close, find_button, settle, type_into
from robot import make_demo, open_copy
from tests.journeys.steps import (click_row_where, click_tab_titled, close_window, login, ok_when_box, open_module,
                                  open_window, pdf_text, print_auto_from_enforcement, when_modal)

JUSTIFICATION = "Apuracao de denuncia da Ouvidoria sobre cobranca acima da tarifa informada"


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("journey-e") / "demo.sqlite3", drivers=12)


def test_journey_e_a_data_request_runs_late_to_an_auto(qtbot, demo_template, tmp_path):
    from desktop.domain import clock, local_now
    from desktop.views.platforms.page import DataRequestDialog

    db, _robot = open_copy(demo_template, tmp_path)
    # the law types no fine for a late answer (Art. 4, §2): the auto needs the decree's code citing Art. 4, which
    # the gestor adds to the catalogue (Fiscalização → Catálogo; here through the service: not this journey's subject)
    from desktop.domain.penalties import Severity
    from desktop.services import catalog
    from desktop.services.catalog import CodeDraft

    catalog.add_code(db, login(db, "gabriela.gestora"), CodeDraft(
        code="DEC-09", article="Decreto nº 10/2026, art. 9º (Lei, Art. 4º, §2º)", severity=Severity.LEVE,
        description="Plataforma que nao entrega no prazo os dados requisitados", valid_from=local_now().date()))
    fiscal = login(db, "fabio.fiscal")
    started = time.monotonic()
    window = open_window(qtbot, db, fiscal)
    page = open_module(window, "Plataformas")
    platform = click_row_where(page.platforms, lambda r: True)
    assert page.platform_id == platform.platform_id
    click_tab_titled(page.tabs, "Requisições")
    # 1. the request, notified an hour ago
    notified = (local_now() - timedelta(hours=1)).replace(second=0, microsecond=0)
    made: dict = {}

    def fill(dialog: DataRequestDialog) -> None:
        activate(dialog)
        type_into(dialog.justification, JUSTIFICATION)
        click(dialog.investigation)
        click(dialog.notified)
        type_into(dialog.notified_at, notified.strftime("%d%m%Y"))
        type_into(dialog.notified_time, notified.strftime("%H%M"))
        click_button(find_button(dialog, "Salvar"))
        made["saved"] = dialog.saved
        made["errors"] = dialog.general.text()

    when_modal(DataRequestDialog, fill)
    click_button(page.new_request_button)
    settle(100)
    assert made.get("saved") is not None, made
    number = made["saved"].number
    activate(window)
    # 2. the ofício, printed and read back
    request = click_row_where(page.requests_table, lambda r: r.number == number)
    assert request.investigation and request.due_at == notified + timedelta(hours=24)
    assert request.status_label == "Notificada, aguardando resposta" and "faltam 22:" in page.countdown_of(request)
    click_button(page.print_button)
    qtbot.waitUntil(lambda: getattr(page.last_dialog, "_bytes", None) is not None, timeout=60000)
    text = pdf_text(page.last_dialog._bytes)
    title = page.last_dialog.windowTitle()
    click_close(page.last_dialog)
    activate(window)
    assert number in text, text[:600]
    assert f"nº {number}" in title, title          # the preview says which ofício it is
    assert "24 (vinte e quatro) horas" in text and "Art. 4º, § 2º" in text, text[text.find("Prazo"):][:600]
    due = notified + timedelta(hours=24)
    term = text[text.index("24 (vinte e quatro) horas"):][:260]
    assert f"notificação em {notified:%d/%m/%Y às %H:%M}" in term and f"até {due:%d/%m/%Y às %H:%M}" in term, term
    assert "origem e destino" in text, text[:1200]
    # 3. the 24 hours run out while the screen is open
    clock.set_clock(clock.ticking(notified + timedelta(hours=25)))
    qtbot.waitUntil(lambda: any(r.number == number and r.late for r in page.requests_table.visible_rows()),
                    timeout=5000)
    rows = page.requests_table.visible_rows()
    index = next(i for i, r in enumerate(rows) if r.number == number)
    situation = page.requests_table.proxy.index(index, 5).data()
    countdown = page.requests_table.proxy.index(index, 6).data()
    assert situation.startswith("ATRASADA"), situation
    assert countdown.startswith("vencida há 01:") and countdown.endswith("(atrasada)"), countdown
    # 4. the auto, drawn up and printed
    click_row_where(page.requests_table, lambda r: r.number == number)
    assert page.request_auto_button.isEnabled(), page.request_auto_button.toolTip()
    drawn: dict = {}
    box: list = []

    def draw_up(form: QDialog) -> None:
        activate(form)
        drawn["platform"] = form.platform_picker.value()
        drawn["description"] = form.description_edit.toPlainText()
        type_into(form.place_edit, "Sede da Secretaria Municipal de Financas")
        drawn["code"] = form.code_combo.currentData()          # the decree's code, offered by the service
        ok_when_box(box, "Auto lavrado")
        click_button(form.save_button)
        drawn["saved"] = form.saved
        drawn["error"] = form.general_error.text()

    from desktop.views.enforcement.auto_form import AutoFormDialog

    when_modal(AutoFormDialog, draw_up)
    click_button(page.request_auto_button)
    settle(100)
    assert drawn.get("saved") is not None, drawn
    assert drawn["platform"] == platform.platform_id
    assert number in drawn["description"] and "24 horas" in drawn["description"]
    auto = drawn["saved"].number
    assert box and auto in box[0][1]
    text = print_auto_from_enforcement(qtbot, window, auto)
    assert drawn["code"] == "DEC-09"
    assert auto in text and "DEC-09" in text, text[:800]
    assert platform.trade_name.upper() in text.upper() and number in text, text[:1200]
    assert time.monotonic() - started < 60
    close_window(window)
    db.dispose()
