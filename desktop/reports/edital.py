"""Edital list for publication (Art. 22, §1, II–IV): infractors notified by edital — on the Prefeitura's notice
board (II), in a newspaper (III) or in the official press (IV) — when direct notice failed."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from desktop.reports.common import LAW, DocumentMeta, MunicipalityHeader, fmt_date, fmt_money, fmt_plate, mask_cpf

MEANS = {
    "II": "afixação no quadro de editais da Prefeitura Municipal",
    "III": "publicação em jornal de circulação regular no Município",
    "IV": "publicação no Órgão de Imprensa Oficial do Município",
}


@dataclass(frozen=True, slots=True)
class EditalRow:
    auto_number: str
    infractor_name: str
    document: str           # CPF (masked on print) or CNPJ
    plate: str
    code: str
    infraction_date: date
    amount: Decimal


@dataclass(frozen=True, slots=True)
class EditalContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    edital_number: str
    means: tuple[str, ...]          # "II", "III", "IV"
    publication_date: date
    defense_days: int
    rows: tuple[EditalRow, ...]
    signer_name: str = ""


def build_context(header: MunicipalityHeader, meta: DocumentMeta, **fields) -> EditalContext:
    bad = [m for m in fields.get("means", ()) if m not in MEANS]
    if bad:
        raise ValueError(f"Forma de publicação fora do Art. 22, §1º, II–IV: {', '.join(bad)}.")
    return EditalContext(header=header, meta=meta, **fields)


def _document(doc: str) -> str:
    from desktop.reports.common import fmt_cnpj, only_digits
    d = only_digits(doc)
    return mask_cpf(d) if len(d) == 11 else fmt_cnpj(d)


def render(ctx: EditalContext) -> bytes:
    from reportlab.lib.units import mm

    from desktop.reports import _pdf
    from desktop.reports._pdf import e

    story = _pdf.title_block(f"EDITAL DE NOTIFICAÇÃO Nº {ctx.edital_number}",
                             f"Notificação de autuação por edital — Art. 22, §1º, "
                             f"{', '.join(ctx.means)} da {LAW}")
    means = "; ".join(f"{m} – {MEANS[m]}" for m in ctx.means)
    story.append(_pdf.pm(
        f"O Município de {e(ctx.header.name)}–{e(ctx.header.uf)}, por meio da {e(ctx.header.secretariat)}, "
        f"torna público que foram lavrados os autos de infração abaixo relacionados, ficando os infratores "
        f"NOTIFICADOS por este edital ({e(means)}), publicado em {fmt_date(ctx.publication_date)}. "
        f"O prazo de {ctx.defense_days} dias para defesa prévia ou recurso começa na juntada deste edital aos "
        f"autos de cada processo (Art. 22, §2º). Os dados pessoais são publicados de forma mascarada (LGPD)."))
    story.append(_pdf.spacer(3))
    rows = [[r.auto_number, r.infractor_name, _document(r.document), fmt_plate(r.plate), r.code,
             fmt_date(r.infraction_date), fmt_money(r.amount)] for r in ctx.rows]
    widths = [19 * mm, 39 * mm, 34 * mm, 17 * mm, 19 * mm, 20 * mm, 26 * mm]
    story.append(_pdf.grid_table(["Auto nº", "Infrator", "CPF/CNPJ", "Placa", "Infração", "Data", "Multa"],
                                 rows, widths, right_cols=(6,)))
    story.append(_pdf.spacer(2))
    story.append(_pdf.p(f"Total de autos relacionados: {len(ctx.rows)}.", "left"))
    story.append(_pdf.signature_block([(ctx.signer_name or "Autoridade competente", ctx.header.secretariat)]))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Edital nº {ctx.edital_number}", story)
