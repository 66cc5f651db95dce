"""Overlapping text on a printed page (issue 28: "(rotina automática)Folha 1 de 8"): every run of text the PDF
draws, with the box it covers — its origin from the text and current matrices, its width from the embedded
font's metrics, its height from the font size — and the pairs of boxes that cross each other. A document
whose text runs into other text fails, whatever a reader's eye would have missed. The diagonal demo mark
(rotated) is left out: it is meant to cross everything."""
import io
from dataclasses import dataclass

from pypdf import PdfReader

from desktop.reports.fonts import register_fonts

TOLERANCE = 0.6   # points: glyph boxes may touch at their edges (a line's descenders and the next's accents)


@dataclass(frozen=True)
class Run:
    page: int
    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    def crosses(self, other: "Run") -> bool:
        dx = min(self.x1, other.x1) - max(self.x0, other.x0)
        dy = min(self.y1, other.y1) - max(self.y0, other.y0)
        return dx > TOLERANCE and dy > TOLERANCE


def _multiply(a, b):
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def runs(data: bytes) -> list[Run]:
    from reportlab.pdfbase.pdfmetrics import stringWidth
    regular, bold = register_fonts()
    found: list[Run] = []
    for number, page in enumerate(PdfReader(io.BytesIO(data)).pages, start=1):
        # pypdf gives each show-text operation the matrix of the line it belongs to, not advanced by the text
        # shown before it on that line (a bold word inside a paragraph line): a run with the same matrix as the
        # previous one continues where that one ended.
        last = {"key": None, "x": 0.0}

        def visit(text, cm, tm, font, size, number=number):
            if font is None or not text:
                return
            m = _multiply(tm, cm)
            if abs(m[1]) > 1e-3 or abs(m[2]) > 1e-3:        # rotated (the demo mark): not page text
                return
            name = str(font.get("/BaseFont", ""))
            width = stringWidth(text.rstrip("\n"), bold if "Bold" in name else regular, size) * m[0]
            key = (tuple(round(v, 3) for v in m), number)
            x = last["x"] if key == last["key"] else m[4]
            last["key"], last["x"] = key, x + width
            if not text.strip():
                return
            height = size * abs(m[3])
            y = m[5]
            found.append(Run(number, text.strip(), x, y - 0.2 * height, x + width, y + 0.72 * height))
        page.extract_text(visitor_text=visit)
    unique = []
    seen = set()
    for run in found:        # a form drawn several times (the 8 stickers' common background) is one drawing
        if run not in seen:
            seen.add(run)
            unique.append(run)
    return unique


def overlaps(data: bytes) -> list[tuple[Run, Run]]:
    """Every pair of text runs on the same page that cross each other."""
    bad = []
    by_page: dict[int, list[Run]] = {}
    for run in runs(data):
        by_page.setdefault(run.page, []).append(run)
    for items in by_page.values():
        items.sort(key=lambda r: (r.y0, r.x0))
        for i, a in enumerate(items):
            for b in items[i + 1:]:
                if b.y0 > a.y1:
                    break
                if a.crosses(b):
                    bad.append((a, b))
    return bad


def assert_no_overlap(data: bytes) -> None:
    bad = overlaps(data)
    assert not bad, "texto sobreposto: " + "; ".join(
        f"p. {a.page}: {a.text[:40]!r} × {b.text[:40]!r}" for a, b in bad[:5])
