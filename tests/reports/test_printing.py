"""Printing through Qt (issue 17): the archived PDF goes to a printer at its real size, so the cut marks of the
sticker (Art. 14 da Lei nº 2.103/2025: afixado no veículo) and of the credential (Art. 13, I: porte obrigatório)
measure on paper what they measure in the archived file.

The printer here is Qt's PDF printer (`QPrinter.OutputFormat.PdfFormat`), driven through `print_pdf` — the same
path "Imprimir…" takes after the QPrintDialog. Both files are rasterized by pdftoppm at the same resolution and
the cut marks are located in each: every mark within 0.5 mm, the sheet A4.
"""
import io
import shutil
import subprocess

import pytest
import reports_scenario as s
from PIL import Image
from pypdf import PdfReader

from desktop.reports import credential, sticker

RASTER_DPI = 200
MM = 72 / 25.4                       # points per millimetre
TOLERANCE_MM = 0.5
MARK_GAP_MM, MARK_LENGTH_MM = 1.5, 4.0   # desktop.reports.sticker/_credential _crop_marks

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) não instalado")


def _printer(path, dpi: int):
    from PySide6.QtPrintSupport import QPrinter
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(path))
    printer.setResolution(dpi)
    return printer


def _raster(pdf_path, page: int = 1) -> Image.Image:
    out = subprocess.run(["pdftoppm", "-r", str(RASTER_DPI), "-gray", "-f", str(page), "-l", str(page),
                          str(pdf_path)], check=True, capture_output=True).stdout
    return Image.open(io.BytesIO(out)).convert("L")


def _ink_centroid(image: Image.Image, box_mm, axis: str) -> float:
    """The ink-weighted centre (mm from the sheet's top-left) along `axis` ("x" or "y") inside box_mm =
    (left, top, right, bottom) in mm from the top-left corner. Fails when the box holds no mark."""
    px = RASTER_DPI / 25.4
    left, top, right, bottom = (round(v * px) for v in box_mm)
    region = image.crop((left, top, right, bottom))
    width, height = region.size
    pixels = region.load()
    total = weighted = 0.0
    for j in range(height):
        for i in range(width):
            ink = 255 - pixels[i, j]
            if ink > 40:
                total += ink
                weighted += ink * ((left + i) if axis == "x" else (top + j))
    assert total > 255 * 5, f"nenhuma marca de corte em {box_mm} mm"
    return (weighted / total + 0.5) / px


def _marks(image: Image.Image, x_pt: float, y_pt: float, w_pt: float, h_pt: float, page_h_pt: float):
    """The measured position (mm) of each of the 8 cut marks around the rectangle (x, y, w, h) in PDF points
    (origin bottom-left): for each corner, the y of its horizontal mark and the x of its vertical mark."""
    measured = {}
    near, far = MARK_GAP_MM + 0.5, MARK_GAP_MM + MARK_LENGTH_MM - 0.5
    for name_x, cx, dx in (("esq", x_pt, -1), ("dir", x_pt + w_pt, 1)):
        for name_y, cy, dy in (("inf", y_pt, -1), ("sup", y_pt + h_pt, 1)):
            cx_mm, cy_mm = cx / MM, (page_h_pt - cy) / MM      # from the top-left, y downwards
            xs = sorted((cx_mm + dx * near, cx_mm + dx * far))
            horizontal = _ink_centroid(image, (xs[0], cy_mm - 1.2, xs[1], cy_mm + 1.2), "y")
            ys = sorted((cy_mm - dy * near, cy_mm - dy * far))
            vertical = _ink_centroid(image, (cx_mm - 1.2, ys[0], cx_mm + 1.2, ys[1]), "x")
            measured[f"{name_x}-{name_y}"] = (vertical, horizontal, cx_mm, cy_mm)
    return measured


def _compare(archived_pdf, printed_pdf, rect_pt):
    archived, printed = PdfReader(str(archived_pdf)), PdfReader(str(printed_pdf))
    assert len(printed.pages) == len(archived.pages)
    for a_page, p_page in zip(archived.pages, printed.pages):
        assert abs(float(p_page.mediabox.width) - float(a_page.mediabox.width)) / MM <= TOLERANCE_MM
        assert abs(float(p_page.mediabox.height) - float(a_page.mediabox.height)) / MM <= TOLERANCE_MM
        assert abs(float(p_page.mediabox.width) / MM - 210) <= TOLERANCE_MM       # A4 on paper
        assert abs(float(p_page.mediabox.height) / MM - 297) <= TOLERANCE_MM
    page_h = float(archived.pages[0].mediabox.height)
    archived_marks = _marks(_raster(archived_pdf), *rect_pt, page_h)
    printed_marks = _marks(_raster(printed_pdf), *rect_pt, page_h)
    worst = 0.0
    for corner, (ax, ay, cx, cy) in archived_marks.items():
        # the finder finds the marks where the document draws them…
        assert abs(ax - cx) <= 0.3 and abs(ay - cy) <= 0.3, (corner, ax, ay, cx, cy)
        px, py = printed_marks[corner][:2]
        # …and on the printed sheet they are where the archived file has them
        worst = max(worst, abs(px - ax), abs(py - ay))
        assert abs(px - ax) <= TOLERANCE_MM and abs(py - ay) <= TOLERANCE_MM, (corner, (ax, ay), (px, py))
    return worst


