"""Financeiro → ISSQN (issue 13; Art. 11), clicked through: a competência run in the background, the totals per
platform, "Emitir guia", the filters, a vehicle without a class placed in one, the guide printed, cancelled with
a reason, the 12-month chart, the PDF report and the export."""
from __future__ import annotations

import io
import sys
from datetime import date
from pathlib import Path

from PySide6.QtCore import Qt
from pypdf import PdfReader

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "db"))
from issqn_factories import build_world, classify  # noqa: E402

from desktop.views.finance.page import FinancePage  # noqa: E402


def _page(qtbot, db):
    w = build_world(db)
    for i in range(3):
        classify(w, i)
    finance = FinancePage(db, w.gestor)
    qtbot.addWidget(finance)
    finance.resize(1280, 820)
    page = finance.open_issqn()
    assert finance.tabs.tabText(finance.tabs.currentIndex()) == "ISSQN"
    page.set_month(2026, 10)
    page.finance = finance          # keep the window alive as long as the test holds the page
    settle(qtbot, page)
    return w, page


def settle(qtbot, page):
    qtbot.waitUntil(lambda: page.unclassified_op.task.finished, timeout=20000)


def test_art11_run_a_competence_and_issue_a_platform_guide_through_the_screen(qtbot, db, messages, tmp_path,
                                                                               qtmodeltester):
    from datetime import datetime

    from desktop.domain import clock

    # issued before its due date (10/11): a guide issued after it falls due on a date of its own (issue 23.3)
    clock.set_clock(clock.ticking(datetime(2026, 11, 9, 10, 0)))
    w, page = _page(qtbot, db)
    assert [page.unclassified.item(i).text().split(" — ")[0] for i in range(page.unclassified.count())] == \
        ["QAB4C04"]                          # Art. 11 §1: listed, not skipped
    assert page.totals.model.rows() == []
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.run_op.task.finished, timeout=20000)
    settle(qtbot, page)
    assert page.last_result is not None and page.last_result.vehicles == 3
    assert "3 veículos" in page.status_label.text()
    assert [(t.platform_name, t.vehicles) for t in page.totals.model.rows()] == [("Rota Serra", 1), ("Vai Já", 3)]
    assert "total R$\xa0270,00" in page.month_label.text()     # 3 vehicles × 90,00
    qtmodeltester.check(page.shares.model)
    assert len(page.shares.model.rows()) == 4 and page.count_label.text() == "4 de 4 linhas"
    # Emitir guia for Vai Já
    assert page.totals.select_where(lambda t: t.platform_name == "Vai Já")
    assert page.issue_button.isEnabled()
    qtbot.mouseClick(page.issue_button, Qt.MouseButton.LeftButton)
    assert "Guia nº 0001/2026 emitida" in page.status_label.text() and messages == []
    vai_ja = next(t for t in page.totals.model.rows() if t.platform_name == "Vai Já")
    assert vai_ja.guide_numbers == ("0001/2026",) and vai_ja.without_guide == 0
    assert not page.issue_button.isEnabled()          # one guide per platform and competência
    # filters: the text and the situation
    page.text_filter.setText("QAB2")
    assert [r.plate_display for r in page.shares.model.rows()] == ["QAB2C02"]
    page.text_filter.setText("")
    page.situation_filter.setCurrentIndex(page.situation_filter.findData("no_guide"))
    assert [r.platform_name for r in page.shares.model.rows()] == ["Rota Serra"]
    page.situation_filter.setCurrentIndex(0)
    # print the guide (archived, shown in the preview)
    page.print_guide()
    qtbot.waitUntil(lambda: page.print_op.task.finished, timeout=20000)
    text = " ".join(p_.extract_text() for p_ in PdfReader(io.BytesIO(page.last_issued.pdf)).pages)
    assert "0001/2026" in text and "competência 10/2026" in text and "Mobilidade Chapada Ltda" in text
    page.last_preview.close()
    # the guide is overdue (due 10/11/2026; today 18/11): the gestor charges QAB2C02's share to its driver
    clock.set_clock(clock.ticking(datetime(2026, 11, 18, 10, 0)))
    page.reload()
    settle(qtbot, page)
    assert page.shares.select_where(lambda r: r.plate_display == "QAB2C02")
    assert page.driver_button.isEnabled()
    qtbot.mouseClick(page.driver_button, Qt.MouseButton.LeftButton)
    page.last_dialog.reason_edit.setText("Plataforma não recolheu no vencimento")
    assert page.last_dialog.save()
    rows = {r.plate_display: r for r in page.shares.model.rows() if r.platform_name != "Rota Serra"}
    assert rows["QAB2C02"].substitute and rows["QAB2C02"].guide_number == "0002/2026"
    assert rows["QAB3C03"].guide_number == "0003/2026"           # the platform's guide reissued without it
    # cancel the reissued guide with a reason: its share is free again
    assert page.shares.select_where(lambda r: r.guide_number == "0003/2026")
    assert page.cancel_button.isEnabled()
    qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
    dialog = page.last_dialog
    assert not dialog.save() and dialog.errors.is_invalid("reason")      # a reason is required
    dialog.reason_edit.setText("Emitida com o veículo errado")
    assert dialog.save()
    assert all(r.guide_number != "0003/2026" for r in page.shares.model.rows())
    assert messages == []
    settle(qtbot, page)


