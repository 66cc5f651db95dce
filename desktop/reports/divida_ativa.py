"""Certidão de dívida ativa of one inscribed fine (issue 28 point 9): the title the Municipality sues on
(Lei nº 6.830/1980, art. 2º, §§ 5º e 6º; CTN art. 202). Every element the two articles ask is printed:

- I   the debtor's name, CPF/CNPJ and address (the co-responsible platform when there is one);
- II  the original amount, the starting day and the way to compute late charges (the CTM's dated parameters);
- III origin, nature and legal basis of the debt (the infraction, its article, Art. 25, and the Art. 28 costs);
- IV  monetary updating, its basis and starting day;
- V   date and number of the inscription, and the book and sheet (CTN art. 202, parágrafo único);
- VI  the administrative process: the auto de infração whose process fixed the amount.

The inscription's number is the year's sequence of the inscriptions in the audit log (each `send_to_divida_ativa`
writes one "auto.divida_ativa" entry), as the laudo's number is the year's sequence of laudos: no column, no
migration. The register is electronic: one book per year, one sheet per inscription."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import func, select

from desktop.domain.ledger import COSTS_LABEL
from desktop.domain.money import round_cents
from desktop.domain.workflow import AutoStatus
from desktop.errors import ConflictError, NotFound
from desktop.models import AuditEntry, Auto, Driver, InfractionCode, Platform
from desktop.models.ledger_queries import auto_balance_in, fine_in
from desktop.reports import records
from desktop.reports.common import (
    LAW, TZ, DocumentMeta, MunicipalityHeader, Signer, fmt_date, fmt_date_long, fmt_decimal, fmt_document_id,
    fmt_money,
)
from desktop.reports.guide import auto_costs_reais, split_fine_and_costs

BASIS = "Lei nº 6.830/1980, art. 2º, §§ 5º e 6º; CTN, art. 202"
INSCRIPTION_ACTION = "auto.divida_ativa"


@dataclass(frozen=True, slots=True)
class CertidaoContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    inscription_number: str        # "0003/2026": the year's sequence of inscriptions
    inscribed_on: date
    book: str                      # "Livro eletrônico 2026"
    sheet: int                     # one sheet per inscription
    debtor_name: str
    debtor_document: str
    debtor_address: str
    co_responsible: str            # "" or the platform answering with the driver
    auto_number: str
    infraction_on: date
    code: str
    infraction: str                # in words
    article: str                   # "Art. 26, IV"
    upfm: Decimal
    upfm_value: Decimal
    fine_original: Decimal         # reais of the fine (Art. 25) as drawn up or decided
    fine_owed: Decimal             # the fine still owed (payments deducted)
    costs_owed: Decimal            # Art. 28 removal and storage costs still owed
    due_on: date                   # the payment term that passed: charges run from the next day
    fine_percent: Decimal | None   # multa de mora (CTM), None when not set
    interest_percent: Decimal | None  # juros de mora ao mês (CTM), None when not set
    signer: Signer | None = None

    @property
    def total(self) -> Decimal:
        return self.fine_owed + self.costs_owed

    @property
    def charges_from(self) -> date:
        return self.due_on + timedelta(days=1)


def inscription_of(s, auto) -> tuple[str, date]:
    """(number "NNNN/AAAA", date) of the auto's inscription in the dívida ativa, from the audit log."""
    entries = s.execute(select(AuditEntry.id, AuditEntry.at, AuditEntry.after)
                        .where(AuditEntry.action == INSCRIPTION_ACTION, AuditEntry.entity == "auto",
                               AuditEntry.entity_id == str(auto.id)).order_by(AuditEntry.id).limit(1)).first()
    if entries is None:
        raise ConflictError(f"O auto nº {auto.number} não tem registro de inscrição em dívida ativa.")
    entry_id, at, after = entries
    on = at.astimezone(TZ).date()
    try:
        on = date.fromisoformat(str(json.loads(after or "{}").get("on") or on.isoformat())[:10])
    except (ValueError, TypeError, AttributeError):
        pass
    year_start = datetime(at.astimezone(TZ).year, 1, 1, tzinfo=TZ)
    sequence = s.scalar(select(func.count()).where(AuditEntry.action == INSCRIPTION_ACTION,
                                                   AuditEntry.id <= entry_id, AuditEntry.at >= year_start))
    return f"{int(sequence):04d}/{at.astimezone(TZ).year}", on


