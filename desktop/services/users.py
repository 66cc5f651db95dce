"""Users and roles (SPEC §1; issue 2). Administrador only, except a user's own password (services.auth).

Rules kept here:
- user names are lower-case, unique, 3–60 characters;
- every user has at least one role;
- there is always at least one ACTIVE administrador: the last one can be neither deactivated nor lose the role;
- two desks editing the same user: the second save is refused (`check_version`, SPEC §4);
- nothing is deleted (a user who leaves is deactivated: the audit log keeps pointing at them);
- password hashes never go to the audit log;
- the office (cargo) and registration number (matrícula) are what an act signed by the user prints beside the
  name (issue 28; Lei 9.784/99, art. 22, §1º): at most 120 and 40 characters, the matrícula unique among users.
  They are required of a user who signs acts (fiscal, vistoriador, gestor) — `signer_problems` — when the act
  is issued, so an older record without them is refused there with the place to fill them in.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from desktop.domain.problems import Problem
from desktop.domain.roles import Role, USER_ROLES
from desktop.errors import ConflictError, NotFound, ValidationError
from desktop.services.auth import (
    format_datetime,
    hash_password,
    normalize_username,
    password_problems,
    username_problems,
)
from sqlalchemy import select
from desktop.models.admin import User
from sqlalchemy import func
from desktop.models.admin import UserRole

__all__ = [
    "UserDraft", "UserInfo", "list_users", "get_user", "find_user", "create_user", "update_user",
    "reset_password", "unlock_user", "format_datetime", "list_users_in", "get_user_in", "create_user_in",
    "update_user_in", "reset_password_in", "unlock_user_in",
]


@dataclass(frozen=True, slots=True)
class UserDraft:
    username: str
    full_name: str
    roles: frozenset[Role]
    password: str | None = None   # required to create; on update, None keeps the current password
    active: bool = True
    office: str = ""              # cargo, as printed under the signature ("Fiscal de Tributos")
    registration: str = ""        # matrícula funcional ("12.345-6"), not the login


@dataclass(frozen=True, slots=True)
class UserInfo:
    id: int
    username: str
    full_name: str
    roles: frozenset[Role]
    active: bool
    locked_until: datetime | None
    failed_logins: int
    version: int
    must_change_password: bool = False
    last_login_at: datetime | None = None
    office: str = ""
    registration: str = ""

    @property
    def roles_label(self) -> str:
        return ", ".join(r.label for r in Role if r in self.roles)


def _info(user) -> UserInfo:
    return UserInfo(
        id=user.id, username=user.username, full_name=user.full_name, roles=frozenset(user.roles),
        active=user.active, locked_until=user.locked_until, failed_logins=user.failed_logins,
        version=user.version, must_change_password=user.must_change_password, last_login_at=user.last_login_at,
        office=user.office or "", registration=user.registration or "",
    )


def _snapshot(user) -> dict:
    """What the audit log keeps of a user (never the hash)."""
    return {
        "username": user.username, "full_name": user.full_name, "roles": sorted(r.value for r in user.roles),
        "active": user.active, "office": user.office or "", "registration": user.registration or "",
    }


def _require_admin(actor) -> None:
    from desktop.services.permissions import require_role  # lazy: SQLAlchemy loads once the database is used (start-up)

    require_role(actor, *USER_ROLES.manage)


def _draft_problems(draft: UserDraft, creating: bool) -> list[Problem]:
    problems = username_problems(draft.username)
    if not (draft.full_name or "").strip():
        problems.append(Problem("full_name", "Informe o nome completo."))
    elif len(draft.full_name.strip()) > 200:
        problems.append(Problem("full_name", "O nome completo deve ter no máximo 200 caracteres."))
    roles = draft.roles or frozenset()
    if not roles:
        problems.append(Problem("roles", "Marque ao menos um papel (atendente, vistoriador, fiscal, gestor ou "
                                         "administrador)."))
    for r in roles:
        try:
            Role(r)
        except ValueError:
            problems.append(Problem("roles", f"Papel desconhecido: {r!r}."))
    if len((draft.office or "").strip()) > OFFICE_MAX:
        problems.append(Problem("office", f"O cargo deve ter no máximo {OFFICE_MAX} caracteres."))
    registration = (draft.registration or "").strip()
    if len(registration) > REGISTRATION_MAX:
        problems.append(Problem("registration", f"A matrícula deve ter no máximo {REGISTRATION_MAX} caracteres."))
    elif registration and registration.lower() == normalize_username(draft.username):
        problems.append(Problem("registration", "A matrícula é o número funcional do servidor, não o nome de "
                                                "acesso."))
    if creating or draft.password is not None:
        problems += password_problems(draft.password, "password", normalize_username(draft.username))
    return problems


OFFICE_MAX = 120
REGISTRATION_MAX = 40


def _registration_taken(s, registration: str, except_id: int | None = None) -> bool:

    if not registration:
        return False
    stmt = select(User.id).where(User.registration == registration)
    if except_id is not None:
        stmt = stmt.where(User.id != except_id)
    return s.scalar(stmt) is not None


def _load(s, user_id: int):

    user = s.get(User, user_id)
    if user is None:
        raise NotFound(f"Usuário nº {user_id} não encontrado.")
    return user


def _other_active_admins(s, user_id: int) -> int:

    return s.scalar(
        select(func.count()).select_from(User).join(UserRole, UserRole.user_id == User.id)
        .where(User.active.is_(True), UserRole.role == Role.ADMINISTRADOR.value, User.id != user_id)
    ) or 0


def _username_taken(s, username: str, except_id: int | None = None) -> bool:

    stmt = select(User.id).where(User.username == username)
    if except_id is not None:
        stmt = stmt.where(User.id != except_id)
    return s.scalar(stmt) is not None


def list_users_in(session, actor) -> list[UserInfo]:

    _require_admin(actor)
    return [_info(u) for u in session.scalars(select(User).order_by(User.username))]


def list_users(db, actor) -> list[UserInfo]:
    with db.session(write=False) as s:
        return list_users_in(s, actor)


def get_user_in(session, actor, user_id: int) -> UserInfo:
    _require_admin(actor)
    return _info(_load(session, user_id))


def get_user(db, actor, user_id: int) -> UserInfo:
    with db.session(write=False) as s:
        return get_user_in(s, actor, user_id)


def find_user(db, username: str) -> UserInfo:
    """The user with this user name (for the ops CLI and for the login screen's messages)."""

    name = normalize_username(username)
    with db.session(write=False) as s:
        user = s.scalar(select(User).where(User.username == name))
        if user is None:
            raise NotFound(f"Usuário {name!r} não encontrado.")
        return _info(user)


def find_user_or_none(db, username: str) -> UserInfo | None:

    with db.session(write=False) as s:
        user = s.scalar(select(User).where(User.username == normalize_username(username)))
        return None if user is None else _info(user)


def count_users(db) -> int:

    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(User)) or 0