def test_classify_chart_report_and_export_from_the_issqn_screen(qtbot, db, messages, tmp_path):
    w, page = _page(qtbot, db)
    page.unclassified.setCurrentRow(0)
    qtbot.mouseClick(page.classify_button, Qt.MouseButton.LeftButton)
    dialog = page.last_dialog
    dialog.class_combo.setCurrentIndex(dialog.class_combo.findText("PARCIAL", Qt.MatchFlag.MatchStartsWith))
    dialog.reason_edit.setText("Declaração de jornada parcial")
    assert dialog.save()
    settle(qtbot, page)
    assert page.unclassified.count() == 0
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.run_op.task.finished, timeout=20000)
    settle(qtbot, page)
    assert page.last_result.vehicles == 4
    page.open_chart()
    assert "matplotlib.backends.backend_qtagg" in sys.modules     # imported only when the chart opens
    assert page.chart_dialog.figure.axes[0].get_lines()
    page.chart_dialog.close()
    report = tmp_path / "issqn.pdf"
    page.save_report(str(report))
    qtbot.waitUntil(lambda: page.report_op.task.finished, timeout=30000)
    text = " ".join(p_.extract_text() for p_ in PdfReader(str(report)).pages)
    assert "competência 10/2026" in text and "Vai Já" in text and "Total do mês" in text
    out = tmp_path / "issqn.xlsx"
    page.export_to(str(out))
    qtbot.waitUntil(lambda: page.export_op.task.finished, timeout=20000)
    assert out.exists() and "linhas exportadas" in page.status_label.text()
    assert messages == []
    assert date(*page.month(), 1) == date(2026, 10, 1)
    settle(qtbot, page)


def test_vehicle_page_shows_the_class_history_and_classifies(qtbot, db, messages):
    from desktop.views.registry.vehicles import VehicleDetailPage

    w = build_world(db)
    classify(w, 0)
    page = VehicleDetailPage(db, w.gestor, w.vehicles[0])
    qtbot.addWidget(page)
    assert "Classe do ISSQN" in page.tab_titles()
    page.tabs.setCurrentWidget(page.issqn_tab)
    rows = page.issqn_tab.table.model.rows()
    assert [(r.class_code, r.decided_by_name) for r in rows] == [("INTEGRAL", "Chefe da Secretaria")]
    assert "INTEGRAL" in page.issqn_tab.note.text()
    assert page.issqn_tab.classify_button.isEnabled()
    page.issqn_tab.classify_button.click()
    dialog = page.issqn_tab.dialog
    dialog.class_combo.setCurrentIndex(dialog.class_combo.findText("PARCIAL", Qt.MatchFlag.MatchStartsWith))
    dialog.reason_edit.setText("Passou a trabalhar meio período")
    assert dialog.save()
    assert [r.class_code for r in page.issqn_tab.table.model.rows()] == ["PARCIAL", "INTEGRAL"]
    assert messages == []


