"""The platforms' 60-day lists (Art. 5, VIII): import all or nothing, reconciliation with the register, due and
overdue lists, the reconciliation export, and records for the demo.

Each use case has two forms: `x_in(session, actor, …)` works inside a transaction it is given, `x(db, actor, …)`
opens it. The file is read and validated (desktop.importers.platform_list) before the write transaction opens; the
rows go in through one executemany. Each row keeps its CNH and RENAVAM (compared with the register where it has
them) and the codes and details of its discrepancies, computed at import and again by `reconcile_list` (the
register changes): the reconciliation screen reads them instead of recomputing (issue 14: ≤ 200 ms).
"""
from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from sqlalchemy import func, insert, select

from desktop.domain import local_today
from desktop.domain.dates import deadline
from desktop.domain.documents import format_cpf, format_plate, normalize_cnpj
from desktop.domain.platform_lists import (
    PLATFORM_LIST_STEPS,
    KnownDriver,
    KnownVehicle,
    LateListFacts,
    ListDelivery,
    ListLine,
    Situation,
    delivered_late,
    late_list_code,
    list_delivery,
    next_list_due,
    not_listed,
    plate_key,
    reconcile_line,
)
from desktop.domain.problems import Problem
from desktop.domain.roles import PLATFORM_LIST_ROLES
from desktop.domain.steps import Action, available_actions
from desktop.errors import ConflictError, NotFound, ValidationError
from desktop.models import Authorization, Auto, Driver, Platform, Vehicle
from desktop.models.platforms import PlatformList, PlatformListRow
from desktop.models.registry import Lessor
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.catalog import list_codes_in
from desktop.services.holidays import calendar_in
from desktop.services.numbering import next_notice_number_in, parse_number
from desktop.services.parameters import parameter_value_in
from desktop.services.lookups import get_or_404, user_names
from desktop.services.permissions import require_reader
from desktop.importers.platform_list import read_platform_list

__all__ = [
    "IMPORT_ROLES", "EXPORT_HEADERS", "ImportReport", "ListSummary", "DueInfo", "ReconLine", "Reconciliation",
    "import_list_in", "import_list", "reconcile_list_in", "reconcile_list", "lists_of_in", "lists_of",
    "due_dates_in", "due_dates", "overdue_lists", "reconciliation_in", "reconciliation",
    "export_reconciliation", "platform_by_cnpj", "make_demo_lists_in", "LateListOffer", "late_list_offer_in",
    "late_list_offer", "print_overdue_list_notice",
]

IMPORT_ROLES = PLATFORM_LIST_ROLES.receive
EXPORT_HEADERS = ("Linha", "CPF do condutor", "Placa", "Situação", "Artigo", "Detalhe")
ACTIVE = "active"  # only an ACTIVE authorization lets a pair serve (a request in analysis or refused is none)


@dataclass(frozen=True, slots=True)
class ImportReport:
    list_id: int
    platform_id: int
    platform_name: str
    filename: str
    file_sha256: str
    delivered_on: date
    rows: int
    by_situation: tuple[tuple[str, int], ...]     # (Situação label, lines), in the order of Situation
    ignored_columns: tuple[str, ...]
    notes: tuple[str, ...]
    next_due_on: date | None
    late: bool                                    # delivered after the previous list's due date
    checked_cnh: int                              # CNHs validated (kept here only: no column)
    renavam_differs: tuple[tuple[int, str, str], ...]  # (line, listed RENAVAM, register's) — report only

    def summary(self) -> str:
        parts = [f"Lista importada: {self.rows} linhas da plataforma {self.platform_name}, "
                 f"entregue em {self.delivered_on:%d/%m/%Y}" + (" (com atraso)." if self.late else ".")]
        if self.by_situation:
            parts.append("Divergências: " + "; ".join(f"{label}: {n}" for label, n in self.by_situation) + ".")
        else:
            parts.append("Nenhuma divergência com o cadastro.")
        if self.ignored_columns:
            parts.append("Colunas ignoradas: " + ", ".join(self.ignored_columns) + ".")
        if self.renavam_differs:
            parts.append(f"RENAVAM diferente do cadastro em {len(self.renavam_differs)} linha(s): "
                         + ", ".join(str(n) for n, _, _ in self.renavam_differs[:20]) + ".")
        if self.next_due_on:
            parts.append(f"Próxima lista até {self.next_due_on:%d/%m/%Y} (Art. 5º, VIII).")
        return "\n".join(parts)


