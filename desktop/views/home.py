"""The home page (issue 16): what is due today for the user's roles, as a grid of tiles — the count, the title,
the last timely day — read by `services.dashboard` off the UI thread. A click opens the module with the list
behind the tile (`MainWindow.open_target`). It reloads when data changes (`bus.data_changed`, also emitted by
the routines of the day) and when the day turns (checked each minute); the 24-hour data-request tile (Art. 4,
§2) counts down each second (the only timer that ticks that often).

Start-up: this module imports only QtWidgets; the services load in the background job the first time it runs.
"""
from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QTimer, Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QScrollArea, QSizePolicy, QToolButton, QVBoxLayout, QWidget
from desktop.services.dashboard import dashboard
from desktop.domain.formatting import format_date
from desktop import APP_NAME
from desktop.signals import bus
from desktop.domain.dates import local_today
from desktop.background import Task
from desktop.views.widgets import error_text
from desktop.domain.dates import local_now

COLUMNS = 4
DAY_CHECK_MS = 60 * 1000
RELOAD_DELAY_MS = 400        # several data_changed in a row reload once
FIRST_LOAD_DELAY_MS = 150    # after the main window's first paint (start-up budget: the worker's imports wait)
COLORS = {"ok": ("#e8f5e9", "#2e7d32"), "info": ("#e3f2fd", "#1565c0"), "warning": ("#fff8e1", "#e65100"),
          "danger": ("#ffebee", "#c62828")}


def load_dashboard(state, db, actor):

    return dashboard(db, actor)


def countdown_text(due_at: datetime, now: datetime) -> str:
    """"faltam 04:59:59" / "vencida há 00:10:00" for the 24-hour term of a requisição (Art. 4, §2; feminine)."""
    seconds = int((due_at - now).total_seconds())
    sign, seconds = ("faltam ", seconds) if seconds >= 0 else ("vencida há ", -seconds)
    return f"{sign}{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


class TileButton(QToolButton):
    """One tile: count, title, deadline line, detail line; its colour says the severity."""

    def __init__(self, tile, parent=None):
        super().__init__(parent)
        self.tile = tile
        self.setObjectName(f"tile_{tile.key}")
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumSize(220, 118)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.addWidget(self.label)
        background, border = COLORS.get(tile.severity, COLORS["info"])
        self.setStyleSheet(f"QToolButton {{ background: {background}; border: 1px solid {border}; "
                           f"border-left: 6px solid {border}; border-radius: 6px; }}"
                           f"QToolButton:hover {{ border-width: 2px; border-left-width: 6px; }}")
        self.countdown = ""
        self.setAccessibleName(tile.title)
        self.render()

    def deadline_text(self) -> str:

        t = self.tile
        if t.deadline_at is not None:
            from desktop.domain.dates import local_now  # local: imported only on this branch

            return f"{t.deadline_label}: {t.deadline_at.astimezone(local_now().tzinfo):%d/%m/%Y %H:%M}" + (
                f" — {self.countdown}" if self.countdown else "")
        if t.deadline is not None:
            return f"{t.deadline_label}: {format_date(t.deadline)}"
        return ""

    def render(self) -> None:
        t = self.tile
        _, color = COLORS.get(t.severity, COLORS["info"])
        lines = [f"<span style='font-size:20pt; font-weight:bold; color:{color}'>{t.count}</span>",
                 f"<b>{t.title}</b>"]
        deadline = self.deadline_text()
        if deadline:
            lines.append(f"<span style='color:#424242'>{deadline}</span>")
        if t.detail:
            lines.append(f"<span style='color:{color}'>{t.detail}</span>")
        if t.article:
            lines.append(f"<span style='color:#757575; font-size:8pt'>{t.article}</span>")
        self.label.setText("<br>".join(lines))
        self.setToolTip(f"{t.title}: {t.count}. Clique para abrir a lista.")

    def tick(self, now: datetime) -> None:
        if self.tile.deadline_at is not None:
            self.countdown = countdown_text(self.tile.deadline_at, now)
            self.render()


