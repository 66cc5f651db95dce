"""Issued documents (SPEC §3 "Documents to print"; issue 7): every printed PDF gets its number, is archived with
its bytes and SHA-256 and linked to its record; a reprint is the archived bytes with a copy stamp, never a new
rendering. Builds the documents' contexts from the database rows (authorization, driver, vehicle, settings,
guides, ledger) and checks scanned stickers against the authorization's current status.

ReportLab is imported only when a document is rendered (the GUI imports this module at start-up).
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from desktop.domain.roles import Role
from desktop.errors import ConflictError, DesktopError, NotFound
from desktop.reports.common import DocumentMeta, MunicipalityHeader, fmt_date, now
from desktop.services.base import Actor, require_role

DOCUMENT_KINDS = {
    "sticker": "Adesivo do veículo (Art. 14)",
    "credential": "Credencial do condutor (Art. 13, I)",
    "certificate": "Termo de autorização (Art. 3º)",
    "auto": "Auto de infração (Art. 19)",
    "notice": "Notificação",
    "data_request": "Requisição de dados (Art. 4º)",
    "edital": "Edital de notificação (Art. 22, §1º)",
    "inspection": "Laudo de vistoria",
    "statement": "Extrato do infrator",
    "attendance": "Lista de presença (Art. 12, §2º)",
    "guide": "Guia de arrecadação (DAM)",
}
ALL_ROLES = tuple(Role)
ISSUE_ROLES: dict[str, tuple[Role, ...]] = {
    "sticker": (Role.ATENDENTE, Role.GESTOR),
    "credential": (Role.ATENDENTE, Role.GESTOR),
    "certificate": (Role.ATENDENTE, Role.GESTOR),
    "guide": (Role.ATENDENTE, Role.GESTOR),
    "statement": (Role.ATENDENTE, Role.FISCAL, Role.GESTOR),
    "auto": (Role.FISCAL, Role.GESTOR),
    "notice": (Role.FISCAL, Role.GESTOR, Role.VISTORIADOR, Role.ATENDENTE),
    "edital": (Role.FISCAL, Role.GESTOR),
    "data_request": (Role.FISCAL, Role.GESTOR),
    "inspection": (Role.VISTORIADOR, Role.GESTOR),
    "attendance": (Role.ATENDENTE, Role.GESTOR),
}
STICKER_EVENT = "sticker"   # authorization_events.kind written when a sticker is printed


@dataclass(frozen=True, slots=True)
class RecordRef:
    """The record a document belongs to: ("authorization", 12), ("auto", 3), ("payment_guide", 9)…"""

    record_type: str
    record_id: int


@dataclass(frozen=True, slots=True)
class IssuedInfo:
    id: int
    kind: str
    number: str
    record_type: str
    record_id: int
    sha256: str
    issued_at: datetime
    issued_by: int | None
    size: int
    copies: int


@dataclass(frozen=True, slots=True)
class Issued:
    """What a print command gets back: the archive entry and the exact bytes archived."""

    info: IssuedInfo
    pdf: bytes


@dataclass(frozen=True, slots=True)
class IssuedSummary:
    """A row of the archive list (no bytes)."""

    number: str
    kind: str
    kind_label: str
    record_type: str
    record_id: int
    issued_at: datetime
    sha256: str
    copies: int
    issued_by_name: str = ""   # the user who issued it ("" for an automatic job)
    record_label: str = ""     # the record as users know it: "Autorização 0007/2026", "Auto 0012/2026"…


RECORD_NAMES = {"authorization": "Autorização", "auto": "Auto", "payment_guide": "Guia",
                "data_request": "Requisição", "inspection": "Vistoria", "course_session": "Turma do curso",
                "driver": "Condutor", "platform": "Plataforma"}


def _record_labels(s, keys: set[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """One query per record type present: the number (or name, or date) each record is known by."""
    from sqlalchemy import select

    from desktop.models import Auto, Authorization, DataRequest, Driver, PaymentGuide, Platform
    from desktop.models.courses import CourseSession
    from desktop.models.inspections import Inspection

    by_type: dict[str, set[int]] = {}
    for record_type, record_id in keys:
        by_type.setdefault(record_type, set()).add(record_id)
    sources = {"authorization": (Authorization, Authorization.number), "auto": (Auto, Auto.number),
               "payment_guide": (PaymentGuide, PaymentGuide.number),
               "data_request": (DataRequest, DataRequest.number), "driver": (Driver, Driver.name),
               "platform": (Platform, Platform.trade_name),
               "inspection": (Inspection, Inspection.scheduled_start),
               "course_session": (CourseSession, CourseSession.held_on)}
    labels: dict[tuple[str, int], str] = {}
    for record_type, ids in by_type.items():
        if record_type not in sources:
            continue
        model, column = sources[record_type]
        for ident, value in s.execute(select(model.id, column).where(model.id.in_(ids))):
            if value is None:
                continue
            if isinstance(value, datetime):
                from desktop.domain import TIMEZONE

                value = value.astimezone(TIMEZONE).date()
            text = fmt_date(value) if isinstance(value, date) else str(value)
            connector = " de " if isinstance(value, date) else " "
            labels[(record_type, ident)] = f"{RECORD_NAMES[record_type]}{connector}{text}"
    return labels


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------------------------------- archive
def issue_in_session(s, actor: Actor, kind: str, record_ref: RecordRef,
                     pdf: bytes | Callable[[DocumentMeta], bytes], when: datetime | None = None) -> Issued:
    """Inside the caller's transaction: takes the next document number, renders (when `pdf` is a function of
    the document's meta, so the number and date printed in the footer are the archived ones), archives the
    bytes with their SHA-256 and writes the audit log. The number is consumed only if the transaction commits."""
    from desktop.models import IssuedDocument
    from desktop.services import audit
    from desktop.services.numbering import next_number

    if kind not in DOCUMENT_KINDS:
        raise ValueError(f"Tipo de documento desconhecido: {kind!r}.")
    issued_at = when or now()
    number = next_number(s, "document", issued_at.year)
    meta = DocumentMeta(number, issued_at, actor.full_name)
    data = pdf(meta) if callable(pdf) else bytes(pdf)
    if not data.startswith(b"%PDF"):
        raise ValueError("O documento a arquivar não é um PDF.")
    digest = sha256_hex(data)
    row = IssuedDocument(kind=kind, number=number, record_type=record_ref.record_type,
                         record_id=record_ref.record_id, pdf=data, sha256=digest, issued_at=issued_at,
                         issued_by=actor.user_id, copies=0)
    s.add(row)
    s.flush()
    audit.record(s, actor, "document.issue", "issued_document", row.id, None, {
        "kind": kind, "number": number, "record_type": record_ref.record_type, "record_id": record_ref.record_id,
        "sha256": digest, "size": len(data),
    })
    return Issued(IssuedInfo(row.id, kind, number, record_ref.record_type, record_ref.record_id, digest, issued_at,
                             actor.user_id, len(data), 0), data)


def issue_document(db, actor: Actor, kind: str, record_ref: RecordRef | tuple[str, int],
                   pdf_bytes: bytes | Callable[[DocumentMeta], bytes]) -> IssuedInfo:
    """Archives one document (its own transaction) and returns its number and SHA-256."""
    require_role(actor, *ISSUE_ROLES.get(kind, ALL_ROLES))
    ref = record_ref if isinstance(record_ref, RecordRef) else RecordRef(*record_ref)
    with db.session() as s:
        return issue_in_session(s, actor, kind, ref, pdf_bytes).info


def archived_bytes(db, number: str) -> bytes:
    """The archived PDF, checked against its SHA-256 (a changed file is refused, never printed)."""
    from sqlalchemy import select

    from desktop.models import IssuedDocument
    with db.session(write=False) as s:
        row = s.scalar(select(IssuedDocument).where(IssuedDocument.number == number.strip()))
        if row is None:
            raise NotFound(f"Documento nº {number} não encontrado no arquivo.")
        data = row.pdf
        if sha256_hex(data) != row.sha256:
            raise ConflictError(f"O arquivo do documento nº {number} não confere com o código de integridade "
                                "registrado na emissão. Não será impresso; avise o administrador.")
        return data


def reprint(db, actor: Actor, number: str) -> bytes:
    """The archived bytes of document `number` with an "Nª via" stamp on every page (2ª via on the first
    reprint); counts the copy and writes the audit log. Never a new rendering."""
    from sqlalchemy import select

    from desktop.models import IssuedDocument
    from desktop.reports.reprint import stamp_copy
    from desktop.services import audit

    with db.session() as s:
        row = s.scalar(select(IssuedDocument).where(IssuedDocument.number == number.strip()))
        if row is None:
            raise NotFound(f"Documento nº {number} não encontrado no arquivo.")
        require_role(actor, *ISSUE_ROLES.get(row.kind, ALL_ROLES))
        data = row.pdf
        if sha256_hex(data) != row.sha256:
            raise ConflictError(f"O arquivo do documento nº {number} não confere com o código de integridade "
                                "registrado na emissão. Não será reimpresso; avise o administrador.")
        when = now()
        before = {"copies": row.copies}
        row.copies += 1
        row.last_copy_at = when
        label = f"{row.copies + 1}ª via"
        audit.record(s, actor, "document.reprint", "issued_document", row.id, before,
                     {"copies": row.copies, "label": label, "number": row.number})
        return stamp_copy(data, label, when, actor.full_name)


def list_issued(db, record_type: str | None = None, record_id: int | None = None,
                limit: int = 200) -> list[IssuedSummary]:
    from sqlalchemy import select

    from desktop.models import IssuedDocument
    from desktop.models import User

    query = select(IssuedDocument.number, IssuedDocument.kind, IssuedDocument.record_type, IssuedDocument.record_id,
                   IssuedDocument.issued_at, IssuedDocument.sha256, IssuedDocument.copies, User.full_name) \
        .outerjoin(User, User.id == IssuedDocument.issued_by)
    if record_type is not None:
        query = query.where(IssuedDocument.record_type == record_type)
    if record_id is not None:
        query = query.where(IssuedDocument.record_id == record_id)
    query = query.order_by(IssuedDocument.id.desc()).limit(limit)
    with db.session(write=False) as s:
        rows = s.execute(query).all()
        labels = _record_labels(s, {(r.record_type, r.record_id) for r in rows})
        return [IssuedSummary(r.number, r.kind, DOCUMENT_KINDS.get(r.kind, r.kind), r.record_type, r.record_id,
                              r.issued_at, r.sha256, r.copies, r.full_name or "",
                              labels.get((r.record_type, r.record_id),
                                         f"{RECORD_NAMES.get(r.record_type, r.record_type)} (código {r.record_id})"))
                for r in rows]


# ---------------------------------------------------------------------------------------------------- settings
def _header_of(row) -> MunicipalityHeader:
    return MunicipalityHeader(name=row.name, uf=row.uf, secretariat=row.secretariat,
                              ouvidoria_phone=row.ouvidoria_phone or "", brasao_png=row.brasao_png,
                              pix_key=row.pix_key)


def _settings(s):
    from desktop.models import MunicipalitySettings
    row = s.get(MunicipalitySettings, 1)
    if row is None:
        raise NotFound("O programa ainda não foi configurado (falta a configuração inicial do município).")
    return row


def municipality_header(db) -> MunicipalityHeader:
    with db.session(write=False) as s:
        return _header_of(_settings(s))


# ---------------------------------------------------------------------------------------------------- authorizations
@dataclass(frozen=True, slots=True)
class AuthorizationPrintData:
    """What the sticker, the credential and the certificate print of one authorization (read once)."""

    authorization_id: int
    number: str
    status: str
    valid_until: date
    limited_by_vehicle_age: bool
    fee_paid_on: date | None
    inspection: str
    driver_name: str
    cpf: str
    cnh_number: str
    cnh_category: str
    address: str
    photo: bytes | None
    plate: str
    renavam: str
    make_model: str
    colour: str
    manufacture_year: int
    model_year: int
    ownership: str


def _authorization_row(s, number: str):
    from sqlalchemy import select

    from desktop.models import Authorization
    row = s.scalar(select(Authorization).where(Authorization.number == number.strip()))
    if row is None:
        raise NotFound(f"Autorização nº {number} não encontrada.")
    return row


def _status_label(status: str) -> str:
    from desktop.domain.workflow import AuthorizationStatus
    try:
        return AuthorizationStatus(status).label
    except ValueError:
        return status


def _print_data(s, row, driver=None, vehicle=None, with_photo: bool = True) -> AuthorizationPrintData:
    from desktop.domain.vehicle import OwnershipMode
    from desktop.models import Driver, Vehicle

    if row.status != "active" or row.valid_until is None:
        raise ConflictError(
            f"A autorização nº {row.number} está {_status_label(row.status)}: adesivo, credencial e termo só "
            "são emitidos para autorização Ativa (Art. 3º; Art. 10, parágrafo único; Art. 15, VII).")
    driver = driver or s.get(Driver, row.driver_id)
    vehicle = vehicle or s.get(Vehicle, row.vehicle_id)
    try:
        mode = OwnershipMode(vehicle.ownership_mode)
        ownership = f"{mode.label} ({mode.article})"
    except ValueError:
        ownership = vehicle.ownership_mode
    if row.inspection_approved_on:
        inspection = f"aprovada em {fmt_date(row.inspection_approved_on)}"
    elif row.inspection_waived_on:
        inspection = f"dispensada em {fmt_date(row.inspection_waived_on)} (Art. 9º, §1º)"
    else:
        inspection = "—"
    address = ", ".join(part for part in (driver.address, driver.district, driver.city) if part) or "—"
    if driver.uf and driver.city:
        address += f"–{driver.uf}"
    return AuthorizationPrintData(
        authorization_id=row.id, number=row.number, status=row.status, valid_until=row.valid_until,
        limited_by_vehicle_age=row.valid_until_limited_by == "vehicle_age", fee_paid_on=row.fee_paid_on,
        inspection=inspection, driver_name=driver.name, cpf=driver.cpf, cnh_number=driver.cnh_number or "—",
        cnh_category=driver.cnh_category or "—", address=address, photo=driver.photo if with_photo else None,
        plate=vehicle.plate, renavam=vehicle.renavam, make_model=f"{vehicle.make} {vehicle.model}".strip(),
        colour=vehicle.colour or "—", manufacture_year=vehicle.manufacture_year, model_year=vehicle.model_year,
        ownership=ownership,
    )


def _print_data_many(s, numbers: list[str]) -> list[AuthorizationPrintData]:
    """One query for a whole batch (authorization + driver + vehicle), in the order of `numbers`."""
    from sqlalchemy import select

    from desktop.models import Authorization, Driver, Vehicle
    found = {}
    for chunk_start in range(0, len(numbers), 500):
        chunk = numbers[chunk_start:chunk_start + 500]
        query = (select(Authorization, Driver, Vehicle)
                 .join(Driver, Driver.id == Authorization.driver_id)
                 .join(Vehicle, Vehicle.id == Authorization.vehicle_id)
                 .where(Authorization.number.in_(chunk)))
        for auth, driver, vehicle in s.execute(query):
            found[auth.number] = _print_data(s, auth, driver, vehicle, with_photo=False)
    missing = [n for n in numbers if n not in found]
    if missing:
        raise NotFound(f"Autorização nº {missing[0]} não encontrada.")
    return [found[n] for n in numbers]


def _vehicle_line(data: AuthorizationPrintData) -> str:
    return f"{data.make_model} – {data.colour}"


def _record_sticker_event(s, actor: Actor, authorization_id: int, status: str, document_number: str,
                          when: datetime) -> None:
    from desktop.models import AuthorizationEvent
    s.add(AuthorizationEvent(authorization_id=authorization_id, kind=STICKER_EVENT, from_status=status,
                             to_status=status, at=when, effective_on=when.date(), by_user_id=actor.user_id,
                             reason=f"Adesivo impresso (Art. 14) — documento nº {document_number}",
                             act_number=document_number))


def sticker_for_authorization(db, actor: Actor, number: str, meta: DocumentMeta | None = None,
                              layout: str = "page"):
    """The sticker context (desktop.reports.sticker.StickerContext) of an active authorization, signed with
    the municipality's key: for a preview before issuing (the archive is written by `print_sticker`, which
    gives the document its number). Without `meta`, the footer says "prévia"."""
    from desktop.reports import sticker
    require_role(actor, *ISSUE_ROLES["sticker"])
    meta = meta or DocumentMeta("prévia (não emitido)", now(), actor.full_name)
    with db.session(write=False) as s:
        settings = _settings(s)
        data = _print_data(s, _authorization_row(s, number), with_photo=False)
        return sticker.build_context(
            _header_of(settings), meta,
            [sticker.StickerData(data.number, data.plate, data.valid_until, _vehicle_line(data))],
            _signing_key(settings), layout)


def _signing_key(settings) -> bytes:
    if settings.signing_private_key is None:
        raise NotFound("A chave de assinatura do município não foi criada (configuração inicial).")
    return settings.signing_private_key


def print_sticker(db, actor: Actor, number: str, layout: str = "page") -> Issued:
    """Issues and archives the sticker of authorization `number` and records it in the authorization's history."""
    from desktop.reports import sticker
    require_role(actor, *ISSUE_ROLES["sticker"])
    with db.session() as s:
        settings = _settings(s)
        data = _print_data(s, _authorization_row(s, number), with_photo=False)
        header, key = _header_of(settings), _signing_key(settings)
        item = [sticker.StickerData(data.number, data.plate, data.valid_until, _vehicle_line(data))]
        issued = issue_in_session(
            s, actor, "sticker", RecordRef("authorization", data.authorization_id),
            lambda meta: sticker.render(sticker.build_context(header, meta, item, key, layout)))
        _record_sticker_event(s, actor, data.authorization_id, data.status, issued.info.number, issued.info.issued_at)
        return issued


