"""Issue 11, attack 5: keep acting after being locked, deactivated or demoted. Every write transaction re-reads
the acting user (services.audit.check_live_actor): the open session is refused at once, nothing is written, and
the main window is told (listener) so it returns to the login."""
from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import func, select, update

from desktop.domain.roles import Role
from desktop.models import AuditEntry, Holiday, User, UserRole, now
from desktop.services import holidays
from desktop.services.actors import on_session_revoked, remove_session_listener, SessionRevoked


def _holidays(db) -> int:
    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(Holiday))


@pytest.fixture
def heard():
    calls = []

    def listener(actor, message):
        calls.append((actor.username, message))

    on_session_revoked(listener)
    yield calls
    remove_session_listener(listener)


def _change(db, user_id, **values):
    with db.session() as s:
        s.execute(update(User).where(User.id == user_id).values(**values))


@pytest.mark.parametrize("how, words", [
    ("deactivated", "desativado"),
    ("locked", "bloqueado"),
    ("demoted", "papéis foram alterados"),
])
def test_issue11_attack5_open_session_of_a_revoked_user_cannot_write(db, make_actor, heard, how, words):
    clerk = make_actor(Role.GESTOR, username="servidora")
    holidays.add_holiday(db, clerk, date(2026, 10, 15), "Aniversário do município")   # allowed while valid
    if how == "deactivated":
        _change(db, clerk.user_id, active=False)
    elif how == "locked":
        _change(db, clerk.user_id, locked_until=now() + timedelta(minutes=15))
    else:
        with db.session() as s:
            s.execute(UserRole.__table__.delete().where(UserRole.user_id == clerk.user_id))
            s.add(UserRole(user_id=clerk.user_id, role=Role.ATENDENTE.value))
    before_entries = _count_audit(db)
    with pytest.raises(SessionRevoked) as exc:
        holidays.add_holiday(db, clerk, date(2026, 11, 20), "Consciência Negra municipal")
    assert words in str(exc.value) and "nada foi gravado" in str(exc.value)
    assert _holidays(db) == 1 and _count_audit(db) == before_entries
    assert heard == [("servidora", str(exc.value))]


def test_issue11_attack5_an_expired_lock_and_extra_roles_in_the_database_do_not_refuse(db, make_actor, heard):
    clerk = make_actor(Role.GESTOR, username="servidor")
    _change(db, clerk.user_id, locked_until=now() - timedelta(minutes=1))
    with db.session() as s:
        s.add(UserRole(user_id=clerk.user_id, role=Role.FISCAL.value))
    holidays.add_holiday(db, clerk, date(2026, 10, 15), "Aniversário do município")
    assert _holidays(db) == 1 and heard == []


def _count_audit(db) -> int:
    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(AuditEntry))
