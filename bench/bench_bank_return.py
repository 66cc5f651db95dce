"""The bank's return file at scale (issue 13 budget): a return file of 10,000 payments (Padrão FEBRABAN de
arrecadação) imported — read, every G record matched to its guide by the barcode, each guide paid, the file
registered, one transaction — in ≤ 5 s on SQLite.

The guides are written with raw executemany (stored forms of Dec / AwareDateTime): by default 90 % ISSQN
guides of the platforms (only the guide row changes) and 10 % inspection-fee guides (each with its fee and its
append-only fee payment record).

Issue 23: a share of the lines (`--unmatched`, default 2 %) match no guide and are kept as unreconciled payments
in the same transaction (the money received is never dropped).

    python3 bench/bench_bank_return.py [--payments 10000] [--fee-share 0.1] [--unmatched 0.02]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop import migrate  # noqa: E402
from desktop.db import Database, sqlite_url  # noqa: E402
from desktop.domain import clock  # noqa: E402
from desktop.domain.roles import Role  # noqa: E402
from desktop.importers.bank_return import build_return  # noqa: E402
from desktop.reports import febraban  # noqa: E402
from desktop.services import bank_returns  # noqa: E402
from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize  # noqa: E402

TODAY = datetime(2026, 11, 18, 10, 0)
DUE = date(2026, 12, 10)
AGREEMENT = "0421"


def _seed(db: Database, payments: int, fee_share: float) -> list[tuple[str, Decimal, date]]:
    admin = initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55"), febraban_agreement=AGREEMENT),
        AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    fees = int(payments * fee_share)
    guide_rows, fee_rows, out = [], [], []
    created = "2026-11-01T10:00:00.000000+00:00" if db.is_sqlite else datetime(2026, 11, 1, 10, 0)
    for i in range(1, payments + 1):
        number = f"{i:04d}/2026"
        amount = Decimal(100 + i % 900) + Decimal(i % 100) / 100
        barcode = febraban.arrecadacao_barcode(amount, AGREEMENT, DUE, number)
        purpose = "fee" if i <= fees else "issqn"
        stored = int(amount * 100) if db.is_sqlite else amount
        due = DUE.isoformat() if db.is_sqlite else DUE
        guide_rows.append((i, number, purpose, stored, due, f"Contribuinte {i}", "12345678000195", barcode, "open",
                           1, created, i if purpose == "fee" else None))
        if purpose == "fee":
            fee_rows.append((i, "inspection", due, stored, number, "open", 1, created))
        out.append((barcode, amount, date(2026, 11, 17)))
    with db.write_engine.begin() as conn:
        raw = conn.connection.driver_connection
        mark = "?" if db.is_sqlite else "%s"
        cur = raw.cursor()
        cur.executemany(f"INSERT INTO fees (id, kind, due_on, amount_reais, guide_number, status, version, "
                        f"created_at) VALUES ({', '.join([mark] * 8)})", fee_rows)
        cur.executemany(f"INSERT INTO payment_guides (id, number, purpose, amount_reais, due_on, payer_name, "
                        f"payer_document, barcode, status, version, created_at, fee_id) "
                        f"VALUES ({', '.join([mark] * 12)})", guide_rows)
        cur.close()
    return out, admin


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--payments", type=int, default=10_000)
    parser.add_argument("--fee-share", type=float, default=0.1)
    parser.add_argument("--unmatched", type=float, default=0.02)
    args = parser.parse_args(argv)
    clock.set_clock(clock.fixed(TODAY))
    print(f"load average: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as folder:
        db = Database(sqlite_url(Path(folder) / "bench.sqlite3"))
        migrate.upgrade(db, backup=False)
        payments, admin = _seed(db, args.payments, args.fee_share)
        from desktop.services import users
        info = users.create_user(db, admin, users.UserDraft("caixa", "Caixa", frozenset({Role.ATENDENTE}),
                                                            "senha-forte-2025"))
        from desktop.services.actors import Actor
        clerk = Actor(info.id, info.username, info.full_name, frozenset(info.roles))
        unmatched = int(len(payments) * args.unmatched)
        for k in range(unmatched):   # barcodes of no guide: kept as unreconciled payments (issue 23 point 8)
            payments[-1 - k] = ("8" * 30 + f"{k:014d}", payments[-1 - k][1], payments[-1 - k][2])
        content = build_return(payments, nsa=1, generated_on=date(2026, 11, 18))
        started = time.perf_counter()
        report = bank_returns.import_bank_return(db, clerk, content, "bench.txt")
        seconds = time.perf_counter() - started
        print(f"SQLite: {report.payments} pagamentos, {report.recorded} registrados, {report.rejected} não "
              f"conciliados (guardados) "
              f"em {seconds:.2f} s ({seconds / max(report.payments, 1) * 1000:.3f} ms/linha) — meta ≤ 5 s: "
              f"{'OK' if seconds <= 5 else 'ACIMA'}")
        again = time.perf_counter()
        duplicate = bank_returns.import_bank_return(db, clerk, content, "bench.txt")
        print(f"SQLite: o mesmo arquivo de novo: duplicado={duplicate.duplicate} em "
              f"{time.perf_counter() - again:.2f} s")
        db.dispose()
    print(f"load average: {os.getloadavg()}")
    return 0 if seconds <= 5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
