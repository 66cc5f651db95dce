"""Writing clean trip chunks (desktop.importers.trips) through the database driver, inside the caller's open
transaction: SQLite `executemany` on the raw DBAPI connection, PostgreSQL `COPY … FROM STDIN` (psycopg 3). Kept
out of services so that pandas is imported only when a file is imported (start-up budget)."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
from sqlalchemy import select

from desktop.models import Driver, Vehicle

TRIP_COLUMNS = ("platform_id", "data_request_id", "import_id", "external_id", "driver_cpf", "driver_id", "plate",
                "vehicle_id", "started_at", "ended_at", "month", "origin_lat", "origin_lon", "destination_lat",
                "destination_lon", "distance_km", "duration_s", "fare_total", "fare_base", "fare_distance",
                "fare_time", "fare_platform", "fare_other", "rating", "hail_type")
_INSERT_SQLITE = (f"INSERT INTO trip_rows ({', '.join(TRIP_COLUMNS)}) "
                  f"VALUES ({', '.join('?' for _ in TRIP_COLUMNS)})")
_COPY_PG = f"COPY trip_rows ({', '.join(TRIP_COLUMNS)}) FROM STDIN (FORMAT csv, NULL '')"


class Register:
    """The register's drivers by CPF and vehicles by plate (to link the trips)."""

    def __init__(self, session):
        self.drivers = dict(session.execute(select(Driver.cpf, Driver.id)).all())
        self.vehicles = dict(session.execute(select(Vehicle.plate, Vehicle.id)).all())


def _nullable(values) -> list:
    """A pandas nullable column (Int64) or a float array as Python values with None."""
    if isinstance(values, pd.Series):
        return values.astype(object).where(values.notna(), None).tolist()
    arr = np.asarray(values, dtype=float)
    out = arr.astype(object)
    out[np.isnan(arr)] = None
    return out.tolist()


def _sqlite_instants(us: np.ndarray, ok: np.ndarray | None = None) -> list:
    """µs since the epoch (UTC) → 'YYYY-MM-DD HH:MM:SS.ffffff', SQLAlchemy's SQLite DATETIME text."""
    text = np.datetime_as_string(us.astype("datetime64[us]"), unit="us")
    view = text.view(np.uint32).reshape(len(text), -1)
    view[:, 10] = ord(" ")
    out = text.tolist()
    if ok is not None and not ok.all():
        out = [v if good else None for v, good in zip(out, ok.tolist())]
    return out


def _columns(chunk, register: Register, platform_id: int, request_id, import_id) -> dict[str, list]:
    n = len(chunk)
    cpf = pd.Series(chunk.driver_cpf)
    plate = pd.Series(chunk.plate)
    return {
        "platform_id": [platform_id] * n, "data_request_id": [request_id] * n, "import_id": [import_id] * n,
        "external_id": chunk.external_id.tolist(), "driver_cpf": chunk.driver_cpf.tolist(),
        "driver_id": _nullable(cpf.map(register.drivers).astype("Int64")),
        "plate": chunk.plate.tolist(),
        "vehicle_id": _nullable(plate.map(register.vehicles).astype("Int64")),
        "month": chunk.month.tolist(),
        **{k: _nullable(v) for k, v in chunk.floats.items()},
        "distance_km": chunk.ints["distance_m"], "duration_s": _nullable(chunk.ints["duration_s"]),
        **{k: chunk.ints[k] for k in ("fare_total", "fare_base", "fare_distance", "fare_time", "fare_platform",
                                      "fare_other", "rating")},
        "hail_type": chunk.hail_type.tolist(),
    }


_SCALED = ("distance_km", "fare_total", "fare_base", "fare_distance", "fare_time", "fare_platform", "fare_other",
           "rating")
_EXPONENT = {"distance_km": "e-3", "rating": "e-2"}  # others: cents → e-2


def _insert_sqlite(raw, chunk, cols: dict) -> None:
    """SQLite keeps Dec(n) as scaled integers (models.types): metres are distance_km × 1000, cents fare × 100."""
    for key in _SCALED:
        cols[key] = _nullable(cols[key])
    cols["started_at"] = _sqlite_instants(chunk.started_us)
    cols["ended_at"] = _sqlite_instants(chunk.ended_us, chunk.ended_ok)
    rows = list(zip(*(cols[c] for c in TRIP_COLUMNS)))
    raw.cursor().executemany(_INSERT_SQLITE, rows)


