"""Autorizações on a real SQLite database: the whole GUI path request → analysis → approval → fee → inspection →
active with its NNNN/AAAA number (Art. 3, 8, 9, 10, 15), the buttons enabled from the state machine, refusals
shown in the dialog, renewal marked late (Art. 3 §2), suspension with its end date (Art. 24), the stale save that
offers "Recarregar", and the change communications list with late ones highlighted (Art. 13 XVIII)."""
from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from action_hands import act, fill, menu_choose, open_row, tab_of
from hands import activate, choose_in_combo, click_button, click_row, find_button, in_modal, type_into
from robot import click_tab

from registry_fixtures import *  # noqa: F401,F403


def _page(qtbot, db, actor, run_jobs=False):
    from desktop.views.authorizations.page import AuthorizationsPage

    page = AuthorizationsPage(db, actor, run_jobs=run_jobs)
    qtbot.addWidget(page)
    page.resize(1200, 760)
    activate(page)
    return page


def _open(qtbot, page, authorization_id):
    """Double-click the authorization's row of the list: its page opens over the list."""
    activate(page)
    detail = open_row(qtbot, page.authorizations, authorization_id)
    assert detail.data.authorization.id == authorization_id
    return detail


def _confirm(qtbot, detail, key, **values):
    return act(qtbot, detail.buttons[key], values)


@pytest.fixture
def registered(db, staff):
    platform = make_platform(db, staff.clerk)
    driver = make_driver(db, staff.clerk, platform_ids=(platform.id,))
    vehicle = make_vehicle(db, staff.clerk)
    return driver, vehicle


def test_art3_art9_art10_full_path_request_to_active_shows_the_number(qtbot, db, staff, registered, messages):
    driver, vehicle = registered
    page = _page(qtbot, db, staff.clerk)
    screen = page.authorizations
    from desktop.views.authorizations.request import RequestDialog

    ok, request = act(qtbot, screen.new_button, {"driver": "100.000.001",    # CPF prefix
                                                  "vehicle": "QBA1"},          # plate prefix
                       kind=RequestDialog)
    assert ok, request.general.text()
    assert request.driver_picker.value() == driver.id and request.vehicle_picker.value() == vehicle.id
    assert screen.detail_shown()                               # the request filed opens its page
    detail = screen.detail
    assert detail.data.authorization.id == request.result_value.id
    qtbot.waitUntil(lambda: screen.list.model.rowCount() == 1, timeout=5000)   # the list behind it reloaded
    assert "Requerida" in detail.title.text()
    # Requested: the machine allows analysis and refusal (Art. 3); no approval yet.
    enabled = detail.enabled_actions()
    assert "analysis" in enabled and "refuse" in enabled and "approve" not in enabled and "suspend" not in enabled
    shoot(page, "authorization_requested")

    assert _confirm(qtbot, detail, "analysis")[0]
    assert "Em análise" in detail.title.text() and "approve" in detail.enabled_actions()
    ok, approve = _confirm(qtbot, detail, "approve", note="Documentos conferidos")
    assert ok, approve.general.text()
    assert "Aprovada" in detail.title.text()
    facts = detail.facts.text()
    assert "Prazo para apresentar o veículo" in facts and "(Art. 9)" in facts
    assert "Falta o pagamento da taxa" in facts
    assert set(detail.enabled_actions()) >= {"fee", "inspection", "waive", "substitute"}
    shoot(page, "authorization_approved")

    ok, fee = _confirm(qtbot, detail, "fee", guide_number="DAM-2026-0001", amount=Decimal("1124.50"))
    assert ok, fee.general.text()
    assert "Taxa paga em" in detail.facts.text() and detail.data.authorization.number is None
    ok, inspection = _confirm(qtbot, detail, "inspection", approved=True)
    assert ok, inspection.general.text()
    a = detail.data.authorization
    assert a.status == "active" and a.number and a.number.endswith(f"/{today().year}")
    assert f"Autorização {a.number} — Ativa" in detail.title.text()
    assert "Vistoria aprovada em" in detail.facts.text()
    assert detail.info.value("Válida até") != "—"
    assert any(title == "Autorização ativada" and a.number in text for _k, title, text in messages)
    assert {"suspend", "revoke", "cassate", "renewal"} <= set(detail.enabled_actions())
    assert "approve" not in detail.enabled_actions()
    kinds = [e.kind for e in detail.data.events]
    assert {"request", "analysis", "approval", "fee", "inspection", "activation"} <= set(kinds)
    tab_of(detail.tabs, detail.events)
    assert [e.kind for e in detail.events.model.rows()] == kinds     # the history tab shows every event
    shoot(page, "authorization_active_history")
    click_tab(detail.tabs, 0)
    shoot(page, "authorization_active")
    # Art. 14: the sticker of the active authorization is issued (archived) and shown before printing.
    assert detail.print_button.isEnabled()
    chosen = menu_choose("Selo do veículo (Art. 14)")
    click_button(detail.print_button)
    qtbot.waitUntil(lambda: bool(chosen) and detail.print_task is not None and detail.print_task.finished,
                    timeout=30000)
    assert detail.print_task.error is None, detail.print_task.error
    qtbot.waitUntil(lambda: detail.last_preview is not None, timeout=5000)
    assert detail.last_preview.page_count() >= 1
    click_button(detail.last_preview.close_button)
    assert not detail.last_preview.isVisible()
    # The list finds it by its number.
    click_button(detail.back_button)
    assert not screen.detail_shown()
    type_into(screen.list.filter_edit, a.number)                # the list filters after the typing pauses
    qtbot.waitUntil(lambda: [r.number for r in screen.list.visible_rows()] == [a.number], timeout=5000)
    assert screen.list.model.data(screen.list.model.index(0, 1)) == "Ativa"
    shoot(page, "authorizations_list")


