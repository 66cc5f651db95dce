"""The dialogs behind the action bar of an auto (Art. 22, 24, 28): notification with its proof, defense and
appeal, judgment, finality, payment, administrative measure and its release, costs, cancellation, annulment.

Each one is a `ServiceDialog`: it builds the service's draft from its fields, calls the service with the auto's
version (optimistic locking), shows problems next to the fields, and closes only when the service accepted.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QComboBox, QFileDialog, QHBoxLayout, QLabel, QLineEdit,
                               QPlainTextEdit, QPushButton, QRadioButton, QVBoxLayout, QWidget)

from desktop.domain.dates import local_today
from desktop.domain.formatting import format_date, format_money, format_upfm
from desktop.domain.penalties import AdministrativeMeasure, NotificationForm
from desktop.domain.problems import Problem
from desktop.views.enforcement.forms import ServiceDialog
from desktop.views.widgets import DecimalEdit, date_edit, qdate_to_date


class FileField(QWidget):
    """One optional attached file (a proof of notice, the defense's petition): `attachment()` or None."""

    def __init__(self, kind: str, parent=None):
        super().__init__(parent)
        self._kind = kind
        self._attachment = None
        self.label = QLabel("Nenhum arquivo", self)
        self.choose_button = QPushButton("Anexar…", self)
        self.clear_button = QPushButton("Remover", self)
        self.choose_button.clicked.connect(self._choose)
        self.clear_button.clicked.connect(lambda: self.set_file(None))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.choose_button)
        layout.addWidget(self.clear_button)
        self.clear_button.setEnabled(False)

    def set_file(self, path: str | None) -> None:
        import mimetypes
        from pathlib import Path

        from desktop.services.autos import Attachment

        if not path:
            self._attachment = None
            self.label.setText("Nenhum arquivo")
        else:
            file = Path(path)
            mime = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            self._attachment = Attachment(filename=file.name, content=file.read_bytes(), mime=mime,
                                          kind=self._kind)
            self.label.setText(file.name)
        self.clear_button.setEnabled(self._attachment is not None)

    def _choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Anexar arquivo", "", "Documentos (*.pdf *.jpg *.jpeg *.png)")
        if path:
            self.set_file(path)

    def attachment(self):
        return self._attachment


def _text_edit(parent, placeholder: str = "") -> QPlainTextEdit:
    edit = QPlainTextEdit(parent)
    edit.setPlaceholderText(placeholder)
    edit.setMinimumHeight(80)
    return edit


class AutoDialog(ServiceDialog):
    """A dialog about one auto: keeps the `AutoInfo` it was opened with (its id and version)."""

    def __init__(self, db, actor, auto, title: str, parent=None, ok_text: str = "Salvar", width: int = 540):
        super().__init__(f"{title} — auto nº {auto.number}", parent, ok_text=ok_text, width=width)
        self.db, self.actor, self.auto = db, actor, auto


class NotificationDialog(AutoDialog):
    """Art. 22 §1 I–VI: each attempt with its form; the defense term starts when the proof is joined (§2)."""

    def __init__(self, db, actor, auto, parent=None, today: date | None = None):
        super().__init__(db, actor, auto, "Registrar notificação", parent)
        today = today or local_today()
        self.set_intro("Registre cada tentativa de notificação. O prazo de defesa começa no dia em que a prova "
                       "da notificação é juntada ao processo (Art. 22, §2).")
        self.addressee_combo = QComboBox(self)
        if auto.driver_id is not None:
            self.addressee_combo.addItem(f"Condutor: {auto.driver_name}", "driver")
        if auto.platform_id is not None:
            self.addressee_combo.addItem(f"Plataforma: {auto.platform_name}", "platform")
        self.form_combo = QComboBox(self)
        for form in NotificationForm:
            self.form_combo.addItem(f"{form.label} ({form.article})", form)
        self.sent_edit = date_edit(self, today)
        self.proof_check = QCheckBox("Prova da notificação juntada ao processo em:", self)
        self.proof_check.setChecked(True)
        self.proof_edit = date_edit(self, today)
        self.proof_check.toggled.connect(self.proof_edit.setEnabled)
        proof_row = QWidget(self)
        proof_layout = QHBoxLayout(proof_row)
        proof_layout.setContentsMargins(0, 0, 0, 0)
        proof_layout.addWidget(self.proof_check)
        proof_layout.addWidget(self.proof_edit)
        proof_layout.addStretch(1)
        self.proof_file = FileField("notification_proof", self)
        self.note_edit = QLineEdit(self)
        self.note_edit.setPlaceholderText("ex.: AR nº, edital nº, e-mail de …")
        self.add_field("addressee", "Destinatário:", self.addressee_combo)
        self.add_field("form", "Forma:", self.form_combo)
        self.add_field("sent_on", "Enviada em:", self.sent_edit)
        self.add_field("proof_joined_on", "Prova:", proof_row)
        self.add_field("proof", "Arquivo da prova:", self.proof_file)
        self.add_field("note", "Observação:", self.note_edit)

    def draft(self):
        from desktop.services.process import NotificationDraft

        return NotificationDraft(
            addressee=self.addressee_combo.currentData(), form=self.form_combo.currentData(),
            sent_on=qdate_to_date(self.sent_edit.date()),
            proof_joined_on=qdate_to_date(self.proof_edit.date()) if self.proof_check.isChecked() else None,
            proof=self.proof_file.attachment(), note=self.note_edit.text().strip())

    def submit(self):
        from desktop.services import process

        return process.record_notification(self.db, self.actor, self.auto.id, self.draft(), self.auto.version)


