"""Soak test of the office (issue 12, "Done when"): several desks (processes) do mixed work through the services at
once for a fixed time, on PostgreSQL and on one SQLite file; afterwards the invariants are checked and printed.

    python3 bench/soak_desks.py [--pg-desks 4] [--sqlite-desks 2] [--seconds 60] [--pg-url URL] [--only pg|sqlite]

Each desk loops over, at random: an authorization from request to activation (driver, vehicle, request, analysis,
approval, initial inspection booked in a free slot and passed, fee paid → active), an auto drawn up and notified,
a fine payment of a notified auto, an inspection booking, and a save of ONE shared record (the same driver's phone,
with optimistic locking: a stale copy is reloaded and saved again). Every call runs through `desktop.db.retrying`
as the screens' `op()` does.

Checked at the end, each must be 0: repeated or missing numbers per kind and year (authorizations, autos, issued
documents), lost updates of the shared record, double bookings (an inspector's slot or a vehicle), a broken audit
chain, and raw database errors (anything but the typed, expected refusals: a slot taken meanwhile, a stale copy).
Prints operations per second per database and the retries the desks needed.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import sys
import tempfile
import time
import traceback
import uuid
from collections import Counter
from dataclasses import replace
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from desktop.services.actors import SYSTEM_ACTOR

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_PG = os.environ.get("DESKTOP_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


# ----------------------------------------------------------------------------------------------------- set-up

def _pg_schema_url(base: str) -> tuple[str, str]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    schema = f"soak_{uuid.uuid4().hex[:10]}"
    admin = create_engine(make_url(base), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    admin.dispose()
    url = make_url(base)
    query = dict(url.query)
    query["options"] = f"-csearch_path={schema}"
    return url.set(query=query).render_as_string(hide_password=False), schema


def _drop_schema(base: str, schema: str) -> None:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(make_url(base), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    admin.dispose()


def prepare(url: str) -> dict:
    """Migrate, load a small demonstration office (staff, parameters, calendar, places, codes) and the shared
    driver every desk saves."""
    from desktop.migrate import open_database
    from desktop.demo.loader import load_demo
    from desktop.services import drivers

    db = open_database(url)
    load_demo(db, drivers=30)
    staff = actors(db)
    draft = driver_draft(0)
    shared = drivers.register_driver(db, staff["clerk"], draft)
    db.dispose()
    return {"shared_id": shared.id, "shared_cpf": draft.cpf}


def actors(db) -> dict:
    from sqlalchemy import select

    from desktop.models import User
    from desktop.services.actors import Actor

    names = {"clerk": "ana.atendente", "manager": "gabriela.gestora", "inspector": "vitor.vistoriador",
             "fiscal": "fabio.fiscal"}
    found = {}
    with db.session(write=False) as s:
        for key, username in names.items():
            user = s.scalar(select(User).where(User.username == username))
            found[key] = Actor(user.id, user.username, user.full_name, frozenset(user.roles))
    return found


def driver_draft(seed: int, cpf: str | None = None):
    from validate_docbr import CNH, CPF

    from desktop.domain import DRIVER_CHECKLIST, local_today
    from desktop.services.drivers import ChecklistEntry, DriverDraft

    today = local_today()
    checklist = tuple(ChecklistEntry(key=i.key, number=f"{i.key.upper()}-{seed}", issued_on=today - timedelta(days=30),
                                     expires_on=today + timedelta(days=365) if i.has_expiry else None)
                      for i in DRIVER_CHECKLIST)
    return DriverDraft(cpf=cpf or CPF().generate(), name=f"Condutor Soak {seed}", birth_date=today.replace(year=1985),
                       address="Rua das Flores, 10", district="Centro", city="Chapada dos Guimarães", uf="MT",
                       zip_code="78195-000", phone="(65) 99999-0000", email="soak@example.com",
                       cnh_number=CNH().generate(), cnh_category="B", cnh_expiry=today + timedelta(days=900),
                       cnh_ear=True, nit="12345678901", checklist=checklist)


def vehicle_draft(rng: random.Random, desk: int, n: int):
    from validate_docbr import RENAVAM

    from desktop.domain import local_today
    from desktop.services.vehicles import VehicleDraft

    year = local_today().year
    letters = "ABCDEFGHIJ"
    plate = f"S{letters[desk % 10]}{letters[n // 1000 % 10]}{n // 100 % 10}{letters[n // 10 % 10]}{n % 10}{rng.randint(0, 9)}"
    return VehicleDraft(plate=plate, renavam=RENAVAM().generate(), make="Chevrolet", model="Onix Plus",
                        manufacture_year=year - 2, model_year=year - 1, doors=4, seats=5, air_conditioning=True,
                        registration_municipality="Chapada dos Guimarães", registration_uf="MT", colour="Prata",
                        crlv_year=year, compulsory_insurance_paid=True)


# ------------------------------------------------------------------------------------------------------ a desk

EXPECTED = ("ConflictError", "StaleRecordError")  # typed refusals a busy office meets: a slot taken, a stale copy


class Desk:
    def __init__(self, url: str, number: int, shared: dict, seconds: float):
        from desktop.db import Database

        self.db = Database(url)
        self.number = number
        self.rng = random.Random(1000 + number)
        self.staff = actors(self.db)
        self.shared = shared
        self.deadline = time.monotonic() + seconds
        self.ops = Counter()
        self.expected = Counter()
        self.errors: list[str] = []
        self.shared_saves = 0
        self.n = 0

    def call(self, kind: str, fn, *args, **kwargs):
        from desktop.db import retrying
        from desktop.errors import DesktopError, TransientDatabaseError, ValidationError

        try:
            result = retrying(fn, *args, **kwargs)
        except TransientDatabaseError as exc:  # still failing after the retry: a raw contention error
            self.errors.append(f"{kind}: {exc}")
            return None
        except ValidationError as exc:
            if not exc.problems or any(p.field == "" for p in exc.problems):
                self.errors.append(f"{kind}: {exc}")
            else:
                self.expected[f"{kind}:validation"] += 1
            return None
        except DesktopError as exc:
            if type(exc).__name__ in EXPECTED:
                self.expected[f"{kind}:{type(exc).__name__}"] += 1
            else:
                self.errors.append(f"{kind}: {type(exc).__name__}: {exc}")
            return None
        except Exception:  # noqa: BLE001 — a raw error: the soak's point is that there are none
            self.errors.append(f"{kind}: {traceback.format_exc(limit=3)}")
            return None
        self.ops[kind] += 1
        return result

    # -- the work --------------------------------------------------------------------------------------------
    def activation(self):
        from desktop.domain import local_today
        from desktop.services import authorizations as auth
        from desktop.services import drivers, vehicles

        s, today = self.staff, local_today()
        self.n += 1
        d = self.call("register_driver", drivers.register_driver, self.db, s["clerk"],
                      driver_draft(self.number * 100000 + self.n))
        v = self.call("register_vehicle", vehicles.register_vehicle, self.db, s["clerk"],
                      vehicle_draft(self.rng, self.number, self.n))
        if d is None or v is None:
            return
        a = self.call("request_authorization", auth.request_authorization, self.db, s["clerk"], d.id, v.id, today,
                      f"SOAK-{self.number}-{self.n}")
        a = a and self.call("start_analysis", auth.start_analysis, self.db, s["clerk"], a.id, a.version, on=today)
        a = a and self.call("approve", auth.approve_authorization, self.db, s["manager"], a.id, a.version, on=today)
        if a is None:
            return
        self.book(a.id, "initial")
        a = auth.get_authorization(self.db, s["clerk"], a.id)
        a = self.call("inspection_result", auth.record_inspection_result, self.db, s["inspector"], a.id, True,
                      on=today, expected_version=a.version)
        if a is None:
            return
        self.call("fee_payment", auth.record_fee_payment, self.db, s["clerk"], a.id, today,
                  f"SOAK{self.number:02d}{self.n:06d}", Decimal("150.00"), a.version)

    def book(self, authorization_id: int, kind: str):
        from desktop.services.inspections import booking

        options = self.call("booking_options", booking.booking_options, self.db, self.staff["clerk"],
                            authorization_id, kind)
        if options is None or not options.slots:
            return None
        for slot in self.rng.sample(list(options.slots[:12]), min(3, len(options.slots[:12]))):
            done = self.call("book_inspection", booking.book_inspection, self.db, self.staff["clerk"],
                             authorization_id, kind, slot.inspector_id, slot.start)
            if done is not None:
                return done
        return None

    def auto(self):
        from sqlalchemy import select

        from desktop.domain import local_today
        from desktop.domain.penalties import NotificationForm
        from desktop.models import Authorization
        from desktop.services import autos
        from desktop.services.autos import AutoDraft
        from desktop.services.autos.process import NotificationDraft, record_notification

        with self.db.session(write=False) as ses:
            ids = ses.scalars(select(Authorization.driver_id).where(Authorization.status == "active")
                              .order_by(Authorization.id.desc()).limit(40)).all()
        if not ids:
            return
        day = local_today() - timedelta(days=1)
        from datetime import time as clock
        draft = AutoDraft(on=day, code="ART26-I", driver_id=self.rng.choice(ids), platform_id=None, vehicle_id=None,
                          at=clock(14, 30), place="Av. Rio de Janeiro, em frente à praça",
                          description="Fato constatado pelo agente no local (soak).")
        info = self.call("draw_up_auto", autos.draw_up_auto, self.db, self.staff["fiscal"], draft)
        if info is not None:
            self.call("notification", record_notification, self.db, self.staff["fiscal"], info.id,
                      NotificationDraft("driver", NotificationForm.DIRECT, local_today(), local_today()), info.version)

    def fine_payment(self):
        from sqlalchemy import select

        from desktop.domain import local_today
        from desktop.models import Auto
        from desktop.services import ledger

        with self.db.session(write=False) as ses:
            ids = ses.scalars(select(Auto.id).where(Auto.status == "notified").order_by(Auto.id.desc())
                              .limit(20)).all()
        if not ids:
            return
        auto_id = self.rng.choice(ids)
        owed = ledger.auto_balance(self.db, SYSTEM_ACTOR, auto_id)
        if owed <= 0:
            return
        self.call("fine_payment", ledger.record_payment, self.db, self.staff["clerk"],
                  ledger.PaymentDraft(auto_id, local_today(), owed, f"F{self.number:02d}{self.n:07d}"))
        self.n += 1

    def shared_save(self):
        from desktop.services import drivers

        current = drivers.get_driver(self.db, self.staff["clerk"], self.shared["shared_id"])
        phone = f"(65) 9{self.number:02d}{self.rng.randint(0, 99):02d}-{self.rng.randint(0, 9999):04d}"
        draft = replace(driver_draft(0, cpf=self.shared["shared_cpf"]), phone=phone)
        saved = self.call("shared_save", drivers.update_driver, self.db, self.staff["clerk"],
                          self.shared["shared_id"], draft, current.version)
        if saved is not None:
            self.shared_saves += 1

    def run(self) -> dict:
        work = [(self.activation, 2), (self.auto, 3), (self.fine_payment, 2), (self.shared_save, 3)]
        choices = [fn for fn, weight in work for _ in range(weight)]
        started = time.monotonic()
        from desktop.db import retries_in_this_thread

        while time.monotonic() < self.deadline:
            self.rng.choice(choices)()
        elapsed = time.monotonic() - started
        self.db.dispose()
        return {"desk": self.number, "ops": dict(self.ops), "expected": dict(self.expected), "errors": self.errors,
                "retries": retries_in_this_thread(), "shared_saves": self.shared_saves, "seconds": elapsed}


def desk_main(args):
    url, number, shared, seconds = args
    return Desk(url, number, shared, seconds).run()


# --------------------------------------------------------------------------------------------------- checks

LIVE_INSPECTIONS = ("scheduled",)


def check(url: str, shared: dict, results: list[dict]) -> dict:
    from sqlalchemy import func, select

    from desktop.db import Database
    from desktop.models import Authorization, Auto, Inspection, IssuedDocument
    from desktop.services.audit import verify
    from desktop.services.numbering import parse_number

    db = Database(url)
    problems: dict[str, int] = {}
    with db.session(write=False) as s:
        for label, column in (("autorizações", Authorization.number), ("autos", Auto.number)):
            numbers = [n for n in s.scalars(select(column)) if n]
            problems[f"números repetidos ({label})"] = len(numbers) - len(set(numbers))
            by_year: dict[int, list[int]] = {}
            for n in numbers:
                seq, year = parse_number(n)
                by_year.setdefault(year, []).append(seq)
            gaps = sum(max(v) - len(set(v)) for v in by_year.values())
            problems[f"lacunas na numeração ({label})"] = gaps
        docs = s.execute(select(IssuedDocument.kind, IssuedDocument.number)).all()
        problems["documentos com número repetido"] = len(docs) - len(set(docs))
        live = LIVE_INSPECTIONS
        slot_dupes = s.execute(select(Inspection.inspector_id, Inspection.scheduled_start, func.count())
                               .where(Inspection.status.in_(live), Inspection.scheduled_start.is_not(None))
                               .group_by(Inspection.inspector_id, Inspection.scheduled_start)
                               .having(func.count() > 1)).all()
        problems["vistorias no mesmo horário do vistoriador"] = len(slot_dupes)
        vehicle_dupes = s.execute(select(Inspection.vehicle_id, Inspection.scheduled_start, func.count())
                                  .where(Inspection.status.in_(live), Inspection.scheduled_start.is_not(None))
                                  .group_by(Inspection.vehicle_id, Inspection.scheduled_start)
                                  .having(func.count() > 1)).all()
        problems["vistorias no mesmo horário do veículo"] = len(vehicle_dupes)
    audit = verify(db)
    problems["cadeia de auditoria quebrada"] = 0 if audit.ok else 1
    problems["erros crus do banco"] = sum(len(r["errors"]) for r in results)
    db.dispose()
    return problems


def version_step(url: str, shared: dict) -> tuple[int, int]:
    """How much one save of the shared driver moves its version (measured once, alone)."""
    from desktop.db import Database
    from desktop.services import drivers

    db = Database(url)
    clerk = actors(db)["clerk"]
    before = drivers.get_driver(db, clerk, shared["shared_id"]).version
    drivers.update_driver(db, clerk, shared["shared_id"], replace(driver_draft(0, cpf=shared["shared_cpf"]),
                                                                   phone="(65) 98888-0000"), before)
    after = drivers.get_driver(db, clerk, shared["shared_id"]).version
    db.dispose()
    return after - before, after


def soak(label: str, url: str, desks: int, seconds: float) -> dict:
    shared = prepare(url)
    step, base_version = version_step(url, shared)
    ctx = mp.get_context("spawn")
    started = time.monotonic()
    with ctx.Pool(desks) as pool:
        results = pool.map(desk_main, [(url, i + 1, shared, seconds) for i in range(desks)])
    wall = time.monotonic() - started
    from sqlalchemy import select

    from desktop.db import Database
    from desktop.models import Driver
    db = Database(url)
    with db.session(write=False) as s:
        final = s.scalar(select(Driver.version).where(Driver.id == shared["shared_id"]))
    db.dispose()
    problems = check(url, shared, results)
    saves = sum(r["shared_saves"] for r in results)
    problems["atualizações perdidas (registro compartilhado)"] = abs((final - base_version) - saves * step)
    ops = Counter()
    expected = Counter()
    for r in results:
        ops.update(r["ops"])
        expected.update(r["expected"])
    total = sum(ops.values())
    return {"label": label, "desks": desks, "seconds": seconds, "wall": wall, "ops": ops, "total": total,
            "per_second": total / seconds, "retries": sum(r["retries"] for r in results), "expected": expected,
            "problems": problems, "errors": [e for r in results for e in r["errors"]][:10]}


def report(result: dict) -> None:
    print(f"\n== {result['label']}: {result['desks']} estações × {result['seconds']:.0f} s")
    print(f"   operações: {result['total']} ({result['per_second']:.1f}/s); novas tentativas: {result['retries']}")
    print("   por tipo: " + ", ".join(f"{k} {v}" for k, v in sorted(result["ops"].items())))
    if result["expected"]:
        print("   recusas esperadas: " + ", ".join(f"{k} {v}" for k, v in sorted(result["expected"].items())))
    for name, count in result["problems"].items():
        print(f"   {name}: {count}")
    for error in result["errors"]:
        print("   ERRO: " + error.strip().replace("\n", "\n         "))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg-desks", type=int, default=4)
    parser.add_argument("--sqlite-desks", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--pg-url", default=DEFAULT_PG)
    parser.add_argument("--only", choices=("pg", "sqlite"))
    args = parser.parse_args(argv)
    print(f"carga da máquina: {os.getloadavg()}")
    results = []
    if args.only != "sqlite":
        url, schema = _pg_schema_url(args.pg_url)
        try:
            results.append(soak("PostgreSQL", url, args.pg_desks, args.seconds))
        finally:
            _drop_schema(args.pg_url, schema)
    if args.only != "pg":
        with tempfile.TemporaryDirectory() as folder:
            from desktop.db import sqlite_url
            results.append(soak("SQLite", sqlite_url(Path(folder) / "soak.sqlite3"), args.sqlite_desks,
                                args.seconds))
    for result in results:
        report(result)
    print(f"carga da máquina: {os.getloadavg()}")
    bad = sum(sum(r["problems"].values()) for r in results)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
