"""Journeys follow one case across modules on both databases: the fixtures of tests/db."""
from tests.db.conftest import db, make_actor, pg_schema_url, sqlite_template  # noqa: F401 (fixtures)