@dataclass(frozen=True, slots=True)
class ListSummary:
    id: int
    received_on: date
    filename: str
    file_sha256: str
    row_count: int
    imported_by_name: str
    next_due_on: date | None
    late: bool
    discrepancies: int


@dataclass(frozen=True, slots=True)
class DueInfo:
    platform_id: int
    trade_name: str
    last_delivered_on: date | None
    next_due_on: date | None
    overdue: bool
    days_overdue: int
    status: ListDelivery = ListDelivery.NOT_DUE     # domain/platform_lists.py (never stored)

    @property
    def status_label(self) -> str:
        return self.status.label


@dataclass(frozen=True, slots=True)
class ReconLine:
    line: int | None          # None for "autorizado fora das listas"
    driver_cpf: str
    plate: str
    situation: str            # Situation value
    label: str                # the pinned Situação
    article: str
    detail: str
    driver_id: int | None
    vehicle_id: int | None
    row_id: int | None
    auto_number: str | None = None   # the auto drawn up from this line of the list, if any


@dataclass(frozen=True, slots=True)
class Reconciliation:
    list_id: int
    platform_id: int
    platform_name: str
    received_on: date
    row_count: int
    lines: tuple[ReconLine, ...]

    def counts(self) -> dict[str, int]:
        return dict(Counter(line.label for line in self.lines))


# ------------------------------------------------------------------------------------------------- the register

@dataclass(frozen=True, slots=True)
class _Register:
    drivers: dict[str, KnownDriver]          # cpf -> driver
    vehicles: dict[str, KnownVehicle]        # Mercosul plate -> vehicle
    renavams: dict[str, str]                 # Mercosul plate -> RENAVAM


def _register_in(session) -> _Register:
    """What the register knows, read once per reconciliation (a few queries, not one per line)."""
    auths = session.execute(select(Authorization.driver_id, Authorization.vehicle_id)
                            .where(Authorization.status == ACTIVE)).all()
    plate_of_vehicle = dict(session.execute(select(Vehicle.id, Vehicle.plate)).all())
    cpf_of_driver = {}
    drivers: dict[str, KnownDriver] = {}
    auth_plate = {d: plate_key(plate_of_vehicle.get(v)) for d, v in auths}
    for did, cpf, name, cnh in session.execute(select(Driver.id, Driver.cpf, Driver.name, Driver.cnh_number)):
        cpf_of_driver[did] = cpf
        drivers[cpf] = KnownDriver(did, cpf, name, auth_plate.get(did), cnh or None)
    auth_cpf = {v: cpf_of_driver.get(d) for d, v in auths}
    lessors = dict(session.execute(select(Lessor.id, Lessor.document_number)).all())
    vehicles: dict[str, KnownVehicle] = {}
    renavams: dict[str, str] = {}
    for vid, plate, renavam, mode, owner, lessor_id in session.execute(
            select(Vehicle.id, Vehicle.plate, Vehicle.renavam, Vehicle.ownership_mode, Vehicle.owner_document,
                   Vehicle.lessor_id)):
        key = plate_key(plate)
        expected = owner or lessors.get(lessor_id)
        if not expected and mode == "own":
            expected = auth_cpf.get(vid)  # an own vehicle belongs to the driver it is authorized for
        vehicles[key] = KnownVehicle(vid, key, expected, auth_cpf.get(vid), renavam or None)
        renavams[key] = renavam
    return _Register(drivers, vehicles, renavams)


def _reconcile(reg: _Register, cpf: str, plate: str, owner: str | None, cnh: str | None = None,
               renavam: str | None = None):
    key = plate_key(plate)
    return reconcile_line(cpf, plate, owner, reg.drivers.get(cpf), reg.vehicles.get(key), cnh, renavam)


# ------------------------------------------------------------------------------------------------- import

