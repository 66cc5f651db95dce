"""Rows the enforcement tests need, written straight through the models (the registration services of issue 4
are built in parallel; these tests do not depend on them)."""
from __future__ import annotations

import itertools
from datetime import date, time, timedelta
from decimal import Decimal

import pytest

from desktop.domain.roles import Role
from desktop.models import Authorization, Driver, Parameter, Platform, Vehicle
from desktop.services.actors import SYSTEM_ACTOR

_seq = itertools.count(1)

# The tests tell a story in 2025-2026 with real calendar facts (holidays, weekends); the services refuse future
# dates and open buttons by the running terms, so "today" is pinned for them.
TODAY = date(2026, 11, 30)


@pytest.fixture(autouse=True)
def frozen_today(monkeypatch):
    """Autouse in every module that imports it: the enforcement services see TODAY as today."""
    import importlib

    for name in ENFORCEMENT_MODULES:
        module = importlib.import_module(name)
        if hasattr(module, "local_today"):
            monkeypatch.setattr(module, "local_today", lambda: TODAY)
    return TODAY


# Every enforcement module that reads the office's today (the services and their shared core).
ENFORCEMENT_MODULES = (
    "desktop.services.autos.assessment", "desktop.services.autos.commands", "desktop.services.enforcement.core",
    "desktop.services.ledger", "desktop.services.penalties", "desktop.services.autos.process",
)


# 2025: a plain value; 2026: a value whose products need half-up rounding (20 × 3,12525 = 62,505 → 62,51).
UPFM_2025 = Decimal("5.40")
UPFM_2026 = Decimal("3.12525")


def set_upfm(db, year: int, value: Decimal) -> None:
    with db.session() as s:
        s.add(Parameter(key="upfm_value", valid_from=date(year, 1, 1), value=value, note="teste"))


def set_parameter(db, key: str, valid_from: date, value: Decimal) -> None:
    with db.session() as s:
        s.add(Parameter(key=key, valid_from=valid_from, value=value, note="teste"))


def setup_upfm(db) -> None:
    set_upfm(db, 2025, UPFM_2025)
    set_upfm(db, 2026, UPFM_2026)


def _digits(n: int, width: int) -> str:
    return str(n).rjust(width, "0")[-width:]


def make_driver(db, name: str | None = None) -> int:
    n = next(_seq)
    with db.session() as s:
        row = Driver(cpf=_digits(90000000000 + n, 11), name=name or f"Condutor Teste {n}", cnh_category="B",
                     cnh_ear=True, city="Chapada dos Guimarães", uf="MT")
        s.add(row)
        s.flush()
        return row.id


def make_platform(db, name: str | None = None) -> int:
    n = next(_seq)
    with db.session() as s:
        row = Platform(cnpj=_digits(11222333000000 + n, 14), legal_name=f"{name or 'Plataforma'} {n} Ltda",
                       trade_name=name or f"Plataforma {n}", status="active")
        s.add(row)
        s.flush()
        return row.id


def make_vehicle(db) -> int:
    n = next(_seq)
    with db.session() as s:
        row = Vehicle(plate=f"QBX{_digits(n, 4)}", renavam=_digits(10000000000 + n, 11), make="Fiat",
                      model="Cronos", manufacture_year=2022, model_year=2022, doors=4, seats=5,
                      registration_municipality="Chapada dos Guimarães", registration_uf="MT")
        s.add(row)
        s.flush()
        return row.id


def make_authorization(db, driver_id: int, vehicle_id: int, status: str = "active",
                       activated_on: date = date(2025, 7, 1), valid_until: date = date(2027, 12, 31)) -> int:
    n = next(_seq)
    with db.session() as s:
        row = Authorization(driver_id=driver_id, vehicle_id=vehicle_id, status=status,
                            number=f"{_digits(n, 4)}/2025", protocol_date=date(2025, 6, 10),
                            activated_on=activated_on, valid_until=valid_until, fee_paid_on=date(2025, 6, 20))
        s.add(row)
        s.flush()
        return row.id


