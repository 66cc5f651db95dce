"""Writing clean trip chunks (desktop.importers.trips) through the database driver, inside the caller's open
transaction: SQLite `executemany` on the raw DBAPI connection, PostgreSQL `COPY … FROM STDIN` (psycopg 3). Kept
out of services so that pandas is imported only when a file is imported (start-up budget)."""
from __future__ import annotations

import io
import queue
import threading
from dataclasses import dataclass

import numpy as np
import pandas as pd
from desktop.models import Driver, Vehicle
from decimal import Decimal

TRIP_COLUMNS = ("platform_id", "data_request_id", "import_id", "external_id", "driver_cpf", "driver_id", "plate",
                "vehicle_id", "started_at", "ended_at", "month", "origin_lat", "origin_lon", "destination_lat",
                "destination_lon", "distance_km", "duration_s", "fare_total", "fare_base", "fare_distance",
                "fare_time", "fare_platform", "fare_other", "rating", "hail_type")
_COPY_PG = f"COPY trip_rows ({', '.join(TRIP_COLUMNS)}) FROM STDIN (FORMAT csv, NULL '')"


class Register:
    """The register's drivers by CPF and vehicles by plate (to link the trips)."""

    def __init__(self, session):
        from sqlalchemy import select   # here, not at the top: the reading process imports no database code

        self.drivers = dict(session.execute(select(Driver.cpf, Driver.id)).all())
        self.vehicles = dict(session.execute(select(Vehicle.plate, Vehicle.id)).all())


def _nullable(values) -> list:
    """A pandas nullable column (Int64) or a float array as Python values with None (a plain `tolist` when
    nothing is missing, the usual case: no per-cell work in Python)."""
    if isinstance(values, pd.Series):
        missing = values.isna().to_numpy()
        if not missing.any():
            return values.to_numpy(dtype=np.int64 if str(values.dtype) in ("Int64", "int64") else float).tolist()
        return values.to_numpy(dtype=object, na_value=None).tolist()
    arr = np.asarray(values, dtype=float)
    nan = np.isnan(arr)
    if not nan.any():
        return arr.tolist()
    out = arr.astype(object)
    out[nan] = None
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




# Columns whose value is the same for every row of one import: written into the statement as literals (integers
# the service produced, never text from the file), so that executemany binds 22 values a row instead of 25.
CONSTANT_COLUMNS = ("platform_id", "data_request_id", "import_id")
ROW_COLUMNS = tuple(c for c in TRIP_COLUMNS if c not in CONSTANT_COLUMNS)


def sqlite_insert(platform_id: int, request_id: int | None, import_id: int) -> str:
    literal = {"platform_id": int(platform_id), "data_request_id": "NULL" if request_id is None else int(request_id),
               "import_id": int(import_id)}
    return (f"INSERT INTO trip_rows ({', '.join(TRIP_COLUMNS)}) VALUES "
            f"({', '.join(str(literal[c]) if c in literal else '?' for c in TRIP_COLUMNS)})")


