"""First start: the setup wizard (issue 2). Pages never write; Finish calls `services.setup.initialize` once
(STYLE: wizard pages with `registerField("name*")`, one service call on Finish), then loads demo data if asked,
in the background, with a progress dialog.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QFormLayout, QLabel, QLineEdit, QMessageBox, QVBoxLayout, QWizard,
                               QWizardPage)

from desktop.domain import local_today  # the office's day (America/Cuiaba), not the machine's
from desktop.views.municipality_form import DEFAULT_NAME, FEBRABAN_MISSING, WARNING_STYLE, MunicipalityForm
from desktop.views.operations import op
from desktop.views.widgets import DecimalEdit, FieldErrors, add_field_rows, error_label, error_text
from desktop.domain.entities import Entity
from desktop.services.auth import LOCK_MINUTES, MAX_FAILED_LOGINS, MIN_PASSWORD_LENGTH
from desktop.services.setup import MunicipalityDraft, fee_problems, municipality_problems
from desktop.domain.problems import Problem
from desktop.services.setup import AdminDraft
from desktop.background import Task
from desktop.signals import bus

DEMO_DRIVERS = 300
DEMO_SEED = 2103  # Lei nº 2.103/2025: any fixed number makes the demo reproducible

PAGE_WELCOME, PAGE_MUNICIPALITY, PAGE_UPFM, PAGE_ADMIN, PAGE_DEMO = range(5)
GUIDE_FIELDS = ("febraban_agreement", "pix_key")  # what the payment guides (DAM) need from the municipality



def password_rules() -> str:
    """The rules of services.auth.password_problems, said to the user before they type."""

    return (f"pelo menos {MIN_PASSWORD_LENGTH} caracteres, não só espaços e diferente do nome de acesso. "
            f"Depois de {MAX_FAILED_LOGINS} senhas erradas seguidas a conta fica bloqueada por {LOCK_MINUTES} "
            "minutos.")


def _note(text: str, parent=None) -> QLabel:
    label = QLabel(text, parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    return label


class WelcomePage(QWizardPage):
    def __init__(self, db, parent=None):
        super().__init__(parent)
        self.setTitle("Bem-vindo")
        self.setSubTitle("Configuração inicial do sistema de transporte por aplicativo (Lei nº 2.103/2025).")
        layout = QVBoxLayout(self)
        layout.addWidget(_note(
            "Este assistente prepara o programa para o primeiro uso: os dados do município (com o código "
            "FEBRABAN e a chave PIX das guias de pagamento), o valor da UPFM do ano, o primeiro administrador e, "
            "se desejar, dados de demonstração.<br><br>"
            "Nada é gravado até você clicar em <b>Concluir</b>.", self))
        layout.addSpacing(12)
        layout.addWidget(_note("<b>Onde os dados serão guardados:</b>", self))
        self.where = QLabel(db.describe(), self)
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.where)
        layout.addSpacing(12)
        layout.addWidget(_note(
            "Para usar o servidor PostgreSQL da secretaria (várias mesas), cancele este assistente e inicie o "
            "programa com <tt>--db URL</tt> ou com a variável de ambiente <tt>DESKTOP_DB_URL</tt>; depois, "
            "a configuração fica em Arquivo → Configurar banco de dados…", self))
        layout.addStretch(1)


class MunicipalityPage(QWizardPage):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTitle("Município")
        self.setSubTitle("Dados impressos nos documentos, no selo (Art. 14) e nas guias de pagamento.")
        self.form = MunicipalityForm(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.form)
        self.registerField("name*", self.form.name_edit)
        self.registerField("uf", self.form.uf_combo, "currentText")
        self.registerField("secretariat*", self.form.secretariat_edit)
        self.registerField("ouvidoria_phone*", self.form.phone_edit)
        self.registerField("pix_key", self.form.pix_edit)
        self.registerField("febraban_agreement", self.form.febraban_edit)

    def validatePage(self) -> bool:
        """The two codes of the payment guides are checked before going on (issue 12 items 14 and 15), by the
        service's own rules; the other fields are checked by the service on Finish, as before."""

        draft = MunicipalityDraft(**self.form.values())
        problems = [problem for problem in municipality_problems(draft, initial=False)
                    if problem.field in GUIDE_FIELDS]
        self.form.errors.show(problems)
        return not problems


