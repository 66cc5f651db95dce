"""The correspondence desk (issue 26; Art. 22, §§1-2): every notice the program prints for a person or a
platform enters the dispatch register with its own code; the day's batch goes to the post (notices with their
code as a Code 128 barcode, an AR slip each, the mailing list); the ARs come back scanned and are joined to the
case — the term starts on the joining date (§2) — or come back undelivered and go to the month's edital (§1, II);
e-mails go through the office's SMTP server with their .eml archived, and the reply joins the proof (§1, VI).

Every use case has the `x_in(session, actor, …)` / `x(db, actor, …)` pair; roles are checked here and every
change is written to the audit log (the register's history; dispatches are never deleted).

Roles: `DISPATCH_ROLES` of desktop/domain/roles.py.

SMTP: host, port, security (starttls / ssl / none), user and sender come from `SmtpSettings` (the CLI and the
screen read them from the environment: DESKTOP_SMTP_HOST, DESKTOP_SMTP_PORT, DESKTOP_SMTP_SECURITY,
DESKTOP_SMTP_USER, DESKTOP_SMTP_FROM). The password is NEVER stored in the database: `smtp_password()` reads it
from the operating system's credential store (keyring, service "ChapadaTransporte-smtp", like the signing key in
desktop/keystore.py) or from the environment variable DESKTOP_SMTP_PASSWORD.
"""
from __future__ import annotations

import email
import email.policy
import email.utils
import os
import smtplib
import ssl
from dataclasses import dataclass, replace
from datetime import date, timedelta
from email.message import EmailMessage

from sqlalchemy import func, select

from desktop.domain.correspondence import (
    DispatchForm,
    DispatchState,
    AR_OVERDUE_DAYS,
    ReturnReason,
    ar_overdue,
    code_is_valid,
    format_code,
    make_code,
    normalize_code,
    offers_post,
    parse_return_reason,
    receipt_problems,
    term_starts_on,
    transition,
)
from desktop.domain.dates import local_now, local_today
from desktop.domain.formatting import format_date
from desktop.domain.problems import Problem
from desktop.domain.roles import DISPATCH_ROLES
from desktop.errors import ConflictError, DesktopError, NotFound, ValidationError
from desktop.models import (Authorization, Auto, DataRequest, Dispatch, DispatchBatch, Document, Driver, Inspection,
                            IssuedDocument, Platform)
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.paging import Page, check_page, contains, count, search_terms

SEND_ROLES = DISPATCH_ROLES.send
READ_ROLES = DISPATCH_ROLES.read
SMTP_KEYRING_SERVICE = "ChapadaTransporte-smtp"
BATCH_KIND = "dispatch_batch"
CASE_LABELS = {"auto": "Auto de infração", "inspection": "Vistoria", "course": "Curso",
               "data_request": "Requisição de dados"}


@dataclass(frozen=True, slots=True)
class DispatchInfo:
    id: int
    code: str
    code_text: str
    state: DispatchState
    state_label: str
    document_kind: str
    document_number: str
    document_title: str
    recipient_name: str
    address: str
    email: str
    form: DispatchForm
    form_label: str
    case_type: str
    case_id: int
    case_label: str
    sent_on: date | None
    received_on: date | None
    received_by: str
    returned_on: date | None
    return_reason: str
    edital_posted_on: date | None
    joined_on: date | None
    term_starts_on: date | None
    proof_document_id: int | None
    batch_id: int | None
    message_id: str
    version: int
    actions: tuple[str, ...]        # what the desk may do now: "send", "receive", "return", "edital", "email"


@dataclass(frozen=True, slots=True)
class BatchResult:
    batch_id: int
    document_number: str
    items: tuple[DispatchInfo, ...]
    pdf: bytes


@dataclass(frozen=True, slots=True)
class ScanLine:
    page: int
    source: str
    code: str | None
    dispatch: DispatchInfo | None
    png: bytes

    @property
    def text(self) -> str:
        if self.code is None:
            return f"página {self.page}: sem código legível"
        if self.dispatch is None:
            return f"página {self.page}: {self.code} — expedição não encontrada"
        return f"página {self.page}: {self.code} — {self.dispatch.document_title}"


@dataclass(frozen=True, slots=True)
class SmtpSettings:
    host: str
    port: int = 587
    security: str = "starttls"      # starttls | ssl | none
    user: str = ""
    sender: str = ""

    @classmethod
    def from_environment(cls) -> SmtpSettings:
        host = os.environ.get("DESKTOP_SMTP_HOST", "").strip()
        if not host:
            raise DesktopError("Configure o servidor de e-mail (variável DESKTOP_SMTP_HOST).")
        return cls(host, int(os.environ.get("DESKTOP_SMTP_PORT", "587")),
                   os.environ.get("DESKTOP_SMTP_SECURITY", "starttls").lower(),
                   os.environ.get("DESKTOP_SMTP_USER", ""), os.environ.get("DESKTOP_SMTP_FROM", ""))


def smtp_password(user: str) -> str | None:
    """The SMTP password: the OS credential store first (as the signing key), else DESKTOP_SMTP_PASSWORD."""
    if user:
        try:
            import keyring  # lazy: loaded only by the use case that needs it (start-up)

            found = keyring.get_password(SMTP_KEYRING_SERVICE, user)
            if found:
                return found
        except Exception:  # no credential store on this desk: the environment variable then
            pass
    return os.environ.get("DESKTOP_SMTP_PASSWORD") or None


# ------------------------------------------------------------------------------------------------ infos
def _actions(row: Dispatch) -> tuple[str, ...]:
    state = DispatchState(row.state)
    out = []
    if state is DispatchState.PENDING:
        out.append("email" if row.form == DispatchForm.ELECTRONIC.value else "send")
    if state is DispatchState.SENT:
        out += ["receive"] + (["return"] if row.form == DispatchForm.POST.value else [])
    if state is DispatchState.RETURNED and row.case_type == "auto":
        out.append("edital")
    return tuple(out)


