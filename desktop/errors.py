"""Typed errors raised by services. Each carries the Portuguese message a clerk reads (STYLE: Tryton).

Views catch DesktopError and show `str(error)`; ValidationError also carries the list of problems, so a form
can put each next to its field.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from desktop.domain.problems import Problem


class DesktopError(Exception):
    """Base of every error a user may see. `str(e)` is the Portuguese message."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class ValidationError(DesktopError):
    """Bad input: one or more problems, each naming its field. Nothing was saved."""

    def __init__(self, problems: Iterable[Problem], message: str | None = None):
        self.problems: list[Problem] = list(problems)
        if message is None:
            message = "Corrija os campos indicados:\n" + "\n".join(f"• {p}" for p in self.problems)
        super().__init__(message)


class PermissionDenied(DesktopError):
    """The user lacks the role the service needs (SPEC §4: roles enforced in the service layer)."""


class StaleRecordError(DesktopError):
    """Another desk saved the same record first (optimistic locking). The user must reload."""

    def __init__(self, message: str = (
        "Este registro foi alterado por outro usuário depois que você o abriu. "
        "Nada foi gravado. Recarregue o registro e refaça a alteração."
    )):
        super().__init__(message)


class NotFound(DesktopError):
    """The record asked for does not exist."""


class ConflictError(DesktopError):
    """The change breaks a rule the database keeps (a duplicate CPF, a second active authorization...)."""


class TransitionRefused(DesktopError):
    """A status change that the state machine of desktop.domain does not list."""


class AuthenticationError(DesktopError):
    """Wrong user name or password."""


class AccountLocked(AuthenticationError):
    """Too many wrong passwords: the account is locked until `until`."""

    def __init__(self, message: str, until: datetime | None = None):
        super().__init__(message)
        self.until = until


class TransientDatabaseError(DesktopError):
    """The database gave up on the transaction because of another desk: a deadlock, a serialization failure, a
    lock wait too long, SQLite busy. Nothing was saved; running the same work again normally succeeds
    (`desktop.db.retrying` does it once, transparently)."""


class DatabaseUnavailable(DesktopError):
    """The database cannot be reached or opened (server down, wrong address, missing file, unsupported kind)."""
