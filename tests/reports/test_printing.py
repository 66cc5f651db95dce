"""Printing through Qt (issue 17): the archived PDF goes to a printer at its real size, so the cut marks of the
sticker (Art. 14 da Lei nº 2.103/2025: afixado no veículo) and of the credential (Art. 13, I: porte obrigatório)
measure on paper what they measure in the archived file.

The printer here is Qt's PDF printer (`QPrinter.OutputFormat.PdfFormat`), driven through `print_pdf` — the same
path "Imprimir…" takes after the QPrintDialog. Both files are rasterized by pdftoppm at the same resolution and
the cut marks are located in each: every mark within 0.5 mm, the sheet A4.
"""
import shutil

import pytest
import reports_scenario as s
from cut_marks import TOLERANCE_MM, compare, credential_rect, pdf_printer, sticker_page_rect
from pypdf import PdfReader

from desktop.reports import credential, sticker

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) não instalado")


@pytest.mark.parametrize("dpi", [300, 600])
def test_sticker_cut_marks_measure_true_on_the_printed_sheet(qapp, tmp_path, dpi):
    from desktop.views.printing import print_pdf
    data = sticker.render(s.sticker_ctx(2))
    archived = tmp_path / "arquivado.pdf"
    archived.write_bytes(data)
    printed = tmp_path / "impresso.pdf"
    assert print_pdf(data, pdf_printer(printed, dpi)) == 2
    assert compare(archived, printed, sticker_page_rect()) <= TOLERANCE_MM


def test_credential_cut_marks_measure_true_on_the_printed_sheet(qapp, tmp_path):
    from desktop.views.printing import print_pdf
    data = credential.render(s.credential_ctx())
    archived = tmp_path / "credencial.pdf"
    archived.write_bytes(data)
    printed = tmp_path / "impresso.pdf"
    assert print_pdf(data, pdf_printer(printed, 300)) == 1
    assert compare(archived, printed, credential_rect()) <= TOLERANCE_MM


def test_a_page_range_prints_only_those_pages(qapp, tmp_path):
    from desktop.views.printing import print_pdf
    data = sticker.render(s.sticker_ctx(3))
    printed = tmp_path / "impresso.pdf"
    assert print_pdf(data, pdf_printer(printed, 150), first=1, last=1) == 1
    assert len(PdfReader(str(printed)).pages) == 1


def test_a_landscape_page_gets_a_landscape_a4_sheet(qapp, tmp_path):
    from PySide6.QtCore import QSizeF
    from PySide6.QtGui import QPageLayout

    from desktop.views.printing import apply_sheet, page_pixels, sheet_for
    printer = pdf_printer(tmp_path / "x.pdf", 150)
    apply_sheet(printer, QSizeF(841.89, 595.28))
    on_printer = printer.pageLayout()
    assert printer.fullPage() and on_printer.orientation() == QPageLayout.Orientation.Landscape
    sheet = on_printer.fullRect(QPageLayout.Unit.Millimeter)
    assert abs(sheet.width() - 297) < 0.01 and abs(sheet.height() - 210) < 0.01
    layout = sheet_for(QSizeF(841.89, 595.28))
    assert layout.orientation() == QPageLayout.Orientation.Landscape
    full = layout.fullRect(QPageLayout.Unit.Millimeter)
    assert abs(full.width() - 297) < 0.01 and abs(full.height() - 210) < 0.01
    assert layout.margins().isNull()
    a4 = page_pixels(QSizeF(595.28, 841.89), 600)            # 210 × 297 mm at 600 dpi
    assert (a4.width(), a4.height()) == (4961, 7016)
    assert page_pixels(QSizeF(72, 144), 600).width() == 600 and page_pixels(QSizeF(72, 144), 600).height() == 1200


def test_bytes_that_are_not_a_pdf_are_refused_in_portuguese(qapp, tmp_path):
    from desktop.views.printing import PrintError, print_pdf
    with pytest.raises(PrintError, match="não pôde ser aberto"):
        print_pdf(b"isto nao e um pdf", pdf_printer(tmp_path / "x.pdf", 150))


