"""What the register's lists and detail pages share (issue 4): one page of rows, the indexed prefix search on the
stored folded `search_key` columns, whitelisted sorting, user names, and the timeline read from the audit log.

A list screen asks for one page (`offset`, `limit`) and the total, never the whole table (STYLE: lazy enough for
100,000 rows). Filtering as you type uses `starts_with` (a range a plain b-tree index answers on SQLite and on
PostgreSQL, the columns being byte-compared), so "joao" finds "João" and "conceicao" finds "Conceição".
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import func, literal_column, select
from sqlalchemy.orm import Session

from desktop.domain.formatting import format_date
from desktop.domain.limits import search_problems
from desktop.domain.roles import REGISTRY_ROLES
from desktop.domain.text import fold, only_digits
from desktop.errors import NotFound, PermissionDenied, ValidationError
from desktop.models import AuditEntry, User, starts_with
from desktop.services.base import Actor

__all__ = [
    "Page", "TimelineEntry", "search_terms", "prefix_range", "contains", "require_reader", "order_by",
    "user_names", "audit_timeline", "get_or_404", "MAX_PAGE",
]

T = TypeVar("T")
MAX_PAGE = 500


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a list: the rows asked for and how many match in all."""

    rows: tuple[T, ...]
    total: int
    offset: int = 0
    limit: int = 50
    exact: bool = True  # False: `total` is a lower bound (a scan counted up to a cap)

    @property
    def has_more(self) -> bool:
        return self.offset + len(self.rows) < self.total


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    """One line of a record's history on its detail page (newest first)."""

    at: datetime
    what: str
    who: str
    detail: str = ""


def search_terms(text: str | None) -> str:
    """The folded form of what the user typed ("  JOÃO " -> "joao"). A search longer than anyone types, or with
    control characters, is refused with a message (issue 12 item 21: `domain.limits.SEARCH_MAX_CHARS`)."""
    check_search(text)
    return fold(text)


def check_search(text: str | None) -> None:
    problems = search_problems("search", text)
    if problems:
        raise ValidationError(problems)


def prefix_range(column, text: str):
    """`column` begins with `text` (already in the column's form), answered by the column's index."""
    return starts_with(column, text)


