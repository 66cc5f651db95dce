"""The names of what a write changes, for the app-wide change bus (STYLE: Anki's `OpChanges`).

After a write a screen announces what changed — `op(...).changes(Entity.DRIVERS)` or
`bus.data_changed.emit(Entity.DRIVERS)` — and every open screen that shows it reloads (`desktop.signals`). The
names are this enum, not strings typed by hand: a name nothing emits cannot be listened for, and a typo is an
error at once (`Entity("motorista")` raises). The values are the strings the bus always carried, so a listener
comparing `entity in LISTENS` works whether the signal hands it the member or its text.
"""
from __future__ import annotations

from enum import StrEnum


class Entity(StrEnum):
    AUTHORIZATIONS = "authorizations"
    AUTOS = "autos"
    CATALOG = "catalog"                  # the infraction codes (law and decree)
    CHANGES = "changes"                  # change communications (Art. 13, XVIII)
    COURSES = "courses"
    DATA_REQUEST = "data_request"
    DEMO = "demo"                        # the demonstration was loaded: everything changed
    DISPATCHES = "dispatches"            # the correspondence desk's register (Art. 22, §1-§2)
    DOCUMENTS = "documents"              # documents attached to a record
    DRIVERS = "drivers"
    GUIDES = "guides"
    HOLIDAYS = "holidays"
    INSPECTIONS = "inspections"
    ISSQN = "issqn"
    ISSUED_DOCUMENT = "issued_document"  # a document numbered and archived
    LEDGER = "ledger"
    MUNICIPALITY = "municipality"
    PARAMETERS = "parameters"
    PLATFORM_LIST = "platform_list"
    PLATFORMS = "platforms"
    SETUP = "setup"                      # the first-run wizard finished
    TRIPS = "trips"
    USERS = "users"
    VEHICLES = "vehicles"


def entities(*names: str | Entity) -> frozenset[Entity]:
    """The entities named, as a set a screen listens for; an unknown name raises ValueError."""
    return frozenset(Entity(name) for name in names)
