"""Drivers (condutores, Art. 8 and 12): the registration wizard's validation and save, the checklist of Art. 12 I-IX,
§1 and Art. 8 §1 II (one line per item with its document, number, dates and who checked it), the platforms the
driver works for, the list with filter-as-you-type and the detail page with the full timeline."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date, datetime

from sqlalchemy import and_, literal_column, select
from sqlalchemy.orm import Session, undefer

from desktop.domain import (
    CHECKLIST_BY_KEY,
    DRIVER_CHECKLIST,
    AuthorizationStatus,
    DriverFacts,
    Evidence,
    ItemKind,
    driver_problems,
    format_cpf,
    is_accepted_cnh_category,
    local_today,
    normalize_cpf,
    validate_cnh,
    validate_cpf,
)
from desktop.domain.driver import normalize_cnh_category, photo_problem
from desktop.domain.problems import Problem
from desktop.domain.registration import REGISTRATION_LABELS
from desktop.domain.text import only_digits
from desktop.errors import ValidationError
from desktop.models import Authorization, Driver, DriverChecklistItem, DriverPlatform, Platform
from desktop.models.authorizations import LIVE_AUTHORIZATION_STATUSES
from desktop.models.types import now
from desktop.services import audit
from desktop.services.attachments import DocumentInfo, documents_of, link_documents
from desktop.services.actors import Actor
from desktop.services.locking import check_version
from desktop.services.permissions import require_role
from desktop.services.changes import changes_of
from desktop.services.dashboard_queries import driver_condition
from desktop.services.registry.deregistration import deregister_record
from desktop.services.registry.scans import Scan, store_scan_in
from desktop.services.registry.history import authorization_rows, event_timeline
from desktop.services.permissions import FRONT_DESK, require_reader
from desktop.services.paging import (
    capped_count,
    check_page,
    contains,
    count,
    digits_query,
    order_by,
    Page,
    prefix_range,
    search_terms,
)
from desktop.services.timeline import audit_timeline, merge_timelines, TimelineEntry
from desktop.services.lookups import get_or_404, user_names

__all__ = [
    "ChecklistEntry", "DriverDraft", "DriverInfo", "ChecklistLine", "DriverRow", "DriverDetail", "DRIVER_SORTS",
    "DRIVER_STATUS_LABELS", "driver_data_problems", "validate_driver", "register_driver", "update_driver",
    "update_checklist", "get_driver", "driver_detail", "driver_photo", "list_drivers", "deregister_driver",
    "get_driver_in", "driver_photo_in", "driver_detail_in", "register_driver_in", "update_driver_in",
    "update_checklist_in", "deregister_driver_in", "list_drivers_in",
]

DRIVER_STATUS_LABELS = REGISTRATION_LABELS   # one word per status, as exports print it (issue 12 item 13)
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_UF = re.compile(r"^[A-Za-z]{2}$")
_PHOTO_MIMES = ("image/jpeg", "image/png")


@dataclass(frozen=True, slots=True)
class ChecklistEntry:
    """One line of the driver's checklist as the wizard fills it.

    For a document item, `present` means the document was presented (and `expires_on` is its validity); for a
    condition item (no gravíssima infraction, no conviction) it means the office verified that nothing was found.
    `checked_by` is the user who checked it (None: the user saving)."""

    key: str
    present: bool = True
    document_id: int | None = None
    number: str | None = None
    issued_on: date | None = None
    expires_on: date | None = None
    note: str | None = None
    checked_by: int | None = None
    scan: Scan | None = None  # chosen in the wizard, stored by register_driver / update_driver on Finish


@dataclass(frozen=True, slots=True)
class DriverDraft:
    cpf: str
    name: str
    birth_date: date | None = None
    address: str | None = None
    district: str | None = None
    city: str | None = None  # the residence municipality (Art. 12 VI)
    uf: str | None = None
    zip_code: str | None = None
    phone: str | None = None
    email: str | None = None
    cnh_number: str | None = None
    cnh_category: str | None = None
    cnh_expiry: date | None = None
    cnh_ear: bool = False
    nit: str | None = None
    checklist: tuple[ChecklistEntry, ...] = ()
    platform_ids: tuple[int, ...] = ()
    gravissima_infractions: tuple[date, ...] = ()
    photo: bytes | None = None
    photo_mime: str | None = None
    # issue 28 point 7: the photo must come with this draft — the desk's wizard registering a driver, or editing one
    # with no photo stored: the credential (Art. 13, I) is refused without it (`domain.driver.photo_problem`)
    photo_required: bool = False


@dataclass(frozen=True, slots=True)
class DriverInfo:
    id: int
    cpf: str
    cpf_display: str
    name: str
    birth_date: date | None
    address: str | None
    district: str | None
    city: str | None
    uf: str | None
    zip_code: str | None
    phone: str | None
    email: str | None
    cnh_number: str | None
    cnh_category: str | None
    cnh_expiry: date | None
    cnh_ear: bool
    nit: str | None
    status: str
    status_label: str
    deregistered_on: date | None
    deregistration_reason: str | None
    has_photo: bool
    platform_ids: tuple[int, ...]
    version: int
    registered: bool = True   # not descadastrado: may be edited and may request (Art. 24, I, d)


@dataclass(frozen=True, slots=True)
class ChecklistLine:
    key: str
    label: str
    article: str
    kind: str
    has_expiry: bool
    present: bool
    document_id: int | None
    number: str | None
    issued_on: date | None
    expires_on: date | None
    note: str | None
    checked_by_name: str
    checked_at: datetime | None
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True, slots=True)
class DriverRow:
    id: int
    name: str
    cpf_display: str
    phone: str | None
    status: str
    status_label: str
    authorization_id: int | None = None
    authorization_number: str | None = None
    authorization_status: str | None = None
    authorization_status_label: str = ""


@dataclass(frozen=True, slots=True)
class DriverDetail:
    driver: DriverInfo
    checklist: tuple[ChecklistLine, ...]
    problems: tuple[Problem, ...]
    platforms: tuple[tuple[int, str], ...]
    authorizations: tuple = ()  # tuple[AuthorizationRow, ...]
    documents: tuple[DocumentInfo, ...] = ()
    changes: tuple = ()  # tuple[ChangeInfo, ...]
    timeline: tuple[TimelineEntry, ...] = field(default_factory=tuple)


# ---------------------------------------------------------------------------------------------------------
# Validation (pure: the wizard calls it on every keystroke)
# ---------------------------------------------------------------------------------------------------------

def _clean(value: str | None) -> str | None:
    value = (value or "").strip()
    return value or None


def driver_data_problems(draft: DriverDraft, today: date | None = None) -> list[Problem]:
    """Format problems of the driver's data; these block saving."""
    today = today or local_today()
    problems: list[Problem] = []
    p = validate_cpf(draft.cpf)
    if p:
        problems.append(p)
    if not (draft.name or "").strip():
        problems.append(Problem("name", "Informe o nome completo."))
    elif len(draft.name.strip()) > 200:
        problems.append(Problem("name", "O nome tem mais de 200 caracteres."))
    if draft.birth_date is not None and draft.birth_date > today:
        problems.append(Problem("birth_date", "A data de nascimento não pode ser futura."))
    p = validate_cnh(draft.cnh_number, required=False)
    if p:
        problems.append(p)
    category = normalize_cnh_category(draft.cnh_category)
    if category and not is_accepted_cnh_category(category):
        problems.append(Problem("cnh_category", f"A CNH deve ser da categoria B ou superior; informada: {category}.",
                                "Art. 12, I"))
    if draft.email and not _EMAIL.match(draft.email.strip()):
        problems.append(Problem("email", f"E-mail «{draft.email.strip()}» inválido."))
    if draft.uf and not _UF.match(draft.uf.strip()):
        problems.append(Problem("uf", "UF deve ter duas letras (ex.: MT)."))
    if draft.zip_code and len(only_digits(draft.zip_code)) != 8:
        problems.append(Problem("zip_code", "CEP deve ter 8 dígitos (00000-000)."))
    if draft.nit and len(only_digits(draft.nit)) != 11:
        problems.append(Problem("nit", "NIT/PIS deve ter 11 dígitos.", "Art. 12, III"))
    if draft.photo is not None and draft.photo_mime not in _PHOTO_MIMES:
        problems.append(Problem("photo", "A foto deve ser JPG ou PNG."))
    p = photo_problem(draft.photo is not None, draft.photo_required)
    if p:
        problems.append(p)
    problems += checklist_entry_problems(draft.checklist, today)
    if len(set(draft.platform_ids)) != len(tuple(draft.platform_ids)):
        problems.append(Problem("platform_ids", "Plataforma informada duas vezes."))
    return problems


