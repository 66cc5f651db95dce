"""Auto de infração (Art. 19, 22): drawn up in two copies on two pages — "Via do processo" for the file kept by
the Municipality and "Via do infrator" handed to the infractor (Art. 19)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from types import SimpleNamespace

from desktop.reports.common import (
    LAW, DocumentMeta, MunicipalityHeader, Signer, fmt_date, fmt_datetime, fmt_decimal, fmt_document_id, fmt_money,
    fmt_plate, signer_of,
)
from sqlalchemy import select
from desktop.errors import NotFound
from desktop.models import Auto
from desktop.domain.penalties import AdministrativeMeasure as MeasureKind
from desktop.domain.penalties import Assessment, Severity, auto_year
from desktop.domain.dates import TIMEZONE
from desktop.domain.ledger import COSTS_LABEL
from desktop.models import AdministrativeMeasure, Authorization, Driver, InfractionCode, Platform, Vehicle
from desktop.reports import records
from desktop.domain.penalties import PenaltyOption, UnknownInfractionCode, lookup
from sqlalchemy import or_
from desktop.models import AutoJudgment, AutoWaiver, LedgerEntry
from sqlalchemy import func

_OUTCOMES = {"upheld": "auto mantido", "partly_upheld": "auto mantido em parte", "annulled": "auto anulado"}
_INSTANCES = {"defense": "Julgamento da defesa prévia", "appeal": "Julgamento do recurso"}
_WAIVED = {"defense": "da defesa prévia", "appeal": "do recurso"}
_ENTRY_WORDS = {"requalification": "Requalificação lançada (Art. 25)", "refund": "Restituição devida ao infrator",
                "reversal": "Estorno", "payment": "Pagamento", "costs": COSTS_LABEL,
                "reduction": "Redução"}

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
    agent: Signer                # issue 28 point 2: the agent who drew it up, with office and matrícula
    defense_days: int = 15       # parameter term.defense_days
    recurrence: str = ""         # "Reincidência: auto nº 0003/2026 de 02/02/2026" when the system found one
    original_code: str = ""      # issue 12 item 1: the code it was drawn up with, when a decision requalified it
    decisions: tuple[str, ...] = ()  # every decision and ledger movement after the drawing up, dated, in order
    balance: str = ""            # "Saldo devedor: R$ 0,00 — restituição devida: R$ 93,76" when anything moved
    lavrado_at: datetime | None = None  # issue 24 item 9: the moment of the lavratura, beside the fact's
    upfm_year: int | None = None  # the year of `upfm_value`: the lavratura's (Art. 25; domain.auto_year)
    annulled: str = ""           # issue 28 item 1: "ANULADO em dd/mm/aaaa — motivo" on an annulled auto


def make_context(header: MunicipalityHeader, meta: DocumentMeta, **fields) -> AutoContext:
    return AutoContext(header=header, meta=meta, **fields)


def auto_row(s, number: str):

    auto = s.scalar(select(Auto).where(Auto.number == number.strip()))
    if auto is None:
        raise NotFound(f"Auto de infração nº {number} não encontrado.")
    return auto


def build_context(s, number: str, meta: DocumentMeta, parameter) -> AutoContext:
    """The auto `number` as printed, read from session `s`; `parameter(key, on) -> Decimal` gives the dated
    parameters (the defense term, services.parameters.parameter_value_in)."""

    auto = auto_row(s, number)
    code = s.get(InfractionCode, auto.infraction_code_id)
    driver = s.get(Driver, auto.infractor_driver_id) if auto.infractor_driver_id else None
    platform = s.get(Platform, auto.infractor_platform_id) if auto.infractor_platform_id else None
    vehicle = s.get(Vehicle, auto.vehicle_id) if auto.vehicle_id else None
    authorization = s.get(Authorization, auto.authorization_id) if auto.authorization_id else None
    # issue 28 point 2: the agent signs with name, office and matrícula — never the login as "matrícula"
    agent = signer_of(s, SimpleNamespace(user_id=auto.agent_id), records.settings_row(s).secretariat)
    assessment = Assessment.from_dict(auto.assessment) if auto.assessment else None
    if driver is not None:
        kind, name, document, address = "condutor", driver.name, driver.cpf, records.address_of(driver)
    else:
        kind, name, document, address = "plataforma", platform.legal_name, platform.cnpj, platform.address or ""
    measures = []
    for m in s.scalars(select(AdministrativeMeasure).where(AdministrativeMeasure.auto_id == auto.id)
                       .order_by(AdministrativeMeasure.id)):
        try:
            kind_ = MeasureKind(m.kind)
            label, cited = kind_.label, kind_.article
        except ValueError:
            label, cited = m.kind, ""
        text = f"{label} em {fmt_date(m.applied_on)} ({m.article or cited})"
        if m.released_on is not None:
            text += f", liberada em {fmt_date(m.released_on)}"
        measures.append(text)
    if code is not None:
        severity = Severity(code.severity)
    else:
        severity = assessment.severity if assessment is not None else Severity.LEVE
    article = (code.article if code is not None else "") or (assessment.articles[0] if assessment else "")
    description = code.description if code is not None else auto.code
    # issue 12 items 1 and 4: the code and the fine in force (the ledger), the decision's penalties
    from desktop.models.ledger_queries import code_in_force_in, fine_in  # lazy: shared enforcement reads

    in_force = code_in_force_in(s, auto)
    if in_force != auto.code:
        # the catalogue's row of the new code in force on the infraction's date (a decree code too), else the law's
        row = _code_row(s, in_force, auto.drawn_up_at.date())
        if row is not None:
            article, severity, description = row.article, Severity(row.severity), row.description
        else:
            try:
                entry = lookup(in_force, None, auto.drawn_up_at.date())
                article, severity, description = entry.article, entry.severity, entry.description
            except UnknownInfractionCode:
                pass
    # issue 24 item 7: requalified to Art. 26, III — the inciso of Art. 13 the decision named, printed
    decided_item = ((auto.assessment or {}).get("decision") or {}).get("art13_item")
    item = auto.art13_item or decided_item
    if in_force != auto.code and item:
        from desktop.domain.penalties import ART13_DUTIES  # local: imported only on this branch
        description = f"Descumprir o dever do Art. 13, {item}: {ART13_DUTIES.get(item, '')}"
        article = f"{article} c/c Art. 13, {item}"
    upfm, amount = fine_in(s, auto)
    penalties = assessment.penalty_text if assessment is not None else "Multa"
    decided = ((auto.assessment or {}).get("decision") or {}).get("penalties")
    if decided is not None:
        options = [PenaltyOption.from_dict(p).text for p in decided]
        penalties = "; ".join([f"Multa de {fmt_decimal(upfm, 0)} UPFM ({severity.article})", *options])
    return make_context(
        records.header(s), meta, auto_number=auto.number, drawn_up_at=auto.drawn_up_at, place=auto.place,
        infractor_kind=kind, infractor_name=name, infractor_document=document, infractor_address=address or "—",
        plate=vehicle.plate if vehicle else "", authorization_number=(authorization.number or "") if authorization
        else "", code=in_force, description=description,
        legal_basis=article, severity=str(getattr(severity, "label", severity)).lower(), upfm=Decimal(upfm),
        upfm_value=Decimal(auto.upfm_value), amount=Decimal(amount),
        penalties=penalties, measures="; ".join(measures),
        original_code=auto.code if in_force != auto.code else "",
        facts=auto.description or "—", agent=agent,
        defense_days=int(parameter("term.defense_days", auto.drawn_up_at.date())),
        recurrence="Sim" if auto.recurrence else "", decisions=_decisions(s, auto), balance=_balance(s, auto),
        lavrado_at=auto.lavrado_at, annulled=annulled_mark(s, auto),
        upfm_year=auto_year(auto.drawn_up_at.astimezone(TIMEZONE).date(), auto.lavrado_at))


def _code_row(s, code: str, on: date):

    return s.scalar(select(InfractionCode).where(
        InfractionCode.code == code, InfractionCode.valid_from <= on,
        or_(InfractionCode.valid_to.is_(None), InfractionCode.valid_to >= on))
        .order_by(InfractionCode.valid_from.desc()).limit(1))


def _decisions(s, auto) -> tuple[str, ...]:
    """Every decision on the auto and every movement of its ledger after the debit, each with its date, in
    date order: judgments (instance, outcome, requalification, reasoning), the written waiver, the final date and
    payment term, the penalties decided, the cancellation; requalification, payment, reversal, refund and cost
    entries (issue 12: a citizen's lawyer reads from the auto alone what was decided and when)."""

    lines: list[tuple[date, int, str]] = []
    for j in s.scalars(select(AutoJudgment).where(AutoJudgment.auto_id == auto.id).order_by(AutoJudgment.id)):
        text = f"{_INSTANCES.get(j.instance, 'Julgamento')}: {_OUTCOMES.get(j.outcome, j.outcome)}"
        if j.requalified_code:
            row = _code_row(s, j.requalified_code, auto.drawn_up_at.date())
            cited = f" ({row.article}, multa de {fmt_decimal(row.upfm, 0)} UPFM)" if row is not None else ""
            text += f"; infração requalificada para {j.requalified_code}{cited}"
        if (j.reasoning or "").strip():
            text += f". Fundamentação: {j.reasoning.strip()}"
        lines.append((j.decided_on, 0, text))
    for w in s.scalars(select(AutoWaiver).where(AutoWaiver.auto_id == auto.id).order_by(AutoWaiver.id)):
        lines.append((w.filed_on, 1, f"Desistência {_WAIVED.get(w.instance, '')} protocolada pelo infrator, "
                                     "com documento assinado (Art. 22)"))
    if auto.final_on is not None:
        decided = ((auto.assessment or {}).get("decision") or {}).get("penalties") or []
        text = "Decisão definitiva"
        if auto.payment_deadline is not None:
            text += f"; prazo de pagamento até {fmt_date(auto.payment_deadline)}"
        if decided:
            text += "; penalidades em vigor a partir desta data: " + "; ".join(
                PenaltyOption.from_dict(p).text for p in decided)
        lines.append((auto.final_on, 2, text))
    if auto.status in ("cancelled", "annulled") and auto.cancel_reason:
        when = auto.cancelled_at.date() if auto.cancelled_at else auto.final_on or auto.drawn_up_at.date()
        word = "Auto cancelado" if auto.status == "cancelled" else "Auto anulado de ofício"
        lines.append((when, 3, f"{word}: {auto.cancel_reason}"))
    for e in s.scalars(select(LedgerEntry).where(LedgerEntry.auto_id == auto.id, LedgerEntry.kind != "debit")
                       .order_by(LedgerEntry.id)):
        text = f"{_ENTRY_WORDS.get(e.kind, e.kind)}: {fmt_money(abs(e.amount_reais))}"
        if e.kind == "payment" and e.guide_number:
            text += f" (guia nº {e.guide_number})"
        if e.reason:
            text += f" — {e.reason}"
        lines.append((e.effective_on, 4, text))
    lines.sort(key=lambda line: (line[0], line[1]))
    return tuple(f"{fmt_date(on)} — {text}" for on, _order, text in lines)


def _balance(s, auto) -> str:
    """What the infractor owes now and what the municipality owes back, from the ledger (issue 12 item 4)."""

    from desktop.models.ledger_queries import auto_balance_in  # lazy: shared enforcement reads

    _upfm, reais = auto_balance_in(s, auto.id)
    refunded = s.scalar(select(func.coalesce(func.sum(LedgerEntry.amount_reais), 0)).where(
        LedgerEntry.auto_id == auto.id, LedgerEntry.kind == "refund"))
    text = f"Saldo devedor: {fmt_money(max(reais, 0))}"
    if refunded:
        text += f" — restituição devida ao infrator: {fmt_money(refunded)}"
    return text


def annulled_mark(s, auto) -> str:
    """The mark an annulled auto prints on every copy (issue 28 item 1): the date and reason of the annulment."""
    if auto.status != "annulled":
        return ""

    row = s.scalar(select(AutoJudgment).where(AutoJudgment.auto_id == auto.id, AutoJudgment.outcome == "annulled")
                   .order_by(AutoJudgment.id.desc()).limit(1))
    if row is None:
        return "AUTO ANULADO"
    number = f" (decisão nº {row.number})" if row.number else ""
    return f"AUTO ANULADO em {fmt_date(row.decided_on)}{number}: {row.reasoning}"


def render(ctx: AutoContext) -> bytes:
    from reportlab.platypus import PageBreak  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    story: list = []
    for index, copy in enumerate(COPIES):
        story.extend(_copy(ctx, copy))
        if index + 1 < len(COPIES):
            story.append(_pdf.BannerChange(COPIES[index + 1].upper()))
            story.append(PageBreak())
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Auto de infração nº {ctx.auto_number}", story,
                                page_banner=COPIES[0].upper())


