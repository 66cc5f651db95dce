"""Reprints (SPEC: "a reprint is the same bytes, marked as a copy"): the ARCHIVED PDF with a stamp laid over
every page — never a new rendering with today's data. The stamp is a ReportLab overlay merged with pypdf."""
from __future__ import annotations

import io
from datetime import datetime

from desktop.reports.common import fmt_datetime


def stamp_copy(pdf_bytes: bytes, label: str = "2ª via", when: datetime | None = None, by: str = "",
               note: str = "", mark: str = "") -> bytes:
    """Every page of `pdf_bytes` with a boxed stamp at the top left and a light diagonal mark:
    "2ª VIA — reimpressa em dd/mm/aaaa às HH:MM por … — original arquivado". `note` follows in the box (an annulled
    auto's "AUTO ANULADO em …", issue 28 item 1) and `mark` is a second diagonal line under the label ("ANULADO")."""
    from pypdf import PdfReader, PdfWriter  # lazy: pypdf loads only when this runs (start-up cost)

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes)))
    overlays: dict[tuple[float, float], object] = {}
    for page in writer.pages:
        size = (float(page.mediabox.width), float(page.mediabox.height))
        if size not in overlays:
            overlays[size] = PdfReader(io.BytesIO(_overlay(size, label, when, by, note, mark))).pages[0]
        page.merge_page(overlays[size], over=True)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def copy_mark(label: str, when: datetime | None = None, by: str = "") -> str:
    text = f"{label.upper()} — reimpressão do documento arquivado"
    if when is not None:
        text += f" em {fmt_datetime(when)}"
    if by:
        text += f" por {by}"
    return text


def _overlay(size: tuple[float, float], label: str, when: datetime | None, by: str, note: str = "",
             mark: str = "") -> bytes:
    from reportlab.lib import colors  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.pdfbase.pdfmetrics import stringWidth  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs

    regular, bold = _pdf.fonts()
    width, height = size
    buffer = io.BytesIO()
    c = _pdf.new_canvas(buffer, label, pagesize=size)
    text = copy_mark(label, when, by)
    font_size = _pdf.fit_size(text, bold, 8, width - 16 * mm)
    w = stringWidth(text, bold, font_size) + 4 * mm
    x, y = 8 * mm, height - 7.5 * mm
    c.setFillColor(colors.white)
    c.setStrokeColor(colors.HexColor("#B00020"))
    c.setLineWidth(0.8)
    c.rect(x, y - 1.8 * mm, w, 5.6 * mm, stroke=1, fill=1)
    c.setFillColor(colors.HexColor("#B00020"))
    c.setFont(bold, font_size)
    c.drawString(x + 2 * mm, y, text)
    if note:    # in the free band between the body and the footer (A4 acts: reports._pdf.build_story_pdf)
        size_note = _pdf.fit_size(note, bold, 7.5, width - 16 * mm)
        w_note = stringWidth(note, bold, size_note) + 4 * mm
        y_note = _pdf.FOOTER_H + 2 * mm
        c.setFillColor(colors.white)
        c.rect(x, y_note - 1.4 * mm, w_note, 4.6 * mm, stroke=1, fill=1)
        c.setFillColor(colors.HexColor("#B00020"))
        c.setFont(bold, size_note)
        c.drawString(x + 2 * mm, y_note, note)
    c.saveState()
    c.setFillAlpha(0.12)
    c.translate(width / 2, height / 2)
    c.rotate(35)
    c.setFont(bold, min(110, width / 4))
    c.drawCentredString(0, -30, label.upper())
    if mark:
        c.setFont(bold, min(70, width / 8))
        c.drawCentredString(0, -30 - min(80, width / 7), mark.upper())
    c.restoreState()
    c.showPage()
    c.save()
    return buffer.getvalue()
