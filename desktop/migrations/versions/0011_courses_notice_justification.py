"""Courses (issue 16, Art. 12 §2): a session's end time, the convocation notice's number on each convocation, the
document that justifies an excused absence and the Art. 26, III auto drawn up for an unjustified one. And the
indexes of the home dashboard's counts (bench/bench_dashboard.py, 100,000 drivers): renewals and validities
ending, annual inspections due, stickers to print, vehicles in their last service year, documents expiring.

Revision ID: 0011
Revises: 0008
Create Date: 2026-12-01 12:30:00
"""
import sqlalchemy as sa
from alembic import op

from desktop.models.types import AwareDateTime

revision = "0011"
down_revision = "0008"  # rechained at integration (chain: 0005 → 0008 → 0011)
branch_labels = None
depends_on = None


INDEXES = (
    ("ix_authorizations_status_valid_until_renewal_requested_on", "authorizations",
     ["status", "valid_until", "renewal_requested_on"]),
    ("ix_authorizations_status_activation_dates", "authorizations",
     ["status", "activated_on", "inspection_approved_on", "fee_paid_on"]),
    ("ix_authorization_events_kind_authorization_id_effective_on", "authorization_events",
     ["kind", "authorization_id", "effective_on"]),
    ("ix_vehicles_manufacture_year", "vehicles", ["manufacture_year"]),
    ("ix_drivers_cnh_expiry", "drivers", ["cnh_expiry"]),
    ("ix_driver_checklist_items_expires_on_requirement_driver_id", "driver_checklist_items",
     ["expires_on", "requirement", "driver_id"]),
)


def upgrade() -> None:
    with op.batch_alter_table("course_sessions") as batch:
        batch.add_column(sa.Column("ends_at", AwareDateTime(), nullable=True))
    with op.batch_alter_table("course_attendances") as batch:
        batch.add_column(sa.Column("notice_number", sa.String(20), nullable=True))
        batch.add_column(sa.Column("justification_document_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("auto_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_course_attendances_justification_document_id_documents", "documents",
                                 ["justification_document_id"], ["id"])
        batch.create_foreign_key("fk_course_attendances_auto_id_autos", "autos", ["auto_id"], ["id"])
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)


def downgrade() -> None:
    for name, table, _columns in reversed(INDEXES):
        op.drop_index(name, table_name=table)
    with op.batch_alter_table("course_attendances") as batch:
        batch.drop_constraint("fk_course_attendances_auto_id_autos", type_="foreignkey")
        batch.drop_constraint("fk_course_attendances_justification_document_id_documents", type_="foreignkey")
        batch.drop_column("auto_id")
        batch.drop_column("justification_document_id")
        batch.drop_column("notice_number")
    with op.batch_alter_table("course_sessions") as batch:
        batch.drop_column("ends_at")
