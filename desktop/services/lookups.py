"""A record by its id or a clear "não encontrado" (get-or-404), and users' names for the lists that show who did
something."""
from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from desktop.errors import NotFound
from desktop.models import User


def user_names(session: Session, ids: Iterable[int | None]) -> dict[int, str]:
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    return dict(session.execute(select(User.id, User.full_name).where(User.id.in_(wanted))).all())


def get_or_404(session: Session, model, ident: int, label: str, **kw):
    obj = session.get(model, ident, **kw) if ident is not None else None
    if obj is None:
        raise NotFound(f"{label} não encontrado(a) (código {ident}).")
    return obj
