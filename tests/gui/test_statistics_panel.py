"""Relatórios → Estatísticas (issue 16): the secretary picks each statistic, sees its chart and table, exports
PDF and Excel, and issues the monthly management report; matplotlib stays out of the start-up."""
from __future__ import annotations

import subprocess
import sys
from datetime import date

import pytest

from desktop.services import auth
from desktop.demo.entry import load_demo
from desktop.views.reports import ReportsPage


@pytest.fixture
def demo_db(db):
    load_demo(db, drivers=60, seed=5, today=date(2026, 11, 18))
    return db


def _page(qtbot, db, username):
    actor = auth.login(db, username, "demo12345")
    previews = []
    page = ReportsPage(db, actor, preview_factory=lambda pdf, title, parent, name: previews.append(
        (pdf, title, name)) or _Shown())
    qtbot.addWidget(page)
    return page, previews


class _Shown:
    def show(self):
        pass


def test_every_statistic_draws_its_chart_and_table(qtbot, demo_db, tmp_path):
    from desktop.services.statistics import STATISTICS

    page, previews = _page(qtbot, demo_db, "gabriela.gestora")
    panel = page.show_tab("statistics")
    qtbot.waitUntil(lambda: panel.table_data is not None, timeout=20000)
    assert panel.table_data.key == "authorizations_by_status"
    assert panel.canvas is not None and panel.grid.rowCount() == 12
    for definition in STATISTICS:
        panel.table_data = None
        panel.choose(definition.key)
        qtbot.waitUntil(lambda: panel.table_data is not None, timeout=20000)
        assert panel.table_data.key == definition.key
        assert panel.title_label.text() == definition.title
        assert panel.grid.columnCount() == len(panel.table_data.headers)
        assert panel.grid.horizontalHeaderItem(0).text() == panel.table_data.headers[0]
    # revenue: the totals row is bold and last
    panel.table_data = None
    panel.choose("revenue")
    qtbot.waitUntil(lambda: panel.table_data is not None, timeout=20000)
    last = panel.grid.rowCount() - 1
    assert panel.grid.item(last, 0).text() == "Total" and panel.grid.item(last, 0).font().bold()

    out = tmp_path / "arrecadacao.xlsx"
    assert panel.export_xlsx(str(out))
    assert out.exists() and out.stat().st_size > 1000 and panel.saved_path == str(out)

    panel.export_pdf()
    qtbot.waitUntil(lambda: len(previews) == 1, timeout=20000)
    assert previews[0][0].startswith(b"%PDF") and "Estatísticas — documento nº" in previews[0][1]

    panel.management_report()
    qtbot.waitUntil(lambda: len(previews) == 2, timeout=30000)
    assert "Relatório gerencial" in previews[1][1]
    assert previews[1][2].startswith("relatorio-gerencial-")


def test_the_period_is_checked_and_the_report_needs_a_gestor(qtbot, demo_db, messages):
    from PySide6.QtCore import QDate

    page, _previews = _page(qtbot, demo_db, "ana.atendente")
    panel = page.show_tab("statistics")
    qtbot.waitUntil(lambda: panel.table_data is not None, timeout=20000)
    assert not panel.report_button.isEnabled() and "Gestor" in panel.report_button.toolTip()
    panel.from_edit.setDate(QDate(2026, 11, 1))
    panel.to_edit.setDate(QDate(2026, 1, 1))
    panel.table_data = None
    panel.refresh()
    qtbot.waitUntil(lambda: bool(messages), timeout=20000)
    assert "mês inicial é posterior" in messages[-1][2]


def test_a_vistoriador_has_no_statistics_tab(qtbot, demo_db):
    page, _ = _page(qtbot, demo_db, "vitor.vistoriador")
    assert page.statistics_panel is None
    assert "Estatísticas" not in [page.tabs.tabText(i) for i in range(page.tabs.count())]


def test_matplotlib_is_not_imported_by_the_main_window_or_the_reports_page():
    code = ("import sys; import desktop.views.main_window, desktop.views.reports, desktop.views.reports.statistics, "
            "desktop.services.statistics, desktop.reports.statistics; "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
