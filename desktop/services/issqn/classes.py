"""Estimation classes (Art. 11 §1: the tax is "estimado e classificado" by the secretariat), the vehicle's dated
class decision and the gestor's designation of the one platform that collects a vehicle's tax (Art. 11 caput).

Nothing is edited: a new base is a new dated row of the same code (the previous row gets its `valid_until`), a
reclassification is a new decision, a new designation replaces the old from its date. Every write is audited.
"""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from sqlalchemy import select
from sqlalchemy.orm import Session

from desktop.domain.money import round_cents
from desktop.domain.formatting import format_date, format_plate
from desktop.domain.problems import Problem
from desktop.errors import ConflictError, NotFound, ValidationError
from desktop.models import IssqnClass, IssqnPlatformDesignation, Platform, Vehicle, VehicleIssqnClass
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.issqn.common import (
    DECIDE_ROLES,
    READ_ROLES,
    ClassDecisionInfo,
    ClassInfo,
    DesignationInfo,
)
from desktop.services.lookups import user_names

__all__ = ["create_class", "create_class_in", "new_class_base", "new_class_base_in", "list_classes",
           "decide_vehicle_class", "decide_vehicle_class_in", "vehicle_class_history", "designate_platform",
           "designate_platform_in", "vehicle_designations"]


def _info(row: IssqnClass) -> ClassInfo:
    return ClassInfo(row.id, row.code, row.name, Decimal(row.monthly_base), row.valid_from, row.valid_until,
                     row.reason or "")


def _money(value, field: str) -> Decimal:
    try:
        if isinstance(value, float):
            raise InvalidOperation
        if isinstance(value, Decimal):
            number = value
        else:
            text = str(value).strip().replace("R$", "").strip()
            if "," in text:      # 1.234,56 as typed in Brazil
                text = text.replace(".", "").replace(",", ".")
            number = Decimal(text)
        if not number.is_finite():
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        raise ValidationError([Problem(field, f"Base mensal estimada inválida: {value!r}.", "Art. 11, §1")]) from None
    if number < 0:
        raise ValidationError([Problem(field, "A base mensal estimada não pode ser negativa.", "Art. 11, §1")])
    return round_cents(number)


def _reason(reason: str, field: str = "reason") -> str:
    text = (reason or "").strip()
    if len(text) < 5:
        raise ValidationError([Problem(field, "Informe o motivo da decisão (ao menos 5 caracteres).", "Art. 11, §1")])
    return text


def create_class_in(s: Session, actor: Actor, code: str, name: str, monthly_base, valid_from: date,
                    reason: str = "") -> ClassInfo:
    """A new estimation class (code, description, estimated monthly base in reais) valid from a date."""
    require_role(actor, *DECIDE_ROLES)
    code = (code or "").strip().upper()
    name = (name or "").strip()
    problems = []
    if not code or len(code) > 30:
        problems.append(Problem("code", "Informe o código da classe (até 30 caracteres).", "Art. 11, §1"))
    if not name:
        problems.append(Problem("name", "Informe a descrição da classe.", "Art. 11, §1"))
    if not isinstance(valid_from, date):
        problems.append(Problem("valid_from", "Informe o início da vigência."))
    if problems:
        raise ValidationError(problems)
    base = _money(monthly_base, "monthly_base")
    if s.scalar(select(IssqnClass.id).where(IssqnClass.code == code)) is not None:
        raise ConflictError(f"Já existe a classe {code}. Para mudar a base, cadastre uma nova base datada.")
    row = IssqnClass(code=code, name=name, monthly_base=base, active=True, valid_from=valid_from,
                     created_by=actor.user_id, reason=(reason or "").strip() or None)
    s.add(row)
    s.flush()
    audit.record(s, actor, "issqn.class.create", "issqn_class", row.id, None,
                 {"code": code, "name": name, "monthly_base": str(base), "valid_from": valid_from.isoformat()})
    return _info(row)


