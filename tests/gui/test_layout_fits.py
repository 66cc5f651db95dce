"""The layout test (issue 27 "how it is proved"): every page of every module, each tab clicked, at 1366×728:
a button or a one-line label whose text does not fit its width fails, naming the screen and the text."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel, QPushButton

from hands import activate
from robot import SIZE, click_tab, make_demo, open_copy, sidebar_click, tab_widgets, visible


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    return make_demo(tmp_path_factory.mktemp("layout") / "demo.sqlite3", drivers=12)


def _clipped(root) -> list[str]:
    found = []
    for button in root.findChildren(QPushButton):
        text = button.text().replace("&", "")
        if visible(button) and text and button.fontMetrics().horizontalAdvance(text) > button.contentsRect().width():
            found.append(f"botão «{text}» ({button.width()} px)")
    for label in root.findChildren(QLabel):
        text = label.text()
        if not visible(label) or not text or label.wordWrap() or "<" in text or label.pixmap() is not None \
                and not label.pixmap().isNull():
            continue
        widest = max(label.fontMetrics().horizontalAdvance(line) for line in text.splitlines())
        if widest > label.contentsRect().width() + 1:
            found.append(f"rótulo «{text[:60]}» ({label.width()} px)")
    return found


def test_every_page_fits_1366_by_728(qtbot, demo_template, tmp_path):
    from desktop.views.main_window import MainWindow

    db, actor = open_copy(demo_template, tmp_path)
    window = MainWindow(db, actor)
    qtbot.addWidget(window)
    window.resize(*SIZE)
    activate(window)
    problems, screens = [], 0
    for row in range(1, window.sidebar.count()):
        page = sidebar_click(window, row)
        name = window.sidebar.item(row).text()
        tabs = [t for t in tab_widgets(page) if not any(o is not t and o.isAncestorOf(t) for o in tab_widgets(page))]
        if not tabs:
            screens += 1
            problems += [f"{name}: {p}" for p in _clipped(page)]
            continue
        for index in range(tabs[0].count()):
            click_tab(tabs[0], index)
            screens += 1
            problems += [f"{name} → {tabs[0].tabText(index)}: {p}" for p in _clipped(window)]
    print(f"\ntelas medidas: {screens}", *problems, sep="\n  ")
    assert screens >= 25
    assert problems == []
    window.close()
    import shiboken6

    shiboken6.delete(window)
    db.dispose()
