"""An authorization's detail page: the facts the desk needs (Art. 9 presentation deadline, "taxa paga em …",
"vistoria aprovada em …", valid-until and which limit set it, the renewal's last timely day and "renovação fora do
prazo"), what still blocks activation, every event (who, when, why, which act), every vehicle it had (Art. 8 §2),
and ONE action bar whose buttons are the `available` actions the service returned (the domain's table of steps:
enabled or not, the tooltip saying what would enable it); the dialogs are in actions.py."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QMenu, QPushButton, QToolButton, QVBoxLayout, QWidget

from desktop.domain.steps import find_action
from desktop.views.authorizations.actions import build_dialog
from desktop.views.formatting import format_brl, format_date, format_datetime
from desktop.views.operations import op
from desktop.views.widgets.detail import DetailFrame, DocumentsPanel, InfoGrid
from desktop.views.table import Column, RecordTable
from desktop.domain.entities import Entity
from desktop.services import documents
from desktop.services import authorizations
from desktop.services import guides
from desktop.views.finance.guides import issue_guide
from desktop.background import Task
from desktop.signals import bus
from desktop.views.pdf_preview import PdfPreviewDialog
from desktop.views.widgets import show_error

EVENT_COLUMNS = (
    Column("Quando", lambda e: e.at, text=format_datetime),
    Column("Evento", lambda e: e.kind_label),
    Column("De", lambda e: e.from_label),
    Column("Para", lambda e: e.to_label),
    Column("Data de efeito", lambda e: e.effective_on),
    Column("Por", lambda e: e.by_name),
    Column("Motivo / observação", lambda e: e.reason),
    Column("Ato", lambda e: e.act_number),
    Column("Veículo", lambda e: f"{e.old_plate_display} → {e.new_plate_display}" if e.new_plate_display else ""),
)

VEHICLE_COLUMNS = (
    Column("Placa", lambda r: r.plate_display),
    Column("Marca/modelo", lambda r: r.make_model),
    Column("Ano", lambda r: r.manufacture_year),
    Column("Propriedade", lambda r: r.ownership_label),
    Column("Situação", lambda r: r.status_label),
)


PRINTS = (("certificate", "Termo de autorização"), ("sticker", "Selo do veículo (Art. 14)"),
          ("credential", "Credencial do condutor (Art. 13, I)"))
PRINT_ACTION = "print"  # the step of the table drawn as the "Imprimir" menu button


def print_job(state, db, actor, kind: str, number: str):
    """Issue and archive one document of an authorization (off the UI thread: ReportLab work)."""

    state.progress(0, 0, "Gerando o documento…")
    call = {"certificate": documents.print_certificate, "sticker": documents.print_sticker,
            "credential": documents.print_credential}[kind]
    return call(db, actor, number, state=state)   # "Cancelar" before the archive: nothing archived


def _d(value) -> str:
    return format_date(value) if value else ""


class AuthorizationDetailPage(DetailFrame):
    def __init__(self, db, actor, authorization_id: int, parent=None, today=None):
        super().__init__(parent)
        self.db, self.actor, self.authorization_id, self.today = db, actor, authorization_id, today
        self.data = None
        self.last_dialog = None
        self.buttons: dict[str, QPushButton] = {}
        self.button_rows = rows = [QHBoxLayout(), QHBoxLayout()]
        self._buttons_in_row = [0, 0]
        # Documents of an active authorization (issued and archived by services.documents, shown before printing).
        self.print_button = QToolButton(self)
        self.print_button.setText("Imprimir")
        self.print_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.print_button)
        for kind, text in PRINTS:
            menu.addAction(text, lambda kind=kind: self.print_document(kind))
        self.print_button.setMenu(menu)
        rows[0].addWidget(self.print_button)
        # issue 13: the DAM of the fee (Art. 10; Art. 15, VII: once the request is approved; the renewal fee
        # once the renewal is requested), enabled when the fee step is (the same action that records it)
        self.guide_button = QPushButton("Emitir guia da taxa", self)
        self.guide_button.clicked.connect(self.issue_fee_guide)
        rows[0].addWidget(self.guide_button)
        self.guide_preview = None
        self.last_guide = None
        self.print_task = None
        self.last_preview = None
        bar = QVBoxLayout()
        bar.setSpacing(2)
        for row in rows:
            row.addStretch(1)
            bar.addLayout(row)
        self.actions_bar.addLayout(bar, 1)
        self.facts = QLabel(self)
        self.facts.setWordWrap(True)
        self.facts.setTextFormat(Qt.TextFormat.RichText)
        self.facts.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.info = InfoGrid(self)
        data_tab = QWidget(self)
        data_layout = QVBoxLayout(data_tab)
        data_layout.addWidget(self.facts)
        data_layout.addWidget(self.info)
        data_layout.addStretch(1)
        self.events = RecordTable(EVENT_COLUMNS, self, filter_placeholder="Filtrar o histórico…")
        current = Column("Nesta autorização", lambda r: "Atual" if self.data is not None
                         and r.id == self.data.authorization.vehicle_id else "Substituído (Art. 8, §2)")
        self.vehicles = RecordTable(VEHICLE_COLUMNS + (current,), self, show_filter=False)
        self.problems = QLabel(self)
        self.problems.setWordWrap(True)
        self.problems.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.documents = DocumentsPanel(db, actor, self)
        for widget, title in ((data_tab, "Dados"), (self.events, "Histórico"), (self.vehicles, "Veículos"),
                              (self.problems, "Pendências do condutor e do veículo"),
                              (self.documents, "Arquivos")):
            self.tabs.addTab(widget, title)
        self.load()

    # -- reading ---------------------------------------------------------------------------------------------
    def open_record(self, record_id: int) -> None:
        """Show another record in this page (the list reuses one page)."""
        previous = self.authorization_id
        self.authorization_id = record_id
        try:
            self.load()
        except Exception:
            self.authorization_id = previous
            raise
        self.tabs.setCurrentIndex(0)

    def load(self) -> None:

        self.data = detail = authorizations.authorization_detail(self.db, self.actor, self.authorization_id,
                                                                 on=self.today)
        a = detail.authorization
        number = a.number or "(sem número)"
        self.title.setText(f"<h2>Autorização {number} — {a.status_label}</h2>")
        self.subtitle.setText(f"{a.driver_name} (CPF {a.driver_cpf_display}) · veículo {a.plate_display} "
                              f"({a.manufacture_year})")
        facts = [f"• {fact}" for fact in a.facts]
        if a.renewal_late:
            facts.append("<b style='color:#c62828'>• Renovação fora do prazo (Art. 3, §2)</b>")
        if a.pending:
            facts.append("<b style='color:#c62828'>Falta para ativar:</b>")
            facts += [f"<span style='color:#c62828'>• {p}</span>" for p in a.pending]
        self.facts.setText("<br>".join(facts))
        self.info.set_items([
            ("Número", a.number or ""), ("Situação", a.status_label), ("Condutor", a.driver_name),
            ("CPF", a.driver_cpf_display), ("Veículo", f"{a.plate_display} ({a.manufacture_year})"),
            ("Protocolo", " ".join(x for x in (a.protocol_number or "", f"em {_d(a.protocol_date)}") if x)),
            ("Análise iniciada em", _d(a.analysis_started_on)),
            ("Decisão", " ".join(x for x in (_d(a.decided_on), f"por {a.decided_by_name}" if a.decided_by_name
                                            else "") if x)),
            ("Motivo da decisão", a.decision_reason or ""),
            ("Apresentar o veículo até (Art. 9)", _d(a.presentation_deadline)),
            ("Taxa paga em", ", ".join(x for x in (_d(a.fee_paid_on), f"guia {a.fee_guide_number}"
                                                  if a.fee_guide_number else "",
                                                  format_brl(a.fee_amount) if a.fee_amount is not None else "")
                                      if x)),
            ("Vistoria aprovada em", _d(a.inspection_approved_on)),
            ("Vistoria dispensada em", _d(a.inspection_waived_on)),
            ("Ativada em", _d(a.activated_on)), ("Válida até", _d(a.valid_until)),
            ("Limite da validade", a.validity_reason),
            ("Último dia para pedir a renovação", _d(a.renewal_deadline)),
            ("Renovação solicitada em", _d(a.renewal_requested_on)
             + (" — fora do prazo" if a.renewal_late else "")),
            ("Renovações", str(a.renewal_count)), ("Regularizar até (Art. 16, §2)", _d(a.regularize_by)),
            ("Suspensa até", _d(a.suspended_until)), ("Encerrada em", _d(a.ended_on)),
        ])
        self.fill_tab(self.events, lambda: self.events.set_rows(detail.events))
        self.fill_tab(self.vehicles, lambda: self.vehicles.set_rows(detail.vehicles))
        self.problems.setText("<br>".join(f"• {p}" for p in detail.problems) if detail.problems else
                              "Nenhuma pendência: o condutor atende ao Art. 12 e o veículo ao Art. 2.")
        self.fill_tab(self.documents, lambda: self.documents.set_documents(detail.documents))
        self.update_buttons()

    def update_buttons(self) -> None:
        """One button per action the service returned (created the first time), enabled as the action says and
        with its tooltip (the article; when disabled, the status or role that would enable it)."""
        available = self.data.authorization.available
        for action in available:
            if action.key == PRINT_ACTION:
                continue
            button = self.buttons.get(action.key)
            if button is None:
                button = QPushButton(action.label, self)
                button.clicked.connect(lambda _checked=False, key=action.key: self.run(key))
                group = min(action.group, len(self.button_rows) - 1)
                self.button_rows[group].insertWidget(self._buttons_in_row[group], button)  # in the table's order
                self._buttons_in_row[group] += 1
                self.buttons[action.key] = button
            button.setEnabled(action.enabled)
            button.setToolTip(action.tooltip)
        fee = find_action(available, "fee")
        self.guide_button.setEnabled(bool(fee and fee.enabled))
        self.guide_button.setToolTip("Emite (ou reabre) a guia de pagamento (DAM) da taxa e a imprime "
                                     "(Art. 10; Art. 15, VII)." if fee and fee.enabled else
                                     f"Indisponível: {fee.reason if fee else 'sem taxa a cobrar'}")
        printing = find_action(available, PRINT_ACTION)
        self.print_button.setEnabled(bool(printing and printing.enabled))
        self.print_button.setToolTip(printing.tooltip if printing else "")

    def issue_fee_guide(self):
        """"Emitir guia da taxa" (services.guides.issue_fee_guide), then the DAM printed and shown."""

        authorization_id = self.authorization_id
        return issue_guide(self, self.db, self.actor,
                           lambda: guides.issue_fee_guide(self.db, self.actor, authorization_id=authorization_id))

    def print_document(self, kind: str):
        """Issue the document in the background, then show it (PdfPreviewDialog) to print or save."""

        a = self.data.authorization
        title = dict(PRINTS)[kind]

        def done(issued):

            if not _alive(self):
                return
            self.last_preview = PdfPreviewDialog(issued.pdf, f"{title} — {a.number}", self,
                                                 suggested_name=f"{kind}-{a.number.replace('/', '-')}.pdf")
            self.last_preview.show()

        def failed(error):

            if _alive(self):
                show_error(self, error, "Não foi possível gerar o documento")

        self.print_task = (Task(print_job, self.db, self.actor, kind, a.number).success(done).failure(failed)
                           .run_in_background(self, title=title, label="Gerando o documento…"))
        return self.print_task

    def enabled_actions(self) -> list[str]:
        return [key for key, button in self.buttons.items() if button.isEnabled()]

    # -- acting ----------------------------------------------------------------------------------------------
    def action_dialog(self, key: str):
        """The dialog of an action (tests fill it and press Confirmar)."""
        return build_dialog(key, self.db, self.actor, self.data.authorization, self, self.load, self.today)

    def run(self, key: str) -> None:
        op(self, lambda: self.action_dialog(key)).success(lambda dialog: self._open(key, dialog)).run()

    def _open(self, key: str, dialog) -> None:
        self.last_dialog = dialog
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.after_action(key)

    def after_action(self, key: str) -> None:

        loaded = self.data
        before = loaded.authorization
        bus.data_changed.emit(Entity.AUTHORIZATIONS)
        if key.startswith("deregister"):
            bus.data_changed.emit(Entity.DRIVERS if key == "deregister_driver" else Entity.VEHICLES)
        if self.data is loaded:   # no screen reloaded this page on the signal (e.g. a separate window)
            self.load()
        after = self.data.authorization
        if after.number and not before.number:
            from desktop.views.widgets import show_info  # local: imported only on this branch

            show_info(self, "Autorização ativada",
                      f"Autorização nº {after.number} ativa. {after.validity_reason}")


def _alive(widget) -> bool:
    import shiboken6  # lazy: Qt loads only when this runs (start-up cost)

    return shiboken6.isValid(widget)


class AuthorizationWindow(QDialog):
    """An authorization opened from another screen (a driver's or vehicle's detail page), with its action bar."""

    def __init__(self, db, actor, authorization_id: int, parent=None, today=None):
        super().__init__(parent)
        self.setWindowTitle("Autorização")
        self.resize(1100, 720)
        self.page = AuthorizationDetailPage(db, actor, authorization_id, self, today=today)
        self.page.back_button.setText("Fechar")
        self.page.back_requested.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(self.page)
