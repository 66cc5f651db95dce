"""Termo de autorização (authorization certificate), with the legal basis: Art. 3 (authorization by the
Municipality, validity up to 12 months from the fee payment, renewal asked 15 business days before), Art. 8
(one vehicle per driver), Art. 13 (duties), Art. 14 (sticker)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from desktop.reports.common import (
    LAW, LAW_FULL, DocumentMeta, MunicipalityHeader, Signer, fmt_cpf, fmt_date, fmt_date_long, fmt_plate,
)
from desktop.domain.dates import renewal_request_deadline
from desktop.reports import records
from desktop.domain.vehicle import vehicle_last_service_day


@dataclass(frozen=True, slots=True)
class CertificateContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    authorization_number: str
    driver_name: str
    cpf: str
    cnh_number: str
    cnh_category: str
    address: str
    plate: str
    renavam: str
    vehicle: str                 # make/model
    manufacture_year: int
    model_year: int
    colour: str
    ownership: str               # "Próprio (Art. 8º, §3º, I)"
    fee_paid_on: date
    valid_until: date
    limited_by_vehicle_age: bool  # SPEC: the screen/paper says which limit applied
    renewal_deadline: date | None  # last timely day to ask renewal (Art. 3, §2)
    inspection: str               # "aprovada em 12/03/2026" / "dispensada (Art. 9º, §1º)"
    signer: Signer                # who issues and signs the termo (Lei 9.784/99, art. 22, §1º)

    @property
    def vehicle_in_last_year(self) -> bool:
        """The validity ends on the vehicle's last service day (Art. 2º, §2º): no renewal with this vehicle."""
        return self.valid_until >= vehicle_last_service_day(self.manufacture_year)


def make_context(header: MunicipalityHeader, meta: DocumentMeta, **fields) -> CertificateContext:
    return CertificateContext(header=header, meta=meta, **fields)


def build_context(s, number: str, meta: DocumentMeta, calendar, signer: Signer) -> CertificateContext:
    """The termo of the active authorization `number`, read from session `s`; the renewal deadline is the
    last timely day of Art. 3, §2 on `calendar` (the municipality's desktop.domain.BusinessCalendar)."""
    auth, driver, vehicle = records.active_authorization(s, number)
    return make_context(
        records.header(s), meta, authorization_number=auth.number, driver_name=driver.name, cpf=driver.cpf,
        cnh_number=driver.cnh_number or "—", cnh_category=driver.cnh_category or "—",
        address=records.full_address(driver), plate=vehicle.plate, renavam=vehicle.renavam,
        vehicle=records.make_model(vehicle), manufacture_year=vehicle.manufacture_year,
        model_year=vehicle.model_year, colour=vehicle.colour or "—", ownership=records.ownership_text(vehicle),
        fee_paid_on=auth.fee_paid_on or auth.valid_until, valid_until=auth.valid_until,
        limited_by_vehicle_age=auth.valid_until_limited_by == "vehicle_age",
        renewal_deadline=renewal_request_deadline(auth.valid_until, calendar),
        inspection=records.inspection_text(auth), signer=signer)


