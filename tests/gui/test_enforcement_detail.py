"""Issue 6 — the page of one auto: one action bar enabled by the auto's status machine and the user's roles
(Art. 22; STYLE: the same table drives the buttons), the process recorded through dialogs, measures with release
and Art. 28 costs, and a stale save offering "Recarregar" (SPEC §4)."""
from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register, lookups
from enforcement_fixtures import draw_up, shoot

from hands import activate, choose_in_combo, click_button, click_row, in_modal, type_into
from desktop.domain import local_today
from desktop.domain.penalties import AdministrativeMeasure, NotificationForm
from desktop.views.enforcement import dialogs
from desktop.views.enforcement.detail import AutoDetailScreen
from desktop.services.actors import SYSTEM_ACTOR


def open_detail(qtbot, db, actor, auto_id):
    screen = AutoDetailScreen(db, actor)
    qtbot.addWidget(screen)
    screen.resize(1150, 720)
    screen.show_auto(auto_id)
    activate(screen)
    return screen


def act(screen, key, kind, work):
    """Click the action's button with the mouse and do `work(dialog)` in the dialog it opens (inside its exec)."""
    activate(screen)
    done = in_modal(kind, work)
    click_button(screen.buttons[key])
    return done.check()


def choose(combo, data):
    choose_in_combo(combo, combo.itemText(combo.findData(data)))


def ddmmyyyy(day) -> str:
    return day.strftime("%d/%m/%Y")


def click_measures_tab(screen):
    from robot import click_tab

    activate(screen)
    index = screen.tabs.indexOf(screen.measures)
    assert index >= 0, "the measures list is not a tab of its own"
    click_tab(screen.tabs, index)
    assert screen.tabs.currentIndex() == index


def first_measure(screen):
    click_row(screen.measures, 0)


def recent_auto(db, people, register, days_ago=3, code="ART26-IV"):
    return draw_up(db, people.fiscal, code, local_today() - timedelta(days=days_ago), driver_id=register.joao,
                   platform_id=register.platform, vehicle_id=register.car)


def test_art22_action_bar_follows_status_and_roles(qtbot, db, people, register):
    auto = recent_auto(db, people, register)
    as_fiscal = open_detail(qtbot, db, people.fiscal, auto.id)
    assert "Lavrado" in as_fiscal.title.text() and auto.number in as_fiscal.title.text()
    enabled = set(as_fiscal.enabled_actions())
    assert {"notify", "measure"} <= enabled
    assert not enabled & {"cancel", "judge", "defense", "appeal", "payment", "finalize"}  # cancel: gestor only
    as_gestor = open_detail(qtbot, db, people.gestor, auto.id)
    assert "cancel" in as_gestor.enabled_actions()
    assert as_gestor.data_grid.text("Infração").startswith("ART26-IV")
    assert "30 UPFM = R$ 3.373,50" in as_gestor.amount_grid.text("Multa (valor atual)")

    # Art. 22 §2: the notification with its proof joined → notified; the defense term runs
    def notify(dialog):
        choose(dialog.form_combo, NotificationForm.DIRECT)
        type_into(dialog.sent_edit, ddmmyyyy(local_today() - timedelta(days=1)), leave=True)
        type_into(dialog.proof_edit, ddmmyyyy(local_today() - timedelta(days=1)), leave=True)
        click_button(dialog.ok_button)

    act(as_fiscal, "notify", dialogs.NotificationDialog, notify)
    assert "Notificado" in as_fiscal.title.text()
    assert as_fiscal.amount_grid.text("Prazo de defesa") != "—"
    assert "defense" in as_fiscal.enabled_actions() and "notify" in as_fiscal.enabled_actions()
    assert "judge" not in as_fiscal.enabled_actions()
    assert as_fiscal.notifications.model.rowCount() == 1
    events = [row.what for row in as_fiscal.timeline.model.rows()]
    assert events[:3] == ["Auto lavrado", "Lançamento: Multa (débito)", "Notificação enviada"] or \
        {"Auto lavrado", "Notificação enviada", "Prova da notificação juntada"} <= set(events)
    shoot(as_fiscal, "auto_detail_notified.png")

    # the defense received → in defense; now the gestor (not the fiscal) may judge
    def defense(dialog):
        type_into(dialog.summary_edit, "O passageiro solicitou a corrida pelo aplicativo.")
        click_button(dialog.ok_button)

    act(as_fiscal, "defense", dialogs.DefenseDialog, defense)
    assert "Em defesa" in as_fiscal.title.text()
    assert "judge" not in as_fiscal.enabled_actions()
    as_gestor.reload()
    assert "judge" in as_gestor.enabled_actions() and "cancel" in as_gestor.enabled_actions()


