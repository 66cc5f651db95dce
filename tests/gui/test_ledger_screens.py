"""Issue 6 — Financeiro: the infractor's page and statement (extrato) at any date, the ledger screen over keyset
pages, the overdue list and the list to send to dívida ativa (SPEC §3: append-only ledger in UPFM; Art. 25)."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register, lookups
from enforcement_fixtures import draw_up, make_final, shoot

from desktop.views.finance.page import FinancePage
from desktop.views.finance.ledger import DebtListScreen, InfractorScreen, LedgerScreen
from desktop.services.actors import SYSTEM_ACTOR


def final_with_payment(db, people, register):
    """João: ART26-IV of 02/02/2026 made final, R$ 1.124,50 (10 UPFM) paid on 10/04/2026; Maria: ART26-I."""
    from desktop.services import ledger

    auto = make_final(db, people, draw_up(db, people.fiscal, "ART26-IV", date(2026, 2, 2),
                                          driver_id=register.joao))
    second = draw_up(db, people.fiscal, "ART26-IV", date(2026, 5, 4), driver_id=register.joao)
    ledger.record_payment(db, people.atendente, ledger.PaymentDraft(auto_id=auto.id, paid_on=date(2026, 4, 10),
                                                                    amount_reais=Decimal("1124.50"),
                                                                    guide_number="0001/2026"))
    other = draw_up(db, people.fiscal, "ART26-I", date(2026, 3, 9), driver_id=register.maria)
    return auto, second, other


def test_statement_of_an_infractor_at_any_date(qtbot, db, people, register, lookups):
    """SPEC §3: any infractor's statement and balance at any date; the balance is computed, never stored."""
    auto, second, _other = final_with_payment(db, people, register)
    screen = InfractorScreen(db, people.atendente, lookups=lookups)
    qtbot.addWidget(screen)
    screen.resize(1150, 650)
    assert screen.lines.model.rowCount() == 0
    screen.picker.edit.setText("joao")
    screen.picker.search_now()
    assert screen.page is not None and screen.page.name == "João da Silva"
    assert [a.number for a in screen.recurrences.model.rows()] == [second.number]
    assert {a.number for a in screen.autos.model.rows()} == {auto.number, second.number}

    screen.set_until(date(2026, 3, 31))            # before the payment and the second auto
    assert [line.entry.kind_label for line in screen.lines.model.rows()] == ["Multa (débito)"]
    assert "Saldo em 31/03/2026: 30 UPFM" in screen.balance_label.text()

    screen.set_until(date(2026, 4, 30))            # after the payment of 10 UPFM
    balances = [line.balance for line in screen.lines.model.rows()]
    assert balances == [Decimal(30), Decimal(20)]
    assert "Saldo em 30/04/2026: 20 UPFM" in screen.balance_label.text()

    screen.set_until(date(2026, 11, 1))            # with the second auto
    assert screen.statement.balance_upfm == Decimal(50)
    assert "R$ 5.622,50" in screen.balance_label.text()
    assert screen.summary.text("Condutor") == "João da Silva"
    shoot(screen, "ledger_infractor_statement.png")


def test_ledger_screen_lists_entries_newest_first_with_totals(qtbot, db, people, register, lookups, qtmodeltester):
    final_with_payment(db, people, register)
    screen = LedgerScreen(db, people.gestor, lookups=lookups)
    qtbot.addWidget(screen)
    screen.resize(1150, 600)
    rows = screen.table.loaded_rows()
    assert len(rows) == 4
    assert rows[0].infractor_name == "Maria Conceição"          # the newest posted first
    qtmodeltester.check(screen.table.model, force_py=True)
    qtbot.waitUntil(lambda: screen.totals_task.finished)    # the aggregate runs off the UI thread
    assert "4 lançamento(s)" in screen.totals_label.text() and "60 UPFM" in screen.totals_label.text()  # 30+30+10-10
    from desktop.domain.ledger import EntryKind

    screen.kind_combo.setCurrentIndex(screen.kind_combo.findData(EntryKind.PAYMENT))
    assert [e.kind_label for e in screen.table.loaded_rows()] == ["Pagamento"]
    qtbot.waitUntil(lambda: "-10 UPFM" in screen.totals_label.text())
    screen.kind_combo.setCurrentIndex(0)
    screen.infractor_picker.edit.setText("maria")
    screen.infractor_picker.search_now()
    assert [e.infractor_name for e in screen.table.loaded_rows()] == ["Maria Conceição"]
    shoot(screen, "ledger_entries.png")


