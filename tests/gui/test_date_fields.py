"""The one date field and the one time field (issue 29 point 2, issue 27 point 2), typed as a person types:
`01/03/1985`, `01031985`, empty where optional; one Tab to leave; Alt+Down/F4 open the calendar; the future
refused with a message where the date cannot be in the future; a limit shown, never applied silently."""
from __future__ import annotations

from datetime import date, time

import pytest
from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

from hands import activate, focused, press, type_into, type_text
from desktop.errors import ValidationError


def _form(qtbot, field):
    """`field` between two line edits, in that Tab order."""
    form = QWidget()
    layout = QVBoxLayout(form)
    before, after = QLineEdit(form), QLineEdit(form)
    field.setParent(form)
    layout.addWidget(before)
    layout.addWidget(field)
    layout.addWidget(after)
    QWidget.setTabOrder(before, field)
    QWidget.setTabOrder(field, after)
    qtbot.addWidget(form)
    activate(form)
    _forms.append(form)     # alive until the next test (qtbot closes it)
    return before, after


_forms: list = []


@pytest.mark.parametrize("typed", ["01/03/1985", "01031985", "1/3/1985"])
def test_a_date_typed_with_or_without_slashes_is_the_date_kept(qtbot, typed):
    from desktop.views.date_fields import DateField

    field = DateField(optional=True)
    before, after = _form(qtbot, field)
    before.setFocus()
    press("Tab")
    assert focused() is field
    type_text(typed)
    press("Tab")                       # one Tab leaves the field
    assert focused() is after
    assert field.value() == date(1985, 3, 1) and field.text() == "01/03/1985"


def test_an_optional_field_may_stay_empty_and_a_required_one_says_so(qtbot):
    from desktop.views.date_fields import DateField

    optional, required = DateField(optional=True), DateField(date(2026, 11, 2), field="paid_on")
    _form(qtbot, optional)
    _form(qtbot, required)
    type_into(optional, "", leave=True)
    assert optional.value() is None
    type_into(required, "", leave=True)
    with pytest.raises(ValidationError, match="Informe a data"):
        required.value()
    assert required.property("invalid") is True


def test_the_first_of_a_month_is_a_date_like_any_other(qtbot):
    """Was: 01/01/1900 = "sem data" greyed the clear button and trapped the focus."""
    from desktop.views.date_fields import DateField

    field = DateField(optional=True)
    _form(qtbot, field)
    type_into(field, "01011900", leave=True)
    assert field.value() == date(1900, 1, 1)


def test_an_impossible_or_incomplete_date_keeps_the_text_and_says_why(qtbot):
    from desktop.views.date_fields import DateField

    field = DateField(date(2026, 11, 1))
    _form(qtbot, field)
    type_into(field, "31022026", leave=True)
    assert field.text() == "31022026" and "não existe" in field.problem()
    type_into(field, "0111", leave=True)
    assert "incompleta" in field.problem()
    with pytest.raises(ValidationError):
        field.value()
    type_into(field, "01/11/2026", leave=True)       # issue 27 point 2: 01/11/2026 stays 01/11/2026
    assert field.problem() == "" and field.value() == date(2026, 11, 1)
    assert field.property("invalid") is False


def test_a_limit_is_shown_and_never_applied_silently(qtbot):
    from desktop.views.date_fields import DateField

    field = DateField(date(2026, 12, 2), minimum=date(2026, 12, 1))
    _form(qtbot, field)
    assert "A partir de 01/12/2026" in field.toolTip()
    type_into(field, "01/11/2026", leave=True)
    assert field.text() == "01/11/2026"
    assert "a partir de 01/12/2026" in field.problem()


def test_a_date_that_cannot_be_in_the_future_refuses_it_with_a_message(qtbot):
    from desktop.domain.dates import local_today
    from desktop.views.date_fields import DateField

    field = DateField(local_today(), not_future=True, label="Entregue em")
    _form(qtbot, field)
    type_into(field, f"01/01/{local_today().year + 1}", leave=True)
    assert field.problem().startswith("Entregue em: A data não pode ser futura")
    with pytest.raises(ValidationError, match="não pode ser futura"):
        field.value()


@pytest.mark.parametrize("key", ["Alt+Down", "F4"])
def test_alt_down_and_f4_open_the_calendar_and_enter_chooses(qtbot, key):
    from desktop.views.date_fields import DateField

    field = DateField(date(2026, 11, 18))
    _form(qtbot, field)
    field.setFocus()
    press(key)
    popup = field._popup
    assert popup is not None and popup.isVisible()
    press("Right")                      # the next day in the calendar
    press("Return")
    assert not popup.isVisible()
    assert field.value() == date(2026, 11, 19) and focused() is field


def test_a_month_field_reads_mm_aaaa(qtbot):
    from desktop.views.date_fields import DateField

    field = DateField(date(2026, 11, 1), month=True)
    _form(qtbot, field)
    assert field.text() == "11/2026"
    type_into(field, "102026", leave=True)
    assert field.value() == date(2026, 10, 1) and field.text() == "10/2026"


@pytest.mark.parametrize("typed, kept", [("0930", time(9, 30)), ("9:30", time(9, 30)), ("930", time(9, 30)),
                                         ("14", time(14, 0))])
def test_a_time_typed_is_the_time_kept(qtbot, typed, kept):
    """Was: typing 0930 into a time field left it at 20:00."""
    from desktop.views.date_fields import TimeField

    field = TimeField(time(20, 0))
    _, after = _form(qtbot, field)
    type_into(field, typed)
    press("Tab")
    assert focused() is after
    assert field.value() == kept and field.text() == f"{kept:%H:%M}"
