"""A data request that leaves out any of Art. 4 §1 I-VI says why (issue 24 item 12): data_requests.narrowing_reason.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-03 09:20:00
"""
import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("data_requests") as batch:
        batch.add_column(sa.Column("narrowing_reason", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("data_requests") as batch:
        batch.drop_column("narrowing_reason")
