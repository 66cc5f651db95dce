"""Course attendance list (Art. 12, §2: drivers convened by the Municipality attend courses and lectures)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from desktop.reports.common import LAW, DocumentMeta, MunicipalityHeader, Signer, fmt_datetime, mask_cpf
from sqlalchemy import select
from desktop.errors import NotFound
from desktop.models import Authorization, CourseSession, Driver
from desktop.reports import records


@dataclass(frozen=True, slots=True)
class AttendanceRow:
    driver_name: str
    cpf: str
    authorization_number: str
    status: str = ""          # "" blank for signature; "presente" / "ausente" once recorded


@dataclass(frozen=True, slots=True)
class AttendanceContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    session_number: str
    topic: str
    starts_at: datetime
    place: str
    instructor: str
    capacity: int
    rows: tuple[AttendanceRow, ...]
    signer: Signer | None = None   # issue 28 point 2: the server who issues and certifies the list; required


def make_context(header: MunicipalityHeader, meta: DocumentMeta, **fields) -> AttendanceContext:
    ctx = AttendanceContext(header=header, meta=meta, **fields)
    if len(ctx.rows) > ctx.capacity:
        raise ValueError(f"Convocados ({len(ctx.rows)}) acima da capacidade da turma ({ctx.capacity}).")
    return ctx


STATUS_TEXT = {"present": "presente", "absent": "ausente", "excused": "justificada"}


def build_context(s, session_id: int, meta: DocumentMeta, signer: Signer | None = None) -> AttendanceContext:
    """The attendance list of course session `session_id` (Art. 12 §2), one line per convened driver, read from
    session `s`."""

    course = s.get(CourseSession, int(session_id))
    if course is None:
        raise NotFound(f"Turma nº {session_id} não encontrada.")
    rows = []
    for item in sorted(course.attendances, key=lambda a: a.id):
        driver = s.get(Driver, item.driver_id)
        number = s.scalar(select(Authorization.number).where(
            Authorization.driver_id == driver.id, Authorization.number.is_not(None))
            .order_by(Authorization.id.desc()).limit(1)) or "—"
        rows.append(AttendanceRow(driver.name, driver.cpf, number, STATUS_TEXT.get(item.status, "")))
    rows.sort(key=lambda r: r.driver_name)
    starts = course.starts_at or datetime(course.held_on.year, course.held_on.month, course.held_on.day,
                                          tzinfo=meta.issued_at.tzinfo)
    return make_context(records.header(s), meta, session_number=f"{course.id:04d}/{course.held_on.year}",
                        topic=course.topic, starts_at=starts, place=course.place,
                        instructor=course.instructor or "—", capacity=max(course.capacity, len(rows)),
                        rows=tuple(rows), signer=signer)


def render(ctx: AttendanceContext) -> bytes:
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.platypus import TableStyle  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs

    story = _pdf.title_block(f"LISTA DE PRESENÇA — TURMA Nº {ctx.session_number}",
                             f"Curso/palestra de qualificação dos condutores — Art. 12, §2º da {LAW}")
    story.append(_pdf.field_table([
        ("Tema", ctx.topic),
        ("Data e hora", fmt_datetime(ctx.starts_at)),
        ("Local", ctx.place),
        ("Instrutor(a)", ctx.instructor),
        ("Convocados / vagas", f"{len(ctx.rows)} / {ctx.capacity}"),
    ]))
    story.append(_pdf.spacer(3))
    rows = [[str(i), r.driver_name, mask_cpf(r.cpf), r.authorization_number, r.status.capitalize()]
            for i, r in enumerate(ctx.rows, start=1)]
    table = _pdf.grid_table(["Nº", "Condutor", "CPF", "Autorização", "Assinatura / situação"], rows,
                            [9 * mm, 60 * mm, 27 * mm, 24 * mm, 54 * mm])
    table.setStyle(TableStyle([("TOPPADDING", (0, 1), (-1, -1), 5), ("BOTTOMPADDING", (0, 1), (-1, -1), 6)]))
    story.append(table)
    story.append(_pdf.spacer(2))
    story.append(_pdf.p("A ausência do condutor convocado é registrada no seu cadastro (Art. 12, §2º).", "small"))
    if ctx.signer is None:   # issue 28 point 2: never a bare name as the only signature
        raise ValueError("A lista de presença precisa de quem a emite e assina: nome, cargo e matrícula "
                         "(Lei 9.784/99, art. 22, §1º).")
    story.append(_pdf.signer_block(ctx.signer, [(ctx.instructor, "Instrutor(a)")]))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Lista de presença — turma {ctx.session_number}", story)
