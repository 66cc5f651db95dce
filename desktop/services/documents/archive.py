"""The archive of issued documents (SPEC §3 "Documents to print"; issue 7): every printed PDF gets its number,
is archived with its bytes and SHA-256 and linked to its record; a reprint is the archived bytes with a copy
stamp, never a new rendering.

Rendering happens outside the write transaction (issue 10 item 3): the context is read in a read session, the
PDF is rendered with the number the series will give next (peeked), and one short write transaction takes the
number; when it is the one rendered, the bytes are archived; when another desk took it meanwhile, the document
is rendered again with the new number (bounded; the last attempt renders while holding the number). So the
number printed is the number archived, and numbers never repeat or skip (SPEC §4).
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from desktop.domain.roles import DOCUMENT_ROLES, EVERYONE, Role
from desktop.errors import ConflictError, NotFound
from desktop.reports.common import DocumentMeta, MunicipalityHeader, fmt_date, now
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.models import IssuedDocument
from sqlalchemy import select
from desktop.reports.reprint import stamp_copy
from desktop.domain import TIMEZONE
from desktop.models import Auto, Authorization, DataRequest, Driver, PaymentGuide, Platform
from desktop.models.courses import CourseSession
from desktop.models.inspections import Inspection
from desktop.models import User
from desktop.reports import records

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
    "statistics": "Estatísticas",
    "management_report": "Relatório gerencial mensal",
    "trip_route": "Trajeto de viagem (Art. 4º, §1º, III)",
    "dispatch_batch": "Lote de expedição postal (Art. 22, §1º, V)",   # issue 26: services.correspondence
    "audit_term": "Termo de verificação do registro de auditoria",
    "divida_ativa": "Certidão de dívida ativa (Lei nº 6.830/1980, art. 2º, § 6º)",   # issue 28 point 9
    "process_extract": "Certidão — extrato do processo do auto",   # issue 28 point 1: the present state
}
ALL_ROLES = EVERYONE
ISSUE_ROLES: dict[str, tuple[Role, ...]] = dict(DOCUMENT_ROLES)   # who may issue each kind (domain/roles.py)
NUMBER_KIND = "document"     # services.numbering series of every issued document
# Why a document in force is issued again with a new number instead of its 2ª via (issue 12 item 17).
REISSUE_REASONS = {"lost": "extravio", "damaged": "dano", "data_changed": "dados alterados"}
RENDER_ATTEMPTS = 4          # optimistic renders before the last one, which renders holding the number


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
                "driver": "Condutor", "platform": "Plataforma", "period": "Período", "trip": "Viagem",
                "audit_checkpoint": "Ponto de verificação"}


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _check_cancel(state) -> None:
    """A background job's "Cancelar" (desktop.background.TaskState): stop before anything is archived."""
    if state is not None:
        state.check()


def reissue_text(reason: str | None) -> str:
    """'extravio' for "lost"; "" for none; refuses a reason outside REISSUE_REASONS."""
    if not reason:
        return ""
    if reason not in REISSUE_REASONS:
        raise ValueError(f"Motivo de nova emissão desconhecido: {reason!r} ({', '.join(REISSUE_REASONS)}).")
    return REISSUE_REASONS[reason]


def _archive(s, actor: Actor, kind: str, ref: RecordRef, meta: DocumentMeta, data: bytes,
             reason: str | None = None) -> Issued:
    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)

    if not data.startswith(b"%PDF"):
        raise ValueError("O documento a arquivar não é um PDF.")
    digest = sha256_hex(data)
    row = IssuedDocument(kind=kind, number=meta.number, record_type=ref.record_type, record_id=ref.record_id,
                         pdf=data, sha256=digest, issued_at=meta.issued_at, issued_by=actor.user_id, copies=0)
    s.add(row)
    s.flush()
    audit.record(s, actor, "document.issue", "issued_document", row.id, None, {
        "kind": kind, "number": meta.number, "record_type": ref.record_type, "record_id": ref.record_id,
        "sha256": digest, "size": len(data), **({"reissue": reissue_text(reason)} if reason else {}),
    })
    return Issued(IssuedInfo(row.id, kind, meta.number, ref.record_type, ref.record_id, digest, meta.issued_at,
                             actor.user_id, len(data), 0), data)


def _known_kind(kind: str) -> None:
    if kind not in DOCUMENT_KINDS:
        raise ValueError(f"Tipo de documento desconhecido: {kind!r}.")


