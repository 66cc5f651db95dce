"""The Correspondência screen (issue 26; Art. 22, §§1-2) used as a clerk does: rows chosen with the mouse, dates and
names typed key by key, buttons pressed. The operating system's file dialogs are the only thing answered for the
test (the path a person would pick); everything after them is the program's own screen and services."""
from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from enforcement_fixtures import *  # noqa: F401,F403 - people, register fixtures
from PySide6.QtWidgets import QFileDialog
from pypdf import PdfReader

from desktop.domain.correspondence import DispatchForm, DispatchState
from desktop.domain.dates import local_today
from desktop.services import correspondence as desk
from desktop.services.documents import printing
from tests.files import tiny_pdf


def _with_address(db, driver_id, email_address=None):
    from desktop.models import Driver

    with db.session() as s:
        d = s.get(Driver, driver_id)
        d.address, d.district, d.zip_code = "Rua Quinze de Novembro, 120", "Centro", "78195000"
        d.email = email_address


def notice(db, people, driver_id, form=DispatchForm.POST, days_ago=3):
    """An auto drawn up `days_ago` days ago, its autuação notice printed and entered in the register."""
    auto = draw_up(db, people.fiscal, "ART26-IV", local_today() - timedelta(days=days_ago), driver_id=driver_id)
    issued = printing.print_autuacao_notice(db, people.fiscal, auto.number)
    return auto, desk.register_auto_notice(db, people.fiscal, auto.id, issued.info.id, form)


@pytest.fixture
def desk_data(db, people, register):
    _with_address(db, register.joao)
    _with_address(db, register.maria, "maria@example.com")
    sent_auto, sent = notice(db, people, register.joao)
    desk.day_batch(db, people.fiscal)                       # João's letter went to the post
    waiting_auto, waiting = notice(db, people, register.maria)   # Maria's still waits for the batch
    return {"sent": sent, "sent_auto": sent_auto, "waiting": waiting, "waiting_auto": waiting_auto}


@pytest.fixture
def page(qtbot, db, people, desk_data):
    from hands import activate

    from desktop.views.correspondence import CorrespondencePage

    widget = CorrespondencePage(db, people.fiscal)
    qtbot.addWidget(widget)
    widget.resize(1300, 700)
    activate(widget)
    return widget


@pytest.fixture
def picks(monkeypatch, tmp_path):
    """The path a person picks in the operating system's file dialog."""
    chosen = {"save": str(tmp_path / "lote.pdf"), "open": None, "many": []}
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (chosen["save"], "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (chosen["open"] or "", "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(lambda *a, **k: (chosen["many"], "")))
    return chosen


def row_of(page, code):
    rows = page.list.visible_rows()
    return next(i for i, r in enumerate(rows) if r.code == code)


def wait_dialog(qtbot, page, kind):
    qtbot.waitUntil(lambda: isinstance(page.last_dialog, kind) and page.last_dialog.isVisible(), timeout=20000)
    return page.last_dialog


def test_the_screen_is_in_the_sidebar_between_viagens_and_relatorios():
    from desktop.views.main_window import MODULE_SHORTCUTS, MODULES

    keys = [m.key for m in MODULES]
    assert keys.index("correspondencia") == keys.index("viagens") + 1 == keys.index("relatorios") - 1
    assert MODULE_SHORTCUTS["correspondencia"] == "Ctrl+Shift+C"
    assert len(set(MODULE_SHORTCUTS.values())) == len(MODULE_SHORTCUTS)


def test_art22_par1_the_register_lists_every_dispatch_and_filters_by_state(qtbot, page, desk_data, qtmodeltester):
    from hands import choose_in_combo, click_row

    qtmodeltester.check(page.list.model)
    codes = [r.code for r in page.list.visible_rows()]
    assert codes == [desk_data["waiting"].code, desk_data["sent"].code]     # newest first
    assert page.list.count_label.text() == "2 registros"
    choose_in_combo(page.list.status_combo, "Aguardando expedição")
    qtbot.waitUntil(lambda: page.list.count_label.text() == "1 registro")
    assert [r.code for r in page.list.visible_rows()] == [desk_data["waiting"].code]
    choose_in_combo(page.list.status_combo, "Enviado")
    qtbot.waitUntil(lambda: [r.code for r in page.list.visible_rows()] == [desk_data["sent"].code])
    click_row(page.list, 0)
    assert page.detail_title.text().startswith(desk_data["sent"].code_text)
    assert "Rua Quinze de Novembro" in page.detail.text()
    assert page.receive_button.isVisible() and page.receive_button.isEnabled()
    assert page.reprint_button.isVisible()
    # the filter box: a code typed finds its dispatch
    choose_in_combo(page.list.status_combo, "Todas as situações")
    from hands import type_into

    type_into(page.list.filter_edit, "Maria")
    qtbot.waitUntil(lambda: [r.code for r in page.list.visible_rows()] == [desk_data["waiting"].code])


