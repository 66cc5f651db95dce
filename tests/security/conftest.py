"""tests/security: the insider's attacks of issue 11, each repeated and refused or detected, on SQLite AND
PostgreSQL (the fixtures of tests/db: `db`, `make_actor`, `admin_actor`, the templates behind them)."""
from __future__ import annotations

from decimal import Decimal

import pytest

from tests.db.conftest import (  # noqa: F401 - fixtures shared with tests/db
    admin_actor,
    db,
    make_actor,
    make_pg_schema,
    pg_base_url,
    pg_schema_url,
    pg_url_with_schema,
    sqlite_template,
    truncate_all,
)


ADMIN_PASSWORD = "senha-forte-1"


@pytest.fixture(autouse=True)
def key_store(tmp_path, monkeypatch):
    """Each test's own key folder (the desk's key store); the keyring is left out unless a test installs one."""
    from desktop import keystore

    folder = tmp_path / "chaves"
    monkeypatch.setenv("DESKTOP_KEY_DIR", str(folder))
    monkeypatch.setenv("DESKTOP_KEY_STORE", "file")
    monkeypatch.delenv("DESKTOP_KEY_PASSPHRASE", raising=False)
    keystore.forget_loaded()
    keystore.unlock(None)
    yield folder
    keystore.forget_loaded()
    keystore.unlock(None)


@pytest.fixture
def configured(db):
    """A database after the setup wizard: municipality, signing key, first administrador+gestor. Returns the
    first user's Actor."""
    from desktop.services import setup

    draft = setup.MunicipalityDraft(name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria de Mobilidade",
                                    ouvidoria_phone="(65) 3301-1234", upfm_year=2026,
                                    upfm_value=Decimal("112.45"))
    return setup.initialize(db, draft, setup.AdminDraft("gestora", "Gestora da Secretaria", ADMIN_PASSWORD))


def tamper(db, *statements: str) -> None:
    """Write behind the application's back, as an insider holding the database would: triggers off."""
    if db.is_sqlite:
        with db.engine.begin() as conn:
            names = conn.exec_driver_sql("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all()
            for name, _sql in names:
                conn.exec_driver_sql(f'DROP TRIGGER "{name}"')
            for sql in statements:
                conn.exec_driver_sql(sql)
            for _name, sql in names:
                conn.exec_driver_sql(sql)
    else:
        with db.engine.begin() as conn:
            conn.exec_driver_sql("SET LOCAL session_replication_role = replica")
            for sql in statements:
                conn.exec_driver_sql(sql)
