"""Certidão / extrato do processo of one auto de infração (issue 28 point 1): the case's state at the moment it is
issued — the auto as drawn up, the code in force, the notifications with their proof and joining (Art. 22, §2),
defenses and appeals, decisions, penalties, terms, and what is owed — saying plainly that it is an extract of the
present state and that the auto itself is the archived original (Art. 19), never redrawn.

The context is built by services.documents.printing from the services' own reading of the auto (labels included),
so this module only lays it out."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from desktop.reports.common import LAW, TZ, DocumentMeta, MunicipalityHeader, Signer, fmt_date_long

TITLE = "CERTIDÃO — EXTRATO DO PROCESSO ADMINISTRATIVO"


@dataclass(frozen=True, slots=True)
class ExtractContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    auto_number: str
    situation_at: datetime                          # the moment the extract reads the case
    original: str                                   # "documento nº 0042/2026, emitido em …" or why there is none
    facts: tuple[tuple[str, str], ...]              # the auto as drawn up and the code in force
    situation: tuple[tuple[str, str], ...]          # status, terms, amounts
    notifications: tuple[str, ...]
    defenses: tuple[str, ...]
    decisions: tuple[str, ...]
    penalties: tuple[str, ...]
    signer: Signer | None = None


def render(ctx: ExtractContext) -> bytes:
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from desktop.reports._pdf import b, e  # lazy: loads ReportLab only when this runs

    if ctx.signer is None:
        raise ValueError("A certidão precisa de quem a assina: nome, cargo e matrícula (Lei 9.784/99, art. 22, §1º).")
    when = ctx.situation_at.astimezone(TZ)
    story = _pdf.title_block(f"{TITLE} — AUTO DE INFRAÇÃO Nº {ctx.auto_number}",
                             f"{LAW}, Arts. 17 a 28; Lei nº 9.784/1999, art. 46")
    story.append(_pdf.pm(
        f"Certifico, a pedido, que do processo do Auto de Infração nº {b(ctx.auto_number)} constam, em "
        f"{b(when.strftime('%d/%m/%Y às %H:%M'))} (horário de Cuiabá, UTC−4), os atos e a situação abaixo. "
        f"{b('Este é um extrato da situação atual do processo')}: ele não substitui nem reproduz o auto de infração, "
        f"cujo original é o {e(ctx.original)} (Art. 19), reimpresso apenas como 2ª via daquele arquivo.", "body"))
    story.append(_pdf.p("Auto de infração", "h2"))
    story.append(_pdf.field_table(list(ctx.facts)))
    story.append(_pdf.p("Situação", "h2"))
    story.append(_pdf.field_table(list(ctx.situation)))
    for title, lines, empty in (("Notificações (Art. 22, §§ 1º e 2º)", ctx.notifications, "Nenhuma notificação."),
                                ("Defesa e recursos (Art. 22)", ctx.defenses, "Nenhuma defesa ou recurso."),
                                ("Decisões", ctx.decisions, "Nenhuma decisão."),
                                ("Penalidades em vigor ou cumpridas", ctx.penalties, "Nenhuma penalidade além da "
                                                                                     "multa.")):
        story.append(_pdf.p(title, "h2"))
        for line in lines or (empty,):
            story.append(_pdf.p(f"• {line}"))
    story.append(_pdf.spacer(2))
    story.append(_pdf.p(f"{ctx.header.name}–{ctx.header.uf}, {fmt_date_long(when.date())}."))
    story.append(_pdf.signer_block(ctx.signer))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Extrato do processo do auto nº {ctx.auto_number}", story)
