"""Issue 25 item 10, the smaller edges: `demo` through the desks' application role is refused up front, in
Portuguese, with nothing written (it ended in "Erro inesperado (InsufficientPrivilege)" with the municipality and
the administrator committed); hostile file names (CR/LF) are stored escaped in the audit log, on both databases."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from sqlalchemy import func, select

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "db"))

from trip_factories import make_platform, trip, trips_csv  # noqa: E402

from desktop import cli  # noqa: E402
from desktop.db import Database  # noqa: E402
from desktop.domain.roles import Role  # noqa: E402
from desktop.models import AuditEntry, User  # noqa: E402
from desktop.services import exports  # noqa: E402
from desktop.services import trips as trip_service  # noqa: E402
from tests.security.test_attack_disable_triggers import _as, roles_schema  # noqa: E402, F401 - fixture


def test_issue25_item10_hostile_file_names_are_stored_escaped(db, make_actor, tmp_path):
    fiscal = make_actor(Role.FISCAL, Role.GESTOR, username="fiscal-nomes")
    p = make_platform(db, fiscal)
    name = "viagens.csv\r\n2026-11-18 INFO login ok usuario=gestora"
    trip_service.import_trips(db, fiscal, p.id, trips_csv(trip("T1", "ABC1D23", "52998224725")), name)
    out = tmp_path / "plataformas.csv"
    exports.export(db, fiscal, "platforms", out)
    with db.session(write=False) as s:
        rows = s.execute(select(AuditEntry.action, AuditEntry.after)
                         .where(AuditEntry.action.in_(("trips.import", "export")))).all()
    texts = {action: after for action, after in rows}
    assert "\r" not in texts["trips.import"] and "\\r" not in texts["trips.import"].replace("\\\\", "")
    stored = json.loads(texts["trips.import"])["filename"]
    assert stored == "viagens.csv\\x0d\\x0a2026-11-18 INFO login ok usuario=gestora"
    assert "\n" not in stored and "\r" not in stored
    assert json.loads(texts["export"])["file"] == "plataformas.csv"


def test_issue25_item10_demo_as_the_application_role_is_refused_up_front(roles_schema, capsys):  # noqa: F811
    url, owner, app = roles_schema
    assert cli.main(["--db", url, "setup-server", "--app-role", app, "--owner-role", owner]) == 0
    capsys.readouterr()
    code = cli.main(["--db", _as(url, app), "demo", "--drivers", "5"])
    err = capsys.readouterr().err
    assert code != 0 and "papel dono" in err and "Nada foi gravado" in err, err
    assert "Erro inesperado" not in err and "InsufficientPrivilege" not in err
    app_db = Database(_as(url, app))
    try:
        with app_db.session(write=False) as s:
            assert s.scalar(select(func.count()).select_from(User)) == 0
            assert s.scalar(select(func.count()).select_from(AuditEntry)) == 0
    finally:
        app_db.dispose()
