"""ISSQN per vehicle (issue 13; Art. 11; SPEC §3 "Taxes"): the competência run, its repetition, the split among
platforms, the guide per platform and competência, its cancellation, the substitute taxpayer, the vehicles
without a class, the month in the future and the rate outside 2–5 %. Each test runs on SQLite and PostgreSQL."""
from __future__ import annotations

import csv
from datetime import date, datetime
from decimal import Decimal

import pytest
from issqn_factories import build_world, classify, move
from sqlalchemy import func, select

from desktop.domain import clock
from desktop.domain.roles import Role
from desktop.errors import ConflictError, PermissionDenied, ValidationError
from desktop.models import AuditEntry, IssqnClass, IssqnShare, PaymentGuide
from desktop.reports.febraban import is_valid_barcode
from desktop.services import issqn, parameters

D = Decimal


def _shares(db, year, month):
    with db.session(write=False) as s:
        return [(r.platform_id, r.driver_id, r.amount, r.guide_id, r.status) for r in s.scalars(
            select(IssqnShare).where(IssqnShare.year == year, IssqnShare.month == month).order_by(IssqnShare.id))]


def test_art11_run_counts_each_active_vehicle_once_splits_and_lists_the_unclassified(db):
    w = build_world(db)
    classify(w, 0)               # both platforms: 3000 × 3 % = 90.00 → 45 + 45
    classify(w, 1, "PARCIAL")    # 1000.01 × 3 % = 30.0003 → 30.00 to the first platform
    classify(w, 2)               # 90.00, one platform
    # vehicle 3 has no class: a problem, not skipped silently
    result = issqn.run_competence(db, w.gestor, 2026, 10)
    assert (result.vehicles, result.total, result.rate, result.pro_rata) == (3, D("210.00"), D("3"), False)
    assert [p.plate_display for p in result.without_class] == ["QAB4C04"]
    assert "sem classe" in result.without_class[0].message
    assert "3 veículos" in result.summary() and "R$ 210,00" in result.summary().replace("\xa0", " ")
    rows = issqn.share_rows(db, w.gestor, 2026, 10)
    assert [(r.plate_display, r.platform_name, r.amount) for r in rows] == [
        ("QAB1D23", "Vai Já", D("45.00")), ("QAB1D23", "Rota Serra", D("45.00")),
        ("QAB2C02", "Vai Já", D("30.00")), ("QAB3C03", "Vai Já", D("90.00"))]
    assert rows[0].class_code == "INTEGRAL" and rows[0].days_active == 31 and rows[0].base == D("3000.00")
    assert rows[0].situation == "Sem guia" and rows[0].driver_cpf_display == "529.982.247-25"
    totals = issqn.month_totals(db, w.gestor, 2026, 10)
    assert [(p.platform_name, p.vehicles, p.total) for p in totals.platforms] == [
        ("Rota Serra", 1, D("45.00")), ("Vai Já", 3, D("165.00"))]
    assert totals.total == D("210.00") and totals.vehicles == 3
    assert [v.plate_display for v in issqn.unclassified_vehicles(db, w.gestor, 2026, 10)] == ["QAB4C04"]
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "issqn.run")) == 1
    before = _shares(db, 2026, 10)
    again = issqn.run_competence(db, w.gestor, 2026, 10)        # repeated with nothing new: nothing rewritten
    assert (again.vehicles, again.total, again.computed) == (3, D("210.00"), 0) and _shares(db, 2026, 10) == before


def test_art11_split_cents_go_to_the_first_platform_and_designation_takes_it_all(db):
    w = build_world(db)
    issqn.new_class_base(db, w.gestor, "INTEGRAL", D("3000.33"), date(2026, 10, 1), "Nova pesquisa de faturamento")
    classify(w, 0)               # 3000.33 × 3 % = 90.0099 → 90.01: 45.01 + 45.00
    issqn.run_competence(db, w.gestor, 2026, 10)
    assert [(p, a) for p, _d, a, _g, _s in _shares(db, 2026, 10)] == [(w.platforms[0], D("45.01")),
                                                                     (w.platforms[1], D("45.00"))]
    issqn.designate_platform(db, w.gestor, w.vehicles[0], w.platforms[1], date(2026, 10, 1),
                             "Plataforma principal declarada pelo condutor")
    issqn.run_competence(db, w.gestor, 2026, 10)
    assert [(p, a) for p, _d, a, _g, _s in _shares(db, 2026, 10)] == [(w.platforms[1], D("90.01"))]
    # September keeps the old base (a new base is a new dated row, never an edit)
    issqn.run_competence(db, w.gestor, 2026, 9)
    assert issqn.share_rows(db, w.gestor, 2026, 9)[0].base == D("3000.00")
    with db.session(write=False) as s:
        rows = s.execute(select(IssqnClass.monthly_base, IssqnClass.valid_from, IssqnClass.valid_until)
                         .where(IssqnClass.code == "INTEGRAL").order_by(IssqnClass.valid_from)).all()
    assert rows == [(D("3000.00"), date(2026, 1, 1), date(2026, 9, 30)), (D("3000.33"), date(2026, 10, 1), None)]


