"""The Plataformas module (issue 14): a fiscal imports a list from the published example file, sees its
discrepancies, drafts an auto from one line, registers a data request and sees its countdown (Art. 4-6)."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from enforcement_fixtures import *  # noqa: F401,F403 - people, register fixtures

from desktop.domain import local_now, local_today

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "lista-plataforma-exemplo.csv"


@pytest.fixture
def page(qtbot, db, people, register):
    from desktop.views.platforms import PlatformsPage

    widget = PlatformsPage(db, people.fiscal)
    qtbot.addWidget(widget)
    widget.select_platform(register.platform)
    return widget


def test_module_is_a_real_screen_now():
    from desktop.views.main_window import MODULES

    entry = next(m for m in MODULES if m.key == "plataformas")
    assert entry.factory == "desktop.views.platforms.page:PlatformsPage" and not entry.unavailable


def test_art5_viii_import_example_file_and_see_discrepancies(qtbot, page, messages):
    assert page.platform_id is not None
    assert page.import_file(str(EXAMPLE), local_today() - timedelta(days=1)) is not False
    qtbot.waitUntil(lambda: page.last_report is not None, timeout=20000)
    assert page.last_report.rows == 5
    assert messages and messages[-1][1] == "Lista importada" and "condutor desconhecido: 5" in messages[-1][2]
    assert page.lists.model.rowCount() == 1
    labels = {page.reconciliation.model.row_at(i).label for i in range(page.reconciliation.model.rowCount())}
    assert {"condutor desconhecido", "veículo desconhecido"} <= labels
    page.reconciliation.filter_edit.setText("veiculo desconhecido")   # accents and case do not matter
    assert page.reconciliation.proxy.rowCount() == 5
    page.reconciliation.filter_edit.setText("")
    assert "Próxima lista" in page.due.text() and "ATRASADA" not in page.due.text()
    # a line drafts the auto form, filled with its facts (not saved: the fiscal decides)
    page.reconciliation.view.selectRow(0)
    line = page.reconciliation.selected()
    dialog = page.auto_form(line)
    qtbot.addWidget(dialog)
    text = dialog.description_edit.toPlainText()
    assert f"linha {line.line}" in text and line.label in text and "Art. 3" in text
    assert dialog.platform_picker.value() == page.platform_id


def test_refused_list_shows_every_line_and_stores_nothing(qtbot, page, messages, tmp_path):
    bad = tmp_path / "ruim.csv"
    bad.write_text("CPF do condutor;Placa\n52998224725;ABC1234\n", encoding="utf-8")
    page.import_file(str(bad), local_today())
    qtbot.waitUntil(lambda: bool(messages), timeout=20000)
    kind, _title, text = messages[-1]
    assert kind in ("warning", "critical") and "linha 1, coluna CNH" in text and "linha 1, coluna RENAVAM" in text
    assert page.lists.model.rowCount() == 0 and page.last_report is None


def test_art4_par2_register_data_request_and_see_countdown(qtbot, page, messages):
    from hands import activate, click, click_button, find_button, type_into

    dialog = page.request_dialog()
    qtbot.addWidget(dialog)
    activate(dialog)
    type_into(dialog.justification, "Apuração de denúncia da Ouvidoria")
    click(dialog.investigation)
    click(dialog.notified)
    before = local_now() - timedelta(hours=1)
    type_into(dialog.notified_at, f"{before:%d%m%Y}")      # typed as a clerk types: no slashes
    type_into(dialog.notified_time, f"{before:%H%M}")
    click_button(find_button(dialog, "Salvar"))
    assert dialog.saved is not None, messages
    page.show_platform()
    assert page.requests_table.model.rowCount() == 1
    # its own NNNN/AAAA series (issue 14), shown in the list and in the countdown
    number = page.requests_table.model.row_at(0).number
    assert number == f"0001/{local_today().year}" and number in page.countdown.text()
    assert "faltam 2" in page.countdown.text() and "Art. 4º, §2º" in page.countdown.text()
    first = page.countdown.text()
    assert page.timer.isActive()
    # a live countdown (waited for, not slept: on a loaded machine the 1-second tick may come late)
    qtbot.waitUntil(lambda: page.countdown.text() != first, timeout=5000)


def test_data_request_form_shows_problems_next_to_fields(qtbot, page, messages):
    dialog = page.request_dialog()
    qtbot.addWidget(dialog)
    for box in dialog.checks.values():
        box.setChecked(False)
    assert not dialog.save()
    assert dialog.saved is None and page.requests_table.model.rowCount() == 0


def _overdue(db, platform_id):
    from desktop.models import Platform

    with db.session() as s:   # registered 200 days ago and never delivered a list: overdue (Art. 5, VIII)
        s.get(Platform, platform_id).municipal_registration_date = local_today() - timedelta(days=200)


def test_art24_ii_a_overdue_list_notice_from_the_screen(qtbot, page, messages, db, register):
    assert not page.late_notice_button.isVisibleTo(page)       # no registration date, no list owed yet
    _overdue(db, register.platform)
    page.reload()
    assert page.late_offer.overdue and "ATRASADA" in page.due.text()
    assert page.late_notice_button.isVisibleTo(page) and not page.late_auto_button.isVisibleTo(page)
    assert "não tipifica multa" in page.late_measure.text() and "Prazo da notificação" in page.late_measure.text()
    assert page.print_late_notice() is not False
    qtbot.waitUntil(lambda: page.last_dialog is not None, timeout=20000)
    assert "Notificação para regularização nº" in page.last_dialog.windowTitle()
    page.last_dialog.close()


def test_art24_late_list_offers_the_auto_form_with_the_decree_code(qtbot, page, messages, db, register, people):
    from desktop.domain.penalties import Severity
    from desktop.services import catalog
    from desktop.services.catalog import CodeDraft

    catalog.ensure_catalog(db)
    catalog.add_code(db, people.gestor, CodeDraft(
        code="DEC-07", article="Decreto nº 10/2026, art. 7º (Lei, Art. 5º, VIII)", severity=Severity.LEVE,
        description="Plataforma que não entrega a relação de 60 dias", valid_from=local_today()))
    _overdue(db, register.platform)
    page.reload()
    assert page.late_auto_button.isVisibleTo(page) and "DEC-07" in page.late_auto_button.text()
    dialog = page.late_auto_form()
    qtbot.addWidget(dialog)
    assert dialog.platform_picker.value() == register.platform
    assert "Art. 5º, VIII" in dialog.description_edit.toPlainText()
    assert dialog.code_combo.currentData() == "DEC-07"


def test_art4_the_chosen_requests_steps_enable_its_buttons(qtbot, page, db, people, register):
    """issue 22 point 2: the screen draws the request's actions — "Registrar resposta" only for a notified one."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from desktop.services import data_requests

    start, end = local_today() - timedelta(days=9), local_today() - timedelta(days=2)
    data_requests.create_data_request(db, people.fiscal, data_requests.DataRequestDraft(
        platform_id=register.platform, justification="Apuração de denúncia.", period_start=start, period_end=end))
    data_requests.create_data_request(db, people.fiscal, data_requests.DataRequestDraft(
        platform_id=register.platform, justification="Investigação.", period_start=start, period_end=end,
        investigation=True, notified_at=local_now() - timedelta(hours=1)))
    page.show_platform()
    assert not page.answer_button.isEnabled() and not page.print_button.isEnabled()   # nothing chosen yet
    table = page.requests_table.view
    for row in range(page.requests_table.model.rowCount()):
        index = page.requests_table.model.index(row, 0)
        QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(index).center())
        chosen = page.requests_table.selected()
        assert page.answer_button.isEnabled() == chosen.awaiting      # the notified one waits for its answer
        assert page.print_button.isEnabled()
        assert chosen.status_label in ("Rascunho (não notificada)", "Notificada, aguardando resposta")


