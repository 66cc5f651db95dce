"""Money follows its debt (issue 23), on SQLite and PostgreSQL: a guide is the instrument of a debt, never the
debt. A reissued ISSQN guide is credited to its month when paid, a cancelled one leaves its shares open and
issuable again (Art. 11), from the Guias screen's service as from the ISSQN tab's."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest
from issqn_factories import build_world, classify
from sqlalchemy import select

from desktop.domain import clock
from desktop.models import IssqnShare, PaymentGuide
from desktop.services import guides, issqn

D = Decimal


def _at(day: date):
    clock.set_clock(clock.ticking(datetime(day.year, day.month, day.day, 10, 0)))


def _october(db):
    w = build_world(db, febraban="0421")
    classify(w, 1)
    classify(w, 2)
    _at(date(2026, 11, 9))
    issqn.run_competence(db, w.gestor, 2026, 10)
    guide = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)   # due 10/11/2026
    _at(date(2026, 11, 18))
    return w, guide


def test_art11_reissued_issqn_guide_paid_by_the_bank_credits_its_month(db):
    from desktop.importers.bank_return import build_return
    from desktop.services import bank_returns

    w, guide = _october(db)   # on 18/11 the platform's guide (due 10/11) is overdue
    new = guides.reissue_overdue_guide(db, w.gestor, guide.number, "Plataforma pediu nova guia")
    assert new.replaces_number == guide.number and new.due_on > date(2026, 11, 18)
    rows = issqn.share_rows(db, w.gestor, 2026, 10)
    assert {r.guide_number for r in rows} == {new.number}          # the shares follow the new guide
    assert all(r.situation == "Em aberto" for r in rows)
    with db.session(write=False) as s:
        row = s.get(PaymentGuide, new.id)
        barcode, amount = row.barcode, row.amount_reais
        history = s.scalars(select(IssqnShare).where(IssqnShare.guide_id == guide.id)).all()
        assert history and all(h.status == "cancelled" and new.number in h.cancel_reason for h in history)
    content = build_return([(barcode, amount, date(2026, 11, 18))], nsa=3, generated_on=date(2026, 11, 18),
                           agreement="0421")
    report = bank_returns.import_bank_return(db, w.gestor, content, "retorno-3.txt")
    assert not report.rejected_lines
    rows = issqn.share_rows(db, w.gestor, 2026, 10)
    assert rows and all(r.situation == "Paga" and r.paid_on == date(2026, 11, 18) for r in rows)
    totals = issqn.month_totals(db, w.gestor, 2026, 10)
    assert totals.total == D("180.00") and totals.paid == D("180.00")
    assert issqn.unpaid_platforms(db, w.gestor) == []


def test_art11_issqn_guide_cancelled_on_the_guides_screen_can_be_issued_again(db):
    w, guide = _october(db)
    cancelled = guides.cancel_guide(db, w.gestor, guide.number, "Emitida com o CNPJ errado")
    assert cancelled.status == "cancelled"
    rows = issqn.share_rows(db, w.gestor, 2026, 10)
    assert rows and all(r.guide_number == "" and r.situation == "Sem guia" for r in rows)
    assert all(next(a for a in r.actions if a.key == "issue_guide").enabled for r in rows)
    totals = issqn.month_totals(db, w.gestor, 2026, 10)
    assert totals.platforms[0].without_guide == D("180.00")
    assert [u.competences for u in issqn.unpaid_platforms(db, w.gestor)] == [("10/2026",)]
    again = issqn.run_competence(db, w.gestor, 2026, 10)
    assert again.kept == 0 and "mantidos" not in again.summary()
    second = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)
    assert second.number != guide.number and second.amount == D("180.00") and second.shares == 2


@pytest.mark.parametrize("path", ["guias", "issqn"])
def test_art11_cancelling_either_way_leaves_the_debt_open_never_lost(db, path):
    w, guide = _october(db)
    if path == "guias":
        guides.cancel_guide(db, w.gestor, guide.number, "Guia emitida em duplicidade")
    else:
        issqn.cancel_issqn_guide(db, w.gestor, guide.id, "Guia emitida em duplicidade")
    with db.session(write=False) as s:
        open_shares = s.scalars(select(IssqnShare).where(IssqnShare.year == 2026, IssqnShare.month == 10,
                                                         IssqnShare.status == "open")).all()
    assert sum(Decimal(sh.amount) for sh in open_shares) == D("180.00")
    assert all(sh.guide_id is None and sh.replaces_id is not None for sh in open_shares)


# ------------------------------------------------------------------------ issue 23 point 2: the month in progress
def test_art11_month_in_progress_is_a_preview_without_guide(db, tmp_path):
    import csv

    from desktop.errors import ValidationError

    w = build_world(db)
    classify(w, 1)
    _at(date(2026, 12, 2))
    run = issqn.run_competence(db, w.gestor, 2026, 12)
    assert run.preview and run.summary().startswith("PRÉVIA")
    rows = issqn.share_rows(db, w.gestor, 2026, 12)
    assert rows and all(r.situation == "Prévia" for r in rows)
    action = next(a for a in rows[0].actions if a.key == "issue_guide")
    assert not action.enabled and "ainda não terminou" in action.reason
    with pytest.raises(ValidationError, match="ainda não terminou"):
        issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 12)
    out = tmp_path / "dez.csv"
    issqn.export_issqn(db, w.gestor, 2026, 12, out)
    with open(out, encoding="utf-8-sig", newline="") as fh:
        lines = list(csv.reader(fh, delimiter=";"))
    assert lines[1][12] == "Prévia (mês em curso)"
    pdf = issqn.report_pdf(db, w.gestor, 2026, 12)
    from io import BytesIO

    from pypdf import PdfReader
    text = " ".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages)
    assert "PRÉVIA" in text
    # from the first day of the following month the same run is no prévia and the guide is issued
    _at(date(2027, 1, 4))
    final = issqn.run_competence(db, w.gestor, 2026, 12)
    assert not final.preview
    guide = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 12)
    assert guide.amount == D("90.00")


def test_cli_guide_issqn_for_the_month_in_progress_exits_1(db, tmp_path, capsys, monkeypatch):
    from desktop import cli

    monkeypatch.setattr("getpass.getpass", lambda prompt="": "senha-forte-2025")   # issue 28: a named user

    w = build_world(db)
    classify(w, 1)
    issqn.run_competence(db, w.gestor, 2026, 11)     # the suite's clock: 18/11/2026
    capsys.readouterr()
    code = cli.main(["--db", db.url, "guide", "--issqn", "2026-11", "--platform", "11222333000181",
                     "--out", str(tmp_path / "g.pdf"), "--user", "chefe"])
    assert code == 1
    assert "a competência ainda não terminou" in capsys.readouterr().err
    assert not (tmp_path / "g.pdf").exists()


def test_issqn_report_lists_every_vehicle_at_its_own_rate_with_platform_subtotals(db):
    from io import BytesIO

    from pypdf import PdfReader

    w, guide = _october(db)
    pdf = issqn.report_pdf(db, w.gestor, 2026, 10)
    text = " ".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages)
    for plate in ("QAB2C02", "QAB3C03"):
        assert plate in text
    lines = [line.strip() for line in text.splitlines()]
    assert "Subtotal" in lines and "Vai Já" in lines and "3,00 %" in lines
    # nothing wraps inside its cell: the CNPJ, the guide number and the amounts come back whole
    assert "11.222.333/0001-81" in lines and guide.number in lines and "180,00" in lines
    assert "Condutor B da Silva" in lines


# ------------------------------------------------------------------------------- issue 23 point 3: due dates
def test_art11_a_guide_issued_after_the_legal_due_date_is_not_born_overdue(db):
    from desktop.services import parameters

    w = build_world(db)
    classify(w, 1)
    parameters.set_parameter(db, w.gestor, "late.fine_percent", date(2026, 1, 1), "2", "CTM, art. 200")
    parameters.set_parameter(db, w.gestor, "late.interest_percent", date(2026, 1, 1), "1", "CTM, art. 201")
    issqn.run_competence(db, w.gestor, 2026, 10)             # 18/11: the tax fell due on 10/11
    guide = issqn.issue_issqn_guide(db, w.gestor, w.platforms[0], 2026, 10)
    assert guide.due_on == date(2026, 12, 18)                # 18/11 + 30 days (guide.fee_days)
    assert guide.amount == D("90.00") + D("1.80") + D("1.80")   # CTM late charges from 10/11: 2 % + 1 % × 2 months


def test_art11_substitute_and_reissued_platform_guides_are_never_born_overdue_and_carry_late_charges(db):
    from desktop.services import parameters

    w, guide = _october(db)
    parameters.set_parameter(db, w.gestor, "late.fine_percent", date(2026, 1, 1), "2", "CTM, art. 200")
    parameters.set_parameter(db, w.gestor, "late.interest_percent", date(2026, 1, 1), "1", "CTM, art. 201")
    _at(date(2026, 11, 24))   # Tuesday; the platform's guide fell due on 10/11
    share = issqn.share_rows(db, w.gestor, 2026, 10)[0]
    driver_guide, platform_guide = issqn.charge_share_to_driver(db, w.gestor, share.share_id,
                                                                "Plataforma não recolheu a competência")
    assert driver_guide.due_on == date(2026, 12, 24) and platform_guide.due_on == date(2026, 12, 24)
    # the platform's remaining share, late since 10/11: 2 % fine + 1 % for each month or fraction (2 months)
    assert platform_guide.amount == D("90.00") + D("1.80") + D("1.80")
    with db.session(write=False) as s:
        row = s.get(PaymentGuide, platform_guide.id)
        assert row.replaces_id == guide.id and row.late_charges_reais == D("3.60")


def test_art3_par2_renewal_fee_guide_falls_due_before_the_authorization_ends(db, make_actor):
    from datetime import timedelta

    from desktop.services import authorizations as auth
    from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize
    from tests.db.registry_factories import Desk, active

    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=D("5.55"), pix_key="12345678000195",
        febraban_agreement="0421"), AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    desk = Desk(make_actor)
    from desktop.services import parameters
    parameters.set_parameter(db, desk.manager, "fee.renewal", date(2026, 1, 1), Decimal("10"), "CTM, art. 90")
    today = date(2026, 11, 18)
    a = active(db, desk, on=today - timedelta(days=355))           # valid through 28/11/2026 (a Saturday)
    a = auth.request_renewal(db, desk.clerk, a.id, today, a.version)
    g = guides.issue_fee_guide(db, desk.clerk, authorization_id=a.id, kind="renewal")
    assert a.valid_until == date(2026, 11, 28)
    assert g.due_on == date(2026, 11, 27) <= a.valid_until     # not 18/12, after the authorization ended


def test_art8_par2_a_mid_month_substitution_is_one_estimate_for_the_vehicle_in_service_at_the_months_end(db):
    from desktop.models import Authorization, AuthorizationEvent, IssqnEstimate, Vehicle
    from issqn_factories import at

    w = build_world(db, n=2)
    classify(w, 1)
    with db.session() as s:
        new = Vehicle(plate="QAB9Z99", renavam="00123456799", make="Fiat", model="Cronos", manufacture_year=2022,
                      model_year=2022, colour="branco", doors=4, seats=5, air_conditioning=True,
                      registration_municipality="Chapada dos Guimarães", registration_uf="MT")
        s.add(new)
        s.flush()
        a = s.get(Authorization, w.auths[1])
        s.add(AuthorizationEvent(authorization_id=a.id, kind="substitution", from_status="active", to_status="active",
                                 at=at(date(2026, 10, 15)), effective_on=date(2026, 10, 15),
                                 old_vehicle_id=a.vehicle_id, new_vehicle_id=new.id))
        a.vehicle_id = new.id
        new_id = new.id
    issqn.decide_vehicle_class(db, w.gestor, new_id, w.classes["INTEGRAL"].id, date(2026, 10, 15),
                               "Veículo substituto na mesma classe")
    run = issqn.run_competence(db, w.gestor, 2026, 10)
    with db.session(write=False) as s:
        rows = s.execute(select(IssqnEstimate.vehicle_id, IssqnEstimate.amount, IssqnEstimate.days_active)
                         .where(IssqnEstimate.year == 2026, IssqnEstimate.month == 10,
                                IssqnEstimate.authorization_id == w.auths[1])).all()
    assert [(r.vehicle_id, r.amount, r.days_active) for r in rows] == [(new_id, D("90.00"), 31)]
    assert run.vehicles == 1 and run.total == D("90.00")
