"""Fiscalização → Medidas administrativas (Art. 24 II, 28) and Catálogo de infrações (Art. 25–27, 29).

Both are short lists (a few hundred rows at most), shown with the shared `RecordTable` (filter as you type,
sortable). The measures list opens the auto a measure belongs to, where its release and costs are recorded.
"""
from __future__ import annotations

from datetime import date

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit,
                               QPushButton, QVBoxLayout, QWidget)

from desktop.domain.dates import local_today
from desktop.domain.formatting import format_date, format_money, format_upfm
from desktop.domain.penalties import CATALOG, Severity, decree_penalty_kinds, normalize_code
from desktop.views.enforcement.forms import ServiceDialog
from desktop.views.operations import query_op
from desktop.views.table import Column, RecordTable
from desktop.views.widgets import date_edit, qdate_to_date, show_info
from desktop.domain.entities import Entity
from desktop.services import penalties
from desktop.domain.roles import Role
from desktop.services.penalties import COST_MEASURES
from desktop.views.enforcement.dialogs import CostsDialog
from desktop.signals import bus
from desktop.services.catalog import CodeDraft
from desktop.services import catalog

MEASURE_LIST_COLUMNS = (
    Column("Medida", lambda m: m.kind_label),
    Column("Artigo", lambda m: m.article),
    Column("Auto", lambda m: m.auto_number),
    Column("Condutor", lambda m: m.driver_name),
    Column("Placa", lambda m: m.plate),
    Column("Aplicada em", lambda m: m.applied_on),
    Column("Liberada em", lambda m: m.released_on, lambda v: format_date(v) if v else "em vigor"),
    Column("Local", lambda m: m.place),
    Column("Despesas (Art. 28)", lambda m: m.cost_reais, lambda v: format_money(v) if v is not None else ""),
)

CODE_COLUMNS = (
    Column("Código", lambda c: c.code),
    Column("Artigo", lambda c: c.article),
    Column("Descrição", lambda c: c.description),
    Column("Gravidade", lambda c: c.severity_label),
    Column("Multa", lambda c: c.upfm, lambda v: format_upfm(v)),
    Column("Outra penalidade", lambda c: c.extra_penalty),
    Column("Penalidades do código (decreto)", lambda c: c.penalties_text),
    Column("Na reincidência", lambda c: c.recurrence_effect),
    Column("Vigência desde", lambda c: c.valid_from),
    Column("Encerrado em", lambda c: c.valid_to),
    Column("Em uso", lambda c: c.in_use),
)


class MeasuresScreen(QWidget):
    opened = Signal(int)  # the auto's id

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.open_only = QCheckBox("Somente medidas em vigor (não liberadas)", self)
        self.open_only.setChecked(True)
        self.open_only.toggled.connect(lambda _v: self.reload())
        self.open_button = QPushButton("Abrir o auto", self)
        self.open_button.clicked.connect(self._open)
        # Art. 28: the removal and storage costs of a removed, retained or seized vehicle, charged from here too.
        self.costs_button = QPushButton("Lançar despesas (Art. 28)…", self)
        self.costs_button.clicked.connect(lambda: self.run_costs(self.costs_dialog()))
        self.table = RecordTable(MEASURE_LIST_COLUMNS, self,
                                 filter_placeholder="Filtrar por medida, auto, condutor ou placa…")
        self.table.activated.connect(lambda _m: self._open())
        self.table.selection_changed.connect(lambda _m: self._enable())
        explanation = QLabel("As despesas de remoção e estada (Art. 28) de um veículo removido, retido ou apreendido "
                             "são lançadas no extrato do condutor; a liberação é registrada na página do auto.", self)
        explanation.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.open_only)
        top.addStretch(1)
        top.addWidget(self.costs_button)
        top.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(explanation)
        layout.addWidget(self.table)
        self.reload()

    def reload(self) -> None:

        rows = query_op(self, lambda: penalties.list_measures(self.db, self.actor,
                                                              open_only=self.open_only.isChecked())) \
            .titled("Não foi possível listar as medidas").otherwise([]).get()
        self.table.set_rows(rows, keep=lambda m: m.id)
        self._enable()

    def _enable(self) -> None:

        measure = self.table.selected()
        allowed = self.actor.has(Role.FISCAL, Role.GESTOR, Role.ATENDENTE)
        if not allowed:
            reason = "Somente fiscal, atendente ou gestor lançam despesas (Art. 28)."
        elif measure is None:
            reason = "Selecione uma remoção, retenção ou apreensão de veículo."
        elif measure.kind not in COST_MEASURES:
            reason = f"«{measure.kind_label}» não gera despesas de remoção e estada (Art. 28)."
        else:
            reason = ""
        self.costs_button.setEnabled(not reason)
        self.costs_button.setToolTip(reason or "Lança as despesas no extrato do condutor (Art. 28).")

    def costs_dialog(self):

        return CostsDialog(self.db, self.actor, self.table.selected(), self)

    def run_costs(self, dialog) -> None:

        dialog.exec()
        if dialog.stale:
            from PySide6.QtWidgets import QMessageBox  # local: imported only on this branch

            QMessageBox.warning(self, "Registro alterado por outro usuário", dialog.stale_message)
            self.reload()
        elif dialog.result() == QDialog.DialogCode.Accepted:
            bus.data_changed.emit(Entity.LEDGER)
            self.reload()

    def _open(self) -> None:
        measure = self.table.selected()
        if measure is not None and measure.auto_id is not None:
            self.opened.emit(measure.auto_id)