def create_user_in(session, actor, draft: UserDraft) -> UserInfo:
    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)

    _require_admin(actor)
    problems = _draft_problems(draft, creating=True)
    if problems:
        raise ValidationError(problems)
    username = normalize_username(draft.username)
    if _username_taken(session, username):
        raise ConflictError(f"Já existe um usuário com o nome de acesso {username!r}.")
    registration = (draft.registration or "").strip()
    if _registration_taken(session, registration):
        raise ValidationError([Problem("registration", f"A matrícula {registration} já é de outro usuário.")])
    user = User(username=username, full_name=draft.full_name.strip(), password_hash=hash_password(draft.password),
                active=draft.active, failed_logins=0, office=(draft.office or "").strip(),
                registration=registration)
    user.set_roles(draft.roles)
    session.add(user)
    session.flush()
    audit.record(session, actor, "user.create", "user", str(user.id), None, _snapshot(user))
    return _info(user)


def create_user(db, actor, draft: UserDraft) -> UserInfo:
    with db.session() as s:
        return create_user_in(s, actor, draft)


def update_user_in(session, actor, user_id: int, draft: UserDraft, expected_version: int) -> UserInfo:
    """Same as `update_user` inside the transaction the caller opened
    (the role check and the audit record included)."""
    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)
    from desktop.services.locking import check_version  # lazy: SQLAlchemy loads once the database is used (start-up)

    _require_admin(actor)
    problems = _draft_problems(draft, creating=False)
    if problems:
        raise ValidationError(problems)
    username = normalize_username(draft.username)
    user = _load(session, user_id)
    check_version(user, expected_version)
    before = _snapshot(user)
    was_admin = user.active and Role.ADMINISTRADOR in user.roles
    stays_admin = draft.active and Role.ADMINISTRADOR in draft.roles
    if was_admin and not stays_admin and _other_active_admins(session, user.id) == 0:
        raise ConflictError(
            "Este é o último administrador ativo: ele não pode ser desativado nem perder o papel de "
            "administrador. Dê o papel a outro usuário antes."
        )
    if username != user.username and _username_taken(session, username, user.id):
        raise ConflictError(f"Já existe um usuário com o nome de acesso {username!r}.")
    registration = (draft.registration or "").strip()
    if _registration_taken(session, registration, user.id):
        raise ValidationError([Problem("registration", f"A matrícula {registration} já é de outro usuário.")])
    user.username = username
    user.full_name = draft.full_name.strip()
    user.office = (draft.office or "").strip()
    user.registration = registration
    user.active = draft.active
    user.set_roles(draft.roles)
    after = _snapshot(user)
    if draft.password is not None:
        user.password_hash = hash_password(draft.password)
        user.must_change_password = True
        after["password"] = "redefinida pelo administrador"
    session.flush()
    audit.record(session, actor, "user.update", "user", str(user.id), before, after)
    return _info(user)


