"""Trip data (issue 15, Art. 4): trip files imported (`trip_imports`), the fare composition as columns, the hail
type, the duration and the local month of each trip (indexed for the monthly fares), route points, the access log
of trips (LGPD) and the trips kept as evidence of an auto (past the retention period).

The first wave's indexes on (driver_cpf, started_at), (plate, started_at) and data_request_id are replaced by
(month, driver_cpf, plate) and (vehicle_id, month): every query of trips is by month, and fewer indexes keep the
bulk import fast (NOTES: each live index costs the executemany).

Revision ID: 0010
Revises: 0006
Create Date: 2026-12-01 12:30:00
"""
import sqlalchemy as sa
from alembic import op

from desktop.models.types import AwareDateTime, Dec, JSONData

revision = "0010"
down_revision = "0006"  # rechained at integration (chain: 0005 → 0008 → 0011 → 0007 → 0012 → 0006 → 0010)
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "trip_imports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("data_request_id", sa.Integer(), nullable=True),
        sa.Column("filename", sa.String(length=255), nullable=False),
        sa.Column("file_sha256", sa.String(length=64), nullable=False),
        sa.Column("file_format", sa.String(length=10), nullable=False),
        sa.Column("routes_filename", sa.String(length=255), nullable=True),
        sa.Column("trip_count", sa.Integer(), nullable=False),
        sa.Column("route_point_count", sa.Integer(), nullable=False),
        sa.Column("dropped_columns", JSONData(), nullable=True),
        sa.Column("ignored_columns", JSONData(), nullable=True),
        sa.Column("imported_by", sa.Integer(), nullable=True),
        sa.Column("created_at", AwareDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["data_request_id"], ["data_requests.id"],
                                name=op.f("fk_trip_imports_data_request_id_data_requests")),
        sa.ForeignKeyConstraint(["imported_by"], ["users.id"], name=op.f("fk_trip_imports_imported_by_users")),
        sa.ForeignKeyConstraint(["platform_id"], ["platforms.id"], name=op.f("fk_trip_imports_platform_id_platforms")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trip_imports")),
        sa.UniqueConstraint("platform_id", "file_sha256", name=op.f("uq_trip_imports_platform_id_file_sha256")),
    )
    with op.batch_alter_table("trip_imports", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_trip_imports_platform_id"), ["platform_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_trip_imports_data_request_id"), ["data_request_id"], unique=False)

    with op.batch_alter_table("trip_rows", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_trip_rows_data_request_id"))
        batch_op.drop_index(batch_op.f("ix_trip_rows_driver_cpf_started_at"))
        batch_op.drop_index(batch_op.f("ix_trip_rows_plate_started_at"))
        batch_op.add_column(sa.Column("import_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("month", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("duration_s", sa.Integer(), nullable=True))
        for name in ("fare_base", "fare_distance", "fare_time", "fare_platform", "fare_other"):
            batch_op.add_column(sa.Column(name, Dec(2), nullable=True))
        batch_op.add_column(sa.Column("hail_type", sa.String(length=20), nullable=True))
        batch_op.create_foreign_key(batch_op.f("fk_trip_rows_import_id_trip_imports"), "trip_imports",
                                    ["import_id"], ["id"])
        batch_op.create_index(batch_op.f("ix_trip_rows_month_driver_cpf_plate"), ["month", "driver_cpf", "plate"],
                              unique=False)
        batch_op.create_index(batch_op.f("ix_trip_rows_vehicle_id_month"), ["vehicle_id", "month"], unique=False)

    op.create_table(
        "trip_fare_totals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("import_id", sa.Integer(), nullable=True),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("month", sa.Integer(), nullable=False),
        sa.Column("driver_cpf", sa.String(length=11), nullable=True),
        sa.Column("plate", sa.String(length=7), nullable=True),
        sa.Column("driver_id", sa.Integer(), nullable=True),
        sa.Column("vehicle_id", sa.Integer(), nullable=True),
        sa.Column("trips", sa.Integer(), nullable=False),
        sa.Column("distance_km", Dec(3), nullable=False),
        sa.Column("duration_s", sa.BigInteger(), nullable=False),
        *[sa.Column(name, Dec(2), nullable=False) for name in (
            "fare_total", "fare_base", "fare_distance", "fare_time", "fare_platform", "fare_other", "rating_sum")],
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["driver_id"], ["drivers.id"], name=op.f("fk_trip_fare_totals_driver_id_drivers")),
        sa.ForeignKeyConstraint(["import_id"], ["trip_imports.id"],
                                name=op.f("fk_trip_fare_totals_import_id_trip_imports")),
        sa.ForeignKeyConstraint(["platform_id"], ["platforms.id"],
                                name=op.f("fk_trip_fare_totals_platform_id_platforms")),
        sa.ForeignKeyConstraint(["vehicle_id"], ["vehicles.id"], name=op.f("fk_trip_fare_totals_vehicle_id_vehicles")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trip_fare_totals")),
    )
    with op.batch_alter_table("trip_fare_totals", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_trip_fare_totals_import_id"), ["import_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_trip_fare_totals_month_driver_cpf_plate"),
                              ["month", "driver_cpf", "plate"], unique=False)

    op.create_table(
        "trip_route_points",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("trip_id", sa.Integer(), nullable=False),
        sa.Column("at", AwareDateTime(), nullable=False),
        sa.Column("lat", sa.Double(), nullable=False),
        sa.Column("lon", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["trip_id"], ["trip_rows.id"], name=op.f("fk_trip_route_points_trip_id_trip_rows"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trip_route_points")),
    )
    with op.batch_alter_table("trip_route_points", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_trip_route_points_trip_id_at"), ["trip_id", "at"], unique=False)

    op.create_table(
        "trip_access_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", AwareDateTime(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=10), nullable=False),
        sa.Column("what", sa.String(length=200), nullable=False),
        sa.Column("trip_count", sa.Integer(), nullable=False),
        sa.Column("trip_ids", JSONData(), nullable=True),
        sa.CheckConstraint("action IN ('view', 'export')", name=op.f("ck_trip_access_log_action_valid")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_trip_access_log_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trip_access_log")),
    )
    with op.batch_alter_table("trip_access_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_trip_access_log_at"), ["at"], unique=False)

    op.create_table(
        "auto_trip_evidence",
        sa.Column("auto_id", sa.Integer(), nullable=False),
        sa.Column("trip_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["auto_id"], ["autos.id"], name=op.f("fk_auto_trip_evidence_auto_id_autos")),
        sa.ForeignKeyConstraint(["trip_id"], ["trip_rows.id"], name=op.f("fk_auto_trip_evidence_trip_id_trip_rows")),
        sa.PrimaryKeyConstraint("auto_id", "trip_id", name=op.f("pk_auto_trip_evidence")),
    )
    with op.batch_alter_table("auto_trip_evidence", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_auto_trip_evidence_trip_id"), ["trip_id"], unique=False)


def downgrade() -> None:
    op.drop_table("auto_trip_evidence")
    op.drop_table("trip_access_log")
    op.drop_table("trip_route_points")
    op.drop_table("trip_fare_totals")
    with op.batch_alter_table("trip_rows", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_trip_rows_vehicle_id_month"))
        batch_op.drop_index(batch_op.f("ix_trip_rows_month_driver_cpf_plate"))
        batch_op.drop_constraint(batch_op.f("fk_trip_rows_import_id_trip_imports"), type_="foreignkey")
        for name in ("hail_type", "fare_other", "fare_platform", "fare_time", "fare_distance", "fare_base",
                     "duration_s", "month", "import_id"):
            batch_op.drop_column(name)
        batch_op.create_index(batch_op.f("ix_trip_rows_plate_started_at"), ["plate", "started_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_trip_rows_driver_cpf_started_at"), ["driver_cpf", "started_at"],
                              unique=False)
        batch_op.create_index(batch_op.f("ix_trip_rows_data_request_id"), ["data_request_id"], unique=False)
    op.drop_table("trip_imports")
