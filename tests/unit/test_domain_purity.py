"""desktop.domain is pure: it never imports PySide6, SQLAlchemy, ReportLab or pandas (STYLE, brief)."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

import desktop.domain

FORBIDDEN = {"PySide6", "shiboken6", "sqlalchemy", "alembic", "reportlab", "pandas", "openpyxl", "psycopg"}
DOMAIN = Path(desktop.domain.__file__).parent
MODULES = sorted(DOMAIN.rglob("*.py"))


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_domain_has_modules():
    assert {p.name for p in MODULES} >= {"__init__.py", "dates.py", "penalties.py", "workflow.py"}


@pytest.mark.parametrize("path", [pytest.param(p, id=p.relative_to(DOMAIN).as_posix()) for p in MODULES])
def test_domain_module_imports_nothing_forbidden(path):
    # every import, including ones inside functions
    assert imported_roots(path) & FORBIDDEN == set()
    assert not (imported_roots(path) & {"desktop"}) or all(
        name.startswith("desktop.domain") for name in _desktop_imports(path))


def _desktop_imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("desktop"):
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names if a.name.startswith("desktop")]
    return names


def test_importing_domain_loads_no_heavy_library():
    code = ("import sys, desktop.domain as d; from datetime import date; "
            "d.BusinessCalendar().is_business_day(date(2026, 1, 1)); d.format_money(1); d.validate_cpf('1'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in %r))" % (FORBIDDEN | {"babel", "holidays"},))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=DOMAIN.parent.parent).stdout
    loaded = {name.split(".")[0] for name in eval(out)}
    assert loaded & FORBIDDEN == set()
    assert {"babel", "holidays"} <= loaded  # used lazily, on first need


def test_importing_domain_alone_defers_babel_and_holidays():
    code = "import sys, desktop.domain; print(sorted({m.split('.')[0] for m in sys.modules}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=DOMAIN.parent.parent).stdout
    loaded = set(eval(out))
    assert not loaded & (FORBIDDEN | {"babel", "holidays", "validate_docbr"})
