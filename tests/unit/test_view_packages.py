"""Issue 22, point 6: a newcomer finds a screen by name. A package of desktop/views/ only names its screens in its
`__init__.py`; the screen itself (a class whose name ends in Page or Screen) lives in a module of its own
(`page.py` for the module page). The check reads the source (AST), so it needs no Qt."""
from __future__ import annotations

import ast
from pathlib import Path

VIEWS = Path(__file__).resolve().parents[2] / "desktop" / "views"


def _screen_classes(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.name for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and node.name.endswith(("Page", "Screen"))]


def test_no_views_package_face_defines_a_screen():
    faces = sorted(VIEWS.glob("*/__init__.py"))
    assert len(faces) >= 10, "the views packages moved: update VIEWS"
    offenders = {str(p.relative_to(VIEWS)): _screen_classes(p) for p in faces if _screen_classes(p)}
    assert offenders == {}


def test_every_module_page_in_the_sidebar_lives_in_a_page_module():
    source = (VIEWS / "main_window.py").read_text(encoding="utf-8")
    factories = [node.value for node in ast.walk(ast.parse(source))
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)
                 and node.value.startswith("desktop.views.") and ":" in node.value]
    assert factories, "main_window no longer names its pages by factory string"
    for factory in factories:
        module, _, name = factory.partition(":")
        path = VIEWS.parent.parent / (module.replace(".", "/") + ".py")
        assert path.exists(), f"{factory}: the factory names a module that is not a file (a package face?)"
        assert name in _screen_classes(path) or f"class {name}" in path.read_text(encoding="utf-8"), factory