def test_art22_par1_V_the_days_batch_is_saved_as_one_pdf(qtbot, page, desk_data, picks, messages, tmp_path):
    from hands import click_button

    click_button(page.batch_button)
    qtbot.waitUntil(lambda: bool(messages), timeout=30000)
    assert messages[-1][1] == "Expedição do dia" and "1 carta(s) com AR" in messages[-1][2]
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO((tmp_path / "lote.pdf").read_bytes())).pages)
    assert "AVISO DE RECEBIMENTO" in text and "LISTA DE POSTAGEM" in text and desk_data["waiting"].code in text
    qtbot.waitUntil(lambda: all(r.state is DispatchState.SENT for r in page.list.visible_rows()))
    click_button(page.batch_button)     # nothing more waits
    qtbot.waitUntil(lambda: "Nada a expedir" in messages[-1][2], timeout=30000)


def test_art22_par2_receiving_an_ar_by_typing_date_and_name_joins_it(qtbot, page, db, people, desk_data, picks,
                                                                    tmp_path):
    from hands import click_button, click_row, type_into

    from desktop.views.correspondence.dialogs import ReceiveDialog

    ar = tmp_path / "ar.pdf"
    ar.write_bytes(tiny_pdf("AR assinado"))
    picks["open"] = str(ar)
    click_row(page.list, row_of(page, desk_data["sent"].code))
    click_button(page.receive_button)
    dialog = wait_dialog(qtbot, page, ReceiveDialog)
    received = local_today()     # the batch went today
    type_into(dialog.received_on, received.strftime("%d/%m/%Y"), leave=True)
    type_into(dialog.received_by, "Jose Souza")
    click_button(dialog.proof_button)
    assert dialog.proof_label.text() == "ar.pdf"
    click_button(dialog.buttons.button(dialog.buttons.StandardButton.Save))
    qtbot.waitUntil(lambda: not dialog.isVisible())
    got = desk.get_dispatch(db, people.fiscal, desk_data["sent"].code)
    assert got.state is DispatchState.JOINED and got.received_by == "Jose Souza" and got.received_on == received
    assert got.joined_on == local_today() == got.term_starts_on     # Art. 22, §2: from the joining
    assert "Prova juntada em" in page.detail.text()


def test_art22_par1_II_a_returned_ar_with_its_reason_waits_for_the_edital(qtbot, page, db, people, desk_data,
                                                                         picks, tmp_path):
    from hands import choose_in_combo, click, click_button, click_row

    from desktop.views.correspondence.dialogs import ReceiveDialog

    ar = tmp_path / "devolvido.pdf"
    ar.write_bytes(tiny_pdf("AR devolvido"))
    picks["open"] = str(ar)
    click_row(page.list, row_of(page, desk_data["sent"].code))
    click_button(page.receive_button)
    dialog = wait_dialog(qtbot, page, ReceiveDialog)
    click(dialog.returned_radio)
    assert dialog.returned_radio.isChecked() and not dialog.received_by.isEnabled()
    click_button(dialog.proof_button)
    click_button(dialog.buttons.button(dialog.buttons.StandardButton.Save))   # no reason chosen: refused
    assert dialog.isVisible() and "motivo" in dialog.errors._fields["returned"][1].text()
    choose_in_combo(dialog.reason, "Mudou-se")
    click_button(dialog.buttons.button(dialog.buttons.StandardButton.Save))
    qtbot.waitUntil(lambda: not dialog.isVisible())
    got = desk.get_dispatch(db, people.fiscal, desk_data["sent"].code)
    assert got.state is DispatchState.RETURNED and got.return_reason == "mudou-se"
    assert desk.desk_counts(db, people.fiscal).for_edital == 1
    choose_in_combo(page.list.status_combo, "Aguardando edital")
    qtbot.waitUntil(lambda: [r.code for r in page.list.visible_rows()] == [got.code])


