"""Benchmark of the 60-day lists (issue 14): a list of 20,000 lines validated, stored and reconciled in ≤ 3 s on
SQLite with ≤ 300 MB of memory; the reconciliation screen opens in ≤ 200 ms.

    python3 bench/bench_platform_lists.py                       # SQLite file in /tmp, 20,000 lines, 5,000 authorized
    python3 bench/bench_platform_lists.py --lines 20000 --register 10000

The register (drivers, vehicles, active authorizations) is written straight through the models (outside the
timing); the list mixes authorized pairs, swapped pairs, changed owners and unknown drivers and vehicles. Wall and
CPU time are both reported: the machine is shared. Figures go in the notes, not in timed tests (STYLE).
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _plate(n: int) -> str:
    letters = "ABCDEFGHIJ"
    return f"Q{letters[n // 100000 % 10]}{letters[n // 10000 % 10]}{n // 1000 % 10}{letters[n // 100 % 10]}" \
           f"{n // 10 % 10}{n % 10}"


def build_register(db, count: int, rng: random.Random):
    from validate_docbr import CNH, CPF, RENAVAM

    from desktop.models import Authorization, Driver, Vehicle

    cpf, cnh, ren = CPF(), CNH(), RENAVAM()
    people = []
    with db.session() as s:
        for i in range(count):
            c, r, h = cpf.generate(), ren.generate(), cnh.generate()
            d = Driver(cpf=c, name=f"Condutor {i}", cnh_number=h, cnh_category="B", cnh_ear=True,
                       address="Rua A, 1", district="Centro", city="Chapada dos Guimarães", uf="MT")
            v = Vehicle(plate=_plate(i), renavam=r, make="Fiat", model="Cronos", manufacture_year=2022,
                        model_year=2022, doors=4, seats=5, air_conditioning=True,
                        registration_municipality="Chapada dos Guimarães", registration_uf="MT")
            s.add_all([d, v])
            people.append((d, v, c, r, h))
        s.flush()
        for i, (d, v, _, _, _) in enumerate(people):
            s.add(Authorization(number=f"{i + 1:04d}/2026", driver_id=d.id, vehicle_id=v.id, status="active",
                                protocol_date=date(2026, 1, 2), fee_paid_on=date(2026, 1, 5),
                                activated_on=date(2026, 1, 5), valid_until=date(2026, 12, 31),
                                valid_until_limited_by="term", inspection_approved_on=date(2026, 1, 5)))
    return [(c, _plate(i), r, h) for i, (_, _, c, r, h) in enumerate(people)]


def build_list(register, lines: int, rng: random.Random) -> bytes:
    from validate_docbr import CNH, CPF, RENAVAM

    cpf, cnh, ren = CPF(), CNH(), RENAVAM()
    out = ["CPF do condutor;Nome do condutor;CNH;Placa;RENAVAM;CPF/CNPJ do proprietário;Nome do proprietário"]
    cnhs = [cnh.generate() for _ in range(500)]
    for n in range(lines):
        if n < len(register) * 0.9:
            c, plate, r, h = register[n]
            owner = c
            if n % 50 == 1:
                plate = register[(n + 1) % len(register)][1]     # swapped pair
            if n % 70 == 3:
                owner = cpf.generate()                            # owner changed
        else:
            c, plate, r, h = cpf.generate(), _plate(900000 + n), ren.generate(), cnhs[n % 500]
            owner = c
        out.append(f"{c};Condutor {n};{h};{plate};{r};{owner};Proprietário {n}")
    return ("\r\n".join(out) + "\r\n").encode("utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20000)
    parser.add_argument("--register", type=int, default=5000)
    args = parser.parse_args()

    from desktop import migrate
    from desktop.db import Database, sqlite_url
    from desktop.domain.roles import Role
    from desktop.services import platform_lists, platforms
    from desktop.services.actors import Actor

    rng = random.Random(14)
    folder = Path(tempfile.mkdtemp(prefix="bench-platform-lists-"))
    db = Database(sqlite_url(folder / "bench.sqlite3"))
    migrate.upgrade(db, backup=False)
    actor = Actor(None, "bench", "Benchmark", frozenset(Role))
    t = time.perf_counter()
    register = build_register(db, args.register, rng)
    p = platforms.create_platform(db, actor, platforms.PlatformDraft(
        cnpj="11.222.333/0001-81", legal_name="Bench Ltda", trade_name="Bench", municipal_registration_number="IM-1",
        municipal_registration_date=date.today() - timedelta(days=100)))
    content = build_list(register, args.lines, rng)
    print(f"register of {args.register} authorizations and a {len(content) / 1e6:.1f} MB list of {args.lines} "
          f"lines prepared in {time.perf_counter() - t:.1f} s")

    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    wall, cpu = time.perf_counter(), time.process_time()
    report = platform_lists.import_list(db, actor, p.id, content, "lista.csv", date.today())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"import (read + validate + store + reconcile) of {report.rows} lines: wall {wall:.2f} s, "
          f"CPU {cpu:.2f} s (target ≤ 3 s); peak RSS {rss_after:.0f} MB (before {rss_before:.0f} MB; "
          f"target ≤ 300 MB)")
    print("  " + "; ".join(f"{label}: {n}" for label, n in report.by_situation))

    from PySide6.QtWidgets import QApplication

    from desktop.views.platforms import RECON_COLUMNS, ReconciliationTable

    app = QApplication.instance() or QApplication([])
    table = ReconciliationTable(RECON_COLUMNS)
    for attempt in range(3):
        wall, cpu = time.perf_counter(), time.process_time()
        rec = platform_lists.reconciliation(db, actor, platform_id=p.id)
        table.set_rows(rec.lines)
        app.processEvents()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"reconciliation screen ({len(rec.lines)} findings of {rec.row_count} lines), run {attempt + 1}: "
              f"wall {wall * 1000:.0f} ms, CPU {cpu * 1000:.0f} ms (target ≤ 200 ms)")
    db.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