def test_art4_caput_recording_an_answer_says_which_passengers_columns_were_dropped(qtbot, page, db, people,
                                                                                    register, messages, tmp_path,
                                                                                    monkeypatch):
    """Issue 24 item 11 (Art. 4 caput; SPEC §3): the answer is kept without the passengers' columns, and the screen
    names them."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QFileDialog

    from desktop.services import data_requests

    start, end = local_today() - timedelta(days=9), local_today() - timedelta(days=2)
    data_requests.create_data_request(db, people.fiscal, data_requests.DataRequestDraft(
        platform_id=register.platform, justification="Investigação.", period_start=start, period_end=end,
        investigation=True, notified_at=local_now() - timedelta(hours=1)))
    answer = tmp_path / "resposta.csv"
    answer.write_bytes("ID da viagem;Nome do passageiro;CPF do condutor\r\nUB-1;Maria Souza;111.444.777-35\r\n"
                       .encode("utf-8"))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(answer), "")))
    page.show_platform()
    table = page.requests_table.view
    index = page.requests_table.model.index(0, 0)
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(index).center())
    QTest.mouseClick(page.answer_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: any(kind == "information" for kind, _, _ in messages), timeout=10000)
    [(_, title, text)] = [m for m in messages if m[0] == "information"]
    assert "Nome do passageiro" in text and "Maria" not in text and "Art. 4" in text


def test_art4_par1_the_request_dialog_asks_why_when_one_of_the_six_is_left_out(qtbot, db, people, register):
    """Issue 24 item 12: the six data of Art. 4 §1 I-VI come checked; unchecking one and saving without a reason
    shows the problem beside the field; with a reason typed, the request is saved with it."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QDialogButtonBox

    from desktop.views.platforms.page import DataRequestDialog

    dialog = DataRequestDialog(db, people.fiscal, register.platform)
    qtbot.addWidget(dialog)
    dialog.show()
    assert all(box.isChecked() for box in dialog.checks.values())
    qtbot.keyClicks(dialog.justification, "Apuracao de denuncia de cobranca.")
    rating = dialog.checks["want_rating"]
    QTest.mouseClick(rating, Qt.MouseButton.LeftButton, pos=rating.rect().center())
    assert not rating.isChecked()
    save = dialog.buttons.button(QDialogButtonBox.StandardButton.Save)
    QTest.mouseClick(save, Qt.MouseButton.LeftButton)
    assert dialog.saved is None and "VI" in dialog.errors.message("narrowing_reason")
    qtbot.keyClicks(dialog.narrowing_reason, "A avaliacao nao serve a apuracao.")
    # the manual's "condutor ou veículo": the request may be about one driver (typed and searched)
    qtbot.keyClicks(dialog.driver_picker.edit, "maria")
    dialog.driver_picker.search_now()
    assert dialog.driver_picker.value() == register.maria
    QTest.mouseClick(save, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.saved is not None, timeout=10000)
    assert dialog.saved.driver_id == register.maria and dialog.saved.vehicle_id is None
    assert dialog.saved.fields == ("I", "II", "III", "IV", "V")
    assert dialog.saved.narrowing_reason == "A avaliacao nao serve a apuracao."


