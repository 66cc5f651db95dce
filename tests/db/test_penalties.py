"""Penalties taking effect on the final date (Art. 24, 26 §§1-2), administrative measures (Art. 24 II) and their
costs (Art. 28) — on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select

from desktop.domain.ledger import EntryKind
from desktop.domain.penalties import AdministrativeMeasure, Penalty
from desktop.domain.workflow import AutoStatus
from desktop.errors import ConflictError, PermissionDenied, StaleRecordError, TransitionRefused, ValidationError
from desktop.models import LOCAL_TZ, AuthorizationEvent, Driver
from desktop.services import autos, ledger, penalties
from desktop.services.autos import process
from desktop.services.enforcement_jobs import run_enforcement_jobs
from desktop.services.ledger import Infractor
from desktop.services.penalties import MeasureDraft
from tests.db.enforcement_factories import (
    UPFM_2026,
    authorization_row,
    authorized_driver,
    draft,
    decide_penalties,
    final_without_defense,
    frozen_today,  # noqa: F401 (autouse: pins today)
    judgment,
    notify,
    notify_decision,
    setup_upfm,
    staff,
)
from desktop.services.actors import SYSTEM_ACTOR


@pytest.fixture
def people(db, make_actor):
    setup_upfm(db)
    return staff(make_actor)


def _events(db, auth_id):
    with db.session(write=False) as s:
        return [(e.kind, e.from_status, e.to_status, e.effective_on, e.auto_id)
                for e in s.scalars(select(AuthorizationEvent).where(AuthorizationEvent.authorization_id == auth_id)
                                   .order_by(AuthorizationEvent.id))]


def test_art24_par_unico_suspension_of_12_months_applied_by_the_gestors_decision_and_lifted_at_its_end(db, people):
    """Issue 24 item 1: the routine makes the auto final and lists it for decision; the suspension exists only
    through the gestor's decision (Art. 26, §2; SPEC §3) and runs 12 months counting its first day (item 2)."""
    fiscal, gestor, _ = people
    driver_id, _, auth_id = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-VI", date(2026, 3, 2), driver_id=driver_id))
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    assert run_enforcement_jobs(db, date(2026, 3, 18)).finalized == ()  # the last day of the defense term
    assert authorization_row(db, auth_id)[0] == "active"
    report = run_enforcement_jobs(db, date(2026, 3, 19))
    assert report.finalized == (info.number,) and report.penalties_applied == 0
    assert report.awaiting_decision == (info.number,) and "aguardando a decisão do gestor" in report.describe()
    final = autos.get_auto_info(db, SYSTEM_ACTOR, auto.id)
    assert final.status is AutoStatus.FINAL and final.final_on == date(2026, 3, 19)
    assert authorization_row(db, auth_id)[0] == "active"  # the routine proposes, never applies
    decided = decide_penalties(db, gestor, final, date(2026, 3, 20))
    assert authorization_row(db, auth_id)[:2] == ("suspended", date(2027, 3, 19))  # SPEC §3: 12 months end the day before the same date a year later (issue 24 item 2)
    [penalty] = penalties.penalties_of(db, SYSTEM_ACTOR, auto.id)
    assert (penalty.kind, penalty.effective_on, penalty.ends_on, penalty.lifted_on) == (
        Penalty.SUSPENSION.value, date(2026, 3, 20), date(2027, 3, 19), None)
    assert run_enforcement_jobs(db, date(2026, 3, 21)).awaiting_decision == ()
    assert "decide_penalties" not in {a.key for a in decided.actions if a.enabled}

    assert run_enforcement_jobs(db, date(2027, 3, 19)).suspensions_ended == 0  # still its last day
    assert authorization_row(db, auth_id)[0] == "suspended"
    assert run_enforcement_jobs(db, date(2027, 3, 20)).suspensions_ended == 1
    assert authorization_row(db, auth_id)[0] == "active"
    assert _events(db, auth_id) == [
        ("suspension", "active", "suspended", date(2026, 3, 20), auto.id),
        ("suspension_end", "suspended", "active", date(2027, 3, 20), auto.id),
    ]
    assert penalties.penalties_of(db, SYSTEM_ACTOR, auto.id)[0].lifted_on == date(2027, 3, 20)
    again = run_enforcement_jobs(db, date(2027, 3, 20))  # idempotent
    assert not again.changed


