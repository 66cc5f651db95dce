"""Money follows its debt (issue 23): the bank's payments that match no open guide are kept as unreconciled
payments for a gestor to assign or return (never deleted: a trigger refuses it), the municipality's collecting
bank is configured beside its FEBRABAN code (a return file of another bank is refused), and the ISSQN shares left
on a guide that was reissued or cancelled before this version follow it (the reissued guide covers them; a
cancelled one leaves them open without a guide, so the month can be guided again).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02 15:00:00
"""
import sqlalchemy as sa
from alembic import op

from desktop.models.types import AwareDateTime, Dec

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

NO_DELETE = "Os pagamentos não conciliados do retorno bancário não podem ser apagados."


def upgrade() -> None:
    with op.batch_alter_table("municipality") as batch:
        batch.add_column(sa.Column("febraban_bank", sa.String(length=3), nullable=True))
    op.create_table(
        "unreconciled_payments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bank_return_id", sa.Integer(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("barcode", sa.String(length=48), nullable=False),
        sa.Column("amount", Dec(2), nullable=False),
        sa.Column("paid_on", sa.Date(), nullable=False),
        sa.Column("credited_on", sa.Date(), nullable=True),
        sa.Column("authentication", sa.String(length=30), nullable=True),
        sa.Column("problem", sa.Text(), nullable=False),
        sa.Column("guide_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("resolved_guide_id", sa.Integer(), nullable=True),
        sa.Column("resolution_reason", sa.Text(), nullable=True),
        sa.Column("resolved_by", sa.Integer(), nullable=True),
        sa.Column("resolved_at", AwareDateTime(), nullable=True),
        sa.CheckConstraint("amount > 0", name=op.f("ck_unreconciled_payments_amount_positive")),
        sa.CheckConstraint("status = 'open' OR resolution_reason IS NOT NULL",
                           name=op.f("ck_unreconciled_payments_resolution_has_reason")),
        sa.CheckConstraint("status IN ('open', 'assigned', 'returned')",
                           name=op.f("ck_unreconciled_payments_status_valid")),
        sa.ForeignKeyConstraint(["bank_return_id"], ["bank_return_files.id"],
                                name=op.f("fk_unreconciled_payments_bank_return_id_bank_return_files")),
        sa.ForeignKeyConstraint(["guide_id"], ["payment_guides.id"],
                                name=op.f("fk_unreconciled_payments_guide_id_payment_guides")),
        sa.ForeignKeyConstraint(["resolved_guide_id"], ["payment_guides.id"],
                                name=op.f("fk_unreconciled_payments_resolved_guide_id_payment_guides")),
        sa.ForeignKeyConstraint(["resolved_by"], ["users.id"],
                                name=op.f("fk_unreconciled_payments_resolved_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_unreconciled_payments")),
        sa.UniqueConstraint("bank_return_id", "line", name=op.f("uq_unreconciled_payments_bank_return_id_line")),
    )
    op.create_index(op.f("ix_unreconciled_payments_bank_return_id"), "unreconciled_payments", ["bank_return_id"],
                    unique=False)
    op.create_index(op.f("ix_unreconciled_payments_status"), "unreconciled_payments", ["status"], unique=False)
    quoted = NO_DELETE.replace("'", "''")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("CREATE TRIGGER trg_unreconciled_payments_no_delete BEFORE DELETE ON unreconciled_payments "
                   f"BEGIN SELECT RAISE(ABORT, '{quoted}'); END")
    else:
        op.execute("CREATE TRIGGER trg_unreconciled_payments_append_only BEFORE DELETE ON unreconciled_payments "
                   f"FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change('{quoted}')")
        op.execute("CREATE TRIGGER trg_unreconciled_payments_no_truncate BEFORE TRUNCATE ON unreconciled_payments "
                   f"FOR EACH STATEMENT EXECUTE FUNCTION refuse_append_only_change('{quoted}')")
    # ISSQN shares still open on a guide that a newer guide replaced (reissued on the Guias screen): the newest
    # guide of the chain covers them. Repeated until no share points at a replaced guide (chains of reissues).
    for _ in range(20):
        op.execute("UPDATE issqn_shares SET guide_id = (SELECT g.id FROM payment_guides g WHERE g.replaces_id = "
                   "issqn_shares.guide_id) WHERE status = 'open' AND guide_id IN (SELECT replaces_id FROM "
                   "payment_guides WHERE replaces_id IS NOT NULL AND purpose = 'issqn')")
    # ... and those on a guide cancelled without a replacement leave it: open, without a guide, issuable again.
    op.execute("UPDATE issqn_shares SET guide_id = NULL WHERE status = 'open' AND guide_id IN (SELECT id FROM "
               "payment_guides WHERE status = 'cancelled')")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS trg_unreconciled_payments_no_delete")
    else:
        op.execute("DROP TRIGGER IF EXISTS trg_unreconciled_payments_append_only ON unreconciled_payments")
        op.execute("DROP TRIGGER IF EXISTS trg_unreconciled_payments_no_truncate ON unreconciled_payments")
    op.drop_index(op.f("ix_unreconciled_payments_status"), table_name="unreconciled_payments")
    op.drop_index(op.f("ix_unreconciled_payments_bank_return_id"), table_name="unreconciled_payments")
    op.drop_table("unreconciled_payments")
    with op.batch_alter_table("municipality") as batch:
        batch.drop_column("febraban_bank")
