"""The chart of fares over months (matplotlib's Qt canvas, imported only when a chart is first drawn: start-up
budget, NOTES)."""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget
from desktop.views.charts import tidy


class FaresChart(QWidget):
    """Bars of the total fare per month, with the platform's share; `draw(months)` takes MonthTotal rows."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.canvas = None
        self.figure = None
        self.months: tuple = ()
        self.hint = QLabel("Escolha uma linha da tabela e clique em «Gráfico por mês».", self)
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self.layout_.addWidget(self.hint)
        self.setMinimumHeight(220)

    def draw(self, months, title: str = "") -> None:
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg  # lazy: matplotlib loads only when this runs (start-up cost)
        from matplotlib.figure import Figure  # lazy: matplotlib loads only when this runs (start-up cost)

        self.months = tuple(months)
        if self.canvas is None:
            self.figure = Figure(figsize=(6, 2.6))   # laid out by views.charts.tidy
            self.canvas = FigureCanvasQTAgg(self.figure)
            self.canvas.setParent(self)
            self.layout_.addWidget(self.canvas, 1)
            self.hint.setVisible(False)
        self.figure.clear()
        ax = self.figure.add_subplot(111)
        labels = [m.month[5:] + "/" + m.month[:4] for m in self.months]
        totals = [float(m.total) for m in self.months]
        shares = [float(m.platform_share) for m in self.months]
        ax.bar(labels, totals, color="#00838f", label="Valor total (R$)")
        ax.bar(labels, shares, color="#ffb300", label="Taxa da plataforma (R$)")
        ax.set_title(title or "Tarifas por mês", fontsize=10)
        ax.tick_params(labelsize=8)
        ax.legend(fontsize=8)

        tidy(self.figure)
        self.canvas.draw()