def checklist_entry_problems(entries: Iterable[ChecklistEntry], today: date) -> list[Problem]:
    """Format problems of the checklist lines (unknown item, repeated item, dates out of order)."""
    problems: list[Problem] = []
    seen: set[str] = set()
    for entry in entries:
        if entry.key not in CHECKLIST_BY_KEY:
            problems.append(Problem(entry.key, f"Item de checklist desconhecido: {entry.key}."))
            continue
        if entry.key in seen:
            problems.append(Problem(entry.key, "Item informado duas vezes."))
        seen.add(entry.key)
        if entry.issued_on and entry.expires_on and entry.expires_on < entry.issued_on:
            problems.append(Problem(entry.key, "A validade não pode ser anterior à data de emissão.",
                                    CHECKLIST_BY_KEY[entry.key].article))
        if entry.issued_on and entry.issued_on > today:
            problems.append(Problem(entry.key, "A data de emissão não pode ser futura.",
                                    CHECKLIST_BY_KEY[entry.key].article))
    return problems


def _evidence(present: bool, key: str, expires_on: date | None, cnh_expiry: date | None) -> Evidence:
    if key == "cnh" and expires_on is None:
        expires_on = cnh_expiry
    return Evidence(present=present, valid_until=expires_on)


def _condition_problems(present_keys: set[str]) -> list[Problem]:
    """A condition (no gravíssima infraction, no conviction) counts only when the office verified it."""
    return [Problem(item.key, f"Não verificado: {item.label}.", item.article)
            for item in DRIVER_CHECKLIST if item.kind is ItemKind.CONDITION and item.key not in present_keys]


