"""Autorizações on a real SQLite database: the whole GUI path request → analysis → approval → fee → inspection →
active with its NNNN/AAAA number (Art. 3, 8, 9, 10, 15), the buttons enabled from the state machine, refusals
shown in the dialog, renewal marked late (Art. 3 §2), suspension with its end date (Art. 24), the stale save that
offers "Recarregar", and the change communications list with late ones highlighted (Art. 13 XVIII)."""
from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt

from registry_fixtures import *  # noqa: F401,F403


def _page(qtbot, db, actor, run_jobs=False):
    from desktop.views.authorizations.page import AuthorizationsPage

    page = AuthorizationsPage(db, actor, run_jobs=run_jobs)
    qtbot.addWidget(page)
    page.resize(1200, 760)
    return page


def _confirm(page, key, **values):
    dialog = page.action_dialog(key)
    for name, value in values.items():
        dialog.set_value(name, value)
    ok = dialog.confirm()
    if ok:
        page.after_action(key)
    return ok, dialog


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

    request = RequestDialog(db, staff.clerk, screen)
    qtbot.addWidget(request)
    request.driver_picker.search_now("100.000.001")       # CPF prefix
    request.vehicle_picker.search_now("QBA1")              # plate prefix
    assert request.driver_picker.value() == driver.id and request.vehicle_picker.value() == vehicle.id
    assert request.confirm()
    detail = screen.open_detail(request.result_value.id)
    screen.list.reload()
    assert screen.list.model.rowCount() == 1
    assert "Requerida" in detail.title.text()
    # Requested: the machine allows analysis and refusal (Art. 3); no approval yet.
    enabled = detail.enabled_actions()
    assert "analysis" in enabled and "refuse" in enabled and "approve" not in enabled and "suspend" not in enabled
    shoot(page, "authorization_requested")

    assert _confirm(detail, "analysis")[0]
    assert "Em análise" in detail.title.text() and "approve" in detail.enabled_actions()
    ok, approve = _confirm(detail, "approve", note="Documentos conferidos")
    assert ok, approve.general.text()
    assert "Aprovada" in detail.title.text()
    facts = detail.facts.text()
    assert "Prazo para apresentar o veículo" in facts and "(Art. 9)" in facts
    assert "Falta o pagamento da taxa" in facts
    assert set(detail.enabled_actions()) >= {"fee", "inspection", "waive", "substitute"}
    shoot(page, "authorization_approved")

    ok, fee = _confirm(detail, "fee", guide_number="DAM-2026-0001", amount=Decimal("1124.50"))
    assert ok, fee.general.text()
    assert "Taxa paga em" in detail.facts.text() and detail.data.authorization.number is None
    ok, inspection = _confirm(detail, "inspection", approved=True)
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
    detail.tabs.setCurrentIndex(1)
    assert [e.kind for e in detail.events.model.rows()] == kinds     # the history tab shows every event
    shoot(page, "authorization_active_history")
    detail.tabs.setCurrentIndex(0)
    shoot(page, "authorization_active")
    # Art. 14: the sticker of the active authorization is issued (archived) and shown before printing.
    assert detail.print_button.isEnabled()
    task = detail.print_document("sticker")
    qtbot.waitUntil(lambda: task.finished, timeout=30000)
    assert task.error is None, task.error
    assert detail.last_preview.page_count() >= 1
    detail.last_preview.close()
    # The list finds it by its number.
    detail.back_requested.emit()
    screen.list.filter_edit.setText(a.number)
    screen.list.apply_filter()
    assert [r.number for r in screen.list.visible_rows()] == [a.number]
    assert screen.list.model.data(screen.list.model.index(0, 1)) == "Ativa"
    shoot(page, "authorizations_list")


