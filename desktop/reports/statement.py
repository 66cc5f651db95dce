"""Infractor's statement (extrato) at a date: the append-only ledger in UPFM with reais beside, and the
balance computed from the entries (SPEC: the ledger is append-only; balances are computed, never stored)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from desktop.domain.ledger import COSTS_LABEL
from desktop.domain.money import round_cents
from desktop.reports.common import (
    LAW, DocumentMeta, MunicipalityHeader, fmt_date, fmt_decimal, fmt_document_id, fmt_money,
)
from sqlalchemy import select
from desktop.errors import NotFound
from desktop.models import Auto, Driver, LedgerEntry, Parameter, Platform
from desktop.reports import records
from desktop.reports.common import only_digits


@dataclass(frozen=True, slots=True)
class StatementLine:
    day: date
    description: str       # "Multa – auto nº 0003/2026 (Art. 26, IV)"
    reference: str
    debit_upfm: Decimal
    credit_upfm: Decimal
    reais: Decimal          # the entry's value in reais at the UPFM value used for it
    kind: str = ""          # desktop.domain.ledger.EntryKind value ("" for lines built by hand)
    discussion: str = ""    # issue 28 point 3: the auto is under discussion ("Em defesa — prazo até …")
    owed: Decimal | None = None   # the entry's signed reais (+ owed by the infractor), when known
    debt: str = "fine"      # "costs": the Art. 28 costs or the reversal of one — reais only (issue 23 point 6)


@dataclass(frozen=True, slots=True)
class StatementContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    infractor_name: str
    infractor_document: str
    as_of: date
    lines: tuple[StatementLine, ...]
    upfm_value_today: Decimal

    @property
    def ledger_lines(self) -> tuple[StatementLine, ...]:
        """The lines of the balance: neither a refund owed to the infractor nor a debt under discussion."""
        return tuple(line for line in self.lines if line.kind != "refund" and not line.discussion)

    @property
    def refunds(self) -> tuple[StatementLine, ...]:
        """What the municipality owes back to the infractor (issue 28 point 3), shown as such."""
        return tuple(line for line in self.lines if line.kind == "refund")

    @property
    def under_discussion(self) -> tuple[StatementLine, ...]:
        """Debts of autos still in defense or appeal: listed apart, never in the saldo devedor (issue 28.3)."""
        return tuple(line for line in self.lines if line.discussion and line.kind != "refund")

    @property
    def balance_upfm(self) -> Decimal:
        return sum((line.debit_upfm - line.credit_upfm for line in self.ledger_lines), Decimal("0"))

    @property
    def balance_reais(self) -> Decimal:
        """The sum of the lines' reais, each at the UPFM value used for its debit (SPEC §3; issue 23 point 5):
        never the balance in UPFM at today's value. The Art. 28 costs count by their reais."""
        return round_cents(sum((_signed(line) for line in self.ledger_lines), Decimal("0")))

    @property
    def costs_owed(self) -> Decimal:
        """The Art. 28 costs still owed, in reais (issue 23 point 6): per auto, the costs charged capped by what the
        auto still owes (a payment settles the fine first, then the costs) — never converted at a UPFM."""
        from desktop.reports.guide import split_fine_and_costs  # local: the DAM's rule, one place

        owed: dict[str, Decimal] = {}
        costs: dict[str, Decimal] = {}
        for line in self.ledger_lines:
            owed[line.reference] = owed.get(line.reference, Decimal("0")) + _signed(line)
            if line.debt == "costs":
                costs[line.reference] = costs.get(line.reference, Decimal("0")) + _signed(line)
        return round_cents(sum((split_fine_and_costs(owed[ref], spent)[1] for ref, spent in costs.items()),
                               Decimal("0")))


def _signed(line: StatementLine) -> Decimal:
    """A line's reais with its sign (+ owed by the infractor)."""
    if line.owed is not None:
        return line.owed
    return line.reais if line.debit_upfm else -line.reais


def make_context(header: MunicipalityHeader, meta: DocumentMeta, *, infractor_name: str, infractor_document: str,
                  as_of: date, lines, upfm_value_today: Decimal) -> StatementContext:
    kept = tuple(sorted((line for line in lines if line.day <= as_of), key=lambda line: line.day))
    return StatementContext(header, meta, infractor_name, infractor_document, as_of, kept, upfm_value_today)


