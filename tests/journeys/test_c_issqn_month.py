"""Journey (c) (issue 27 "journeys"): a month of ISSQN (Art. 11) from the run to the month paid, on the demonstration
database, with the mouse and the keyboard only, by a login with the Gestor role only (the window opened for it).

The demo is made on the suite's day and has run the ISSQN up to the month before it, so the clock
(desktop.domain.clock) is moved to the 5th of the next month: "last month" is then the suite's month, not yet run.
1. The gestor opens Financeiro/ISSQN from the sidebar and clicks the "ISSQN" tab; the competência proposed is last
   month. "Calcular competência" runs it in the background.
2. Each platform's row of "Totais por plataforma" is clicked and "Emitir guia" pressed: one DAM per platform.
3. The clock moves to the 21st: the guides (due on the 10th) are overdue. In "Guias" the filter "Vencidas" is
   chosen with the keyboard, the first platform's guide clicked, "Reemitir guia vencida…" pressed, the reason typed
   and OK clicked: a new guide, printed; the PDF read back has the new number and the amount.
4. "Retorno bancário" → "Escolher arquivo de retorno…": the bank's file (desktop.importers.bank_return.build_return,
   the barcodes read from the service layer as the bank reads them from the printed DAMs) pays the new guide today
   and the other platforms' guides on the day they were issued; chosen in Qt's file dialog.
5. Back in "ISSQN", the month shows every platform paid and nothing overdue."""
from __future__ import annotations

import time
from datetime import datetime, timedelta
from decimal import Decimal

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from hands import activate, choose_in_combo, click_button, click_close, click_row, type_into
from robot import SIZE, make_demo, open_copy
from tests.journeys.steps import choose_file_in_dialog, click_tab_titled, open_module, pdf_text, when_modal

GESTOR, PASSWORD = "gestor.issqn", "senha-da-jornada-2026"


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    from desktop.migrate import open_database
    from desktop.demo import ADMIN_PASSWORD, ADMIN_USERNAME
    from desktop.domain.roles import Role
    from desktop.services import auth, users

    path = make_demo(tmp_path_factory.mktemp("journey-c") / "demo.sqlite3", drivers=12)
    db = open_database(f"sqlite:///{path}")
    admin = auth.login(db, ADMIN_USERNAME, ADMIN_PASSWORD)
    users.create_user(db, admin, users.UserDraft(GESTOR, "Glória Gestora Jornada", frozenset({Role.GESTOR}),
                                                 PASSWORD, office="Secretária Municipal"))
    db.dispose()
    return path


def _move_clock_to(day: int, start: datetime) -> datetime:
    from desktop.domain import clock

    first_of_next = (start.replace(day=1) + timedelta(days=32)).replace(day=day, hour=10, minute=0)
    clock.set_clock(clock.ticking(first_of_next.replace(tzinfo=None)))
    return first_of_next


