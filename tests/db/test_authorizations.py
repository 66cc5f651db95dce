"""The authorization lifecycle (Art. 3, 8, 9, 10, 15, 16, 24, 26): every step and its refusals, on SQLite and
PostgreSQL (issue 4)."""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from registry_factories import (  # noqa: F401 - desk is a fixture
    TODAY,
    active,
    approved,
    desk,
    driver_draft,
    full_checklist,
    new_driver,
    new_vehicle,
    vehicle_draft,
)
from sqlalchemy import select

from desktop.domain import presentation_deadline, renewal_request_deadline, term_end
from desktop.domain.driver import CHECKLIST_BY_KEY
from desktop.errors import ConflictError, PermissionDenied, StaleRecordError, TransitionRefused, ValidationError
from desktop.models import AuditEntry, Authorization, Fee, Inspection
from desktop.services import authorizations as svc
from desktop.services.drivers import ChecklistEntry, deregister_driver, driver_detail, register_driver
from desktop.services.holidays import calendar
from desktop.services.vehicles import register_vehicle, vehicle_detail

YEAR = TODAY.year


def _request(db, desk, driver=None, vehicle=None, on=TODAY):
    driver = driver or new_driver(db, desk)
    vehicle = vehicle or new_vehicle(db, desk)
    return svc.request_authorization(db, desk.clerk, driver.id, vehicle.id, on, "2026/000123")


def _analysis(db, desk, **kw):
    a = _request(db, desk, **kw)
    return svc.start_analysis(db, desk.clerk, a.id, a.version, on=a.protocol_date)


# --- request -------------------------------------------------------------------------------------------------

def test_request_records_protocol_and_event(db, desk):
    a = _request(db, desk)
    assert a.status == "requested" and a.status_label == "Requerida" and a.number is None
    assert set(a.actions) == {"in_analysis", "refused"}
    detail = svc.authorization_detail(db, desk.fiscal, a.id)
    assert [(e.kind, e.to_status, e.by_name) for e in detail.events] == [("request", "requested", "Ana Atendente")]


def test_art8_second_live_authorization_for_the_same_driver_is_refused(db, desk):
    driver = new_driver(db, desk)
    _request(db, desk, driver=driver)
    with pytest.raises(ConflictError, match="condutor"):
        _request(db, desk, driver=driver)


def test_art8_second_live_authorization_for_the_same_vehicle_is_refused(db, desk):
    vehicle = new_vehicle(db, desk)
    active(db, desk, vehicle=vehicle)
    with pytest.raises(ConflictError, match="veículo"):
        _request(db, desk, vehicle=vehicle)


def test_fiscal_cannot_file_a_request(db, desk):
    d, v = new_driver(db, desk), new_vehicle(db, desk)
    with pytest.raises(PermissionDenied):
        svc.request_authorization(db, desk.fiscal, d.id, v.id, TODAY)


# --- analysis and decision -----------------------------------------------------------------------------------

def test_art9_approval_sets_the_5_day_presentation_deadline(db, desk):
    a = _analysis(db, desk)
    a = svc.approve_authorization(db, desk.manager, a.id, a.version, on=TODAY, act_number="Despacho 4")
    assert a.status == "approved" and a.decided_by_name == "Gilberto Gestor"
    assert a.presentation_deadline == presentation_deadline(TODAY, calendar(db))
    assert any("apresentar o veículo" in f and "vencido" not in f for f in a.facts)
    old = approved(db, desk, protocol_date=TODAY - timedelta(days=30))
    assert any("apresentar o veículo" in f and f.endswith("— vencido (Art. 9)") for f in old.facts)


def test_clerk_calling_gestor_only_approval_is_refused(db, desk):
    a = _analysis(db, desk)
    with pytest.raises(PermissionDenied, match="Gestor"):
        svc.approve_authorization(db, desk.clerk, a.id, a.version)


def test_approval_without_analysis_is_a_refused_transition(db, desk):
    a = _request(db, desk)
    with pytest.raises(TransitionRefused, match="Requerida"):
        svc.approve_authorization(db, desk.manager, a.id, a.version)


