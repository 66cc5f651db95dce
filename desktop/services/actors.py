"""Who acts: the acting user (`Actor`), the system's own actor for automatic jobs, and the refusal of a user whose
session was revoked while open (issue 11), with the listeners the main window uses to return to the login."""
from __future__ import annotations

from dataclasses import dataclass, field

from desktop.domain.roles import Role
from desktop.errors import AuthenticationError


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
