"""Data requests (issue 24 item 12): one that leaves out any of Art. 4 §1 I-VI says why (narrowing_reason), and a
request may be about one driver or one vehicle (driver_id, vehicle_id), as the manual promised; a course
convocation records the day the proof of its notice was joined (course_attendances.notice_joined_on).

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-03 09:20:00
"""
import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("data_requests") as batch:
        batch.add_column(sa.Column("narrowing_reason", sa.Text(), nullable=True))
        batch.add_column(sa.Column("driver_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("vehicle_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(op.f("fk_data_requests_driver_id_drivers"), "drivers", ["driver_id"], ["id"])
        batch.create_foreign_key(op.f("fk_data_requests_vehicle_id_vehicles"), "vehicles", ["vehicle_id"], ["id"])
    with op.batch_alter_table("course_attendances") as batch:
        batch.add_column(sa.Column("notice_joined_on", sa.Date(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("course_attendances") as batch:
        batch.drop_column("notice_joined_on")
    with op.batch_alter_table("data_requests") as batch:
        batch.drop_constraint(op.f("fk_data_requests_vehicle_id_vehicles"), type_="foreignkey")
        batch.drop_constraint(op.f("fk_data_requests_driver_id_drivers"), type_="foreignkey")
        batch.drop_column("vehicle_id")
        batch.drop_column("driver_id")
        batch.drop_column("narrowing_reason")