def test_art12_iv_expired_checklist_document_blocks_approval_naming_the_article(db, desk):
    expired = ChecklistEntry("criminal_record", number="CN-1", issued_on=TODAY - timedelta(days=120),
                             expires_on=TODAY - timedelta(days=1))
    driver = register_driver(db, desk.clerk, driver_draft(checklist=full_checklist(criminal_record=expired)))
    a = _analysis(db, desk, driver=driver)
    assert [p.article for p in svc.analysis_problems(db, desk.manager, a.id)] == ["Art. 12, IV"]
    with pytest.raises(ValidationError) as err:
        svc.approve_authorization(db, desk.manager, a.id, a.version)
    assert [(p.field, p.article) for p in err.value.problems] == [("criminal_record", "Art. 12, IV")]
    assert "Art. 12, IV" in str(err.value)
    assert svc.get_authorization(db, desk.clerk, a.id).status == "in_analysis"


def test_art8_par1_ii_missing_tax_clearance_blocks_approval(db, desk):
    driver = register_driver(db, desk.clerk, driver_draft(checklist=full_checklist(tax_clearance=None)))
    a = _analysis(db, desk, driver=driver)
    with pytest.raises(ValidationError) as err:
        svc.approve_authorization(db, desk.manager, a.id, a.version)
    assert err.value.problems[0].article == CHECKLIST_BY_KEY["tax_clearance"].article


def test_art2_2015_vehicle_in_2026_blocks_approval(db, desk):
    old = register_vehicle(db, desk.clerk, vehicle_draft(manufacture_year=2015, model_year=2015),
                           on=date(2025, 6, 2))
    a = _analysis(db, desk, vehicle=old, on=date(2026, 1, 12))
    with pytest.raises(ValidationError) as err:
        svc.approve_authorization(db, desk.manager, a.id, a.version, on=date(2026, 1, 12))
    assert ("manufacture_year", "Art. 2, §§1-2") in [(p.field, p.article) for p in err.value.problems]


def test_refusal_needs_a_reason_ends_the_request_and_frees_driver_and_vehicle(db, desk):
    a = _analysis(db, desk)
    with pytest.raises(ValidationError):
        svc.refuse_authorization(db, desk.manager, a.id, "  ", a.version)
    r = svc.refuse_authorization(db, desk.manager, a.id, "Documentação incompleta", a.version, on=TODAY)
    assert r.status_label == "Indeferida" and r.decision_reason == "Documentação incompleta" and r.ended_on == TODAY
    again = svc.request_authorization(db, desk.clerk, r.driver_id, r.vehicle_id, TODAY)
    assert again.status == "requested"


def test_stale_decision_is_refused(db, desk):
    a = _analysis(db, desk)
    svc.refuse_authorization(db, desk.manager, a.id, "Falta documento", a.version)
    with pytest.raises(StaleRecordError):
        svc.approve_authorization(db, desk.manager, a.id, a.version)


# --- activation ----------------------------------------------------------------------------------------------

def test_art10_no_activation_without_the_fee(db, desk):
    a = approved(db, desk)
    a = svc.record_inspection_result(db, desk.inspector, a.id, True, on=TODAY, expected_version=a.version)
    assert a.status == "approved" and a.number is None
    assert [p.field for p in a.pending] == ["fee_paid_on"]
    assert "Art. 10" in a.pending[0].article
    assert f"Vistoria aprovada em {TODAY:%d/%m/%Y}" in a.facts


def test_activation_fee_first_then_inspection_gets_number_and_validity_from_the_fee(db, desk):
    a = approved(db, desk)
    paid_on = TODAY - timedelta(days=1)
    a = svc.record_fee_payment(db, desk.clerk, a.id, paid_on, "DAM-77", Decimal("212.40"), a.version)
    assert a.status == "approved" and [p.field for p in a.pending] == ["inspection"]
    a = svc.record_inspection_result(db, desk.inspector, a.id, True, on=TODAY, expected_version=a.version)
    assert a.status == "active" and a.number == f"0001/{YEAR}"
    assert a.activated_on == TODAY
    assert a.valid_until == term_end(paid_on, 12) and a.valid_until_limited_by == "term"
    assert f"Taxa paga em {paid_on:%d/%m/%Y} (guia DAM-77, R$\xa0212,40)" in a.facts or \
        any(f.startswith(f"Taxa paga em {paid_on:%d/%m/%Y}") for f in a.facts)
    with db.session(write=False) as s:
        fee = s.execute(select(Fee).where(Fee.guide_number == "DAM-77")).scalar_one()
        assert (fee.status, fee.paid_on, fee.amount_reais) == ("paid", paid_on, Decimal("212.40"))
        inspection = s.execute(select(Inspection).where(Inspection.authorization_id == a.id)).scalar_one()
        assert (inspection.kind, inspection.result) == ("initial", "approved")