def render(ctx: CertificateContext) -> bytes:
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from desktop.reports._pdf import b, e  # lazy: loads ReportLab only when this runs

    validity_reason = (
        f"limitada ao último dia em que o veículo pode servir (Art. 2º, §§ 1º e 2º da {LAW})"
        if ctx.limited_by_vehicle_age
        else f"até 12 meses a contar do recolhimento da taxa em {fmt_date(ctx.fee_paid_on)} (Art. 3º, §1º)"
    )
    story = _pdf.title_block(f"TERMO DE AUTORIZAÇÃO Nº {ctx.authorization_number}",
                             "Serviço de transporte remunerado privado individual de passageiros "
                             "gerenciado por plataformas tecnológicas")
    story.append(_pdf.pm(
        f"O Município de {e(ctx.header.name)}–{e(ctx.header.uf)}, por meio da {e(ctx.header.secretariat)}, "
        f"com fundamento nos arts. 3º e 8º da {e(LAW_FULL)}, e atendidos os requisitos dos arts. 2º, 8º, §1º, "
        f"12 e 15, AUTORIZA o condutor abaixo identificado a prestar o serviço de transporte remunerado "
        f"privado individual de passageiros, exclusivamente por meio de plataforma tecnológica registrada no "
        f"Município (Art. 6º), com o veículo abaixo descrito — um veículo por condutor (Art. 8º)."))
    story.append(_pdf.spacer(3))
    story.append(_pdf.p("Condutor", "h2"))
    story.append(_pdf.field_table([
        ("Nome", ctx.driver_name),
        ("CPF", fmt_cpf(ctx.cpf)),
        ("CNH nº / categoria", f"{ctx.cnh_number} / {ctx.cnh_category} — exerce atividade remunerada (Art. 12, I)"),
        ("Endereço no Município", ctx.address),
    ]))
    story.append(_pdf.p("Veículo", "h2"))
    story.append(_pdf.field_table([
        ("Placa", fmt_plate(ctx.plate)),
        ("RENAVAM", ctx.renavam),
        ("Marca/modelo, cor", f"{ctx.vehicle}, {ctx.colour}"),
        ("Ano fabricação/modelo", f"{ctx.manufacture_year}/{ctx.model_year}"),
        ("Registro do veículo", ctx.ownership),
        ("Vistoria", ctx.inspection),
    ]))
    story.append(_pdf.p("Validade", "h2"))
    renewal = (f" A renovação deve ser requerida até {b(fmt_date(ctx.renewal_deadline))}, pelo menos 15 dias "
               f"úteis antes do vencimento (Art. 3º, §2º)." if ctx.renewal_deadline else "")
    if ctx.vehicle_in_last_year:
        # issue 28: this vehicle cannot serve past its last year (Art. 2º, §§ 1º e 2º): renewing means another one
        renewal += (f" {b('Este veículo não poderá servir após ' + fmt_date(ctx.valid_until))} (fabricação "
                    f"{ctx.manufacture_year}, Art. 2º, §§ 1º e 2º): a renovação só será possível com a substituição "
                    f"do veículo por outro que atenda ao Art. 2º, após nova vistoria (Art. 8º, §2º), requerida no "
                    f"mesmo prazo.")
    story.append(_pdf.pm(
        f"Taxa recolhida em {b(fmt_date(ctx.fee_paid_on))}. Autorização válida até {b(fmt_date(ctx.valid_until))}, "
        f"{e(validity_reason)}.{renewal}"))
    story.append(_pdf.p("Obrigações do condutor", "h2"))
    for text in (
        "Portar esta autorização ou a credencial emitida pelo Município (Art. 13, I) e cumprir os deveres do "
        "Art. 13, I a XXIII;",
        "Manter afixado no interior do veículo, no painel, lado direito, o adesivo padrão do Município com o "
        "número desta autorização, o prazo de validade e o telefone da Ouvidoria (Art. 14);",
        "Comunicar qualquer alteração de seus dados cadastrais em até 7 (sete) dias (Art. 13, XVIII);",
        "Utilizar somente o veículo cadastrado (Art. 13, XIX) e apresentá-lo às vistorias quando convocado "
        "(Art. 16; Art. 26, I);",
        "O descumprimento sujeita o infrator às penalidades e medidas administrativas dos arts. 24 a 28.",
    ):
        story.append(_pdf.pm(f"• {e(text)}", "left"))
    story.append(_pdf.spacer(6))
    story.append(_pdf.p(f"{ctx.header.name}–{ctx.header.uf}, {fmt_date_long(ctx.meta.issued_at.date())}.", "center"))
    story.append(_pdf.signer_block(ctx.signer, [(ctx.driver_name, "Condutor autorizado — ciente")]))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Termo de autorização nº {ctx.authorization_number}", story)
