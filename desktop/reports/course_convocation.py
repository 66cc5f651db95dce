"""Convocation notice to a course or lecture (Art. 12, §2: the drivers "deverão, quando convocados pelo
Município, participarem de cursos e palestras"; Art. 13, XVI: the duty to follow the municipality's
determinations; an unjustified absence is an Art. 26, III infraction). One page per convoked driver."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from desktop.reports.common import LAW, DocumentMeta, MunicipalityHeader, Signer, fmt_date, fmt_moment, mask_cpf
from sqlalchemy import select
from desktop.errors import NotFound, ValidationError
from desktop.domain.problems import Problem
from desktop.models import CourseAttendance, CourseSession, Driver
from desktop.reports import records
from desktop.reports.common import TZ


@dataclass(frozen=True, slots=True)
class ConvokedDriver:
    name: str
    cpf: str


@dataclass(frozen=True, slots=True)
class ConvocationContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    session_number: str
    topic: str
    starts_at: datetime
    ends_at: datetime | None
    place: str
    instructor: str
    drivers: tuple[ConvokedDriver, ...]
    signer: Signer | None = None      # who convokes (issue 28); required to render
    earliest: object = None           # the first day the session could be, counted from the notice (art. 26, §2)
    notice_number: str = ""           # the notices' own series, "NT-0003/2026" (issue 28 point 1)


def build_context(s, session_id: int, meta: DocumentMeta, signer: Signer | None = None,
                  calendar=None, notice_number: str = "") -> ConvocationContext:
    """The notice for every driver convoked to session `session_id` (read from session `s`). With `calendar`
    (the municipality's BusinessCalendar), a notice issued less than 3 business days before the session is
    refused (Lei 9.784/99, art. 26, §2: the summons precedes the appearance by at least three business days)."""

    course = s.get(CourseSession, int(session_id))
    if course is None:
        raise NotFound(f"Turma nº {session_id} não encontrada.")
    rows = s.execute(select(Driver.name, Driver.cpf).join(CourseAttendance, CourseAttendance.driver_id == Driver.id)
                     .where(CourseAttendance.session_id == course.id, CourseAttendance.status == "convoked")
                     .order_by(Driver.search_key, Driver.id)).all()
    if not rows:
        raise ValidationError([Problem("session", "A turma não tem condutores convocados a notificar.",
                                       "Art. 12, §2")])
    starts = course.starts_at or datetime(course.held_on.year, course.held_on.month, course.held_on.day,
                                          tzinfo=meta.issued_at.tzinfo)
    earliest = None
    if calendar is not None:
        from desktop.domain.summons import earliest_appearance, summons_problem  # local: imported only on this branch
        issued_on = meta.issued_at.astimezone(records_tz()).date()
        problem = summons_problem(issued_on, starts.astimezone(records_tz()).date(), calendar, "session")
        if problem is not None:
            raise ValidationError([Problem("session", problem.message + " Remarque a turma ou convoque para outra.",
                                           problem.article)])
        earliest = earliest_appearance(issued_on, calendar)
    return ConvocationContext(records.header(s), meta, f"{course.id:04d}/{course.held_on.year}", course.topic,
                              starts, course.ends_at, course.place, course.instructor or "—",
                              tuple(ConvokedDriver(n, c) for n, c in rows), signer, earliest, notice_number)


def records_tz():
    return TZ


def render(ctx: ConvocationContext) -> bytes:
    from reportlab.platypus import PageBreak  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs

    story: list = []
    if ctx.signer is None:
        raise ValueError("A convocação precisa de quem a assina (Lei 9.784/99, art. 22, §1º).")
    when = fmt_moment(ctx.starts_at) + (f", até {ctx.ends_at.astimezone(ctx.starts_at.tzinfo):%H:%M}"
                                        if ctx.ends_at else "")
    for i, d in enumerate(ctx.drivers):
        if i:
            story.append(PageBreak())
        number = f" Nº {ctx.notice_number}" if ctx.notice_number else ""
        story += _pdf.title_block(f"NOTIFICAÇÃO DE CONVOCAÇÃO{number} — CURSO/PALESTRA — TURMA Nº {ctx.session_number}",
                                  f"Art. 12, §2º da {LAW}")
        story.append(_pdf.field_table([
            ("Condutor(a)", d.name), ("CPF", mask_cpf(d.cpf)), ("Tema", ctx.topic), ("Data e horário", when),
            ("Local", ctx.place), ("Instrutor(a)", ctx.instructor)]))
        story.append(_pdf.spacer(4))
        story.append(_pdf.p(
            "Fica V. Sa. CONVOCADO(A) a participar do curso/palestra acima, conforme o Art. 12, §2º da "
            f"{LAW}: os condutores cadastrados e credenciados deverão, quando convocados pelo Município, participar "
            "de cursos e palestras que visem qualificá-los profissionalmente sobre normas e condutas para o "
            "trânsito."))
        story.append(_pdf.p(
            "A ausência sem justificativa, apresentada por escrito com documento comprobatório, descumpre o dever "
            "de cumprir as determinações do Município (Art. 13, XVI) e sujeita o condutor ao auto de infração do "
            "Art. 26, III."))
        story.append(_pdf.p(
            f"Esta convocação, emitida em {fmt_date(ctx.meta.issued_at.date())}, observa a antecedência mínima "
            "de três dias úteis entre a intimação e o comparecimento (Lei nº 9.784/1999, art. 26, § 2º, contados "
            "os dias úteis a partir do dia seguinte ao da intimação)."))
        story.append(_pdf.signer_block(ctx.signer, [(d.name, "Ciente do(a) condutor(a) em ____/____/________")]))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Convocação — turma {ctx.session_number}", story)
