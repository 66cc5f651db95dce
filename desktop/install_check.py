"""`python -m desktop check-install` (issue 17): is everything the program loads at run time really there?

For the bundle's smoke test in CI (`packaging/smoke_bundle.sh`) and for whoever supports an office desk: a
missing file or Qt plugin must show up here, named, not as an empty box on a sticker. Each check is a `Check`
(name, ok, detail); the command prints one line per check and exits 1 when any failed.

In the frozen program (PyInstaller) the resources must come from INSIDE the bundle — a font found only in the
system's folders is a failure there, since an office desk has no DejaVu.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from desktop import __version__, paths
from desktop.reports import fonts
from desktop.views.main_window import MODULES
from desktop.demo.brasao import FILE, demo_brasao_png
from desktop import db as db_module
from desktop import migrate
import functools
from PySide6.QtCore import QCollator, QLocale
from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication, QIcon, QImageReader
from desktop.app import create_application
from desktop import processes
import sys


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str


def _inside(path: Path | None, folder: Path | None) -> bool:
    if path is None or folder is None:
        return False
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def file_checks() -> list[Check]:
    """Version, resources (fonts, icons, demo brasão) and migrations — no Qt."""

    checks = [Check("versão", True, __version__)]
    frozen = paths.is_frozen()
    bundle = paths.bundle_dir()
    checks.append(Check("pacote", True, f"executável congelado em {bundle}" if frozen else "código-fonte/instalação"))
    folder = paths.resources_dir()
    ok = folder is not None and (not frozen or _inside(folder, bundle) or _inside(folder, paths.executable_dir()))
    checks.append(Check("recursos", ok, str(folder) if folder else "pasta resources/ não encontrada"))
    for name in (fonts.REGULAR, fonts.BOLD):
        font = fonts.font_file(name)
        ok = font is not None and _inside(font, folder)
        checks.append(Check(f"fonte {name}", ok, str(font) if font else "não encontrada"))

    missing = [m.icon for m in MODULES if (icon := paths.resource("icons", m.icon)) is None or not icon.is_file()]
    checks.append(Check("ícones", not missing, "faltam: " + ", ".join(missing) if missing
                        else f"{len(MODULES)} ícones dos módulos"))

    brasao = demo_brasao_png()
    checks.append(Check("brasão da demonstração", bool(brasao and brasao.startswith(b"\x89PNG")),
                        str(paths.resource(*FILE))))

    versions = sorted(p.name for p in (paths.migrations_dir() / "versions").glob("*.py"))
    try:
        head = migrate.head()
    except Exception as error:  # noqa: BLE001 — a broken migration folder is exactly what this reports
        head = f"erro: {error}"
    ok = bool(versions) and head == db_module.known_head()
    checks.append(Check("migrações", ok, f"{len(versions)} arquivos, última {head}"))
    manual = paths.resource("manual", "manual.pdf")
    checks.append(Check("manual (F1)", bool(manual and Path(manual).is_file()), str(manual)))
    checks.extend(library_checks())
    return checks


def library_checks() -> list[Check]:
    """The libraries loaded only when a feature is used: the charts (matplotlib's Agg, issues 13 and 16) and the
    trip reader (pyarrow's CSV and string kernels, issue 15). A bundle without them would fail only in the office."""

    checks = []
    try:
        from desktop.reports.statistics import figure_png  # local: imported only on this branch
        from desktop.services.statistics import INT, TEXT, Series, StatTable  # local: imported only on this branch

        table = StatTable("check", "Verificação", "", ("Mês", "N"), (TEXT, INT), (("jan/2026", 1),), ("jan/2026",),
                          (Series("N", (1.0,)),))
        png = figure_png(table, 3, 2, 50)
        checks.append(Check("gráficos (matplotlib)", png.startswith(b"\x89PNG"), f"{len(png)} bytes de PNG"))
    except Exception as error:  # noqa: BLE001 — a missing module is what this reports
        checks.append(Check("gráficos (matplotlib)", False, str(error)))
    try:
        import pyarrow.compute as pc  # lazy: pyarrow loads only when this runs (start-up cost)
        import pyarrow.csv as pacsv  # lazy: pyarrow loads only when this runs (start-up cost)

        table = pacsv.read_csv(io.BytesIO("ID;Placa\nv1; ABC1D23 \n".encode()),
                               parse_options=pacsv.ParseOptions(delimiter=";"))
        plate = pc.utf8_trim_whitespace(table.column("Placa")).to_pylist()
        checks.append(Check("leitor de viagens (pyarrow)", plate == ["ABC1D23"], f"{table.num_rows} linha lida"))
    except Exception as error:  # noqa: BLE001
        checks.append(Check("leitor de viagens (pyarrow)", False, str(error)))
    return checks


def _collation_check() -> Check:
    """Qt's alphabetical order in pt_BR (QCollator: the file dialog's list). On Linux it is ICU's collation data,
    which the bundle carries trimmed to pt/en/root (packaging/bundle_libs.py); without it Qt falls back to
    code-point order and ç, é would sort after z."""

    collator = QCollator(QLocale(QLocale.Language.Portuguese, QLocale.Country.Brazil))
    order = sorted(["f", "é", "d", "ç", "e", "c"], key=functools.cmp_to_key(collator.compare))
    return Check("Qt ordem alfabética (pt_BR)", order == ["c", "ç", "d", "e", "é", "f"], " ".join(order))


def qt_checks() -> list[Check]:
    """Qt's plugins the program needs: a platform, PNG/JPEG/SVG images, SVG icons, QtPdf and the printer; and
    the pt_BR alphabetical order."""
    from PySide6.QtPrintSupport import QPrinter  # lazy: Qt loads only when this runs (start-up cost)

    create_application()
    checks = [Check("Qt plataforma", bool(QGuiApplication.platformName()), QGuiApplication.platformName())]
    formats = {bytes(f).decode() for f in QImageReader.supportedImageFormats()}
    missing = sorted({"png", "jpg", "svg"} - formats)
    checks.append(Check("Qt imagens", not missing, "faltam: " + ", ".join(missing) if missing
                        else "png, jpg, svg"))
    checks.append(_collation_check())
    icon_file = paths.resource("icons", "cadastros.svg")
    pixmap = QIcon(str(icon_file)).pixmap(QSize(24, 24)) if icon_file else None
    checks.append(Check("Qt ícone SVG", pixmap is not None and not pixmap.isNull(), str(icon_file)))
    pdf = _sample_pdf()
    try:
        from PySide6.QtPdf import QPdfDocument  # noqa: F401 — the import itself is the check

        from desktop.views.printing import open_document  # local: imported only on this branch

        document = open_document(pdf)
        image = document.render(0, QSize(200, 283))
        checks.append(Check("QtPdf", not image.isNull(), f"{document.pageCount()} página desenhada"))
    except Exception as error:  # noqa: BLE001
        checks.append(Check("QtPdf", False, str(error)))
    try:
        import tempfile  # local: imported only on this branch

        from desktop.views.printing import print_pdf  # local: imported only on this branch

        with tempfile.TemporaryDirectory() as folder:
            printer = QPrinter(QPrinter.PrinterMode.HighResolution)
            printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
            printer.setResolution(150)
            target = Path(folder) / "impressao.pdf"
            printer.setOutputFileName(str(target))
            pages = print_pdf(pdf, printer)
            size = target.stat().st_size if target.exists() else 0
        checks.append(Check("impressão (Qt)", pages == 1 and size > 0, f"{pages} página, {size} bytes"))
    except Exception as error:  # noqa: BLE001
        checks.append(Check("impressão (Qt)", False, str(error)))
    return checks


def process_checks() -> list[Check]:
    """A worker process started the way the sticker batch starts its QR workers (spawn): in the frozen program it
    runs the .exe again, which must hand over to multiprocessing (packaging/launcher.py, freeze_support)."""
    from desktop.reports import qr, sticker  # lazy: loads cryptography only when this runs

    try:
        paths_ = processes.submit(qr.unit_paths, ["TPA-VERIFICACAO"], sticker.QR_ERROR, sticker.QR_MASK,
                                  name="sticker-qr").result(60)
        ok = len(paths_) == 1 and paths_[0][0] > 0
        return [Check("processos do lote de adesivos", ok, f"QR de {paths_[0][0]} módulos feito por outro processo")]
    except Exception as error:  # noqa: BLE001
        return [Check("processos do lote de adesivos", False, f"{type(error).__name__}: {error}")]


def _sample_pdf() -> bytes:
    from reportlab.lib.pagesizes import A4  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.pdfgen.canvas import Canvas  # lazy: ReportLab loads only when this runs (start-up cost)

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    canvas.drawString(72, 760, "Verificação da instalação")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def run(with_qt: bool = True, out=None) -> int:

    out = out or sys.stdout
    checks = file_checks() + process_checks() + (qt_checks() if with_qt else [])
    for check in checks:
        print(f"{'OK   ' if check.ok else 'FALHA'} {check.name}: {check.detail}", file=out)
    failed = [c for c in checks if not c.ok]
    print(f"{len(checks) - len(failed)} de {len(checks)} verificações em ordem." if not failed
          else f"{len(failed)} verificação(ões) falharam.", file=out)
    return 1 if failed else 0