def test_stale_dialog_offers_reload(qtbot, db, people, register):
    """SPEC §4: another desk changed the auto first; nothing is saved and the page offers "Recarregar"."""
    from desktop.services.autos import process

    auto = recent_auto(db, people, register)
    screen = open_detail(qtbot, db, people.fiscal, auto.id)
    # another desk records the notification, with its proof, first: the auto is now notified
    two_days_ago = local_today() - timedelta(days=2)
    process.record_notification(db, people.fiscal, auto.id, process.NotificationDraft(
        addressee="driver", form=NotificationForm.POST, sent_on=two_days_ago, proof_joined_on=two_days_ago),
        auto.version)
    dialog = act(screen, "notify", dialogs.NotificationDialog, lambda d: click_button(d.ok_button))
    assert dialog.stale and not dialog.isVisible()
    assert screen.banner.isVisibleTo(screen)
    assert "alterado por outro usuário" in screen.banner.label.text()
    shoot(screen, "auto_detail_stale.png")
    click_button(screen.banner.reload_button)
    assert not screen.banner.isVisibleTo(screen)
    assert screen.notifications.model.rowCount() == 1
    assert "Notificado" in screen.title.text()
    assert "defense" in screen.enabled_actions()


def test_art24_ii_measure_release_and_art28_costs(qtbot, db, people, register):
    """Art. 24 II: a vehicle removal recorded and released; Art. 28: its costs charged to the driver's ledger."""
    from desktop.services import ledger

    auto = recent_auto(db, people, register, code="ART27")
    screen = open_detail(qtbot, db, people.fiscal, auto.id)
    assert not screen.buttons["release"].isEnabled() and not screen.buttons["costs"].isEnabled()
    def measure(dialog):
        choose(dialog.kind_combo, AdministrativeMeasure.RETENTION_OR_REMOVAL)
        type_into(dialog.place_edit, "Patio municipal")
        click_button(dialog.ok_button)

    act(screen, "measure", dialogs.MeasureDialog, measure)
    assert screen.measures.model.rowCount() == 1
    click_measures_tab(screen)
    first_measure(screen)
    assert screen.buttons["release"].isEnabled() and screen.buttons["costs"].isEnabled()

    joao = ledger.Infractor.driver(register.joao)
    before = ledger.statement(db, SYSTEM_ACTOR, joao)
    def costs(dialog):
        type_into(dialog.amount_edit, "337,35")
        click_button(dialog.ok_button)                   # the description is required
        assert dialog.isVisible() and dialog.errors.is_invalid("reason")
        type_into(dialog.reason_edit, "Guincho e 2 diarias no patio")
        click_button(dialog.ok_button)

    act(screen, "costs", dialogs.CostsDialog, costs)
    after = ledger.statement(db, SYSTEM_ACTOR, joao)
    # issue 23 point 6: the costs are reais owed, never converted at a UPFM (the fine's UPFM is unchanged)
    assert after.balance_reais - before.balance_reais == Decimal("337.35")
    assert after.balance_upfm == before.balance_upfm
    click_measures_tab(screen)
    first_measure(screen)
    assert not screen.buttons["costs"].isEnabled()       # charged once

    def release(dialog):
        type_into(dialog.note_edit, "Veiculo regularizado e devolvido.")
        click_button(dialog.ok_button)

    act(screen, "release", dialogs.MeasureReleaseDialog, release)
    click_measures_tab(screen)
    first_measure(screen)
    assert screen.measures.selected().released_on is not None
    assert not screen.buttons["release"].isEnabled()
    shoot(screen, "auto_detail_measures.png")


