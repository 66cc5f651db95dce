"""Legal results of judgments and payments (issue 12 items 1, 2, 3, 5, 7): the ledger's `requalification` and
`refund` kinds, a reversal only once per entry (unique `reverses_id`, two desks at once either), one bank guide per
ledger payment, the code a partial decision requalifies to, and the infractor's written waiver (desistência).

On SQLite the ledger's CHECKs change by recreating the table (batch mode), which drops its append-only triggers:
they are dropped before and written again after, with the same text as the initial migration.

Revision ID: 0008
Revises: 0005
Create Date: 2026-12-01 12:40:00
"""
import sqlalchemy as sa
from alembic import op

from desktop.models.types import AwareDateTime

revision = "0008"
down_revision = "0005"  # rechained at integration
branch_labels = None
depends_on = None

LEDGER_MESSAGE = ("Lançamentos do livro de multas são somente inclusão: não podem ser alterados nem apagados "
                  "(use um estorno).")
PAYMENT_GUIDE_WHERE = "kind = 'payment' AND guide_number IS NOT NULL"

NEW = {
    "kind_valid": "kind IN ('debit', 'costs', 'payment', 'reduction', 'reversal', 'requalification', 'refund')",
    "sign_matches_kind": "(kind IN ('debit', 'costs', 'refund') AND amount_upfm > 0)"
                         " OR (kind IN ('payment', 'reduction', 'requalification') AND amount_upfm < 0)"
                         " OR (kind = 'reversal' AND amount_upfm <> 0)",
    "reduction_has_reason": "kind NOT IN ('reduction', 'requalification', 'refund') OR reason IS NOT NULL",
}
OLD = {
    "kind_valid": "kind IN ('debit', 'costs', 'payment', 'reduction', 'reversal')",
    "sign_matches_kind": "(kind IN ('debit', 'costs') AND amount_upfm > 0)"
                         " OR (kind IN ('payment', 'reduction') AND amount_upfm < 0)"
                         " OR (kind = 'reversal' AND amount_upfm <> 0)",
    "reduction_has_reason": "kind <> 'reduction' OR reason IS NOT NULL",
}


def _sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"


def _drop_ledger_triggers() -> None:
    if _sqlite():
        for verb in ("update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS trg_ledger_entries_no_{verb}")


def _create_ledger_triggers() -> None:
    if _sqlite():
        quoted = LEDGER_MESSAGE.replace("'", "''")
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER trg_ledger_entries_no_{verb.lower()} BEFORE {verb} ON ledger_entries "
                       f"BEGIN SELECT RAISE(ABORT, '{quoted}'); END")


def _ledger_checks(checks: dict) -> None:
    _drop_ledger_triggers()
    with op.batch_alter_table("ledger_entries", recreate="always" if _sqlite() else "auto") as batch:
        for name, condition in checks.items():
            batch.drop_constraint(op.f(f"ck_ledger_entries_{name}"), type_="check")
            batch.create_check_constraint(op.f(f"ck_ledger_entries_{name}"), condition)
    _create_ledger_triggers()


def upgrade() -> None:
    _ledger_checks(NEW)
    op.create_index("uq_ledger_entries_reverses_id", "ledger_entries", ["reverses_id"], unique=True)
    op.create_index("uq_ledger_entries_payment_guide", "ledger_entries", ["guide_number"], unique=True,
                    sqlite_where=sa.text(PAYMENT_GUIDE_WHERE), postgresql_where=sa.text(PAYMENT_GUIDE_WHERE))
    with op.batch_alter_table("auto_judgments") as batch:
        batch.add_column(sa.Column("requalified_code", sa.String(length=30), nullable=True))
    op.create_table(
        "auto_waivers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("auto_id", sa.Integer(), nullable=False),
        sa.Column("instance", sa.String(length=20), nullable=False),
        sa.Column("filed_on", sa.Date(), nullable=False),
        sa.Column("statement", sa.Text(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("recorded_by", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", AwareDateTime(), nullable=False),
        sa.CheckConstraint("instance IN ('defense', 'appeal')", name=op.f("ck_auto_waivers_instance_valid")),
        sa.ForeignKeyConstraint(["auto_id"], ["autos.id"], name=op.f("fk_auto_waivers_auto_id_autos")),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], name=op.f("fk_auto_waivers_document_id_documents")),
        sa.ForeignKeyConstraint(["recorded_by"], ["users.id"], name=op.f("fk_auto_waivers_recorded_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_auto_waivers")),
    )
    op.create_index(op.f("ix_auto_waivers_auto_id"), "auto_waivers", ["auto_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_auto_waivers_auto_id"), table_name="auto_waivers")
    op.drop_table("auto_waivers")
    with op.batch_alter_table("auto_judgments") as batch:
        batch.drop_column("requalified_code")
    op.drop_index("uq_ledger_entries_payment_guide", table_name="ledger_entries")
    op.drop_index("uq_ledger_entries_reverses_id", table_name="ledger_entries")
    _ledger_checks(OLD)
