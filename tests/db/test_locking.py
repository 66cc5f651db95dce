"""Optimistic locking (SPEC §4: two desks editing the same record — the second save is refused with a clear
message and nothing is overwritten silently)."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from desktop.errors import StaleRecordError
from desktop.models import Base, Driver, Versioned
from desktop.services.locking import check_version


def _driver(db) -> int:
    with db.session() as s:
        d = Driver(cpf="52998224725", name="José Ribeiro", cnh_category="B", cnh_ear=True)
        s.add(d)
        s.flush()
        return d.id


def test_spec4_second_desk_saving_a_stale_copy_is_refused(db):
    driver_id = _driver(db)
    # Two desks open the same driver.
    with db.session(write=False) as s:
        desk_a = s.get(Driver, driver_id)
    with db.session(write=False) as s:
        desk_b = s.get(Driver, driver_id)
    assert desk_a.version == desk_b.version == 1
    # Desk A saves first.
    with db.session() as s:
        d = s.merge(desk_a, load=False)
        d.phone = "(65) 99999-0001"
    # Desk B saves its old copy: refused by the UPDATE ... WHERE version = 1.
    with pytest.raises(StaleRecordError, match="alterado por outro usuário"):
        with db.session() as s:
            d = s.merge(desk_b, load=False)
            d.phone = "(65) 98888-0002"
    with db.session(write=False) as s:
        d = s.get(Driver, driver_id)
        assert d.phone == "(65) 99999-0001"
        assert d.version == 2


def test_spec4_check_version_refuses_the_version_the_screen_loaded_before(db):
    driver_id = _driver(db)
    with db.session() as s:
        s.get(Driver, driver_id).email = "jose@example.com"
    with pytest.raises(StaleRecordError):
        with db.session() as s:
            d = s.get(Driver, driver_id)
            check_version(d, 1)
            d.email = "outro@example.com"
    with db.session(write=False) as s:
        assert s.get(Driver, driver_id).email == "jose@example.com"


def test_every_editable_record_is_versioned():
    """The records that screens edit carry version_id_col; append-only ones (ledger, audit, events, documents,
    parameters, trips, list imports) are never updated, so they need none."""
    append_only = {"ledger_entries", "audit_entries", "authorization_events", "documents", "parameters",
                   "trip_rows", "platform_lists", "number_sequences", "user_roles",
                   # second wave: records only ever added (payments of fees and the bank's files, issue 12 item 6
                   # and issue 13; dated ISSQN decisions; trip imports, points, evidence and the access log)
                   "fee_payments", "bank_return_files", "vehicle_issqn_classes", "issqn_platform_designations",
                   "trip_imports", "trip_route_points", "auto_trip_evidence", "trip_access_log"}
    # written by a use case that re-reads them inside its own transaction, never saved from a screen's copy:
    # the shares of an ISSQN guide (run, cancel, substitute) and the monthly fare totals of the trip import.
    # Every write transaction is serialized (BEGIN IMMEDIATE; the audit lock first on PostgreSQL, issue 12
    # item 19), so no two desks interleave their read and write.
    append_only |= {"issqn_shares", "trip_fare_totals",
                    "dispatch_batches",   # the day's post: its archived PDF's id set in the same use case (issue 26)
                    # a payment the bank's file matched to no guide: re-read FOR UPDATE and moved once by the
                    # status machine (open → assigned | returned), so a second gestor's move is refused (issue 23)
                    "unreconciled_payments"}
    for mapper in Base.registry.mappers:
        table = mapper.local_table.name
        if table in append_only:
            continue
        assert issubclass(mapper.class_, Versioned), table
        assert mapper.version_id_col is not None, table
        assert mapper.version_id_col.name == "version", table


# --- services.base: roles are enforced in the service layer (SPEC §4) ---------------------------------------

from desktop.domain.roles import Role  # noqa: E402
from desktop.errors import PermissionDenied  # noqa: E402
from desktop.services.actors import Actor, SYSTEM_ACTOR  # noqa: E402
from desktop.services.permissions import require_role  # noqa: E402


def test_spec4_a_clerk_is_refused_a_gestor_only_action(make_actor):
    clerk = make_actor(Role.ATENDENTE)
    with pytest.raises(PermissionDenied) as refused:
        require_role(clerk, Role.GESTOR)
    assert str(refused.value) == "Permissão negada: esta ação exige o papel Gestor."
    with pytest.raises(PermissionDenied, match="exige um dos papéis Gestor ou Administrador"):
        require_role(clerk, Role.GESTOR, Role.ADMINISTRADOR)


def test_spec1_a_user_may_hold_several_roles(make_actor):
    both = make_actor(Role.FISCAL, Role.GESTOR)
    require_role(both, Role.GESTOR)
    require_role(both, Role.FISCAL)
    assert both.has(Role.VISTORIADOR, Role.FISCAL)
    assert not both.has(Role.ADMINISTRADOR)
    # administrador does not imply gestor (docs/contracts.md)
    admin = Actor(1, "adm", "Adm", frozenset({Role.ADMINISTRADOR}))
    with pytest.raises(PermissionDenied):
        require_role(admin, Role.GESTOR)


def test_system_actor_runs_automatic_jobs():
    assert SYSTEM_ACTOR.user_id is None
    require_role(SYSTEM_ACTOR, Role.GESTOR)


def test_user_roles_are_stored_and_a_role_change_moves_the_version(db, make_actor):
    from desktop.models import User

    actor = make_actor(Role.ATENDENTE, Role.VISTORIADOR)
    with db.session() as s:
        user = s.get(User, actor.user_id)
        assert user.roles == {Role.ATENDENTE, Role.VISTORIADOR}
        assert user.version == 1
        user.set_roles({Role.GESTOR})
    with db.session(write=False) as s:
        user = s.get(User, actor.user_id)
        assert user.roles == {Role.GESTOR}
        assert user.version == 2


def test_nested_write_session_fails_at_once_on_both_databases(db):
    """SQLite: the outer session holds the only write lock. PostgreSQL (issue 12 item 19): the outer session holds
    the audit chain's lock from its start, so an inner write session would wait for it forever."""
    from datetime import date

    from desktop.models import Holiday

    with pytest.raises(RuntimeError, match="Sessão de escrita aberta dentro de outra"):
        with db.session():
            with db.session():
                raise AssertionError("a segunda sessão de escrita não deveria abrir")
    # A read inside a write session is fine on both, and the flag is reset after an error.
    with db.session() as s:
        with db.session(write=False) as r:
            assert r.scalars(select(Driver)).all() == []
        s.add(Holiday(day=date(2026, 1, 2), name="Ponto facultativo"))
    with db.session(write=False) as s:
        assert len(s.scalars(select(Holiday)).all()) == 1