def test_art22_par1_VI_an_imported_reply_joins_the_email(qtbot, page, db, people, register, picks, messages,
                                                         tmp_path, monkeypatch):
    from hands import click_button, click_row

    from tests.db.correspondence_factories import SmtpSink, reply_to

    auto, mailed = notice(db, people, register.maria, DispatchForm.ELECTRONIC)
    with SmtpSink() as sink:
        monkeypatch.setenv("DESKTOP_SMTP_HOST", "127.0.0.1")
        monkeypatch.setenv("DESKTOP_SMTP_PORT", str(sink.port))
        monkeypatch.setenv("DESKTOP_SMTP_SECURITY", "none")
        monkeypatch.setenv("DESKTOP_SMTP_FROM", "fiscalizacao@chapada.example")
        page.reload()
        click_row(page.list, row_of(page, mailed.code))
        assert page.email_button.isVisible() and page.email_button.isEnabled()
        click_button(page.email_button)
        qtbot.waitUntil(lambda: bool(messages), timeout=30000)
        assert messages[-1][1] == "E-mail enviado", messages
        qtbot.waitUntil(lambda: len(sink.messages) == 1, timeout=10000)
    eml = tmp_path / "resposta.eml"
    eml.write_bytes(reply_to(sink.messages[0], "Maria <maria@example.com>",
                             when=(local_today()).strftime("%a, %d %b %Y 09:12:00 -0400")))
    picks["open"] = str(eml)
    click_button(page.reply_button)
    qtbot.waitUntil(lambda: messages[-1][1] == "Resposta importada", timeout=10000)
    got = desk.get_dispatch(db, people.fiscal, mailed.code)
    assert got.state is DispatchState.JOINED and got.received_by == "maria@example.com"
    assert got.joined_on == local_today()


def test_smtp_not_configured_says_so_in_portuguese(qtbot, page, db, people, register, messages, monkeypatch):
    from hands import click_button, click_row

    monkeypatch.delenv("DESKTOP_SMTP_HOST", raising=False)
    _auto, mailed = notice(db, people, register.maria, DispatchForm.ELECTRONIC)
    page.reload()
    click_row(page.list, row_of(page, mailed.code))
    click_button(page.email_button)
    qtbot.waitUntil(lambda: bool(messages), timeout=20000)
    assert messages[-1][1] == "E-mail não enviado" and "DESKTOP_SMTP_HOST" in messages[-1][2]
    assert desk.get_dispatch(db, people.fiscal, mailed.code).state is DispatchState.PENDING


def test_a_code_already_joined_is_refused_naming_the_first_joining(qtbot, page, db, people, desk_data, messages):
    """The scans dialog: a page whose code is read is joined with the date and name typed; the same AR scanned
    again is refused, naming the first joining (Art. 22, §2)."""
    from hands import click_button, click_row, type_into

    from desktop.services.correspondence import ScanLine
    from desktop.views.correspondence.scans import ScansDialog

    code = desk_data["sent"].code
    info = desk.get_dispatch(db, people.fiscal, code)
    png = _png()
    lines = (ScanLine(1, "pilha.pdf", code, info, png), ScanLine(2, "pilha.pdf", None, None, png),
             ScanLine(3, "pilha.pdf", code, info, png))
    dialog = ScansDialog(db, people.fiscal, lines)
    qtbot.addWidget(dialog)
    from hands import activate

    activate(dialog)
    assert "1 sem código legível" in dialog.summary.text()
    click_row(dialog.pages, 0)
    assert dialog.code.isReadOnly() and dialog.code.text() == code
    assert info.recipient_name in dialog.dispatch_label.text()
    type_into(dialog.received_on, local_today().strftime("%d/%m/%Y"), leave=True)
    type_into(dialog.received_by, "Joao da Silva")
    click_button(dialog.join_button)
    assert dialog.outcomes[1].startswith("juntado em")
    got = desk.get_dispatch(db, people.fiscal, code)
    assert got.state is DispatchState.JOINED and got.received_by == "Joao da Silva"
    # page 2 has no readable code: the clerk types it (here a code that is not in the register)
    click_row(dialog.pages, 1)
    assert not dialog.code.isReadOnly() and dialog.code.text() == ""
    type_into(dialog.code, "EX20260000999")
    click_button(dialog.check_button)
    assert "Código de expedição" in dialog.errors._fields["code"][1].text()
    # page 3: the same AR again
    click_row(dialog.pages, 2)
    type_into(dialog.received_on, local_today().strftime("%d/%m/%Y"), leave=True)
    type_into(dialog.received_by, "Outra Pessoa")
    click_button(dialog.join_button)
    assert messages and messages[-1][1] == "AR não juntado"
    assert "já foi juntada em" in messages[-1][2] and "Joao da Silva" in messages[-1][2]
    assert 3 not in dialog.outcomes


