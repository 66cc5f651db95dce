"""A record's history on its detail page, read from the audit log (issue 4): one line per audited action,
newest first, with who did it and what changed."""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from desktop.domain.formatting import format_date
from desktop.models import AuditEntry
from desktop.services.lookups import user_names


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    """One line of a record's history on its detail page (newest first)."""

    at: datetime
    what: str
    who: str
    detail: str = ""


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