def test_activation_inspection_first_then_fee_numbers_in_sequence(db, desk):
    first = active(db, desk)
    a = approved(db, desk)
    a = svc.record_inspection_result(db, desk.inspector, a.id, True, on=TODAY, expected_version=a.version)
    a = svc.record_fee_payment(db, desk.clerk, a.id, TODAY, "DAM-78", Decimal("100"), a.version)
    assert (first.number, a.number) == (f"0001/{YEAR}", f"0002/{YEAR}")
    kinds = [e.kind for e in svc.authorization_detail(db, desk.clerk, a.id).events]
    assert kinds == ["request", "analysis", "approval", "inspection", "fee", "activation"]


def test_art9_par1_waiver_by_gestor_then_fee_activates(db, desk):
    a = approved(db, desk)
    with pytest.raises(PermissionDenied):
        svc.waive_inspection(db, desk.clerk, a.id, "Veículo 0 km", a.version)
    a = svc.waive_inspection(db, desk.manager, a.id, "Veículo 0 km", a.version, on=TODAY)
    a = svc.record_fee_payment(db, desk.clerk, a.id, TODAY, "DAM-79", Decimal("100"), a.version)
    assert a.status == "active" and f"Vistoria dispensada em {TODAY:%d/%m/%Y} (Art. 9, §1)" in a.facts


def test_art2_validity_limited_by_vehicle_age_is_said(db, desk):
    vehicle = register_vehicle(db, desk.clerk, vehicle_draft(manufacture_year=YEAR - 10, model_year=YEAR - 10))
    a = active(db, desk, vehicle=vehicle)
    assert a.valid_until == date(YEAR, 12, 31) and a.valid_until_limited_by == "vehicle_age"
    assert "idade máxima do veículo" in a.validity_reason


def test_failed_initial_inspection_keeps_it_approved_with_a_term(db, desk):
    a = approved(db, desk)
    with pytest.raises(ValidationError):
        svc.record_inspection_result(db, desk.inspector, a.id, False, on=TODAY, expected_version=a.version)
    a = svc.record_inspection_result(db, desk.inspector, a.id, False, on=TODAY, note="Pneu careca",
                                     expected_version=a.version)
    assert a.status == "approved" and a.regularize_by is not None
    with pytest.raises(PermissionDenied):
        svc.record_inspection_result(db, desk.clerk, a.id, True, on=TODAY, expected_version=a.version)


def test_art16_par2_failed_inspection_impedes_an_active_one_until_approved(db, desk):
    a = active(db, desk)
    a = svc.record_inspection_result(db, desk.inspector, a.id, False, on=TODAY, note="Sem cinto traseiro",
                                     expected_version=a.version)
    assert a.status == "impeded" and a.regularize_by > TODAY
    a = svc.record_inspection_result(db, desk.inspector, a.id, True, on=TODAY, expected_version=a.version)
    assert a.status == "active" and a.regularize_by is None


# --- renewal -------------------------------------------------------------------------------------------------

def test_art3_par2_late_renewal_is_marked_and_keeps_the_number(db, desk):
    start = TODAY - timedelta(days=355)
    a = active(db, desk, on=start)
    number, old_until = a.number, a.valid_until
    a = svc.request_renewal(db, desk.clerk, a.id, TODAY, a.version)
    assert a.renewal_deadline == renewal_request_deadline(old_until, calendar(db))
    assert a.renewal_late and any("fora do prazo" in f for f in a.facts)
    a = svc.record_fee_payment(db, desk.clerk, a.id, TODAY, "DAM-R1", Decimal("90"), a.version)
    assert a.number == number and a.status == "active" and a.renewal_count == 1
    assert a.valid_until == term_end(TODAY, 12) > old_until


