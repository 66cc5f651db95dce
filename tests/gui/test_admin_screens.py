"""Issue 2: an administrator manages users and roles, the dated parameter tables, the municipal holidays, the
municipality's data and the database settings — through the services, on a real SQLite database."""
from __future__ import annotations

import os
from datetime import date
from decimal import Decimal

from action_hands import tab_of, type_date
from hands import activate, click_button, click_row, in_modal, press, tick, type_into
from desktop.domain.roles import Role
from desktop.views.admin.page import AdministrationPage
from desktop.views.admin.users import PasswordDialog, UserDialog


def screen(qtbot, db, actor, title):
    """Administração on screen, its tab `title` clicked; the tab's screen."""
    page = AdministrationPage(db, actor)
    qtbot.addWidget(page)  # qtbot only holds a weak reference: the screen keeps its page alive
    page.resize(1200, 800)
    activate(page)
    tab = page.screens[title]
    tab_of(page.tabs, tab)
    tab.keep_page_alive = page
    return tab


def save_of(dialog):
    """The dialog's «Salvar» button (its button box's Save)."""
    from PySide6.QtWidgets import QDialogButtonBox

    return dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save)


def cancel_of(dialog):
    from PySide6.QtWidgets import QDialogButtonBox

    return dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Cancel)


def in_dialog(kind, opener, work):
    """Click `opener`; in the `kind` dialog it opens (inside its exec) do `work(dialog)`; the dialog. A dialog
    still open after the work (a refused save) is closed with «Cancelar», as a person does after reading it."""
    def then(dialog):
        work(dialog)
        if dialog.isVisible():
            click_button(cancel_of(dialog))

    activate(opener.window())
    done = in_modal(kind, then)
    click_button(opener)
    return done.check()


def accepted(dialog) -> bool:
    from PySide6.QtWidgets import QDialog

    return dialog.result() == QDialog.DialogCode.Accepted


def click_user(users_screen, username):
    table = users_screen.table
    click_row(table, next(i for i, u in enumerate(table.visible_rows()) if u.username == username))
    assert table.selected().username == username


# -- Usuários ---------------------------------------------------------------------------------------------------
def test_users_screen_creates_a_user_with_roles(qtbot, db, admin):
    from desktop.services import auth

    users_screen = screen(qtbot, db, admin, "Usuários")
    assert [u.username for u in users_screen.table.visible_rows()] == ["admin"]

    def fill(dialog):
        type_into(dialog.username_edit, "joao.fiscal")
        type_into(dialog.full_name_edit, "João Fiscal de Souza")
        tick(dialog.role_checks[Role.FISCAL])
        tick(dialog.role_checks[Role.VISTORIADOR])
        type_into(dialog.password_edit, "senha-do-joao-1")
        type_into(dialog.confirm_edit, "senha-do-joao-1")
        click_button(save_of(dialog))

    dialog = in_dialog(UserDialog, users_screen.new_button, fill)
    assert accepted(dialog)
    qtbot.waitUntil(lambda: len(users_screen.table.visible_rows()) == 2, timeout=3000)   # the list follows
    rows = {u.username: u for u in users_screen.table.visible_rows()}
    assert set(rows) == {"admin", "joao.fiscal"}
    assert rows["joao.fiscal"].roles == frozenset({Role.FISCAL, Role.VISTORIADOR})
    assert users_screen.table.selected().username == "joao.fiscal"       # the new user is the row selected
    assert auth.login(db, "joao.fiscal", "senha-do-joao-1").roles == frozenset({Role.FISCAL, Role.VISTORIADOR})
    # filter as you type, without accents: "joao" finds "João"
    type_into(users_screen.table.filter_edit, "joao")
    qtbot.waitUntil(lambda: [u.username for u in users_screen.table.visible_rows()] == ["joao.fiscal"],
                    timeout=3000)
    type_into(users_screen.table.filter_edit, "vistoriador")
    qtbot.waitUntil(lambda: [u.username for u in users_screen.table.visible_rows()] == ["joao.fiscal"],
                    timeout=3000)


def test_user_dialog_shows_service_problems_next_to_the_fields(qtbot, db, admin):
    users_screen = screen(qtbot, db, admin, "Usuários")
    seen = {}

    def fill(dialog):
        type_into(dialog.username_edit, "x")
        type_into(dialog.password_edit, "curta")
        type_into(dialog.confirm_edit, "curta")
        click_button(save_of(dialog))
        seen["open"] = dialog.isVisible()

    dialog = in_dialog(UserDialog, users_screen.new_button, fill)
    assert seen["open"] and not accepted(dialog)
    assert dialog.errors.is_invalid("username")
    assert "Nome de acesso inválido" in dialog.errors.message("username")
    assert "pelo menos 8 caracteres" in dialog.errors.message("password")