def _info(row: Dispatch) -> DispatchInfo:
    form = DispatchForm(row.form)
    state = DispatchState(row.state)
    return DispatchInfo(
        row.id, row.code, format_code(row.code), state, state.label, row.document_kind, row.document_number,
        row.document_title, row.recipient_name, row.address or "", row.email or "", form, form.label,
        row.case_type, row.case_id, row.case_label, row.sent_on, row.received_on, row.received_by or "",
        row.returned_on, row.return_reason or "", row.edital_posted_on, row.joined_on,
        term_starts_on(row.joined_on) if row.joined_on else None, row.proof_document_id, row.batch_id,
        row.message_id or "", row.version, _actions(row))


def _by_code(session, code: str, lock: bool = False) -> Dispatch:
    c = normalize_code(code)
    if not code_is_valid(c):
        raise NotFound(f"Código de expedição inválido: {code} (confira os dígitos).")
    stmt = select(Dispatch).where(Dispatch.code == c)
    if lock:
        stmt = stmt.with_for_update()
    row = session.scalar(stmt)
    if row is None:
        raise NotFound(f"Código de expedição desconhecido: {c}.")
    return row


def _set_state(session, actor, row: Dispatch, target: DispatchState, **changes) -> None:
    before = {"state": row.state, **{k: getattr(row, k) for k in changes}}
    row.state = transition(row.state, target).value
    for k, v in changes.items():
        setattr(row, k, v)
    session.flush()
    audit.record(session, actor, f"dispatch.{target.value}", "dispatch", row.id, before,
                 {"code": row.code, "state": row.state, **changes})


def get_dispatch(db, actor: Actor, code: str) -> DispatchInfo:
    require_role(actor, *READ_ROLES)
    with db.session(write=False) as s:
        return _info(_by_code(s, code))


def list_dispatches_in(session, actor: Actor, state: DispatchState | None = None, case_type: str | None = None,
                       case_id: int | None = None) -> tuple[DispatchInfo, ...]:
    require_role(actor, *READ_ROLES)
    stmt = select(Dispatch).order_by(Dispatch.id)
    if state is not None:
        stmt = stmt.where(Dispatch.state == DispatchState(state).value)
    if case_type is not None:
        stmt = stmt.where(Dispatch.case_type == case_type)
    if case_id is not None:
        stmt = stmt.where(Dispatch.case_id == case_id)
    return tuple(_info(r) for r in session.scalars(stmt))


def list_dispatches(db, actor: Actor, state: DispatchState | None = None, case_type: str | None = None,
                    case_id: int | None = None) -> tuple[DispatchInfo, ...]:
    with db.session(write=False) as s:
        return list_dispatches_in(s, actor, state, case_type, case_id)


# ------------------------------------------------------------------------------------------------ the screen
DISPATCH_FILTERS: tuple[tuple[str, str], ...] = (
    *((s.value, s.label) for s in DispatchState),
    ("ars_overdue", f"ARs fora há mais de {AR_OVERDUE_DAYS} dias"),
    ("unanswered", "E-mails sem resposta"),
    ("for_edital", "Aguardando edital"),
)
"""What the Correspondência screen filters by: each state, and the three lists behind the dashboard's tiles."""


def _filter_clause(session, key: str, today: date):
    if not key:
        return None
    if key == "ars_overdue":
        return (Dispatch.form == DispatchForm.POST.value) & (Dispatch.state == DispatchState.SENT.value) \
            & (Dispatch.sent_on < today - timedelta(days=AR_OVERDUE_DAYS))
    if key == "unanswered":
        return (Dispatch.form == DispatchForm.ELECTRONIC.value) & (Dispatch.state == DispatchState.SENT.value) \
            & (Dispatch.sent_on <= today - timedelta(days=_answer_days(session)))
    if key == "for_edital":
        return (Dispatch.state == DispatchState.RETURNED.value) & (Dispatch.case_type == "auto")
    try:
        return Dispatch.state == DispatchState(key).value
    except ValueError:
        raise ValidationError([Problem("state", f"Filtro desconhecido: {key}.")]) from None


def dispatch_page(db, actor: Actor, status: str = "", text: str = "", offset: int = 0, limit: int = 50):
    """One page of the register for the Correspondência screen (newest first): `status` is a key of
    `DISPATCH_FILTERS` ("" = all), `text` a code, a recipient, a document or a case. An e-mail with no answer in
    the term (parameter `dispatch.email_answer_days`) carries the action "post" (offer the post, §1, V)."""
    require_role(actor, *READ_ROLES)
    offset, limit = check_page(offset, limit)
    today = local_today()
    with db.session(write=False) as s:
        stmt = select(Dispatch)
        clause = _filter_clause(s, status, today)
        if clause is not None:
            stmt = stmt.where(clause)
        typed = (text or "").strip()
        if typed:
            folded = search_terms(typed)
            code = normalize_code(typed)
            stmt = stmt.where(Dispatch.code.like(code + "%") | contains(func.lower(Dispatch.recipient_name), folded)
                              | contains(func.lower(Dispatch.recipient_name), typed.lower())
                              | contains(Dispatch.document_number, typed) | contains(func.lower(Dispatch.case_label),
                                                                                     typed.lower()))
        total = count(s, stmt)
        rows = list(s.scalars(stmt.order_by(Dispatch.id.desc()).offset(offset).limit(limit)))
        late = set()
        if any(r.form == DispatchForm.ELECTRONIC.value and r.state == DispatchState.SENT.value for r in rows):
            days = _answer_days(s)
            late = {r.id for r in rows if r.form == DispatchForm.ELECTRONIC.value
                    and r.state == DispatchState.SENT.value and offers_post(r.sent_on, False, today, days)}
        infos = tuple(replace(i, actions=i.actions + ("post",)) if i.id in late else i for i in map(_info, rows))
        return Page(infos, total, offset, limit)


