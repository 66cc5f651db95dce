"""The scheduler's dialogs: book a slot, move a booking (with the reason), run an inspection (the checklist).
Each one calls one service on OK through `op(...)` and stays open with the message when the service refuses."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout,
                               QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout)

from desktop.domain import INSPECTION_CHECKLIST, TIMEZONE, InspectionKind
from desktop.domain.inspection import failure_preview, kind_statuses
from desktop.domain.roles import Role
from desktop.errors import DesktopError, StaleRecordError
from desktop.views.formatting import format_date
from desktop.views.operations import op
from desktop.views.widgets import error_label, error_text
from desktop.services import authorizations as auth_service
from desktop.services import inspections as service

MAX_LISTED = 400  # the first free slots, in time order (the calendar shows them all)
KIND_CHOICES = [(k.value, f"{k.label} ({k.article})") for k in InspectionKind]


def inline(label):
    """An `op(...).failure()` callback that shows a refusal of the service in the dialog's own error label (the
    dialog stays open); a stale record and unexpected errors go on to op's message boxes."""
    def show(error: BaseException) -> bool:
        if not isinstance(error, DesktopError) or isinstance(error, StaleRecordError):
            return False
        label.setText(error_text(error))
        label.setVisible(True)
        return True
    return show


def slot_text(slot, names: dict[int, str]) -> str:
    local = slot.start.astimezone(TIMEZONE)
    return f"{format_date(local.date())} {local:%H:%M} — {names.get(slot.inspector_id, '')}"


def _same_slot(a, b) -> bool:
    return b is not None and a.inspector_id == b.inspector_id and a.start == b.start


class _SlotList(QListWidget):
    """The free slots; what each row stands for is kept in Python (no Python objects inside Qt items)."""

    def fill(self, options, names: dict[int, str], can_override: bool, preferred=None) -> None:
        self.clear()
        self.choices: list[tuple[object, bool]] = []
        for slot in options.slots[:MAX_LISTED]:
            item = QListWidgetItem(slot_text(slot, names))
            self.choices.append((slot, False))
            self.addItem(item)
            if _same_slot(slot, preferred):
                self.setCurrentItem(item)
        if can_override:
            for slot in options.outside_term[:MAX_LISTED]:
                item = QListWidgetItem(f"⚠ {slot_text(slot, names)} — fora do prazo ({options.term_article})")
                self.choices.append((slot, True))
                self.addItem(item)
                if _same_slot(slot, preferred):
                    self.setCurrentItem(item)
        if self.currentItem() is None and self.count():
            self.setCurrentRow(0)

    def chosen(self):
        row = self.currentRow()
        choices = getattr(self, "choices", [])
        return choices[row] if 0 <= row < len(choices) else (None, False)


