"""Administração → Município: the municipality's data printed on documents (optimistic locking: when another
desk saved first, the save is refused, the user is told and the screen reloads)."""
from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.views.municipality_form import MunicipalityForm
from desktop.views.operations import op
from desktop.domain.entities import Entity
from desktop.signals import bus
from desktop.services import setup


class MunicipalityScreen(QWidget):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.info = None
        self.form = MunicipalityForm(self, extended=True)
        self.save_button = QPushButton("Salvar", self)
        self.reload_button = QPushButton("Recarregar", self)
        self.save_button.clicked.connect(lambda: self.save())
        self.reload_button.clicked.connect(self.reload)
        self.status = QLabel(self)
        self.status.setStyleSheet("color: #555;")
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.reload_button)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.form)
        layout.addLayout(buttons)
        layout.addStretch(1)
        bus.data_changed.connect(self._data_changed)
        self.reload()

    def _data_changed(self, entity: str) -> None:
        if entity in (Entity.SETUP,):
            self.reload()

    def reload(self) -> None:

        op(self, lambda: setup.get_municipality(self.db)).titled(
            "Não foi possível carregar os dados do município").success(self._show).run()

    def _show(self, info) -> None:
        self.info = info
        self.form.errors.clear()
        self.form.set_values(info)
        self.status.setText("")

    def draft(self):

        values = self.form.values()
        fields = getattr(setup.MunicipalityDraft, "__dataclass_fields__", {})
        # The draft also carries the UPFM of the set-up year; the value itself is maintained in Parâmetros.
        for name in ("upfm_year", "upfm_value"):
            if name in fields:
                values[name] = getattr(self.info, name, None)
        return setup.MunicipalityDraft(**values)

    def save(self) -> bool:

        if self.info is None:
            return False
        draft, version = self.draft(), self.info.version
        return op(self, lambda: setup.update_municipality(self.db, self.actor, draft, version)) \
            .fields(self.form.errors).stale(self._reload_after_stale, ask=False).changes(Entity.MUNICIPALITY) \
            .success(self._saved).run()

    def _saved(self, info) -> None:
        self._show(info)
        self.status.setText("Dados do município salvos.")

    def _reload_after_stale(self) -> None:
        self.reload()
        self.status.setText("Dados recarregados: confira e refaça a alteração.")