def test_art3_par2_list_row_shows_cpf_and_late_renewal_flag(db, desk):
    late = active(db, desk, on=TODAY - timedelta(days=355))
    late = svc.request_renewal(db, desk.clerk, late.id, TODAY, late.version)
    timely = active(db, desk)
    timely = svc.request_renewal(db, desk.clerk, timely.id, TODAY, timely.version)
    rows = {r.id: r for r in svc.list_authorizations(db, desk.clerk).rows}
    assert rows[late.id].renewal_late and not rows[timely.id].renewal_late
    assert rows[late.id].driver_cpf_display == late.driver_cpf_display
    assert len(rows[late.id].driver_cpf_display) == 14 and rows[late.id].driver_cpf_display[3] == "."
    detail = driver_detail(db, desk.clerk, late.driver_id)
    assert [r.renewal_late for r in detail.authorizations] == [True]
    assert detail.authorizations[0].driver_cpf_display == late.driver_cpf_display


def test_art3_par2_timely_renewal_is_not_late(db, desk):
    a = active(db, desk)
    a = svc.request_renewal(db, desk.clerk, a.id, TODAY, a.version)
    assert not a.renewal_late and a.renewal_deadline < a.valid_until


def test_second_fee_without_renewal_request_is_refused(db, desk):
    a = active(db, desk)
    with pytest.raises(ValidationError, match="renovação"):
        svc.record_fee_payment(db, desk.clerk, a.id, TODAY, "DAM-X", Decimal("10"), a.version)


# --- substitution --------------------------------------------------------------------------------------------

def test_art8_par2_substitution_keeps_number_requires_new_inspection_and_keeps_both_vehicles(db, desk):
    a = active(db, desk)
    new = new_vehicle(db, desk)
    s = svc.substitute_vehicle(db, desk.clerk, a.id, new.id, "Venda do veículo", TODAY, a.version)
    assert s.number == a.number and s.status == "impeded" and s.vehicle_id == new.id
    assert s.inspection_approved_on is None
    detail = svc.authorization_detail(db, desk.clerk, a.id)
    assert [v.id for v in detail.vehicles] == [new.id, a.vehicle_id]
    event = next(e for e in detail.events if e.kind == "substitution")
    assert event.old_plate_display and event.new_plate_display == new.plate_display
    s = svc.record_inspection_result(db, desk.inspector, a.id, True, on=TODAY, expected_version=s.version)
    assert s.status == "active" and s.number == a.number
    # the old vehicle's page still lists the authorization it served
    assert [r.id for r in vehicle_detail(db, desk.clerk, a.vehicle_id).authorizations] == [a.id]


def test_art8_par2_substitute_vehicle_must_meet_art2(db, desk):
    a = active(db, desk)
    old = register_vehicle(db, desk.clerk, vehicle_draft(manufacture_year=2015, model_year=2015),
                           on=date(2025, 1, 10))
    with pytest.raises(ValidationError) as err:
        svc.substitute_vehicle(db, desk.clerk, a.id, old.id, "Sinistro", TODAY, a.version)
    assert err.value.problems[0].article == "Art. 2, §§1-2"


def test_art8_substitute_vehicle_already_authorized_is_a_conflict(db, desk):
    a = active(db, desk)
    b = active(db, desk)
    with pytest.raises(ConflictError):
        svc.substitute_vehicle(db, desk.clerk, a.id, b.vehicle_id, "Locação", TODAY, a.version)


# --- suspension, revocation, cassation, deregistration ------------------------------------------------------

def test_art26_par1_suspension_of_30_days(db, desk):
    a = active(db, desk)
    s = svc.suspend_authorization(db, desk.manager, a.id, "art26_par1", TODAY, "Portaria 12/2026",
                                  "Reincidência em embarque na rua", a.version)
    assert s.status == "suspended" and s.suspended_until == TODAY + timedelta(days=29)  # Art. 26 §1: 30 days counting the first
    event = svc.authorization_detail(db, desk.clerk, a.id).events[-1]
    assert (event.kind, event.act_number, event.by_name) == ("suspension", "Portaria 12/2026", "Gilberto Gestor")
    assert "30 dias" in event.reason


def test_art24_sole_paragraph_suspension_of_12_months_by_gestor_only(db, desk):
    a = active(db, desk)
    with pytest.raises(PermissionDenied):
        svc.suspend_authorization(db, desk.clerk, a.id, "art24", TODAY, "P-1", "x", a.version)
    with pytest.raises(ValidationError):
        svc.suspend_authorization(db, desk.manager, a.id, "art24", TODAY, "", "motivo", a.version)
    s = svc.suspend_authorization(db, desk.manager, a.id, "art24", TODAY, "P-1", "Agressão a agente", a.version)
    assert s.suspended_until == term_end(TODAY, 12) - timedelta(days=1)  # Art. 24 §ún.: the day before (issue 24 item 2)


