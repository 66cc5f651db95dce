"""Payment guide (DAM — Documento de Arrecadação Municipal) for fees (Art. 10, 15 VII) and fines (Art. 25):
FEBRABAN arrecadação barcode (segment 1, prefeituras) as interleaved 2 of 5 with its 48-digit typed line, and
a PIX BR Code QR when the municipality configured a PIX key."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from desktop.domain.guides import fine_payment_note
from desktop.domain.ledger import COSTS_LABEL as LEDGER_COSTS_LABEL
from desktop.domain.revenue_codes import NOT_CONFIGURED, revenue_key
from desktop.reports import febraban, pix
from desktop.reports.common import LAW, DocumentMeta, MunicipalityHeader, fmt_date, fmt_document_id, fmt_money
from sqlalchemy import func, or_, select
from desktop.models import LedgerEntry as E
from desktop.errors import ConflictError, NotFound
from desktop.models import Auto, Authorization, Driver, Fee, PaymentGuide, Platform, Vehicle
from desktop.reports import records
from desktop.reports.common import fmt_decimal, fmt_plate
from desktop.models import IssqnClass, IssqnEstimate, IssqnShare
import io


@dataclass(frozen=True, slots=True)
class GuideItem:
    description: str        # "Taxa de autorização (Código Tributário Municipal) — 5 UPFM"
    amount: Decimal
    revenue_code: str = ""  # the código da receita of the line's debt (issue 28 point 4); "" not configured


@dataclass(frozen=True, slots=True)
class GuideContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    guide_number: str
    purpose: str              # "Taxa de autorização – Art. 10" / "Multa – auto nº 0003/2026"
    taxpayer_name: str
    taxpayer_document: str
    taxpayer_address: str
    reference: str            # "Autorização nº 0007/2026 – placa ABC1D23"
    items: tuple[GuideItem, ...]
    due_date: date
    company_id: str           # FEBRABAN code of the municipality (4 digits)
    barcode: str              # 44 digits
    typed_line: str           # 48 digits
    pix_payload: str | None
    legal_basis: str = ""     # the articles of this guide's own debt (issue 23 point 9)
    creditor_cnpj: str = ""     # the Prefeitura's CNPJ and address (issue 28 point 4), from the settings
    creditor_address: str = ""
    notes: tuple[str, ...] = ()   # printed in bold under the total: a fine under appeal (issue 28 point 4)

    @property
    def total(self) -> Decimal:
        return sum((item.amount for item in self.items), Decimal("0"))

    @property
    def revenue_codes(self) -> str:
        """The códigos da receita of the guide's lines, each once, in order; "não configurado" for a line whose
        code the municipality has not set (no code is invented: desktop.domain.revenue_codes)."""
        seen: list[str] = []
        for item in self.items:
            code = item.revenue_code or NOT_CONFIGURED
            if code not in seen:
                seen.append(code)
        return " / ".join(seen) or NOT_CONFIGURED


def make_context(header: MunicipalityHeader, meta: DocumentMeta, *, guide_number: str, purpose: str,
                  taxpayer_name: str, taxpayer_document: str, taxpayer_address: str, reference: str,
                  items, due_date: date, company_id: str, legal_basis: str = "",
                  creditor_cnpj: str = "", creditor_address: str = "", notes=()) -> GuideContext:
    items = tuple(items)
    total = sum((item.amount for item in items), Decimal("0"))
    if total <= 0:
        raise ValueError("A guia precisa de valor positivo.")
    barcode = febraban.arrecadacao_barcode(total, company_id, due_date, guide_number)
    payload = None
    if header.pix_key:
        payload = pix.pix_payload(header.pix_key, f"PREF MUN {header.name}", header.name, total,
                                  txid="DAM" + febraban.guide_digits(guide_number))
    return GuideContext(header, meta, guide_number, purpose, taxpayer_name, taxpayer_document, taxpayer_address,
                        reference, items, due_date, company_id, barcode, febraban.typed_line(barcode), payload,
                        legal_basis, creditor_cnpj, creditor_address, tuple(n for n in notes if n))


PURPOSE_LABELS = {
    "fee": "Taxa (Art. 10; Art. 15, VII)",
    "fine": "Multa (Art. 25)",
    "issqn": "ISSQN (Art. 11)",
    "cost": "Custas (Art. 28)",
}
FEE_LABELS = {"authorization": "Taxa de autorização", "renewal": "Taxa de renovação",
              "inspection": "Taxa de vistoria", "other": "Taxa"}
COSTS_LABEL = LEDGER_COSTS_LABEL   # "Custas (Art. 28) — remoção e estada do veículo"
LEGAL_BASIS = {   # issue 23 point 9: the articles of the guide's own debt only
    "fee": "Art. 10 e Art. 3, § 1º",
    "fine": "Art. 25",
    "issqn": "Art. 11",
    "cost": "Art. 28",
}


def auto_costs_reais(s, auto_ids) -> dict[int, Decimal]:
    """The Art. 28 costs (removal and storage, reais spent) posted on each auto, net of their reversals — a debt
    of its own beside the fine (issue 23 point 6), never added to the fine's UPFM."""

    ids = list(auto_ids)
    if not ids:
        return {}
    costs = select(E.id).where(E.kind == "costs", E.auto_id.in_(ids))
    rows = s.execute(select(E.auto_id, func.sum(E.amount_reais))
                     .where(E.auto_id.in_(ids), or_(E.kind == "costs",
                                                    (E.kind == "reversal") & E.reverses_id.in_(costs)))
                     .group_by(E.auto_id)).all()
    return {auto_id: Decimal(total or 0) for auto_id, total in rows if total and Decimal(total) > 0}


