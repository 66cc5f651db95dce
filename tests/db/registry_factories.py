"""Drafts and actors for the register's service tests (issue 4): valid documents generated with their check
digits, a complete and valid driver checklist, a vehicle that meets Art. 2, and the whole path to an active
authorization."""
from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest
from validate_docbr import CNH, CNPJ, CPF, RENAVAM

from desktop.domain import DRIVER_CHECKLIST, local_today
from desktop.domain.roles import Role
from desktop.services import authorizations as auth
from desktop.services.drivers import ChecklistEntry, DriverDraft, register_driver
from desktop.services.vehicles import LessorDraft, VehicleDraft, register_vehicle

TODAY = local_today()
_plates = itertools.count(1)


def cpf() -> str:
    return CPF().generate()


def cnpj() -> str:
    return CNPJ().generate()


def renavam() -> str:
    return RENAVAM().generate()


def plate() -> str:
    n = next(_plates)
    letters = "ABCDEFGHIJ"
    return f"QB{letters[n // 1000 % 10]}{n // 100 % 10}{letters[n // 10 % 10]}{n % 10}{n // 10 % 10}"


def full_checklist(today: date = TODAY, **overrides: ChecklistEntry | None) -> tuple[ChecklistEntry, ...]:
    """Every line of Art. 12 I-IX, §1 and Art. 8 §1 II presented and valid for a year; `key=None` drops a line."""
    lines = []
    for item in DRIVER_CHECKLIST:
        if item.key in overrides:
            if overrides[item.key] is not None:
                lines.append(overrides[item.key])
            continue
        lines.append(ChecklistEntry(
            key=item.key, number=f"{item.key.upper()}-1", issued_on=today - timedelta(days=30),
            expires_on=today + timedelta(days=365) if item.has_expiry else None))
    return tuple(lines)


def driver_draft(name: str = "João da Silva", **kw) -> DriverDraft:
    base = DriverDraft(
        cpf=cpf(), name=name, birth_date=date(1985, 5, 17), address="Rua das Flores, 10", district="Centro",
        city="Chapada dos Guimarães", uf="MT", zip_code="78195-000", phone="(65) 99999-0000",
        email="condutor@example.com", cnh_number=CNH().generate(), cnh_category="B",
        cnh_expiry=TODAY + timedelta(days=900), cnh_ear=True, nit="12345678901", checklist=full_checklist(),
    )
    return replace(base, **kw)


def vehicle_draft(**kw) -> VehicleDraft:
    base = VehicleDraft(
        plate=plate(), renavam=renavam(), make="Chevrolet", model="Onix Plus", manufacture_year=TODAY.year - 2,
        model_year=TODAY.year - 1, doors=4, seats=5, air_conditioning=True,
        registration_municipality="Chapada dos Guimarães", registration_uf="MT", colour="Prata",
        crlv_year=TODAY.year, compulsory_insurance_paid=True,
    )
    return replace(base, **kw)


def individual_lessor(document: str, name: str = "Maria Locadora") -> LessorDraft:
    return LessorDraft(kind="individual", document_number=document, name=name)


class Desk:
    """The office: one user per role, real rows."""

    def __init__(self, make_actor):
        self.clerk = make_actor(Role.ATENDENTE, full_name="Ana Atendente")
        self.manager = make_actor(Role.GESTOR, full_name="Gilberto Gestor")
        self.inspector = make_actor(Role.VISTORIADOR, full_name="Vera Vistoriadora")
        self.fiscal = make_actor(Role.FISCAL, full_name="Fábio Fiscal")


@pytest.fixture
def desk(make_actor) -> Desk:
    return Desk(make_actor)


def new_driver(db, desk, **kw):
    return register_driver(db, desk.clerk, driver_draft(**kw))


def new_vehicle(db, desk, **kw):
    return register_vehicle(db, desk.clerk, vehicle_draft(**kw))


def approved(db, desk, *, protocol_date: date = TODAY, driver=None, vehicle=None):
    driver = driver or new_driver(db, desk)
    vehicle = vehicle or new_vehicle(db, desk)
    a = auth.request_authorization(db, desk.clerk, driver.id, vehicle.id, protocol_date, "PROT-1")
    a = auth.start_analysis(db, desk.clerk, a.id, a.version, on=protocol_date)
    return auth.approve_authorization(db, desk.manager, a.id, a.version, on=protocol_date)


def active(db, desk, *, on: date = TODAY, **kw):
    a = approved(db, desk, protocol_date=on, **kw)
    a = auth.record_inspection_result(db, desk.inspector, a.id, True, on=on, expected_version=a.version)
    return auth.record_fee_payment(db, desk.clerk, a.id, on, f"G{a.id:06d}", Decimal("150.00"), a.version)