def _copy(ctx: AutoContext, copy: str) -> list:
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from desktop.reports._pdf import b, e  # lazy: loads ReportLab only when this runs

    story = _pdf.title_block(f"AUTO DE INFRAÇÃO Nº {ctx.auto_number}",
                             f"{copy} — lavrado em dois exemplares (Art. 19 da {LAW})")
    infractor = "Condutor" if ctx.infractor_kind == "condutor" else "Plataforma tecnológica"
    if ctx.annulled:
        story.append(_pdf.pm(b(e(ctx.annulled)), "left"))
    story.append(_pdf.field_table([
        ("Data e hora da infração", fmt_datetime(ctx.drawn_up_at)),
        *([("Lavrado em", fmt_datetime(ctx.lavrado_at))] if ctx.lavrado_at is not None else []),
        ("Local", ctx.place),
        (f"Infrator ({infractor})", f"{ctx.infractor_name} — {fmt_document_id(ctx.infractor_document)}"),
        ("Endereço", ctx.infractor_address),
        ("Veículo / autorização", f"Placa {fmt_plate(ctx.plate)} — autorização nº {ctx.authorization_number or '—'}"),
    ]))
    story.append(_pdf.p("Infração", "h2"))
    story.append(_pdf.field_table([
        ("Código", ctx.code + (f" (requalificado por decisão; lavrado como {ctx.original_code})"
                               if ctx.original_code else "")),
        ("Descrição", ctx.description),
        ("Enquadramento", f"{ctx.legal_basis} da {LAW}"),
        ("Natureza", f"{ctx.severity} (Art. 25)"),
        ("Multa", f"{fmt_decimal(ctx.upfm, 0)} UPFM × {fmt_money(ctx.upfm_value)} = {fmt_money(ctx.amount)}"
                  + (f" (UPFM de {ctx.upfm_year}, ano da lavratura — Art. 25)" if ctx.upfm_year else "")),
        ("Penalidades", ctx.penalties),
        ("Medidas administrativas", ctx.measures or "Nenhuma"),
        ("Reincidência", ctx.recurrence or "Não verificada"),
    ]))
    if ctx.decisions:
        story.append(_pdf.p("Decisões e lançamentos", "h2"))
        for line in ctx.decisions:
            story.append(_pdf.p(line))
        if ctx.balance:
            story.append(_pdf.p(ctx.balance))
    story.append(_pdf.p("Descrição dos fatos", "h2"))
    story.append(_pdf.p(ctx.facts))
    story.append(_pdf.spacer(2))
    story.append(_pdf.pm(
        f"Fica o infrator {b('NOTIFICADO')} da lavratura deste auto (Art. 22). O prazo de "
        f"{b(str(ctx.defense_days) + ' dias')} para defesa prévia ou recurso começa a correr da juntada da "
        f"notificação aos autos do processo administrativo (Art. 22, §2º). A defesa é dirigida à "
        f"{e(ctx.header.secretariat)}. A assinatura do infrator não implica confissão; a recusa em assinar é "
        f"certificada pelo agente.", "body"))
    story.append(_pdf.signer_block(ctx.agent, [(ctx.infractor_name, "Infrator (ou: recusou-se a assinar)")]))
    return story