def test_stale_user_save_is_refused_and_the_list_reloads(qtbot, db, admin, messages):
    """SPEC §4: two desks editing the same record — the second save is refused with a clear message."""
    from desktop.services import users

    joao = users.create_user(db, admin, users.UserDraft("joao", "João", frozenset({Role.FISCAL}), "senha-do-joao-1"))
    users_screen = screen(qtbot, db, admin, "Usuários")
    click_user(users_screen, "joao")

    def edit(dialog):
        # another desk changes João first
        users.update_user(db, admin, joao.id, users.UserDraft("joao", "João Batista", frozenset({Role.FISCAL})),
                          joao.version)
        type_into(dialog.full_name_edit, "João da Silva")
        click_button(save_of(dialog))

    dialog = in_dialog(UserDialog, users_screen.edit_button, edit)
    assert not accepted(dialog) and dialog.stale
    assert messages and "alterado por outro usuário" in messages[-1][2]
    qtbot.waitUntil(lambda: {u.username: u.full_name for u in users_screen.table.visible_rows()}["joao"]
                    == "João Batista", timeout=3000)


def test_administrator_unlocks_a_locked_account_and_deactivates_a_user(qtbot, db, admin):
    from desktop.errors import AuthenticationError
    from desktop.services import auth, users

    users.create_user(db, admin, users.UserDraft("carla", "Carla", frozenset({Role.ATENDENTE}), "senha-da-carla-1"))
    for _ in range(5):
        try:
            auth.login(db, "carla", "errada-000")
        except AuthenticationError:
            pass
    users_screen = screen(qtbot, db, admin, "Usuários")
    click_user(users_screen, "carla")
    assert users_screen.table.selected().locked_until is not None
    assert users_screen.unlock_button.isEnabled()
    assert "Bloqueado até" in users_screen.table.model.index(
        users_screen.table.proxy.mapToSource(users_screen.table.view.currentIndex()).row(), 3).data()
    click_button(users_screen.unlock_button)
    assert auth.login(db, "carla", "senha-da-carla-1").username == "carla"
    qtbot.waitUntil(lambda: users_screen.table.selected() is not None
                    and users_screen.table.selected().locked_until is None, timeout=3000)
    click_user(users_screen, "carla")
    assert users_screen.active_button.text().replace("&", "") == "Desativar"
    click_button(users_screen.active_button)
    qtbot.waitUntil(lambda: not {u.username: u for u in users_screen.table.visible_rows()}["carla"].active,
                    timeout=3000)


def test_reset_password_dialog(qtbot, db, admin, messages):
    from desktop.services import auth, users

    users.create_user(db, admin, users.UserDraft("carla", "Carla", frozenset({Role.ATENDENTE}), "senha-da-carla-1"))
    users_screen = screen(qtbot, db, admin, "Usuários")
    click_user(users_screen, "carla")

    def fill(dialog):
        type_into(dialog.password_edit, "nova-senha-2026")
        type_into(dialog.confirm_edit, "nova-senha-2026")
        click_button(save_of(dialog))

    dialog = in_dialog(PasswordDialog, users_screen.password_button, fill)
    assert accepted(dialog)
    assert ("information", "Senha redefinida", "A senha de carla foi redefinida.") in messages
    assert auth.login(db, "carla", "nova-senha-2026").username == "carla"


# -- Parâmetros -------------------------------------------------------------------------------------------------
def test_parameters_screen_adds_a_dated_value_and_keeps_the_old_one(qtbot, db, admin):
    """Art. 25: the UPFM value of each year stays; a new value is a new dated row, nothing edited in place."""
    from desktop.services import parameters
    from desktop.views.admin.parameters import NewValueDialog

    params = screen(qtbot, db, admin, "Parâmetros")
    click_key(params, "upfm_value")
    assert [params.table.model.index(r, 1).data() for r in range(params.table.model.rowCount())] == \
        ["R$\xa0112,45"]

    def fill(dialog):
        type_date(dialog.date_edit, date(2027, 1, 1))
        type_into(dialog.value_edit, "118,90")
        type_into(dialog.note_edit, "Decreto nº 10/2026")
        click_button(save_of(dialog))

    assert accepted(in_dialog(NewValueDialog, params.new_button, fill))

    def shown():
        return [(params.table.model.index(r, 0).data(), params.table.model.index(r, 1).data(),
                 params.table.model.index(r, 3).data()) for r in range(params.table.model.rowCount())]

    qtbot.waitUntil(lambda: len(shown()) == 2, timeout=3000)           # the table follows the save
    assert shown()[0] == ("01/01/2027", "R$\xa0118,90", "Decreto nº 10/2026")
    assert shown()[1][:2] == ("01/01/2026", "R$\xa0112,45")
    assert parameters.upfm_value(db, 2027) == Decimal("118.90")
    assert parameters.upfm_value(db, 2026) == Decimal("112.45")


