"""The Art. 28 costs are reais, not UPFM (issue 23 point 6): a `costs` entry is posted with its reais and no UPFM,
so the ledger's CHECK on the sign of each kind lets costs, and the payments, refunds and reversals that settle,
return or undo them, carry reais only. Rows posted before keep the UPFM they carry (the ledger is append-only).

On SQLite the ledger's CHECKs change by recreating the table (batch mode), which drops its append-only triggers:
they are dropped before and written again after, with the same text as the initial migration (as in 0008).

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-04 02:00:00
"""
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

LEDGER_MESSAGE = ("Lançamentos do livro de multas são somente inclusão: não podem ser alterados nem apagados "
                  "(use um estorno).")
NEW = ("(kind = 'debit' AND amount_upfm > 0)"
       " OR (kind = 'costs' AND amount_upfm >= 0 AND amount_reais > 0)"
       " OR (kind = 'refund' AND amount_upfm >= 0 AND amount_reais >= 0"
       " AND (amount_upfm > 0 OR amount_reais > 0))"
       " OR (kind = 'payment' AND amount_upfm <= 0 AND amount_reais < 0)"
       " OR (kind IN ('reduction', 'requalification') AND amount_upfm < 0)"
       " OR (kind = 'reversal' AND (amount_upfm <> 0 OR amount_reais <> 0))")
OLD = ("(kind IN ('debit', 'costs', 'refund') AND amount_upfm > 0)"
       " OR (kind IN ('payment', 'reduction', 'requalification') AND amount_upfm < 0)"
       " OR (kind = 'reversal' AND amount_upfm <> 0)")


def _sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"


def _sign_check(condition: str) -> None:
    if _sqlite():
        for verb in ("update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS trg_ledger_entries_no_{verb}")
    with op.batch_alter_table("ledger_entries", recreate="always" if _sqlite() else "auto") as batch:
        batch.drop_constraint(op.f("ck_ledger_entries_sign_matches_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_ledger_entries_sign_matches_kind"), condition)
    if _sqlite():
        quoted = LEDGER_MESSAGE.replace("'", "''")
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER trg_ledger_entries_no_{verb.lower()} BEFORE {verb} ON ledger_entries "
                       f"BEGIN SELECT RAISE(ABORT, '{quoted}'); END")


def upgrade() -> None:
    _sign_check(NEW)


def downgrade() -> None:
    # a costs entry of reais only cannot go back under the old CHECK: the downgrade refuses rather than lose it
    _sign_check(OLD)