def test_art26_par1_recurrence_of_street_boarding_suspends_30_days(db, people):
    fiscal, gestor, atendente = people
    driver_id, _, auth_id = authorized_driver(db)
    first = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 1, 5), driver_id=driver_id))
    final_without_defense(db, fiscal, first, date(2026, 1, 6))
    assert authorization_row(db, auth_id)[0] == "active"  # a first street boarding is a fine only
    second = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    assert second.recurrence
    info = notify(db, fiscal, second, date(2026, 3, 3))
    info = process.judge(db, gestor, second.id, judgment("upheld", date(2026, 3, 19)), info.version)
    info = notify_decision(db, fiscal, info, date(2026, 3, 20))  # Art. 22 §2: the appeal term runs from here
    run_enforcement_jobs(db, info.appeal_deadline)  # appeal term still running
    assert authorization_row(db, auth_id)[0] == "active"
    run_enforcement_jobs(db, date(2026, 4, 10))
    final = autos.get_auto_info(db, SYSTEM_ACTOR, second.id)
    assert final.final_on == date(2026, 4, 7)  # the day after the appeal term (04/04 Saturday → 06/04/2026)
    assert authorization_row(db, auth_id)[:2] == ("suspended", date(2026, 5, 6))  # 30 days counting the first, Art. 26 §1
    run_enforcement_jobs(db, date(2026, 5, 8))
    assert authorization_row(db, auth_id)[0] == "active"


def test_art26_par2_second_aggression_cassates_the_authorization(db, people):
    """Art. 26, §2: "será cassada pela autoridade administrativa" — the routine makes both autos final and lists
    them; the suspension and the cassation take effect on the gestor's decisions, numbered acts of their own
    (issue 24 item 1: the office found a cassation with by_user_id None and no judgment)."""
    from desktop.models import AuthorizationEvent as Ev

    fiscal, gestor, _ = people
    driver_id, _, auth_id = authorized_driver(db)
    first = autos.draw_up_auto(db, fiscal, draft("ART26-V", date(2025, 9, 1), driver_id=driver_id))
    first = final_without_defense(db, fiscal, first, date(2025, 9, 2))
    assert authorization_row(db, auth_id)[0] == "active"
    first = decide_penalties(db, gestor, first, first.final_on)
    assert authorization_row(db, auth_id)[0] == "suspended"
    second = autos.draw_up_auto(db, fiscal, draft("ART26-V", date(2026, 3, 2), driver_id=driver_id))
    assert second.recurrence and second.assessment.cassation and "Art. 26, §2" in second.assessment.articles
    final = final_without_defense(db, fiscal, second, date(2026, 3, 3))
    assert authorization_row(db, auth_id)[0] == "suspended"  # no cassation by the routine
    decided = decide_penalties(db, gestor, final, final.final_on + timedelta(days=2))
    status, _, ended_on = authorization_row(db, auth_id)
    assert (status, ended_on) == ("cassada", final.final_on + timedelta(days=2))
    judgments = autos.get_auto(db, SYSTEM_ACTOR, second.id).judgments
    assert [(j.instance, j.number, j.decided_by_name) for j in judgments] == [
        ("penalty", "0001/2026", "Gestor Rui")]  # the first decision was 0001/2025
    with db.session(write=False) as s:
        ev = s.scalars(select(Ev).where(Ev.authorization_id == auth_id, Ev.kind == "cassation")).one()
        assert ev.by_user_id == gestor.user_id and ev.act_number == "Decisão nº 0001/2026"
    assert decided.status is AutoStatus.FINAL
    kinds = [k for k, *_ in _events(db, auth_id)]
    assert kinds == ["suspension", "cassation"]  # the registration room's event kinds, tagged with the autos
    # a cassada authorization stays so: the job does not "lift" anything
    run_enforcement_jobs(db, date(2027, 12, 1))
    assert authorization_row(db, auth_id)[0] == "cassada"


