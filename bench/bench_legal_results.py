"""Issue 12 items 1-3, 5, 7 through the services, on SQLite and PostgreSQL: per auto, a payment made before the
decision is final, a partial judgment requalifying ART26-IV → ART26-III (requalification + refund entries), the
dialog's reads (`decision_choices`, `requalification_targets`), an appeal waived in writing, and a reversal
refused the second time. Prints the mean and p95 in ms of each step (figures go in notes, not in tests).

    python3 bench/bench_legal_results.py [--autos 60] [--skip-pg] [--skip-sqlite]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from datetime import date
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from desktop import migrate  # noqa: E402
from desktop.db import Database, sqlite_url  # noqa: E402
from desktop.domain.roles import Role  # noqa: E402
from desktop.errors import ConflictError  # noqa: E402
from desktop.models import User  # noqa: E402
from desktop.services import autos, ledger, process  # noqa: E402
from desktop.services.actors import Actor  # noqa: E402
from desktop.services.catalog import ensure_catalog  # noqa: E402
from tests.db.enforcement_factories import authorized_driver, draft, notify, setup_upfm  # noqa: E402
from desktop.services.actors import SYSTEM_ACTOR

WAIVER = process.Attachment("desistencia.pdf", b"%PDF-1.4 desisto", kind="waiver")


def _actor(db, role: Role, name: str) -> Actor:
    with db.session() as s:
        user = User(username=f"{name}{uuid.uuid4().hex[:6]}", full_name=name, password_hash="x")
        user.set_roles((role,))
        s.add(user)
        s.flush()
        return Actor(user.id, user.username, name, frozenset({role}))


def run(db: Database, label: str, count: int) -> None:
    ensure_catalog(db)
    setup_upfm(db)
    fiscal, gestor, clerk = (_actor(db, Role.FISCAL, "fiscal"), _actor(db, Role.GESTOR, "gestor"),
                             _actor(db, Role.ATENDENTE, "atendente"))
    times: dict[str, list[float]] = defaultdict(list)

    def timed(key, fn):
        start = time.perf_counter()
        result = fn()
        times[key].append((time.perf_counter() - start) * 1000)
        return result

    for _ in range(count):
        driver_id, _, _ = authorized_driver(db)
        auto = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
        info = notify(db, fiscal, auto, date(2026, 3, 3))
        payment = timed("record_payment (antes da decisão)", lambda: ledger.record_payment(
            db, clerk, ledger.PaymentDraft(info.id, date(2026, 3, 5), info.amount_reais)))
        info = autos.get_auto_info(db, SYSTEM_ACTOR, info.id)
        info = process.file_defense(db, clerk, info.id, date(2026, 3, 10), "defesa", info.version)
        timed("decision_choices + requalification_targets", lambda: (
            process.decision_choices(db, gestor, info.id), process.requalification_targets(db, gestor, info.id)))
        info = timed("judge (mantido em parte: requalificação + restituição)", lambda: process.judge(
            db, gestor, info.id, process.JudgmentDraft(process.Outcome.PARTLY_UPHELD, date(2026, 3, 20), "Parcial.",
                                                       requalified_code="ART26-III"), info.version))
        timed("record_waiver (decisão definitiva)", lambda: process.record_waiver(
            db, clerk, info.id, process.WaiverDraft(date(2026, 3, 21), attachment=WAIVER), info.version))
        ledger.reverse_entry(db, gestor, payment.id, "devolvido", on=date(2026, 3, 22))
        start = time.perf_counter()
        try:
            ledger.reverse_entry(db, gestor, payment.id, "de novo", on=date(2026, 3, 22))
            raise AssertionError("um segundo estorno foi aceito")
        except ConflictError:
            times["reverse_entry recusado (2º estorno)"].append((time.perf_counter() - start) * 1000)
    listed = timed("refunds (lista)", lambda: ledger.refunds(db, gestor))
    print(f"{label}: {count} autos, {len(listed)} restituições listadas")
    for key, values in times.items():
        values = sorted(values)
        p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
        print(f"  {key:55s} média {statistics.mean(values):7.1f} ms   p95 {p95:7.1f} ms   (n={len(values)})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--autos", type=int, default=60)
    parser.add_argument("--skip-sqlite", action="store_true")
    parser.add_argument("--skip-pg", action="store_true")
    parser.add_argument("--pg", default=os.environ.get("DESKTOP_TEST_PG_URL",
                                                       "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()
    if not args.skip_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            db = Database(sqlite_url(Path(tmp) / "bench.sqlite3"))
            migrate.upgrade(db, backup=False)
            run(db, "SQLite", args.autos)
            db.dispose()
    if args.skip_pg:
        return
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(make_url(args.pg), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # noqa: BLE001
        print(f"PostgreSQL indisponível: {exc.__class__.__name__}")
        return
    try:
        url = make_url(args.pg).update_query_dict({"options": f"-csearch_path={schema}"})
        db = Database(url.render_as_string(hide_password=False))
        migrate.upgrade(db, backup=False)
        run(db, "PostgreSQL", args.autos)
        db.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


if __name__ == "__main__":
    main()