def _platform_name(p: Platform) -> str:
    return p.trade_name or p.legal_name


def _previous_due_in(session, platform: Platform, calendar) -> date | None:
    last = session.execute(select(func.max(PlatformList.received_on))
                           .where(PlatformList.platform_id == platform.id)).scalar()
    return next_list_due(last, calendar, platform.municipal_registration_date)


def _row_values(list_id: int, item: ListLine, result) -> dict:
    """One platform_list_rows row, for the executemany."""
    return {"list_id": list_id, "line_number": item.line, "plate": item.plate, "driver_cpf": item.driver_cpf,
            "driver_name": item.driver_name[:200], "owner_name": item.owner_name[:200],
            "owner_document": item.owner_document, "cnh": item.cnh or None, "renavam": item.renavam or None,
            "vehicle_id": result.vehicle_id, "driver_id": result.driver_id, "discrepancy": result.code,
            "discrepancy_detail": result.details, "resolution": None, "auto_id": None, "version": 1}


def import_list_in(session, actor: Actor, platform_id: int, content: bytes, filename: str, delivered_on: date,
                   parsed=None) -> ImportReport:
    """Store a whole list or nothing (Art. 5, VIII): every error of every line refuses the file."""

    require_role(actor, *IMPORT_ROLES)
    content = bytes(content or b"")
    problems: list[Problem] = []
    if delivered_on is None:
        problems.append(Problem("delivered_on", "Informe a data em que a plataforma entregou a lista."))
    elif delivered_on > local_today():
        problems.append(Problem("delivered_on", "A data de entrega não pode ser futura."))
    parsed = parsed if parsed is not None else read_platform_list(content, filename)
    problems.extend(Problem("file", message, "Art. 5, VIII") for message in parsed.errors)
    if problems:
        raise ValidationError(problems, "A lista foi recusada; nada foi gravado:\n"
                              + "\n".join(p.message for p in problems))
    platform = get_or_404(session, Platform, platform_id, "Plataforma")
    digest = hashlib.sha256(content).hexdigest()
    same = session.execute(select(PlatformList.received_on).where(
        PlatformList.platform_id == platform.id, PlatformList.file_sha256 == digest)).first()
    if same is not None:
        raise ConflictError(f"Este arquivo já foi importado para esta plataforma (lista entregue em "
                            f"{same[0]:%d/%m/%Y}); nada foi gravado.")
    calendar = calendar_in(session)
    previous_due = _previous_due_in(session, platform, calendar)
    late = delivered_late(delivered_on, previous_due)
    next_due = next_list_due(delivered_on, calendar)
    name = (filename or "lista").replace("\\", "/").rsplit("/", 1)[-1][-255:] or "lista"
    plist = PlatformList(platform_id=platform.id, received_on=delivered_on, next_due_on=next_due, filename=name,
                         file_sha256=digest, row_count=len(parsed.lines), imported_by=actor.user_id)
    session.add(plist)
    session.flush()
    reg = _register_in(session)
    counts: Counter[str] = Counter()
    renavam_differs = []
    values = []
    for item in parsed.lines:
        result = _reconcile(reg, item.driver_cpf, item.plate, item.owner_document, item.cnh, item.renavam)
        for f in result.findings:
            counts[f.situation.value] += 1
            if f.situation is Situation.RENAVAM_MISMATCH:
                renavam_differs.append((item.line, item.renavam, reg.renavams.get(plate_key(item.plate), "")))
        values.append(_row_values(plist.id, item, result))
    if values:
        # Core executemany (no ORM bulk bookkeeping): one statement, the driver's executemany.
        session.execute(PlatformListRow.__table__.insert(), values)
    by_situation = tuple((s.label, counts[s.value]) for s in Situation if counts[s.value])
    audit.record(session, actor, "platform_list.import", "platform", platform.id, None, {
        "list_id": plist.id, "filename": name, "sha256": digest, "delivered_on": delivered_on,
        "rows": len(values), "late": late, "next_due_on": next_due, "ignored_columns": list(parsed.ignored_columns),
        "discrepancies": {label: n for label, n in by_situation}, "renavam_differs": len(renavam_differs)})
    return ImportReport(plist.id, platform.id, _platform_name(platform), name, digest, delivered_on, len(values),
                        by_situation, parsed.ignored_columns, parsed.notes, next_due, late,
                        len(parsed.lines), tuple(renavam_differs))


