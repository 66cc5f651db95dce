"""ISSQN per vehicle (issue 13, Art. 11): estimation classes become dated rows (a new base is a new row of the
same code, never an edit), the gestor's dated class decision per vehicle, the designation of the one platform
that collects a vehicle's tax, and the shares of each monthly estimate per platform (or per driver, the
substitute taxpayer), each pointing at its payment guide. The ISSQN parameters take the keys of issue 13
(`issqn_rate_percent`, `issqn_pro_rata`); stored rows keep their values and dates.

Revision ID: 0006
Revises: 0012
Create Date: 2026-12-01 12:45:00
"""
import sqlalchemy as sa
from alembic import op

from desktop.models.types import AwareDateTime, Dec

revision = "0006"
down_revision = "0012"  # rechained at integration (chain: 0005 → 0008 → 0011 → 0007 → 0012 → 0006)
branch_labels = None
depends_on = None

RENAMED_KEYS = (("iss.rate", "issqn_rate_percent"), ("issqn.pro_rata", "issqn_pro_rata"))


def upgrade() -> None:
    with op.batch_alter_table("issqn_classes", schema=None) as batch_op:
        # rows from before this revision are valid from the law's publication (Art. 30)
        batch_op.add_column(sa.Column("valid_from", sa.Date(), nullable=False, server_default="2025-06-04"))
        batch_op.add_column(sa.Column("valid_until", sa.Date(), nullable=True))
        batch_op.add_column(sa.Column("created_by", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("reason", sa.Text(), nullable=True))
        batch_op.drop_constraint(batch_op.f("uq_issqn_classes_code"), type_="unique")
        batch_op.create_unique_constraint(batch_op.f("uq_issqn_classes_code_valid_from"), ["code", "valid_from"])
        batch_op.create_foreign_key(batch_op.f("fk_issqn_classes_created_by_users"), "users", ["created_by"], ["id"])
        batch_op.create_check_constraint(batch_op.f("ck_issqn_classes_validity_range"),
                                         "valid_until IS NULL OR valid_until >= valid_from")
    with op.batch_alter_table("issqn_classes", schema=None) as batch_op:
        batch_op.alter_column("valid_from", server_default=None, existing_type=sa.Date(), existing_nullable=False)

    # 0001's CHECK (rate BETWEEN 2 AND 5) refused every rate on SQLite (Dec(4) is stored scaled there: 3 % is
    # 30000); the bounds are the domain's and the parameter's (LC 116/2003 arts. 8 II, 8-A).
    with op.batch_alter_table("issqn_estimates", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_issqn_estimates_rate_range"), type_="check")
        batch_op.create_check_constraint(batch_op.f("ck_issqn_estimates_rate_positive"), "rate > 0")

    op.create_table(
        "issqn_platform_designations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("vehicle_id", sa.Integer(), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=True),
        sa.Column("valid_from", sa.Date(), nullable=False),
        sa.Column("decided_by", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", AwareDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["decided_by"], ["users.id"],
                                name=op.f("fk_issqn_platform_designations_decided_by_users")),
        sa.ForeignKeyConstraint(["platform_id"], ["platforms.id"],
                                name=op.f("fk_issqn_platform_designations_platform_id_platforms")),
        sa.ForeignKeyConstraint(["vehicle_id"], ["vehicles.id"],
                                name=op.f("fk_issqn_platform_designations_vehicle_id_vehicles")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_issqn_platform_designations")),
    )
    with op.batch_alter_table("issqn_platform_designations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_issqn_platform_designations_vehicle_id_valid_from"),
                              ["vehicle_id", "valid_from"], unique=False)

    op.create_table(
        "vehicle_issqn_classes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("vehicle_id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("valid_from", sa.Date(), nullable=False),
        sa.Column("decided_by", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", AwareDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["issqn_classes.id"],
                                name=op.f("fk_vehicle_issqn_classes_class_id_issqn_classes")),
        sa.ForeignKeyConstraint(["decided_by"], ["users.id"], name=op.f("fk_vehicle_issqn_classes_decided_by_users")),
        sa.ForeignKeyConstraint(["vehicle_id"], ["vehicles.id"],
                                name=op.f("fk_vehicle_issqn_classes_vehicle_id_vehicles")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vehicle_issqn_classes")),
    )
    with op.batch_alter_table("vehicle_issqn_classes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_vehicle_issqn_classes_vehicle_id_valid_from"),
                              ["vehicle_id", "valid_from"], unique=False)

    op.create_table(
        "issqn_shares",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("estimate_id", sa.Integer(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("month", sa.Integer(), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=True),
        sa.Column("driver_id", sa.Integer(), nullable=True),
        sa.Column("amount", Dec(2), nullable=False),
        sa.Column("guide_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("cancel_reason", sa.Text(), nullable=True),
        sa.Column("replaces_id", sa.Integer(), nullable=True),
        sa.Column("created_at", AwareDateTime(), nullable=False),
        sa.CheckConstraint("status <> 'cancelled' OR cancel_reason IS NOT NULL",
                           name=op.f("ck_issqn_shares_cancel_has_reason")),
        sa.CheckConstraint("status IN ('open', 'cancelled')", name=op.f("ck_issqn_shares_status_valid")),
        sa.CheckConstraint("(platform_id IS NULL) <> (driver_id IS NULL)",
                           name=op.f("ck_issqn_shares_platform_or_driver")),
        sa.CheckConstraint("amount > 0", name=op.f("ck_issqn_shares_amount_positive")),
        sa.ForeignKeyConstraint(["driver_id"], ["drivers.id"], name=op.f("fk_issqn_shares_driver_id_drivers")),
        sa.ForeignKeyConstraint(["estimate_id"], ["issqn_estimates.id"],
                                name=op.f("fk_issqn_shares_estimate_id_issqn_estimates")),
        sa.ForeignKeyConstraint(["guide_id"], ["payment_guides.id"],
                                name=op.f("fk_issqn_shares_guide_id_payment_guides")),
        sa.ForeignKeyConstraint(["platform_id"], ["platforms.id"], name=op.f("fk_issqn_shares_platform_id_platforms")),
        sa.ForeignKeyConstraint(["replaces_id"], ["issqn_shares.id"],
                                name=op.f("fk_issqn_shares_replaces_id_issqn_shares")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_issqn_shares")),
    )
    with op.batch_alter_table("issqn_shares", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_issqn_shares_estimate_id"), ["estimate_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_issqn_shares_guide_id"), ["guide_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_issqn_shares_replaces_id"), ["replaces_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_issqn_shares_year_month_platform_id_status"),
                              ["year", "month", "platform_id", "status"], unique=False)

    parameters = sa.table("parameters", sa.column("key", sa.String))
    for old, new in RENAMED_KEYS:
        op.execute(parameters.update().where(parameters.c.key == old).values(key=new))


def downgrade() -> None:
    parameters = sa.table("parameters", sa.column("key", sa.String))
    for old, new in RENAMED_KEYS:
        op.execute(parameters.update().where(parameters.c.key == new).values(key=old))
    with op.batch_alter_table("issqn_shares", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_issqn_shares_year_month_platform_id_status"))
        batch_op.drop_index(batch_op.f("ix_issqn_shares_replaces_id"))
        batch_op.drop_index(batch_op.f("ix_issqn_shares_guide_id"))
        batch_op.drop_index(batch_op.f("ix_issqn_shares_estimate_id"))
    op.drop_table("issqn_shares")
    with op.batch_alter_table("vehicle_issqn_classes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_vehicle_issqn_classes_vehicle_id_valid_from"))
    op.drop_table("vehicle_issqn_classes")
    with op.batch_alter_table("issqn_platform_designations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_issqn_platform_designations_vehicle_id_valid_from"))
    op.drop_table("issqn_platform_designations")
    with op.batch_alter_table("issqn_estimates", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_issqn_estimates_rate_positive"), type_="check")
        batch_op.create_check_constraint(batch_op.f("ck_issqn_estimates_rate_range"), "rate BETWEEN 2 AND 5")
    with op.batch_alter_table("issqn_classes", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_issqn_classes_validity_range"), type_="check")
        batch_op.drop_constraint(batch_op.f("fk_issqn_classes_created_by_users"), type_="foreignkey")
        batch_op.drop_constraint(batch_op.f("uq_issqn_classes_code_valid_from"), type_="unique")
        batch_op.create_unique_constraint(batch_op.f("uq_issqn_classes_code"), ["code"])
        batch_op.drop_column("reason")
        batch_op.drop_column("created_by")
        batch_op.drop_column("valid_until")
        batch_op.drop_column("valid_from")