class JoinProofDialog(AutoDialog):
    """Join the proof of an attempt recorded without it (Art. 22 §2: the term starts that day)."""

    def __init__(self, db, actor, auto, notifications, parent=None, today: date | None = None):
        super().__init__(db, actor, auto, "Juntar prova de notificação", parent)
        self.notification_combo = QComboBox(self)
        for notification in notifications:
            self.notification_combo.addItem(
                f"{notification.form_label} — enviada em {format_date(notification.sent_on)}", notification.id)
        self.joined_edit = date_edit(self, today or local_today())
        self.proof_file = FileField("notification_proof", self)
        self.add_field("notification_id", "Tentativa:", self.notification_combo)
        self.add_field("joined_on", "Juntada em:", self.joined_edit)
        self.add_field("proof", "Arquivo da prova:", self.proof_file)

    def submit(self):
        from desktop.services import process

        return process.join_proof(self.db, self.actor, self.notification_combo.currentData(),
                                  qdate_to_date(self.joined_edit.date()), proof=self.proof_file.attachment(),
                                  expected_version=self.auto.version)


class DefenseDialog(AutoDialog):
    """Defesa prévia (kind "defense") or recurso (kind "appeal") received, with its date and petition."""

    def __init__(self, db, actor, auto, kind: str, parent=None, today: date | None = None):
        title = "Receber defesa" if kind == "defense" else "Receber recurso"
        super().__init__(db, actor, auto, title, parent)
        self.kind = kind
        deadline = auto.defense_deadline if kind == "defense" else auto.appeal_deadline
        if deadline is not None:
            self.set_intro(f"Prazo para {'a defesa' if kind == 'defense' else 'o recurso'}: até "
                           f"<b>{format_date(deadline)}</b> (Art. 22).")
        self.filed_edit = date_edit(self, today or local_today())
        self.summary_edit = _text_edit(self, "Resumo dos argumentos apresentados")
        self.file_field = FileField(kind, self)
        self.add_field("filed_on", "Protocolada em:", self.filed_edit)
        self.add_field("summary", "Resumo:", self.summary_edit)
        self.add_field("attachment", "Petição (arquivo):", self.file_field)

    def submit(self):
        from desktop.services import process

        call = process.file_defense if self.kind == "defense" else process.file_appeal
        return call(self.db, self.actor, self.auto.id, qdate_to_date(self.filed_edit.date()),
                    self.summary_edit.toPlainText().strip(), attachment=self.file_field.attachment(),
                    expected_version=self.auto.version)