def import_list(db, actor: Actor, platform_id: int, content: bytes, filename: str,
                delivered_on: date) -> ImportReport:

    require_role(actor, *IMPORT_ROLES)
    parsed = read_platform_list(content, filename)  # outside the write transaction: it may take a while
    with db.session() as s:
        return import_list_in(s, actor, platform_id, content, filename, delivered_on, parsed=parsed)


# ------------------------------------------------------------------------------------------------- reconcile

def reconcile_list_in(session, actor: Actor, list_id: int) -> dict[str, int]:
    """Match a stored list against the register as it is now (the register changes after the import); the
    lines whose situation changed are updated and the change audited. Returns the counts by Situação."""
    require_role(actor, *IMPORT_ROLES)
    plist = get_or_404(session, PlatformList, list_id, "Lista")
    reg = _register_in(session)
    counts: Counter[str] = Counter()
    changed = 0
    for row in session.execute(select(PlatformListRow).where(PlatformListRow.list_id == plist.id)).scalars():
        result = _reconcile(reg, row.driver_cpf or "", row.plate or "", row.owner_document, row.cnh, row.renavam)
        for f in result.findings:
            counts[f.situation.label] += 1
        now_ = (result.code, result.details, result.driver_id, result.vehicle_id)
        if (row.discrepancy, row.discrepancy_detail, row.driver_id, row.vehicle_id) != now_:
            row.discrepancy, row.discrepancy_detail, row.driver_id, row.vehicle_id = now_
            changed += 1
    session.flush()
    audit.record(session, actor, "platform_list.reconcile", "platform", plist.platform_id, None,
                 {"list_id": plist.id, "changed_lines": changed, "discrepancies": dict(counts)})
    return dict(counts)


def reconcile_list(db, actor: Actor, list_id: int) -> dict[str, int]:
    with db.session() as s:
        return reconcile_list_in(s, actor, list_id)


def _latest_list_ids(session) -> dict[int, int]:
    """platform id -> id of its latest list (the current one)."""
    out: dict[int, int] = {}
    for pid, lid in session.execute(select(PlatformList.platform_id, PlatformList.id)
                                    .order_by(PlatformList.platform_id, PlatformList.received_on,
                                              PlatformList.id)):
        out[pid] = lid
    return out


def reconciliation_in(session, actor: Actor, list_id: int | None = None,
                      platform_id: int | None = None) -> Reconciliation:
    """Every finding of a list (the given one, or the latest of the platform), line by line, plus the authorized
    drivers on none of the platforms' current lists (Art. 5, VIII)."""
    require_reader(actor)
    if list_id is None:
        if platform_id is None:
            raise ValueError("informe a lista ou a plataforma")
        list_id = _latest_list_ids(session).get(platform_id)
        if list_id is None:
            raise NotFound("Esta plataforma ainda não entregou nenhuma lista.")
    plist = get_or_404(session, PlatformList, list_id, "Lista")
    platform = session.get(Platform, plist.platform_id)
    lines: list[ReconLine] = []
    # The findings stored on the rows (computed at import, refreshed by `reconcile_list`): only rows with one,
    # read through one plain query, each code looked up once (issue 14: the screen opens in ≤ 200 ms).
    meta = {s.value: (s.value, s.label, s.article) for s in Situation}
    rows = session.execute(
        select(PlatformListRow.id, PlatformListRow.line_number, PlatformListRow.driver_cpf,
               PlatformListRow.plate, PlatformListRow.discrepancy, PlatformListRow.discrepancy_detail,
               PlatformListRow.driver_id, PlatformListRow.vehicle_id, Auto.number)
        .outerjoin(Auto, Auto.id == PlatformListRow.auto_id)
        .where(PlatformListRow.list_id == plist.id, PlatformListRow.discrepancy.is_not(None))
        .order_by(PlatformListRow.line_number))
    for rid, number, cpf, plate, code, details, driver_id, vehicle_id, auto_number in rows:
        texts = (details or "").split("\n")
        for i, part in enumerate(code.split(",")):
            known = meta.get(part)
            if known is not None:
                lines.append(ReconLine(number, cpf or "", plate or "", *known, texts[i] if i < len(texts) else "",
                                       driver_id, vehicle_id, rid, auto_number))
    lines.extend(_not_listed_in(session))
    return Reconciliation(plist.id, plist.platform_id, _platform_name(platform), plist.received_on,
                          plist.row_count, tuple(lines))


