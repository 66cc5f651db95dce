"""Importing a platform's trip file (Art. 4 §1; issue 15): all or nothing, passengers never kept.

The file is read chunk by chunk (desktop.importers.trips) INSIDE one write transaction: each clean chunk goes in
through the driver — SQLite: `executemany` on the raw DBAPI connection (NOTES: ≈ 2× faster than SQLAlchemy Core);
PostgreSQL: `COPY … FROM STDIN` (psycopg 3 `cursor.copy`). Any bad line, a cancel (`state.cancelled`), an error
or a killed process rolls the transaction back: nothing of the file stays. The import may answer a data request
(Art. 4): it is linked to the request, which is marked answered. The file's bytes are NOT archived as a document
(they may carry passengers' data): only its name, SHA-256 and what was dropped are kept.
"""
from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert, select, text

from desktop.domain.clock import now
from desktop.domain.problems import Problem
from desktop.domain.steps import refusal
from desktop.errors import ConflictError, DesktopError, ValidationError
from desktop.models import Platform
from desktop.models.platforms import DataRequest, TripFareTotal, TripImport, TripRoutePoint, TripRow
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.data_requests import DATA_REQUEST_STEPS, STATUS_LABELS
from desktop.services.lookups import get_or_404
from desktop.services.trips.common import require_trip_access
from desktop.domain.limits import trip_window
from desktop.domain.trips import retention_cutoff

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
log = logging.getLogger(__name__)
MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024


class ImportCancelled(DesktopError):
    """The user pressed "Cancelar": nothing was stored."""

    def __init__(self):
        super().__init__("Importação cancelada: nada foi gravado.")


@dataclass(frozen=True, slots=True)
class TripImportReport:
    import_id: int
    platform_id: int
    platform_name: str
    filename: str
    file_sha256: str
    file_format: str
    trips: int
    route_points: int
    matched_drivers: int
    matched_vehicles: int
    dropped_columns: tuple[str, ...]    # identify passengers: never read (Art. 4 caput)
    ignored_columns: tuple[str, ...]
    notes: tuple[str, ...]
    data_request_id: int | None
    street_hails: int

    def summary(self) -> str:
        lines = [f"Viagens importadas: {self.trips} da plataforma {self.platform_name} "
                 f"({'MDS 2.x' if self.file_format == 'mds' else 'CSV'}, arquivo {self.filename})."]
        if self.route_points:
            lines.append(f"Pontos de rota: {self.route_points}.")
        lines.append(f"Condutores do cadastro reconhecidos em {self.matched_drivers} viagem(ns); veículos em "
                     f"{self.matched_vehicles}.")
        if self.street_hails:
            lines.append(f"Embarques na via pública (Art. 7): {self.street_hails}.")
        if self.dropped_columns:
            lines.append("Descartados por identificarem passageiros (Art. 4º): " + ", ".join(self.dropped_columns)
                         + ".")
        if self.ignored_columns:
            lines.append("Colunas ignoradas: " + ", ".join(self.ignored_columns) + ".")
        lines.extend(note for note in self.notes if note.startswith("Atenção:"))   # fare parts off the total
        if self.data_request_id:
            lines.append("A requisição de dados foi marcada como respondida.")
        return "\n".join(lines)


def _content_of(source) -> tuple[bytes, str]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), ""
    path = Path(source)
    return path.read_bytes(), path.name


def _name(filename: str, fallback: str) -> str:
    return ((filename or fallback).replace("\\", "/").rsplit("/", 1)[-1][-255:]) or fallback


def _duplicates_in(session, platform_id: int, ids: list[str]) -> list[str]:
    found: list[str] = []
    for start in range(0, len(ids), 500):
        part = ids[start:start + 500]
        found += session.execute(select(TripRow.external_id).where(
            TripRow.platform_id == platform_id, TripRow.external_id.in_(part))).scalars().all()
    return found


