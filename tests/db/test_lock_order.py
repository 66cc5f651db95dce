"""Issue 12 item 19: one lock order everywhere, and a transaction lost to another desk runs again once.

On PostgreSQL drawing up an auto used to lock the authorization row (the auto's foreign key) and then wait for
the audit chain's advisory lock, while recording the fee of the same authorization held the advisory lock and
needed the row: a deadlock, and the clerk's payment was lost with a raw English error. Now every write
transaction takes the audit chain's lock first (`Database.session`), so the two queue up; and
`desktop.db.retrying` runs once more a call whose transaction the database gave up on (deadlock 40P01,
serialization 40001, SQLite busy) before it committed anything.
"""
from __future__ import annotations

import threading
import time
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import event, select, text
from sqlalchemy.exc import OperationalError

from desktop.db import AUDIT_LOCK_HELD, retries_in_this_thread, retrying
from desktop.domain.roles import Role
from desktop.errors import TransientDatabaseError
from desktop.models import Authorization, Auto, Driver
from desktop.services import authorizations as auth
from desktop.services import autos
from desktop.services.audit import verify
from desktop.errors import BUSY_MESSAGE, DEADLOCK_MESSAGE, map_db_error, translate_db_errors
from tests.db.enforcement_factories import draft, setup_upfm
from tests.db.registry_factories import TODAY, approved, desk  # noqa: F401 (fixture)


def _ready_for_fee(db, desk):
    a = approved(db, desk, protocol_date=TODAY - timedelta(days=3))
    return auth.record_inspection_result(db, desk.inspector, a.id, True, on=TODAY - timedelta(days=2),
                                         expected_version=a.version)


def _pause_after(db, marker: str, seconds: float, started: threading.Event):
    """Make the thread that first runs a statement containing `marker` stop right after it for `seconds` (it
    then holds whatever that statement locked), and tell the test it got there."""
    fired = threading.Event()

    @event.listens_for(db.engine, "after_cursor_execute")
    def _pause(conn, cursor, statement, params, context, executemany):
        if marker in statement and not fired.is_set():
            fired.set()
            started.set()
            time.sleep(seconds)   # the subject of the test: a desk holding its locks while the other one comes

    return _pause


@pytest.mark.parametrize("first", ["auto", "fee"])
def test_item19_auto_and_fee_of_one_authorization_at_once_both_succeed(db, desk, make_actor, first):
    """Two desks, the two operations of the issue, in both orders: the one that starts first stops half-way
    (holding the locks its statements took) while the other starts; both must be saved."""
    setup_upfm(db)
    fiscal = make_actor(Role.FISCAL, full_name="Fiscal Ana Souza")
    a = _ready_for_fee(db, desk)
    results: dict[str, object] = {}
    started = threading.Event()
    marker = "INSERT INTO autos" if first == "auto" else "UPDATE authorizations"
    listener = _pause_after(db, marker, 0.6, started)

    def do_auto():
        try:
            results["auto"] = autos.draw_up_auto(
                db, fiscal, draft("ART26-I", TODAY - timedelta(days=1), driver_id=a.driver_id))
        except Exception as exc:  # noqa: BLE001 — the assertion below shows it
            results["auto"] = exc

    def do_fee():
        try:
            results["fee"] = auth.record_fee_payment(db, desk.clerk, a.id, TODAY - timedelta(days=1), "G-19-1",
                                                     Decimal("150.00"), a.version)
        except Exception as exc:  # noqa: BLE001
            results["fee"] = exc

    one, other = (do_auto, do_fee) if first == "auto" else (do_fee, do_auto)
    t1 = threading.Thread(target=one)
    t1.start()
    assert started.wait(20)
    t2 = threading.Thread(target=other)
    t2.start()
    t1.join(40)
    t2.join(40)
    event.remove(db.engine, "after_cursor_execute", listener)
    assert not isinstance(results["auto"], Exception), results["auto"]
    assert not isinstance(results["fee"], Exception), results["fee"]
    with db.session(write=False) as s:
        row = s.get(Authorization, a.id)
        assert row.fee_guide_number == "G-19-1"
        assert s.scalar(select(Auto.id).where(Auto.infractor_driver_id == a.driver_id)) is not None
    assert verify(db).ok


def test_item19_every_write_transaction_on_postgresql_holds_the_audit_lock_from_its_start(db):
    with db.session() as s:
        held = s.info.get(AUDIT_LOCK_HELD, False)
        if db.is_postgresql:
            locks = s.execute(text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                                   "AND pid = pg_backend_pid()")).scalar()
            assert held and locks == 1
        else:
            assert not held  # SQLite: BEGIN IMMEDIATE is the one lock
    with db.session(write=False) as s:
        assert not s.info.get(AUDIT_LOCK_HELD, False)


