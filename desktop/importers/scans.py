"""Reading the ARs back (issue 26): a desk scanner's stack — a multi-page PDF or images (grey, slightly rotated,
JPEG) — page by page, each page's dispatch code read from its Code 128 barcode with zxing-cpp.

PDF pages are rendered with poppler's `pdftoppm` (150 dpi, grey); images are opened with Pillow (a multi-frame
TIFF gives one page per frame). A code whose check digit fails (a misread) counts as no code: the page is listed
for a manual match, never matched to another dispatch."""
from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from desktop.domain.correspondence import code_is_valid, normalize_code
from desktop.errors import DesktopError

SCAN_DPI = 150


@dataclass(frozen=True, slots=True)
class ScannedPage:
    number: int            # 1-based across all the files given, in order
    source: str            # file name
    code: str | None       # a valid dispatch code, or None
    png: bytes             # the page as PNG (the proof to attach)


def _pdf_pages(content: bytes) -> list[bytes]:
    exe = shutil.which("pdftoppm")
    if exe is None:
        raise DesktopError("Falta o programa pdftoppm (poppler-utils) para ler o PDF digitalizado.")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "scan.pdf"
        src.write_bytes(content)
        done = subprocess.run([exe, "-r", str(SCAN_DPI), "-gray", "-png", str(src), str(Path(tmp) / "p")],
                              capture_output=True, timeout=600)
        if done.returncode != 0:
            raise DesktopError("O PDF digitalizado não pôde ser lido: "
                               + done.stderr.decode("utf-8", "replace").strip()[:200])
        return [p.read_bytes() for p in sorted(Path(tmp).glob("p-*.png"), key=lambda p: int(p.stem.split("-")[-1]))]


def _image_pages(content: bytes) -> list[bytes]:
    from PIL import Image, ImageSequence, UnidentifiedImageError  # lazy: Pillow and zxing-cpp load only to read a scan

    try:
        img = Image.open(io.BytesIO(content))
    except UnidentifiedImageError:
        raise DesktopError("O arquivo não é um PDF nem uma imagem (JPG, PNG, TIFF).") from None
    pages = []
    for frame in ImageSequence.Iterator(img):
        out = io.BytesIO()
        frame.convert("L").save(out, "PNG")
        pages.append(out.getvalue())
    return pages


def read_code(png: bytes) -> str | None:
    """The first valid dispatch code on the page, or None."""
    import zxingcpp  # lazy: Pillow and zxing-cpp load only to read a scan
    from PIL import Image  # lazy: Pillow and zxing-cpp load only to read a scan

    img = Image.open(io.BytesIO(png)).convert("L")
    for attempt in (img, img.resize((img.width * 2, img.height * 2))):
        for result in zxingcpp.read_barcodes(attempt):
            text = normalize_code(result.text)
            if code_is_valid(text):
                return text
    return None


def read_scans(files: list[tuple[str, bytes]]) -> list[ScannedPage]:
    """Every page of the files given, in order, with the code read on it."""
    pages: list[ScannedPage] = []
    for name, content in files:
        images = _pdf_pages(content) if content[:5] == b"%PDF-" else _image_pages(content)
        for png in images:
            pages.append(ScannedPage(len(pages) + 1, name, read_code(png), png))
    return pages
