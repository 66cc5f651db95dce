"""ReportLab helpers shared by the documents: fonts, styles, letterhead, footer, QR as one path, I2of5.

Only the reports room imports ReportLab (STYLE), and only when a document is rendered: the document modules
import this module inside their `render` functions, so the GUI's start-up never pays for ReportLab.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph, Spacer, Table, TableStyle

from desktop.domain.citation import cite
from desktop.reports.common import LAW, VERIFICATION_NOTE, DocumentMeta, MunicipalityHeader, fmt_moment
from desktop.reports.fonts import register_fonts
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
import math
from desktop.reports.qr import payload_path
from reportlab.graphics.barcode.common import I2of5

# Binary (Flate) streams instead of ASCII85 on top: without the optional rl_accel C extension ReportLab's
# pure-Python ASCII85 encoder took a quarter of a 1,000-sticker batch, and the files are 20 % smaller.
rl_config.useA85 = 0

PAGE_W, PAGE_H = A4
MARGIN = 18 * mm
HEADER_H = 30 * mm
FOOTER_H = 17 * mm
GREY = colors.HexColor("#555555")
LIGHT = colors.HexColor("#EEEEEE")


def fonts() -> tuple[str, str]:
    return register_fonts()


@lru_cache(maxsize=1)
def styles() -> dict[str, ParagraphStyle]:
    regular, bold = fonts()
    base = ParagraphStyle("base", fontName=regular, fontSize=9.5, leading=12.5, alignment=TA_JUSTIFY)
    return {
        "body": base,
        "left": ParagraphStyle("left", parent=base, alignment=TA_LEFT),
        "small": ParagraphStyle("small", parent=base, fontSize=7.5, leading=9.5, alignment=TA_LEFT),
        "cell": ParagraphStyle("cell", parent=base, fontSize=8.5, leading=10.5, alignment=TA_LEFT),
        "cellb": ParagraphStyle("cellb", parent=base, fontName=bold, fontSize=8.5, leading=10.5, alignment=TA_LEFT),
        "cellr": ParagraphStyle("cellr", parent=base, fontSize=8.5, leading=10.5, alignment=TA_RIGHT),
        "title": ParagraphStyle("title", parent=base, fontName=bold, fontSize=13, leading=16, alignment=TA_CENTER,
                                spaceAfter=2 * mm),
        "subtitle": ParagraphStyle("subtitle", parent=base, fontSize=9, leading=11.5, alignment=TA_CENTER,
                                   textColor=GREY, spaceAfter=4 * mm),
        "h2": ParagraphStyle("h2", parent=base, fontName=bold, fontSize=10, leading=13, spaceBefore=3 * mm,
                             spaceAfter=1.5 * mm, alignment=TA_LEFT),
        "grid": ParagraphStyle("grid", parent=base, fontSize=8, leading=9.8, alignment=TA_LEFT),
        "gridb": ParagraphStyle("gridb", parent=base, fontName=bold, fontSize=8, leading=9.8, alignment=TA_LEFT),
        "gridr": ParagraphStyle("gridr", parent=base, fontSize=8, leading=9.8, alignment=TA_RIGHT),
        "center": ParagraphStyle("center", parent=base, alignment=TA_CENTER),
        "sign": ParagraphStyle("sign", parent=base, fontSize=8.5, leading=10.5, alignment=TA_CENTER),
    }


def p(text: str, style: str = "body") -> Paragraph:
    """A paragraph from plain text (escaped); use `pm` for text that carries <b> markup. Citations are written
    in the one style "Art. 8º, § 3º, I" (desktop.domain.citation.cite, issue 28)."""
    return Paragraph(escape(cite(text)).replace("\n", "<br/>"), styles()[style])


def pm(markup: str, style: str = "body") -> Paragraph:
    return Paragraph(cite(markup), styles()[style])


def b(text: str) -> str:
    return f"<b>{escape(text)}</b>"


def e(text: str) -> str:
    return escape(text)


def new_canvas(buffer: io.BytesIO, title: str, pagesize=A4) -> Canvas:
    c = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=1)
    c.setTitle(title)
    c.setAuthor("Prefeitura Municipal — " + LAW)
    c.setCreator("chapada-transporte-app")
    return c


def draw_brasao(c: Canvas, png: bytes | None, x: float, y: float, size: float) -> bool:
    if not png:
        return False
    try:
        c.drawImage(ImageReader(io.BytesIO(png)), x, y, size, size, preserveAspectRatio=True, anchor="c",
                    mask="auto")
    except Exception:   # a damaged image must not stop a legal document: the text header is enough
        return False
    return True


def draw_letterhead(c: Canvas, header: MunicipalityHeader, page_w: float = PAGE_W, page_h: float = PAGE_H,
                    margin: float = MARGIN) -> float:
    """Brasão, municipality, secretariat and the law line at the top; returns the y below the rule."""
    regular, bold = fonts()
    top = page_h - 12 * mm
    logo = 18 * mm
    has_logo = draw_brasao(c, header.brasao_png, margin, top - logo, logo)
    cx = page_w / 2 + (logo / 2 if has_logo else 0)
    c.setFillColor(colors.black)
    c.setFont(bold, 11.5)
    c.drawCentredString(cx, top - 5 * mm, header.title)
    c.setFont(regular, 9.5)
    c.drawCentredString(cx, top - 10 * mm, header.secretariat)
    c.setFont(regular, 7.5)
    c.setFillColor(GREY)
    c.drawCentredString(cx, top - 14.5 * mm,
                        f"Transporte remunerado privado individual de passageiros por aplicativo — {LAW}")
    c.setFillColor(colors.black)
    y = top - logo - 1.5 * mm
    c.setLineWidth(0.8)
    c.line(margin, y, page_w - margin, y)
    return y


def draw_footer(c: Canvas, header: MunicipalityHeader, meta: DocumentMeta, page_w: float = PAGE_W,
                margin: float = MARGIN, page_label: str = "") -> None:
    regular, bold = fonts()
    y = 14 * mm
    c.setLineWidth(0.4)
    c.setStrokeColor(GREY)
    c.line(margin, y + 3 * mm, page_w - margin, y + 3 * mm)
    c.setStrokeColor(colors.black)
    left = f"Documento nº {meta.number} — emitido em {fmt_moment(meta.issued_at)}"
    by = f" por {meta.issued_by}" if meta.issued_by else ""
    room = page_w - 2 * margin - PAGE_LABEL_ROOM
    # issue 28: the left line never runs into the page label at the right ("Folha 1 de 8", "Página 2"); a long
    # issuer's name goes to its own line above the rule rather than under the label
    if stringWidth(left + by, bold, FOOTER_MIN_SIZE) > room:
        above = f"Emitido por {meta.issued_by}"
        # at most 80 mm: on a sticker sheet the lowest crop marks come down beside it (x ≥ 102 mm)
        c.setFont(bold, fit_size(above, bold, 7.5, min(page_w - 2 * margin, 80 * mm), FOOTER_MIN_SIZE))
        c.drawString(margin, y + 4.2 * mm, above)
        by = ""
    c.setFont(bold, fit_size(left + by, bold, 7.5, room, FOOTER_MIN_SIZE))
    c.drawString(margin, y, left + by)
    if header.demo:
        draw_demo_mark(c, page_w)
    if page_label:
        draw_page_label(c, page_label, page_w, margin)
    c.setFont(regular, 6.3)
    c.setFillColor(GREY)
    text = c.beginText(margin, y - 3.2 * mm)
    text.setFont(regular, 6.3)
    for line in _wrap(VERIFICATION_NOTE, regular, 6.3, page_w - 2 * margin):
        text.textLine(line)
    c.drawText(text)
    if header.audit_checkpoint:
        # issue 11: the newest signed head of the audit chain, to match this paper with the published termo
        c.drawString(margin, 4 * mm, f"Registro de auditoria — ponto de verificação {header.audit_checkpoint}")
    if header.ouvidoria_phone:
        c.drawRightString(page_w - margin, 4 * mm,
                          f"Ouvidoria Municipal (sugestões e denúncias): {header.ouvidoria_phone}")
    c.setFillColor(colors.black)


PAGE_LABEL_ROOM = 45 * mm     # the right end of the footer's first line, kept for the page label
FOOTER_MIN_SIZE = 5.5


DEMO_MARK = "DEMONSTRAÇÃO — SEM VALOR LEGAL"


def draw_demo_mark(c: Canvas, page_w: float = PAGE_W) -> None:
    """Across the page of every document printed from a demo database (issue 11: demo is demo)."""
    page_h = c._pagesize[1]
    c.saveState()
    c.setFillColor(colors.Color(0.78, 0.16, 0.16, alpha=0.35))
    size = fit_size(DEMO_MARK, fonts()[1], 40, (page_w ** 2 + page_h ** 2) ** 0.5 * 0.8)
    c.setFont(fonts()[1], size)
    c.translate(page_w / 2, page_h / 2)
    c.rotate(54.7 if page_h > page_w else 35)
    c.drawCentredString(0, 0, DEMO_MARK)
    c.restoreState()


def draw_page_label(c: Canvas, text: str, page_w: float = PAGE_W, margin: float = MARGIN) -> None:
    """At the right of the footer's first line, inside the room the footer keeps for it (PAGE_LABEL_ROOM)."""
    regular = fonts()[0]
    c.setFont(regular, fit_size(text, regular, 7.5, PAGE_LABEL_ROOM - 3 * mm))
    c.drawRightString(page_w - margin, 14 * mm, text)