class HomePage(QWidget):
    """The grid of tiles. `target_requested(Target)` asks the main window to open the module and the filter."""

    target_requested = Signal(object)
    loaded = Signal(object)      # the Dashboard shown

    def __init__(self, db, actor, parent=None, autoload: bool = True):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.board = None
        self.buttons: dict[str, TileButton] = {}
        self.task = None
        self._pending = False
        heading = QLabel(f"<h2>{APP_NAME}</h2><p>Bem-vindo(a), {actor.full_name}. O que vence hoje para os seus "
                         "perfis — clique num quadro para abrir a lista.</p>", self)
        heading.setWordWrap(True)
        self.status_label = QLabel("Carregando o painel…", self)
        self.status_label.setStyleSheet("color: #616161;")
        self.error_label = QLabel(self)
        self.error_label.setStyleSheet("color: #c62828;")
        self.error_label.setWordWrap(True)
        self.error_label.setVisible(False)
        self.grid_host = QWidget(self)
        self.grid = QGridLayout(self.grid_host)
        self.grid.setSpacing(10)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(self.grid_host)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 16, 32, 16)
        layout.addWidget(heading)
        layout.addWidget(self.status_label)
        layout.addWidget(self.error_label)
        layout.addWidget(scroll, 1)

        self.reload_timer = QTimer(self)
        self.reload_timer.setSingleShot(True)
        self.reload_timer.setInterval(RELOAD_DELAY_MS)
        self.reload_timer.timeout.connect(self.reload)
        self.day_timer = QTimer(self)
        self.day_timer.setInterval(DAY_CHECK_MS)
        self.day_timer.timeout.connect(self.check_day)
        self.day_timer.start()
        self.countdown_timer = QTimer(self)     # runs only while a tile carries a date-time term
        self.countdown_timer.setInterval(1000)
        self.countdown_timer.timeout.connect(self.tick)
        self.shown_day = None
        bus.data_changed.connect(self._data_changed)
        self._autoload = autoload

    def showEvent(self, event) -> None:  # noqa: N802 — Qt name
        """The first load starts once the page is shown, a moment after the window paints."""
        super().showEvent(event)
        if self._autoload:
            self._autoload = False
            QTimer.singleShot(FIRST_LOAD_DELAY_MS, self.reload)

    # -- loading --------------------------------------------------------------------------------------------
    def _data_changed(self, _entity: str) -> None:
        self.reload_timer.start()

    def check_day(self) -> None:

        if self.shown_day is not None and local_today() != self.shown_day:
            self.reload()

    def reload(self) -> None:

        self.reload_timer.stop()
        if self.task is not None and not self.task.finished:
            self._pending = True
            return
        self.task = Task(load_dashboard, self.db, self.actor).success(self.show_board).failure(self._failed) \
            .run_in_background(self, show_progress=False)

    def _failed(self, error: BaseException) -> None:

        self.error_label.setText(f"Não foi possível carregar o painel: {error_text(error)}")
        self.error_label.setVisible(True)
        self._again()

    def _again(self) -> None:
        if self._pending:
            self._pending = False
            QTimer.singleShot(0, self.reload)

    def show_board(self, board) -> None:

        self.board = board
        self.shown_day = board.as_of.date()
        self.error_label.setVisible(False)
        for button in self.buttons.values():
            self.grid.removeWidget(button)
            button.deleteLater()
        self.buttons = {}
        for index, tile in enumerate(board.tiles):
            button = TileButton(tile, self.grid_host)
            button.clicked.connect(lambda _checked=False, t=tile: self.open_tile(t.key))
            self.grid.addWidget(button, index // COLUMNS, index % COLUMNS)
            self.buttons[tile.key] = button
        self.grid.setRowStretch(len(board.tiles) // COLUMNS + 1, 1)
        pending = sum(1 for t in board.tiles if t.count and t.severity != "ok" and t.key != "checkpoint")
        self.status_label.setText(f"Situação em {format_date(board.as_of.date())} às {board.as_of:%H:%M} — "
                                  f"{pending} quadro(s) com pendências.")
        if any(t.deadline_at is not None for t in board.tiles):
            self.tick()
            self.countdown_timer.start()
        else:
            self.countdown_timer.stop()
        self.loaded.emit(board)
        self._again()

    def tick(self) -> None:

        now = local_now()
        for button in self.buttons.values():
            if button.tile.deadline_at is not None:
                button.tick(now)

    # -- clicks ---------------------------------------------------------------------------------------------
    def tile_keys(self) -> list[str]:
        return list(self.buttons)

    def open_tile(self, key: str) -> None:
        self.target_requested.emit(self.buttons[key].tile.target)