def issue_in_session(s, actor: Actor, kind: str, record_ref: RecordRef,
                     pdf: bytes | Callable[[DocumentMeta], bytes], when: datetime | None = None) -> Issued:
    """Inside the caller's transaction: takes the next document number, renders (when `pdf` is a function of
    the document's meta) and archives the bytes with their SHA-256 and the audit log. The number is consumed
    only if the transaction commits. It renders while holding the number: for a document of the program, use
    `issue_rendered`, which renders outside the transaction."""
    from desktop.services.numbering import next_number  # lazy: SQLAlchemy loads once the database is used (start-up)

    _known_kind(kind)
    issued_at = when or now()
    meta = DocumentMeta(next_number(s, NUMBER_KIND, issued_at.year), issued_at, actor.full_name)
    return _archive(s, actor, kind, record_ref, meta, pdf(meta) if callable(pdf) else bytes(pdf))


class _NumberTaken(Exception):
    """Another desk took the number the document was rendered with (internal: rolls the transaction back)."""

    def __init__(self, number: str):
        super().__init__(number)
        self.number = number


def issue_rendered(db, actor: Actor, kind: str, build: Callable[[Any, DocumentMeta], tuple[RecordRef, Any]],
                   render: Callable[[Any], bytes], after: Callable[[Any, Issued, Any], None] | None = None,
                   state=None, when: datetime | None = None, reason: str | None = None) -> Issued:
    """Issues one document with rendering OUTSIDE the write transaction (see the module's text).

    `build(session, meta) -> (RecordRef, ctx)` reads the record in a read session (ctx is a frozen context with
    a `meta` field, as every desktop.reports context); `render(ctx) -> bytes`;
    `after(session, issued, ctx)` writes what goes with the document in the same short transaction (the
    sticker's history, the guide's barcode).
    `state` (desktop.background.TaskState): "Cancelar" before the commit archives nothing and spends no number.
    `reason` (a REISSUE_REASONS key): why a document in force is issued again, kept in the audit log."""
    from desktop.services.numbering import format_number, next_number, peek_last  # lazy: SQLAlchemy loads once the database is used (start-up)

    _known_kind(kind)
    reissue_text(reason)
    issued_at = when or now()
    year = issued_at.year
    with db.session(write=False) as s:
        meta = DocumentMeta(format_number(peek_last(s, NUMBER_KIND, year) + 1, year), issued_at, actor.full_name)
        ref, ctx = build(s, meta)
    for _attempt in range(RENDER_ATTEMPTS):
        data = render(ctx)
        _check_cancel(state)
        try:
            with db.session() as s:
                number = next_number(s, NUMBER_KIND, year)
                if number != ctx.meta.number:
                    raise _NumberTaken(number)
                _check_cancel(state)
                issued = _archive(s, actor, kind, ref, ctx.meta, data, reason)
                if after is not None:
                    after(s, issued, ctx)
                return issued
        except _NumberTaken as taken:   # rolled back: the number stays free; build and render again with the one
            # now next — read again, because what the other desk archived may change the document (a notice's
            # own number counts the notices archived: services.numbering.next_notice_number_in)
            with db.session(write=False) as s:
                ref, ctx = build(s, replace(ctx.meta, number=taken.number))
    with db.session() as s:            # a busy series: render holding the number, so this one ends
        ref, ctx = build(s, replace(ctx.meta, number=next_number(s, NUMBER_KIND, year)))
        data = render(ctx)
        _check_cancel(state)
        issued = _archive(s, actor, kind, ref, ctx.meta, data, reason)
        if after is not None:
            after(s, issued, ctx)
        return issued


@dataclass(frozen=True, slots=True)
class _Prerendered:
    """The context of a document whose bytes the caller rendered from its meta (issue_document)."""

    meta: DocumentMeta
    render: Callable[[DocumentMeta], bytes]


def issue_document(db, actor: Actor, kind: str, record_ref: RecordRef | tuple[str, int],
                   pdf_bytes: bytes | Callable[[DocumentMeta], bytes], state=None) -> IssuedInfo:
    """Archives one document and returns its number and SHA-256. `pdf_bytes` is the PDF, or a function of the
    document's meta that renders it (outside the write transaction, with the number archived)."""
    require_role(actor, *ISSUE_ROLES.get(kind, ALL_ROLES))
    ref = record_ref if isinstance(record_ref, RecordRef) else RecordRef(*record_ref)
    if not callable(pdf_bytes):
        _check_cancel(state)
        with db.session() as s:
            return issue_in_session(s, actor, kind, ref, bytes(pdf_bytes)).info
    return issue_rendered(db, actor, kind, lambda s, meta: (ref, _Prerendered(meta, pdf_bytes)),
                          lambda ctx: ctx.render(ctx.meta), state=state).info


def _row_by_number(s, number: str):
    """The archived document of number "0042/2026" — or of a notice's own number "NT-0003/2026" (issue 28)."""
    from desktop.services.numbering import notice_document_id_in  # lazy: SQLAlchemy loads once the database is used (start-up)

    notice_id = notice_document_id_in(s, number)
    row = (s.get(IssuedDocument, notice_id) if notice_id is not None else
           s.scalar(select(IssuedDocument).where(IssuedDocument.number == number.strip())))
    if row is None:
        raise NotFound(f"Documento nº {number} não encontrado no arquivo.")
    return row