def checklist_problems(*, protocol_date: date, on: date, entries: Iterable[tuple[str, bool, date | None]],
                       cnh_category: str | None, cnh_ear: bool, cnh_expiry: date | None, city: str | None,
                       gravissima_infractions: tuple[date, ...] = ()) -> list[Problem]:
    """driver_problems (Art. 8 §1 II, Art. 12) over the recorded lines, plus the unverified conditions."""
    documents: dict[str, Evidence] = {}
    present_keys: set[str] = set()
    for key, present, expires_on in entries:
        if not present or key not in CHECKLIST_BY_KEY:
            continue
        present_keys.add(key)
        if CHECKLIST_BY_KEY[key].kind is ItemKind.DOCUMENT:
            documents[key] = _evidence(True, key, expires_on, cnh_expiry)
    facts = DriverFacts(
        protocol_date=protocol_date, documents=documents, cnh_category=cnh_category or "", cnh_ear=bool(cnh_ear),
        gravissima_infractions=tuple(gravissima_infractions), residence_municipality=_clean(city),
    )
    return driver_problems(facts, on) + _condition_problems(present_keys)


def validate_driver(draft: DriverDraft, on: date | None = None) -> list[Problem]:
    """Every problem at once, each with its field and article: the data (these block saving) and the checklist
    (these block the approval of a request)."""
    on = on or local_today()
    problems = driver_data_problems(draft, on)
    problems += checklist_problems(
        protocol_date=on, on=on, entries=((e.key, e.present, e.expires_on) for e in draft.checklist),
        cnh_category=draft.cnh_category, cnh_ear=draft.cnh_ear, cnh_expiry=draft.cnh_expiry, city=draft.city,
        gravissima_infractions=draft.gravissima_infractions)
    return problems


def stored_checklist_problems(session: Session, driver: Driver, protocol_date: date, on: date) -> list[Problem]:
    items = session.execute(select(DriverChecklistItem).where(DriverChecklistItem.driver_id == driver.id)).scalars()
    return checklist_problems(
        protocol_date=protocol_date, on=on, entries=((i.requirement, True, i.expires_on) for i in items),
        cnh_category=driver.cnh_category, cnh_ear=driver.cnh_ear, cnh_expiry=driver.cnh_expiry, city=driver.city)