def pending_sticker_numbers(db) -> list[str]:
    """Active authorizations whose sticker was not printed since their (last) fee payment — after a renewal the
    validity printed on the old sticker is out of date."""
    from sqlalchemy import and_, exists, func, select

    from desktop.models import Authorization, AuthorizationEvent
    since = func.coalesce(Authorization.fee_paid_on, Authorization.activated_on)
    printed = exists().where(and_(
        AuthorizationEvent.authorization_id == Authorization.id,
        AuthorizationEvent.kind == STICKER_EVENT,
        AuthorizationEvent.effective_on >= since,
    ))
    query = (select(Authorization.number)
             .where(Authorization.status == "active", Authorization.number.is_not(None), ~printed)
             .order_by(Authorization.number))
    with db.session(write=False) as s:
        numbers = list(s.scalars(query))
    return sorted(numbers, key=lambda n: (n[-4:], n))


def print_pending_stickers(db, actor: Actor, layout: str = "sheet", workers: int = 1,
                           progress: Callable[[int, int, str], None] | None = None) -> Issued:
    """All pending stickers in one archived PDF (one per page or 8 per label sheet); each authorization's history
    records the batch's document number. `workers=2` encodes the QR codes on both cores."""
    from desktop.reports import sticker
    require_role(actor, *ISSUE_ROLES["sticker"])
    numbers = pending_sticker_numbers(db)
    if not numbers:
        raise ConflictError("Não há adesivos pendentes: todas as autorizações ativas já têm adesivo impresso "
                            "depois do último pagamento da taxa.")
    with db.session() as s:
        settings = _settings(s)
        header, key = _header_of(settings), _signing_key(settings)
        rows = _print_data_many(s, numbers)
        items = [sticker.StickerData(d.number, d.plate, d.valid_until, _vehicle_line(d)) for d in rows]
        on_page = None
        if progress:
            progress(0, len(rows), f"Assinando {len(rows)} adesivo(s)…")
            on_page = lambda done, pages: progress(  # noqa: E731
                min(len(rows), done * len(rows) // max(pages, 1)), len(rows), f"Página {done} de {pages}…")
        issued = issue_in_session(
            s, actor, "sticker", RecordRef("authorization", rows[0].authorization_id),
            lambda meta: sticker.render(sticker.build_context(header, meta, items, key, layout), workers=workers,
                                        on_page=on_page))
        for d in rows:
            _record_sticker_event(s, actor, d.authorization_id, d.status, issued.info.number, issued.info.issued_at)
        if progress:
            progress(len(rows), len(rows), f"{len(rows)} adesivo(s) no documento nº {issued.info.number}.")
        return issued


def pending_stickers_job(state, db, actor: Actor, layout: str = "sheet", workers: int = 2) -> Issued:
    """The batch of pending stickers as a background job (desktop.tasks: `Task(pending_stickers_job, db, actor)`):
    progress per page; "Cancelar" stops it before the commit, so no number is spent and nothing is recorded."""
    def progress(done: int, total: int, text: str) -> None:
        state.progress(done, total, text)
        state.check()
    return print_pending_stickers(db, actor, layout=layout, workers=workers, progress=progress)


def print_credential(db, actor: Actor, number: str) -> Issued:
    from desktop.reports import credential
    require_role(actor, *ISSUE_ROLES["credential"])
    with db.session() as s:
        settings = _settings(s)
        d = _print_data(s, _authorization_row(s, number))
        header, key = _header_of(settings), _signing_key(settings)
        return issue_in_session(s, actor, "credential", RecordRef("authorization", d.authorization_id),
                                lambda meta: credential.render(credential.build_context(
                                    header, meta, driver_name=d.driver_name, cpf=d.cpf, cnh_number=d.cnh_number,
                                    cnh_category=d.cnh_category, authorization_number=d.number,
                                    valid_until=d.valid_until, plate=d.plate, vehicle=_vehicle_line(d),
                                    private_key=key, photo=d.photo)))


def print_certificate(db, actor: Actor, number: str) -> Issued:
    from desktop.domain.dates import renewal_request_deadline
    from desktop.reports import certificate
    from desktop.services.holidays import calendar_in
    require_role(actor, *ISSUE_ROLES["certificate"])
    with db.session() as s:
        settings = _settings(s)
        d = _print_data(s, _authorization_row(s, number))
        header = _header_of(settings)
        renewal = renewal_request_deadline(d.valid_until, calendar_in(s))
        signer = actor.full_name if actor.has(Role.GESTOR) else ""
        return issue_in_session(s, actor, "certificate", RecordRef("authorization", d.authorization_id),
                                lambda meta: certificate.render(certificate.build_context(
                                    header, meta, authorization_number=d.number, driver_name=d.driver_name,
                                    cpf=d.cpf, cnh_number=d.cnh_number, cnh_category=d.cnh_category,
                                    address=d.address, plate=d.plate, renavam=d.renavam, vehicle=d.make_model,
                                    manufacture_year=d.manufacture_year, model_year=d.model_year, colour=d.colour,
                                    ownership=d.ownership, fee_paid_on=d.fee_paid_on or d.valid_until,
                                    valid_until=d.valid_until, limited_by_vehicle_age=d.limited_by_vehicle_age,
                                    renewal_deadline=renewal, inspection=d.inspection, signer_name=signer)))


# ---------------------------------------------------------------------------------------------------- guides
GUIDE_PURPOSE_LABELS = {
    "fee": "Taxa (Art. 10; Art. 15, VII)",
    "fine": "Multa (Art. 25)",
    "issqn": "ISSQN (Art. 11)",
    "cost": "Remoção e estada do veículo (Art. 28)",
}


def print_guide(db, actor: Actor, number: str) -> Issued:
    """The DAM of payment guide `number` (fees and fines), with the FEBRABAN barcode and, when the municipality
    has a PIX key, the PIX BR Code. Needs the municipality's FEBRABAN code (Administração → Município)."""
    from sqlalchemy import select

    from desktop.models import Auto, Authorization, Driver, Fee, PaymentGuide, Platform, Vehicle
    from desktop.reports import guide
    from desktop.reports.common import fmt_plate
    require_role(actor, *ISSUE_ROLES["guide"])
    with db.session() as s:
        settings = _settings(s)
        agreement = (settings.febraban_agreement or "").strip()
        if not (agreement.isdigit() and len(agreement) == 4):
            raise ConflictError("Informe o código FEBRABAN do município (4 dígitos) em Administração → Município "
                                "antes de emitir guias: sem ele o código de barras não é aceito pelos bancos.")
        row = s.scalar(select(PaymentGuide).where(PaymentGuide.number == number.strip()))
        if row is None:
            raise NotFound(f"Guia nº {number} não encontrada.")
        if row.status != "open":
            raise ConflictError(f"A guia nº {row.number} está {'paga' if row.status == 'paid' else 'cancelada'}; "
                                "só guias em aberto são impressas. Para outra via, reimprima o documento arquivado.")
        address, reference = "", ""
        if row.driver_id:
            driver = s.get(Driver, row.driver_id)
            address = ", ".join(p for p in (driver.address, driver.district, driver.city) if p)
        elif row.platform_id:
            address = s.get(Platform, row.platform_id).address or ""
        parts = []
        if row.vehicle_id:
            vehicle = s.get(Vehicle, row.vehicle_id)
            fee = s.scalar(select(Fee).where(Fee.guide_number == row.number))
            if fee is not None and fee.authorization_id:
                auth = s.get(Authorization, fee.authorization_id)
                if auth.number:
                    parts.append(f"Autorização nº {auth.number}")
            parts.append(f"placa {fmt_plate(vehicle.plate)}")
        if row.auto_id:
            parts.append(f"Auto de infração nº {s.get(Auto, row.auto_id).number}")
        reference = " – ".join(parts) or GUIDE_PURPOSE_LABELS.get(row.purpose, row.purpose)
        items = _guide_items(s, row)
        header = _header_of(settings)
        record = RecordRef("payment_guide", row.id)
        ctx_args = dict(guide_number=row.number, purpose=GUIDE_PURPOSE_LABELS.get(row.purpose, row.purpose),
                        taxpayer_name=row.payer_name, taxpayer_document=row.payer_document or "",
                        taxpayer_address=address, reference=reference, items=items, due_date=row.due_on,
                        company_id=agreement)
        barcode_holder: dict[str, str] = {}

        def render(meta):
            ctx = guide.build_context(header, meta, **ctx_args)
            barcode_holder["barcode"] = ctx.barcode
            return guide.render(ctx)

        issued = issue_in_session(s, actor, "guide", record, render)
        if row.barcode != barcode_holder["barcode"]:
            row.barcode = barcode_holder["barcode"]
        return issued


def _guide_items(s, row) -> list:
    from sqlalchemy import select

    from desktop.models import Fee
    from desktop.reports import guide
    from desktop.reports.common import fmt_decimal, fmt_money
    fee = s.scalar(select(Fee).where(Fee.guide_number == row.number))
    labels = {"authorization": "Taxa de autorização", "renewal": "Taxa de renovação",
              "inspection": "Taxa de vistoria", "other": "Taxa"}
    if fee is not None:
        text = labels.get(fee.kind, "Taxa") + " (Código Tributário Municipal)"
        if fee.amount_upfm is not None and fee.upfm_value is not None:
            text += f" — {fmt_decimal(fee.amount_upfm)} UPFM × {fmt_money(fee.upfm_value)}"
        return [guide.GuideItem(text, Decimal(row.amount_reais))]
    return [guide.GuideItem(GUIDE_PURPOSE_LABELS.get(row.purpose, row.purpose), Decimal(row.amount_reais))]


# ---------------------------------------------------------------------------------------------------- statement
def print_statement(db, actor: Actor, document: str, as_of: date | None = None) -> Issued:
    """The infractor's statement (driver by CPF or platform by CNPJ) at `as_of` (today by default)."""
    from sqlalchemy import select

    from desktop.models import Auto, Driver, LedgerEntry, Platform
    from desktop.reports import statement
    from desktop.reports.common import only_digits
    require_role(actor, *ISSUE_ROLES["statement"])
    digits = only_digits(document)
    as_of = as_of or now().date()
    with db.session() as s:
        settings = _settings(s)
        if len(digits) == 11:
            person = s.scalar(select(Driver).where(Driver.cpf == digits))
            if person is None:
                raise NotFound(f"Nenhum condutor com o CPF {document}.")
            name, condition, record = person.name, LedgerEntry.infractor_driver_id == person.id, ("driver", person.id)
        else:
            person = s.scalar(select(Platform).where(Platform.cnpj == digits.upper()))
            if person is None:
                raise NotFound(f"Nenhuma plataforma com o CNPJ {document}.")
            name, condition = person.legal_name, LedgerEntry.infractor_platform_id == person.id
            record = ("platform", person.id)
        entries = s.scalars(select(LedgerEntry).where(condition).order_by(LedgerEntry.effective_on, LedgerEntry.id))
        lines = []
        for entry in entries:
            auto_number = s.get(Auto, entry.auto_id).number if entry.auto_id else ""
            amount = Decimal(entry.amount_upfm)
            debit, credit = (amount, Decimal("0")) if amount >= 0 else (Decimal("0"), -amount)
            description = _ledger_description(entry.kind, auto_number, entry.guide_number, entry.reason)
            lines.append(statement.StatementLine(entry.effective_on, description,
                                                 auto_number or entry.guide_number or "", debit, credit,
                                                 abs(Decimal(entry.amount_reais))))
        upfm_today = _upfm_on(s, as_of)
        header = _header_of(settings)
        return issue_in_session(s, actor, "statement", RecordRef(*record),
                                lambda meta: statement.render(statement.build_context(
                                    header, meta, infractor_name=name, infractor_document=digits, as_of=as_of,
                                    lines=lines, upfm_value_today=upfm_today)))


def _upfm_on(s, on: date) -> Decimal:
    from sqlalchemy import select

    from desktop.models import Parameter
    value = s.scalar(select(Parameter.value).where(Parameter.key == "upfm_value", Parameter.valid_from <= on)
                     .order_by(Parameter.valid_from.desc()).limit(1))
    if value is None:
        raise NotFound(f"Não há valor da UPFM vigente em {fmt_date(on)} (Administração → Parâmetros).")
    return Decimal(value)


_LEDGER_LABELS = {   # desktop.domain.ledger EntryKind
    "debit": "Multa", "costs": "Despesas de remoção e estada (Art. 28)", "payment": "Pagamento",
    "reversal": "Estorno", "reduction": "Redução",
}


def _ledger_description(kind: str, auto_number: str, guide_number: str | None, reason: str | None) -> str:
    text = _LEDGER_LABELS.get(kind, kind.capitalize())
    if auto_number:
        text += f" – auto nº {auto_number}"
    if guide_number and kind != "debit":
        text += f" – DAM nº {guide_number}"
    if reason and kind != "debit":
        text += f" ({reason})"
    return text


# ---------------------------------------------------------------------------------------------------- autos
@dataclass(frozen=True, slots=True)
class _AutoPrintData:
    auto_id: int
    number: str
    drawn_up_at: datetime
    place: str
    infractor_kind: str
    infractor_name: str
    infractor_document: str
    infractor_address: str
    plate: str
    authorization_number: str
    code: str
    description: str
    legal_basis: str
    severity: str
    upfm: Decimal
    upfm_value: Decimal
    amount: Decimal
    penalties: str
    measures: str
    agent_name: str
    agent_registration: str
    defense_days: int
    recurrence: str
    platform_name: str
    status: str


def _auto_data(s, number: str) -> _AutoPrintData:
    from sqlalchemy import select

    from desktop.models import AdministrativeMeasure, Auto, Driver, InfractionCode, Platform, User
    from desktop.services.autos import auto_info_in
    from desktop.services.parameters import parameter_value_in
    auto = s.scalar(select(Auto).where(Auto.number == number.strip()))
    if auto is None:
        raise NotFound(f"Auto de infração nº {number} não encontrado.")
    info = auto_info_in(s, auto)
    code = s.get(InfractionCode, auto.infraction_code_id)
    driver = s.get(Driver, auto.infractor_driver_id) if auto.infractor_driver_id else None
    platform = s.get(Platform, auto.infractor_platform_id) if auto.infractor_platform_id else None
    if driver is not None:
        kind, name, document = "condutor", driver.name, driver.cpf
        address = ", ".join(p for p in (driver.address, driver.district, driver.city) if p)
    else:
        kind, name, document = "plataforma", platform.legal_name, platform.cnpj
        address = platform.address or ""
    measures = s.scalars(select(AdministrativeMeasure).where(AdministrativeMeasure.auto_id == auto.id))
    measure_texts = []
    for m in measures:
        try:
            from desktop.domain.penalties import AdministrativeMeasure as MeasureKind
            measure_texts.append(getattr(MeasureKind(m.kind), "label", m.kind))
        except ValueError:
            measure_texts.append(m.kind)
    agent = s.get(User, auto.agent_id) if auto.agent_id else None
    assessment = info.assessment
    penalties = assessment.penalty_text if assessment is not None else "Multa"
    recurrence = ""
    if auto.recurrence:
        recurrence = "Sim" + (f" — auto(s) anterior(es): {', '.join(assessment.recurrent_autos)}"
                              if assessment is not None and getattr(assessment, "recurrent_autos", None) else "")
    severity = info.severity.label if hasattr(info.severity, "label") else str(info.severity)
    article = (code.article if code is not None else "") or info.article
    defense_days = int(parameter_value_in(s, "term.defense_days", auto.drawn_up_at.date()))
    return _AutoPrintData(
        auto_id=auto.id, number=auto.number, drawn_up_at=auto.drawn_up_at, place=auto.place, infractor_kind=kind,
        infractor_name=name, infractor_document=document, infractor_address=address, plate=info.plate,
        authorization_number=info.authorization_number, code=auto.code,
        description=(code.description if code is not None else auto.code), legal_basis=article,
        severity=severity.lower(), upfm=Decimal(auto.amount_upfm), upfm_value=Decimal(auto.upfm_value),
        amount=Decimal(auto.amount_reais), penalties=penalties, measures="; ".join(measure_texts),
        agent_name=info.agent_name or "Agente fiscal", agent_registration=agent.username if agent else "—",
        defense_days=defense_days, recurrence=recurrence,
        platform_name=(platform.trade_name or platform.legal_name) if platform else "", status=auto.status,
    )


def print_auto(db, actor: Actor, number: str) -> Issued:
    """The auto de infração in two copies, "Via do processo" and "Via do infrator" (Art. 19)."""
    from desktop.reports import auto as auto_report
    require_role(actor, *ISSUE_ROLES["auto"])
    with db.session() as s:
        header = _header_of(_settings(s))
        d = _auto_data(s, number)
        if d.status == "cancelled":
            raise ConflictError(f"O auto nº {d.number} foi cancelado; só a via arquivada pode ser reimpressa.")
        return issue_in_session(s, actor, "auto", RecordRef("auto", d.auto_id),
                                lambda meta: auto_report.render(auto_report.build_context(
                                    header, meta, auto_number=d.number, drawn_up_at=d.drawn_up_at, place=d.place,
                                    infractor_kind=d.infractor_kind, infractor_name=d.infractor_name,
                                    infractor_document=d.infractor_document,
                                    infractor_address=d.infractor_address or "—", plate=d.plate,
                                    authorization_number=d.authorization_number, code=d.code,
                                    description=d.description, legal_basis=d.legal_basis, severity=d.severity,
                                    upfm=d.upfm, upfm_value=d.upfm_value, amount=d.amount, penalties=d.penalties,
                                    measures=d.measures, facts=_auto_facts(s, d.auto_id),
                                    agent_name=d.agent_name, agent_registration=d.agent_registration,
                                    defense_days=d.defense_days, recurrence=d.recurrence)))


def _auto_facts(s, auto_id: int) -> str:
    from desktop.models import Auto
    return s.get(Auto, auto_id).description or "—"


def print_autuacao_notice(db, actor: Actor, auto_number: str) -> Issued:
    """Notice of the auto to the infractor (Art. 22), the platform named as also notified when there is one."""
    from desktop.reports import notices
    require_role(actor, *ISSUE_ROLES["notice"])
    with db.session() as s:
        header = _header_of(_settings(s))
        d = _auto_data(s, auto_number)
        recipient = notices.Recipient(d.infractor_name, d.infractor_document, d.infractor_address, d.plate,
                                      d.authorization_number)
        platform = d.platform_name if d.infractor_kind == "condutor" else ""
        signer = actor.full_name if actor.user_id is not None else ""
        return issue_in_session(s, actor, "notice", RecordRef("auto", d.auto_id),
                                lambda meta: notices.render(notices.autuacao(
                                    header, meta, notice_number=meta.number, recipient=recipient,
                                    auto_number=d.number, drawn_up_at=d.drawn_up_at,
                                    infraction=f"{d.code} – {d.description}", legal_basis=d.legal_basis,
                                    amount=d.amount, defense_days=d.defense_days, notify_platform=platform,
                                    signer_name=signer)))


NOTICE_KINDS = ("autuacao", "penalty", "regularization", "inspection_convocation", "renewal_reminder")


def print_notice(db, actor: Actor, notice_kind: str, record_number: str) -> Issued:
    """A notice by kind: autuação and penalty by auto number (Art. 22, 24–27); regularization and inspection
    convocation by inspection code (Art. 16); renewal reminder by authorization number (Art. 3 §2)."""
    if notice_kind == "autuacao":
        return print_autuacao_notice(db, actor, record_number)
    from desktop.reports import notices
    require_role(actor, *ISSUE_ROLES["notice"])
    signer = actor.full_name if actor.user_id is not None else ""
    with db.session() as s:
        header = _header_of(_settings(s))
        if notice_kind == "penalty":
            return _penalty_notice(s, actor, header, record_number, signer)
        if notice_kind == "renewal_reminder":
            from desktop.domain.dates import renewal_request_deadline
            from desktop.services.holidays import calendar_in
            d = _print_data(s, _authorization_row(s, record_number), with_photo=False)
            recipient = notices.Recipient(d.driver_name, d.cpf, d.address, d.plate, d.number)
            last_day = renewal_request_deadline(d.valid_until, calendar_in(s))
            return issue_in_session(s, actor, "notice", RecordRef("authorization", d.authorization_id),
                                    lambda meta: notices.render(notices.renewal_reminder(
                                        header, meta, notice_number=meta.number, recipient=recipient,
                                        valid_until=d.valid_until, last_timely_day=last_day, signer_name=signer)))
        if notice_kind in ("regularization", "inspection_convocation"):
            return _inspection_notice(s, actor, header, notice_kind, record_number, signer)
    raise DesktopError(f"Tipo de notificação desconhecido: {notice_kind!r}. Tipos: {', '.join(NOTICE_KINDS)}.")


def _penalty_notice(s, actor, header, auto_number, signer) -> Issued:
    from sqlalchemy import select

    from desktop.models import AutoJudgment
    from desktop.reports import notices
    from desktop.services.parameters import parameter_value_in
    d = _auto_data(s, auto_number)
    judgment = s.scalar(select(AutoJudgment).where(AutoJudgment.auto_id == d.auto_id)
                        .order_by(AutoJudgment.id.desc()).limit(1))
    from desktop.models import Auto
    auto = s.get(Auto, d.auto_id)
    if judgment is None or judgment.outcome == "annulled" or auto.payment_deadline is None:
        raise ConflictError(f"O auto nº {d.number} ainda não tem penalidade aplicada com prazo de pagamento: a "
                            "notificação de penalidade sai depois do julgamento (Art. 22; Art. 24).")
    amount = d.amount
    if judgment.outcome == "partly_upheld" and judgment.reduced_upfm is not None:
        amount = (Decimal(judgment.reduced_upfm) * d.upfm_value).quantize(Decimal("0.01"))
    appeal_days = int(parameter_value_in(s, "term.appeal_days", judgment.decided_on))
    recipient = notices.Recipient(d.infractor_name, d.infractor_document, d.infractor_address, d.plate,
                                  d.authorization_number)
    return issue_in_session(s, actor, "notice", RecordRef("auto", d.auto_id),
                            lambda meta: notices.render(notices.penalty(
                                header, meta, notice_number=meta.number, recipient=recipient, auto_number=d.number,
                                decision_date=judgment.decided_on, penalties=d.penalties, amount=amount,
                                due_date=auto.payment_deadline, appeal_days=appeal_days,
                                legal_basis=d.legal_basis, signer_name=signer)))


def _inspection_notice(s, actor, header, notice_kind, inspection_code, signer) -> Issued:
    from desktop.domain.inspection import INSPECTION_ITEMS_BY_KEY, InspectionKind
    from desktop.models import Authorization, Driver, Inspection, InspectionPlace, Platform, Vehicle
    from desktop.reports import notices
    if not str(inspection_code).strip().isdigit():
        raise DesktopError("Informe o número interno (código) da vistoria, por exemplo --id 12.")
    row = s.get(Inspection, int(inspection_code))
    if row is None:
        raise NotFound(f"Vistoria nº {inspection_code} não encontrada.")
    vehicle = s.get(Vehicle, row.vehicle_id)
    auth = s.get(Authorization, row.authorization_id) if row.authorization_id else None
    if auth is None:
        raise ConflictError(f"A vistoria nº {inspection_code} não está ligada a uma autorização: não há condutor a "
                            "notificar.")
    driver = s.get(Driver, auth.driver_id)
    address = ", ".join(p for p in (driver.address, driver.district, driver.city) if p)
    recipient = notices.Recipient(driver.name, driver.cpf, address, vehicle.plate, auth.number or "")
    ref = RecordRef("inspection", row.id)
    if notice_kind == "regularization":
        if row.result != "failed" or row.regularize_by is None:
            raise ConflictError(f"A vistoria nº {inspection_code} não foi reprovada: não há o que regularizar "
                                "(Art. 16, §2º).")
        labels = {key: item.label for key, item in INSPECTION_ITEMS_BY_KEY.items()}
        pending = tuple(labels.get(_ITEM_ALIASES.get(i.item_key, i.item_key), i.item_key)
                        + (f" — {i.note}" if i.note else "")
                        for i in row.items if i.passed is False) or ("Pendências registradas no laudo",)
        reference = f"Laudo de vistoria nº {row.id:04d}/{row.performed_at.year if row.performed_at else ''}"
        return issue_in_session(s, actor, "notice", ref, lambda meta: notices.render(notices.regularization(
            header, meta, notice_number=meta.number, recipient=recipient, reference=reference,
            pending_items=pending, deadline=row.regularize_by, signer_name=signer)))
    if row.scheduled_start is None or row.status != "scheduled":
        raise ConflictError(f"A vistoria nº {inspection_code} não está agendada: a convocação precisa de data e "
                            "hora marcadas (Art. 16, §1º).")
    place = s.get(InspectionPlace, row.place_id) if row.place_id else None
    place_text = " – ".join(p for p in (getattr(place, "name", None), getattr(place, "address", None)) if p) or "—"
    try:
        kind = InspectionKind(row.kind).label.lower()
    except ValueError:
        kind = row.kind
    from sqlalchemy import select

    from desktop.models import DriverPlatform
    platform_ids = list(s.scalars(select(DriverPlatform.platform_id).where(DriverPlatform.driver_id == driver.id,
                                                                            DriverPlatform.until.is_(None))))
    platforms = ", ".join(p.trade_name or p.legal_name for p in (s.get(Platform, i) for i in platform_ids) if p)
    return issue_in_session(s, actor, "notice", ref, lambda meta: notices.render(notices.inspection_convocation(
        header, meta, notice_number=meta.number, recipient=recipient, scheduled_at=row.scheduled_start,
        place=place_text, inspection_kind=kind, platform=platforms, signer_name=signer)))


# ---------------------------------------------------------------------------------------------------- inspections
# Keys written by older data (the demo loader) for items of desktop.domain.inspection.INSPECTION_CHECKLIST.
_ITEM_ALIASES = {"doors_4": "four_doors", "seats_max_7": "capacity", "original_characteristics": "original_features"}


def print_inspection_report(db, actor: Actor, inspection_id: int) -> Issued:
    """The laudo of a performed inspection (Art. 9, 15, 16), with the 5-day term when failed (Art. 16 §2)."""
    from desktop.domain.inspection import INSPECTION_ITEMS_BY_KEY, InspectionKind
    from desktop.models import Authorization, Driver, Inspection, InspectionPlace, User, Vehicle
    from desktop.reports import inspection as report
    require_role(actor, *ISSUE_ROLES["inspection"])
    with db.session() as s:
        header = _header_of(_settings(s))
        row = s.get(Inspection, int(inspection_id))
        if row is None:
            raise NotFound(f"Vistoria nº {inspection_id} não encontrada.")
        if row.performed_at is None or row.result not in ("approved", "failed"):
            raise ConflictError(f"A vistoria nº {inspection_id} ainda não foi realizada: o laudo sai depois do "
                                "resultado registrado.")
        vehicle = s.get(Vehicle, row.vehicle_id)
        auth = s.get(Authorization, row.authorization_id) if row.authorization_id else None
        driver = s.get(Driver, auth.driver_id) if auth else None
        inspector = s.get(User, row.inspector_id) if row.inspector_id else None
        place = s.get(InspectionPlace, row.place_id) if row.place_id else None
        lines = []
        for item in row.items:
            known = INSPECTION_ITEMS_BY_KEY.get(_ITEM_ALIASES.get(item.item_key, item.item_key))
            lines.append(report.ChecklistLine(known.label if known else item.item_key,
                                              known.article if known else "", bool(item.passed), item.note or ""))
        try:
            kind = InspectionKind(row.kind).label.lower()
        except ValueError:
            kind = row.kind
        approved = row.result == "approved"
        fields = dict(
            inspection_number=f"{row.id:04d}/{row.performed_at.year}", kind=kind, performed_at=row.performed_at,
            place=getattr(place, "name", None) or "—", inspector_name=inspector.full_name if inspector else "—",
            driver_name=driver.name if driver else "—", authorization_number=(auth.number or "") if auth else "",
            plate=vehicle.plate, renavam=vehicle.renavam, vehicle=f"{vehicle.make} {vehicle.model}, "
            f"{vehicle.colour or ''}".strip(", "), manufacture_year=vehicle.manufacture_year, odometer_km=None,
            lines=tuple(lines), approved=approved, regularize_until=None if approved else row.regularize_by,
            remarks=row.notes or "")
        if not approved and fields["regularize_until"] is None:
            raise ConflictError("Vistoria reprovada sem prazo de regularização registrado (Art. 16, §2º).")
        return issue_in_session(s, actor, "inspection", RecordRef("inspection", row.id),
                                lambda meta: report.render(report.build_context(header, meta, **fields)))


# ---------------------------------------------------------------------------------------------------- courses
def print_attendance_list(db, actor: Actor, session_id: int) -> Issued:
    """The attendance list of a course session (Art. 12 §2), one line per convened driver."""
    from sqlalchemy import select

    from desktop.models import Authorization, CourseSession, Driver
    from desktop.reports import attendance
    require_role(actor, *ISSUE_ROLES["attendance"])
    with db.session() as s:
        header = _header_of(_settings(s))
        course = s.get(CourseSession, int(session_id))
        if course is None:
            raise NotFound(f"Turma nº {session_id} não encontrada.")
        rows = []
        for item in sorted(course.attendances, key=lambda a: a.id):
            driver = s.get(Driver, item.driver_id)
            number = s.scalar(select(Authorization.number).where(
                Authorization.driver_id == driver.id, Authorization.number.is_not(None))
                .order_by(Authorization.id.desc()).limit(1)) or "—"
            status = {"present": "presente", "absent": "ausente", "excused": "justificada"}.get(item.status, "")
            rows.append(attendance.AttendanceRow(driver.name, driver.cpf, number, status))
        rows.sort(key=lambda r: r.driver_name)
        starts = course.starts_at or datetime(course.held_on.year, course.held_on.month, course.held_on.day,
                                               tzinfo=now().tzinfo)
        fields = dict(session_number=f"{course.id:04d}/{course.held_on.year}", topic=course.topic,
                      starts_at=starts, place=course.place, instructor=course.instructor or "—",
                      capacity=max(course.capacity, len(rows)), rows=tuple(rows))
        return issue_in_session(s, actor, "attendance", RecordRef("course_session", course.id),
                                lambda meta: attendance.render(attendance.build_context(header, meta, **fields)))


# ---------------------------------------------------------------------------------------------------- edital
EDITAL_FORMS = {"notice_board": "II", "newspaper": "III", "official_gazette": "IV"}   # Art. 22, §1, II–IV


def print_edital(db, actor: Actor, sent_on: date) -> Issued:
    """The edital list of the autos whose notification by edital (Art. 22 §1 II–IV) is dated `sent_on`."""
    from sqlalchemy import select

    from desktop.models import Auto, AutoNotification, Driver, Platform, Vehicle
    from desktop.reports import edital
    from desktop.services.parameters import parameter_value_in
    require_role(actor, *ISSUE_ROLES["edital"])
    with db.session() as s:
        header = _header_of(_settings(s))
        notes = list(s.scalars(select(AutoNotification).where(
            AutoNotification.form.in_(tuple(EDITAL_FORMS)), AutoNotification.sent_on == sent_on)
            .order_by(AutoNotification.auto_id)))
        if not notes:
            raise NotFound(f"Nenhuma notificação por edital (Art. 22, §1º, II a IV) com data de {fmt_date(sent_on)}.")
        means = tuple(sorted({EDITAL_FORMS[n.form] for n in notes}, key=("II", "III", "IV").index))
        rows, seen = [], set()
        for note in notes:
            if note.auto_id in seen:
                continue
            seen.add(note.auto_id)
            auto = s.get(Auto, note.auto_id)
            if auto.infractor_driver_id and note.addressee == "driver":
                person = s.get(Driver, auto.infractor_driver_id)
                name, document = person.name, person.cpf
            else:
                person = s.get(Platform, auto.infractor_platform_id) if auto.infractor_platform_id else None
                if person is None:
                    person = s.get(Driver, auto.infractor_driver_id)
                    name, document = person.name, person.cpf
                else:
                    name, document = person.legal_name, person.cnpj
            plate = s.get(Vehicle, auto.vehicle_id).plate if auto.vehicle_id else ""
            rows.append(edital.EditalRow(auto.number, name, document, plate, auto.code, auto.drawn_up_at.date(),
                                         Decimal(auto.amount_reais)))
        defense_days = int(parameter_value_in(s, "term.defense_days", sent_on))
        fields = dict(means=means, publication_date=sent_on, defense_days=defense_days, rows=tuple(rows),
                      signer_name=actor.full_name if actor.user_id is not None else "")
        return issue_in_session(s, actor, "edital", RecordRef("auto", notes[0].auto_id),
                                lambda meta: edital.render(edital.build_context(
                                    header, meta, edital_number=meta.number, **fields)))


# ---------------------------------------------------------------------------------------------------- platforms
def print_data_request(db, actor: Actor, number: str) -> Issued:
    """The justified request for data to a platform (Art. 4), with the 24-hour term of §2 when it serves an
    investigation; `number` is the request's NNNN/AAAA or, for a draft without number, its internal code."""
    from sqlalchemy import select

    from desktop.models import DataRequest, Platform
    from desktop.reports import data_request
    require_role(actor, *ISSUE_ROLES["data_request"])
    with db.session() as s:
        header = _header_of(_settings(s))
        key = number.strip()
        row = s.scalar(select(DataRequest).where(DataRequest.number == key))
        if row is None and key.isdigit():
            row = s.get(DataRequest, int(key))
        if row is None:
            raise NotFound(f"Requisição de dados nº {number} não encontrada.")
        platform = s.get(Platform, row.platform_id)
        wanted = [("I", row.want_origin_destination), ("II", row.want_time_distance), ("III", row.want_route),
                  ("IV", row.want_driver), ("V", row.want_fare), ("VI", row.want_rating),
                  ("VII", bool(row.other_data))]
        fields = dict(request_number=row.number or f"{row.id:04d}/{row.period_end.year}",
                      platform_name=platform.legal_name, platform_cnpj=platform.cnpj,
                      platform_address=platform.address or "—", justification=row.justification,
                      period_start=row.period_start, period_end=row.period_end,
                      fields=tuple(numeral for numeral, on in wanted if on), other_fields=row.other_data or "",
                      investigation=bool(row.investigation), notified_at=row.notified_at,
                      signer_name=actor.full_name if actor.user_id is not None else "")
        return issue_in_session(s, actor, "data_request", RecordRef("data_request", row.id),
                                lambda meta: data_request.render(data_request.build_context(header, meta, **fields)))


# ---------------------------------------------------------------------------------------------------- stickers
def check_sticker(db, text: str, today: date | None = None):
    """A scanned sticker checked offline (signature, validity) and then against the database: an authorization
    suspended or impeded after the sticker was printed is reported as such (Art. 16 §2, Art. 24), a revoked,
    cassada or expired one as revoked, and a sticker of a replaced vehicle (Art. 8 §2) as no longer valid."""
    from desktop.signing import EXPIRED, REVOKED, SUSPENDED, VALID, StickerCheck, verify_sticker

    today = today or now().date()
    with db.session(write=False) as s:
        settings = _settings(s)
        if settings.signing_public_key is None:
            raise NotFound("A chave de assinatura do município não foi criada (configuração inicial).")
        check = verify_sticker(text, settings.signing_public_key, today)
        if check.status not in (VALID, EXPIRED):
            return check
        from sqlalchemy import select

        from desktop.models import Authorization, Vehicle
        row = s.scalar(select(Authorization).where(Authorization.number == check.number))
        if row is None:
            return StickerCheck(REVOKED, check.number, check.plate, check.valid_until,
                                f"Adesivo assinado, mas a autorização nº {check.number} não consta do cadastro.")
        label = _status_label(row.status)
        if row.status in ("suspended", "impeded"):
            until = row.suspended_until if row.status == "suspended" else row.regularize_by
            extra = f" até {fmt_date(until)}" if until else ""
            article = "Art. 24" if row.status == "suspended" else "Art. 16, §2º"
            return StickerCheck(SUSPENDED, check.number, check.plate, check.valid_until,
                                f"Autorização nº {check.number} {label.upper()}{extra} ({article}): o veículo "
                                f"{check.plate} não pode prestar o serviço.")
        if row.status in ("revoked", "cassada", "expired", "refused"):
            return StickerCheck(REVOKED, check.number, check.plate, check.valid_until,
                                f"Autorização nº {check.number} {label.upper()}: o adesivo não vale mais.")
        vehicle = s.get(Vehicle, row.vehicle_id)
        if vehicle is not None and vehicle.plate.upper() != check.plate:
            return StickerCheck(REVOKED, check.number, check.plate, check.valid_until,
                                f"Adesivo do veículo {check.plate}, substituído na autorização nº {check.number} "
                                f"pelo veículo {vehicle.plate} (Art. 8º, §2º): o adesivo não vale mais.")
        if check.status == EXPIRED and row.valid_until and row.valid_until >= today:
            return StickerCheck(EXPIRED, check.number, check.plate, check.valid_until,
                                check.message_pt + f" A autorização foi renovada até {fmt_date(row.valid_until)}: "
                                "o condutor deve afixar o adesivo novo.")
        return check


# ---------------------------------------------------------------------------------------------------- dispatch


def print_kind(db, actor: Actor, kind: str, record_number: str, layout: str = "page",
               notice_kind: str = "autuacao") -> Issued:
    """`python -m desktop print KIND --id NUMBER`: issues and archives one document by the number users know."""
    if kind == "sticker":
        return print_sticker(db, actor, record_number, layout)
    if kind == "credential":
        return print_credential(db, actor, record_number)
    if kind == "certificate":
        return print_certificate(db, actor, record_number)
    if kind == "guide":
        return print_guide(db, actor, record_number)
    if kind == "statement":
        return print_statement(db, actor, record_number)
    if kind == "auto":
        return print_auto(db, actor, record_number)
    if kind == "notice":
        return print_notice(db, actor, notice_kind, record_number)
    if kind == "data_request":
        return print_data_request(db, actor, record_number)
    if kind == "edital":
        return print_edital(db, actor, _parse_br_date(record_number))
    if kind in ("inspection", "attendance"):
        if not record_number.strip().isdigit():
            raise DesktopError(f"Informe o número interno (código) da {'vistoria' if kind == 'inspection' else 'turma'}"
                               f", por exemplo --id 12.")
        if kind == "inspection":
            return print_inspection_report(db, actor, int(record_number))
        return print_attendance_list(db, actor, int(record_number))
    raise DesktopError(f"Tipo de documento desconhecido: {kind!r}. Tipos: {', '.join(DOCUMENT_KINDS)}.")


def _parse_br_date(text: str) -> date:
    """'02/04/2026' → date(2026, 4, 2); the edital is chosen by the date of its publication."""
    try:
        return datetime.strptime(text.strip(), "%d/%m/%Y").date()
    except ValueError:
        raise DesktopError(f"Data inválida: {text!r}. Para o edital, informe a data de publicação (dd/mm/aaaa), "
                           "por exemplo --id 02/04/2026.") from None


def kinds_help() -> Sequence[str]:
    return tuple(DOCUMENT_KINDS)