def draw_demo_mark_box(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """The demo mark across one piece that can be cut out (a sticker, a credential side): issue 28 — every cut
    piece of a demo print says it has no legal value, not only the sheet it came on."""
    c.saveState()
    c.setFillColor(colors.Color(0.78, 0.16, 0.16, alpha=0.35))
    diagonal = (w ** 2 + h ** 2) ** 0.5
    size = fit_size(DEMO_MARK, fonts()[1], 30, diagonal * 0.85)
    c.setFont(fonts()[1], size)
    c.translate(x + w / 2, y + h / 2)
    c.rotate(math.degrees(math.atan2(h, w)))
    c.drawCentredString(0, -size / 3, DEMO_MARK)
    c.restoreState()


def fit_size(text: str, font: str, size: float, width: float, minimum: float = 4.5) -> float:
    """The largest font size ≤ `size` at which `text` fits in `width`."""
    natural = stringWidth(text, font, size)
    return size if natural <= width else max(minimum, size * width / natural)


def fit_text(text: str, font: str, size: float, width: float) -> str:
    """`text` cut with "…" so that it fits `width` points in `font` at `size`."""
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def crop_marks(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """Corner crop marks around the piece to cut out at (x, y, w, h)."""
    gap, length = 1.5 * mm, 4 * mm
    c.setLineWidth(0.3)
    for cx, dx in ((x, -1), (x + w, 1)):
        for cy, dy in ((y, -1), (y + h, 1)):
            c.line(cx + dx * gap, cy, cx + dx * (gap + length), cy)
            c.line(cx, cy + dy * gap, cx, cy + dy * (gap + length))


def draw_cutout_heading(c: Canvas, header: MunicipalityHeader, title: str, note: str, note_size: float) -> None:
    """The letterhead, the sheet's title and the line on how to cut it out (stickers, credentials)."""
    regular, bold = fonts()
    draw_letterhead(c, header)
    c.setFont(bold, 12)
    c.drawCentredString(PAGE_W / 2, PAGE_H - 52 * mm, title)
    c.setFont(regular, note_size)
    c.drawCentredString(PAGE_W / 2, PAGE_H - 57.5 * mm, note)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if stringWidth(trial, font, size) <= width:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


@dataclass(frozen=True, slots=True)
class PageLabel:
    """Text at the top right of each page (e.g. "Via do processo"), optional."""

    text: str = ""


def build_story_pdf(header: MunicipalityHeader, meta: DocumentMeta, title: str, story: list,
                    pagesize=A4, page_banner: str = "", landscape_ok: bool = False) -> bytes:
    """A flowing A4 document: letterhead and footer on every page, the story in between.

    page_banner: a label in a black box at the top right of every page; a story may change it from page to
    page with `BannerChange("Via do infrator")` placed right after a PageBreak."""
    buffer = io.BytesIO()
    page_w, page_h = pagesize
    top_y = page_h - 12 * mm - 18 * mm - 1.5 * mm - 3 * mm

    banner = {"text": page_banner}

    def on_page(c: Canvas, doc) -> None:
        c.saveState()
        draw_letterhead(c, header, page_w, page_h)
        if banner["text"]:
            draw_banner(c, banner["text"], page_w - MARGIN, page_h - 8 * mm)
        draw_footer(c, header, meta, page_w, page_label=f"Página {doc.page}")
        c.restoreState()

    doc = BaseDocTemplate(
        buffer, pagesize=pagesize, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=page_h - top_y,
        bottomMargin=FOOTER_H + 6 * mm, title=title, author="Prefeitura Municipal — " + LAW,
        creator="chapada-transporte-app", invariant=1, pageCompression=1,
    )
    frame = Frame(MARGIN, FOOTER_H + 6 * mm, page_w - 2 * MARGIN, top_y - FOOTER_H - 6 * mm, id="body",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=on_page)])
    doc._banner = banner
    doc.build(story)
    return buffer.getvalue()


