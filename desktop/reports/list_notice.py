"""The notice to regularize an overdue 60-day list (Art. 5, VIII; Art. 24, II, a), to the platform: in the layout
of the other notices (`desktop.reports.notices`), built from the platform's lists and the dated term."""
from __future__ import annotations

from datetime import date

from desktop.reports.common import LAW, DocumentMeta, Signer, fmt_date
from desktop.reports.notices import REGULARIZATION, NoticeContext, Recipient
from desktop.reports import notices


def overdue_list_notice(header, meta: DocumentMeta, *, recipient: Recipient, last_delivered_on: date | None,
                        due_on: date, days_overdue: int, deadline: date, term_days: int,
                        offered_code: str | None = None, signer: Signer | None = None,
                        notice_number: str = "") -> NoticeContext:
    """Art. 5, VIII: every 60 days the list of vehicles, owners and drivers; not delivered → notice to
    regularize within the term (Art. 24, II, a)."""
    last = (f"A última lista foi entregue em {fmt_date(last_delivered_on)}" if last_delivered_on
            else "Nenhuma lista foi entregue desde a inscrição municipal")
    paragraphs = (
        f"Fica a plataforma NOTIFICADA a entregar à Secretaria a relação de veículos, seus proprietários e "
        f"condutores cadastrados que irão prestar o serviço no Município, devida a cada 60 (sessenta) dias "
        f"(Art. 5º, VIII da {LAW}). {last}; a próxima vencia em {fmt_date(due_on)} e está em atraso há "
        f"{days_overdue} dia(s).",
        f"A lista deve ser entregue até {fmt_date(deadline)} ({term_days} dias desta notificação), no formato "
        "publicado pela Secretaria (CSV ou XLSX, uma linha por par condutor–veículo) — notificação para "
        "regularização, Art. 24, II, a.",
        ("O descumprimento sujeita a plataforma às medidas da lei e à infração " + offered_code +
         " do catálogo (decreto regulamentador).") if offered_code else
        "A lei não tipifica multa própria para a lista em atraso; o descumprimento desta notificação será "
        "apurado nos termos do Art. 24.",
    )
    facts = (("Lista devida em", fmt_date(due_on)), ("Dias em atraso", str(days_overdue)))
    return NoticeContext(header, meta, REGULARIZATION, notice_number, recipient,
                         "Relação de veículos, proprietários e condutores (Art. 5º, VIII)", paragraphs, facts,
                         deadline, "Entregar até", "Art. 5º, VIII; Art. 24, II, a", signer)


def render(ctx: NoticeContext) -> bytes:

    return notices.render(ctx)