def test_buttons_follow_roles_the_atendente_cannot_approve(qtbot, db, staff, registered):
    from desktop.services import authorizations

    driver, vehicle = registered
    info = authorizations.request_authorization(db, staff.atendente, driver.id, vehicle.id, today())
    authorizations.start_analysis(db, staff.atendente, info.id, info.version)
    page = _page(qtbot, db, staff.atendente)
    detail = _open(qtbot, page, info.id)
    assert not detail.buttons["approve"].isEnabled()
    assert "Gestor" in detail.buttons["approve"].toolTip()
    assert detail.buttons["fee"].isEnabled()


def test_art12_approval_refused_with_the_missing_documents_shown_in_the_dialog(qtbot, db, staff):
    from desktop.services import authorizations

    driver = make_driver(db, staff.clerk, n=2, name="Maria Conceição", complete=False)
    vehicle = make_vehicle(db, staff.clerk, n=2)
    info = authorizations.request_authorization(db, staff.clerk, driver.id, vehicle.id, today())
    info = authorizations.start_analysis(db, staff.clerk, info.id, info.version)
    page = _page(qtbot, db, staff.clerk)
    detail = _open(qtbot, page, info.id)
    ok, dialog = act(qtbot, detail.buttons["approve"], shot="authorization_approve_refused")
    assert not ok
    shown = dialog.general.text()
    assert dialog.general_area.isVisibleTo(dialog)
    assert "Art. 12, I" in shown and "CNH" in shown            # every problem at once, with its article
    assert detail.data.authorization.status == "in_analysis"
    ok, refuse = _confirm(qtbot, detail, "refuse")              # the reason is required
    assert not ok and refuse.errors.is_invalid("reason")
    ok, _ = _confirm(qtbot, detail, "refuse", reason="Documentação incompleta (Art. 12).")
    assert ok and detail.data.authorization.status == "refused"
    assert detail.enabled_actions() == [] and not detail.print_button.isEnabled()


def _active(db, staff, fee_paid_on):
    from desktop.services import authorizations

    driver = make_driver(db, staff.clerk, n=3, name="José Pereira")
    vehicle = make_vehicle(db, staff.clerk, n=3)
    a = authorizations.request_authorization(db, staff.clerk, driver.id, vehicle.id, fee_paid_on)
    a = authorizations.start_analysis(db, staff.clerk, a.id, a.version, on=fee_paid_on)
    a = authorizations.approve_authorization(db, staff.clerk, a.id, a.version, on=fee_paid_on)
    a = authorizations.waive_inspection(db, staff.clerk, a.id, "Veículo zero quilômetro", a.version, on=fee_paid_on)
    a = authorizations.record_fee_payment(db, staff.clerk, a.id, fee_paid_on, "DAM-1", Decimal("100.00"), a.version)
    assert a.status == "active"
    return a