# ------------------------------------------------------------------------------------------------ register
def _next_code(session, year: int) -> str:
    prefix = f"EX{year:04d}"
    last = session.scalar(select(func.max(Dispatch.code)).where(Dispatch.code.like(prefix + "%")))
    return make_code(year, int(last[6:12]) + 1 if last else 1)


def register_dispatch_in(session, actor: Actor, issued_document_id: int, *, recipient_name: str,
                         form: DispatchForm | str, case_type: str, case_id: int, case_label: str = "",
                         address: str | None = None, email_address: str | None = None,
                         document_title: str = "") -> DispatchInfo:
    """A printed notice (an archived issued document) enters the register with a new code (Art. 22, §1)."""
    require_role(actor, *SEND_ROLES)
    problems: list[Problem] = []
    try:
        form = DispatchForm(form)
    except ValueError:
        problems.append(Problem("form", "Escolha a forma de notificação (Art. 22, §1, I a VI).", "Art. 22, §1"))
    issued = session.get(IssuedDocument, issued_document_id)
    if issued is None:
        problems.append(Problem("issued_document_id", "Documento emitido não encontrado."))
    if not (recipient_name or "").strip():
        problems.append(Problem("recipient_name", "Informe o destinatário."))
    if case_type not in CASE_LABELS:
        problems.append(Problem("case_type", "Indique o processo: auto, vistoria, curso ou requisição de dados."))
    if isinstance(form, DispatchForm):
        if form is DispatchForm.POST and not (address or "").strip():
            problems.append(Problem("address", "Informe o endereço para a carta com AR.", "Art. 22, §1, V"))
        if form is DispatchForm.ELECTRONIC and "@" not in (email_address or ""):
            problems.append(Problem("email", "Informe o e-mail do destinatário.", "Art. 22, §1, VI"))
    if problems:
        raise ValidationError(problems)
    row = Dispatch(code=_next_code(session, local_today().year), state=DispatchState.PENDING.value,
                   document_kind=issued.kind, issued_document_id=issued.id, document_number=issued.number,
                   document_title=document_title or f"Documento nº {issued.number}",
                   recipient_name=recipient_name.strip(), address=(address or "").strip() or None,
                   email=(email_address or "").strip() or None, form=form.value, case_type=case_type,
                   case_id=case_id, case_label=case_label, created_by=actor.user_id)
    session.add(row)
    session.flush()
    audit.record(session, actor, "dispatch.register", "dispatch", row.id, None, {
        "code": row.code, "document": issued.number, "recipient": row.recipient_name, "form": row.form,
        "case_type": case_type, "case_id": case_id})
    return _info(row)


def register_dispatch(db, actor: Actor, issued_document_id: int, **kw) -> DispatchInfo:
    require_role(actor, *SEND_ROLES)
    with db.session() as s:
        return register_dispatch_in(s, actor, issued_document_id, **kw)


def _notice_number(session, issued: IssuedDocument) -> str:
    """A notice's own number (NT-NNNN/AAAA, issue 28), or the document's for anything else."""
    from desktop.services.numbering import notice_number_of_in  # lazy: loaded only by the use case that needs it

    if issued.kind == "notice":
        return notice_number_of_in(session, issued.id, issued.number) or issued.number
    return issued.number


def _driver_address(d: Driver) -> str:
    parts = [d.address or "", " – ".join(p for p in (d.district, d.city) if p)]
    if d.zip_code:
        parts.append(f"CEP {d.zip_code[:5]}-{d.zip_code[5:]}")
    return "\n".join(p for p in parts if p)


def register_auto_notice_in(session, actor: Actor, auto_id: int, issued_document_id: int,
                            form: DispatchForm | str = DispatchForm.POST, addressee: str = "driver") -> DispatchInfo:
    """The notice of an auto (autuação, penalty, decision) to its driver or platform, by post or e-mail."""
    auto = session.get(Auto, auto_id)
    if auto is None:
        raise NotFound("Auto de infração não encontrado.")
    if addressee == "driver" and auto.infractor_driver_id is not None:
        d = session.get(Driver, auto.infractor_driver_id)
        name, address, mail = d.name, _driver_address(d), d.email
    elif auto.infractor_platform_id is not None:
        p = session.get(Platform, auto.infractor_platform_id)
        name, address, mail, addressee = p.legal_name, p.address or "", p.email, "platform"
    else:
        raise ValidationError([Problem("addressee", "Este auto não tem esse destinatário.")])
    issued = session.get(IssuedDocument, issued_document_id)
    title = f"Notificação nº {_notice_number(session, issued)}" if issued is not None else ""
    return register_dispatch_in(session, actor, issued_document_id, recipient_name=name, form=form,
                                case_type="auto", case_id=auto.id, case_label=f"Auto nº {auto.number}",
                                address=address, email_address=mail, document_title=title)


def register_auto_notice(db, actor: Actor, auto_id: int, issued_document_id: int,
                         form: DispatchForm | str = DispatchForm.POST, addressee: str = "driver") -> DispatchInfo:
    require_role(actor, *SEND_ROLES)
    with db.session() as s:
        return register_auto_notice_in(s, actor, auto_id, issued_document_id, form, addressee)


def register_data_request_in(session, actor: Actor, request_id: int, issued_document_id: int,
                             form: DispatchForm | str = DispatchForm.ELECTRONIC) -> DispatchInfo:
    """The ofício requesting data from a platform (Art. 4), by e-mail to the platform's registered address."""
    row = session.get(DataRequest, request_id)
    if row is None:
        raise NotFound("Requisição de dados não encontrada.")
    p = session.get(Platform, row.platform_id)
    issued = session.get(IssuedDocument, issued_document_id)
    number = row.number or (issued.number if issued is not None else "")
    return register_dispatch_in(session, actor, issued_document_id, recipient_name=p.legal_name, form=form,
                                case_type="data_request", case_id=row.id,
                                case_label=f"Requisição nº {number}", address=p.address, email_address=p.email,
                                document_title=f"Ofício — requisição de dados nº {number}")


