"""The day's batch for the post (issue 26; Art. 22, §1, V): one PDF, in the order of the mailing list — for each
item the archived notice with its dispatch code stamped as a Code 128 barcode with its text (the notice's own
bytes, not a new rendering), then its AR slip (recipient, address, sender, the code's barcode and the fields the
carrier fills); at the end the mailing list (lista de postagem) the post office stamps.

The barcode: ReportLab's Code 128, bars 0.33 mm wide and 12 mm high — read by zxing-cpp from a desk scan at
150 dpi, grey, rotated up to 2.5°, JPEG quality 60 (NOTES.md)."""
from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date

from desktop.reports.common import LAW, DocumentMeta, MunicipalityHeader, fmt_date

BAR_WIDTH_MM = 0.33
BAR_HEIGHT_MM = 12


@dataclass(frozen=True, slots=True)
class BatchItem:
    code: str
    code_text: str               # EX 2026 000001-7
    document_title: str          # "Notificação de autuação nº 0003/2026"
    recipient_name: str
    address: str
    case_label: str
    notice_pdf: bytes            # the archived notice


@dataclass(frozen=True, slots=True)
class BatchContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    sent_on: date
    sender: str                  # "Prefeitura Municipal de … — Secretaria …, endereço"
    items: tuple[BatchItem, ...]
    batch_label: str


def _barcode(c, code: str, x: float, y: float) -> float:
    """Draws the Code 128 of `code` at (x, y); returns its width."""
    from reportlab.graphics.barcode.code128 import Code128  # lazy: ReportLab and pypdf load only to print
    from reportlab.lib.units import mm  # lazy: ReportLab and pypdf load only to print

    bc = Code128(code, barWidth=BAR_WIDTH_MM * mm, barHeight=BAR_HEIGHT_MM * mm, humanReadable=False,
                 quiet=True, lquiet=6 * mm, rquiet=6 * mm)
    bc.drawOn(c, x, y)
    return bc.width


def _stamp(size: tuple[float, float], item: BatchItem) -> bytes:
    """A one-page overlay: a white box at the bottom right, above the footer, with the code's barcode and text."""
    from reportlab.lib import colors  # lazy: ReportLab and pypdf load only to print
    from reportlab.lib.units import mm  # lazy: ReportLab and pypdf load only to print

    from desktop.reports import _pdf  # lazy: ReportLab and pypdf load only to print

    regular, bold = _pdf.fonts()
    width, _height = size
    buffer = io.BytesIO()
    c = _pdf.new_canvas(buffer, item.code, pagesize=size)
    box_w, box_h = 78 * mm, 22 * mm
    x, y = width - 10 * mm - box_w, 18 * mm
    c.setFillColor(colors.white)
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.5)
    c.rect(x, y, box_w, box_h, stroke=1, fill=1)
    c.setFillColor(colors.black)
    _barcode(c, item.code, x + 1 * mm, y + 7 * mm)
    c.setFont(bold, 8.5)
    c.drawString(x + 7 * mm, y + 2.5 * mm, f"Expedição {item.code_text}")
    c.showPage()
    c.save()
    return buffer.getvalue()


