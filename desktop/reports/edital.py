"""Edital list for publication (Art. 22, §1, II–IV): infractors notified by edital — on the Prefeitura's notice
board (II), in a newspaper (III) or in the official press (IV) — when direct notice failed."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from desktop.reports.common import (
    LAW, DocumentMeta, MunicipalityHeader, Signer, fmt_date, fmt_date_long, fmt_money, fmt_plate, mask_cpf,
)
from desktop.reports.common import fmt_cnpj, only_digits
from sqlalchemy import select
from desktop.models import InfractionCode
from desktop.errors import NotFound
from desktop.models import Auto, Driver, Platform, Vehicle
from desktop.reports import records
from desktop.models import AutoNotification

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
    infraction: str = ""    # the infraction in words, with its article (issue 28: never the code alone)


@dataclass(frozen=True, slots=True)
class EditalContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    edital_number: str
    means: tuple[str, ...]          # "II", "III", "IV"
    publication_date: date
    defense_days: int
    rows: tuple[EditalRow, ...]
    signer: Signer | None = None    # the authority that publishes (issue 28); required to render

    @property
    def number(self) -> str:
        """The edital's number: its own, or (empty) the document's number printed in the footer."""
        return self.edital_number or self.meta.number


FORMS = {"notice_board": "II", "newspaper": "III", "official_gazette": "IV"}   # Art. 22, §1, II–IV


def make_context(header: MunicipalityHeader, meta: DocumentMeta, **fields) -> EditalContext:
    bad = [m for m in fields.get("means", ()) if m not in MEANS]
    if bad:
        raise ValueError(f"Forma de publicação fora do Art. 22, §1º, II–IV: {', '.join(bad)}.")
    return EditalContext(header=header, meta=meta, **fields)


def _document(doc: str) -> str:
    d = only_digits(doc)
    return mask_cpf(d) if len(d) == 11 else fmt_cnpj(d)


def infraction_words(s, code: str, on: date) -> str:
    """"Embarcar usuário diretamente na via pública… (Art. 26, IV)": the catalogue's description of `code` in
    force on `on`, with its article; the code itself when the catalogue lacks it."""

    row = s.scalar(select(InfractionCode).where(InfractionCode.code == code, InfractionCode.valid_from <= on)
                   .order_by(InfractionCode.valid_from.desc()).limit(1))
    if row is None:
        from desktop.domain.penalties import CATALOG  # local: imported only on this branch
        spec = CATALOG.get(code)
        return f"{spec.description} ({spec.article})" if spec is not None else code
    return f"{row.description} ({row.article})"


def build_context(s, sent_on: date, meta: DocumentMeta, parameter, signer: Signer) -> EditalContext:
    """The edital of the autos whose notification by edital (Art. 22 §1 II–IV) is dated `sent_on`, read from
    session `s`; `parameter(key, on)` gives the defense term."""

    notes = first_notifications(s, sent_on)
    if not notes:
        raise NotFound(f"Nenhuma notificação por edital (Art. 22, §1º, II a IV) com data de {fmt_date(sent_on)}.")
    means = tuple(sorted({FORMS[n.form] for n in notes}, key=("II", "III", "IV").index))
    rows, seen = [], set()
    for note in notes:
        if note.auto_id in seen:
            continue
        seen.add(note.auto_id)
        auto = s.get(Auto, note.auto_id)
        person = None
        if not (auto.infractor_driver_id and note.addressee == "driver") and auto.infractor_platform_id:
            person = s.get(Platform, auto.infractor_platform_id)
        if person is None:
            person = s.get(Driver, auto.infractor_driver_id)
            name, document = person.name, person.cpf
        else:
            name, document = person.legal_name, person.cnpj
        plate = s.get(Vehicle, auto.vehicle_id).plate if auto.vehicle_id else ""
        rows.append(EditalRow(auto.number, name, document, plate, auto.code, auto.drawn_up_at.date(),
                              Decimal(auto.amount_reais), infraction_words(s, auto.code, auto.drawn_up_at.date())))
    return make_context(records.header(s), meta, edital_number="", means=means, publication_date=sent_on,
                        defense_days=int(parameter("term.defense_days", sent_on)), rows=tuple(rows),
                        signer=signer)


def first_notifications(s, sent_on: date) -> list:
    """The notifications by edital dated `sent_on`, by auto."""

    return list(s.scalars(select(AutoNotification).where(
        AutoNotification.form.in_(tuple(FORMS)), AutoNotification.sent_on == sent_on)
        .order_by(AutoNotification.auto_id)))


def render(ctx: EditalContext) -> bytes:
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from desktop.reports._pdf import e  # lazy: loads ReportLab only when this runs

    story = _pdf.title_block(f"EDITAL DE NOTIFICAÇÃO Nº {ctx.number}",
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
    rows = [[r.auto_number, r.infractor_name, _document(r.document), fmt_plate(r.plate),
             f"{r.infraction or r.code} — código {r.code}", fmt_date(r.infraction_date), fmt_money(r.amount)]
            for r in ctx.rows]
    widths = [18 * mm, 27 * mm, 33 * mm, 17 * mm, 37 * mm, 19 * mm, 23 * mm]
    story.append(_pdf.grid_table(["Auto nº", "Infrator", "CPF/CNPJ", "Placa", "Infração", "Data", "Multa"],
                                 rows, widths, right_cols=(6,)))
    story.append(_pdf.spacer(2))
    story.append(_pdf.p(f"Total de autos relacionados: {len(ctx.rows)}.", "left"))
    # Issue 28: the elements of the publication, so the edital proves itself in the case (Art. 22, §1º, II–IV)
    story.append(_pdf.p("Elementos da publicação", "h2"))
    publication = [("Local e data", f"{ctx.header.name}–{ctx.header.uf}, {fmt_date_long(ctx.publication_date)}"),
                   ("Autoridade", ctx.signer.inline if ctx.signer else "—")]
    if "II" in ctx.means:
        publication.append(("Quadro de editais (II)", "afixado em ____/____/________, retirado em ____/____/________ "
                                                      f"(permanência mínima de {ctx.defense_days} dias, o prazo de "
                                                      "defesa) — certidão de afixação anexa"))
    if "III" in ctx.means:
        publication.append(("Jornal (III)", "nome: ______________________, edição nº ________, de "
                                            "____/____/________, página ______"))
    if "IV" in ctx.means:
        publication.append(("Imprensa oficial (IV)", "edição nº ________, de ____/____/________, página ______"))
    story.append(_pdf.field_table(publication))
    if ctx.signer is None:
        raise ValueError("O edital precisa da autoridade que o assina (Lei 9.784/99, art. 22, §1º).")
    story.append(_pdf.signer_block(ctx.signer))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Edital nº {ctx.number}", story)