def _answer_request_in(session, actor: Actor, request_id: int, import_id: int, filename: str, digest: str) -> None:
    row = get_or_404(session, DataRequest, request_id, "Requisição de dados")
    step = next(s for s in DATA_REQUEST_STEPS if s.key == "answer")
    reason = refusal(step, row.status, actor.roles, label_of=lambda s: STATUS_LABELS.get(s, s))
    if reason:
        raise ConflictError(f"A requisição de dados não pode ser respondida: {reason}.")
    before = {"status": row.status, "answered_at": None}
    row.answered_at = now()
    row.status = "answered"
    session.flush()
    audit.record(session, actor, "data_request.answer", "platform", row.platform_id, before,
                 {"data_request_id": row.id, "answered_at": row.answered_at, "trip_import_id": import_id,
                  "filename": filename, "sha256": digest})


def trip_window_in(session):
    """The instants a trip of a file may start at (domain.limits.trip_window): from the retention cut-off of the
    dated parameter `trip_retention_months` to now (issue 25 item 1: a trip of 1800 or 9999 is refused)."""
    from desktop.services.parameters import parameter_value_in  # lazy: SQLAlchemy loads once the database is used (start-up)

    moment = now()
    months = int(parameter_value_in(session, "trip_retention_months", moment.date()))
    return trip_window(moment, retention_cutoff(moment.date(), months))


def import_trips_in(session, actor: Actor, platform_id: int, content: bytes, filename: str = "",
                    routes: bytes | None = None, routes_filename: str = "", data_request_id: int | None = None,
                    state=None, source_path: str | None = None, process=None) -> TripImportReport:
    """Store a whole trip file or nothing, in the caller's transaction (see the module text). `source_path`, the
    file `content` was read from, lets a reading process read it itself; `process`, one already started on it
    (`start_reader`), is used and closed here."""
    require_trip_access(actor)
    content = bytes(content or b"")
    if len(content) > MAX_FILE_BYTES:
        raise ValidationError([Problem("file", "O arquivo de viagens passa de 2 GB.", "Art. 4, §1")])
    platform = get_or_404(session, Platform, platform_id, "Plataforma")
    if data_request_id is not None:
        request = get_or_404(session, DataRequest, data_request_id, "Requisição de dados")
        if request.platform_id != platform.id:
            raise ValidationError([Problem("data_request_id", "A requisição de dados é de outra plataforma.",
                                           "Art. 4")])
    from desktop.importers.trips import TripFileError, TripReader  # lazy: pandas only when importing

    name = _name(filename, "viagens")
    window = process.window if process is not None and process.window is not None else trip_window_in(session)
    try:
        reader = TripReader(content, name, window=window)
    except TripFileError as exc:
        if process is not None:
            process.close()
        raise ValidationError([Problem("file", m, "Art. 4, §1") for m in exc.errors],
                              "O arquivo de viagens foi recusado; nada foi gravado:\n" + "\n".join(exc.errors))
    sqlite = session.get_bind().dialect.name == "sqlite"
    if process is None and sqlite and reader.state.format == "csv" and len(content) >= PROCESS_MIN_BYTES:
        from desktop.importers.trip_worker import ReaderProcess  # lazy: loads numpy, pandas, pyarrow only when this runs

        # started first: it spawns and reads while this process checks the file and the register
        process = ReaderProcess(None if source_path else content, source_path, name, reader.chunk_rows,
                                window=window)
    try:
        return _import_in(session, actor, platform, content, name, reader, process, routes, routes_filename,
                          data_request_id, state, sqlite)
    finally:
        if process is not None:
            process.close()