def click_key(params, key):
    """Click the parameter's line in the list of parameters."""
    row = next(i for i, spec in enumerate(params.specs) if spec.key == key)
    click_row(params.keys, row)
    assert params.current_spec().key == key


def test_parameter_out_of_range_is_shown_beside_the_value(qtbot, db, admin):
    """ISS rate between 2 % and 5 % (Art. 11; LC 116/2003, LC 157/2016): the service refuses 7 %."""
    from desktop.views.admin.parameters import NewValueDialog

    params = screen(qtbot, db, admin, "Parâmetros")
    click_key(params, "issqn_rate_percent")
    seen = {}

    def fill(dialog):
        type_date(dialog.date_edit, date(2027, 1, 1))
        type_into(dialog.value_edit, "7")
        click_button(save_of(dialog))
        seen["open"] = dialog.isVisible()

    dialog = in_dialog(NewValueDialog, params.new_button, fill)
    assert seen["open"] and not accepted(dialog)
    assert dialog.errors.is_invalid("value")


# -- Feriados ---------------------------------------------------------------------------------------------------
def test_holidays_screen_adds_and_removes_with_reason_and_shows_national_ones(qtbot, db, admin):
    from PySide6.QtWidgets import QInputDialog

    from desktop.services import holidays
    from desktop.views.admin.holidays import HolidayDialog
    from desktop.views.widgets import qdate_to_date

    hol = screen(qtbot, db, admin, "Feriados municipais")
    type_into(hol.year_spin, "2026")
    qtbot.waitUntil(lambda: "Natal" in {row[1] for row in hol.state.visible_rows()}, timeout=3000)
    national = {row[1] for row in hol.state.visible_rows()}
    assert "Natal" in national and "Tiradentes" in national
    seen = {}

    def fill(dialog):
        type_date(dialog.date_edit, date(2026, 10, 26))
        type_into(dialog.name_edit, "Aniversário de Chapada dos Guimarães")
        seen["day"] = qdate_to_date(dialog.date_edit.date())
        click_button(save_of(dialog))

    assert accepted(in_dialog(HolidayDialog, hol.add_button, fill))
    assert seen["day"] == date(2026, 10, 26)                           # the date typed is the date kept
    qtbot.waitUntil(lambda: [(h.day, h.name) for h in hol.municipal.visible_rows()] ==
                    [(date(2026, 10, 26), "Aniversário de Chapada dos Guimarães")], timeout=3000)
    assert not holidays.calendar(db).is_business_day(date(2026, 10, 26))
    click_row(hol.municipal, 0)

    def reason(box):
        from PySide6.QtWidgets import QLineEdit

        type_into(box.findChild(QLineEdit), "Data transferida por decreto")
        press("Return")

    activate(hol.window())
    done = in_modal(QInputDialog, reason)
    click_button(hol.remove_button)
    done.check()
    qtbot.waitUntil(lambda: not hol.municipal.visible_rows()[0].active, timeout=3000)
    [removed] = hol.municipal.visible_rows()
    assert not removed.active
    assert hol.municipal.model.index(0, 4).data() == "Removido"
    assert holidays.calendar(db).is_business_day(date(2026, 10, 26))


# -- Município --------------------------------------------------------------------------------------------------
def muni_save(db, muni) -> bool:
    """Click «Salvar» of Administração → Município; True when the record was written (its version moved)."""
    from desktop.services import setup

    before = setup.get_municipality(db).version
    click_button(muni.save_button)
    return setup.get_municipality(db).version != before


