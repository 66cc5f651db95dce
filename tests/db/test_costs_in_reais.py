"""Issue 23 point 6: the Art. 28 costs (removal and storage of the vehicle) are a debt in reais with their own label
and article — "Custas (Art. 28)" — on the statement, the dívida ativa export and its certidão, a line apart, never
added to the fine's UPFM nor converted at a UPFM, whatever the year they are charged in. On SQLite and PostgreSQL.

The story: a fine of 10 UPFM at the auto's value, R$ 3,12525 (R$ 31,25), and R$ 180,00 of costs charged in another
year, when the UPFM was R$ 5,40 (converted, they read 33,3333 UPFM — "43,33 UPFM" beside the fine, and R$ 135,42
once valued at the fine's UPFM)."""
from __future__ import annotations

import csv
import io
from datetime import date
from decimal import Decimal

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from desktop.domain.penalties import AdministrativeMeasure
from desktop.models import LedgerEntry
from desktop.services import autos, ledger, penalties
from desktop.services.documents import print_kind, printing
from desktop.services.enforcement_jobs import run_enforcement_jobs
from desktop.services.exports import DIVIDA_ATIVA_HEADERS
from desktop.services.ledger import PaymentDraft
from desktop.services.penalties import MeasureDraft
from tests.db.enforcement_factories import (
    authorized_driver,
    draft,
    final_without_defense,
    frozen_today,  # noqa: F401 (autouse: pins today)
    municipality_staff,
)

COSTS = "Custas (Art. 28) — remoção e estada do veículo"


@pytest.fixture
def people(db, make_actor):
    return municipality_staff(db, make_actor)


def text_of(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())


def _overdue_fine_with_costs(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db, "Devedor das Custas")
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2025, 9, 1), driver_id=driver_id))
    final_without_defense(db, fiscal, auto, date(2025, 9, 2))
    run_enforcement_jobs(db, date(2025, 12, 30))                  # the payment term passed: overdue
    removal = penalties.record_measure(db, fiscal, MeasureDraft(
        AdministrativeMeasure.RETENTION_OR_REMOVAL, date(2025, 10, 1), auto_id=auto.id))
    penalties.charge_costs(db, atendente, removal.id, Decimal("180.00"), date(2025, 10, 3),
                           "Guincho e 4 diárias de pátio", removal.version)
    with db.session(write=False) as s:
        from desktop.models import Driver
        cpf = s.get(Driver, driver_id).cpf
    return auto, cpf


def test_art28_costs_are_reais_on_the_ledger_the_statement_the_export_and_the_certidao(db, people, tmp_path):
    fiscal, gestor, atendente = people
    auto, cpf = _overdue_fine_with_costs(db, people)
    with db.session(write=False) as s:
        costs = s.scalar(select(LedgerEntry).where(LedgerEntry.kind == "costs", LedgerEntry.auto_id == auto.id))
        assert (costs.amount_upfm, costs.amount_reais) == (Decimal("0"), Decimal("180.00"))   # never converted
    assert ledger.auto_balance(db, gestor, auto.id) == Decimal("10")            # the fine's UPFM alone

    # the statement: the fine in UPFM at the debit's value, the costs in R$ on their own line
    text = text_of(printing.print_statement(db, gestor, cpf, date(2026, 11, 30)).pdf)
    assert f"{COSTS} – auto nº {auto.number}" in text and "R$ 180,00" in text
    assert ("multas 10,00 UPFM, equivalentes a R$ 31,25 (cada uma pelo valor da UPFM usado no seu débito); "
            "custas (Art. 28), em reais: R$ 180,00; total R$ 211,25") in text
    assert "33,33" not in text and "43,33" not in text

    # the dívida ativa export: the pinned headers, the fine in UPFM and the costs in reais, one line each
    from desktop import cli

    out = tmp_path / "da.csv"
    assert cli.main(["--db", db.url, "export", "divida_ativa", "--out", str(out)]) == 0
    with open(out, encoding="utf-8-sig", newline="") as fh:
        lines = list(csv.reader(fh, delimiter=";"))
    assert tuple(lines[0]) == DIVIDA_ATIVA_HEADERS == (
        "Débito", "Auto / guia", "Devedor", "CPF/CNPJ", "Situação", "Vencimento", "Dias em atraso", "Saldo (UPFM)",
        "Saldo (R$)")
    rows = [(r[0], r[7], r[8]) for r in lines[1:] if r[1] == auto.number]
    assert rows == [("Multa (Art. 25)", "10,00", "31,25"), (COSTS, "", "180,00")]

    # the certidão of the inscribed debt
    assert ledger.send_to_divida_ativa(db, gestor, [auto.id], date(2026, 3, 2)) == 1
    text = text_of(print_kind(db, gestor, "divida_ativa", auto.number).pdf)
    for element in ("Valor originário da multa 10,00 UPFM ×", "(UPFM do ano da lavratura, Art. 25) = R$ 31,25",
                    "Multa devida (pagamentos deduzidos) R$ 31,25", f"{COSTS} (em reais) R$ 180,00",
                    "Total inscrito R$ 211,25", "custas de remoção e estada do veículo (Art. 28), em reais"):
        assert element in text, element
    assert "33,33" not in text


def test_art28_a_payment_settles_the_fine_first_in_upfm_then_the_costs_in_reais(db, people):
    fiscal, gestor, atendente = people
    auto, cpf = _overdue_fine_with_costs(db, people)
    first = ledger.record_payment(db, atendente, PaymentDraft(auto.id, date(2026, 3, 2), Decimal("100.00")))
    assert (first.amount_upfm, first.amount_reais) == (Decimal("-10"), Decimal("-100.00"))   # the fine, closed
    text = text_of(printing.print_statement(db, gestor, cpf, date(2026, 11, 30)).pdf)
    assert ("multas 0,00 UPFM, equivalentes a R$ 0,00 (cada uma pelo valor da UPFM usado no seu débito); "
            "custas (Art. 28), em reais: R$ 111,25; total R$ 111,25") in text
    rest = ledger.record_payment(db, atendente, PaymentDraft(auto.id, date(2026, 3, 3), Decimal("111.25")))
    assert (rest.amount_upfm, rest.amount_reais) == (Decimal("0"), Decimal("-111.25"))       # costs: reais only
    assert ledger.auto_balance(db, gestor, auto.id) == Decimal("0")
    assert autos.get_auto(db, gestor, auto.id).auto.status_label == "Pago"          # fine and costs settled
    # a costs entry posted in error is undone by a reversal of reais only
    with db.session(write=False) as s:
        costs_id = s.scalar(select(LedgerEntry.id).where(LedgerEntry.kind == "costs", LedgerEntry.auto_id == auto.id))
    undone = ledger.reverse_entry(db, gestor, costs_id, "Custas lançadas no auto errado")
    assert (undone.amount_upfm, undone.amount_reais) == (Decimal("0"), Decimal("-180.00"))