def test_art3_par2_late_renewal_is_received_and_marked(qtbot, db, staff):
    a = _active(db, staff, today() - timedelta(days=360))     # valid until ~5 days from now
    page = _page(qtbot, db, staff.clerk)
    detail = _open(qtbot, page, a.id)
    assert detail.info.value("Último dia para pedir a renovação") != "—"
    ok, dialog = _confirm(qtbot, detail, "renewal")
    assert ok, dialog.general.text()
    info = detail.data.authorization
    assert info.renewal_late
    assert "Renovação fora do prazo" in detail.facts.text()
    assert "fee" in detail.enabled_actions()                  # the renewal's fee is due now
    shoot(page, "authorization_renewal_late")
    click_button(detail.back_button)
    screen = page.authorizations
    assert not screen.detail_shown()
    row = screen.list.visible_rows()[0]
    assert row.id == a.id
    # The list shows the driver's CPF and the late renewal (Art. 3, §2) in their own columns.
    model = screen.list.model
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert "CPF" in headers and "Renovação" in headers
    qtbot.waitUntil(lambda: "Fora do prazo (Art. 3, §2)" in [model.index(0, c).data()
                                                             for c in range(model.columnCount())], timeout=5000)
    texts = [model.index(0, c).data() for c in range(model.columnCount())]
    assert a.driver_cpf_display in texts and "Fora do prazo (Art. 3, §2)" in texts
    import os

    os.makedirs("/tmp/shots/gaps", exist_ok=True)
    screen.grab().save("/tmp/shots/gaps/authorizations_cpf_renewal_late.png")


def test_art24_suspension_shows_its_last_day_and_needs_the_act(qtbot, db, staff):
    a = _active(db, staff, today() - timedelta(days=10))
    page = _page(qtbot, db, staff.clerk)
    detail = _open(qtbot, page, a.id)
    from desktop.views.registry.dialogs import ActionDialog

    seen = {}

    def work(dialog):
        fill(qtbot, dialog, "basis", "art26_par1")
        seen["until"] = dialog.until_label.text()
        fill(qtbot, dialog, "reason", "Embarque na via pública, reincidência (Art. 26, IV)")
        click_button(dialog.ok_button)
        seen["refused"] = dialog.isVisible() and dialog.errors.is_invalid("act_number")
        fill(qtbot, dialog, "act_number", "Portaria 12/2026")
        click_button(dialog.ok_button)

    done = in_modal(ActionDialog, work)
    click_button(detail.buttons["suspend"])
    dialog = done.check()
    assert "Suspensa até" in seen["until"]
    assert seen["refused"]                                          # no act number: refused next to the field
    assert dialog.result() == QDialog.DialogCode.Accepted
    info = detail.data.authorization
    assert info.status == "suspended" and info.suspended_until == today() + timedelta(days=29)  # Art. 26 §1: 30 days counting the first
    assert "Suspensa até" in detail.facts.text()
    assert "suspend" not in detail.enabled_actions() and "revoke" in detail.enabled_actions()


def test_stale_save_offers_reload(qtbot, db, staff, registered):
    from PySide6.QtWidgets import QMessageBox

    from desktop.services import authorizations
    from desktop.views.registry.dialogs import ActionDialog

    driver, vehicle = registered
    info = authorizations.request_authorization(db, staff.clerk, driver.id, vehicle.id, today())
    page = _page(qtbot, db, staff.clerk)
    detail = _open(qtbot, page, info.id)
    seen = []

    def click_reload(box):
        seen.append((box.windowTitle(), box.text()))
        click_button(find_button(box, "Recarregar"))

    def work(dialog):
        authorizations.start_analysis(db, staff.gestor, info.id, info.version)   # another desk, first
        box = in_modal(QMessageBox, click_reload)
        click_button(dialog.ok_button)
        box.check()

    done = in_modal(ActionDialog, work)
    click_button(detail.buttons["analysis"])
    dialog = done.check()
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert seen and "alterado por outro usuário" in seen[0][1]
    assert detail.data.authorization.status == "in_analysis"     # reloaded