def register_data_request(db, actor: Actor, request_id: int, issued_document_id: int,
                          form: DispatchForm | str = DispatchForm.ELECTRONIC) -> DispatchInfo:
    require_role(actor, *SEND_ROLES)
    with db.session() as s:
        return register_data_request_in(s, actor, request_id, issued_document_id, form)


# ------------------------------------------------------------------------------------- printed elsewhere
# A notice printed from its own screen (the auto's notices in Fiscalização, the ofício of a data request, an
# inspection's convocation or regularization notice, a renewal reminder) is an archived issued document; the
# Correspondência screen lists those not yet in the register, one line per addressee, and registers the one the
# clerk chooses with the form of Art. 22, §1 — so every notice the program printed for a person or a platform can
# enter the register with its code (issue 26).

PRINTED_NOTICE_RECORDS = ("auto", "inspection", "authorization", "course_session")


@dataclass(frozen=True, slots=True)
class PrintedNotice:
    """A printed notice not yet in the register, for one addressee."""

    issued_document_id: int
    number: str
    kind_label: str
    issued_on: date
    case_label: str
    addressee: str           # "driver" or "platform"
    recipient_name: str
    address: str
    email: str

    @property
    def where(self) -> str:
        return " · ".join(p for p in (" ".join(self.address.split()), self.email) if p) or "sem endereço cadastrado"


def _platform_of(session, platform_id: int | None) -> tuple | None:
    if platform_id is None:
        return None
    p = session.get(Platform, platform_id)
    return ("platform", p.legal_name, p.address or "", p.email or "") if p is not None else None


def _driver_of(session, driver_id: int | None) -> tuple | None:
    if driver_id is None:
        return None
    d = session.get(Driver, driver_id)
    return ("driver", d.name, _driver_address(d), d.email or "") if d is not None else None


def _same_notice(session, notice_number: str, number: str, issued_id: int | None) -> bool:
    """Whether an attendance's notice number ("NT-0003/2026", or a document number before issue 28) is this copy."""
    from desktop.services.numbering import notice_document_id_in  # lazy: loaded only by the use case that needs it

    if notice_number == number:
        return True
    document = notice_document_id_in(session, notice_number)
    return document is None and not number or (issued_id is not None and document == issued_id)


def _case_of_printed(session, kind: str, record_type: str, record_id: int, number: str = "",
                     issued_id: int | None = None):
    """(case_type, case_id, case_label, [(addressee, name, address, e-mail), …]) of a printed notice, or None."""
    if kind == "data_request" and record_type == "data_request":
        row = session.get(DataRequest, record_id)
        if row is None:
            return None
        return "data_request", row.id, f"Requisição nº {row.number or row.id}", [_platform_of(session, row.platform_id)]
    if kind != "notice":
        return None
    if record_type == "auto":
        auto = session.get(Auto, record_id)
        if auto is None:
            return None
        return "auto", auto.id, f"Auto nº {auto.number}", [_driver_of(session, auto.infractor_driver_id),
                                                           _platform_of(session, auto.infractor_platform_id)]
    if record_type == "inspection":
        row = session.get(Inspection, record_id)
        if row is None or row.authorization_id is None:
            return None
        auth = session.get(Authorization, row.authorization_id)
        return "inspection", row.id, f"Vistoria da autorização nº {auth.number or auth.id}", [
            _driver_of(session, auth.driver_id)]
    if record_type == "course_session":     # one convocation for the session: a copy for each driver it convokes
        from desktop.models import CourseAttendance, CourseSession  # local: only this kind of notice needs them

        course = session.get(CourseSession, record_id)
        if course is None:
            return None
        people = []
        for a in session.scalars(select(CourseAttendance).where(CourseAttendance.session_id == course.id)
                                 .order_by(CourseAttendance.id)):
            if a.notice_number and not _same_notice(session, a.notice_number, number, issued_id):
                continue                          # convoked by another copy of the convocation
            person = _driver_of(session, a.driver_id)
            if person is not None:
                people.append((f"driver:{a.driver_id}",) + person[1:])
        return "course", course.id, f"Curso de {format_date(course.held_on)} ({course.topic})", people
    if record_type == "authorization":
        auth = session.get(Authorization, record_id)
        if auth is None:
            return None
        return "inspection", auth.id, f"Autorização nº {auth.number or auth.id}", [_driver_of(session, auth.driver_id)]
    return None


def _printed_rows(session, limit: int):
    stmt = (select(IssuedDocument.id, IssuedDocument.kind, IssuedDocument.number, IssuedDocument.record_type,
                   IssuedDocument.record_id, IssuedDocument.issued_at)
            .where(((IssuedDocument.kind == "notice") & IssuedDocument.record_type.in_(PRINTED_NOTICE_RECORDS))
                   | ((IssuedDocument.kind == "data_request") & (IssuedDocument.record_type == "data_request")))
            .order_by(IssuedDocument.id.desc()).limit(limit))
    return session.execute(stmt).all()


def printed_notices(db, actor: Actor, limit: int = 200) -> tuple[PrintedNotice, ...]:
    """The notices printed elsewhere and not yet in the register (newest first), one line per addressee."""
    require_role(actor, *SEND_ROLES)
    from desktop.services.documents.archive import DOCUMENT_KINDS  # lazy: loaded only by the use case that needs it (start-up)

    with db.session(write=False) as s:
        rows = _printed_rows(s, max(1, min(int(limit), 1000)))
        taken = {(d, name) for d, name in s.execute(select(Dispatch.issued_document_id, Dispatch.recipient_name)
                                                    .where(Dispatch.issued_document_id.in_([r.id for r in rows])))}
        out = []
        for r in rows:
            case = _case_of_printed(s, r.kind, r.record_type, r.record_id, r.number, r.id)
            if case is None:
                continue
            _type, _id, label, people = case
            for person in people:
                if person is None or (r.id, person[1]) in taken:
                    continue
                out.append(PrintedNotice(r.id, r.number, DOCUMENT_KINDS.get(r.kind, r.kind),
                                         local_now().date() if r.issued_at is None else
                                         r.issued_at.astimezone(local_now().tzinfo).date(), label, person[0],
                                         person[1], person[2], person[3]))
        return tuple(out)


