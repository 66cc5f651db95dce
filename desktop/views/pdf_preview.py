"""Preview of a rendered document before it goes to paper (issue 7): QtPdf's QPdfView with zoom, page navigation,
"Imprimir…" (QPrintDialog, then `desktop.views.printing.print_pdf`: each page rendered by QPdfDocument at the
printer's resolution, at its real size on A4, never fitted to the page) and
"Salvar como PDF…". The dialog receives bytes: it never renders documents and never touches the database."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF
from PySide6.QtGui import QKeySequence
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import (QDialog, QFileDialog, QHBoxLayout, QLabel, QMessageBox, QPushButton, QSpinBox,
                               QToolButton, QVBoxLayout, QWidget)

from desktop.views.widgets import fit_size
from desktop.views.printing import PrintCancelled, PrintError, ask_and_print, new_printer
from desktop.views.printing import print_pdf

ZOOM_STEP = 1.25
ZOOM_MIN, ZOOM_MAX = 0.25, 5.0


class PdfPreviewDialog(QDialog):
    """`PdfPreviewDialog(pdf_bytes, "Adesivo 0007/2026", parent).exec()`."""

    def __init__(self, pdf_bytes: bytes, title: str, parent: QWidget | None = None,
                 suggested_name: str = "documento.pdf"):
        super().__init__(parent)
        self.setWindowTitle(f"Visualizar — {title}")
        self.resize(fit_size(900, 1000, parent))  # a page as tall as the screen allows (issue 12 item 23)
        self._bytes = bytes(pdf_bytes)
        self._suggested = suggested_name
        self._data = QByteArray(self._bytes)
        self._buffer = QBuffer(self._data, self)
        self._buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        self.document = QPdfDocument(self)
        self.document.load(self._buffer)

        self.view = QPdfView(self)
        self.view.setDocument(self.document)
        self.view.setPageMode(QPdfView.PageMode.MultiPage)
        self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth)

        self.previous_button = QToolButton(text="◀", toolTip="Página anterior")
        self.next_button = QToolButton(text="▶", toolTip="Próxima página")
        self.page_box = QSpinBox(minimum=1, maximum=max(1, self.page_count()))
        self.page_box.setAccessibleName("Página")
        self.of_label = QLabel(f"de {self.page_count()}")
        self.zoom_out_button = QToolButton(text="−", toolTip="Diminuir zoom")
        self.zoom_in_button = QToolButton(text="+", toolTip="Aumentar zoom")
        self.fit_width_button = QToolButton(text="Largura", toolTip="Ajustar à largura")
        self.fit_page_button = QToolButton(text="Página inteira", toolTip="Ajustar à página")
        self.zoom_label = QLabel()
        self.print_button = QPushButton("Imprimir…")
        self.print_button.setShortcut(QKeySequence.StandardKey.Print)
        self.save_button = QPushButton("Salvar como PDF…")
        self.save_button.setShortcut(QKeySequence.StandardKey.Save)
        self.close_button = QPushButton("Fechar")

        bar = QHBoxLayout()
        for widget in (self.previous_button, QLabel("Página"), self.page_box, self.of_label, self.next_button):
            bar.addWidget(widget)
        bar.addSpacing(16)
        for widget in (self.zoom_out_button, self.zoom_label, self.zoom_in_button, self.fit_width_button,
                       self.fit_page_button):
            bar.addWidget(widget)
        bar.addStretch(1)
        for widget in (self.print_button, self.save_button, self.close_button):
            bar.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)

        self.previous_button.clicked.connect(lambda: self.go_to_page(self.current_page() - 1))
        self.next_button.clicked.connect(lambda: self.go_to_page(self.current_page() + 1))
        self.page_box.valueChanged.connect(lambda value: self.go_to_page(value - 1))
        self.zoom_in_button.clicked.connect(lambda: self.set_zoom(self.view.zoomFactor() * ZOOM_STEP))
        self.zoom_out_button.clicked.connect(lambda: self.set_zoom(self.view.zoomFactor() / ZOOM_STEP))
        self.fit_width_button.clicked.connect(lambda: self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth))
        self.fit_page_button.clicked.connect(lambda: self.view.setZoomMode(QPdfView.ZoomMode.FitInView))
        self.view.zoomFactorChanged.connect(self._show_zoom)
        self.view.zoomModeChanged.connect(self._show_zoom)
        self.view.pageNavigator().currentPageChanged.connect(self._page_changed)
        self.printer_factory = None   # None: desktop.views.printing.new_printer
        self.print_button.clicked.connect(self.print_dialog)
        self.save_button.clicked.connect(self.save_dialog)
        self.close_button.clicked.connect(self.accept)
        self._show_zoom()
        self._page_changed(0)

    # ------------------------------------------------------------------ state
    def page_count(self) -> int:
        return self.document.pageCount()

    def current_page(self) -> int:
        return self.view.pageNavigator().currentPage()

    def pdf_bytes(self) -> bytes:
        return self._bytes

    # ------------------------------------------------------------------ navigation and zoom
    def go_to_page(self, index: int) -> None:
        index = max(0, min(index, self.page_count() - 1))
        if index != self.current_page():
            self.view.pageNavigator().jump(index, QPointF(), self.view.pageNavigator().currentZoom())
        self._page_changed(index)

    def set_zoom(self, factor: float) -> None:
        self.view.setZoomMode(QPdfView.ZoomMode.Custom)
        self.view.setZoomFactor(max(ZOOM_MIN, min(ZOOM_MAX, factor)))

    def _show_zoom(self, *_args) -> None:
        if self.view.zoomMode() == QPdfView.ZoomMode.Custom:
            self.zoom_label.setText(f"{round(self.view.zoomFactor() * 100)} %")
        else:
            self.zoom_label.setText("ajustado")

    def _page_changed(self, index: int) -> None:
        self.page_box.blockSignals(True)
        self.page_box.setValue(index + 1)
        self.page_box.blockSignals(False)
        self.previous_button.setEnabled(index > 0)
        self.next_button.setEnabled(index + 1 < self.page_count())

    # ------------------------------------------------------------------ save
    def save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Salvar como PDF", self._suggested, "Documento PDF (*.pdf)")
        if path:
            try:
                self.save_to(path)
            except OSError as error:
                QMessageBox.warning(self, "Salvar como PDF", f"Não foi possível salvar o arquivo:\n{error}")

    def save_to(self, path: str | Path) -> Path:
        """Writes the same bytes that were previewed (the archived document, not a new rendering)."""
        target = Path(path)
        if target.suffix.lower() != ".pdf":
            target = target.with_suffix(".pdf")
        target.write_bytes(self._bytes)
        return target

    # ------------------------------------------------------------------ print
    def print_dialog(self) -> int:
        """QPrintDialog, then the archived bytes at their real size (desktop.views.printing); returns the pages
        printed (0 when cancelled). The printer comes from `self.printer_factory(title)` (tests: a PDF file)."""

        factory = getattr(self, "printer_factory", None) or new_printer
        try:
            return ask_and_print(self._bytes, self.windowTitle(), self, self.page_count(),
                                 printer=factory(self.windowTitle()))
        except PrintCancelled:
            return 0
        except PrintError as error:
            QMessageBox.warning(self, "Imprimir", str(error))
            return 0

    def print_to(self, printer, first: int = 0, last: int | None = None) -> int:
        """Paints pages first..last (0-based, inclusive) on `printer` without a dialog; returns how many were
        painted. Each page is rendered by QtPdf at the printer's resolution, at its real size from the sheet's
        origin (no fit-to-page: the cut marks of stickers and credentials must measure true)."""

        return print_pdf(self._bytes, printer, first, last)
