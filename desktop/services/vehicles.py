"""Vehicles (Art. 2, 8 §1 I and §3, 15): the wizard's validation and save with the CRLV data and the ownership mode of
Art. 8 §3 I-IV, the lessors (an individual may lease at most 3 vehicles in the register, Art. 8 §3 IV — checked
inside the write transaction with the lessor's row locked, so two desks cannot both add a 4th), the list and the
detail page."""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from desktop.domain import (
    OwnershipMode,
    VehicleFacts,
    format_cnpj,
    format_cpf,
    format_plate,
    individual_lessor_problem,
    law,
    local_today,
    normalize_cnpj,
    normalize_cpf,
    normalize_plate,
    normalize_renavam,
    validate_cnpj,
    validate_cpf,
    validate_plate,
    validate_renavam,
    vehicle_last_service_day,
    vehicle_problems,
)
from desktop.domain.problems import Problem
from desktop.domain.registration import REGISTRATION_LABELS
from desktop.domain.text import only_alphanumerics
from desktop.errors import ValidationError
from desktop.models import Authorization, AuthorizationEvent, Driver, Lessor, Vehicle
from desktop.models.authorizations import LIVE_AUTHORIZATION_STATUSES
from desktop.services import audit
from desktop.services.attachments import DocumentInfo, documents_of, link_documents
from desktop.services.actors import Actor
from desktop.services.locking import check_version
from desktop.services.permissions import require_role
from desktop.services.changes import changes_of
from desktop.services.registry.deregistration import deregister_record
from desktop.services.registry.scans import Scan, store_scan_in
from desktop.services.registry.history import authorization_rows, event_timeline
from desktop.services.permissions import FRONT_DESK, require_reader
from desktop.services.paging import check_page, count, digits_query, order_by, Page, prefix_range
from desktop.services.timeline import audit_timeline, merge_timelines, TimelineEntry
from desktop.services.lookups import get_or_404

__all__ = [
    "LessorDraft", "VehicleDraft", "VehicleInfo", "VehicleRow", "VehicleDetail", "VEHICLE_SORTS",
    "VEHICLE_STATUS_LABELS", "vehicle_data_problems", "validate_vehicle", "lessor_problem", "register_vehicle",
    "update_vehicle", "get_vehicle", "vehicle_detail", "list_vehicles", "deregister_vehicle", "LessorInfo",
    "find_lessor",
    "lessor_problem_in", "find_lessor_in", "get_vehicle_in", "vehicle_detail_in", "register_vehicle_in",
    "update_vehicle_in", "deregister_vehicle_in", "list_vehicles_in",
]

VEHICLE_STATUS_LABELS = REGISTRATION_LABELS   # one word per status, as exports print it (issue 12 item 13)
LESSOR_KIND_BY_MODE = {OwnershipMode.COMPANY_LEASE: "company", OwnershipMode.INDIVIDUAL_LEASE: "individual"}


@dataclass(frozen=True, slots=True)
class LessorDraft:
    kind: str  # "individual" (CPF, Art. 8 §3 IV) or "company" (CNPJ, Art. 8 §3 III)
    document_number: str
    name: str
    phone: str | None = None
    address: str | None = None


@dataclass(frozen=True, slots=True)
class VehicleDraft:
    plate: str
    renavam: str
    make: str
    model: str
    manufacture_year: int
    model_year: int
    doors: int
    seats: int
    air_conditioning: bool
    registration_municipality: str
    registration_uf: str
    chassis: str | None = None
    colour: str | None = None
    crlv_year: int | None = None
    compulsory_insurance_paid: bool = False
    ownership_mode: str = OwnershipMode.OWN.value
    owner_name: str | None = None
    owner_document: str | None = None
    owner_relationship: str | None = None
    lessor: LessorDraft | None = None
    crlv_document_id: int | None = None
    crlv_scan: Scan | None = None  # chosen in the wizard, stored by register_vehicle / update_vehicle on Finish


