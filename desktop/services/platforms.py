"""Platforms (plataformas tecnológicas, Art. 5-6): registration, the municipal registration that lets them operate
(Art. 6), the passengers' accident insurance (APP, Art. 5 X), the list, and a detail page with their drivers and
vehicles."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from desktop.domain import format_cnpj, local_today, normalize_cnpj, validate_cnpj
from desktop.domain.problems import Problem
from desktop.domain.roles import REGISTRY_ROLES
from desktop.errors import ValidationError
from desktop.models import Authorization, Driver, DriverPlatform, Platform, Vehicle
from desktop.models.authorizations import LIVE_AUTHORIZATION_STATUSES
from desktop.models.registry import PLATFORM_STATUSES
from desktop.services import audit
from desktop.services.attachments import DocumentInfo, documents_of
from desktop.services.actors import Actor
from desktop.services.locking import check_version
from desktop.services.permissions import require_role
from desktop.services.drivers import driver_rows
from desktop.services.permissions import FRONT_DESK, require_reader
from desktop.services.paging import check_page, count, digits_query, order_by, Page, prefix_range, search_terms
from desktop.services.timeline import audit_timeline, TimelineEntry
from desktop.services.lookups import get_or_404
from desktop.services.vehicles import vehicle_rows

__all__ = [
    "PlatformDraft", "PlatformInfo", "PlatformRow", "PlatformDetail", "PLATFORM_SORTS", "PLATFORM_STATUS_LABELS",
    "validate_platform", "create_platform", "update_platform", "set_platform_status", "get_platform",
    "list_platforms", "platform_options", "platform_detail",
    "create_platform_in", "update_platform_in", "set_platform_status_in", "get_platform_in", "list_platforms_in",
    "platform_options_in", "platform_detail_in",
]

PLATFORM_STATUS_LABELS = {
    "pending": "Sem inscrição municipal",
    "active": "Inscrita",
    "suspended": "Suspensa",
    "deregistered": "Descadastrada",
}
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


@dataclass(frozen=True, slots=True)
class PlatformDraft:
    cnpj: str
    legal_name: str
    trade_name: str
    contact_name: str | None = None
    email: str | None = None
    phone: str | None = None
    address: str | None = None
    municipal_registration_number: str | None = None
    municipal_registration_date: date | None = None
    app_insurance_policy: str | None = None
    app_insurance_insurer: str | None = None
    app_insurance_valid_until: date | None = None


@dataclass(frozen=True, slots=True)
class PlatformInfo:
    id: int
    cnpj: str
    cnpj_display: str
    legal_name: str
    trade_name: str
    contact_name: str | None
    email: str | None
    phone: str | None
    address: str | None
    municipal_registration_number: str | None
    municipal_registration_date: date | None
    app_insurance_policy: str | None
    app_insurance_insurer: str | None
    app_insurance_valid_until: date | None
    status: str
    status_label: str
    version: int
    editable: bool = True     # a descadastrada platform's data stay as they were


@dataclass(frozen=True, slots=True)
class PlatformRow:
    id: int
    cnpj_display: str
    trade_name: str
    legal_name: str
    municipal_registration_number: str | None
    app_insurance_valid_until: date | None
    status: str
    status_label: str


@dataclass(frozen=True, slots=True)
class PlatformDetail:
    platform: PlatformInfo
    drivers: tuple  # tuple[DriverRow, ...]
    vehicles: tuple  # tuple[VehicleRow, ...]
    documents: tuple[DocumentInfo, ...]
    timeline: tuple[TimelineEntry, ...]


def _clean(value: str | None) -> str | None:
    value = (value or "").strip()
    return value or None


def validate_platform(draft: PlatformDraft, on: date | None = None) -> list[Problem]:
    """Every problem of the form at once (pure)."""
    on = on or local_today()
    problems: list[Problem] = []
    p = validate_cnpj(draft.cnpj)
    if p:
        problems.append(p)
    if not (draft.legal_name or "").strip():
        problems.append(Problem("legal_name", "Informe a razão social."))
    if not (draft.trade_name or "").strip():
        problems.append(Problem("trade_name", "Informe o nome fantasia."))
    if draft.email and not _EMAIL.match(draft.email.strip()):
        problems.append(Problem("email", f"E-mail «{draft.email.strip()}» inválido."))
    number, when = _clean(draft.municipal_registration_number), draft.municipal_registration_date
    if number and when is None:
        problems.append(Problem("municipal_registration_date", "Informe a data da inscrição municipal.", "Art. 6"))
    if when is not None and not number:
        problems.append(Problem("municipal_registration_number", "Informe o número da inscrição municipal.",
                                "Art. 6"))
    if when is not None and when > on:
        problems.append(Problem("municipal_registration_date", "A data da inscrição não pode ser futura."))
    if draft.app_insurance_valid_until is not None and not _clean(draft.app_insurance_policy):
        problems.append(Problem("app_insurance_policy", "Informe o número da apólice do seguro APP.",
                                "Art. 5, X"))
    if _clean(draft.app_insurance_policy) and draft.app_insurance_valid_until is None:
        problems.append(Problem("app_insurance_valid_until", "Informe a validade do seguro APP.", "Art. 5, X"))
    elif draft.app_insurance_valid_until is not None and draft.app_insurance_valid_until < on:
        problems.append(Problem(
            "app_insurance_valid_until",
            f"O seguro APP venceu em {draft.app_insurance_valid_until:%d/%m/%Y}.", "Art. 5, X"))
    return problems


def _info(p: Platform) -> PlatformInfo:
    return PlatformInfo(
        id=p.id, cnpj=p.cnpj, cnpj_display=format_cnpj(p.cnpj), legal_name=p.legal_name, trade_name=p.trade_name,
        contact_name=p.contact_name, email=p.email, phone=p.phone, address=p.address,
        municipal_registration_number=p.municipal_registration_number,
        municipal_registration_date=p.municipal_registration_date, app_insurance_policy=p.app_insurance_policy,
        app_insurance_insurer=p.app_insurance_insurer, app_insurance_valid_until=p.app_insurance_valid_until,
        status=p.status, status_label=PLATFORM_STATUS_LABELS.get(p.status, p.status), version=p.version,
        editable=p.status != "deregistered",
    )


def _apply(p: Platform, draft: PlatformDraft) -> None:
    p.cnpj = normalize_cnpj(draft.cnpj)
    p.legal_name = draft.legal_name.strip()
    p.trade_name = draft.trade_name.strip()
    p.contact_name = _clean(draft.contact_name)
    p.email = _clean(draft.email)
    p.phone = _clean(draft.phone)
    p.address = _clean(draft.address)
    p.municipal_registration_number = _clean(draft.municipal_registration_number)
    p.municipal_registration_date = draft.municipal_registration_date
    p.app_insurance_policy = _clean(draft.app_insurance_policy)
    p.app_insurance_insurer = _clean(draft.app_insurance_insurer)
    p.app_insurance_valid_until = draft.app_insurance_valid_until
    # Art. 6: only a platform with its municipal registration may operate.
    if p.status in (None, "pending", "active"):
        p.status = "active" if p.municipal_registration_number else "pending"


def _save_problems(draft: PlatformDraft, on: date) -> list[Problem]:
    # An expired APP policy is shown, not a reason to refuse keeping the platform's data.
    return [p for p in validate_platform(draft, on)
            if not (p.field == "app_insurance_valid_until" and "venceu" in p.message)]


def create_platform_in(s: Session, actor: Actor, draft: PlatformDraft) -> PlatformInfo:
    require_role(actor, *FRONT_DESK)
    problems = _save_problems(draft, local_today())
    if problems:
        raise ValidationError(problems)
    p = Platform(status="pending")
    _apply(p, draft)
    s.add(p)
    s.flush()
    audit.record(s, actor, "platform.create", "platform", p.id, None, audit.snapshot(p))
    return _info(p)


def create_platform(db, actor: Actor, draft: PlatformDraft) -> PlatformInfo:
    """Create platform in its own transaction (see `create_platform_in`)."""
    with db.session() as s:
        return create_platform_in(s, actor, draft)


def update_platform_in(s: Session, actor: Actor, platform_id: int, draft: PlatformDraft,
                       expected_version: int) -> PlatformInfo:
    require_role(actor, *FRONT_DESK)
    problems = _save_problems(draft, local_today())
    if problems:
        raise ValidationError(problems)
    p = get_or_404(s, Platform, platform_id, "Plataforma")
    check_version(p, expected_version)
    before = audit.snapshot(p)
    _apply(p, draft)
    s.flush()
    audit.record(s, actor, "platform.update", "platform", p.id, before, audit.snapshot(p))
    return _info(p)


def update_platform(db, actor: Actor, platform_id: int, draft: PlatformDraft, expected_version: int) -> PlatformInfo:
    """Update platform in its own transaction (see `update_platform_in`)."""
    with db.session() as s:
        return update_platform_in(s, actor, platform_id, draft, expected_version)


def set_platform_status_in(s: Session, actor: Actor, platform_id: int, status: str, reason: str,
                           expected_version: int) -> PlatformInfo:
    """A gestor's decision on a platform (suspension, deregistration, reinstatement), with the reason."""
    require_role(actor, *REGISTRY_ROLES.decide)
    if status not in PLATFORM_STATUSES:
        raise ValidationError([Problem("status", f"Situação desconhecida: {status}.")])
    if not (reason or "").strip():
        raise ValidationError([Problem("reason", "Informe o motivo.")])
    p = get_or_404(s, Platform, platform_id, "Plataforma")
    check_version(p, expected_version)
    if status == "active" and not p.municipal_registration_number:
        raise ValidationError([Problem("municipal_registration_number",
                                       "Sem inscrição municipal a plataforma não pode operar.", "Art. 6")])
    before = {"status": p.status}
    p.status = status
    s.flush()
    audit.record(s, actor, "platform.status", "platform", p.id, before,
                 {"status": status, "reason": reason.strip()})
    return _info(p)