class BannerChange(Flowable):
    """Changes the page banner from the next page on (use before a PageBreak)."""

    def __init__(self, text: str):
        super().__init__()
        self.text = text
        self.width = self.height = 0

    def wrap(self, available_width, available_height):
        return 0, 0

    def draw(self):
        self.canv._doctemplate._banner["text"] = self.text


def draw_banner(c: Canvas, text: str, right: float, y: float) -> None:
    regular, bold = fonts()
    w = stringWidth(text, bold, 8.5) + 4 * mm
    c.setFillColor(colors.black)
    c.roundRect(right - w, y - 1.6 * mm, w, 5.2 * mm, 1 * mm, stroke=0, fill=1)
    c.setFillColor(colors.white)
    c.setFont(bold, 8.5)
    c.drawCentredString(right - w / 2, y, text)
    c.setFillColor(colors.black)


def title_block(title: str, subtitle: str = "") -> list:
    items = [p(title, "title")]
    if subtitle:
        items.append(p(subtitle, "subtitle"))
    return items


def field_table(rows: list[tuple[str, str]], col1: float = 45 * mm, width: float = PAGE_W - 2 * MARGIN) -> Table:
    """Label | value pairs in a light grid."""
    data = [[p(label, "cellb"), p(value or "—", "cell")] for label, value in rows]
    table = Table(data, colWidths=[col1, width - col1])
    table.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.4, GREY),
        ("BACKGROUND", (0, 0), (0, -1), LIGHT),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
    ]))
    return table