class BookDialog(QDialog):
    """Agendar vistoria: the authorization, the kind, a free slot (inside the Art. 9 / Art. 16 §2 term; a gestor
    also sees the slots after it, marked, and must give the reason)."""

    def __init__(self, db, actor, names: dict[int, str], preferred_slot=None, parent=None):
        super().__init__(parent)
        self._auth, self._service = auth_service, service
        self.db, self.actor, self.names, self.preferred = db, actor, names, preferred_slot
        self.setWindowTitle("Agendar vistoria")
        self.resize(640, 560)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Número da autorização, placa, CPF ou nome do condutor")
        self.kind = QComboBox(self)
        for value, label in KIND_CHOICES:
            self.kind.addItem(label, value)
        self.authorizations = QListWidget(self)
        self.term = QLabel(self)
        self.term.setWordWrap(True)
        self.slots = _SlotList(self)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText("Obrigatório para marcar fora do prazo (gestor)")
        self.error = error_label(self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Agendar")
        buttons.accepted.connect(self.submit)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Tipo", self.kind)
        form.addRow("Buscar", self.search)
        form.addRow("Autorização", self.authorizations)
        form.addRow("Prazo", self.term)
        form.addRow("Horário livre", self.slots)
        form.addRow("Motivo (fora do prazo)", self.reason)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.result_booking = None
        self.search.textChanged.connect(self.load_authorizations)
        self.kind.currentIndexChanged.connect(self.load_authorizations)
        self.authorizations.currentItemChanged.connect(lambda *_: self.load_slots())
        self.load_authorizations()

    def set_kind(self, kind: str) -> None:
        self.kind.setCurrentIndex(self.kind.findData(kind))

    def load_authorizations(self) -> None:
        self.authorizations.clear()
        self.authorization_ids: list[int] = []
        statuses = kind_statuses(self.kind.currentData())  # the kind's statuses (domain: KIND_STATUSES)
        op(self, lambda: self._auth.list_authorizations(self.db, self.actor, self.search.text(), statuses=statuses,
                                                        limit=50)) \
            .failure(inline(self.error)).success(self._show_authorizations).run()

    def _show_authorizations(self, page) -> None:
        for row in page.rows:
            item = QListWidgetItem(f"{row.number or '(sem número)'} — {row.plate_display} — {row.driver_name} "
                                   f"({row.status_label})")
            self.authorization_ids.append(row.id)
            self.authorizations.addItem(item)
        if self.authorizations.count():
            self.authorizations.setCurrentRow(0)
        else:
            self.slots.clear()
            self.term.setText("Nenhuma autorização nesta situação.")

    def select_authorization(self, authorization_id: int) -> bool:
        if authorization_id in self.authorization_ids:
            self.authorizations.setCurrentRow(self.authorization_ids.index(authorization_id))
            return True
        return False

    def current_authorization(self) -> int | None:
        row = self.authorizations.currentRow()
        return self.authorization_ids[row] if 0 <= row < len(self.authorization_ids) else None

    def load_slots(self) -> None:
        authorization_id = self.current_authorization()
        self.slots.clear()
        if authorization_id is None:
            return
        kind = self.kind.currentData()
        op(self, lambda: self._service.booking_options(self.db, self.actor, authorization_id, kind)) \
            .failure(inline(self.error)).success(self._show_options).run()

    def _show_options(self, options) -> None:
        self.error.setVisible(False)
        if options.term_last_day:
            self.term.setText(f"Até {format_date(options.term_last_day)} ({options.term_article}). "
                              f"{len(options.slots)} horário(s) livre(s) no prazo.")
        else:
            self.term.setText(f"Sem prazo legal. {len(options.slots)} horário(s) livre(s) nos próximos 30 dias.")
        self.slots.fill(options, self.names, self.actor.has(Role.GESTOR), self.preferred)

    def submit(self) -> None:
        authorization_id = self.current_authorization()
        slot, outside = self.slots.chosen()
        if authorization_id is None or slot is None:
            self.error.setText("Escolha a autorização e um horário livre.")
            self.error.setVisible(True)
            return
        kind, reason = self.kind.currentData(), self.reason.text()
        show = inline(self.error)

        def refused(error: BaseException) -> bool:
            self.load_slots()  # another desk may have taken the slot: offer what is free now, then say why
            return show(error)

        op(self, lambda: self._service.book_inspection(self.db, self.actor, authorization_id, kind,
                                                       slot.inspector_id, slot.start, override_term=outside,
                                                       reason=reason)) \
            .failure(refused).success(self._booked).run()

    def _booked(self, booking) -> None:
        self.result_booking = booking
        self.accept()


class MoveDialog(QDialog):
    """Remarcar: another free slot and the reason (kept with the booking)."""

    def __init__(self, db, actor, booking, names: dict[int, str], target=None, parent=None):
        super().__init__(parent)
        self._service = service
        self.db, self.actor, self.booking, self.target = db, actor, booking, target
        self.setWindowTitle(f"Remarcar vistoria — {booking.plate_display}")
        self.resize(560, 480)
        local = booking.start.astimezone(TIMEZONE)
        info = QLabel(f"{booking.kind_label} marcada para {format_date(local.date())} às {local:%H:%M} com "
                      f"{booking.inspector_name}.", self)
        info.setWordWrap(True)
        self.slots = _SlotList(self)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText("Motivo da remarcação")
        self.error = error_label(self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Remarcar")
        buttons.accepted.connect(self.submit)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(info)
        if target is None:
            layout.addWidget(QLabel("Novo horário", self))
            layout.addWidget(self.slots)
            op(self, lambda: service.booking_options(db, actor, booking.authorization_id, booking.kind)) \
                .failure(inline(self.error)) \
                .success(lambda options: self.slots.fill(options, names, actor.has(Role.GESTOR))).run()
        else:
            self.slots.setVisible(False)
            layout.addWidget(QLabel(f"Novo horário: {slot_text(target, names)}", self))
        layout.addWidget(QLabel("Motivo", self))
        layout.addWidget(self.reason)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.result_booking = None

    def submit(self) -> None:
        slot, outside = (self.target, False) if self.target is not None else self.slots.chosen()
        if slot is None:
            self.error.setText("Escolha o novo horário.")
            self.error.setVisible(True)
            return
        reason = self.reason.text()
        op(self, lambda: self._service.move_inspection(self.db, self.actor, self.booking.id, slot.inspector_id,
                                                       slot.start, reason, self.booking.version,
                                                       override_term=outside)) \
            .failure(inline(self.error)).success(self._moved).run()

    def _moved(self, booking) -> None:
        self.result_booking = booking
        self.accept()


class RunInspectionDialog(QDialog):
    """Realizar vistoria: each line of the checklist (Art. 2 §1, 13 XIII–XV, 14, 15 I–VIII) conforming or not,
    with a note and an optional photo; the result follows the lines."""

    RESULT_COL, NOTE_COL, PHOTO_COL = 1, 2, 3
    PASS_VALUES = (None, True, False)

    def __init__(self, db, actor, booking, parent=None):
        super().__init__(parent)
        self._service = service
        self.db, self.actor, self.booking = db, actor, booking
        self.setWindowTitle(f"Realizar vistoria — {booking.plate_display}")
        self.resize(980, 640)
        head = QLabel(f"<b>{booking.kind_label}</b> — {booking.plate_display} — {booking.driver_name} — "
                      f"Autorização {booking.authorization_number or '(sem número)'}", self)
        self.table = QTableWidget(len(INSPECTION_CHECKLIST), 4, self)
        self.table.setHorizontalHeaderLabels(["Item (artigo)", "Resultado", "Observação", "Foto"])
        self.table.verticalHeader().setVisible(False)
        self.table.setTabKeyNavigation(False)   # Tab goes through the result boxes and leaves the table (issue 29)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnWidth(1, 140)
        self.table.setColumnWidth(2, 260)
        self.table.setColumnWidth(3, 110)
        self.results: dict[str, QComboBox] = {}
        self.notes: dict[str, QLineEdit] = {}
        self.photos: dict[str, bytes] = {}
        self.photo_buttons: dict[str, QPushButton] = {}
        for row, item in enumerate(INSPECTION_CHECKLIST):
            label = QTableWidgetItem(f"{item.label} ({item.article})")
            label.setFlags(Qt.ItemFlag.ItemIsEnabled)
            label.setToolTip(label.text())
            self.table.setItem(row, 0, label)
            combo = QComboBox(self.table)
            combo.addItems(["—", "Conforme", "Não conforme"])  # index → PASS_VALUES
            combo.currentIndexChanged.connect(self.update_result)
            self.results[item.key] = combo
            self.table.setCellWidget(row, self.RESULT_COL, combo)
            note = QLineEdit(self.table)
            self.notes[item.key] = note
            self.table.setCellWidget(row, self.NOTE_COL, note)
            button = QPushButton("Anexar…", self.table)
            button.clicked.connect(lambda _=False, key=item.key: self.choose_photo(key))
            self.photo_buttons[item.key] = button
            self.table.setCellWidget(row, self.PHOTO_COL, button)
        self.all_ok = QPushButton("Marcar todos como conformes", self)
        self.all_ok.clicked.connect(self.mark_all_conforming)
        self.general_note = QLineEdit(self)
        self.general_note.setPlaceholderText("Observação geral (opcional)")
        self.result_label = QLabel(self)
        self.error = error_label(self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Registrar resultado")
        buttons.accepted.connect(self.submit)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.all_ok)
        row.addWidget(self.general_note, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(head)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.result_label)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.detail = None
        self.update_result()

    def set_item(self, key: str, passed: bool | None, note: str = "") -> None:
        self.results[key].setCurrentIndex(self.PASS_VALUES.index(passed))
        self.notes[key].setText(note)

    def mark_all_conforming(self) -> None:
        for combo in self.results.values():
            if combo.currentIndex() == 0:
                combo.setCurrentIndex(1)

    def choose_photo(self, key: str) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Foto do item", "", "Imagens (*.png *.jpg *.jpeg)")
        if path:
            self.attach_photo(key, open(path, "rb").read())

    def attach_photo(self, key: str, content: bytes) -> None:
        self.photos[key] = content
        self.photo_buttons[key].setText("Foto anexada")

    def update_result(self) -> None:
        values = [self.PASS_VALUES[c.currentIndex()] for c in self.results.values()]
        failed = sum(1 for v in values if v is False)
        open_ = sum(1 for v in values if v is None)
        if failed:  # what a failure does depends on the authorization (Art. 9 before activation; Art. 16, §2)
            text = (f"<b style='color:#b00020'>Resultado: reprovada</b> — {failed} item(ns) não conforme(s): "
                    f"{failure_preview(self.booking.authorization_status)}")
        elif open_:
            text = f"{open_} item(ns) a verificar."
        else:
            text = "<b style='color:#2e7d32'>Resultado: aprovada</b>."
        self.result_label.setText(text)

    def item_results(self):
        return tuple(self._service.ItemResult(key, self.PASS_VALUES[combo.currentIndex()], self.notes[key].text(),
                                              self.photos.get(key))
                     for key, combo in self.results.items() if combo.currentIndex() > 0)

    def submit(self) -> None:
        results, note = self.item_results(), self.general_note.text()
        op(self, lambda: self._service.run_inspection(self.db, self.actor, self.booking.id, results, note,
                                                      self.booking.version)) \
            .failure(inline(self.error)).success(self._recorded).run()

    def _recorded(self, detail) -> None:
        self.detail = detail
        self.accept()


class ReasonDialog(QDialog):
    """A short text with OK/Cancel (cancel reason)."""

    def __init__(self, title: str, prompt: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.text = QLineEdit(self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(prompt, self))
        layout.addWidget(self.text)
        layout.addWidget(buttons)
