"""Notices (notificações): autuação (Art. 22), penalty (Art. 24–27), regularization (Art. 16 §2; Art. 24 II a),
inspection convocation (Art. 16, §1; Art. 26, I) and renewal reminder (Art. 3, §2). One layout, five builders:
each builder writes the legal text of its kind from the record's values."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from desktop.domain.money import to_reais
from desktop.reports.common import (
    LAW, DocumentMeta, MunicipalityHeader, Signer, fmt_date, fmt_datetime, fmt_document_id, fmt_money, fmt_plate,
    signer_problem,
)
from desktop.domain.inspection import InspectionKind, convocation_terms
from desktop.errors import DesktopError
from sqlalchemy import select
from desktop.errors import ConflictError
from desktop.models import AutoJudgment, Platform
from desktop.reports import auto as auto_report
from desktop.domain.penalties import PenaltyOption, penalty_notice_clauses
from desktop.models import User
from desktop.domain.inspection import INSPECTION_ITEMS_BY_KEY
from desktop.models import Authorization, Driver, DriverPlatform, InspectionPlace, Vehicle
from desktop.reports import records

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
    RENEWAL_REMINDER: "AVISO DE VENCIMENTO",   # issue 28 point 9: "… DA AUTORIZAÇÃO Nº" read as its number
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
    signer: Signer | None = None             # issue 28 point 2: name, office and matrícula (common.signer_of)
    copies_to: tuple[str, ...] = field(default=())  # e.g. the platform also notified (Art. 22)

    @property
    def title(self) -> str:
        return TITLES[self.kind]

    @property
    def number(self) -> str:
        """The notice's number: its own, or (empty) the document's number printed in the footer."""
        return self.notice_number or self.meta.number


def autuacao(header, meta, *, notice_number: str, recipient: Recipient, auto_number: str, drawn_up_at: datetime,
             infraction: str, legal_basis: str, amount: Decimal, defense_days: int, notify_platform: str = "",
             signer: Signer | None = None) -> NoticeContext:
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
        signer=signer,
        copies_to=((f"Plataforma tecnológica {notify_platform} (Art. 22, caput)",) if notify_platform else ()),
    )


def penalty(header, meta, *, notice_number: str, recipient: Recipient, auto_number: str,
            decision_date: date | None, penalties: str, amount: Decimal, due_date: date | None, appeal_days: int,
            legal_basis: str, signer: Signer | None = None, decision_number: str = "", reasoning: str = "",
            decided_by: str = "", appealable: bool = True, final_on: date | None = None,
            clauses: tuple[str, ...] = ()) -> NoticeContext:
    """Art. 22, 24–27: the decision on the penalty, each sentence from the case (issue 24 item 6): the decision's
    number, date and fundamentação (Art. 26 §2: "pela autoridade administrativa"), the appeal term only while an
    appeal lies (Art. 22 §2, counted from the joining of this notice), finality otherwise, the payment date once
    known, and one sentence per penalty applied citing its own article (`domain.penalty_notice_clauses`)."""
    if decision_date is not None:
        act = f"decisão nº {decision_number}" if decision_number else "decisão"
        by = f", da autoridade administrativa ({decided_by})," if decided_by else ""
        opening = (f"Em {act} de {fmt_date(decision_date)}{by} no processo do Auto de Infração nº {auto_number}, foi "
                   f"aplicada a Vossa Senhoria a(s) penalidade(s) abaixo, com fundamento no {legal_basis} da {LAW}.")
    else:
        opening = (f"O Auto de Infração nº {auto_number} tornou-se definitivo em {fmt_date(final_on)}, sem defesa "
                   f"prévia no prazo (Art. 22): fica mantida a multa abaixo, com fundamento no {legal_basis} da "
                   f"{LAW}.")
    paragraphs = [opening]
    if reasoning:
        paragraphs.append(f"Fundamentação: {reasoning}")
    if due_date is not None:
        paragraphs.append(f"O valor da multa deve ser recolhido até {fmt_date(due_date)} pela guia de arrecadação "
                          "municipal (DAM).")
    else:
        paragraphs.append("O valor da multa será cobrado por guia de arrecadação municipal (DAM) quando a decisão "
                          "se tornar definitiva (Art. 22).")
    if appealable:
        paragraphs.append(f"Da decisão cabe recurso no prazo de {appeal_days} dias, contados da juntada desta "
                          "notificação aos autos (Art. 22, §2º).")
    elif final_on is not None:
        paragraphs.append(f"A decisão é definitiva desde {fmt_date(final_on)}: dela não cabe recurso (Art. 22).")
    paragraphs.extend(clauses)
    reference = f"Auto de infração nº {auto_number}" + (f" — Decisão nº {decision_number}" if decision_number else "")
    return NoticeContext(
        header, meta, PENALTY, notice_number, recipient, reference, tuple(paragraphs),
        facts=(("Penalidade(s)", penalties), ("Valor da multa", fmt_money(amount))),
        deadline=due_date, deadline_label="Vencimento da multa", legal_basis=legal_basis, signer=signer,
    )


def regularization(header, meta, *, notice_number: str, recipient: Recipient, reference: str,
                   pending_items: tuple[str, ...], deadline: date, signer: Signer | None = None) -> NoticeContext:
    """Art. 16, §2 / Art. 24, II, a: regularize within 5 days; no service meanwhile."""
    paragraphs = (
        f"Fica Vossa Senhoria NOTIFICADO(A) a regularizar as pendências abaixo até {fmt_date(deadline)}, "
        f"prazo de 5 (cinco) dias do Art. 16, §2º da {LAW} (notificação para regularização, Art. 24, II, a).",
        "Durante o prazo de regularização o veículo não pode realizar serviços de transporte (Art. 16, §2º); "
        "operar em desacordo é infração do Art. 26, II.",
    )
    facts = tuple((f"Pendência {i}", item) for i, item in enumerate(pending_items, start=1))
    return NoticeContext(header, meta, REGULARIZATION, notice_number, recipient, reference, paragraphs, facts,
                         deadline, "Regularizar até", "Art. 16, §2º; Art. 24, II, a", signer)


def inspection_convocation(header, meta, *, notice_number: str, recipient: Recipient, scheduled_at: datetime,
                           place: str, inspection_kind: str, platform: str = "",
                           signer: Signer | None = None, kind=None) -> NoticeContext:
    """The convocation cites the article of its own kind and asks only what the case allows (issue 24 item 8;
    domain.inspection.convocation_terms): Art. 9 for the initial inspection of an applicant — no sticker yet
    (Art. 14) and no Art. 26, I fine (Art. 20); Art. 16 caput, §1 or §2; Art. 8, §2 for a substitute vehicle.
    `kind` None: an annual inspection."""
    terms = convocation_terms(kind if kind is not None else InspectionKind.ANNUAL)
    basis = terms.basis.replace("§1", "§1º").replace("§2", "§2º")
    paragraphs = [
        f"Fica Vossa Senhoria CONVOCADO(A) a apresentar o veículo abaixo para vistoria ({inspection_kind}) em "
        f"{fmt_datetime(scheduled_at)}, no local indicado ({basis} da {LAW}).",
        ("Apresente o veículo limpo, com o CRLV, o adesivo municipal afixado no painel, lado direito (Art. 14), e "
         "sem adesivos publicitários externos (Art. 13, XV).") if terms.asks_sticker else
        ("Apresente o veículo limpo, com o CRLV e sem adesivos publicitários externos (Art. 13, XV); o adesivo "
         "municipal é entregue após a aprovação (Art. 14)."),
    ]
    if terms.fine_applies:
        paragraphs.append("O não atendimento desta convocação constitui infração leve, punida com multa de 10 UPFM "
                          "(Art. 26, I; Art. 25, I).")
    else:
        paragraphs.append("Sem a vistoria aprovada a autorização não é ativada (Art. 9; Art. 15, VI).")
    return NoticeContext(
        header, meta, INSPECTION_CONVOCATION, notice_number, recipient, "Vistoria de veículo", tuple(paragraphs),
        facts=(("Data e hora", fmt_datetime(scheduled_at)), ("Local", place)),
        deadline=scheduled_at.date(), deadline_label="Comparecer em",
        legal_basis=f"{basis}; Art. 26, I" if terms.fine_applies else basis,
        signer=signer,
        copies_to=((f"Plataforma tecnológica {platform} (Art. 16, §1º)",) if platform else ()),
    )


def renewal_reminder(header, meta, *, notice_number: str, recipient: Recipient, valid_until: date,
                     last_timely_day: date, signer: Signer | None = None) -> NoticeContext:
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
                         f"Autorização nº {recipient.authorization_number}, válida até {fmt_date(valid_until)}",
                         paragraphs,
                         (("Válida até", fmt_date(valid_until)),), last_timely_day, "Requerer renovação até",
                         "Art. 3º, §§ 1º e 2º", signer)


KINDS = (AUTUACAO, PENALTY, REGULARIZATION, INSPECTION_CONVOCATION, RENEWAL_REMINDER)


def build_context(s, kind: str, key: str, meta: DocumentMeta, *, parameter, calendar,
                  signer: Signer | None = None, notice_number: str = "") -> NoticeContext:
    """A notice read from session `s`, numbered `notice_number` ("NT-0003/2026", the notices' own series of
    services.numbering; "" prints the document's number): autuação and penalty by auto number
    (Art. 22, 24–27); regularization and inspection convocation by inspection code (Art. 16); renewal reminder
    by authorization number (Art. 3 §2). `parameter(key, on)` gives the dated terms; `calendar` the business
    days (desktop.domain.BusinessCalendar)."""
    if kind in (AUTUACAO, PENALTY):
        return _auto_notice(s, kind, key, meta, parameter, signer, notice_number)
    if kind == RENEWAL_REMINDER:
        from desktop.domain.dates import renewal_request_deadline  # local: imported only on this branch
        from desktop.reports import records  # local: imported only on this branch
        auth, driver, vehicle = records.active_authorization(s, key)
        recipient = Recipient(driver.name, driver.cpf, records.full_address(driver), vehicle.plate, auth.number)
        return renewal_reminder(records.header(s), meta, notice_number=notice_number, recipient=recipient,
                                valid_until=auth.valid_until,
                                last_timely_day=renewal_request_deadline(auth.valid_until, calendar),
                                signer=signer)
    if kind in (REGULARIZATION, INSPECTION_CONVOCATION):
        return _inspection_notice(s, kind, key, meta, signer, notice_number)
    raise DesktopError(f"Tipo de notificação desconhecido: {kind!r}. Tipos: {', '.join(KINDS)}.")


def _auto_notice(s, kind, number, meta, parameter, signer, notice_number="") -> NoticeContext:

    auto = auto_report.auto_row(s, number)
    a = auto_report.build_context(s, number, meta, parameter)
    recipient = Recipient(a.infractor_name, a.infractor_document, a.infractor_address, a.plate,
                          a.authorization_number)
    if kind == AUTUACAO:
        # issue 28 item 1: the autuação offers the defense term; once decided (or void) it no longer applies
        if auto.status not in ("drawn_up", "notified"):
            from desktop.domain.workflow import AutoStatus  # local: imported only on this branch
            raise ConflictError(f"O auto nº {a.auto_number} está «{AutoStatus(auto.status).label}»: a notificação "
                                "da autuação (prazo de defesa, Art. 22, §2º) não se aplica mais; reimprima a via "
                                "arquivada ou emita a notificação da decisão.")
        # Art. 22 caput ("à plataforma tecnológica e ao condutor"; issue 24 item 4): the platform co-infractor
        # and the platforms the driver works for get a copy
        from desktop.models import DriverPlatform  # local: imported only on this branch
        ids = {auto.infractor_platform_id} if auto.infractor_platform_id else set()
        if auto.infractor_driver_id is not None:
            ids.update(s.scalars(select(DriverPlatform.platform_id).where(
                DriverPlatform.driver_id == auto.infractor_driver_id)))
        names = [p.trade_name or p.legal_name for p in
                 s.scalars(select(Platform).where(Platform.id.in_(sorted(ids))).order_by(Platform.id))] if ids else []
        also = "; ".join(names) if a.infractor_kind == "condutor" else ""
        return autuacao(a.header, meta, notice_number=notice_number, recipient=recipient, auto_number=a.auto_number,
                        drawn_up_at=a.drawn_up_at, infraction=f"{a.code} – {a.description}",
                        legal_basis=a.legal_basis, amount=a.amount, defense_days=a.defense_days,
                        notify_platform=also, signer=signer)
    # issue 24 item 6: every sentence from the case. A notice that no longer applies is refused with the reason.
    if auto.status in ("cancelled", "annulled"):
        raise ConflictError(f"O auto nº {a.auto_number} foi {'cancelado' if auto.status == 'cancelled' else 'anulado'}:"
                            " não há penalidade a notificar (Art. 17).")
    judgment = s.scalar(select(AutoJudgment).where(
        AutoJudgment.auto_id == auto.id, AutoJudgment.instance.in_(("defense", "appeal", "penalty")),
        AutoJudgment.outcome != "annulled").order_by(AutoJudgment.id.desc()).limit(1))
    final = auto.status in ("final", "paid", "overdue", "divida_ativa")
    if judgment is None and not final:
        raise ConflictError(f"O auto nº {a.auto_number} ainda não tem decisão: a notificação de penalidade sai depois "
                            "do julgamento ou de o auto se tornar definitivo (Art. 22; Art. 24).")
    decision = (auto.assessment or {}).get("decision") or {}
    decided = tuple(PenaltyOption.from_dict(p) for p in decision.get("penalties", ()))
    user = s.get(User, judgment.decided_by) if judgment is not None and judgment.decided_by else None
    appealable = auto.status == "judged" and judgment is not None and judgment.instance == "defense"
    on = judgment.decided_on if judgment is not None else auto.final_on
    amount = a.amount
    if judgment is not None and judgment.outcome == "partly_upheld" and judgment.reduced_upfm is not None:
        amount = to_reais(judgment.reduced_upfm, a.upfm_value)
    return penalty(a.header, meta, notice_number=notice_number, recipient=recipient, auto_number=a.auto_number,
                   decision_date=judgment.decided_on if judgment is not None else None,
                   penalties=a.penalties, amount=amount, due_date=auto.payment_deadline,
                   appeal_days=int(parameter("term.appeal_days", on)),
                   legal_basis=a.legal_basis, signer=signer,
                   decision_number=(judgment.number or "") if judgment is not None else "",
                   reasoning=judgment.reasoning if judgment is not None else "",
                   decided_by=_authority(user), appealable=appealable,
                   final_on=auto.final_on, clauses=penalty_notice_clauses(decided))


def _authority(user) -> str:
    """The deciding authority as the act names it (issue 28 point 2): name, office and matrícula; the name alone
    only for an old decision by a user without them."""
    if user is None:
        return ""
    if signer_problem(user.full_name, user.office, user.registration) is None:
        return Signer(user.full_name.strip(), user.office.strip(), user.registration.strip()).inline
    return user.full_name


def _inspection_notice(s, kind, code, meta, signer, notice_number="") -> NoticeContext:

    row = records.inspection_row(s, code)
    vehicle = s.get(Vehicle, row.vehicle_id)
    auth = s.get(Authorization, row.authorization_id) if row.authorization_id else None
    if auth is None:
        raise ConflictError(f"A vistoria nº {code} não está ligada a uma autorização: não há condutor a "
                            "notificar.")
    driver = s.get(Driver, auth.driver_id)
    recipient = Recipient(driver.name, driver.cpf, records.address_of(driver), vehicle.plate, auth.number or "")
    header = records.header(s)
    if kind == REGULARIZATION:
        if row.result != "failed" or row.regularize_by is None:
            raise ConflictError(f"A vistoria nº {code} não foi reprovada: não há o que regularizar "
                                "(Art. 16, §2º).")
        labels = {key: item.label for key, item in INSPECTION_ITEMS_BY_KEY.items()}
        pending = tuple(labels.get(records.ITEM_ALIASES.get(i.item_key, i.item_key), i.item_key)
                        + (f" — {i.note}" if i.note else "")
                        for i in row.items if i.passed is False) or ("Pendências registradas no laudo",)
        reference = f"Laudo de vistoria nº {row.id:04d}/{row.performed_at.year if row.performed_at else ''}"
        return regularization(header, meta, notice_number=notice_number, recipient=recipient, reference=reference,
                              pending_items=pending, deadline=row.regularize_by, signer=signer)
    if row.scheduled_start is None or row.status != "scheduled":
        raise ConflictError(f"A vistoria nº {code} não está agendada: a convocação precisa de data e "
                            "hora marcadas (Art. 16, §1º).")
    place = s.get(InspectionPlace, row.place_id) if row.place_id else None
    place_text = " – ".join(p for p in (getattr(place, "name", None), getattr(place, "address", None)) if p) or "—"
    try:
        kind_enum = InspectionKind(row.kind)
        inspection_kind = kind_enum.label.lower()
    except ValueError:
        kind_enum, inspection_kind = None, row.kind
    platform_ids = list(s.scalars(select(DriverPlatform.platform_id).where(DriverPlatform.driver_id == driver.id,
                                                                            DriverPlatform.until.is_(None))))
    platforms = ", ".join(p.trade_name or p.legal_name for p in (s.get(Platform, i) for i in platform_ids) if p)
    return inspection_convocation(header, meta, notice_number=notice_number, recipient=recipient,
                                  scheduled_at=row.scheduled_start, place=place_text,
                                  inspection_kind=inspection_kind, platform=platforms, signer=signer,
                                  kind=kind_enum)


def render(ctx: NoticeContext) -> bytes:
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from desktop.reports._pdf import b, e  # lazy: loads ReportLab only when this runs

    story = _pdf.title_block(f"{ctx.title} Nº {ctx.number}", f"Referência: {ctx.reference}")
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
    if ctx.signer is None:   # issue 28 point 2: an act names who signs it, never "Autoridade competente"
        raise ValueError("A notificação precisa de quem a assina: nome, cargo e matrícula (Lei 9.784/99, art. 22, "
                         "§1º).")
    story.append(_pdf.signer_block(ctx.signer, [(r.name, "Recebi a notificação em ____/____/________")]))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"{ctx.title.capitalize()} nº {ctx.number}", story)
