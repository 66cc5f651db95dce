"""A guide for every debt and the bank's return file (issue 13), fee payments as append-only records (issue 12
item 6): `payment_guides` learn the fee they collect, the overdue guide they replace and their late charges;
`fee_payments` is new and append-only (triggers as on the ledger, migration 0001); `bank_return_files` is new and
never deleted (its counts are written once, by the transaction that imports the file).

Revision ID: 0007
Revises: 0011
Create Date: 2026-12-01 12:45:00
"""
import sqlalchemy as sa
from alembic import op

from desktop.models.types import AwareDateTime, Dec

revision = "0007"
down_revision = "0011"  # rechained at integration (chain: 0005 → 0008 → 0011 → 0007)
branch_labels = None
depends_on = None

MESSAGES = {
    "fee_payments": "Os pagamentos de taxas são somente inclusão: não podem ser alterados nem apagados "
                    "(um pagamento devolvido é um novo registro).",
}
NO_DELETE = {"bank_return_files": "Os arquivos de retorno bancário importados não podem ser apagados."}


def upgrade() -> None:
    with op.batch_alter_table("payment_guides") as batch:
        batch.add_column(sa.Column("fee_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("replaces_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("late_charges_reais", Dec(2), nullable=True))
        batch.create_foreign_key(op.f("fk_payment_guides_fee_id_fees"), "fees", ["fee_id"], ["id"])
        batch.create_foreign_key(op.f("fk_payment_guides_replaces_id_payment_guides"), "payment_guides",
                                 ["replaces_id"], ["id"])
        batch.create_index(op.f("ix_payment_guides_fee_id"), ["fee_id"], unique=False)
        batch.create_unique_constraint(op.f("uq_payment_guides_replaces_id"), ["replaces_id"])
    op.create_table(
        "bank_return_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("nsa", sa.Integer(), nullable=False),
        sa.Column("agreement", sa.String(length=20), nullable=False),
        sa.Column("bank_code", sa.String(length=3), nullable=False),
        sa.Column("generated_on", sa.Date(), nullable=False),
        sa.Column("file_name", sa.String(length=255), nullable=False),
        sa.Column("file_sha256", sa.String(length=64), nullable=False),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.Column("payments", sa.Integer(), nullable=False),
        sa.Column("recorded", sa.Integer(), nullable=False),
        sa.Column("rejected", sa.Integer(), nullable=False),
        sa.Column("total_reais", Dec(2), nullable=False),
        sa.Column("report", sa.Text(), nullable=False),
        sa.Column("imported_by", sa.Integer(), nullable=True),
        sa.Column("imported_at", AwareDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["imported_by"], ["users.id"], name=op.f("fk_bank_return_files_imported_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bank_return_files")),
        sa.UniqueConstraint("agreement", "nsa", name=op.f("uq_bank_return_files_agreement_nsa")),
        sa.UniqueConstraint("file_sha256", name=op.f("uq_bank_return_files_file_sha256")),
    )
    op.create_table(
        "fee_payments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("fee_id", sa.Integer(), nullable=False),
        sa.Column("guide_id", sa.Integer(), nullable=True),
        sa.Column("guide_number", sa.String(length=20), nullable=False),
        sa.Column("paid_on", sa.Date(), nullable=False),
        sa.Column("amount", Dec(2), nullable=False),
        sa.Column("source", sa.String(length=10), nullable=False),
        sa.Column("bank_return_id", sa.Integer(), nullable=True),
        sa.Column("recorded_by", sa.Integer(), nullable=True),
        sa.Column("recorded_at", AwareDateTime(), nullable=False),
        sa.CheckConstraint("amount > 0", name=op.f("ck_fee_payments_amount_positive")),
        sa.CheckConstraint("source IN ('manual', 'bank')", name=op.f("ck_fee_payments_source_valid")),
        sa.ForeignKeyConstraint(["bank_return_id"], ["bank_return_files.id"],
                                name=op.f("fk_fee_payments_bank_return_id_bank_return_files")),
        sa.ForeignKeyConstraint(["fee_id"], ["fees.id"], name=op.f("fk_fee_payments_fee_id_fees")),
        sa.ForeignKeyConstraint(["guide_id"], ["payment_guides.id"],
                                name=op.f("fk_fee_payments_guide_id_payment_guides")),
        sa.ForeignKeyConstraint(["recorded_by"], ["users.id"], name=op.f("fk_fee_payments_recorded_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fee_payments")),
        sa.UniqueConstraint("guide_number", name=op.f("uq_fee_payments_guide_number")),
    )
    op.create_index(op.f("ix_fee_payments_fee_id"), "fee_payments", ["fee_id"], unique=False)
    # The fees already paid before this migration get their payment record (source manual), so every paid
    # fee has one; fees paid without a guide number keep their row as the record.
    op.execute("INSERT INTO fee_payments (fee_id, guide_number, paid_on, amount, source, recorded_by, recorded_at) "
               "SELECT id, guide_number, paid_on, COALESCE(paid_amount, amount_reais), 'manual', created_by, "
               "created_at FROM fees WHERE status = 'paid' AND paid_on IS NOT NULL AND guide_number IS NOT NULL "
               "AND COALESCE(paid_amount, amount_reais) > 0")
    op.execute("UPDATE payment_guides SET fee_id = (SELECT fees.id FROM fees WHERE fees.guide_number = "
               "payment_guides.number) WHERE purpose = 'fee'")
    for table, message in MESSAGES.items():
        _append_only(table, message, ("UPDATE", "DELETE"))
    for table, message in NO_DELETE.items():
        _append_only(table, message, ("DELETE",))


def _append_only(table: str, message: str, verbs: tuple[str, ...]) -> None:
    quoted = message.replace("'", "''")
    if op.get_bind().dialect.name == "sqlite":
        for verb in verbs:
            op.execute(f"CREATE TRIGGER trg_{table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                       f"BEGIN SELECT RAISE(ABORT, '{quoted}'); END")
    else:
        op.execute(f"CREATE TRIGGER trg_{table}_append_only BEFORE {' OR '.join(verbs)} ON {table} "
                   f"FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change('{quoted}')")
        op.execute(f"CREATE TRIGGER trg_{table}_no_truncate BEFORE TRUNCATE ON {table} "
                   f"FOR EACH STATEMENT EXECUTE FUNCTION refuse_append_only_change('{quoted}')")


def downgrade() -> None:
    for table in (*MESSAGES, *NO_DELETE):
        if op.get_bind().dialect.name == "sqlite":
            for verb in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS trg_{table}_no_{verb}")
        else:
            op.execute(f"DROP TRIGGER IF EXISTS trg_{table}_append_only ON {table}")
            op.execute(f"DROP TRIGGER IF EXISTS trg_{table}_no_truncate ON {table}")
    op.drop_index(op.f("ix_fee_payments_fee_id"), table_name="fee_payments")
    op.drop_table("fee_payments")
    op.drop_table("bank_return_files")
    with op.batch_alter_table("payment_guides") as batch:
        batch.drop_constraint(op.f("uq_payment_guides_replaces_id"), type_="unique")
        batch.drop_index(op.f("ix_payment_guides_fee_id"))
        batch.drop_constraint(op.f("fk_payment_guides_replaces_id_payment_guides"), type_="foreignkey")
        batch.drop_constraint(op.f("fk_payment_guides_fee_id_fees"), type_="foreignkey")
        batch.drop_column("late_charges_reais")
        batch.drop_column("replaces_id")
        batch.drop_column("fee_id")
