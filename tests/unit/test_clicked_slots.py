"""A button's `clicked(bool checked)` hands `checked` (False) to a slot that takes an argument: connected as
`button.clicked.connect(self.restore_selected)`, `restore_selected(confirm=True)` ran as `restore_selected(False)`
and restored a backup without asking, and «Emitir e visualizar» reissued a document in force without asking with
False as its reason. Found by tests that click instead of calling the slot; this test keeps it from coming back:
a `clicked`/`triggered`/`toggled` connected straight to a method of the screen must take no argument beyond self
(or take the flag on purpose, named `checked`, `on` or `qdate`)."""
from __future__ import annotations

import ast
from pathlib import Path

VIEWS = Path(__file__).resolve().parents[2] / "desktop" / "views"
FLAG_NAMES = {"checked", "on", "qdate", "_checked", "state"}


def _offenders() -> list[str]:
    found = []
    for path in sorted(VIEWS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        methods = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        methods[item.name] = item
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "connect" and isinstance(node.func.value, ast.Attribute)
                    and node.func.value.attr in ("clicked", "triggered", "toggled") and node.args):
                continue
            slot = node.args[0]
            if not (isinstance(slot, ast.Attribute) and isinstance(slot.value, ast.Name) and slot.value.id == "self"):
                continue
            method = methods.get(slot.attr)
            if method is None:
                continue
            params = method.args.args[1:]
            if params and params[0].arg not in FLAG_NAMES:
                found.append(f"{path.relative_to(VIEWS)}:{node.lineno} {slot.attr}({params[0].arg}=…)")
    return found


def test_no_button_hands_its_checked_flag_to_a_slot_that_means_something_else():
    assert _offenders() == []