# ---------------------------------------------------------------------------------------------------------
# Rows, info, detail
# ---------------------------------------------------------------------------------------------------------

def _info(session: Session, d: Driver) -> DriverInfo:
    platform_ids = tuple(session.execute(
        select(DriverPlatform.platform_id).where(DriverPlatform.driver_id == d.id, DriverPlatform.until.is_(None))
        .order_by(DriverPlatform.platform_id)).scalars())
    return DriverInfo(
        id=d.id, cpf=d.cpf, cpf_display=format_cpf(d.cpf), name=d.name, birth_date=d.birth_date, address=d.address,
        district=d.district, city=d.city, uf=d.uf, zip_code=d.zip_code, phone=d.phone, email=d.email,
        cnh_number=d.cnh_number, cnh_category=d.cnh_category, cnh_expiry=d.cnh_expiry, cnh_ear=d.cnh_ear, nit=d.nit,
        status=d.status, status_label=DRIVER_STATUS_LABELS.get(d.status, d.status), deregistered_on=d.deregistered_on,
        deregistration_reason=d.deregistration_reason, has_photo=d.photo_mime is not None,
        platform_ids=platform_ids, version=d.version, registered=d.status == "active",
    )


def _live_authorizations(session: Session, column, ids: list[int]) -> dict[int, tuple[int, str | None, str]]:
    if not ids:
        return {}
    # The status is filtered here, not in SQL: with the statuses as bound parameters a planner without
    # statistics may pick the status index and scan most of the table (measured on SQLite: 100 ms instead of
    # 0.2 ms); the driver_id / vehicle_id index answers a page's 50 ids at once.
    rows = session.execute(
        select(column, Authorization.id, Authorization.number, Authorization.status).where(column.in_(ids))).all()
    return {r[0]: (r[1], r[2], r[3]) for r in rows if r[3] in LIVE_AUTHORIZATION_STATUSES}


def driver_rows(session: Session, drivers) -> tuple[DriverRow, ...]:
    """Rows for Driver objects or for result rows with id, name, cpf, phone and status."""
    drivers = list(drivers)
    live = _live_authorizations(session, Authorization.driver_id, [d.id for d in drivers])
    rows = []
    for d in drivers:
        a = live.get(d.id)
        rows.append(DriverRow(
            id=d.id, name=d.name, cpf_display=format_cpf(d.cpf), phone=d.phone, status=d.status,
            status_label=DRIVER_STATUS_LABELS.get(d.status, d.status),
            authorization_id=a[0] if a else None, authorization_number=a[1] if a else None,
            authorization_status=a[2] if a else None,
            authorization_status_label=AuthorizationStatus(a[2]).label if a else "",
        ))
    return tuple(rows)


def _checklist_lines(session: Session, d: Driver, problems: list[Problem]) -> tuple[ChecklistLine, ...]:
    items = {i.requirement: i for i in session.execute(
        select(DriverChecklistItem).where(DriverChecklistItem.driver_id == d.id)).scalars()}
    names = user_names(session, (i.checked_by for i in items.values()))
    owner = {"cnh_category": "cnh", "cnh_ear": "cnh"}
    lines = []
    for item in DRIVER_CHECKLIST:
        row = items.get(item.key)
        expires = row.expires_on if row else None
        if item.key == "cnh" and row is not None and expires is None:
            expires = d.cnh_expiry
        lines.append(ChecklistLine(
            key=item.key, label=item.label, article=item.article, kind=item.kind.value, has_expiry=item.has_expiry,
            present=row is not None, document_id=row.document_id if row else None, number=row.number if row else None,
            issued_on=row.issued_on if row else None, expires_on=expires, note=row.note if row else None,
            checked_by_name=names.get(row.checked_by, "") if row and row.checked_by else "",
            checked_at=row.checked_at if row else None,
            problems=tuple(p for p in problems if owner.get(p.field, p.field) == item.key),
        ))
    return tuple(lines)