def set_platform_status(db, actor: Actor, platform_id: int, status: str, reason: str,
                        expected_version: int) -> PlatformInfo:
    """Set platform status in its own transaction (see `set_platform_status_in`)."""
    with db.session() as s:
        return set_platform_status_in(s, actor, platform_id, status, reason, expected_version)


def get_platform_in(s: Session, actor: Actor, platform_id: int) -> PlatformInfo:
    require_reader(actor)
    return _info(get_or_404(s, Platform, platform_id, "Plataforma"))


def get_platform(db, actor: Actor, platform_id: int) -> PlatformInfo:
    """Get platform in its own transaction (see `get_platform_in`)."""
    with db.session(write=False) as s:
        return get_platform_in(s, actor, platform_id)


PLATFORM_SORTS = {
    "trade_name": Platform.search_key,
    "legal_name": Platform.legal_name,
    "cnpj": Platform.cnpj,
    "status": Platform.status,
    "app_insurance_valid_until": Platform.app_insurance_valid_until,
}


def _row(p: Platform) -> PlatformRow:
    return PlatformRow(p.id, format_cnpj(p.cnpj), p.trade_name, p.legal_name, p.municipal_registration_number,
                       p.app_insurance_valid_until, p.status, PLATFORM_STATUS_LABELS.get(p.status, p.status))


