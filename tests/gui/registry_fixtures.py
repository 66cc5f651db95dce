"""Fixtures of the Cadastros and Autorizações GUI tests (issue 4): a real SQLite database initialized through
`services.setup.initialize`, desk users created through `services.users`, and helpers that write platforms,
drivers and vehicles through the real services (the screens under test read them back).

Test modules import what they use: `from registry_fixtures import *`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date, timedelta

import pytest

from desktop.domain.roles import Role

__all__ = ["staff", "Staff", "cpf", "cnpj", "renavam", "scan_png", "scan_pdf", "make_platform", "make_driver",
           "make_vehicle", "full_checklist", "shoot", "SHOTS", "today"]

SHOTS = "/tmp/shots/registry"


def today() -> date:
    from desktop.domain.dates import local_today

    return local_today()


def _dv(digits: list[int], weights: list[int]) -> int:
    rest = sum(d * w for d, w in zip(digits, weights)) % 11
    return 0 if rest < 2 else 11 - rest


def cpf(n: int) -> str:
    """A valid CPF (digits) built from a 9-digit base."""
    base = [int(c) for c in f"{n:09d}"]
    d1 = _dv(base, list(range(10, 1, -1)))
    d2 = _dv(base + [d1], list(range(11, 1, -1)))
    return "".join(map(str, base + [d1, d2]))


def cnpj(n: int) -> str:
    base = [int(c) for c in f"{n:08d}0001"]
    d1 = _dv(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    d2 = _dv(base + [d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    return "".join(map(str, base + [d1, d2]))


def renavam(n: int) -> str:
    base = f"{n:010d}"
    weights = [3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    total = sum(int(d) * w for d, w in zip(base, weights))
    dv = (total * 10) % 11
    return base + str(0 if dv == 10 else dv)


@dataclass(frozen=True)
class Staff:
    admin: object
    atendente: object
    gestor: object
    vistoriador: object
    fiscal: object
    clerk: object       # atendente + gestor + vistoriador: walks a whole request alone


@pytest.fixture
def staff(db, admin) -> Staff:
    from desktop.services import users
    from desktop.services.actors import Actor

    def make(username, name, roles):
        # issue 28: who signs acts has an office and a matrícula (Lei 9.784/99, art. 22, §1º)
        info = users.create_user(db, admin, users.UserDraft(username, name, frozenset(roles), "senha-forte-2025",
                                                            office=" e ".join(Role(r).label for r in roles),
                                                            registration=f"M-{username}"))
        return Actor(info.id, info.username, info.full_name, frozenset(info.roles))

    return Staff(admin=admin,
                 atendente=make("ana.atendente", "Ana Atendente", {Role.ATENDENTE}),
                 gestor=make("gisele.gestora", "Gisele Gestora", {Role.GESTOR}),
                 vistoriador=make("vitor.vistoriador", "Vítor Vistoriador", {Role.VISTORIADOR}),
                 fiscal=make("fabio.fiscal", "Fábio Fiscal", {Role.FISCAL}),
                 clerk=make("carla.balcao", "Carla Balcão", {Role.ATENDENTE, Role.GESTOR, Role.VISTORIADOR}))


def scan_png(tmp_path, name="scan.png") -> str:
    from PySide6.QtGui import QColor, QImage

    image = QImage(120, 80, QImage.Format.Format_RGB32)
    image.fill(QColor("#dfe8f0"))
    path = os.path.join(tmp_path, name)
    assert image.save(path, "PNG")
    return path


def scan_pdf(tmp_path, name="scan.pdf", text="Documento digitalizado") -> str:
    from reportlab.pdfgen import canvas

    path = os.path.join(tmp_path, name)
    page = canvas.Canvas(path)
    page.drawString(72, 720, text)
    page.save()
    return path


def make_platform(db, actor, n=1, name="Leva Já"):
    from desktop.services import platforms

    return platforms.create_platform(db, actor, platforms.PlatformDraft(
        cnpj=cnpj(11222333 + n), legal_name=f"{name} Tecnologia Ltda", trade_name=name,
        municipal_registration_number=f"IM-{n:04d}", municipal_registration_date=today() - timedelta(days=30),
        app_insurance_policy=f"APP-{n}", app_insurance_insurer="Seguradora Boa Viagem",
        app_insurance_valid_until=today() + timedelta(days=300)))


def full_checklist():
    """Every line of DRIVER_CHECKLIST presented and in force (Art. 12 I-IX, §1; Art. 8 §1 II)."""
    from desktop.domain.driver import DRIVER_CHECKLIST
    from desktop.services.drivers import ChecklistEntry

    return tuple(ChecklistEntry(item.key, True, number=f"N-{item.key}", issued_on=today() - timedelta(days=10),
                                expires_on=today() + timedelta(days=365) if item.has_expiry else None)
                 for item in DRIVER_CHECKLIST)


def make_driver(db, actor, n=1, name="João da Silva", complete=True, platform_ids=()):
    from desktop.demo.photos import photo_for
    from desktop.services import drivers

    return drivers.register_driver(db, actor, drivers.DriverDraft(
        cpf=cpf(100000000 + n), name=name, birth_date=date(1985, 5, 17), address="Rua das Palmeiras, 10",
        district="Centro", city="Chapada dos Guimarães", uf="MT", zip_code="78195000", phone="(65) 99999-1234",
        cnh_number="02650306461" if n == 1 else None, cnh_category="B", cnh_expiry=today() + timedelta(days=700),
        cnh_ear=True, checklist=full_checklist() if complete else (), platform_ids=tuple(platform_ids),
        photo=photo_for(n), photo_mime="image/png"))     # the desk registers with the photo (Art. 13, I)


def make_vehicle(db, actor, n=1, plate=None, year=None, mode="own", lessor=None):
    from desktop.services import vehicles

    return vehicles.register_vehicle(db, actor, vehicles.VehicleDraft(
        plate=plate or f"QBA{n % 10}C{n % 100:02d}", renavam=renavam(1234500 + n), make="Chevrolet",
        model="Onix Plus", manufacture_year=year or today().year - 2, model_year=year or today().year - 2,
        doors=4, seats=5, air_conditioning=True, registration_municipality="Chapada dos Guimarães",
        registration_uf="MT", colour="Prata", crlv_year=today().year, compulsory_insurance_paid=True,
        ownership_mode=mode, lessor=lessor))


def shoot(widget, name: str) -> str:
    """Save a screenshot for the eye (offscreen grab) under /tmp/shots/registry."""
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, f"{name}.png")
    widget.grab().save(path)
    return path
