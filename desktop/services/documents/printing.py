"""Issuing each kind of document but the sticker (desktop.services.documents.stickers): the role check, the
context built from the database by the document's own `desktop.reports.<kind>.build_context`, and the archive
(`issue_rendered`: rendered outside the write transaction, numbered and archived in a short one).

Every `print_*` takes `state` (desktop.background.TaskState) when run as a background job: "Cancelar" before the
commit archives nothing."""
from __future__ import annotations

from datetime import date

from desktop.domain.roles import DOCUMENT_ROLES
from desktop.errors import ConflictError
from desktop.reports.common import now
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.numbering import next_notice_number_in, parse_number
from desktop.services.documents.archive import ISSUE_ROLES, Issued, RecordRef, issue_rendered
from desktop.reports import records
from desktop.reports.common import signer_of
from desktop.reports import certificate
from sqlalchemy import select
from desktop.models import PaymentGuide
from desktop.reports import guide
from desktop.reports import statement
from desktop.reports import auto as auto_report
from desktop.errors import DesktopError
from desktop.reports import notices
from desktop.domain.summons import summons_problem
from desktop.errors import ValidationError
from desktop.reports.common import TZ
from desktop.reports import inspection
from desktop.reports import attendance
from desktop.reports import edital
from desktop.reports import data_request
from desktop.reports import divida_ativa


def _parameter(s):
    """The dated parameters (terms) as the reports ask them: `parameter(key, on) -> Decimal`."""
    from desktop.services.parameters import parameter_value_in  # lazy: SQLAlchemy loads once the database is used (start-up)
    return lambda key, on: parameter_value_in(s, key, on)


def _signer(s, actor: Actor):
    """The Signer of an act issued by `actor` (issue 28): name, office and matrícula from the user's row, the
    secretariat as the unit; refused for a routine, the machine's account or a user without office/matrícula."""
    return signer_of(s, actor, records.settings_row(s).secretariat)


def _authorization_ref(s, number: str) -> RecordRef:
    return RecordRef("authorization", records.authorization_row(s, number).id)


# ---------------------------------------------------------------------------------------------------- authorizations
def print_credential(db, actor: Actor, number: str, state=None, reason: str | None = None) -> Issued:
    """The driver's credential (Art. 13, I) with the signed QR code."""
    from desktop.reports import credential  # lazy: loads cryptography only when this runs
    from desktop.services.setup import signing_private_key  # lazy: SQLAlchemy loads once the database is used (start-up)
    require_role(actor, *ISSUE_ROLES["credential"])
    key = signing_private_key(db)
    return issue_rendered(db, actor, "credential",
                          lambda s, meta: (_authorization_ref(s, number),
                                           credential.build_context(s, number, meta, key)),
                          credential.render, state=state, reason=reason)


def print_certificate(db, actor: Actor, number: str, state=None, reason: str | None = None) -> Issued:
    """The termo de autorização (Art. 3), signed by the gestor who issues it."""
    from desktop.services.holidays import calendar_in  # lazy: SQLAlchemy loads once the database is used (start-up)
    require_role(actor, *ISSUE_ROLES["certificate"])
    return issue_rendered(db, actor, "certificate",
                          lambda s, meta: (_authorization_ref(s, number), certificate.build_context(
                              s, number, meta, calendar_in(s), signer=_signer(s, actor))),
                          certificate.render, state=state, reason=reason)


# ---------------------------------------------------------------------------------------------------- guides
def print_guide(db, actor: Actor, number: str, state=None) -> Issued:
    """The DAM of payment guide `number` (fees and fines), with the FEBRABAN barcode and, when the municipality
    has a PIX key, the PIX BR Code. Needs the municipality's FEBRABAN code (Administração → Município). The
    barcode printed is stored on the guide (for the bank's return file) with the archive."""

    require_role(actor, *ISSUE_ROLES["guide"])

    def build(s, meta):
        ctx = guide.build_context(s, number, meta)
        row_id = s.scalar(select(PaymentGuide.id).where(PaymentGuide.number == ctx.guide_number))
        return RecordRef("payment_guide", row_id), ctx

    def store_barcode(s, issued, ctx):
        row = s.get(PaymentGuide, issued.info.record_id)
        if row.barcode != ctx.barcode:
            row.barcode = ctx.barcode

    return issue_rendered(db, actor, "guide", build, guide.render, after=store_barcode, state=state)


# ---------------------------------------------------------------------------------------------------- statement
def print_statement(db, actor: Actor, document: str, as_of: date | None = None, state=None) -> Issued:
    """The infractor's statement (driver by CPF or platform by CNPJ) at `as_of` (today by default)."""
    require_role(actor, *ISSUE_ROLES["statement"])
    as_of = as_of or now().date()

    def build(s, meta):
        record, ctx = statement.build_context(s, document, as_of, meta)
        return RecordRef(*record), ctx

    return issue_rendered(db, actor, "statement", build, statement.render, state=state)