def test_journey_c_a_month_of_issqn_run_issued_reissued_and_paid_by_the_bank(qtbot, demo_template, tmp_path):
    from desktop.domain import clock
    from desktop.domain.formatting import format_money
    from desktop.importers.bank_return import build_return
    from desktop.services import auth, guides
    from desktop.views.finance.guides import ReasonDialog
    from desktop.views.main_window import MainWindow

    suite_day = clock.now()
    db, _robot = open_copy(demo_template, tmp_path)
    issued_on = _move_clock_to(5, suite_day).date()
    month = suite_day.month, suite_day.year
    gestor = auth.login(db, GESTOR, PASSWORD)
    window = MainWindow(db, gestor)
    qtbot.addWidget(window)
    window.resize(*SIZE)
    activate(window)
    started = time.monotonic()

    # 1. last month's ISSQN, run in the background
    finance = open_module(window, "Financeiro")
    click_tab_titled(finance.tabs, "ISSQN")
    page = finance.issqn_page
    assert page is not None and page.isVisible()
    assert (page.month()[1], page.month()[0]) == month, "the competência proposed is last month"
    assert page.totals.model.rowCount() == 0 or all(not t.guide_numbers for t in page.totals.model.rows())
    click_button(page.run_button)
    qtbot.waitUntil(lambda: page.last_result is not None, timeout=30000)
    qtbot.waitUntil(lambda: page.totals.model.rowCount() > 0, timeout=5000)
    platforms = [t for t in page.totals.model.rows() if t.platform_id is not None and t.total > 0]
    assert platforms, page.status_label.text()

    # 2. one guide per platform: the row clicked, "Emitir guia" pressed
    for platform in platforms:
        row = next(i for i, t in enumerate(page.totals.model.rows()) if t.platform_id == platform.platform_id)
        click_row(page.totals, row)
        click_button(page.issue_button)
        qtbot.waitUntil(lambda: any(t.platform_id == platform.platform_id and t.guide_numbers
                                    for t in page.totals.model.rows()), timeout=10000)
    totals = {t.platform_id: t for t in page.totals.model.rows() if t.platform_id is not None}
    numbers = {pid: totals[pid].guide_numbers[-1] for pid in (p.platform_id for p in platforms)}
    assert all(totals[pid].without_guide == 0 for pid in numbers)

    # 3. after the due date: the first platform's guide reissued from Guias, printed, read back
    _move_clock_to(21, suite_day)
    click_tab_titled(finance.tabs, "Guias")
    screen = finance.guides_screen
    choose_in_combo(screen.state_combo, "Vencidas")
    first = platforms[0].platform_id
    old_number = numbers[first]
    qtbot.waitUntil(lambda: any(g.number == old_number for g in screen.table.model.rows()), timeout=5000)
    row = next(i for i, g in enumerate(screen.table.model.rows()) if g.number == old_number)
    click_row(screen.table, row)
    reason = {}

    def give_reason(dialog: ReasonDialog) -> None:
        activate(dialog)
        type_into(dialog.reason, "Vencida sem pagamento; nova guia a pedido da plataforma.")
        reason["typed"] = dialog.reason.text()
        buttons = dialog.findChild(QDialogButtonBox)
        click_button(buttons.button(QDialogButtonBox.StandardButton.Ok))

    when_modal(ReasonDialog, give_reason, title="Reemitir guia vencida")
    click_button(screen.buttons["reissue"])
    qtbot.waitUntil(lambda: screen.guide_preview is not None, timeout=30000)
    new = screen.last_guide
    assert new.number != old_number and reason["typed"]
    text = pdf_text(screen.guide_preview._bytes)
    assert new.number in text, text[:400]
    assert format_money(new.amount_reais).replace("\xa0", " ").replace("R$ ", "") in text, text[:400]
    click_close(screen.guide_preview)
    assert guides.get_guide(db, gestor, old_number).status == "cancelled"

    # 4. the bank pays the new guide today, the others on the day they were issued
    payments = [(guides.get_guide(db, gestor, new.number).barcode, Decimal(new.amount_reais), clock.today())]
    for pid, number in numbers.items():
        if pid != first:
            g = guides.get_guide(db, gestor, number)
            payments.append((g.barcode, Decimal(g.amount_reais), issued_on))
    file = tmp_path / "retorno-issqn-0001.ret"
    file.write_bytes(build_return(payments, nsa=1))
    click_tab_titled(finance.tabs, "Retorno bancário")
    returns = finance.bank_return_screen
    choose_file_in_dialog(file)
    click_button(returns.choose_button)
    qtbot.waitUntil(lambda: returns.report is not None, timeout=30000)
    assert returns.report.recorded == len(payments), returns.summary.text()

    # 5. the month paid
    click_tab_titled(finance.tabs, "ISSQN")
    def month_paid() -> bool:
        return all(t.paid == t.total and t.overdue == 0 for t in page.totals.model.rows() if t.platform_id in numbers)

    try:
        qtbot.waitUntil(month_paid, timeout=5000)
    except Exception:
        raise AssertionError(f"the month is not shown paid: {page.totals.model.rows()} — {page.month_label.text()}")
    total = sum((t.total for t in page.totals.model.rows() if t.platform_id is not None), Decimal("0"))
    label = page.month_label.text().replace("\xa0", " ")
    assert f"pago {format_money(total).replace(chr(160), ' ')}" in label, label
    assert time.monotonic() - started < 60
    window.close()
    db.dispose()
