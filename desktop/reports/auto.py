"""Auto de infração (Art. 19, 22): drawn up in two copies on two pages — "Via do processo" for the file kept by
the Municipality and "Via do infrator" handed to the infractor (Art. 19)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from desktop.reports.common import (
    LAW, DocumentMeta, MunicipalityHeader, fmt_datetime, fmt_decimal, fmt_document_id, fmt_money, fmt_plate,
)

COPIES = ("Via do processo", "Via do infrator")


@dataclass(frozen=True, slots=True)
class AutoContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    auto_number: str
    drawn_up_at: datetime
    place: str
    infractor_kind: str          # "condutor" or "plataforma"
    infractor_name: str
    infractor_document: str      # CPF or CNPJ
    infractor_address: str
    plate: str
    authorization_number: str
    code: str                    # "ART26-IV"
    description: str
    legal_basis: str             # "Art. 26, IV"
    severity: str                # "grave"
    upfm: Decimal
    upfm_value: Decimal          # R$ per UPFM of the year the auto was drawn up (Art. 25)
    amount: Decimal              # reais, rounded half-up
    penalties: str               # "Multa" / "Multa e suspensão da autorização por 12 meses"
    measures: str                # administrative measures (Art. 24, II), "" when none
    facts: str                   # what the agent saw
    agent_name: str
    agent_registration: str
    defense_days: int = 15       # parameter term.defense_days
    recurrence: str = ""         # "Reincidência: auto nº 0003/2026 de 02/02/2026" when the system found one


def build_context(header: MunicipalityHeader, meta: DocumentMeta, **fields) -> AutoContext:
    return AutoContext(header=header, meta=meta, **fields)


def render(ctx: AutoContext) -> bytes:
    from reportlab.platypus import PageBreak

    from desktop.reports import _pdf
    story: list = []
    for index, copy in enumerate(COPIES):
        story.extend(_copy(ctx, copy))
        if index + 1 < len(COPIES):
            story.append(_pdf.BannerChange(COPIES[index + 1].upper()))
            story.append(PageBreak())
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Auto de infração nº {ctx.auto_number}", story,
                                page_banner=COPIES[0].upper())


def _copy(ctx: AutoContext, copy: str) -> list:
    from desktop.reports import _pdf
    from desktop.reports._pdf import b, e

    story = _pdf.title_block(f"AUTO DE INFRAÇÃO Nº {ctx.auto_number}",
                             f"{copy} — lavrado em dois exemplares (Art. 19 da {LAW})")
    infractor = "Condutor" if ctx.infractor_kind == "condutor" else "Plataforma tecnológica"
    story.append(_pdf.field_table([
        ("Data e hora", fmt_datetime(ctx.drawn_up_at)),
        ("Local", ctx.place),
        (f"Infrator ({infractor})", f"{ctx.infractor_name} — {fmt_document_id(ctx.infractor_document)}"),
        ("Endereço", ctx.infractor_address),
        ("Veículo / autorização", f"Placa {fmt_plate(ctx.plate)} — autorização nº {ctx.authorization_number or '—'}"),
    ]))
    story.append(_pdf.p("Infração", "h2"))
    story.append(_pdf.field_table([
        ("Código", ctx.code),
        ("Descrição", ctx.description),
        ("Enquadramento", f"{ctx.legal_basis} da {LAW}"),
        ("Natureza", f"{ctx.severity} (Art. 25)"),
        ("Multa", f"{fmt_decimal(ctx.upfm, 0)} UPFM × {fmt_money(ctx.upfm_value)} = {fmt_money(ctx.amount)}"),
        ("Penalidades", ctx.penalties),
        ("Medidas administrativas", ctx.measures or "Nenhuma"),
        ("Reincidência", ctx.recurrence or "Não verificada"),
    ]))
    story.append(_pdf.p("Descrição dos fatos", "h2"))
    story.append(_pdf.p(ctx.facts))
    story.append(_pdf.spacer(2))
    story.append(_pdf.pm(
        f"Fica o infrator {b('NOTIFICADO')} da lavratura deste auto (Art. 22). O prazo de "
        f"{b(str(ctx.defense_days) + ' dias')} para defesa prévia ou recurso começa a correr da juntada da "
        f"notificação aos autos do processo administrativo (Art. 22, §2º). A defesa é dirigida à "
        f"{e(ctx.header.secretariat)}. A assinatura do infrator não implica confissão; a recusa em assinar é "
        f"certificada pelo agente.", "body"))
    story.append(_pdf.signature_block([
        (ctx.agent_name, f"Agente fiscal — matrícula {ctx.agent_registration}"),
        (ctx.infractor_name, "Infrator (ou: recusou-se a assinar)"),
    ]))
    return story