# ---------------------------------------------------------------------------------------------------- autos
def _auto_ref(s, number: str, refuse_cancelled: bool = False) -> RecordRef:
    auto = auto_report.auto_row(s, number)
    if refuse_cancelled and auto.status == "cancelled":
        raise ConflictError(f"O auto nº {auto.number} foi cancelado; só a via arquivada pode ser reimpressa.")
    return RecordRef("auto", auto.id)


def print_auto(db, actor: Actor, number: str, state=None) -> Issued:
    """The auto de infração in two copies, "Via do processo" and "Via do infrator" (Art. 19).

    Issue 28 item 1: an act, once issued, is its archived original. The first print renders and archives the auto;
    every later print is that original, stamped "2ª via" (3ª…) — never today's state redrawn over the facts as
    written (a requalification, a judgment live in the "certidão/extrato do processo"). An auto annulled after it
    was issued carries "AUTO ANULADO em …" in the stamp and across every page."""
    require_role(actor, *ISSUE_ROLES["auto"])
    original, note = _issued_auto(db, number)
    if original is not None:
        from desktop.services.documents.archive import reprint  # local: the 2ª via path only
        pdf = reprint(db, actor, original, note=note, mark="anulado" if note.startswith("AUTO ANULADO") else
                      "cancelado" if note else "")
        return Issued(_info_of(db, original), pdf)
    return issue_rendered(db, actor, "auto",
                          lambda s, meta: (_auto_ref(s, number, refuse_cancelled=True),
                                           auto_report.build_context(s, number, meta, _parameter(s))),
                          auto_report.render, state=state)


def _issued_auto(db, number: str):
    """The auto's first archived print (its original) and the note its copy must carry, or (None, "")."""
    from desktop.models import IssuedDocument  # local: the archive's table

    with db.session(write=False) as s:
        auto = auto_report.auto_row(s, number)
        original = s.scalar(select(IssuedDocument.number).where(
            IssuedDocument.kind == "auto", IssuedDocument.record_type == "auto", IssuedDocument.record_id == auto.id)
            .order_by(IssuedDocument.id).limit(1))
        if original is None:
            return None, ""
        note = ""
        if auto.status == "annulled":
            note = auto_report.annulled_mark(s, auto) + " — a situação atual está no extrato do processo"
        elif auto.status == "cancelled":
            note = "AUTO CANCELADO — a situação atual está no extrato do processo"
        return original, note


def _info_of(db, number: str):
    from desktop.models import IssuedDocument  # local: the archive's table
    from desktop.services.documents.archive import IssuedInfo  # local: the 2ª via path only

    from sqlalchemy import func  # local: the 2ª via path only

    with db.session(write=False) as s:
        row = s.execute(select(IssuedDocument.id, IssuedDocument.kind, IssuedDocument.number,
                               IssuedDocument.record_type, IssuedDocument.record_id, IssuedDocument.sha256,
                               IssuedDocument.issued_at, IssuedDocument.issued_by, func.length(IssuedDocument.pdf),
                               IssuedDocument.copies).where(IssuedDocument.number == number)).one()
        return IssuedInfo(*row)


NOTICE_KINDS = ("autuacao", "penalty", "regularization", "inspection_convocation", "renewal_reminder")


def _notice_ref(s, notice_kind: str, key: str) -> RecordRef:
    if notice_kind in ("autuacao", "penalty"):
        return _auto_ref(s, key)
    if notice_kind == "renewal_reminder":
        return _authorization_ref(s, key)
    return RecordRef("inspection", records.inspection_row(s, key).id)


def print_autuacao_notice(db, actor: Actor, auto_number: str, state=None) -> Issued:
    """Notice of the auto to the infractor (Art. 22), the platform named as also notified when there is one."""
    return print_notice(db, actor, "autuacao", auto_number, state=state)


def print_notice(db, actor: Actor, notice_kind: str, record_number: str, state=None) -> Issued:
    """A notice by kind: autuação and penalty by auto number (Art. 22, 24–27); regularization and inspection
    convocation by inspection code (Art. 16); renewal reminder by authorization number (Art. 3 §2)."""
    from desktop.services.holidays import calendar_in  # lazy: SQLAlchemy loads once the database is used (start-up)
    if notice_kind not in NOTICE_KINDS:
        raise DesktopError(f"Tipo de notificação desconhecido: {notice_kind!r}. Tipos: {', '.join(NOTICE_KINDS)}.")
    require_role(actor, *ISSUE_ROLES["notice"])

    def build(s, meta):
        if notice_kind == "inspection_convocation":
            _convocation_in_term(s, record_number, meta, calendar_in(s))
        ctx = notices.build_context(s, notice_kind, record_number, meta, parameter=_parameter(s),
                                    calendar=calendar_in(s), signer=_signer(s, actor),
                                    notice_number=notice_number_for(s, meta))
        return _notice_ref(s, notice_kind, record_number), ctx

    return issue_rendered(db, actor, "notice", build, notices.render, state=state)


