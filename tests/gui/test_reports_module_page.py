"""Relatórios (issue 7) on a real SQLite database: issue a sticker from the page (Art. 14) and see it in the preview
and in the archive; reprint the archived bytes with the "2ª via" stamp; refused identifiers said next to the field;
role awareness; the main window opens the module."""
from __future__ import annotations

from PySide6.QtCore import Qt

from test_reports_module_scenario import *  # noqa: F401,F403 — fixtures: clerk, inspector, authorizations
from test_reports_module_scenario import pdf_text, shoot, wait_task

from hands import activate, choose_in_combo, click, click_button, click_row, type_into
from robot import click_tab

from desktop.services import documents


def choose_kind(panel, key: str) -> None:
    """The document chosen with a mouse click on its row of the list."""
    from PySide6.QtCore import Qt

    rows = [panel.kind_list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(panel.kind_list.count())]
    click_row(panel.kind_list, rows.index(key))
    assert panel.entry().kind == key


def type_id(panel, text: str) -> None:
    type_into(panel.id_edit, text)


def press_issue(panel):
    """«Emitir e visualizar» pressed with the mouse; the task it started (None when it started none)."""
    before = panel.task
    click_button(panel.issue_button)
    return panel.task if panel.task is not before else None


def open_tab(page, widget):
    click_tab(page.tabs, page.tabs.indexOf(widget))
    assert page.tabs.currentWidget() is widget
    return widget


def click_archived(archive, number: str) -> None:
    click_row(archive.table, next(i for i, r in enumerate(archive.table.visible_rows()) if r.number == number))


def make_page(qtbot, db, actor, **kwargs):
    from desktop.views.reports import ReportsPage
    page = ReportsPage(db, actor, **kwargs)
    qtbot.addWidget(page)
    page.resize(1100, 720)
    page.show()
    return page


def close_preview(page):
    if page.last_preview is not None:
        page.last_preview.close()


def test_art14_sticker_issued_from_the_page_opens_a_one_page_preview_and_is_archived(qtbot, db, clerk,
                                                                                     authorizations):
    page = make_page(qtbot, db, clerk)
    panel = page.issue_panel
    choose_kind(panel, "sticker")
    assert panel.issue_button.text().replace("&", "") == "Emitir e visualizar" and panel.issue_button.isEnabled()
    assert panel.layout_box.isVisible()
    shoot(page, "01-emitir-adesivo")
    type_id(panel, "0007/2026")
    wait_task(qtbot, press_issue(panel))
    preview = page.last_preview
    assert preview is not None and preview.page_count() == 1
    qtbot.wait(600)   # QPdfView paints its pages asynchronously
    shoot(preview, "02-previa-adesivo")
    text = pdf_text(preview.pdf_bytes())
    for expected in ("0007/2026", "Art. 14", "Documento nº 0001/2026", "Ana Souza"):
        assert expected in text, expected
    assert "0001/2026" in panel.status.text() and not panel.field_error.isVisible()
    close_preview(page)

    archive = open_tab(page, page.archive_panel)
    qtbot.waitUntil(lambda: len(archive.rows()) == 1, timeout=10000)
    row = archive.rows()[0]
    assert (row.number, row.kind, row.record_type, row.copies) == ("0001/2026", "sticker", "authorization", 0)
    assert archive.table.model.index(0, 1).data() == "Adesivo do veículo (Art. 14)"
    # the record as users know it and who issued it
    assert archive.table.model.index(0, 2).data() == "Autorização 0007/2026"
    assert archive.table.model.headerData(4, Qt.Orientation.Horizontal) == "Emitido por"
    assert archive.table.model.index(0, 4).data() == "Ana Souza"
    import os

    os.makedirs("/tmp/shots/gaps", exist_ok=True)
    archive.grab().save("/tmp/shots/gaps/archive_issued_by_and_record.png")
    assert documents.archived_bytes(db, clerk, "0001/2026") == preview.pdf_bytes()


def test_reprint_from_the_archive_is_the_archived_document_with_the_2a_via_stamp(qtbot, db, clerk, authorizations):
    issued = documents.print_certificate(db, clerk, "0008/2026")
    page = make_page(qtbot, db, clerk)
    archive = open_tab(page, page.archive_panel)
    qtbot.waitUntil(lambda: len(archive.rows()) == 1, timeout=10000)
    click_archived(archive, issued.info.number)
    assert archive.reprint_button.isEnabled() and archive.reprint_button.text().replace("&", "") == "Reimprimir (2ª via)"
    shoot(page, "03-documentos-emitidos")
    click_button(archive.reprint_button)
    wait_task(qtbot, archive.reprint_task)
    copy = page.last_preview.pdf_bytes()
    assert "2ª VIA" in pdf_text(copy) and "2ª VIA" not in pdf_text(issued.pdf)
    # the archived document itself is unchanged, and its pages' own text comes first on every page of the copy
    assert documents.archived_bytes(db, clerk, issued.info.number) == issued.pdf
    assert pdf_text(copy).startswith(pdf_text(issued.pdf)[:200])
    qtbot.wait(600)
    shoot(page.last_preview, "04-previa-2a-via")
    close_preview(page)
    # the list refreshes (data_changed) and the next reprint is the 3ª via
    qtbot.waitUntil(lambda: archive.rows() and archive.rows()[0].copies == 1, timeout=10000)
    click_archived(archive, issued.info.number)
    assert archive.reprint_button.text().replace("&", "") == "Reimprimir (3ª via)"