@dataclass(frozen=True, slots=True)
class VehicleInfo:
    id: int
    plate: str
    plate_display: str
    renavam: str
    chassis: str | None
    make: str
    model: str
    manufacture_year: int
    model_year: int
    colour: str | None
    doors: int
    seats: int
    air_conditioning: bool
    crlv_year: int | None
    registration_municipality: str
    registration_uf: str
    compulsory_insurance_paid: bool
    ownership_mode: str
    ownership_label: str
    ownership_article: str
    owner_name: str | None
    owner_document: str | None
    owner_relationship: str | None
    lessor_id: int | None
    lessor_kind: str | None
    lessor_name: str | None
    lessor_document_display: str | None
    status: str
    status_label: str
    last_service_day: date
    deregistered_on: date | None
    deregistration_reason: str | None
    version: int
    registered: bool = True   # not descadastrado: may be edited and may be requested for (Art. 24, I, f)


@dataclass(frozen=True, slots=True)
class VehicleRow:
    id: int
    plate_display: str
    renavam: str
    make_model: str
    manufacture_year: int
    ownership_label: str
    status: str
    status_label: str
    authorization_id: int | None = None
    authorization_number: str | None = None
    driver_name: str | None = None
    driver_id: int | None = None   # the driver of the live authorization (the auto form fills it, Art. 22)


@dataclass(frozen=True, slots=True)
class VehicleDetail:
    vehicle: VehicleInfo
    problems: tuple[Problem, ...]
    authorizations: tuple = ()  # tuple[AuthorizationRow, ...]
    documents: tuple[DocumentInfo, ...] = ()
    changes: tuple = ()  # tuple[ChangeInfo, ...]
    timeline: tuple[TimelineEntry, ...] = ()


# ---------------------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------------------

def _clean(value: str | None) -> str | None:
    value = (value or "").strip()
    return value or None


def _mode(value) -> OwnershipMode | None:
    try:
        return OwnershipMode(value)
    except ValueError:
        return None


def _int(value) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def vehicle_data_problems(draft: VehicleDraft, today: date | None = None) -> list[Problem]:
    """The CRLV data and the ownership of Art. 8 §3 (these block saving)."""
    today = today or local_today()
    problems: list[Problem] = []
    for p in (validate_plate(draft.plate), validate_renavam(draft.renavam)):
        if p:
            problems.append(p)
    if not (draft.make or "").strip():
        problems.append(Problem("make", "Informe a marca."))
    if not (draft.model or "").strip():
        problems.append(Problem("model", "Informe o modelo."))
    year, model_year = _int(draft.manufacture_year), _int(draft.model_year)
    if year is None or not 1950 <= year <= today.year + 1:
        problems.append(Problem("manufacture_year", "Informe o ano de fabricação (quatro dígitos)."))
    if model_year is None or (year is not None and not year <= model_year <= year + 1):
        problems.append(Problem("model_year", "O ano do modelo deve ser o de fabricação ou o seguinte."))
    doors, seats = _int(draft.doors), _int(draft.seats)
    if doors is None or not 1 <= doors <= 9:
        problems.append(Problem("doors", "Informe o número de portas."))
    if seats is None or not 1 <= seats <= 60:
        problems.append(Problem("seats", "Informe a lotação (pessoas, incluindo o condutor)."))
    if draft.crlv_year is not None:
        crlv = _int(draft.crlv_year)
        if crlv is None or crlv > today.year + 1 or crlv < 1950:
            problems.append(Problem("crlv_year", "Ano do CRLV inválido."))
    if draft.chassis and len(only_alphanumerics(draft.chassis)) != 17:
        problems.append(Problem("chassis", "O chassi deve ter 17 caracteres."))
    mode = _mode(draft.ownership_mode)
    if mode is None:
        problems.append(Problem("ownership_mode", "Escolha a modalidade de registro do veículo.", "Art. 8, §3"))
    elif mode is OwnershipMode.RELATIVE:
        if not _clean(draft.owner_name):
            problems.append(Problem("owner_name", "Informe o nome do proprietário.", mode.article))
        p = validate_cpf(draft.owner_document, field="owner_document")
        if p:
            problems.append(p)
        if not _clean(draft.owner_relationship):
            problems.append(Problem("owner_relationship",
                                    "Informe o parentesco (cônjuge, companheiro ou parente até 2º grau).",
                                    mode.article))
    elif mode in LESSOR_KIND_BY_MODE:
        lessor = draft.lessor
        if lessor is None:
            problems.append(Problem("lessor", "Informe o locador.", mode.article))
        else:
            if lessor.kind != LESSOR_KIND_BY_MODE[mode]:
                expected = "pessoa jurídica (CNPJ)" if mode is OwnershipMode.COMPANY_LEASE else "pessoa física (CPF)"
                problems.append(Problem("lessor", f"Nesta modalidade o locador é {expected}.", mode.article))
            elif lessor.kind == "company":
                p = validate_cnpj(lessor.document_number, field="lessor_document")
                if p:
                    problems.append(p)
            else:
                p = validate_cpf(lessor.document_number, field="lessor_document")
                if p:
                    problems.append(p)
            if not _clean(lessor.name):
                problems.append(Problem("lessor_name", "Informe o nome do locador.", mode.article))
    return problems