def test_a_tile_filter_opens_the_list_filtered(qtbot, page, desk_data):
    page.open_filtered({"status": "pending"})
    assert [r.code for r in page.list.visible_rows()] == [desk_data["waiting"].code]
    assert page.list.status_combo.currentData() == "pending"


def _png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("L", (200, 280), 230).save(out, "PNG")
    return out.getvalue()


def test_art22_par1_V_the_scanned_batch_is_read_off_the_ui_thread_page_by_page(qtbot, page, desk_data, picks,
                                                                              messages, tmp_path):
    """The batch PDF itself as the scanner's stack: every page rendered and its Code 128 read in the background,
    then each page shown beside its dispatch."""
    from hands import click_button

    from desktop.views.correspondence.scans import ScansDialog

    click_button(page.batch_button)
    qtbot.waitUntil(lambda: bool(messages), timeout=30000)
    picks["many"] = [str(tmp_path / "lote.pdf")]
    click_button(page.scans_button)
    dialog = wait_dialog(qtbot, page, ScansDialog)
    codes = {line.code for line in dialog.lines if line.code}
    assert desk_data["waiting"].code in codes
    assert dialog.pages.model.rowCount() == len(dialog.lines)
    dialog.reject()


def test_enter_on_a_row_shows_the_notice_that_went(qtbot, page, desk_data):
    from hands import click_row, press

    from desktop.views.pdf_preview import PdfPreviewDialog

    click_row(page.list, row_of(page, desk_data["sent"].code))
    press("Return", widget=page.list.view)
    preview = wait_dialog(qtbot, page, PdfPreviewDialog)
    assert desk_data["sent"].code_text in preview.windowTitle()
    preview.reject()


def test_art22_par1_V_a_batch_reprinted_is_its_2a_via_with_the_same_codes(qtbot, page, desk_data, picks, messages,
                                                                          tmp_path):
    from hands import click_button, click_row

    picks["save"] = str(tmp_path / "segunda-via.pdf")
    click_row(page.list, row_of(page, desk_data["sent"].code))
    click_button(page.reprint_button)
    qtbot.waitUntil(lambda: bool(messages), timeout=30000)
    assert messages[-1][1] == "Reimprimir lote" and "segunda-via.pdf" in messages[-1][2]
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO((tmp_path / "segunda-via.pdf").read_bytes())).pages)
    assert "2ª VIA" in text and desk_data["sent"].code in text
    assert len(page.list.visible_rows()) == 2      # no new codes


def test_a_scanned_page_without_date_is_refused_by_the_service_next_to_the_field(qtbot, db, people, desk_data):
    from hands import activate, click_button, click_row, type_into

    from desktop.services.correspondence import ScanLine
    from desktop.views.correspondence.scans import ScansDialog

    info = desk.get_dispatch(db, people.fiscal, desk_data["sent"].code)
    dialog = ScansDialog(db, people.fiscal, (ScanLine(1, "ar.jpg", info.code, info, _png()),))
    qtbot.addWidget(dialog)
    activate(dialog)
    click_row(dialog.pages, 0)
    type_into(dialog.received_by, "Joao da Silva")
    click_button(dialog.join_button)
    assert "data escrita pelo carteiro" in dialog.errors._fields["received_on"][1].text()
    assert desk.get_dispatch(db, people.fiscal, info.code).state is DispatchState.SENT   # nothing half-saved