def test_cancel_by_the_gestor_needs_a_reason_and_reverses_the_fine(qtbot, db, people, register):
    from desktop.services import ledger

    auto = recent_auto(db, people, register)
    screen = open_detail(qtbot, db, people.gestor, auto.id)
    def cancel(dialog):
        click_button(dialog.ok_button)
        assert dialog.isVisible() and dialog.errors.is_invalid("reason")
        type_into(dialog.reason_edit, "Placa anotada errada pelo agente.")
        click_button(dialog.ok_button)

    act(screen, "cancel", dialogs.AutoReasonDialog, cancel)
    assert "Cancelado" in screen.title.text()
    assert screen.enabled_actions() == []
    assert ledger.auto_balance(db, SYSTEM_ACTOR, auto.id) == Decimal(0)
    assert "Estorno" in [e.kind_label for e in screen.entries.model.rows()]


def test_art17_art22_each_button_is_its_action_enabled_or_saying_what_would_enable_it(qtbot, db, people, register):
    """Issue 10 item 4: the bar draws the `Action`s the service returns (domain.auto_steps): enabled exactly when
    the action is, the tooltip with the article, or with the status or role that would enable it."""
    auto = recent_auto(db, people, register)
    screen = open_detail(qtbot, db, people.fiscal, auto.id)
    actions = {a.key: a for a in screen.detail.actions}
    assert set(actions) <= set(screen.buttons)
    for key, action in actions.items():
        assert screen.buttons[key].isEnabled() is action.enabled, key
        assert screen.buttons[key].toolTip() == action.tooltip, key
    assert "Art. 17" in screen.buttons["cancel"].toolTip()
    assert "Indisponível: exige o perfil Gestor" in screen.buttons["cancel"].toolTip()
    assert "situação for" in screen.buttons["payment"].toolTip() and "(agora: Lavrado)" in \
        screen.buttons["payment"].toolTip()
    assert "não há notificação aguardando a prova" in screen.buttons["join_proof"].toolTip()


def test_art26_par1_the_proposal_panel_names_the_prior_auto_of_a_recurrence(qtbot, db, people, register):
    """Issue 12 item 10: the page of a recurrence names the earlier auto by its number (not only its date)."""
    from enforcement_fixtures import make_final

    prior = recent_auto(db, people, register, days_ago=40)
    make_final(db, people, prior)
    again = recent_auto(db, people, register, days_ago=1)
    assert again.recurrence
    screen = open_detail(qtbot, db, people.gestor, again.id)
    text = screen.assessment_panel.plain_text()
    assert f"auto(s) nº {prior.number}" in text and "Reincidência encontrada" in text


def test_art25_the_page_shows_the_infraction_and_the_lavratura_apart_and_whose_upfm(qtbot, db, people, register):
    """Issue 24 item 9 (Art. 25; SPEC §3): the fact's date-time and the lavratura are two lines; the UPFM value is
    the lavratura year's, and the page says so."""
    from desktop.domain import local_now
    from desktop.domain.formatting import format_date

    auto = recent_auto(db, people, register, days_ago=3)
    page = open_detail(qtbot, db, people.fiscal, auto.id)
    assert page.data_grid.text("Data e hora da infração").startswith(format_date(local_today() - timedelta(days=3)))
    assert page.data_grid.text("Lavrado em").startswith(format_date(local_now().date()))
    assert f"(ano {local_now().year}, o da lavratura)" in page.amount_grid.text("Valor da UPFM")
