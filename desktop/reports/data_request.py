"""Request for data to a platform (Art. 4): justified, with the period and the fields of §1 I–VII; when it
serves an investigation of irregularities, the 24-hour term of §2 counted from the notification."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from desktop.reports.common import (
    LAW,
    DocumentMeta,
    MunicipalityHeader,
    Signer,
    fmt_cnpj,
    fmt_cpf,
    fmt_date,
    fmt_moment,
    fmt_plate,
)
from sqlalchemy import select
from desktop.errors import NotFound
from desktop.models import DataRequest
from desktop.models import Driver, Platform, Vehicle
from desktop.reports import records

FIELDS_ART4_PAR1 = {
    "I": "origem e destino da viagem",
    "II": "tempo e distância da viagem",
    "III": "mapa do trajeto da viagem",
    "IV": "identificação do condutor que prestou o serviço",
    "V": "composição do valor pago pelo serviço prestado",
    "VI": "avaliação, pelo usuário, do serviço prestado",
    "VII": "outros dados solicitados pelo Município",
}


@dataclass(frozen=True, slots=True)
class DataRequestContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    request_number: str
    platform_name: str
    platform_cnpj: str
    platform_address: str
    justification: str
    period_start: date
    period_end: date
    fields: tuple[str, ...]          # roman numerals of §1 ("I", "II", ...)
    other_fields: str                # text for VII
    investigation: bool              # §2: 24-hour term
    notified_at: datetime | None     # when the platform was notified (term start)
    signer: Signer | None = None     # who signs the ofício (issue 28); required to render
    delivery: str = "mídia eletrônica (Art. 4º, §3º), no formato CSV ou XLSX"
    narrowing_reason: str = ""       # why any of §1 I-VI is not asked (issue 24 item 12)
    driver: str = ""                 # "Nome — CPF" of the driver the request is about (issue 24 item 12)
    vehicle: str = ""                # the plate of the vehicle it is about

    @property
    def deadline(self) -> datetime | None:
        """Art. 4, §2: 24 hours from the notification."""
        return self.notified_at + timedelta(hours=24) if (self.investigation and self.notified_at) else None


def make_context(header: MunicipalityHeader, meta: DocumentMeta, **fields) -> DataRequestContext:
    bad = [f for f in fields.get("fields", ()) if f not in FIELDS_ART4_PAR1]
    if bad:
        raise ValueError(f"Campos inexistentes no Art. 4º, §1º: {', '.join(bad)}.")
    return DataRequestContext(header=header, meta=meta, **fields)


def request_row(s, number: str):
    """The request by its NNNN/AAAA or, for a draft without number, its internal code."""

    key = number.strip()
    row = s.scalar(select(DataRequest).where(DataRequest.number == key))
    if row is None and key.isdigit():
        row = s.get(DataRequest, int(key))
    if row is None:
        raise NotFound(f"Requisição de dados nº {number} não encontrada.")
    return row


def build_context(s, number: str, meta: DocumentMeta, signer: Signer) -> DataRequestContext:
    """The justified request for data to a platform (Art. 4), read from session `s`."""
    row = request_row(s, number)
    platform = s.get(Platform, row.platform_id)
    wanted = [("I", row.want_origin_destination), ("II", row.want_time_distance), ("III", row.want_route),
              ("IV", row.want_driver), ("V", row.want_fare), ("VI", row.want_rating), ("VII", bool(row.other_data))]
    return make_context(records.header(s), meta, request_number=row.number or f"{row.id:04d}/{row.period_end.year}",
                        platform_name=platform.legal_name, platform_cnpj=platform.cnpj,
                        platform_address=platform.address or "—", justification=row.justification,
                        period_start=row.period_start, period_end=row.period_end,
                        fields=tuple(numeral for numeral, on in wanted if on), other_fields=row.other_data or "",
                        investigation=bool(row.investigation), notified_at=row.notified_at, signer=signer,
                        narrowing_reason=row.narrowing_reason or "", **_subject(s, row))


def _subject(s, row) -> dict:
    """The driver and the vehicle a request is about, as printed (issue 24 item 12)."""
    out = {}
    if row.driver_id is not None:
        driver = s.get(Driver, row.driver_id)
        out["driver"] = f"{driver.name} — CPF {fmt_cpf(driver.cpf)}"
    if row.vehicle_id is not None:
        out["vehicle"] = fmt_plate(s.get(Vehicle, row.vehicle_id).plate)
    return out


def render(ctx: DataRequestContext) -> bytes:
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from desktop.reports._pdf import b, e  # lazy: loads ReportLab only when this runs

    story = _pdf.title_block(f"OFÍCIO DE REQUISIÇÃO DE DADOS Nº {ctx.request_number}",
                             f"Art. 4º da {LAW} — compartilhamento de dados pela plataforma tecnológica")
    story.append(_pdf.field_table([
        ("Plataforma", ctx.platform_name),
        ("CNPJ", fmt_cnpj(ctx.platform_cnpj)),
        ("Endereço", ctx.platform_address),
        ("Período dos dados", f"de {fmt_date(ctx.period_start)} a {fmt_date(ctx.period_end)}"),
        *([("Condutor", ctx.driver)] if ctx.driver else []),
        *([("Veículo (placa)", ctx.vehicle)] if ctx.vehicle else []),
    ]))
    story.append(_pdf.spacer(3))
    story.append(_pdf.pm(
        f"Com fundamento no Art. 4º da {e(LAW)}, o Município de {e(ctx.header.name)}, por meio da "
        f"{e(ctx.header.secretariat)}, REQUISITA à plataforma acima os dados abaixo, de forma justificada, "
        f"garantidas a privacidade e a confidencialidade dos dados pessoais dos usuários (Art. 4º, caput)."))
    story.append(_pdf.p("Justificativa", "h2"))
    story.append(_pdf.p(ctx.justification))
    story.append(_pdf.p("Dados requisitados (Art. 4º, §1º)", "h2"))
    for numeral in ctx.fields:
        text = FIELDS_ART4_PAR1[numeral]
        if numeral == "VII" and ctx.other_fields:
            text += f": {ctx.other_fields}"
        story.append(_pdf.pm(f"{b(numeral)} – {e(text)};", "left"))
    left_out = [n for n in ("I", "II", "III", "IV", "V", "VI") if n not in ctx.fields]
    if left_out and ctx.narrowing_reason:  # issue 24 item 12: the six are asked unless the request says why
        story.append(_pdf.pm(f"Não se requisitam os dados {e(', '.join(left_out))} do §1º: "
                             f"{e(ctx.narrowing_reason)}", "left"))
    story.append(_pdf.pm("Não devem ser enviados nome, CPF, telefone ou qualquer dado que identifique o passageiro.",
                         "left"))
    story.append(_pdf.p("Prazo e forma de entrega", "h2"))
    if ctx.deadline is not None:
        story.append(_pdf.pm(
            f"Tratando-se de apuração de irregularidades e infrações administrativas, os dados devem ser "
            f"entregues no prazo de {b('24 (vinte e quatro) horas')} (Art. 4º, §2º), contado da notificação em "
            f"{e(fmt_moment(ctx.notified_at))}: {b('até ' + fmt_moment(ctx.deadline, brasilia=True))}."))
    elif ctx.investigation:
        story.append(_pdf.pm(
            f"Tratando-se de apuração de irregularidades, os dados devem ser entregues no prazo de "
            f"{b('24 (vinte e quatro) horas')} contado da notificação desta requisição (Art. 4º, §2º)."))
    else:
        story.append(_pdf.p("Os dados devem ser entregues no prazo indicado pela Secretaria, contado da notificação."))
    story.append(_pdf.p(f"Forma de entrega: {ctx.delivery}."))
    if ctx.signer is None:
        raise ValueError("O ofício de requisição precisa de quem o assina (Lei 9.784/99, art. 22, §1º).")
    story.append(_pdf.signer_block(ctx.signer, [
        (ctx.platform_name, "Recebido em ____/____/________ às ____:____ (horário de Cuiabá)")]))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Requisição de dados nº {ctx.request_number}", story)
