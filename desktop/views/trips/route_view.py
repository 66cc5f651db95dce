"""The route of one trip drawn on a plain canvas (no map tiles: the office has no internet): the line of the
reported points, start and end marked, a scale bar, north up and the coordinates of the ends; and the dialog that
shows it with "Imprimir (PDF)…" (services.trips.print_route: numbered, archived, logged)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QLabel, QPushButton, QVBoxLayout, QWidget)

from desktop.domain.formatting import format_cpf, format_datetime, format_money, format_plate
from desktop.domain.trips import project, route_length_m, scale_bar_m, scale_label
from desktop.views.operations import op
from desktop.domain.entities import Entity
from desktop.services import trips

LINE = QColor("#00838f")
START = QColor("#2e7d32")
END = QColor("#c62828")


class RouteCanvas(QWidget):
    """Draws `points` ((lat, lon), ...) scaled to the widget; `drawn` counts the paints with a line (tests)."""

    PAD = 28

    def __init__(self, parent=None):
        super().__init__(parent)
        self.points: tuple[tuple[float, float], ...] = ()
        self.drawn = 0
        self.scale_text = ""
        self.setMinimumSize(480, 360)
        self.setAutoFillBackground(True)
        pal = self.palette()
        pal.setColor(self.backgroundRole(), QColor("white"))
        self.setPalette(pal)

    def set_points(self, points) -> None:
        self.points = tuple((float(a), float(b)) for a, b in points)
        self.update()

    def mapping(self):
        """(function metres → widget point, metres per pixel)."""
        xy = project(self.points)
        xs, ys = [p[0] for p in xy], [p[1] for p in xy]
        w, h = self.width() - 2 * self.PAD, self.height() - 2 * self.PAD
        k = min(w / max(max(xs) - min(xs), 50.0), h / max(max(ys) - min(ys), 50.0))
        cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2

        def at(p):
            return QPointF(self.width() / 2 + (p[0] - cx) * k, self.height() / 2 - (p[1] - cy) * k)

        return xy, at, k

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#9e9e9e"), 1))
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))
        if len(self.points) < 2:
            painter.setPen(QColor("#616161"))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter,
                             "A plataforma não informou o trajeto desta viagem.")
            painter.end()
            return
        xy, at, k = self.mapping()
        path = QPainterPath(at(xy[0]))
        for p in xy[1:]:
            path.lineTo(at(p))
        painter.setPen(QPen(LINE, 3))
        painter.drawPath(path)
        for p, colour, label in ((xy[0], START, "Início"), (xy[-1], END, "Fim")):
            point = at(p)
            painter.setPen(QPen(QColor("white"), 2))
            painter.setBrush(colour)
            painter.drawEllipse(point, 6, 6)
            painter.setPen(QColor("black"))
            painter.drawText(point + QPointF(9, -6), label)
        bar = scale_bar_m((self.width() - 2 * self.PAD) / k)
        length = bar * k
        y = self.height() - 14
        painter.setPen(QPen(QColor("black"), 2))
        painter.drawLine(QPointF(self.PAD, y), QPointF(self.PAD + length, y))
        painter.drawLine(QPointF(self.PAD, y - 5), QPointF(self.PAD, y + 5))
        painter.drawLine(QPointF(self.PAD + length, y - 5), QPointF(self.PAD + length, y + 5))
        self.scale_text = scale_label(bar)
        painter.drawText(QPointF(self.PAD + length + 6, y + 4), self.scale_text)
        painter.drawText(QPointF(self.width() - 30, 20), "N ↑")
        start, end = self.points[0], self.points[-1]
        painter.setPen(QColor("#424242"))
        painter.drawText(QPointF(8, 16), f"Início {start[0]:.6f}, {start[1]:.6f}")
        painter.drawText(QPointF(8, 32), f"Fim {end[0]:.6f}, {end[1]:.6f}")
        painter.end()
        self.drawn += 1


class RouteDialog(QDialog):
    """One trip's route (services.trips.route: viewing it is logged)."""

    def __init__(self, db, actor, route, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.route = db, actor, route
        self.issued = None
        trip = route.trip
        self.setWindowTitle(f"Trajeto da viagem {trip.external_id}")
        self.canvas = RouteCanvas(self)
        self.canvas.set_points([(p.lat, p.lon) for p in route.points])
        length = route_length_m(self.canvas.points) if len(self.canvas.points) > 1 else 0
        self.facts = QLabel(
            f"Plataforma {route.platform_name} · condutor {format_cpf(trip.driver_cpf or '')} · placa "
            f"{format_plate(trip.plate or '')}\nInício {format_datetime(trip.started_at)}"
            + (f" · fim {format_datetime(trip.ended_at)}" if trip.ended_at else "")
            + (f" · {format_money(trip.fare_total)}" if trip.fare_total is not None else "")
            + f"\nTraçado: {len(route.points)} pontos, {length / 1000:.2f} km".replace(".", ","), self)
        self.print_button = QPushButton("Imprimir (PDF)…", self)
        self.print_button.clicked.connect(self.choose_pdf)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        buttons.addButton(self.print_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(self.facts)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(buttons)
        self.resize(760, 620)

    def choose_pdf(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Salvar trajeto em PDF",
                                              f"trajeto-{self.route.trip.external_id}.pdf", "PDF (*.pdf)")
        if path:
            self.print_to(path)

    def print_to(self, path: str) -> bool:

        trip_id = self.route.trip.id

        def done(issued) -> None:
            with open(path, "wb") as handle:
                handle.write(issued.pdf)
            self.issued = issued

        return op(self, lambda state: trips.print_route(self.db, self.actor, trip_id, state)) \
            .changes(Entity.ISSUED_DOCUMENT).background("Imprimindo o trajeto", pass_state=True).success(done).run()
