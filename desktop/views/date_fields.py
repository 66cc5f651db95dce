"""The one date field and the one time field of the program (issues 27 point 2 and 29 point 2).

`DateField` is a line edit: the clerk types `15/03/1985` or `15031985` (the slashes are put in on leaving), an
optional field may stay empty, one Tab leaves it, Alt+Down or F4 opens the calendar. Nothing is ever changed
behind the user's back: a date outside the field's limits, a future date where the date cannot be in the future,
or a date that does not exist keep the text typed, paint the field red and say why (the message also comes back
as a `ValidationError` naming the field when the screen reads the value). There is no "sem data" sentinel: an
empty field is `None`.

`DateField(month=True)` is the same for a month (`11/2026` or `112026`); its date is the 1st of the month.
`TimeField` reads `09:30`, `0930` or `930`.

For the screens written against QDateEdit the fields keep its small interface: `date()`/`setDate()` (QDate),
`dateChanged`, `setMinimumDate()`/`setMaximumDate()`/`setDateRange()`, `time()`/`setTime()`/`timeChanged`.
"""
from __future__ import annotations

import re
from datetime import date, time

from PySide6.QtCore import QDate, QPoint, QRegularExpression, QTime, Qt, Signal
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import QCalendarWidget, QLineEdit, QToolTip, QVBoxLayout, QFrame

from desktop.errors import ValidationError
from desktop.domain.problems import Problem
from desktop.domain.limits import MAX_DATE, MIN_DATE

INVALID_STYLE = "QLineEdit { border: 1px solid #c62828; background: #fff5f5; }"
_DIGITS = re.compile(r"\d+")


def _label_of(widget) -> str:
    name = widget.accessibleName() or ""
    return f"{name}: " if name else ""


def parse_typed_date(text: str) -> date | None:
    """`15/03/1985`, `15031985`, `1/3/1985`, `15-03-1985`, `15.03.1985` → date; "" → None. ValueError (Portuguese)
    for anything else, including a day that does not exist."""
    raw = (text or "").strip()
    if not raw:
        return None
    parts = _DIGITS.findall(raw)
    if len(parts) == 1 and len(parts[0]) == 8:
        day, month, year = int(parts[0][:2]), int(parts[0][2:4]), int(parts[0][4:])
    elif len(parts) == 3 and len(parts[2]) == 4 and 1 <= len(parts[0]) <= 2 and 1 <= len(parts[1]) <= 2:
        day, month, year = (int(p) for p in parts)
    else:
        raise ValueError(f"Data «{raw}» incompleta ou inválida: digite dd/mm/aaaa.")
    try:
        return date(year, month, day)
    except ValueError:
        raise ValueError(f"A data {day:02d}/{month:02d}/{year:04d} não existe no calendário.") from None


def parse_typed_month(text: str) -> date | None:
    """`11/2026` or `112026` → date(2026, 11, 1); "" → None."""
    raw = (text or "").strip()
    if not raw:
        return None
    parts = _DIGITS.findall(raw)
    if len(parts) == 1 and len(parts[0]) == 6:
        month, year = int(parts[0][:2]), int(parts[0][2:])
    elif len(parts) == 2 and 1 <= len(parts[0]) <= 2 and len(parts[1]) == 4:
        month, year = int(parts[0]), int(parts[1])
    else:
        raise ValueError(f"Mês «{raw}» inválido: digite mm/aaaa.")
    if not 1 <= month <= 12:
        raise ValueError(f"Mês «{raw}» inválido: o mês vai de 01 a 12.")
    return date(year, month, 1)


def parse_typed_time(text: str) -> time | None:
    """`09:30`, `9:30`, `0930`, `930`, `9` → time; "" → None."""
    raw = (text or "").strip()
    if not raw:
        return None
    parts = _DIGITS.findall(raw)
    if len(parts) == 1 and len(parts[0]) in (3, 4):
        hour, minute = int(parts[0][:-2]), int(parts[0][-2:])
    elif len(parts) == 1 and len(parts[0]) in (1, 2):
        hour, minute = int(parts[0]), 0
    elif len(parts) == 2 and 1 <= len(parts[0]) <= 2 and len(parts[1]) == 2:
        hour, minute = int(parts[0]), int(parts[1])
    else:
        raise ValueError(f"Hora «{raw}» inválida: digite hh:mm.")
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise ValueError(f"Hora «{raw}» não existe: as horas vão de 00:00 a 23:59.")
    return time(hour, minute)


