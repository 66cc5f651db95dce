"""Small widgets every screen shares: error boxes, problems shown next to their fields, money and phone edits,
date edits in dd/mm/aaaa, the brasão chooser."""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from PySide6.QtCore import QBuffer, QByteArray, QDate, QIODevice, QRegularExpression, QSize, Qt, Signal
from PySide6.QtGui import QImage, QPixmap, QRegularExpressionValidator
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QFrame, QGroupBox,
                               QHBoxLayout, QLabel, QLineEdit, QMessageBox, QScrollArea,
                               QPushButton, QSizePolicy, QVBoxLayout, QWidget, QWizard)

from desktop.views.operations import error_text  # noqa: F401 — re-exported for the screens
from desktop.views.formatting import format_decimal_br, format_phone, parse_decimal_br

INVALID_STYLE = "border: 1px solid #c62828; background: #fff5f5;"
ERROR_LABEL_STYLE = "color: #c62828;"


# The most common office screen, 1366×768, less a Windows taskbar (issue 12 item 23): no dialog may ask for more.
SCREEN_LIMIT = QSize(1366, 728)
TITLE_BAR = 32  # what the window manager adds above a window's content


def fit_size(width: int, height: int, widget: QWidget | None = None) -> QSize:
    """The size a window asks for, bounded by SCREEN_LIMIT and by the free area of the screen it opens on (less
    the title bar), so its buttons never fall under the taskbar: `self.resize(fit_size(980, 760))`."""
    from PySide6.QtGui import QGuiApplication  # lazy: kept off the start-up path (the login window imports this module)

    w, h = min(width, SCREEN_LIMIT.width()), min(height, SCREEN_LIMIT.height())
    screen = (widget.screen() if widget is not None else None) or QGuiApplication.primaryScreen()
    if screen is not None:
        free = screen.availableGeometry()
        if free.width() > 200 and free.height() > 200:
            w, h = min(w, free.width()), min(h, free.height() - TITLE_BAR)
    return QSize(w, h)


def scrolling(content: QWidget, parent: QWidget | None = None) -> QWidget:
    """`content` inside a frameless vertical scroll area: a form taller than the screen scrolls inside its
    dialog instead of pushing the buttons off the screen."""
    area = QScrollArea(parent)
    area.setWidget(content)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return area


def show_error(parent: QWidget | None, error: BaseException, title: str = "Não foi possível concluir") -> None:
    QMessageBox.warning(parent, title, error_text(error))


def show_info(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.information(parent, title, text)


def error_label(parent: QWidget | None = None) -> QLabel:
    label = QLabel(parent)
    label.setStyleSheet(ERROR_LABEL_STYLE)
    label.setWordWrap(True)
    # issue 27 point 7: a long message ("… (Art. 11; LC 116/2003)") wraps to the height it needs instead of being
    # cut and squashing its field
    policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.MinimumExpanding)
    policy.setHeightForWidth(True)
    label.setSizePolicy(policy)
    label.setVisible(False)
    return label


class FieldErrors:
    """Puts each `Problem` next to its field (STYLE: validators return problems; views show them inline).

    `add(field, widget, label)` registers a field name (as in the draft/Problem) with its widget and the label
    under it; `show(problems)` highlights the widgets and fills the labels, and puts problems of unknown fields in
    the general label. Returns the list of field names that got a problem, in the order of registration.
    """

    def __init__(self, general: QLabel | None = None):
        self._fields: dict[str, tuple[QWidget, QLabel]] = {}
        self._general = general

    def add(self, field: str, widget: QWidget, label: QLabel) -> None:
        if not widget.objectName():
            widget.setObjectName(f"field_{field}")
        self._fields[field] = (widget, label)
        # issue 29 point 6: a message goes as soon as its field is corrected (typed, chosen, ticked)
        for name in ("textEdited", "currentIndexChanged", "toggled", "changed"):
            signal = getattr(widget, name, None)
            if signal is not None and hasattr(signal, "connect"):
                try:
                    signal.connect(lambda *_args, f=field: self.clear_field(f))
                except (RuntimeError, TypeError):
                    continue

    def clear_field(self, field: str) -> None:
        widget, label = self._fields[field]
        if not widget.property("invalid"):
            return
        widget.setStyleSheet("")
        widget.setProperty("invalid", False)
        label.clear()
        label.setVisible(False)

    def clear(self) -> None:
        for widget, label in self._fields.values():
            widget.setStyleSheet("")
            widget.setProperty("invalid", False)
            label.clear()
            label.setVisible(False)
        if self._general is not None:
            self._general.clear()
            self._general.setVisible(False)

    def show(self, problems: Iterable) -> list[str]:
        self.clear()
        messages: dict[str, list[str]] = {}
        general: list[str] = []
        for problem in problems:
            if problem.field in self._fields:
                messages.setdefault(problem.field, []).append(str(problem))
            else:
                general.append(str(problem))
        for field, texts in messages.items():
            widget, label = self._fields[field]
            # scoped to the widget itself, so the children of a group box keep their normal look; a group box
            # keeps its frame (a border rule would hide its title) and shows its title in red
            style = "color: #c62828; font-weight: bold;" if isinstance(widget, QGroupBox) else INVALID_STYLE
            # the focus frame stays visible on a field in error (issue 29 point 6): a thicker, darker border
            focus = "" if isinstance(widget, QGroupBox) else \
                f"#{widget.objectName()}:focus {{ border: 2px solid #7f0000; }}"
            widget.setStyleSheet(f"#{widget.objectName()} {{ {style} }} {focus}")
            widget.setProperty("invalid", True)
            label.setText("\n".join(texts))
            label.setVisible(True)
        if general and self._general is not None:
            self._general.setText("\n".join(general))
            self._general.setVisible(True)
        first = [field for field in self._fields if field in messages]
        if first:
            self._fields[first[0]][0].setFocus()
        return first

    def message(self, field: str) -> str:
        return self._fields[field][1].text()

    def is_invalid(self, field: str) -> bool:
        return bool(self._fields[field][0].property("invalid"))


