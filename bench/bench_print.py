"""Benchmark of printing through Qt (issue 17, desktop.views.printing.print_pdf): seconds per A4 page and the
process's peak memory when a sticker batch (one sticker per page, and 8 per label sheet) is rendered by QtPdf at
the printer's resolution in bands and painted on Qt's PDF printer. A real printer receives the same painting.

    QT_QPA_PLATFORM=offscreen python3 bench/bench_print.py [--pages 10] [--dpi 300 600 1200]
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def sticker_pdf(pages: int, layout: str) -> bytes:
    from desktop.reports import sticker
    from desktop.reports.common import DocumentMeta, MunicipalityHeader
    from desktop.reports.common import TZ
    from desktop.signing import generate_keypair
    from datetime import datetime

    from desktop.demo.brasao import demo_brasao_png

    header = MunicipalityHeader(name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
                                ouvidoria_phone="(65) 3301-1234", brasao_png=demo_brasao_png(),
                                pix_key="12345678000195")
    meta = DocumentMeta("0001/2026", datetime(2026, 11, 18, 10, 0, tzinfo=TZ), "Bench")
    count = pages if layout == sticker.LAYOUT_PAGE else pages * 8
    items = [sticker.StickerData(f"{i + 1:04d}/2026", f"QAB{i % 10}C{i % 100:02d}", date(2026, 12, 31),
                                 "Chevrolet Onix – prata") for i in range(count)]
    return sticker.render(sticker.make_context(header, meta, items, generate_keypair().private_bytes, layout))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--dpi", type=int, nargs="+", default=[300, 600, 1200])
    args = parser.parse_args()

    from PySide6.QtPrintSupport import QPrinter
    from PySide6.QtWidgets import QApplication

    from desktop.views.printing import print_pdf

    app = QApplication.instance() or QApplication(sys.argv[:1])
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    for layout in ("page", "sheet"):
        data = sticker_pdf(args.pages, layout)
        for dpi in args.dpi:
            with tempfile.TemporaryDirectory() as folder:
                printer = QPrinter(QPrinter.PrinterMode.HighResolution)
                printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
                printer.setOutputFileName(str(Path(folder) / "impresso.pdf"))
                printer.setResolution(dpi)
                started = time.perf_counter()
                printed = print_pdf(data, printer)
                elapsed = time.perf_counter() - started
                size = (Path(folder) / "impresso.pdf").stat().st_size
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"{layout:5} {printed:3} pág. a {dpi:4} dpi: {elapsed / printed:6.2f} s/página, "
                  f"arquivo {size / 1e6:6.1f} MB, pico de memória do processo {peak:6.0f} MB")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
