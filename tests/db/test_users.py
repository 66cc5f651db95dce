"""Users and roles (SPEC §1, §4): administrador-only, optimistic locking, always one active administrador."""
from __future__ import annotations

import pytest

from desktop.domain.roles import Role
from desktop.errors import AuthenticationError, ConflictError, PermissionDenied, StaleRecordError, ValidationError
from desktop.services import auth, users


def _draft(**kw):
    base = dict(username="pedro.fiscal", full_name="Pedro Rondon", roles=frozenset({Role.FISCAL}),
                password="senha-do-pedro")
    base.update(kw)
    return users.UserDraft(**base)


def test_admin_creates_lists_and_updates_users(db, admin_actor):
    info = users.create_user(db, admin_actor, _draft(roles=frozenset({Role.FISCAL, Role.VISTORIADOR})))
    assert info.roles == frozenset({Role.FISCAL, Role.VISTORIADOR}) and info.active and info.version == 1
    assert [u.username for u in users.list_users(db, admin_actor)] == ["admin", "pedro.fiscal"]
    updated = users.update_user(db, admin_actor, info.id, _draft(full_name="Pedro Rondon Caldas", password=None,
                                                                 roles=frozenset({Role.GESTOR})), info.version)
    assert updated.full_name == "Pedro Rondon Caldas" and updated.roles == frozenset({Role.GESTOR})
    assert updated.version == info.version + 1
    # The password was kept (password=None on update).
    assert auth.login(db, "pedro.fiscal", "senha-do-pedro").roles == frozenset({Role.GESTOR})


def test_clerk_calling_administrador_only_service_is_refused(db, admin_actor, make_actor):
    clerk = make_actor(Role.ATENDENTE)
    gestor = make_actor(Role.GESTOR)
    for who in (clerk, gestor):
        with pytest.raises(PermissionDenied) as exc:
            users.create_user(db, who, _draft())
        assert "Administrador" in str(exc.value)
        with pytest.raises(PermissionDenied):
            users.list_users(db, who)
        with pytest.raises(PermissionDenied):
            users.reset_password(db, who, admin_actor.user_id, "nova-senha-123")


def test_stale_version_update_is_refused(db, admin_actor):
    info = users.create_user(db, admin_actor, _draft())
    users.update_user(db, admin_actor, info.id, _draft(full_name="Primeira mesa", password=None), info.version)
    with pytest.raises(StaleRecordError) as exc:
        users.update_user(db, admin_actor, info.id, _draft(full_name="Segunda mesa", password=None), info.version)
    assert "Recarregue" in str(exc.value)
    assert users.get_user(db, admin_actor, info.id).full_name == "Primeira mesa"


def test_last_active_administrador_cannot_be_deactivated_or_lose_the_role(db, admin_actor):
    me = users.get_user(db, admin_actor, admin_actor.user_id)
    with pytest.raises(ConflictError) as exc:
        users.update_user(db, admin_actor, me.id, users.UserDraft("admin", me.full_name, frozenset({Role.GESTOR})),
                          me.version)
    assert "último administrador" in str(exc.value)
    with pytest.raises(ConflictError):
        users.update_user(db, admin_actor, me.id, users.UserDraft("admin", me.full_name, me.roles, active=False),
                          me.version)
    # With a second administrador, the first may step down.
    users.create_user(db, admin_actor, _draft(username="segundo.admin", roles=frozenset({Role.ADMINISTRADOR})))
    done = users.update_user(db, admin_actor, me.id, users.UserDraft("admin", me.full_name,
                                                                     frozenset({Role.GESTOR})), me.version)
    assert done.roles == frozenset({Role.GESTOR})


def test_validation_and_duplicates(db, admin_actor):
    with pytest.raises(ValidationError) as exc:
        users.create_user(db, admin_actor, users.UserDraft("a b", "", frozenset(), "123"))
    assert {p.field for p in exc.value.problems} == {"username", "full_name", "roles", "password"}
    users.create_user(db, admin_actor, _draft())
    with pytest.raises(ConflictError):
        users.create_user(db, admin_actor, _draft(username="PEDRO.FISCAL"))


def test_reset_password_unlocks_and_asks_for_a_change(db, admin_actor):
    info = users.create_user(db, admin_actor, _draft())
    for _ in range(5):
        with pytest.raises(AuthenticationError):
            auth.login(db, "pedro.fiscal", "errada")
    assert users.find_user(db, "pedro.fiscal").locked_until is not None
    after = users.reset_password(db, admin_actor, info.id, "provisoria-123")
    assert after.must_change_password and after.locked_until is None and after.failed_logins == 0
    assert auth.login(db, "pedro.fiscal", "provisoria-123").username == "pedro.fiscal"


class _Undo(Exception):
    """Raised inside a caller's transaction to roll it back."""


def test_session_forms_join_the_callers_transaction(db, admin_actor, make_actor):
    with pytest.raises(_Undo):
        with db.session() as s:
            created = users.create_user_in(s, admin_actor, _draft())
            assert users.get_user_in(s, admin_actor, created.id).username == "pedro.fiscal"
            assert [u.username for u in users.list_users_in(s, admin_actor)] == ["admin", "pedro.fiscal"]
            raise _Undo
    assert [u.username for u in users.list_users(db, admin_actor)] == ["admin"]
    info = users.create_user(db, admin_actor, _draft())
    with pytest.raises(_Undo):
        with db.session() as s:
            users.update_user_in(s, admin_actor, info.id, _draft(full_name="Outro Nome", password=None),
                                 info.version)
            users.reset_password_in(s, admin_actor, info.id, "outra-senha-boa")
            users.unlock_user_in(s, admin_actor, info.id)
            raise _Undo
    kept = users.get_user(db, admin_actor, info.id)
    assert (kept.full_name, kept.version, kept.must_change_password) == ("Pedro Rondon", info.version, False)
    assert auth.login(db, "pedro.fiscal", "senha-do-pedro").user_id == info.id
    clerk = make_actor(Role.ATENDENTE)
    with pytest.raises(PermissionDenied):
        with db.session(write=False) as s:
            users.list_users_in(s, clerk)