def test_issue15_fares_reported_beside_the_estimate_offer_the_nearest_class(qtbot, db, messages):
    """Beside a vehicle's estimate: the fares the platforms reported that month and the class whose base is
    nearest, offered as a reclassification the gestor decides (Art. 11 §1; Art. 4 §1 V)."""
    from desktop.domain.trips import CSV_COLUMNS
    from desktop.models import Vehicle
    from desktop.services import issqn, trips

    w, page = _page(qtbot, db)
    with db.session(write=False) as s:
        plate = s.get(Vehicle, w.vehicles[0]).plate
    # vehicle 0 (INTEGRAL, base 3.000,00) reported 1.100,00 in 10/2026 (the platform's file): nearer PARCIAL
    cells = [{"ID da viagem": f"v-{i}", "Placa": plate, "CPF do condutor": "52998224725",
              "Início": f"0{5 + i}/10/2026 09:00:00", "Valor total (R$)": "550,00", "Taxa da plataforma (R$)": "110,00",
              "Distância (m)": "12000", "Tipo de chamada": "aplicativo"} for i in range(2)]
    content = "\n".join([";".join(CSV_COLUMNS.values()),
                         *(";".join(c.get(h, "") for h in CSV_COLUMNS.values()) for c in cells)]) + "\n"
    assert trips.import_trips(db, w.gestor, w.platforms[0], content.encode(), "viagens.csv").trips == 2
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.run_op.task.finished, timeout=20000)
    settle(qtbot, page)
    assert page.shares.select_where(lambda r: r.vehicle_id == w.vehicles[0])
    assert page.fares_button.isEnabled()
    dialog = page.show_fares()
    qtbot.addWidget(dialog)
    assert "2 viagem(ns)" in dialog.info_label.text() and "1.100,00" in dialog.info_label.text()
    assert "PARCIAL" in dialog.info_label.text() and "decisão do gestor" in dialog.info_label.text()
    assert dialog.class_combo.currentText().startswith("PARCIAL")        # offered, not applied
    assert "1.100,00" in dialog.reason_edit.text()
    history_before = issqn.vehicle_class_history(db, w.gestor, w.vehicles[0])
    assert [h.class_code for h in history_before] == ["INTEGRAL"]
    assert dialog.save()                                                   # the gestor decides
    # newest first: the new dated decision from 01/10/2026, the old one kept
    assert [h.class_code for h in issqn.vehicle_class_history(db, w.gestor, w.vehicles[0])] == ["PARCIAL", "INTEGRAL"]
    # a vehicle with no trip reported says so
    assert page.shares.select_where(lambda r: r.vehicle_id == w.vehicles[1])
    empty = page.show_fares()
    qtbot.addWidget(empty)
    assert "Nenhuma viagem" in empty.info_label.text()


def test_issue28_art11_notice_of_the_lancamento_from_the_issqn_screen(qtbot, db, messages):
    """CTN arts. 142, 145, 148: the selected platform's estimated competência notified with a click; the PDF names
    the vehicles, the rate, the total and the term to contest."""
    from datetime import datetime

    from hands import click_button, click_row

    from desktop.domain import clock
    from desktop.models import User
    from desktop.services import issqn, parameters

    clock.set_clock(clock.ticking(datetime(2026, 11, 9, 10, 0)))
    w, page = _page(qtbot, db)
    with db.session() as s:                 # who signs an act has an office and a matrícula (issue 28 point 2)
        user = s.get(User, w.gestor.user_id)
        user.office, user.registration = "Secretário Municipal de Finanças", "4.001-7"
    parameters.set_parameter(db, w.gestor, issqn.CONTEST_DAYS, date(2026, 1, 1), "30", "Código Tributário Municipal")
    page.finance.show()
    qtbot.waitExposed(page.finance)
    click_button(page.run_button)
    qtbot.waitUntil(lambda: page.run_op.task.finished, timeout=20000)
    settle(qtbot, page)
    assert not page.notice_button.isEnabled()              # no platform chosen yet
    names = [t.platform_name for t in page.totals.model.rows()]
    click_row(page.totals, names.index("Vai Já"))
    click_button(page.notice_button)
    qtbot.waitUntil(lambda: page.notice_op.task.finished, timeout=20000)
    assert messages == []
    text = " ".join(" ".join(p_.extract_text().split()) for p_ in PdfReader(io.BytesIO(page.last_issued.pdf)).pages)
    for element in ("NOTIFICAÇÃO DE LANÇAMENTO DO ISSQN ESTIMADO Nº NT-0001/2026", "Competência 10/2026",
                    "Mobilidade Chapada Ltda", "QAB1D23", "QAB2C02", "QAB3C03", "3,00 %", "Valor lançado R$ 225,00",
                    "30 dias", "Matrícula nº 4.001-7"):
        assert element in text, element
    page.last_preview.close()

def test_a_change_made_while_the_issqn_tab_is_hidden_shows_when_the_tab_is_clicked_again(qtbot, db, messages):
    """Issue 27 journey (c): a guide paid by the bank's file in "Retorno bancário" left the ISSQN tab showing it
    open — the page ignored the change while hidden and did not read again when shown."""
    from desktop.domain.entities import Entity
    from desktop.services import issqn
    from desktop.signals import bus

    w, page = _page(qtbot, db)
    finance = page.finance
    finance.show()
    qtbot.waitExposed(finance)
    assert page.totals.model.rows() == []
    bar = finance.tabs.tabBar()
    guides_tab = next(i for i in range(finance.tabs.count()) if finance.tabs.tabText(i) == "Guias")
    issqn_tab = next(i for i in range(finance.tabs.count()) if finance.tabs.tabText(i) == "ISSQN")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(guides_tab).center())
    assert not page.isVisible()
    issqn.run_competence(db, w.gestor, 2026, 10)       # done elsewhere (another screen, another desk)
    bus.data_changed.emit(Entity.ISSQN)
    assert page.totals.model.rows() == []              # hidden: not read yet
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(issqn_tab).center())
    assert page.isVisible()
    assert [t.platform_name for t in page.totals.model.rows()] == ["Rota Serra", "Vai Já"]
    settle(qtbot, page)
