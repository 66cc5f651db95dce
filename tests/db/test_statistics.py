"""Statistics (issue 16, Relatórios → Estatísticas): each figure computed in SQL per month, on both databases,
checked against the same figure counted in Python from the rows themselves (a demo database of 150 drivers)."""
from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import select

from desktop.domain.roles import Role
from desktop.errors import PermissionDenied, ValidationError
from desktop.models import Auto, Authorization, AuthorizationEvent, Fee, Inspection, LedgerEntry
from desktop.services import statistics as st
from desktop.demo.entry import load_demo
from desktop.services.statistics import Month, Period

TODAY = date(2026, 11, 18)
PERIOD = Period(Month(2025, 12), Month(2026, 11))


@pytest.fixture
def demo(db):
    load_demo(db, drivers=150, seed=7, today=TODAY)
    return db


@pytest.fixture
def gestor(make_actor):
    return make_actor(Role.GESTOR)


def _cell(table, row_label, header):
    row = next(r for r in table.rows if r[0] == row_label)
    return row[table.headers.index(header)]


def test_period_months_and_labels():
    assert [m.key for m in PERIOD.months][:2] == ["2025-12", "2026-01"] and len(PERIOD.months) == 12
    assert PERIOD.start == date(2025, 12, 1) and PERIOD.end == date(2026, 12, 1)
    assert Month(2026, 11).label == "nov/2026"
    assert Period.last_months(12, date(2026, 11, 18)) == PERIOD
    assert st.period_problems(Period(Month(2026, 5), Month(2026, 1)))[0].field == "period"


def test_new_authorizations_and_time_to_activation_match_the_rows(demo, gestor):
    with demo.session(write=False) as s:
        rows = s.execute(select(Authorization.activated_on, Authorization.protocol_date)
                         .where(Authorization.activated_on.is_not(None))).all()
    expected = Counter(Month.of(a).key for a, _ in rows if PERIOD.start <= a < PERIOD.end)
    table = st.statistic(demo, gestor, "new_authorizations", PERIOD)
    assert [int(s) for s in table.series[0].values] == [expected.get(m.key, 0) for m in PERIOD.months]
    assert sum(expected.values()) > 0
    times = st.statistic(demo, gestor, "time_to_activation", PERIOD)
    month = max(expected, key=expected.get)
    days = sorted((a - p).days for a, p in rows if Month.of(a).key == month)
    from statistics import median

    label = Month.parse(month).label
    assert _cell(times, label, "Ativações") == str(len(days))
    assert times.series[0].values[[m.key for m in PERIOD.months].index(month)] == pytest.approx(median(days))


def test_authorizations_by_status_at_month_end_match_the_current_statuses(demo, gestor):
    """At the end of the current month the stock per status is today's status of every authorization."""
    table = st.statistic(demo, gestor, "authorizations_by_status", PERIOD)
    with demo.session(write=False) as s:
        current = Counter(s.scalars(select(Authorization.status)).all())
        events = s.scalar(select(AuthorizationEvent.id).limit(1))
    assert events is not None
    last = {series.name: int(series.values[-1]) for series in table.series}
    assert last["Ativa"] == current["active"]
    assert last["Requerida"] == current["requested"]
    assert last["Suspensa"] == current["suspended"]
    assert table.chart == "stacked" and table.headers[0] == "Mês"


def test_inspections_autos_recurrences_match_the_rows(demo, gestor):
    from desktop.domain.clock import TIMEZONE

    with demo.session(write=False) as s:
        done = s.execute(select(Inspection.performed_at, Inspection.result).where(Inspection.status == "done")).all()
        autos = s.execute(select(Auto.drawn_up_at, Auto.code, Auto.recurrence, Auto.status)).all()
    failed = Counter(Month.of(p.astimezone(TIMEZONE).date()).key for p, r in done if r == "failed" and p)
    table = st.statistic(demo, gestor, "inspections", PERIOD)
    keys = [m.key for m in PERIOD.months]
    assert [int(v) for v in table.series[1].values] == [failed.get(k, 0) for k in keys]
    by_code = Counter(code for at, code, _rec, status in autos
                      if status != "cancelled" and PERIOD.start <= at.astimezone(TIMEZONE).date() < PERIOD.end)
    codes = st.statistic(demo, gestor, "autos_by_code", PERIOD)
    assert {r[0]: int(r[-1]) for r in codes.rows} == dict(by_code)
    assert sum(by_code.values()) > 0
    rec = st.statistic(demo, gestor, "recurrences", PERIOD)
    expected_rec = sum(1 for at, _c, recur, status in autos if recur and status != "cancelled"
                       and PERIOD.start <= at.astimezone(TIMEZONE).date() < PERIOD.end)
    assert sum(int(v) for v in rec.series[0].values) == expected_rec