def notice_number_for(s, meta) -> str:
    """A notice's own number, "NT-0003/2026", in the year of the document it is archived as (issue 28 point 1:
    never the shape of the auto's number). See services.numbering.next_notice_number_in."""
    return next_notice_number_in(s, parse_number(meta.number)[1])


def _convocation_in_term(s, code: str, meta, calendar) -> None:
    """Issue 28: a convocation to an inspection issued today must leave three business days before the day to
    appear (Lei 9.784/99, art. 26, §2º), or the Art. 26, I fine could not follow it: refused, with the first day
    the inspection could be moved to."""
    row = records.inspection_row(s, code)
    if row.scheduled_start is None:
        return
    problem = summons_problem(meta.issued_at.astimezone(TZ).date(), row.scheduled_start.astimezone(TZ).date(),
                              calendar, "scheduled_start")
    if problem is not None:
        from desktop.domain.problems import Problem  # local: imported only on this branch
        raise ValidationError([Problem(problem.field, problem.message + " Remarque a vistoria antes de convocar.",
                                       problem.article)])


# ---------------------------------------------------------------------------------------------------- inspections
def print_inspection_report(db, actor: Actor, inspection_id: int, state=None) -> Issued:
    """The laudo of a performed inspection (Art. 9, 15, 16), with the 5-day term when failed (Art. 16 §2)."""
    require_role(actor, *ISSUE_ROLES["inspection"])
    return issue_rendered(db, actor, "inspection",
                          lambda s, meta: (RecordRef("inspection", int(inspection_id)),
                                           inspection.build_context(s, inspection_id, meta)),
                          inspection.render, state=state)


# ---------------------------------------------------------------------------------------------------- courses
def print_attendance_list(db, actor: Actor, session_id: int, state=None) -> Issued:
    """The attendance list of a course session (Art. 12 §2), one line per convened driver."""
    require_role(actor, *ISSUE_ROLES["attendance"])
    return issue_rendered(db, actor, "attendance",
                          lambda s, meta: (RecordRef("course_session", int(session_id)),
                                           attendance.build_context(s, session_id, meta,
                                                                    signer=_signer(s, actor))),
                          attendance.render, state=state)


# ---------------------------------------------------------------------------------------------------- edital
def print_edital(db, actor: Actor, sent_on: date, state=None) -> Issued:
    """The edital list of the autos whose notification by edital (Art. 22 §1 II–IV) is dated `sent_on`."""
    require_role(actor, *ISSUE_ROLES["edital"])

    def build(s, meta):
        ctx = edital.build_context(s, sent_on, meta, _parameter(s), signer=_signer(s, actor))
        return RecordRef("auto", edital.first_notifications(s, sent_on)[0].auto_id), ctx

    return issue_rendered(db, actor, "edital", build, edital.render, state=state)


# ---------------------------------------------------------------------------------------------------- platforms
def print_data_request(db, actor: Actor, number: str, state=None) -> Issued:
    """The justified request for data to a platform (Art. 4), with the 24-hour term of §2 when it serves an
    investigation; `number` is the request's NNNN/AAAA or, for a draft without number, its internal code."""
    require_role(actor, *ISSUE_ROLES["data_request"])

    def build(s, meta):
        ctx = data_request.build_context(s, number, meta, signer=_signer(s, actor))
        return RecordRef("data_request", data_request.request_row(s, number).id), ctx

    return issue_rendered(db, actor, "data_request", build, data_request.render, state=state)


# ---------------------------------------------------------------------------------------------------- dívida ativa
def print_divida_ativa_certificate(db, actor: Actor, auto_number: str, state=None) -> Issued:
    """The certidão de dívida ativa of an inscribed fine (issue 28 point 9;
    Lei 6.830/80 art. 2º §§ 5º–6º; CTN art. 202): debtor, origin, nature, legal basis, amounts, charges and their
    starting day, inscription number, date, book and sheet, and the auto's process — signed by the gestor."""
    from desktop.services.parameters import late_percents_in  # lazy: SQLAlchemy loads once the database is used (start-up)
    require_role(actor, *ISSUE_ROLES["divida_ativa"])

    def build(s, meta):
        ctx = divida_ativa.build_context(s, auto_number, meta, signer=_signer(s, actor),
                                         late_percents=lambda on: late_percents_in(s, on))
        return _auto_ref(s, auto_number), ctx

    return issue_rendered(db, actor, "divida_ativa", build, divida_ativa.render, state=state)

