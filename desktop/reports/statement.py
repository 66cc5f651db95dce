"""Infractor's statement (extrato) at a date: the append-only ledger in UPFM with reais beside, and the
balance computed from the entries (SPEC: the ledger is append-only; balances are computed, never stored)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from desktop.reports.common import (
    LAW, DocumentMeta, MunicipalityHeader, fmt_date, fmt_decimal, fmt_document_id, fmt_money,
)


@dataclass(frozen=True, slots=True)
class StatementLine:
    day: date
    description: str       # "Multa – auto nº 0003/2026 (Art. 26, IV)"
    reference: str
    debit_upfm: Decimal
    credit_upfm: Decimal
    reais: Decimal          # the entry's value in reais at the UPFM value used for it


@dataclass(frozen=True, slots=True)
class StatementContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    infractor_name: str
    infractor_document: str
    as_of: date
    lines: tuple[StatementLine, ...]
    upfm_value_today: Decimal

    @property
    def balance_upfm(self) -> Decimal:
        return sum((line.debit_upfm - line.credit_upfm for line in self.lines), Decimal("0"))

    @property
    def balance_reais(self) -> Decimal:
        return (self.balance_upfm * self.upfm_value_today).quantize(Decimal("0.01"))


def build_context(header: MunicipalityHeader, meta: DocumentMeta, *, infractor_name: str, infractor_document: str,
                  as_of: date, lines, upfm_value_today: Decimal) -> StatementContext:
    kept = tuple(sorted((line for line in lines if line.day <= as_of), key=lambda line: line.day))
    return StatementContext(header, meta, infractor_name, infractor_document, as_of, kept, upfm_value_today)


def render(ctx: StatementContext) -> bytes:
    from reportlab.lib.units import mm

    from desktop.reports import _pdf
    from desktop.reports._pdf import b

    story = _pdf.title_block("EXTRATO DO INFRATOR",
                             f"Posição em {fmt_date(ctx.as_of)} — multas em UPFM (Art. 25 da {LAW})")
    story.append(_pdf.field_table([
        ("Infrator", ctx.infractor_name),
        ("CPF/CNPJ", fmt_document_id(ctx.infractor_document)),
    ]))
    story.append(_pdf.spacer(3))
    running = Decimal("0")
    rows = []
    for line in ctx.lines:
        running += line.debit_upfm - line.credit_upfm
        rows.append([
            fmt_date(line.day), line.description, line.reference,
            fmt_decimal(line.debit_upfm) if line.debit_upfm else "",
            fmt_decimal(line.credit_upfm) if line.credit_upfm else "",
            fmt_money(line.reais), fmt_decimal(running),
        ])
    if not rows:
        rows.append(["", "Nenhum lançamento até esta data.", "", "", "", "", ""])
    story.append(_pdf.grid_table(
        ["Data", "Histórico", "Referência", "Débito (UPFM)", "Crédito (UPFM)", "Valor (R$)", "Saldo (UPFM)"],
        rows, [20 * mm, 46 * mm, 22 * mm, 19 * mm, 19 * mm, 24 * mm, 24 * mm], right_cols=(3, 4, 5, 6)))
    story.append(_pdf.spacer(3))
    story.append(_pdf.pm(
        f"Saldo devedor em {fmt_date(ctx.as_of)}: {b(fmt_decimal(ctx.balance_upfm) + ' UPFM')}, equivalentes a "
        f"{b(fmt_money(ctx.balance_reais))} pelo valor da UPFM vigente ({fmt_money(ctx.upfm_value_today)})."))
    story.append(_pdf.p("Os lançamentos não são alterados nem apagados: cancelamentos e reduções aparecem como "
                        "estornos com o seu motivo.", "small"))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Extrato — {ctx.infractor_name}", story)
