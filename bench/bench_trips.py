"""Benchmark of issue 15 (trip data): `python bench/bench_trips.py [--n 1000000] [--pg URL] [--ui-n N]`.

Measured in the same run, each in its own process (so the peak memory is the import's own):
Steps 1 and 2 alternate --repeat times (default 3) and the best run of each is compared, as timeit does: on a
shared machine one run of either can be 10-20 % slower for reasons of its own (every run is printed).
1. baseline: a plain `sqlite3.executemany` of the same rows (already built as tuples, nothing parsed) into a
   table of the same columns with the same unique key (platform_id, external_id), one transaction;
2. the product's import of the same trips from the pinned CSV (with two passenger columns it drops) into a migrated
   SQLite database (`services.trips.import_trips`: the file read and checked by a reading process while this one
   links the trips to the register and writes them, the month index rebuilt, the commit), its wall time and peak
   memory (VmHWM of the importing process, plus the largest peak of the processes it started and joined: the
   reading process);
   target: time ≤ 1.5 × baseline, peak ≤ 1 GB;
3. the month's fares of those trips (`services.trips.fares`), target ≤ 1 s;
4. with --pg: the same import on PostgreSQL through COPY, and its fares;
5. the UI never blocks: a QTimer ticking every 10 ms on the UI thread while the import runs in the background
   (desktop.background.Task); the worst gap between ticks, target ≤ 100 ms.
The data come from this file's own generator (seeded), all trips in November 2026.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HEADER = ("Nome do passageiro;Telefone do passageiro;ID da viagem;Placa;CPF do condutor;Início;Fim;Origem lat;"
          "Origem lon;Destino lat;Destino lon;Distância (m);Duração (s);Valor total (R$);Tarifa base (R$);"
          "Valor por distância (R$);Valor por tempo (R$);Taxa da plataforma (R$);Outros (R$);Avaliação;"
          "Tipo de chamada")
CNPJ = "11222333000181"


def _cpfs(rng, k: int) -> list[str]:
    out = []
    while len(out) < k:
        base = list(rng.integers(0, 10, 9))
        for size in (9, 10):
            base.append(sum(int(d) * w for d, w in zip(base, range(size + 1, 1, -1))) * 10 % 11 % 10)
        out.append("".join(map(str, base)))
    return out


def make_csv(n: int, seed: int = 15) -> bytes:
    """n trips of 2,000 drivers in November 2026, vectorised (a few seconds for 1,000,000)."""
    rng = np.random.default_rng(seed)
    drivers = np.array(_cpfs(rng, 2000), dtype=object)
    letters = np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    plates = np.array([f"Q{a}{b}{d}{c}{e:02d}" for a, b, c, d, e in zip(
        rng.choice(letters, 2000), rng.choice(letters, 2000), rng.choice(letters, 2000),
        rng.integers(0, 10, 2000), rng.integers(0, 100, 2000))], dtype=object)
    who = rng.integers(0, 2000, n)
    start = rng.integers(0, 29 * 86400, n)
    secs = rng.integers(300, 2400, n)
    metres = (secs * rng.uniform(4, 11, n)).astype(np.int64)
    dist_fare = metres * 180 // 1000
    time_fare = secs * 35 // 60
    total = 500 + dist_fare + time_fare
    fee = total // 4
    base = np.datetime64("2026-11-01T00:00:00")
    starts = (base + start.astype("timedelta64[s]")).astype(str)
    ends = (base + (start + secs).astype("timedelta64[s]")).astype(str)

    def br(ts):   # 2026-11-01T08:00:00 -> 01/11/2026 08:00:00 (Cuiabá)
        return np.array([f"{t[8:10]}/{t[5:7]}/{t[0:4]} {t[11:19]}" for t in ts.tolist()])

    def money(c):
        return np.char.add(np.char.add((c // 100).astype(str), ","), np.char.zfill((c % 100).astype(str), 2))

    lat = (-15.46 + rng.uniform(-0.02, 0.02, n)).round(6).astype(str)
    lon = (-55.75 + rng.uniform(-0.02, 0.02, n)).round(6).astype(str)
    hail = np.where(rng.random(n) < 0.03, "via pública", "aplicativo")
    rating = np.where(rng.random(n) < 0.2, "", rng.choice(np.array(["3,5", "4", "4,5", "4,8", "5"]), n))
    cols = [np.full(n, "Passageira Exemplo"), np.full(n, "65999990000"),
            np.char.add("T", np.arange(n).astype(str)), plates[who], drivers[who], br(starts), br(ends),
            lat, lon, lat, lon, metres.astype(str), secs.astype(str), money(total), np.full(n, "5,00"),
            money(dist_fare), money(time_fare), money(fee), np.full(n, "0"), rating, hail]
    body = "\n".join(";".join(row) for row in zip(*[c.tolist() for c in cols]))
    return (HEADER + "\n" + body + "\n").encode("utf-8")


def _peak_mb() -> float:
    """This process's own peak (VmHWM: reset by exec, unlike ru_maxrss, which a spawned child inherits)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _migrated_sqlite(path: Path) -> str:
    from desktop import migrate
    from desktop.db import Database, sqlite_url

    url = sqlite_url(path)
    db = Database(url)
    migrate.upgrade(db, backup=False)
    db.dispose()
    return url