def test_overdue_and_divida_ativa_lists(qtbot, db, people, register, messages):
    """A final fine past its payment term is overdue; once marked overdue it goes to dívida ativa (gestor)."""
    from desktop.services import autos
    from desktop.services.enforcement_jobs import run_enforcement_jobs

    auto, _second, _other = final_with_payment(db, people, register)
    overdue = DebtListScreen(db, people.gestor, "overdue")
    qtbot.addWidget(overdue)
    overdue.resize(1100, 500)
    overdue.today_edit.setDate(date(2026, 11, 1))
    assert [r.number for r in overdue.table.visible_rows()] == [auto.number]
    assert overdue.table.visible_rows()[0].balance_upfm == Decimal(20)
    assert "R$ 2.249,00" in overdue.total_label.text()
    shoot(overdue, "ledger_overdue.png")

    run_enforcement_jobs(db, date(2026, 11, 1))        # the daily job marks it "Vencido"
    divida = DebtListScreen(db, people.gestor, "divida_ativa")
    qtbot.addWidget(divida)
    divida.resize(1100, 500)
    divida.today_edit.setDate(date(2026, 11, 1))
    assert [r.number for r in divida.table.visible_rows()] == [auto.number]
    shoot(divida, "ledger_divida_ativa.png")
    assert divida.send(all_rows=True) == 1
    assert messages and "1 auto(s) inscrito(s)" in messages[-1][2]
    assert str(autos.get_auto(db, SYSTEM_ACTOR, auto.id).auto.status) == "divida_ativa"
    assert divida.table.visible_rows() == []

    # issue 28 point 9: the inscribed autos on demand, each with its certidão de dívida ativa (Lei 6.830/80, art. 2º)
    import io

    from pypdf import PdfReader

    from hands import click, click_button, click_row

    divida.show()
    qtbot.waitExposed(divida)
    assert not divida.certidao_button.isEnabled()
    click(divida.inscribed_check)
    assert divida.inscribed_check.isChecked()
    assert [r.number for r in divida.table.visible_rows()] == [auto.number]
    assert not divida.send_all_button.isEnabled()          # already inscribed: not inscribed again
    click_row(divida.table, 0)
    assert not divida.send_selected_button.isEnabled()
    click_button(divida.certidao_button)
    qtbot.waitUntil(lambda: divida.preview is not None, timeout=20000)
    qtbot.addWidget(divida.preview)
    archived = documents_of_kind(db, "divida_ativa")
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(archived)).pages)
    assert "CERTIDÃO DE DÍVIDA ATIVA — INSCRIÇÃO Nº 0001/2026" in text and f"Auto de Infração nº {auto.number}" in text


def documents_of_kind(db, kind: str) -> bytes:
    """The bytes of the one archived document of `kind`."""
    from desktop.models import IssuedDocument
    with db.session(write=False) as s:
        [row] = s.query(IssuedDocument).filter_by(kind=kind).all()
        return row.pdf


def test_finance_page_shows_the_ledger_and_the_issqn_tab(qtbot, db, people, register, lookups):
    page = FinancePage(db, people.atendente, lookups=lookups)
    qtbot.addWidget(page)
    page.resize(1180, 760)
    assert page.tab_titles()[:4] == ["Infrator e extrato", "Lançamentos", "Multas vencidas", "Dívida ativa"]
    assert {"Guias", "Retorno bancário", "ISSQN"} <= set(page.tab_titles())   # issue 13
    assert page.issqn_page is None          # issue 13: the ISSQN screen is built when its tab is first shown
    qtbot.waitUntil(lambda: page.ledger_screen.totals_task.finished)
    shoot(page, "finance_page.png")


def test_statement_is_printed_at_the_chosen_date(qtbot, db, people, register, lookups):
    import io

    from pypdf import PdfReader

    final_with_payment(db, people, register)
    screen = InfractorScreen(db, people.atendente, lookups=lookups)
    qtbot.addWidget(screen)
    assert not screen.print_button.isEnabled()
    screen.picker.edit.setText("joao")
    screen.picker.search_now()
    screen.set_until(date(2026, 4, 30))
    assert screen.print_button.isEnabled()
    task = screen.print_statement()
    qtbot.waitUntil(lambda: task.finished, timeout=20000)
    assert task.error is None, task.error
    qtbot.addWidget(screen.preview)
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(task.result.pdf)).pages)
    assert "João da Silva" in text and "30/04/2026" in text


def test_gestor_reverses_a_returned_payment_with_a_reason(qtbot, db, people, register, lookups):
    """SPEC §3: nothing is edited; a reversal posts the opposite entry pointing at its origin (gestor)."""
    from desktop.services import ledger

    auto, _second, _other = final_with_payment(db, people, register)
    screen = LedgerScreen(db, people.gestor, lookups=lookups)
    qtbot.addWidget(screen)
    payment_row = [i for i, e in enumerate(screen.table.loaded_rows()) if e.kind_label == "Pagamento"][0]
    screen.table.select_row(payment_row)
    assert screen.reverse_button.isEnabled()
    dialog = screen.reverse_dialog()
    qtbot.addWidget(dialog)
    assert not dialog.save() and dialog.errors.is_invalid("reason")
    dialog.text_edit.setPlainText("Cheque devolvido pelo banco.")
    shoot(dialog, "dialog_reverse_entry.png")
    assert dialog.save()
    reversal = dialog.result_value
    assert str(reversal.kind) == "reversal" and reversal.amount_upfm == Decimal(10)
    assert ledger.auto_balance(db, SYSTEM_ACTOR, auto.id) == Decimal(30)
    screen.reload()
    qtbot.waitUntil(lambda: screen.totals_task.finished)
    assert "Estorno" in [e.kind_label for e in screen.table.loaded_rows()]
    as_atendente = LedgerScreen(db, people.atendente, lookups=lookups)
    qtbot.addWidget(as_atendente)
    as_atendente.table.select_row(0)
    assert not as_atendente.reverse_button.isEnabled()
    qtbot.waitUntil(lambda: as_atendente.totals_task.finished)


def test_a_vistoriador_is_told_the_ledger_is_not_for_his_role(qtbot, db, people):
    """SPEC §4 / LGPD: only the roles that need it see the fines and the infractors' data."""
    from desktop.domain.roles import Role
    from desktop.services import users
    from desktop.services.actors import Actor
    from desktop.views.enforcement.page import EnforcementPage

    info = users.create_user(db, people.admin, users.UserDraft("vitor", "Vitor Vistoriador",
                                                               frozenset({Role.VISTORIADOR}), "senha-forte-2025"))
    vistoriador = Actor(info.id, info.username, info.full_name, frozenset(info.roles))
    for page_class in (FinancePage, EnforcementPage):
        page = page_class(db, vistoriador)
        qtbot.addWidget(page)
        assert "Seu perfil não tem acesso" in page.restricted_label.text()
        assert not hasattr(page, "tabs")