def _qdate(value) -> date | None:
    if value is None:
        return None
    if isinstance(value, QDate):
        return date(value.year(), value.month(), value.day()) if value.isValid() else None
    return value


class _CalendarPopup(QFrame):
    """The calendar under the field (Alt+Down, F4 or the field's calendar button); Enter or a click chooses."""

    chosen = Signal(object)

    def __init__(self, parent):
        super().__init__(parent, Qt.WindowType.Popup)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.calendar = QCalendarWidget(self)
        self.calendar.setGridVisible(True)
        self.calendar.setVerticalHeaderFormat(QCalendarWidget.VerticalHeaderFormat.NoVerticalHeader)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(1, 1, 1, 1)
        layout.addWidget(self.calendar)
        self.calendar.activated.connect(self._choose)
        self.calendar.clicked.connect(self._choose)

    def _choose(self, qdate: QDate) -> None:
        self.chosen.emit(date(qdate.year(), qdate.month(), qdate.day()))
        self.close()

    def keyPressEvent(self, event):  # noqa: N802 — Qt name
        if event.key() == Qt.Key.Key_Escape:
            self.close()
            return
        super().keyPressEvent(event)


class DateField(QLineEdit):
    """See the module's text. `value()` is a date or None (empty optional field); a bad text raises a
    `ValidationError` naming `field` (the object name, or "date") with the same message the field shows."""

    dateChanged = Signal(QDate)   # noqa: N815 — the QDateEdit name: a new valid date was typed or chosen
    changed = Signal()            # any change of the date kept (also to and from empty)

    def __init__(self, parent=None, value: date | None = None, *, optional: bool = False, month: bool = False,
                 not_future: bool = False, minimum: date | None = None, maximum: date | None = None,
                 field: str = "", label: str = ""):
        if isinstance(parent, (date, QDate)):     # DateField(date(...)) as well as DateField(parent, date(...))
            parent, value = None, parent
        super().__init__(parent)

        self.optional = optional
        self.month = month
        self.not_future = not_future
        self.field = field
        self._min = minimum or MIN_DATE
        self._max = maximum or MAX_DATE
        self._value: date | None = None
        self._problem = ""
        self._popup: _CalendarPopup | None = None
        if label:
            self.setAccessibleName(label)
        if month:
            self.setPlaceholderText("mm/aaaa")
            self.setInputMask("")
            self.setValidator(QRegularExpressionValidator(QRegularExpression(r"[0-9/]{0,7}"), self))
            self.setMaxLength(7)
            self.setMinimumWidth(self.fontMetrics().horizontalAdvance("00/00000") + 24)
        else:
            self.setPlaceholderText("dd/mm/aaaa")
            self.setValidator(QRegularExpressionValidator(QRegularExpression(r"[0-9/.\-]{0,10}"), self))
            self.setMaxLength(10)
            self.setMinimumWidth(self.fontMetrics().horizontalAdvance("00/00/00000") + 40)
            action = self.addAction(self.style().standardIcon(self.style().StandardPixmap.SP_FileDialogContentsView),
                                    QLineEdit.ActionPosition.TrailingPosition)
            action.setToolTip("Calendário (Alt+↓ ou F4)")
            action.triggered.connect(self.open_calendar)
        self.setToolTip(self._hint())
        self.editingFinished.connect(self._finish)
        self.textEdited.connect(self._typing)
        self.set_value(value)

    # -- the date kept --------------------------------------------------------------------------------------
    def value(self) -> date | None:
        """The date typed (None for an empty optional field); ValidationError when the text is not a date the
        field accepts."""
        self._read()
        if self._problem:
            raise ValidationError([Problem(self.field or self.objectName() or "date", self._problem)],
                                  message=self._problem)
        return self._value

    def problem(self) -> str:
        """What is wrong with the text typed ("" when nothing)."""
        self._read()
        return self._problem

    def set_value(self, value: date | None) -> None:
        value = _qdate(value)
        self.setText(self._format(value))
        self._read()
        self._show_state()

    def clear_value(self) -> None:
        self.set_value(None)

    # -- limits (shown, never applied silently) -------------------------------------------------------------
    def set_limits(self, minimum: date | None = None, maximum: date | None = None) -> None:

        self._min, self._max = _qdate(minimum) or MIN_DATE, _qdate(maximum) or MAX_DATE
        self.setToolTip(self._hint())
        self._read()
        self._show_state()

    def minimum(self) -> date:
        return self._min

    def maximum(self) -> date:
        return min(self._max, self._today()) if self.not_future else self._max

    # -- QDateEdit's small interface ------------------------------------------------------------------------
    def date(self) -> QDate:
        value = self.value()
        return QDate(value) if value is not None else QDate()

    def setDate(self, value) -> None:  # noqa: N802
        self.set_value(value)

    def setMinimumDate(self, value) -> None:  # noqa: N802
        self.set_limits(value, self._max)

    def setMaximumDate(self, value) -> None:  # noqa: N802
        self.set_limits(self._min, value)

    def setDateRange(self, minimum, maximum) -> None:  # noqa: N802
        self.set_limits(minimum, maximum)

    def minimumDate(self) -> QDate:  # noqa: N802
        return QDate(self._min)

    def maximumDate(self) -> QDate:  # noqa: N802
        return QDate(self.maximum())

    def setCalendarPopup(self, _on: bool) -> None:  # noqa: N802 — always available (Alt+Down, F4)
        return None

    def setDisplayFormat(self, _fmt: str) -> None:  # noqa: N802 — always dd/mm/aaaa (mm/aaaa for a month)
        return None

    # -- inside ---------------------------------------------------------------------------------------------
    @staticmethod
    def _today() -> date:
        from desktop.domain.dates import local_today   # the one clock, Cuiabá's date

        return local_today()

    def _format(self, value: date | None) -> str:
        if value is None:
            return ""
        return f"{value.month:02d}/{value.year:04d}" if self.month else f"{value.day:02d}/{value.month:02d}/{value.year:04d}"

    def _hint(self) -> str:

        parts = ["Digite mm/aaaa (ou só os números)." if self.month else
                 "Digite dd/mm/aaaa (ou só os números); Alt+↓ ou F4 abre o calendário."]
        if self.optional:
            parts.append("Pode ficar em branco.")
        if self._min != MIN_DATE:
            parts.append(f"A partir de {self._format(self._min)}.")
        if self.not_future:
            parts.append("Não pode ser uma data futura.")
        elif self._max != MAX_DATE:
            parts.append(f"Até {self._format(self._max)}.")
        return " ".join(parts)

    def _read(self) -> None:
        previous = self._value
        try:
            value = (parse_typed_month if self.month else parse_typed_date)(self.text())
        except ValueError as error:
            self._problem, value = _label_of(self) + str(error), None
        else:
            self._problem = ""
            if value is None and not self.optional:
                self._problem = _label_of(self) + ("Informe o mês (mm/aaaa)." if self.month
                                                   else "Informe a data (dd/mm/aaaa).")
            elif value is not None and value < self._min:
                self._problem = _label_of(self) + f"A data deve ser a partir de {self._format(self._min)}."
            elif value is not None and self.not_future and value > self._today():
                self._problem = _label_of(self) + (f"A data não pode ser futura (hoje é "
                                                   f"{self._today():%d/%m/%Y}).")
            elif value is not None and value > self._max:
                self._problem = _label_of(self) + f"A data deve ser até {self._format(self._max)}."
        self._value = value if not self._problem else None
        if self._value != previous:
            if self._value is not None:      # as QDateEdit's: only ever a valid date
                self.dateChanged.emit(QDate(self._value))
            self.changed.emit()

    def _typing(self, _text: str) -> None:
        """While typing, only a complete date counts; a fixed problem goes away at once (issue 29 point 6)."""
        self._read()
        if not self._problem:
            self._show_state()

    def _finish(self) -> None:
        value_before = self.text()
        self._read()
        if not self._problem and self._value is not None:
            tidy = self._format(self._value)
            if tidy != value_before:
                self.setText(tidy)
        self._show_state(announce=True)

    def _show_state(self, announce: bool = False) -> None:
        bad = bool(self._problem) and bool(self.text().strip() or announce)
        self.setProperty("invalid", bad)
        self.setStyleSheet(INVALID_STYLE if bad else "")
        self.setToolTip(self._problem if bad else self._hint())
        if bad and announce and self.isVisible():
            QToolTip.showText(self.mapToGlobal(QPoint(0, self.height())), self._problem, self)

    # -- the calendar ---------------------------------------------------------------------------------------
    def open_calendar(self) -> None:
        if self.month:
            return
        if self._popup is None:
            self._popup = _CalendarPopup(self)
            self._popup.chosen.connect(self._calendar_chose)
        self._read()
        start = self._value or min(max(self._today(), self._min), self.maximum())
        calendar = self._popup.calendar
        calendar.setDateRange(QDate(self._min), QDate(self.maximum()))
        calendar.setSelectedDate(QDate(start))
        self._popup.adjustSize()
        self._popup.move(self.mapToGlobal(QPoint(0, self.height())))
        self._popup.show()
        calendar.setFocus()

    def _calendar_chose(self, value: date) -> None:
        self.set_value(value)
        self.setFocus()
        self.editingFinished.emit()

    def keyPressEvent(self, event):  # noqa: N802 — Qt name
        alt_down = event.key() == Qt.Key.Key_Down and event.modifiers() & Qt.KeyboardModifier.AltModifier
        if alt_down or (event.key() == Qt.Key.Key_F4 and not event.modifiers()):
            self.open_calendar()
            event.accept()
            return
        super().keyPressEvent(event)