def register_printed_in(session, actor: Actor, issued_document_id: int, addressee: str,
                        form: DispatchForm | str) -> DispatchInfo:
    """The printed notice `issued_document_id` enters the register for its `addressee` ("driver"/"platform")."""
    require_role(actor, *SEND_ROLES)
    issued = session.get(IssuedDocument, issued_document_id)
    if issued is None:
        raise NotFound("Documento emitido não encontrado.")
    case = _case_of_printed(session, issued.kind, issued.record_type, issued.record_id, issued.number,
                            issued.id)
    person = next((p for p in (case[3] if case else ()) if p is not None and p[0] == addressee), None)
    if case is None or person is None:
        raise ValidationError([Problem("addressee", f"O documento nº {issued.number} não é uma notificação para "
                                                    "esse destinatário.")])
    already = session.scalar(select(Dispatch).where(Dispatch.issued_document_id == issued.id,
                                                    Dispatch.recipient_name == person[1]))
    if already is not None:
        raise ConflictError(f"O documento nº {issued.number} para {person[1]} já está no registro de expedição "
                            f"com o código {format_code(already.code)}.")
    case_type, case_id, label, _people = case
    title = (f"Ofício — requisição de dados nº {issued.number}" if issued.kind == "data_request"
             else f"Notificação nº {_notice_number(session, issued)}")
    return register_dispatch_in(session, actor, issued.id, recipient_name=person[1], form=form, case_type=case_type,
                                case_id=case_id, case_label=label, address=person[2], email_address=person[3],
                                document_title=title)


def register_printed(db, actor: Actor, issued_document_id: int, addressee: str,
                     form: DispatchForm | str) -> DispatchInfo:
    require_role(actor, *SEND_ROLES)
    with db.session() as s:
        return register_printed_in(s, actor, issued_document_id, addressee, form)


# ------------------------------------------------------------------------------------------------ the case
def _record_sent_in_case(session, actor, row: Dispatch, sent_on: date) -> None:
    """An auto's notice sent while the auto waits for its proof of notice: the attempt enters the auto's process
    (Art. 22, §1), its proof still to come. A later notice (penalty, decision) is tracked here only."""
    if row.case_type != "auto" or row.notification_id is not None:
        return
    from desktop.domain.workflow import AutoStatus  # lazy: only for an auto's notice

    if session.get(Auto, row.case_id).status != AutoStatus.DRAWN_UP.value:
        return
    from desktop.services.autos.process import NotificationDraft, record_notification_in  # lazy: loaded only by the use case that needs it (start-up)

    auto = session.get(Auto, row.case_id)
    addressee = "driver" if auto.infractor_driver_id is not None else "platform"
    record_notification_in(session, actor, auto.id, NotificationDraft(
        addressee, DispatchForm(row.form), sent_on, note=f"Expedição {row.code}"), auto.version)
    from desktop.models import AutoNotification  # lazy: loaded only by the use case that needs it (start-up)

    row.notification_id = session.scalar(
        select(AutoNotification.id).where(AutoNotification.auto_id == auto.id)
        .order_by(AutoNotification.id.desc()).limit(1))


def _join_in_case(session, actor, row: Dispatch, joined_on: date, proof_document_id: int) -> None:
    """The proof joined to the case: for an auto the existing joining step of its process, so that the defense
    term runs from `joined_on` (Art. 22, §2); for a data request, the platform notified (Art. 4, §2)."""
    if row.case_type == "auto" and row.notification_id is not None:
        from desktop.services.autos.process import join_proof_in  # lazy: loaded only by the use case that needs it (start-up)

        auto = session.get(Auto, row.case_id)
        join_proof_in(session, actor, row.notification_id, joined_on, auto.version,
                      proof_document_id=proof_document_id)
    elif row.case_type == "data_request":
        request = session.get(DataRequest, row.case_id)
        if request is not None and request.notified_at is None:
            from desktop.services.data_requests import notify_data_request_in  # lazy: loaded only by the use case that needs it (start-up)

            notify_data_request_in(session, actor, request.id, local_now(), request.version)


def _store_proof(session, actor, row: Dispatch, filename: str, content: bytes, mime: str, kind: str) -> int:
    from desktop.services.enforcement.core import Attachment, store_attachment  # lazy: loaded only by the use case that needs it (start-up)

    auto = session.get(Auto, row.case_id) if row.case_type == "auto" else None
    return store_attachment(session, actor, Attachment(filename, content, mime, kind), auto, field="proof").id


def _refuse_joined(row: Dispatch) -> None:
    if row.joined_on is not None or row.state == DispatchState.JOINED.value:
        who = ""
        if row.received_by:
            who = f", recebido por {row.received_by}"
        raise ConflictError(f"A expedição {row.code} já foi juntada em {format_date(row.joined_on)}{who}; "
                            "a primeira juntada vale (Art. 22, §2).")