def grid_table(head: list[str], rows: list[list[str]], widths: list[float], right_cols: tuple[int, ...] = (),
               repeat: int = 1) -> Table:
    data = [[p(h, "gridb") for h in head]]
    for row in rows:
        data.append([p(v, "gridr" if i in right_cols else "grid") for i, v in enumerate(row)])
    table = Table(data, colWidths=widths, repeatRows=repeat)
    table.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.4, GREY),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("BACKGROUND", (0, 0), (-1, 0), LIGHT),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
    ]))
    return table


def signature_block(names: list[tuple[str, str]], width: float = PAGE_W - 2 * MARGIN) -> Table:
    """Signature lines side by side: (name, role)."""
    cells = [pm("_" * 38 + f"<br/>{b(name)}<br/>{e(role)}", "sign") for name, role in names]
    table = Table([cells], colWidths=[width / len(cells)] * len(cells))
    table.setStyle(TableStyle([("TOPPADDING", (0, 0), (-1, -1), 10 * mm), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return table


def signer_block(signer, others: list[tuple[str, str]] = (), width: float = PAGE_W - 2 * MARGIN) -> Table:
    """The signature of an act (issue 28; Lei 9.784/99, art. 22, §1º): a line, then the signer's name, office
    (with the unit) and "Matrícula nº …" (`desktop.reports.common.Signer`); `others` are further lines side by
    side, (name, role), e.g. the driver's "ciente". The one signature every act prints."""
    name, office, registration = signer.lines
    cells = [pm("_" * 38 + f"<br/>{b(name)}<br/>{e(office)}<br/>{e(registration)}", "sign")]
    cells += [pm("_" * 38 + f"<br/>{b(other)}<br/>{e(role)}", "sign") for other, role in others]
    table = Table([cells], colWidths=[width / len(cells)] * len(cells))
    table.setStyle(TableStyle([("TOPPADDING", (0, 0), (-1, -1), 10 * mm), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return table


def spacer(height_mm: float) -> Spacer:
    return Spacer(1, height_mm * mm)


# ---------------------------------------------------------------- QR code: segno matrix drawn as one path
def qr_unit_path(payload: str, error: str = "m", mask: int | None = None) -> tuple[int, str]:
    """(modules per side, PDF path operators) of `payload` (desktop.reports.qr)."""
    return payload_path(payload, error, mask)


def draw_qr_path(c: Canvas, qr: tuple[int, str], x: float, y: float, size: float) -> None:
    """Draws a precomputed QR path with its lower-left corner at (x, y), `size` points wide."""
    n, code = qr
    c.saveState()
    c.translate(x, y)
    c.scale(size / n, size / n)
    c.setFillColor(colors.black)
    c._code.append(code)
    c.restoreState()


def draw_qr(c: Canvas, payload: str, x: float, y: float, size: float, error: str = "m",
            mask: int | None = None) -> None:
    """The QR code of `payload` as ONE filled path (NOTES: ReportLab's QR widget is far too slow for a batch).
    The caller leaves the quiet zone (4 modules) around it."""
    draw_qr_path(c, qr_unit_path(payload, error, mask), x, y, size)


# ---------------------------------------------------------------- FEBRABAN interleaved 2 of 5
NARROW_BAR = 0.33 * mm     # see febraban.py / report: 1:3 ratio, 13 mm high
BAR_RATIO = 3.0
BAR_HEIGHT = 13 * mm


def draw_i2of5(c: Canvas, digits: str, x: float, y: float) -> float:
    """Draws the 44 digits as interleaved 2 of 5 (no check digit added, no bearer bars); returns its width."""
    barcode = I2of5(digits, barWidth=NARROW_BAR, ratio=BAR_RATIO, barHeight=BAR_HEIGHT, checksum=0,
                    bearers=0, quiet=0, humanReadable=0, lquiet=0, rquiet=0, stop=1)
    barcode.drawOn(c, x, y)
    return barcode.width
