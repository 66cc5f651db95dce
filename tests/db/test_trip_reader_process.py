"""The reading process of a large trip file (issue 15; desktop.importers.trip_worker): a CSV from
`PROCESS_MIN_BYTES` is read and checked by a spawned process while the importing one writes. The same trips, the
same refusals naming the line, passengers never in the database, nothing stored on a cancel, a file changed on
disk between the two reads, or an importer killed mid-way — and no reading process left behind. SQLite only:
PostgreSQL takes the file through COPY from a reading thread."""
from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from decimal import Decimal

import pytest
from registry_factories import desk  # noqa: F401
from sqlalchemy import func, select
from test_cli import ROOT
from tests.waiting import process_gone
from trip_factories import PASSENGER_CPF, PASSENGER_NAME, PASSENGER_PHONE, kill_when, make_platform, trip, trips_csv

from desktop.errors import ConflictError, ValidationError
from desktop.importers import trips as reader_module
from desktop.models.platforms import TripFareTotal, TripImport, TripRow
from desktop.services import trips as svc

imports = importlib.import_module("desktop.services.trips.imports")  # the package has a function of that name

PLATE = "ABC1D23"
DRIVER = "52998224725"


@pytest.fixture
def sqlite_db(db):
    if not db.is_sqlite:
        pytest.skip("the reading process is SQLite's path (PostgreSQL: COPY from a reading thread)")
    return db


@pytest.fixture
def in_process(monkeypatch):
    """Every CSV goes to the reading process, in chunks of 3 trips."""
    monkeypatch.setattr(imports, "PROCESS_MIN_BYTES", 0)
    monkeypatch.setattr(reader_module, "CHUNK_ROWS", 3)


def count(db, model=TripRow) -> int:
    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(model))


def no_reader_left(timeout: float = 10.0) -> bool:
    """The reading processes this one started have all ended (joined: the wait ends when they do)."""
    end = time.monotonic() + timeout
    for child in [c for c in multiprocessing.active_children() if c.name == "trip-reader"]:
        child.join(max(0.0, end - time.monotonic()))
    return not [c for c in multiprocessing.active_children() if c.name == "trip-reader"]


def ten_trips(**extra):
    return trips_csv(*[trip(f"T{i}", PLATE, DRIVER, total=f"{10 + i},50", **extra) for i in range(10)])


@pytest.mark.parametrize("by_path", [True, False])
def test_art4_the_reading_process_stores_the_same_trips_and_fare_totals(sqlite_db, desk, in_process, tmp_path,
                                                                       by_path):
    db = sqlite_db
    p = make_platform(db, desk.clerk)
    file = tmp_path / "viagens.csv"
    file.write_bytes(ten_trips())
    report = svc.import_trips(db, desk.fiscal, p.id, file if by_path else file.read_bytes(), "viagens.csv")
    assert report.trips == 10 and "Nome do passageiro" in report.dropped_columns
    with db.session(write=False) as s:
        fares = sorted(s.scalars(select(TripRow.fare_total)))
        total = s.scalars(select(TripFareTotal)).one()
        imp = s.scalars(select(TripImport)).one()
    assert fares == [Decimal(f"{10 + i}.50") for i in range(10)]
    assert total.trips == 10 and total.fare_total == sum(fares) and total.driver_cpf == DRIVER
    assert imp.trip_count == 10 and no_reader_left()
    with db.session(write=False) as s:   # dropped for the bulk write, rebuilt before the commit
        indexes = {row[1] for row in s.connection().exec_driver_sql("PRAGMA index_list(trip_rows)")}
    assert "ix_trip_rows_month" in indexes
    db.dispose()
    raw = b"".join(path.read_bytes() for path in db.sqlite_path.parent.glob(db.sqlite_path.name + "*"))
    for secret in (PASSENGER_NAME, PASSENGER_CPF, PASSENGER_PHONE):
        assert secret.encode() not in raw
    assert b"T9" in raw


def test_art4_a_bad_line_read_by_the_process_refuses_the_file_naming_it(sqlite_db, desk, in_process):
    db = sqlite_db
    p = make_platform(db, desk.clerk)
    rows = [trip(f"T{i}", PLATE, DRIVER) for i in range(10)]
    rows[7] = trip("T7", PLATE, DRIVER, total="doze")
    with pytest.raises(ValidationError) as info:
        svc.import_trips(db, desk.fiscal, p.id, trips_csv(*rows), "v.csv")
    assert "linha 9, coluna «Valor total (R$)»" in "\n".join(x.message for x in info.value.problems)
    assert count(db) == 0 and count(db, TripImport) == 0 and no_reader_left()