def _import_in(session, actor, platform, content, name, reader, process, routes, routes_filename, data_request_id,
               state, sqlite) -> TripImportReport:
    from desktop.importers.trip_writer import (  # lazy: pandas only when importing
        FareTotals, Register, SqliteChunk, pg_write, prepare_pg_chunk, read_ahead, sqlite_chunk, sqlite_insert,
        sqlite_write)
    from desktop.importers.trips import read_routes  # lazy: loads numpy, pandas, pyarrow only when this runs

    digest = hashlib.sha256(content).hexdigest()
    if session.scalar(select(TripImport.id).where(TripImport.platform_id == platform.id,
                                                  TripImport.file_sha256 == digest)) is not None:
        raise ConflictError("Este arquivo de viagens já foi importado para esta plataforma; nada foi gravado.")
    route_points = None
    if routes:
        route_points = read_routes(routes)
    imp = TripImport(platform_id=platform.id, data_request_id=data_request_id, filename=name, file_sha256=digest,
                     file_format=reader.state.format, routes_filename=_name(routes_filename, "rotas") if routes
                     else None, trip_count=0, route_point_count=0, imported_by=actor.user_id, created_at=now())
    session.add(imp)
    session.flush()
    register = Register(session)
    totals = FareTotals()
    raw = session.connection().connection.dbapi_connection
    total = reader.state.total_rows
    done = matched_drivers = matched_vehicles = street = 0
    insert_sql = sqlite_insert(platform.id, data_request_id, imp.id) if sqlite else None
    if state is not None:
        state.progress(0, total, "Lendo o arquivo de viagens…")

    def prepare(chunk):
        if reader.state.errors:
            return None  # the file is refused: the rest is only read for its errors
        if not sqlite:
            return prepare_pg_chunk(chunk, register, platform.id, data_request_id, imp.id, totals)
        totals.add(chunk)
        return sqlite_chunk(chunk)

    fell_back = []

    def from_process():
        """The reading process's chunks; if it could not even start (nothing received), this process reads the
        file itself instead — the import goes on, only slower."""
        from desktop.importers.trip_worker import ReaderFailed  # lazy: loads numpy, pandas, pyarrow only when this runs

        try:
            yield from process
        except ReaderFailed as exc:
            if exc.chunks:
                raise
            log.warning("trip import: the reading process failed before its first chunk (%s); reading here", exc)
            fell_back.append(True)
            here = read_ahead(reader, prepare)
            try:
                yield from here
            finally:
                here.close()

    chunks = from_process() if process is not None else read_ahead(reader, prepare)
    try:
        for prepared in chunks:
            if state is not None and state.cancelled:
                raise ImportCancelled()
            if prepared is None or reader.state.errors:
                continue
            sqlite_rows = isinstance(prepared, SqliteChunk)
            try:
                if sqlite_rows:
                    drivers, vehicles = sqlite_write(raw, insert_sql, prepared, register)
                else:
                    pg_write(raw, prepared)
                    drivers, vehicles = prepared.drivers, prepared.vehicles
            except Exception as exc:  # noqa: BLE001 - a unique key: name the trips already stored
                ids = prepared.texts["external_id"] if sqlite_rows else prepared.external_ids
                repeated = _duplicates_after_error(session, raw, sqlite, platform.id, ids, exc)
                raise ValidationError([Problem("file", f"viagem «{e}» já importada desta plataforma.", "Art. 4, §1")
                                       for e in repeated[:50]],
                                      "O arquivo de viagens foi recusado; nada foi gravado:\n"
                                      + "\n".join(f"viagem «{e}» já importada desta plataforma."
                                                  for e in repeated[:50]))
            matched_drivers += drivers
            matched_vehicles += vehicles
            street += prepared.street_hails
            done += len(prepared)
            if state is not None:
                state.progress(done, max(total, done), f"{done} viagens lidas…")
    finally:
        chunks.close()
    if state is not None and state.cancelled:
        raise ImportCancelled()
    if process is not None and not fell_back:
        if process.file_errors:
            raise ValidationError([Problem("file", m, "Art. 4, §1") for m in process.file_errors],
                                  "O arquivo de viagens foi recusado; nada foi gravado:\n"
                                  + "\n".join(process.file_errors))
        if process.digest != digest:
            raise ConflictError("O arquivo de viagens mudou no disco durante a importação; nada foi gravado. "
                                "Importe-o de novo.")
        reader.state.errors, reader.state.error_count = process.state.errors, process.state.error_count
        reader.state.fare_mismatches = process.state.fare_mismatches
        reader.state.fare_mismatch_lines = process.state.fare_mismatch_lines
        totals = process.totals
    errors = list(reader.state.errors)
    if route_points is not None:
        errors += route_points.errors
    if errors:
        if reader.state.error_count > len(reader.state.errors):
            errors.append(f"… e mais {reader.state.error_count - len(reader.state.errors)} erros.")
        raise ValidationError([Problem("file", m, "Art. 4, §1") for m in errors[:200]],
                              "O arquivo de viagens foi recusado; nada foi gravado:\n" + "\n".join(errors[:50]))
    if done == 0:
        raise ValidationError([Problem("file", "linha 2: o arquivo não tem nenhuma viagem.", "Art. 4, §1")])
    fare_note = reader.state.fare_note()
    if fare_note and fare_note not in reader.state.notes:
        reader.state.notes.append(fare_note)
    points = 0
    if route_points is not None and len(route_points):
        points = _store_routes_in(session, platform.id, route_points)
    dropped = sorted(set(reader.state.dropped) | set(route_points.dropped if route_points else []))
    fare_rows = totals.rows(imp.id, platform.id, register)
    for start in range(0, len(fare_rows), 5000):
        session.execute(insert(TripFareTotal), fare_rows[start:start + 5000])
    imp.trip_count, imp.route_point_count = done, points
    imp.dropped_columns, imp.ignored_columns = dropped or None, list(reader.state.ignored) or None
    session.flush()
    audit.record(session, actor, "trips.import", "platform", platform.id, None, {
        "trip_import_id": imp.id, "filename": name, "sha256": digest, "format": reader.state.format,
        "trips": done, "route_points": points, "dropped_columns": dropped, "ignored_columns": reader.state.ignored,
        "data_request_id": data_request_id})
    if data_request_id is not None:
        _answer_request_in(session, actor, data_request_id, imp.id, name, digest)
    return TripImportReport(imp.id, platform.id, platform.trade_name or platform.legal_name, name, digest,
                            reader.state.format, done, points, matched_drivers, matched_vehicles, tuple(dropped),
                            tuple(reader.state.ignored), tuple(reader.state.notes), data_request_id, street)