def _columns(chunk, register: Register, platform_id: int, request_id, import_id) -> dict:
    n = len(chunk)
    cpfs, plates = chunk.driver_cpf.tolist(), chunk.plate.tolist()
    return {
        "platform_id": [platform_id] * n, "data_request_id": [request_id] * n, "import_id": [import_id] * n,
        "external_id": chunk.external_id.tolist(), "driver_cpf": cpfs,
        "driver_id": list(map(register.drivers.get, cpfs)), "plate": plates,
        "vehicle_id": list(map(register.vehicles.get, plates)),
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


def _pg_copy_text(chunk, cols: dict) -> str:
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
    return buffer.getvalue()


@dataclass(slots=True)
class PreparedChunk:
    """One clean chunk made ready for PostgreSQL's COPY."""

    external_ids: list
    payload: str
    drivers: int
    vehicles: int
    street_hails: int

    def __len__(self) -> int:
        return len(self.external_ids)


def prepare_pg_chunk(chunk, register: Register, platform_id: int, request_id, import_id,
                     totals: FareTotals | None = None) -> PreparedChunk:
    """Everything but the write: register ids, the fare totals, the COPY text (no database access, so it runs on
    the reading thread while the previous chunk is written)."""
    cols = _columns(chunk, register, platform_id, request_id, import_id)
    drivers = len(cols["driver_id"]) - cols["driver_id"].count(None)
    vehicles = len(cols["vehicle_id"]) - cols["vehicle_id"].count(None)
    if totals is not None:
        totals.add(chunk)
    return PreparedChunk(cols["external_id"], _pg_copy_text(chunk, cols), drivers, vehicles,
                         int((chunk.hail_type == "street_hail").sum()))


def pg_write(raw, prepared: PreparedChunk) -> None:
    """COPY one prepared chunk in the caller's open transaction."""
    with raw.cursor() as cur, cur.copy(_COPY_PG) as copy:
        copy.write(prepared.payload)


# -- SQLite: a chunk as plain values (picklable: made by the reading thread or by the reading process) ----------
_INT_COLUMNS = (("distance_m", "distance_km"), ("duration_s", "duration_s"), ("fare_total", "fare_total"),
                ("fare_base", "fare_base"), ("fare_distance", "fare_distance"), ("fare_time", "fare_time"),
                ("fare_platform", "fare_platform"), ("fare_other", "fare_other"), ("rating", "rating"))


@dataclass(slots=True)
class SqliteChunk:
    """A clean chunk ready for SQLite but for the register's ids: texts as lists, numbers as numpy arrays with
    the mask of their missing values (None when none is missing). SQLite keeps Dec(n) as scaled integers
    (models.types): metres are distance_km × 1000, cents fare × 100, hundredths the rating × 100."""

    texts: dict
    numbers: dict
    street_hails: int

    def __len__(self) -> int:
        return len(self.texts["external_id"])


def sqlite_chunk(chunk) -> SqliteChunk:
    texts = {"external_id": chunk.external_id.tolist(), "driver_cpf": chunk.driver_cpf.tolist(),
             "plate": chunk.plate.tolist(), "started_at": _sqlite_instants(chunk.started_us),
             "ended_at": _sqlite_instants(chunk.ended_us, chunk.ended_ok), "hail_type": chunk.hail_type.tolist()}
    numbers: dict = {"month": (chunk.month, None)}
    for key, values in chunk.floats.items():
        nan = np.isnan(values)
        numbers[key] = (values, nan if nan.any() else None)
    for source, column in _INT_COLUMNS:
        series = chunk.ints[source]
        missing = series.isna().to_numpy()
        numbers[column] = (series.to_numpy(dtype=np.int64, na_value=0), missing if missing.any() else None)
    return SqliteChunk(texts, numbers, int((chunk.hail_type == "street_hail").sum()))


def _python_values(values: np.ndarray, missing: np.ndarray | None) -> list:
    out = values.tolist()
    if missing is not None:
        for i in np.flatnonzero(missing).tolist():
            out[i] = None
    return out


def sqlite_write(raw, insert_sql: str, chunk: SqliteChunk, register: Register) -> tuple[int, int]:
    """Insert one chunk in the caller's open transaction; returns (trips of a registered driver, of a registered
    vehicle). executemany takes the rows as an iterator (`zip`): no list of the chunk's tuples is built."""
    drivers = list(map(register.drivers.get, chunk.texts["driver_cpf"]))
    vehicles = list(map(register.vehicles.get, chunk.texts["plate"]))
    cols = {**chunk.texts, "driver_id": drivers, "vehicle_id": vehicles,
            **{k: _python_values(*v) for k, v in chunk.numbers.items()}}
    raw.cursor().executemany(insert_sql, zip(*(cols[c] for c in ROW_COLUMNS)))
    return len(drivers) - drivers.count(None), len(vehicles) - vehicles.count(None)


_END = object()


def read_ahead(chunks, prepare, depth: int = 2, stop: threading.Event | None = None):
    """`prepare(chunk)` for each of `chunks` on a reading thread, at most `depth` ready ahead of the writer.

    Arrow's CSV reader and kernels and SQLite's statement steps release the interpreter lock, so the next chunk
    is read and checked while this one is written (bench/bench_trips.py). An exception of the reading thread is
    raised here, in the writer's thread; when the writer stops (an error, a cancel, a duplicate), closing this
    generator stops the reading thread before the next chunk and waits for it."""
    ready: queue.Queue = queue.Queue(maxsize=depth)
    stop = stop or threading.Event()

    def put(item) -> bool:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def work():
        try:
            for chunk in chunks:
                if stop.is_set() or not put((prepare(chunk), None)):
                    return
            put((_END, None))
        except BaseException as exc:  # noqa: BLE001 - handed to the writer's thread, raised there
            put((_END, exc))

    thread = threading.Thread(target=work, name="trip-reader", daemon=True)
    thread.start()
    try:
        while True:
            item, error = ready.get()
            if error is not None:
                raise error
            if item is _END:
                return
            yield item
    finally:
        stop.set()
        thread.join()


_SUMMED = ("distance_m", "duration_s", "fare_total", "fare_base", "fare_distance", "fare_time", "fare_platform",
           "fare_other", "rating")


class FareTotals:
    """The fares of the rows written, summed per (month, driver_cpf, plate) chunk by chunk, for
    `trip_fare_totals`: each chunk's rows are grouped by numpy (codes of its distinct keys, `bincount` per sum)
    and its few groups — a driver's car in a month — are added to the file's running sums."""

    COLUMNS = ("trips", "rated", *_SUMMED)

    def __init__(self):
        self.index: dict[tuple, int] = {}     # (month, driver_cpf, plate) -> row of `sums`
        self.sums = np.zeros((0, len(self.COLUMNS)))

    def add(self, chunk) -> None:
        n = len(chunk)
        if not n:
            return
        cpf_codes, cpfs = pd.factorize(chunk.driver_cpf)
        plate_codes, plates = pd.factorize(chunk.plate)
        month_codes, months = pd.factorize(chunk.month)
        combined = (month_codes.astype(np.int64) * len(cpfs) + cpf_codes) * len(plates) + plate_codes
        groups, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
        values = np.empty((n, len(self.COLUMNS)))
        values[:, 0] = 1
        values[:, 1] = chunk.ints["rating"].notna().to_numpy()
        for i, key in enumerate(_SUMMED, start=2):
            values[:, i] = chunk.ints[key].to_numpy(dtype="float64", na_value=0.0)
        local = np.stack([np.bincount(inverse, weights=values[:, i], minlength=len(groups))
                          for i in range(values.shape[1])], axis=1)
        where = np.empty(len(groups), dtype=np.int64)
        for g, row in enumerate(first.tolist()):
            key = (int(chunk.month[row]), chunk.driver_cpf[row], chunk.plate[row])
            at = self.index.get(key)
            if at is None:
                at = self.index[key] = len(self.index)
            where[g] = at
        if len(self.index) > len(self.sums):
            grown = np.zeros((max(len(self.index), 2 * len(self.sums)), len(self.COLUMNS)))
            grown[:len(self.sums)] = self.sums
            self.sums = grown
        self.sums[where] += local   # `where` has no repeats: one row per group of this chunk

    def rows(self, import_id: int, platform_id: int, register: Register) -> list[dict]:
        """The `trip_fare_totals` rows, with the register's driver and vehicle of each CPF and plate (the ids the
        trips themselves were written with)."""

        def cents(v):
            return Decimal(int(round(v))).scaleb(-2)

        out = []
        for key in sorted(self.index):
            month, cpf, plate = key
            at = self.index[key]
            driver_id, vehicle_id = register.drivers.get(cpf), register.vehicles.get(plate)
            r = dict(zip(self.COLUMNS, self.sums[at].tolist()))
            out.append({
                "import_id": import_id, "platform_id": platform_id, "month": month, "driver_cpf": cpf,
                "plate": plate, "driver_id": driver_id, "vehicle_id": vehicle_id, "trips": int(r["trips"]),
                "distance_km": Decimal(int(round(r["distance_m"]))).scaleb(-3), "duration_s": int(round(r["duration_s"])),
                "fare_total": cents(r["fare_total"]), "fare_base": cents(r["fare_base"]),
                "fare_distance": cents(r["fare_distance"]), "fare_time": cents(r["fare_time"]),
                "fare_platform": cents(r["fare_platform"]), "fare_other": cents(r["fare_other"]),
                "rating_sum": cents(r["rating"]), "rated": int(r["rated"])})
        return out