def _platform(db) -> int:
    from desktop.models import Platform

    with db.session() as s:
        p = Platform(cnpj=CNPJ, legal_name="Bench Mobilidade Ltda", trade_name="Bench", status="active")
        s.add(p)
        s.flush()
        return p.id


def _actor():
    from desktop.domain.roles import Role
    from desktop.services.actors import Actor

    return Actor(None, "bench", "Bench", frozenset(Role))


# ------------------------------------------------------------------------------------------------ children
def child_baseline(csv_path: str, out: dict) -> None:
    """Rows built beforehand (not timed): the values the import writes, every column bound; then only the
    executemany is timed."""
    from desktop.importers.trip_writer import TRIP_COLUMNS, _python_values, sqlite_chunk
    from desktop.importers.trips import TripReader

    reader = TripReader(Path(csv_path).read_bytes())
    rows = []
    for chunk in reader:
        sc = sqlite_chunk(chunk)
        n = len(sc)
        cols = {"platform_id": [1] * n, "data_request_id": [None] * n, "import_id": [1] * n, "driver_id": [None] * n,
                "vehicle_id": [None] * n, **sc.texts, **{k: _python_values(*v) for k, v in sc.numbers.items()}}
        rows.extend(zip(*(cols[c] for c in TRIP_COLUMNS)))
    path = Path(tempfile.mkdtemp()) / "baseline.sqlite3"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    types = {"external_id": "VARCHAR(80)", "driver_cpf": "VARCHAR(11)", "plate": "VARCHAR(7)",
             "started_at": "DATETIME", "ended_at": "DATETIME", "hail_type": "VARCHAR(20)"}
    cols_sql = ", ".join(f"{c} {types.get(c, 'NUMERIC')}" for c in TRIP_COLUMNS)
    con.execute(f"CREATE TABLE baseline_trips (id INTEGER PRIMARY KEY, {cols_sql}, "
                f"UNIQUE (platform_id, external_id))")
    started = time.perf_counter()
    con.execute("BEGIN")
    con.executemany(f"INSERT INTO baseline_trips ({', '.join(TRIP_COLUMNS)}) VALUES "
                    f"({', '.join('?' for _ in TRIP_COLUMNS)})", rows)
    con.execute("COMMIT")
    out["seconds"] = time.perf_counter() - started
    out["rows"] = con.execute("SELECT count(*) FROM baseline_trips").fetchone()[0]
    con.close()


def child_import(url: str, csv_path: str, out: dict) -> None:
    from desktop.db import Database
    from desktop.services import trips

    db = Database(url)
    pid = _platform(db)
    before = _peak_mb()
    started = time.perf_counter()
    report = trips.import_trips(db, _actor(), pid, csv_path)
    out["seconds"] = time.perf_counter() - started
    out["rows"] = report.trips
    out["dropped"] = list(report.dropped_columns)
    out["peak_mb"] = _peak_mb()
    out["peak_before_mb"] = before
    # the reading process (a large CSV on SQLite), joined by the import: the largest finished child of this one
    out["reader_peak_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    timings = []
    for attempt in range(3):   # the month's fares, best of 3 (the first warms the page cache)
        started = time.perf_counter()
        lines = trips.fares(db, _actor(), 2026, 11)
        timings.append(time.perf_counter() - started)
    out["fares_seconds"] = timings
    out["fares_lines"] = len(lines)
    db.dispose()


def child_ui(url: str, csv_path: str, out: dict) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from desktop.db import Database
    from desktop.services import trips
    from desktop.background import Task

    app = QApplication.instance() or QApplication([])
    if os.environ.get("BENCH_WARM_IMPORTS", "1") == "1":
        import desktop.importers.trip_writer  # noqa: F401 - pandas and pyarrow loaded before the clock starts
        import desktop.importers.trips  # noqa: F401
    db = Database(url)
    pid = _platform(db)
    gaps, last, done = [], [time.perf_counter()], {}

    def tick():
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)
    timer.start()
    started = time.perf_counter()
    task = Task(lambda state: trips.import_trips(db, _actor(), pid, csv_path, state=state))
    task.success(lambda r: done.setdefault("report", r)).failure(lambda e: done.setdefault("error", repr(e)))
    task.run_in_background(None, title="Importando", show_progress=True)
    while "report" not in done and "error" not in done:
        app.processEvents()
        time.sleep(0.001)
    timer.stop()
    out["seconds"] = time.perf_counter() - started
    out["error"] = done.get("error")
    out["ticks"] = len(gaps)
    out["worst_gap_ms"] = max(gaps) * 1000 if gaps else None
    out["p99_gap_ms"] = float(np.percentile(np.array(gaps) * 1000, 99)) if gaps else None
    db.dispose()