def authorized_driver(db, name: str | None = None, **kw) -> tuple[int, int, int]:
    """(driver_id, vehicle_id, authorization_id) with an active authorization."""
    driver_id = make_driver(db, name)
    vehicle_id = make_vehicle(db)
    return driver_id, vehicle_id, make_authorization(db, driver_id, vehicle_id, **kw)


def authorization_row(db, authorization_id: int):
    with db.session(write=False) as s:
        row = s.get(Authorization, authorization_id)
        return row.status, row.suspended_until, row.ended_on


def draft(code: str, on: date, driver_id: int | None = None, platform_id: int | None = None,
          vehicle_id: int | None = None, **kw):
    from desktop.services.autos import AutoDraft

    values = dict(at=time(14, 30), place="Av. Rio de Janeiro, em frente à praça", description="Fato constatado "
                  "pelo agente no local.")
    if code == "ART26-III":
        values["art13_item"] = "VII"
    values.update(kw)
    return AutoDraft(on=on, code=code, driver_id=driver_id, platform_id=platform_id, vehicle_id=vehicle_id,
                     **values)


def staff(make_actor):
    """(fiscal, gestor, atendente) actors with real user rows."""
    return (make_actor(Role.FISCAL, full_name="Fiscal Ana Souza"), make_actor(Role.GESTOR, full_name="Gestor Rui"),
            make_actor(Role.ATENDENTE, full_name="Atendente Lia"))


def municipality_staff(db, make_actor):
    """The UPFM values, the municipality's settings (the documents' header) and `staff`: what a printed act of an
    auto needs (the certidão de dívida ativa, the extract of the process)."""
    from desktop.models import MunicipalitySettings

    setup_upfm(db)
    with db.session() as s:
        s.add(MunicipalitySettings(id=1, name="Chapada dos Guimarães", uf="MT", ouvidoria_phone="(65) 3301-1234",
                                   secretariat="Secretaria Municipal de Finanças"))
    return staff(make_actor)


# ---------------------------------------------------------------------------------------------------------
# Steps of the process (Art. 22), for scenarios
# ---------------------------------------------------------------------------------------------------------

def notify(db, fiscal, auto, on: date, addressee: str = "driver"):
    """Direct notification (Art. 22 §1 I) with its proof joined the same day."""
    from desktop.domain.penalties import NotificationForm
    from desktop.services.autos.process import NotificationDraft, record_notification

    return record_notification(db, fiscal, auto.id, NotificationDraft(addressee, NotificationForm.DIRECT, on, on),
                               auto.version)


def notify_decision(db, fiscal, info, on: date, addressee: str = "driver"):
    """The decision notified directly (Art. 22 §1 I) with its proof joined the same day: the appeal term runs from
    that day (Art. 22 §2; issue 24 item 3)."""
    from desktop.domain.penalties import NotificationForm
    from desktop.services.autos.process import NotificationDraft, record_notification

    return record_notification(db, fiscal, info.id, NotificationDraft(addressee, NotificationForm.DIRECT, on, on),
                               info.version)


def decide_penalties(db, gestor, info, on: date, penalties=None,
                     reasoning: str = "Penalidades do código e da reincidência confirmadas pela autoridade."):
    """The gestor's decision applying the penalties of an auto final without defense (Art. 26 §2; issue 24
    item 1)."""
    from desktop.services.autos.process import PenaltyDecisionDraft, decide_penalties as decide

    return decide(db, gestor, info.id, PenaltyDecisionDraft(on, reasoning, penalties), info.version)


def judgment(outcome: str, on: date, reasoning: str = "Fatos comprovados pelo relatório do agente.", **kw):
    from desktop.services.autos.process import JudgmentDraft, Outcome

    return JudgmentDraft(Outcome(outcome), on, reasoning, **kw)


def final_without_defense(db, fiscal, info, notified_on: date):
    """Notify, then let the defense term pass: the daily job makes the decision final the day after it."""
    from desktop.services.autos import get_auto_info
    from desktop.services.enforcement_jobs import run_enforcement_jobs

    info = notify(db, fiscal, info, notified_on)
    run_enforcement_jobs(db, info.defense_deadline + timedelta(days=1))
    return get_auto_info(db, SYSTEM_ACTOR, info.id)