LEDGER_LABELS = {   # issue 28 point 3: a Portuguese label for every desktop.domain.ledger.EntryKind
    "debit": "Multa (Art. 25)", "costs": COSTS_LABEL, "payment": "Pagamento",
    "reversal": "Estorno", "reduction": "Redução", "requalification": "Requalificação (Art. 25)",
    "refund": "Restituição devida ao infrator",
}


def ledger_description(kind: str, auto_number: str, guide_number: str | None, reason: str | None) -> str:
    text = LEDGER_LABELS[kind]   # a kind without its label is a bug (tests/unit/test_statement_labels.py)
    if auto_number:
        text += f" – auto nº {auto_number}"
    if guide_number and kind != "debit":
        text += f" – DAM nº {guide_number}"
    if reason and kind != "debit":
        text += f" ({reason})"
    return text


_DISCUSSION = {"drawn_up": "Lavrado — aguarda notificação", "notified": "Notificado — prazo de defesa",
               "in_defense": "Em defesa", "judged": "Julgado — prazo de recurso", "in_appeal": "Em recurso"}


def discussion_of(status: str, defense_deadline: date | None, appeal_deadline: date | None) -> str:
    """'' when the auto's decision is final (or the auto void); else its state and the date its term ends."""
    label = _DISCUSSION.get(status)
    if label is None:
        return ""
    deadline = appeal_deadline if status in ("judged", "in_appeal") else defense_deadline
    return f"{label}" + (f" até {fmt_date(deadline)}" if deadline else "")


def build_context(s, document: str, as_of: date, meta: DocumentMeta) -> tuple[tuple[str, int], StatementContext]:
    """((record type, id) of the infractor, the statement) of a driver by CPF or a platform by CNPJ at `as_of`,
    read from session `s` (the ledger lines and the UPFM value in force on `as_of`)."""

    digits = only_digits(document)
    if len(digits) == 11:
        person = s.scalar(select(Driver).where(Driver.cpf == digits))
        if person is None:
            raise NotFound(f"Nenhum condutor com o CPF {document}.")
        name, condition, record = person.name, LedgerEntry.infractor_driver_id == person.id, ("driver", person.id)
    else:
        person = s.scalar(select(Platform).where(Platform.cnpj == digits.upper()))
        if person is None:
            raise NotFound(f"Nenhuma plataforma com o CNPJ {document}.")
        name, condition = person.legal_name, LedgerEntry.infractor_platform_id == person.id
        record = ("platform", person.id)
    lines = []
    costs_ids = set(s.scalars(select(LedgerEntry.id).where(condition, LedgerEntry.kind == "costs")))
    for entry in s.scalars(select(LedgerEntry).where(condition).order_by(LedgerEntry.effective_on, LedgerEntry.id)):
        auto = s.get(Auto, entry.auto_id) if entry.auto_id else None
        auto_number = auto.number if auto is not None else ""
        amount = Decimal(entry.amount_upfm)
        debt = "costs" if entry.kind == "costs" or (entry.kind == "reversal" and entry.reverses_id in costs_ids) \
            else "fine"
        # issue 23 point 6: the Art. 28 costs carry no UPFM (their UPFM columns stay empty); a row posted converted
        # before migration 0022 keeps the UPFM it carries, so that the payments that closed it still add up
        debit, credit = (amount, Decimal("0")) if amount >= 0 else (Decimal("0"), -amount)
        discussion = (discussion_of(auto.status, auto.defense_deadline, auto.appeal_deadline)
                      if auto is not None else "")
        lines.append(StatementLine(entry.effective_on,
                                   ledger_description(entry.kind, auto_number, entry.guide_number, entry.reason),
                                   auto_number or entry.guide_number or "", debit, credit,
                                   abs(Decimal(entry.amount_reais)), entry.kind, discussion,
                                   Decimal(entry.amount_reais), debt))
    upfm = s.scalar(select(Parameter.value).where(Parameter.key == "upfm_value", Parameter.valid_from <= as_of)
                    .order_by(Parameter.valid_from.desc()).limit(1))
    if upfm is None:
        raise NotFound(f"Não há valor da UPFM vigente em {fmt_date(as_of)} (Administração → Parâmetros).")
    return record, make_context(records.header(s), meta, infractor_name=name, infractor_document=digits,
                                as_of=as_of, lines=lines, upfm_value_today=Decimal(upfm))