def _duplicates_after_error(session, raw, sqlite: bool, platform_id: int, ids: list[str], exc) -> list[str]:
    text = str(exc).lower()
    if "unique" not in text and "duplicate" not in text:
        raise exc
    if not sqlite:
        raise ConflictError("Há viagens deste arquivo já importadas desta plataforma; nada foi gravado.") from exc
    return _duplicates_in(session, platform_id, ids) or ["?"]


def _store_routes_in(session, platform_id: int, points) -> int:
    wanted = sorted(set(points.external_id))
    ids: dict[str, int] = {}
    for start in range(0, len(wanted), 500):
        part = wanted[start:start + 500]
        ids.update(session.execute(select(TripRow.external_id, TripRow.id).where(
            TripRow.platform_id == platform_id, TripRow.external_id.in_(part))).all())
    missing = [e for e in wanted if e not in ids]
    if missing:
        raise ValidationError([Problem("routes", f"rotas: a viagem «{e}» não está no arquivo de viagens.",
                                       "Art. 4, §1, III") for e in missing[:50]])
    rows = [{"trip_id": ids[e], "at": EPOCH + timedelta(microseconds=int(us)), "lat": float(la), "lon": float(lo)}
            for e, us, la, lo in zip(points.external_id, points.at_us.tolist(), points.lat.tolist(),
                                     points.lon.tolist())]
    for start in range(0, len(rows), 5000):
        session.execute(insert(TripRoutePoint), rows[start:start + 5000])
    return len(rows)