def _not_listed_in(session) -> list[ReconLine]:
    """Authorized drivers (ACTIVE authorization) on none of the platforms' current lists (Art. 5, VIII), in SQL."""
    current = list(_latest_list_ids(session).values())
    stmt = (select(Driver.id, Driver.cpf, Driver.name, Vehicle.id, Vehicle.plate)
            .join(Authorization, Authorization.driver_id == Driver.id)
            .join(Vehicle, Vehicle.id == Authorization.vehicle_id)
            .where(Authorization.status == ACTIVE))
    if current:
        listed = select(PlatformListRow.driver_cpf).where(PlatformListRow.list_id.in_(current),
                                                          PlatformListRow.driver_cpf.is_not(None))
        stmt = stmt.where(Driver.cpf.not_in(listed))
    seen: set[int] = set()
    drivers: list[tuple[KnownDriver, int]] = []
    for did, cpf, name, vid, plate in sorted(session.execute(stmt).all(), key=lambda r: (r[2], r[0])):
        if did not in seen and plate_key(plate):
            seen.add(did)
            drivers.append((KnownDriver(did, cpf, name, plate_key(plate)), vid))
    found = not_listed([d for d, _ in drivers], set())
    return [ReconLine(None, d.cpf, d.authorized_plate or "", f.situation.value, f.label, f.article, f.detail, d.id,
                      vid, None) for f, (d, vid) in zip(found, drivers)]


def list_row_link_problems_in(session, row_id: int) -> list[Problem]:
    """What refuses an auto drawn up from a line of a platform's list: the line must exist, show a discrepancy and
    have no auto yet (one auto per line; another fact is another line or a new auto without the link)."""
    row = session.get(PlatformListRow, row_id)
    if row is None:
        return [Problem("platform_list_row_id", "Linha da lista da plataforma não encontrada.", "Art. 5, VIII")]
    if not row.discrepancy:
        return [Problem("platform_list_row_id", f"A linha {row.line_number} da lista não tem divergência.",
                        "Art. 5, VIII")]
    if row.auto_id is not None:
        number = session.scalar(select(Auto.number).where(Auto.id == row.auto_id))
        return [Problem("platform_list_row_id", f"A linha {row.line_number} da lista já deu origem ao auto nº "
                                                f"{number}.", "Art. 5, VIII")]
    return []


def link_list_row_auto_in(session, actor: Actor, row_id: int, auto) -> None:
    """Bind the line of the list to the auto drawn up from it, inside the auto's transaction (audited)."""
    row = session.get(PlatformListRow, row_id, with_for_update=True)
    problems = list_row_link_problems_in(session, row_id)
    if problems:
        raise ValidationError(problems)
    row.auto_id = auto.id
    row.resolution = f"Auto de infração nº {auto.number}"
    session.flush()
    audit.record(session, actor, "platform_list.row_auto", "platform_list_row", row.id, None,
                 {"auto_id": auto.id, "auto": auto.number, "line": row.line_number})


def reconciliation(db, actor: Actor, list_id: int | None = None, platform_id: int | None = None) -> Reconciliation:
    with db.session(write=False) as s:
        return reconciliation_in(s, actor, list_id, platform_id)


def platform_by_cnpj(db, actor: Actor, cnpj: str) -> int:
    """The id of the platform with this CNPJ (for the commands)."""
    require_reader(actor)
    key = normalize_cnpj(cnpj)
    with db.session(write=False) as s:
        pid = s.execute(select(Platform.id).where(Platform.cnpj == key)).scalar()
    if pid is None:
        raise NotFound(f"Nenhuma plataforma com o CNPJ {cnpj}.")
    return pid


