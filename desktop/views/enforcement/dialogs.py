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
import mimetypes
from pathlib import Path
from desktop.services.autos import Attachment
from desktop.services.autos.process import NotificationDraft
from desktop.services.autos import process
from desktop.services.autos.process import Outcome
from desktop.domain.penalties import ART13_DUTIES
from desktop.services.autos.process import JudgmentDraft
from desktop.services.autos.process import WaiverDraft
from desktop.services.autos.process import PenaltyDecisionDraft
from desktop.services import ledger
from desktop.services import penalties


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

    def __init__(self, db, actor, auto, parent=None, today: date | None = None, decision: bool = False):
        super().__init__(db, actor, auto, "Notificar a decisão" if decision else "Registrar notificação", parent)
        today = today or local_today()
        if decision:   # issue 24 item 3: Art. 22, §§1-2 — the decision is notified in the same six forms
            self.set_intro("Registre a notificação da <b>decisão</b>. O prazo de recurso começa no dia em que a "
                           "prova da notificação da decisão é juntada ao processo (Art. 22, §2).")
        else:
            self.set_intro("Registre cada tentativa de notificação. O prazo de defesa começa no dia em que a prova "
                           "da notificação é juntada ao processo (Art. 22, §2).")
        self.addressee_combo = QComboBox(self)
        if auto.driver_id is not None:
            self.addressee_combo.addItem(f"Condutor: {auto.driver_name}", ("driver", None))
        # Art. 22 caput (issue 24 item 4): the platform infractor and the platforms the driver works for
        for platform_id, name in auto.notice_platforms:
            self.addressee_combo.addItem(f"Plataforma: {name}", ("platform", platform_id))
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

        addressee, platform_id = self.addressee_combo.currentData() or ("driver", None)
        return NotificationDraft(
            addressee=addressee, form=self.form_combo.currentData(), platform_id=platform_id,
            sent_on=qdate_to_date(self.sent_edit.date()),
            proof_joined_on=qdate_to_date(self.proof_edit.date()) if self.proof_check.isChecked() else None,
            proof=self.proof_file.attachment(), note=self.note_edit.text().strip())

    def submit(self):

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

        call = process.file_defense if self.kind == "defense" else process.file_appeal
        return call(self.db, self.actor, self.auto.id, qdate_to_date(self.filed_edit.date()),
                    self.summary_edit.toPlainText().strip(), attachment=self.file_field.attachment(),
                    expected_version=self.auto.version)


