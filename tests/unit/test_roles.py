"""The role table (SPEC §1; STYLE: "every role check from one table in domain/roles.py"; issue 22 point 2)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from desktop.domain import roles
from desktop.domain.roles import (
    COURSE_ROLES,
    DATA_REQUEST_ROLES,
    DOCUMENT_ROLES,
    ENFORCEMENT_ROLES,
    READERS,
    TABLES,
    Role,
    RoleTable,
)

SERVICES = Path(__file__).resolve().parents[2] / "desktop" / "services"


@pytest.mark.parametrize(("table", "duty", "expected"), [
    # SPEC §1: the front desk (atendente) and the gestor organize courses; Art. 26, III autos are the fiscal's
    (COURSE_ROLES, "organize", (Role.ATENDENTE, Role.GESTOR)),
    (COURSE_ROLES, "enforce", (Role.FISCAL, Role.GESTOR)),
    # Art. 4: the Município requests a platform's data — the fiscal, or the gestor who decides
    (DATA_REQUEST_ROLES, "request", (Role.FISCAL, Role.GESTOR)),
    (ENFORCEMENT_ROLES, "read", (Role.ATENDENTE, Role.FISCAL, Role.GESTOR, Role.ADMINISTRADOR)),
    (DOCUMENT_ROLES, "inspection", (Role.VISTORIADOR, Role.GESTOR)),
])
def test_spec1_duties_name_their_roles_in_the_order_the_refusal_says_them(table, duty, expected):
    assert table[duty] == expected
    assert getattr(table, duty) == expected


def test_issue25_7_the_vistoriador_does_not_read_autos_or_what_a_person_owes():
    assert Role.VISTORIADOR not in READERS
    assert ENFORCEMENT_ROLES.read == READERS


def test_every_table_has_duties_without_repeated_roles():
    assert TABLES
    for name, table in TABLES.items():
        assert isinstance(table, RoleTable), name
        assert len(table) > 0, name
        for duty, held in table.items():
            assert held and len(set(held)) == len(held), f"{name}.{duty}"
            assert all(isinstance(r, Role) for r in held), f"{name}.{duty}"


def test_a_duty_not_in_the_table_is_an_error_not_an_empty_grant():
    with pytest.raises(AttributeError):
        COURSE_ROLES.convoke   # noqa: B018 — the attribute access is the test
    with pytest.raises(KeyError):
        COURSE_ROLES["convoke"]
    with pytest.raises(ValueError):
        RoleTable("x", empty=())
    with pytest.raises(AttributeError):
        COURSE_ROLES.organize = (Role.FISCAL,)


def _role_members(node: ast.AST) -> int:
    return sum(1 for n in ast.walk(node) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
               and n.value.id == "Role")


def _spelled_tables(path: Path, root: Path = SERVICES) -> list[str]:
    """Tuples, lists or sets of Role members, and require_role/has calls naming a Role themselves: a service's
    own table of roles."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(
                isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "Role"
                for e in node.elts):
            found.append(f"{path.relative_to(root)}:{node.lineno}")
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "require_role", "has") and sum(_role_members(a) for a in node.args) > 0:
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_service_spells_its_own_table_of_roles():
    found = [hit for path in sorted(SERVICES.rglob("*.py")) for hit in _spelled_tables(path)]
    assert found == [], "roles spelled in a service instead of desktop/domain/roles.py: " + ", ".join(found)


def test_the_scan_finds_a_spelled_tuple(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("X = (Role.FISCAL, Role.GESTOR)\ndef f(actor):\n    require_role(actor, Role.GESTOR)\n"
                      "    require_role(actor, *COURSE_ROLES.organize)\n")
    hits = [hit.rsplit(":", 1)[1] for hit in _spelled_tables(sample, root=tmp_path)]
    assert hits == ["1", "3"]
    assert roles.__doc__ and "one table per service module" in roles.__doc__