def _facts(manufacture_year, doors, seats, air_conditioning, municipality, uf) -> VehicleFacts | None:
    year, doors, seats = _int(manufacture_year), _int(doors), _int(seats)
    if year is None or doors is None or seats is None:
        return None
    return VehicleFacts(doors=doors, seats=seats, air_conditioning=bool(air_conditioning), manufacture_year=year,
                        municipality=municipality or "", uf=uf or "")


def _insurance_problem(paid: bool) -> list[Problem]:
    if paid:
        return []
    return [Problem("compulsory_insurance_paid", "Falta a quitação do seguro obrigatório (DPVAT).",
                    "Art. 15, parágrafo único, IV")]


def validate_vehicle(draft: VehicleDraft, on: date | None = None) -> list[Problem]:
    """Every problem at once: the data, Art. 2 (doors, air conditioning, seats, age), Art. 8 §1 I (registered in
    the municipality) and Art. 15 IV (compulsory insurance)."""
    on = on or local_today()
    problems = vehicle_data_problems(draft, on)
    facts = _facts(draft.manufacture_year, draft.doors, draft.seats, draft.air_conditioning,
                   draft.registration_municipality, draft.registration_uf)
    if facts is not None:
        already = {p.field for p in problems}
        problems += [p for p in vehicle_problems(facts, on) if p.field not in already]
    return problems + _insurance_problem(draft.compulsory_insurance_paid)


def stored_vehicle_problems(v: Vehicle, on: date) -> list[Problem]:
    facts = _facts(v.manufacture_year, v.doors, v.seats, v.air_conditioning, v.registration_municipality,
                   v.registration_uf)
    problems = vehicle_problems(facts, on) + _insurance_problem(v.compulsory_insurance_paid)
    if v.status != "active":
        problems.append(Problem("status", "O veículo está descadastrado.", "Art. 24, I, f"))
    return problems


def _count_leased(session: Session, lessor_id: int, exclude_vehicle_id: int | None) -> int:
    stmt = select(func.count()).select_from(Vehicle).where(Vehicle.lessor_id == lessor_id, Vehicle.status == "active")
    if exclude_vehicle_id is not None:
        stmt = stmt.where(Vehicle.id != exclude_vehicle_id)
    return session.execute(stmt).scalar_one()


def lessor_problem_in(s: Session, actor: Actor, document_number: str,
                      vehicle_id: int | None = None) -> Problem | None:
    """Art. 8 §3 IV for the wizard: the individual lessor already has 3 vehicles in the register."""
    require_reader(actor)
    lessor = s.execute(select(Lessor).where(Lessor.document_number == normalize_cpf(document_number))
                       ).scalar_one_or_none()
    if lessor is None or lessor.kind != "individual":
        return None
    return individual_lessor_problem(_count_leased(s, lessor.id, vehicle_id))


def lessor_problem(db, actor: Actor, document_number: str, vehicle_id: int | None = None) -> Problem | None:
    """Lessor problem in its own transaction (see `lessor_problem_in`)."""
    with db.session(write=False) as s:
        return lessor_problem_in(s, actor, document_number, vehicle_id)


