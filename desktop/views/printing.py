"""Printing an archived PDF through Qt (issue 17): "Imprimir…" of the preview (`views/pdf_preview.py`, which the
archive's 2ª via and every issued document open) ends here.

`print_pdf(pdf_bytes, printer)` paints the document on any QPrinter — the Windows printer chosen in the
QPrintDialog, or a PDF file in the tests — without a dialog:
- each page is rendered by QtPdf (`QPdfDocument.render`) at the printer's resolution and placed at the sheet's
  origin at its REAL size (points → printer dots): no fit-to-page, no centring, no scaling, so the cut marks of
  stickers (Art. 14) and credentials measure on paper what they measure in the archived file;
- the sheet is A4 (portrait or landscape as the page is; a page of another size gets a sheet of its own size),
  with the full page addressable (`setFullPage`, zero margins): what a printer cannot reach at its edge is lost,
  never shifted;
- a page is rendered in horizontal bands (`BAND_ROWS` rows each), so a 1200-dpi A4 page never needs the
  ≈ 550 MB image a single render would.
`ask_and_print(pdf_bytes, title, parent)` is the dialog part: QPrintDialog (printer, pages, copies), then
`print_pdf` for the chosen range under a progress window whose "Cancelar" aborts the job.
"""
from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QPoint, QRect, QSize, QSizeF
from PySide6.QtGui import QPageLayout, QPageSize, QPainter
from PySide6.QtPdf import QPdfDocument, QPdfDocumentRenderOptions
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtPrintSupport import QPrintDialog
from PySide6.QtWidgets import QDialog, QProgressDialog

BAND_ROWS = 1024
A4_MM = (210.0, 297.0)
POINT_MM = 25.4 / 72


class PrintError(Exception):
    """The document could not be opened or the printer could not start (message in Portuguese)."""


class PrintCancelled(PrintError):
    """The user cancelled while the pages were being sent: the job was aborted, nothing reaches the printer."""


def open_document(pdf_bytes: bytes, parent=None) -> QPdfDocument:
    """A QPdfDocument over the bytes (the buffer is kept alive by the document)."""
    data = QByteArray(bytes(pdf_bytes))
    buffer = QBuffer(parent)
    buffer.setData(data)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    document = QPdfDocument(parent)
    document._buffer = buffer  # the document reads from it for as long as it lives
    document.load(buffer)
    if document.status() != QPdfDocument.Status.Ready or document.pageCount() == 0:
        raise PrintError("O documento PDF não pôde ser aberto para impressão.")
    return document


def sheet_for(points: QSizeF) -> QPageLayout:
    """The sheet a page of `points` goes on: A4 (portrait or landscape) when the page is A4 within 1 mm, else a
    sheet of the page's own size; zero margins."""
    width_mm, height_mm = points.width() * POINT_MM, points.height() * POINT_MM
    landscape = width_mm > height_mm
    short, long_ = sorted((width_mm, height_mm))
    if abs(short - A4_MM[0]) <= 1.0 and abs(long_ - A4_MM[1]) <= 1.0:
        size = QPageSize(QPageSize.PageSizeId.A4)
    else:
        size = QPageSize(QSizeF(short, long_), QPageSize.Unit.Millimeter, "Documento",
                         QPageSize.SizeMatchPolicy.ExactMatch)
    orientation = QPageLayout.Orientation.Landscape if landscape else QPageLayout.Orientation.Portrait
    return QPageLayout(size, orientation, QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)


def apply_sheet(printer, points: QSizeF) -> None:
    """Put the sheet for a page of `points` on `printer`: size and orientation, the whole sheet addressable from
    its corner (`setFullPage`, which also puts the layout in full-page mode, so zero margins are accepted). Set
    one by one: a Windows driver with minimum margins may refuse a whole layout at once, and the printer would
    then keep its own paper size."""
    layout = sheet_for(points)
    printer.setFullPage(True)
    printer.setPageSize(layout.pageSize())
    printer.setPageOrientation(layout.orientation())
    printer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)


def page_pixels(points: QSizeF, dpi: int) -> QSize:
    """A page's size in printer dots: its real size (points, 1/72 inch) at `dpi`."""
    return QSize(round(points.width() / 72 * dpi), round(points.height() / 72 * dpi))