def _copy_pg(raw, chunk, cols: dict) -> None:
    frame = pd.DataFrame({c: cols[c] for c in TRIP_COLUMNS if c not in ("started_at", "ended_at")})
    for key in _SCALED:
        values = cols[key]
        frame[key] = values.astype(str).where(values.notna(), "") + np.where(values.notna(),
                                                                            _EXPONENT.get(key, "e-2"), "")
    for key, us, ok in (("started_at", chunk.started_us, None), ("ended_at", chunk.ended_us, chunk.ended_ok)):
        text = pd.Series(np.datetime_as_string(us.astype("datetime64[us]"), unit="us")) + "+00"
        frame[key] = text if ok is None else text.where(ok, "")
    for key in ("driver_id", "vehicle_id", "data_request_id", "duration_s"):
        frame[key] = frame[key].astype("Int64")
    buffer = io.StringIO()
    frame[list(TRIP_COLUMNS)].to_csv(buffer, header=False, index=False, na_rep="", lineterminator="\n",
                                     float_format="%.7f")
    with raw.cursor() as cur, cur.copy(_COPY_PG) as copy:
        copy.write(buffer.getvalue())



def write_chunk(raw, sqlite: bool, chunk, register: Register, platform_id: int, request_id, import_id,
                totals: FareTotals | None = None) -> tuple[int, int]:
    """Insert one chunk; returns (trips with a registered driver, trips with a registered vehicle)."""
    cols = _columns(chunk, register, platform_id, request_id, import_id)
    drivers = sum(v is not None for v in cols["driver_id"])
    vehicles = sum(v is not None for v in cols["vehicle_id"])
    if totals is not None:
        totals.add(chunk, cols["driver_id"], cols["vehicle_id"])
    (_insert_sqlite if sqlite else _copy_pg)(raw, chunk, cols)
    return drivers, vehicles


_SUMMED = ("distance_m", "duration_s", "fare_total", "fare_base", "fare_distance", "fare_time", "fare_platform",
           "fare_other", "rating")


class FareTotals:
    """The fares of the rows written, summed per (month, driver_cpf, plate) chunk by chunk (pandas groupby on the
    chunk's arrays), for `trip_fare_totals`."""

    def __init__(self):
        self.parts: list[pd.DataFrame] = []

    def add(self, chunk, driver_ids: list, vehicle_ids: list) -> None:
        frame = pd.DataFrame({"month": chunk.month, "driver_cpf": chunk.driver_cpf, "plate": chunk.plate,
                              "driver_id": pd.array(driver_ids, dtype="Int64"),
                              "vehicle_id": pd.array(vehicle_ids, dtype="Int64"),
                              **{k: chunk.ints[k].to_numpy(dtype="float64", na_value=np.nan) for k in _SUMMED}})
        frame["rated"] = frame["rating"].notna().astype(np.int64)
        frame["trips"] = 1
        self.parts.append(frame.groupby(["month", "driver_cpf", "plate"], sort=False).agg(
            driver_id=("driver_id", "max"), vehicle_id=("vehicle_id", "max"), trips=("trips", "sum"),
            rated=("rated", "sum"), **{k: (k, "sum") for k in _SUMMED}).reset_index())

    def rows(self, import_id: int, platform_id: int) -> list[dict]:
        from decimal import Decimal

        if not self.parts:
            return []
        total = pd.concat(self.parts).groupby(["month", "driver_cpf", "plate"], sort=True).agg(
            driver_id=("driver_id", "max"), vehicle_id=("vehicle_id", "max"), trips=("trips", "sum"),
            rated=("rated", "sum"), **{k: (k, "sum") for k in _SUMMED}).reset_index()
        out = []
        for r in total.itertuples(index=False):
            def cents(v):
                return Decimal(int(round(v))).scaleb(-2)
            out.append({
                "import_id": import_id, "platform_id": platform_id, "month": int(r.month), "driver_cpf": r.driver_cpf,
                "plate": r.plate, "driver_id": None if pd.isna(r.driver_id) else int(r.driver_id),
                "vehicle_id": None if pd.isna(r.vehicle_id) else int(r.vehicle_id), "trips": int(r.trips),
                "distance_km": Decimal(int(round(r.distance_m))).scaleb(-3), "duration_s": int(round(r.duration_s)),
                "fare_total": cents(r.fare_total), "fare_base": cents(r.fare_base),
                "fare_distance": cents(r.fare_distance), "fare_time": cents(r.fare_time),
                "fare_platform": cents(r.fare_platform), "fare_other": cents(r.fare_other),
                "rating_sum": cents(r.rating), "rated": int(r.rated)})
        return out