def create_class(db, actor: Actor, code: str, name: str, monthly_base, valid_from: date,
                 reason: str = "") -> ClassInfo:
    with db.session() as s:
        return create_class_in(s, actor, code, name, monthly_base, valid_from, reason)


def new_class_base_in(s: Session, actor: Actor, code: str, monthly_base, valid_from: date, reason: str,
                      name: str | None = None) -> ClassInfo:
    """A new base for class `code` from `valid_from`: a NEW row; the row in force before it ends the day before.
    A date on or before the latest row's start is refused (the past is not rewritten)."""
    require_role(actor, *DECIDE_ROLES)
    code = (code or "").strip().upper()
    reason = _reason(reason)
    base = _money(monthly_base, "monthly_base")
    latest = s.scalars(select(IssqnClass).where(IssqnClass.code == code)
                       .order_by(IssqnClass.valid_from.desc()).limit(1)).first()
    if latest is None:
        raise NotFound(f"Classe de estimativa {code} não encontrada.")
    if not isinstance(valid_from, date) or valid_from <= latest.valid_from:
        raise ValidationError([Problem(
            "valid_from", f"A nova base deve valer depois de {format_date(latest.valid_from)} (início da base "
                          "vigente); o histórico não é reescrito.", "Art. 11, §1")])
    before = {"id": latest.id, "valid_until": latest.valid_until.isoformat() if latest.valid_until else None}
    latest.valid_until = valid_from - timedelta(days=1)
    row = IssqnClass(code=code, name=(name or latest.name).strip(), monthly_base=base, active=True,
                     valid_from=valid_from, created_by=actor.user_id, reason=reason)
    s.add(row)
    s.flush()
    audit.record(s, actor, "issqn.class.new_base", "issqn_class", row.id, before,
                 {"code": code, "monthly_base": str(base), "valid_from": valid_from.isoformat(), "reason": reason,
                  "previous_until": latest.valid_until.isoformat()})
    return _info(row)


def new_class_base(db, actor: Actor, code: str, monthly_base, valid_from: date, reason: str,
                   name: str | None = None) -> ClassInfo:
    with db.session() as s:
        return new_class_base_in(s, actor, code, monthly_base, valid_from, reason, name)


def list_classes(db, actor: Actor, on: date | None = None) -> list[ClassInfo]:
    """Every row (history included) by code and date; with `on`, only the rows in force that day."""
    require_role(actor, *READ_ROLES)
    with db.session(write=False) as s:
        stmt = select(IssqnClass).order_by(IssqnClass.code, IssqnClass.valid_from)
        if on is not None:
            stmt = stmt.where(IssqnClass.valid_from <= on,
                              (IssqnClass.valid_until.is_(None)) | (IssqnClass.valid_until >= on))
        return [_info(r) for r in s.scalars(stmt)]


def _vehicle(s: Session, vehicle_id: int) -> Vehicle:
    vehicle = s.get(Vehicle, vehicle_id)
    if vehicle is None:
        raise NotFound("Veículo não encontrado.")
    return vehicle


def decide_vehicle_class_in(s: Session, actor: Actor, vehicle_id: int, class_id: int, valid_from: date,
                            reason: str) -> ClassDecisionInfo:
    """The gestor places the vehicle in a class from a date, with the reason (Art. 11 §1)."""
    require_role(actor, *DECIDE_ROLES)
    reason = _reason(reason)
    vehicle = _vehicle(s, vehicle_id)
    cls = s.get(IssqnClass, class_id)
    if cls is None:
        raise ValidationError([Problem("class_id", "Escolha a classe de estimativa.", "Art. 11, §1")])
    if not isinstance(valid_from, date):
        raise ValidationError([Problem("valid_from", "Informe a partir de quando vale a classe.")])
    row = VehicleIssqnClass(vehicle_id=vehicle.id, class_id=cls.id, valid_from=valid_from,
                            decided_by=actor.user_id, reason=reason)
    s.add(row)
    s.flush()
    audit.record(s, actor, "issqn.vehicle_class", "vehicle", vehicle.id, None,
                 {"plate": vehicle.plate, "class": cls.code, "valid_from": valid_from.isoformat(), "reason": reason})
    return ClassDecisionInfo(row.id, vehicle.id, cls.id, cls.code, cls.name, valid_from, actor.full_name, reason)


