"""The front desk's whole path (issue 4), on SQLite and PostgreSQL: platform and driver with the checklist of
Art. 12, vehicle, request → analysis → approval (Art. 9 term) → inspection → fee → active 0001/AAAA →
renewal (Art. 3 §2: same number, validity from the new fee) → suspension (Art. 26 §1) → automatic return to
active on the day after its last day."""
from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from registry_factories import TODAY, desk, driver_draft, vehicle_draft  # noqa: F401 - desk is a fixture

from desktop.domain import term_end
from desktop.services import authorizations as auth
from desktop.services.drivers import driver_detail, list_drivers, register_driver
from desktop.services.jobs import run_due_transitions
from desktop.services.platforms import PlatformDraft, create_platform
from desktop.services.vehicles import register_vehicle


def test_request_to_active_renewal_suspension_and_automatic_return(db, desk):
    start = TODAY - timedelta(days=360)
    platform = create_platform(db, desk.clerk, PlatformDraft(
        cnpj="11.222.333/0001-81", legal_name="Mobilidade Chapada Ltda", trade_name="Vai Já",
        municipal_registration_number="IM-1", municipal_registration_date=start))
    driver = register_driver(db, desk.clerk, driver_draft(name="Conceição dos Santos", platform_ids=(platform.id,)))
    vehicle = register_vehicle(db, desk.clerk, vehicle_draft())
    assert [r.id for r in list_drivers(db, desk.clerk, "conceicao").rows] == [driver.id]

    a = auth.request_authorization(db, desk.clerk, driver.id, vehicle.id, start, "PROT-2025-77")
    a = auth.start_analysis(db, desk.clerk, a.id, a.version, on=start)
    a = auth.approve_authorization(db, desk.manager, a.id, a.version, on=start, act_number="Despacho 1")
    assert a.status == "approved" and a.presentation_deadline > start
    a = auth.record_inspection_result(db, desk.inspector, a.id, True, on=start + timedelta(days=3),
                                      expected_version=a.version)
    assert a.status == "approved"  # the fee is still missing (Art. 10)
    paid = start + timedelta(days=4)
    a = auth.record_fee_payment(db, desk.clerk, a.id, paid, "DAM-0001", Decimal("212.40"), a.version)
    assert a.status == "active" and a.number == f"0001/{paid.year}"
    assert a.valid_until == term_end(paid, 12)
    number = a.number

    # Art. 3 §2: the renewal asked today is within ~15 business days of expiry → late, still received.
    a = auth.request_renewal(db, desk.clerk, a.id, TODAY, a.version)
    assert a.renewal_late
    a = auth.record_fee_payment(db, desk.clerk, a.id, TODAY, "DAM-0002", Decimal("212.40"), a.version)
    assert a.number == number and a.valid_until == term_end(TODAY, 12) and a.renewal_count == 1

    # Art. 26 §1: 30 days of suspension, then back to active without anyone remembering it.
    a = auth.suspend_authorization(db, desk.manager, a.id, "art26_par1", TODAY, "Portaria 5/2026",
                                   "Reincidência em embarque fora da plataforma", a.version)
    last_day = a.suspended_until
    assert last_day == TODAY + timedelta(days=29)   # 30 suspended days counting the first (issue 24 item 2)
    assert run_due_transitions(db, last_day) == []
    done = run_due_transitions(db, last_day + timedelta(days=1))
    assert [(d.number, d.to_status) for d in done] == [(number, "active")]

    detail = auth.authorization_detail(db, desk.fiscal, a.id)
    assert detail.authorization.status_label == "Ativa" and detail.authorization.number == number
    assert [e.kind for e in detail.events] == [
        "request", "analysis", "approval", "inspection", "fee", "activation", "renewal_request", "renewal",
        "suspension", "suspension_end"]
    assert {e.by_name for e in detail.events} == {
        "Ana Atendente", "Gilberto Gestor", "Vera Vistoriadora", "Sistema (rotina automática)"}
    assert any(f.startswith("Taxa paga em ") for f in detail.authorization.facts)
    assert any(f.startswith("Vistoria aprovada em ") for f in detail.authorization.facts)
    row = list_drivers(db, desk.clerk, "conceicao dos").rows[0]
    assert (row.authorization_number, row.authorization_status_label) == (number, "Ativa")
    page = driver_detail(db, desk.clerk, driver.id)
    assert page.authorizations[0].number == number
    assert sum(1 for e in page.timeline if e.what.startswith(f"Autorização {number}")) == 10