def list_platforms_in(s: Session, actor: Actor, text: str = "", status: str | None = None, sort: str = "trade_name",
                      descending: bool = False, offset: int = 0, limit: int = 50) -> Page[PlatformRow]:
    require_reader(actor)
    offset, limit = check_page(offset, limit)
    stmt = select(Platform)
    digits = digits_query(text)
    if digits:
        stmt = stmt.where(prefix_range(Platform.cnpj, digits))
    elif search_terms(text):
        term = search_terms(text)
        # search_key is "trade name legal name": the prefix finds the trade name; the legal name is a contains.
        stmt = stmt.where(prefix_range(Platform.search_key, term) | Platform.search_key.contains(" " + term))
    if status:
        stmt = stmt.where(Platform.status == status)
    total = count(s, stmt)
    rows = s.execute(stmt.order_by(*order_by(PLATFORM_SORTS, sort, descending, Platform.id))
                     .offset(offset).limit(limit)).scalars().all()
    return Page(tuple(_row(p) for p in rows), total, offset, limit)


def list_platforms(db, actor: Actor, text: str = "", status: str | None = None, sort: str = "trade_name",
                   descending: bool = False, offset: int = 0, limit: int = 50) -> Page[PlatformRow]:
    """List platforms in its own transaction (see `list_platforms_in`)."""
    with db.session(write=False) as s:
        return list_platforms_in(s, actor, text, status, sort, descending, offset, limit)


def platform_options_in(s: Session, actor: Actor) -> list[tuple[int, str]]:
    """(id, nome fantasia) of the platforms a driver may be linked to."""
    require_reader(actor)
    return [(i, n) for i, n in s.execute(
        select(Platform.id, Platform.trade_name).where(Platform.status != "deregistered")
        .order_by(Platform.search_key))]


def platform_options(db, actor: Actor) -> list[tuple[int, str]]:
    """Platform options in its own transaction (see `platform_options_in`)."""
    with db.session(write=False) as s:
        return platform_options_in(s, actor)


def platform_detail_in(s: Session, actor: Actor, platform_id: int) -> PlatformDetail:
    require_reader(actor)
    p = get_or_404(s, Platform, platform_id, "Plataforma")
    drivers = s.execute(
        select(Driver).join(DriverPlatform, DriverPlatform.driver_id == Driver.id)
        .where(DriverPlatform.platform_id == p.id, DriverPlatform.until.is_(None))
        .order_by(Driver.search_key)).scalars().all()
    driver_ids = [d.id for d in drivers]
    vehicles = []
    if driver_ids:
        vehicles = s.execute(
            select(Vehicle).join(Authorization, Authorization.vehicle_id == Vehicle.id)
            .where(Authorization.driver_id.in_(driver_ids),
                   Authorization.status.in_(LIVE_AUTHORIZATION_STATUSES))
            .order_by(Vehicle.plate)).scalars().all()
    return PlatformDetail(
        platform=_info(p), drivers=driver_rows(s, drivers), vehicles=vehicle_rows(s, vehicles),
        documents=documents_of(s, platform_id=p.id),
        timeline=tuple(audit_timeline(s, "platform", p.id)),
    )


def platform_detail(db, actor: Actor, platform_id: int) -> PlatformDetail:
    """Platform detail in its own transaction (see `platform_detail_in`)."""
    with db.session(write=False) as s:
        return platform_detail_in(s, actor, platform_id)

