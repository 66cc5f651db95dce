"""A list screen whose rows open a detail page in place (list ⇄ detail in a stack), reloading both when the
app-wide `bus.data_changed` names one of its entities (STYLE: Anki's one signal after each write)."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QStackedWidget, QVBoxLayout, QWidget

from desktop.views.registry.paged import PagedList
from desktop.views.widgets import show_error
from desktop.domain.entities import Entity
from desktop.signals import bus


class ListDetailScreen(QWidget):
    def __init__(self, db, actor, parent=None, entities: Iterable[str] = ()):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self._entities = set(entities)
        self.stack = QStackedWidget(self)
        self.list_page = QWidget(self.stack)
        self.list_layout = QVBoxLayout(self.list_page)
        self.list_layout.setContentsMargins(0, 0, 0, 0)
        self.buttons = QHBoxLayout()
        self.list_layout.addLayout(self.buttons)
        # Issue 16: a home-dashboard tile's filter ("due"), shown as a banner with a button that clears it.
        self.due = ""
        self.due_banner = QWidget(self.list_page)
        banner = QHBoxLayout(self.due_banner)
        banner.setContentsMargins(0, 0, 0, 0)
        self.due_label = QLabel(self.due_banner)
        self.due_label.setStyleSheet("color: #1565c0; font-weight: bold;")
        self.due_clear = QPushButton("Limpar filtro do painel", self.due_banner)
        self.due_clear.clicked.connect(lambda: self.set_due("", ""))
        banner.addWidget(self.due_label, 1)
        banner.addWidget(self.due_clear)
        self.due_banner.setVisible(False)
        self.list_layout.addWidget(self.due_banner)
        self.stack.addWidget(self.list_page)
        self.detail = None
        self.list: PagedList | None = None
        self._detail_factory: Callable[[int], QWidget] | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        bus.data_changed.connect(self._data_changed)

    def set_list(self, paged: PagedList, detail_factory: Callable[[int], QWidget]) -> None:
        """`detail_factory(record_id)` builds the detail page (a DetailFrame with `load()`)."""
        self.list = paged
        self._detail_factory = detail_factory
        self.buttons.addStretch(1)
        self.list_layout.addWidget(paged, 1)
        paged.activated.connect(lambda row: row is not None and self.open_detail(row.id))
        paged.apply_filter()

    def set_due(self, due: str, label: str) -> None:
        """Show only the rows of a dashboard tile (the fetch reads `self.due`), or all again with ""."""
        self.due = due
        self.due_label.setText(f"Filtro do painel: {label}" if due else "")
        self.due_banner.setVisible(bool(due))
        self.close_detail()
        if self.list is not None:
            self.list.apply_filter()

    def add_button(self, text: str, slot: Callable[[], None]) -> QPushButton:
        button = QPushButton(text, self.list_page)
        button.clicked.connect(slot)
        self.buttons.addWidget(button)
        return button

    # -- detail --------------------------------------------------------------------------------------------
    def open_detail(self, record_id: int):
        """Show the record's detail page. The page is built once and reused (`open_record`), so opening the next
        record costs one service call and a repaint, not a new set of widgets."""
        try:
            if self.detail is not None:
                self.detail.open_record(record_id)
            else:
                self.detail = self._detail_factory(record_id)
                self.detail.back_requested.connect(self.close_detail)
                self.stack.addWidget(self.detail)
        except Exception as error:  # noqa: BLE001 — e.g. NotFound: removed by another desk
            show_error(self, error, "Não foi possível abrir o registro")
            return None
        self.stack.setCurrentWidget(self.detail)
        return self.detail

    def close_detail(self) -> None:
        self.stack.setCurrentWidget(self.list_page)

    def detail_shown(self) -> bool:
        return self.detail is not None and self.stack.currentWidget() is self.detail

    def _data_changed(self, entity: str) -> None:
        if entity in self._entities or entity in (Entity.DEMO, Entity.SETUP):
            if self.list is not None:
                self.list.reload()
            if self.detail_shown():
                self.detail.load()
