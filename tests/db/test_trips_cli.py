"""Trip data through the commands (issue 15): `python -m desktop import trips --platform CNPJ FILE [--routes FILE]`
and `python -m desktop export fares --month AAAA-MM --out FILE`, run in a separate process as the office would;
and an import killed mid-way (SIGKILL) leaves zero trips (one transaction, Art. 4; SPEC §4 all or nothing)."""
from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from registry_factories import desk  # noqa: F401
from sqlalchemy import func, select
from test_cli import ROOT, run
from trip_factories import PASSENGER_NAME, kill_when, make_platform, routes_csv, trip, trips_csv

from desktop.models.platforms import TripImport, TripRoutePoint, TripRow

CNPJ = "11.222.333/0001-81"
PLATE = "ABC1D23"
DRIVER = "52998224725"


def count(db, model=TripRow) -> int:
    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(model))


def test_cli_import_trips_then_export_fares_with_the_pinned_headers(db, desk, tmp_path):
    make_platform(db, desk.clerk, cnpj=CNPJ)
    file = tmp_path / "viagens.csv"
    file.write_bytes(trips_csv(trip("T1", PLATE, DRIVER, total="20,00"), trip("T2", PLATE, DRIVER, total="5,50")))
    routes = tmp_path / "rotas.csv"
    routes.write_bytes(routes_csv(("T1", "18/11/2026 08:00:00", "-15,46", "-55,75"),
                                  ("T1", "18/11/2026 08:10:00", "-15,45", "-55,73")))
    done = run("--db", db.url, "import", "trips", "--platform", CNPJ, str(file), "--routes", str(routes))
    assert done.returncode == 0, done.stderr
    assert "Viagens importadas: 2" in done.stdout and "Pontos de rota: 2" in done.stdout
    assert "Nome do passageiro" in done.stdout and PASSENGER_NAME not in done.stdout + done.stderr
    assert count(db) == 2 and count(db, TripRoutePoint) == 2
    out = tmp_path / "tarifas.csv"
    exported = run("--db", db.url, "export", "fares", "--month", "2026-11", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    with out.open(encoding="utf-8-sig") as f:
        rows = list(csv.reader(f, delimiter=";"))
    assert rows[0] == ["Competência", "Placa", "CPF do condutor", "Viagens", "Distância (km)", "Valor total (R$)",
                       "Avaliação média"]
    assert rows[1][:4] == ["2026-11", PLATE, "529.982.247-25", "2"] and rows[1][5] == "25,50"


def test_cli_import_trips_refused_exit_1_with_the_error_lines_nothing_stored(db, desk, tmp_path):
    make_platform(db, desk.clerk, cnpj=CNPJ)
    file = tmp_path / "viagens.csv"
    file.write_bytes(trips_csv(trip("T1", PLATE, DRIVER), trip("T2", "XX", DRIVER), trip("T3", PLATE, DRIVER,
                                                                                       start="31/02/2026 08:00:00")))
    done = run("--db", db.url, "import", "trips", "--platform", CNPJ, str(file))
    assert done.returncode == 1
    assert "linha 3, coluna «Placa»" in done.stderr and "linha 4, coluna «Início»" in done.stderr
    assert count(db) == 0 and count(db, TripImport) == 0
    unknown = run("--db", db.url, "import", "trips", "--platform", "45.723.174/0001-10", str(file))
    assert unknown.returncode == 1 and "Nenhuma plataforma" in unknown.stderr
    month = run("--db", db.url, "export", "fares", "--out", str(tmp_path / "x.csv"))
    assert month.returncode == 2


_KILLED_IMPORT = textwrap.dedent("""
    import sys
    from desktop.db import Database
    from desktop.importers import trips as reader
    from desktop.services import trips
    from desktop.services.actors import Actor
    from desktop.domain.roles import Role

    reader.CHUNK_ROWS = 500

    class State:
        cancelled = False
        def progress(self, done, total=0, text=""):
            if done:
                print("CHUNK", done, flush=True)

    db = Database(sys.argv[1])
    actor = Actor(None, "terminal:teste", "Teste", frozenset(Role))
    trips.import_trips(db, actor, int(sys.argv[2]), sys.argv[3], state=State())
    print("FINISHED", flush=True)
""")


def test_art4_an_import_killed_mid_way_leaves_zero_trips(db, desk, tmp_path):
    p = make_platform(db, desk.clerk, cnpj=CNPJ)
    file = tmp_path / "muitas.csv"
    file.write_bytes(trips_csv(*[trip(f"T{i:06d}", PLATE, DRIVER) for i in range(60_000)]))
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_IMPORT, db.url, str(p.id), str(file)], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = kill_when(proc, lambda parts: parts[:1] == ["CHUNK"] and int(parts[1]) >= 2000)
    assert proc.returncode == -signal.SIGKILL, (seen, proc.stderr.read())
    assert "FINISHED" not in seen and any(s.startswith("CHUNK") for s in seen)
    db.dispose()
    assert count(db) == 0 and count(db, TripImport) == 0
    # and the database is usable afterwards: the same file imports whole
    from desktop.services import trips

    report = trips.import_trips(db, desk.fiscal, p.id, Path(file))
    assert report.trips == 60_000 and count(db) == 60_000