# ------------------------------------------------------------------------------------------------ the batch
def batch_in(session, actor: Actor, header, sender: str, sent_on: date | None = None):
    """Marks every pending post dispatch as sent in a new batch; returns (batch, rows, context) to render."""
    from desktop.reports.dispatch_batch import BatchContext, BatchItem  # lazy: loaded only by the use case that needs it (start-up)

    require_role(actor, *SEND_ROLES)
    sent_on = sent_on or local_today()
    rows = list(session.scalars(select(Dispatch).where(
        Dispatch.state == DispatchState.PENDING.value, Dispatch.form == DispatchForm.POST.value)
        .order_by(Dispatch.id).with_for_update()))
    if not rows:
        return None, [], None
    batch = DispatchBatch(sent_on=sent_on, items=len(rows), created_by=actor.user_id)
    session.add(batch)
    session.flush()
    items = []
    for row in rows:
        issued = session.get(IssuedDocument, row.issued_document_id)
        items.append(BatchItem(row.code, format_code(row.code), row.document_title, row.recipient_name,
                               row.address or "", row.case_label, bytes(issued.pdf)))
        _set_state(session, actor, row, DispatchState.SENT, sent_on=sent_on, batch_id=batch.id)
        _record_sent_in_case(session, actor, row, sent_on)
    ctx = BatchContext(header, None, sent_on, sender, tuple(items), f"Lote nº {batch.id}")  # meta: at archiving
    return batch, rows, ctx


def day_batch(db, actor: Actor, sent_on: date | None = None) -> BatchResult | None:
    """The day's post: one archived PDF (each notice with its code's barcode, an AR slip each, the mailing list);
    None when nothing waits. Reprinting a batch is its 2ª via (`reprint_batch`), never new codes."""
    from desktop.reports import dispatch_batch, records  # lazy: loaded only by the use case that needs it (start-up)
    from desktop.services.documents.archive import RecordRef, issue_in_session  # lazy: loaded only by the use case that needs it (start-up)

    require_role(actor, *SEND_ROLES)
    with db.session() as s:
        header = records.header(s)
        sender = f"{header.title}\n{header.secretariat}"
        batch, rows, ctx = batch_in(s, actor, header, sender, sent_on)
        if batch is None:
            return None

        def render(meta):
            from dataclasses import replace  # lazy: loaded only by the use case that needs it (start-up)
            return dispatch_batch.render(replace(ctx, meta=meta))

        issued = issue_in_session(s, actor, BATCH_KIND, RecordRef("dispatch_batch", batch.id), render)
        batch.issued_document_id = issued.info.id
        s.flush()
        audit.record(s, actor, "dispatch.batch", "dispatch_batch", batch.id, None, {
            "items": [r.code for r in rows], "document": issued.info.number, "sent_on": batch.sent_on})
        return BatchResult(batch.id, issued.info.number, tuple(_info(r) for r in rows), issued.pdf)


def reprint_batch(db, actor: Actor, batch_id: int) -> bytes:
    """The 2ª via of a batch: the archived PDF with the copy stamp; the codes are the same."""
    from desktop.services.documents.archive import reprint  # lazy: loaded only by the use case that needs it (start-up)

    require_role(actor, *SEND_ROLES)
    with db.session(write=False) as s:
        batch = s.get(DispatchBatch, batch_id)
        if batch is None or batch.issued_document_id is None:
            raise NotFound("Lote de expedição não encontrado.")
        number = s.get(IssuedDocument, batch.issued_document_id).number
    return reprint(db, actor, number)


# ------------------------------------------------------------------------------------------------ scans
def read_scan(db, actor: Actor, files: list[tuple[str, bytes]]) -> tuple[ScanLine, ...]:
    """Each page of the scanned stack beside its dispatch (pages without a readable code listed as such)."""
    from desktop.importers.scans import read_scans  # lazy: loaded only by the use case that needs it (start-up)

    require_role(actor, *READ_ROLES)
    pages = read_scans(files)
    with db.session(write=False) as s:
        found = {r.code: _info(r) for r in s.scalars(
            select(Dispatch).where(Dispatch.code.in_({p.code for p in pages if p.code})))}
    return tuple(ScanLine(p.number, p.source, p.code, found.get(p.code), p.png) for p in pages)


# ------------------------------------------------------------------------------------------------ receive
def receive_in(session, actor: Actor, code: str, *, proof: tuple[str, bytes, str], received_on: date | None = None,
               received_by: str | None = None, returned: str | ReturnReason | None = None,
               joined_on: date | None = None) -> DispatchInfo:
    """What the carrier wrote on the AR: the receipt (date and receiver) — the page joined as the proof on
    `joined_on` (today by default), from which the case's term starts (Art. 22, §2) — or the return reason, the
    page kept as the proof of the attempt (the edital follows, §1, II). A code already joined is refused."""
    require_role(actor, *SEND_ROLES)
    row = _by_code(session, code, lock=True)
    _refuse_joined(row)
    today = local_today()
    filename, content, mime = proof
    if returned is not None:
        reason = returned if isinstance(returned, ReturnReason) else parse_return_reason(str(returned))
        if reason is None:
            raise ValidationError([Problem("returned", "Motivo da devolução desconhecido. Use: "
                                           + ", ".join(r.value for r in ReturnReason) + ".")])
        if row.state != DispatchState.SENT.value:
            raise ConflictError(f"A expedição {row.code} está {DispatchState(row.state).label.lower()}: "
                                "só uma carta enviada volta devolvida.")
        doc_id = _store_proof(session, actor, row, filename, content, mime, "dispatch_return")
        _set_state(session, actor, row, DispatchState.RETURNED, returned_on=received_on or today,
                   return_reason=reason.value, proof_document_id=doc_id)
        return _info(row)
    joined_on = joined_on or today
    problems = receipt_problems(row.sent_on, received_on, joined_on, today)
    if not (received_by or "").strip():
        problems.append(Problem("received_by", "Informe o nome do recebedor escrito no AR.", "Art. 22, §1, V"))
    if problems:
        raise ValidationError(problems)
    if row.state != DispatchState.SENT.value:
        raise ConflictError(f"A expedição {row.code} está {DispatchState(row.state).label.lower()}: "
                            "só uma expedição enviada pode ser recebida.")
    doc_id = _store_proof(session, actor, row, filename, content, mime, "dispatch_proof")
    _set_state(session, actor, row, DispatchState.RECEIVED, received_on=received_on,
               received_by=received_by.strip(), proof_document_id=doc_id)
    _set_state(session, actor, row, DispatchState.JOINED, joined_on=joined_on, joined_at=local_now())
    _join_in_case(session, actor, row, joined_on, doc_id)
    return _info(row)