def test_art24_revocation_and_cassation_are_final(db, desk):
    a = active(db, desk)
    r = svc.revoke_authorization(db, desk.manager, a.id, "Perda de requisito", "Portaria 20/2026", TODAY, a.version)
    assert r.status == "revoked" and r.actions == ()
    with pytest.raises(TransitionRefused):
        svc.cassate_authorization(db, desk.manager, a.id, "x", "P-2", TODAY, r.version)
    b = active(db, desk)
    b = svc.suspend_authorization(db, desk.manager, b.id, "art24", TODAY, "P-3", "Cartões", b.version)
    c = svc.cassate_authorization(db, desk.manager, b.id, "Reincidência", "P-4", TODAY, b.version)
    assert c.status_label == "Cassada"


def test_art24_i_d_deregistering_the_driver_revokes_his_authorization(db, desk):
    a = active(db, desk)
    d = driver_detail(db, desk.manager, a.driver_id).driver
    deregister_driver(db, desk.manager, d.id, "Falecimento", "Portaria 9/2026", TODAY, d.version)
    after = svc.get_authorization(db, desk.clerk, a.id)
    assert after.status == "revoked"
    events = svc.authorization_detail(db, desk.clerk, a.id).events
    assert events[-1].kind == "deregistration" and events[-1].act_number == "Portaria 9/2026"


def test_every_transition_is_audited(db, desk):
    a = active(db, desk)
    with db.session(write=False) as s:
        actions = s.execute(select(AuditEntry.action).where(AuditEntry.entity == "authorization",
                                                            AuditEntry.entity_id == str(a.id))
                            .order_by(AuditEntry.id)).scalars().all()
    assert actions == ["authorization.request", "authorization.analysis", "authorization.approval",
                       "authorization.inspection", "authorization.fee", "authorization.activation"]


# --- list ----------------------------------------------------------------------------------------------------

def test_list_filters_by_number_name_plate_and_status(db, desk):
    joao = register_driver(db, desk.clerk, driver_draft(name="João Conceição"))
    first = active(db, desk, driver=joao)
    second = _request(db, desk)
    assert [r.id for r in svc.list_authorizations(db, desk.clerk, f"1/{YEAR}").rows] == [first.id]
    assert [r.id for r in svc.list_authorizations(db, desk.clerk, "joao conc").rows] == [first.id]
    assert [r.id for r in svc.list_authorizations(db, desk.clerk, first.plate_display.lower()).rows] == [first.id]
    assert [r.id for r in svc.list_authorizations(db, desk.clerk, statuses=["requested"]).rows] == [second.id]
    page = svc.list_authorizations(db, desk.clerk, sort="valid_until", descending=False)
    assert page.total == 2 and {r.id for r in page.rows} == {first.id, second.id}
    assert {r.status_label for r in page.rows} == {"Ativa", "Requerida"}


def test_art24_i_f_deregistering_the_vehicle_refuses_a_pending_request(db, desk):
    from desktop.services.vehicles import deregister_vehicle, get_vehicle

    a = _analysis(db, desk)
    v = get_vehicle(db, desk.clerk, a.vehicle_id)
    deregister_vehicle(db, desk.manager, v.id, "Vendido fora do município", "Portaria 11/2026", TODAY, v.version)
    after = svc.get_authorization(db, desk.clerk, a.id)
    assert after.status == "refused" and after.ended_on == TODAY
    with pytest.raises(ValidationError, match="descadastrado"):
        svc.request_authorization(db, desk.clerk, a.driver_id, v.id, TODAY)


# --- the table of steps (desktop.domain.authorization_steps): the service refuses what it refuses -------------

def _in_status(db, desk, status):
    if status == "requested":
        return _request(db, desk)
    if status == "in_analysis":
        return _analysis(db, desk)
    if status == "approved":
        return approved(db, desk)
    a = active(db, desk)
    if status == "revoked":
        return svc.revoke_authorization(db, desk.manager, a.id, "Perda de requisito", "P-9", TODAY, a.version)
    return a