class JudgmentDialog(AutoDialog):
    """The gestor's decision: upheld, partly upheld, or annulled; reasoning required (issue 12 items 1-2).

    "Mantido em parte" is a requalification to another catalogue code (a picker of the codes the service offers,
    each with its Art. 25 amount — no free amount) and/or leaving out a penalty the decision does not uphold. The
    penalties shown are only those the catalogue names for the code and the recurrence rules, each with its
    article (`process.decision_choices`). Shows the fine that results before it is saved."""

    def __init__(self, db, actor, auto, parent=None, today: date | None = None, appeal: bool = False):

        super().__init__(db, actor, auto, "Julgar recurso" if appeal else "Julgar defesa", parent, ok_text="Julgar",
                         width=640)
        self.set_intro(f"Código em vigor: <b>{auto.code}</b> ({auto.article}). Valor atual da multa: "
                       f"<b>{format_upfm(auto.amount_upfm)} = {format_money(auto.amount_reais)}</b> "
                       f"(UPFM de {auto.upfm_year}, ano da lavratura: {format_money(auto.upfm_value)}).")
        self.outcome_group = QButtonGroup(self)
        self.outcome_buttons: dict = {}
        outcomes = QWidget(self)
        outcome_layout = QVBoxLayout(outcomes)
        outcome_layout.setContentsMargins(0, 0, 0, 0)
        texts = {Outcome.UPHELD: "Auto mantido (defesa improcedente)",
                 Outcome.PARTLY_UPHELD: "Auto mantido em parte — requalificação e/ou penalidade afastada",
                 Outcome.ANNULLED: "Auto anulado (defesa procedente)"}
        for outcome in Outcome:
            button = QRadioButton(texts.get(outcome, outcome.label), outcomes)
            self.outcome_group.addButton(button)
            self.outcome_buttons[outcome] = button
            outcome_layout.addWidget(button)
        self.outcome_buttons[Outcome.UPHELD].setChecked(True)
        self.decided_edit = date_edit(self, today or local_today())
        # Art. 25: the new code's amount applies — the picker lists only the codes the service allows
        self.code_combo = QComboBox(self)
        self.code_combo.addItem(f"Manter o código {auto.code}", None)
        self.targets = {t.code: t for t in process.requalification_targets(db, actor, auto.id)}
        for target in self.targets.values():
            self.code_combo.addItem(target.text, target.code)
        self.code_combo.currentIndexChanged.connect(lambda _i: self._code_changed())
        # issue 24 item 7: requalified to Art. 26, III, the decision names the duty of Art. 13 broken (I–XXIII)
        self.art13_combo = QComboBox(self)
        self.art13_combo.addItem("Escolha o inciso do Art. 13…", None)
        for key, duty in ART13_DUTIES.items():
            self.art13_combo.addItem(f"Art. 13, {key} — {duty}", key)
        self.reasoning_edit = _text_edit(self, "Fundamentação da decisão (obrigatória)")
        self.penalties_box = QWidget(self)
        self.penalties_layout = QVBoxLayout(self.penalties_box)
        self.penalties_layout.setContentsMargins(0, 0, 0, 0)
        self.penalties_layout.setSpacing(2)
        self.penalty_checks: dict = {}
        self.no_penalty_label = QLabel("Só a multa: o código não prevê outra penalidade neste caso.", self)
        self.no_penalty_label.setWordWrap(True)
        self.penalties_layout.addWidget(self.no_penalty_label)
        self.result_label = QLabel(self)
        self.result_label.setStyleSheet("font-weight: bold;")
        self.result_label.setWordWrap(True)
        self.add_field("outcome", "Decisão:", outcomes)
        self.add_field("requalified_code", "Requalificar para:", self.code_combo)
        self.add_field("art13_item", "Dever descumprido:", self.art13_combo)
        self.add_field("decided_on", "Data da decisão:", self.decided_edit)
        self.add_field("reasoning", "Fundamentação:", self.reasoning_edit)
        self.add_field("penalties", "Penalidades (além da multa):", self.penalties_box)
        self.body.addWidget(self.result_label)
        for button in self.outcome_buttons.values():
            button.toggled.connect(self._outcome_changed)
        self._code_changed()

    def outcome(self):
        for outcome, button in self.outcome_buttons.items():
            if button.isChecked():
                return outcome
        return None

    def set_outcome(self, outcome) -> None:
        self.outcome_buttons[outcome].setChecked(True)

    def set_code(self, code: str | None) -> None:
        self.code_combo.setCurrentIndex(max(0, self.code_combo.findData(code)))

    def chosen_code(self) -> str | None:

        return self.code_combo.currentData() if self.outcome() == Outcome.PARTLY_UPHELD else None

    def _code_changed(self) -> None:
        """The penalties of the code chosen (and of its recurrence rule), each with its article."""

        for check in self.penalty_checks.values():
            self.penalties_layout.removeWidget(check)
            check.deleteLater()
        self.penalty_checks = {}
        options = process.decision_choices(self.db, self.actor, self.auto.id, self.code_combo.currentData())
        for option in options:
            check = QCheckBox(option.text, self.penalties_box)
            check.setChecked(True)
            check.toggled.connect(lambda _c: self._show_result())
            self.penalties_layout.addWidget(check)
            self.penalty_checks[option.penalty] = check
        self.no_penalty_label.setVisible(not options)
        self._outcome_changed()

    def _outcome_changed(self, *_args) -> None:

        outcome = self.outcome()
        partly = outcome == Outcome.PARTLY_UPHELD
        self.set_field_visible("requalified_code", partly)
        self.set_field_visible("art13_item", partly and self._needs_art13())
        self.set_field_visible("penalties", outcome != Outcome.ANNULLED)
        for check in self.penalty_checks.values():
            if not partly:
                check.setChecked(True)   # an upheld auto applies every penalty its code names
            check.setEnabled(partly)     # only a partial decision leaves one out
        self._show_result()

    def resulting_upfm(self) -> Decimal:

        outcome = self.outcome()
        if outcome == Outcome.ANNULLED:
            return Decimal(0)
        code = self.chosen_code()
        if code is not None:
            return Decimal(self.targets[code].upfm)
        return Decimal(self.auto.amount_upfm)

    def chosen_penalties(self) -> frozenset:
        return frozenset(key for key, check in self.penalty_checks.items() if check.isChecked())

    def _show_result(self) -> None:

        amount = self.resulting_upfm()
        reais = self.auto.reais_of(amount)
        code = self.chosen_code() or self.auto.code
        text = f"Multa resultante: {code} — {format_upfm(amount)} = {format_money(reais)}"
        if self.outcome() == Outcome.ANNULLED:
            text += " — a multa é estornada no extrato e o auto é anulado."
        else:
            if amount < Decimal(self.auto.amount_upfm):
                difference = Decimal(self.auto.amount_upfm) - amount
                text += f" — requalificação de −{format_upfm(difference)} lançada no extrato."
            kept = [c.text() for c in self.penalty_checks.values() if c.isChecked()]
            text += ". Penalidades: " + ("; ".join(kept) if kept else "só a multa") + "."
        self.result_label.setText(text)

    def local_problems(self) -> list:

        problems = []
        if self.outcome() == Outcome.PARTLY_UPHELD and self.chosen_code() is None \
                and len(self.chosen_penalties()) == len(self.penalty_checks):
            problems.append(Problem("requalified_code", "Mantido em parte: escolha o novo código e/ou desmarque a "
                                                        "penalidade que a decisão não mantém."))
        if not self.reasoning_edit.toPlainText().strip():
            problems.append(Problem("reasoning", "Informe a fundamentação da decisão."))
        return problems

    def draft(self):

        outcome = self.outcome()
        return JudgmentDraft(outcome=outcome, decided_on=qdate_to_date(self.decided_edit.date()),
                             reasoning=self.reasoning_edit.toPlainText().strip(),
                             requalified_code=self.chosen_code(),
                             penalties=None if outcome == Outcome.ANNULLED else self.chosen_penalties(),
                             art13_item=self.art13_combo.currentData() if self._needs_art13() else None)

    def _needs_art13(self) -> bool:
        target = self.targets.get(self.chosen_code() or "")
        return bool(target is not None and target.needs_art13_item)

    def submit(self):

        return process.judge(self.db, self.actor, self.auto.id, self.draft(), self.auto.version)