def test_unknown_number_and_inactive_record_are_said_in_portuguese_next_to_the_field(qtbot, db, clerk,
                                                                                     authorizations):
    from desktop.models import Authorization

    page = make_page(qtbot, db, clerk)
    panel = page.issue_panel
    choose_kind(panel, "credential")
    press_issue(panel)
    assert panel.field_error.isVisible() and "Nº da autorização" in panel.field_error.text()
    type_id(panel, "0999/2026")
    wait_task(qtbot, press_issue(panel))
    assert panel.field_error.isVisible()
    assert panel.field_error.text() == "Autorização nº 0999/2026 não encontrada."
    shoot(page, "05-erro-numero-desconhecido")
    with db.session() as s:
        s.query(Authorization).filter_by(number="0009/2026").one().status = "suspended"
    type_id(panel, "0009/2026")
    wait_task(qtbot, press_issue(panel))
    assert "Suspensa" in panel.field_error.text() and "Art. 3º" in panel.field_error.text()
    assert page.last_preview is None and documents.list_issued(db, clerk) == []   # nothing numbered, nothing archived


def test_edital_is_chosen_by_its_publication_date_and_says_when_none_was_published(qtbot, db, admin):
    from test_reports_module_scenario import make_user
    from desktop.domain.roles import Role

    fiscal = make_user(db, "fiscal", "Fábio Fiscal", Role.FISCAL)
    page = make_page(qtbot, db, fiscal)
    panel = page.issue_panel
    choose_kind(panel, "edital")
    assert panel.date_edit.isVisible() and not panel.id_edit.isVisible()
    type_into(panel.date_edit, "02042026", leave=True)     # typed, with or without the slashes
    assert panel.identifier() == "02/04/2026"
    wait_task(qtbot, press_issue(panel))
    assert panel.field_error.text() == ("Nenhuma notificação por edital (Art. 22, §1º, II a IV) com data de "
                                        "02/04/2026.")
    shoot(page, "16-edital-por-data")


def test_roles_the_page_shows_what_the_profile_may_issue(qtbot, db, inspector, authorizations):
    page = make_page(qtbot, db, inspector)
    panel = page.issue_panel
    choose_kind(panel, "sticker")
    assert not panel.issue_button.isEnabled()
    assert "exige o perfil Atendente ou Gestor" in panel.role_note.text()
    choose_kind(panel, "inspection")
    assert panel.issue_button.isEnabled() and "Vistoriador" in panel.role_note.text()
    assert "você emite 6 de 16 documentos" in page.roles_label.text()   # issue 28: + the certidão de dívida ativa
    batch = open_tab(page, page.batch_panel)
    assert "não emite adesivos" in batch.role_note.text()
    # issue 25 item 7: the pending list is read by those who print stickers; the vistoriador's tab lists none
    assert batch.load_task is None and batch.numbers == [] and batch.list.count() == 0
    assert not batch.generate_button.isEnabled()
    panel = open_tab(page, page.issue_panel)
    choose_kind(panel, "sticker")
    shoot(page, "06-perfil-vistoriador")


def test_main_window_opens_the_reports_module(qtbot, db, clerk):
    from desktop.views.main_window import MODULES, MainWindow
    from desktop.views.reports import ReportsPage

    entry = next(m for m in MODULES if m.key == "relatorios")
    assert entry.factory == "desktop.views.reports.page:ReportsPage" and not entry.unavailable
    window = MainWindow(db, clerk)
    qtbot.addWidget(window)
    window.show()
    from robot import sidebar_open

    page = sidebar_open(window, "relatorios")
    assert isinstance(page, ReportsPage)
    shoot(window, "07-janela-principal-relatorios")


def test_statement_by_cpf_is_issued_and_a_guide_without_febraban_code_is_refused_next_to_the_field(
        qtbot, db, clerk, authorizations):
    page = make_page(qtbot, db, clerk)
    panel = page.issue_panel
    choose_kind(panel, "statement")
    type_id(panel, "529.982.247-25")
    wait_task(qtbot, press_issue(panel))
    assert not panel.field_error.isVisible(), panel.field_error.text()
    assert page.last_preview.page_count() >= 1
    assert "Joana Araújo Conceição 1" in pdf_text(page.last_preview.pdf_bytes())
    close_preview(page)
    choose_kind(panel, "guide")
    type_id(panel, "0009/2026")
    wait_task(qtbot, press_issue(panel))
    assert "código FEBRABAN" in panel.field_error.text()
    assert [d.kind for d in documents.list_issued(db, clerk)] == ["statement"]


def _slow_sticker_render(monkeypatch, started, release):
    """The sticker render waits for `release` (so the test acts while the document is being generated)."""
    from desktop.reports import sticker
    original = sticker.render

    def slow(ctx, *args, **kwargs):
        started.set()
        release.wait(20)
        return original(ctx, *args, **kwargs)
    monkeypatch.setattr(sticker, "render", slow)