def receive(db, actor: Actor, code: str, **kw) -> DispatchInfo:
    require_role(actor, *SEND_ROLES)
    with db.session() as s:
        return receive_in(s, actor, code, **kw)


# ------------------------------------------------------------------------------------------------ edital
def returned_for_edital(db, actor: Actor) -> tuple[DispatchInfo, ...]:
    """The autos whose AR came back undelivered and wait for the edital (Art. 22, §1, II)."""
    with db.session(write=False) as s:
        return tuple(d for d in list_dispatches_in(s, actor, DispatchState.RETURNED) if d.case_type == "auto")


def post_edital(db, actor: Actor, posted_on: date | None = None):
    """The month's edital of every auto whose AR came back undelivered, affixed on `posted_on` (today): each
    auto gets its notification by edital (§1, II) with the affixing as the joined proof, so its term runs from
    that day (§2); the edital is printed by `reports/edital.py`. Returns the issued edital (None when none)."""
    from desktop.domain.penalties import NotificationForm  # lazy: loaded only by the use case that needs it (start-up)
    from desktop.services.autos.process import NotificationDraft, record_notification_in  # lazy: loaded only by the use case that needs it (start-up)
    from desktop.services.documents.printing import print_edital  # lazy: loaded only by the use case that needs it (start-up)

    require_role(actor, *SEND_ROLES)
    posted_on = posted_on or local_today()
    with db.session() as s:
        rows = list(s.scalars(select(Dispatch).where(Dispatch.state == DispatchState.RETURNED.value,
                                                     Dispatch.case_type == "auto").order_by(Dispatch.id)))
        if not rows:
            return None
        for row in rows:
            auto = s.get(Auto, row.case_id)
            if auto.notice_joined_on is None:
                addressee = "driver" if auto.infractor_driver_id is not None else "platform"
                record_notification_in(s, actor, auto.id, NotificationDraft(
                    addressee, NotificationForm.NOTICE_BOARD, posted_on, proof_joined_on=posted_on,
                    note=f"Edital após devolução do AR {row.code} ({row.return_reason})"), auto.version)
            _set_state(s, actor, row, DispatchState.EDITAL_POSTED, edital_posted_on=posted_on)
            _set_state(s, actor, row, DispatchState.JOINED, joined_on=posted_on, joined_at=local_now())
    return print_edital(db, actor, posted_on)


# ------------------------------------------------------------------------------------------------ e-mail
def _eml_of(row: Dispatch, pdf: bytes, settings: SmtpSettings, header_title: str) -> EmailMessage:
    msg = EmailMessage()
    domain = (settings.sender.split("@")[-1] if "@" in settings.sender else "chapada.local")
    msg["Message-ID"] = email.utils.make_msgid(idstring=row.code, domain=domain)
    msg["Date"] = email.utils.format_datetime(local_now())
    msg["From"] = settings.sender or settings.user
    msg["To"] = row.email
    msg["Subject"] = f"{row.document_title} — {row.case_label} [{row.code}]"
    msg.set_content(
        f"Prezados,\n\nSegue, em anexo, {row.document_title} ({row.case_label}), da {header_title}.\n\n"
        "Por favor, respondam a este e-mail confirmando o recebimento: a resposta é a prova de recebimento "
        "(Lei nº 2.103/2025, Art. 22, §1º, VI).\n\n"
        f"Código de expedição: {format_code(row.code)}\n")
    msg.add_attachment(pdf, maintype="application", subtype="pdf", filename=f"{row.document_number.replace('/', '-')}.pdf")
    return msg


def send_email(db, actor: Actor, code: str, settings: SmtpSettings, password: str | None = None) -> DispatchInfo:
    """Sends the notice's archived PDF by e-mail (Art. 22, §1, VI) through the office's SMTP server; the
    message (.eml with its Message-ID) is archived as the proof of sending. The password is never stored."""
    from desktop.reports import records  # lazy: loaded only by the use case that needs it (start-up)

    require_role(actor, *SEND_ROLES)
    with db.session(write=False) as s:
        row = _by_code(s, code)
        if row.form != DispatchForm.ELECTRONIC.value or row.state != DispatchState.PENDING.value:
            raise ConflictError(f"A expedição {row.code} não é um e-mail a enviar.")
        pdf = bytes(s.get(IssuedDocument, row.issued_document_id).pdf)
        msg = _eml_of(row, pdf, settings, records.header(s).title)
    password = password if password is not None else smtp_password(settings.user)
    try:
        if settings.security == "ssl":
            server = smtplib.SMTP_SSL(settings.host, settings.port, timeout=30,
                                      context=ssl.create_default_context())
        else:
            server = smtplib.SMTP(settings.host, settings.port, timeout=30)
        with server:
            if settings.security == "starttls":
                server.starttls(context=ssl.create_default_context())
            if settings.user and password:
                server.login(settings.user, password)
            server.send_message(msg)
    except (OSError, smtplib.SMTPException) as exc:
        raise DesktopError(f"O e-mail não foi enviado ({settings.host}:{settings.port}): {exc}") from exc
    eml = msg.as_bytes(policy=email.policy.SMTP)
    with db.session() as s:
        row = _by_code(s, code, lock=True)
        doc = _store_eml(s, actor, row, eml, f"{row.code}-enviado.eml")
        _set_state(s, actor, row, DispatchState.SENT, sent_on=local_today(), message_id=str(msg["Message-ID"]).strip(),
                   eml_document_id=doc)
        _record_sent_in_case(s, actor, row, row.sent_on)
        return _info(row)


