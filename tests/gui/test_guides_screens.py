"""Issue 13 through the screens: "Emitir guia" on an auto's page issues and prints the DAM of its fine; the
guides list shows it open; Financeiro → Retorno bancário imports the bank's return file (FEBRABAN arrecadação)
in the background and the guide is then paid, the auto settled in the ledger; a malformed file says which line
and records nothing; the authorization page issues its fee guide once approved (Art. 10; Art. 15, VII)."""
from __future__ import annotations

import importlib.util
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register
from enforcement_fixtures import draw_up, shoot
from desktop.services.actors import SYSTEM_ACTOR

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("make_bank_return", ROOT / "tools" / "make_bank_return.py")
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)


def _febraban_code(db, code="0421"):
    from desktop.models import MunicipalitySettings

    with db.session() as s:
        s.get(MunicipalitySettings, 1).febraban_agreement = code


def _notified_auto(db, people, register):
    from desktop.domain.penalties import NotificationForm
    from desktop.services.autos import process

    auto = draw_up(db, people.fiscal, "ART26-I", date(2026, 11, 2), driver_id=register.joao)
    process.record_notification(db, people.fiscal, auto.id, process.NotificationDraft(
        addressee="driver", form=NotificationForm.DIRECT, sent_on=date(2026, 11, 3),
        proof_joined_on=date(2026, 11, 3)), auto.version)
    return auto


def test_issue_a_fine_guide_then_import_the_return_file_that_pays_it(qtbot, db, people, register, tmp_path,
                                                                      messages):
    from desktop.services import autos, guides
    from desktop.views.enforcement.detail import AutoDetailScreen
    from desktop.views.finance.page import FinancePage

    _febraban_code(db)
    auto = _notified_auto(db, people, register)
    page = AutoDetailScreen(db, people.atendente)
    qtbot.addWidget(page)
    page.show_auto(auto.id)
    assert page.guide_button.isEnabled()
    page.guide_button.click()
    qtbot.waitUntil(lambda: page.guide_preview is not None, timeout=20000)
    guide = page.last_guide
    assert guide.purpose == "fine" and guide.amount_reais == Decimal("1124.50")   # 10 UPFM × R$ 112,45
    assert guides.get_guide(db, people.atendente, guide.number).barcode   # archived with its barcode
    page.guide_preview.close()

    finance = FinancePage(db, people.atendente)
    qtbot.addWidget(finance)
    finance.resize(1200, 700)
    assert "Guias" in finance.tab_titles() and "Retorno bancário" in finance.tab_titles()
    screen = finance.guides_screen
    screen.set_state("open")
    assert [g.number for g in screen.table.model.rows()] == [guide.number]
    assert screen.late_label.isVisible() is False or "não configuradas" in screen.late_label.text()

    file = tmp_path / "retorno-001.txt"
    g = guides.get_guide(db, people.atendente, guide.number)
    file.write_bytes(make.build_return([(g.barcode, g.amount_reais, date(2026, 11, 18))], nsa=1))
    returns = finance.bank_return_screen
    returns.import_file(str(file))
    qtbot.waitUntil(lambda: returns.report is not None, timeout=20000)
    assert returns.report.recorded == 1 and "1 registrado(s)" in returns.summary.text()
    row = returns.lines.model.rows()[0]
    assert row.recorded and row.guide_number == guide.number
    assert returns.files.model.rowCount() == 1
    shoot(returns, "bank_return_report.png")
    screen.set_state("paid")
    assert [x.number for x in screen.table.model.rows()] == [guide.number]
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).balance_upfm == 0

    # the same file again: nothing recorded, and the screen says so
    returns.report = None
    returns.import_file(str(file))
    qtbot.waitUntil(lambda: returns.report is not None, timeout=20000)
    assert returns.report.duplicate and "já foi importado" in returns.summary.text()


def test_a_malformed_return_file_names_the_line_and_records_nothing(qtbot, db, people, register, tmp_path,
                                                                   messages):
    from desktop.services import guides
    from desktop.views.finance.bank_return import BankReturnScreen

    _febraban_code(db)
    auto = _notified_auto(db, people, register)
    g = guides.issue_fine_guide(db, people.atendente, auto.number)
    content = make.build_return([(g.barcode, g.amount_reais, date(2026, 11, 17))], nsa=2, trailer_records=9)
    file = tmp_path / "ruim.txt"
    file.write_bytes(content)
    screen = BankReturnScreen(db, people.atendente)
    qtbot.addWidget(screen)
    screen.import_file(str(file))
    qtbot.waitUntil(lambda: "nada foi registrado" in screen.summary.text(), timeout=20000)
    assert "Linha 3" in screen.summary.text() and "trailer informa 9" in screen.summary.text()
    assert guides.get_guide(db, people.atendente, g.number).status == "open"
    assert screen.files.model.rowCount() == 0


