"""Finding the infractor and the vehicle of an auto by typing (Art. 22: the driver and/or the platform).

Each lookup is `search(text) -> [(id, label), ...]` over the register's list services (issue 4), which fold
accents and case ("joao" finds "João") and answer with an indexed prefix query. The auto form receives a
`Lookups`; tests may pass their own.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from desktop.services import drivers as service

Search = Callable[[str], Sequence[tuple[int, str]]]
VehicleDriver = Callable[[int], "tuple[int, str] | None"]
LIMIT = 30


@dataclass(frozen=True)
class Lookups:
    drivers: Search
    platforms: Search
    vehicles: Search
    # (driver id, label) of the live authorization of a vehicle the `vehicles` search found; None: no driver
    vehicle_driver: VehicleDriver | None = None


def driver_label(row) -> str:
    authorization = f" — autorização {row.authorization_number}" if getattr(row, "authorization_number", None) \
        else ""
    return f"{row.name} (CPF {row.cpf_display}){authorization}"


def platform_label(row) -> str:
    return f"{row.trade_name} (CNPJ {row.cnpj_display})"


def vehicle_label(row) -> str:
    driver = f" — {row.driver_name}" if getattr(row, "driver_name", None) else ""
    return f"{row.plate_display} {row.make_model}{driver}"


def service_lookups(db, actor) -> Lookups:
    """The register's own list services (`services.drivers/platforms/vehicles`)."""

    def drivers(text: str):

        return [(row.id, driver_label(row)) for row in service.list_drivers(db, actor, text=text, limit=LIMIT).rows]

    def platforms(text: str):
        from desktop.services import platforms as service  # local: its name stands for something else at module level

        return [(row.id, platform_label(row))
                for row in service.list_platforms(db, actor, text=text, limit=LIMIT).rows]

    found: dict[int, object] = {}   # the vehicle rows last found, for their drivers

    def vehicles(text: str):
        from desktop.services import vehicles as service  # local: its name stands for something else at module level

        rows = service.list_vehicles(db, actor, text=text, limit=LIMIT).rows
        found.update((row.id, row) for row in rows)
        return [(row.id, vehicle_label(row)) for row in rows]

    def vehicle_driver(vehicle_id: int):
        row = found.get(vehicle_id)
        if row is None or getattr(row, "driver_id", None) is None:
            return None
        authorization = f" — autorização {row.authorization_number}" if row.authorization_number else ""
        return row.driver_id, f"{row.driver_name}{authorization}"

    return Lookups(drivers=drivers, platforms=platforms, vehicles=vehicles, vehicle_driver=vehicle_driver)