@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_imprimir_in_the_preview_goes_through_the_print_dialog_at_real_size(qtbot, tmp_path):
    """The user's path: the preview of an archived sticker → "Imprimir…" → QPrintDialog (accepted) → the sheet."""
    from PySide6.QtCore import QTimer
    from PySide6.QtPrintSupport import QPrintDialog
    from PySide6.QtWidgets import QApplication

    from desktop.views.pdf_preview import PdfPreviewDialog
    data = sticker.render(s.sticker_ctx(1))
    archived = tmp_path / "arquivado.pdf"
    archived.write_bytes(data)
    printed = tmp_path / "impresso.pdf"
    preview = PdfPreviewDialog(data, "Adesivo 0007/2026", None)
    qtbot.addWidget(preview)
    preview.printer_factory = lambda title: pdf_printer(printed, 300)
    seen = []

    def accept_the_dialog():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QPrintDialog):
            QTimer.singleShot(50, accept_the_dialog)
            return
        seen.append(dialog.windowTitle())
        dialog.accept()

    QTimer.singleShot(50, accept_the_dialog)
    preview.show()
    assert preview.print_button.text().replace("&", "") == "Imprimir…"   # a mnemonic may be given on show
    preview.print_button.click()
    assert seen == ["Imprimir"]
    assert printed.exists() and len(PdfReader(str(printed)).pages) == 1
    assert compare(archived, printed, sticker_page_rect()) <= TOLERANCE_MM


@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_cancelling_the_print_dialog_prints_nothing(qtbot, tmp_path):
    from PySide6.QtCore import QTimer
    from PySide6.QtPrintSupport import QPrintDialog
    from PySide6.QtWidgets import QApplication

    from desktop.views.printing import ask_and_print
    printed = tmp_path / "impresso.pdf"

    def cancel():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QPrintDialog):
            QTimer.singleShot(50, cancel)
            return
        dialog.reject()

    QTimer.singleShot(50, cancel)
    assert ask_and_print(sticker.render(s.sticker_ctx(1)), "Adesivo", None, printer=pdf_printer(printed, 150)) == 0
    assert not printed.exists()


def test_progress_is_reported_and_false_cancels_the_job(qapp, tmp_path):
    from desktop.views.printing import PrintCancelled, print_pdf
    data = sticker.render(s.sticker_ctx(3))
    seen = []
    assert print_pdf(data, pdf_printer(tmp_path / "a.pdf", 150), progress=lambda d, t: seen.append((d, t))) == 3
    assert seen[0] == (0, 3) and seen[-1] == (3, 3) and (2, 3) in seen
    calls = []

    def stop_on_the_second_page(done, total):
        calls.append(done)
        return done < 1

    printer = pdf_printer(tmp_path / "b.pdf", 150)
    with pytest.raises(PrintCancelled, match="nada foi enviado"):
        print_pdf(data, printer, progress=stop_on_the_second_page)
    assert calls[-1] == 1


@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_cancelar_in_the_progress_window_stops_the_job_and_the_preview_says_nothing(qtbot, tmp_path):
    from PySide6.QtCore import QTimer
    from PySide6.QtPrintSupport import QPrintDialog
    from PySide6.QtWidgets import QApplication, QProgressDialog

    from desktop.views.pdf_preview import PdfPreviewDialog
    preview = PdfPreviewDialog(sticker.render(s.sticker_ctx(6)), "Adesivos", None)
    qtbot.addWidget(preview)
    preview.printer_factory = lambda title: pdf_printer(tmp_path / "lote.pdf", 600)
    steps = []

    def drive():
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QPrintDialog):
            steps.append("imprimir")
            dialog.accept()
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, QProgressDialog) and w.isVisible()]
        if windows and "cancelar" not in steps:
            steps.append("cancelar")
            windows[0].cancel()
            return
        QTimer.singleShot(20, drive)

    QTimer.singleShot(20, drive)
    preview.show()
    assert preview.print_dialog() == 0
    assert steps == ["imprimir", "cancelar"]
