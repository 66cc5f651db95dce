"""Benchmark of the documents (issue 7): 1,000 stickers each with its own signed QR in one batch (target ≤ 3 s),
one notice (target ≤ 50 ms), and the parts of the sticker batch. Its own data generator; no database.

    python bench/bench_reports.py [--stickers 1000] [--repeat 3]

Prints wall time and CPU time (the machine may be shared: CPU time shows the work, wall time the wait).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop.reports import notices, qr, sticker  # noqa: E402
from desktop.reports.common import TZ, DocumentMeta, MunicipalityHeader  # noqa: E402
from desktop.signing import generate_keypair  # noqa: E402

HEADER = MunicipalityHeader("Chapada dos Guimarães", "MT", "Secretaria Municipal de Finanças", "(65) 3301-1234")
META = DocumentMeta("0001/2026", datetime(2026, 11, 29, 14, 3, tzinfo=TZ), "Bench")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def stickers_data(n: int) -> list[sticker.StickerData]:
    def plate(i: int) -> str:
        return f"{LETTERS[i % 26]}{LETTERS[(i // 26) % 26]}{LETTERS[(i // 676) % 26]}{i % 10}" \
               f"{LETTERS[(i // 10) % 26]}{(i // 7) % 100:02d}"
    return [sticker.StickerData(f"{i + 1:04d}/2026", plate(i), date(2026, 12, 31), "Chevrolet Onix – prata")
            for i in range(n)]


def timed(fn, repeat: int):
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        cpus.append(time.process_time() - c0)
        walls.append(time.perf_counter() - w0)
    return min(walls), min(cpus), result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stickers", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    keys = generate_keypair()
    data = stickers_data(args.stickers)
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")

    wall, cpu, ctx = timed(lambda: sticker.make_context(HEADER, META, data, keys.private_bytes, "sheet"), args.repeat)
    print(f"sign {args.stickers} payloads (Ed25519)            wall {wall:6.3f} s  cpu {cpu:6.3f} s")
    payloads = [item.qr_payload for item in ctx.items]
    wall, cpu, _ = timed(lambda: qr.unit_paths(payloads, sticker.QR_ERROR, sticker.QR_MASK), 1)
    print(f"QR matrices + paths ({args.stickers}, segno mask {sticker.QR_MASK})  wall {wall:6.3f} s  cpu {cpu:6.3f} s")
    for layout in ("sheet", "page"):
        ctx_l = sticker.StickerContext(ctx.header, ctx.meta, ctx.items, layout)
        for workers in (1, 2):
            wall, cpu, pdf = timed(lambda: sticker.render(ctx_l, workers=workers), args.repeat)
            total = wall + 0.0
            print(f"{args.stickers} stickers, layout={layout:5s} workers={workers}: wall {total:6.3f} s  "
                  f"cpu(main) {cpu:6.3f} s  {len(pdf) // 1024} KB  {'OK' if total <= 3 else 'over 3 s'}")

    recipient = notices.Recipient("Joana Araújo Conceição", "12345678909", "Rua Cipriano Curvo, 100",
                                  "QAB1D23", "0007/2026")
    notice = notices.penalty(HEADER, META, notice_number="0012/2026", recipient=recipient, auto_number="0003/2026",
                             decision_date=date(2026, 4, 20), penalties="Multa de 30 UPFM",
                             amount=Decimal("166.50"), due_date=date(2026, 5, 20), appeal_days=15,
                             legal_basis="Art. 26, IV")
    notices.render(notice)   # warm: fonts registered, modules imported
    runs, cpus = [], []
    for _ in range(20):
        w0, c0 = time.perf_counter(), time.process_time()
        notices.render(notice)
        runs.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    print(f"one notice (warm, 20 runs): wall median {statistics.median(runs) * 1000:5.1f} ms  "
          f"min {min(runs) * 1000:5.1f} ms  cpu median {statistics.median(cpus) * 1000:5.1f} ms  "
          f"{'OK' if statistics.median(runs) <= 0.05 else 'over 50 ms'}")
    w0, c0 = time.perf_counter(), time.process_time()
    sticker.render(sticker.StickerContext(ctx.header, ctx.meta, ctx.items[:1], "page"))
    print(f"one sticker page (warm): wall {(time.perf_counter() - w0) * 1000:5.1f} ms  "
          f"cpu {(time.process_time() - c0) * 1000:5.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