def test_the_guides_screen_reissues_an_overdue_guide_with_a_reason(qtbot, db, people, register, messages):
    from desktop.domain import clock
    from desktop.services import guides
    from desktop.views.finance.guides import GuidesScreen

    _febraban_code(db)
    auto = _notified_auto(db, people, register)
    g = guides.issue_fine_guide(db, people.atendente, auto.number)
    clock.set_clock(clock.ticking(clock.now().replace(tzinfo=None) + timedelta(days=40)))
    screen = GuidesScreen(db, people.atendente)
    qtbot.addWidget(screen)
    screen.set_state("overdue")
    screen.table.select_where(lambda row: row.number == g.number)
    assert set(screen.enabled_actions()) == {"print", "pay", "reissue"}     # cancel: gestor only
    assert "não configuradas" in screen.late_label.text()
    dialog = screen.dialog_for("reissue")
    assert "não configuradas" in dialog.note.text()
    dialog.reason.setText("Contribuinte pediu nova guia")
    screen.finish("reissue", dialog)
    qtbot.waitUntil(lambda: screen.guide_preview is not None, timeout=20000)
    new = screen.last_guide
    assert new.replaces_number == g.number and new.amount_reais == g.amount_reais
    assert guides.get_guide(db, people.atendente, g.number).status == "cancelled"


def test_the_authorization_page_issues_the_fee_guide_once_approved(qtbot, db, people, register, messages, tmp_path):
    from desktop.models import Authorization
    from desktop.views.authorizations.detail import AuthorizationDetailPage

    _febraban_code(db)
    from desktop.models import Parameter
    with db.session() as s:   # issue 23 point 10: the CTM's fee, set by the office (no default)
        s.add(Parameter(key="fee.authorization", valid_from=date(2026, 1, 1), value=Decimal("10"), note="CTM"))
    with db.session() as s:
        a = Authorization(driver_id=register.joao, vehicle_id=register.car, status="approved",
                          protocol_date=date(2026, 11, 10), protocol_number="PROT-77", decided_on=date(2026, 11, 12),
                          renewal_count=0, renewal_late=False)
        s.add(a)
        s.flush()
        authorization_id = a.id
    page = AuthorizationDetailPage(db, people.atendente, authorization_id)
    qtbot.addWidget(page)
    assert page.guide_button.isEnabled()
    page.guide_button.click()
    qtbot.waitUntil(lambda: page.guide_preview is not None, timeout=20000)
    assert page.last_guide.purpose == "fee" and page.last_guide.amount_reais == Decimal("1124.50")  # 10 UPFM
    page.guide_preview.close()

    # the bank's return file pays it: the fee is recorded with the bank's date (Art. 3 §1)
    from desktop.services import authorizations, guides
    from desktop.views.finance.bank_return import BankReturnScreen

    g = guides.get_guide(db, people.atendente, page.last_guide.number)
    file = tmp_path / "retorno-taxa.txt"
    file.write_bytes(make.build_return([(g.barcode, g.amount_reais, date(2026, 11, 18))], nsa=7))
    returns = BankReturnScreen(db, people.atendente)
    qtbot.addWidget(returns)
    returns.import_file(str(file))
    qtbot.waitUntil(lambda: returns.report is not None, timeout=20000)
    assert returns.report.recorded == 1
    info = authorizations.get_authorization(db, people.atendente, authorization_id)
    assert info.fee_paid_on == date(2026, 11, 18) and info.fee_guide_number == g.number
    page.load()
    assert not page.guide_button.isEnabled()          # the fee is paid: nothing left to issue


def test_on_a_demo_database_the_screen_writes_an_example_return_file_that_pays_open_guides(qtbot, db, admin,
                                                                                          tmp_path, messages):
    from desktop.domain.clock import today
    from desktop.domain.roles import Role
    from desktop.services.actors import Actor
    from desktop.demo.entry import load_demo   # the program's demo load (marks the database as a demo)
    from desktop.views.finance.bank_return import BankReturnScreen

    _febraban_code(db)           # the demo's own set-up gives 0421; this database was set up by the wizard
    load_demo(db, drivers=40, seed=3, today=today())
    screen = BankReturnScreen(db, Actor(admin.user_id, admin.username, admin.full_name,
                                        frozenset(admin.roles) | {Role.GESTOR}))
    qtbot.addWidget(screen)
    assert not screen.example_button.isHidden()
    path = tmp_path / "exemplo.txt"
    assert screen.write_example(str(path))
    assert path.exists() and "Arquivo de exemplo gravado" in screen.summary.text()
    screen.import_file(str(path))
    qtbot.waitUntil(lambda: screen.report is not None, timeout=30000)
    assert screen.report.recorded == screen.report.payments > 0 and screen.report.rejected == 0


def test_outside_a_demo_the_example_button_is_not_offered(qtbot, db, people):
    from desktop.views.finance.bank_return import BankReturnScreen

    screen = BankReturnScreen(db, people.atendente)
    qtbot.addWidget(screen)
    assert screen.example_button.isHidden()
