"""Driver credential to carry (Art. 13, I: "portar autorização específica emitida pelo município").

Card size (ID-1, 85.6 × 54 mm), front and back side by side on an A4 sheet with crop marks: cut, fold along the
middle line and laminate. Front: photo, name, masked CPF and CNH (LGPD, art. 6º, III), authorization and
validity. Back: the vehicle, the Ouvidoria and a signed QR code that ties the card to its driver — the sticker's
fields plus the masked CPF and CNH (desktop.signing.sign_credential; issue 28: "pessoal e intransferível").
The photo is required: a credential without it is refused.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from desktop.domain.formatting import mask_cnh
from desktop.reports.common import LAW, DocumentMeta, MunicipalityHeader, fmt_date, fmt_plate, mask_cpf
from desktop.signing import sign_credential
from desktop.reports import records
import io

PHOTO_REQUIRED = ("A credencial é pessoal e intransferível (Art. 13, I da Lei nº 2.103/2025): cadastre a foto do "
                  "condutor (Cadastro → Condutores → Foto) antes de emiti-la.")

CARD_W_MM = 85.6
CARD_H_MM = 54.0


@dataclass(frozen=True, slots=True)
class CredentialContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    driver_name: str
    cpf: str
    cnh_number: str
    cnh_category: str
    authorization_number: str
    valid_until: date
    plate: str
    vehicle: str               # "Chevrolet Onix 1.0 – prata"
    qr_payload: str
    photo: bytes | None = None  # JPEG or PNG


def make_context(header: MunicipalityHeader, meta: DocumentMeta, *, driver_name: str, cpf: str, cnh_number: str,
                  cnh_category: str, authorization_number: str, valid_until: date, plate: str, vehicle: str,
                  private_key: bytes, photo: bytes | None = None) -> CredentialContext:
    if not photo:
        from desktop.errors import ConflictError  # local: imported only on this branch
        raise ConflictError(PHOTO_REQUIRED)
    payload = sign_credential(private_key, authorization_number, plate, valid_until, mask_cpf(cpf),
                              mask_cnh(cnh_number))
    return CredentialContext(
        header, meta, driver_name, cpf, cnh_number, cnh_category, authorization_number, valid_until, plate,
        vehicle, payload, photo,
    )


def build_context(s, number: str, meta: DocumentMeta, private_key: bytes) -> CredentialContext:
    """The credential of the active authorization `number`, read from session `s`."""
    auth, driver, vehicle = records.active_authorization(s, number)
    return make_context(records.header(s), meta, driver_name=driver.name, cpf=driver.cpf,
                        cnh_number=driver.cnh_number or "—", cnh_category=driver.cnh_category or "—",
                        authorization_number=auth.number, valid_until=auth.valid_until, plate=vehicle.plate,
                        vehicle=records.vehicle_line(vehicle), private_key=private_key, photo=driver.photo)


def render(ctx: CredentialContext) -> bytes:

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from reportlab.lib import colors  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)

    buffer = io.BytesIO()
    c = _pdf.new_canvas(buffer, f"Credencial do condutor — autorização nº {ctx.authorization_number}")
    regular, bold = _pdf.fonts()
    _pdf.draw_cutout_heading(c, ctx.header, "CREDENCIAL DO CONDUTOR AUTORIZADO",
                             f"Art. 13, I da {LAW}: porte obrigatório durante a prestação do serviço. "
                             "Recorte nas marcas, dobre ao meio e plastifique.", 8)
    w, h = CARD_W_MM * mm, CARD_H_MM * mm
    x0 = (_pdf.PAGE_W - 2 * w) / 2
    y0 = _pdf.PAGE_H - 70 * mm - h
    _crop_marks(c, x0, y0, 2 * w, h)
    c.setDash(2, 2)
    c.setLineWidth(0.3)
    c.line(x0 + w, y0 - 6 * mm, x0 + w, y0 - 2 * mm)
    c.line(x0 + w, y0 + h + 2 * mm, x0 + w, y0 + h + 6 * mm)
    c.setDash()
    c.setFont(regular, 6)
    c.drawCentredString(x0 + w, y0 - 9 * mm, "dobra")

    # ---- front
    c.saveState()
    c.translate(x0, y0)
    c.setLineWidth(0.5)
    c.roundRect(0, 0, w, h, 3 * mm)
    band = 10 * mm
    c.setFillColor(colors.HexColor("#0B4F8A"))
    c.roundRect(0, h - band, w, band, 3 * mm, stroke=0, fill=1)
    c.rect(0, h - band, w, 3 * mm, stroke=0, fill=1)
    text_x = 3 * mm
    if ctx.header.brasao_png:
        c.setFillColor(colors.white)
        c.roundRect(1.5 * mm, h - band + 1 * mm, band - 2 * mm, band - 2 * mm, 1 * mm, stroke=0, fill=1)
        if _pdf.draw_brasao(c, ctx.header.brasao_png, 1.8 * mm, h - band + 1.3 * mm, band - 2.6 * mm):
            text_x = band + 0.5 * mm
    c.setFillColor(colors.white)
    title = f"PREFEITURA MUNICIPAL DE {ctx.header.name.upper()} – {ctx.header.uf.upper()}"
    subtitle = f"CREDENCIAL DO CONDUTOR · Art. 13, I · {LAW}"
    room = w - text_x - 2 * mm
    c.setFont(bold, _pdf.fit_size(title, bold, 6.2, room))
    c.drawString(text_x, h - 4.3 * mm, title)
    c.setFont(regular, _pdf.fit_size(subtitle, regular, 5.4, room))
    c.drawString(text_x, h - 7.8 * mm, subtitle)
    c.setFillColor(colors.black)
    photo_w, photo_h = 22 * mm, 29 * mm
    px, py = 3 * mm, h - band - 2.5 * mm - photo_h
    c.setLineWidth(0.4)
    c.rect(px, py, photo_w, photo_h)
    if ctx.photo:
        from reportlab.lib.utils import ImageReader  # lazy: ReportLab loads only when this runs (start-up cost)
        try:
            c.drawImage(ImageReader(io.BytesIO(ctx.photo)), px, py, photo_w, photo_h, preserveAspectRatio=True,
                        anchor="c", mask="auto")
        except Exception:
            _no_photo(c, px, py, photo_w, photo_h, regular)
    else:
        _no_photo(c, px, py, photo_w, photo_h, regular)
    x = px + photo_w + 3 * mm
    y = h - band - 5 * mm
    for label, value, size in (
        ("Nome", ctx.driver_name, 7.5),
        ("CPF", mask_cpf(ctx.cpf), 7.5),
        ("CNH nº / categoria", f"{mask_cnh(ctx.cnh_number)} / {ctx.cnh_category}", 7.5),
        ("Autorização nº", ctx.authorization_number, 9.5),
        ("Válida até", fmt_date(ctx.valid_until), 9.5),
    ):
        c.setFont(regular, 5.2)
        c.drawString(x, y, label)
        c.setFont(bold, size)
        c.drawString(x, y - 3.4 * mm, _fit(value, bold, size, w - x - 2.5 * mm))
        y -= 6.9 * mm
    c.setFont(regular, 5)
    c.drawString(3 * mm, 2.5 * mm, "Documento pessoal e intransferível.")
    c.restoreState()
    if ctx.header.demo:            # issue 28: the cut-out front carries the demo mark too
        _pdf.draw_demo_mark_box(c, x0, y0, w, h)

    # ---- back
    c.saveState()
    c.translate(x0 + w, y0)
    c.roundRect(0, 0, w, h, 3 * mm)
    qr = 30 * mm          # 45 modules of 0.67 mm; 4.5 mm (> 4 modules) of quiet zone to the edge
    _pdf.draw_qr(c, ctx.qr_payload, w - qr - 4.5 * mm, (h - qr) / 2 + 3 * mm, qr)
    x, y = 4 * mm, h - 7 * mm
    c.setFont(bold, 7)
    c.drawString(x, y, "VEÍCULO AUTORIZADO")
    y -= 5 * mm
    c.setFont(regular, 5.2)
    c.drawString(x, y, "Placa")
    c.setFont(bold, 10)
    c.drawString(x, y - 4 * mm, fmt_plate(ctx.plate))
    y -= 9 * mm
    c.setFont(regular, 5.2)
    c.drawString(x, y, "Marca/modelo/cor")
    c.setFont(bold, 6.5)
    for line in _pdf._wrap(ctx.vehicle or "—", bold, 6.5, w - qr - 11 * mm)[:2]:
        y -= 3 * mm
        c.drawString(x, y, line)
    y -= 6 * mm
    c.setFont(regular, 5.2)
    c.drawString(x, y, "Ouvidoria – sugestões e denúncias")
    c.setFont(bold, 7.5)
    c.drawString(x, y - 3.5 * mm, ctx.header.ouvidoria_phone or "—")
    c.setFont(regular, 4.8)
    c.drawString(x, 5.5 * mm, "O agente confere esta credencial lendo o QR code:")
    c.drawString(x, 3 * mm, "assinatura digital da Prefeitura, sem internet.")
    c.restoreState()
    if ctx.header.demo:
        _pdf.draw_demo_mark_box(c, x0 + w, y0, w, h)

    _pdf.draw_footer(c, ctx.header, ctx.meta)
    c.showPage()
    c.save()
    return buffer.getvalue()


def _no_photo(c, x, y, w, h, regular) -> None:
    c.setFont(regular, 5.5)
    c.drawCentredString(x + w / 2, y + h / 2, "foto 3×4")


def _fit(text: str, font: str, size: float, width: float) -> str:
    """`text` cut (with …) to fit `width` points (desktop.reports._pdf.fit_text)."""
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    return _pdf.fit_text(text, font, size, width)


def _crop_marks(c, x, y, w, h) -> None:
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    _pdf.crop_marks(c, x, y, w, h)
