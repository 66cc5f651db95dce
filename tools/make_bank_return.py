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
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

CENT = Decimal("0.01")


def _today() -> date:
    from desktop.domain.clock import today  # the program's clock (America/Cuiaba; the tests freeze it)
    return today()


def _cents(amount) -> int:
    return int((Decimal(amount) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def record_a(*, agreement: str = "0421", company: str = "PREF CHAPADA GUIMARAE", bank_code: str = "001",
             bank_name: str = "BANCO DO BRASIL S.A.", generated_on: date, nsa: int, version: str = "05") -> str:
    line = ("A" + "2" + agreement[:20].ljust(20) + company[:20].ljust(20) + bank_code[:3].zfill(3)
            + bank_name[:20].ljust(20) + generated_on.strftime("%Y%m%d") + f"{int(nsa):06d}" + version[:2].zfill(2)
            + "CODIGO DE BARRAS".ljust(17) + " " * 52)
    assert len(line) == 150, len(line)
    return line


def record_g(*, barcode: str, amount, paid_on: date, credited_on: date | None = None, nsr: int = 1,
             account: str = "00100012000000123456", bank_fee=Decimal("0"), agency: str = "0012", channel: str = "1",
             authentication: str = "", payment_form: str = "1") -> str:
    credited_on = credited_on or paid_on + timedelta(days=1)
    line = ("G" + account[:20].rjust(20, "0") + paid_on.strftime("%Y%m%d") + credited_on.strftime("%Y%m%d")
            + barcode[:44].ljust(44) + f"{_cents(amount):012d}" + f"{_cents(bank_fee):07d}" + f"{int(nsr):08d}"
            + agency[:8].ljust(8) + channel[:1] + (authentication or f"AUT{nsr:08d}")[:23].ljust(23)
            + payment_form[:1] + " " * 9)
    assert len(line) == 150, len(line)
    return line


def record_z(*, records: int, total) -> str:
    line = "Z" + f"{int(records):06d}" + f"{_cents(total):017d}" + " " * 126
    assert len(line) == 150, len(line)
    return line


def build_return(payments: Iterable[tuple[str, Decimal, date]], *, nsa: int = 1, generated_on: date | None = None,
                 agreement: str = "0421", newline: str = "\r\n", trailer_records: int | None = None,
                 trailer_total: Decimal | None = None) -> bytes:
    """The bytes of a return file paying `payments` = (barcode, amount, paid_on). `trailer_records` /
    `trailer_total` override the trailer (to write a wrong one)."""
    payments = list(payments)
    generated_on = generated_on or (max((p[2] for p in payments), default=_today()) + timedelta(days=1))
    lines = [record_a(agreement=agreement, generated_on=generated_on, nsa=nsa)]
    total = Decimal("0.00")
    for k, (barcode, amount, paid_on) in enumerate(payments, start=1):
        lines.append(record_g(barcode=barcode, amount=amount, paid_on=paid_on, nsr=k + 1))
        total += Decimal(amount).quantize(CENT)
    count = len(lines) + 1 if trailer_records is None else trailer_records
    lines.append(record_z(records=count, total=total if trailer_total is None else trailer_total))
    return (newline.join(lines) + newline).encode("ascii")


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
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
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
