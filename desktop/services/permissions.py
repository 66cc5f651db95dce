"""Role checks (SPEC §4: roles are enforced in the service layer, whatever the screen shows)."""
from __future__ import annotations

from desktop.domain.roles import REGISTRY_ROLES, Role
from desktop.errors import PermissionDenied
from desktop.services.actors import Actor


def _role_list(roles: tuple[Role, ...]) -> str:
    labels = [Role(r).label for r in roles]
    if len(labels) == 1:
        return labels[0]
    return ", ".join(labels[:-1]) + " ou " + labels[-1]


def require_role(actor: Actor, *roles: Role) -> None:
    """Refuse with PermissionDenied unless the actor holds any of `roles` (SPEC §4: roles are enforced in the
    service layer, whatever the screen shows); `actor=None` is refused the same way (issue 25 item 7)."""
    if not roles:
        raise ValueError("require_role precisa de pelo menos um papel")
    if not isinstance(actor, Actor):   # no one logged in (or an id in the actor's place): no read, no act
        raise PermissionDenied("Permissão negada: entre no sistema com um usuário que tenha um papel.")
    if actor.has(*roles):
        return
    if len(roles) == 1:
        raise PermissionDenied(f"Permissão negada: esta ação exige o papel {_role_list(roles)}.")
    raise PermissionDenied(f"Permissão negada: esta ação exige um dos papéis {_role_list(roles)}.")


def require_reader(actor: Actor) -> None:
    """Reading the register (personal data, LGPD) needs a logged-in user with any role."""
    if actor is None or not actor.roles:
        raise PermissionDenied("Permissão negada: entre no sistema com um usuário que tenha um papel.")


FRONT_DESK = REGISTRY_ROLES.front_desk
