"""Issue 2: an administrator manages users and roles, the dated parameter tables, the municipal holidays, the
municipality's data and the database settings — through the services, on a real SQLite database."""
from __future__ import annotations

import os
from datetime import date
from decimal import Decimal

from desktop.domain.roles import Role
from desktop.views.admin.page import AdministrationPage
from desktop.views.admin.users import PasswordDialog, UserDialog


def screen(qtbot, db, actor, title):
    page = AdministrationPage(db, actor)
    qtbot.addWidget(page)  # qtbot only holds a weak reference: the screen keeps its page alive
    tab = page.show_tab(title)
    tab.keep_page_alive = page
    return tab


# -- Usuários ---------------------------------------------------------------------------------------------------
def test_users_screen_creates_a_user_with_roles(qtbot, db, admin):
    from desktop.services import auth

    users_screen = screen(qtbot, db, admin, "Usuários")
    assert [u.username for u in users_screen.table.visible_rows()] == ["admin"]
    dialog = UserDialog(db, admin, None, users_screen)
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.username_edit, "joao.fiscal")
    dialog.full_name_edit.setText("João Fiscal de Souza")
    dialog.role_checks[Role.FISCAL].setChecked(True)
    dialog.role_checks[Role.VISTORIADOR].setChecked(True)
    qtbot.keyClicks(dialog.password_edit, "senha-do-joao-1")
    qtbot.keyClicks(dialog.confirm_edit, "senha-do-joao-1")
    assert dialog.save()
    users_screen._changed()  # what new_user() does after the dialog: the bus tells every screen
    rows = {u.username: u for u in users_screen.table.visible_rows()}
    assert set(rows) == {"admin", "joao.fiscal"}
    assert rows["joao.fiscal"].roles == frozenset({Role.FISCAL, Role.VISTORIADOR})
    assert auth.login(db, "joao.fiscal", "senha-do-joao-1").roles == frozenset({Role.FISCAL, Role.VISTORIADOR})
    # filter as you type, without accents: "joao" finds "João"
    users_screen.table.filter_edit.setText("joao")
    assert [u.username for u in users_screen.table.visible_rows()] == ["joao.fiscal"]
    users_screen.table.filter_edit.setText("vistoriador")
    assert [u.username for u in users_screen.table.visible_rows()] == ["joao.fiscal"]


def test_user_dialog_shows_service_problems_next_to_the_fields(qtbot, db, admin):
    dialog = UserDialog(db, admin)
    qtbot.addWidget(dialog)
    dialog.username_edit.setText("x")
    dialog.password_edit.setText("curta")
    dialog.confirm_edit.setText("curta")
    assert not dialog.save()
    assert dialog.errors.is_invalid("username")
    assert "Nome de acesso inválido" in dialog.errors.message("username")
    assert "pelo menos 8 caracteres" in dialog.errors.message("password")


def test_stale_user_save_is_refused_and_the_list_reloads(qtbot, db, admin, messages):
    """SPEC §4: two desks editing the same record — the second save is refused with a clear message."""
    from desktop.services import users

    joao = users.create_user(db, admin, users.UserDraft("joao", "João", frozenset({Role.FISCAL}), "senha-do-joao-1"))
    users_screen = screen(qtbot, db, admin, "Usuários")
    users_screen.table.select_where(lambda u: u.username == "joao")
    opened = users_screen.table.selected()
    # another desk changes João first
    users.update_user(db, admin, joao.id, users.UserDraft("joao", "João Batista", frozenset({Role.FISCAL})),
                      joao.version)
    dialog = UserDialog(db, admin, opened, users_screen)
    qtbot.addWidget(dialog)
    dialog.full_name_edit.setText("João da Silva")
    assert not dialog.save()
    assert dialog.stale
    assert messages and "alterado por outro usuário" in messages[-1][2]
    users_screen._changed()
    assert {u.username: u.full_name for u in users_screen.table.visible_rows()}["joao"] == "João Batista"


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
    users_screen.table.select_where(lambda u: u.username == "carla")
    assert users_screen.table.selected().locked_until is not None
    assert users_screen.unlock_button.isEnabled()
    assert "Bloqueado até" in users_screen.table.model.index(
        users_screen.table.proxy.mapToSource(users_screen.table.view.currentIndex()).row(), 3).data()
    users_screen.unlock_button.click()
    assert auth.login(db, "carla", "senha-da-carla-1").username == "carla"
    users_screen.table.select_where(lambda u: u.username == "carla")
    assert users_screen.active_button.text() == "Desativar"
    users_screen.active_button.click()
    carla = {u.username: u for u in users_screen.table.visible_rows()}["carla"]
    assert not carla.active