class JudgmentDialog(AutoDialog):
    """The gestor's decision: upheld, partly upheld with a reduced amount, or annulled; reasoning required.
    Shows the amount that results from the choice before it is saved."""

    def __init__(self, db, actor, auto, parent=None, today: date | None = None):
        from desktop.services.process import Outcome

        appeal = str(auto.status) == "in_appeal"
        super().__init__(db, actor, auto, "Julgar recurso" if appeal else "Julgar defesa", parent, ok_text="Julgar",
                         width=600)
        self.set_intro(f"Valor atual da multa: <b>{format_upfm(auto.amount_upfm)} = "
                       f"{format_money(auto.amount_reais)}</b> (UPFM de {auto.drawn_up_at.year}: "
                       f"{format_money(auto.upfm_value)}).")
        self.outcome_group = QButtonGroup(self)
        self.outcome_buttons: dict = {}
        outcomes = QWidget(self)
        outcome_layout = QVBoxLayout(outcomes)
        outcome_layout.setContentsMargins(0, 0, 0, 0)
        texts = {Outcome.UPHELD: "Auto mantido (defesa improcedente)",
                 Outcome.PARTLY_UPHELD: "Auto mantido em parte — multa reduzida",
                 Outcome.ANNULLED: "Auto anulado (defesa procedente)"}
        for outcome in Outcome:
            button = QRadioButton(texts.get(outcome, outcome.label), outcomes)
            self.outcome_group.addButton(button)
            self.outcome_buttons[outcome] = button
            outcome_layout.addWidget(button)
        self.outcome_buttons[Outcome.UPHELD].setChecked(True)
        self.decided_edit = date_edit(self, today or local_today())
        self.reduced_edit = DecimalEdit(self, places=None)
        self.reduced_edit.setPlaceholderText("novo total em UPFM, ex.: 15")
        self.reduced_edit.textChanged.connect(lambda _t: self._show_result())
        self.reasoning_edit = _text_edit(self, "Fundamentação da decisão (obrigatória)")
        self.apply_penalties_check = QCheckBox("Aplicar as penalidades propostas quando a decisão for definitiva",
                                               self)
        self.apply_penalties_check.setChecked(True)
        # Art. 24, I: penalties the gestor may add to the fine (they take effect when the decision is final)
        from desktop.domain.penalties import Penalty

        extras = QWidget(self)
        extras_layout = QVBoxLayout(extras)
        extras_layout.setContentsMargins(0, 0, 0, 0)
        extras_layout.setSpacing(2)
        self.extra_checks: dict = {}
        for penalty in (Penalty.REVOCATION, Penalty.CASSATION, Penalty.DRIVER_DEREGISTRATION,
                        Penalty.VEHICLE_DEREGISTRATION):
            check = QCheckBox(f"{penalty.label} ({penalty.article})", extras)
            extras_layout.addWidget(check)
            self.extra_checks[penalty] = check
        self.result_label = QLabel(self)
        self.result_label.setStyleSheet("font-weight: bold;")
        self.result_label.setWordWrap(True)
        self.add_field("outcome", "Decisão:", outcomes)
        self.add_field("reduced_upfm", "Novo valor (UPFM):", self.reduced_edit)
        self.add_field("decided_on", "Data da decisão:", self.decided_edit)
        self.add_field("reasoning", "Fundamentação:", self.reasoning_edit)
        self.add_field("apply_proposed_penalties", "", self.apply_penalties_check)
        self.add_field("extra_penalties", "Penalidades adicionais:", extras)
        self.body.addWidget(self.result_label)
        for button in self.outcome_buttons.values():
            button.toggled.connect(self._outcome_changed)
        self._outcome_changed()

    def outcome(self):
        for outcome, button in self.outcome_buttons.items():
            if button.isChecked():
                return outcome
        return None

    def set_outcome(self, outcome) -> None:
        self.outcome_buttons[outcome].setChecked(True)

    def _outcome_changed(self, *_args) -> None:
        from desktop.services.process import Outcome

        partly = self.outcome() == Outcome.PARTLY_UPHELD
        self.set_field_visible("reduced_upfm", partly)
        self.set_field_visible("apply_proposed_penalties", self.outcome() != Outcome.ANNULLED)
        self.set_field_visible("extra_penalties", self.outcome() != Outcome.ANNULLED)
        self._show_result()

    def reduced(self) -> Decimal | None:
        try:
            return self.reduced_edit.value()
        except ValueError:
            return None

    def resulting_upfm(self) -> Decimal | None:
        from desktop.services.process import Outcome

        outcome = self.outcome()
        if outcome == Outcome.ANNULLED:
            return Decimal(0)
        if outcome == Outcome.PARTLY_UPHELD:
            return self.reduced()
        return Decimal(self.auto.amount_upfm)

    def _show_result(self) -> None:
        from desktop.domain.penalties import fine_in_reais
        from desktop.services.process import Outcome

        amount = self.resulting_upfm()
        if amount is None:
            self.result_label.setText("Informe o novo valor em UPFM para ver a multa resultante.")
            return
        reais = fine_in_reais(amount, Decimal(self.auto.upfm_value))
        text = f"Multa resultante: {format_upfm(amount)} = {format_money(reais)}"
        if self.outcome() == Outcome.ANNULLED:
            text += " — a multa é estornada no extrato e o auto é anulado."
        elif self.outcome() == Outcome.PARTLY_UPHELD and amount < Decimal(self.auto.amount_upfm):
            difference = Decimal(self.auto.amount_upfm) - amount
            text += f" — redução de {format_upfm(difference)} lançada no extrato."
        self.result_label.setText(text)

    def local_problems(self) -> list:
        from desktop.services.process import Outcome

        problems = []
        if self.outcome() == Outcome.PARTLY_UPHELD:
            try:
                value = self.reduced_edit.value()
            except ValueError as error:
                problems.append(Problem("reduced_upfm", str(error)))
            else:
                if value <= 0 or value >= Decimal(self.auto.amount_upfm):
                    problems.append(Problem("reduced_upfm", "O novo valor deve ser maior que zero e menor que "
                                                            f"{format_upfm(self.auto.amount_upfm)}."))
        if not self.reasoning_edit.toPlainText().strip():
            problems.append(Problem("reasoning", "Informe a fundamentação da decisão."))
        return problems

    def draft(self):
        from desktop.services.process import JudgmentDraft, Outcome

        outcome = self.outcome()
        return JudgmentDraft(outcome=outcome, decided_on=qdate_to_date(self.decided_edit.date()),
                             reasoning=self.reasoning_edit.toPlainText().strip(),
                             reduced_upfm=self.reduced() if outcome == Outcome.PARTLY_UPHELD else None,
                             apply_proposed_penalties=self.apply_penalties_check.isChecked(),
                             extra_penalties=frozenset(p for p, check in self.extra_checks.items()
                                                       if check.isChecked() and outcome != Outcome.ANNULLED))

    def submit(self):
        from desktop.services import process

        return process.judge(self.db, self.actor, self.auto.id, self.draft(), self.auto.version)