def test_art22_par1_II_the_months_edital_is_posted_from_the_screen(qtbot, page, db, people, desk_data):
    from hands import click_button, type_into

    from desktop.domain.workflow import AutoStatus
    from desktop.services import autos
    from desktop.views.correspondence.dialogs import EditalDialog
    from desktop.views.pdf_preview import PdfPreviewDialog

    desk.receive(db, people.fiscal, desk_data["sent"].code, returned="recusado",
                 proof=("ar.pdf", tiny_pdf("AR recusado"), "application/pdf"))
    page.reload()
    click_button(page.edital_button)
    dialog = wait_dialog(qtbot, page, EditalDialog)
    assert desk_data["sent_auto"].number in dialog.intro.text() and "recusado" in dialog.intro.text()
    type_into(dialog.posted_on, local_today().strftime("%d/%m/%Y"), leave=True)
    click_button(dialog.buttons.button(dialog.buttons.StandardButton.Save))
    preview = wait_dialog(qtbot, page, PdfPreviewDialog)
    assert "Edital nº" in preview.windowTitle()
    preview.reject()
    got = desk.get_dispatch(db, people.fiscal, desk_data["sent"].code)
    assert got.state is DispatchState.JOINED and got.edital_posted_on == local_today()
    assert autos.get_auto_info(db, people.fiscal, desk_data["sent_auto"].id).status is AutoStatus.NOTIFIED


def test_art22_par1_VI_an_unanswered_email_offers_the_post(qtbot, page, db, people, register, messages):
    from hands import click_button, click_row

    from tests.db.correspondence_factories import SmtpSink, at

    _auto, mailed = notice(db, people, register.maria, DispatchForm.ELECTRONIC)
    with SmtpSink() as sink:
        desk.send_email(db, people.fiscal, mailed.code, desk.SmtpSettings("127.0.0.1", sink.port, "none",
                                                                          sender="f@chapada.example"))
    at(local_today() + timedelta(days=11))           # the 10 days of the parameter have passed
    page.open_filtered({"status": "unanswered"})
    assert [r.code for r in page.list.visible_rows()] == [mailed.code]
    click_row(page.list, 0)
    click_button(page.post_button)
    assert messages[-1][1] == "Via postal"
    letters = [r for r in desk.list_dispatches(db, people.fiscal) if r.form is DispatchForm.POST
               and r.state is DispatchState.PENDING]
    assert [r.case_id for r in letters][-1] == mailed.case_id


def test_a_notice_printed_in_fiscalizacao_is_registered_from_the_screen(qtbot, page, db, people, register):
    """Issue 26: every notice the program prints enters the register. The autuação notice printed from the auto's
    own screen (not through the desk) is chosen with the mouse in "Registrar notificação impressa…", goes by post
    with its new code, and is no longer offered."""
    from hands import click_button, click_row

    from desktop.views.correspondence.dialogs import RegisterPrintedDialog

    _with_address(db, register.joao)
    auto = draw_up(db, people.fiscal, "ART26-IV", local_today() - timedelta(days=1), driver_id=register.joao)
    issued = printing.print_autuacao_notice(db, people.fiscal, auto.number)
    click_button(page.printed_button)
    dialog = wait_dialog(qtbot, page, RegisterPrintedDialog)
    rows = dialog.table.visible_rows()
    row = next(i for i, n in enumerate(rows) if n.issued_document_id == issued.info.id)
    save = dialog.buttons.button(dialog.buttons.StandardButton.Save)
    click_button(save)                                   # nothing chosen: said beside the list
    assert dialog.isVisible() and "Escolha na lista" in dialog.errors.message("notice")
    click_row(dialog.table, row)
    assert dialog.form_combo.currentData() == DispatchForm.POST.value
    click_button(save)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10000)
    got = dialog.saved
    assert got.state is DispatchState.PENDING and got.case_label == f"Auto nº {auto.number}"
    assert got.code in [r.code for r in page.list.visible_rows()]
    assert not [n for n in desk.printed_notices(db, people.fiscal) if n.issued_document_id == issued.info.id]