def test_art24_suspended_days_do_not_count_and_pro_rata_follows_the_active_days(db):
    w = build_world(db)
    classify(w, 2)
    move(db, w.auths[2], date(2026, 10, 11), "suspended", "suspension")   # suspended 11–20/10
    move(db, w.auths[2], date(2026, 10, 21), "active", "suspension_end")
    issqn.run_competence(db, w.gestor, 2026, 10)
    row = issqn.share_rows(db, w.gestor, 2026, 10)[0]
    assert row.days_active == 21 and row.amount == D("90.00")           # any day counts the whole month
    parameters.set_parameter(db, w.gestor, "issqn_pro_rata", date(2026, 10, 1), 1)
    issqn.run_competence(db, w.gestor, 2026, 10)
    assert issqn.share_rows(db, w.gestor, 2026, 10)[0].amount == D("60.97")   # 90 × 21/31 = 60.967… half-up


def _on(day: date):
    clock.set_clock(clock.ticking(datetime(day.year, day.month, day.day, 10, 0)))


def test_art11_repeat_recalculates_without_guide_keeps_with_guide_until_cancelled(db):
    w = build_world(db)
    _on(date(2026, 11, 9))   # issued before its due date (issue 23.3: a guide issued later falls due later)
    classify(w, 1)
    classify(w, 2)
    issqn.run_competence(db, w.gestor, 2026, 10)
    guide = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)
    assert guide.number == "0001/2026" and guide.amount == D("180.00") and guide.shares == 2
    assert guide.due_on == date(2026, 11, 10)        # issqn_due_day (10) of the next month, a Tuesday
    with db.session(write=False) as s:
        row = s.get(PaymentGuide, guide.id)
        assert row.purpose == "issqn" and row.payer_document == "11222333000181" and is_valid_barcode(row.barcode)
    with pytest.raises(ConflictError, match="já foi emitida"):
        issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)
    classify(w, 1, "PARCIAL", date(2026, 10, 1))      # reclassified: the guide holds the old amount
    again = issqn.run_competence(db, w.gestor, 2026, 10)
    assert again.kept == 2 and again.total == D("180.00")
    with pytest.raises(ValidationError):
        issqn.cancel_issqn_guide(db, w.gestor, guide.id, "")
    assert issqn.cancel_issqn_guide(db, w.gestor, guide.id, "Reenquadramento do veículo QAB2C02") == 2
    recalculated = issqn.run_competence(db, w.gestor, 2026, 10)
    assert recalculated.kept == 0 and recalculated.total == D("120.00")
    shares = _shares(db, 2026, 10)
    assert [s_[4] for s_ in shares[:2]] == ["cancelled", "cancelled"]    # history kept, nothing overwritten
    new = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)
    assert new.number == "0002/2026" and new.amount == D("120.00")
    with db.session(write=False) as s:
        old = s.get(PaymentGuide, guide.id)
        assert old.status == "cancelled" and "Reenquadramento" in old.cancel_reason


def test_art11_paid_and_overdue_come_from_the_guide_row(db):
    w = build_world(db)
    classify(w, 1)
    classify(w, 2)
    _on(date(2026, 10, 5))   # issued before its due date, then read on 18/11 (overdue)
    issqn.run_competence(db, w.gestor, 2026, 9)
    guide = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 9)
    # 10/10/2026 is a Saturday and 12/10 a national holiday: due on Tuesday 13/10
    assert guide.due_on == date(2026, 10, 13)
    _on(date(2026, 11, 18))
    rows = issqn.share_rows(db, w.gestor, 2026, 9)
    assert all(r.overdue and r.situation == "Vencida" for r in rows)
    assert [u.competences for u in issqn.unpaid_platforms(db, w.gestor)] == [("09/2026",)]
    with db.session() as s:     # what the bank's return file does (the guides helper): the guide row only
        g = s.get(PaymentGuide, guide.id)
        g.status, g.paid_on, g.paid_amount = "paid", date(2026, 11, 3), g.amount_reais
    rows = issqn.share_rows(db, w.gestor, 2026, 9)
    assert all(r.situation == "Paga" and r.paid_on == date(2026, 11, 3) and not r.overdue for r in rows)
    assert issqn.month_totals(db, w.gestor, 2026, 9).paid == D("180.00")
    assert issqn.unpaid_platforms(db, w.gestor) == []
    assert issqn.share_rows(db, w.gestor, 2026, 9, situation="paid")[0].plate_display == "QAB2C02"
    assert issqn.share_count(db, w.gestor, 2026, 9, situation="overdue") == 0
    series = issqn.platform_series(db, w.gestor, 2026, 10)
    assert list(series) == ["Vai Já"] and len(series["Vai Já"]) == 12
    assert (series["Vai Já"][-2].total, series["Vai Já"][-2].paid) == (D("180.00"), D("180.00"))