def export_reconciliation(db, actor: Actor, path, list_id: int | None = None,
                          platform_id: int | None = None) -> int:
    """Write the reconciliation to CSV (`;`, UTF-8 with BOM, as Brazilian Excel opens it) with the pinned headers
    `Linha;CPF do condutor;Placa;Situação;Artigo;Detalhe`. The export of personal data is audited (LGPD)."""
    from desktop.services.exports import write_audited  # lazy: openpyxl only when exporting

    rec = reconciliation(db, actor, list_id, platform_id)
    path = Path(path)
    rows = [["" if line.line is None else line.line, format_cpf(line.driver_cpf), format_plate(line.plate),
             line.label, line.article, line.detail] for line in rec.lines]

    def record(s, n: int) -> None:
        audit.record(s, actor, "platform_list.export", "platform", rec.platform_id, None,
                     {"list_id": rec.list_id, "rows": n, "file": path.name})

    # the one exports writer (issue 25): session checked first, formulas as text, renamed after the audit commit
    return write_audited(db, actor, path, EXPORT_HEADERS, rows, record=record, suffixes=None)


# ------------------------------------------------------------------------------------------------- due dates

def lists_of_in(session, actor: Actor, platform_id: int) -> tuple[ListSummary, ...]:
    """The lists a platform delivered, newest first, each with whether it came late."""
    require_reader(actor)
    platform = get_or_404(session, Platform, platform_id, "Plataforma")
    rows = session.execute(select(PlatformList).where(PlatformList.platform_id == platform_id)
                           .order_by(PlatformList.received_on, PlatformList.id)).scalars().all()
    counts = dict(session.execute(
        select(PlatformListRow.list_id, func.count()).where(
            PlatformListRow.list_id.in_([r.id for r in rows]), PlatformListRow.discrepancy.is_not(None))
        .group_by(PlatformListRow.list_id)).all()) if rows else {}
    names = user_names(session, (r.imported_by for r in rows))
    calendar = calendar_in(session)
    due = next_list_due(None, calendar, platform.municipal_registration_date)
    out = []
    for r in rows:
        out.append(ListSummary(r.id, r.received_on, r.filename, r.file_sha256, r.row_count,
                               names.get(r.imported_by, "") if r.imported_by else "", r.next_due_on,
                               delivered_late(r.received_on, due), counts.get(r.id, 0)))
        due = r.next_due_on or next_list_due(r.received_on, calendar)
    return tuple(reversed(out))


def lists_of(db, actor: Actor, platform_id: int) -> tuple[ListSummary, ...]:
    with db.session(write=False) as s:
        return lists_of_in(s, actor, platform_id)


def due_dates_in(session, actor: Actor, today: date | None = None) -> tuple[DueInfo, ...]:
    """Per platform that may operate: the last list, the next due date (Art. 5, VIII) and whether it is overdue."""
    require_reader(actor)
    today = today or local_today()
    calendar = calendar_in(session)
    last = dict(session.execute(select(PlatformList.platform_id, func.max(PlatformList.received_on))
                                .group_by(PlatformList.platform_id)).all())
    out = []
    for p in session.execute(select(Platform).where(Platform.status.in_(("active", "suspended")))
                             .order_by(Platform.search_key)).scalars():
        due = next_list_due(last.get(p.id), calendar, p.municipal_registration_date)
        status = list_delivery(due, today)
        overdue = status is ListDelivery.OVERDUE
        out.append(DueInfo(p.id, _platform_name(p), last.get(p.id), due, overdue,
                           (today - due).days if overdue else 0, status))
    return tuple(out)


def due_dates(db, actor: Actor, today: date | None = None) -> tuple[DueInfo, ...]:
    with db.session(write=False) as s:
        return due_dates_in(s, actor, today)


def overdue_lists(db, actor: Actor, today: date | None = None) -> tuple[DueInfo, ...]:
    """The platforms whose list is overdue (for the module and the routines of the day)."""
    return tuple(d for d in due_dates(db, actor, today) if d.overdue)