def build_context(s, auto_number: str, meta: DocumentMeta, *, signer: Signer | None,
                  late_percents=lambda on: (None, None)) -> CertidaoContext:
    """The certidão of auto `auto_number` inscribed in the dívida ativa; `late_percents(on)` gives the CTM's
    (multa de mora %, juros de mora % a.m.) in force, None where not set. Refused, with the reason, for an auto
    not inscribed or with nothing owed."""
    auto = s.scalar(select(Auto).where(Auto.number == (auto_number or "").strip()))
    if auto is None:
        raise NotFound(f"Auto de infração nº {auto_number} não encontrado.")
    if auto.status != AutoStatus.DIVIDA_ATIVA.value:
        raise ConflictError(f"O auto nº {auto.number} está «{AutoStatus(auto.status).label}»: a certidão de dívida "
                            "ativa só é emitida para o débito inscrito (Lei nº 6.830/1980, art. 2º, § 3º).")
    _, owed = auto_balance_in(s, auto.id)
    owed = round_cents(Decimal(owed))
    if owed <= 0:
        raise ConflictError(f"O auto nº {auto.number} não tem saldo devedor: não há dívida a certificar.")
    number, inscribed_on = inscription_of(s, auto)
    driver = s.get(Driver, auto.infractor_driver_id) if auto.infractor_driver_id else None
    platform = s.get(Platform, auto.infractor_platform_id) if auto.infractor_platform_id else None
    if driver is not None:
        name, document, address = driver.name, driver.cpf, records.address_of(driver)
        co = ""
        if platform is not None:
            co = f"{platform.legal_name or platform.trade_name} — CNPJ {fmt_document_id(platform.cnpj)}"
    else:
        name, document = platform.legal_name or platform.trade_name, platform.cnpj
        address, co = platform.address or "", ""
    code = s.get(InfractionCode, auto.infraction_code_id) if auto.infraction_code_id else None
    upfm, fine = fine_in(s, auto)
    fine_owed, costs_owed = split_fine_and_costs(owed, auto_costs_reais(s, [auto.id]).get(auto.id, Decimal("0")))
    due = auto.payment_deadline or inscribed_on
    fine_pct, interest_pct = late_percents(due + timedelta(days=1))
    sequence, year = number.split("/")
    return CertidaoContext(
        records.header(s), meta, number, inscribed_on, f"Livro eletrônico {year}", int(sequence), name,
        document or "", address or "—", co, auto.number, auto.drawn_up_at.astimezone(TZ).date(), auto.code,
        (code.description if code is not None else "") or auto.code,
        (code.article if code is not None else "") or "Art. 25", Decimal(upfm), Decimal(auto.upfm_value),
        round_cents(Decimal(fine)), fine_owed, costs_owed, due, fine_pct, interest_pct, signer)


