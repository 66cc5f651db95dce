"""Benchmark of the inspection scheduler (issue 5): the week view with 10 inspectors × 20 slots a day renders in
≤ 200 ms; bulk scheduling of 5,000 annual inspections ≤ 5 s.

    python3 bench/bench_inspections.py                                   # SQLite file in /tmp
    python3 bench/bench_inspections.py --db sqlite:////tmp/x.sqlite3 --drivers 9000

The data: the demo loader (`python -m desktop demo`, ~58 % of its authorizations active) for the authorizations,
plus 10 bench inspectors ("Vistoriador Bench 01..10") working every day 07:00-17:00, one slot every 30 minutes
(20 a day). An existing database with enough active authorizations is reused; the bulk scheduling is rolled back
(its bookings cancelled) after each run so the figures can be repeated.

Figures: wall clock and process CPU time (the machine is shared: CPU time is what the same work costs on an idle
desktop; with SQLite the whole work is in this process). Figures go in the notes, not in timed tests (STYLE).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import date, time as dtime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

INSPECTORS = 10


def timed(fn, repeat: int):
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        walls.append((time.perf_counter() - w0) * 1000)
        cpus.append((time.process_time() - c0) * 1000)
    return walls, cpus, result


def report(name: str, walls, cpus, limit_ms: float) -> None:
    med, cpu = statistics.median(walls), statistics.median(cpus)
    verdict = "OK" if med <= limit_ms else ("OK em CPU" if cpu <= limit_ms else "ACIMA")
    print(f"{name}: mediana {med:.0f} ms (mín {min(walls):.0f}, máx {max(walls):.0f}), CPU {cpu:.0f} ms "
          f"— limite {limit_ms:.0f} ms: {verdict}")


def ensure_data(db, drivers: int):
    from sqlalchemy import func, select

    from desktop.domain.roles import Role
    from desktop.models import Authorization, InspectorSchedule, User
    from desktop.services import inspections as svc
    from desktop.services.actors import SYSTEM_ACTOR

    with db.session(write=False) as s:
        has_drivers = s.scalar(select(func.count()).select_from(Authorization))
    if not has_drivers:
        from desktop.demo import load_demo
        t0 = time.perf_counter()
        load_demo(db, drivers=drivers)
        print(f"dados de demonstração: {drivers} condutores em {time.perf_counter() - t0:.1f} s")
    from argon2 import PasswordHasher
    hashed = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash("bench")
    with db.session() as s:
        ids = []
        for n in range(1, INSPECTORS + 1):
            name = f"bench.vistoriador{n:02d}"
            user = s.scalar(select(User).where(User.username == name))
            if user is None:
                user = User(username=name, full_name=f"Vistoriador Bench {n:02d}", password_hash=hashed)
                user.set_roles({Role.VISTORIADOR})
                s.add(user)
                s.flush()
            ids.append(user.id)
        existing = set(s.scalars(select(InspectorSchedule.inspector_id).where(InspectorSchedule.inspector_id.in_(ids))))
    for inspector in ids:
        if inspector in existing:
            continue
        for weekday in range(7):
            svc.add_schedule(db, SYSTEM_ACTOR, inspector, weekday, dtime(7), dtime(17), 30, None,
                             valid_from=date(2000, 1, 1))
    return ids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="sqlite:////tmp/bench_inspections.sqlite3")
    parser.add_argument("--drivers", type=int, default=9000)
    parser.add_argument("--bulk", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from sqlalchemy import select, update

    from desktop.migrate import open_database
    from desktop.models import Authorization, Inspection
    from desktop.services import inspections as svc
    from desktop.services.actors import SYSTEM_ACTOR

    db = open_database(args.db)
    print(db.describe())
    inspectors = ensure_data(db, args.drivers)
    today = svc.today()

    # ---------------------------------------------------------------- week view: 10 inspectors × 20 slots × 7 days
    from PySide6.QtWidgets import QApplication

    from desktop.views.inspections.grid import ScheduleGrid
    app = QApplication.instance() or QApplication([])
    monday = today + timedelta(days=7 - today.weekday())
    grid = ScheduleGrid()
    grid.resize(1600, 900)
    grid.show()
    first, last = monday, monday + timedelta(days=6)

    def load():
        return svc.calendar_data(db, SYSTEM_ACTOR, first, last)

    data = load()
    only_bench = [s for s in data.slots if s.inspector_id in inspectors]
    print(f"semana {first:%d/%m/%Y}–{last:%d/%m/%Y}: {len(only_bench)} horários dos {INSPECTORS} vistoriadores "
          f"de teste ({len(data.slots)} no total), {sum(1 for s in data.slots if s.booking)} marcados")

    def render():
        grid.show_range(data, "week")
        app.processEvents()
        grid.viewport().repaint()

    walls, cpus, _ = timed(load, args.repeat)
    report("semana: consulta (calendar_data)", walls, cpus, 200)
    walls, cpus, _ = timed(render, args.repeat)
    report("semana: desenho da grade (show_range + pintura)", walls, cpus, 200)
    walls, cpus, _ = timed(lambda: (load(), render()), args.repeat)
    report("semana: consulta + desenho", walls, cpus, 200)

    # ---------------------------------------------------------------- bulk scheduling of 5,000 annual inspections
    with db.session(write=False) as s:
        live = set(s.scalars(select(Inspection.authorization_id).where(Inspection.status == "scheduled")))
        ids = [i for i in s.scalars(select(Authorization.id).where(Authorization.status == "active")
                                    .order_by(Authorization.id)) if i not in live][:args.bulk]
    print(f"agendamento em lote: {len(ids)} autorizações ativas sem vistoria marcada")
    start = today + timedelta(days=1)
    results = []
    for _ in range(max(1, args.repeat // 2)):
        w0, c0 = time.perf_counter(), time.process_time()
        result = svc.schedule_annual(db, SYSTEM_ACTOR, ids, start, start + timedelta(days=60))
        wall, cpu = (time.perf_counter() - w0) * 1000, (time.process_time() - c0) * 1000
        results.append((wall, cpu))
        print(f"  {result.message}")
        with db.session() as s:  # undo: cancel what the run booked, so the next run starts alike
            s.execute(update(Inspection).where(Inspection.status == "scheduled", Inspection.kind == "annual",
                                               Inspection.authorization_id.in_(ids))
                      .values(status="cancelled", cancel_reason="benchmark", version=Inspection.version + 1)
                      .execution_options(synchronize_session=False))
    report(f"lote de {len(ids)} vistorias anuais (schedule_annual)", [r[0] for r in results],
           [r[1] for r in results], 5000)
    grid.close()
    db.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