def test_art4_a_file_changed_on_disk_between_the_two_reads_is_refused(sqlite_db, desk, in_process, tmp_path):
    db = sqlite_db
    p = make_platform(db, desk.clerk)
    file = tmp_path / "v.csv"
    file.write_bytes(ten_trips())
    with db.session() as s:
        with pytest.raises(ConflictError, match="mudou no disco"):
            imports.import_trips_in(s, desk.fiscal, p.id, ten_trips(rating="3"), "v.csv", source_path=str(file))
        s.rollback()
    assert count(db) == 0 and no_reader_left()


def test_art4_cancel_while_the_process_reads_leaves_nothing_and_no_reader(sqlite_db, desk, in_process):
    db = sqlite_db
    p = make_platform(db, desk.clerk)

    class Cancel:
        calls = 0
        cancelled = property(lambda self: self.calls >= 2)

        def progress(self, done, total=0, text=""):
            self.calls += 1

    with pytest.raises(svc.ImportCancelled):
        svc.import_trips(db, desk.fiscal, p.id, ten_trips(), "v.csv", state=Cancel())
    assert count(db) == 0 and count(db, TripImport) == 0 and no_reader_left()


_KILLED = textwrap.dedent("""
    import sys
    from desktop.db import Database
    from desktop.importers import trips as reader
    from desktop.services import trips
    from desktop.services.actors import Actor
    from desktop.domain.roles import Role

    reader.CHUNK_ROWS = 500
    sys.modules["desktop.services.trips.imports"].PROCESS_MIN_BYTES = 0

    class State:
        cancelled = False
        def progress(self, done, total=0, text=""):
            if done:
                import multiprocessing
                pids = [c.pid for c in multiprocessing.active_children() if c.name == "trip-reader"]
                print("CHUNK", done, *pids, flush=True)

    if __name__ == "__main__":
        db = Database(sys.argv[1])
        actor = Actor(None, "terminal:teste", "Teste", frozenset(Role))
        trips.import_trips(db, actor, int(sys.argv[2]), sys.argv[3], state=State())
        print("FINISHED", flush=True)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_art4_an_importer_killed_mid_way_leaves_zero_trips_and_its_reader_ends(sqlite_db, desk, tmp_path):
    db = sqlite_db
    p = make_platform(db, desk.clerk)
    file = tmp_path / "muitas.csv"
    file.write_bytes(trips_csv(*[trip(f"T{i:06d}", PLATE, DRIVER) for i in range(20_000)]))
    script = tmp_path / "killed.py"
    script.write_text(_KILLED)
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, str(script), db.url, str(p.id), str(file)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pids: list[int] = []

    def reading(parts) -> bool:
        if parts[:1] == ["CHUNK"] and int(parts[1]) >= 1000 and len(parts) > 2:
            pids.append(int(parts[2]))
        return bool(pids)

    kill_when(proc, reading)
    reader_pid = pids[0] if pids else None
    assert proc.returncode == -signal.SIGKILL and reader_pid, proc.stderr.read()
    assert process_gone(reader_pid, 10), "the reading process outlived the importer"
    db.dispose()
    assert count(db) == 0 and count(db, TripImport) == 0


def test_art4_a_reading_process_that_cannot_start_leaves_the_reading_to_this_one(sqlite_db, desk, in_process,
                                                                                  monkeypatch):
    """A reading process that ends before its first chunk (it could not start: a broken installation, a
    security tool killing it) does not fail the import: this process reads the file itself."""
    from desktop.importers import trip_worker

    original = trip_worker.ReaderProcess.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.process.kill()   # long before it has imported its libraries, let alone read a line
        self.process.join(10)

    monkeypatch.setattr(trip_worker.ReaderProcess, "__init__", init)
    db = sqlite_db
    p = make_platform(db, desk.clerk)
    report = svc.import_trips(db, desk.fiscal, p.id, ten_trips(), "v.csv")
    assert report.trips == 10 and count(db) == 10
    with db.session(write=False) as s:
        assert s.scalars(select(TripFareTotal)).one().trips == 10
    assert no_reader_left()


def test_art4_a_reading_process_that_breaks_mid_way_refuses_the_file_and_stores_nothing(sqlite_db, desk, in_process,
                                                                                       monkeypatch):
    from desktop.importers import trip_worker

    original = trip_worker.ReaderProcess.__next__

    def next_then_die(self):
        chunk = original(self)
        if self.chunks == 1:
            self.process.kill()   # after its first chunk: some trips are already written in the transaction
            self.process.join(10)
        return chunk

    monkeypatch.setattr(trip_worker.ReaderProcess, "__next__", next_then_die)
    db = sqlite_db
    p = make_platform(db, desk.clerk)
    many = trips_csv(*[trip(f"T{i:05d}", PLATE, DRIVER) for i in range(3000)])   # more than the pipe holds
    with pytest.raises(trip_worker.ReaderFailed, match="nada foi gravado"):
        svc.import_trips(db, desk.fiscal, p.id, many, "v.csv")
    assert count(db) == 0 and count(db, TripImport) == 0 and no_reader_left()
