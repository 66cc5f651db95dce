"""The rooms of desktop/ in one order (issue 22 point 1; STYLE.md "The rooms"; docs/architecture.md), checked on every
module of the package with its function-local imports counted:

    domain (with errors, paths, settings, signing, signals) < models (with keystore) < db, migrate
    < importers, reports, tasks < services < demo < views, manual < app, cli, cli_print, install_check

- no module imports a room above its own (a room that needs something from above takes it as an argument);
- the modules form no import circle (a package's `__init__` that re-exports its submodules is a face, not a
  circle: `from desktop.domain import law` is an import of `desktop.domain.law`);
- a function-local import says why it is local on its own line (`# lazy: …`, `# cycle: …`, `# local: …`);
- no service imports a private name of another; every top-level module of desktop/ is in docs/architecture.md.

Read with the standard library's `ast`: the test imports nothing of the program.
"""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "desktop"

RANK = {
    "domain": 0, "errors": 0, "paths": 0, "settings": 0, "signing": 0, "signals": 0, "processes": 0,
    "models": 1, "keystore": 1,
    "db": 2, "migrate": 2, "migrations": 2,
    "importers": 3, "reports": 3, "tasks": 3, "background": 3,
    "services": 4,
    "demo": 5,
    "views": 6, "manual": 6,
    "app": 7, "cli": 7, "cli_print": 7, "cli_dispatch": 7, "install_check": 7,
    "__main__": 8,
}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _room(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "desktop" else None


SOURCES = {}
for _path in sorted(PACKAGE.rglob("*.py")):
    if "migrations" in _path.parts:
        continue
    _text = _path.read_text(encoding="utf-8")
    SOURCES[_module(_path)] = (_path, _text, ast.parse(_text))


def _resolve(name: str) -> str | None:
    while name and name not in SOURCES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str):
    """(node, absolute module named, imported names) for every import of `module`, local ones included."""
    path, _, tree = SOURCES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield node, target, tuple(alias.name for alias in node.names)


def _targets(target: str, names: tuple[str, ...]) -> set[str]:
    """The modules of desktop/ an import executes: `from pkg import sub` names the submodule, not the face."""
    if not target.startswith("desktop"):
        return set()
    subs = {f"{target}.{name}" for name in names if f"{target}.{name}" in SOURCES}
    if names and len(subs) == len(names):
        return subs
    found = _resolve(target)
    return subs | ({found} if found else set())


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for module in SOURCES:
        graph[module]
        for _, target, names in _imports(module):
            graph[module] |= _targets(target, names) - {module}
    return graph


def _cycles(graph) -> list[list[str]]:
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


def test_every_module_of_desktop_belongs_to_a_room():
    unknown = sorted(m for m in SOURCES if m != "desktop" and _room(m) not in RANK)
    assert unknown == [], ("módulos fora da ordem dos cômodos (ponha-os em RANK e em docs/architecture.md): "
                           + ", ".join(unknown))


def test_no_module_imports_a_room_above_its_own_local_imports_included():
    against = []
    for module, (path, _, _) in SOURCES.items():
        own = RANK.get(_room(module), 0)
        for node, target, names in _imports(module):
            for found in _targets(target, names):
                if RANK.get(_room(found), 0) > own:
                    against.append(f"{path.relative_to(ROOT)}:{node.lineno} {_room(module)} → {_room(found)}")
    assert against == [], "importações contra a ordem dos cômodos:\n" + "\n".join(against)


def test_the_modules_form_no_import_circle_local_imports_included():
    cycles = _cycles(_graph())
    assert cycles == [], "módulos que se importam em círculo: " + "; ".join(" <-> ".join(c) for c in cycles)


def _local_imports(tree):
    """The import statements inside a function (at any depth)."""
    found = []

    def visit(node, inside):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and inside:
                found.append(child)
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return found


def test_each_function_local_import_says_why_on_its_line():
    silent = []
    for module, (path, text, tree) in SOURCES.items():
        lines = text.splitlines()
        for node in _local_imports(tree):
            if not any("#" in lines[n - 1] for n in range(node.lineno, node.end_lineno + 1)):
                silent.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert silent == [], ("importações locais sem o motivo na linha (suba-as ao topo, ou diga por que ficam: "
                          "# lazy: …, # cycle: …):\n" + "\n".join(silent))


def test_no_service_imports_a_private_name_of_another():
    offenders = []
    for module, (path, _, _) in SOURCES.items():
        if _room(module) != "services":
            continue
        for node, target, names in _imports(module):
            for name in names:
                if target.startswith("desktop.services") and name.startswith("_") and not name.startswith("__") \
                        and target != module:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {target}.{name}")
    assert offenders == []


def test_a_room_order_violation_is_caught():
    """The check itself: a report importing a service is named (the shape of the 35-file circle of issue 22)."""
    tree = ast.parse("def f():\n    from desktop.services.audit import record  # lazy: test\n")
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom))
    assert RANK[_room(next(iter(_targets(node.module, ("record",)))))] > RANK["reports"]
    assert _cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]


def test_every_top_level_module_and_package_of_desktop_is_in_the_architecture_page():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    names = sorted({p.name if p.is_dir() else p.name for p in PACKAGE.iterdir()
                    if (p.suffix == ".py" and p.name != "__init__.py") or (p.is_dir() and (p / "__init__.py").exists())
                    or (p.is_dir() and p.name == "migrations")})
    missing = [n for n in names if (n if n.endswith(".py") else f"{n}/") not in page]
    assert missing == [], "docs/architecture.md não descreve: " + ", ".join(missing)
    services = sorted(p.name for p in (PACKAGE / "services").iterdir()
                      if p.is_dir() and (p / "__init__.py").exists())
    missing = [n for n in services if f"{n}/" not in page]
    assert missing == [], "docs/architecture.md não descreve os pacotes de serviços: " + ", ".join(missing)
