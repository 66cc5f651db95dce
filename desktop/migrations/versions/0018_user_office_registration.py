"""Issue 28 point 2: a user carries the office (cargo) and registration number (matrícula) that every act they
sign prints beside their full name (Lei 9.784/99, art. 22, §1º: the act names its author and is signed by them).
Existing users get empty texts; the administrador fills them in Administração → Usuários, and an act is refused
to a signer without them.

Revision ID: 0018
Revises: 0014
Create Date: 2026-12-02 14:40:00
"""
import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"  # chain: 0014 → 0015 (money) → 0016 (process) → 0017 (edges) → 0018 (documents) → 0019 (correspondence)
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("office", sa.String(120), nullable=False, server_default=""))
        batch.add_column(sa.Column("registration", sa.String(40), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("registration")
        batch.drop_column("office")