class TimeField(QLineEdit):
    """hh:mm typed as `09:30`, `0930` or `930`; `time()` → QTime, `value()` → time | None."""

    timeChanged = Signal(QTime)   # noqa: N815 — the QTimeEdit name
    changed = Signal()

    def __init__(self, value: QTime | time | None = None, parent=None, *, optional: bool = False,
                 field: str = "", label: str = ""):
        if parent is None and value is not None and not isinstance(value, (QTime, time)):
            value, parent = None, value     # TimeField(parent)
        super().__init__(parent)
        self.optional = optional
        self.field = field
        self._value: time | None = None
        self._problem = ""
        if label:
            self.setAccessibleName(label)
        self.setPlaceholderText("hh:mm")
        self.setValidator(QRegularExpressionValidator(QRegularExpression(r"[0-9:h]{0,5}"), self))
        self.setMaxLength(5)
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("00:000") + 20)
        self.setToolTip("Digite hh:mm (ou só os números: 0930).")
        self.editingFinished.connect(self._finish)
        self.textEdited.connect(lambda _t: self._read())
        self.set_value(value)

    def value(self) -> time | None:
        self._read()
        if self._problem:
            raise ValidationError([Problem(self.field or self.objectName() or "time", self._problem)],
                                  message=self._problem)
        return self._value

    def problem(self) -> str:
        self._read()
        return self._problem

    def set_value(self, value) -> None:
        if isinstance(value, QTime):
            value = time(value.hour(), value.minute()) if value.isValid() else None
        self.setText("" if value is None else f"{value.hour:02d}:{value.minute:02d}")
        self._read()
        self._paint(False)

    def time(self) -> QTime:
        value = self.value()
        return QTime(value.hour, value.minute) if value is not None else QTime()

    def setTime(self, value) -> None:  # noqa: N802
        self.set_value(value)

    def setDisplayFormat(self, _fmt: str) -> None:  # noqa: N802
        return None

    def _read(self) -> None:
        previous = self._value
        try:
            value = parse_typed_time(self.text())
        except ValueError as error:
            self._problem, value = _label_of(self) + str(error), None
        else:
            self._problem = "" if value is not None or self.optional else _label_of(self) + "Informe a hora (hh:mm)."
        self._value = value if not self._problem else None
        if self._value != previous:
            if self._value is not None:
                self.timeChanged.emit(QTime(self._value.hour, self._value.minute))
            self.changed.emit()

    def _finish(self) -> None:
        self._read()
        if not self._problem and self._value is not None:
            self.setText(f"{self._value.hour:02d}:{self._value.minute:02d}")
        self._paint(True)

    def _paint(self, announce: bool) -> None:
        bad = bool(self._problem) and bool(self.text().strip() or announce)
        self.setProperty("invalid", bad)
        self.setStyleSheet(INVALID_STYLE if bad else "")
        self.setToolTip(self._problem if bad else "Digite hh:mm (ou só os números: 0930).")
        if bad and announce and self.isVisible():
            QToolTip.showText(self.mapToGlobal(QPoint(0, self.height())), self._problem, self)