def test_art13_xviii_late_change_communications_are_highlighted(qtbot, db, staff, registered, messages):
    from desktop.views.authorizations.changes import LATE_BRUSH
    from desktop.views.registry.drivers import DriverDetailPage

    driver, _vehicle = registered
    page = _page(qtbot, db, staff.clerk)
    driver_page = DriverDetailPage(db, staff.clerk, driver.id)      # the driver's page, where the clerk records it
    qtbot.addWidget(driver_page)
    driver_page.resize(1100, 700)
    activate(driver_page)
    ok, dialog = act(qtbot, driver_page.change_button, {"what_changed": "Mudança de endereço",
                                                         "happened_on": today() - timedelta(days=40),
                                                         "communicated_on": today() - timedelta(days=2)})
    assert ok, dialog.general.text()
    assert any("fora do prazo" in title.lower() for _k, title, _t in messages)
    ok, on_time = act(qtbot, driver_page.change_button, {"what_changed": "Novo telefone",
                                                          "happened_on": today() - timedelta(days=1),
                                                          "communicated_on": today()})
    assert ok, on_time.general.text()
    changes = page.changes
    activate(page)
    tab_of(page.tabs, changes)
    model = changes.model
    qtbot.waitUntil(lambda: model.rowCount() == 2, timeout=5000)      # the list follows the records
    late_rows = [r for r in range(model.rowCount()) if model.row_at(r).late]
    assert len(late_rows) == 1
    assert model.data(model.index(late_rows[0], 0), Qt.ItemDataRole.BackgroundRole) == LATE_BRUSH
    combo = changes.status_combo
    choose_in_combo(combo, combo.itemText(combo.findData("late_open")))
    qtbot.waitUntil(lambda: [c.what_changed for c in changes.visible_rows()] == ["Mudança de endereço"],
                    timeout=5000)
    choose_in_combo(combo, combo.itemText(0))
    qtbot.waitUntil(lambda: model.rowCount() == 2, timeout=5000)
    shoot(page, "change_communications")


def test_authorization_list_model_passes_qtmodeltester(qtmodeltester, db, staff, registered):
    from desktop.services import authorizations

    driver, vehicle = registered
    authorizations.request_authorization(db, staff.clerk, driver.id, vehicle.id, today())
    from desktop.views.authorizations.page import authorization_columns, fetch_authorizations
    from desktop.views.registry.paged import ListQuery, PagedTableModel

    model = PagedTableModel(authorization_columns(), fetch_authorizations(db, staff.clerk))
    model.set_query(ListQuery())
    assert model.rowCount() == 1
    qtmodeltester.check(model, force_py=True)


def test_art8_par2_substitution_keeps_the_number_and_both_vehicles_are_in_the_history(qtbot, db, staff):
    from desktop.views.registry.dialogs import ActionDialog

    a = _active(db, staff, today() - timedelta(days=20))
    new = make_vehicle(db, staff.clerk, n=7, year=today().year)
    page = _page(qtbot, db, staff.clerk)
    detail = _open(qtbot, page, a.id)
    seen = {}

    def work(dialog):
        fill(qtbot, dialog, "vehicle", new.plate_display)
        seen["vehicle"] = dialog.widget("vehicle").value()
        click_button(dialog.ok_button)
        seen["no_reason"] = dialog.isVisible() and dialog.errors.is_invalid("reason")   # the reason is required
        fill(qtbot, dialog, "reason", "Venda do veículo anterior")
        click_button(dialog.ok_button)

    done = in_modal(ActionDialog, work)
    click_button(detail.buttons["substitute"])
    dialog = done.check()
    assert seen == {"vehicle": new.id, "no_reason": True}
    assert dialog.result() == QDialog.DialogCode.Accepted, dialog.general.text()
    info = detail.data.authorization
    assert info.number == a.number and info.status == "impeded" and info.plate_display == new.plate_display
    assert {v.id for v in detail.data.vehicles} >= {a.vehicle_id, new.id}
    tab_of(detail.tabs, detail.vehicles)
    assert {detail.vehicles.model.data(detail.vehicles.model.index(r, 5)) for r in range(2)} == {
        "Atual", "Substituído (Art. 8, §2)"}
    click_tab(detail.tabs, 0)
    substitution = [e for e in detail.data.events if e.kind == "substitution"][0]
    assert substitution.old_plate_display and substitution.new_plate_display == new.plate_display
    assert "inspection" in detail.enabled_actions()
    ok, inspection = _confirm(qtbot, detail, "inspection", approved=False)
    assert not ok and inspection.errors.is_invalid("note")              # a failure says why (Art. 16, §2)
    ok, _ = _confirm(qtbot, detail, "inspection", approved=True)
    assert ok and detail.data.authorization.status == "active"
    tab_of(detail.tabs, detail.vehicles)
    shoot(page, "authorization_substitution_vehicles")


