"""Reading an authorization's history: the event labels, the events as screens show them, the rows of a list
and the timeline lines of the driver's and the vehicle's pages (shared by services.drivers, services.vehicles and
services.authorizations, so none of them imports another)."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from desktop.domain import AuthorizationStatus, format_cpf, format_plate
from desktop.models import Authorization, AuthorizationEvent, Driver, Vehicle
from desktop.services.timeline import TimelineEntry
from desktop.services.lookups import user_names

__all__ = ["EVENT_LABELS", "AuthorizationEventInfo", "AuthorizationRow", "status_label", "event_infos",
           "event_timeline", "authorization_rows"]

S = AuthorizationStatus

EVENT_LABELS = {
    "request": "Requerimento protocolado",
    "analysis": "Análise iniciada",
    "approval": "Requerimento aprovado",
    "refusal": "Requerimento indeferido",
    "inspection": "Vistoria registrada",
    "inspection_waived": "Vistoria dispensada",
    "fee": "Taxa paga",
    "activation": "Autorização ativada",
    "renewal_request": "Renovação solicitada",
    "renewal": "Autorização renovada",
    "substitution": "Veículo substituído",
    "suspension": "Autorização suspensa",
    "suspension_end": "Fim da suspensão",
    "revocation": "Autorização revogada",
    "cassation": "Autorização cassada",
    "deregistration": "Encerrada por descadastramento",
    "expiry": "Autorização expirada",
    "impediment": "Autorização impedida",
    "status": "Mudança de situação",
}


@dataclass(frozen=True, slots=True)
class AuthorizationEventInfo:
    id: int
    kind: str
    kind_label: str
    from_status: str | None
    from_label: str
    to_status: str
    to_label: str
    at: datetime
    effective_on: date | None
    by_name: str
    reason: str | None
    act_number: str | None
    old_plate_display: str | None
    new_plate_display: str | None


@dataclass(frozen=True, slots=True)
class AuthorizationRow:
    id: int
    number: str | None
    status: str
    status_label: str
    driver_id: int
    driver_name: str
    plate_display: str
    protocol_date: date
    valid_until: date | None
    driver_cpf_display: str = ""
    renewal_late: bool = False   # renewal requested after `renewal_request_deadline` (Art. 3, §2)


def status_label(status: str | None) -> str:
    """The authorization status as the screens name it ("" for none)."""
    return S(status).label if status else ""


def event_infos(session: Session, events) -> tuple[AuthorizationEventInfo, ...]:
    """AuthorizationEvent rows as screens show them (labels, who, plates of a substitution)."""
    events = list(events)
    names = user_names(session, (e.by_user_id for e in events))
    vehicle_ids = {i for e in events for i in (e.old_vehicle_id, e.new_vehicle_id) if i}
    plates = dict(session.execute(select(Vehicle.id, Vehicle.plate).where(Vehicle.id.in_(vehicle_ids)))
                  .all()) if vehicle_ids else {}
    return tuple(AuthorizationEventInfo(
        id=e.id, kind=e.kind, kind_label=EVENT_LABELS.get(e.kind, e.kind), from_status=e.from_status,
        from_label=status_label(e.from_status), to_status=e.to_status, to_label=status_label(e.to_status), at=e.at,
        effective_on=e.effective_on,
        by_name=names.get(e.by_user_id, "") if e.by_user_id else "Sistema (rotina automática)",
        reason=e.reason, act_number=e.act_number,
        old_plate_display=format_plate(plates[e.old_vehicle_id]) if e.old_vehicle_id in plates else None,
        new_plate_display=format_plate(plates[e.new_vehicle_id]) if e.new_vehicle_id in plates else None,
    ) for e in events)


def event_timeline(session: Session, authorization_ids: Iterable[int]) -> list[TimelineEntry]:
    """The events of some authorizations as timeline lines (for the driver's and the vehicle's pages)."""
    ids = list(authorization_ids)
    if not ids:
        return []
    numbers = dict(session.execute(select(Authorization.id, Authorization.number)
                                   .where(Authorization.id.in_(ids))).all())
    events = session.execute(select(AuthorizationEvent).where(AuthorizationEvent.authorization_id.in_(ids))
                             .order_by(AuthorizationEvent.id)).scalars().all()
    result = []
    for e in event_infos(session, events):
        auth_id = next(ev.authorization_id for ev in events if ev.id == e.id)
        name = numbers.get(auth_id) or f"requerimento {auth_id}"
        detail = " · ".join(x for x in (
            e.reason, f"ato {e.act_number}" if e.act_number else "",
            f"{e.old_plate_display} → {e.new_plate_display}" if e.old_plate_display else "") if x)
        result.append(TimelineEntry(e.at, f"Autorização {name}: {e.kind_label}", e.by_name, detail))
    return result


def authorization_rows(session: Session, auths) -> tuple[AuthorizationRow, ...]:
    """List rows for Authorization objects (driver's name and CPF, plate), two queries for any number."""
    auths = list(auths)
    if not auths:
        return ()
    drivers, cpfs = {}, {}
    for ident, name, cpf in session.execute(select(Driver.id, Driver.name, Driver.cpf)
                                            .where(Driver.id.in_({a.driver_id for a in auths}))):
        drivers[ident], cpfs[ident] = name, cpf
    plates = dict(session.execute(select(Vehicle.id, Vehicle.plate)
                                  .where(Vehicle.id.in_({a.vehicle_id for a in auths}))).all())
    return tuple(AuthorizationRow(
        id=a.id, number=a.number, status=a.status, status_label=status_label(a.status), driver_id=a.driver_id,
        driver_name=drivers.get(a.driver_id, ""), plate_display=format_plate(plates.get(a.vehicle_id, "")),
        protocol_date=a.protocol_date, valid_until=a.valid_until,
        driver_cpf_display=format_cpf(cpfs[a.driver_id]) if a.driver_id in cpfs else "",
        renewal_late=bool(a.renewal_late),
    ) for a in auths)
