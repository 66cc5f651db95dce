"""The código da receita of each kind of debt a DAM collects (issue 28 point 4): one column per purpose on the
municipality's settings row — authorization, renewal and inspection fees, the fine (Art. 25), the ISSQN
(Art. 11) and the Art. 28 costs. Empty: the law does not give the codes, and none is invented.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-04 01:40:00
"""
import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

COLUMNS = ("revenue_code_fee_authorization", "revenue_code_fee_renewal", "revenue_code_fee_inspection",
           "revenue_code_fine", "revenue_code_issqn", "revenue_code_costs")


def upgrade() -> None:
    with op.batch_alter_table("municipality") as batch:
        for name in COLUMNS:
            batch.add_column(sa.Column(name, sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("municipality") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)