def test_a_database_kept_busy_too_long_gives_a_portuguese_message():
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from desktop.errors import DesktopError
    from desktop.errors import map_db_error, translate_db_errors

    busy = OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked"))
    mapped = map_db_error(busy)
    assert isinstance(mapped, DesktopError)
    assert "ocupado" in str(mapped)
    with pytest.raises(DesktopError, match="ocupado") as raised:
        with translate_db_errors():
            raise busy
    assert raised.value.__cause__ is busy
    with pytest.raises(KeyError):
        with translate_db_errors():
            raise KeyError("não é erro de banco")


def test_sqlite_write_session_takes_the_write_lock_at_begin_and_readers_are_not_blocked(tmp_path):
    """Two desks writing at once queue at BEGIN IMMEDIATE instead of failing half-way (SPEC §1: one shared
    database; issue 2: SQLite busy timeout and WAL)."""
    import sqlite3

    from sqlalchemy import func

    from desktop.db import sqlite_url
    from desktop.migrate import open_database

    path = tmp_path / "t.sqlite3"
    database = open_database(sqlite_url(path))
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with database.session() as s:
            s.scalar(select(func.count()).select_from(Driver))  # only a read, but a write session
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
            # WAL: another desk can still read.
            assert other.execute("SELECT count(*) FROM drivers").fetchone() == (0,)
        with database.session(write=False) as s:
            s.scalar(select(func.count()).select_from(Driver))
            other.execute("BEGIN IMMEDIATE")  # a read session leaves the write lock free
            other.execute("ROLLBACK")
    finally:
        other.close()
        database.dispose()