class DateActionDialog(AutoDialog):
    """An action that only needs a date: the decision becomes final (`finalize`), the debt goes to dívida ativa."""

    def __init__(self, db, actor, auto, title: str, explanation: str, call, parent=None, today: date | None = None,
                 ok_text: str = "Confirmar"):
        super().__init__(db, actor, auto, title, parent, ok_text=ok_text)
        self._call = call
        self.set_intro(explanation)
        self.date_edit = date_edit(self, today or local_today())
        self.add_field("on", "Data:", self.date_edit)

    def submit(self):
        return self._call(qdate_to_date(self.date_edit.date()))


class PaymentDialog(AutoDialog):
    """A payment in reais; the ledger converts it at the auto's UPFM value (the one of its debit)."""

    def __init__(self, db, actor, auto, parent=None, today: date | None = None):
        super().__init__(db, actor, auto, "Registrar pagamento", parent)
        balance = getattr(auto, "balance_upfm", None)
        if balance is not None:
            from desktop.domain.penalties import fine_in_reais

            self.set_intro(f"Saldo do auto: <b>{format_upfm(balance)} = "
                           f"{format_money(fine_in_reais(balance, Decimal(auto.upfm_value)))}</b>.")
        self.paid_edit = date_edit(self, today or local_today())
        self.amount_edit = DecimalEdit(self, prefix="R$ ")
        self.guide_edit = QLineEdit(self)
        self.guide_edit.setPlaceholderText("nº do DAM, ex.: 0012/2026")
        self.note_edit = QLineEdit(self)
        self.add_field("paid_on", "Pago em:", self.paid_edit)
        self.add_field("amount_reais", "Valor pago (R$):", self.amount_edit)
        self.add_field("guide_number", "Guia (DAM):", self.guide_edit)
        self.add_field("note", "Observação:", self.note_edit)

    def local_problems(self) -> list:
        try:
            self.amount_edit.value()
        except ValueError as error:
            return [Problem("amount_reais", str(error))]
        return []

    def submit(self):
        from desktop.services import ledger

        draft = ledger.PaymentDraft(auto_id=self.auto.id, paid_on=qdate_to_date(self.paid_edit.date()),
                                    amount_reais=self.amount_edit.value(),
                                    guide_number=self.guide_edit.text().strip() or None,
                                    note=self.note_edit.text().strip())
        return ledger.record_payment(self.db, self.actor, draft)