@dataclass(frozen=True, slots=True)
class LessorInfo:
    """A lessor already in the register (Art. 8, §3, III/IV) and how many vehicles it leases there."""

    id: int
    kind: str                  # "individual" (CPF, Art. 8 §3 IV) or "company" (CNPJ, Art. 8 §3 III)
    document_display: str
    name: str
    phone: str | None
    address: str | None
    vehicle_count: int         # registered (active) vehicles leased from it, not counting `vehicle_id`
    problem: Problem | None    # Art. 8 §3 IV: an individual with 3 already may lease no other

    @property
    def count_text(self) -> str:
        text = f"{self.name} já tem {self.vehicle_count} veículo(s) no cadastro"
        if self.kind == "individual":
            text += f" (máximo {law.MAX_VEHICLES_PER_INDIVIDUAL_LESSOR}, Art. 8, §3, IV)"
        return text + "."


def find_lessor_in(s: Session, actor: Actor, document: str, vehicle_id: int | None = None) -> LessorInfo | None:
    """The lessor with this CPF (11 digits) or CNPJ (14 characters), with its vehicle count, for the wizard to
    fill the name and show the Art. 8 §3 IV limit as the CPF is typed. None when not registered."""
    require_reader(actor)
    digits = normalize_cpf(document)
    number = digits if len(digits) == 11 and digits == only_alphanumerics(document) else normalize_cnpj(document)
    if len(number) not in (11, 14):
        return None
    lessor = s.execute(select(Lessor).where(Lessor.document_number == number)).scalar_one_or_none()
    if lessor is None:
        return None
    leased = _count_leased(s, lessor.id, vehicle_id)
    return LessorInfo(
        id=lessor.id, kind=lessor.kind, document_display=_doc_display(lessor.kind, lessor.document_number),
        name=lessor.name, phone=lessor.phone, address=lessor.address, vehicle_count=leased,
        problem=individual_lessor_problem(leased) if lessor.kind == "individual" else None)


def find_lessor(db, actor: Actor, document: str, vehicle_id: int | None = None) -> LessorInfo | None:
    """Find lessor in its own transaction (see `find_lessor_in`)."""
    with db.session(write=False) as s:
        return find_lessor_in(s, actor, document, vehicle_id)


# ---------------------------------------------------------------------------------------------------------
# Rows, info
# ---------------------------------------------------------------------------------------------------------

def _doc_display(kind: str | None, number: str | None) -> str | None:
    if not number:
        return None
    return format_cnpj(number) if kind == "company" else format_cpf(number)


def _info(session: Session, v: Vehicle) -> VehicleInfo:
    mode = OwnershipMode(v.ownership_mode)
    lessor = session.get(Lessor, v.lessor_id) if v.lessor_id else None
    return VehicleInfo(
        id=v.id, plate=v.plate, plate_display=format_plate(v.plate), renavam=v.renavam, chassis=v.chassis,
        make=v.make, model=v.model, manufacture_year=v.manufacture_year, model_year=v.model_year, colour=v.colour,
        doors=v.doors, seats=v.seats, air_conditioning=v.air_conditioning, crlv_year=v.crlv_year,
        registration_municipality=v.registration_municipality, registration_uf=v.registration_uf,
        compulsory_insurance_paid=v.compulsory_insurance_paid, ownership_mode=v.ownership_mode,
        ownership_label=mode.label, ownership_article=mode.article, owner_name=v.owner_name,
        owner_document=v.owner_document, owner_relationship=v.owner_relationship, lessor_id=v.lessor_id,
        lessor_kind=lessor.kind if lessor else None, lessor_name=lessor.name if lessor else None,
        lessor_document_display=_doc_display(lessor.kind, lessor.document_number) if lessor else None,
        status=v.status, status_label=VEHICLE_STATUS_LABELS.get(v.status, v.status),
        last_service_day=vehicle_last_service_day(v.manufacture_year), deregistered_on=v.deregistered_on,
        deregistration_reason=v.deregistration_reason, version=v.version, registered=v.status == "active",
    )