def get_driver_in(s: Session, actor: Actor, driver_id: int) -> DriverInfo:
    require_reader(actor)
    return _info(s, get_or_404(s, Driver, driver_id, "Condutor"))


def get_driver(db, actor: Actor, driver_id: int) -> DriverInfo:
    """Get driver in its own transaction (see `get_driver_in`)."""
    with db.session(write=False) as s:
        return get_driver_in(s, actor, driver_id)


def driver_photo_in(s: Session, actor: Actor, driver_id: int) -> bytes | None:
    require_reader(actor)
    d = s.execute(select(Driver).options(undefer(Driver.photo)).where(Driver.id == driver_id)).scalar_one_or_none()
    if d is None:
        get_or_404(s, Driver, driver_id, "Condutor")
    return bytes(d.photo) if d.photo is not None else None


def driver_photo(db, actor: Actor, driver_id: int) -> bytes | None:
    """Driver photo in its own transaction (see `driver_photo_in`)."""
    with db.session(write=False) as s:
        return driver_photo_in(s, actor, driver_id)


def driver_detail_in(s: Session, actor: Actor, driver_id: int, on: date | None = None) -> DriverDetail:
    """Everything the driver's page shows: data, checklist with problems on `on`, platforms, authorizations,
    documents, change communications and the timeline (every event, who, when)."""
    require_reader(actor)
    on = on or local_today()
    d = get_or_404(s, Driver, driver_id, "Condutor")
    problems = stored_checklist_problems(s, d, on, on)
    platforms = tuple((i, n) for i, n in s.execute(
        select(Platform.id, Platform.trade_name).join(DriverPlatform, DriverPlatform.platform_id == Platform.id)
        .where(DriverPlatform.driver_id == d.id, DriverPlatform.until.is_(None)).order_by(Platform.trade_name)))
    auths = s.execute(select(Authorization).where(Authorization.driver_id == d.id)
                      .order_by(Authorization.id.desc())).scalars().all()
    changes = changes_of(s, driver_id=d.id)
    timeline = merge_timelines(
        audit_timeline(s, "driver", d.id),
        event_timeline(s, [a.id for a in auths]),
    )
    return DriverDetail(
        driver=_info(s, d), checklist=_checklist_lines(s, d, problems), problems=tuple(problems),
        platforms=platforms, authorizations=authorization_rows(s, auths),
        documents=documents_of(s, driver_id=d.id), changes=changes, timeline=timeline,
    )


def driver_detail(db, actor: Actor, driver_id: int, on: date | None = None) -> DriverDetail:
    """Driver detail in its own transaction (see `driver_detail_in`)."""
    with db.session(write=False) as s:
        return driver_detail_in(s, actor, driver_id, on)


# ---------------------------------------------------------------------------------------------------------
# Writes
# ---------------------------------------------------------------------------------------------------------

def _apply(d: Driver, draft: DriverDraft) -> None:
    d.cpf = normalize_cpf(draft.cpf)
    d.name = " ".join(draft.name.split())
    d.birth_date = draft.birth_date
    d.address = _clean(draft.address)
    d.district = _clean(draft.district)
    d.city = _clean(draft.city)
    d.uf = _clean(draft.uf.upper() if draft.uf else None)
    d.zip_code = only_digits(draft.zip_code) or None
    d.phone = _clean(draft.phone)
    d.email = _clean(draft.email)
    d.cnh_number = only_digits(draft.cnh_number) or None
    d.cnh_category = normalize_cnh_category(draft.cnh_category) or None
    d.cnh_expiry = draft.cnh_expiry
    d.cnh_ear = bool(draft.cnh_ear)
    d.nit = only_digits(draft.nit) or None
    if draft.photo is not None:
        d.photo = bytes(draft.photo)
        d.photo_mime = draft.photo_mime


def _snapshot(d: Driver) -> dict:
    return audit.snapshot(d, exclude=("photo", "search_key", "created_at", "updated_at"))


def _line_snapshot(i: DriverChecklistItem) -> dict:
    return {"requirement": i.requirement, "document_id": i.document_id, "number": i.number,
            "issued_on": i.issued_on, "expires_on": i.expires_on, "note": i.note, "checked_by": i.checked_by}


