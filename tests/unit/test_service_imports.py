"""The service layer's import graph (issue 10, item 2; STYLE "The shape of a use case"): no cycles among the
modules of `desktop.services` (function-local imports counted), no service importing a private name of another,
and each function-local import of another service says why it is local (start-up cost) on its own line or the
line above.

Read with the standard library's `ast`, so the test needs no import of the services themselves.
"""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ROOT / "desktop" / "services"


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _targets(path: Path, module: str, tree: ast.AST):
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                yield node, target, alias.name


def _sources():
    for path in sorted(SERVICES.rglob("*.py")):
        module = _module(path)
        text = path.read_text(encoding="utf-8")
        yield path, module, text, ast.parse(text)


def _graph():
    modules = {module for _, module, _, _ in _sources()}
    graph: dict[str, set[str]] = defaultdict(set)
    for path, module, _, tree in _sources():
        graph[module]
        for _, target, name in _targets(path, module, tree):
            for candidate in (f"{target}.{name}" if name else None, target):
                if candidate in modules and candidate != module:
                    graph[module].add(candidate)
                    break
    return graph


def _cycles(graph):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_services_form_no_import_cycle():
    cycles = _cycles(_graph())
    assert cycles == [], "serviços que se importam em círculo: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_no_service_imports_a_private_name_of_another():
    offenders = []
    for path, module, _, tree in _sources():
        for node, target, name in _targets(path, module, tree):
            if (target.startswith("desktop.services") and name and name.startswith("_")
                    and not name.startswith("__") and target != module):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {target}.{name}")
    assert offenders == []


def test_each_function_local_import_of_a_service_says_why():
    """Local imports of other services hid the cycles of the first wave; one stays only where start-up cost
    demands it, and says so. (Local imports of SQLAlchemy, the models or ReportLab keep the login window fast and
    are not counted here.)"""
    missing = []
    for path, module, text, tree in _sources():
        lines = text.splitlines()
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and \
                        (node.module or "").startswith("desktop.services"):
                    here = lines[node.lineno - 1]
                    above = lines[node.lineno - 2] if node.lineno >= 2 else ""
                    if "#" not in here and not above.strip().startswith("#"):
                        missing.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert missing == [], "imports locais sem o motivo ao lado: " + ", ".join(sorted(set(missing)))