DECIMAL_MAX_CHARS = 21  # "R$ 999.999.999,999999"


class DecimalEdit(QLineEdit):
    """A number typed the Brazilian way ("1.234,56"); `value()` is a Decimal. Never a float (STYLE: money)."""

    def __init__(self, parent=None, prefix: str = "", places: int | None = 2):
        super().__init__(parent)
        self._places = places
        self.setValidator(QRegularExpressionValidator(QRegularExpression(r"(R\$\s?)?[0-9.]*(,[0-9]{0,6})?"), self))
        self.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.setMaxLength(DECIMAL_MAX_CHARS)  # "R$ 999.999.999,99": the limit of domain.limits (issue 12 item 21)
        self.setPlaceholderText(f"{prefix}0,00" if places == 2 else "0")
        self.editingFinished.connect(self._tidy)

    def value(self) -> Decimal:
        """The Decimal typed; ValueError with a Portuguese message when empty or malformed."""
        return parse_decimal_br(self.text())

    def set_value(self, value: Decimal | None) -> None:
        self.setText("" if value is None else format_decimal_br(value, self._places))

    def _tidy(self) -> None:
        try:
            value = self.value()
        except ValueError:
            return  # leave what was typed; the form shows the message next to the field on save
        self.set_value(value)


class PhoneEdit(QLineEdit):
    """A Brazilian phone: accepts digits and punctuation, writes it back as (65) 3301-1234 / (65) 99999-1234 /
    0800 647 1234. A fixed input mask cannot hold the three lengths a secretariat uses, so the edit formats."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setValidator(QRegularExpressionValidator(QRegularExpression(r"[0-9()\- ]{0,20}"), self))
        self.setPlaceholderText("(65) 3301-1234")
        self.editingFinished.connect(lambda: self.setText(format_phone(self.text())))

    def phone(self) -> str:
        return format_phone(self.text())


def date_edit(parent=None, value: date | None = None, **options):
    """The program's one date field (desktop.views.date_fields.DateField), filled with `value` (today when
    omitted). Options: optional=, not_future=, minimum=, maximum=, field=, label=."""
    from desktop.views.date_fields import DateField  # lazy: kept off the start-up path (the login window imports this module)

    if value is None and not options.get("optional"):
        from desktop.domain.dates import local_today   # the one clock, Cuiabá's date (imported on first use)

        value = local_today()
    return DateField(parent, value, **options)


def qdate_to_date(value: QDate) -> date:
    if not value.isValid():
        from desktop.domain.problems import Problem  # lazy: kept off the start-up path (the login window imports this module)
        from desktop.errors import ValidationError  # lazy: kept off the start-up path (the login window imports this module)

        raise ValidationError([Problem("date", "Informe a data (dd/mm/aaaa).")], message="Informe a data (dd/mm/aaaa).")
    return date(value.year(), value.month(), value.day())


MAX_BRASAO_SIDE = 600


def image_file_to_png(path: str) -> bytes:
    """Read PNG/JPEG/BMP, shrink to at most MAX_BRASAO_SIDE pixels, return PNG bytes. ValueError if unreadable."""
    image = QImage(path)
    if image.isNull():
        raise ValueError("Não foi possível ler a imagem escolhida. Use um arquivo PNG ou JPEG.")
    if max(image.width(), image.height()) > MAX_BRASAO_SIDE:
        image = image.scaled(MAX_BRASAO_SIDE, MAX_BRASAO_SIDE, Qt.AspectRatioMode.KeepAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


class BrasaoChooser(QWidget):
    """Choose the municipality's coat of arms (brasão) and see it; `png()` is the PNG bytes or None."""

    changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._png: bytes | None = None
        self.preview = QLabel(self)
        self.preview.setFixedSize(120, 120)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setStyleSheet("border: 1px dashed #999; color: #777;")
        self.choose_button = QPushButton("Escolher imagem…", self)
        self.remove_button = QPushButton("Remover", self)
        self.choose_button.clicked.connect(self._choose)
        self.remove_button.clicked.connect(lambda: self.set_png(None))
        buttons = QVBoxLayout()
        buttons.addWidget(self.choose_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.preview, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(buttons)
        layout.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.set_png(None)

    def png(self) -> bytes | None:
        return self._png

    def set_png(self, data: bytes | None) -> None:
        self._png = data
        if data:
            pixmap = QPixmap()
            pixmap.loadFromData(data)
            self.preview.setPixmap(pixmap.scaled(self.preview.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                                 Qt.TransformationMode.SmoothTransformation))
        else:
            self.preview.setPixmap(QPixmap())
            self.preview.setText("Sem brasão")
        self.remove_button.setEnabled(bool(data))
        self.changed.emit()

    def load_file(self, path: str) -> None:
        self.set_png(image_file_to_png(path))

    def _choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Escolher o brasão do município", "",
                                              "Imagens (*.png *.jpg *.jpeg *.bmp)")
        if not path:
            return
        try:
            self.load_file(path)
        except ValueError as error:
            QMessageBox.warning(self, "Imagem inválida", str(error))


