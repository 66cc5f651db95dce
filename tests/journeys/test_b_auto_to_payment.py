"""Journey (b) (issue 27 "journeys"): an auto de infração from its drawing up to the fine paid by the bank's
return file, on the demonstration database, with the mouse and the keyboard only.

1. The fiscal (a login with the Fiscal role only) opens Viagens from the sidebar, clicks the tab "Viagens com
   infração" and "Procurar" (this month; early in a month, last month typed as mm/aaaa), clicks a street-hailed trip (Art. 7; Art. 26, IV) and "Lavrar auto…":
   the form comes filled from the trip (driver, vehicle, code ART26-IV, the trip as evidence); the place is typed,
   "Lavrar auto" clicked and the confirmation answered. In Fiscalização the new auto is double-clicked in the
   list. (The demo of 30 drivers has such trips; the one of 12 has none.)
2. The fiscal clicks "Registrar notificação…" (the driver, delivered in person, the proof joined today: the
   defense term starts, Art. 22, §2) and "Receber defesa…" (the summary typed).
3. Arquivo → "Trocar usuário…" with the mouse, the gestor's login typed: the gestor opens Fiscalização, clicks
   the auto in the list, opens it with a double click, "Julgar…" keeps the auto (reasoning typed, "Julgar"), then
   "Registrar desistência…" with the infractor's signed waiver of the appeal chosen in Qt's file dialog by typing
   its path: the decision is final (Art. 22).
4. The gestor clicks "Emitir guia": the DAM is issued and printed; the PDF read back has the auto's number and
   the amount.
5. Financeiro → "Retorno bancário" → "Escolher arquivo de retorno…": the bank's file paying the guide (built with
   desktop.importers.bank_return.build_return from the guide's barcode, read from the service layer as the bank
   would read it from the printed DAM) is chosen in the file dialog; one payment recorded.
6. Fiscalização: the auto's page shows "Pago" and a zero balance.

The users switch through the program's own "Trocar usuário…" (issue 27 point 4)."""
from __future__ import annotations

import time
from datetime import timedelta
from decimal import Decimal

import pytest
from PySide6.QtWidgets import QDialog

from hands import activate, click_button, click_close, click_row, find_button, settle, type_into
from robot import SIZE, make_demo, open_copy
from tests.journeys.steps import (answer_message, choose_file_in_dialog, click_tab_titled, open_module, pdf_text,
                                  switch_user, when_modal)

FISCAL, GESTOR, PASSWORD = "fiscal.jornada", "gestor.jornada", "senha-da-jornada-2026"


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    from desktop.migrate import open_database
    from desktop.demo import ADMIN_PASSWORD, ADMIN_USERNAME
    from desktop.domain.roles import Role
    from desktop.services import auth, users

    path = make_demo(tmp_path_factory.mktemp("journey-b") / "demo.sqlite3", drivers=30)
    db = open_database(f"sqlite:///{path}")
    admin = auth.login(db, ADMIN_USERNAME, ADMIN_PASSWORD)
    users.create_user(db, admin, users.UserDraft(FISCAL, "Fabiana Fiscal Jornada", frozenset({Role.FISCAL}),
                                                 PASSWORD, office="Fiscal de Transportes"))
    users.create_user(db, admin, users.UserDraft(GESTOR, "Gustavo Gestor Jornada", frozenset({Role.GESTOR}),
                                                 PASSWORD, office="Secretário Municipal"))
    db.dispose()
    return path


def _signed_waiver(path, name: str, number: str) -> None:
    """The infractor's signed waiver as the office receives it: a scanned page (a real PDF, the program checks)."""
    from reportlab.pdfgen import canvas

    page = canvas.Canvas(str(path))
    page.drawString(72, 760, f"Eu, {name}, desisto do recurso contra o auto de infração nº {number}.")
    page.drawString(72, 730, "Assinatura: ______________________")
    page.save()


