"""Log in and own password (issue 2; SPEC §4: passwords hashed with Argon2, roles enforced here).

Five wrong passwords in a row lock the account for 15 minutes; an administrator may unlock it sooner
(services.users.unlock_user). Every success, failure, refusal and lock goes to the audit log.

The login counters are written with a plain UPDATE that does not move the user's `version`: a clerk logging in
must not make the administrator's open edit of that user stale.

Concurrency (issue 11): the user's row is read with `SELECT ... FOR UPDATE` on PostgreSQL (SQLite's write
transaction, `BEGIN IMMEDIATE`, is exclusive already), so simultaneous wrong passwords for one account are
checked one after the other against the fresh counter: never more than five are checked before the lock.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta

from desktop.domain.problems import Problem
from desktop.errors import AccountLocked, AuthenticationError, ValidationError

from desktop.domain.clock import TIMEZONE as TZ  # the one time zone constant
from sqlalchemy import select, update
from desktop.models.admin import User
MAX_FAILED_LOGINS = 5
LOCK_MINUTES = 15
MIN_PASSWORD_LENGTH = 8
MAX_PASSWORD_LENGTH = 128
USERNAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{2,59}$")

WRONG_CREDENTIALS = "Usuário ou senha incorretos."

_hasher = None
_dummy_hash: str | None = None


def _ph():
    global _hasher
    if _hasher is None:
        from argon2 import PasswordHasher  # lazy: argon2 loads only when this runs (start-up cost)

        _hasher = PasswordHasher()  # argon2id, RFC 9106 low-memory profile (t=3, m=64 MiB, p=4)
    return _hasher


def hash_password(password: str) -> str:
    return _ph().hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError  # lazy: argon2 loads only when this runs (start-up cost)

    try:
        return _ph().verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def _burn_time(password: str) -> None:
    """Verify against a throw-away hash so that an unknown user name takes as long as a wrong password."""
    global _dummy_hash
    if _dummy_hash is None:
        _dummy_hash = hash_password("senha-que-nao-existe")
    verify_password(_dummy_hash, password)


def password_problems(password: str | None, field: str = "password", username: str | None = None) -> list[Problem]:
    """The password rules: at least 8 characters, at most 128, not only spaces, not the user name."""
    if not password:
        return [Problem(field, "Informe a senha.")]
    problems = []
    if len(password) < MIN_PASSWORD_LENGTH:
        problems.append(Problem(field, f"A senha deve ter pelo menos {MIN_PASSWORD_LENGTH} caracteres."))
    if len(password) > MAX_PASSWORD_LENGTH:
        problems.append(Problem(field, f"A senha deve ter no máximo {MAX_PASSWORD_LENGTH} caracteres."))
    if not password.strip():
        problems.append(Problem(field, "A senha não pode ser feita só de espaços."))
    if username and password.strip().casefold() == username.strip().casefold():
        problems.append(Problem(field, "A senha não pode ser igual ao nome de acesso."))
    return problems


def username_problems(username: str | None, field: str = "username") -> list[Problem]:
    name = normalize_username(username)
    if not name:
        return [Problem(field, "Informe o nome de acesso.")]
    if not USERNAME_RE.match(name):
        return [Problem(field, "Nome de acesso inválido: use de 3 a 60 letras sem acento, números, ponto, hífen "
                               "ou sublinhado, começando por letra ou número (ex.: maria.silva).")]
    return []


def normalize_username(username: str | None) -> str:
    return (username or "").strip().lower()


def format_datetime(moment: datetime) -> str:
    """dd/mm/aaaa HH:MM in America/Cuiaba."""
    return moment.astimezone(TZ).strftime("%d/%m/%Y %H:%M")


def _now(now: datetime | None) -> datetime:
    if now is None:
        return datetime.now(TZ)
    if now.tzinfo is None:
        raise ValueError("now deve ter fuso horário (America/Cuiaba)")
    return now.astimezone(TZ)


def actor_of(user):
    """The `Actor` of a user row."""
    from desktop.services.actors import Actor  # lazy: SQLAlchemy loads once the database is used (start-up)

    return Actor(user_id=user.id, username=user.username, full_name=user.full_name, roles=frozenset(user.roles))


def _locked_message(until: datetime) -> str:
    return (f"Conta bloqueada após {MAX_FAILED_LOGINS} senhas erradas, até {format_datetime(until)}. "
            f"Aguarde ou peça a um administrador que a desbloqueie.")


def login(db, username: str, password: str, now: datetime | None = None):
    """The `Actor` of the user whose password matches. Raises `AuthenticationError` (wrong user or password,
    inactive user) or `AccountLocked` (5th wrong password in a row, or still locked)."""

    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)
    from desktop.services.actors import SYSTEM_ACTOR  # lazy: SQLAlchemy loads once the database is used (start-up)

    moment = _now(now)
    name = normalize_username(username)
    error: Exception | None = None
    actor = None
    with db.session() as s:
        query = select(User).where(User.username == name)
        if s.get_bind().dialect.name == "postgresql":
            query = query.with_for_update(of=User)
        user = s.scalar(query) if name else None
        if user is None:
            _burn_time(password or "")
            audit.record(s, SYSTEM_ACTOR, "login.failed", "user", "", None,
                         {"username": name, "reason": "usuário inexistente"}, live_check=False)
            error = AuthenticationError(WRONG_CREDENTIALS)
        else:
            who = actor_of(user)
            failed = user.failed_logins
            locked_until = user.locked_until
            if locked_until is not None and locked_until <= moment:
                # The lock has run out: a fresh count of five attempts.
                failed, locked_until = 0, None
            if locked_until is not None:
                audit.record(s, who, "login.refused_locked", "user", str(user.id), None,
                             {"locked_until": locked_until.isoformat()}, live_check=False)
                error = AccountLocked(_locked_message(locked_until), locked_until)
            elif not user.active:
                audit.record(s, who, "login.refused_inactive", "user", str(user.id), None, None, live_check=False)
                error = AuthenticationError("Este usuário está desativado. Procure um administrador.")
            elif not verify_password(user.password_hash, password or ""):
                failed += 1
                values = {"failed_logins": failed, "locked_until": None}
                if failed >= MAX_FAILED_LOGINS:
                    locked_until = moment + timedelta(minutes=LOCK_MINUTES)
                    values["locked_until"] = locked_until
                    error = AccountLocked(_locked_message(locked_until), locked_until)
                    action = "login.locked"
                else:
                    left = MAX_FAILED_LOGINS - failed
                    error = AuthenticationError(
                        f"{WRONG_CREDENTIALS} Restam {left} tentativa{'s' if left > 1 else ''} antes do bloqueio "
                        f"por {LOCK_MINUTES} minutos."
                    )
                    action = "login.failed"
                s.execute(update(User).where(User.id == user.id).values(**values)
                          .execution_options(synchronize_session=False))
                audit.record(s, who, action, "user", str(user.id),
                             {"failed_logins": user.failed_logins},
                             {"failed_logins": failed,
                              "locked_until": locked_until.isoformat() if locked_until else None},
                             live_check=False)
            else:
                values = {"failed_logins": 0, "locked_until": None, "last_login_at": moment}
                if _ph().check_needs_rehash(user.password_hash):
                    values["password_hash"] = hash_password(password)
                s.execute(update(User).where(User.id == user.id).values(**values)
                          .execution_options(synchronize_session=False))
                audit.record(s, who, "login.success", "user", str(user.id), None, None, live_check=False)
                actor = who
    if error is not None:
        raise error
    return actor


def change_own_password_in(session, actor, old: str, new: str) -> None:
    """Same as `change_own_password` inside the transaction the caller opened
    (the role check and the audit record included)."""
    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)

    if actor.user_id is None:
        raise AuthenticationError("Somente um usuário identificado pode trocar a própria senha.")
    user = session.get(User, actor.user_id)
    if user is None or not user.active:
        raise AuthenticationError("Usuário inexistente ou desativado.")
    if not verify_password(user.password_hash, old or ""):
        raise ValidationError([Problem("old_password", "A senha atual não confere.")])
    problems = password_problems(new, "new_password", user.username)
    if new and old == new:
        problems.append(Problem("new_password", "A nova senha deve ser diferente da atual."))
    if problems:
        raise ValidationError(problems)
    user.password_hash = hash_password(new)
    user.must_change_password = False
    session.flush()
    audit.record(session, actor, "user.password_changed", "user", str(user.id), None,
                 {"password": "alterada pelo próprio usuário"})


def change_own_password(db, actor, old: str, new: str) -> None:
    """The logged-in user changes their own password (the only user service that needs no administrador)."""
    with db.session() as s:
        return change_own_password_in(s, actor, old, new)

