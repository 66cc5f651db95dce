"""Platforms (issue 14, leftovers): the CNH and RENAVAM of each line of a 60-day list are kept on the row (Art. 5,
VIII: the list identifies drivers and vehicles) and compared with the register; each row keeps the detail of
its discrepancies computed at import (the reconciliation screen reads them instead of recomputing); data
requests to a platform (Art. 4) get their own NNNN/AAAA number series (`number_sequences.kind` "data_request").

Revision ID: 0012
Revises: 0007
Create Date: 2026-12-01 12:40:00
"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0007"  # rechained at integration (chain: 0005 → 0008 → 0011 → 0007 → 0012)
branch_labels = None
depends_on = None

OLD_KINDS = ("authorization", "auto", "guide", "document")
NEW_KINDS = OLD_KINDS + ("data_request",)


def _kinds(kinds) -> str:
    return "kind IN (" + ", ".join(f"'{k}'" for k in kinds) + ")"


def upgrade() -> None:
    with op.batch_alter_table("platform_list_rows") as batch:
        batch.add_column(sa.Column("cnh", sa.String(length=11), nullable=True))
        batch.add_column(sa.Column("renavam", sa.String(length=11), nullable=True))
        batch.add_column(sa.Column("discrepancy_detail", sa.Text(), nullable=True))
    with op.batch_alter_table("number_sequences") as batch:
        batch.drop_constraint(op.f("ck_number_sequences_kind_valid"), type_="check")
        batch.create_check_constraint(op.f("ck_number_sequences_kind_valid"), _kinds(NEW_KINDS))


def downgrade() -> None:
    op.execute("DELETE FROM number_sequences WHERE kind = 'data_request'")
    with op.batch_alter_table("number_sequences") as batch:
        batch.drop_constraint(op.f("ck_number_sequences_kind_valid"), type_="check")
        batch.create_check_constraint(op.f("ck_number_sequences_kind_valid"), _kinds(OLD_KINDS))
    with op.batch_alter_table("platform_list_rows") as batch:
        batch.drop_column("discrepancy_detail")
        batch.drop_column("renavam")
        batch.drop_column("cnh")