def test_item19_a_nested_write_session_is_refused_at_once_on_both_databases(db):
    with db.session():
        with pytest.raises(RuntimeError, match="dentro de outra"):
            with db.session():
                pass


def _deadlock_error() -> OperationalError:
    class Orig(Exception):
        sqlstate = "40P01"

    return OperationalError("UPDATE drivers ...", {}, Orig("deadlock detected"))


def test_item19_database_refusals_of_contention_are_transient_and_portuguese():
    deadlock = map_db_error(_deadlock_error())
    assert isinstance(deadlock, TransientDatabaseError) and str(deadlock) == DEADLOCK_MESSAGE

    class Busy(Exception):
        pass

    busy = map_db_error(OperationalError("INSERT ...", {}, Busy("database is locked")))
    assert isinstance(busy, TransientDatabaseError) and str(busy) == BUSY_MESSAGE

    class Serial(Exception):
        sqlstate = "40001"

    assert isinstance(map_db_error(OperationalError("x", {}, Serial("could not serialize access"))),
                      TransientDatabaseError)


def test_item19_a_call_lost_to_a_deadlock_runs_once_more_in_a_new_transaction(db):
    """`retrying` reruns the whole outer form (a new transaction); the first attempt left nothing behind."""
    attempts = []

    def save_driver():
        with db.session() as s:
            s.add(Driver(cpf=f"5299822472{len(attempts)}", name="José Ribeiro", cnh_category="B", cnh_ear=True))
            s.flush()
            attempts.append(1)
            if len(attempts) == 1:
                raise map_db_error(_deadlock_error())
        return len(attempts)

    before = retries_in_this_thread()
    assert retrying(save_driver) == 2
    assert retries_in_this_thread() == before + 1
    with db.session(write=False) as s:
        assert s.scalars(select(Driver.cpf)).all() == ["52998224721"]


def test_item19_a_call_that_committed_something_is_not_repeated(db):
    calls = []

    def two_transactions():
        calls.append(1)
        with db.session() as s:
            s.add(Driver(cpf=f"1111111111{len(calls)}", name="Primeiro", cnh_category="B", cnh_ear=True))
        with db.session():
            raise map_db_error(_deadlock_error())

    with pytest.raises(TransientDatabaseError):
        retrying(two_transactions)
    assert calls == [1]


def test_item19_a_real_deadlock_between_two_desks_is_retried_and_both_save(db):
    """Two rows locked in opposite orders on plain connections (the shape of the first wave's bug, forced):
    PostgreSQL kills one transaction with 40P01, which comes out as TransientDatabaseError; `retrying` runs it
    again and both writes are there. On SQLite the second desk waits for the first (BEGIN IMMEDIATE)."""
    with db.session() as s:
        s.add_all([Driver(cpf="52998224725", name="A", cnh_category="B", cnh_ear=True),
                   Driver(cpf="11144477735", name="B", cnh_category="B", cnh_ear=True)])
    barrier = threading.Barrier(2, timeout=5)
    outcome: dict[str, object] = {}
    lock = " FOR UPDATE" if db.is_postgresql else ""

    def desk_run(name, first, second):
        attempts: list = []

        def work():
            attempts.append(1)
            with translate_db_errors(), db.engine.begin() as conn:
                conn.execute(text(f"SELECT id FROM drivers WHERE cpf = :c{lock}"), {"c": first})
                if len(attempts) == 1:
                    try:
                        barrier.wait()
                    except threading.BrokenBarrierError:   # SQLite: the other desk waits at BEGIN IMMEDIATE
                        pass
                conn.execute(text(f"SELECT id FROM drivers WHERE cpf = :c{lock}"), {"c": second})
                conn.execute(text("UPDATE drivers SET phone = :p WHERE cpf = :c"), {"p": name, "c": second})

        try:
            retrying(work)
            outcome[name] = len(attempts)
        except Exception as exc:  # noqa: BLE001 — the assertion shows it
            outcome[name] = exc

    threads = [threading.Thread(target=desk_run, args=("a", "52998224725", "11144477735")),
               threading.Thread(target=desk_run, args=("b", "11144477735", "52998224725"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert isinstance(outcome.get("a"), int) and isinstance(outcome.get("b"), int), outcome
    if db.is_postgresql:
        assert outcome["a"] + outcome["b"] == 3  # PostgreSQL killed one of them, which ran once more
    with db.session(write=False) as s:
        assert sorted(s.scalars(select(Driver.phone)).all()) == ["a", "b"]