def test_journey_b_an_auto_drawn_up_notified_judged_and_paid_by_the_bank(qtbot, demo_template, tmp_path):
    from desktop.importers.bank_return import build_return
    from desktop.services import auth, guides
    from desktop.views.enforcement.auto_form import AutoFormDialog
    from desktop.views.main_window import MainWindow

    db, _robot = open_copy(demo_template, tmp_path)
    fiscal = auth.login(db, FISCAL, PASSWORD)
    window = MainWindow(db, fiscal)
    qtbot.addWidget(window)
    window.resize(*SIZE)
    activate(window)
    started = time.monotonic()

    # 1. the fiscal draws up the auto from a street-hailed trip in Viagens
    trips_page = open_module(window, "Viagens")
    assert window.current_module_key() == "viagens"
    click_tab_titled(trips_page.tabs, "Viagens com infração")
    search = find_button(trips_page, "Procurar")
    click_button(search)
    qtbot.waitUntil(lambda: trips_page.findings_page is not None, timeout=20000)
    findings = trips_page.findings_table.model.rows()
    row = next((i for i, f in enumerate(findings) if f.rule.code == "ART26-IV"), None)
    if row is None:     # early in a month the demo's 30 days of trips are mostly last month's: that month typed
        from desktop.domain import clock

        first = clock.today().replace(day=1)
        last_month = (first - timedelta(days=1)).strftime("%m/%Y")
        before = trips_page.findings_page
        type_into(trips_page.infractions_month, last_month, leave=True)
        click_button(search)
        qtbot.waitUntil(lambda: trips_page.findings_page is not before, timeout=20000)
        findings = trips_page.findings_table.model.rows()
        row = next((i for i, f in enumerate(findings) if f.rule.code == "ART26-IV"), None)
    assert row is not None, f"no street-hailed trip in the demo: {[f.rule.code for f in findings]}"
    trip = findings[row].trip
    click_row(trips_page.findings_table, row)
    drawn = {}

    def fill(form: AutoFormDialog) -> None:
        activate(form)
        assert form.code_combo.currentData() == "ART26-IV" and trip.external_id in form.description_edit.toPlainText()
        qtbot.waitUntil(lambda: form.preview is not None, timeout=5000)
        type_into(form.place_edit, "Praca Dom Wunibaldo, Centro (dados da plataforma)")
        drawn["message"] = answer_message("OK", title="Auto lavrado")
        click_button(form.save_button)
        drawn["saved"] = form.saved

    when_modal(AutoFormDialog, fill)
    click_button(trips_page.auto_button)
    settle(100)
    auto = drawn.get("saved")
    assert auto is not None, "the auto was not drawn up"
    assert auto.number in drawn["message"]["text"]
    page = open_module(window, "Fiscalização")
    listing = page.list_screen
    qtbot.waitUntil(lambda: any(r is not None and r.number == auto.number for r in listing.rows()), timeout=10000)
    row = next(i for i, r in enumerate(listing.rows()) if r is not None and r.number == auto.number)
    click_row(listing.table, row, double=True)
    detail = page.detail_screen
    qtbot.waitUntil(lambda: detail.isVisible() and detail.detail is not None
                    and detail.detail.auto.id == auto.id, timeout=5000)
    assert trip.external_id in detail.detail.auto.description

    # 2. notified in person, the proof joined today; the defense received
    def notify(dialog) -> None:
        activate(dialog)
        click_button(dialog.ok_button)

    when_modal(QDialog, notify, title="Registrar notificação")
    click_button(detail.buttons["notify"])
    qtbot.waitUntil(lambda: detail.detail.auto.notice_joined_on is not None, timeout=5000)

    def defense(dialog) -> None:
        activate(dialog)
        type_into(dialog.summary_edit, "Alega que a viagem era de um parente, sem cobranca.")
        click_button(dialog.ok_button)

    when_modal(QDialog, defense, title="Receber defesa")
    click_button(detail.buttons["defense"])
    qtbot.waitUntil(lambda: len(detail.detail.defenses) == 1, timeout=5000)
    assert not detail.buttons["judge"].isEnabled(), "the fiscal does not judge"

    # 3. the gestor judges and records the waiver of the appeal
    window = switch_user(qtbot, window, GESTOR, PASSWORD)
    page = open_module(window, "Fiscalização")
    listing = page.list_screen
    qtbot.waitUntil(lambda: any(r is not None and r.number == auto.number for r in listing.rows()), timeout=10000)
    row = next(i for i, r in enumerate(listing.rows()) if r is not None and r.number == auto.number)
    click_row(listing.table, row, double=True)
    detail = page.detail_screen
    qtbot.waitUntil(lambda: detail.isVisible() and detail.detail is not None
                    and detail.detail.auto.id == auto.id, timeout=5000)

    def judge(dialog) -> None:
        activate(dialog)
        type_into(dialog.reasoning_edit, "A defesa nao traz prova; o auto e mantido (Art. 22).")
        click_button(dialog.ok_button)

    when_modal(QDialog, judge, title="Julgar defesa")
    click_button(detail.buttons["judge"])
    qtbot.waitUntil(lambda: len(detail.detail.judgments) == 1, timeout=5000)
    waiver_file = tmp_path / "desistencia-assinada.pdf"
    _signed_waiver(waiver_file, detail.detail.auto.driver_name or "o condutor", auto.number)

    def waiver(dialog) -> None:
        activate(dialog)
        type_into(dialog.statement_edit, "Desiste do recurso e reconhece a infracao.")
        choose_file_in_dialog(waiver_file)
        click_button(dialog.file_field.choose_button)
        assert dialog.file_field.attachment() is not None
        click_button(dialog.ok_button)

    when_modal(QDialog, waiver, title="Registrar desistência")
    click_button(detail.buttons["waiver"])
    qtbot.waitUntil(lambda: detail.detail.auto.final_on is not None, timeout=5000)

    # 4. the DAM of the fine, issued and printed, read back
    click_button(detail.guide_button)
    qtbot.waitUntil(lambda: detail.guide_preview is not None, timeout=30000)
    guide = detail.last_guide
    text = pdf_text(detail.guide_preview._bytes)
    from desktop.domain.formatting import format_money

    assert auto.number in text, text[:400]
    amount = format_money(guide.amount_reais).replace("\xa0", " ")
    assert amount.replace("R$ ", "") in text, (amount, text[:400])
    click_close(detail.guide_preview)

    # 5. the bank's return file, chosen in the file dialog of Retorno bancário
    barcode = guides.get_guide(db, window.actor, guide.number).barcode
    from desktop.domain import clock

    file = tmp_path / "retorno-0001.ret"
    file.write_bytes(build_return([(barcode, Decimal(guide.amount_reais), clock.today())], nsa=1))
    finance = open_module(window, "Financeiro")
    click_tab_titled(finance.tabs, "Retorno bancário")
    returns = finance.bank_return_screen
    choose_file_in_dialog(file)
    click_button(returns.choose_button)
    qtbot.waitUntil(lambda: returns.report is not None, timeout=30000)
    assert returns.report.recorded == 1, returns.summary.text()

    # 6. the auto's page shows it paid
    page = open_module(window, "Fiscalização")
    listing = page.list_screen
    if page.stack.currentWidget() is not listing:
        click_button(page.detail_screen.back_button)
    qtbot.waitUntil(lambda: any(r is not None and r.number == auto.number for r in listing.rows()), timeout=10000)
    row = next(i for i, r in enumerate(listing.rows()) if r is not None and r.number == auto.number)
    click_row(listing.table, row, double=True)
    detail = page.detail_screen
    qtbot.waitUntil(lambda: detail.isVisible() and detail.detail is not None
                    and detail.detail.auto.id == auto.id, timeout=5000)
    assert "Pago" in detail.title.text(), detail.title.text()
    assert detail.detail.auto.balance_upfm == 0
    assert time.monotonic() - started < 60
    window.close()
    db.dispose()
