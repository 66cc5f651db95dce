"""Financeiro → Guias: every payment guide (DAM) — open, overdue, paid, cancelled — with filters, print,
payment at the desk, reissue of an overdue guide and cancellation (issue 13). Also `issue_guide(...)`, the one
"Emitir guia" path the auto and the authorization pages use: the service issues (or finds the open) guide, then
the DAM is printed and archived in the background (services.documents.print_guide) and shown.

The buttons are the guide's actions the service returned (domain.guides on GUIDE_MACHINE): enabled or not, the
tooltip saying what would enable them."""
from __future__ import annotations

from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
                               QPushButton, QVBoxLayout, QWidget)

from desktop.domain.clock import today
from desktop.domain.finance import CHARGE_FILTER_LABELS
from desktop.domain.formatting import format_date, format_money
from desktop.domain.steps import find_action
from desktop.views.operations import op
from desktop.views.table import Column, RecordTable
from desktop.views.widgets import DecimalEdit, FieldErrors, date_edit, error_label, qdate_to_date
from desktop.domain.entities import Entity
from desktop.services import documents
from desktop.views.pdf_preview import PdfPreviewDialog
from desktop.services import guides
from desktop.views.table import enter_presses
from desktop.domain.guides import LATE_CHARGES_NOT_CONFIGURED

GUIDE_COLUMNS = (
    Column("Guia", lambda g: g.number),
    Column("Tipo", lambda g: g.purpose_label),
    Column("Situação", lambda g: g.state_label),
    Column("Contribuinte", lambda g: g.payer_name),
    Column("CPF/CNPJ", lambda g: g.payer_document),
    Column("Referência", lambda g: g.reference),
    Column("Valor (R$)", lambda g: g.amount_reais, format_money),
    Column("Vencimento", lambda g: g.due_on),
    Column("Pago em", lambda g: g.paid_on),
    Column("Substitui", lambda g: g.replaces_number or ""),
    Column("Observação", lambda g: g.cancel_reason),
)
STATES = tuple(CHARGE_FILTER_LABELS.items())   # the list's filters (domain/finance.py)
PURPOSES = (("", "Todos os tipos"), ("fee", "Taxas"), ("fine", "Multas"), ("issqn", "ISSQN"), ("cost", "Custas (Art. 28)"))
BUTTONS = (("print", "Imprimir guia"), ("pay", "Registrar pagamento…"), ("reissue", "Reemitir guia vencida…"),
           ("cancel", "Cancelar guia…"))


def print_guide_in_background(parent, db, actor, number: str, on_shown=None):
    """The DAM printed and archived off the UI thread, then shown (to print or save)."""

    def shown(issued):

        parent.guide_preview = PdfPreviewDialog(issued.pdf, f"DAM — guia nº {number}", parent,
                                                suggested_name=f"guia-{number.replace('/', '-')}.pdf")
        parent.guide_preview.show()
        if on_shown is not None:
            on_shown(issued)

    return (op(parent, lambda state: documents.print_guide(db, actor, number, state=state))
            .titled("Guia de pagamento").changes(Entity.DOCUMENTS).success(shown)
            .background("Guia de pagamento (DAM)", "Gerando a guia…", pass_state=True).run())


def issue_guide(parent, db, actor, call, on_done=None, print_it: bool = True):
    """"Emitir guia": `call()` issues (or returns the open) guide through services.guides; then it is printed.
    `on_done(info)` receives the GuideInfo."""
    def issued(info):
        parent.last_guide = info
        if on_done is not None:
            on_done(info)
        if print_it:
            print_guide_in_background(parent, db, actor, info.number)

    return op(parent, call).titled("Emitir guia").changes(Entity.GUIDES, Entity.LEDGER).success(issued).run()