def test_art26_II_operating_against_the_impediment_impedes_at_once(db, people):
    fiscal, _, _ = people
    driver_id, _, auth_id = authorized_driver(db)
    autos.draw_up_auto(db, fiscal, draft("ART26-II", date(2026, 3, 2), driver_id=driver_id))
    assert authorization_row(db, auth_id)[0] == "impeded"
    assert _events(db, auth_id)[0][:3] == ("status", "active", "impeded")
    assert [p.kind for p in penalties.penalties_of(db, SYSTEM_ACTOR, autos.list_autos(db, SYSTEM_ACTOR).items[0].id)] == ["impediment"]


def test_a_suspension_not_applied_by_an_auto_is_left_alone(db, people):
    from desktop.models import Authorization

    driver_id, _, auth_id = authorized_driver(db)
    with db.session() as s:
        auth = s.get(Authorization, auth_id)
        auth.status, auth.suspended_until = "suspended", date(2026, 2, 1)
        s.add(AuthorizationEvent(authorization_id=auth_id, kind="status", from_status="active",
                                 to_status="suspended", at=datetime(2026, 1, 2, 9, tzinfo=LOCAL_TZ),
                                 effective_on=date(2026, 1, 2), reason="Suspensão cautelar"))
    assert run_enforcement_jobs(db, date(2026, 3, 1)).suspensions_ended == 0
    assert authorization_row(db, auth_id)[0] == "suspended"


def test_issue12_item2_a_decision_applies_only_the_penalties_the_catalogue_names(db, people):
    """The first wave let a gestor tick revocation or deregistration on any auto and drop a suspension on an
    "upheld" decision. Now: an upheld ART26-VI applies its 12-month suspension (Art. 26, VI, b); a penalty the code
    does not name is refused in Portuguese; dropping the suspension is a partial decision."""
    from desktop.services.enforcement_jobs import run_enforcement_jobs

    fiscal, gestor, atendente = people
    driver_id, vehicle_id, auth_id = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-VI", date(2026, 3, 2), driver_id=driver_id))
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    choices = process.decision_choices(db, gestor, auto.id)
    assert [(c.penalty, c.months, c.article) for c in choices] == [
        ("suspension", 12, "Art. 26, VI, b; Art. 24, parágrafo único")]
    with pytest.raises(ValidationError, match="Descadastramento do condutor.*não está prevista"):
        process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 3, 19), penalties=frozenset(
            {Penalty.SUSPENSION, Penalty.DRIVER_DEREGISTRATION})), info.version)
    with pytest.raises(ValidationError, match="mantido em parte"):
        process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 3, 19), penalties=frozenset()),
                      info.version)
    info = process.judge(db, gestor, auto.id, judgment("partly_upheld", date(2026, 3, 19), penalties=frozenset()),
                         info.version)
    assert info.amount_upfm == Decimal(30)  # the fine of Art. 25 III stays
    notify_decision(db, fiscal, info, date(2026, 3, 19))
    run_enforcement_jobs(db, date(2026, 4, 10))
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).status is AutoStatus.FINAL
    assert authorization_row(db, auth_id)[0] == "active"  # the decision did not uphold the suspension

    other_driver, _, other_auth = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-VI", date(2026, 3, 2), driver_id=other_driver))
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    info = process.judge(db, gestor, auto.id, judgment("upheld", date(2026, 3, 19)), info.version)
    notify_decision(db, fiscal, info, date(2026, 3, 19))
    run_enforcement_jobs(db, date(2026, 4, 10))
    assert authorization_row(db, other_auth)[:2] == ("suspended", date(2027, 4, 6))  # SPEC §3: 12 months end the day before the same date a year later (issue 24 item 2)
    (applied,) = penalties.penalties_of(db, SYSTEM_ACTOR, auto.id)
    assert (applied.kind, applied.article) == ("suspension", "Art. 26, VI, b; Art. 24, parágrafo único")
    assert applied.ends_on == date(2027, 4, 6)