def _step_calls(db, desk, a, other_vehicle_id):
    """Each step that is not a status move, made by a user holding its role."""
    v = a.version
    return {
        "waive": lambda: svc.waive_inspection(db, desk.manager, a.id, "Veículo novo", v, on=TODAY),
        "inspection": lambda: svc.record_inspection_result(db, desk.inspector, a.id, True, on=TODAY,
                                                           expected_version=v),
        "fee": lambda: svc.record_fee_payment(db, desk.clerk, a.id, TODAY, "DAM-T", Decimal("10"), v),
        "renewal": lambda: svc.request_renewal(db, desk.clerk, a.id, TODAY, v),
        "substitute": lambda: svc.substitute_vehicle(db, desk.clerk, a.id, other_vehicle_id, "Venda", TODAY, v),
    }


@pytest.mark.parametrize("status", ["requested", "in_analysis", "approved", "active", "revoked"])
def test_service_refuses_each_step_the_table_refuses_naming_the_article(db, desk, status):
    from desktop.domain.authorization_steps import authorization_refusal, authorization_step

    a = _in_status(db, desk, status)
    other = new_vehicle(db, desk)
    roles = {"waive": desk.manager, "inspection": desk.inspector, "fee": desk.clerk, "renewal": desk.clerk,
             "substitute": desk.clerk}
    with db.session(write=False) as s:
        facts = svc.authorization_facts(s.get(Authorization, a.id))
    for key, call in _step_calls(db, desk, a, other.id).items():
        reason = authorization_refusal(key, facts, roles[key].roles)
        if reason is None:
            continue
        step = authorization_step(key)
        expected = TransitionRefused if status not in step.statuses else ValidationError
        with pytest.raises(expected) as refused:
            call()
        text = str(refused.value) + " ".join(f"{p.article}" for p in getattr(refused.value, "problems", ()))
        assert step.article in text, (key, text)
    assert svc.get_authorization(db, desk.clerk, a.id).version == a.version   # nothing was written


@pytest.mark.parametrize("who", ["clerk", "manager", "inspector", "fiscal"])
def test_info_carries_the_actions_of_the_table_for_the_user(db, desk, who):
    from desktop.domain.authorization_steps import authorization_actions

    actor = getattr(desk, who)
    a = approved(db, desk)
    info = svc.get_authorization(db, actor, a.id)
    with db.session(write=False) as s:
        facts = svc.authorization_facts(s.get(Authorization, a.id))
    assert info.available == authorization_actions(facts, actor.roles)
    enabled = {x.key for x in info.available if x.enabled}
    assert enabled == {"clerk": {"fee", "substitute"}, "manager": {"waive", "fee", "substitute", "revoke",
                                                                     "deregister_driver", "deregister_vehicle"},
                       "inspector": {"inspection"}, "fiscal": set()}[who]
    assert not info.renewal_fee


def test_art10_art3_par2_proposed_fee_and_suspension_dates_come_from_the_service(db, desk):
    from desktop.services import parameters

    a = approved(db, desk)
    assert svc.proposed_fee(db, desk.clerk, a.id, TODAY) is None          # no UPFM value yet: the clerk types it
    parameters.set_upfm_value(db, desk.manager, YEAR, Decimal("112.45"))
    parameters.set_parameter(db, desk.manager, "fee.renewal", date(YEAR, 1, 1), Decimal("5"))
    assert svc.proposed_fee(db, desk.clerk, a.id, TODAY) is None    # issue 23.10: no invented authorization fee
    parameters.set_parameter(db, desk.manager, "fee.authorization", date(YEAR, 1, 1), Decimal("10"))
    assert svc.proposed_fee(db, desk.clerk, a.id, TODAY) == Decimal("10") * Decimal("112.45")   # Art. 10
    b = active(db, desk)
    assert svc.get_authorization(db, desk.clerk, b.id).renewal_fee
    assert svc.proposed_fee(db, desk.clerk, b.id, TODAY) == Decimal("562.25")                     # Art. 3, §2
    dates = svc.suspension_dates("art26_par1", TODAY)
    assert dates.last_day == svc.SuspensionBasis.ART26_PAR1.end(TODAY)
    assert dates.resumes_on == dates.last_day + timedelta(days=1)