def _apply_checklist(session: Session, actor: Actor, d: Driver, entries: Iterable[ChecklistEntry]) -> tuple[list, list]:
    """Set the given lines (absent / not present → the line is removed; the scans stay as documents)."""
    current = {i.requirement: i for i in session.execute(
        select(DriverChecklistItem).where(DriverChecklistItem.driver_id == d.id)).scalars()}
    before, after = [], []
    stamp = now()
    for e in entries:
        row = current.get(e.key)
        if row is not None:
            before.append(_line_snapshot(row))
        if not e.present:
            if row is not None:
                session.delete(row)
            continue
        if row is None:
            row = DriverChecklistItem(driver_id=d.id, requirement=e.key)
            session.add(row)
        row.document_id = e.document_id
        row.number = _clean(e.number)
        row.issued_on = e.issued_on
        row.expires_on = e.expires_on if (e.expires_on or e.key != "cnh") else d.cnh_expiry
        row.note = _clean(e.note)
        row.checked_by = e.checked_by if e.checked_by is not None else actor.user_id
        row.checked_at = stamp
        after.append(_line_snapshot(row))
    session.flush()
    link_documents(session, actor, [e.document_id for e in entries if e.document_id], driver_id=d.id)
    return before, after


def _apply_platforms(session: Session, d: Driver, platform_ids: Iterable[int], today: date) -> None:
    wanted = set(platform_ids)
    if wanted:
        found = set(session.execute(select(Platform.id).where(Platform.id.in_(wanted))).scalars())
        if found != wanted:
            raise ValidationError([Problem("platform_ids", "Plataforma não encontrada no cadastro.")])
    links = {link.platform_id: link for link in session.execute(
        select(DriverPlatform).where(DriverPlatform.driver_id == d.id)).scalars()}
    for pid, link in links.items():
        if pid not in wanted and link.until is None:
            link.until = today
        elif pid in wanted and link.until is not None:
            link.until = None
            link.since = today
    for pid in wanted - set(links):
        session.add(DriverPlatform(driver_id=d.id, platform_id=pid, since=today))


def register_driver_in(s: Session, actor: Actor, draft: DriverDraft) -> DriverInfo:
    """Save a new driver with the wizard's checklist and platforms (one transaction). Checklist problems do not
    block saving: they block the approval of a request."""
    require_role(actor, *FRONT_DESK)
    today = local_today()
    problems = driver_data_problems(draft, today)
    if problems:
        raise ValidationError(problems)
    d = Driver(status="active")
    _apply(d, draft)
    s.add(d)
    s.flush()
    _, lines = _apply_checklist(s, actor, d, draft.checklist)
    _apply_platforms(s, d, draft.platform_ids, today)
    s.flush()
    audit.record(s, actor, "driver.register", "driver", d.id, None,
                 {**_snapshot(d), "checklist": lines, "platform_ids": sorted(draft.platform_ids)})
    return _info(s, d)


def _with_stored_scans(s: Session, actor: Actor, draft: DriverDraft) -> DriverDraft:
    """The wizard's scans kept in memory, stored once the draft passed its checks (issue 12, item 22), in the
    transaction that saves the driver and links them (a refused save leaves no scan behind). The `_in` forms take
    drafts whose scans are stored."""
    if not any(e.scan for e in draft.checklist):
        return draft
    require_role(actor, *FRONT_DESK)
    problems = driver_data_problems(draft, local_today())
    if problems:
        raise ValidationError(problems)
    entries = tuple(replace(e, scan=None, document_id=store_scan_in(
        s, actor, e.scan, e.key, number=e.number, issued_on=e.issued_on, expires_on=e.expires_on))
        if e.scan else e for e in draft.checklist)
    return replace(draft, checklist=entries)


def register_driver(db, actor: Actor, draft: DriverDraft) -> DriverInfo:
    """Register driver in its own transaction (see `register_driver_in`), storing the wizard's scans
    first in the same transaction."""
    with db.session() as s:
        return register_driver_in(s, actor, _with_stored_scans(s, actor, draft))