def test_art9_par1_waiver_by_the_gestor_then_fee_activates(qtbot, db, staff, registered, messages):
    from desktop.services import authorizations

    driver, vehicle = registered
    a = authorizations.request_authorization(db, staff.clerk, driver.id, vehicle.id, today())
    a = authorizations.start_analysis(db, staff.clerk, a.id, a.version)
    a = authorizations.approve_authorization(db, staff.gestor, a.id, a.version)
    page = _page(qtbot, db, staff.gestor)
    detail = _open(qtbot, page, a.id)
    assert not detail.buttons["inspection"].isEnabled()               # the gestor is not a vistoriador
    ok, _ = _confirm(qtbot, detail, "waive", reason="Veículo zero quilômetro, vistoriado pela concessionária")
    assert ok and "Vistoria dispensada em" in detail.facts.text()
    ok, fee = _confirm(qtbot, detail, "fee", guide_number="DAM-7", amount=Decimal("1124.50"))
    assert ok, fee.general.text()
    assert detail.data.authorization.status == "active" and detail.data.authorization.number


def test_art24_suspension_ends_by_itself_when_the_module_opens(qtbot, db, staff):
    from desktop.services import authorizations

    a = _active(db, staff, today() - timedelta(days=60))
    a = authorizations.suspend_authorization(db, staff.gestor, a.id, "art26_par1", today() - timedelta(days=40),
                                             "Portaria 3/2026", "Embarque na via pública", a.version)
    assert a.suspended_until < today()
    page = _page(qtbot, db, staff.clerk, run_jobs=True)
    qtbot.waitUntil(lambda: page.jobs_label.isVisibleTo(page), timeout=10000)
    assert "Suspensa → Ativa" in page.jobs_label.text() and a.number in page.jobs_label.text()
    assert authorizations.get_authorization(db, staff.clerk, a.id).status == "active"
    row = page.authorizations.list.visible_rows()[0]
    assert row.status == "active"                       # the list reloaded after the job
    shoot(page, "authorizations_jobs_done")


def test_an_authorization_opens_from_the_drivers_detail_page(qtbot, db, staff, registered):
    from desktop.services import authorizations
    from desktop.views.registry.page import RegistryPage

    driver, vehicle = registered
    a = authorizations.request_authorization(db, staff.clerk, driver.id, vehicle.id, today())
    page = RegistryPage(db, staff.clerk)
    qtbot.addWidget(page)
    page.resize(1200, 760)
    activate(page)
    drivers = page.drivers
    qtbot.waitUntil(lambda: any(r.id == driver.id for r in drivers.list.visible_rows()), timeout=5000)
    click_row(drivers.list, next(i for i, r in enumerate(drivers.list.visible_rows()) if r.id == driver.id),
              double=True)
    assert drivers.detail_shown()
    detail = drivers.detail
    tab_of(detail.tabs, detail.authorizations)
    assert [r.id for r in detail.authorizations.model.rows()] == [a.id]
    click_row(detail.authorizations, 0, double=True)
    window = detail.last_dialog
    assert window is not None and window.isVisible()
    assert window.page.data.authorization.id == a.id and "Requerida" in window.page.title.text()
    assert window.page.buttons["analysis"].isEnabled()
    activate(window)
    click_button(window.page.back_button)                            # «Fechar»
    assert not window.isVisible()


def test_art24_i_d_deregistering_the_driver_from_the_action_bar_ends_the_authorization(qtbot, db, staff):
    from desktop.services import drivers

    a = _active(db, staff, today() - timedelta(days=5))
    page = _page(qtbot, db, staff.gestor)
    detail = _open(qtbot, page, a.id)
    ok, dialog = _confirm(qtbot, detail, "deregister_driver", reason="Mudou-se para outro município")
    assert not ok and dialog.errors.is_invalid("act_number")
    ok, _ = _confirm(qtbot, detail, "deregister_driver", reason="Mudou-se para outro município",
                     act_number="Portaria 9/2026")
    assert ok
    info = detail.data.authorization
    assert info.status == "revoked" and info.ended_on == today()
    assert drivers.get_driver(db, staff.gestor, info.driver_id).status == "deregistered"
    assert [e.kind for e in detail.data.events][-1] == "deregistration"
    assert detail.enabled_actions() == []


