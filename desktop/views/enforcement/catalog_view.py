"""Fiscalização → Medidas administrativas (Art. 24 II, 28) and Catálogo de infrações (Art. 25–27, 29).

Both are short lists (a few hundred rows at most), shown with the shared `RecordTable` (filter as you type,
sortable). The measures list opens the auto a measure belongs to, where its release and costs are recorded.
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.domain.formatting import format_date, format_money, format_upfm
from desktop.views.table import Column, RecordTable
from desktop.views.widgets import show_error

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
        self.table = RecordTable(MEASURE_LIST_COLUMNS, self,
                                 filter_placeholder="Filtrar por medida, auto, condutor ou placa…")
        self.table.activated.connect(lambda _m: self._open())
        explanation = QLabel("A liberação e as despesas de remoção e estada (Art. 28) são registradas na página "
                             "do auto.", self)
        explanation.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.open_only)
        top.addStretch(1)
        top.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(explanation)
        layout.addWidget(self.table)
        self.reload()

    def reload(self) -> None:
        from desktop.services import penalties

        try:
            rows = penalties.list_measures(self.db, open_only=self.open_only.isChecked())
        except Exception as error:  # noqa: BLE001
            show_error(self, error, "Não foi possível listar as medidas")
            rows = []
        self.table.set_rows(rows, keep=lambda m: m.id)

    def _open(self) -> None:
        measure = self.table.selected()
        if measure is not None and measure.auto_id is not None:
            self.opened.emit(measure.auto_id)


class CatalogScreen(QWidget):
    """The catalogue as it stands, every version (a code in use is closed and replaced, never edited)."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.table = RecordTable(CODE_COLUMNS, self, filter_placeholder="Filtrar por código, artigo ou descrição…")
        explanation = QLabel("Multas do Art. 25: leve 10, média 20, grave 30 e gravíssima 40 UPFM. Um código já "
                             "usado em autos não é alterado: é encerrado e substituído (Art. 29).", self)
        explanation.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(explanation)
        layout.addWidget(self.table)
        self.reload()

    def reload(self) -> None:
        from desktop.services import catalog

        try:
            rows = catalog.list_codes(self.db)
        except Exception as error:  # noqa: BLE001
            show_error(self, error, "Não foi possível ler o catálogo")
            rows = []
        self.table.set_rows(rows, keep=lambda c: c.id)