class CodeDialog(ServiceDialog):
    """A code of the regulating decree (Art. 29), or the new version of a code in use ("encerrar e substituir":
    the old version is closed the day before and keeps the text its autos were drawn up under)."""

    def __init__(self, db, actor, replacing=None, parent=None, today: date | None = None):
        title = f"Encerrar e substituir {replacing.code}" if replacing else "Nova infração (decreto regulamentador)"
        super().__init__(title, parent, ok_text="Substituir" if replacing else "Incluir", width=680)
        self.db, self.actor, self.replacing = db, actor, replacing
        self.set_intro("A multa segue a gravidade (Art. 25: leve 10, média 20, grave 30, gravíssima 40 UPFM). "
                       + ("A versão atual é encerrada na véspera da nova vigência; os autos já lavrados "
                          "continuam com o texto antigo." if replacing else
                          "Marque as penalidades que o decreto nomeia para o código: o julgamento só pode "
                          "aplicar essas (além da multa), cada uma com o seu artigo."))
        self.code_edit = QLineEdit(replacing.code if replacing else "", self)
        self.code_edit.setReadOnly(replacing is not None)
        self.code_edit.setPlaceholderText("ex.: DEC12-I")
        self.article_edit = QLineEdit(replacing.article if replacing else "", self)
        self.article_edit.setPlaceholderText("ex.: Decreto nº 45/2026, art. 12, I")
        self.description_edit = QPlainTextEdit(replacing.description if replacing else "", self)
        self.description_edit.setMaximumHeight(90)
        self.severity_combo = QComboBox(self)
        for severity in Severity:
            self.severity_combo.addItem(f"{severity.label} — {severity.upfm} UPFM ({severity.article})", severity)
        if replacing is not None:
            self.severity_combo.setCurrentIndex(self.severity_combo.findData(replacing.severity))
        self.valid_from_edit = date_edit(self, today or local_today())
        self.extra_edit = QLineEdit(replacing.extra_penalty if replacing else "", self)
        self.recurrence_edit = QLineEdit(replacing.recurrence_effect if replacing else "", self)
        self.add_field("code", "Código:", self.code_edit)
        self.add_field("article", "Artigo:", self.article_edit)
        self.add_field("description", "Descrição:", self.description_edit)
        self.add_field("severity", "Gravidade:", self.severity_combo)
        self.add_field("valid_from", "Vigência a partir de:", self.valid_from_edit)
        self.add_field("extra_penalty", "Outra penalidade:", self.extra_edit)
        self.add_field("recurrence_effect", "Na reincidência:", self.recurrence_edit)
        # Art. 29; Art. 24, I: the penalties the decree names for this code, from the domain's list of kinds.
        self.penalty_checks: dict[str, QCheckBox] = {}
        box = QWidget(self)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        chosen = set(replacing.penalties) if replacing else set()
        for kind in decree_penalty_kinds():
            check = QCheckBox(kind.text, box)
            check.setChecked(kind.penalty in chosen)
            self.penalty_checks[kind.penalty] = check
            column.addWidget(check)
        self.law_note = QLabel("As penalidades de um código da Lei são as da Lei (Art. 26 e 27).", box)
        self.law_note.setWordWrap(True)
        column.addWidget(self.law_note)
        self.add_field("penalties", "Penalidades:", box)
        self.code_edit.textChanged.connect(lambda _t: self._law_code_changed())
        self._law_code_changed()

    def _law_code_changed(self) -> None:
        law_code = normalize_code(self.code_edit.text()) in CATALOG
        for check in self.penalty_checks.values():
            check.setEnabled(not law_code)
            if law_code:
                check.setChecked(False)
        self.law_note.setVisible(law_code)

    def chosen_penalties(self) -> tuple[str, ...]:
        return tuple(kind for kind, check in self.penalty_checks.items() if check.isChecked())

    def draft(self):

        return CodeDraft(code=self.code_edit.text().strip(), article=self.article_edit.text().strip(),
                         description=self.description_edit.toPlainText().strip(),
                         severity=self.severity_combo.currentData(),
                         valid_from=qdate_to_date(self.valid_from_edit.date()),
                         extra_penalty=self.extra_edit.text().strip(),
                         recurrence_effect=self.recurrence_edit.text().strip(),
                         penalties=self.chosen_penalties())

    def submit(self):

        if self.replacing is None:
            return catalog.add_code(self.db, self.actor, self.draft())
        return catalog.replace_code(self.db, self.actor, self.replacing.id, self.draft(), self.replacing.version)