def _paint_page(painter: QPainter, document: QPdfDocument, index: int, dpi: int, keep_going) -> None:
    full = page_pixels(document.pagePointSize(index), dpi)
    top = 0
    while top < full.height():
        if not keep_going():
            raise PrintCancelled("Impressão cancelada: nada foi enviado à impressora.")
        rows = min(BAND_ROWS, full.height() - top)
        options = QPdfDocumentRenderOptions()
        options.setScaledSize(full)
        options.setScaledClipRect(QRect(0, top, full.width(), rows))
        band = document.render(index, QSize(full.width(), rows), options)
        if band.isNull():
            raise PrintError(f"A página {index + 1} não pôde ser desenhada para a impressora.")
        # device dots = image pixels: placed at the sheet's origin, never scaled
        painter.drawImage(QPoint(0, top), band)
        top += rows


def print_pdf(pdf_bytes: bytes, printer, first: int = 0, last: int | None = None, progress=None) -> int:
    """Paint pages first..last (0-based, inclusive; all by default) of the PDF on `printer`, each at its real size
    from the sheet's origin. Returns how many pages were printed. Raises PrintError.
    `progress(done_pages, total_pages) -> bool` is called before every band of every page (≈ a quarter of a
    second of work at 600 dpi); False cancels: the job is aborted (`QPrinter.abort`) and PrintCancelled raised."""
    document = open_document(pdf_bytes)
    try:
        count = document.pageCount()
        last = count - 1 if last is None else min(last, count - 1)
        first = max(0, first)
        if first > last:
            return 0
        apply_sheet(printer, document.pagePointSize(first))
        painter = QPainter()
        if not painter.begin(printer):
            raise PrintError("A impressora não pôde iniciar a impressão (verifique se está ligada e disponível).")
        printed = 0
        total = last - first + 1

        def keep_going() -> bool:
            return progress is None or progress(printed, total) is not False

        try:
            for index in range(first, last + 1):
                if printed:
                    apply_sheet(printer, document.pagePointSize(index))
                    if not printer.newPage():
                        raise PrintError("A impressora recusou uma nova página.")
                _paint_page(painter, document, index, printer.resolution(), keep_going)
                printed += 1
            if progress is not None:
                progress(printed, total)
        except PrintCancelled:
            printer.abort()
            raise
        finally:
            if painter.isActive():
                painter.end()
        return printed
    finally:
        document.close()
        document.deleteLater()


def new_printer(title: str = "Documento"):
    """The printer the dialog starts from: high resolution (the printer's own dots), A4, no margins."""

    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setDocName(title)
    printer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                      QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter))
    return printer


def ask_and_print(pdf_bytes: bytes, title: str, parent=None, page_count: int | None = None, printer=None) -> int:
    """QPrintDialog (printer, page range, copies) and then `print_pdf` with a progress window ("Cancelar" aborts
    the job); returns the pages printed (0 when the user cancels the dialog; PrintCancelled when the job).
    `printer` defaults to `new_printer(title)`.

    The pages are painted on the GUI thread, which owns the QPrinter (Qt's printer devices belong to the thread
    that made them), so the progress window keeps the screen alive by processing events between bands instead
    of a background task (desktop.background)."""

    if page_count is None:
        document = open_document(pdf_bytes)
        page_count = document.pageCount()
        document.close()
    printer = printer if printer is not None else new_printer(title)
    dialog = QPrintDialog(printer, parent)
    dialog.setWindowTitle("Imprimir")
    dialog.setMinMax(1, max(1, page_count))
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return 0
    first, last = printer.fromPage(), printer.toPage()
    if first == 0 and last == 0:
        first, last = 1, page_count
    total = last - first + 1
    window = QProgressDialog("Enviando as páginas à impressora…", "Cancelar", 0, total, parent)
    window.setWindowTitle("Imprimir")
    window.setWindowModality(Qt.WindowModality.WindowModal)
    window.setMinimumDuration(0)

    def progress(done: int, pages: int) -> bool:
        window.setValue(done)
        window.setLabelText(f"Enviando a página {min(done + 1, pages)} de {pages} à impressora…")
        QCoreApplication.processEvents()
        return not window.wasCanceled()

    try:
        return print_pdf(pdf_bytes, printer, first - 1, last - 1, progress=progress)
    finally:
        window.close()
        window.deleteLater()
