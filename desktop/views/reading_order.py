"""Tab follows the screen (issue 29 point 6): top to bottom, left to right, in every window of the program.

Qt's Tab order is the order the widgets were created in, unless each screen calls `setTabOrder` for every pair;
screens built in code (a tab bar added before its buttons, a filter row built right to left, a table created before
the field above it) then tab backwards. Rather than a hand-kept list per screen, the keyboard guard
(`desktop.views.keyboard`) asks this module for the next stop each time Tab or Shift+Tab is pressed in one of the
program's windows:

- the **stops** are the widgets that take focus by Tab (`Qt.TabFocus`), visible, enabled, not a scroll area (its
  fields are the stops), a composite counted once through its focus proxy, and a group of auto-exclusive radio
  buttons counted once (the checked one), as Qt does;
- they are **ordered as the screen is read**: the children of each container — the group box, the tab page, the
  dialog — are sorted so that no child comes after one lying wholly below it, or on the same line wholly to its
  right; then each child's own stops follow, in the same way, before the next child's. A form's label column, a
  filter row, a button bar over a tab widget read in the order the clerk sees them, whatever order the code made
  them in.

`tests/gui/test_tab_order.py` walks every dialog, module tab and record page with the real Tab key against the same
rule read from the screen.
"""
from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QAbstractButton, QAbstractItemView, QRadioButton, QScrollArea, QWidget


def _effective(widget: QWidget) -> QWidget:
    seen = 0
    while widget.focusProxy() is not None and seen < 10:
        widget = widget.focusProxy()
        seen += 1
    return widget


def _takes_tab(widget: QWidget) -> bool:
    if isinstance(widget, QScrollArea) and not isinstance(widget, QAbstractItemView):
        return False
    return bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus) and widget.isEnabled() and widget.isVisible() \
        and widget.width() > 1 and widget.height() > 1


def _radio_group(widget: QWidget):
    """The exclusive group a radio button belongs to (one Tab stop for the whole group), or None."""
    if not isinstance(widget, QRadioButton):
        return None
    group = widget.group()
    if group is not None and group.exclusive():
        return group
    return widget.parentWidget() if widget.autoExclusive() else None


def stops(window: QWidget, current: QWidget | None = None) -> list[QWidget]:
    """The Tab stops of `window`, in reading order."""
    found: list[QWidget] = []
    seen: set[int] = set()
    groups: dict[int, list[QWidget]] = {}
    for widget in window.findChildren(QWidget):
        if widget.window() is not window:
            continue
        target = _effective(widget)
        if id(target) in seen or target.window() is not window or not _takes_tab(target):
            continue
        seen.add(id(target))
        group = _radio_group(target)
        if group is not None:
            members = groups.setdefault(id(group), [])
            members.append(target)
            if len(members) > 1:
                continue
        found.append(target)
    for members in groups.values():
        if len(members) > 1:
            chosen = next((m for m in members if m is current), None) \
                or next((m for m in members if isinstance(m, QAbstractButton) and m.isChecked()), members[0])
            found[found.index(members[0])] = chosen
    return _reading_order(window, found)


def _child_under(container: QWidget, widget: QWidget) -> QWidget | None:
    while widget is not None and widget.parentWidget() is not container:
        widget = widget.parentWidget()
    return widget


def _before(a: QRect, b: QRect) -> bool:
    """Reading `b` right after `a` would go backwards: `b` lies wholly above `a`, or on its line wholly left."""
    if b.bottom() < a.top():
        return True
    same_line = a.top() <= b.center().y() <= a.bottom() or b.top() <= a.center().y() <= b.bottom()
    return same_line and b.right() < a.left()


def _sorted(children: list[QWidget]) -> list[QWidget]:
    """The children of one container in reading order: a topological sort of "must come before", ties broken by
    (top, left); a cycle (overlapping widgets) is broken the same way."""
    rects = {id(c): c.geometry() for c in children}
    must_precede = {id(c): {id(o) for o in children if o is not c and _before(rects[id(c)], rects[id(o)])}
                    for c in children}     # o must come before c
    left = list(children)
    out: list[QWidget] = []
    while left:
        placed = {id(c) for c in out}
        ready = [c for c in left if must_precede[id(c)] <= placed] or left
        first = min(ready, key=lambda c: (rects[id(c)].top(), rects[id(c)].left()))
        out.append(first)
        left.remove(first)
    return out


def _reading_order(container: QWidget, found: list[QWidget]) -> list[QWidget]:
    if not found:
        return []
    by_child: dict[int, list[QWidget]] = {}
    children: list[QWidget] = []
    for widget in found:
        if widget is container:
            continue
        child = _child_under(container, widget)
        if child is None:
            continue
        if id(child) not in by_child:
            by_child[id(child)] = []
            children.append(child)
        by_child[id(child)].append(widget)
    out: list[QWidget] = [container] if container in found else []
    for child in _sorted(children):
        out += _reading_order(child, by_child[id(child)])
    return out


def next_stop(focus: QWidget, forward: bool) -> QWidget | None:
    """The stop Tab (or Shift+Tab) moves to from `focus`, or None when `focus` is no stop of its window (Qt then
    moves the focus itself)."""
    window = focus.window()
    order = stops(window, current=focus)
    ids = [id(w) for w in order]
    if id(focus) not in ids or len(order) < 2:
        return None
    index = ids.index(id(focus))
    return order[(index + (1 if forward else -1)) % len(order)]


def move_focus(focus: QWidget, forward: bool) -> bool:
    """Move the focus as Tab (Shift+Tab) would in reading order; False when Qt should do it."""
    target = next_stop(focus, forward)
    if target is None:
        return False
    target.setFocus(Qt.FocusReason.TabFocusReason if forward else Qt.FocusReason.BacktabFocusReason)
    parent = target.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea) and not isinstance(parent, QAbstractItemView) \
                and parent.widget() is not None and parent.widget().isAncestorOf(target):
            parent.ensureWidgetVisible(target)
        parent = parent.parentWidget()
    return True