class CatalogScreen(QWidget):
    """The catalogue as it stands, every version (a code in use is closed and replaced, never edited); the
    gestor adds the codes of the regulating decree (Art. 29)."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)

        self.db, self.actor = db, actor
        self.table = RecordTable(CODE_COLUMNS, self, filter_placeholder="Filtrar por código, artigo ou descrição…")
        explanation = QLabel("Multas do Art. 25: leve 10, média 20, grave 30 e gravíssima 40 UPFM. Um código já "
                             "usado em autos não é alterado: é encerrado e substituído (Art. 29).", self)
        explanation.setWordWrap(True)
        self.add_button = QPushButton("Nova infração (decreto)…", self)
        self.replace_button = QPushButton("Encerrar e substituir…", self)
        self.add_button.clicked.connect(lambda: self.run(self.code_dialog(None)))
        self.replace_button.clicked.connect(lambda: self.run(self.code_dialog(self.table.selected())))
        gestor = actor.has(Role.GESTOR)
        self.add_button.setEnabled(gestor)
        if not gestor:
            for button in (self.add_button, self.replace_button):
                button.setToolTip("Somente o gestor altera o catálogo (Art. 29).")
        self.table.selection_changed.connect(
            lambda code: self.replace_button.setEnabled(gestor and code is not None and code.valid_to is None))
        self.replace_button.setEnabled(False)
        # Enter / double-click on a code (issue 29 point 1): its replacement when the gestor may replace it, else
        # the code written out whole (the table cuts the long texts)
        self.table.activated.connect(self.open_code)
        top = QHBoxLayout()
        top.addWidget(explanation, 1)
        top.addWidget(self.add_button)
        top.addWidget(self.replace_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table)
        self.reload()

    def open_code(self, code) -> None:
        if code is None:
            return
        if self.replace_button.isEnabled():
            self.replace_button.click()
            return
        lines = [f"Artigo: {code.article}", f"Descrição: {code.description}",
                 f"Gravidade: {code.severity_label} — multa de {format_upfm(code.upfm)}"]
        lines += [f"{label}: {text}" for label, text in (("Outra penalidade", code.extra_penalty),
                                                         ("Penalidades do código (decreto)", code.penalties_text),
                                                         ("Na reincidência", code.recurrence_effect)) if text]
        lines.append(f"Vigência: desde {format_date(code.valid_from)}"
                     + (f", encerrado em {format_date(code.valid_to)}" if code.valid_to else ", em vigor"))
        lines.append("Usado em autos: " + ("sim" if code.in_use else "não"))
        show_info(self, f"Infração {code.code}", "\n".join(lines))

    def code_dialog(self, replacing) -> CodeDialog:
        return CodeDialog(self.db, self.actor, replacing, self)

    def run(self, dialog: CodeDialog) -> None:

        dialog.exec()
        if dialog.stale:   # another desk changed the code first: show it as it is now
            from PySide6.QtWidgets import QMessageBox  # local: imported only on this branch

            QMessageBox.warning(self, "Registro alterado por outro usuário", dialog.stale_message)
            self.reload()
        elif dialog.result() == QDialog.DialogCode.Accepted:
            bus.data_changed.emit(Entity.CATALOG)
            self.reload()

    def reload(self) -> None:

        rows = query_op(self, lambda: catalog.list_codes(self.db)).titled("Não foi possível ler o catálogo") \
            .otherwise([]).get()
        self.table.set_rows(rows, keep=lambda c: c.id)
        self.table.view.setColumnWidth(2, 360)   # the description: the rest of the line stays visible
        for column in (5, 6, 7):
            self.table.view.setColumnWidth(column, 220)
