"""Adesivos pendentes (Art. 14): the page lists the active authorizations without a printed sticker, "Gerar lote"
runs `pending_stickers_job` in the background, the preview shows the batch, and "Cancelar" saves nothing."""
from __future__ import annotations

from test_reports_module_scenario import *  # noqa: F401,F403 — fixtures: clerk, authorizations
from test_reports_module_scenario import add_authorizations, pdf_text, shoot, wait_task

from hands import choose_in_combo, click_button

from desktop.services import documents


def click_generate(panel):
    """«Gerar lote» pressed with the mouse; the batch's background task."""
    click_button(panel.generate_button)
    return panel.batch_task


def batch_page(qtbot, db, actor):
    from desktop.views.reports import ReportsPage
    page = ReportsPage(db, actor, batch_workers=1)
    qtbot.addWidget(page)
    page.resize(1100, 720)
    page.show()
    panel = page.show_tab("batch")
    qtbot.waitUntil(lambda: panel.load_task is not None and panel.load_task.finished, timeout=10000)
    return page, panel


def test_art14_batch_of_pending_stickers_is_generated_previewed_and_no_longer_pending(qtbot, db, clerk,
                                                                                      authorizations):
    page, panel = batch_page(qtbot, db, clerk)
    assert panel.numbers == ["0007/2026", "0008/2026", "0009/2026"]
    assert panel.count_label.text() == "3 adesivos pendentes" and panel.list.count() == 3
    assert panel.generate_button.isEnabled()
    choose_in_combo(panel.layout_box, panel.layout_box.itemText(panel.layout_box.findData("page")))
    assert panel.layout_box.currentData() == "page"
    shoot(page, "08-adesivos-pendentes")
    wait_task(qtbot, click_generate(panel))
    assert panel.last_batch is not None and page.last_preview is not None
    assert page.last_preview.page_count() == 3                         # one sticker per page
    text = pdf_text(page.last_preview.pdf_bytes())
    assert all(number in text for number in authorizations)
    assert panel.status.text() == f"Lote arquivado como documento nº {panel.last_batch.info.number}."
    qtbot.wait(600)   # QPdfView paints its pages asynchronously
    shoot(page.last_preview, "09-previa-lote-adesivos")
    page.last_preview.close()
    qtbot.waitUntil(lambda: panel.load_task.finished and panel.numbers == [], timeout=10000)
    assert panel.count_label.text() == "Nenhum adesivo pendente." and not panel.generate_button.isEnabled()
    assert documents.pending_sticker_numbers(db, clerk) == []
    assert [d.kind for d in documents.list_issued(db, clerk)] == ["sticker"]


def test_cancelled_batch_numbers_nothing_archives_nothing_and_leaves_the_stickers_pending(qtbot, db, clerk, admin):
    from desktop.models import AuthorizationEvent, IssuedDocument

    numbers = add_authorizations(db, 40)
    page, panel = batch_page(qtbot, db, clerk)
    assert panel.numbers == numbers
    # the batch waits in a pool whose only thread is busy, so "Cancelar" surely comes before it starts
    import threading

    from PySide6.QtCore import QRunnable, QThreadPool
    gate = threading.Event()

    class Busy(QRunnable):
        def run(self):
            gate.wait(30)

    pool = QThreadPool()
    pool.setMaxThreadCount(1)
    pool.start(Busy())
    panel.pool = pool
    task = click_generate(panel)
    assert panel.cancel_button.isVisible() and panel.progress.isVisible()
    shoot(page, "17-lote-em-andamento")
    click_button(panel.cancel_button)    # the page's «Cancelar»
    assert panel.status.text() == "Cancelando…"
    gate.set()
    wait_task(qtbot, task)
    assert pool.waitForDone(10000)
    panel.pool = None
    from desktop.background import Cancelled
    assert isinstance(task.error, Cancelled)
    assert "Lote cancelado" in panel.status.text() and panel.last_batch is None
    assert page.last_preview is None
    with db.session(write=False) as s:
        assert s.query(IssuedDocument).count() == 0
        assert s.query(AuthorizationEvent).filter_by(kind=documents.STICKER_EVENT).count() == 0
    assert documents.pending_sticker_numbers(db, clerk) == numbers
    qtbot.waitUntil(lambda: panel.load_task.finished and panel.generate_button.isEnabled(), timeout=10000)
    # the next batch takes the first document number: the cancelled one gave nothing away
    wait_task(qtbot, click_generate(panel), timeout=120000)
    assert panel.last_batch.info.number.startswith("0001/")
    assert page.last_preview.page_count() == 5                         # 40 stickers, 8 per label sheet