def _archived_count(db) -> int:
    from desktop.models import IssuedDocument
    with db.session(write=False) as s:
        return s.query(IssuedDocument).count()


def test_issue12_16_cancel_while_the_document_is_generated_archives_nothing(qtbot, db, clerk, authorizations,
                                                                            monkeypatch):
    import threading
    started, release = threading.Event(), threading.Event()
    _slow_sticker_render(monkeypatch, started, release)
    page = make_page(qtbot, db, clerk)
    panel = page.issue_panel
    choose_kind(panel, "sticker")
    type_id(panel, "0007/2026")
    task = press_issue(panel)
    qtbot.waitUntil(started.is_set, timeout=10000)
    qtbot.waitUntil(lambda: task._dialog is not None, timeout=5000)   # the progress dialog, after 600 ms
    from PySide6.QtWidgets import QPushButton
    cancel = next(b for b in task._dialog.findChildren(QPushButton) if b.text().replace("&", "") == "Cancelar")
    click_button(cancel)
    release.set()
    wait_task(qtbot, task)
    assert _archived_count(db) == 0
    assert "cancelada" in panel.status.text() and "nenhum documento" in panel.status.text()
    assert page.last_preview is None and panel.issue_button.isEnabled()


def test_issue12_16_closing_the_page_while_the_document_is_generated_archives_nothing_and_never_raises(
        qtbot, db, clerk, authorizations, monkeypatch, capfd):
    import threading
    started, release = threading.Event(), threading.Event()
    _slow_sticker_render(monkeypatch, started, release)
    from desktop.views.reports import ReportsPage
    page = ReportsPage(db, clerk)
    page.show()
    panel = page.issue_panel
    choose_kind(panel, "sticker")
    type_id(panel, "0007/2026")
    task = press_issue(panel)
    qtbot.waitUntil(started.is_set, timeout=10000)
    page.close()
    page.deleteLater()
    qtbot.wait(50)                  # the page is destroyed while its job runs
    release.set()
    qtbot.waitUntil(lambda: task.finished, timeout=30000)
    qtbot.wait(100)
    assert _archived_count(db) == 0
    err = capfd.readouterr().err
    assert "RuntimeError" not in err and "Signal source has been deleted" not in err, err


def test_issue12_17_emitir_a_sticker_in_force_offers_the_2a_via_or_a_new_issue_with_a_reason(qtbot, db, clerk,
                                                                                            authorizations):
    from desktop.views.reports.issue import COPY
    page = make_page(qtbot, db, clerk)
    panel = page.issue_panel
    asked: list = []
    answers = ["lost", COPY, None]

    def choose(_parent, label, identifier, current):
        asked.append((label, identifier, current.number))
        return answers.pop(0)
    panel.choose_reissue = choose
    choose_kind(panel, "sticker")
    type_id(panel, "0007/2026")
    wait_task(qtbot, press_issue(panel))
    assert "0001/2026" in panel.status.text() and asked == []          # none in force: issued at once
    close_preview(page)

    wait_task(qtbot, press_issue(panel))                                # in force: asked, a new one for "lost"
    qtbot.waitUntil(lambda: "0002/2026" in panel.status.text(), timeout=30000)   # the new issue, after the answer
    assert asked == [("Adesivo do veículo", "0007/2026", "0001/2026")]
    close_preview(page)

    wait_task(qtbot, press_issue(panel))                                # the 2ª via of the one in force
    qtbot.waitUntil(lambda: "2ª via do documento nº 0002/2026" in panel.status.text(), timeout=30000)
    assert asked[-1][2] == "0002/2026"
    assert "2ª VIA" in pdf_text(page.last_preview.pdf_bytes())
    close_preview(page)

    wait_task(qtbot, press_issue(panel))                                # cancelled: nothing issued
    qtbot.waitUntil(lambda: "continua em vigor" in panel.status.text(), timeout=30000)
    assert [r.number for r in documents.list_issued(db, clerk)] == ["0002/2026", "0001/2026"]


def test_issue12_17_the_reissue_dialog_offers_the_copy_first_and_the_reasons(qtbot, db, clerk, authorizations):
    from desktop.views.reports.issue import COPY, ReissueDialog
    documents.print_sticker(db, clerk, "0007/2026")
    current = documents.current_document(db, clerk, "sticker", "0007/2026")
    dialog = ReissueDialog("Adesivo do veículo (Art. 14)", "0007/2026", current)
    qtbot.addWidget(dialog)
    activate(dialog)
    assert dialog.choice() == COPY and not dialog.reason_box.isEnabled()
    click(dialog.new_radio)
    assert dialog.reason_box.isEnabled() and dialog.choice() == "lost"
    assert [dialog.reason_box.itemText(i) for i in range(dialog.reason_box.count())] == [
        "Extravio", "Dano", "Dados alterados"]
    choose_in_combo(dialog.reason_box, "Dados alterados")
    assert dialog.choice() == "data_changed"
