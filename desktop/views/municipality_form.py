"""The municipality's data as a form: used by the setup wizard (page 2) and by Administração → Município.

Both ask the two codes the payment guides need (issue 12 items 14 and 15): the FEBRABAN code of the municipality
(without it no DAM can be issued, and the form says so while it is empty) and the PIX key, shown as the BR Code
will carry it (CPF/CNPJ digits only, phone +55…, e-mail in lower case) or with what is wrong with it.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QSizePolicy,
                               QVBoxLayout, QWidget)

from desktop.domain.pix import normalize_pix_key, pix_key_kind, pix_key_problems
from desktop.domain.revenue_codes import MAX_LENGTH as REVENUE_CODE_LENGTH, REVENUE_CODES
from desktop.views.widgets import BrasaoChooser, FieldErrors, PhoneEdit, error_label

UFS = ("AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA", "PB", "PE", "PI",
       "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO")
DEFAULT_NAME = "Chapada dos Guimarães"
DEFAULT_UF = "MT"
FEBRABAN_NOTE = ("Código de 4 dígitos que a FEBRABAN atribui à Prefeitura como órgão arrecadador; o banco "
                 "conveniado informa. Vai no código de barras das guias de pagamento (DAM) de taxas e multas.")
FEBRABAN_MISSING = ("Sem o código FEBRABAN as guias de pagamento (DAM) não podem ser emitidas: informe-o "
                    "agora ou depois, em Administração → Município.")
BANK_NOTE = ("Código de 3 dígitos do banco conveniado que arrecada as guias (ex.: 001 Banco do Brasil). "
             "Um arquivo de retorno de outro banco é recusado (Financeiro → Retorno bancário).")
BANK_MISSING = ("Sem o código do banco arrecadador, o programa não confere o banco do arquivo de retorno: "
                "informe-o para que o retorno de outro banco seja recusado.")
REVENUE_NOTE = ("Código da receita do plano de contas do município (Código Tributário Municipal) sob o qual a "
                "Tesouraria contabiliza cada débito; impresso em cada guia (DAM). A lei não os fixa: vazio, a guia "
                "imprime «Código da receita: não configurado».")
PIX_NOTE = "Opcional: com ela, as guias trazem o QR Code do PIX."
HINT_STYLE = "color: #555;"
WARNING_STYLE = "color: #8a5300;"


def _hint(parent, text: str = "", style: str = HINT_STYLE) -> QLabel:
    label = QLabel(text, parent)
    label.setWordWrap(True)
    label.setStyleSheet(style)
    # issue 27 point 7: a wrapping help under a field of a form layout was cut to one line; the label asks for the
    # height its width needs
    policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.MinimumExpanding)
    policy.setHeightForWidth(True)
    label.setSizePolicy(policy)
    return label


class MunicipalityForm(QWidget):
    """Name, UF, secretariat, Ouvidoria phone (Art. 14: printed on the sticker), brasão, the FEBRABAN code and
    the PIX key of the payment guides; `extended` adds the CNPJ and the address (Administração)."""

    def __init__(self, parent=None, extended: bool = False):
        super().__init__(parent)
        self.extended = extended
        self.name_edit = QLineEdit(self)
        self.uf_combo = QComboBox(self)
        self.uf_combo.addItems(UFS)
        self.uf_combo.setCurrentText(DEFAULT_UF)
        self.secretariat_edit = QLineEdit(self)
        self.secretariat_edit.setPlaceholderText("ex.: Secretaria Municipal de Finanças")
        self.phone_edit = PhoneEdit(self)
        self.brasao = BrasaoChooser(self)
        self.pix_edit = QLineEdit(self)
        self.pix_edit.setPlaceholderText("opcional — CNPJ, e-mail, telefone ou chave aleatória")
        self.cnpj_edit = QLineEdit(self)
        self.cnpj_edit.setPlaceholderText("00.000.000/0000-00 (opcional)")
        self.address_edit = QLineEdit(self)
        self.address_edit.setPlaceholderText("opcional — impresso no cabeçalho dos documentos")
        self.febraban_edit = QLineEdit(self)
        self.febraban_edit.setInputMask("9999;_")
        self.febraban_edit.setMaximumWidth(90)
        self.febraban_note = _hint(self, FEBRABAN_NOTE)
        self.febraban_missing = _hint(self, FEBRABAN_MISSING, WARNING_STYLE)
        self.bank_edit = QLineEdit(self)
        self.bank_edit.setInputMask("999;_")
        self.bank_edit.setMaximumWidth(70)
        self.bank_note = _hint(self, BANK_NOTE)
        self.bank_missing = _hint(self, BANK_MISSING, WARNING_STYLE)
        self.pix_hint = _hint(self, PIX_NOTE)
        # issue 28 point 4: one código da receita per kind of debt (Administração → Município only)
        self.revenue_edits: dict[str, QLineEdit] = {}
        revenue_messages: dict[str, QLabel] = {}
        self.revenue_group = QGroupBox("Códigos da receita (impressos na guia — DAM)", self)
        revenue_form = QFormLayout(self.revenue_group)
        for code in REVENUE_CODES:
            edit = QLineEdit(self.revenue_group)
            edit.setMaxLength(REVENUE_CODE_LENGTH)
            edit.setPlaceholderText("não configurado")
            edit.setAccessibleName(f"Código da receita — {code.label}")
            self.revenue_edits[code.field] = edit
            message = revenue_messages[code.field] = error_label(self.revenue_group)
            box = QVBoxLayout()
            box.setSpacing(2)
            box.addWidget(edit)
            box.addWidget(message)
            revenue_form.addRow(f"{code.label}:", box)
        self.revenue_note = _hint(self.revenue_group, REVENUE_NOTE)
        revenue_form.addRow(self.revenue_note)
        self.revenue_group.setVisible(extended)

        self.general_error = error_label(self)
        self.errors = FieldErrors(self.general_error)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)   # helps wrap, not clip
        rows = [
            ("name", "Município:", self.name_edit),
            ("uf", "UF:", self.uf_combo),
            ("secretariat", "Secretaria responsável:", self.secretariat_edit),
            ("ouvidoria_phone", "Telefone da Ouvidoria:", self.phone_edit),
            ("brasao_png", "Brasão:", self.brasao),
        ]
        if extended:
            rows += [("cnpj", "CNPJ da Prefeitura:", self.cnpj_edit),
                     ("address", "Endereço:", self.address_edit)]
        rows += [("febraban_agreement", "Código FEBRABAN do órgão:", self.febraban_edit),
                 ("febraban_bank", "Banco arrecadador (código):", self.bank_edit),
                 ("pix_key", "Chave PIX da Prefeitura:", self.pix_edit)]
        notes = {"febraban_agreement": (self.febraban_note, self.febraban_missing),
                 "febraban_bank": (self.bank_note, self.bank_missing), "pix_key": (self.pix_hint,)}
        for widget in (self.cnpj_edit, self.address_edit):
            widget.setVisible(extended)
        # services.setup.update_municipality keeps the current brasão when none is sent: it can be replaced,
        # not removed, once the municipality is configured.
        self.brasao.remove_button.setVisible(not extended)
        for field, label, widget in rows:
            message = error_label(self)
            box = QVBoxLayout()
            box.setSpacing(2)
            # a narrow code field (FEBRABAN, bank) must not narrow its notes: aligned, it keeps its own width
            box.addWidget(widget, 0, Qt.AlignmentFlag.AlignLeft if widget.maximumWidth() < 400 else
                          Qt.AlignmentFlag(0))
            box.addWidget(message)
            for note in notes.get(field, ()):
                box.addWidget(note)
            form.addRow(label, box)
            self.errors.add(field, widget, message)
        if extended:
            for field, edit in self.revenue_edits.items():
                self.errors.add(field, edit, revenue_messages[field])
        self.febraban_edit.textChanged.connect(self._febraban_changed)
        self.bank_edit.textChanged.connect(self._bank_changed)
        self._bank_changed()
        self.pix_edit.textChanged.connect(self._pix_changed)
        self._febraban_changed()
        self._pix_changed()
        hint = QLabel("O telefone da Ouvidoria é impresso no selo do veículo (Art. 14).", self)
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #555;")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if extended:   # the codes beside the data, so that the screen keeps its height (1366×728)
            columns = QHBoxLayout()
            columns.addLayout(form, 3)
            columns.addWidget(self.revenue_group, 2, Qt.AlignmentFlag.AlignTop)
            layout.addLayout(columns)
        else:
            layout.addLayout(form)
        layout.addWidget(hint)
        layout.addWidget(self.general_error)
        layout.addStretch(1)

    def values(self) -> dict:
        """The fields as MunicipalityDraft keyword arguments (without the UPFM)."""
        pix = self.pix_edit.text().strip()
        values = {
            "name": self.name_edit.text().strip(),
            "uf": self.uf_combo.currentText(),
            "secretariat": self.secretariat_edit.text().strip(),
            "ouvidoria_phone": self.phone_edit.phone(),
            "brasao_png": self.brasao.png(),
            "pix_key": pix or None,
            "febraban_agreement": self.febraban_edit.text().strip() or None,
            "febraban_bank": self.bank_edit.text().strip(),   # "" clears it (the form shows the field)
        }
        if self.extended:
            values["cnpj"] = self.cnpj_edit.text().strip() or None
            values["address"] = self.address_edit.text().strip() or None
            values["revenue_codes"] = tuple((field, edit.text().strip()) for field, edit in self.revenue_edits.items())
        return values

    def febraban_missing_shown(self) -> bool:
        return not self.febraban_missing.isHidden()

    def _febraban_changed(self) -> None:
        self.febraban_missing.setHidden(bool(self.febraban_edit.text().strip()))

    def bank_missing_shown(self) -> bool:
        return not self.bank_missing.isHidden()

    def _bank_changed(self) -> None:
        self.bank_missing.setHidden(bool(self.bank_edit.text().strip()))

    def _pix_changed(self) -> None:
        """Say, as the user types, how the key goes into the BR Code, or what is wrong with it."""
        typed = self.pix_edit.text()
        kind = pix_key_kind(typed)
        problems = pix_key_problems(typed)
        if not typed.strip():
            self.pix_hint.setText(PIX_NOTE)
            self.pix_hint.setStyleSheet(HINT_STYLE)
        elif problems:
            self.pix_hint.setText(problems[0].message)
            self.pix_hint.setStyleSheet(WARNING_STYLE)
        else:
            self.pix_hint.setText(f"No QR Code do PIX: {normalize_pix_key(typed)} ({kind.label}).")
            self.pix_hint.setStyleSheet(HINT_STYLE)

    def set_values(self, info) -> None:
        """Fill from a MunicipalityInfo (any object with the same attribute names)."""
        self.name_edit.setText(getattr(info, "name", "") or "")
        self.uf_combo.setCurrentText(getattr(info, "uf", DEFAULT_UF) or DEFAULT_UF)
        self.secretariat_edit.setText(getattr(info, "secretariat", "") or "")
        self.phone_edit.setText(getattr(info, "ouvidoria_phone", "") or "")
        self.brasao.set_png(getattr(info, "brasao_png", None))
        self.pix_edit.setText(getattr(info, "pix_key", "") or "")
        cnpj = getattr(info, "cnpj", None)
        if cnpj:
            from desktop.domain import format_cnpj  # local: imported only on this branch

            cnpj = format_cnpj(cnpj)
        self.cnpj_edit.setText(cnpj or "")
        self.address_edit.setText(getattr(info, "address", "") or "")
        self.febraban_edit.setText(getattr(info, "febraban_agreement", "") or "")
        self.bank_edit.setText(getattr(info, "febraban_bank", "") or "")
        codes = dict(getattr(info, "revenue_codes", ()) or ())
        for field, edit in self.revenue_edits.items():
            edit.setText(codes.get(field) or "")
