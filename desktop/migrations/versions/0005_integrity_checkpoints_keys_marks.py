"""Integrity against an insider (issue 11): signed checkpoints of the audit chain (append-only), the public
signing keys with their validity periods (the municipality's current public key is copied in), the marks a
database carries about itself (`demo`, the PostgreSQL roles), and the private signing key LEAVES the database:
it is written to the key store of the desk that runs this migration (desktop.keystore) and its column dropped.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 10:00:00
"""
import hashlib
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from desktop.models.types import AwareDateTime

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

CHECKPOINT_MESSAGE = ("Os pontos de verificação do registro de auditoria são somente inclusão: não podem ser "
                      "alterados nem apagados.")


def upgrade() -> None:
    op.create_table(
        "audit_checkpoints",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", AwareDateTime(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("last_id", sa.Integer(), nullable=False),
        sa.Column("last_hash", sa.String(length=64), nullable=False),
        sa.Column("entry_count", sa.Integer(), nullable=False),
        sa.Column("key_fingerprint", sa.String(length=64), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("signature", sa.String(length=100), nullable=False),
        sa.Column("made_by", sa.String(length=60), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_audit_checkpoints_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_checkpoints")),
    )
    op.create_table(
        "signing_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("valid_from", AwareDateTime(), nullable=False),
        sa.Column("valid_to", AwareDateTime(), nullable=True),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("holder", sa.Text(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], name=op.f("fk_signing_keys_created_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signing_keys")),
        sa.UniqueConstraint("fingerprint", name=op.f("uq_signing_keys_fingerprint")),
    )
    op.create_table(
        "database_marks",
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("at", AwareDateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_database_marks")),
    )
    _append_only("audit_checkpoints", CHECKPOINT_MESSAGE)
    # The key made at set-up keeps verifying what it signed: its public half becomes the first period, and
    # its private half leaves the database for the key store of the desk that runs this migration.
    bind = op.get_bind()
    row = bind.execute(sa.text("SELECT signing_public_key, signing_private_key FROM municipality "
                               "WHERE id = 1")).first()
    if row is not None and row[0]:
        public = bytes(row[0])
        holder = ""
        if row[1]:
            from desktop import keystore

            holder = keystore.store(bytes(row[1]))
        keys = sa.table("signing_keys", sa.column("fingerprint"), sa.column("public_key"),
                        sa.column("valid_from", AwareDateTime()), sa.column("holder"), sa.column("note"),
                        sa.column("version"))
        bind.execute(keys.insert().values(
            fingerprint=hashlib.sha256(public).hexdigest(), public_key=public,
            valid_from=datetime(2025, 1, 1, tzinfo=UTC), holder=holder,
            note="Chave criada na configuração inicial", version=1))
    with op.batch_alter_table("municipality") as batch:
        batch.drop_column("signing_private_key")


def _append_only(table: str, message: str) -> None:
    quoted = message.replace("'", "''")
    if op.get_bind().dialect.name == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER trg_{table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                       f"BEGIN SELECT RAISE(ABORT, '{quoted}'); END")
    else:
        op.execute(f"CREATE TRIGGER trg_{table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                   f"FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change('{quoted}')")
        op.execute(f"CREATE TRIGGER trg_{table}_no_truncate BEFORE TRUNCATE ON {table} "
                   f"FOR EACH STATEMENT EXECUTE FUNCTION refuse_append_only_change('{quoted}')")


def downgrade() -> None:
    # The private key stays in the key store: it does not go back into the database.
    with op.batch_alter_table("municipality") as batch:
        batch.add_column(sa.Column("signing_private_key", sa.LargeBinary(), nullable=True))
    if op.get_bind().dialect.name == "sqlite":
        for verb in ("update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS trg_audit_checkpoints_no_{verb}")
    else:
        op.execute("DROP TRIGGER IF EXISTS trg_audit_checkpoints_append_only ON audit_checkpoints")
        op.execute("DROP TRIGGER IF EXISTS trg_audit_checkpoints_no_truncate ON audit_checkpoints")
    op.drop_table("database_marks")
    op.drop_table("signing_keys")
    op.drop_table("audit_checkpoints")