class PaymentDialog(QDialog):
    """A guide paid at the desk: the date and the amount (the guide's, to be confirmed)."""

    def __init__(self, db, actor, guide, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.guide = db, actor, guide
        self.setWindowTitle(f"Pagamento da guia nº {guide.number}")
        self.paid_on = date_edit(self, today())
        self.amount = DecimalEdit(self, prefix="R$ ")
        self.amount.set_value(guide.amount_reais)
        self.general = error_label(self)
        self.errors = FieldErrors(self.general)
        form = QFormLayout()
        form.addRow("Guia", QLabel(f"{guide.number} — {guide.reference} — {format_money(guide.amount_reais)}", self))
        paid_error, amount_error = error_label(self), error_label(self)
        form.addRow("Pago em", self.paid_on)
        form.addRow("", paid_error)
        form.addRow("Valor pago", self.amount)
        form.addRow("", amount_error)
        self.errors.add("paid_on", self.paid_on, paid_error)
        self.errors.add("amount", self.amount, amount_error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Registrar")
        buttons.accepted.connect(self.confirm)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.general)
        layout.addWidget(buttons)

    def confirm(self) -> bool:

        number, paid_on = self.guide.number, qdate_to_date(self.paid_on.date())
        try:
            amount = self.amount.value()
        except Exception:  # noqa: BLE001 - the service names the field
            amount = self.amount.text()
        ok = (op(self, lambda: guides.record_guide_payment(self.db, self.actor, number, paid_on, amount))
              .fields(self.errors).changes(Entity.GUIDES, Entity.LEDGER, Entity.AUTHORIZATIONS).run())
        if ok:
            self.accept()
        return ok


class ReasonDialog(QDialog):
    """The reason of a reissue or a cancellation (recorded on the cancelled guide)."""

    def __init__(self, title: str, intro: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText("Motivo (obrigatório)")
        self.note = QLabel(intro, self)
        self.note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.reason)
        layout.addWidget(buttons)


class GuidesScreen(QWidget):
    """The list of guides with its filters and the actions of the selected one."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.guide_preview = None
        self.last_guide = None
        self.last_dialog = None
        self.state_combo = QComboBox(self)
        for key, text in STATES:
            self.state_combo.addItem(text, key)
        self.purpose_combo = QComboBox(self)
        for key, text in PURPOSES:
            self.purpose_combo.addItem(text, key)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Número da guia, nome ou CPF/CNPJ do contribuinte…")
        self.search.setClearButtonEnabled(True)
        self.state_combo.currentIndexChanged.connect(lambda _i: self.reload())
        self.purpose_combo.currentIndexChanged.connect(lambda _i: self.reload())
        self.search.textChanged.connect(lambda _t: self.reload())
        self.table = RecordTable(GUIDE_COLUMNS, self, show_filter=False)
        self.table.selection_changed.connect(lambda _g: self._enable())
        self.count_label = QLabel(self)
        self.late_label = QLabel(self)
        self.late_label.setWordWrap(True)
        self.late_label.setStyleSheet("color: #8a6d00;")
        self.buttons: dict[str, QPushButton] = {}
        bar = QHBoxLayout()
        for key, text in BUTTONS:
            button = QPushButton(text, self)
            button.clicked.connect(lambda _c=False, k=key: self.run(k))
            self.buttons[key] = button
            bar.addWidget(button)
        bar.addStretch(1)

        enter_presses(self.table, self.buttons["print"])   # Enter / double-click on a guide: the DAM (issue 29)
        filters = QHBoxLayout()
        filters.addWidget(QLabel("Situação:", self))
        filters.addWidget(self.state_combo)
        filters.addWidget(self.purpose_combo)
        filters.addWidget(self.search, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.count_label)
        layout.addWidget(self.late_label)
        layout.addLayout(bar)
        self.reload()

    def set_state(self, key: str) -> None:
        self.state_combo.setCurrentIndex(self.state_combo.findData(key))

    def reload(self) -> None:

        state, purpose = self.state_combo.currentData() or "", self.purpose_combo.currentData() or ""
        ok = op(self, lambda: guides.list_guides(self.db, self.actor, state, purpose, self.search.text()))
        ok = ok.titled("Guias").success(self._show).run()
        configured = guides.late_charges_configured(self.db) if ok else True
        self.late_label.setText("" if configured else LATE_CHARGES_NOT_CONFIGURED)
        self.late_label.setVisible(not configured)

    def _show(self, page) -> None:
        self.table.set_rows(page.rows, keep=lambda g: g.id)
        more = f" (mostrando {len(page.rows)})" if page.total > len(page.rows) else ""
        self.count_label.setText(f"{page.total} guia(s){more}")
        self._enable()

    def _enable(self) -> None:
        guide = self.table.selected()
        for key, button in self.buttons.items():
            action = find_action(guide.actions, key) if guide is not None else None
            button.setEnabled(bool(action and action.enabled))
            button.setToolTip(action.tooltip if action else "Selecione uma guia.")

    def enabled_actions(self) -> list[str]:
        return [k for k, b in self.buttons.items() if b.isEnabled()]

    def dialog_for(self, key: str):
        guide = self.table.selected()
        if guide is None:
            return None
        if key == "pay":
            return PaymentDialog(self.db, self.actor, guide, self)
        if key == "reissue":
            from desktop.domain.guides import LATE_CHARGES_NOT_CONFIGURED  # local: imported only on this branch
            from desktop.services import guides  # local: imported only on this branch

            intro = (f"A guia nº {guide.number} venceu em {format_date(guide.due_on)}. Será emitida uma nova guia, "
                     "com novo número e novo vencimento; esta será cancelada com o motivo.")
            if not guides.late_charges_configured(self.db):
                intro += "\n\n" + LATE_CHARGES_NOT_CONFIGURED
            return ReasonDialog("Reemitir guia vencida", intro, self)
        if key == "cancel":
            return ReasonDialog("Cancelar guia", f"A guia nº {guide.number} será cancelada (o débito continua).",
                                self)
        return None

    def run(self, key: str):

        guide = self.table.selected()
        if guide is None:
            return None
        if key == "print":
            return print_guide_in_background(self, self.db, self.actor, guide.number)
        dialog = self.last_dialog = self.dialog_for(key)
        if dialog is None or dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return self.finish(key, dialog)

    def finish(self, key: str, dialog):
        """What follows an accepted dialog (tests fill the dialog and call this)."""

        guide = dialog.guide if key == "pay" else self.table.selected()
        if key == "pay":
            self.reload()
            return True
        reason = dialog.reason.text()
        if key == "reissue":
            return issue_guide(self, self.db, self.actor,
                               lambda: guides.reissue_overdue_guide(self.db, self.actor, guide.number, reason),
                               on_done=lambda _g: self.reload())
        return (op(self, lambda: guides.cancel_guide(self.db, self.actor, guide.number, reason))
                .titled("Cancelar guia").changes(Entity.GUIDES).success(lambda _g: self.reload()).run())