def legacy_costs_upfm(s, auto_ids) -> set[int]:
    """The autos among `auto_ids` whose Art. 28 costs were posted converted to UPFM (before migration 0022): their
    balance in UPFM mixes the costs in, so the fine's UPFM is recomputed from its reais."""
    ids = list(auto_ids)
    if not ids:
        return set()
    return set(s.scalars(select(E.auto_id).where(E.auto_id.in_(ids), E.kind == "costs", E.amount_upfm != 0)))


def split_fine_and_costs(owed: Decimal, costs: Decimal) -> tuple[Decimal, Decimal]:
    """(fine, costs) of an auto's balance `owed`: the costs still owed are at most the balance; the rest is the
    fine (a payment settles the fine first, then the costs)."""
    costs_owed = min(max(costs, Decimal("0")), max(owed, Decimal("0")))
    return owed - costs_owed, costs_owed


def build_context(s, number: str, meta: DocumentMeta) -> GuideContext:
    """The DAM of the open payment guide `number`, read from session `s`. Needs the municipality's FEBRABAN
    code (Administração → Município)."""

    settings = records.settings_row(s)
    agreement = (settings.febraban_agreement or "").strip()
    if not (agreement.isdigit() and len(agreement) == 4):
        raise ConflictError("Informe o código FEBRABAN do município (4 dígitos) em Administração → Município "
                            "antes de emitir guias: sem ele o código de barras não é aceito pelos bancos.")
    row = s.scalar(select(PaymentGuide).where(PaymentGuide.number == number.strip()))
    if row is None:
        raise NotFound(f"Guia nº {number} não encontrada.")
    if row.status != "open":
        raise ConflictError(f"A guia nº {row.number} está {'paga' if row.status == 'paid' else 'cancelada'}; "
                            "só guias em aberto são impressas. Para outra via, reimprima o documento arquivado.")
    from desktop.domain.clock import today  # local: as the other imports of this builder
    from desktop.domain.guides import guide_overdue  # local: as the other imports of this builder

    if guide_overdue(row.due_on, today()):   # issue 28 point 4: refused the same in every path (guide --auto too)
        raise ConflictError(f"Guia nº {row.number} VENCIDA em {fmt_date(row.due_on)} — reemita (Financeiro → Guias → "
                            "Reemitir guia vencida): uma guia vencida não é impressa.")
    address = ""
    if row.driver_id:
        address = records.address_of(s.get(Driver, row.driver_id))
    elif row.platform_id:
        address = s.get(Platform, row.platform_id).address or ""
    fee = s.get(Fee, row.fee_id) if getattr(row, "fee_id", None) else None   # a reissued guide keeps its fee
    if fee is None:
        fee = s.scalar(select(Fee).where(Fee.guide_number == row.number))
    parts = []
    if row.vehicle_id:
        vehicle = s.get(Vehicle, row.vehicle_id)
        if fee is not None and fee.authorization_id:
            auth = s.get(Authorization, fee.authorization_id)
            if auth.number:
                parts.append(f"Autorização nº {auth.number}")
        parts.append(f"placa {fmt_plate(vehicle.plate)}")
    auto = s.get(Auto, row.auto_id) if row.auto_id else None
    if auto is not None:
        parts.append(f"Auto de infração nº {auto.number} (código {auto.code})")
    purpose = PURPOSE_LABELS.get(row.purpose, row.purpose)
    legal_basis = LEGAL_BASIS.get(row.purpose, "")
    late = Decimal(getattr(row, "late_charges_reais", None) or 0)
    principal = Decimal(row.amount_reais) - late
    def code(purpose_key: str, fee_kind: str | None = None) -> str:   # issue 28 point 4: the line's receita
        field = revenue_key(purpose_key, fee_kind)
        return ((getattr(settings, field, None) if field else None) or "").strip()

    if fee is not None:
        text = FEE_LABELS.get(fee.kind, "Taxa") + " (Código Tributário Municipal)"
        if fee.amount_upfm is not None and fee.upfm_value is not None:
            text += f" — {fmt_decimal(fee.amount_upfm)} UPFM × {fmt_money(fee.upfm_value)}"
        items = [GuideItem(text, principal, code("fee", fee.kind))]
    elif row.purpose == "issqn":   # issue 13: the competência and the vehicles the guide collects (Art. 11)
        items, reference = _issqn_items(s, row)
        items = [GuideItem(i.description, i.amount, code("issqn")) for i in items]
        parts = [reference] + parts
        calculation = issqn_calculation(s, row)
    elif auto is not None:   # issue 23 point 6: the fine (Art. 25) and the Art. 28 costs on lines of their own
        fine, costs = split_fine_and_costs(principal, auto_costs_reais(s, [auto.id]).get(auto.id, Decimal("0")))
        items = [GuideItem(f"Multa (Art. 25) — auto nº {auto.number}, código {auto.code}", fine, code("fine"))] \
            if fine > 0 else []
        if costs > 0:
            items.append(GuideItem(COSTS_LABEL, costs, code("cost")))
            legal_basis += "; Art. 28"
    else:
        items = [GuideItem(purpose, principal, code(row.purpose))]
    if row.replaces_id:   # issue 23 point 9: a reissued guide says which guide it replaces
        old = s.get(PaymentGuide, row.replaces_id)
        parts.append(f"substitui a guia nº {old.number}")
    if late > 0:   # issue 13: an overdue guide reissued with the late charges the gestor configured
        # booked under the receita of the debt it is late on (the guide's first line)
        items.append(GuideItem("Acréscimos por atraso — multa e juros de mora (Código Tributário Municipal)", late,
                               items[0].revenue_code if items else code(row.purpose)))
    notes = (fine_payment_note(auto.number, auto.status),) if auto is not None else ()
    if row.purpose == "issqn" and fee is None:
        notes = (calculation,)
    return make_context(records.header_of(settings, s), meta, guide_number=row.number, purpose=purpose,
                        taxpayer_name=row.payer_name, taxpayer_document=row.payer_document or "",
                        taxpayer_address=address, reference=" – ".join(parts) or purpose, items=items,
                        due_date=row.due_on, company_id=agreement, legal_basis=legal_basis,
                        creditor_cnpj=settings.cnpj or "", creditor_address=settings.address or "", notes=notes)


