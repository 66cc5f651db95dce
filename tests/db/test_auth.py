"""Log in (issue 2; SPEC §4): Argon2, 5 wrong passwords lock for 15 minutes, the administrador unlocks."""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from desktop.domain.roles import Role
from desktop.errors import AccountLocked, AuthenticationError, PermissionDenied, ValidationError
from desktop.models import AuditEntry
from desktop.services import audit, auth, users

TZ = ZoneInfo("America/Cuiaba")
T0 = datetime(2026, 11, 30, 9, 0, tzinfo=TZ)


@pytest.fixture
def clerk(db, admin_actor):
    users.create_user(db, admin_actor, users.UserDraft("clara", "Clara Nunes", frozenset({Role.ATENDENTE}),
                                                       "senha-da-clara"))
    return admin_actor


def _actions(db) -> list[str]:
    with db.session(write=False) as s:
        return list(s.scalars(select(AuditEntry.action).order_by(AuditEntry.id)))


def test_login_returns_actor_with_roles(db, clerk):
    actor = auth.login(db, "  CLARA ", "senha-da-clara", now=T0)
    assert actor.username == "clara" and actor.roles == frozenset({Role.ATENDENTE})
    assert users.find_user(db, "clara").last_login_at == T0
    assert _actions(db)[-1] == "login.success"


def test_fifth_wrong_password_locks_for_15_minutes_then_admin_unlocks(db, clerk):
    for k in range(4):
        with pytest.raises(AuthenticationError) as exc:
            auth.login(db, "clara", "errada", now=T0 + timedelta(minutes=k))
        assert not isinstance(exc.value, AccountLocked)
        assert f"Restam {4 - k}" in str(exc.value)
    with pytest.raises(AccountLocked) as exc:
        auth.login(db, "clara", "errada", now=T0 + timedelta(minutes=4))
    until = T0 + timedelta(minutes=4 + 15)
    assert exc.value.until == until
    assert "30/11/2026 09:19" in str(exc.value)            # dd/mm/aaaa HH:MM, America/Cuiaba
    # Even the right password is refused while locked.
    with pytest.raises(AccountLocked):
        auth.login(db, "clara", "senha-da-clara", now=T0 + timedelta(minutes=10))
    info = users.find_user(db, "clara")
    assert info.failed_logins == 5 and info.locked_until == until
    users.unlock_user(db, clerk, info.id)
    assert auth.login(db, "clara", "senha-da-clara", now=T0 + timedelta(minutes=11)).username == "clara"
    actions = _actions(db)
    assert actions.count("login.failed") == 4
    assert "login.locked" in actions and "login.refused_locked" in actions and "user.unlock" in actions
    assert audit.verify(db).ok


def test_lock_expires_after_15_minutes_and_success_resets_the_count(db, clerk):
    for _ in range(5):
        with pytest.raises(AuthenticationError):
            auth.login(db, "clara", "errada", now=T0)
    assert auth.login(db, "clara", "senha-da-clara", now=T0 + timedelta(minutes=15, seconds=1))
    info = users.find_user(db, "clara")
    assert info.failed_logins == 0 and info.locked_until is None


def test_login_counters_do_not_make_an_open_edit_stale(db, clerk):
    info = users.find_user(db, "clara")
    with pytest.raises(AuthenticationError):
        auth.login(db, "clara", "errada", now=T0)
    auth.login(db, "clara", "senha-da-clara", now=T0)
    users.update_user(db, clerk, info.id, users.UserDraft("clara", "Clara Nunes da Silva",
                                                          frozenset({Role.ATENDENTE})), info.version)


def test_unknown_user_and_inactive_user_are_refused_and_audited(db, clerk):
    with pytest.raises(AuthenticationError) as exc:
        auth.login(db, "ninguem", "qualquer-coisa", now=T0)
    assert str(exc.value) == auth.WRONG_CREDENTIALS
    info = users.find_user(db, "clara")
    users.update_user(db, clerk, info.id, users.UserDraft("clara", "Clara Nunes", frozenset({Role.ATENDENTE}),
                                                          active=False), info.version)
    with pytest.raises(AuthenticationError) as exc:
        auth.login(db, "clara", "senha-da-clara", now=T0)
    assert "desativado" in str(exc.value)
    actions = _actions(db)
    assert "login.failed" in actions and "login.refused_inactive" in actions


def test_change_own_password(db, clerk):
    actor = auth.login(db, "clara", "senha-da-clara", now=T0)
    with pytest.raises(ValidationError) as exc:
        auth.change_own_password(db, actor, "errada", "nova-senha-123")
    assert exc.value.problems[0].field == "old_password"
    with pytest.raises(ValidationError):
        auth.change_own_password(db, actor, "senha-da-clara", "curta")
    auth.change_own_password(db, actor, "senha-da-clara", "nova-senha-123")
    with pytest.raises(AuthenticationError):
        auth.login(db, "clara", "senha-da-clara", now=T0)
    assert auth.login(db, "clara", "nova-senha-123", now=T0).username == "clara"
    with db.session(write=False) as s:
        texts = " ".join((e.after or "") for e in s.scalars(select(AuditEntry)))
    assert "$argon2" not in texts          # hashes never go to the audit log


def test_clerk_cannot_unlock_users(db, clerk, make_actor):
    other = make_actor(Role.ATENDENTE, Role.FISCAL)
    with pytest.raises(PermissionDenied):
        users.unlock_user(db, other, users.find_user(db, "clara").id)


class _Undo(Exception):
    """Raised inside a caller's transaction to roll it back."""


def test_change_own_password_in_joins_the_callers_transaction(db, clerk):
    actor = auth.login(db, "clara", "senha-da-clara", now=T0)
    before = _actions(db)
    with pytest.raises(_Undo):
        with db.session() as s:
            auth.change_own_password_in(s, actor, "senha-da-clara", "nova-senha-123")
            raise _Undo
    assert _actions(db) == before
    assert auth.login(db, "clara", "senha-da-clara", now=T0).username == "clara"
