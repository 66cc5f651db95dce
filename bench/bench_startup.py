"""Start-up benchmark (issue 2: ≤ 0.8 s to the login window, ≤ 1.2 s to the main window, 100,000 drivers).

Each run starts the real program in a fresh process (`python -m desktop --db URL`) with DESKTOP_STARTUP_PROBE=1:
desktop/app.py then prints time stamps (JSON lines) — QApplication ready, login window painted, database open,
log-in accepted, main window painted — logs in with the benchmark user and quits. Times are measured from just
before the process is spawned, so they include the interpreter and every import.

    python3 bench/bench_startup.py                 # 100,000 drivers, 7 runs, offscreen
    python3 bench/bench_startup.py --platform xcb  # under a real X server (e.g. Xvfb :99, DISPLAY=:99)
    python3 bench/bench_startup.py --use-demo      # fill the database with `python -m desktop demo`

The database is made once (bench/out/, not versioned) by its own generator: valid CPFs, names, dates, written
with sqlite3 executemany in one transaction; `--use-demo` uses the program's demo command instead.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import time
import unicodedata
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
USER, PASSWORD = "bench.admin", "bench-senha-2025"

FIRST = ("João", "Maria", "José", "Ana", "Antônio", "Francisca", "Carlos", "Adriana", "Paulo", "Juliana", "Lucas",
         "Márcia", "Luiz", "Fernanda", "Pedro", "Patrícia", "Marcos", "Aline", "Rafael", "Sebastião", "Conceição")
LAST = ("Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes",
        "Ribeiro", "Carvalho", "Almeida", "Lopes", "Araújo", "Barbosa", "Conceição", "Guimarães", "Magalhães")


def cpf_digits(seq: int) -> str:
    """A valid CPF (check digits computed) from a sequence number."""
    base = [int(c) for c in f"{seq:09d}"]
    for weight_start in (10, 11):
        total = sum(d * w for d, w in zip(base, range(weight_start, 1, -1)))
        check = (total * 10) % 11
        base.append(0 if check == 10 else check)
    return "".join(map(str, base))


def fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


def make_database(path: Path, drivers: int, use_demo: bool) -> None:
    sys.path.insert(0, str(ROOT))
    from desktop.migrate import open_database
    from desktop.services import setup

    path.parent.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{path}"
    db = open_database(url)
    setup.initialize(db, setup.MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=date.today().year, upfm_value=Decimal("112.45")),
        setup.AdminDraft(USER, "Administrador do Benchmark", PASSWORD))
    db.dispose()
    started = time.perf_counter()
    if use_demo:
        subprocess.run([sys.executable, "-m", "desktop", "--db", url, "demo", "--drivers", str(drivers),
                        "--seed", "7"], cwd=ROOT, check=True)
    else:
        rng = random.Random(7)
        now = datetime.now(timezone.utc).isoformat(sep=" ")
        rows = []
        for i in range(1, drivers + 1):
            name = f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)}"
            birth = date(1960, 1, 1) + timedelta(days=rng.randrange(0, 40 * 365))
            rows.append((cpf_digits(100_000_000 + i), name, birth.isoformat(), "Rua das Flores, 10", "Centro",
                         "Chapada dos Guimarães", "MT", f"6599{i:07d}"[:11], f"{i:011d}", "B",
                         (date.today() + timedelta(days=rng.randrange(-100, 1500))).isoformat(), 1, "active",
                         fold(name), 1, now, now))
        con = sqlite3.connect(path)
        with con:
            con.executemany(
                "INSERT INTO drivers (cpf, name, birth_date, address, district, city, uf, phone, cnh_number, "
                "cnh_category, cnh_expiry, cnh_ear, status, search_key, version, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        con.close()
    count = sqlite3.connect(path).execute("SELECT count(*) FROM drivers").fetchone()[0]
    print(f"database: {path} — {count} drivers ({time.perf_counter() - started:.1f} s to fill)")


def one_run(url: str, platform: str) -> dict[str, float]:
    env = dict(os.environ, DESKTOP_STARTUP_PROBE="1", DESKTOP_PROBE_USER=USER, DESKTOP_PROBE_PASSWORD=PASSWORD,
               QT_QPA_PLATFORM=platform)
    env.pop("DESKTOP_DB_URL", None)
    started = time.time()
    proc = subprocess.run([sys.executable, "-m", "desktop", "--db", url], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    events: dict[str, float] = {}
    for line in proc.stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if "time" in event:
            events[event["event"]] = event["time"] - started
        elif event.get("event") == "login_failed":
            raise SystemExit(f"login failed: {event.get('message')}")
    if "main_shown" not in events:
        raise SystemExit(f"the program did not reach the main window (exit {proc.returncode}):\n{proc.stderr}")
    return events


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--drivers", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--platform", default="offscreen", help="offscreen (default) or xcb (needs DISPLAY)")
    parser.add_argument("--use-demo", action="store_true", help="fill with `python -m desktop demo`")
    parser.add_argument("--db", type=Path, help="SQLite file (default bench/out/startup-<N>.sqlite3)")
    args = parser.parse_args(argv)
    path = args.db or OUT / f"startup-{args.drivers}{'-demo' if args.use_demo else ''}.sqlite3"
    if not path.exists():
        make_database(path, args.drivers, args.use_demo)
    url = f"sqlite:///{path}"
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; platform {args.platform}")
    runs = [one_run(url, args.platform) for _ in range(args.runs)]
    columns = (
        ("login window painted", lambda e: e["login_shown"]),
        ("database open (login usable)", lambda e: e["database_open"]),
        ("main window painted", lambda e: e["main_shown"]),
        ("  of which log-in (Argon2)", lambda e: e["login_accepted"] - e["login_submit"]),
        ("main window after log-in", lambda e: e["main_shown"] - e["login_accepted"]),
        ("main window minus log-in", lambda e: e["main_shown"] - (e["login_accepted"] - e["login_submit"])),
    )
    print(f"{'seconds from spawn':32} {'first':>7} {'median':>7} {'min':>7} {'max':>7}")
    for label, value in columns:
        values = [value(e) for e in runs]
        print(f"{label:32} {values[0]:7.3f} {statistics.median(values):7.3f} {min(values):7.3f} {max(values):7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