def test_art4_par2_a_late_request_offers_the_auto_form_by_the_decrees_code(qtbot, page, db, people, register):
    """Issue 24 item 12: the late request's next step — the auto against the platform by the decree's code citing
    Art. 4 — is a button enabled by the request's actions, opening the auto form filled for it."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from desktop.domain.penalties import Severity
    from desktop.services import catalog, data_requests
    from desktop.services.catalog import CodeDraft

    catalog.ensure_catalog(db)
    catalog.add_code(db, people.gestor, CodeDraft(
        code="DEC-09", article="Decreto nº 10/2026, art. 9º (Lei, Art. 4º, §2º)", severity=Severity.LEVE,
        description="Plataforma que não entrega no prazo os dados requisitados", valid_from=local_today()))
    start, end = local_today() - timedelta(days=9), local_today() - timedelta(days=2)
    late = data_requests.create_data_request(db, people.fiscal, data_requests.DataRequestDraft(
        platform_id=register.platform, justification="Investigação.", period_start=start, period_end=end,
        investigation=True, notified_at=local_now() - timedelta(hours=30)))
    page.show_platform()
    table = page.requests_table.view
    index = page.requests_table.model.index(0, 0)
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(index).center())
    assert page.requests_table.selected().id == late.id
    assert page.request_auto_button.isEnabled()          # the page is the fiscal's
    dialog = page.request_auto_form(page.requests_table.selected())
    qtbot.addWidget(dialog)
    assert dialog.platform_picker.value() == register.platform and dialog.code_combo.currentData() == "DEC-09"
    assert late.number in dialog.description_edit.toPlainText() and "Art. 4º, §2º" in dialog.description_edit.toPlainText()

def test_art4_par2_a_request_past_its_24_hours_offers_the_auto(qtbot, page, db, people, register):
    """issue 27 journey (e): a notified request whose 24 hours ran out unanswered shows ATRASADA in red, and
    "Lavrar auto (resposta em atraso)…" opens the Fiscalização form with the platform, the facts and the decree's
    code citing Art. 4; a request whose term still runs keeps the button grey."""
    from PySide6.QtCore import Qt

    from hands import click, click_row
    from desktop.domain.penalties import Severity
    from desktop.services import catalog, data_requests
    from desktop.services.catalog import CodeDraft

    catalog.ensure_catalog(db)
    catalog.add_code(db, people.gestor, CodeDraft(
        code="DEC-09", article="Decreto nº 10/2026, art. 9º (Lei, Art. 4º, §2º)", severity=Severity.LEVE,
        description="Plataforma que não entrega no prazo os dados requisitados", valid_from=local_today()))

    start, end = local_today() - timedelta(days=9), local_today() - timedelta(days=2)
    for hours in (30, 2):     # notified 30 h ago (late) and 2 h ago (running)
        data_requests.create_data_request(db, people.fiscal, data_requests.DataRequestDraft(
            platform_id=register.platform, justification="Investigação.", period_start=start, period_end=end,
            investigation=True, notified_at=local_now() - timedelta(hours=hours)))
    page.resize(1300, 700)
    page.show()
    bar = page.tabs.tabBar()
    click(bar, bar.tabRect(2).center())                    # the tab of the requests, with the mouse
    page.show_platform()
    rows = page.requests_table.visible_rows()
    late = next(i for i, r in enumerate(rows) if r.late)
    running = next(i for i, r in enumerate(rows) if not r.late)
    click_row(page.requests_table, running)
    assert not page.request_auto_button.isEnabled() and "24 horas" in page.request_auto_button.toolTip()
    click_row(page.requests_table, late)
    assert page.request_auto_button.isEnabled()
    index = page.requests_table.proxy.index(late, 5)
    assert index.data().startswith("ATRASADA") and index.data(Qt.ItemDataRole.ForegroundRole) is not None
    assert "(atrasada)" in page.requests_table.proxy.index(late, 6).data()
    dialog = page.request_auto_form(page.requests_table.selected())
    qtbot.addWidget(dialog)
    assert dialog.platform_picker.value() == register.platform
    text = dialog.description_edit.toPlainText()
    assert rows[late].number in text and "24 horas" in text and "Art. 4º, §2º" in text
    assert dialog.code_combo.currentData() == "DEC-09"          # the decree's code citing Art. 4


def test_art4_par2_the_gestor_sees_the_late_request_but_draws_no_auto(qtbot, db, people, register):
    from desktop.services import data_requests
    from desktop.views.platforms import PlatformsPage

    data_requests.create_data_request(db, people.fiscal, data_requests.DataRequestDraft(
        platform_id=register.platform, justification="Investigação.", period_start=local_today() - timedelta(days=9),
        period_end=local_today() - timedelta(days=2), investigation=True,
        notified_at=local_now() - timedelta(hours=30)))
    widget = PlatformsPage(db, people.gestor)
    qtbot.addWidget(widget)
    widget.select_platform(register.platform)
    widget.requests_table.select_where(lambda r: True)
    assert not widget.request_auto_button.isEnabled() and "Fiscal" in widget.request_auto_button.toolTip()


def test_a_pair_mismatch_drafts_the_auto_with_the_listed_vehicle(qtbot, page, register):
    """issue 27 journey (d): a driver listed with another driver's car — the auto names the car of the list (the
    fact of Art. 8; Art. 13, XIX), not the driver's own authorized vehicle the document would fall back to."""
    from desktop.services.platform_lists import ReconLine

    line = ReconLine(4, "12345678909", "QBC1D23", "pair_mismatch", "par diferente da autorização",
                     "Art. 8; Art. 13, XIX", "A placa está autorizada para o condutor 987.654.321-00.",
                     register.joao, register.car, None)
    dialog = page.auto_form(line)
    qtbot.addWidget(dialog)
    assert dialog.driver_picker.value() == register.joao and dialog.vehicle_picker.value() == register.car
    assert "linha 4 da lista" in dialog.description_edit.toPlainText()


def test_art4_the_ofício_preview_is_titled_with_the_requests_number(qtbot, page, db, people, register):
    """issue 27 point 7: the preview of an ofício named the archive's document number, not the request's."""
    from hands import click, click_button, click_row
    from desktop.services import data_requests

    for _ in range(2):   # the request's series and the documents' series part ways
        data_requests.create_data_request(db, people.fiscal, data_requests.DataRequestDraft(
            platform_id=register.platform, justification="Apuração.", period_start=local_today() - timedelta(days=9),
            period_end=local_today() - timedelta(days=2)))
    page.resize(1300, 700)
    page.show()
    bar = page.tabs.tabBar()
    click(bar, bar.tabRect(2).center())
    page.show_platform()
    row = next(i for i, r in enumerate(page.requests_table.visible_rows()) if r.number.startswith("0002/"))
    click_row(page.requests_table, row)
    click_button(page.print_button)
    qtbot.waitUntil(lambda: page.last_dialog is not None, timeout=30000)
    title = page.last_dialog.windowTitle()
    assert "nº 0002/" in title and "documento 0001/" in title, title
    page.last_dialog.close()