def test_art11_substitute_driver_charged_once_the_platform_guide_is_overdue(db):
    w = build_world(db)
    classify(w, 1)
    classify(w, 2)
    # issue 23 point 2: a month is guided only once it has ended (the test once guided the month in progress)
    clock.set_clock(clock.ticking(datetime(2026, 11, 9, 10, 0)))
    issqn.run_competence(db, w.gestor, 2026, 10)
    issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)   # due 10/11/2026: not overdue yet
    share = issqn.share_rows(db, w.gestor, 2026, 10)[0]
    assert not next(a for a in share.actions if a.key == "charge_driver").enabled
    with pytest.raises(ConflictError, match="vencida"):
        issqn.charge_share_to_driver(db, w.gestor, share.share_id, "Plataforma não recolheu")
    _on(date(2026, 10, 5))
    issqn.run_competence(db, w.gestor, 2026, 9)
    platform_guide = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 9)   # due 13/10: overdue on 18/11
    _on(date(2026, 11, 18))
    share = issqn.share_rows(db, w.gestor, 2026, 9)[0]
    assert next(a for a in share.actions if a.key == "charge_driver").enabled
    with pytest.raises(PermissionDenied):
        clerk = w.gestor.__class__(w.gestor.user_id, "x", "x", frozenset({Role.ATENDENTE}))
        issqn.charge_share_to_driver(db, clerk, share.share_id, "Plataforma não recolheu")
    driver_guide, reissued = issqn.charge_share_to_driver(db, w.gestor, share.share_id,
                                                          "Plataforma não recolheu a competência")
    assert driver_guide.payer_document == "11144477735" and driver_guide.amount == D("90.00")
    # issue 23 point 3: both guides fall due on a date of their own (18/11 + 30 days, a Friday), never the
    # platform's old due date (the test once pinned the platform's reissued guide to it: born overdue)
    assert driver_guide.due_on == date(2026, 12, 18)
    assert reissued.amount == D("90.00") and reissued.due_on == date(2026, 12, 18) and reissued.shares == 1
    assert reissued.due_on > platform_guide.due_on
    with db.session(write=False) as s:
        old = s.get(PaymentGuide, platform_guide.id)
        assert old.status == "cancelled" and "QAB2C02" in old.cancel_reason and "substituto" in old.cancel_reason
    rows = issqn.share_rows(db, w.gestor, 2026, 9)
    assert [(r.plate_display, r.substitute, r.guide_number) for r in rows] == [
        ("QAB2C02", True, driver_guide.number), ("QAB3C03", False, reissued.number)]
    totals = issqn.month_totals(db, w.gestor, 2026, 9)
    assert totals.total == D("180.00")                       # the estimate is owed once, whoever pays it
    assert [p.platform_name for p in totals.platforms][-1].startswith("Condutores")


def test_art11_month_in_the_future_and_rate_missing_or_outside_2_to_5_percent_refused(db):
    w = build_world(db, rate=None)
    classify(w, 0)
    with pytest.raises(ValidationError) as exc:
        issqn.run_competence(db, w.gestor, 2026, 12)
    assert exc.value.problems[0].field == "month" and "ainda não começou" in exc.value.problems[0].message
    with pytest.raises(ValidationError) as exc:
        issqn.run_competence(db, w.gestor, 2026, 10)
    assert exc.value.problems[0].field == "issqn_rate_percent"
    for bad in ("1,99", "5,01"):
        with pytest.raises(ValidationError) as exc:
            parameters.set_parameter(db, w.gestor, "issqn_rate_percent", date(2026, 1, 1), bad)
        assert "LC 116/2003" in exc.value.problems[0].article
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(IssqnShare)) == 0   # nothing half-saved