def test_reset_password_dialog(qtbot, db, admin):
    from desktop.services import auth, users

    carla = users.create_user(db, admin, users.UserDraft("carla", "Carla", frozenset({Role.ATENDENTE}),
                                                         "senha-da-carla-1"))
    dialog = PasswordDialog(db, admin, carla)
    qtbot.addWidget(dialog)
    dialog.password_edit.setText("nova-senha-2026")
    dialog.confirm_edit.setText("nova-senha-2026")
    assert dialog.save()
    assert auth.login(db, "carla", "nova-senha-2026").username == "carla"


# -- Parâmetros -------------------------------------------------------------------------------------------------
def test_parameters_screen_adds_a_dated_value_and_keeps_the_old_one(qtbot, db, admin):
    """Art. 25: the UPFM value of each year stays; a new value is a new dated row, nothing edited in place."""
    from desktop.services import parameters
    from desktop.views.admin.parameters import NewValueDialog

    params = screen(qtbot, db, admin, "Parâmetros")
    params.select_key("upfm_value")
    assert [params.table.model.index(r, 1).data() for r in range(params.table.model.rowCount())] == \
        ["R$\xa0112,45"]
    dialog = NewValueDialog(db, admin, params.current_spec(), params, valid_from=date(2027, 1, 1))
    qtbot.addWidget(dialog)
    dialog.value_edit.setText("118,90")
    dialog.note_edit.setText("Decreto nº 10/2026")
    assert dialog.save()
    from desktop.signals import bus

    bus.data_changed.emit("parameters")
    shown = [(params.table.model.index(r, 0).data(), params.table.model.index(r, 1).data(),
              params.table.model.index(r, 3).data()) for r in range(params.table.model.rowCount())]
    assert shown[0] == ("01/01/2027", "R$\xa0118,90", "Decreto nº 10/2026")
    assert shown[1][:2] == ("01/01/2026", "R$\xa0112,45")
    assert parameters.upfm_value(db, 2027) == Decimal("118.90")
    assert parameters.upfm_value(db, 2026) == Decimal("112.45")


def test_parameter_out_of_range_is_shown_beside_the_value(qtbot, db, admin):
    """ISS rate between 2 % and 5 % (Art. 11; LC 116/2003, LC 157/2016): the service refuses 7 %."""
    from desktop.views.admin.parameters import NewValueDialog

    params = screen(qtbot, db, admin, "Parâmetros")
    params.select_key("issqn_rate_percent")
    dialog = NewValueDialog(db, admin, params.current_spec(), params, valid_from=date(2027, 1, 1))
    qtbot.addWidget(dialog)
    dialog.value_edit.setText("7")
    assert not dialog.save()
    assert dialog.errors.is_invalid("value")


# -- Feriados ---------------------------------------------------------------------------------------------------
def test_holidays_screen_adds_and_removes_with_reason_and_shows_national_ones(qtbot, db, admin):
    from desktop.services import holidays
    from desktop.views.admin.holidays import HolidayDialog
    from desktop.views.widgets import qdate_to_date
    from PySide6.QtCore import QDate

    hol = screen(qtbot, db, admin, "Feriados municipais")
    hol.year_spin.setValue(2026)
    national = {row[1] for row in hol.state.visible_rows()}
    assert "Natal" in national and "Tiradentes" in national
    dialog = HolidayDialog(db, admin, 2026, hol)
    qtbot.addWidget(dialog)
    dialog.date_edit.setDate(QDate(2026, 10, 26))
    dialog.name_edit.setText("Aniversário de Chapada dos Guimarães")
    assert qdate_to_date(dialog.date_edit.date()) == date(2026, 10, 26)
    assert dialog.save()
    from desktop.signals import bus

    bus.data_changed.emit("holidays")
    assert [(h.day, h.name) for h in hol.municipal.visible_rows()] == \
        [(date(2026, 10, 26), "Aniversário de Chapada dos Guimarães")]
    assert not holidays.calendar(db).is_business_day(date(2026, 10, 26))
    hol.municipal.select_where(lambda h: h.day == date(2026, 10, 26))
    assert hol.remove(reason="Data transferida por decreto")
    [removed] = hol.municipal.visible_rows()
    assert not removed.active
    assert hol.municipal.model.index(0, 4).data() == "Removido"
    assert holidays.calendar(db).is_business_day(date(2026, 10, 26))


