"""Documents shown inside the program: a scan (PDF or image) in a viewer, in a window of its own. Shared by every
detail page that lists attached documents (views.widgets.detail.DocumentsPanel)."""
from __future__ import annotations


from PySide6.QtCore import QBuffer, QByteArray, QDate, QIODevice, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QScrollArea, QVBoxLayout, QWidget)

from desktop.views.widgets import ERROR_LABEL_STYLE, fit_size

NO_DATE = QDate(1900, 1, 1)
NO_DATE_TEXT = "sem data"


# -- documents shown inside the program ----------------------------------------------------------------------

def mime_of(filename: str) -> str:
    lower = filename.lower()
    if lower.endswith(".pdf"):
        return "application/pdf"
    if lower.endswith(".png"):
        return "image/png"
    if lower.endswith((".jpg", ".jpeg")):
        return "image/jpeg"
    return "application/octet-stream"


ACCEPTED_SCANS = "Documentos (*.pdf *.png *.jpg *.jpeg)"


class DocumentViewer(QWidget):
    """Shows a scan: an image in a QLabel (scrollable), a PDF in QPdfView (pages, zoom to width)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._content: QWidget | None = None
        self._buffer: QBuffer | None = None
        self._pdf = None
        self.kind = ""
        self.message = QLabel("Nenhum documento anexado.", self)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._layout.addWidget(self.message)

    def show_document(self, data: bytes, mime: str) -> None:
        self._clear()
        if mime == "application/pdf":
            from PySide6.QtPdf import QPdfDocument  # lazy: Qt loads only when this runs (start-up cost)
            from PySide6.QtPdfWidgets import QPdfView  # lazy: Qt loads only when this runs (start-up cost)

            self._buffer = QBuffer(self)
            self._buffer.setData(QByteArray(data))
            self._buffer.open(QIODevice.OpenModeFlag.ReadOnly)
            self._pdf = QPdfDocument(self)
            self._pdf.load(self._buffer)
            if self._pdf.status() == QPdfDocument.Status.Error or self._pdf.pageCount() == 0:
                self._show_message("Não foi possível abrir o PDF: o arquivo está danificado ou protegido.")
                return
            view = QPdfView(self)
            view.setPageMode(QPdfView.PageMode.MultiPage)
            view.setZoomMode(QPdfView.ZoomMode.FitToWidth)
            view.setDocument(self._pdf)
            self._content = view
            self.kind = "pdf"
        else:
            pixmap = QPixmap()
            if not pixmap.loadFromData(data):
                self._show_message("Não foi possível abrir a imagem: use PDF, PNG ou JPG.")
                return
            label = QLabel(self)
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setPixmap(pixmap if pixmap.width() <= 900 else pixmap.scaledToWidth(
                900, Qt.TransformationMode.SmoothTransformation))
            scroll = QScrollArea(self)
            scroll.setWidget(label)
            scroll.setWidgetResizable(True)
            self._content = scroll
            self.kind = "image"
        self.message.setVisible(False)
        self._layout.addWidget(self._content)

    def _show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(ERROR_LABEL_STYLE)
        self.message.setVisible(True)
        self.kind = "error"

    def _clear(self) -> None:
        if self._content is not None:
            self._layout.removeWidget(self._content)
            self._content.deleteLater()
            self._content = None
        if self._pdf is not None:
            self._pdf.close()
            self._pdf.deleteLater()
            self._pdf = None
        if self._buffer is not None:
            self._buffer.close()
            self._buffer.deleteLater()
            self._buffer = None
        self.kind = ""


class DocumentDialog(QDialog):
    """A window with one scanned document."""

    def __init__(self, title: str, data: bytes, mime: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.resize(fit_size(760, 820, parent))  # the scan scrolls inside (issue 12 item 23)
        self.viewer = DocumentViewer(self)
        self.viewer.show_document(data, mime)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.viewer, 1)
        layout.addWidget(buttons)
