"""Inputs and viewers shared by the register and authorization screens.

- `DocumentNumberEdit`: CPF (000.000.000-00) or CNPJ (00.000.000/0000-00, also alphanumeric) with an input mask,
  checked by the domain validator when the user leaves the field; the message appears under the field.
- `PlateEdit`: old (ABC-1234) and Mercosul (ABC1D23) plates, upper case.
- `OptionalDateEdit`: the program's date field, optional (value() is None when empty).
- `DocumentViewer`: a scanned document shown inside the program (images in a QLabel, PDFs in QPdfView).
- `field_box()`: a widget with its error label under it (STYLE: problems next to their fields).
- `offer_reload()`: the "alterado por outro usuário" box with a "Recarregar" button.
"""
from __future__ import annotations

from datetime import date

from PySide6.QtCore import QRegularExpression, Qt
from PySide6.QtGui import QPixmap, QRegularExpressionValidator
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget)

from desktop.views.date_fields import DateField

from desktop.domain.documents import format_cnpj, format_cpf, normalize_cnpj, normalize_cpf, validate_cnpj, \
    validate_cpf, validate_plate
from desktop.views.widgets import ERROR_LABEL_STYLE, INVALID_STYLE, error_label, field_box, fit_size  # noqa: F401 — field_box re-exported
from PySide6.QtWidgets import QPushButton
from desktop.views.widgets import image_file_to_png
from PySide6.QtWidgets import QFileDialog





class DocumentNumberEdit(QLineEdit):
    """CPF or CNPJ with its input mask; `value()` is the stored form (digits / 14 characters), `problem()` the
    domain validator's verdict. The message is shown in `message_label` when the user leaves the field."""

    MASKS = {"cpf": "000.000.000-00;_", "cnpj": ">NN.NNN.NNN/NNNN-00;_"}

    def __init__(self, kind: str = "cpf", parent=None, field: str | None = None, required: bool = True):
        super().__init__(parent)
        if kind not in self.MASKS:
            raise ValueError(kind)
        self.kind = kind
        self.field = field or kind
        self.required = required
        self.setInputMask(self.MASKS[kind])
        self.setPlaceholderText("000.000.000-00" if kind == "cpf" else "00.000.000/0000-00")
        self.message_label = error_label(parent)
        self.editingFinished.connect(self.check)

    def value(self) -> str:
        return normalize_cpf(self.text()) if self.kind == "cpf" else normalize_cnpj(self.text())

    def set_value(self, value: str | None) -> None:
        self.setText(format_cpf(value) if self.kind == "cpf" else format_cnpj(value))

    def is_empty(self) -> bool:
        return not self.value()

    def problem(self):
        validator = validate_cpf if self.kind == "cpf" else validate_cnpj
        return validator(self.value(), self.field, self.required)

    def check(self) -> bool:
        """Validate now and show the message under the field; True when the number is good."""
        problem = self.problem()
        if problem is None:
            self.setStyleSheet("")
            self.message_label.clear()
            self.message_label.setVisible(False)
            return True
        self.setStyleSheet(INVALID_STYLE)
        self.message_label.setText(str(problem))
        self.message_label.setVisible(True)
        return False


class PlateEdit(QLineEdit):
    """A plate typed as ABC1234, ABC-1234 or ABC1D23 (Mercosul); letters become upper case."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setValidator(QRegularExpressionValidator(
            QRegularExpression(r"[A-Za-z]{0,3}-?[0-9]?[A-Za-z0-9]?[0-9]{0,2}"), self))
        self.setPlaceholderText("ABC1D23 ou ABC-1234")
        self.setMaxLength(8)
        self.textEdited.connect(self._upper)

    def _upper(self, text: str) -> None:
        if text != text.upper():
            position = self.cursorPosition()
            self.setText(text.upper())
            self.setCursorPosition(position)

    def problem(self, field: str = "plate"):
        return validate_plate(self.text(), field)


class OptionalDateEdit(DateField):
    """dd/mm/aaaa date that may be empty: the program's one date field (desktop.views.date_fields) made optional.
    `value()` → date | None; no "sem data" sentinel is shown or kept (issue 29 point 2)."""

    def __init__(self, parent=None, value: date | None = None, **options):
        options.setdefault("optional", True)
        super().__init__(parent, value, **options)


# -- documents shown inside the program: desktop.views.widgets.documents -----------------------------------
from desktop.views.widgets.documents import ACCEPTED_SCANS, DocumentDialog, DocumentViewer, mime_of  # noqa: E402,F401

# -- stale saves ---------------------------------------------------------------------------------------------

# one copy, in the operation helper every screen uses
from desktop.views.operations import STALE_TITLE, offer_reload  # noqa: E402,F401


class PhotoChooser(QWidget):
    """The driver's photo (SPEC §2): chosen from a PNG/JPG file, shrunk and kept as PNG; `png()` is the bytes of a
    newly chosen photo (None: unchanged)."""

    def __init__(self, parent=None):
        super().__init__(parent)

        self._png: bytes | None = None
        self.preview = QLabel("Sem foto", self)
        self.preview.setFixedSize(90, 120)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setStyleSheet("border: 1px dashed #999; color: #777;")
        self.choose_button = QPushButton("Escolher foto…", self)
        self.choose_button.clicked.connect(self._choose)
        self.message = error_label(self)
        buttons = QVBoxLayout()
        buttons.addWidget(self.choose_button)
        buttons.addWidget(self.message)
        buttons.addStretch(1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.preview)
        layout.addLayout(buttons)
        layout.addStretch(1)

    def png(self) -> bytes | None:
        return self._png

    def show_photo(self, data: bytes | None) -> None:
        pixmap = QPixmap()
        if data and pixmap.loadFromData(data):
            self.preview.setPixmap(pixmap.scaled(self.preview.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                                 Qt.TransformationMode.SmoothTransformation))
        else:
            self.preview.setPixmap(QPixmap())
            self.preview.setText("Sem foto")

    def load_file(self, path: str) -> bool:

        try:
            self._png = image_file_to_png(path)
        except ValueError as error:
            self.message.setText(str(error))
            self.message.setVisible(True)
            return False
        self.message.setVisible(False)
        self.show_photo(self._png)
        return True

    def _choose(self) -> None:

        path, _ = QFileDialog.getOpenFileName(self, "Foto do condutor", "", "Imagens (*.png *.jpg *.jpeg)")
        if path:
            self.load_file(path)
