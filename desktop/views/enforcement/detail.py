"""The page of one auto de infração: its data, the proposal and what was confirmed, notifications, defenses and
appeals, judgments, administrative measures, ledger entries, penalties, evidence and a timeline — with ONE action
bar whose buttons are enabled exactly by `services.autos.get_auto(...).actions` (the auto's status machine of
`desktop.domain`, the terms and the user's roles; STYLE: Tryton — the same table drives the buttons).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QGridLayout, QHBoxLayout, QLabel, QMenu, QPushButton, QScrollArea,
                               QTabWidget, QVBoxLayout, QWidget)

from desktop.domain.formatting import format_date, format_datetime, format_money, format_upfm
from desktop.domain.penalties import ART13_DUTIES
from desktop.views.enforcement.assessment import AssessmentPanel
from desktop.views.enforcement.forms import StaleBanner
from desktop.views.enforcement.widgets import InfoGrid
from desktop.views.operations import query_op
from desktop.views.table import Column, RecordTable
from desktop.views.widgets import show_error
from desktop.domain.entities import Entity
from desktop.services import autos
from desktop.services import guides
from desktop.views.finance.guides import issue_guide
from desktop.services import documents
from desktop.services.autos.extract import print_process_extract
from desktop.background import Task
from desktop.views.enforcement import dialogs
from desktop.signals import bus
from desktop.views.pdf_preview import PdfPreviewDialog

# (key of a step of desktop.domain.auto_steps, or of a measure action; button text) — the order of the action bar.
ACTIONS = (
    ("notify", "Registrar notificação…"),
    ("join_proof", "Juntar prova…"),
    ("defense", "Receber defesa…"),
    ("judge", "Julgar…"),
    ("notify_decision", "Notificar a decisão…"),
    ("appeal", "Receber recurso…"),
    ("judge_appeal", "Julgar recurso…"),
    ("finalize", "Tornar definitiva…"),
    ("waiver", "Registrar desistência…"),
    ("decide_penalties", "Decidir penalidades…"),
    ("payment", "Registrar pagamento…"),
    ("measure", "Medida administrativa…"),
    ("release", "Liberar medida…"),
    ("costs", "Despesas (Art. 28)…"),
    ("divida_ativa", "Inscrever em dívida ativa…"),
    ("annul", "Anular de ofício…"),
    ("cancel", "Cancelar auto…"),
)
ACTIONS_PER_ROW = 5
# (kind for services.documents, menu text) of the print button
PRINTS = (
    ("auto", "Auto de infração (2 vias, Art. 19)…"),
    ("autuacao", "Notificação da autuação (Art. 22)…"),
    ("penalty", "Notificação da penalidade (Art. 22 e 24)…"),
    ("process_extract", "Certidão — extrato do processo (situação atual)…"),   # issue 28 point 1
)
# Buttons that act on the measure selected in "Medidas administrativas", not on the auto's status.
MEASURE_ACTIONS = ("release", "costs")
COST_MEASURES = ("retention_or_removal", "vehicle_seizure")


def yes_no(value: bool) -> str:
    return "Sim" if value else "Não"


def upfm_and_reais(upfm, reais) -> str:
    """"30 UPFM = R$ 3.373,50": both amounts as the service computed them (the screen computes no money)."""
    if upfm is None:
        return ""
    return f"{format_upfm(upfm)} = {format_money(reais)}"


@dataclass(frozen=True)
class TimelineItem:
    on: date | datetime
    what: str
    detail: str


def _day(value) -> date:
    if isinstance(value, datetime):
        from desktop.domain.dates import TIMEZONE  # local: imported only on this branch

        return value.astimezone(TIMEZONE).date() if value.tzinfo else value.date()
    return value


def timeline(detail) -> list[TimelineItem]:
    """Everything that happened to the auto, oldest first (built from the detail; nothing stored twice)."""
    auto = detail.auto
    items = [TimelineItem(auto.drawn_up_at, "Auto lavrado",
                          f"{auto.original_code or auto.code} — agente {auto.agent_name or ''}")]
    for n in detail.notifications:
        items.append(TimelineItem(n.sent_on, "Notificação enviada", f"{n.form_label} ({n.article})"))
        if n.proof_joined_on:
            items.append(TimelineItem(n.proof_joined_on, "Prova da notificação juntada",
                                      "Início do prazo de defesa (Art. 22, §2)"))
    for d in detail.defenses:
        kind = "Defesa recebida" if d.kind == "defense" else "Recurso recebido"
        items.append(TimelineItem(d.filed_on, kind, ("" if d.timely else "FORA DO PRAZO — ") + (d.summary or "")))
    for j in detail.judgments:
        what = "Julgamento da defesa" if j.instance == "defense" else "Julgamento do recurso"
        reduced = f" — novo valor {format_upfm(j.reduced_upfm)}" if j.reduced_upfm is not None else ""
        if j.requalified_code:
            reduced = f" — requalificado para {j.requalified_code}{reduced}"
        items.append(TimelineItem(j.decided_on, what, f"{j.outcome_label}{reduced} — {j.decided_by_name or ''}"))
    for m in detail.measures:
        items.append(TimelineItem(m.applied_on, "Medida aplicada", f"{m.kind_label} ({m.article})"))
        if m.released_on:
            items.append(TimelineItem(m.released_on, "Medida liberada", m.kind_label))
    for e in detail.entries:
        items.append(TimelineItem(e.effective_on, f"Lançamento: {e.kind_label}",
                                  (f"{format_upfm(e.amount_upfm)} ({format_money(e.amount_reais)})" if e.amount_upfm
                                   else f"{format_money(e.amount_reais)} (em reais)")
                                  + (f" — {e.reason}" if e.reason else "")))
    for p in detail.penalties:
        end = f" até {format_date(p.ends_on)}" if p.ends_on else ""
        items.append(TimelineItem(p.effective_on, f"Penalidade em vigor: {p.label}",
                                  f"Autorização {p.authorization_number or ''}{end} ({p.article})"))
        if p.lifted_on:
            items.append(TimelineItem(p.lifted_on, f"Penalidade encerrada: {p.label}", ""))
    if auto.final_on:
        items.append(TimelineItem(auto.final_on, "Decisão definitiva", "As penalidades produzem efeito"))
    if auto.cancel_reason:
        items.append(TimelineItem(auto.final_on or _day(auto.drawn_up_at), f"{auto.status_label}",
                                  auto.cancel_reason))
    return sorted(items, key=lambda item: (_day(item.on), isinstance(item.on, date)
                                           and not isinstance(item.on, datetime)))


NOTIFICATION_COLUMNS = (
    Column("Destinatário", lambda n: "Condutor" if n.addressee == "driver" else "Plataforma"),
    Column("Forma", lambda n: f"{n.form_label} ({n.article})"),
    Column("Enviada em", lambda n: n.sent_on),
    Column("Prova juntada em", lambda n: n.proof_joined_on, lambda v: format_date(v) if v else "pendente"),
    Column("Observação", lambda n: n.note),
)
DEFENSE_COLUMNS = (
    Column("Tipo", lambda d: "Defesa prévia" if d.kind == "defense" else "Recurso"),
    Column("Protocolada em", lambda d: d.filed_on),
    Column("No prazo", lambda d: d.timely),
    Column("Resumo", lambda d: d.summary),
)
JUDGMENT_COLUMNS = (
    Column("Instância", lambda j: "Defesa" if j.instance == "defense" else "Recurso"),
    Column("Data", lambda j: j.decided_on),
    Column("Decisão", lambda j: j.outcome_label),
    Column("Requalificado para", lambda j: j.requalified_code or ""),
    Column("Multa em vigor", lambda j: j.reduced_upfm, lambda v: format_upfm(v) if v is not None else ""),
    Column("Gestor", lambda j: j.decided_by_name),
    Column("Fundamentação", lambda j: j.reasoning),
)
MEASURE_COLUMNS = (
    Column("Medida", lambda m: f"{m.kind_label} ({m.article})"),
    Column("Aplicada em", lambda m: m.applied_on),
    Column("Liberada em", lambda m: m.released_on, lambda v: format_date(v) if v else "em vigor"),
    Column("Local", lambda m: m.place),
    Column("Despesas (Art. 28)", lambda m: m.cost_reais, lambda v: format_money(v) if v is not None else ""),
    Column("Observação", lambda m: m.note),
)
ENTRY_COLUMNS = (
    Column("Data", lambda e: e.effective_on),
    Column("Lançamento", lambda e: e.kind_label),
    Column("UPFM", lambda e: e.amount_upfm, lambda v: format_upfm(v) if v else "—"),   # Art. 28 costs: reais
    Column("R$", lambda e: e.amount_reais, lambda v: format_money(v)),
    Column("Guia", lambda e: e.guide_number),
    Column("Motivo", lambda e: e.reason),
)
PENALTY_COLUMNS = (
    Column("Penalidade", lambda p: p.label),
    Column("Artigo", lambda p: p.article),
    Column("Autorização", lambda p: p.authorization_number),
    Column("Início", lambda p: p.effective_on),
    Column("Fim", lambda p: p.ends_on),
    Column("Encerrada em", lambda p: p.lifted_on),
)
EVIDENCE_COLUMNS = (
    Column("Arquivo", lambda d: d.filename),
    Column("Tipo", lambda d: d.kind),
    Column("Tamanho (KB)", lambda d: max(1, (d.size or 0) // 1024)),
    Column("Anexado em", lambda d: d.created_at),
)
TIMELINE_COLUMNS = (
    Column("Data", lambda t: t.on, lambda v: format_datetime(v) if isinstance(v, datetime) else format_date(v)),
    Column("Evento", lambda t: t.what),
    Column("Detalhe", lambda t: t.detail),
)


class AutoDetailScreen(QWidget):
    """`show_auto(auto_id)` loads the auto; every action reloads it and tells the other screens (bus)."""

    back_requested = Signal()

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.detail = None
        self.auto_id: int | None = None
        self.today: date | None = None   # tests pin the day the dialogs propose
        self.reloads = 0                 # how many times the auto was read (one reload per action)
        self.title = QLabel(self)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.back_button = QPushButton("← Voltar à lista", self)
        self.back_button.clicked.connect(self.back_requested.emit)
        self.reload_button = QPushButton("Atualizar", self)
        self.reload_button.clicked.connect(self.reload)
        self.print_button = QPushButton("Imprimir…", self)
        self.print_button.setToolTip("Cada documento impresso é arquivado com o número e o hash; a reimpressão "
                                     "é a mesma via, marcada como cópia.")
        print_menu = QMenu(self.print_button)
        for kind, text in PRINTS:
            print_menu.addAction(text, lambda k=kind: self.print_document(k))
        self.print_button.setMenu(print_menu)
        self.preview = None
        # issue 13: the DAM of the fine (services.guides: after notification or once final, gestor's parameter)
        self.guide_button = QPushButton("Emitir guia", self)
        self.guide_button.setToolTip("Emite (ou reabre) a guia de pagamento (DAM) do saldo da multa, com código de "
                                     "barras FEBRABAN e PIX, e a imprime (Art. 25; Art. 13, XXI).")
        self.guide_button.clicked.connect(self.issue_guide)
        self.guide_preview = None
        self.last_guide = None
        self.banner = StaleBanner(self.reload, self)
        self.buttons: dict[str, QPushButton] = {}
        bar = QWidget(self)
        bar_layout = QGridLayout(bar)
        bar_layout.setContentsMargins(0, 0, 0, 0)
        bar_layout.setSpacing(4)
        for position, (key, text) in enumerate(ACTIONS):
            button = QPushButton(text, bar)
            button.clicked.connect(lambda _checked=False, k=key: self.run_action(k))
            self.buttons[key] = button
            bar_layout.addWidget(button, position // ACTIONS_PER_ROW, position % ACTIONS_PER_ROW)

        self.data_grid = InfoGrid("Dados do auto (Art. 19)", self)
        self.amount_grid = InfoGrid("Multa e prazos", self)
        self.assessment_panel = AssessmentPanel("Proposta do sistema na lavratura", self)
        data_page = QWidget(self)
        data_layout = QHBoxLayout(data_page)
        left = QVBoxLayout()
        left.addWidget(self.data_grid)
        left.addWidget(self.amount_grid)
        left.addStretch(1)
        data_layout.addLayout(left, 3)
        data_layout.addWidget(self.assessment_panel, 2)
        data_scroll = QScrollArea(self)
        data_scroll.setWidget(data_page)
        data_scroll.setWidgetResizable(True)

        def table(columns):
            return RecordTable(columns, self, show_filter=False)

        self.notifications = table(NOTIFICATION_COLUMNS)
        self.defenses = table(DEFENSE_COLUMNS)
        self.judgments = table(JUDGMENT_COLUMNS)
        self.measures = table(MEASURE_COLUMNS)
        self.entries = table(ENTRY_COLUMNS)
        self.penalties = table(PENALTY_COLUMNS)
        self.evidence = table(EVIDENCE_COLUMNS)
        self.timeline = table(TIMELINE_COLUMNS)
        self.measures.selection_changed.connect(lambda _m: self._enable_buttons())
        self.tabs = QTabWidget(self)
        for title, widget in (("Dados e proposta", data_scroll), ("Notificações", self.notifications),
                              ("Defesas e recursos", self.defenses), ("Julgamentos", self.judgments),
                              ("Medidas administrativas", self.measures), ("Lançamentos", self.entries),
                              ("Penalidades", self.penalties), ("Provas", self.evidence),
                              ("Histórico", self.timeline)):
            self.tabs.addTab(widget, title)
        header = QHBoxLayout()
        header.addWidget(self.back_button)
        header.addWidget(self.title, 1)
        header.addWidget(self.guide_button)
        header.addWidget(self.print_button)
        header.addWidget(self.reload_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.banner)
        layout.addWidget(bar)
        layout.addWidget(self.tabs, 1)

    # -- loading --------------------------------------------------------------------------------------------
    def show_auto(self, auto_id: int) -> None:
        self.auto_id = auto_id
        self.banner.setVisible(False)
        self.reload()

    def reload(self) -> None:

        if self.auto_id is None:
            return
        self.reloads += 1
        read = query_op(self, lambda: autos.get_auto(self.db, self.actor, self.auto_id)) \
            .titled("Não foi possível abrir o auto")
        if not read.run():
            return
        self.detail = read.result
        self.banner.setVisible(False)
        self._fill()

    def _fill(self) -> None:
        detail = self.detail
        auto = detail.auto
        self.title.setText(f"<h2>Auto de infração nº {auto.number} — {auto.status_label}</h2>")
        infractors = []
        if auto.driver_id is not None:
            infractors.append(("Condutor", auto.driver_name))
        if auto.platform_id is not None:
            infractors.append(("Plataforma", auto.platform_name))
        code_text = f"{auto.code} — {auto.article} ({auto.severity.label})"
        if auto.requalified:  # issue 12 item 1: the code in force; the original stays in the history
            code_text += f" — requalificado; lavrado como {auto.original_code}"
        rows = [("Número", auto.number), ("Situação", auto.status_label),
                ("Data e hora da infração", format_datetime(auto.drawn_up_at)),
                # Art. 25 (issue 24 item 9): the lavratura gives the number's year and the UPFM value's
                ("Lavrado em", format_datetime(auto.lavrado_at) if auto.lavrado_at is not None else "—"),
                ("Local", auto.place), *infractors,
                ("Veículo", auto.plate or ""), ("Autorização", auto.authorization_number or ""),
                ("Infração", code_text)]
        if auto.art13_item:
            rows.append(("Dever do Art. 13", f"{auto.art13_item} — {ART13_DUTIES.get(auto.art13_item, '')}"))
        rows += [("Descrição", auto.description), ("Agente", auto.agent_name or "")]
        if auto.cancel_reason:
            rows.append(("Motivo do cancelamento/anulação", auto.cancel_reason))
        self.data_grid.set_rows(rows)
        proposed = auto.proposal
        confirmed = upfm_and_reais(auto.amount_upfm, auto.amount_reais)
        self.amount_grid.set_rows([
            ("Multa (valor atual)", confirmed),
            ("Valor da UPFM", f"{format_money(auto.upfm_value)} (ano {auto.upfm_year}, o da lavratura)"),
            ("Saldo devedor", upfm_and_reais(auto.balance_upfm, auto.balance_reais)),
            ("Reincidência", yes_no(auto.recurrence)),
            ("Prova juntada em", format_date(auto.notice_joined_on)),
            ("Prazo de defesa", format_date(auto.defense_deadline)),
            ("Prazo de recurso", format_date(auto.appeal_deadline)),
            ("Decisão definitiva em", format_date(auto.final_on)),
            ("Vencimento da multa", format_date(auto.payment_deadline)),
        ])
        if proposed is not None:
            self.assessment_panel.show_view(proposed, year=auto.upfm_year)
        else:
            self.assessment_panel.show_waiting([], intro="Este auto não guardou a proposta do sistema (lavrado "
                                                         "sem ela); vale o que está em «Multa e prazos».")
        self.notifications.set_rows(detail.notifications)
        self.defenses.set_rows(detail.defenses)
        self.judgments.set_rows(detail.judgments)
        self.measures.set_rows(detail.measures, keep=lambda m: m.id)
        self.entries.set_rows(detail.entries)
        self.penalties.set_rows(detail.penalties)
        self.evidence.set_rows(detail.evidence)
        self.timeline.set_rows(timeline(detail))
        self.print_button.setEnabled(auto.printable)
        self._enable_buttons()

    def issue_guide(self):
        """"Emitir guia": the fine's DAM for the balance (services.guides.issue_fine_guide), then printed."""

        if self.detail is None:
            return None
        number = self.detail.auto.number
        return issue_guide(self, self.db, self.actor, lambda: guides.issue_fine_guide(self.db, self.actor, number))

    # -- printing (off the UI thread: ReportLab work) ---------------------------------------------------------
    def print_auto(self):
        return self.print_document("auto")

    def print_document(self, kind: str):
        """Issue a document of the auto through `services.documents` in the background, then preview it:
        "auto" (two copies, Art. 19), "autuacao" (notice of the auto, Art. 22), "penalty" (notice of the
        penalty, Art. 22, 24–27)."""

        if self.detail is None:
            return None
        db, actor, number = self.db, self.actor, self.detail.auto.number
        title = dict(PRINTS)[kind].rstrip("…")

        def job(state):
            if kind == "auto":
                return documents.print_auto(db, actor, number, state=state)
            if kind == "process_extract":
                return print_process_extract(db, actor, number, state=state)
            return documents.print_notice(db, actor, kind, number, state=state)

        def show(issued):

            archived = issued.info.number
            self.preview = PdfPreviewDialog(issued.pdf, f"{title} — auto {number} (documento {archived})", self,
                                            suggested_name=f"{kind}-{archived.replace('/', '-')}.pdf")
            self.preview.show()

        return (Task(job).success(show).failure(lambda error: show_error(self, error))
                .run_in_background(self, title=f"Gerando: {title}"))

    # -- the action bar -------------------------------------------------------------------------------------
    def allowed_keys(self) -> set[str]:
        return {a.key for a in self.detail.actions if a.enabled} if self.detail is not None else set()

    def _enable_guide_button(self, actions) -> None:
        payment = actions.get("payment")
        self.guide_button.setEnabled(bool(payment and payment.enabled))
        self.guide_button.setToolTip(("Emite a guia (DAM) do saldo da multa e a imprime (Art. 25; Art. 13, XXI)."
                                      if payment and payment.enabled else
                                      f"Indisponível: {payment.reason if payment else 'sem débito a cobrar'}"))

    def _enable_buttons(self) -> None:
        """Each button follows its `Action` (enabled, and a tooltip with the article or with what would enable it);
        the two measure buttons follow the measure selected in their tab."""
        actions = {action.key: action for action in self.detail.actions} if self.detail else {}
        self._enable_guide_button(actions)
        measure = self.measures.selected()
        for key, button in self.buttons.items():
            if key == "release":
                enabled = measure is not None and measure.released_on is None
                tip = "Escolha uma medida em vigor na aba «Medidas administrativas»."
            elif key == "costs":
                enabled = measure is not None and measure.cost_reais is None and str(measure.kind) in COST_MEASURES
                tip = "Escolha uma retenção, remoção ou apreensão de veículo sem despesas lançadas."
            else:
                action = actions.get(key)
                enabled = action is not None and action.enabled
                tip = action.tooltip if action is not None else "Abra um auto."
            button.setEnabled(enabled)
            button.setToolTip(tip)

    def enabled_actions(self) -> list[str]:
        return [key for key, button in self.buttons.items() if button.isEnabled()]

    def _pending_notifications(self) -> list:
        return [n for n in self.detail.notifications if n.proof_joined_on is None] if self.detail else []

    def dialog_for(self, key: str) -> QDialog | None:
        """The dialog of an action (tests open it directly); None for a key without one."""

        auto, db, actor, today = self.detail.auto, self.db, self.actor, self.today
        if key == "notify":
            return dialogs.NotificationDialog(db, actor, auto, self, today=today)
        if key == "notify_decision":
            return dialogs.NotificationDialog(db, actor, auto, self, today=today, decision=True)
        if key == "decide_penalties":
            return dialogs.PenaltyDecisionDialog(db, actor, auto, self, today=today)
        if key == "join_proof":
            return dialogs.JoinProofDialog(db, actor, auto, self._pending_notifications(), self, today=today)
        if key in ("defense", "appeal"):
            return dialogs.DefenseDialog(db, actor, auto, key, self, today=today)
        if key == "waiver":
            return dialogs.WaiverDialog(db, actor, auto, self, today=today)
        if key in ("judge", "judge_appeal"):
            return dialogs.JudgmentDialog(db, actor, auto, self, today=today, appeal=key == "judge_appeal")
        if key == "payment":
            return dialogs.PaymentDialog(db, actor, auto, self, today=today)
        if key == "measure":
            return dialogs.MeasureDialog(db, actor, auto, self, today=today)
        if key == "release":
            return dialogs.MeasureReleaseDialog(db, actor, self.measures.selected(), self, today=today)
        if key == "costs":
            return dialogs.CostsDialog(db, actor, self.measures.selected(), self, today=today)
        if key == "finalize":
            from desktop.services.autos import process  # local: imported only on this branch

            return dialogs.DateActionDialog(
                db, actor, auto, "Tornar a decisão definitiva",
                "O prazo de defesa ou de recurso terminou sem manifestação: a decisão se torna definitiva na data "
                "informada e as penalidades produzem efeito (Art. 22).",
                lambda on: process.finalize(db, actor, auto.id, on, auto.version), self, today=today)
        if key == "divida_ativa":
            from desktop.services import ledger  # local: imported only on this branch

            return dialogs.DateActionDialog(
                db, actor, auto, "Inscrever em dívida ativa",
                f"A multa vencida do auto nº {auto.number} será enviada para inscrição em dívida ativa.",
                lambda on: ledger.send_to_divida_ativa(db, actor, [auto.id], on), self, today=today,
                ok_text="Inscrever")
        if key == "cancel":
            from desktop.services import autos  # local: imported only on this branch

            return dialogs.AutoReasonDialog(
                db, actor, auto, "Cancelar auto",
                "O auto não é apagado: fica cancelado com o motivo, e a multa é estornada no extrato (Art. 17).",
                lambda reason: autos.cancel_auto(db, actor, auto.id, reason, auto.version), self,
                ok_text="Cancelar o auto")
        if key == "annul":
            from desktop.services.autos import process  # local: imported only on this branch

            return dialogs.AutoReasonDialog(
                db, actor, auto, "Anular de ofício",
                "A anulação estorna a multa no extrato e encerra as penalidades ainda em vigor (Art. 17).",
                lambda reason: process.annul_auto(db, actor, auto.id, reason, auto.version), self,
                ok_text="Anular")
        return None

    def run_action(self, key: str) -> None:
        if self.detail is None:
            return
        dialog = self.dialog_for(key)
        if dialog is None:
            return
        dialog.exec()
        self.after_dialog(dialog)

    def after_dialog(self, dialog) -> None:
        """What every action does after its dialog: reload, tell the others, or offer "Recarregar"."""

        if getattr(dialog, "stale", False):
            self.banner.show_message(dialog.stale_message)
            return
        if dialog.result() == QDialog.DialogCode.Accepted:
            # one signal: every auto action may change the ledger too, and the Financeiro page listens to it;
            # the page hosting this screen reloads it on the signal — reload here only if nobody did
            before = self.reloads
            bus.data_changed.emit(Entity.AUTOS)
            if self.reloads == before:
                self.reload()
