"""Fixtures of the Fiscalização and Financeiro GUI tests (issue 6): a real SQLite database initialized through
`services.setup.initialize`, a fiscal and a gestor created through `services.users`, drivers, a platform and
vehicles written through the models (the register's own screens are another issue), and helpers that take an auto
through the real services (draw up, notify with proof, finalize after the defense term).

Test modules import what they use: `from enforcement_fixtures import *`.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time, timedelta

import pytest

from desktop.domain.roles import Role
from desktop.domain.text import fold

__all__ = ["people", "Register", "register", "static_lookups", "lookups", "draw_up", "make_final", "shoot",
           "SHOTS", "settle"]

SHOTS = "/tmp/shots/enforcement"


@dataclass(frozen=True)
class People:
    admin: object
    fiscal: object
    gestor: object
    atendente: object


@pytest.fixture
def people(db, admin) -> People:
    from desktop.services import users
    from desktop.services.actors import Actor

    def make(username, name, roles):
        # issue 28: who signs acts has an office and a matrícula (Lei 9.784/99, art. 22, §1º)
        info = users.create_user(db, admin, users.UserDraft(username, name, frozenset(roles), "senha-forte-2025",
                                                            office="Servidor(a) da Secretaria",
                                                            registration=f"M-{username}"))
        return Actor(info.id, info.username, info.full_name, frozenset(info.roles))

    return People(admin=admin,
                  fiscal=make("fabio.fiscal", "Fábio Fiscal", {Role.FISCAL}),
                  gestor=make("gisele.gestora", "Gisele Gestora", {Role.GESTOR}),
                  atendente=make("ana.atendente", "Ana Atendente", {Role.ATENDENTE}))


@dataclass(frozen=True)
class Register:
    joao: int          # driver João da Silva
    maria: int         # driver Maria Conceição
    platform: int      # platform Roda Fácil
    car: int           # vehicle QBC1D23
    names: dict        # id -> label, by kind


def _cpf(seed: int) -> str:
    """A CPF with correct check digits, built from nine digits."""
    base = [int(c) for c in f"{seed:09d}"]
    for size in (9, 10):
        total = sum(d * w for d, w in zip(base, range(size + 1, 1, -1)))
        digit = (total * 10) % 11
        base.append(0 if digit == 10 else digit)
    return "".join(map(str, base))


@pytest.fixture
def register(db, admin) -> Register:
    from desktop.models import Driver, Platform, Vehicle

    with db.session() as s:
        joao = Driver(cpf=_cpf(123456789), name="João da Silva", city="Chapada dos Guimarães", uf="MT",
                      status="active")
        maria = Driver(cpf=_cpf(987654321), name="Maria Conceição", city="Chapada dos Guimarães", uf="MT",
                       status="active")
        platform = Platform(cnpj="11222333000181", legal_name="Roda Fácil Tecnologia Ltda.",
                            trade_name="Roda Fácil", status="active")
        car = Vehicle(plate="QBC1D23", renavam="12345678901", make="Fiat", model="Cronos", manufacture_year=2022,
                      model_year=2023, doors=4, seats=5, air_conditioning=True,
                      registration_municipality="Chapada dos Guimarães", registration_uf="MT",
                      compulsory_insurance_paid=True, ownership_mode="own", status="active")
        s.add_all([joao, maria, platform, car])
        s.flush()
        ids = joao.id, maria.id, platform.id, car.id
    names = {"driver": {ids[0]: "João da Silva (CPF 123.456.789-09)", ids[1]: "Maria Conceição"},
             "platform": {ids[2]: "Roda Fácil (CNPJ 11.222.333/0001-81)"},
             "vehicle": {ids[3]: "QBC1D23 Fiat Cronos"}}
    return Register(*ids, names=names)


def static_lookups(register: Register):
    """Lookups over the fixture's records (accent- and case-insensitive, like the register's services)."""
    from desktop.views.enforcement.lookups import Lookups

    def searcher(kind):
        def search(text):
            return [(i, label) for i, label in register.names[kind].items() if fold(text) in fold(label)]
        return search

    return Lookups(drivers=searcher("driver"), platforms=searcher("platform"), vehicles=searcher("vehicle"))


@pytest.fixture
def lookups(register):
    return static_lookups(register)


def draw_up(db, fiscal, code: str, on: date, driver_id=None, platform_id=None, vehicle_id=None,
            art13_item=None, place="Praça Dom Wunibaldo, Centro", description="Constatado pelo agente."):
    from desktop.services import autos

    draft = autos.AutoDraft(on=on, at=time(10, 30), place=place, code=code, description=description,
                            driver_id=driver_id, platform_id=platform_id, vehicle_id=vehicle_id,
                            art13_item=art13_item)
    return autos.draw_up_auto(db, fiscal, draft)


def make_final(db, people: People, auto):
    """Notify with the proof joined the next day, then let the defense term pass without defense (Art. 22)."""
    from desktop.domain.penalties import NotificationForm
    from desktop.services.autos import process

    on = auto.drawn_up_at.date()
    notified = process.record_notification(
        db, people.fiscal, auto.id,
        process.NotificationDraft(addressee="driver" if auto.driver_id else "platform",
                                  form=NotificationForm.DIRECT, sent_on=on + timedelta(days=1),
                                  proof_joined_on=on + timedelta(days=1)),
        auto.version)
    return process.finalize(db, people.gestor, auto.id, notified.defense_deadline + timedelta(days=1),
                            notified.version)


def shoot(widget, name: str) -> str:
    """Save a picture of the widget for the eye (SPEC: look at every screen)."""
    import os

    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, name)
    assert widget.grab().save(path), path
    return path


def settle(qtbot) -> None:
    """Wait until the screens' background jobs (counts, totals, PDFs) delivered their results."""
    from desktop import background as tasks

    qtbot.waitUntil(lambda: not tasks._running, timeout=20000)
