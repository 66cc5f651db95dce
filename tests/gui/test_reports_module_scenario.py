"""Scenario shared by the Relatórios screen tests (issue 7): the municipality set up through the real
`services.setup.initialize` (with its Ed25519 key pair), N active authorizations 0007/2026… with driver and vehicle,
and users of each profile backed by real rows (for the audit log). No tests here: fixtures and helpers only."""
from __future__ import annotations

import io
from datetime import date, timedelta
from pathlib import Path

import pytest
from pypdf import PdfReader

from desktop.domain.roles import Role
from desktop.services.actors import Actor

SHOTS = Path("/tmp/shots/reports-ui")
CPFS = ("52998224725", "11144477735", "39053344705", "12345678909", "98765432100")


def valid_until() -> date:
    from desktop.domain import local_today
    return local_today() + timedelta(days=200)


def make_user(db, username: str, full_name: str, *roles: Role) -> Actor:
    from argon2 import PasswordHasher

    from desktop.models import User
    hashed = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash("senha-de-teste")
    with db.session() as s:
        # issue 28: a user who signs acts has an office and a matrícula (Lei 9.784/99, art. 22, §1º)
        user = User(username=username, full_name=full_name, password_hash=hashed,
                    office=" e ".join(Role(r).label for r in roles), registration=f"M-{username}")
        user.set_roles(roles)
        s.add(user)
        s.flush()
        user_id = user.id
    return Actor(user_id=user_id, username=username, full_name=full_name, roles=frozenset(roles))


def add_authorizations(db, count: int, first: int = 7) -> list[str]:
    """`count` active authorizations (0007/2026, 0008/2026…), none with a sticker printed yet."""
    from desktop.domain import local_today
    from desktop.models import Authorization, Driver, Vehicle
    today = local_today()
    numbers = []
    with db.session() as s:
        for i in range(count):
            cpf = CPFS[i] if i < len(CPFS) else f"{900000000 + i:09d}00"
            driver = Driver(cpf=cpf, name=f"Joana Araújo Conceição {i + 1}", cnh_number=f"0123456{i:04d}",
                            cnh_category="B", cnh_ear=True, address="Rua Cipriano Curvo, 100", district="Centro",
                            city="Chapada dos Guimarães", uf="MT")
            plate = (f"QAB{i % 10}D{i:02d}" if i < 100 else
                     f"QC{chr(65 + (i // 1000) % 26)}{(i // 100) % 10}D{i % 100:02d}")
            vehicle = Vehicle(plate=plate, renavam=f"00{123456000 + i:09d}", make="Chevrolet",
                              model="Onix 1.0", manufacture_year=2019, model_year=2020, colour="prata", doors=4,
                              seats=5, air_conditioning=True, registration_municipality="Chapada dos Guimarães",
                              registration_uf="MT")
            s.add_all([driver, vehicle])
            s.flush()
            number = f"{first + i:04d}/{today.year}"
            s.add(Authorization(number=number, driver_id=driver.id, vehicle_id=vehicle.id, status="active",
                                protocol_date=today - timedelta(days=40), fee_paid_on=today - timedelta(days=30),
                                activated_on=today - timedelta(days=25), valid_until=valid_until(),
                                valid_until_limited_by="term", inspection_approved_on=today - timedelta(days=25)))
            numbers.append(number)
    return numbers


@pytest.fixture
def clerk(db, admin) -> Actor:
    return make_user(db, "atendente", "Ana Souza", Role.ATENDENTE)


@pytest.fixture
def inspector(db, admin) -> Actor:
    return make_user(db, "vistoriador", "Vítor Vistoriador", Role.VISTORIADOR)


@pytest.fixture
def authorizations(db, admin) -> list[str]:
    return add_authorizations(db, 3)


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())


def shoot(widget, name: str) -> str:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    assert widget.grab().save(str(path)), path
    return str(path)


def wait_task(qtbot, task, timeout: int = 60000) -> None:
    assert task is not None
    qtbot.waitUntil(lambda: task.finished, timeout=timeout)