FEE_ROWS = (("fee.authorization", "Taxa de autorização (UPFM):"), ("fee.renewal", "Taxa de renovação (UPFM):"),
            ("fee.inspection", "Taxa de vistoria (UPFM):"))


class UpfmPage(QWizardPage):
    """The UPFM of the year (required) and the fees of the Código Tributário Municipal (issue 23 point 10: the law
    leaves them to the CTM, so nothing is invented — each is optional here, and with any of them the act that
    fixes them; until a fee is set, Administração → Parâmetros asks for it and no guide of that fee is issued)."""

    def __init__(self, year: int, parent=None):
        super().__init__(parent)
        self.year = year
        self.setTitle("Valor da UPFM e taxas")
        self.setSubTitle(f"Unidade Padrão Fiscal do Município em {year} (Art. 25: as multas são dadas em UPFM) e, "
                         "se já fixadas, as taxas do Código Tributário Municipal (Art. 10).")
        self.value_edit = DecimalEdit(self)
        self.value_edit.setMaximumWidth(180)
        self.fee_edits = {}
        for key, _label in FEE_ROWS:
            edit = DecimalEdit(self)
            edit.setMaximumWidth(180)
            edit.setPlaceholderText("opcional")
            self.fee_edits[key] = edit
        self.act_edit = QLineEdit(self)
        self.act_edit.setPlaceholderText("ex.: Lei Complementar nº 123/2025, art. 45 (Código Tributário Municipal)")
        self.act_edit.setMaxLength(200)
        self.errors = FieldErrors()
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        add_field_rows(form, self.errors, (("upfm_value", f"Valor de 1 UPFM em {year} (R$):", self.value_edit),
                                           *((key, label, self.fee_edits[key]) for key, label in FEE_ROWS),
                                           ("fees_act", "Lei ou decreto das taxas:", self.act_edit)), self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(_note(
            "Use vírgula para os centavos (por exemplo 123,45). O valor de cada ano fica na tabela de "
            "parâmetros datados (Administração → Parâmetros); um novo valor nunca apaga o anterior. As taxas "
            "em branco são informadas depois, em Parâmetros: até lá nenhuma guia dessa taxa é emitida.", self))
        layout.addStretch(1)
        self.registerField("upfm_value*", self.value_edit)

    def fees(self) -> tuple[tuple[str, Decimal], ...]:
        """The fees typed, as (parameter key, UPFM); a blank one is left for Parâmetros. ValueError names the
        field of a malformed one (validatePage shows it)."""
        out = []
        for key, _label in FEE_ROWS:
            text = self.fee_edits[key].text().strip()
            if text:
                out.append((key, self.fee_edits[key].value()))
        return tuple(out)

    def validatePage(self) -> bool:
        problems = []
        try:
            value = self.value_edit.value()
            if value <= 0:
                problems.append(Problem("upfm_value", "O valor da UPFM deve ser maior que zero."))
        except ValueError as error:
            problems.append(Problem("upfm_value", str(error)))
        fees = []
        for key, label in FEE_ROWS:
            if self.fee_edits[key].text().strip():
                try:
                    fees.append((key, self.fee_edits[key].value()))
                except ValueError as error:
                    problems.append(Problem(key, f"{label.rstrip(':')} {error}"))
        problems += fee_problems(tuple(fees), self.act_edit.text())
        self.errors.show(problems)
        return not problems


class AdminPage(QWizardPage):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTitle("Primeiro administrador")
        self.setSubTitle("Quem vai cadastrar os demais usuários e configurar o sistema.")
        self.username_edit = QLineEdit(self)
        self.username_edit.setPlaceholderText("ex.: maria.silva")
        self.full_name_edit = QLineEdit(self)
        self.password_edit = QLineEdit(self)
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.confirm_edit = QLineEdit(self)
        self.confirm_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.general_error = error_label(self)
        self.errors = FieldErrors(self.general_error)
        form = QFormLayout()
        add_field_rows(form, self.errors, (("username", "Nome de acesso:", self.username_edit),
                                           ("full_name", "Nome completo:", self.full_name_edit),
                                           ("password", "Senha:", self.password_edit),
                                           ("password_confirm", "Confirme a senha:", self.confirm_edit)), self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        self.rules = _note(f"<b>Regras da senha:</b> {password_rules()}<br>Este primeiro usuário recebe os "
                           "perfis Administrador e Gestor; depois você pode criar os demais usuários.", self)
        layout.addWidget(self.rules)
        layout.addWidget(self.general_error)
        layout.addStretch(1)
        self.registerField("username*", self.username_edit)
        self.registerField("full_name*", self.full_name_edit)
        self.registerField("password*", self.password_edit)
        self.registerField("password_confirm*", self.confirm_edit)

    def validatePage(self) -> bool:

        if self.password_edit.text() != self.confirm_edit.text():
            self.errors.show([Problem("password_confirm", "A confirmação não é igual à senha.")])
            return False
        self.errors.clear()
        return True


class DemoPage(QWizardPage):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTitle("Dados de demonstração")
        self.setSubTitle("Para conhecer o programa antes de cadastrar dados reais.")
        self.demo_check = QCheckBox("Carregar dados de demonstração?", self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.demo_check)
        layout.addWidget(_note(
            f"Cria cerca de {DEMO_DRIVERS} condutores, veículos, plataformas, autorizações, vistorias e autos "
            "fictícios, em todas as situações. Não use esta opção no banco de dados de produção.", self))
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.febraban_missing = QLabel(FEBRABAN_MISSING, self)
        self.febraban_missing.setWordWrap(True)
        self.febraban_missing.setStyleSheet(WARNING_STYLE)
        self.febraban_missing.setVisible(False)
        layout.addWidget(self.febraban_missing)
        layout.addStretch(1)
        self.registerField("load_demo", self.demo_check)

    def initializePage(self) -> None:  # noqa: N802 — Qt name
        """The last page before Finish says again that the guides cannot be issued without the code."""
        self.febraban_missing.setVisible(not (self.field("febraban_agreement") or "").strip())


class SetupWizard(QWizard):
    """`exec()` returns Accepted once the database is initialized; `actor` is then the first administrator."""

    def __init__(self, db, parent=None, today: date | None = None):
        super().__init__(parent)
        self.db = db
        self.actor = None
        self.demo_error: BaseException | None = None
        self.demo_summary = None
        self._busy = False
        self._task = None
        self.year = (today or local_today()).year
        self.setWindowTitle("Configuração inicial")
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        # Going back (also when Finish sends the user to a field with a problem) keeps what was typed.
        self.setOption(QWizard.WizardOption.IndependentPages, True)
        self.setMinimumSize(680, 560)
        self.welcome_page = WelcomePage(db, self)
        self.municipality_page = MunicipalityPage(self)
        self.upfm_page = UpfmPage(self.year, self)
        self.admin_page = AdminPage(self)
        self.demo_page = DemoPage(self)
        for page_id, page in ((PAGE_WELCOME, self.welcome_page), (PAGE_MUNICIPALITY, self.municipality_page),
                              (PAGE_UPFM, self.upfm_page), (PAGE_ADMIN, self.admin_page),
                              (PAGE_DEMO, self.demo_page)):
            self.setPage(page_id, page)
        # A mandatory field counts as filled when it differs from its value when registered (which happens in
        # setPage): the default municipality is set afterwards, so page 2 is complete with it.
        self.municipality_page.form.name_edit.setText(DEFAULT_NAME)
        # Where each field of the drafts lives, to send a ValidationError back to its page.
        self._field_pages = {field: (PAGE_MUNICIPALITY, self.municipality_page.form.errors)
                             for field in ("name", "uf", "secretariat", "ouvidoria_phone", "brasao_png",
                                           *GUIDE_FIELDS)}
        self._field_pages["upfm_value"] = (PAGE_UPFM, self.upfm_page.errors)
        self._field_pages["upfm_year"] = (PAGE_UPFM, self.upfm_page.errors)
        for field in ("fee.authorization", "fee.renewal", "fee.inspection", "fees_act", "fees"):
            self._field_pages[field] = (PAGE_UPFM, self.upfm_page.errors)
        for field in ("username", "full_name", "password"):
            self._field_pages[field] = (PAGE_ADMIN, self.admin_page.errors)

    # -- the drafts ------------------------------------------------------------------------------------------
    def drafts(self):

        values = self.municipality_page.form.values()
        municipality = MunicipalityDraft(upfm_year=self.year, upfm_value=self.upfm_page.value_edit.value(),
                                         fees=self.upfm_page.fees(), fees_act=self.upfm_page.act_edit.text(),
                                         **values)
        admin = AdminDraft(username=self.admin_page.username_edit.text().strip(),
                           full_name=self.admin_page.full_name_edit.text().strip(),
                           password=self.admin_page.password_edit.text())
        return municipality, admin

    # -- Finish ----------------------------------------------------------------------------------------------
    def accept(self) -> None:
        if self._busy:
            return
        if self.actor is None:
            from desktop.services import setup  # local: imported only on this branch

            municipality, admin = self.drafts()
            # a database failure is shown and the wizard stays open; problems go back to their page
            initialized = op(self, lambda: setup.initialize(self.db, municipality, admin)) \
                .fields(self.show_problems).titled("Não foi possível concluir a configuração").changes(Entity.SETUP)
            if not initialized.run():
                return
            self.actor = initialized.result
        if self.field("load_demo"):
            self._load_demo()
        else:
            super().accept()

    def show_problems(self, problems) -> int:
        """Put each problem next to its field, go back to the first page that has one; returns that page id."""
        problems = list(problems)
        by_page: dict[int, list] = {}
        unplaced = []
        for problem in problems:
            field = problem.field.rsplit(".", 1)[-1]
            if field in self._field_pages:
                by_page.setdefault(self._field_pages[field][0], []).append(
                    type(problem)(field, problem.message, problem.article))
            else:
                unplaced.append(problem)
        targets = {page: errors for page, errors in self._field_pages.values()}
        for page_id, errors in targets.items():
            errors.show(by_page.get(page_id, []))
        if unplaced:
            QMessageBox.warning(self, "Corrija os dados", "\n".join(str(p) for p in unplaced))
        target = min(by_page) if by_page else self.currentId()
        while self.currentId() > target:
            self.back()
        return target

    def _load_demo(self) -> None:

        self._busy = True
        self.button(QWizard.WizardButton.FinishButton).setEnabled(False)
        self.button(QWizard.WizardButton.BackButton).setEnabled(False)
        self.demo_page.status.setText("Carregando dados de demonstração…")

        def job(state, db):
            from desktop.demo.entry import load_demo  # lazy: the demo package loads only when the demo is chosen

            return load_demo(db, drivers=DEMO_DRIVERS, seed=DEMO_SEED,
                             progress=lambda done, total, text="": state.progress(done, total, text))

        self._task = (Task(job, self.db).success(self._demo_loaded).failure(self._demo_failed)
                      .run_in_background(self, title="Dados de demonstração",
                                         label="Carregando dados de demonstração…"))

    def _demo_loaded(self, summary) -> None:
        self._busy = False
        self.demo_summary = summary

        bus.data_changed.emit(Entity.DEMO)
        describe = getattr(summary, "describe", None)
        text = describe() if callable(describe) else "Dados de demonstração carregados."
        password = getattr(summary, "staff_password", None)
        if password:
            text += (f"\n\nOs usuários de demonstração (um por perfil) entram com a senha «{password}». "
                     "Você entra com o administrador criado neste assistente.")
        QMessageBox.information(self, "Dados de demonstração", text)
        QWizard.accept(self)

    def _demo_failed(self, error: BaseException) -> None:
        self._busy = False
        self.demo_error = error
        QMessageBox.warning(
            self, "Dados de demonstração",
            "O sistema foi configurado, mas os dados de demonstração não foram carregados:\n\n"
            f"{error_text(error)}\n\nVocê pode carregá-los depois com: python -m desktop demo")
        QWizard.accept(self)

    def reject(self) -> None:
        if self._busy:
            return
        if self.actor is not None:  # already initialized: closing now just skips the demo
            QWizard.accept(self)
            return
        super().reject()