@pytest.mark.parametrize("dpi", [300, 600])
def test_sticker_cut_marks_measure_true_on_the_printed_sheet(qapp, tmp_path, dpi):
    from desktop.reports import _pdf
    from desktop.views.printing import print_pdf
    data = sticker.render(s.sticker_ctx(2))
    archived = tmp_path / "arquivado.pdf"
    archived.write_bytes(data)
    printed = tmp_path / "impresso.pdf"
    assert print_pdf(data, _printer(printed, dpi)) == 2
    w, h = sticker.STICKER_W_MM * MM * sticker.PAGE_SCALE, sticker.STICKER_H_MM * MM * sticker.PAGE_SCALE
    x0, y0 = (_pdf.PAGE_W - w) / 2, (_pdf.PAGE_H - h) / 2 + 10 * MM
    assert _compare(archived, printed, (x0, y0, w, h)) <= TOLERANCE_MM


def test_credential_cut_marks_measure_true_on_the_printed_sheet(qapp, tmp_path):
    from desktop.reports import _pdf
    from desktop.views.printing import print_pdf
    data = credential.render(s.credential_ctx())
    archived = tmp_path / "credencial.pdf"
    archived.write_bytes(data)
    printed = tmp_path / "impresso.pdf"
    assert print_pdf(data, _printer(printed, 300)) == 1
    w, h = credential.CARD_W_MM * MM, credential.CARD_H_MM * MM
    x0, y0 = (_pdf.PAGE_W - 2 * w) / 2, _pdf.PAGE_H - 70 * MM - h
    assert _compare(archived, printed, (x0, y0, 2 * w, h)) <= TOLERANCE_MM


def test_a_page_range_prints_only_those_pages(qapp, tmp_path):
    from desktop.views.printing import print_pdf
    data = sticker.render(s.sticker_ctx(3))
    printed = tmp_path / "impresso.pdf"
    assert print_pdf(data, _printer(printed, 150), first=1, last=1) == 1
    assert len(PdfReader(str(printed)).pages) == 1


def test_a_landscape_page_gets_a_landscape_a4_sheet(qapp):
    from PySide6.QtCore import QSizeF
    from PySide6.QtGui import QPageLayout

    from desktop.views.printing import page_pixels, sheet_for
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
        print_pdf(b"isto nao e um pdf", _printer(tmp_path / "x.pdf", 150))


@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_imprimir_in_the_preview_goes_through_the_print_dialog_at_real_size(qtbot, tmp_path):
    """The user's path: the preview of an archived sticker → "Imprimir…" → QPrintDialog (accepted) → the sheet."""
    from PySide6.QtCore import QTimer
    from PySide6.QtPrintSupport import QPrintDialog
    from PySide6.QtWidgets import QApplication

    from desktop.reports import _pdf
    from desktop.views.pdf_preview import PdfPreviewDialog
    data = sticker.render(s.sticker_ctx(1))
    archived = tmp_path / "arquivado.pdf"
    archived.write_bytes(data)
    printed = tmp_path / "impresso.pdf"
    preview = PdfPreviewDialog(data, "Adesivo 0007/2026", None)
    qtbot.addWidget(preview)
    preview.printer_factory = lambda title: _printer(printed, 300)
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
    assert preview.print_button.text() == "Imprimir…"
    preview.print_button.click()
    assert seen == ["Imprimir"]
    assert printed.exists() and len(PdfReader(str(printed)).pages) == 1
    w, h = sticker.STICKER_W_MM * MM * sticker.PAGE_SCALE, sticker.STICKER_H_MM * MM * sticker.PAGE_SCALE
    x0, y0 = (_pdf.PAGE_W - w) / 2, (_pdf.PAGE_H - h) / 2 + 10 * MM
    assert _compare(archived, printed, (x0, y0, w, h)) <= TOLERANCE_MM


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
    assert ask_and_print(sticker.render(s.sticker_ctx(1)), "Adesivo", None, printer=_printer(printed, 150)) == 0
    assert not printed.exists()