def import_trips(db, actor: Actor, platform_id: int, source, filename: str = "", routes=None,
                 routes_filename: str = "", data_request_id: int | None = None, state=None) -> TripImportReport:
    """Import a trip file (bytes or a path) from a platform, optionally with its routes and the data request it
    answers. Fiscal or gestor. One transaction: a bad line, a cancel or a crash leaves nothing."""
    require_trip_access(actor)
    path = None if isinstance(source, (bytes, bytearray, memoryview)) else str(Path(source))
    process = start_reader(db, path, _name(filename or Path(path or "viagens").name, "viagens"))
    try:
        content, name = _content_of(source)
        route_bytes, route_name = (_content_of(routes) if routes is not None else (None, ""))
        return _import(db, actor, platform_id, content, filename or name, route_bytes,
                       routes_filename or route_name, data_request_id, state, path, process)
    finally:
        if process is not None:
            process.close()


def start_reader(db, path: str | None, filename: str):
    """The reading process of a large CSV on SQLite, started before anything else (it spawns and imports its
    libraries while this process reads the file, checks its header and the register); None for a small file,
    a JSON file, bytes without a path, or PostgreSQL."""
    if path is None or not db.is_sqlite:
        return None
    try:
        if os.path.getsize(path) < PROCESS_MIN_BYTES:
            return None
        with open(path, "rb") as handle:
            head = handle.read(1 << 16).lstrip()
    except OSError:
        return None   # the read that follows says what is wrong with the file
    if head[:1] in (b"{", b"["):
        return None
    from desktop.importers import trips as reader_module  # lazy: loads numpy, pandas, pyarrow only when this runs
    from desktop.importers.trip_worker import ReaderProcess  # lazy: loads numpy, pandas, pyarrow only when this runs

    with db.session(write=False) as s:
        window = trip_window_in(s)
    return ReaderProcess(None, path, filename, reader_module.CHUNK_ROWS, window=window)


def _import(db, actor, platform_id, content, filename, routes, routes_filename, data_request_id, state, path,
            process=None):
    name, route_bytes, route_name = filename, routes, routes_filename
    if not db.is_sqlite:
        with db.session() as s:
            return import_trips_in(s, actor, platform_id, content, name, route_bytes, route_name,
                                   data_request_id, state)
    return _import_sqlite(db, actor, platform_id, content, name, route_bytes, route_name, data_request_id, state,
                          path, process)


# From this size (about 100,000 trips) a CSV is read by a process of its own (desktop.importers.trip_worker); a
# smaller one by a thread of this process (spawning a reader costs about half a second).
PROCESS_MIN_BYTES = 16 * 1024 * 1024


def _import_sqlite(db, actor, platform_id, content, filename, routes, routes_filename, request_id, state, path,
                   process=None):
    """SQLite bulk path (NOTES, bulk insert; as the demo loader): one `Database.bulk_session` — BEGIN IMMEDIATE on
    a connection whose per-row foreign-key checks are off (every reference the rows carry comes from the register
    read in this same locked transaction, the platform and import just checked; `PRAGMA foreign_key_check` proves
    them once before the commit, ≈ 0.5 s per million trips) — and, when the file is larger than what is stored,
    the trips' secondary index (on the month, as the models declare it) dropped and rebuilt before the commit.
    The unique key stays live."""
    def larger_than_stored(session) -> bool:
        stored = session.execute(text("SELECT coalesce(max(id), 0) FROM trip_rows")).scalar()
        return len(content) // 100 > stored   # a trip line has more than 100 bytes

    done: list[TripImportReport] = []

    def rebuilding() -> None:
        if state is not None and done:
            state.progress(done[0].trips, done[0].trips, "Reconstruindo os índices…")

    with db.bulk_session(check_fks=True, rebuild=TripRow.__table__.indexes, rebuild_if=larger_than_stored,
                         on_rebuild=rebuilding) as session:
        done.append(import_trips_in(session, actor, platform_id, content, filename, routes, routes_filename,
                                    request_id, state, source_path=path, process=process))
    return done[0]
