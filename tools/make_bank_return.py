"""Writes bank return files of the Padrão FEBRABAN de arrecadação (150-byte records A/G/Z; the layout and its
source are in `desktop/importers/bank_return.py`) — for the tests, the demo and the benchmark.

    python tools/make_bank_return.py --db URL --out retorno.txt [--nsa N] [--limit 20] [--paid-on AAAA-MM-DD]
        [--guide 0001/2026 ...]

pays the open guides of the database that have a barcode (all of them, the first `--limit`, or the ones named),
each with its exact amount, on `--paid-on` (default: the day before the file's date). The functions `record_a`,
`record_g`, `record_z` and `build_return` write any file, also wrong ones, for the importer's tests.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from desktop.importers.bank_return import build_return, record_a, record_g, record_z  # noqa: E402

__all__ = ["build_return", "main", "open_guide_payments", "record_a", "record_g", "record_z"]


def _today() -> date:
    from desktop.domain.clock import today  # the program's clock (America/Cuiaba; the tests freeze it)
    return today()


def open_guide_payments(db, *, limit: int | None = None, numbers: Iterable[str] = (), paid_on: date | None = None):
    """(barcode, amount, paid_on) of the open guides of `db` that carry a barcode, oldest first."""
    from sqlalchemy import select

    from desktop.models import PaymentGuide

    stmt = select(PaymentGuide.number, PaymentGuide.barcode, PaymentGuide.amount_reais, PaymentGuide.created_at) \
        .where(PaymentGuide.status == "open", PaymentGuide.barcode.is_not(None)).order_by(PaymentGuide.id)
    wanted = [n.strip() for n in numbers if n.strip()]
    if wanted:
        stmt = stmt.where(PaymentGuide.number.in_(wanted))
    if limit:
        stmt = stmt.limit(limit)
    with db.session(write=False) as s:
        rows = s.execute(stmt).all()
    out = []
    for r in rows:
        day = paid_on or max(r.created_at.date(), _today() - timedelta(days=1))
        out.append((r.barcode, Decimal(r.amount_reais), day))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Gera um arquivo de retorno FEBRABAN de arrecadação (A/G/Z).")
    parser.add_argument("--db", required=True, help="URL do banco (sqlite:///… ou postgresql+psycopg://…)")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--nsa", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--paid-on", type=date.fromisoformat, default=None)
    parser.add_argument("--guide", action="append", default=[], help="número da guia (pode repetir)")
    parser.add_argument("--agreement", default="0421")
    args = parser.parse_args(argv)
    from desktop.db import Database

    db = Database(args.db)
    try:
        payments = open_guide_payments(db, limit=args.limit, numbers=args.guide, paid_on=args.paid_on)
    finally:
        db.dispose()
    if not payments:
        print("Nenhuma guia em aberto com código de barras.", file=sys.stderr)
        return 1
    args.out.write_bytes(build_return(payments, nsa=args.nsa, agreement=args.agreement))
    total = sum((p[1] for p in payments), Decimal("0"))
    print(f"{args.out}: {len(payments)} pagamento(s), total R$ {total:.2f}".replace(".", ","))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