def test_municipality_screen_saves_and_refuses_a_stale_save(qtbot, db, admin, messages):
    from desktop.services import setup
    from desktop.views.admin.municipality import MunicipalityScreen

    muni = screen(qtbot, db, admin, "Município")
    assert isinstance(muni, MunicipalityScreen)
    assert muni.form.name_edit.text() == "Chapada dos Guimarães"
    type_into(muni.form.secretariat_edit, "Secretaria Municipal de Mobilidade")
    assert muni_save(db, muni)
    assert muni.status.text() == "Dados do município salvos."
    assert setup.get_municipality(db).secretariat == "Secretaria Municipal de Mobilidade"
    # another desk saves first
    other = setup.get_municipality(db)
    setup.update_municipality(db, admin, setup.MunicipalityDraft(
        name=other.name, uf=other.uf, secretariat="Secretaria de Finanças", ouvidoria_phone=other.ouvidoria_phone),
        other.version)
    type_into(muni.form.pix_edit, "pix@chapada.mt.gov.br")
    assert not muni_save(db, muni)
    assert "alterado por outro usuário" in messages[-1][2]
    assert muni.form.secretariat_edit.text() == "Secretaria de Finanças", "reloaded"
    assert "recarregados" in muni.status.text()


def test_issue12_item14_municipality_pix_key_is_stored_as_the_br_code_carries_it(qtbot, db, admin, messages):
    """Issue 12 item 14: "03.507.548/0001-10" goes into the PIX payload as 03507548000110; a key that is no key
    is refused next to its field."""
    from desktop.services import setup

    muni = screen(qtbot, db, admin, "Município")
    type_into(muni.form.pix_edit, "nome da prefeitura")
    assert "não reconhecida" in muni.form.pix_hint.text()
    assert not muni_save(db, muni)
    assert muni.form.errors.is_invalid("pix_key")
    assert "Chave PIX não reconhecida" in muni.form.errors.message("pix_key")
    type_into(muni.form.pix_edit, "03.507.548/0001-11")
    assert not muni_save(db, muni)
    assert "dígitos verificadores" in muni.form.errors.message("pix_key")
    type_into(muni.form.pix_edit, "03.507.548/0001-10")
    assert "03507548000110 (CNPJ)" in muni.form.pix_hint.text()
    assert muni_save(db, muni), messages
    assert setup.get_municipality(db).pix_key == "03507548000110"
    assert muni.form.pix_edit.text() == "03507548000110"
    type_into(muni.form.pix_edit, "+55 (65) 99999-1234")
    assert muni_save(db, muni)
    assert setup.get_municipality(db).pix_key == "+5565999991234"


def test_issue12_item15_municipality_screen_says_plainly_when_the_febraban_code_is_missing(qtbot, db, admin):
    from desktop.services import setup

    muni = screen(qtbot, db, admin, "Município")
    assert setup.get_municipality(db).febraban_agreement is None
    assert muni.form.febraban_missing_shown()
    assert "não podem ser emitidas" in muni.form.febraban_missing.text()
    type_into(muni.form.febraban_edit, "12")
    assert not muni_save(db, muni)
    assert muni.form.errors.is_invalid("febraban_agreement")
    type_into(muni.form.febraban_edit, "0421")
    assert not muni.form.febraban_missing_shown()
    assert muni_save(db, muni)
    assert setup.get_municipality(db).febraban_agreement == "0421"


def test_issue23_municipality_screen_takes_the_collecting_bank_typed_and_saved_with_the_mouse(qtbot, db, admin):
    """Issue 23 point 8: the return file of another bank is refused only when the collecting bank is configured;
    Administração → Município asks for it (3 digits), says what happens while it is empty, and keeps it."""
    from hands import activate, click_button, type_into
    from desktop.services import setup

    muni = screen(qtbot, db, admin, "Município")
    page = muni.keep_page_alive
    page.resize(1200, 900)
    page.show()
    activate(page)
    assert setup.get_municipality(db).febraban_bank is None
    assert muni.form.bank_missing_shown() and "outro banco" in muni.form.bank_missing.text()
    type_into(muni.form.bank_edit, "237")
    assert not muni.form.bank_missing_shown()
    click_button(muni.save_button)
    assert setup.get_municipality(db).febraban_bank == "237"
    again = screen(qtbot, db, admin, "Município")
    assert again.form.bank_edit.text() == "237"
    type_into(muni.form.bank_edit, "2x")          # a letter does not go in: the mask keeps digits only
    assert muni.form.bank_edit.text() == "2"
    click_button(muni.save_button)
    assert setup.get_municipality(db).febraban_bank == "002"


