"""Imprimir an archived document (issue 17) the way a clerk does it: Relatórios → Documentos emitidos → select the
sticker (Art. 14) → Reimprimir (2ª via) → "Imprimir…" in the preview → the print dialog → the sheet. The printer
is Qt's PDF printer; the sheet is A4 and the sticker's cut marks are where the archived copy has them (≤ 0.5 mm):
nothing was fitted to the page."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pypdf import PdfReader

from test_reports_module_scenario import *  # noqa: F401,F403 — fixtures: clerk, authorizations
from test_reports_module_scenario import pdf_text, wait_task

from desktop.services import documents

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reports"))
from cut_marks import TOLERANCE_MM, compare, pdf_printer, sticker_page_rect  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) não instalado")


def _accept_print_dialog_when_it_opens(seen: list):
    from PySide6.QtCore import QTimer
    from PySide6.QtPrintSupport import QPrintDialog
    from PySide6.QtWidgets import QApplication

    def poll():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QPrintDialog):
            QTimer.singleShot(50, poll)
            return
        seen.append(dialog.windowTitle())
        dialog.accept()

    QTimer.singleShot(50, poll)


def test_archived_sticker_printed_from_the_archive_keeps_its_cut_marks(qtbot, db, clerk, authorizations, tmp_path):
    from desktop.views.reports import ReportsPage
    issued = documents.print_kind(db, clerk, "sticker", "0007/2026", layout="page")
    page = ReportsPage(db, clerk)
    qtbot.addWidget(page)
    page.resize(1100, 720)
    page.show()
    archive = page.show_tab("archive")
    qtbot.waitUntil(lambda: len(archive.rows()) == 1, timeout=10000)
    archive.table.select_where(lambda r: r.number == issued.info.number)
    wait_task(qtbot, archive.reprint())
    preview = page.last_preview
    copy = preview.pdf_bytes()
    assert "2ª VIA" in pdf_text(copy)
    printed = tmp_path / "impresso.pdf"
    preview.printer_factory = lambda title: pdf_printer(printed, 300)
    seen: list = []
    _accept_print_dialog_when_it_opens(seen)
    qtbot.mouseClick(preview.print_button, Qt.MouseButton.LeftButton)
    assert seen == ["Imprimir"]
    assert len(PdfReader(str(printed)).pages) == 1
    archived = tmp_path / "segunda-via.pdf"
    archived.write_bytes(copy)
    assert compare(archived, printed, sticker_page_rect()) <= TOLERANCE_MM
    # the first issue in the archive is untouched by printing its copy
    assert documents.archived_bytes(db, clerk, issued.info.number) == issued.pdf
    preview.close()
