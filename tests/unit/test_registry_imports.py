"""Issue 10 item 2: the registry's services import each other in one direction only (`registry.*` ← drivers,
vehicles ← authorizations ← jobs), with no import hidden inside a function, and none imports a private name of
another service. Read with `ast`, nothing imported."""
from __future__ import annotations

import ast
from pathlib import Path

SERVICES = Path(__file__).resolve().parents[2] / "desktop" / "services"
REGISTRY = ("authorizations", "drivers", "vehicles", "platforms", "changes", "jobs", "search", "registry")


def _module(path: Path) -> str:
    parts = path.relative_to(SERVICES.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _ours(name: str) -> bool:
    return any(name == f"desktop.services.{r}" or name.startswith(f"desktop.services.{r}.") for r in REGISTRY)


def _files():
    return {_module(p): p for p in SERVICES.rglob("*.py") if _ours(_module(p))}


def _imports(tree: ast.AST, modules) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                out.add(full if full in modules else node.module)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {m for m in out if m in modules}


def test_the_registry_services_have_no_import_cycle():
    files = _files()
    graph = {m: _imports(ast.parse(p.read_text(encoding="utf-8")), files) - {m} for m, p in files.items()}
    # A package imports its own submodules (its re-exports): that is not a cycle of use cases.
    graph = {m: {t for t in targets if not t.startswith(m + ".")} for m, targets in graph.items()}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for t in sorted(graph[m]):
            assert state.get(t) != 1, "ciclo de importação: " + " → ".join(path[path.index(t):] + [t])
            if t not in state:
                visit(t)
        path.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_no_import_is_hidden_inside_a_function_and_no_private_name_of_another_service():
    for module, path in _files().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = [n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]
                assert not inner, f"{module}.{node.name} importa dentro da função (linha {inner[0].lineno})"
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("desktop.services."):
                package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
                own = node.module == module or (package.count(".") > 1 and node.module.startswith(package + "."))
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert own or not private, f"{module} importa nomes privados de {node.module}: {private}"


def test_jobs_and_inspections_use_public_names_of_the_authorizations():
    jobs = (SERVICES / "jobs.py").read_text(encoding="utf-8")
    assert "_move" not in jobs and "_audit" not in jobs and "_snapshot" not in jobs
