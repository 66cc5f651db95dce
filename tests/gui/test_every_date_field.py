"""The date test (issue 29 "how it is proved"): every date field of every screen of every module is typed
`01/03/1985`, `01031985` and an empty value, and what it kept is read back — the date typed, or a message that
says why not (a limit shown, a required field) — never another date, never a sentinel. Qt's own date editors are
gone from the screens (one field for the whole program)."""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from hands import type_into
from robot import make_demo, open_main_window, sidebar_click, tab_widgets, click_tab, visible

VIEWS = Path(__file__).resolve().parents[2] / "desktop" / "views"


def test_no_screen_uses_qt_date_or_time_editors():
    found = []
    for path in VIEWS.rglob("*.py"):
        if path.name == "date_fields.py":       # the one field, which names what it replaces
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bQ(Date|Time|DateTime)Edit\b", line) and not line.lstrip().startswith("#"):
                found.append(f"{path.relative_to(VIEWS)}:{n}")
    assert found == []


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("dates") / "demo.sqlite3", drivers=12)


def _fields(root):
    from desktop.views.date_fields import DateField

    return [f for f in root.findChildren(DateField) if visible(f) and f.isEnabled() and not f.isReadOnly()]


def test_every_date_field_keeps_the_date_typed_or_says_why(qtbot, demo_template, tmp_path):
    window, db = open_main_window(qtbot, demo_template, tmp_path)
    checked, wrong = 0, []

    def check(where, field):
        nonlocal checked
        for typed in ("01/03/1985", "01031985", ""):
            type_into(field, typed)
            problem = field.problem()
            if typed and field.month:
                kept_ok = bool(problem)            # a month field refuses a whole date, and says so
            elif typed:
                kept_ok = (not problem and field.value() == date(1985, 3, 1)) or (bool(problem) and
                                                                                  field.text() == typed)
            else:
                kept_ok = (field.optional and not problem and field.value() is None) or (
                    not field.optional and "Informe" in problem)
            if not kept_ok:
                wrong.append(f"{where} [{field.accessibleName() or field.objectName()}] «{typed}» → "
                             f"{field.text()!r} {problem!r}")
        checked += 1

    for row in range(1, window.sidebar.count()):
        page = sidebar_click(window, row)
        name = window.sidebar.item(row).text()
        tabs = [t for t in tab_widgets(page) if not any(o is not t and o.isAncestorOf(t) for o in tab_widgets(page))]
        if not tabs:
            for field in _fields(page):
                check(name, field)
            continue
        outer = tabs[0]
        for index in range(outer.count()):
            if not outer.isTabEnabled(index):
                continue
            click_tab(outer, index)
            for field in _fields(outer.widget(index)):
                check(f"{name} → {outer.tabText(index)}", field)
    print(f"\ncampos de data conferidos: {checked}")
    assert checked >= 8
    assert wrong == []
    window.close()
    import shiboken6

    shiboken6.delete(window)
    db.dispose()