def _checked_bytes(row, refused: str) -> bytes:
    data = row.pdf
    if sha256_hex(data) != row.sha256:
        raise ConflictError(f"O arquivo do documento nº {row.number} não confere com o código de integridade "
                            f"registrado na emissão. {refused}; avise o administrador.")
    return data


def readable_kinds(actor: Actor) -> tuple[str, ...]:
    """The kinds of document whose archived copies `actor` may read: those of the kinds the actor may issue
    (ISSUE_ROLES, domain/roles.py DOCUMENT_ROLES) — who prints a kind reprints it, opens it and sees it in the
    archive's list; a vistoriador reads his laudos and notices, not an auto (issue 25 item 7)."""
    require_role(actor, *ALL_ROLES)
    return tuple(kind for kind in DOCUMENT_KINDS if actor.has(*ISSUE_ROLES.get(kind, ALL_ROLES)))


def archived_bytes(db, actor: Actor, number: str) -> bytes:
    """The archived PDF, checked against its SHA-256 (a changed file is refused, never printed). Read by the
    roles that may issue its kind, as a reprint (issue 25 item 7)."""
    require_role(actor, *ALL_ROLES)
    with db.session(write=False) as s:
        row = _row_by_number(s, number)
        require_role(actor, *ISSUE_ROLES.get(row.kind, ALL_ROLES))
        return _checked_bytes(row, "Não será impresso")


def reprint(db, actor: Actor, number: str, note: str = "", mark: str = "") -> bytes:
    """The archived bytes of document `number` with an "Nª via" stamp on every page (2ª via on the first
    reprint); counts the copy and writes the audit log. Never a new rendering. `note` and `mark` add what the act's
    present state requires of the copy (an annulled auto: `reports.reprint.stamp_copy`)."""
    from desktop.services import audit  # lazy: SQLAlchemy loads once the database is used (start-up)

    with db.session() as s:
        row = _row_by_number(s, number)
        require_role(actor, *ISSUE_ROLES.get(row.kind, ALL_ROLES))
        data = _checked_bytes(row, "Não será reimpresso")
        when = now()
        before = {"copies": row.copies}
        row.copies += 1
        row.last_copy_at = when
        label = f"{row.copies + 1}ª via"
        audit.record(s, actor, "document.reprint", "issued_document", row.id, before,
                     {"copies": row.copies, "label": label, "number": row.number})
    return stamp_copy(data, label, when, actor.full_name, note=note, mark=mark)


def _record_labels(s, keys: set[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """One query per record type present: the number (or name, or date) each record is known by."""

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
                value = value.astimezone(TIMEZONE).date()
            text = fmt_date(value) if isinstance(value, date) else str(value)
            connector = " de " if isinstance(value, date) else " "
            labels[(record_type, ident)] = f"{RECORD_NAMES[record_type]}{connector}{text}"
    return labels


def summaries_in(s, *conditions, limit: int = 200) -> list[IssuedSummary]:
    """Archive rows (newest first) matching `conditions` on IssuedDocument, as list rows."""

    query = select(IssuedDocument.number, IssuedDocument.kind, IssuedDocument.record_type, IssuedDocument.record_id,
                   IssuedDocument.issued_at, IssuedDocument.sha256, IssuedDocument.copies, User.full_name) \
        .outerjoin(User, User.id == IssuedDocument.issued_by).where(*conditions) \
        .order_by(IssuedDocument.id.desc()).limit(limit)
    rows = s.execute(query).all()
    labels = _record_labels(s, {(r.record_type, r.record_id) for r in rows})
    return [IssuedSummary(r.number, r.kind, DOCUMENT_KINDS.get(r.kind, r.kind), r.record_type, r.record_id,
                          r.issued_at, r.sha256, r.copies, r.full_name or "",
                          labels.get((r.record_type, r.record_id),
                                     f"{RECORD_NAMES.get(r.record_type, r.record_type)} (código {r.record_id})"))
            for r in rows]


def list_issued(db, actor: Actor, record_type: str | None = None, record_id: int | None = None,
                limit: int = 200) -> list[IssuedSummary]:
    """The archive's rows, newest first — only those of the kinds `actor` may read (`readable_kinds`): the list
    names drivers, platforms and autos, so an auto's row is not shown to a vistoriador (issue 25 item 7)."""
    conditions = [IssuedDocument.kind.in_(readable_kinds(actor))]
    if record_type is not None:
        conditions.append(IssuedDocument.record_type == record_type)
    if record_id is not None:
        conditions.append(IssuedDocument.record_id == record_id)
    with db.session(write=False) as s:
        return summaries_in(s, *conditions, limit=limit)


def municipality_header(db) -> MunicipalityHeader:
    with db.session(write=False) as s:
        return records.header(s)