def vehicle_rows(session: Session, vehicles) -> tuple[VehicleRow, ...]:
    vehicles = list(vehicles)
    ids = [v.id for v in vehicles]
    live: dict[int, tuple[int, str | None, str, int]] = {}
    if ids:
        # status filtered in Python, so the vehicle_id index is used (see drivers._live_authorizations)
        for vid, aid, number, name, status, driver_id in session.execute(
                select(Authorization.vehicle_id, Authorization.id, Authorization.number, Driver.name,
                       Authorization.status, Authorization.driver_id)
                .join(Driver, Driver.id == Authorization.driver_id)
                .where(Authorization.vehicle_id.in_(ids))):
            if status in LIVE_AUTHORIZATION_STATUSES:
                live[vid] = (aid, number, name, driver_id)
    rows = []
    for v in vehicles:
        a = live.get(v.id)
        rows.append(VehicleRow(
            id=v.id, plate_display=format_plate(v.plate), renavam=v.renavam, make_model=f"{v.make} {v.model}",
            manufacture_year=v.manufacture_year, ownership_label=OwnershipMode(v.ownership_mode).label,
            status=v.status, status_label=VEHICLE_STATUS_LABELS.get(v.status, v.status),
            authorization_id=a[0] if a else None, authorization_number=a[1] if a else None,
            driver_name=a[2] if a else None, driver_id=a[3] if a else None,
        ))
    return tuple(rows)


def get_vehicle_in(s: Session, actor: Actor, vehicle_id: int) -> VehicleInfo:
    require_reader(actor)
    return _info(s, get_or_404(s, Vehicle, vehicle_id, "Veículo"))


def get_vehicle(db, actor: Actor, vehicle_id: int) -> VehicleInfo:
    """Get vehicle in its own transaction (see `get_vehicle_in`)."""
    with db.session(write=False) as s:
        return get_vehicle_in(s, actor, vehicle_id)


def vehicle_detail_in(s: Session, actor: Actor, vehicle_id: int, on: date | None = None) -> VehicleDetail:
    require_reader(actor)
    on = on or local_today()
    v = get_or_404(s, Vehicle, vehicle_id, "Veículo")
    substituted = select(AuthorizationEvent.authorization_id).where(
        or_(AuthorizationEvent.old_vehicle_id == v.id, AuthorizationEvent.new_vehicle_id == v.id))
    auths = s.execute(select(Authorization).where(
        or_(Authorization.vehicle_id == v.id, Authorization.id.in_(substituted)))
        .order_by(Authorization.id.desc())).scalars().all()
    return VehicleDetail(
        vehicle=_info(s, v), problems=tuple(stored_vehicle_problems(v, on)),
        authorizations=authorization_rows(s, auths), documents=documents_of(s, vehicle_id=v.id),
        changes=changes_of(s, vehicle_id=v.id),
        timeline=merge_timelines(audit_timeline(s, "vehicle", v.id), event_timeline(s, [a.id for a in auths])),
    )


def vehicle_detail(db, actor: Actor, vehicle_id: int, on: date | None = None) -> VehicleDetail:
    """Vehicle detail in its own transaction (see `vehicle_detail_in`)."""
    with db.session(write=False) as s:
        return vehicle_detail_in(s, actor, vehicle_id, on)


# ---------------------------------------------------------------------------------------------------------
# Writes
# ---------------------------------------------------------------------------------------------------------

def _lessor_for(session: Session, actor: Actor, draft: VehicleDraft) -> Lessor | None:
    """The lessor of modes III and IV, found by CPF/CNPJ or created; an individual's row is locked (PostgreSQL:
    SELECT ... FOR UPDATE; SQLite: the write transaction already began with BEGIN IMMEDIATE)."""
    mode = OwnershipMode(draft.ownership_mode)
    if mode not in LESSOR_KIND_BY_MODE or draft.lessor is None:
        return None
    ld = draft.lessor
    number = normalize_cnpj(ld.document_number) if ld.kind == "company" else normalize_cpf(ld.document_number)
    lessor = session.execute(select(Lessor).where(Lessor.document_number == number).with_for_update()
                             ).scalar_one_or_none()
    if lessor is None:
        lessor = Lessor(kind=ld.kind, document_number=number, name=" ".join(ld.name.split()),
                        phone=_clean(ld.phone), address=_clean(ld.address))
        session.add(lessor)
        session.flush()
        audit.record(session, actor, "lessor.create", "lessor", lessor.id, None,
                     audit.snapshot(lessor, exclude=("search_key", "created_at")))
    elif lessor.kind != ld.kind:
        raise ValidationError([Problem("lessor", "Este CPF/CNPJ já está cadastrado como outro tipo de locador.",
                                       mode.article)])
    return lessor