def test_buttons_follow_roles_the_atendente_cannot_approve(qtbot, db, staff, registered):
    from desktop.services import authorizations

    driver, vehicle = registered
    info = authorizations.request_authorization(db, staff.atendente, driver.id, vehicle.id, today())
    authorizations.start_analysis(db, staff.atendente, info.id, info.version)
    page = _page(qtbot, db, staff.atendente)
    detail = page.authorizations.open_detail(info.id)
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
    detail = page.authorizations.open_detail(info.id)
    ok, dialog = _confirm(detail, "approve")
    assert not ok
    shown = dialog.general.text()
    assert dialog.general_area.isVisibleTo(dialog)
    assert "Art. 12, I" in shown and "CNH" in shown            # every problem at once, with its article
    assert detail.data.authorization.status == "in_analysis"
    qtbot.addWidget(dialog)
    dialog.show()
    shoot(dialog, "authorization_approve_refused")
    ok, refuse = _confirm(detail, "refuse")                     # the reason is required
    assert not ok and refuse.errors.is_invalid("reason")
    ok, _ = _confirm(detail, "refuse", reason="Documentação incompleta (Art. 12).")
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
    detail = page.authorizations.open_detail(a.id)
    assert detail.info.value("Último dia para pedir a renovação") != "—"
    ok, dialog = _confirm(detail, "renewal")
    assert ok, dialog.general.text()
    info = detail.data.authorization
    assert info.renewal_late
    assert "Renovação fora do prazo" in detail.facts.text()
    assert "fee" in detail.enabled_actions()                  # the renewal's fee is due now
    shoot(page, "authorization_renewal_late")
    page.authorizations.close_detail()
    page.authorizations.list.reload()
    row = page.authorizations.list.visible_rows()[0]
    assert row.id == a.id
    # The list shows the driver's CPF and the late renewal (Art. 3, §2) in their own columns.
    model = page.authorizations.list.model
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert "CPF" in headers and "Renovação" in headers
    texts = [model.index(0, c).data() for c in range(model.columnCount())]
    assert a.driver_cpf_display in texts and "Fora do prazo (Art. 3, §2)" in texts
    import os

    os.makedirs("/tmp/shots/gaps", exist_ok=True)
    page.authorizations.grab().save("/tmp/shots/gaps/authorizations_cpf_renewal_late.png")


def test_art24_suspension_shows_its_last_day_and_needs_the_act(qtbot, db, staff):
    a = _active(db, staff, today() - timedelta(days=10))
    page = _page(qtbot, db, staff.clerk)
    detail = page.authorizations.open_detail(a.id)
    dialog = detail.action_dialog("suspend")
    dialog.set_value("basis", "art26_par1")
    assert "Suspensa até" in dialog.until_label.text()
    dialog.set_value("reason", "Embarque na via pública, reincidência (Art. 26, IV)")
    assert not dialog.confirm() and dialog.errors.is_invalid("act_number")
    dialog.set_value("act_number", "Portaria 12/2026")
    assert dialog.confirm()
    detail.after_action("suspend")
    info = detail.data.authorization
    assert info.status == "suspended" and info.suspended_until == today() + timedelta(days=29)  # Art. 26 §1: 30 days counting the first
    assert "Suspensa até" in detail.facts.text()
    assert "suspend" not in detail.enabled_actions() and "revoke" in detail.enabled_actions()