def _store_eml(session, actor, row: Dispatch, eml: bytes, filename: str, mime: str = "message/rfc822") -> int:
    """A message kept as a document (.eml message/rfc822, or an Outlook .msg; the attachment policy is for
    scanned PDFs and images)."""
    import hashlib  # lazy: loaded only by the use case that needs it (start-up)

    doc = Document(kind="dispatch_email", sha256=hashlib.sha256(eml).hexdigest(), content=eml,
                   mime=mime, filename=filename, size=len(eml),
                   auto_id=row.case_id if row.case_type == "auto" else None, uploaded_by=actor.user_id)
    session.add(doc)
    session.flush()
    return doc.id


def import_reply(db, actor: Actor, content: bytes, filename: str, joined_on: date | None = None) -> DispatchInfo:
    """The recipient's answer (.eml, or .msg saved from Outlook: `importers.mail_reply`) as the proof of receipt
    (Art. 22, §1, VI): matched to the sent e-mail by In-Reply-To/References, archived, joined — the case's term
    starts on the joining date (§2)."""
    from desktop.importers.mail_reply import read_reply  # lazy: loaded only by the use case that needs it (start-up)

    require_role(actor, *SEND_ROLES)
    reply = read_reply(content, filename)
    answered = reply.sent_at.astimezone(local_now().tzinfo).date() if reply.sent_at else local_today()
    joined_on = joined_on or local_today()
    with db.session() as s:
        row = s.scalar(select(Dispatch).where(Dispatch.message_id.in_(reply.ids)).with_for_update())
        if row is None:
            raise NotFound(f"{filename}: nenhum e-mail enviado pelo programa corresponde a esta resposta.")
        _refuse_joined(row)
        if row.state != DispatchState.SENT.value:
            raise ConflictError(f"A expedição {row.code} está {DispatchState(row.state).label.lower()}.")
        answered = max(answered, row.sent_on)
        problems = receipt_problems(row.sent_on, answered, joined_on, local_today())
        if problems:
            raise ValidationError(problems)
        doc = _store_eml(s, actor, row, content, filename, reply.mime)
        _set_state(s, actor, row, DispatchState.RECEIVED, received_on=answered,
                   received_by=(reply.sender or "resposta por e-mail")[:200], proof_document_id=doc)
        _set_state(s, actor, row, DispatchState.JOINED, joined_on=joined_on, joined_at=local_now())
        _join_in_case(s, actor, row, joined_on, doc)
        return _info(row)


def unanswered_emails_in(session, actor: Actor, days: int | None = None) -> tuple[DispatchInfo, ...]:
    """E-mails sent with no answer after `days` (parameter `dispatch.email_answer_days`): the post is offered."""
    require_role(actor, *READ_ROLES)
    if days is None:
        days = _answer_days(session)
    today = local_today()
    rows = session.scalars(select(Dispatch).where(Dispatch.form == DispatchForm.ELECTRONIC.value,
                                                  Dispatch.state == DispatchState.SENT.value))
    return tuple(_info(r) for r in rows if offers_post(r.sent_on, False, today, days))


def _answer_days(session) -> int:
    from desktop.services.parameters import parameter_value_in  # lazy: loaded only by the use case that needs it

    return int(parameter_value_in(session, "dispatch.email_answer_days", local_today()))


def offer_post(db, actor: Actor, code: str) -> DispatchInfo:
    """An unanswered e-mail goes by post too: a new dispatch (form V) of the same document, same case."""
    require_role(actor, *SEND_ROLES)
    with db.session() as s:
        row = _by_code(s, code)
        if row.id not in {d.id for d in unanswered_emails_in(s, actor)}:
            raise ConflictError(f"O e-mail {row.code} ainda está no prazo de resposta ou já foi respondido.")
        address = row.address
        if row.case_type == "auto":
            auto = s.get(Auto, row.case_id)
            if auto.infractor_driver_id is not None:
                address = _driver_address(s.get(Driver, auto.infractor_driver_id))
        return register_dispatch_in(s, actor, row.issued_document_id, recipient_name=row.recipient_name,
                                    form=DispatchForm.POST, case_type=row.case_type, case_id=row.case_id,
                                    case_label=row.case_label, address=address,
                                    document_title=row.document_title)


# ------------------------------------------------------------------------------------------------ dashboard
@dataclass(frozen=True, slots=True)
class DeskCounts:
    waiting: int          # notices waiting to be sent
    ars_overdue: int      # ARs out for more than 30 days
    unanswered: int       # e-mails with no answer in N days
    for_edital: int       # cases waiting for an edital


def desk_counts(db, actor: Actor) -> DeskCounts:
    """The counts for the dashboard's tiles (issue 26)."""
    with db.session(write=False) as s:
        return desk_counts_in(s, actor)


def desk_counts_in(session, actor: Actor, today: date | None = None) -> DeskCounts:
    """Four SQL COUNTs, each the list the screen shows for its filter (`DISPATCH_FILTERS`)."""
    require_role(actor, *READ_ROLES)
    today = today or local_today()

    def n(key: str) -> int:
        return int(session.scalar(select(func.count(Dispatch.id)).where(_filter_clause(session, key, today))) or 0)

    return DeskCounts(n(DispatchState.PENDING.value), n("ars_overdue"), n("unanswered"), n("for_edital"))


# ------------------------------------------------------------------------------------------------ export
DISPATCH_HEADERS = ("Código", "Documento", "Destinatário", "Forma", "Enviado em", "Recebido em", "Recebido por",
                    "Devolvido (motivo)", "Juntado em", "Processo")


def dispatch_rows(db, actor: Actor):
    """The register as the `export dispatches` rows (services/exports.py writes them)."""
    require_role(actor, *READ_ROLES)
    with db.session(write=False) as s:
        for d in list_dispatches_in(s, actor):
            yield [d.code, d.document_title, d.recipient_name, d.form_label, d.sent_on, d.received_on,
                   d.received_by, d.return_reason, d.joined_on, d.case_label]