def _apply(v: Vehicle, draft: VehicleDraft, lessor: Lessor | None) -> None:
    v.plate = normalize_plate(draft.plate)
    v.renavam = normalize_renavam(draft.renavam)
    v.chassis = only_alphanumerics(draft.chassis) or None
    v.make = draft.make.strip()
    v.model = draft.model.strip()
    v.manufacture_year = int(draft.manufacture_year)
    v.model_year = int(draft.model_year)
    v.colour = _clean(draft.colour)
    v.doors = int(draft.doors)
    v.seats = int(draft.seats)
    v.air_conditioning = bool(draft.air_conditioning)
    v.crlv_year = _int(draft.crlv_year)
    v.registration_municipality = draft.registration_municipality.strip()
    v.registration_uf = draft.registration_uf.strip().upper()
    v.compulsory_insurance_paid = bool(draft.compulsory_insurance_paid)
    v.ownership_mode = OwnershipMode(draft.ownership_mode).value
    relative = v.ownership_mode == OwnershipMode.RELATIVE.value
    v.owner_name = _clean(draft.owner_name)
    v.owner_document = (normalize_cpf(draft.owner_document) or None) if draft.owner_document else None
    v.owner_relationship = _clean(draft.owner_relationship) if relative else None
    v.lessor_id = lessor.id if lessor else None


def _save_problems(draft: VehicleDraft, on: date) -> list[Problem]:
    """What refuses saving: the data and Art. 2 / Art. 8 §1 I (a vehicle that may not serve is not registered).
    The compulsory insurance (Art. 15 IV) is a problem for the approval, not for the register."""
    return [p for p in validate_vehicle(draft, on) if p.field != "compulsory_insurance_paid"]


def _check_lessor_limit(session: Session, lessor: Lessor | None, vehicle_id: int | None) -> None:
    if lessor is None or lessor.kind != "individual":
        return
    problem = individual_lessor_problem(_count_leased(session, lessor.id, vehicle_id))
    if problem:
        raise ValidationError([problem])


def _snapshot(v: Vehicle) -> dict:
    return audit.snapshot(v, exclude=("created_at", "updated_at"))


def register_vehicle_in(s: Session, actor: Actor, draft: VehicleDraft, on: date | None = None) -> VehicleInfo:
    require_role(actor, *FRONT_DESK)
    on = on or local_today()
    problems = _save_problems(draft, on)
    if problems:
        raise ValidationError(problems)
    lessor = _lessor_for(s, actor, draft)
    _check_lessor_limit(s, lessor, None)  # Art. 8, §3, IV
    v = Vehicle(status="active")
    _apply(v, draft, lessor)
    s.add(v)
    s.flush()
    if draft.crlv_document_id:
        link_documents(s, actor, [draft.crlv_document_id], vehicle_id=v.id)
    audit.record(s, actor, "vehicle.register", "vehicle", v.id, None, _snapshot(v))
    return _info(s, v)


def _with_stored_scan(s: Session, actor: Actor, draft: VehicleDraft, on: date | None) -> VehicleDraft:
    """The wizard's CRLV scan kept in memory, stored once the draft passed its checks (issue 12, item 22), in the
    transaction that saves the vehicle and links it (a refused save leaves no scan behind). The `_in` forms take
    drafts whose scan is stored."""
    if draft.crlv_scan is None:
        return draft
    require_role(actor, *FRONT_DESK)
    problems = _save_problems(draft, on or local_today())
    if problems:
        raise ValidationError(problems)
    document_id = store_scan_in(s, actor, draft.crlv_scan, "crlv", number=(draft.renavam or "").strip() or None)
    return replace(draft, crlv_scan=None, crlv_document_id=document_id)


def register_vehicle(db, actor: Actor, draft: VehicleDraft, on: date | None = None) -> VehicleInfo:
    """Register vehicle in its own transaction (see `register_vehicle_in`), storing the wizard's scan
    first in the same transaction."""
    with db.session() as s:
        return register_vehicle_in(s, actor, _with_stored_scan(s, actor, draft, on), on)