def test_art26_iii_fiscal_draws_up_the_auto_of_a_late_change_from_its_row(qtbot, db, staff, registered, messages):
    """SPEC §3: a change communicated after the 7 days of Art. 13, XVIII is offered to the fiscal; the button
    opens the auto form filled (driver, vehicle, ART26-III, item XVIII, the dates) and the saved auto's number
    shows in the row, which leaves the "sem auto" filter."""
    import os

    from desktop.domain import format_date
    from desktop.services import changes as service
    from desktop.views.authorizations.changes import AUTO_BUTTON_TEXT, ChangesScreen
    from desktop.views.enforcement.auto_form import AutoFormDialog

    driver, vehicle = registered
    happened, communicated = today() - timedelta(days=40), today() - timedelta(days=2)
    late = service.record_change(db, staff.clerk, service.ChangeDraft(
        "Mudança de endereço", happened, communicated, driver_id=driver.id, vehicle_id=vehicle.id))
    service.record_change(db, staff.clerk, service.ChangeDraft(
        "Novo telefone", today() - timedelta(days=1), today(), driver_id=driver.id))
    clerk_screen = ChangesScreen(db, staff.clerk)
    qtbot.addWidget(clerk_screen)
    assert not clerk_screen.auto_button.isVisible() and clerk_screen.auto_button.isHidden()
    screen = ChangesScreen(db, staff.fiscal)
    qtbot.addWidget(screen)
    screen.resize(1180, 400)
    activate(screen)
    assert screen.auto_button.text().replace("&", "") == AUTO_BUTTON_TEXT and not screen.auto_button.isEnabled()
    choose_in_combo(screen.status_combo, screen.status_combo.itemText(screen.status_combo.findData("late_open")))
    qtbot.waitUntil(lambda: [c.id for c in screen.visible_rows()] == [late.id], timeout=5000)
    click_row(screen, 0)
    assert screen.selected().id == late.id and screen.auto_button.isEnabled()
    seen = {}

    def draw_up(form):
        draft = form.draft()                       # what the form shows, filled from the communication
        seen["draft"] = (draft.driver_id, draft.vehicle_id, draft.code, draft.art13_item, draft.change_id)
        seen["description"] = draft.description
        type_into(form.place_edit, "Secretaria de Mobilidade")
        os.makedirs("/tmp/shots/gaps", exist_ok=True)
        form.grab().save("/tmp/shots/gaps/auto_form_from_late_change.png")
        click_button(form.save_button)
        if form.isVisible():
            seen["error"] = form.general_error.text()
            click_button(find_button(form, "Cancelar"))

    done = in_modal(AutoFormDialog, draw_up)
    click_button(screen.auto_button)
    form = done.check()
    assert "error" not in seen, seen.get("error")
    assert seen["draft"] == (driver.id, vehicle.id, "ART26-III", "XVIII", late.id)
    assert format_date(happened) in seen["description"] and format_date(communicated) in seen["description"]
    assert "Mudança de endereço" in seen["description"]
    number = form.saved.number

    qtbot.waitUntil(lambda: screen.visible_rows() == [], timeout=5000)   # no longer "fora do prazo, sem auto"
    choose_in_combo(screen.status_combo, screen.status_combo.itemText(0))
    qtbot.waitUntil(lambda: any(c.id == late.id for c in screen.visible_rows()), timeout=5000)
    row = [c for c in screen.visible_rows() if c.id == late.id][0]
    assert row.auto_number == number
    model = screen.model
    position = screen.visible_rows().index(row)
    assert number in [model.index(position, c).data() for c in range(model.columnCount())]
    click_row(screen, position)
    assert screen.selected().id == late.id and not screen.auto_button.isEnabled()
    screen.grab().save("/tmp/shots/gaps/changes_with_auto_number.png")
    # the driver's page shows the auto beside the communication too
    from desktop.views.registry.drivers import DriverDetailPage

    detail = DriverDetailPage(db, staff.fiscal, driver.id)
    qtbot.addWidget(detail)
    detail.resize(1100, 700)
    activate(detail)
    tab_of(detail.tabs, detail.changes)
    table = detail.changes.model
    headers = [table.headerData(c, Qt.Orientation.Horizontal) for c in range(table.columnCount())]
    column = headers.index("Auto (Art. 26, III)")
    assert sorted(str(table.index(r, column).data() or "") for r in range(table.rowCount())) == ["", number]