class MeasureDialog(AutoDialog):
    """Art. 24 II a–d: notice to regularize, retention/removal, seizure of documents/equipment or vehicle."""

    def __init__(self, db, actor, auto, parent=None, today: date | None = None):
        super().__init__(db, actor, auto, "Registrar medida administrativa", parent)
        self.kind_combo = QComboBox(self)
        for measure in AdministrativeMeasure:
            self.kind_combo.addItem(f"{measure.label} ({measure.article})", measure)
        self.applied_edit = date_edit(self, today or local_today())
        self.place_edit = QLineEdit(self)
        self.place_edit.setPlaceholderText("Pátio, depósito ou local onde ficou o veículo ou o documento")
        self.note_edit = _text_edit(self)
        self.set_intro("As despesas de remoção e estada do veículo são do condutor (Art. 28): lance-as na "
                       "medida depois de registrada.")
        self.add_field("kind", "Medida:", self.kind_combo)
        self.add_field("applied_on", "Aplicada em:", self.applied_edit)
        self.add_field("place", "Local:", self.place_edit)
        self.add_field("note", "Observação:", self.note_edit)

    def submit(self):
        from desktop.services import penalties

        draft = penalties.MeasureDraft(kind=self.kind_combo.currentData(),
                                       applied_on=qdate_to_date(self.applied_edit.date()), auto_id=self.auto.id,
                                       driver_id=self.auto.driver_id, vehicle_id=self.auto.vehicle_id,
                                       place=self.place_edit.text().strip(),
                                       note=self.note_edit.toPlainText().strip())
        return penalties.record_measure(self.db, self.actor, draft)


class MeasureReleaseDialog(ServiceDialog):
    """The release of a measure (the vehicle or the document given back), with a note."""

    def __init__(self, db, actor, measure, parent=None, today: date | None = None):
        super().__init__(f"Liberar — {measure.kind_label}", parent, ok_text="Liberar")
        self.db, self.actor, self.measure = db, actor, measure
        self.set_intro(f"{measure.kind_label} aplicada em {format_date(measure.applied_on)}"
                       f"{' — ' + measure.place if measure.place else ''}.")
        self.released_edit = date_edit(self, today or local_today())
        self.note_edit = _text_edit(self, "ex.: veículo regularizado e devolvido ao condutor")
        self.add_field("released_on", "Liberada em:", self.released_edit)
        self.add_field("note", "Observação:", self.note_edit)

    def submit(self):
        from desktop.services import penalties

        return penalties.release_measure(self.db, self.actor, self.measure.id,
                                         qdate_to_date(self.released_edit.date()),
                                         self.note_edit.toPlainText().strip(), self.measure.version)


class CostsDialog(ServiceDialog):
    """Art. 28: removal and storage costs charged to the driver's ledger (reais converted to UPFM)."""

    def __init__(self, db, actor, measure, parent=None, today: date | None = None):
        super().__init__(f"Despesas de remoção e estada (Art. 28) — {measure.kind_label}", parent,
                         ok_text="Lançar despesas")
        self.db, self.actor, self.measure = db, actor, measure
        self.set_intro("O valor é lançado no extrato do condutor, convertido em UPFM pelo valor do ano da data "
                       "informada (Art. 28).")
        self.on_edit = date_edit(self, today or local_today())
        self.amount_edit = DecimalEdit(self, prefix="R$ ")
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setPlaceholderText("ex.: guincho e 3 diárias no pátio municipal")
        self.add_field("on", "Data:", self.on_edit)
        self.add_field("amount_reais", "Valor (R$):", self.amount_edit)
        self.add_field("reason", "Descrição:", self.reason_edit)

    def local_problems(self) -> list:
        problems = []
        try:
            self.amount_edit.value()
        except ValueError as error:
            problems.append(Problem("amount_reais", str(error)))
        if not self.reason_edit.text().strip():
            problems.append(Problem("reason", "Descreva as despesas."))
        return problems

    def submit(self):
        from desktop.services import penalties

        return penalties.charge_costs(self.db, self.actor, self.measure.id, self.amount_edit.value(),
                                      qdate_to_date(self.on_edit.date()), self.reason_edit.text().strip(),
                                      self.measure.version)


class AutoReasonDialog(AutoDialog):
    """Cancel (gestor, an error in the auto, Art. 17) or annul de ofício: a reason is required."""

    def __init__(self, db, actor, auto, title: str, explanation: str, call, parent=None,
                 ok_text: str = "Confirmar"):
        super().__init__(db, actor, auto, title, parent, ok_text=ok_text)
        self._call = call
        self.set_intro(explanation)
        self.buttons.button(self.buttons.StandardButton.Cancel).setText("Voltar")
        self.reason_edit = _text_edit(self, "Motivo (obrigatório)")
        self.add_field("reason", "Motivo:", self.reason_edit)

    def local_problems(self) -> list:
        if not self.reason_edit.toPlainText().strip():
            return [Problem("reason", "Informe o motivo.")]
        return []

    def submit(self):
        return self._call(self.reason_edit.toPlainText().strip())