# ------------------------------------------------------------------------------- overdue list (Art. 24, II, a)

@dataclass(frozen=True, slots=True)
class LateListOffer:
    """What the module offers for a platform whose 60-day list is overdue (Art. 5, VIII): the notice to
    regularize (Art. 24, II, a) and, when the gestor added one for the regulating decree, the catalogue code whose
    article cites Art. 5, VIII (the law types no fine for a late list)."""

    platform_id: int
    trade_name: str
    overdue: bool
    last_delivered_on: date | None
    due_on: date | None
    days_overdue: int
    regularize_by: date | None     # the notice's term (parameter term.list_regularization_days)
    code: str | None               # catalogue code offered for the auto form, or None
    code_description: str | None
    measure: str                   # in words, for the screen
    actions: tuple[Action, ...] = ()   # PLATFORM_LIST_STEPS for the reader (the notice, the decree's auto)


def late_list_offer_in(session, actor: Actor, platform_id: int, today: date | None = None) -> LateListOffer:
    require_reader(actor)
    today = today or local_today()
    platform = get_or_404(session, Platform, platform_id, "Plataforma")
    due = next((d for d in due_dates_in(session, actor, today) if d.platform_id == platform_id), None)
    if due is None:   # not active or suspended: no list is owed
        return LateListOffer(platform.id, _platform_name(platform), False, None, None, 0, None, None, None,
                             "A plataforma não está ativa: não há lista devida.",
                             available_actions(PLATFORM_LIST_STEPS, ListDelivery.NOT_DUE, actor.roles,
                                               LateListFacts(None), _delivery_label))
    term = int(parameter_value_in(session, "term.list_regularization_days", today))
    codes = list_codes_in(session, on=today)
    code = late_list_code((c.code, c.article) for c in codes)
    description = next((c.description for c in codes if c.code == code), None)
    if not due.overdue:
        measure = "A lista está em dia."
    elif code:
        measure = (f"Notificação para regularização (Art. 24, II, a) e, se o fiscal decidir, auto pelo código "
                   f"{code} do decreto ({description}).")
    else:
        measure = ("Notificação para regularização (Art. 24, II, a). A lei não tipifica multa para a lista em "
                   "atraso e o catálogo não tem código do decreto que cite o Art. 5º, VIII.")
    return LateListOffer(platform.id, _platform_name(platform), due.overdue, due.last_delivered_on, due.next_due_on,
                         due.days_overdue, deadline(today, term, calendar_in(session)) if due.overdue else None,
                         code if due.overdue else None, description if due.overdue else None, measure,
                         available_actions(PLATFORM_LIST_STEPS, due.status, actor.roles, LateListFacts(code),
                                           _delivery_label))


def _delivery_label(value: str) -> str:
    return ListDelivery(value).label


def late_list_offer(db, actor: Actor, platform_id: int, today: date | None = None) -> LateListOffer:
    with db.session(write=False) as s:
        return late_list_offer_in(s, actor, platform_id, today)


def print_overdue_list_notice(db, actor: Actor, platform_id: int, state=None):
    """The notice to regularize an overdue list (Art. 5, VIII; Art. 24, II, a), numbered and archived as every
    issued document (`services.documents.archive`). `ConflictError` when the list is not overdue."""
    from desktop.reports import list_notice, records  # lazy: ReportLab loads only to print
    from desktop.reports.notices import Recipient  # lazy: ReportLab loads only to print
    from desktop.reports.common import signer_of  # lazy: the documents' modules load only to print
    from desktop.services.documents.archive import ISSUE_ROLES, RecordRef, issue_rendered  # lazy: the documents package loads only to print

    require_role(actor, *ISSUE_ROLES["notice"])

    def build(s, meta):
        offer = late_list_offer_in(s, actor, platform_id)
        if not offer.overdue:
            raise ConflictError(f"A lista da plataforma {offer.trade_name} não está em atraso: não há o que "
                                "regularizar (Art. 5º, VIII).")
        p = s.get(Platform, platform_id)
        term = int(parameter_value_in(s, "term.list_regularization_days", local_today()))
        ctx = list_notice.overdue_list_notice(
            records.header(s), meta, recipient=Recipient(p.legal_name, p.cnpj, p.address or ""),
            last_delivered_on=offer.last_delivered_on, due_on=offer.due_on, days_overdue=offer.days_overdue,
            deadline=offer.regularize_by, term_days=term, offered_code=offer.code,
            signer=signer_of(s, actor, records.settings_row(s).secretariat),   # issue 28 point 2
            notice_number=next_notice_number_in(s, parse_number(meta.number)[1]))   # issue 28 point 1
        return RecordRef("platform", platform_id), ctx

    return issue_rendered(db, actor, "notice", build, list_notice.render, state=state)