def test_art17_annulling_a_final_auto_lifts_its_suspension(db, people):
    fiscal, gestor, _ = people
    driver_id, _, auth_id = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-VI", date(2026, 3, 2), driver_id=driver_id))
    info = final_without_defense(db, fiscal, auto, date(2026, 3, 3))
    info = decide_penalties(db, gestor, info, info.final_on)
    assert authorization_row(db, auth_id)[0] == "suspended"
    process.annul_auto(db, gestor, auto.id, "Identificação do condutor incorreta", info.version,
                       on=date(2026, 4, 1))
    assert authorization_row(db, auth_id)[0] == "active"
    assert penalties.penalties_of(db, SYSTEM_ACTOR, auto.id)[0].lifted_on == date(2026, 4, 1)


def test_art24_II_measures_are_recorded_and_released(db, people):
    fiscal, gestor, atendente = people
    driver_id, vehicle_id, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART27", date(2026, 3, 2), driver_id=driver_id))
    with pytest.raises(PermissionDenied):
        penalties.record_measure(db, atendente, MeasureDraft(AdministrativeMeasure.VEHICLE_SEIZURE,
                                                             date(2026, 3, 2), auto_id=auto.id))
    seizure = penalties.record_measure(db, fiscal, MeasureDraft(
        AdministrativeMeasure.VEHICLE_SEIZURE, date(2026, 3, 2), auto_id=auto.id, place="Pátio municipal"))
    assert (seizure.driver_id, seizure.vehicle_id) == (driver_id, vehicle_id)  # taken from the auto
    assert seizure.article == "Art. 24, II, d" and seizure.released_on is None
    assert [m.id for m in penalties.list_measures(db, SYSTEM_ACTOR, open_only=True)] == [seizure.id]
    with pytest.raises(ValidationError):
        penalties.release_measure(db, fiscal, seizure.id, date(2026, 3, 1), "", seizure.version)
    released = penalties.release_measure(db, gestor, seizure.id, date(2026, 3, 12), "Veículo regularizado",
                                         seizure.version)
    assert released.released_on == date(2026, 3, 12) and "regularizado" in released.note
    assert penalties.list_measures(db, SYSTEM_ACTOR, open_only=True) == []
    with pytest.raises(ConflictError):
        penalties.release_measure(db, gestor, seizure.id, date(2026, 3, 13), "", released.version)
    assert [m.id for m in autos.get_auto(db, SYSTEM_ACTOR, auto.id).measures] == [seizure.id]


