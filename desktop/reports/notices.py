"""Notices (notificações): autuação (Art. 22), penalty (Art. 24–27), regularization (Art. 16 §2; Art. 24 II a),
inspection convocation (Art. 16, §1; Art. 26, I) and renewal reminder (Art. 3, §2). One layout, five builders:
each builder writes the legal text of its kind from the record's values."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from desktop.reports.common import (
    LAW, DocumentMeta, MunicipalityHeader, fmt_date, fmt_datetime, fmt_document_id, fmt_money, fmt_plate,
)

AUTUACAO = "autuacao"
PENALTY = "penalty"
REGULARIZATION = "regularization"
INSPECTION_CONVOCATION = "inspection_convocation"
RENEWAL_REMINDER = "renewal_reminder"

TITLES = {
    AUTUACAO: "NOTIFICAÇÃO DE AUTUAÇÃO",
    PENALTY: "NOTIFICAÇÃO DE PENALIDADE",
    REGULARIZATION: "NOTIFICAÇÃO PARA REGULARIZAÇÃO",
    INSPECTION_CONVOCATION: "CONVOCAÇÃO PARA VISTORIA",
    RENEWAL_REMINDER: "AVISO DE VENCIMENTO DA AUTORIZAÇÃO",
}


@dataclass(frozen=True, slots=True)
class Recipient:
    name: str
    document: str                 # CPF or CNPJ
    address: str = ""
    plate: str = ""
    authorization_number: str = ""


@dataclass(frozen=True, slots=True)
class NoticeContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    kind: str
    notice_number: str
    recipient: Recipient
    reference: str                           # "Auto de infração nº 0003/2026"
    paragraphs: tuple[str, ...]
    facts: tuple[tuple[str, str], ...] = ()  # label/value rows
    deadline: date | None = None
    deadline_label: str = "Prazo"
    legal_basis: str = ""
    signer_name: str = ""
    signer_role: str = "Secretaria Municipal"
    copies_to: tuple[str, ...] = field(default=())  # e.g. the platform also notified (Art. 22)

    @property
    def title(self) -> str:
        return TITLES[self.kind]


def autuacao(header, meta, *, notice_number: str, recipient: Recipient, auto_number: str, drawn_up_at: datetime,
             infraction: str, legal_basis: str, amount: Decimal, defense_days: int, notify_platform: str = "",
             signer_name: str = "") -> NoticeContext:
    """Art. 22: notice of the auto to the infractor (and to the platform), opening the defense term."""
    paragraphs = (
        f"Fica Vossa Senhoria NOTIFICADO(A) da lavratura do Auto de Infração nº {auto_number}, em "
        f"{fmt_datetime(drawn_up_at)}, pela infração abaixo, nos termos do Art. 22 da {LAW}.",
        f"Poderá ser apresentada defesa prévia no prazo de {defense_days} dias, contados da juntada desta "
        f"notificação aos autos do processo administrativo (Art. 22, §2º), dirigida à {header.secretariat}.",
        "Não apresentada defesa, ou sendo ela indeferida, a penalidade será aplicada e o valor da multa será "
        "cobrado por guia de arrecadação municipal (DAM).",
    )
    return NoticeContext(
        header, meta, AUTUACAO, notice_number, recipient, f"Auto de infração nº {auto_number}", paragraphs,
        facts=(("Infração", infraction), ("Enquadramento", f"{legal_basis} da {LAW}"),
               ("Valor da multa", fmt_money(amount))),
        legal_basis="Art. 22, caput e §§ 1º e 2º",
        signer_name=signer_name,
        copies_to=((f"Plataforma tecnológica {notify_platform} (Art. 22, caput)",) if notify_platform else ()),
    )


def penalty(header, meta, *, notice_number: str, recipient: Recipient, auto_number: str, decision_date: date,
            penalties: str, amount: Decimal, due_date: date, appeal_days: int, legal_basis: str,
            signer_name: str = "") -> NoticeContext:
    """Art. 24–27: the penalty applied after judgment; pay by the due date or appeal."""
    paragraphs = (
        f"Em decisão de {fmt_date(decision_date)}, no processo do Auto de Infração nº {auto_number}, foi aplicada "
        f"a Vossa Senhoria a(s) penalidade(s) abaixo, com fundamento no {legal_basis} da {LAW}.",
        f"O valor da multa deve ser recolhido até {fmt_date(due_date)} pela guia de arrecadação municipal (DAM). "
        f"Da decisão cabe recurso no prazo de {appeal_days} dias, contados da juntada desta notificação aos autos "
        "(Art. 22, §2º).",
        "A suspensão implica o recolhimento da autorização e o afastamento do condutor e do veículo pelo período "
        "fixado (Art. 24, parágrafo único; Art. 26, §1º).",
    )
    return NoticeContext(
        header, meta, PENALTY, notice_number, recipient, f"Auto de infração nº {auto_number}", paragraphs,
        facts=(("Penalidade(s)", penalties), ("Valor da multa", fmt_money(amount))),
        deadline=due_date, deadline_label="Vencimento da multa", legal_basis=legal_basis, signer_name=signer_name,
    )


def regularization(header, meta, *, notice_number: str, recipient: Recipient, reference: str,
                   pending_items: tuple[str, ...], deadline: date, signer_name: str = "") -> NoticeContext:
    """Art. 16, §2 / Art. 24, II, a: regularize within 5 days; no service meanwhile."""
    paragraphs = (
        f"Fica Vossa Senhoria NOTIFICADO(A) a regularizar as pendências abaixo até {fmt_date(deadline)}, "
        f"prazo de 5 (cinco) dias do Art. 16, §2º da {LAW} (notificação para regularização, Art. 24, II, a).",
        "Durante o prazo de regularização o veículo não pode realizar serviços de transporte (Art. 16, §2º); "
        "operar em desacordo é infração do Art. 26, II.",
    )
    facts = tuple((f"Pendência {i}", item) for i, item in enumerate(pending_items, start=1))
    return NoticeContext(header, meta, REGULARIZATION, notice_number, recipient, reference, paragraphs, facts,
                         deadline, "Regularizar até", "Art. 16, §2º; Art. 24, II, a", signer_name)


def inspection_convocation(header, meta, *, notice_number: str, recipient: Recipient, scheduled_at: datetime,
                           place: str, inspection_kind: str, platform: str = "",
                           signer_name: str = "") -> NoticeContext:
    """Art. 16 (annual) and §1 (extraordinary): not attending is an Art. 26, I infraction."""
    paragraphs = (
        f"Fica Vossa Senhoria CONVOCADO(A) a apresentar o veículo abaixo para vistoria ({inspection_kind}) em "
        f"{fmt_datetime(scheduled_at)}, no local indicado (Art. 16 e §1º da {LAW}).",
        "Apresente o veículo limpo, com o CRLV, o adesivo municipal afixado no painel, lado direito (Art. 14), e "
        "sem adesivos publicitários externos (Art. 13, XV).",
        "O não atendimento desta convocação constitui infração leve, punida com multa de 10 UPFM "
        "(Art. 26, I; Art. 25, I).",
    )
    return NoticeContext(
        header, meta, INSPECTION_CONVOCATION, notice_number, recipient, "Vistoria de veículo", paragraphs,
        facts=(("Data e hora", fmt_datetime(scheduled_at)), ("Local", place)),
        deadline=scheduled_at.date(), deadline_label="Comparecer em", legal_basis="Art. 16, §1º; Art. 26, I",
        signer_name=signer_name,
        copies_to=((f"Plataforma tecnológica {platform} (Art. 16, §1º)",) if platform else ()),
    )


def renewal_reminder(header, meta, *, notice_number: str, recipient: Recipient, valid_until: date,
                     last_timely_day: date, signer_name: str = "") -> NoticeContext:
    """Art. 3, §2: renewal asked at least 15 business days before the expiry."""
    paragraphs = (
        f"A autorização nº {recipient.authorization_number} vence em {fmt_date(valid_until)} "
        f"(Art. 3º, §1º da {LAW}).",
        f"A renovação deve ser requerida pelo menos 15 (quinze) dias úteis antes do vencimento (Art. 3º, §2º): "
        f"o último dia para o pedido tempestivo é {fmt_date(last_timely_day)}. Pedidos posteriores são recebidos, "
        "mas registrados como fora do prazo.",
        "Após o vencimento sem renovação, o serviço não pode ser prestado (Art. 3º; Art. 27).",
    )
    return NoticeContext(header, meta, RENEWAL_REMINDER, notice_number, recipient,
                         f"Autorização nº {recipient.authorization_number}", paragraphs,
                         (("Válida até", fmt_date(valid_until)),), last_timely_day, "Requerer renovação até",
                         "Art. 3º, §§ 1º e 2º", signer_name)


def render(ctx: NoticeContext) -> bytes:
    from desktop.reports import _pdf
    from desktop.reports._pdf import b, e

    story = _pdf.title_block(f"{ctx.title} Nº {ctx.notice_number}", f"Referência: {ctx.reference}")
    r = ctx.recipient
    rows = [("Destinatário", r.name), ("CPF/CNPJ", fmt_document_id(r.document))]
    if r.address:
        rows.append(("Endereço", r.address))
    if r.plate or r.authorization_number:
        rows.append(("Veículo / autorização",
                     f"Placa {fmt_plate(r.plate) or '—'} — autorização nº {r.authorization_number or '—'}"))
    story.append(_pdf.field_table(rows))
    story.append(_pdf.spacer(3))
    for paragraph in ctx.paragraphs:
        story.append(_pdf.p(paragraph))
        story.append(_pdf.spacer(1.5))
    facts = list(ctx.facts)
    if ctx.deadline is not None:
        facts.append((ctx.deadline_label, fmt_date(ctx.deadline)))
    if facts:
        story.append(_pdf.field_table(facts))
    if ctx.copies_to:
        story.append(_pdf.spacer(2))
        story.append(_pdf.pm(b("Cópia: ") + e("; ".join(ctx.copies_to)), "left"))
    story.append(_pdf.spacer(2))
    story.append(_pdf.pm(f"Fundamento legal: {e(ctx.legal_basis)} da {e(LAW)}.", "small"))
    story.append(_pdf.signature_block([
        (ctx.signer_name or "Autoridade competente", ctx.signer_role),
        (r.name, "Recebi a notificação em ____/____/________"),
    ]))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"{ctx.title.capitalize()} nº {ctx.notice_number}", story)