def _issqn_items(s, row) -> tuple[list[GuideItem], str]:
    """One line per competência: "ISSQN estimado — competência 10/2026 — 12 veículos"; the reference names the
    substitute driver's vehicle (Art. 11) or the platform's vehicles count."""

    lines = s.execute(select(IssqnShare.year, IssqnShare.month, func.count(), func.sum(IssqnShare.amount))
                      .where(IssqnShare.guide_id == row.id, IssqnShare.status == "open")
                      .group_by(IssqnShare.year, IssqnShare.month).order_by(IssqnShare.year, IssqnShare.month)).all()
    if not lines:
        return [GuideItem(PURPOSE_LABELS["issqn"], Decimal(row.amount_reais))], PURPOSE_LABELS["issqn"]
    items = [GuideItem(f"ISSQN estimado (Art. 11) — competência {m:02d}/{y} — {n} veículo{'s' if n > 1 else ''}",
                       Decimal(total)) for y, m, n, total in lines]
    who = "condutor substituto tributário (Art. 11)" if row.driver_id else "plataforma (Art. 11, caput)"
    competences = ", ".join(f"{m:02d}/{y}" for y, m, _n, _t in lines)
    payer = row.payer_name if not row.driver_id else f"condutor {row.payer_name}"
    return items, f"ISSQN competência {competences} – {payer} – recolhimento pela {who}"