def test_art11_classes_are_dated_rows_and_decisions_have_history(db):
    w = build_world(db)
    with pytest.raises(ConflictError):
        issqn.create_class(db, w.gestor, "integral", "Outra", D("1"), date(2026, 2, 1))
    with pytest.raises(ValidationError):
        issqn.new_class_base(db, w.gestor, "INTEGRAL", D("3100"), date(2025, 12, 1), "Data anterior à vigente")
    with pytest.raises(ValidationError):
        issqn.create_class(db, w.gestor, "X", "Negativa", "-1", date(2026, 1, 1))
    classify(w, 0)
    classify(w, 0, "PARCIAL", date(2026, 11, 1))
    history = issqn.vehicle_class_history(db, w.gestor, w.vehicles[0])
    assert [(h.class_code, h.valid_from) for h in history] == [("PARCIAL", date(2026, 11, 1)),
                                                               ("INTEGRAL", date(2026, 1, 1))]
    assert history[0].decided_by_name == "Chefe da Secretaria" and "declaração" in history[0].reason
    clerk = w.gestor.__class__(w.gestor.user_id, "x", "x", frozenset({Role.ATENDENTE}))
    with pytest.raises(PermissionDenied):
        issqn.decide_vehicle_class(db, clerk, w.vehicles[0], w.classes["INTEGRAL"].id, date(2026, 1, 1),
                                   "Sem permissão para decidir")


def test_export_issqn_with_the_pinned_headers(db, tmp_path):
    w = build_world(db)
    classify(w, 0)
    _on(date(2026, 11, 9))
    issqn.run_competence(db, w.gestor, 2026, 10)
    issqn.issue_issqn_guide(db, w.gestor, w.platforms[1], 2026, 10)
    _on(date(2026, 11, 18))
    out = tmp_path / "issqn.csv"
    result = issqn.export_issqn(db, w.gestor, 2026, 10, out)
    with open(out, encoding="utf-8-sig", newline="") as fh:
        lines = list(csv.reader(fh, delimiter=";"))
    assert lines[0] == ["Competência", "Plataforma", "CNPJ da plataforma", "Placa", "Condutor", "CPF", "Classe",
                        "Base estimada (R$)", "Alíquota (%)", "Dias ativos", "Valor (R$)", "Guia", "Situação",
                        "Vencimento", "Pago em"]
    assert result.rows == 2
    assert lines[1] == ["10/2026", "Rota Serra", "45.723.174/0001-10", "QAB1D23", "Condutor A da Silva",
                        "529.982.247-25", "INTEGRAL", "3000,00", "3,00", "31", "45,00", "0001/2026", "Vencida",
                        "10/11/2026", ""]
    xlsx = issqn.export_issqn(db, w.gestor, 2026, 10, tmp_path / "issqn.xlsx")
    assert xlsx.rows == 2 and xlsx.format == "xlsx"


def test_art11_a_competence_is_paid_through_the_banks_return_file(db):
    """Issue 13 end to end: run the month, issue the platform's guide, the bank's return file pays it (matched by
    its barcode, with the bank's date) and the ISSQN screen's rows and the month's totals say so."""
    from desktop.importers.bank_return import build_return
    from desktop.services import bank_returns

    w = build_world(db, febraban="0421")
    classify(w, 1)
    classify(w, 2)
    issqn.run_competence(db, w.gestor, 2026, 10)
    guide = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)
    with db.session(write=False) as s:
        row = s.get(PaymentGuide, guide.id)
        barcode, amount = row.barcode, row.amount_reais
    assert issqn.month_totals(db, w.gestor, 2026, 10).paid == D("0.00")
    content = build_return([(barcode, amount, date(2026, 11, 18))], nsa=7, generated_on=date(2026, 11, 18),
                           agreement="0421")
    report = bank_returns.import_bank_return(db, w.gestor, content, "retorno-7.txt")
    assert not report.duplicate and not report.rejected_lines
    rows = issqn.share_rows(db, w.gestor, 2026, 10)
    mine = [r for r in rows if r.guide_number == guide.number]
    assert mine and all(r.situation == "Paga" and r.paid_on == date(2026, 11, 18) for r in mine)
    assert issqn.month_totals(db, w.gestor, 2026, 10).paid == amount
    again = bank_returns.import_bank_return(db, w.gestor, content, "retorno-7.txt")
    assert again.duplicate


