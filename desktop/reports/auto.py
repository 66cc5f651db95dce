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
    original_code: str = ""      # issue 12 item 1: the code it was drawn up with, when a decision requalified it


def make_context(header: MunicipalityHeader, meta: DocumentMeta, **fields) -> AutoContext:
    return AutoContext(header=header, meta=meta, **fields)


def auto_row(s, number: str):
    from sqlalchemy import select

    from desktop.errors import NotFound
    from desktop.models import Auto
    auto = s.scalar(select(Auto).where(Auto.number == number.strip()))
    if auto is None:
        raise NotFound(f"Auto de infração nº {number} não encontrado.")
    return auto


def build_context(s, number: str, meta: DocumentMeta, parameter) -> AutoContext:
    """The auto `number` as printed, read from session `s`; `parameter(key, on) -> Decimal` gives the dated
    parameters (the defense term, services.parameters.parameter_value_in)."""
    from sqlalchemy import select

    from desktop.domain.penalties import AdministrativeMeasure as MeasureKind
    from desktop.domain.penalties import Assessment, Severity
    from desktop.models import AdministrativeMeasure, Authorization, Driver, InfractionCode, Platform, User, Vehicle
    from desktop.reports import records

    auto = auto_row(s, number)
    code = s.get(InfractionCode, auto.infraction_code_id)
    driver = s.get(Driver, auto.infractor_driver_id) if auto.infractor_driver_id else None
    platform = s.get(Platform, auto.infractor_platform_id) if auto.infractor_platform_id else None
    vehicle = s.get(Vehicle, auto.vehicle_id) if auto.vehicle_id else None
    authorization = s.get(Authorization, auto.authorization_id) if auto.authorization_id else None
    agent = s.get(User, auto.agent_id) if auto.agent_id else None
    assessment = Assessment.from_dict(auto.assessment) if auto.assessment else None
    if driver is not None:
        kind, name, document, address = "condutor", driver.name, driver.cpf, records.address_of(driver)
    else:
        kind, name, document, address = "plataforma", platform.legal_name, platform.cnpj, platform.address or ""
    measures = []
    for m in s.scalars(select(AdministrativeMeasure).where(AdministrativeMeasure.auto_id == auto.id)):
        try:
            measures.append(getattr(MeasureKind(m.kind), "label", m.kind))
        except ValueError:
            measures.append(m.kind)
    if code is not None:
        severity = Severity(code.severity)
    else:
        severity = assessment.severity if assessment is not None else Severity.LEVE
    article = (code.article if code is not None else "") or (assessment.articles[0] if assessment else "")
    description = code.description if code is not None else auto.code
    # issue 12 items 1 and 4: the code and the fine in force (the ledger), the decision's penalties
    from desktop.domain.penalties import PenaltyOption, UnknownInfractionCode, lookup
    from desktop.services.enforcement.core import code_in_force_in, fine_in  # lazy: shared enforcement reads

    in_force = code_in_force_in(s, auto)
    if in_force != auto.code:
        try:
            entry = lookup(in_force, None, auto.drawn_up_at.date())
            article, severity, description = entry.article, entry.severity, entry.description
        except UnknownInfractionCode:
            pass
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
        facts=auto.description or "—", agent_name=agent.full_name if agent else "Agente fiscal",
        agent_registration=agent.username if agent else "—",
        defense_days=int(parameter("term.defense_days", auto.drawn_up_at.date())),
        recurrence="Sim" if auto.recurrence else "")


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
        ("Código", ctx.code + (f" (requalificado por decisão; lavrado como {ctx.original_code})"
                               if ctx.original_code else "")),
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
