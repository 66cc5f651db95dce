"""Scanned documents attached to the register (SPEC §2 Document): PDF, JPEG or PNG, identified by their bytes, kept
with their SHA-256 inside the database, never replaced — a newer proof is a new row, and the older stays.

One attachment policy for every kind of evidence (issue 11): `check_attachment(content, filename, declared_mime)`
— at most `MAX_DOCUMENT_BYTES`; the type read from the content, and proved: a PDF must open with pypdf and have a
page, an image must decode with Pillow (within `MAX_IMAGE_PIXELS`); a declared type that the content does not
match is refused; the original name is kept only as text (`safe_filename`: no folders, no control characters).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import undefer

from desktop.domain.problems import Problem
from desktop.domain.roles import REGISTRY_ROLES
from desktop.errors import NotFound, ValidationError
from desktop.models import Document
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.permissions import FRONT_DESK, require_reader
from desktop.services.lookups import user_names
import unicodedata
import io
import logging
import warnings

__all__ = ["DocumentInfo", "attach_document", "attach_document_in", "document_content", "document_content_in",
           "list_documents", "list_documents_in", "detect_mime",
           "MAX_DOCUMENT_BYTES", "ACCEPTED_MIMES", "CheckedFile", "check_attachment", "attachment_problems",
           "safe_filename", "MAX_IMAGE_PIXELS"]

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
ACCEPTED_MIMES = {"application/pdf": ".pdf", "image/jpeg": ".jpg", "image/png": ".png"}
_OWNERS = ("driver_id", "vehicle_id", "platform_id", "authorization_id", "lessor_id")


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    id: int
    kind: str
    filename: str
    mime: str
    size: int
    sha256: str
    number: str | None
    issued_on: date | None
    expires_on: date | None
    created_at: datetime
    uploaded_by_name: str
    driver_id: int | None
    vehicle_id: int | None
    platform_id: int | None
    authorization_id: int | None
    lessor_id: int | None

    @property
    def is_image(self) -> bool:
        return self.mime.startswith("image/")


def detect_mime(content: bytes) -> str | None:
    """The type of a scan from its first bytes (the file name may lie)."""
    if content.startswith(b"%PDF-"):
        return "application/pdf"
    if content.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if content.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    return None


MAX_IMAGE_PIXELS = 60_000_000   # a 60-megapixel scan; beyond it a "photo" is a decompression bomb
_LABELS = {"application/pdf": "PDF", "image/jpeg": "JPG", "image/png": "PNG"}


@dataclass(frozen=True, slots=True)
class CheckedFile:
    """An attachment that passed the policy: its bytes, the type proved from them, the name as plain text."""

    content: bytes
    mime: str
    filename: str
    size: int
    sha256: str


def safe_filename(name: str | None, mime: str | None = None) -> str:
    """The original name as text only: the last path part (`../../etc/passwd.pdf` → `passwd.pdf`), without control
    characters or leading dots, at most 255 characters; "anexo.<ext>" when nothing is left."""

    text = (name or "").replace("\\", "/").split("/")[-1]
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip().lstrip(".").strip()
    if not text:
        text = "anexo" + ACCEPTED_MIMES.get(mime or "", "")
    return text[-255:]


def _pdf_opens(content: bytes) -> str | None:
    """None when pypdf reads the PDF and finds a page; else the reason, in Portuguese."""

    from pypdf import PdfReader  # lazy: pypdf loads only when this runs (start-up cost)

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(content), strict=False)
        if reader.is_encrypted:
            return "o PDF está protegido por senha (anexe uma cópia sem senha)"
        if len(reader.pages) < 1:
            return "o PDF não tem páginas"
    except Exception:  # noqa: BLE001 — any failure to parse means "not a PDF we can show"
        return "o arquivo começa como PDF mas não abre como PDF (corrompido ou de outro tipo)"
    return None


def _image_decodes(content: bytes, mime: str) -> str | None:

    from PIL import Image  # lazy: Pillow loads only when this runs (start-up cost)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(content)) as image:
                if image.width * image.height > MAX_IMAGE_PIXELS:
                    return f"a imagem tem {image.width}×{image.height} pontos; o máximo é {MAX_IMAGE_PIXELS:,}"
                expected = {"image/jpeg": "JPEG", "image/png": "PNG"}[mime]
                if image.format != expected:
                    return f"a imagem não é {_LABELS[mime]}"
                image.load()
    except Exception:  # noqa: BLE001 — truncated, forged or a bomb
        return f"a imagem {_LABELS[mime]} não pôde ser lida (corrompida ou de outro tipo)"
    return None


def attachment_problems(content: bytes, declared_mime: str | None = None, field: str = "content") -> list[Problem]:
    """Every reason to refuse these bytes as evidence (empty list: accepted)."""
    if not content:
        return [Problem(field, "O arquivo está vazio.")]
    if len(content) > MAX_DOCUMENT_BYTES:
        return [Problem(field, f"O arquivo tem {len(content) / (1024 * 1024):.1f} MB; o máximo é "
                               f"{MAX_DOCUMENT_BYTES // (1024 * 1024)} MB.".replace(".", ",", 1))]
    mime = detect_mime(content)
    if mime is None:
        return [Problem(field, "Formato não aceito: anexe um arquivo PDF, JPG ou PNG.")]
    if declared_mime and declared_mime != mime:
        declared = _LABELS.get(declared_mime, declared_mime)
        return [Problem(field, f"O arquivo foi apresentado como {declared}, mas o conteúdo é {_LABELS[mime]}.")]
    reason = _pdf_opens(content) if mime == "application/pdf" else _image_decodes(content, mime)
    if reason:
        return [Problem(field, f"Arquivo recusado: {reason}.")]
    return []


def check_attachment(content: bytes, filename: str | None, declared_mime: str | None = None,
                     field: str = "content") -> CheckedFile:
    """The attachment policy of issue 11, for every kind of evidence: `ValidationError` or a `CheckedFile`."""
    content = bytes(content or b"")
    problems = attachment_problems(content, declared_mime, field)
    if problems:
        raise ValidationError(problems)
    mime = detect_mime(content)
    return CheckedFile(content, mime, safe_filename(filename, mime), len(content),
                       hashlib.sha256(content).hexdigest())


def _info(doc: Document, names: dict[int, str]) -> DocumentInfo:
    return DocumentInfo(
        id=doc.id, kind=doc.kind, filename=doc.filename, mime=doc.mime, size=doc.size, sha256=doc.sha256,
        number=doc.number, issued_on=doc.issued_on, expires_on=doc.expires_on, created_at=doc.created_at,
        uploaded_by_name=names.get(doc.uploaded_by, "") if doc.uploaded_by else "",
        driver_id=doc.driver_id, vehicle_id=doc.vehicle_id, platform_id=doc.platform_id,
        authorization_id=doc.authorization_id, lessor_id=doc.lessor_id,
    )


def document_infos(session, docs) -> tuple[DocumentInfo, ...]:
    docs = list(docs)
    names = user_names(session, (d.uploaded_by for d in docs))
    return tuple(_info(d, names) for d in docs)


def _problems(content: bytes, filename: str, kind: str, issued_on, expires_on) -> list[Problem]:
    # the one attachment policy (issue 11, attack 9): size, the type read from the bytes and proved by parsing
    problems: list[Problem] = attachment_problems(content, None, "content")
    if not (filename or "").strip():
        problems.append(Problem("filename", "Informe o nome do arquivo."))
    if not (kind or "").strip():
        problems.append(Problem("kind", "Informe o tipo do documento."))
    if issued_on and expires_on and expires_on < issued_on:
        problems.append(Problem("expires_on", "A validade não pode ser anterior à data de emissão."))
    return problems


def attach_document_in(session, actor: Actor, content: bytes, filename: str, kind: str, *,
                       number: str | None = None, issued_on: date | None = None, expires_on: date | None = None,
                       driver_id: int | None = None, vehicle_id: int | None = None, platform_id: int | None = None,
                       authorization_id: int | None = None, lessor_id: int | None = None) -> DocumentInfo:
    """Same as `attach_document` inside the transaction the caller opened
    (the role check and the audit record included)."""
    require_role(actor, *REGISTRY_ROLES.attach)
    content = bytes(content or b"")
    problems = _problems(content, filename, kind, issued_on, expires_on)
    if problems:
        raise ValidationError(problems)
    digest = hashlib.sha256(content).hexdigest()
    owners = {"driver_id": driver_id, "vehicle_id": vehicle_id, "platform_id": platform_id,
              "authorization_id": authorization_id, "lessor_id": lessor_id}
    same = select(Document).where(Document.sha256 == digest, Document.kind == kind.strip())
    for col, value in owners.items():
        column = getattr(Document, col)
        same = same.where(column == value if value is not None else column.is_(None))
    existing = session.execute(same.order_by(Document.id).limit(1)).scalar_one_or_none()
    if existing is not None:
        return document_infos(session, [existing])[0]
    doc = Document(
        kind=kind.strip(), number=(number or "").strip() or None, issued_on=issued_on, expires_on=expires_on,
        sha256=digest, content=content, mime=detect_mime(content),
        filename=safe_filename(filename, detect_mime(content)),
        size=len(content), uploaded_by=actor.user_id, **owners,
    )
    session.add(doc)
    session.flush()
    audit.record(session, actor, "document.attach", "document", doc.id, None, {
        "kind": doc.kind, "filename": doc.filename, "sha256": digest, "size": doc.size,
        **{k: v for k, v in owners.items() if v is not None}})
    for col, value in owners.items():
        if value is not None:
            audit.record(session, actor, "document.attach", col.removesuffix("_id"), value, None,
                         {"document_id": doc.id, "kind": doc.kind, "filename": doc.filename})
    return document_infos(session, [doc])[0]


def attach_document(db, actor: Actor, content: bytes, filename: str, kind: str, *, number: str | None = None,
                    issued_on: date | None = None, expires_on: date | None = None, driver_id: int | None = None,
                    vehicle_id: int | None = None, platform_id: int | None = None,
                    authorization_id: int | None = None, lessor_id: int | None = None) -> DocumentInfo:
    """Keep a scan. The same bytes of the same kind for the same owner give back the row already kept."""
    with db.session() as s:
        return attach_document_in(s, actor, content, filename, kind, number=number, issued_on=issued_on,
                                  expires_on=expires_on, driver_id=driver_id, vehicle_id=vehicle_id,
                                  platform_id=platform_id, authorization_id=authorization_id, lessor_id=lessor_id)


def link_documents(session, actor: Actor, document_ids, **owner) -> None:
    """Give the wizard's scans (attached before the record existed) their owner. A scan that already belongs to
    another record stays where it is (it is not moved silently)."""
    ids = [i for i in dict.fromkeys(document_ids) if i is not None]
    if not ids:
        return
    (col, value), = owner.items()
    docs = session.execute(select(Document).where(Document.id.in_(ids))).scalars().all()
    found = {d.id for d in docs}
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(f"Documento anexado não encontrado (código {missing[0]}).")
    for doc in docs:
        if all(getattr(doc, c) is None for c in _OWNERS):
            setattr(doc, col, value)
            audit.record(session, actor, "document.attach", col.removesuffix("_id"), value, None,
                         {"document_id": doc.id, "kind": doc.kind, "filename": doc.filename})


def document_content_in(session, actor: Actor, document_id: int) -> tuple[DocumentInfo, bytes]:
    """Same as `document_content` inside the transaction the caller opened
    (the role check and the audit record included)."""
    require_reader(actor)
    doc = session.execute(select(Document).options(undefer(Document.content))
                    .where(Document.id == document_id)).scalar_one_or_none()
    if doc is None:
        raise NotFound(f"Documento não encontrado (código {document_id}).")
    return document_infos(session, [doc])[0], bytes(doc.content or b"")


def document_content(db, actor: Actor, document_id: int) -> tuple[DocumentInfo, bytes]:
    """The scan and its bytes, for the viewer inside the program."""
    with db.session(write=False) as s:
        return document_content_in(s, actor, document_id)


def documents_of(session, **owner) -> tuple[DocumentInfo, ...]:
    stmt = select(Document)
    for col, value in owner.items():
        if value is not None:
            stmt = stmt.where(getattr(Document, col) == value)
    return document_infos(session, session.execute(stmt.order_by(Document.id.desc())).scalars())


def list_documents_in(session, actor: Actor, *, driver_id: int | None = None, vehicle_id: int | None = None,
                      platform_id: int | None = None, authorization_id: int | None = None) -> list[DocumentInfo]:
    require_reader(actor)
    owner = {"driver_id": driver_id, "vehicle_id": vehicle_id, "platform_id": platform_id,
             "authorization_id": authorization_id}
    if all(v is None for v in owner.values()):
        raise ValueError("informe de qual registro são os documentos")
    return list(documents_of(session, **owner))


def list_documents(db, actor: Actor, *, driver_id: int | None = None, vehicle_id: int | None = None,
                   platform_id: int | None = None, authorization_id: int | None = None) -> list[DocumentInfo]:
    with db.session(write=False) as s:
        return list_documents_in(s, actor, driver_id=driver_id, vehicle_id=vehicle_id, platform_id=platform_id,
                                 authorization_id=authorization_id)
