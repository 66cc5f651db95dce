"""Search keys and code columns (CPF, CNPJ, plate, RENAVAM, NNNN/AAAA numbers) compare byte by byte on
PostgreSQL (COLLATE "C"), so a plain b-tree index answers the prefix searches of the list screens
("joao" → João, "529" → CPFs starting with 529) under any server locale (pt_BR.UTF-8 included).
SQLite already compares bytes (BINARY): nothing changes there.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 16:45:00
"""
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

COLUMNS = (
    ("platforms", "search_key", None),
    ("drivers", "search_key", None),
    ("lessors", "search_key", None),
    ("platforms", "cnpj", 14),
    ("drivers", "cpf", 11),
    ("lessors", "document_number", 14),
    ("vehicles", "plate", 7),
    ("vehicles", "renavam", 11),
    ("authorizations", "number", 20),
    ("autos", "number", 20),
)


def _collate(collation: str) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column, length in COLUMNS:
        sql_type = "VARCHAR" if length is None else f"VARCHAR({length})"
        op.execute(f'ALTER TABLE {table} ALTER COLUMN {column} TYPE {sql_type} COLLATE "{collation}"')


def upgrade() -> None:
    _collate("C")


def downgrade() -> None:
    _collate("default")