def test_revenue_counts_payments_minus_reversed_payments_fees_and_issqn(demo, gestor):
    with demo.session(write=False) as s:
        entries = s.execute(select(LedgerEntry.id, LedgerEntry.kind, LedgerEntry.amount_reais,
                                   LedgerEntry.effective_on, LedgerEntry.reverses_id)).all()
        fees = s.execute(select(Fee.paid_on, Fee.paid_amount, Fee.amount_reais).where(Fee.status == "paid")).all()
    kinds = {e.id: e.kind for e in entries}
    fines = -sum((e.amount_reais for e in entries if PERIOD.start <= e.effective_on < PERIOD.end and
                  (e.kind == "payment" or (e.kind == "reversal" and kinds.get(e.reverses_id) == "payment"))),
                 Decimal(0))
    fee_total = sum(((p or a) for d, p, a in fees if PERIOD.start <= d < PERIOD.end), Decimal(0))
    table = st.statistic(demo, gestor, "revenue", PERIOD)
    assert Decimal(str(round(sum(table.series[0].values), 2))) == fines.quantize(Decimal("0.01"))
    assert Decimal(str(round(sum(table.series[1].values), 2))) == fee_total.quantize(Decimal("0.01"))
    assert table.headers == ("Mês", "Multas", "Taxas", "ISSQN", "Total")
    assert table.totals[0] == "Total" and table.totals[-1].startswith("R$")


def test_divida_ativa_lists_what_is_still_owed(demo, gestor):
    table = st.statistic(demo, gestor, "divida_ativa", Period(Month(2025, 6), Month(2026, 11)))
    with demo.session(write=False) as s:
        n = len(s.scalars(select(Auto.id).where(Auto.status == "divida_ativa")).all())
    assert int(table.totals[1]) <= n


def test_all_statistics_for_the_report_and_refusals(demo, gestor, make_actor):
    tables = st.all_statistics(demo, gestor, PERIOD)
    assert [t.key for t in tables] == [d.key for d in st.STATISTICS]
    assert all(len(t.rows[0]) == len(t.headers) for t in tables if t.rows)
    vistoriador = make_actor(Role.VISTORIADOR)
    with pytest.raises(PermissionDenied):
        st.statistic(demo, vistoriador, "revenue", PERIOD)
    with pytest.raises(ValidationError):
        st.statistic(demo, gestor, "revenue", Period(Month(2026, 11), Month(2025, 1)))
    with pytest.raises(ValidationError):
        st.statistic(demo, gestor, "nao-existe", PERIOD)


def _pdf_text(data: bytes) -> str:
    import io

    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_management_report_pdf_has_every_statistic_and_is_archived(demo, gestor):
    from desktop.services import documents

    issued = st.management_report(demo, gestor, Month(2026, 11))
    assert issued.pdf.startswith(b"%PDF")
    text = _pdf_text(issued.pdf)
    assert "RELATÓRIO GERENCIAL MENSAL" in text and "Novembro de 2026" in text
    for definition in st.STATISTICS:
        assert definition.title in text
    assert "Arrecadação do mês" in text
    archived = [d for d in documents.list_issued(demo, gestor) if d.kind == "management_report"]
    assert [d.number for d in archived] == [issued.info.number]
    assert documents.archived_bytes(demo, gestor, issued.info.number) == issued.pdf
    with pytest.raises(ValidationError):
        st.management_report(demo, gestor, Month(2027, 1))


def test_export_pdf_of_one_statistic_and_xlsx_keeps_numbers(demo, gestor):
    import io

    from openpyxl import load_workbook

    issued = st.export_pdf(demo, gestor, ["revenue"], PERIOD)
    assert "ARRECADAÇÃO POR MÊS" in _pdf_text(issued.pdf)
    data = st.export_xlsx(demo, gestor, ["revenue", "autos_by_code"], PERIOD)
    wb = load_workbook(io.BytesIO(data))
    assert wb.sheetnames == ["Arrecadação por mês", "Autos de infração por código"]
    ws = wb["Arrecadação por mês"]
    assert [c.value for c in ws[4]] == ["Mês", "Multas", "Taxas", "ISSQN", "Total"]
    assert ws.cell(5, 1).value == "dez/2025" and isinstance(ws.cell(5, 2).value, (int, float))
    assert ws.cell(ws.max_row, 1).value == "Total"
