"""The money desk follows the debt (issue 23 points 4, 5, 6, 8), on SQLite and PostgreSQL: a fine paid through the
bank reads paid and takes no second payment or guide; a returned payment shows on its guide; the statement is in
reais at each debit's value; the bank's file must be the municipality's."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select

from desktop.domain import clock
from desktop.domain.roles import Role
from desktop.errors import ConflictError
from desktop.models import LedgerEntry, PaymentGuide
from desktop.services import autos, guides, ledger
from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize
from tests.db.enforcement_factories import draft, frozen_today, make_driver, notify  # noqa: F401 (autouse)
from tests.db.registry_factories import Desk

UPFM = Decimal("5.55")


@pytest.fixture(autouse=True)
def monday():
    clock.set_clock(clock.ticking(datetime(2026, 11, 30, 10, 0)))
    yield


@pytest.fixture
def office(db, make_actor):
    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=UPFM, pix_key="12345678000195",
        febraban_agreement="0421"), AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    desk = Desk(make_actor)
    desk.admin = make_actor(Role.ADMINISTRADOR, full_name="Adriana Administradora")
    return desk


def _bank_file(db, rows, nsa=1, generated_on=date(2026, 11, 30), agreement="0421", bank="001"):
    from desktop.importers.bank_return import build_return

    return build_return(rows, nsa=nsa, generated_on=generated_on, agreement=agreement, bank_code=bank)


def _notified_fine_guide(db, office):
    driver_id = make_driver(db, "Maria Infratora")
    auto = autos.draw_up_auto(db, office.fiscal, draft("ART26-III", date(2026, 11, 2), driver_id=driver_id))
    notify(db, office.fiscal, auto, date(2026, 11, 3))
    g = guides.issue_fine_guide(db, office.clerk, auto.number)
    with db.session(write=False) as s:
        barcode = s.get(PaymentGuide, g.id).barcode
    return auto, g, barcode


def test_issue28_art22_dam_of_a_notified_fine_says_payment_waives_no_defense_or_appeal(db, office):
    import io

    from pypdf import PdfReader

    from desktop.services import documents

    auto, g, _barcode = _notified_fine_guide(db, office)
    pdf = documents.print_guide(db, office.clerk, g.number).pdf
    text = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(pdf)).pages).split())
    assert f"Auto nº {auto.number} no prazo de defesa prévia" in text
    assert "o pagamento não implica renúncia ao recurso nem à defesa prévia (Art. 22, caput)" in text


def test_art13_xxi_fine_paid_through_the_bank_reads_paid_and_takes_no_second_payment(db, office):
    from desktop.services import bank_returns

    auto, g, barcode = _notified_fine_guide(db, office)
    report = bank_returns.import_bank_return(db, office.manager, _bank_file(db, [(barcode, g.amount_reais,
                                                                                  date(2026, 11, 30))]), "r1.txt")
    assert not report.rejected_lines
    detail = autos.get_auto(db, office.manager, auto.id)
    assert detail.auto.status_label == "Notificado — multa paga"
    payment = next(a for a in detail.auto.actions if a.key == "payment")
    assert not payment.enabled and "paga" in payment.reason
    with pytest.raises(ConflictError, match="não tem saldo"):
        guides.issue_fine_guide(db, office.clerk, auto.number)
    # the bank returns the payment: the guide says so and the fine is payable again
    with db.session(write=False) as s:
        entry_id = s.scalar(select(LedgerEntry.id).where(LedgerEntry.kind == "payment",
                                                         LedgerEntry.guide_number == g.number))
    ledger.reverse_entry(db, office.manager, entry_id, "Pagamento devolvido pelo banco (cheque sem fundos)")
    info = guides.get_guide(db, office.clerk, g.number)
    assert info.status == "paid" and info.state_label == "Pagamento devolvido"
    detail = autos.get_auto(db, office.manager, auto.id)
    assert detail.auto.status_label == "Notificado"
    assert next(a for a in detail.auto.actions if a.key == "payment").enabled


# ------------------------------------------------------------------------------ issue 23 point 8: the bank file
def _configure_bank(db, office, bank="001"):
    from desktop.services import setup

    with db.session() as s:
        from desktop.models import MunicipalitySettings
        version = s.get(MunicipalitySettings, 1).version
    draft = setup.MunicipalityDraft(name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de "
                                    "Finanças", ouvidoria_phone="(65) 3301-1234", pix_key="12345678000195",
                                    febraban_agreement="0421", febraban_bank=bank)
    setup.update_municipality(db, office.admin, draft, version)


@pytest.mark.parametrize("kwargs, field, words", [
    ({"bank": "237"}, "A.05", ("237", "001")),
    ({"agreement": "9999"}, "A.03", ("9999", "0421")),
    ({"generated_on": date(2026, 12, 1)}, "A.07", ("01/12/2026",)),
])
def test_bank_file_of_another_bank_convenio_or_of_tomorrow_is_refused_naming_both(db, office, kwargs, field, words):
    from desktop.errors import ValidationError
    from desktop.models import BankReturnFile
    from desktop.services import bank_returns

    _configure_bank(db, office)
    auto, g, barcode = _notified_fine_guide(db, office)
    content = _bank_file(db, [(barcode, g.amount_reais, date(2026, 11, 30))], **kwargs)
    with pytest.raises(ValidationError) as exc:
        bank_returns.import_bank_return(db, office.manager, content, "outro.txt")
    problem = next(p for p in exc.value.problems if p.field == field)
    assert all(w in problem.message for w in words)
    with db.session(write=False) as s:
        assert s.scalar(select(BankReturnFile.id)) is None                   # nothing recorded, NSA not used
    assert guides.get_guide(db, office.clerk, g.number).status == "open"


def test_lines_that_match_no_open_guide_are_kept_for_the_gestor_to_assign_or_return(db, office):
    from desktop.errors import PermissionDenied
    from desktop.services import bank_returns

    auto, g, barcode = _notified_fine_guide(db, office)
    wrong = g.amount_reais - Decimal("1.00")
    content = _bank_file(db, [(barcode, wrong, date(2026, 11, 30)), ("8" * 44, Decimal("12.34"), date(2026, 11, 30))])
    report = bank_returns.import_bank_return(db, office.manager, content, "r1.txt")
    assert report.recorded == 0 and report.rejected == 2 and "não conciliados" in report.describe()
    waiting = bank_returns.list_unreconciled(db, office.manager)
    assert [(u.line, u.amount, u.guide_number) for u in waiting] == [(2, wrong, g.number), (3, Decimal("12.34"), "")]
    assert all(u.status_label == "Não conciliado" and {a.key for a in u.actions if a.enabled} == {"assign", "return"}
               for u in waiting)
    with pytest.raises(PermissionDenied):
        bank_returns.return_unreconciled(db, office.clerk, waiting[1].id, "Pagamento sem guia")
    returned = bank_returns.return_unreconciled(db, office.manager, waiting[1].id, "Código de barras de outro órgão")
    assert returned.status == "returned" and not any(a.enabled for a in returned.actions)
    # the infractor's payment of another amount: a new guide of that amount is issued... here the gestor assigns
    # the line to a guide of the same amount (the debt it paid); another amount is refused
    with pytest.raises(Exception, match="difere"):
        bank_returns.assign_unreconciled(db, office.manager, waiting[0].id, g.number, "Pago a menor pelo banco")
    # the file is recorded once: the same NSA again records nothing; the money waits, never lost
    again = bank_returns.import_bank_return(db, office.manager, content, "r1.txt")
    assert again.duplicate
    assert [u.id for u in bank_returns.list_unreconciled(db, office.manager)] == [waiting[0].id]
    with db.session(write=False) as s:
        from desktop.models import AuditEntry
        assert s.scalar(select(AuditEntry.id).where(AuditEntry.action == "bank_return.return")) is not None


def test_an_unreconciled_payment_assigned_to_its_guide_pays_the_debt(db, office):
    from desktop.services import bank_returns

    auto, g, barcode = _notified_fine_guide(db, office)
    guides.cancel_guide(db, office.manager, g.number, "Guia cancelada por engano")
    content = _bank_file(db, [(barcode, g.amount_reais, date(2026, 11, 30))])
    report = bank_returns.import_bank_return(db, office.manager, content, "r1.txt")
    assert report.rejected == 1
    waiting = bank_returns.list_unreconciled(db, office.manager)
    assert "cancelada" in waiting[0].problem
    new = guides.issue_fine_guide(db, office.clerk, auto.number)
    done = bank_returns.assign_unreconciled(db, office.manager, waiting[0].id, new.number,
                                            "Pago com a guia cancelada: atribuído à guia em vigor")
    assert done.status == "assigned" and done.resolved_guide_number == new.number
    assert guides.get_guide(db, office.clerk, new.number).status == "paid"
    assert autos.get_auto(db, office.manager, auto.id).auto.balance_reais == 0


# ----------------------------------------------------------------- issue 23 points 6 and 9: what a guide is for
def _pdf_text(pdf: bytes) -> str:
    from io import BytesIO

    from pypdf import PdfReader
    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages)


def _post_costs(db, office, auto, amount: Decimal, on: date):
    from desktop.domain.ledger import EntryKind
    from desktop.models import Auto
    from desktop.services.enforcement.core import debtor_of
    from desktop.services.enforcement.postings import post

    with db.session() as s:
        row = s.get(Auto, auto.id)
        post(s, office.fiscal, kind=EntryKind.COSTS, infractor=debtor_of(row),
             amount_upfm=Decimal(0), upfm_value=row.upfm_value, amount_reais=amount,
             effective_on=on, auto_id=row.id, reason="Despesas de remoção e estada do veículo (Art. 28).")


def test_art28_costs_are_a_line_of_their_own_on_the_dam_and_the_divida_ativa(db, office, tmp_path):
    import csv

    from desktop.models import Auto
    from desktop.services import documents, exports

    driver_id = make_driver(db, "Maria Infratora")
    auto = autos.draw_up_auto(db, office.fiscal, draft("ART26-III", date(2026, 11, 2), driver_id=driver_id))
    notify(db, office.fiscal, auto, date(2026, 11, 3))
    _post_costs(db, office, auto, Decimal("180.00"), date(2026, 11, 4))
    g = guides.issue_fine_guide(db, office.clerk, auto.number)
    assert g.amount_reais == Decimal("291.00")           # 20 UPFM × 5,55 = 111,00 + R$ 180,00 of costs
    text = _pdf_text(documents.print_guide(db, office.clerk, g.number).pdf)
    assert f"Multa (Art. 25) — auto nº {auto.number}, código ART26-III" in text and "R$ 111,00" in text
    assert "Custas (Art. 28) — remoção e estada do veículo" in text and "R$ 180,00" in text
    assert "Art. 25; Art. 28" in text and "Art. 10" not in text and "Art. 11" not in text
    # the dívida ativa: the fine in UPFM and the costs in reais on separate lines
    with db.session() as s:
        row = s.get(Auto, auto.id)
        row.status, row.payment_deadline = "overdue", date(2026, 11, 20)
    lines = [r for r in ledger.divida_ativa_list(db, office.manager) if r.number == auto.number]
    assert [(r.debt_label, r.balance_upfm, r.balance_reais) for r in lines] == [
        ("Multa (Art. 25)", Decimal("20.0000"), Decimal("111.00")),
        ("Custas (Art. 28) — remoção e estada do veículo", Decimal("0"), Decimal("180.00"))]
    out = tmp_path / "da.csv"
    exports.export(db, office.manager, "divida_ativa", out)
    with open(out, encoding="utf-8-sig", newline="") as fh:
        rows = [r for r in csv.reader(fh, delimiter=";") if r[1] == auto.number]
    assert [(r[0], r[7], r[8]) for r in rows] == [("Multa (Art. 25)", "20,00", "111,00"),
                                                   ("Custas (Art. 28) — remoção e estada do veículo", "",
                                                    "180,00")]


def test_reissued_dam_says_which_guide_it_replaces_and_an_overdue_one_is_refused(db, office):
    from desktop.errors import ConflictError as Conflict
    from desktop.services import documents

    auto, g, barcode = _notified_fine_guide(db, office)
    clock.set_clock(clock.ticking(datetime(2027, 1, 4, 10, 0)))   # the guide fell due on 30/12/2026
    with pytest.raises(Conflict, match="VENCIDA"):
        documents.print_guide(db, office.clerk, g.number)
    new = guides.reissue_overdue_guide(db, office.clerk, g.number, "Contribuinte pediu nova guia")
    text = _pdf_text(documents.print_guide(db, office.clerk, new.number).pdf)
    assert f"substitui a guia nº {g.number}" in text and f"Auto de infração nº {auto.number}" in text
    assert "VENCIDA" not in text


# ------------------------------------------------------------------------------------- pinned commands
def test_cli_guide_reissue_prints_the_new_guide_and_refuses_one_not_overdue(db, office, tmp_path, capsys,
                                                                              monkeypatch):
    from desktop import cli

    monkeypatch.setattr("getpass.getpass", lambda prompt="": "senha-forte-2025")   # issue 28: a named user acts

    auto, g, barcode = _notified_fine_guide(db, office)
    out = tmp_path / "nova.pdf"
    assert cli.main(["--db", db.url, "guide", "--reissue", g.number, "--out", str(out), "--user", "chefe"]) == 1
    assert "ainda não venceu" in capsys.readouterr().err and not out.exists()
    clock.set_clock(clock.ticking(datetime(2027, 1, 4, 10, 0)))
    assert cli.main(["--db", db.url, "guide", "--reissue", g.number, "--out", str(out), "--user", "chefe"]) == 0
    printed = capsys.readouterr().out
    new = guides.get_guide(db, office.clerk, g.number).replaced_by_number
    assert new and new in printed and out.read_bytes().startswith(b"%PDF")
    assert f"substitui a guia nº {g.number}" in _pdf_text(out.read_bytes())


def test_cli_export_guides_with_the_pinned_headers(db, office, tmp_path, capsys):
    import csv

    from desktop import cli

    auto, g, barcode = _notified_fine_guide(db, office)
    clock.set_clock(clock.ticking(datetime(2027, 1, 4, 10, 0)))
    new = guides.reissue_overdue_guide(db, office.clerk, g.number, "Contribuinte pediu nova guia")
    out = tmp_path / "guias.csv"
    assert cli.main(["--db", db.url, "export", "guides", "--out", str(out)]) == 0
    with open(out, encoding="utf-8-sig", newline="") as fh:
        lines = list(csv.reader(fh, delimiter=";"))
    assert ";".join(lines[0]) == ("Guia;Tipo;Referência;Contribuinte;CPF/CNPJ;Valor (R$);Emitida em;Vencimento;"
                                  "Situação;Substitui;Substituída por;Pago em")
    rows = {r[0]: r for r in lines[1:]}
    assert rows[g.number][1] == "Multa" and rows[g.number][8] == "Cancelada" and rows[g.number][10] == new.number
    assert rows[new.number][9] == g.number and rows[new.number][8] == "Em aberto"
    assert f"Auto de infração nº {auto.number}" in rows[new.number][2] and "substitui" in rows[new.number][2]
    assert rows[g.number][6] == "30/11/2026" and rows[new.number][7] == new.due_on.strftime("%d/%m/%Y")


def test_art10_no_invented_fee_a_fee_guide_before_the_ctm_fee_is_set_says_so(db, office):
    from desktop.models import Fee
    from desktop.services import parameters
    from tests.db.registry_factories import approved

    a = approved(db, office, protocol_date=date(2026, 11, 20))
    with pytest.raises(ConflictError, match="Código Tributário Municipal"):
        guides.issue_fee_guide(db, office.clerk, authorization_id=a.id)
    with db.session(write=False) as s:
        assert s.scalar(select(Fee.id)) is None and s.scalar(select(PaymentGuide.id)) is None   # nothing saved
    parameters.set_parameter(db, office.manager, "fee.authorization", date(2026, 1, 1), Decimal("8"),
                             "CTM, Lei Complementar municipal nº 1/2020, art. 90")
    assert guides.issue_fee_guide(db, office.clerk, authorization_id=a.id).amount_reais == Decimal("44.40")


# ------------------------------------------------------------ issue 28 point 4: código da receita and the creditor
CODES = (("revenue_code_fee_authorization", "1.1.2.1.01.01"), ("revenue_code_fee_renewal", "1.1.2.1.01.02"),
         ("revenue_code_fee_inspection", "1.1.2.1.01.03"), ("revenue_code_fine", "1.9.1.0.99.01"),
         ("revenue_code_issqn", "1.1.1.8.02.01"), ("revenue_code_costs", "1.9.2.2.99.01"))


def _configure_creditor(db, admin, codes=CODES):
    """Administração → Município through its service: the CNPJ, the address and the códigos da receita."""
    from desktop.services import setup

    info = setup.get_municipality(db)
    return setup.update_municipality(db, admin, setup.MunicipalityDraft(
        name=info.name, uf=info.uf, secretariat=info.secretariat, ouvidoria_phone=info.ouvidoria_phone,
        pix_key=info.pix_key, cnpj="03.507.548/0001-10", address="Rua Cipriano Curvo, 450 — Centro, CEP 78195-000",
        febraban_agreement=info.febraban_agreement, revenue_codes=codes), info.version)


def _fee_guides(db, office):
    from desktop.services import authorizations as auth
    from desktop.services import parameters
    from tests.db.registry_factories import active, approved

    for key in ("fee.authorization", "fee.renewal", "fee.inspection"):
        parameters.set_parameter(db, office.manager, key, date(2026, 1, 1), Decimal("10"), "CTM, art. 90")
    first = approved(db, office)
    old = active(db, office, on=date(2026, 11, 30) - timedelta(days=355))
    old = auth.request_renewal(db, office.clerk, old.id, date(2026, 11, 30), old.version)
    return {"revenue_code_fee_authorization": guides.issue_fee_guide(db, office.clerk, authorization_id=first.id,
                                                                     kind="authorization"),
            "revenue_code_fee_inspection": guides.issue_fee_guide(db, office.clerk, authorization_id=first.id,
                                                                  kind="inspection"),
            "revenue_code_fee_renewal": guides.issue_fee_guide(db, office.clerk, authorization_id=old.id,
                                                               kind="renewal")}


def test_issue28_every_dam_prints_the_codigo_da_receita_of_its_own_debt_and_the_prefeituras_cnpj_and_address(
        db, office):
    from desktop.services import documents

    _configure_creditor(db, office.admin)
    codes = dict(CODES)
    printed = {field: _pdf_text(documents.print_guide(db, office.clerk, g.number).pdf)
               for field, g in _fee_guides(db, office).items()}
    driver_id = make_driver(db, "Maria Infratora")
    auto = autos.draw_up_auto(db, office.fiscal, draft("ART26-III", date(2026, 11, 2), driver_id=driver_id))
    notify(db, office.fiscal, auto, date(2026, 11, 3))
    _post_costs(db, office, auto, Decimal("180.00"), date(2026, 11, 4))
    fine = _pdf_text(documents.print_guide(db, office.clerk, guides.issue_fine_guide(db, office.clerk,
                                                                                     auto.number).number).pdf)
    printed["revenue_code_fine"] = printed["revenue_code_costs"] = fine
    for field, text in printed.items():
        flat = " ".join(text.split())
        assert codes[field] in flat, field
        assert "CNPJ do credor 03.507.548/0001-10" in flat and "Rua Cipriano Curvo, 450 — Centro" in flat
        assert "Prefeitura Municipal de Chapada dos Guimarães–MT" in flat
        assert "não configurado" not in flat
        # only the codes of the guide's own debts
        others = [code for key, code in CODES if key != field and not {key, field} <= {"revenue_code_fine",
                                                                                       "revenue_code_costs"}]
        assert not [code for code in others if code in flat], field
    flat = " ".join(fine.split())
    # each line its own code, and the bank's stub both
    assert f"código ART26-III R$ 111,00 Código da receita: {codes['revenue_code_fine']}" in flat
    assert f"veículo R$ 180,00 Código da receita: {codes['revenue_code_costs']}" in flat
    assert f"Código da receita {codes['revenue_code_fine']} / {codes['revenue_code_costs']}" in flat


def test_issue28_an_unconfigured_codigo_da_receita_prints_as_such_never_invented(db, office):
    from desktop.services import documents

    _configure_creditor(db, office.admin, codes=(("revenue_code_fine", "1.9.1.0.99.01"),))
    _auto, g, _barcode = _notified_fine_guide(db, office)
    flat = " ".join(_pdf_text(documents.print_guide(db, office.clerk, g.number).pdf).split())
    assert "Código da receita: 1.9.1.0.99.01" in flat and "Código da receita 1.9.1.0.99.01" in flat
    _configure_creditor(db, office.admin, codes=(("revenue_code_fine", ""),))   # cleared: nothing in its place
    flat = " ".join(_pdf_text(documents.print_guide(db, office.clerk, g.number).pdf).split())
    assert "Código da receita: não configurado" in flat and "Código da receita não configurado" in flat
    assert "1.9.1.0.99.01" not in flat


def test_issue28_revenue_codes_are_audited_and_a_malformed_one_is_refused_naming_its_field(db, office):
    from desktop.errors import ValidationError
    from desktop.models import AuditEntry

    info = _configure_creditor(db, office.admin)
    assert info.revenue_code("revenue_code_issqn") == "1.1.1.8.02.01"
    with db.session(write=False) as s:
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "municipality.update")
                          .order_by(AuditEntry.id.desc())).first()
        import json

        before, after = json.loads(entry.before), json.loads(entry.after)
        assert before["revenue_code_costs"] is None and after["revenue_code_costs"] == "1.9.2.2.99.01"
    with pytest.raises(ValidationError) as exc:
        _configure_creditor(db, office.admin, codes=(("revenue_code_costs", "1.9;DROP"),))
    problem = exc.value.problems[0]
    assert problem.field == "revenue_code_costs" and "Custas (Art. 28)" in problem.message
