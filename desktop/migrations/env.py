"""Alembic environment. The connection comes from `desktop.migrate` (config.attributes["connection"]);
running `alembic` by hand is also possible with `-x url=...`."""
from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from desktop.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,  # SQLite cannot ALTER most things; batch mode re-creates the table
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if not url:
        from desktop.db import resolve_url

        url = resolve_url(None)
    engine = create_engine(url)
    with engine.connect() as conn:
        _run(conn)
        conn.commit()


if context.is_offline_mode():
    raise SystemExit("Migrações offline não são usadas neste programa.")
run_migrations_online()
