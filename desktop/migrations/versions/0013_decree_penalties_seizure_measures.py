"""Issue 12 (second pass): the penalties a decree code names, stored with the code row
(`infraction_codes.penalties`, Art. 29; Art. 24, I), and the article an administrative measure carries out when a
decision ordered it (`administrative_measures.article`: the seizure of Art. 27, parágrafo único; Art. 24, II, d).

Revision ID: 0013
Revises: 0010
Create Date: 2026-12-01 13:40:00
"""
import sqlalchemy as sa
from alembic import op

from desktop.models.types import JSONData

revision = "0013"
down_revision = "0010"  # rechained at integration (chain: 0005 → 0008 → 0011 → 0007 → 0012 → 0006 → 0010 → 0013)
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("infraction_codes") as batch:
        batch.add_column(sa.Column("penalties", JSONData(), nullable=True))
    with op.batch_alter_table("administrative_measures") as batch:
        batch.add_column(sa.Column("article", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("administrative_measures") as batch:
        batch.drop_column("article")
    with op.batch_alter_table("infraction_codes") as batch:
        batch.drop_column("penalties")