class WaiverDialog(AutoDialog):
    """The infractor's written waiver (desistência) of the defense or the appeal, with the signed document: the
    decision becomes final on that day and its penalties take effect (Art. 22; paying is not a waiver)."""

    def __init__(self, db, actor, auto, parent=None, today: date | None = None):
        super().__init__(db, actor, auto, "Registrar desistência", parent, ok_text="Registrar desistência")
        self.set_intro("A desistência escrita do infrator torna a decisão <b>definitiva</b> na data do protocolo; "
                       "as penalidades passam a valer nesse dia. O pagamento da multa, sozinho, não é desistência "
                       "(Art. 22).")
        self.filed_edit = date_edit(self, today or local_today())
        self.statement_edit = _text_edit(self, "ex.: desiste do recurso e reconhece a infração")
        self.file_field = FileField("waiver", self)
        self.add_field("filed_on", "Protocolada em:", self.filed_edit)
        self.add_field("statement", "Declaração:", self.statement_edit)
        self.add_field("attachment", "Desistência assinada (arquivo):", self.file_field)

    def local_problems(self) -> list:
        if self.file_field.attachment() is None:
            return [Problem("attachment", "Anexe a desistência escrita, assinada pelo infrator.")]
        return []

    def draft(self):

        return WaiverDraft(filed_on=qdate_to_date(self.filed_edit.date()),
                           statement=self.statement_edit.toPlainText().strip(), attachment=self.file_field.attachment())

    def submit(self):

        return process.record_waiver(self.db, self.actor, self.auto.id, self.draft(), self.auto.version)


