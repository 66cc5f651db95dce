"""The administrative process as the law writes it (issue 24): every decision of the authority is a numbered act
(`auto_judgments.number`, series `number_sequences.kind` "decision"; Art. 26 §2 "pela autoridade administrativa"),
including the decision that applies a penalty to an auto final without defense (instance "penalty"); a notice can
be of a decision (`auto_notifications.judgment_id`: the appeal term runs from the joining of its proof, Art. 22 §2,
kept in `autos.decision_notice_joined_on`) or the platform's copy (`auto_notifications.platform_id`, Art. 22
caput); the auto keeps the moment it was drawn up (`autos.lavrado_at`, SPEC Art. 25) beside the infraction's.

Revision ID: 0016
Revises: 0014
Create Date: 2026-12-02 14:40:00
"""
import sqlalchemy as sa
from alembic import op

import desktop.models.types

revision = "0016"
down_revision = "0015"  # chain: 0014 → 0015 (money) → 0016 (process) → 0017 (edges) → 0018 (documents) → 0019 (correspondence)
branch_labels = None
depends_on = None

OLD_KINDS = ("authorization", "auto", "guide", "document", "data_request")
NEW_KINDS = OLD_KINDS + ("decision",)


def _kinds(kinds) -> str:
    return "kind IN (" + ", ".join(f"'{k}'" for k in kinds) + ")"


def upgrade() -> None:
    with op.batch_alter_table("number_sequences") as batch:
        batch.drop_constraint(op.f("ck_number_sequences_kind_valid"), type_="check")
        batch.create_check_constraint(op.f("ck_number_sequences_kind_valid"), _kinds(NEW_KINDS))
    with op.batch_alter_table("auto_judgments") as batch:
        batch.add_column(sa.Column("number", sa.String(length=20), nullable=True))
        batch.create_unique_constraint(op.f("uq_auto_judgments_number"), ["number"])
    with op.batch_alter_table("auto_notifications") as batch:
        batch.add_column(sa.Column("judgment_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("platform_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(op.f("fk_auto_notifications_judgment_id_auto_judgments"), "auto_judgments",
                                 ["judgment_id"], ["id"])
        batch.create_foreign_key(op.f("fk_auto_notifications_platform_id_platforms"), "platforms",
                                 ["platform_id"], ["id"])
    with op.batch_alter_table("autos") as batch:
        batch.add_column(sa.Column("decision_notice_joined_on", sa.Date(), nullable=True))
        batch.add_column(sa.Column("lavrado_at", desktop.models.types.AwareDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("autos") as batch:
        batch.drop_column("lavrado_at")
        batch.drop_column("decision_notice_joined_on")
    with op.batch_alter_table("auto_notifications") as batch:
        batch.drop_constraint(op.f("fk_auto_notifications_platform_id_platforms"), type_="foreignkey")
        batch.drop_constraint(op.f("fk_auto_notifications_judgment_id_auto_judgments"), type_="foreignkey")
        batch.drop_column("platform_id")
        batch.drop_column("judgment_id")
    with op.batch_alter_table("auto_judgments") as batch:
        batch.drop_constraint(op.f("uq_auto_judgments_number"), type_="unique")
        batch.drop_column("number")
    op.execute("DELETE FROM number_sequences WHERE kind = 'decision'")
    with op.batch_alter_table("number_sequences") as batch:
        batch.drop_constraint(op.f("ck_number_sequences_kind_valid"), type_="check")
        batch.create_check_constraint(op.f("ck_number_sequences_kind_valid"), _kinds(OLD_KINDS))