def update_driver_in(s: Session, actor: Actor, driver_id: int, draft: DriverDraft,
                     expected_version: int) -> DriverInfo:
    require_role(actor, *FRONT_DESK)
    today = local_today()
    problems = driver_data_problems(draft, today)
    if problems:
        raise ValidationError(problems)
    d = get_or_404(s, Driver, driver_id, "Condutor")
    check_version(d, expected_version)
    before = _snapshot(d)
    _apply(d, draft)
    d.updated_at = now()  # the version moves even when only the checklist or the platforms change
    old_lines, new_lines = _apply_checklist(s, actor, d, draft.checklist)
    old_platforms = sorted(p.platform_id for p in d.platform_links if p.until is None)
    _apply_platforms(s, d, draft.platform_ids, today)
    s.flush()
    audit.record(s, actor, "driver.update", "driver", d.id,
                 {**before, "checklist": old_lines, "platform_ids": old_platforms},
                 {**_snapshot(d), "checklist": new_lines, "platform_ids": sorted(draft.platform_ids)})
    return _info(s, d)


def update_driver(db, actor: Actor, driver_id: int, draft: DriverDraft, expected_version: int) -> DriverInfo:
    """Update driver in its own transaction (see `update_driver_in`), storing the wizard's scans
    first in the same transaction."""
    with db.session() as s:
        return update_driver_in(s, actor, driver_id, _with_stored_scans(s, actor, draft), expected_version)


def update_checklist_in(s: Session, actor: Actor, driver_id: int, entries: tuple[ChecklistEntry, ...],
                        expected_version: int) -> DriverDetail:
    """Change some lines of the checklist (a renewed certificate, a newly presented document)."""
    require_role(actor, *FRONT_DESK)
    today = local_today()
    problems = checklist_entry_problems(entries, today)
    if problems:
        raise ValidationError(problems)
    d = get_or_404(s, Driver, driver_id, "Condutor")
    check_version(d, expected_version)
    d.updated_at = now()
    before, after = _apply_checklist(s, actor, d, entries)
    s.flush()
    audit.record(s, actor, "driver.checklist", "driver", d.id, {"checklist": before}, {"checklist": after})
    return driver_detail_in(s, actor, driver_id)


def update_checklist(db, actor: Actor, driver_id: int, entries: tuple[ChecklistEntry, ...],
                     expected_version: int) -> DriverDetail:
    """Update checklist in its own transaction (see `update_checklist_in`)."""
    with db.session() as s:
        return update_checklist_in(s, actor, driver_id, entries, expected_version)


def deregister_driver_in(s: Session, actor: Actor, driver_id: int, reason: str, act_number: str | None,
                         on: date | None, expected_version: int) -> DriverInfo:
    """Descadastramento of the driver by a gestor's act (Art. 24, I, d); his live authorization ends with it."""
    return _info(s, deregister_record(
        s, actor, Driver, driver_id, expected_version, not_found="Condutor", article="Art. 24, I, d",
        entity="driver", label="condutor", owner_column=Authorization.driver_id, reason=reason,
        act_number=act_number, on=on, snapshot=_snapshot))


def deregister_driver(db, actor: Actor, driver_id: int, reason: str, act_number: str | None, on: date | None,
                      expected_version: int) -> DriverInfo:
    """Deregister driver in its own transaction (see `deregister_driver_in`)."""
    with db.session() as s:
        return deregister_driver_in(s, actor, driver_id, reason, act_number, on, expected_version)


# ---------------------------------------------------------------------------------------------------------
# List
# ---------------------------------------------------------------------------------------------------------

DRIVER_SORTS = {
    "name": Driver.search_key,
    "cpf": Driver.cpf,
    "status": Driver.status,
    "created_at": Driver.created_at,
}


