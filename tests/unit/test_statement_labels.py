"""The infractor's statement (extrato, issue 28 point 3): a Portuguese label for every ledger kind (a kind
added without its label fails here), refunds owed to the infractor apart from the debts, debts under
discussion (defense or appeal, Art. 22) outside the saldo devedor, and reais that are the sum of the lines."""
from datetime import date, datetime
from decimal import Decimal

import pytest

from desktop.domain.ledger import EntryKind
from desktop.reports.common import DocumentMeta, MunicipalityHeader
from desktop.reports.statement import LEDGER_LABELS, StatementLine, discussion_of, ledger_description, make_context

ENGLISH = ("refund", "requalification", "debit", "payment", "reversal", "reduction", "costs")


@pytest.mark.parametrize("kind", list(EntryKind), ids=lambda k: k.value)
def test_every_ledger_kind_has_a_portuguese_label(kind):
    label = LEDGER_LABELS[kind.value]
    assert label and not any(word in label.lower() for word in ENGLISH)
    assert ledger_description(kind.value, "0033/2026", "0010/2026", "motivo").startswith(label)


@pytest.mark.parametrize("status, expected", [
    ("notified", "Notificado — prazo de defesa até 15/12/2026"),
    ("in_defense", "Em defesa até 15/12/2026"),
    ("judged", "Julgado — prazo de recurso até 20/01/2027"),
    ("in_appeal", "Em recurso até 20/01/2027"),
    ("final", ""), ("overdue", ""), ("paid", ""), ("divida_ativa", ""), ("cancelled", ""), ("annulled", ""),
])
def test_art22_debts_under_defense_or_appeal_are_under_discussion(status, expected):
    assert discussion_of(status, date(2026, 12, 15), date(2027, 1, 20)) == expected


def _ctx(lines):
    from desktop.domain.clock import TIMEZONE

    meta = DocumentMeta(number="0001/2026", issued_at=datetime(2026, 11, 30, 10, 0, tzinfo=TIMEZONE), issued_by="")
    return make_context(MunicipalityHeader(), meta, infractor_name="Joana", infractor_document="12345678909",
                        as_of=date(2026, 11, 30), lines=lines, upfm_value_today=Decimal("117.51"))


def test_reais_are_the_sum_of_the_lines_refunds_and_discussion_apart():
    lines = [
        # issue 28.3: 72,04 UPFM of fines: reais are the lines' own (at each debit's value), not 72,04 × today
        StatementLine(date(2025, 3, 1), "Multa", "0001/2025", Decimal("40"), Decimal("0"), Decimal("216.00"),
                      "debit"),
        StatementLine(date(2026, 3, 1), "Multa", "0002/2026", Decimal("32.04"), Decimal("0"), Decimal("3765.02"),
                      "debit"),
        StatementLine(date(2026, 4, 1), "Pagamento", "0003/2026", Decimal("0"), Decimal("10"), Decimal("1175.10"),
                      "payment"),
        StatementLine(date(2026, 4, 2), "Restituição", "0003/2026", Decimal("10"), Decimal("0"), Decimal("1175.10"),
                      "refund"),
        StatementLine(date(2026, 11, 2), "Multa", "0040/2026", Decimal("20"), Decimal("0"), Decimal("2350.20"),
                      "debit", "Em recurso até 20/01/2027"),
    ]
    ctx = _ctx(lines)
    assert ctx.balance_upfm == Decimal("62.04")
    assert ctx.balance_reais == Decimal("216.00") + Decimal("3765.02") - Decimal("1175.10")
    assert [r.reference for r in ctx.refunds] == ["0003/2026"]
    assert [r.reference for r in ctx.under_discussion] == ["0040/2026"]
    from io import BytesIO

    from pypdf import PdfReader

    from desktop.reports.statement import render
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(BytesIO(render(ctx))).pages)
    assert "Restituições devidas ao infrator" in text and "Total a restituir ao infrator: R$ 1.175,10" in text
    assert "Débitos em discussão" in text and "Em recurso até 20/01/2027" in text
    assert "R$ 2.805,92" in text