def _run(target, *args) -> dict:
    ctx = mp.get_context("spawn")
    manager = ctx.Manager()
    out = manager.dict()
    proc = ctx.Process(target=target, args=(*args, out))
    proc.start()
    proc.join()
    if proc.exitcode != 0:
        raise SystemExit(f"{target.__name__} falhou (código {proc.exitcode})")
    return dict(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs of the baseline and of the import (best kept)")
    parser.add_argument("--ui-n", type=int, default=None, help="trips of the UI measurement (default: --n)")
    parser.add_argument("--pg", default=None, help="PostgreSQL URL (an empty database or schema)")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()}")
    work = Path(tempfile.mkdtemp(prefix="bench-trips-"))
    started = time.perf_counter()
    csv_path = work / "viagens.csv"
    csv_path.write_bytes(make_csv(args.n))
    print(f"generated {args.n} trips ({csv_path.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - started:.1f} s")
    results: dict = {"n": args.n}
    # best of --repeat runs of each, alternating (as timeit: the least disturbed run of each says most)
    bases, imps = [], []
    for attempt in range(args.repeat):
        bases.append(_run(child_baseline, str(csv_path)))
        imps.append(_run(child_import, _migrated_sqlite(work / f"produto-{attempt}.sqlite3"), str(csv_path)))
    results["baseline"] = base = min(bases, key=lambda r: r["seconds"])
    results["sqlite"] = imp = min(imps, key=lambda r: r["seconds"])
    results["baseline_runs"] = [round(r["seconds"], 3) for r in bases]
    results["sqlite_runs"] = [round(r["seconds"], 3) for r in imps]
    print(f"baseline sqlite3.executemany: {base['seconds']:.2f} s best of {results['baseline_runs']} "
          f"({base['rows']} rows)")
    ratio = imp["seconds"] / base["seconds"]
    print(f"import (SQLite): {imp['seconds']:.2f} s best of {results['sqlite_runs']} = {ratio:.2f} × baseline "
          f"(target ≤ 1.5); runs one by one: "
          f"{[round(i['seconds'] / b['seconds'], 2) for b, i in zip(bases, imps)]}; peak "
          f"{imp['peak_mb']:.0f} MB + reading process {imp['reader_peak_mb']:.0f} MB = "
          f"{imp['peak_mb'] + imp['reader_peak_mb']:.0f} MB (target ≤ 1024); dropped {imp['dropped']}")
    print(f"month's fares (SQLite): {min(imp['fares_seconds']):.3f} s best, {imp['fares_seconds']} "
          f"({imp['fares_lines']} lines; target ≤ 1 s)")
    if args.pg:
        results["postgresql"] = pg = _run(child_pg, args.pg, str(csv_path))
        print(f"import (PostgreSQL, COPY): {pg['seconds']:.2f} s; peak {pg['peak_mb']:.0f} MB; fares "
              f"{min(pg['fares_seconds']):.3f} s best")
    ui_path = csv_path
    if args.ui_n and args.ui_n != args.n:
        ui_path = work / "viagens-ui.csv"
        ui_path.write_bytes(make_csv(args.ui_n, seed=16))
    results["ui"] = ui = _run(child_ui, _migrated_sqlite(work / "ui.sqlite3"), str(ui_path))
    print(f"UI during the background import ({args.ui_n or args.n} trips, {ui['seconds']:.1f} s): worst gap "
          f"{ui['worst_gap_ms']:.0f} ms, p99 {ui['p99_gap_ms']:.0f} ms over {ui['ticks']} ticks (target ≤ 100 ms)"
          + (f"; error {ui['error']}" if ui.get("error") else ""))
    print(f"load average: {os.getloadavg()}")
    print(json.dumps(results, default=str))
    return 0


def child_pg(base_url: str, csv_path: str, out: dict) -> None:
    import uuid

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from desktop import migrate
    from desktop.db import Database

    schema = f"bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(make_url(base_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base_url)
    url = url.set(query={**url.query, "options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    try:
        db = Database(url)
        migrate.upgrade(db, backup=False)
        db.dispose()
        child_import(url, csv_path, out)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


if __name__ == "__main__":
    sys.exit(main())
