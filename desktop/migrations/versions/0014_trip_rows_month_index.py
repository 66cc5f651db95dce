"""Trips keep one secondary index, on the month (issue 15 bench): every query of trip rows filters by month —
the infractions of a month, the open statistics, the retention routine — and the monthly fares, a vehicle's
fares included, read `trip_fare_totals`. The import of 1,000,000 trips rebuilt the two former indexes in 1.4 s
of its 7.9 s; the month index alone takes 0.2 s.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01 16:00:00
"""
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_trip_rows_vehicle_id_month", table_name="trip_rows")
    op.drop_index("ix_trip_rows_month_driver_cpf_plate", table_name="trip_rows")
    op.create_index("ix_trip_rows_month", "trip_rows", ["month"])


def downgrade() -> None:
    op.drop_index("ix_trip_rows_month", table_name="trip_rows")
    op.create_index("ix_trip_rows_month_driver_cpf_plate", "trip_rows", ["month", "driver_cpf", "plate"])
    op.create_index("ix_trip_rows_vehicle_id_month", "trip_rows", ["vehicle_id", "month"])
