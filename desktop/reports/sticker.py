"""Sticker for the inside of the windshield (Art. 14): authorization number, validity, the Ouvidoria's phone,
the plate and a QR code whose payload is signed (desktop.signing) so an agent can check it offline.

Printed one per page (a large sticker in the middle of an A4 sheet) or 8 per A4 label sheet (2 × 4), both with
crop marks. A batch of 1,000 stickers is one PDF: `render` (one process) or `render_parallel` (both cores).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date

from desktop.reports.common import LAW, DocumentMeta, MunicipalityHeader, fmt_date, fmt_plate
from desktop.signing import StickerSigner, normalize_plate
from sqlalchemy import select
from desktop.errors import NotFound
from desktop.models import Authorization, Vehicle
from desktop.reports import records
import io
from desktop.reports import qr
from desktop.processes import map_chunks

LAYOUT_PAGE = "page"      # one sticker per A4 page
LAYOUT_SHEET = "sheet"    # 8 stickers per A4 label sheet
STICKER_W_MM = 92.0
STICKER_H_MM = 60.0
PAGE_SCALE = 1.6          # one-per-page stickers are printed larger
SHEET_COLS, SHEET_ROWS = 2, 4
QR_ERROR = "m"
QR_MASK = 4               # fixed: choosing the "best" mask is 3/4 of segno's time and any mask decodes


@dataclass(frozen=True, slots=True)
class StickerItem:
    authorization_number: str
    plate: str
    valid_until: date
    qr_payload: str
    vehicle: str = ""          # "VW Gol 1.0 – branco"


@dataclass(frozen=True, slots=True)
class StickerContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    items: tuple[StickerItem, ...]
    layout: str = LAYOUT_PAGE


@dataclass(frozen=True, slots=True)
class StickerData:
    """One authorization to print, as services read it from the database."""

    authorization_number: str
    plate: str
    valid_until: date
    vehicle: str = ""


def make_context(header: MunicipalityHeader, meta: DocumentMeta, stickers: Sequence[StickerData],
                  private_key: bytes, layout: str = LAYOUT_PAGE) -> StickerContext:
    """Signs each sticker's payload with the municipality's Ed25519 key."""
    if layout not in (LAYOUT_PAGE, LAYOUT_SHEET):
        raise ValueError(f"Leiaute de adesivo desconhecido: {layout!r}.")
    if not stickers:
        raise ValueError("Nenhum adesivo para imprimir.")
    signer = StickerSigner(private_key)
    items = tuple(
        StickerItem(s.authorization_number, normalize_plate(s.plate), s.valid_until,
                    signer.sign(s.authorization_number, s.plate, s.valid_until), s.vehicle)
        for s in stickers
    )
    return StickerContext(header, meta, items, layout)


def build_context(s, numbers: Sequence[str], meta: DocumentMeta, private_key: bytes,
                  layout: str = LAYOUT_PAGE) -> StickerContext:
    """The stickers of the active authorizations `numbers` (in that order), read from session `s` in one query
    per 500 numbers (authorization + driver + vehicle) and signed."""

    found = {}
    numbers = [n.strip() for n in numbers]
    for start in range(0, len(numbers), 500):
        query = (select(Authorization, Vehicle).join(Vehicle, Vehicle.id == Authorization.vehicle_id)
                 .where(Authorization.number.in_(numbers[start:start + 500])))
        for auth, vehicle in s.execute(query):
            records.require_active(auth)
            found[auth.number] = StickerData(auth.number, vehicle.plate, auth.valid_until,
                                             records.vehicle_line(vehicle))
    missing = [n for n in numbers if n not in found]
    if missing:
        raise NotFound(f"Autorização nº {missing[0]} não encontrada.")
    return make_context(records.header(s), meta, [found[n] for n in numbers], private_key, layout)


def render(ctx: StickerContext, workers: int = 1,
           on_page: Callable[[int, int], None] | None = None) -> bytes:
    """The PDF of all stickers. `workers=2` encodes the QR codes in two processes (the slow part: segno is pure
    Python); the drawing stays in this process, so the bytes are the same as with one worker.
    `on_page(done, total)` is called after each page (progress; an exception raised there stops the batch)."""

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)

    qrs = _qr_paths([item.qr_payload for item in ctx.items], workers)
    buffer = io.BytesIO()
    c = _pdf.new_canvas(buffer, f"Adesivos — documento nº {ctx.meta.number}")
    regular, bold = _pdf.fonts()
    w, h = STICKER_W_MM * mm, STICKER_H_MM * mm
    total = len(ctx.items)
    # What every sticker and every page repeats is drawn once, as a form XObject, and placed many times.
    c.beginForm("sticker")
    _draw_sticker_background(c, ctx.header, w, h, regular, bold)
    c.endForm()
    c.beginForm("page")
    # the demo mark is translucent: its transparency state must live in the page's resources, not the form's
    # (a viewer would not find it there: poppler said "ExtGState 'gRLs0' is unknown"), so each page draws it
    _pdf.draw_footer(c, replace(ctx.header, demo=False), ctx.meta)
    if ctx.layout == LAYOUT_PAGE:
        _instructions(c, ctx, regular, bold)
    c.endForm()

    def page_form() -> None:
        c.doForm("page")
        if ctx.header.demo:
            _pdf.draw_demo_mark(c)
    if ctx.layout == LAYOUT_PAGE:
        sw, sh = w * PAGE_SCALE, h * PAGE_SCALE
        x0, y0 = (_pdf.PAGE_W - sw) / 2, (_pdf.PAGE_H - sh) / 2 + 10 * mm
        for index, (item, qr) in enumerate(zip(ctx.items, qrs), start=1):
            page_form()
            _crop_marks(c, x0, y0, sw, sh)
            c.saveState()
            c.translate(x0, y0)
            c.scale(PAGE_SCALE, PAGE_SCALE)
            _draw_sticker(c, item, qr, w, h, regular, bold)
            c.restoreState()
            if ctx.header.demo:           # issue 28: the cut-out sticker carries the mark too
                _pdf.draw_demo_mark_box(c, x0, y0, sw, sh)
            _pdf.draw_page_label(c, f"Adesivo {index} de {total}")
            c.showPage()
            if on_page is not None:
                on_page(index, total)
    else:
        gap_x, gap_y = 6 * mm, 7 * mm
        grid_w = SHEET_COLS * w + (SHEET_COLS - 1) * gap_x
        left = (_pdf.PAGE_W - grid_w) / 2
        top = _pdf.PAGE_H - 12 * mm
        per_sheet = SHEET_COLS * SHEET_ROWS
        sheets = (total + per_sheet - 1) // per_sheet
        for sheet in range(sheets):
            page_form()
            start = sheet * per_sheet
            for i, (item, qr) in enumerate(zip(ctx.items[start:start + per_sheet], qrs[start:start + per_sheet])):
                col, row = i % SHEET_COLS, i // SHEET_COLS
                x = left + col * (w + gap_x)
                y = top - (row + 1) * h - row * gap_y
                _crop_marks(c, x, y, w, h)
                c.saveState()
                c.translate(x, y)
                _draw_sticker(c, item, qr, w, h, regular, bold)
                c.restoreState()
                if ctx.header.demo:       # issue 28: each of the 8 stickers, once cut, still says it
                    _pdf.draw_demo_mark_box(c, x, y, w, h)
            _pdf.draw_page_label(c, f"Folha {sheet + 1} de {sheets} — {total} adesivo(s)")
            c.showPage()
            if on_page is not None:
                on_page(sheet + 1, sheets)
    c.save()
    return buffer.getvalue()


def _qr_paths(payloads: list[str], workers: int) -> list[tuple[int, str]]:
    """QR paths of all payloads (segno, fixed mask); with workers > 1 (and a batch worth it) the other chunks go to
    worker processes (`desktop.processes.map_chunks`: spawned, ended with their parent) while this one encodes the
    first. A worker imports only desktop.processes, desktop.reports.qr and segno."""
    if workers <= 1 or len(payloads) < 200:
        return qr.unit_paths(payloads, QR_ERROR, QR_MASK)

    step = (len(payloads) + workers - 1) // workers
    chunks = [payloads[i:i + step] for i in range(0, len(payloads), step)]
    return [path for part in map_chunks(qr.unit_paths, chunks, QR_ERROR, QR_MASK, name="sticker-qr")
            for path in part]


def _instructions(c, ctx: StickerContext, regular: str, bold: str) -> None:
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    _pdf.draw_cutout_heading(c, ctx.header, "ADESIVO DE IDENTIFICAÇÃO DO VEÍCULO AUTORIZADO",
                             f"Art. 14 da {LAW}: afixar no interior do veículo, no painel, lado direito. "
                             "Recorte nas marcas de corte.", 8.5)


def _crop_marks(c, x: float, y: float, w: float, h: float) -> None:
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    _pdf.crop_marks(c, x, y, w, h)


QR_SIZE_MM = 31.0
QR_MARGIN_MM = 4.0   # ≥ 4 modules of quiet zone (31 mm / 45 modules ≈ 0.69 mm each) to the frame


def _draw_sticker_background(c, header: MunicipalityHeader, w: float, h: float, regular: str, bold: str) -> None:
    """Everything a sticker shares with the others: frame, band, municipality, labels, Ouvidoria, the law."""
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from reportlab.lib import colors  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)

    c.setLineWidth(0.6)
    c.roundRect(0, 0, w, h, 3 * mm, stroke=1, fill=0)
    band = 12 * mm
    c.setFillColor(colors.HexColor("#0B4F8A"))
    c.roundRect(0, h - band, w, band, 3 * mm, stroke=0, fill=1)
    c.rect(0, h - band, w, 3 * mm, stroke=0, fill=1)
    c.setFillColor(colors.white)
    text_x = 3 * mm
    if header.brasao_png:
        c.setFillColor(colors.white)
        c.roundRect(1.5 * mm, h - band + 1 * mm, band - 2 * mm, band - 2 * mm, 1 * mm, stroke=0, fill=1)
        if _pdf.draw_brasao(c, header.brasao_png, 2 * mm, h - band + 1.5 * mm, band - 3 * mm):
            text_x = band + 1 * mm
    c.setFillColor(colors.white)
    title = f"PREFEITURA MUNICIPAL DE {header.name.upper()} – {header.uf.upper()}"
    room = w - text_x - 2.5 * mm
    c.setFont(bold, _pdf.fit_size(title, bold, 7.2, room))
    c.drawString(text_x, h - 5 * mm, title)
    c.setFont(regular, _pdf.fit_size(header.secretariat, regular, 6.2, room))
    c.drawString(text_x, h - 9.2 * mm, header.secretariat)
    c.setFillColor(colors.black)
    x = 3.5 * mm
    c.setFont(bold, 7.5)
    c.drawString(x, h - band - 5.5 * mm, "TRANSPORTE POR APLICATIVO")
    c.setFont(regular, 6.5)
    c.drawString(x, h - band - 9.5 * mm, "Autorização nº")
    c.drawString(x, h - band - 21 * mm, "Válida até")
    c.drawString(x, h - band - 31 * mm, "Placa")
    c.setFont(regular, 6)
    c.drawString(x, 7.2 * mm, "Ouvidoria – sugestões e denúncias:")
    c.setFont(bold, 8)
    c.drawString(x, 3.6 * mm, header.ouvidoria_phone or "—")
    c.setFont(regular, 5)
    qr_size = QR_SIZE_MM * mm
    c.drawCentredString(w - qr_size / 2 - QR_MARGIN_MM * mm, 2.6 * mm, f"{LAW} · Art. 14")


def _draw_sticker(c, item: StickerItem, qr: tuple[int, str], w: float, h: float, regular: str, bold: str) -> None:
    """One sticker in its own coordinates ((0, 0) lower-left, w × h): the shared form plus its own data."""
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)

    c.doForm("sticker")
    qr_size = QR_SIZE_MM * mm
    _pdf.draw_qr_path(c, qr, w - qr_size - QR_MARGIN_MM * mm, 7 * mm, qr_size)
    band = 12 * mm
    x = 3.5 * mm
    c.setFont(bold, 15)
    c.drawString(x, h - band - 16 * mm, item.authorization_number)
    c.setFont(bold, 12)
    c.drawString(x, h - band - 26.5 * mm, fmt_date(item.valid_until))
    c.drawString(x, h - band - 36.5 * mm, fmt_plate(item.plate))