# -- Município --------------------------------------------------------------------------------------------------
def test_municipality_screen_saves_and_refuses_a_stale_save(qtbot, db, admin, messages):
    from desktop.services import setup
    from desktop.views.admin.municipality import MunicipalityScreen

    muni = screen(qtbot, db, admin, "Município")
    assert isinstance(muni, MunicipalityScreen)
    assert muni.form.name_edit.text() == "Chapada dos Guimarães"
    muni.form.secretariat_edit.setText("Secretaria Municipal de Mobilidade")
    assert muni.save()
    assert setup.get_municipality(db).secretariat == "Secretaria Municipal de Mobilidade"
    # another desk saves first
    other = setup.get_municipality(db)
    setup.update_municipality(db, admin, setup.MunicipalityDraft(
        name=other.name, uf=other.uf, secretariat="Secretaria de Finanças", ouvidoria_phone=other.ouvidoria_phone),
        other.version)
    muni.form.pix_edit.setText("pix@chapada.mt.gov.br")
    assert not muni.save()
    assert "alterado por outro usuário" in messages[-1][2]
    assert muni.form.secretariat_edit.text() == "Secretaria de Finanças", "reloaded"
    assert "recarregados" in muni.status.text()


def test_issue12_item14_municipality_pix_key_is_stored_as_the_br_code_carries_it(qtbot, db, admin, messages):
    """Issue 12 item 14: "03.507.548/0001-10" goes into the PIX payload as 03507548000110; a key that is no key
    is refused next to its field."""
    from desktop.services import setup

    muni = screen(qtbot, db, admin, "Município")
    muni.form.pix_edit.setText("nome da prefeitura")
    assert "não reconhecida" in muni.form.pix_hint.text()
    assert not muni.save()
    assert muni.form.errors.is_invalid("pix_key")
    assert "Chave PIX não reconhecida" in muni.form.errors.message("pix_key")
    muni.form.pix_edit.setText("03.507.548/0001-11")
    assert not muni.save()
    assert "dígitos verificadores" in muni.form.errors.message("pix_key")
    muni.form.pix_edit.setText("03.507.548/0001-10")
    assert "03507548000110 (CNPJ)" in muni.form.pix_hint.text()
    assert muni.save(), messages
    assert setup.get_municipality(db).pix_key == "03507548000110"
    assert muni.form.pix_edit.text() == "03507548000110"
    muni.form.pix_edit.setText("+55 (65) 99999-1234")
    assert muni.save()
    assert setup.get_municipality(db).pix_key == "+5565999991234"


def test_issue12_item15_municipality_screen_says_plainly_when_the_febraban_code_is_missing(qtbot, db, admin):
    from desktop.services import setup

    muni = screen(qtbot, db, admin, "Município")
    assert setup.get_municipality(db).febraban_agreement is None
    assert muni.form.febraban_missing_shown()
    assert "não podem ser emitidas" in muni.form.febraban_missing.text()
    muni.form.febraban_edit.setText("12")
    assert not muni.save()
    assert muni.form.errors.is_invalid("febraban_agreement")
    muni.form.febraban_edit.setText("0421")
    assert not muni.form.febraban_missing_shown()
    assert muni.save()
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

    settings = screen(qtbot, db, admin, "Banco de dados").settings
    assert settings.sqlite_radio.isChecked()
    settings.pg_radio.setChecked(True)
    settings.url_edit.setText("mysql://servidor/base")
    assert not settings.save()
    assert "postgresql" in settings.result.text()
    settings.url_edit.setText("postgresql+psycopg://usuario:senha@servidor:5432/transporte")
    assert settings.save()
    assert "próxima vez" in settings.result.text()
    assert load_settings().database_url == "postgresql+psycopg://usuario:senha@servidor:5432/transporte"
    assert resolve_url(None).startswith("postgresql+psycopg://usuario:")
    settings.sqlite_radio.setChecked(True)
    assert settings.save()
    assert load_settings().database_url is None


def test_database_settings_test_connection_to_the_office_server(qtbot, db, admin):
    url = os.environ.get("DESKTOP_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    settings = screen(qtbot, db, admin, "Banco de dados").settings
    settings.pg_radio.setChecked(True)
    settings.url_edit.setText(url)
    settings.test_connection()
    qtbot.waitUntil(lambda: settings.task.finished, timeout=15000)
    assert settings.result.text().startswith("Conexão bem-sucedida com PostgreSQL: 127.0.0.1/test"), \
        settings.result.text()
    settings.url_edit.setText("postgresql+psycopg://postgres@127.0.0.1:1/nada")
    settings.test_connection()
    qtbot.waitUntil(lambda: settings.task.finished, timeout=15000)
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
