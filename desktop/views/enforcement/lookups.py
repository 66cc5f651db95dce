"""Finding the infractor and the vehicle of an auto by typing (Art. 22: the driver and/or the platform).

Each lookup is `search(text) -> [(id, label), ...]` over the register's list services (issue 4), which fold
accents and case ("joao" finds "João") and answer with an indexed prefix query. The auto form receives a
`Lookups`; tests may pass their own.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

Search = Callable[[str], Sequence[tuple[int, str]]]
LIMIT = 30


@dataclass(frozen=True)
class Lookups:
    drivers: Search
    platforms: Search
    vehicles: Search


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
        from desktop.services import drivers as service

        return [(row.id, driver_label(row)) for row in service.list_drivers(db, actor, text=text, limit=LIMIT).rows]

    def platforms(text: str):
        from desktop.services import platforms as service

        return [(row.id, platform_label(row))
                for row in service.list_platforms(db, actor, text=text, limit=LIMIT).rows]

    def vehicles(text: str):
        from desktop.services import vehicles as service

        return [(row.id, vehicle_label(row))
                for row in service.list_vehicles(db, actor, text=text, limit=LIMIT).rows]

    return Lookups(drivers=drivers, platforms=platforms, vehicles=vehicles)