def issqn_calculation(s, row) -> str:
    """The lançamento's calculation on the ISSQN DAM (issue 28 point 4: "the same calculation on the DAM"), per
    competência and class: vehicles × the class's estimated base × the rate (Art. 11, § 1º), and the shares this
    guide collects — the figures of the notice of lançamento (reports/issqn_notice.py)."""
    lines = s.execute(select(IssqnShare.year, IssqnShare.month, IssqnClass.code, IssqnEstimate.base,
                             IssqnEstimate.rate, func.count(), func.sum(IssqnShare.amount))
                      .join(IssqnEstimate, IssqnEstimate.id == IssqnShare.estimate_id)
                      .join(IssqnClass, IssqnClass.id == IssqnEstimate.class_id)
                      .where(IssqnShare.guide_id == row.id, IssqnShare.status == "open")
                      .group_by(IssqnShare.year, IssqnShare.month, IssqnClass.code, IssqnEstimate.base,
                                IssqnEstimate.rate)
                      .order_by(IssqnShare.year, IssqnShare.month, IssqnClass.code, IssqnEstimate.base)).all()
    if not lines:
        return ""
    parts = [f"{m:02d}/{y}, classe {code} (base estimada {fmt_money(base)} × alíquota {fmt_decimal(rate)} %): "
             f"{n} veículo{'s' if n > 1 else ''}, {fmt_money(total)}" for y, m, code, base, rate, n, total in lines]
    return ("Cálculo do lançamento estimado (Art. 11, § 1º; CTN, art. 148): " + "; ".join(parts)
            + ". O imposto de um veículo que atende mais de uma plataforma é repartido entre elas; "
              "o dia de vencimento e o prazo de impugnação constam da notificação de lançamento.")


