"""Issue 23 point 8 through the screen: a bank payment that paid no open guide waits in Financeiro → Retorno
bancário → Pagamentos não conciliados; the gestor selects it with the mouse and returns it with a reason (the
buttons follow the actions the service returns)."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register
from enforcement_fixtures import draw_up
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


def test_the_gestor_returns_an_unreconciled_payment_from_the_screen(qtbot, db, people, register, messages):
    from desktop.domain.penalties import NotificationForm
    from desktop.importers.bank_return import build_return
    from desktop.models import MunicipalitySettings
    from desktop.services import bank_returns, guides
    from desktop.services.autos import process
    from desktop.views.finance.bank_return import BankReturnScreen

    with db.session() as s:
        s.get(MunicipalitySettings, 1).febraban_agreement = "0421"
    auto = draw_up(db, people.fiscal, "ART26-I", date(2026, 11, 2), driver_id=register.joao)
    process.record_notification(db, people.fiscal, auto.id, process.NotificationDraft(
        addressee="driver", form=NotificationForm.DIRECT, sent_on=date(2026, 11, 3),
        proof_joined_on=date(2026, 11, 3)), auto.version)
    g = guides.issue_fine_guide(db, people.atendente, auto.number)
    content = build_return([(g.barcode, g.amount_reais - Decimal("10.00"), date(2026, 11, 18))], nsa=4)
    report = bank_returns.import_bank_return(db, people.gestor, content, "retorno-4.txt")
    assert report.rejected == 1

    screen = BankReturnScreen(db, people.gestor)
    qtbot.addWidget(screen)
    screen.resize(1200, 700)
    screen.show()
    screen.tabs.setCurrentWidget(screen.unreconciled)
    panel = screen.unreconciled
    qtbot.waitUntil(lambda: panel.table.model.rowCount() == 1, timeout=20000)
    assert not panel.buttons["return"].isEnabled()            # nothing selected yet
    view = panel.table.view
    index = view.model().index(0, 0)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())
    assert panel.buttons["return"].isEnabled() and panel.buttons["assign"].isEnabled()
    dialog = panel.dialog_for("return")
    qtbot.keyClicks(dialog.reason, "Pago a menor: devolvido ao contribuinte")
    assert panel.finish("return", dialog)
    qtbot.waitUntil(lambda: panel.table.model.rowCount() == 0, timeout=20000)   # the open list is empty
    assert bank_returns.list_unreconciled(db, people.gestor, status="returned")[0].resolution_reason.startswith(
        "Pago a menor")