def stamp_notice(pdf_bytes: bytes, item: BatchItem) -> bytes:
    """The notice's first page with the dispatch code (barcode + text); the other pages as archived."""
    from pypdf import PdfReader, PdfWriter  # lazy: ReportLab and pypdf load only to print

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes)))
    first = writer.pages[0]
    size = (float(first.mediabox.width), float(first.mediabox.height))
    first.merge_page(PdfReader(io.BytesIO(_stamp(size, item))).pages[0], over=True)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _ar_slip(ctx: BatchContext, item: BatchItem) -> bytes:
    """The AR slip (aviso de recebimento) of one item, one A4 page."""
    from reportlab.lib.units import mm  # lazy: ReportLab and pypdf load only to print

    from desktop.reports import _pdf  # lazy: ReportLab and pypdf load only to print

    regular, bold = _pdf.fonts()
    buffer = io.BytesIO()
    c = _pdf.new_canvas(buffer, f"AR {item.code}")
    left, top = 18 * mm, _pdf.PAGE_H - 20 * mm
    c.setFont(bold, 13)
    c.drawString(left, top, "AVISO DE RECEBIMENTO — AR")
    c.setFont(regular, 8)
    c.drawString(left, top - 5 * mm, "Art. 22, §1º, V, da " + LAW)
    _barcode(c, item.code, left - 6 * mm, top - 24 * mm)
    c.setFont(bold, 10)
    c.drawString(left, top - 29 * mm, item.code_text)
    y = top - 40 * mm

    def block(title: str, lines: list[str], y: float) -> float:
        c.setFont(bold, 9)
        c.drawString(left, y, title)
        c.setFont(regular, 10)
        for line in lines:
            y -= 5 * mm
            c.drawString(left + 3 * mm, y, line[:95])
        return y - 7 * mm

    y = block("DESTINATÁRIO", [item.recipient_name] + [p for p in item.address.splitlines() if p.strip()], y)
    y = block("REMETENTE", [p for p in ctx.sender.splitlines() if p.strip()], y)
    y = block("DOCUMENTO", [item.document_title, f"Processo: {item.case_label}"], y)
    c.setFont(bold, 9)
    c.drawString(left, y, "PARA USO DO CARTEIRO")
    y -= 4 * mm
    fields = ("Data do recebimento: ____/____/________", "Nome legível do recebedor: ______________________________",
              "Documento de identidade do recebedor: __________________", "Assinatura do recebedor: _________________",
              "Rubrica e matrícula do carteiro: ____________________")
    c.setFont(regular, 10)
    for f in fields:
        y -= 8 * mm
        c.drawString(left + 3 * mm, y, f)
    y -= 12 * mm
    c.setFont(bold, 9)
    c.drawString(left, y, "MOTIVO DA DEVOLUÇÃO (marque um)")
    c.setFont(regular, 10)
    for i, reason in enumerate(("Mudou-se", "Desconhecido", "Ausente três vezes", "Recusado",
                                "Endereço insuficiente")):
        c.rect(left + 3 * mm + (i % 3) * 58 * mm, y - 8 * mm - (i // 3) * 7 * mm, 3.5 * mm, 3.5 * mm)
        c.drawString(left + 8 * mm + (i % 3) * 58 * mm, y - 7.5 * mm - (i // 3) * 7 * mm, reason)
    c.setFont(regular, 7)
    c.drawString(left, 12 * mm, f"{ctx.header.title} — {ctx.batch_label} — postado em {fmt_date(ctx.sent_on)}")
    c.showPage()
    c.save()
    return buffer.getvalue()


def _mailing_list(ctx: BatchContext) -> bytes:
    """Lista de postagem: one line per item, in the batch's order, with room for the post office's stamp."""
    from reportlab.lib.units import mm  # lazy: ReportLab and pypdf load only to print

    from desktop.reports import _pdf  # lazy: ReportLab and pypdf load only to print

    regular, bold = _pdf.fonts()
    buffer = io.BytesIO()
    c = _pdf.new_canvas(buffer, "Lista de postagem")
    w = _pdf.PAGE_W
    left = 15 * mm
    rows = list(enumerate(ctx.items, start=1))
    page_rows = 22
    for start in range(0, max(len(rows), 1), page_rows):
        y = _pdf.draw_letterhead(c, ctx.header) - 8 * mm
        c.setFont(bold, 12)
        c.drawString(left, y, f"LISTA DE POSTAGEM — {ctx.batch_label} — {fmt_date(ctx.sent_on)}")
        y -= 6 * mm
        c.setFont(regular, 8)
        c.drawString(left, y, "Cartas com aviso de recebimento (Art. 22, §1º, V). Remetente: "
                     + ctx.sender.splitlines()[0][:80])
        y -= 8 * mm
        c.setFont(bold, 8)
        for x, title in ((0, "Nº"), (8, "Código"), (38, "Destinatário"), (95, "Endereço"), (160, "Documento")):
            c.drawString(left + x * mm, y, title)
        c.setFont(regular, 7.5)
        for n, item in rows[start:start + page_rows]:
            y -= 7 * mm
            c.drawString(left, y, str(n))
            c.drawString(left + 8 * mm, y, item.code)
            c.drawString(left + 38 * mm, y, _fit(item.recipient_name, regular, 7.5, 55 * mm))
            c.drawString(left + 95 * mm, y, _fit(" ".join(item.address.split()), regular, 7.5, 63 * mm))
            c.drawString(left + 160 * mm, y, _fit(item.document_title, regular, 7.5, w - left - 160 * mm - 5 * mm))
        y -= 14 * mm
        c.setFont(regular, 9)
        c.drawString(left, y, f"Total de objetos: {len(rows)}")
        c.rect(w - 80 * mm, 25 * mm, 62 * mm, 35 * mm)
        c.setFont(regular, 7)
        c.drawString(w - 78 * mm, 56 * mm, "Carimbo e assinatura da agência dos Correios")
        c.showPage()
    c.save()
    return buffer.getvalue()


def _fit(text: str, font: str, size: float, width: float) -> str:
    """`text` cut (with …) to fit `width` points (desktop.reports._pdf.fit_text)."""
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    return _pdf.fit_text(text, font, size, width)


def render(ctx: BatchContext) -> bytes:
    from pypdf import PdfReader, PdfWriter  # lazy: ReportLab and pypdf load only to print

    writer = PdfWriter()
    for item in ctx.items:
        for part in (stamp_notice(item.notice_pdf, item), _ar_slip(ctx, item)):
            for page in PdfReader(io.BytesIO(part)).pages:
                writer.add_page(page)
    for page in PdfReader(io.BytesIO(_mailing_list(ctx))).pages:
        writer.add_page(page)
    writer.add_metadata({"/Title": f"Expedição {ctx.batch_label}"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