def field_box(widget: QWidget, message: QLabel, parent: QWidget | None = None) -> QWidget:
    """`widget` with its error label right under it, as one row of a form."""
    box = QWidget(parent)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    layout.addWidget(widget)
    layout.addWidget(message)
    return box


def add_field_rows(form: QFormLayout, errors: FieldErrors, rows, parent: QWidget | None = None) -> None:
    """Each `(field, "Rótulo:", widget)` of `rows` as a row of `form`, with its error label under the widget,
    registered in `errors` under the field's name (the one the service's Problem names)."""
    for field, label, widget in rows:
        message = error_label(parent)
        form.addRow(label, field_box(widget, message, parent))
        errors.add(field, widget, message)


class FormDialog(QDialog):
    """A dialog that saves one form: each field with its error message right under it, a line for the problems
    that name no field, and Salvar / Cancelar. A subclass builds its widgets, calls
    `self.build_form([(field, "Rótulo:", widget), ...])` and implements `save()` (the "Salvar" button), which
    goes through `op(...).fields(self.errors)` so each Problem lands next to its field.

    `scroll=True` puts the form in a scroll area (a long form on a 1366×768 screen, issue 12 item 23)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.general_error = error_label(self)
        self.errors = FieldErrors(self.general_error)
        self.buttons: QDialogButtonBox | None = None

    def build_form(self, rows, scroll: bool = False, intro: QWidget | None = None) -> QFormLayout:
        form = QFormLayout()
        add_field_rows(form, self.errors, rows, self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setText("&Salvar")      # Alt+S (issue 29)
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText("&Cancelar")  # Alt+C
        self.buttons.accepted.connect(self.save)   # each dialog's own `save` (its record, its service)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        if intro is not None:
            layout.addWidget(intro)
        if scroll:
            content = QWidget(self)
            content.setLayout(form)
            layout.addWidget(scrolling(content, self))
        else:
            layout.addLayout(form)
        layout.addWidget(self.general_error)
        layout.addWidget(self.buttons)
        return form


def set_wizard_buttons(wizard) -> None:
    """The registry wizards' look: classic style, pages validated each on its own, no Back on the first page and
    the buttons in Portuguese."""
    wizard.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
    wizard.setOption(QWizard.WizardOption.IndependentPages, True)
    wizard.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
    wizard.setButtonText(QWizard.WizardButton.NextButton, "Avançar >")
    wizard.setButtonText(QWizard.WizardButton.BackButton, "< Voltar")
    wizard.setButtonText(QWizard.WizardButton.FinishButton, "Concluir")
    wizard.setButtonText(QWizard.WizardButton.CancelButton, "Cancelar")


def restricted_page(page: QWidget, title: str, roles) -> QLabel:
    """What a module shows to a user whose roles may not read it (SPEC §4, LGPD: only the roles that need it)."""
    names = ", ".join(role.label for role in roles)
    label = QLabel(f"<h2>{title}</h2><p>Esta consulta é restrita aos perfis {names}. Seu perfil não tem acesso; "
                   "fale com o administrador do sistema se precisar dela.</p>", page)
    label.setWordWrap(True)
    layout = QVBoxLayout(page)
    layout.setContentsMargins(32, 24, 32, 24)
    layout.addWidget(label)
    layout.addStretch(1)
    page.restricted_label = label
    return label
