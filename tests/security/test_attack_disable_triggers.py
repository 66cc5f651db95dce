"""Issue 11, attack 2: switch the append-only triggers off. With the two roles of `setup-server`, the desks'
application role owns nothing: it cannot UPDATE, DELETE or TRUNCATE ledger or audit rows, cannot disable or drop
a trigger, cannot ALTER or create a table — and the program still works through it (PostgreSQL only; SQLite has
no roles: there the anchored audit is what shows a change, see test_attack_audit_forgery)."""
from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from desktop import cli, migrate
from desktop.db import Database
from desktop.services import audit, holidays, setup
from desktop.services import checkpoints

from tests.security.conftest import pg_base_url


@pytest.fixture
def roles_schema(make_pg_schema):
    url = make_pg_schema()
    suffix = uuid.uuid4().hex[:8]
    owner, app = f"dono_{suffix}", f"app_{suffix}"
    try:
        yield url, owner, app
    finally:
        admin = create_engine(make_url(pg_base_url()), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            for role in (owner, app):
                if conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}).first():
                    conn.execute(text(f'REASSIGN OWNED BY "{role}" TO CURRENT_USER'))
                    conn.execute(text(f'DROP OWNED BY "{role}"'))
                    conn.execute(text(f'DROP ROLE "{role}"'))
        admin.dispose()


def _as(url: str, role: str) -> str:
    return make_url(url).set(username=role).render_as_string(hide_password=False)


REFUSED = [
    "UPDATE ledger_entries SET reason = 'x'",
    "DELETE FROM ledger_entries",
    "TRUNCATE ledger_entries",
    "UPDATE audit_entries SET after = 'x'",
    "DELETE FROM audit_entries",
    "TRUNCATE audit_entries",
    "DELETE FROM audit_checkpoints",
    "ALTER TABLE ledger_entries DISABLE TRIGGER USER",
    "ALTER TABLE audit_entries DISABLE TRIGGER USER",
    "DROP TRIGGER trg_audit_entries_append_only ON audit_entries",
    "ALTER TABLE drivers ADD COLUMN forged TEXT",
    "CREATE TABLE scratch (id int)",
    "DROP TABLE drivers",
    "UPDATE alembic_version SET version_num = '9999'",
]


def test_issue11_attack2_application_role_cannot_touch_append_only_rows_or_triggers(roles_schema, capsys):
    url, owner, app = roles_schema
    code = cli.main(["--db", url, "setup-server", "--app-role", app, "--owner-role", owner,
                     "--app-password", "senha-da-aplicacao"])
    assert code == 0, capsys.readouterr().err
    assert app in capsys.readouterr().out
    owner_db, app_db = Database(_as(url, owner)), Database(_as(url, app))
    try:
        assert owner_db.runs_as_table_owner() and not app_db.runs_as_table_owner()
        # the program works through the application role: set-up, a write, its audit entry, a checkpoint
        first = setup.initialize(app_db, setup.MunicipalityDraft(
            name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria de Mobilidade",
            ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("112.45")),
            setup.AdminDraft("gestora", "Gestora", "senha-forte-1"))
        holidays.add_holiday(app_db, first, date(2026, 10, 15), "Aniversário do município")
        checkpoints.make_checkpoint(app_db, first)
        assert audit.verify(app_db).ok
        for sql in REFUSED:
            with app_db.engine.connect() as conn:
                with pytest.raises(DBAPIError) as exc:
                    conn.exec_driver_sql(sql)
                conn.rollback()
            message = str(exc.value.orig)
            assert ("permission denied" in message or "must be owner" in message
                    or "permissão negada" in message or "deve ser o dono" in message), (sql, message)
        # the owner could (that is why the desks must not use it)
        with owner_db.engine.connect() as conn:
            conn.exec_driver_sql("ALTER TABLE audit_entries DISABLE TRIGGER USER")
            conn.rollback()
    finally:
        owner_db.dispose()
        app_db.dispose()


def test_issue11_attack2_migrate_regrants_the_application_role(roles_schema, capsys):
    url, owner, app = roles_schema
    assert cli.main(["--db", url, "setup-server", "--app-role", app, "--owner-role", owner]) == 0
    capsys.readouterr()
    assert cli.main(["--db", _as(url, owner), "migrate"]) == 0
    assert app in capsys.readouterr().out
    assert migrate.current(Database(_as(url, app))) == migrate.head()


def test_issue11_setup_server_is_refused_on_sqlite(tmp_path, capsys):
    from desktop.db import sqlite_url

    assert cli.main(["--db", sqlite_url(tmp_path / "x.sqlite3"), "setup-server"]) == 2
    assert "só para PostgreSQL" in capsys.readouterr().err