def contains(column, text: str):
    """The fallback: `text` anywhere in `column` (a scan; only used when the prefix finds nothing)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return column.like(f"%{escaped}%", escape="\\")


def digits_query(text: str | None) -> str | None:
    """The digits typed when the text is a document number (CPF, CNPJ, RENAVAM), else None."""
    raw = (text or "").strip()
    if not raw:
        return None
    check_search(raw)
    stripped = raw.replace(".", "").replace("-", "").replace("/", "").replace(" ", "")
    if stripped.isdigit():
        return only_digits(stripped)
    return None


def require_reader(actor: Actor) -> None:
    """Reading the register (personal data, LGPD) needs a logged-in user with any role."""
    if actor is None or not actor.roles:
        raise PermissionDenied("Permissão negada: entre no sistema com um usuário que tenha um papel.")


def check_page(offset: int, limit: int) -> tuple[int, int]:
    offset = max(0, int(offset))
    limit = max(1, min(int(limit), MAX_PAGE))
    return offset, limit


def order_by(sorts: Mapping[str, Any], sort: str, descending: bool, tiebreak) -> list:
    """ORDER BY for a whitelisted sort key (a column never comes from the caller's text)."""
    if sort not in sorts:
        raise ValueError(f"ordenação desconhecida: {sort!r} (válidas: {', '.join(sorts)})")
    column = sorts[sort]
    first = column.desc() if descending else column.asc()
    second = tiebreak.desc() if descending else tiebreak.asc()
    return [first, second]


def count(session: Session, statement) -> int:
    """How many rows a list's statement matches: `SELECT count(*) FROM ... WHERE ...` (no subquery, so the
    planner counts over the same index the filter uses)."""
    return session.execute(statement.with_only_columns(func.count(), maintain_column_froms=True)
                           .order_by(None)).scalar_one()


def capped_count(session: Session, statement, cap: int) -> int:
    """min(matches, cap): the count of a scan stops at the cap."""
    inner = statement.with_only_columns(literal_column("1"), maintain_column_froms=True).order_by(None).limit(cap)
    return session.execute(select(func.count()).select_from(inner.subquery())).scalar_one()


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


# Audit actions written by the register's services, as the timeline shows them.
ACTION_LABELS: dict[str, str] = {
    "platform.create": "Plataforma cadastrada",
    "platform.update": "Dados da plataforma alterados",
    "platform.status": "Situação da plataforma alterada",
    "driver.register": "Condutor cadastrado",
    "driver.update": "Dados do condutor alterados",
    "driver.checklist": "Lista de documentos atualizada",
    "driver.deregister": "Condutor descadastrado",
    "vehicle.register": "Veículo cadastrado",
    "vehicle.update": "Dados do veículo alterados",
    "vehicle.deregister": "Veículo descadastrado",
    "lessor.create": "Locador cadastrado",
    "document.attach": "Documento anexado",
    "change.record": "Comunicação de alteração registrada",
}

_FIELD_LABELS = {
    "name": "nome", "cpf": "CPF", "address": "endereço", "phone": "telefone", "email": "e-mail",
    "city": "município", "cnh_number": "CNH", "cnh_category": "categoria da CNH", "cnh_expiry": "validade da CNH",
    "plate": "placa", "renavam": "RENAVAM", "colour": "cor", "ownership_mode": "modalidade de posse",
    "lessor_id": "locador", "status": "situação", "trade_name": "nome fantasia", "legal_name": "razão social",
    "app_insurance_valid_until": "validade do seguro APP", "municipal_registration_number": "inscrição municipal",
}


def _changed_fields(before: str | None, after: str | None) -> str:
    if not before or not after:
        return ""
    try:
        old, new = json.loads(before), json.loads(after)
    except ValueError:
        return ""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return ""
    changed = [k for k in new if k in old and old[k] != new[k] and k not in ("version", "updated_at", "search_key")]
    labels = [_FIELD_LABELS.get(k, k) for k in changed]
    return ("Alterado: " + ", ".join(labels)) if labels else ""


def audit_timeline(session: Session, entity: str, entity_id: int, limit: int = 200) -> list[TimelineEntry]:
    """The audit entries of one record (indexed by entity, entity_id), as timeline lines."""
    rows = session.execute(
        select(AuditEntry.at, AuditEntry.action, AuditEntry.username, AuditEntry.user_id, AuditEntry.before,
               AuditEntry.after)
        .where(AuditEntry.entity == entity, AuditEntry.entity_id == str(entity_id))
        .order_by(AuditEntry.id.desc()).limit(limit)
    ).all()
    names = user_names(session, (r.user_id for r in rows))
    result = []
    for r in rows:
        who = names.get(r.user_id, r.username)
        detail = _changed_fields(r.before, r.after) if r.action.endswith(".update") else _reason_of(r.after)
        result.append(TimelineEntry(r.at, ACTION_LABELS.get(r.action, r.action), who, detail))
    return result


def _reason_of(after: str | None) -> str:
    if not after:
        return ""
    try:
        data = json.loads(after)
    except ValueError:
        return ""
    if not isinstance(data, dict):
        return ""
    parts = []
    if data.get("reason"):
        parts.append(str(data["reason"]))
    if data.get("act_number"):
        parts.append(f"ato {data['act_number']}")
    if data.get("filename"):
        parts.append(str(data["filename"]))
    if data.get("what_changed"):
        parts.append(str(data["what_changed"]))
    return " · ".join(parts)


def merge_timelines(*timelines: Iterable[TimelineEntry]) -> tuple[TimelineEntry, ...]:
    """Several timelines as one, newest first."""
    entries = [e for t in timelines for e in t]
    entries.sort(key=lambda e: e.at, reverse=True)
    return tuple(entries)


def date_text(d) -> str:
    return format_date(d)


FRONT_DESK = REGISTRY_ROLES.front_desk