# ------------------------------------------------------------------------------------------------- demo

def _demo_lines(pairs: Iterable[tuple[str, str, str, str]]) -> list[ListLine]:
    return [ListLine(i + 2, cpf, name, "", plate, "", owner, name) for i, (cpf, name, plate, owner) in
            enumerate(pairs)]


def make_demo_lists_in(session, actor: Actor, today: date | None = None) -> dict[str, int]:
    """Demo records for the platforms already loaded: one platform delivered on time, one late, one overdue; the
    lists carry each kind of discrepancy (a foreign plate and CPF, an authorized driver with another plate, a
    changed owner, an authorized driver left off). Returns {"lists": n, "platforms": m}. Call after the demo's
    drivers, vehicles and authorizations exist."""
    from validate_docbr import CPF  # lazy: validate-docbr loads only when this runs (start-up cost)

    today = today or local_today()
    platforms = session.execute(select(Platform).where(Platform.status == "active")
                                .order_by(Platform.id)).scalars().all()
    if not platforms:
        return {"lists": 0, "platforms": 0}
    reg = _register_in(session)
    authorized = [d for d in reg.drivers.values() if d.authorized_plate]
    plates = list(reg.vehicles.values())
    gen = CPF()
    made = 0
    # (days before today the lists were delivered) per platform: on time, late (second list 70 days after the
    # first), overdue (the last one 75 days ago).
    schedules = [(50, 110), (5, 75), (75, 135)]
    for index, platform in enumerate(platforms[:3]):
        pairs = [(d.cpf, d.name, d.authorized_plate, reg.vehicles[d.authorized_plate].owner_document or d.cpf)
                 for d in authorized[index::3][:40] if d.authorized_plate in reg.vehicles]
        pairs = pairs[1:]  # the first authorized driver of each share is left off: "autorizado fora das listas"
        if pairs and len(plates) > 1:
            cpf, name, plate, owner = pairs[0]
            other = next((v.plate for v in plates if v.plate != plate), plate)
            pairs[0] = (cpf, name, other, owner)                         # par diferente da autorização
        if len(pairs) > 1:
            cpf, name, plate, _ = pairs[1]
            pairs[1] = (cpf, name, plate, gen.generate())                # proprietário diferente
        pairs.append((gen.generate(), "Condutor Não Cadastrado", f"QZZ{index}A{index}{index}", gen.generate()))
        for days in sorted(schedules[index % len(schedules)], reverse=True):
            delivered = today - timedelta(days=days)
            parsed_lines = _demo_lines(pairs)
            digest = hashlib.sha256(f"demo-{platform.id}-{delivered}".encode()).hexdigest()
            plist = PlatformList(platform_id=platform.id, received_on=delivered, filename="lista-demo.csv",
                                 file_sha256=digest, row_count=len(parsed_lines), imported_by=actor.user_id,
                                 next_due_on=next_list_due(delivered, calendar_in(session)))
            session.add(plist)
            session.flush()
            values = []
            for item in parsed_lines:
                result = _reconcile(reg, item.driver_cpf, item.plate, item.owner_document)
                values.append(_row_values(plist.id, item, result))
            if values:
                session.execute(insert(PlatformListRow), values)
            audit.record(session, actor, "platform_list.import", "platform", platform.id, None,
                         {"list_id": plist.id, "filename": plist.filename, "demo": True, "rows": len(values)})
            made += 1
    return {"lists": made, "platforms": min(3, len(platforms))}

