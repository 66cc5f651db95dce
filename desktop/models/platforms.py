"""What platforms deliver (Art. 4-5): the 60-day lists of vehicles and drivers (Art. 5 VIII) and the data
requested by the Município (Art. 4), with trip rows that never hold a passenger's identity (Art. 4 caput)."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from desktop.models.base import Base, Created, Versioned, one_of, user_fk
from desktop.models.types import AwareDateTime, Dec, JSONData

DATA_REQUEST_STATUSES = ("draft", "sent", "answered", "cancelled")


class PlatformList(Created, Base):
    """A list delivered by a platform (Art. 5 VIII: every 60 days). Imported all or nothing."""

    __tablename__ = "platform_lists"
    __table_args__ = (
        CheckConstraint("period_end IS NULL OR period_start IS NULL OR period_end >= period_start",
                        name="period_range"),
        Index(None, "platform_id", "received_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platforms.id"))
    received_on: Mapped[date]
    period_start: Mapped[date | None]
    period_end: Mapped[date | None]
    next_due_on: Mapped[date | None]
    filename: Mapped[str] = mapped_column(String(255))
    file_sha256: Mapped[str] = mapped_column(String(64))
    row_count: Mapped[int] = mapped_column(default=0)
    imported_by: Mapped[int | None] = user_fk()

    rows: Mapped[list[PlatformListRow]] = relationship(order_by="PlatformListRow.line_number")


class PlatformListRow(Versioned, Base):
    """One line of a platform list, matched against the register; `discrepancy` names what differs
    (no active authorization, plate-driver pair differs (Art. 8, 13 XIX), ...) and `resolution` what was done."""

    __tablename__ = "platform_list_rows"
    __table_args__ = (UniqueConstraint("list_id", "line_number"), Index(None, "plate"))

    id: Mapped[int] = mapped_column(primary_key=True)
    list_id: Mapped[int] = mapped_column(ForeignKey("platform_lists.id"))
    line_number: Mapped[int]
    plate: Mapped[str | None] = mapped_column(String(7))
    driver_cpf: Mapped[str | None] = mapped_column(String(11), index=True)
    driver_name: Mapped[str | None] = mapped_column(String(200))
    owner_name: Mapped[str | None] = mapped_column(String(200))
    owner_document: Mapped[str | None] = mapped_column(String(14))
    cnh: Mapped[str | None] = mapped_column(String(11))          # as listed (Art. 5 VIII), compared with the register
    renavam: Mapped[str | None] = mapped_column(String(11))
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"))
    driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"))
    discrepancy: Mapped[str | None] = mapped_column(String(40))
    # the findings' details, one per line in the order of `discrepancy`'s codes, computed when reconciled
    discrepancy_detail: Mapped[str | None] = mapped_column(Text)
    resolution: Mapped[str | None] = mapped_column(Text)
    auto_id: Mapped[int | None] = mapped_column(ForeignKey("autos.id"))


class DataRequest(Versioned, Created, Base):
    """A justified request to a platform (Art. 4 caput) for the data of §1 I-VII over a period; when it serves
    an investigation the platform has 24 hours from notification (§2): `due_at = notified_at + 24 h`."""

    __tablename__ = "data_requests"
    __table_args__ = (
        one_of("status", DATA_REQUEST_STATUSES),
        CheckConstraint("period_end >= period_start", name="period_range"),
        CheckConstraint("length(justification) > 0", name="justified"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str | None] = mapped_column(String(20), unique=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platforms.id"), index=True)
    justification: Mapped[str] = mapped_column(Text)
    period_start: Mapped[date]
    period_end: Mapped[date]
    # Art. 4 §1: I origin and destination; II time and distance; III route map; IV driver;
    # V fare composition; VI rating; VII other data (described).
    want_origin_destination: Mapped[bool] = mapped_column(default=True)
    want_time_distance: Mapped[bool] = mapped_column(default=True)
    want_route: Mapped[bool] = mapped_column(default=True)
    want_driver: Mapped[bool] = mapped_column(default=True)
    want_fare: Mapped[bool] = mapped_column(default=True)
    want_rating: Mapped[bool] = mapped_column(default=True)
    other_data: Mapped[str | None] = mapped_column(Text)
    # why it leaves out any of Art. 4 §1 I-VI (issue 24 item 12: all six by default); None when it asks for all
    narrowing_reason: Mapped[str | None] = mapped_column(Text)
    # the driver or the vehicle the request is about, when it is about one (issue 24 item 12; Art. 4 §1 IV)
    driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"))
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"))
    investigation: Mapped[bool] = mapped_column(default=False)  # §2: 24-hour term
    notified_at: Mapped[datetime | None] = mapped_column(AwareDateTime())
    due_at: Mapped[datetime | None] = mapped_column(AwareDateTime())
    answered_at: Mapped[datetime | None] = mapped_column(AwareDateTime())
    status: Mapped[str] = mapped_column(String(20), default="draft")
    created_by: Mapped[int | None] = user_fk()


HAIL_TYPES = ("app", "street_hail", "phone_dispatch", "phone", "text")  # MDS 2.x trip_attributes.hail_type
TRIP_ACCESS_ACTIONS = ("view", "export")


class TripImport(Created, Base):
    """One trip file imported from a platform (Art. 4 §1), all or nothing; it may answer a data request. The
    columns and fields dropped because they identify a passenger (Art. 4 caput) are listed, never their values."""

    __tablename__ = "trip_imports"
    __table_args__ = (UniqueConstraint("platform_id", "file_sha256"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platforms.id"), index=True)
    data_request_id: Mapped[int | None] = mapped_column(ForeignKey("data_requests.id"), index=True)
    filename: Mapped[str] = mapped_column(String(255))
    file_sha256: Mapped[str] = mapped_column(String(64))
    file_format: Mapped[str] = mapped_column(String(10))  # csv | mds
    routes_filename: Mapped[str | None] = mapped_column(String(255))
    trip_count: Mapped[int] = mapped_column(default=0)
    route_point_count: Mapped[int] = mapped_column(default=0)
    dropped_columns: Mapped[list | None] = mapped_column(JSONData)
    ignored_columns: Mapped[list | None] = mapped_column(JSONData)
    imported_by: Mapped[int | None] = user_fk()


class TripRow(Base):
    """One trip reported by a platform (Art. 4 §1). No column for the passenger: Art. 4 caput guarantees the
    privacy of users' personal data, so importers drop it before it reaches the database.

    Issue 15: the fare composition (§1 V) has one column per component (the fares query sums them in SQL and
    PostgreSQL's COPY fills them); `month` is the local (Cuiabá) month of the start as YYYYMM, indexed (the monthly
    fares read `trip_fare_totals`); `fare_components` and `route` stay unused (points are rows of
    `trip_route_points`)."""

    __tablename__ = "trip_rows"
    __table_args__ = (
        UniqueConstraint("platform_id", "external_id"),
        Index(None, "month"),   # migration 0014: the one index the month's queries need (the import rebuilds it)
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platforms.id"))
    data_request_id: Mapped[int | None] = mapped_column(ForeignKey("data_requests.id"))
    import_id: Mapped[int | None] = mapped_column(ForeignKey("trip_imports.id"))
    external_id: Mapped[str] = mapped_column(String(80))
    driver_cpf: Mapped[str | None] = mapped_column(String(11))
    driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"))
    plate: Mapped[str | None] = mapped_column(String(7))
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"))
    started_at: Mapped[datetime] = mapped_column(AwareDateTime())
    ended_at: Mapped[datetime | None] = mapped_column(AwareDateTime())
    month: Mapped[int | None]
    origin: Mapped[str | None] = mapped_column(String(300))
    destination: Mapped[str | None] = mapped_column(String(300))
    origin_lat: Mapped[float | None]
    origin_lon: Mapped[float | None]
    destination_lat: Mapped[float | None]
    destination_lon: Mapped[float | None]
    distance_km: Mapped[Decimal | None] = mapped_column(Dec(3))
    duration_s: Mapped[int | None]
    route: Mapped[str | None] = mapped_column(Text)  # encoded polyline or GeoJSON line
    fare_total: Mapped[Decimal | None] = mapped_column(Dec(2))
    fare_base: Mapped[Decimal | None] = mapped_column(Dec(2))
    fare_distance: Mapped[Decimal | None] = mapped_column(Dec(2))
    fare_time: Mapped[Decimal | None] = mapped_column(Dec(2))
    fare_platform: Mapped[Decimal | None] = mapped_column(Dec(2))   # the platform's share (Taxa da plataforma)
    fare_other: Mapped[Decimal | None] = mapped_column(Dec(2))
    fare_components: Mapped[dict | None] = mapped_column(JSONData)
    rating: Mapped[Decimal | None] = mapped_column(Dec(2))
    hail_type: Mapped[str | None] = mapped_column(String(20))


class TripFareTotal(Base):
    """The fares of one import summed per month, driver and plate, written by the import from the rows it stores
    (and recomputed by the retention routine for the months it touches): the monthly fares read these few rows
    instead of aggregating every trip (issue 15: ≤ 1 s for 1,000,000 trips). Derived data, never edited."""

    __tablename__ = "trip_fare_totals"
    __table_args__ = (Index(None, "month", "driver_cpf", "plate"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    import_id: Mapped[int | None] = mapped_column(ForeignKey("trip_imports.id"), index=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platforms.id"))
    month: Mapped[int]
    driver_cpf: Mapped[str | None] = mapped_column(String(11))
    plate: Mapped[str | None] = mapped_column(String(7))
    driver_id: Mapped[int | None] = mapped_column(ForeignKey("drivers.id"))
    vehicle_id: Mapped[int | None] = mapped_column(ForeignKey("vehicles.id"))
    trips: Mapped[int]
    distance_km: Mapped[Decimal] = mapped_column(Dec(3))
    duration_s: Mapped[int] = mapped_column(BigInteger)
    fare_total: Mapped[Decimal] = mapped_column(Dec(2))
    fare_base: Mapped[Decimal] = mapped_column(Dec(2))
    fare_distance: Mapped[Decimal] = mapped_column(Dec(2))
    fare_time: Mapped[Decimal] = mapped_column(Dec(2))
    fare_platform: Mapped[Decimal] = mapped_column(Dec(2))
    fare_other: Mapped[Decimal] = mapped_column(Dec(2))
    rating_sum: Mapped[Decimal] = mapped_column(Dec(2))
    rated: Mapped[int]


class TripRoutePoint(Base):
    """A point of a trip's route (Art. 4 §1 III), in the order of time."""

    __tablename__ = "trip_route_points"
    __table_args__ = (Index(None, "trip_id", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    trip_id: Mapped[int] = mapped_column(ForeignKey("trip_rows.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(AwareDateTime())
    lat: Mapped[float]
    lon: Mapped[float]


class TripAccessLog(Base):
    """Who saw or exported which trips, and when (LGPD; SPEC §4: exports of personal data are logged)."""

    __tablename__ = "trip_access_log"
    __table_args__ = (one_of("action", TRIP_ACCESS_ACTIONS), Index(None, "at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(AwareDateTime())
    user_id: Mapped[int | None] = user_fk()
    action: Mapped[str] = mapped_column(String(10))
    what: Mapped[str] = mapped_column(String(200))          # e.g. "fares 2026-11", "route", "infractions"
    trip_count: Mapped[int] = mapped_column(default=0)
    trip_ids: Mapped[list | None] = mapped_column(JSONData)  # the ids when a few trips were seen one by one


class AutoTripEvidence(Base):
    """A trip that is evidence in an auto: it is kept past the retention period."""

    __tablename__ = "auto_trip_evidence"

    auto_id: Mapped[int] = mapped_column(ForeignKey("autos.id"), primary_key=True)
    trip_id: Mapped[int] = mapped_column(ForeignKey("trip_rows.id"), primary_key=True, index=True)
