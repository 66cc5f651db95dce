"""What every service shares: the acting user, role checks and optimistic-locking checks. The translation of
database refusals into typed Portuguese errors (SPEC §4) lives in desktop.errors (`map_db_error`,
`translate_db_errors`), below the database room that maps every session's errors with it."""
from __future__ import annotations

from dataclasses import dataclass, field

from desktop.domain.roles import Role
from desktop.errors import AuthenticationError, PermissionDenied, StaleRecordError


@dataclass(frozen=True)
class Actor:
    """Who does a thing. `user_id` is None only for SYSTEM_ACTOR (automatic jobs)."""

    user_id: int | None
    username: str
    full_name: str
    roles: frozenset[Role] = field(default_factory=frozenset)

    def has(self, *roles: Role) -> bool:
        """True when the actor holds at least one of `roles`."""
        return any(Role(r) in self.roles for r in roles)


# Automatic jobs (a suspension ending on its date, a decision becoming final) act as the system.
SYSTEM_ACTOR = Actor(user_id=None, username="sistema", full_name="Sistema (rotina automática)",
                     roles=frozenset(Role))


class SessionRevoked(AuthenticationError):
    """The acting user was deactivated, locked or lost a role while their session was open (issue 11): the write
    is refused and the screen returns to the login."""


_session_listeners: list = []


def on_session_revoked(listener) -> None:
    """Register `listener(actor, message)`, called (from whatever thread did the write) when a write of `actor`
    is refused because the user is no longer allowed; the main window uses it to return to the login."""
    if listener not in _session_listeners:
        _session_listeners.append(listener)


def remove_session_listener(listener) -> None:
    if listener in _session_listeners:
        _session_listeners.remove(listener)


def notify_session_revoked(actor: Actor, message: str) -> None:
    """Tell the listeners; one that fails (a window already destroyed) is dropped, and the refusal stands."""
    for listener in tuple(_session_listeners):
        try:
            listener(actor, message)
        except Exception:  # noqa: BLE001 — a listener must never turn the refusal into another error
            remove_session_listener(listener)


def _role_list(roles: tuple[Role, ...]) -> str:
    labels = [Role(r).label for r in roles]
    if len(labels) == 1:
        return labels[0]
    return ", ".join(labels[:-1]) + " ou " + labels[-1]


def require_role(actor: Actor, *roles: Role) -> None:
    """Refuse with PermissionDenied unless the actor holds any of `roles` (SPEC §4: roles are enforced in the
    service layer, whatever the screen shows)."""
    if not roles:
        raise ValueError("require_role precisa de pelo menos um papel")
    if actor.has(*roles):
        return
    if len(roles) == 1:
        raise PermissionDenied(f"Permissão negada: esta ação exige o papel {_role_list(roles)}.")
    raise PermissionDenied(f"Permissão negada: esta ação exige um dos papéis {_role_list(roles)}.")


def check_version(obj, expected_version: int | None) -> None:
    """Refuse a save made on an old copy of the record (optimistic locking; SPEC §4).

    The screen sends the version it loaded; when the row moved on since, StaleRecordError tells the user to
    reload. The UPDATE itself is also guarded by `version_id_col`, so a race after this check still fails.
    """
    if expected_version is None:
        raise ValueError("check_version precisa da versão lida pela tela")
    if getattr(obj, "version", None) != expected_version:
        raise StaleRecordError()
