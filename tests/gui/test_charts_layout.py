"""Charts on screen (issue 27 point 5): pt-BR ticks through the locale module, the legend below the plot (not
cut at "Imp…", not over the bars), the layout made for the canvas."""
from __future__ import annotations

from datetime import date

import pytest


@pytest.mark.parametrize("value, text", [(8000.0, "8.000"), (1.5, "1,5"), (0.0, "0"), (1234567.0, "1.234.567")])
def test_ticks_are_written_the_brazilian_way(value, text):
    from desktop.views.charts import tick_text

    assert tick_text(value) == text


def test_the_statistics_chart_has_its_legend_below_and_pt_br_ticks(qtbot, db):
    from desktop.demo.entry import load_demo

    load_demo(db, drivers=20, seed=5, today=date(2026, 11, 18))
    from desktop.services import auth
    from desktop.views.reports.statistics import StatisticsPanel

    actor = auth.login(db, "gabriela.gestora", "demo12345")
    panel = StatisticsPanel(db, actor, lambda *_a: None)
    qtbot.addWidget(panel)
    panel.resize(1100, 600)
    panel.show()
    row = next(i for i in range(panel.list.count()) if "situação" in panel.list.item(i).text().lower())
    from hands import click_row

    click_row(panel.list, row)
    qtbot.waitUntil(lambda: panel.canvas is not None and panel.table_data is not None, timeout=30000)
    figure = panel.canvas.figure
    panel.canvas.draw()
    ax = figure.get_axes()[0]
    assert ax.get_legend() is None and figure.legends, "the legend left the axes"
    legend = figure.legends[0].get_window_extent()
    plot = ax.get_window_extent()
    assert legend.y1 <= plot.y0 + 1 and legend.x0 >= 0 and legend.x1 <= figure.bbox.width + 1   # below, whole
    ticks = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert ticks and all("," not in t or "." not in t.split(",")[1] for t in ticks)
    big = [t for t in ticks if len(t.replace(".", "")) >= 4]
    assert all("." in t for t in big), ticks