def test_art28_removal_and_storage_costs_are_charged_to_the_driver(db, people):
    fiscal, gestor, atendente = people
    driver_id, vehicle_id, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART27", date(2026, 3, 2), driver_id=driver_id))
    removal = penalties.record_measure(db, fiscal, MeasureDraft(
        AdministrativeMeasure.RETENTION_OR_REMOVAL, date(2026, 3, 2), auto_id=auto.id))
    entry = penalties.charge_costs(db, atendente, removal.id, Decimal("187.52"), date(2026, 3, 5),
                                   "Guincho e 3 diárias de pátio", removal.version)
    assert entry.kind is EntryKind.COSTS and entry.infractor == Infractor.driver(driver_id)
    assert entry.amount_reais == Decimal("187.52") and entry.upfm_value == UPFM_2026
    assert entry.amount_upfm == Decimal("0")   # issue 23 point 6: reais spent, never converted at a UPFM
    assert ledger.balance(db, SYSTEM_ACTOR, Infractor.driver(driver_id)) == Decimal("40")   # the fine alone
    measure = penalties.list_measures(db, SYSTEM_ACTOR, driver_id=driver_id)[0]
    assert measure.cost_reais == Decimal("187.52")
    with pytest.raises(StaleRecordError):
        penalties.charge_costs(db, atendente, removal.id, Decimal("10"), date(2026, 3, 5), "x", removal.version)
    notice = penalties.record_measure(db, fiscal, MeasureDraft(
        AdministrativeMeasure.REGULARIZATION_NOTICE, date(2026, 3, 2), auto_id=auto.id))
    with pytest.raises(ValidationError, match="remoção"):
        penalties.charge_costs(db, atendente, notice.id, Decimal("10"), date(2026, 3, 5), "x", notice.version)


def test_no_measure_on_a_cancelled_auto(db, people):
    fiscal, gestor, _ = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    autos.cancel_auto(db, gestor, auto.id, "erro", auto.version)
    with pytest.raises(TransitionRefused):
        penalties.record_measure(db, fiscal, MeasureDraft(AdministrativeMeasure.DOCUMENT_SEIZURE,
                                                          date(2026, 3, 2), auto_id=auto.id))


def test_an_auto_loaded_without_its_proposal_is_assessed_again_when_final(db, people):
    """Rows written in bulk (demo, imports) may lack the stored proposal: the law is applied at finality."""
    from desktop.models import Auto

    fiscal, gestor, atendente = people
    driver_id, _, auth_id = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-V", date(2026, 3, 2), driver_id=driver_id))
    with db.session() as s:
        s.get(Auto, auto.id).assessment = None
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).severity.value == "gravissima"  # from the catalogue row
    assert [a.severity.value for a in autos.list_autos(db, SYSTEM_ACTOR).items] == ["gravissima"]
    final = final_without_defense(db, fiscal, autos.get_auto_info(db, SYSTEM_ACTOR, auto.id), date(2026, 3, 3))
    assert authorization_row(db, auth_id)[0] == "active"  # issue 24 item 1: waits for the gestor
    decide_penalties(db, gestor, final, final.final_on)
    assert authorization_row(db, auth_id)[0] == "suspended"
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).assessment.suspension_months == 12


def test_a_suspension_event_tagged_with_an_auto_is_ended_by_the_job_even_if_loaded_in_bulk(db, people):
    from desktop.models import Authorization

    fiscal, _, _ = people
    driver_id, _, auth_id = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-VI", date(2025, 7, 1), driver_id=driver_id))
    with db.session() as s:
        auth = s.get(Authorization, auth_id)
        auth.status, auth.suspended_until = "suspended", date(2026, 2, 1)
        s.add(AuthorizationEvent(authorization_id=auth_id, kind="status", from_status="active",
                                 to_status="suspended", at=datetime(2025, 8, 2, 9, tzinfo=LOCAL_TZ),
                                 effective_on=date(2025, 8, 2), reason="Suspensão (Art. 26, VI)", auto_id=auto.id))
    assert run_enforcement_jobs(db, date(2026, 2, 2)).suspensions_ended == 1
    assert authorization_row(db, auth_id)[0] == "active"


def test_art26_II_impediment_is_lifted_when_its_auto_is_cancelled(db, people):
    fiscal, gestor, _ = people
    driver_id, _, auth_id = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-II", date(2026, 3, 2), driver_id=driver_id))
    assert authorization_row(db, auth_id)[0] == "impeded"
    autos.cancel_auto(db, gestor, auto.id, "Veículo já regularizado antes da abordagem", auto.version)
    assert authorization_row(db, auth_id)[0] == "active"
    assert [k for k, *_ in _events(db, auth_id)] == ["status", "status"]