def update_vehicle_in(s: Session, actor: Actor, vehicle_id: int, draft: VehicleDraft, expected_version: int,
                      on: date | None = None) -> VehicleInfo:
    require_role(actor, *FRONT_DESK)
    on = on or local_today()
    problems = _save_problems(draft, on)
    if problems:
        raise ValidationError(problems)
    v = get_or_404(s, Vehicle, vehicle_id, "Veículo")
    check_version(v, expected_version)
    lessor = _lessor_for(s, actor, draft)
    if lessor is not None and lessor.id != v.lessor_id:
        _check_lessor_limit(s, lessor, v.id)
    before = _snapshot(v)
    _apply(v, draft, lessor)
    s.flush()
    if draft.crlv_document_id:
        link_documents(s, actor, [draft.crlv_document_id], vehicle_id=v.id)
    audit.record(s, actor, "vehicle.update", "vehicle", v.id, before, _snapshot(v))
    return _info(s, v)


def update_vehicle(db, actor: Actor, vehicle_id: int, draft: VehicleDraft, expected_version: int,
                   on: date | None = None) -> VehicleInfo:
    """Update vehicle in its own transaction (see `update_vehicle_in`), storing the wizard's scan
    first in the same transaction."""
    with db.session() as s:
        return update_vehicle_in(s, actor, vehicle_id, _with_stored_scan(s, actor, draft, on), expected_version, on)


def deregister_vehicle_in(s: Session, actor: Actor, vehicle_id: int, reason: str, act_number: str | None,
                          on: date | None, expected_version: int) -> VehicleInfo:
    """Descadastramento of the vehicle by a gestor's act (Art. 24, I, f); its live authorization ends with it."""
    return _info(s, deregister_record(
        s, actor, Vehicle, vehicle_id, expected_version, not_found="Veículo", article="Art. 24, I, f",
        entity="vehicle", label="veículo", owner_column=Authorization.vehicle_id, reason=reason,
        act_number=act_number, on=on, snapshot=_snapshot))


def deregister_vehicle(db, actor: Actor, vehicle_id: int, reason: str, act_number: str | None, on: date | None,
                       expected_version: int) -> VehicleInfo:
    """Deregister vehicle in its own transaction (see `deregister_vehicle_in`)."""
    with db.session() as s:
        return deregister_vehicle_in(s, actor, vehicle_id, reason, act_number, on, expected_version)


# ---------------------------------------------------------------------------------------------------------
# List
# ---------------------------------------------------------------------------------------------------------

VEHICLE_SORTS = {
    "plate": Vehicle.plate,
    "make": Vehicle.make,
    "manufacture_year": Vehicle.manufacture_year,
    "status": Vehicle.status,
}


def list_vehicles_in(s: Session, actor: Actor, text: str = "", status: str | None = None, sort: str = "plate",
                     descending: bool = False, offset: int = 0, limit: int = 50) -> Page[VehicleRow]:
    """One page of vehicles: digits → RENAVAM prefix; otherwise plate prefix ("abc-1" finds ABC1234)."""
    require_reader(actor)
    offset, limit = check_page(offset, limit)
    stmt = select(Vehicle)
    digits = digits_query(text)
    if digits:
        stmt = stmt.where(prefix_range(Vehicle.renavam, digits))
    elif only_alphanumerics(text):
        stmt = stmt.where(prefix_range(Vehicle.plate, only_alphanumerics(text)))
    if status:
        stmt = stmt.where(Vehicle.status == status)
    rows = s.execute(stmt.order_by(*order_by(VEHICLE_SORTS, sort, descending, Vehicle.id))
                     .offset(offset).limit(limit)).scalars().all()
    total = len(rows) if offset == 0 and len(rows) < limit else count(s, stmt)
    return Page(vehicle_rows(s, rows), total, offset, limit)


def list_vehicles(db, actor: Actor, text: str = "", status: str | None = None, sort: str = "plate",
                  descending: bool = False, offset: int = 0, limit: int = 50) -> Page[VehicleRow]:
    """List vehicles in its own transaction (see `list_vehicles_in`)."""
    with db.session(write=False) as s:
        return list_vehicles_in(s, actor, text, status, sort, descending, offset, limit)