def list_drivers_in(s: Session, actor: Actor, text: str = "", status: str | None = None, sort: str = "name",
                    descending: bool = False, offset: int = 0, limit: int = 50,
                    anywhere: bool = True, due: str = "") -> Page[DriverRow]:
    """One page of drivers, answered by indexes:
    - digits → CPF prefix (the CPF index; with the default sort the page is ordered by CPF, which that index
      gives for free — ordering 10,000 CPF matches by name costs ≈ 60 ms on SQLite);
    - otherwise the name's prefix on the folded key ("joao" finds "João", "conceicao" finds "Conceição");
    - when the prefix finds nothing and `anywhere`, a word anywhere in the name ("silva" finds "João da Silva"):
      a scan, so its total is counted only up to FALLBACK_COUNT_CAP (`Page.exact` False beyond it)."""
    require_reader(actor)
    offset, limit = check_page(offset, limit)
    digits = digits_query(text)
    term = search_terms(text)
    if digits and sort == "name":
        sort = "cpf"
    order_by(DRIVER_SORTS, sort, descending, Driver.id)  # refuses an unknown sort
    base = select(Driver.id, Driver.name, Driver.cpf, Driver.phone, Driver.status, Driver.search_key,
                  Driver.created_at)
    if status:
        base = base.where(Driver.status == status)
    if due:   # a home-dashboard tile (issue 16): documents expiring in 30 days (Art. 12)
        base = base.where(driver_condition(due, local_today()))
    if digits:
        stmt = base.where(prefix_range(Driver.cpf, digits))
    elif term:
        stmt = base.where(prefix_range(Driver.search_key, term))
    else:
        stmt = base
    rows = _page(s, stmt, sort, descending, offset, limit)
    exact = True
    fallback = False
    if not rows and term and not digits and anywhere:
        fallback = True
        stmt = base.where(contains(Driver.search_key, term))
        rows = _page(s, stmt, sort, descending, offset, limit)
    if offset == 0 and len(rows) < limit:
        total = len(rows)
    elif fallback:
        total = capped_count(s, stmt, FALLBACK_COUNT_CAP)
        exact = total < FALLBACK_COUNT_CAP
    else:
        total = count(s, stmt)
    return Page(tuple(_list_row(r) for r in rows), total, offset, limit, exact)


def list_drivers(db, actor: Actor, text: str = "", status: str | None = None, sort: str = "name",
                 descending: bool = False, offset: int = 0, limit: int = 50, anywhere: bool = True,
                 due: str = "") -> Page[DriverRow]:
    """List drivers in its own transaction (see `list_drivers_in`)."""
    with db.session(write=False) as s:
        return list_drivers_in(s, actor, text, status, sort, descending, offset, limit, anywhere, due)


FALLBACK_COUNT_CAP = 1000
_SORT_COLUMNS = {"name": "search_key", "cpf": "cpf", "status": "status", "created_at": "created_at"}


def _page(session: Session, stmt, sort: str, descending: bool, offset: int, limit: int) -> list:
    """The page of drivers (offset/limit on drivers alone, answered by the filter's index), then their live
    authorization by a LEFT JOIN whose status list is written as literals so the planner uses the partial unique
    index on driver_id (at most one live authorization per driver: no duplicated rows)."""
    column = getattr(Driver, _SORT_COLUMNS[sort])
    inner_order = [column.desc(), Driver.id.desc()] if descending else [column.asc(), Driver.id.asc()]
    page = stmt.order_by(*inner_order).offset(offset).limit(limit).subquery()
    outer_col = page.c[_SORT_COLUMNS[sort]]
    outer_order = [outer_col.desc(), page.c.id.desc()] if descending else [outer_col.asc(), page.c.id.asc()]
    live = and_(Authorization.driver_id == page.c.id,
                Authorization.status.in_([literal_column(f"'{x}'") for x in LIVE_AUTHORIZATION_STATUSES]))
    return session.execute(
        select(page.c.id, page.c.name, page.c.cpf, page.c.phone, page.c.status,
               Authorization.id.label("authorization_id"), Authorization.number.label("authorization_number"),
               Authorization.status.label("authorization_status"))
        .select_from(page).outerjoin(Authorization, live).order_by(*outer_order)).all()


def _list_row(r) -> DriverRow:
    return DriverRow(
        id=r.id, name=r.name, cpf_display=format_cpf(r.cpf), phone=r.phone, status=r.status,
        status_label=DRIVER_STATUS_LABELS.get(r.status, r.status), authorization_id=r.authorization_id,
        authorization_number=r.authorization_number, authorization_status=r.authorization_status,
        authorization_status_label=AuthorizationStatus(r.authorization_status).label if r.authorization_status else "",
    )