def render(ctx: CertidaoContext) -> bytes:
    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from desktop.reports._pdf import b, e  # lazy: loads ReportLab only when this runs

    if ctx.signer is None:
        raise ValueError("A certidão precisa de quem a assina: nome, cargo e matrícula (Lei 9.784/99, art. 22, §1º).")
    story = _pdf.title_block(f"CERTIDÃO DE DÍVIDA ATIVA — INSCRIÇÃO Nº {ctx.inscription_number}",
                             f"{BASIS}")
    story.append(_pdf.pm(
        f"Certifico que, no Registro da Dívida Ativa do Município de {e(ctx.header.name)}–{e(ctx.header.uf)}, "
        f"consta inscrito em {b(fmt_date(ctx.inscribed_on))} o débito abaixo, líquido e certo, não pago no prazo "
        f"(Lei nº 6.830/1980, art. 2º, § 3º, e art. 3º).", "body"))
    story.append(_pdf.p("I — Devedor", "h2"))
    debtor = [("Nome / razão social", ctx.debtor_name), ("CPF/CNPJ", fmt_document_id(ctx.debtor_document)),
              ("Domicílio", ctx.debtor_address)]
    if ctx.co_responsible:
        debtor.append(("Corresponsável", ctx.co_responsible))
    story.append(_pdf.field_table(debtor))
    story.append(_pdf.p("II e III — Origem, natureza, fundamento legal e valor", "h2"))
    rows = [
        ("Origem", f"Multa por infração à {LAW}: Auto de Infração nº {ctx.auto_number}, de "
                   f"{fmt_date(ctx.infraction_on)}, código {ctx.code} — {ctx.infraction}"),
        ("Natureza", "Dívida ativa não tributária (Lei nº 4.320/1964, art. 39, § 2º): multa administrativa"
                     + ("; e custas de remoção e estada do veículo (Art. 28), em reais, sem conversão em UPFM"
                        if ctx.costs_owed > 0 else "")),
        ("Fundamento legal", f"Art. 25 e {ctx.article} da {LAW}" + ("; despesas de remoção e estada, Art. 28"
                                                                   if ctx.costs_owed > 0 else "")),
        ("Valor originário da multa", f"{fmt_decimal(ctx.upfm, 2)} UPFM × {fmt_money(ctx.upfm_value)} "
                                      f"(UPFM do ano da lavratura, Art. 25) = {fmt_money(ctx.fine_original)}"),
        ("Multa devida (pagamentos deduzidos)", fmt_money(ctx.fine_owed)),
    ]
    if ctx.costs_owed > 0:
        rows.append((COSTS_LABEL + " (em reais)", fmt_money(ctx.costs_owed)))
    rows.append(("Total inscrito", fmt_money(ctx.total)))
    story.append(_pdf.field_table(rows, col1=55 * _mm()))
    story.append(_pdf.p("II e IV — Encargos e atualização", "h2"))
    if ctx.fine_percent is not None and ctx.interest_percent is not None:
        charges = (f"multa de mora de {fmt_decimal(ctx.fine_percent)} % sobre o valor devido, uma vez, e juros de "
                   f"mora de {fmt_decimal(ctx.interest_percent)} % ao mês ou fração, simples, sobre o valor devido")
    else:
        charges = ("multa e juros de mora nos percentuais do Código Tributário Municipal (não cadastrados neste "
                   "sistema na data do vencimento)")
    story.append(_pdf.field_table([
        ("Vencimento", fmt_date(ctx.due_on)),
        ("Termo inicial dos encargos", fmt_date(ctx.charges_from)),
        ("Forma de cálculo", f"A partir do termo inicial, {charges} (Código Tributário Municipal; "
                             "Lei nº 6.830/1980, art. 2º, § 2º)."),
        ("Atualização monetária", "Na forma do Código Tributário Municipal, a partir do termo inicial; a multa é "
                                  f"fixada em UPFM (Art. 25 da {LAW})."),
    ], col1=55 * _mm()))
    story.append(_pdf.p("V e VI — Inscrição e processo", "h2"))
    story.append(_pdf.field_table([
        ("Inscrição", f"nº {ctx.inscription_number}, em {fmt_date(ctx.inscribed_on)}"),
        ("Livro e folha", f"{ctx.book}, folha {ctx.sheet} (registro eletrônico)"),
        ("Processo administrativo", f"Auto de Infração nº {ctx.auto_number} e seu processo (Art. 22 da {LAW}), "
                                    "no qual foi apurado o valor"),
    ], col1=55 * _mm()))
    story.append(_pdf.spacer(2))
    issued_on = ctx.meta.issued_at.astimezone(TZ).date()
    story.append(_pdf.p(f"{ctx.header.name}–{ctx.header.uf}, {fmt_date_long(issued_on)}."))
    story.append(_pdf.signer_block(ctx.signer))
    title = f"Certidão de dívida ativa nº {ctx.inscription_number}"
    return _pdf.build_story_pdf(ctx.header, ctx.meta, title, story)


def _mm() -> float:
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)
    return mm
