"""The register's detail pages (driver, vehicle): the shared frame with the subject's authorization actions. The
pieces every detail page shares live in desktop.views.widgets.detail."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from desktop.domain.entities import Entity
from desktop.views.widgets.detail import (DOCUMENT_KINDS, DetailFrame, DocumentsPanel, InfoGrid,  # noqa: F401
                                          RecordPicker, TimelineTable, document_kind_label, size_text)
from desktop.views.authorizations.detail import AuthorizationWindow
from PySide6.QtWidgets import QDialog
from desktop.views.authorizations.changes import change_dialog
from desktop.signals import bus
from desktop.views.registry.dialogs import ActionDialog, FieldSpec


class SubjectDetailPage(DetailFrame):
    """What the driver's and the vehicle's pages share: their authorizations open in a window, a change
    communication (Art. 13 XVIII) reloads the page, and the gestor's descadastramento (Art. 24, I, d and f) asks
    reason, act and date, then tells every open screen. Subclasses set `db`, `actor`, `data` and `load()`."""

    entity: Entity   # Entity.DRIVERS or Entity.VEHICLES (the subclass says): the data_changed name of the subject

    def open_authorization(self, authorization_id: int):
        """Double-click on one of its authorizations: the authorization's page in its own window."""

        window = AuthorizationWindow(self.db, self.actor, authorization_id, self)
        self.last_dialog = window
        window.show()
        return window

    def _record_change_for(self, **subject) -> None:

        dialog = change_dialog(self.db, self.actor, self, **subject)
        self.last_dialog = dialog
        loaded = self.data
        if dialog.exec() == QDialog.DialogCode.Accepted and self.data is loaded:
            self.load()

    def _deregister_with(self, title: str, text: str, call: Callable[[dict], Any]) -> None:

        dialog = ActionDialog(
            title, text,
            [FieldSpec("reason", "Motivo", "multiline"), FieldSpec("act_number", "Número do ato"),
             FieldSpec("on", "Data", "date")],
            call, self, ok_text="Descadastrar", on_stale=self.load)
        self.last_dialog = dialog
        if dialog.exec() == QDialog.DialogCode.Accepted:
            bus.data_changed.emit(self.entity)
            bus.data_changed.emit(Entity.AUTHORIZATIONS)