def update_user(db, actor, user_id: int, draft: UserDraft, expected_version: int) -> UserInfo:
    """Change name, user name, roles, active flag and (when `draft.password` is given) the password."""
    with db.session() as s:
        return update_user_in(s, actor, user_id, draft, expected_version)


def reset_password_in(session, actor, user_id: int, new_password: str) -> UserInfo:
    """Same as `reset_password` inside the transaction the caller opened
    (the role check and the audit record included)."""
    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)

    _require_admin(actor)
    user = _load(session, user_id)
    problems = password_problems(new_password, "password", user.username)
    if problems:
        raise ValidationError(problems)
    user.password_hash = hash_password(new_password)
    user.must_change_password = True
    user.failed_logins = 0
    user.locked_until = None
    session.flush()
    audit.record(session, actor, "user.reset_password", "user", str(user.id), None,
                 {"password": "redefinida pelo administrador", "unlocked": True})
    return _info(user)


def reset_password(db, actor, user_id: int, new_password: str) -> UserInfo:
    """A new password set by the administrador; the user must change it at the next log in. Also unlocks."""
    with db.session() as s:
        return reset_password_in(s, actor, user_id, new_password)


def unlock_user_in(session, actor, user_id: int) -> UserInfo:
    """Same as `unlock_user` inside the transaction the caller opened
    (the role check and the audit record included)."""
    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)

    _require_admin(actor)
    user = _load(session, user_id)
    before = {"failed_logins": user.failed_logins,
              "locked_until": user.locked_until.isoformat() if user.locked_until else None}
    user.failed_logins = 0
    user.locked_until = None
    session.flush()
    audit.record(session, actor, "user.unlock", "user", str(user.id), before,
                 {"failed_logins": 0, "locked_until": None})
    return _info(user)


def unlock_user(db, actor, user_id: int) -> UserInfo:
    """Clear the wrong-password count and the lock (SPEC: the administrador can unlock)."""
    with db.session() as s:
        return unlock_user_in(s, actor, user_id)
