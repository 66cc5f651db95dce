"""Notice of the estimated ISSQN lançamento of one platform and competência (issue 28 point 4; Art. 11 §1: the
amount is estimated and classified by the secretariat). The estimate is a tax assessment: the notice says what
was assessed, on whom, how it was computed, when it is due, and the term and place to contest it:
- CTN art. 142: the lançamento names the taxable event, the base, the amount and the taxpayer;
- CTN art. 145: notified, it may be contested;
- CTN art. 148: an estimate, open to contest and to a contrary assessment."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from desktop.reports.common import (
    LAW, DocumentMeta, MunicipalityHeader, Signer, fmt_date, fmt_decimal, fmt_document_id, fmt_money, mask_cpf,
)

BASIS = "CTN, arts. 142, 145 e 148"
ARTICLE = "Art. 11, caput e § 1º"


@dataclass(frozen=True, slots=True)
class NoticeLine:
    plate: str
    driver: str
    driver_cpf: str           # printed masked (LGPD)
    class_code: str
    class_name: str
    days_active: int
    base: Decimal             # the class's estimated monthly base, in reais
    rate: Decimal             # percent
    estimate: Decimal         # the vehicle's estimated tax for the month
    amount: Decimal           # this platform's share of it (split when the vehicle served several platforms)


@dataclass(frozen=True, slots=True)
class IssqnNoticeContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    notice_number: str        # the notices' own series "NT-0003/2026" (services.numbering)
    platform_name: str
    platform_cnpj: str
    platform_address: str
    year: int
    month: int
    lines: tuple[NoticeLine, ...]
    due_on: date              # the competência's due date (parameter issqn_due_day, next business day)
    contest_days: int         # the CTM's term to contest (parameter issqn.contest_days)
    contest_place: str        # the secretariat and its address
    pro_rata: bool = False
    guide_number: str = ""    # the DAM of the competência, when already issued
    signer: Signer | None = None

    @property
    def total(self) -> Decimal:
        return sum((line.amount for line in self.lines), Decimal("0"))

    @property
    def competence(self) -> str:
        return f"{self.month:02d}/{self.year}"


def render(ctx: IssqnNoticeContext) -> bytes:
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs

    if ctx.signer is None:
        raise ValueError("A notificação de lançamento precisa de quem a assina: nome, cargo e matrícula "
                         "(Lei 9.784/99, art. 22, §1º).")
    if not ctx.lines:
        raise ValueError("A notificação de lançamento precisa de ao menos um veículo.")
    number = ctx.notice_number or ctx.meta.number
    story = _pdf.title_block(f"NOTIFICAÇÃO DE LANÇAMENTO DO ISSQN ESTIMADO Nº {number}",
                             f"Competência {ctx.competence} — {ARTICLE} da {LAW}; {BASIS}")
    story.append(_pdf.field_table([
        ("Sujeito passivo", f"{ctx.platform_name} — CNPJ {fmt_document_id(ctx.platform_cnpj)}"),
        ("Endereço", ctx.platform_address or "—"),
        ("Competência", ctx.competence),
        ("Fato gerador", "Serviço de transporte remunerado privado individual de passageiros intermediado pela "
                         "plataforma no Município, por veículo autorizado (LC 116/2003, item 16.02)"),
    ]))
    story.append(_pdf.spacer(2))
    story.append(_pdf.p(
        f"Fica o sujeito passivo NOTIFICADO do lançamento do ISSQN da competência {ctx.competence}, estimado e "
        f"classificado pela {ctx.header.secretariat} por veículo autorizado ({ARTICLE} da {LAW}; CTN, art. 148), "
        f"na forma abaixo: base estimada mensal da classe de cada veículo × alíquota"
        + (", proporcional aos dias de autorização ativa no mês" if ctx.pro_rata else
           ", pelo mês inteiro para o veículo ativo em qualquer dia do mês")
        + "; o imposto de um veículo que atendeu mais de uma plataforma é repartido entre elas."))
    head = ["Placa", "Condutor (CPF)", "Classe", "Dias", "Base (R$)", "Alíquota", "Estimado", "Parcela"]
    rows = [[line.plate, f"{line.driver} ({mask_cpf(line.driver_cpf)})" if line.driver_cpf else line.driver,
             f"{line.class_code} — {line.class_name}", str(line.days_active), fmt_money(line.base),
             f"{fmt_decimal(line.rate)} %", fmt_money(line.estimate), fmt_money(line.amount)]
            for line in ctx.lines]
    rows.append(["", f"{len(ctx.lines)} veículo(s)", "", "", "", "", "Total", fmt_money(ctx.total)])
    width = _pdf.PAGE_W - 2 * _pdf.MARGIN
    widths = [18 * mm, 46 * mm, 34 * mm, 9 * mm, 19 * mm, 14 * mm, 19 * mm]
    widths.append(width - sum(widths))
    story.append(_pdf.grid_table(head, rows, widths, right_cols=(3, 4, 5, 6, 7)))
    story.append(_pdf.spacer(2))
    story.append(_pdf.field_table([
        ("Valor lançado", fmt_money(ctx.total)),
        ("Vencimento", fmt_date(ctx.due_on) + (f" — guia (DAM) nº {ctx.guide_number}" if ctx.guide_number else
                                               " — pela guia (DAM) da competência")),
        ("Impugnação", f"{ctx.contest_days} dias, contados do recebimento desta notificação (CTN, art. 145, I; "
                       "Código Tributário Municipal)"),
        ("Onde impugnar", ctx.contest_place),
    ]))
    story.append(_pdf.spacer(2))
    story.append(_pdf.p(
        f"No prazo de {ctx.contest_days} dias o sujeito passivo pode impugnar o lançamento, por escrito e "
        f"fundamentado, apresentando os documentos que comprovem valor diferente do estimado — por exemplo, o "
        f"valor das viagens do mês informado à Secretaria (Art. 4º, V da {LAW}); a estimativa pode ser revista "
        "(CTN, arts. 145 e 148). Não impugnado nem pago até o vencimento, o valor fica sujeito aos acréscimos "
        "do Código Tributário Municipal e à inscrição em dívida ativa."))
    story.append(_pdf.signer_block(ctx.signer, [(ctx.platform_name, "Recebi a notificação em ____/____/________")]))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Notificação de lançamento do ISSQN nº {number}", story)