def _fit(text: str, font: str, size: float, width: float) -> str:
    """`text` cut with "…" so that it fits `width` points in `font` (bold is what the box draws: a margin)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth  # lazy: ReportLab loads only when this runs (start-up cost)

    limit = width * 0.92
    if stringWidth(text, font, size) <= limit:
        return text
    while text and stringWidth(text + "…", font, size) > limit:
        text = text[:-1]
    return text.rstrip() + "…"


def render(ctx: GuideContext) -> bytes:

    from reportlab.lib import colors  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs

    buffer = io.BytesIO()
    c = _pdf.new_canvas(buffer, f"DAM nº {ctx.guide_number}")
    regular, bold = _pdf.fonts()
    left, right = _pdf.MARGIN, _pdf.PAGE_W - _pdf.MARGIN
    width = right - left
    y = _pdf.draw_letterhead(c, ctx.header) - 8 * mm
    c.setFont(bold, 13)
    c.drawCentredString(_pdf.PAGE_W / 2, y, "DOCUMENTO DE ARRECADAÇÃO MUNICIPAL — DAM")
    y -= 5.5 * mm
    c.setFont(regular, 8.5)
    c.drawCentredString(_pdf.PAGE_W / 2, y, f"Guia nº {ctx.guide_number} — {ctx.purpose}")
    y -= 6.5 * mm

    def box(x, top, w, h, label, value, size=9.5, value_font=None):
        c.setLineWidth(0.5)
        c.rect(x, top - h, w, h)
        c.setFont(regular, 6.5)
        c.setFillColor(_pdf.GREY)
        c.drawString(x + 1.5 * mm, top - 3.2 * mm, label)
        c.setFillColor(colors.black)
        c.setFont(value_font or bold, size)
        c.drawString(x + 1.5 * mm, top - h + 2.2 * mm, value)

    # ---- Via do contribuinte
    c.setFont(bold, 8)
    c.drawString(left, y, "VIA DO CONTRIBUINTE")
    y -= 2 * mm
    row = 10 * mm
    # issue 28 point 4: the creditor — the Prefeitura, its CNPJ and address — and the código da receita
    # (the código da receita of each debt is printed under its line of the Discriminação)
    cnpj = fmt_document_id(ctx.creditor_cnpj) if ctx.creditor_cnpj else NOT_CONFIGURED
    short = 8.5 * mm
    box(left, y, width * 0.62, short, "Credor", _fit(f"Prefeitura Municipal de {ctx.header.name}–{ctx.header.uf}",
                                                     bold, 8.5, width * 0.62 - 3 * mm), 8.5)
    box(left + width * 0.62, y, width * 0.38, short, "CNPJ do credor", cnpj, 8.5)
    y -= short
    box(left, y, width, short, "Endereço do credor",
        _fit(ctx.creditor_address or NOT_CONFIGURED, regular, 8, width - 3 * mm), 8, regular)
    y -= short
    box(left, y, width * 0.62, row, "Contribuinte", _fit(ctx.taxpayer_name, bold, 9.5, width * 0.62 - 3 * mm))
    box(left + width * 0.62, y, width * 0.38, row, "CPF/CNPJ", fmt_document_id(ctx.taxpayer_document))
    y -= row
    box(left, y, width, row, "Endereço", ctx.taxpayer_address or "—", 8.5, regular)
    y -= row
    box(left, y, width, row, "Referência", _fit(ctx.reference, regular, 8.5, width - 3 * mm), 8.5, regular)
    y -= row
    # items: each line with its código da receita under it (issue 28 point 4); a guide of many lines (an ISSQN
    # guide of several competências) prints the code at the line's end, so that the page still holds the stub
    compact = len(ctx.items) > 4
    line_h = (5.5 if compact else 8) * mm
    items_h = len(ctx.items) * line_h + 8 * mm
    c.rect(left, y - items_h, width, items_h)
    c.setFont(regular, 6.5)
    c.setFillColor(_pdf.GREY)
    c.drawString(left + 1.5 * mm, y - 3.2 * mm, "Discriminação")
    c.drawRightString(right - 1.5 * mm, y - 3.2 * mm, "Valor")
    c.setFillColor(colors.black)
    iy = y - 8 * mm
    for item in ctx.items:
        code = f"Código da receita: {item.revenue_code or NOT_CONFIGURED}"
        c.setFont(regular, 8.5)
        c.drawString(left + 1.5 * mm, iy, _fit(item.description, regular, 8.5, width - (74 if compact else 30) * mm))
        c.drawRightString(right - 1.5 * mm, iy, fmt_money(item.amount))
        c.setFont(regular, 6.5 if compact else 7)
        c.setFillColor(_pdf.GREY)
        if compact:
            c.drawRightString(right - 30 * mm, iy, code)
        else:
            c.drawString(left + 4 * mm, iy - 3.2 * mm, code)
        c.setFillColor(colors.black)
        iy -= line_h
    y -= items_h
    third = width / 3
    box(left, y, third, row, "Vencimento", fmt_date(ctx.due_date), 11)
    box(left + third, y, third, row, "Número da guia", ctx.guide_number, 11)
    box(left + 2 * third, y, third, row, "Valor total", fmt_money(ctx.total), 11)
    y -= row + 3 * mm
    c.setFont(regular, 7)
    for line in _pdf._wrap(
            f"Recolhimento exigido pela {LAW} ({ctx.legal_basis or ctx.purpose}) e pelo Código "
            "Tributário Municipal. Pague em qualquer banco ou correspondente até o vencimento pelo código de "
            "barras" + (" ou pelo PIX (QR code abaixo)." if ctx.pix_payload else "."),
            regular, 7, width):
        c.drawString(left, y, line)
        y -= 3.4 * mm
    for note in ctx.notes:      # issue 28 point 4: "o pagamento não implica renúncia ao recurso"
        y -= 1 * mm
        for line in _pdf._wrap(note, bold, 7.5, width):
            c.setFont(bold, 7.5)
            c.drawString(left, y, line)
            y -= 3.6 * mm

    # ---- cut line
    y -= 4 * mm
    c.setDash(3, 2)
    c.setLineWidth(0.4)
    c.line(left - 8 * mm, y, right + 8 * mm, y)
    c.setDash()
    c.setFont(regular, 6)
    c.drawRightString(right, y + 1.2 * mm, "✂ corte aqui")
    y -= 6.5 * mm

    # ---- Via do banco (ficha de arrecadação)
    c.setFont(bold, 8)
    c.drawString(left, y, f"VIA DO BANCO — PREFEITURA MUNICIPAL DE {ctx.header.name.upper()}"
                          + (f" — CNPJ {fmt_document_id(ctx.creditor_cnpj)}" if ctx.creditor_cnpj else ""))
    y -= 2 * mm
    pix_w = 50 * mm if ctx.pix_payload else 0
    data_w = width - pix_w - (3 * mm if pix_w else 0)
    box(left, y, data_w / 2, row, "Vencimento", fmt_date(ctx.due_date), 11)
    box(left + data_w / 2, y, data_w / 2, row, "Valor", fmt_money(ctx.total), 11)
    # issue 28 point 4: a long name (a platform's razão social) is cut to its box, never over the guide number
    box(left, y - row, data_w / 2, row, "Contribuinte", _fit(ctx.taxpayer_name, bold, 8, data_w / 2 - 3 * mm), 8)
    box(left + data_w / 2, y - row, data_w / 2, row, "Guia nº", ctx.guide_number, 9)
    box(left, y - 2 * row, data_w * 0.5, row, "Órgão arrecadador (código FEBRABAN)",
        _fit(f"{ctx.company_id} — {ctx.header.secretariat}", regular, 8, data_w * 0.5 - 3 * mm), 8, regular)
    box(left + data_w * 0.5, y - 2 * row, data_w * 0.5, row, "Código da receita",
        _fit(ctx.revenue_codes, bold, 8, data_w * 0.5 - 3 * mm), 8)
    pix_h = 0
    if ctx.pix_payload:
        qr = 36 * mm
        pix_h = qr + 17 * mm
        px = right - pix_w
        c.setLineWidth(0.5)
        c.rect(px, y - pix_h, pix_w, pix_h)
        c.setFont(bold, 8.5)
        c.drawCentredString(px + pix_w / 2, y - 4.5 * mm, "Pague com PIX")
        c.setFont(regular, 6.3)
        c.drawCentredString(px + pix_w / 2, y - 8 * mm, "Aponte a câmera do app do seu banco")
        # 7 mm of white (more than 4 modules) between the code and the box line
        _pdf.draw_qr(c, ctx.pix_payload, px + (pix_w - qr) / 2, y - pix_h + 5 * mm, qr)
    y -= max(3 * row, pix_h) + 7 * mm
    c.setFont(regular, 6.5)
    c.setFillColor(_pdf.GREY)
    c.drawString(left, y, "Linha digitável")
    c.setFillColor(colors.black)
    y -= 5.5 * mm
    c.setFont(bold, 11)
    c.drawString(left, y, febraban.format_typed_line(ctx.typed_line))
    y -= 4 * mm + _pdf.BAR_HEIGHT
    _pdf.draw_i2of5(c, ctx.barcode, left, y)
    y -= 5 * mm
    c.setFont(regular, 6.5)
    c.drawString(left, y, "Código de barras FEBRABAN — arrecadação, segmento 1 (prefeituras), valor em reais "
                          "(identificador 6, módulo 10).")
    if ctx.pix_payload:
        y -= 6 * mm
        c.setFont(regular, 6)
        c.setFillColor(_pdf.GREY)
        c.drawString(left, y, "PIX copia e cola:")
        tx = c.beginText(left, y - 3 * mm)
        tx.setFont(regular, 6)
        payload = ctx.pix_payload
        for i in range(0, len(payload), 100):
            tx.textLine(payload[i:i + 100])
        c.drawText(tx)
        c.setFillColor(colors.black)
    _pdf.draw_footer(c, ctx.header, ctx.meta)
    c.showPage()
    c.save()
    return buffer.getvalue()
