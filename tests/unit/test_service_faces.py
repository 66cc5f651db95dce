"""Issue 22 point 6: what services share is found by name — services.actors, .permissions, .locking, .paging,
.lookups, .timeline — while services.base and services.search stay as faces for the office's scripts
(docs/contracts.md), re-exporting the very same objects."""
import ast
import pathlib

import pytest

from desktop.services import actors, base, locking, lookups, paging, permissions, search, timeline

FACE_NAMES = [
    (base, "Actor", actors), (base, "SYSTEM_ACTOR", actors), (base, "SessionRevoked", actors),
    (base, "on_session_revoked", actors), (base, "remove_session_listener", actors),
    (base, "notify_session_revoked", actors), (base, "require_role", permissions),
    (base, "check_version", locking),
    (search, "Page", paging), (search, "MAX_PAGE", paging), (search, "search_terms", paging),
    (search, "check_search", paging), (search, "prefix_range", paging), (search, "contains", paging),
    (search, "digits_query", paging), (search, "check_page", paging), (search, "order_by", paging),
    (search, "count", paging), (search, "capped_count", paging), (search, "get_or_404", lookups),
    (search, "user_names", lookups), (search, "TimelineEntry", timeline), (search, "ACTION_LABELS", timeline),
    (search, "audit_timeline", timeline), (search, "merge_timelines", timeline), (search, "date_text", timeline),
    (search, "require_reader", permissions), (search, "FRONT_DESK", permissions),
]


@pytest.mark.parametrize(("face", "name", "home"), FACE_NAMES,
                         ids=[f"{f.__name__.rsplit('.', 1)[1]}.{n}" for f, n, _ in FACE_NAMES])
def test_face_re_exports_the_named_module(face, name, home):
    assert getattr(face, name) is getattr(home, name)
    assert name in face.__all__


def test_faces_hold_no_code_of_their_own():
    for face in (base, search):
        tree = ast.parse(pathlib.Path(face.__file__).read_text())
        defined = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        assert defined == [], f"{face.__name__} deve só reexportar: {[d.name for d in defined]}"


def test_the_programs_own_code_imports_the_named_modules_not_the_faces():
    """The faces are for the office's scripts (docs/contracts.md); the program's code names the module that holds
    what it uses (issue 22 point 6), so a newcomer who reads an import finds the code."""
    root = pathlib.Path(base.__file__).resolve().parents[1]
    faces = {"desktop.services.base", "desktop.services.search"}
    users = []
    for path in sorted(root.rglob("*.py")):
        if path.name in ("base.py", "search.py") and path.parent.name == "services":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in faces:
                users.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    assert users == []
