"""A small municipality for the ISSQN tests (issue 13, Art. 11), written straight as rows: two platforms, drivers
and vehicles with authorizations active since September 2026 (their events), the rate of 3 % and two classes.
The clock of the suite is Wed 18/11/2026."""
from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal

from desktop.domain.formatting import TIMEZONE
from desktop.models import (
    Authorization,
    AuthorizationEvent,
    Driver,
    DriverPlatform,
    Platform,
    Vehicle,
)
from desktop.services import issqn, parameters
from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize

CPFS = ("52998224725", "11144477735", "39053344705", "86288366757", "71428793860")
PLATES = ("QAB1D23", "QAB2C02", "QAB3C03", "QAB4C04", "QAB5C05")


def at(d: date) -> datetime:
    return datetime.combine(d, time(9, 0), tzinfo=TIMEZONE)


class World:
    def __init__(self, db, gestor, platforms, vehicles, drivers, auths, classes):
        self.db, self.gestor = db, gestor
        self.platforms, self.vehicles, self.drivers, self.auths = platforms, vehicles, drivers, auths
        self.classes = classes


def build_world(db, *, rate: str | None = "3", febraban: str | None = "0123", n: int = 4,
                active_from: date = date(2026, 9, 1)) -> World:
    gestor = initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55"),
        febraban_agreement=febraban), AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))
    platforms, vehicles, drivers, auths = [], [], [], []
    with db.session() as s:
        for cnpj, legal, trade in (("11222333000181", "Mobilidade Chapada Ltda", "Vai Já"),
                                   ("45723174000110", "Rota Serra Transportes S.A.", "Rota Serra")):
            p = Platform(cnpj=cnpj, legal_name=legal, trade_name=trade, status="active", address="Av. Central, 1")
            s.add(p)
            s.flush()
            platforms.append(p.id)
        for i in range(n):
            d = Driver(cpf=CPFS[i], name=f"Condutor {'ABCDE'[i]} da Silva", cnh_number=f"0123456789{i}",
                       cnh_category="B", cnh_ear=True, address="Rua Cipriano Curvo, 100", district="Centro",
                       city="Chapada dos Guimarães", uf="MT")
            v = Vehicle(plate=PLATES[i], renavam=f"0012345678{i}", make="Chevrolet", model="Onix 1.0",
                        manufacture_year=2020, model_year=2021, colour="prata", doors=4, seats=5,
                        air_conditioning=True, registration_municipality="Chapada dos Guimarães",
                        registration_uf="MT")
            s.add_all([d, v])
            s.flush()
            a = Authorization(number=f"{i + 1:04d}/2026", driver_id=d.id, vehicle_id=v.id, status="active",
                              protocol_date=date(2026, 8, 1), fee_paid_on=active_from, activated_on=active_from,
                              valid_until=date(2027, 8, 31), valid_until_limited_by="term")
            s.add(a)
            s.flush()
            s.add(AuthorizationEvent(authorization_id=a.id, kind="activation", from_status="approved",
                                     to_status="active", at=at(active_from), effective_on=active_from))
            drivers.append(d.id)
            vehicles.append(v.id)
            auths.append(a.id)
        # driver 0 drives for both platforms, the others for the first only
        s.add(DriverPlatform(driver_id=drivers[0], platform_id=platforms[0]))
        s.add(DriverPlatform(driver_id=drivers[0], platform_id=platforms[1]))
        for d in drivers[1:]:
            s.add(DriverPlatform(driver_id=d, platform_id=platforms[0]))
    if rate is not None:
        parameters.set_parameter(db, gestor, "issqn_rate_percent", date(2026, 1, 1), rate, "CTM, art. 50")
    full = issqn.create_class(db, gestor, "INTEGRAL", "Dedicação integral", Decimal("3000.00"), date(2026, 1, 1))
    part = issqn.create_class(db, gestor, "PARCIAL", "Dedicação parcial", "1.000,01", date(2026, 1, 1))
    return World(db, gestor, platforms, vehicles, drivers, auths, {"INTEGRAL": full, "PARCIAL": part})


def classify(world: World, index: int, code: str = "INTEGRAL", valid_from: date = date(2026, 1, 1)):
    return issqn.decide_vehicle_class(world.db, world.gestor, world.vehicles[index], world.classes[code].id,
                                      valid_from, "Enquadramento inicial pela declaração do condutor")


def move(db, auth_id: int, on: date, to_status: str, kind: str = "status"):
    with db.session() as s:
        a = s.get(Authorization, auth_id)
        s.add(AuthorizationEvent(authorization_id=auth_id, kind=kind, from_status=a.status, to_status=to_status,
                                 at=at(on), effective_on=on))
        a.status = to_status