def decide_vehicle_class(db, actor: Actor, vehicle_id: int, class_id: int, valid_from: date,
                         reason: str) -> ClassDecisionInfo:
    with db.session() as s:
        return decide_vehicle_class_in(s, actor, vehicle_id, class_id, valid_from, reason)


def vehicle_class_history(db, actor: Actor, vehicle_id: int) -> list[ClassDecisionInfo]:
    """The vehicle's class decisions, newest first (the vehicle's page)."""
    require_role(actor, *READ_ROLES)
    with db.session(write=False) as s:
        rows = s.execute(select(VehicleIssqnClass, IssqnClass.code, IssqnClass.name)
                         .join(IssqnClass, IssqnClass.id == VehicleIssqnClass.class_id)
                         .where(VehicleIssqnClass.vehicle_id == vehicle_id)
                         .order_by(VehicleIssqnClass.valid_from.desc(), VehicleIssqnClass.id.desc())).all()
        names = user_names(s, (r[0].decided_by for r in rows))
        return [ClassDecisionInfo(r[0].id, r[0].vehicle_id, r[0].class_id, r[1], r[2], r[0].valid_from,
                                  names.get(r[0].decided_by, ""), r[0].reason) for r in rows]


def designate_platform_in(s: Session, actor: Actor, vehicle_id: int, platform_id: int | None, valid_from: date,
                          reason: str) -> DesignationInfo:
    """The gestor designates the one platform that collects the vehicle's ISSQN from `valid_from` (Art. 11
    caput); `platform_id=None` withdraws the designation (the equal split applies again)."""
    require_role(actor, *DECIDE_ROLES)
    reason = _reason(reason)
    vehicle = _vehicle(s, vehicle_id)
    name = "(sem designação: divisão entre as plataformas)"
    if platform_id is not None:
        platform = s.get(Platform, platform_id)
        if platform is None:
            raise ValidationError([Problem("platform_id", "Plataforma não encontrada.", "Art. 11")])
        name = platform.trade_name
    if not isinstance(valid_from, date):
        raise ValidationError([Problem("valid_from", "Informe a partir de quando vale a designação.")])
    row = IssqnPlatformDesignation(vehicle_id=vehicle.id, platform_id=platform_id, valid_from=valid_from,
                                   decided_by=actor.user_id, reason=reason)
    s.add(row)
    s.flush()
    audit.record(s, actor, "issqn.designation", "vehicle", vehicle.id, None,
                 {"plate": format_plate(vehicle.plate), "platform_id": platform_id,
                  "valid_from": valid_from.isoformat(), "reason": reason})
    return DesignationInfo(row.id, vehicle.id, platform_id, name, valid_from, actor.full_name, reason)


def designate_platform(db, actor: Actor, vehicle_id: int, platform_id: int | None, valid_from: date,
                       reason: str) -> DesignationInfo:
    with db.session() as s:
        return designate_platform_in(s, actor, vehicle_id, platform_id, valid_from, reason)


def vehicle_designations(db, actor: Actor, vehicle_id: int) -> list[DesignationInfo]:
    require_role(actor, *READ_ROLES)
    with db.session(write=False) as s:
        rows = s.execute(select(IssqnPlatformDesignation, Platform.trade_name)
                         .outerjoin(Platform, Platform.id == IssqnPlatformDesignation.platform_id)
                         .where(IssqnPlatformDesignation.vehicle_id == vehicle_id)
                         .order_by(IssqnPlatformDesignation.valid_from.desc(),
                                   IssqnPlatformDesignation.id.desc())).all()
        names = user_names(s, (r[0].decided_by for r in rows))
        return [DesignationInfo(r[0].id, r[0].vehicle_id, r[0].platform_id, r[1] or "(divisão entre as plataformas)",
                                r[0].valid_from, names.get(r[0].decided_by, ""), r[0].reason) for r in rows]
