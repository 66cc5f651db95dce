"""The guarded entry of the demonstration data (the setup wizard and `python -m desktop demo` call it).

`load_demo(db, drivers=N, seed=S, progress=None, force=False)` — one transaction, one audit entry, every status;
`progress(done, total, text)` receives the phase being written.

Demo is demo (issue 11): the data set is loaded only into a database that holds no records of its own (a new
one, or one just set up) or one already marked as a demonstration; `force` (add another data set beside the
first) only applies to a database marked as demo. Before loading, the database is marked (`database_marks`,
key `demo`, through `desktop.services.demo`): the window title and status bar say DEMONSTRAÇÃO and every PDF
printed from it carries "DEMONSTRAÇÃO — SEM VALOR LEGAL". The staff accounts the loader creates with the published
password must change it at their first login.

The demo is a client of the services (docs/architecture.md, room order): it lives above them, and no service
imports it.
"""
from __future__ import annotations

from sqlalchemy import select, update

from desktop.demo.loader import ADMIN_PASSWORD, ADMIN_USERNAME, DEMO_PASSWORD, STAFF, DemoSummary
from desktop.demo.loader import load_demo as _load_demo_data
from desktop.domain.dates import local_today
from desktop.errors import ConflictError
from desktop.models import User
from desktop.services import data_requests, platform_lists
from desktop.services.auth import verify_password
from desktop.services.actors import SYSTEM_ACTOR
from desktop.services.demo import is_demo_db, mark_demo, own_records, unmark_demo

__all__ = ["load_demo", "DemoSummary", "DEMO_PASSWORD", "ADMIN_USERNAME", "ADMIN_PASSWORD", "STAFF"]


def _published_passwords_must_change(db) -> list[str]:
    """Every demo account still holding the published password must change it at first login."""
    names = [u for u, _, _ in STAFF] + [ADMIN_USERNAME, "admin.demo"]
    published = (DEMO_PASSWORD, ADMIN_PASSWORD)
    flagged: list[str] = []
    with db.session() as s:
        for user in s.scalars(select(User).where(User.username.in_(names))):
            if any(verify_password(user.password_hash, p) for p in published):
                flagged.append(user.username)
        if flagged:
            s.execute(update(User).where(User.username.in_(flagged)).values(must_change_password=True)
                      .execution_options(synchronize_session=False))
    return flagged


def load_demo(db, drivers: int = 1000, seed: int = 2025, progress=None, force: bool = False, today=None
              ) -> DemoSummary:
    """Load the demonstration data into a database with no records of its own, or one marked as demo.
    `ConflictError` (nothing written) for a real database, with or without `force`."""
    if db.is_postgresql and not db.runs_as_table_owner():
        # issue 25 item 10: through the desks' application role the load failed half-way (InsufficientPrivilege)
        # with the municipality and the administrator already committed; refused before anything is written
        raise ConflictError(
            "Os dados de demonstração só podem ser carregados conectado como o papel dono do banco (o que roda "
            "`migrate`), não com o usuário das estações: use a URL do papel dono, num banco separado para a "
            "demonstração. Nada foi gravado.")
    marked = is_demo_db(db)
    if not marked:
        found = own_records(db)
        if found:
            listed = ", ".join(f"{n} {label}" for label, n in found.items())
            raise ConflictError(
                f"Este banco tem registros próprios ({listed}) e não é um banco de demonstração: os dados de "
                "demonstração não foram carregados (nem com --force). Use um banco novo para a demonstração.")
        mark_demo(db, f"semente {seed}, {drivers} condutores")
    try:
        summary = _load_demo_data(db, drivers=drivers, seed=seed, progress=progress, force=force and marked,
                                  today=today)
    except BaseException:
        if not marked and not own_records(db):
            unmark_demo(db)
        raise
    _platform_records(db, today)
    _trip_records(db, today, seed)
    _published_passwords_must_change(db)
    return summary


def _trip_records(db, today=None, seed: int = 2025) -> None:
    """Issue 15 in the demo: a month of trips for the active platforms, with street hails, trips without an
    authorization and route points (desktop.demo.trips, through the real import)."""
    from desktop.demo.trips import make_demo_trips  # lazy: pandas and the trip import load only when a demo is made

    make_demo_trips(db, today or local_today(), seed)


def _platform_records(db, today=None) -> None:
    """Issue 14 in the demo: 60-day lists on time, late and overdue carrying each kind of discrepancy, and data
    requests answered, open and late (Art. 4, 5 VIII), made through the Plataformas services after the load."""
    with db.session() as s:
        platform_lists.make_demo_lists_in(s, SYSTEM_ACTOR, today)
        data_requests.make_demo_data_requests_in(s, SYSTEM_ACTOR)