def test_stale_save_offers_reload(qtbot, db, staff, registered, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from desktop.services import authorizations

    driver, vehicle = registered
    info = authorizations.request_authorization(db, staff.clerk, driver.id, vehicle.id, today())
    page = _page(qtbot, db, staff.clerk)
    detail = page.authorizations.open_detail(info.id)
    dialog = detail.action_dialog("analysis")
    authorizations.start_analysis(db, staff.gestor, info.id, info.version)   # another desk, first
    seen = []

    def click_reload(box):
        seen.append((box.windowTitle(), box.text()))
        for button in box.buttons():
            if button.text() == "Recarregar":
                button.click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", click_reload)
    assert not dialog.confirm()
    assert seen and "alterado por outro usuário" in seen[0][1]
    assert detail.data.authorization.status == "in_analysis"     # reloaded


def test_art13_xviii_late_change_communications_are_highlighted(qtbot, db, staff, registered, messages):
    from desktop.views.authorizations.changes import LATE_BRUSH, change_dialog

    driver, _vehicle = registered
    page = _page(qtbot, db, staff.clerk)
    dialog = change_dialog(db, staff.clerk, page, driver=driver)
    dialog.set_value("what_changed", "Mudança de endereço")
    dialog.set_value("happened_on", today() - timedelta(days=40))
    dialog.set_value("communicated_on", today() - timedelta(days=2))
    assert dialog.confirm()
    assert any("fora do prazo" in title.lower() for _k, title, _t in messages)
    on_time = change_dialog(db, staff.clerk, page, driver=driver)
    on_time.set_value("what_changed", "Novo telefone")
    on_time.set_value("happened_on", today() - timedelta(days=1))
    on_time.set_value("communicated_on", today())
    assert on_time.confirm()
    changes = page.changes
    changes.reload()
    model = changes.model
    assert model.rowCount() == 2
    late_rows = [r for r in range(model.rowCount()) if model.row_at(r).late]
    assert len(late_rows) == 1
    assert model.data(model.index(late_rows[0], 0), Qt.ItemDataRole.BackgroundRole) == LATE_BRUSH
    changes.status_combo.setCurrentIndex(changes.status_combo.findData("late_open"))
    assert [c.what_changed for c in changes.visible_rows()] == ["Mudança de endereço"]
    page.tabs.setCurrentWidget(changes)
    changes.status_combo.setCurrentIndex(0)
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
    a = _active(db, staff, today() - timedelta(days=20))
    new = make_vehicle(db, staff.clerk, n=7, year=today().year)
    page = _page(qtbot, db, staff.clerk)
    detail = page.authorizations.open_detail(a.id)
    dialog = detail.action_dialog("substitute")
    dialog.widget("vehicle").search_now(new.plate_display)
    assert dialog.widget("vehicle").value() == new.id
    assert not dialog.confirm() and dialog.errors.is_invalid("reason")     # the reason is required
    dialog.set_value("reason", "Venda do veículo anterior")
    assert dialog.confirm(), dialog.general.text()
    detail.after_action("substitute")
    info = detail.data.authorization
    assert info.number == a.number and info.status == "impeded" and info.plate_display == new.plate_display
    assert {v.id for v in detail.data.vehicles} >= {a.vehicle_id, new.id}
    detail.tabs.setCurrentIndex(2)
    assert {detail.vehicles.model.data(detail.vehicles.model.index(r, 5)) for r in range(2)} == {
        "Atual", "Substituído (Art. 8, §2)"}
    detail.tabs.setCurrentIndex(0)
    substitution = [e for e in detail.data.events if e.kind == "substitution"][0]
    assert substitution.old_plate_display and substitution.new_plate_display == new.plate_display
    assert "inspection" in detail.enabled_actions()
    ok, inspection = _confirm(detail, "inspection", approved=False)
    assert not ok and inspection.errors.is_invalid("note")              # a failure says why (Art. 16, §2)
    ok, _ = _confirm(detail, "inspection", approved=True)
    assert ok and detail.data.authorization.status == "active"
    detail.tabs.setCurrentIndex(2)
    shoot(page, "authorization_substitution_vehicles")


def test_art9_par1_waiver_by_the_gestor_then_fee_activates(qtbot, db, staff, registered, messages):
    from desktop.services import authorizations

    driver, vehicle = registered
    a = authorizations.request_authorization(db, staff.clerk, driver.id, vehicle.id, today())
    a = authorizations.start_analysis(db, staff.clerk, a.id, a.version)
    a = authorizations.approve_authorization(db, staff.gestor, a.id, a.version)
    page = _page(qtbot, db, staff.gestor)
    detail = page.authorizations.open_detail(a.id)
    assert not detail.buttons["inspection"].isEnabled()               # the gestor is not a vistoriador
    ok, _ = _confirm(detail, "waive", reason="Veículo zero quilômetro, vistoriado pela concessionária")
    assert ok and "Vistoria dispensada em" in detail.facts.text()
    ok, fee = _confirm(detail, "fee", guide_number="DAM-7", amount=Decimal("1124.50"))
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
    detail = page.drivers.open_detail(driver.id)
    detail.tabs.setCurrentWidget(detail.authorizations)
    assert [r.id for r in detail.authorizations.model.rows()] == [a.id]
    detail.authorizations.activated.emit(detail.authorizations.model.rows()[0])
    window = detail.last_dialog
    assert window.page.data.authorization.id == a.id and "Requerida" in window.page.title.text()
    assert window.page.buttons["analysis"].isEnabled()
    window.page.back_requested.emit()
    assert not window.isVisible()


def test_art24_i_d_deregistering_the_driver_from_the_action_bar_ends_the_authorization(qtbot, db, staff):
    from desktop.services import drivers

    a = _active(db, staff, today() - timedelta(days=5))
    page = _page(qtbot, db, staff.gestor)
    detail = page.authorizations.open_detail(a.id)
    ok, dialog = _confirm(detail, "deregister_driver", reason="Mudou-se para outro município")
    assert not ok and dialog.errors.is_invalid("act_number")
    ok, _ = _confirm(detail, "deregister_driver", reason="Mudou-se para outro município",
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
    screen.show()
    assert screen.auto_button.text() == AUTO_BUTTON_TEXT and not screen.auto_button.isEnabled()
    screen.status_combo.setCurrentIndex(screen.status_combo.findData("late_open"))
    assert [c.id for c in screen.visible_rows()] == [late.id]
    assert screen.select_where(lambda c: c.id == late.id) and screen.auto_button.isEnabled()

    form = screen.auto_form(screen.selected())
    qtbot.addWidget(form)
    draft = form.draft()
    assert (draft.driver_id, draft.vehicle_id, draft.code, draft.art13_item, draft.change_id) == \
        (driver.id, vehicle.id, "ART26-III", "XVIII", late.id)
    assert format_date(happened) in draft.description and format_date(communicated) in draft.description
    assert "Mudança de endereço" in draft.description
    form.place_edit.setText("Secretaria de Mobilidade")
    form.refresh_preview()
    os.makedirs("/tmp/shots/gaps", exist_ok=True)
    form.grab().save("/tmp/shots/gaps/auto_form_from_late_change.png")
    assert form.save(), form.general_error.text()
    number = form.saved.number

    screen.reload()
    assert screen.visible_rows() == []                       # no longer "fora do prazo, sem auto"
    screen.status_combo.setCurrentIndex(0)
    row = [c for c in screen.visible_rows() if c.id == late.id][0]
    assert row.auto_number == number
    model = screen.model
    position = screen.visible_rows().index(row)
    assert number in [model.index(position, c).data() for c in range(model.columnCount())]
    assert screen.select_where(lambda c: c.id == late.id) and not screen.auto_button.isEnabled()
    screen.grab().save("/tmp/shots/gaps/changes_with_auto_number.png")
    # the driver's page shows the auto beside the communication too
    from desktop.views.registry.drivers import DriverDetailPage

    detail = DriverDetailPage(db, staff.fiscal, driver.id)
    qtbot.addWidget(detail)
    detail.tabs.setCurrentWidget(detail.changes)
    table = detail.changes.model
    headers = [table.headerData(c, Qt.Orientation.Horizontal) for c in range(table.columnCount())]
    column = headers.index("Auto (Art. 26, III)")
    assert sorted(str(table.index(r, column).data() or "") for r in range(table.rowCount())) == ["", number]


def test_art22_auto_form_picking_a_vehicle_fills_the_driver_of_its_live_authorization(qtbot, db, staff):
    from desktop.views.enforcement.auto_form import AutoFormDialog

    a = _active(db, staff, today() - timedelta(days=10))
    form = AutoFormDialog(db, staff.fiscal)
    qtbot.addWidget(form)
    assert form.driver_picker.value() is None
    form.vehicle_picker.edit.setText(a.plate_display)
    form.vehicle_picker.search_now()                 # one match: chosen at once
    assert form.vehicle_picker.value() == a.vehicle_id
    assert form.driver_picker.value() == a.driver_id
    assert a.driver_name in form.driver_picker.label() and a.number in form.driver_picker.label()
    # a driver already chosen is kept
    form.vehicle_picker.edit.setText("")
    form.vehicle_picker.search_now()
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
    tab = page.changes_screen
    assert page.tabs.tabText(page.tabs.indexOf(tab)) == "Comunicações fora do prazo (Art. 13, XVIII)"
    assert tab.status_combo.currentData() == "late_open" and tab.new_button.isHidden()
    assert [c.id for c in tab.visible_rows()] == [late.id]
    assert tab.select_where(lambda c: c.id == late.id) and tab.auto_button.isEnabled()
    page.tabs.setCurrentWidget(tab)
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
    detail = page.authorizations.open_detail(a.id)
    actions = {x.key: x for x in detail.data.authorization.available}
    assert set(detail.buttons) == set(actions) - {"print"}
    for key, button in detail.buttons.items():
        assert button.isEnabled() == actions[key].enabled, key
        assert button.toolTip() == actions[key].tooltip and actions[key].article in button.toolTip()
        assert button.text() == actions[key].label
    assert detail.print_button.isEnabled() == actions["print"].enabled
    assert detail.print_button.isEnabled() == (who in ("atendente", "gestor"))
    if who == "atendente":
        assert "exige o perfil Gestor" in detail.buttons["suspend"].toolTip()
