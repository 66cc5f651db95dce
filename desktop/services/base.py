"""The face kept for the office's scripts (docs/contracts.md lists `services.base`): what every service shares,
each in the module named for it since issue 22 —

- `services.actors`: `Actor`, `SYSTEM_ACTOR`, `SessionRevoked` and the session-revocation listeners;
- `services.permissions`: `require_role` (and `require_reader`, `FRONT_DESK`);
- `services.locking`: `check_version`.

The translation of database refusals into typed Portuguese errors lives in desktop.errors (`map_db_error`,
`translate_db_errors`). Code of the program imports from the named modules; this face only re-exports them."""
from __future__ import annotations

from desktop.services.actors import (SYSTEM_ACTOR, Actor, SessionRevoked, notify_session_revoked,
                                     on_session_revoked, remove_session_listener)
from desktop.services.locking import check_version
from desktop.services.permissions import require_role

__all__ = ["Actor", "SYSTEM_ACTOR", "SessionRevoked", "on_session_revoked", "remove_session_listener",
           "notify_session_revoked", "require_role", "check_version"]