def test_issue28_art11_par1_notice_of_the_estimated_lancamento_per_platform_and_competence(db, make_actor):
    """CTN arts. 142, 145, 148: the estimate is a lançamento — notified with its vehicles, classes, bases, rate,
    amount, due date and the CTM's term and place to contest; a month in progress (a prévia) is no lançamento."""
    import io

    from pypdf import PdfReader

    from desktop.services.documents import archive

    w = build_world(db)
    classify(w, 0)
    classify(w, 1, "PARCIAL")
    _on(date(2026, 11, 3))
    issqn.run_competence(db, w.gestor, 2026, 10)
    gestora = make_actor(Role.GESTOR, full_name="Gabriela Gestora", office="Gestora de Tributos",
                         registration="5.001-3")       # who signs: name, office and matrícula
    with pytest.raises(ValidationError) as refused:          # the CTM's term is a parameter with no default
        issqn.print_lancamento_notice(db, gestora, w.platforms[0], 2026, 10)
    assert "prazo de impugnação" in str(refused.value.problems[0].message)
    parameters.set_parameter(db, w.gestor, issqn.CONTEST_DAYS, date(2026, 1, 1), "30", "Código Tributário Municipal")
    with pytest.raises(ConflictError, match="prévia"):
        issqn.print_lancamento_notice(db, gestora, w.platforms[0], 2026, 11)
    issued = issqn.print_lancamento_notice(db, gestora, w.platforms[0], 2026, 10)
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(issued.pdf)).pages)
    for element in ("NOTIFICAÇÃO DE LANÇAMENTO DO ISSQN ESTIMADO Nº NT-0001/2026", "Competência 10/2026",
                    "Mobilidade Chapada Ltda", "11.222.333/0001-81", "QAB1D23", "QAB2C02", "INTEGRAL", "PARCIAL",
                    "R$ 3.000,00", "R$ 1.000,01", "3,00 %", "R$ 90,00", "R$ 45,00", "R$ 30,00",
                    "Valor lançado R$ 75,00", "Vencimento 10/11/2026", "30 dias", "Onde impugnar",
                    "Secretaria Municipal de Finanças", "CTN, arts. 142, 145 e 148"):
        assert element in text, element
    assert "Gabriela Gestora" in text and "Gestora de Tributos" in text and "Matrícula nº 5.001-3" in text
    assert issued.info.kind == "notice" and issued.info.record_type == "platform"
    assert archive.archived_bytes(db, gestora, "NT-0001/2026") == issued.pdf
    with pytest.raises(ConflictError, match="Não há ISSQN estimado"):
        issqn.print_lancamento_notice(db, gestora, w.platforms[1], 2026, 9)


def test_issue28_art11_par1_the_issqn_dam_carries_the_lancamentos_calculation(db):
    """The same calculation on the DAM as on the notice: per competência and class, the base, the rate, the
    vehicles and what this guide collects."""
    import io

    from pypdf import PdfReader

    from desktop.services import documents

    w = build_world(db)
    classify(w, 0)
    classify(w, 1, "PARCIAL")
    _on(date(2026, 11, 3))
    issqn.run_competence(db, w.gestor, 2026, 10)
    guide = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)
    pdf = documents.print_guide(db, w.gestor, guide.number).pdf
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Cálculo do lançamento estimado (Art. 11, § 1º; CTN, art. 148)" in text
    assert "10/2026, classe INTEGRAL (base estimada R$ 3.000,00 × alíquota 3,00 %): 1 veículo, R$ 45,00" in text
    assert "10/2026, classe PARCIAL (base estimada R$ 1.000,01 × alíquota 3,00 %): 1 veículo, R$ 30,00" in text
    assert "repartido" in text


def test_issue28_the_issqn_dam_prints_the_issqn_codigo_da_receita_and_the_prefeituras_cnpj(db):
    import io

    from pypdf import PdfReader

    from desktop.services import documents, setup

    w = build_world(db)
    classify(w, 0)
    info = setup.get_municipality(db)
    setup.update_municipality(db, w.gestor, setup.MunicipalityDraft(
        name=info.name, uf=info.uf, secretariat=info.secretariat, ouvidoria_phone=info.ouvidoria_phone,
        cnpj="03507548000110", address="Rua Cipriano Curvo, 450 — Centro", febraban_agreement=info.febraban_agreement,
        revenue_codes=(("revenue_code_issqn", "1.1.1.8.02.01"), ("revenue_code_fine", "1.9.1.0.99.01"))),
        info.version)
    _on(date(2026, 11, 3))
    issqn.run_competence(db, w.gestor, 2026, 10)
    guide = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)
    pdf = documents.print_guide(db, w.gestor, guide.number).pdf
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Código da receita: 1.1.1.8.02.01" in text and "Código da receita 1.1.1.8.02.01" in text
    assert "1.9.1.0.99.01" not in text                       # the fine's code is not the ISSQN's
    assert "CNPJ do credor 03.507.548/0001-10" in text and "Endereço do credor Rua Cipriano Curvo, 450" in text
