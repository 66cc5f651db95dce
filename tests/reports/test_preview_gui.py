"""The preview dialog opens a rendered document offscreen (pytest-qt), navigates, zooms, saves and prints."""
import io

import pytest
import reports_scenario as s
from pypdf import PdfReader

from desktop.reports import auto, sticker


# The offscreen platform cannot apply size hints and says so when a window is shown (as in tests/gui).
@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_preview_opens_a_rendered_sticker_with_its_pages(qtbot):
    from desktop.views.pdf_preview import PdfPreviewDialog
    data = sticker.render(s.sticker_ctx(3))
    dialog = PdfPreviewDialog(data, "Adesivos", None)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.page_count() == 3
    assert dialog.of_label.text() == "de 3"
    assert not dialog.previous_button.isEnabled() and dialog.next_button.isEnabled()
    dialog.go_to_page(2)
    assert dialog.page_box.value() == 3 and not dialog.next_button.isEnabled()
    dialog.set_zoom(1.5)
    assert abs(dialog.view.zoomFactor() - 1.5) < 1e-6 and dialog.zoom_label.text() == "150 %"
    dialog.zoom_in_button.click()
    assert dialog.view.zoomFactor() > 1.5


def test_preview_saves_the_same_bytes(qtbot, tmp_path):
    from desktop.views.pdf_preview import PdfPreviewDialog
    data = auto.render(s.auto_ctx())
    dialog = PdfPreviewDialog(data, "Auto 0003/2026", None)
    qtbot.addWidget(dialog)
    saved = dialog.save_to(tmp_path / "auto")
    assert saved.name == "auto.pdf" and saved.read_bytes() == data


def test_preview_prints_every_page_to_a_pdf_printer(qtbot, tmp_path):
    from PySide6.QtPrintSupport import QPrinter

    from desktop.views.pdf_preview import PdfPreviewDialog
    data = auto.render(s.auto_ctx())
    dialog = PdfPreviewDialog(data, "Auto 0003/2026", None)
    qtbot.addWidget(dialog)
    printer = QPrinter(QPrinter.PrinterMode.ScreenResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    target = tmp_path / "printed.pdf"
    printer.setOutputFileName(str(target))
    assert dialog.print_to(printer) == 2
    assert len(PdfReader(io.BytesIO(target.read_bytes())).pages) == 2