def render(ctx: StatementContext) -> bytes:
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from desktop.reports._pdf import b  # lazy: loads ReportLab only when this runs

    story = _pdf.title_block("EXTRATO DO INFRATOR",
                             f"Posição em {fmt_date(ctx.as_of)} — multas em UPFM (Art. 25 da {LAW})")
    story.append(_pdf.field_table([
        ("Infrator", ctx.infractor_name),
        ("CPF/CNPJ", fmt_document_id(ctx.infractor_document)),
    ]))
    story.append(_pdf.spacer(3))
    widths = [20 * mm, 46 * mm, 22 * mm, 19 * mm, 19 * mm, 24 * mm, 24 * mm]
    head = ["Data", "Histórico", "Referência", "Débito (UPFM)", "Crédito (UPFM)", "Valor (R$)", "Saldo (UPFM)"]
    running = Decimal("0")
    rows = []
    for line in ctx.ledger_lines:
        running += line.debit_upfm - line.credit_upfm
        rows.append([
            fmt_date(line.day), line.description, line.reference,
            fmt_decimal(line.debit_upfm) if line.debit_upfm else "",
            fmt_decimal(line.credit_upfm) if line.credit_upfm else "",
            fmt_money(line.reais), fmt_decimal(running),
        ])
    if not rows:
        rows.append(["", "Nenhum lançamento até esta data.", "", "", "", "", ""])
    story.append(_pdf.grid_table(head, rows, widths, right_cols=(3, 4, 5, 6)))
    story.append(_pdf.spacer(3))
    balance = ctx.balance_reais
    costs = ctx.costs_owed
    if balance > 0 and costs > 0:   # issue 23 point 6: the costs on a line of their own, in reais
        story.append(_pdf.pm(
            f"Saldo devedor em {fmt_date(ctx.as_of)}: multas {b(fmt_decimal(ctx.balance_upfm) + ' UPFM')}, "
            f"equivalentes a {b(fmt_money(balance - costs))} (cada uma pelo valor da UPFM usado no seu débito); "
            f"custas (Art. 28), em reais: {b(fmt_money(costs))}; total {b(fmt_money(balance))}."))
    elif balance >= 0:
        story.append(_pdf.pm(
            f"Saldo devedor em {fmt_date(ctx.as_of)}: {b(fmt_decimal(ctx.balance_upfm) + ' UPFM')}, equivalentes a "
            f"{b(fmt_money(balance))} — a soma dos lançamentos acima, cada um pelo valor da UPFM usado no seu "
            "débito."))
    else:
        story.append(_pdf.pm(f"Saldo a favor do infrator em {fmt_date(ctx.as_of)}: {b(fmt_money(-balance))}."))
    if ctx.refunds:   # issue 28 point 3: what the municipality owes back, as such — never a debit
        story.append(_pdf.p("Restituições devidas ao infrator (a Prefeitura deve devolver)", "h2"))
        story.append(_pdf.grid_table(["Data", "Histórico", "Referência", "Valor (R$)"],
                                     [[fmt_date(r.day), r.description, r.reference, fmt_money(r.reais)]
                                      for r in ctx.refunds],
                                     [20 * mm, 100 * mm, 30 * mm, 24 * mm], right_cols=(3,)))
        story.append(_pdf.pm("Total a restituir ao infrator: "
                             + b(fmt_money(round_cents(sum((r.reais for r in ctx.refunds), Decimal("0")))))))
    if ctx.under_discussion:   # issue 28 point 3: fines in defense or appeal are not in the saldo devedor
        story.append(_pdf.p("Débitos em discussão (defesa ou recurso em curso) — fora do saldo devedor", "h2"))
        story.append(_pdf.grid_table(["Data", "Histórico", "Situação", "Débito (UPFM)", "Crédito (UPFM)",
                                      "Valor (R$)"],
                                     [[fmt_date(r.day), r.description, r.discussion,
                                       fmt_decimal(r.debit_upfm) if r.debit_upfm else "",
                                       fmt_decimal(r.credit_upfm) if r.credit_upfm else "", fmt_money(r.reais)]
                                      for r in ctx.under_discussion],
                                     [20 * mm, 54 * mm, 40 * mm, 19 * mm, 19 * mm, 22 * mm], right_cols=(3, 4, 5)))
    story.append(_pdf.spacer(2))
    story.append(_pdf.p("Os lançamentos não são alterados nem apagados: cancelamentos e reduções aparecem como "
                        "estornos com o seu motivo.", "small"))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Extrato — {ctx.infractor_name}", story)