def test_art22_auto_form_picking_a_vehicle_fills_the_driver_of_its_live_authorization(qtbot, db, staff):
    from desktop.views.enforcement.auto_form import AutoFormDialog

    a = _active(db, staff, today() - timedelta(days=10))
    form = AutoFormDialog(db, staff.fiscal)
    qtbot.addWidget(form)
    activate(form)
    assert form.driver_picker.value() is None
    type_into(form.vehicle_picker.edit, a.plate_display)   # one match: chosen once the typing pauses
    qtbot.waitUntil(lambda: form.vehicle_picker.value() == a.vehicle_id, timeout=5000)
    assert form.driver_picker.value() == a.driver_id
    assert a.driver_name in form.driver_picker.label() and a.number in form.driver_picker.label()
    # a driver already chosen is kept
    type_into(form.vehicle_picker.edit, "")
    qtbot.waitUntil(lambda: form.vehicle_picker.value() is None, timeout=5000)
    assert form.driver_picker.value() == a.driver_id


def test_art26_iii_fiscalizacao_page_lists_late_changes_without_auto(qtbot, db, staff, registered):
    import os

    from desktop.services import changes as service
    from desktop.views.enforcement.page import EnforcementPage

    driver, _vehicle = registered
    late = service.record_change(db, staff.clerk, service.ChangeDraft(
        "Troca de CNH", today() - timedelta(days=30), today() - timedelta(days=3), driver_id=driver.id))
    service.record_change(db, staff.clerk, service.ChangeDraft(
        "Novo e-mail", today() - timedelta(days=1), today(), driver_id=driver.id))
    page = EnforcementPage(db, staff.fiscal)
    qtbot.addWidget(page)
    page.resize(1180, 700)
    activate(page)
    tab = page.changes_screen
    assert page.tabs.tabText(page.tabs.indexOf(tab)) == "Comunicações fora do prazo (Art. 13, XVIII)"
    tab_of(page.tabs, tab)
    assert tab.status_combo.currentData() == "late_open" and tab.new_button.isHidden()
    assert [c.id for c in tab.visible_rows()] == [late.id]
    click_row(tab, 0)
    assert tab.selected().id == late.id and tab.auto_button.isEnabled()
    os.makedirs("/tmp/shots/gaps", exist_ok=True)
    page.grab().save("/tmp/shots/gaps/fiscalizacao_late_changes.png")
    clerk_page = EnforcementPage(db, staff.atendente)
    qtbot.addWidget(clerk_page)
    assert getattr(clerk_page, "changes_screen", None) is None


@pytest.mark.parametrize("who", ["atendente", "gestor", "vistoriador", "fiscal"])
def test_buttons_are_the_actions_the_service_returned(qtbot, db, staff, who):
    """Issue 10 item 4: the page draws one button per `Action` of the domain's table (Art. 9 §1, Art. 10,
    Art. 8 §2, Art. 24 …), enabled as the action says, its tooltip naming the article and what would enable it."""
    a = _active(db, staff, today() - timedelta(days=5))
    actor = getattr(staff, who)
    page = _page(qtbot, db, actor)
    detail = _open(qtbot, page, a.id)
    actions = {x.key: x for x in detail.data.authorization.available}
    assert set(detail.buttons) == set(actions) - {"print"}
    for key, button in detail.buttons.items():
        assert button.isEnabled() == actions[key].enabled, key
        assert button.toolTip() == actions[key].tooltip and actions[key].article in button.toolTip()
        assert button.text().replace("&", "") == actions[key].label
    assert detail.print_button.isEnabled() == actions["print"].enabled
    assert detail.print_button.isEnabled() == (who in ("atendente", "gestor"))
    if who == "atendente":
        assert "exige o perfil Gestor" in detail.buttons["suspend"].toolTip()