class PenaltyDecisionDialog(AutoDialog):
    """The authority's decision on the penalties other than the fine of an auto final without a judgment choosing
    them (issue 24 item 1; Art. 26, §2: "será cassada pela autoridade administrativa"): date, fundamentação and
    the penalties the catalogue and the recurrence rules name, each with its article. The decision is numbered,
    takes effect on its date, and is then printed and notified."""

    def __init__(self, db, actor, auto, parent=None, today: date | None = None):
        super().__init__(db, actor, auto, "Decidir penalidades", parent, ok_text="Decidir")

        self.set_intro("O auto tornou-se definitivo sem julgamento que escolhesse as penalidades. A suspensão, a "
                       "cassação e a apreensão só valem por decisão da autoridade (Art. 26, §2), numerada, com "
                       "data e fundamentação; depois, imprima-a e notifique-a.")
        self.decided_edit = date_edit(self, today or local_today())
        self.reasoning_edit = _text_edit(self, "Fundamentação da decisão (obrigatória)")
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        self.penalty_checks: dict = {}
        for option in process.decision_choices(db, actor, auto.id):
            check = QCheckBox(option.text, box)
            check.setChecked(True)
            layout.addWidget(check)
            self.penalty_checks[option.penalty] = check
        self.add_field("decided_on", "Data da decisão:", self.decided_edit)
        self.add_field("reasoning", "Fundamentação:", self.reasoning_edit)
        self.add_field("penalties", "Penalidades aplicadas:", box)

    def draft(self):

        return PenaltyDecisionDraft(
            decided_on=qdate_to_date(self.decided_edit.date()),
            reasoning=self.reasoning_edit.toPlainText().strip(),
            penalties=frozenset(k for k, c in self.penalty_checks.items() if c.isChecked()))

    def submit(self):

        return process.decide_penalties(self.db, self.actor, self.auto.id, self.draft(), self.auto.version)


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
        self.set_intro(f"Saldo do auto: <b>{format_upfm(auto.balance_upfm)} = "
                       f"{format_money(auto.balance_reais)}</b>.")
        self.paid_edit = date_edit(self, today or local_today())
        self.amount_edit = DecimalEdit(self, prefix="R$ ")
        self.guide_edit = QLineEdit(self)
        self.guide_edit.setPlaceholderText("nº do DAM, ex.: 0012/2026")
        self.note_edit = QLineEdit(self)
        # issue 12 item 7: an amount above the balance only with a gestor's confirmation; the surplus is a refund
        self.confirm_check = QCheckBox("Confirmo o pagamento acima do saldo (gestor): o excesso fica registrado como "
                                       "restituição devida ao infrator", self)
        self.confirm_check.setVisible(False)
        self.amount_edit.textChanged.connect(lambda _t: self._amount_changed())
        self.add_field("paid_on", "Pago em:", self.paid_edit)
        self.add_field("amount_reais", "Valor pago (R$):", self.amount_edit)
        self.add_field("guide_number", "Guia (DAM):", self.guide_edit)
        self.add_field("note", "Observação:", self.note_edit)
        self.add_field("confirm_overpayment", "", self.confirm_check)
        self.set_field_visible("confirm_overpayment", False)

    def overpaid(self) -> bool:
        try:
            value = self.amount_edit.value()
        except ValueError:
            return False
        return value is not None and value > max(Decimal(self.auto.balance_reais), Decimal(0))

    def _amount_changed(self) -> None:
        over = self.overpaid()
        self.set_field_visible("confirm_overpayment", over)
        self.confirm_check.setVisible(over)
        if not over:
            self.confirm_check.setChecked(False)

    def local_problems(self) -> list:
        try:
            self.amount_edit.value()
        except ValueError as error:
            return [Problem("amount_reais", str(error))]
        return []

    def submit(self):

        draft = ledger.PaymentDraft(auto_id=self.auto.id, paid_on=qdate_to_date(self.paid_edit.date()),
                                    amount_reais=self.amount_edit.value(),
                                    guide_number=self.guide_edit.text().strip() or None,
                                    note=self.note_edit.text().strip(),
                                    confirm_overpayment=self.overpaid() and self.confirm_check.isChecked())
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