# -- Banco de dados ---------------------------------------------------------------------------------------------
def test_database_settings_save_postgresql_url_for_the_next_start(qtbot, db, admin):
    from desktop.db import resolve_url
    from desktop.settings import load_settings

    database = screen(qtbot, db, admin, "Banco de dados")
    settings = database.settings
    assert settings.sqlite_radio.isChecked()
    tick(settings.pg_radio)
    assert settings.pg_radio.isChecked()
    type_into(settings.url_edit, "mysql://servidor/base")
    click_button(database.save_button)
    assert "postgresql" in settings.result.text()
    assert load_settings().database_url is None                      # refused: nothing kept
    type_into(settings.url_edit, "postgresql+psycopg://usuario:senha@servidor:5432/transporte")
    click_button(database.save_button)
    assert "próxima vez" in settings.result.text()
    assert load_settings().database_url == "postgresql+psycopg://usuario:senha@servidor:5432/transporte"
    assert resolve_url(None).startswith("postgresql+psycopg://usuario:")
    tick(settings.sqlite_radio)
    click_button(database.save_button)
    assert load_settings().database_url is None


def test_database_settings_test_connection_to_the_office_server(qtbot, db, admin):
    url = os.environ.get("DESKTOP_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    settings = screen(qtbot, db, admin, "Banco de dados").settings
    tick(settings.pg_radio)
    type_into(settings.url_edit, url)
    click_button(settings.test_button)
    qtbot.waitUntil(lambda: settings.task.finished, timeout=15000)
    assert settings.result.text().startswith("Conexão bem-sucedida com PostgreSQL: 127.0.0.1/test"), \
        settings.result.text()
    type_into(settings.url_edit, "postgresql+psycopg://postgres@127.0.0.1:1/nada")
    qtbot.waitUntil(settings.test_button.isEnabled, timeout=3000)
    click_button(settings.test_button)
    qtbot.waitUntil(lambda: settings.task.finished and settings.test_button.isEnabled(), timeout=15000)
    assert settings.result.text().startswith("Falha na conexão:")


def test_a_gestor_sees_parameters_and_holidays_but_not_users(qtbot, db, admin):
    """SPEC §1: the gestor keeps the parameters (decisions); users and settings belong to the administrador."""
    from desktop.services import auth, users

    users.create_user(db, admin, users.UserDraft("gil", "Gil Gestor", frozenset({Role.GESTOR}), "senha-do-gil-1"))
    gestor = auth.login(db, "gil", "senha-do-gil-1")
    page = AdministrationPage(db, gestor)
    qtbot.addWidget(page)
    assert page.tab_titles() == ["Parâmetros", "Feriados municipais"]


def test_edit_dialog_shows_no_password_fields(qtbot, db, admin):
    """An existing user's password changes only through "Redefinir senha…" (reset_password, audited)."""
    from desktop.services import users

    carla = users.create_user(db, admin, users.UserDraft("carla", "Carla", frozenset({Role.ATENDENTE}),
                                                         "senha-da-carla-1"))
    dialog = UserDialog(db, admin, carla)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.username_edit.isReadOnly()
    assert not dialog.password_edit.isVisible() and not dialog.confirm_edit.isVisible()


def test_issue28_municipality_screen_takes_the_codigos_da_receita_typed_and_saved_with_the_mouse(qtbot, db, admin):
    """Issue 28 point 4: every DAM prints the código da receita of its debt; Administração → Município asks for
    one per kind of debt (none invented: empty reads "não configurado"), typed and saved by the mouse, audited."""
    from hands import activate, click_button, type_into
    from desktop.services import setup

    muni = screen(qtbot, db, admin, "Município")
    page = muni.keep_page_alive
    page.resize(1366, 728)
    page.show()
    activate(page)
    assert muni.form.revenue_group.isVisible() and "não configurado" in muni.form.revenue_note.text()
    costs = muni.form.revenue_edits["revenue_code_costs"]
    assert costs.placeholderText() == "não configurado" and costs.isVisible()
    assert setup.get_municipality(db).revenue_code("revenue_code_costs") is None
    type_into(muni.form.revenue_edits["revenue_code_fine"], "1.9.1.0.99.01")
    type_into(costs, "1.9.2.2.99.01")
    click_button(muni.save_button)
    info = setup.get_municipality(db)
    assert info.revenue_code("revenue_code_fine") == "1.9.1.0.99.01"
    assert info.revenue_code("revenue_code_costs") == "1.9.2.2.99.01"
    assert info.revenue_code("revenue_code_issqn") is None
    assert "salvos" in muni.status.text()
    again = screen(qtbot, db, admin, "Município")
    assert again.form.revenue_edits["revenue_code_costs"].text() == "1.9.2.2.99.01"
    type_into(costs, "1.9;2")                     # refused beside its field, in Portuguese, nothing saved
    click_button(muni.save_button)
    assert muni.form.errors.is_invalid("revenue_code_costs")
    assert "Custas (Art. 28)" in muni.form.errors.message("revenue_code_costs")
    assert setup.get_municipality(db).revenue_code("revenue_code_costs") == "1.9.2.2.99.01"
