"""The change bus is named by a typed set of entity names (issue 22 point 2; STYLE: Anki's `OpChanges`): every
screen announces and listens with `desktop.domain.entities.Entity`, never a string typed by hand, and no screen
listens for a name that nothing announces (before: the Relatórios page listened for "fee", "payment" and
"authorization", the ISSQN page for "payments")."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from desktop.domain.entities import Entity, entities

VIEWS = Path(__file__).resolve().parents[2] / "desktop" / "views"


def _chain(node: ast.AST) -> list[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    elif isinstance(node, ast.Call):
        parts += _chain(node.func)
    return parts


def _names(node: ast.AST, out: list) -> None:
    """The string constants and Entity members of an argument (tuples, sets and `a if … else b` included)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        out.append(node.value)
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Entity":
        out.append(Entity[node.attr])
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for element in node.elts:
            _names(element, out)
    elif isinstance(node, ast.IfExp):
        _names(node.body, out)
        _names(node.orelse, out)


def scan(source: str, filename: str = "<view>") -> tuple[list, list]:
    """(announced, listened) names in one view module's source."""
    announced: list = []
    listened: list = []

    class Visitor(ast.NodeVisitor):
        def __init__(self):
            self.functions: list[str] = []

        def visit_FunctionDef(self, node):
            self.functions.append(node.name)
            if node.name == "__init__" and filename.endswith("daily_jobs.py"):
                for default in node.args.defaults:
                    _names(default, announced)
            self.generic_visit(node)
            self.functions.pop()

        def visit_ClassDef(self, node):
            for item in node.body:   # a detail frame's subject: `entity = Entity.DRIVERS`, announced after a save
                if isinstance(item, ast.Assign) and any(getattr(t, "id", "") == "entity" for t in item.targets):
                    _names(item.value, announced)
            self.generic_visit(node)

        def visit_Call(self, node):
            chain = _chain(node.func)
            name = chain[0] if chain else ""
            if name in ("changes", "_changed") or (name == "emit" and "data_changed" in chain):
                for arg in node.args:
                    _names(arg, announced)
            elif name == "_save":
                for arg in node.args[1:]:
                    _names(arg, announced)
            for keyword in node.keywords:
                if keyword.arg == "entities":
                    _names(keyword.value, listened if "super" in chain or name == "__init__" else announced)
            self.generic_visit(node)

        def visit_Compare(self, node):
            if self.functions and self.functions[-1] == "_data_changed" and getattr(node.left, "id", "") == "entity":
                for comparator in node.comparators:
                    _names(comparator, listened)
            self.generic_visit(node)

        def visit_Assign(self, node):
            if any(getattr(t, "id", "") == "RELOAD_ON" for t in node.targets):
                _names(node.value, listened)
            self.generic_visit(node)

    Visitor().visit(ast.parse(source))
    return announced, listened


def _all_views() -> tuple[dict, dict]:
    announced, listened = {}, {}
    for path in sorted(VIEWS.rglob("*.py")):
        a, li = scan(path.read_text(encoding="utf-8"), str(path))
        where = path.relative_to(VIEWS).as_posix()
        for name in a:
            announced.setdefault(name, []).append(where)
        for name in li:
            listened.setdefault(name, []).append(where)
    return announced, listened


def test_screens_announce_and_listen_with_entity_members_only():
    announced, listened = _all_views()
    typed = {n: w for n, w in {**announced, **listened}.items() if not isinstance(n, Entity)}
    assert typed == {}, f"names typed by hand instead of desktop.domain.entities.Entity: {typed}"


def test_no_screen_listens_for_a_name_nothing_announces():
    announced, listened = _all_views()
    assert announced and listened
    silent = {name: where for name, where in listened.items() if name not in announced}
    assert silent == {}, f"listened for, never announced: {silent}"


def test_the_scan_sees_the_old_mistakes():
    source = '''
class Page:
    def _data_changed(self, entity):
        if entity in (Entity.ISSUED_DOCUMENT, "fee", "payment"):
            pass
    def save(self):
        op(self, call).changes("drivers").run()
        bus.data_changed.emit(Entity.ISSUED_DOCUMENT)
'''
    announced, listened = scan(source)
    assert announced == ["drivers", Entity.ISSUED_DOCUMENT]
    assert listened == [Entity.ISSUED_DOCUMENT, "fee", "payment"]


def test_an_unknown_name_is_refused_at_once():
    assert entities("drivers", Entity.AUTOS) == {Entity.DRIVERS, Entity.AUTOS}
    with pytest.raises(ValueError):
        entities("fee")
    assert Entity.DRIVERS == "drivers" and "drivers" in {Entity.DRIVERS}   # the bus carries the same text as before
