"""The administrative process of an auto (Art. 22): notification (§1 I-VI, the term starting when the proof is
joined, §2), defesa prévia, first-instance judgment, recurso, appeal judgment, and the decision becoming final.

The auto's status machine (`desktop.domain.AUTO_MACHINE`) decides every step; the terms are parameters
(`term.defense_days`, `term.appeal_days`, `term.payment_days`) counted with `domain.deadline` on the office's
business-day calendar. On the day a decision is final the penalties take effect (penalties.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal


from desktop.domain.dates import TIMEZONE, deadline, local_today
from desktop.domain.auto_steps import notice_starts_term
from desktop.domain.ledger import EntryKind
from desktop.domain.penalties import (
    CATALOG,
    NotificationForm,
    PenaltyOption,
    UnknownInfractionCode,
    fine_in_reais,
    lookup,
    normalize_code,
    penalty_choice_problems,
    requalification_problems,
    requalified_art13_item_problems,
)
from desktop.domain.problems import Problem
from desktop.domain.workflow import AutoStatus
from desktop.errors import ConflictError, NotFound, ValidationError
from desktop.models import AutoDefense, AutoJudgment, AutoNotification, AutoWaiver, Document
from desktop.services import audit
from desktop.services.locking import check_version
from desktop.services.permissions import require_role
from desktop.services.enforcement.core import (
    READER_ROLES,
    Attachment,
    auto_balance_in,
    auto_transition,
    code_in_force_in,
    debtor_of,
    fine_in,
    load_auto,
    require_step,
    step_roles,
    store_attachment,
)
from desktop.services.catalog import catalog_entries_in
from desktop.services.enforcement.postings import post, refund_surplus_in, reverse_auto_entries
from desktop.services.enforcement.core import auto_facts_in, decision_to_notify_in
from desktop.services.enforcement.recurrence import decision_options_in, pending_penalty_options_in
from desktop.services.numbering import next_number
from desktop.services.enforcement.records import (
    INSTANCE_LABELS,
    AutoInfo,
    DefenseInfo,
    JudgmentInfo,
    NotificationInfo,
    Outcome,
    notice_platforms_in,
    auto_info_in,
    defense_info,
    judgment_info,
    notification_info,
)
from desktop.services.holidays import calendar_in
from desktop.services.ledger import settle_auto
from desktop.services.parameters import parameter_value_in
from desktop.services.penalties import apply_final_penalties, lift_penalties_in
from dataclasses import replace as _replace

__all__ = [  # the process's infos live in enforcement.records; importable from here as before
    "ADDRESSEES", "INSTANCE_LABELS", "NOTIFIER_ROLES", "PROTOCOL_ROLES", "AutoInfo", "DefenseInfo",
    "JudgmentDraft", "JudgmentInfo", "NotificationDraft", "NotificationInfo", "Outcome", "annul_auto",
    "annul_auto_in", "defense_info", "file_appeal", "file_appeal_in", "file_defense", "file_defense_in", "finalize",
    "finalize_auto_in", "finalize_in", "decision_choices", "decision_choices_in", "RequalificationTarget", "requalification_targets",
    "requalification_targets_in", "judge", "judge_in", "judgment_info", "record_waiver",
    "record_waiver_in", "WaiverDraft", "join_proof", "join_proof_in",
    "make_final_in", "notification_info", "record_notification", "record_notification_in",
    "PenaltyDecisionDraft", "decide_penalties", "decide_penalties_in", "platform_copies_in",
]
NOTIFIER_ROLES = step_roles("notify")
PROTOCOL_ROLES = step_roles("defense")
ADDRESSEES = {"driver": "Condutor", "platform": "Plataforma"}


@dataclass(frozen=True, slots=True)
class NotificationDraft:
    addressee: str
    form: NotificationForm
    sent_on: date
    proof_joined_on: date | None = None
    proof_document_id: int | None = None
    proof: Attachment | None = None
    note: str = ""
    platform_id: int | None = None   # addressee "platform": which one (issue 24 item 4; the only one by default)


@dataclass(frozen=True, slots=True)
class JudgmentDraft:
    """The gestor's decision (issue 12 items 1-2). `requalified_code`: a partial decision ("mantido em parte")
    requalifies the infraction to another catalogue code, whose Art. 25 amount then applies — there is no free
    amount. `penalties`: the penalties (`Penalty` values, or "vehicle_seizure") the decision applies when final,
    chosen among those the catalogue names for the code and the recurrence rules (`decision_options`); None: all
    of them. A partial decision may leave out a penalty it does not uphold; an upheld auto keeps all."""

    outcome: Outcome
    decided_on: date
    reasoning: str
    requalified_code: str | None = None
    penalties: frozenset | None = None
    art13_item: str | None = None   # issue 24 item 7: a requalification to Art. 26, III names the inciso of Art. 13


@dataclass(frozen=True, slots=True)
class PenaltyDecisionDraft:
    """The authority's decision on the penalties other than the fine of an auto final with no judgment choosing
    them (issue 24 item 1; Art. 26, §2; Art. 24, I): its date, its reasoning (fundamentação) and the penalties it
    applies among those the catalogue and the recurrence rules name (None: all of them; an empty set: none)."""

    decided_on: date
    reasoning: str
    penalties: frozenset | None = None


@dataclass(frozen=True, slots=True)
class WaiverDraft:
    """The infractor's written waiver (desistência) of the defense or the appeal (Art. 22), with its document."""

    filed_on: date
    statement: str = ""
    document_id: int | None = None
    attachment: Attachment | None = None


def _term(session, key: str, start: date) -> date:
    return deadline(start, int(parameter_value_in(session, key, start)), calendar_in(session))


def _not_future(problems: list[Problem], field: str, value, what: str) -> bool:
    if not isinstance(value, date):
        problems.append(Problem(field, f"Informe a data {what}."))
        return False
    if value > local_today():
        problems.append(Problem(field, f"A data {what} não pode ser futura."))
        return False
    return True


# ---------------------------------------------------------------------------------------------------------
# Notification (Art. 22, §§1-2)
# ---------------------------------------------------------------------------------------------------------

def _mark_notified(session, actor, auto, joined_on: date) -> None:
    """The first proof joined makes the auto `notified` and starts the defense term (Art. 22, §2)."""
    if auto.status != AutoStatus.DRAWN_UP.value:
        return
    auto.status = auto_transition(auto, AutoStatus.NOTIFIED).value
    auto.notice_joined_on = joined_on
    auto.defense_deadline = _term(session, "term.defense_days", joined_on)
    session.flush()
    audit.record(session, actor, "auto.notified", "auto", auto.id, {"status": AutoStatus.DRAWN_UP.value},
                 {"status": auto.status, "notice_joined_on": joined_on, "defense_deadline": auto.defense_deadline})


def _mark_decision_notified(session, actor, auto, judgment, joined_on: date) -> None:
    """The proof that a decision was notified is joined (Art. 22, §2; issue 24 item 3): for a first-instance
    decision the appeal term runs from that day. SPEC §3: "The appeal term, like the defense term, runs from the
    joining of the proof that the *decision* was notified." The finality that follows the term (the daily
    routine) therefore runs from the joining too."""
    before = {"decision_notice_joined_on": auto.decision_notice_joined_on, "appeal_deadline": auto.appeal_deadline}
    auto.decision_notice_joined_on = joined_on
    if AutoStatus(auto.status) is AutoStatus.JUDGED and judgment is not None and judgment.instance == "defense" \
            and auto.appeal_deadline is None:
        auto.appeal_deadline = _term(session, "term.appeal_days", joined_on)
    session.flush()
    audit.record(session, actor, "auto.decision_notified", "auto", auto.id, before, {
        "judgment_id": judgment.id if judgment is not None else None,
        "decision_number": judgment.number if judgment is not None else None,
        "decision_notice_joined_on": joined_on, "appeal_deadline": auto.appeal_deadline})


def platform_copies_in(session, auto) -> tuple[int, ...]:
    """The platforms that get a copy of the auto's notices (Art. 22 caput: "expedição da notificação à plataforma
    tecnológica e ao condutor"; issue 24 item 4): the platform infractor, and for an auto against a driver the
    platforms the driver works for."""
    return tuple(pid for pid, _ in notice_platforms_in(session, auto))


def _proof_document(session, actor, auto, document_id, attachment, problems, field):
    if attachment is not None:
        return store_attachment(session, actor, Attachment(attachment.filename, attachment.content,
                                                           attachment.mime, attachment.kind or field), auto).id
    if document_id is not None:
        doc = session.get(Document, document_id)
        if doc is None:
            problems.append(Problem(field, "Arquivo não encontrado."))
            return None
        if doc.auto_id is None:
            doc.auto_id = auto.id
        return doc.id
    return None


def record_notification_in(session, actor, auto_id: int, draft: NotificationDraft,
                           expected_version: int) -> AutoInfo:
    """`record_notification` inside the caller's transaction."""
    require_role(actor, *NOTIFIER_ROLES)
    problems: list[Problem] = []
    try:
        form = NotificationForm(draft.form)
    except ValueError:
        form = None
        problems.append(Problem("form", "Escolha a forma de notificação (Art. 22, §1, I a VI).", "Art. 22, §1"))
    if draft.addressee not in ADDRESSEES:
        problems.append(Problem("addressee", "Indique o destinatário: condutor ou plataforma.", "Art. 22"))
    sent_ok = _not_future(problems, "sent_on", draft.sent_on, "de envio")
    if draft.proof_joined_on is not None and _not_future(problems, "proof_joined_on", draft.proof_joined_on,
                                                         "da juntada da prova"):
        if sent_ok and draft.proof_joined_on < draft.sent_on:
            problems.append(Problem("proof_joined_on", "A prova não pode ser juntada antes do envio.",
                                    "Art. 22, §2"))
    auto = load_auto(session, auto_id, lock=True)
    check_version(auto, expected_version)
    judgment = None
    if AutoStatus(auto.status) in (AutoStatus.DRAWN_UP, AutoStatus.NOTIFIED):
        require_step(auto, "notify")  # Art. 22, §1: only while the auto waits for its proof of notice
    else:
        # Art. 22, §§1-2 (issue 24 item 3): after a decision, the notice is of the decision, in the same six forms
        require_step(auto, "notify_decision", auto_facts_in(session, auto))
        judgment = decision_to_notify_in(session, auto)
    platform_id = draft.platform_id if draft.addressee == "platform" else None
    copies = platform_copies_in(session, auto)
    if draft.addressee == "driver" and auto.infractor_driver_id is None:
        problems.append(Problem("addressee", "Este auto não tem condutor infrator."))
    if draft.addressee == "platform":
        if platform_id is None and len(copies) == 1:
            platform_id = copies[0]
        if not copies:
            problems.append(Problem("addressee", "O condutor não tem plataforma cadastrada e o auto não tem "
                                    "plataforma infratora.", "Art. 22"))
        elif platform_id not in copies:
            problems.append(Problem("platform_id", "Escolha a plataforma: a infratora ou uma em que o condutor "
                                    "trabalha.", "Art. 22"))
    if sent_ok and draft.sent_on < auto.drawn_up_at.date():
        problems.append(Problem("sent_on", "A notificação não pode ser anterior à lavratura do auto."))
    doc_id = _proof_document(session, actor, auto, draft.proof_document_id, draft.proof, problems,
                             "notification_proof")
    if problems:
        raise ValidationError(problems)
    if judgment is not None and sent_ok and draft.sent_on < judgment.decided_on:
        problems.append(Problem("sent_on", "A notificação da decisão não pode ser anterior à decisão "
                                f"({judgment.decided_on:%d/%m/%Y}).", "Art. 22, §2"))
        raise ValidationError(problems)
    row = AutoNotification(auto_id=auto.id, addressee=draft.addressee, form=form.value, sent_on=draft.sent_on,
                           proof_joined_on=draft.proof_joined_on, proof_document_id=doc_id,
                           note=(draft.note or "").strip() or None, recorded_by=actor.user_id,
                           judgment_id=judgment.id if judgment is not None else None, platform_id=platform_id)
    session.add(row)
    session.flush()
    audit.record(session, actor, "auto.notification", "auto", auto.id, None, {
        "notification_id": row.id, "addressee": row.addressee, "form": row.form, "sent_on": row.sent_on,
        "proof_joined_on": row.proof_joined_on, "proof_document_id": doc_id, "judgment_id": row.judgment_id,
        "platform_id": platform_id})
    if draft.proof_joined_on is not None:
        _joined(session, actor, auto, row, draft.proof_joined_on)
    session.flush()
    return auto_info_in(session, auto, actor)


def _joined(session, actor, auto, row, joined_on: date) -> None:
    """A proof joined: of the auto's notice (the defense term starts, Art. 22 §2) or of a decision's notice (the
    appeal term starts, issue 24 item 3). A platform's copy starts no term of the driver's."""
    if not notice_starts_term(row.addressee, row.platform_id, auto.infractor_platform_id):
        return  # Art. 22 caput (issue 24 item 4): the copy informs the driver's platform
    if row.judgment_id is not None:
        _mark_decision_notified(session, actor, auto, session.get(AutoJudgment, row.judgment_id), joined_on)
    else:
        _mark_notified(session, actor, auto, joined_on)


def record_notification(db, actor, auto_id: int, draft: NotificationDraft, expected_version: int) -> AutoInfo:
    """Record one notification attempt (Art. 22, §1, I-VI) with its proof. When the proof is joined, the auto is
    notified and the defense term runs from that day (§2)."""
    require_role(actor, *NOTIFIER_ROLES)
    with db.session() as s:
        return record_notification_in(s, actor, auto_id, draft, expected_version)


def join_proof_in(session, actor, notification_id: int, joined_on: date, expected_version: int,
                  proof_document_id: int | None = None, proof: Attachment | None = None) -> AutoInfo:
    """`join_proof` inside the caller's transaction."""
    require_role(actor, *step_roles("join_proof"))
    problems: list[Problem] = []
    _not_future(problems, "proof_joined_on", joined_on, "da juntada da prova")
    row = session.get(AutoNotification, notification_id)
    if row is None:
        raise NotFound("Notificação não encontrada.")
    auto = load_auto(session, row.auto_id, lock=True)
    check_version(auto, expected_version)
    if row.proof_joined_on is not None:
        raise ConflictError(f"A prova desta notificação já foi juntada em {row.proof_joined_on:%d/%m/%Y}.")
    require_step(auto, "join_proof")  # Art. 22, §2
    if isinstance(joined_on, date) and joined_on < row.sent_on:
        problems.append(Problem("proof_joined_on", "A prova não pode ser juntada antes do envio.",
                                "Art. 22, §2"))
    doc_id = _proof_document(session, actor, auto, proof_document_id, proof, problems, "notification_proof")
    if problems:
        raise ValidationError(problems)
    row.proof_joined_on = joined_on
    if doc_id is not None:
        row.proof_document_id = doc_id
    session.flush()
    audit.record(session, actor, "auto.notification_proof", "auto", auto.id, None,
                 {"notification_id": row.id, "proof_joined_on": joined_on, "proof_document_id": doc_id})
    _joined(session, actor, auto, row, joined_on)
    session.flush()
    return auto_info_in(session, auto, actor)


def join_proof(db, actor, notification_id: int, joined_on: date, expected_version: int,
               proof_document_id: int | None = None, proof: Attachment | None = None) -> AutoInfo:
    """Join the proof of an attempt recorded earlier (Art. 22, §2). `expected_version` is the auto's."""
    require_role(actor, *NOTIFIER_ROLES)
    with db.session() as s:
        return join_proof_in(s, actor, notification_id, joined_on, expected_version, proof_document_id, proof)


# ---------------------------------------------------------------------------------------------------------
# Defense and appeal
# ---------------------------------------------------------------------------------------------------------

def _file_in(session, actor, auto_id, kind: str, filed_on: date, summary: str, expected_version: int,
             document_id: int | None, attachment: Attachment | None) -> AutoInfo:
    """A defense (`kind` "defense") or an appeal ("appeal"): the step of the same key of the auto's table."""
    require_role(actor, *step_roles(kind))
    label = INSTANCE_LABELS[kind].lower()
    problems: list[Problem] = []
    _not_future(problems, "filed_on", filed_on, f"de protocolo da {label}" if kind == "defense"
                else "de protocolo do recurso")
    if not (summary or "").strip():
        problems.append(Problem("summary", "Resuma os argumentos apresentados.", "Art. 22"))
    auto = load_auto(session, auto_id, lock=True)
    check_version(auto, expected_version)
    require_step(auto, kind)  # Art. 22: a defense on a notified auto, an appeal on a judged one
    new_status = auto_transition(auto, AutoStatus.IN_DEFENSE if kind == "defense" else AutoStatus.IN_APPEAL)
    limit = auto.defense_deadline if kind == "defense" else auto.appeal_deadline
    if isinstance(filed_on, date) and limit is not None and filed_on > limit:
        problems.append(Problem("filed_on", f"Fora do prazo: o prazo terminou em {limit:%d/%m/%Y}.",
                                "Art. 22, §2"))
    if isinstance(filed_on, date) and filed_on < auto.drawn_up_at.date():
        problems.append(Problem("filed_on", "O protocolo não pode ser anterior à lavratura do auto."))
    doc_id = _proof_document(session, actor, auto, document_id, attachment, problems, kind)
    if problems:
        raise ValidationError(problems)
    row = AutoDefense(auto_id=auto.id, kind=kind, filed_on=filed_on, summary=summary.strip(),
                      document_id=doc_id, recorded_by=actor.user_id)
    session.add(row)
    before = auto.status
    auto.status = new_status.value
    session.flush()
    audit.record(session, actor, f"auto.{kind}", "auto", auto.id, {"status": before},
                 {"status": auto.status, "defense_id": row.id, "filed_on": filed_on, "document_id": doc_id})
    return auto_info_in(session, auto, actor)


def file_defense_in(session, actor, auto_id: int, filed_on: date, summary: str, expected_version: int,
                    document_id: int | None = None, attachment: Attachment | None = None) -> AutoInfo:
    """`file_defense` inside the caller's transaction."""
    return _file_in(session, actor, auto_id, "defense", filed_on, summary, expected_version, document_id,
                    attachment)


def file_defense(db, actor, auto_id: int, filed_on: date, summary: str, expected_version: int,
                 document_id: int | None = None, attachment: Attachment | None = None) -> AutoInfo:
    """Receive a defesa prévia (Art. 22) within the defense term: `notified` → `in_defense`."""
    require_role(actor, *step_roles("defense"))
    with db.session() as s:
        return file_defense_in(s, actor, auto_id, filed_on, summary, expected_version, document_id, attachment)


def file_appeal_in(session, actor, auto_id: int, filed_on: date, summary: str, expected_version: int,
                   document_id: int | None = None, attachment: Attachment | None = None) -> AutoInfo:
    """`file_appeal` inside the caller's transaction."""
    return _file_in(session, actor, auto_id, "appeal", filed_on, summary, expected_version, document_id,
                    attachment)


def file_appeal(db, actor, auto_id: int, filed_on: date, summary: str, expected_version: int,
                document_id: int | None = None, attachment: Attachment | None = None) -> AutoInfo:
    """Receive a recurso (Art. 22) within the appeal term: `judged` → `in_appeal`."""
    require_role(actor, *step_roles("appeal"))
    with db.session() as s:
        return file_appeal_in(s, actor, auto_id, filed_on, summary, expected_version, document_id, attachment)


# ---------------------------------------------------------------------------------------------------------
# Judgment and finality
# ---------------------------------------------------------------------------------------------------------

def make_final_in(session, actor, auto, on: date) -> None:
    """The decision is final on `on`: payment term starts, penalties take effect on that day (never on a payment,
    issue 12 item 3), an auto already paid in full (a payment made before) is paid."""
    before = {"status": auto.status}
    auto.status = auto_transition(auto, AutoStatus.FINAL).value
    auto.final_on = on
    auto.payment_deadline = _term(session, "term.payment_days", on)
    session.flush()
    audit.record(session, actor, "auto.final", "auto", auto.id, before,
                 {"status": auto.status, "final_on": on, "payment_deadline": auto.payment_deadline})
    apply_final_penalties(session, actor, auto, on)
    if auto_balance_in(session, auto.id)[1] <= 0:
        settle_auto(session, actor, auto, on)


def _record_decision(auto, code: str, chosen: tuple[PenaltyOption, ...], decided_on: date, judgment=None,
                     actor=None) -> None:
    """Keep the decision beside the proposal: the code in force and the penalties it applies, each with its
    article, the decision's number and who decided (read by penalties.apply_final_penalties when the decision is
    final: the authorization's events carry the gestor and the act, never the routine — issue 24 item 1)."""
    data = dict(auto.assessment or {})
    data["decision"] = {"code": code, "penalties": [o.to_dict() for o in chosen],
                        "decided_on": decided_on.isoformat(),
                        "number": judgment.number if judgment is not None else None,
                        "judgment_id": judgment.id if judgment is not None else None,
                        "by": actor.user_id if actor is not None else None}
    auto.assessment = data


def _post_requalification(session, actor, auto, old_code: str, new_entry, on: date, reasoning: str) -> None:
    """Art. 25: the fine of the new code applies; the difference is a `requalification` entry naming the new code
    (the auto row keeps the code and the amounts it was drawn up with: the fine in force is summed from the
    ledger, core.fine_in)."""
    current_upfm, current_reais = fine_in(session, auto)
    new_upfm = Decimal(new_entry.upfm)
    if new_upfm == current_upfm:
        return
    post(session, actor, kind=EntryKind.REQUALIFICATION, infractor=debtor_of(auto),
         amount_upfm=new_upfm - current_upfm, upfm_value=auto.upfm_value,
         amount_reais=fine_in_reais(new_upfm, auto.upfm_value) - current_reais, effective_on=on, auto_id=auto.id,
         reason=(f"Auto {auto.number} mantido em parte: requalificado de {old_code} para {new_entry.code} "
                 f"({new_entry.article}; {new_entry.severity.label}, {new_entry.upfm} UPFM, "
                 f"{new_entry.severity.article}) — {reasoning}"))


def _decision_problems(session, auto, outcome, draft: JudgmentDraft, problems: list[Problem]):
    """Check the requalification and the penalties of a decision (issue 12 items 1-2). Returns (code in force
    now, code of the decision, its catalogue entry, the penalties chosen) — the last three None when refused."""
    on = auto.drawn_up_at.astimezone(TIMEZONE).date()
    catalog = catalog_entries_in(session)
    code_now = code_in_force_in(session, auto)
    entry_now = lookup(code_now, catalog, on)
    new_code = normalize_code(draft.requalified_code) if (draft.requalified_code or "").strip() else None
    if outcome is Outcome.ANNULLED:
        return code_now, None, None, ()
    if new_code and outcome is not Outcome.PARTLY_UPHELD:
        problems.append(Problem("requalified_code", "A requalificação só cabe na decisão «mantido em parte».",
                                "Art. 25"))
        return code_now, None, None, ()
    entry = entry_now
    if new_code:
        try:
            entry = lookup(new_code, catalog, on)
        except UnknownInfractionCode:
            problems.append(Problem("requalified_code", f"Código de infração desconhecido: {new_code}.",
                                    "Art. 26"))
            return code_now, None, None, ()
        found = requalification_problems(entry_now, entry, on, fine_in(session, auto)[0])
        found += requalified_art13_item_problems(entry, auto.art13_item, draft.art13_item)
        if found:
            problems.extend(found)
            return code_now, None, None, ()
    options = decision_options_in(session, auto, entry.code)
    by_kind = {o.penalty: o for o in options}
    wanted = {str(p) for p in draft.penalties} if draft.penalties is not None else set(by_kind)
    refused = penalty_choice_problems(wanted, options, entry.code)
    if refused:
        problems.extend(refused)
        return code_now, None, None, ()
    if outcome is Outcome.UPHELD and wanted != set(by_kind):
        problems.append(Problem("penalties", "O auto mantido aplica todas as penalidades que o código nomeia; para "
                                "afastar uma penalidade, escolha «mantido em parte».", "Art. 24, I"))
    if outcome is Outcome.PARTLY_UPHELD:
        before = {o.penalty for o in decision_options_in(session, auto, entry_now.code)}
        if not new_code and wanted == set(by_kind):
            problems.append(Problem("requalified_code", "Mantido em parte: requalifique a infração para outro "
                                    "código do catálogo e/ou afaste uma penalidade que a decisão não mantém.",
                                    "Art. 25"))
        for penalty in sorted(wanted - before):
            problems.append(Problem("penalties", f"«{by_kind[penalty].label}» não era aplicável ao código "
                                    f"{entry_now.code}: o auto mantido em parte não agrava a penalidade.",
                                    "Art. 24, I"))
    chosen = tuple(o for o in options if o.penalty in wanted)
    return code_now, entry.code, entry, chosen


def judge_in(session, actor, auto_id: int, draft: JudgmentDraft, expected_version: int) -> AutoInfo:
    """`judge` inside the caller's transaction."""
    require_role(actor, *step_roles("judge"))
    problems: list[Problem] = []
    try:
        outcome = Outcome(draft.outcome)
    except ValueError:
        outcome = None
        problems.append(Problem("outcome", "Escolha o resultado do julgamento."))
    _not_future(problems, "decided_on", draft.decided_on, "da decisão")
    if not (draft.reasoning or "").strip():
        problems.append(Problem("reasoning", "Escreva a fundamentação da decisão.", "Art. 22"))
    auto = load_auto(session, auto_id, lock=True)
    check_version(auto, expected_version)
    status = AutoStatus(auto.status)
    appeal = status is AutoStatus.IN_APPEAL
    require_step(auto, "judge_appeal" if appeal else "judge")  # Art. 22: a defense or an appeal to judge
    if status is AutoStatus.NOTIFIED and isinstance(draft.decided_on, date) and auto.defense_deadline \
            and draft.decided_on <= auto.defense_deadline:
        problems.append(Problem("decided_on", "O prazo de defesa prévia ainda corre até "
                                f"{auto.defense_deadline:%d/%m/%Y}: julgue depois dele.", "Art. 22"))
    kind = "appeal" if appeal else "defense"
    filed = [d for d in auto.defenses if d.kind == kind]
    last = filed[-1] if filed else None
    if last is not None and isinstance(draft.decided_on, date) and draft.decided_on < last.filed_on:
        problems.append(Problem("decided_on", "A decisão não pode ser anterior ao protocolo "
                                f"({last.filed_on:%d/%m/%Y})."))
    current_upfm = fine_in(session, auto)[0]
    code_now, code, entry, chosen = (_decision_problems(session, auto, outcome, draft, problems)
                                     if outcome is not None else (auto.code, None, None, ()))
    if problems:
        raise ValidationError(problems)
    if outcome is Outcome.ANNULLED:
        target = AutoStatus.ANNULLED
    else:
        target = AutoStatus.FINAL if appeal else AutoStatus.JUDGED
    auto_transition(auto, target)  # refuse before writing anything
    reasoning = draft.reasoning.strip()
    requalified = code if outcome is Outcome.PARTLY_UPHELD and code != code_now else None
    row = AutoJudgment(auto_id=auto.id, defense_id=last.id if last else None, instance=kind,
                       decided_on=draft.decided_on, decided_by=actor.user_id, outcome=outcome.value,
                       reduced_upfm=(Decimal(entry.upfm) if outcome is Outcome.PARTLY_UPHELD else None),
                       requalified_code=requalified, reasoning=reasoning,
                       number=next_number(session, "decision", draft.decided_on.year))
    session.add(row)
    session.flush()
    before = {"status": auto.status, "amount_upfm": current_upfm, "code": code_now}
    if outcome is Outcome.ANNULLED:
        auto.status = auto_transition(auto, AutoStatus.ANNULLED).value
        session.flush()
        why = f"Auto {auto.number} anulado ({INSTANCE_LABELS[kind].lower()}): {reasoning}"
        reverse_auto_entries(session, actor, auto, draft.decided_on, why)  # a payment made before: refund
        lift_penalties_in(session, actor, auto, draft.decided_on, why)
    else:
        if requalified:
            _post_requalification(session, actor, auto, code_now, entry, draft.decided_on, reasoning)
            refund_surplus_in(session, actor, auto, draft.decided_on,
                              f"multa requalificada de {code_now} para {requalified} após pagamento")
        _record_decision(auto, code, chosen, draft.decided_on, row, actor)
        if requalified and not auto.art13_item and (draft.art13_item or "").strip() and entry.needs_art13_item:
            auto.assessment = {**auto.assessment, "decision": {**auto.assessment["decision"],
                                                               "art13_item": draft.art13_item.strip().upper()}}
        if appeal:
            session.flush()
            make_final_in(session, actor, auto, draft.decided_on)
        else:
            # Art. 22, §2 (issue 24 item 3): the appeal term does not run from the decision's date but from the
            # joining of the proof that it was notified (`notify_decision`, then `join_proof`).
            auto.status = auto_transition(auto, AutoStatus.JUDGED).value
            auto.appeal_deadline = None
    session.flush()
    audit.record(session, actor, "auto.judge", "auto", auto.id, before, {
        "status": auto.status, "judgment_id": row.id, "number": row.number, "instance": kind,
        "outcome": outcome.value,
        "requalified_code": requalified, "amount_upfm": fine_in(session, auto)[0],
        "penalties": [o.to_dict() for o in chosen], "appeal_deadline": auto.appeal_deadline,
        "reasoning": reasoning})
    return auto_info_in(session, auto, actor)


def judge(db, actor, auto_id: int, draft: JudgmentDraft, expected_version: int) -> AutoInfo:
    """A gestor's decision (Art. 22). First instance (defense, or no defense once its term passed): upheld or
    partly upheld → `judged` and the appeal term runs; annulled → `annulled`. Appeal: upheld or partly upheld →
    `final` that day; annulled → `annulled`. A partial decision requalifies to another catalogue code (its Art. 25
    amount applies: a `requalification` entry) and/or leaves out a penalty; an annulment reverses the auto's
    entries. What was paid before above what is then owed becomes a `refund` entry (issue 12 items 1-3)."""
    require_role(actor, *step_roles("judge"))
    with db.session() as s:
        return judge_in(s, actor, auto_id, draft, expected_version)


@dataclass(frozen=True, slots=True)
class RequalificationTarget:
    """A catalogue code a partial decision may requalify the auto to, with its Art. 25 amount."""

    code: str
    article: str
    description: str
    severity_label: str
    upfm: int
    amount_reais: Decimal
    needs_art13_item: bool = False   # Art. 26, III: the decision names the inciso of Art. 13 (issue 24 item 7)

    @property
    def text(self) -> str:
        return f"{self.code} — {self.article} ({self.severity_label}, {self.upfm} UPFM): {self.description}"


def requalification_targets_in(session, actor, auto_id: int) -> tuple[RequalificationTarget, ...]:
    """`requalification_targets` inside the caller's session."""
    require_role(actor, *READER_ROLES)
    auto = load_auto(session, auto_id)
    on = auto.drawn_up_at.astimezone(TIMEZONE).date()
    catalog = catalog_entries_in(session)
    current = lookup(code_in_force_in(session, auto), catalog, on)
    fine = fine_in(session, auto)[0]
    targets = []
    for code in sorted(set(CATALOG) | set(catalog)):
        entry = lookup(code, catalog, on)
        if not requalification_problems(current, entry, on, fine):
            targets.append(RequalificationTarget(entry.code, entry.article, entry.description, entry.severity.label,
                                                 entry.upfm, fine_in_reais(entry.upfm, auto.upfm_value),
                                                 entry.needs_art13_item and not auto.art13_item))
    return tuple(sorted(targets, key=lambda t: (-t.upfm, t.code)))


def requalification_targets(db, actor, auto_id: int) -> tuple[RequalificationTarget, ...]:
    """The codes a partial decision may requalify the auto to (issue 12 item 1): in force on the infraction's date,
    other than the code in force, whose Art. 25 amount is not above the fine in force — for the dialog's picker."""
    require_role(actor, *READER_ROLES)
    with db.session(write=False) as s:
        return requalification_targets_in(s, actor, auto_id)


def decision_choices_in(session, actor, auto_id: int, code: str | None = None) -> tuple[PenaltyOption, ...]:
    """`decision_choices` inside the caller's session."""
    require_role(actor, *READER_ROLES)
    auto = load_auto(session, auto_id)
    try:
        return decision_options_in(session, auto, normalize_code(code) if code else code_in_force_in(session, auto))
    except UnknownInfractionCode:
        return ()


def decision_choices(db, actor, auto_id: int, code: str | None = None) -> tuple[PenaltyOption, ...]:
    """The penalties a decision on the auto may apply under `code` (default: the code in force), each with its
    article — the judgment dialog shows only these (issue 12 item 2)."""
    require_role(actor, *READER_ROLES)
    with db.session(write=False) as s:
        return decision_choices_in(s, actor, auto_id, code)


def record_waiver_in(session, actor, auto_id: int, draft: WaiverDraft, expected_version: int) -> AutoInfo:
    """`record_waiver` inside the caller's transaction."""
    require_role(actor, *step_roles("waiver"))
    problems: list[Problem] = []
    _not_future(problems, "filed_on", draft.filed_on, "de protocolo da desistência")
    auto = load_auto(session, auto_id, lock=True)
    check_version(auto, expected_version)
    require_step(auto, "waiver")  # Art. 22: a defense or an appeal that can still be filed or judged
    if isinstance(draft.filed_on, date) and draft.filed_on < auto.drawn_up_at.date():
        problems.append(Problem("filed_on", "A desistência não pode ser anterior à lavratura do auto."))
    if draft.attachment is None and draft.document_id is None:
        problems.append(Problem("attachment", "Anexe a desistência escrita, assinada pelo infrator.", "Art. 22"))
    doc_id = _proof_document(session, actor, auto, draft.document_id, draft.attachment, problems, "waiver")
    if problems:
        raise ValidationError(problems)
    status = AutoStatus(auto.status)
    instance = "defense" if status in (AutoStatus.NOTIFIED, AutoStatus.IN_DEFENSE) else "appeal"
    row = AutoWaiver(auto_id=auto.id, instance=instance, filed_on=draft.filed_on,
                     statement=(draft.statement or "").strip(), document_id=doc_id, recorded_by=actor.user_id)
    session.add(row)
    session.flush()
    audit.record(session, actor, "auto.waiver", "auto", auto.id, {"status": auto.status},
                 {"waiver_id": row.id, "instance": instance, "filed_on": draft.filed_on, "document_id": doc_id})
    make_final_in(session, actor, auto, draft.filed_on)
    session.flush()
    return auto_info_in(session, auto, actor)


def record_waiver(db, actor, auto_id: int, draft: WaiverDraft, expected_version: int) -> AutoInfo:
    """The infractor's written waiver (desistência) of the defense or the appeal, with its document: the
    decision becomes final that day and its penalties take effect (Art. 22; issue 12 item 3)."""
    require_role(actor, *step_roles("waiver"))
    with db.session() as s:
        return record_waiver_in(s, actor, auto_id, draft, expected_version)


def finalize_auto_in(session, actor, auto, on: date) -> None:
    """`notified` whose defense term passed, or `judged` whose appeal term passed → `final` on `on`."""
    require_step(auto, "finalize")  # Art. 22: the term of a notified (defense) or judged (appeal) auto
    if AutoStatus(auto.status) is AutoStatus.NOTIFIED:
        limit, what = auto.defense_deadline, "de defesa prévia"
    else:
        limit, what = auto.appeal_deadline, "de recurso"
        if limit is None:  # Art. 22, §2 (issue 24 item 3): no appeal term before the decision's notice is joined
            raise ValidationError([Problem("on", "A decisão ainda não foi notificada: o prazo de recurso corre da "
                                           "juntada da prova da notificação.", "Art. 22, §2")])
    if limit is not None and on <= limit:
        raise ValidationError([Problem("on", f"O prazo {what} corre até {limit:%d/%m/%Y}.", "Art. 22")])
    make_final_in(session, actor, auto, on)


def finalize_in(session, actor, auto_id: int, on: date, expected_version: int) -> AutoInfo:
    """`finalize` inside the caller's transaction."""
    require_role(actor, *step_roles("finalize"))
    problems: list[Problem] = []
    if not _not_future(problems, "on", on, "da decisão definitiva"):
        raise ValidationError(problems)
    auto = load_auto(session, auto_id, lock=True)
    check_version(auto, expected_version)
    finalize_auto_in(session, actor, auto, on)
    session.flush()
    return auto_info_in(session, auto, actor)


def finalize(db, actor, auto_id: int, on: date, expected_version: int) -> AutoInfo:
    """Declare the decision final once its term passed without defense or appeal (the job does it by itself)."""
    require_role(actor, *step_roles("finalize"))
    with db.session() as s:
        return finalize_in(s, actor, auto_id, on, expected_version)


def annul_auto_in(session, actor, auto_id: int, reason: str, expected_version: int,
                  on: date | None = None) -> AutoInfo:
    """`annul_auto` inside the caller's transaction."""
    require_role(actor, *step_roles("annul"))
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError([Problem("reason", "Informe o motivo da anulação.", "Art. 17")])
    on = on or local_today()
    auto = load_auto(session, auto_id, lock=True)
    check_version(auto, expected_version)
    require_step(auto, "annul")  # Art. 17: only a final, unpaid auto; before that, judge or cancel it
    before = {"status": auto.status}
    auto.status = auto_transition(auto, AutoStatus.ANNULLED).value
    session.add(AutoJudgment(auto_id=auto.id, instance="ex_officio", decided_on=on, decided_by=actor.user_id,
                             outcome=Outcome.ANNULLED.value, reasoning=reason,
                             number=next_number(session, "decision", on.year)))
    session.flush()
    reverse_auto_entries(session, actor, auto, on, f"Auto {auto.number} anulado de ofício: {reason}")
    lift_penalties_in(session, actor, auto, on, f"Auto {auto.number} anulado de ofício: {reason}")
    audit.record(session, actor, "auto.annul", "auto", auto.id, before, {"status": auto.status, "reason": reason})
    return auto_info_in(session, auto, actor)


def annul_auto(db, actor, auto_id: int, reason: str, expected_version: int, on: date | None = None) -> AutoInfo:
    """Annul a final auto de ofício (Art. 17): its entries are reversed and the suspensions it caused end."""
    require_role(actor, *step_roles("annul"))
    with db.session() as s:
        return annul_auto_in(s, actor, auto_id, reason, expected_version, on)


# ---------------------------------------------------------------------------------------------------------
# The authority's decision on penalties (Art. 26, §2; Art. 24, I; issue 24 item 1)
# ---------------------------------------------------------------------------------------------------------

def decide_penalties_in(session, actor, auto_id: int, draft: PenaltyDecisionDraft, expected_version: int) -> AutoInfo:
    """`decide_penalties` inside the caller's transaction."""
    require_role(actor, *step_roles("decide_penalties"))
    problems: list[Problem] = []
    _not_future(problems, "decided_on", draft.decided_on, "da decisão")
    if not (draft.reasoning or "").strip():
        problems.append(Problem("reasoning", "Escreva a fundamentação da decisão.", "Art. 26, §2"))
    auto = load_auto(session, auto_id, lock=True)
    check_version(auto, expected_version)
    options = pending_penalty_options_in(session, auto)
    require_step(auto, "decide_penalties",
                 _replace(auto_facts_in(session, auto), penalty_decision_pending=bool(options)))
    if isinstance(draft.decided_on, date) and auto.final_on is not None and draft.decided_on < auto.final_on:
        problems.append(Problem("decided_on", "A decisão não pode ser anterior ao dia em que o auto se tornou "
                                f"definitivo ({auto.final_on:%d/%m/%Y}).", "Art. 22"))
    code = code_in_force_in(session, auto)
    by_kind = {o.penalty: o for o in options}
    wanted = {str(p) for p in draft.penalties} if draft.penalties is not None else set(by_kind)
    problems.extend(penalty_choice_problems(wanted, options, code))
    if problems:
        raise ValidationError(problems)
    reasoning = draft.reasoning.strip()
    row = AutoJudgment(auto_id=auto.id, instance="penalty", decided_on=draft.decided_on, decided_by=actor.user_id,
                       outcome=Outcome.UPHELD.value, reasoning=reasoning,
                       number=next_number(session, "decision", draft.decided_on.year))
    session.add(row)
    session.flush()
    chosen = tuple(o for o in options if o.penalty in wanted)
    _record_decision(auto, code, chosen, draft.decided_on, row, actor)
    session.flush()
    audit.record(session, actor, "auto.penalty_decision", "auto", auto.id, None, {
        "judgment_id": row.id, "number": row.number, "decided_on": draft.decided_on, "reasoning": reasoning,
        "penalties": [o.to_dict() for o in chosen], "proposed": [o.to_dict() for o in options]})
    # the decision takes effect on its date: the auto is already final (Art. 22), the authority decided
    apply_final_penalties(session, actor, auto, draft.decided_on)
    session.flush()
    return auto_info_in(session, auto, actor)


def decide_penalties(db, actor, auto_id: int, draft: PenaltyDecisionDraft, expected_version: int) -> AutoInfo:
    """The gestor's decision on the penalties other than the fine that an auto final without a judgment proposed
    (issue 24 item 1). Art. 26, §2: "será cassada pela autoridade administrativa"; SPEC §3: such a penalty "exists
    only through a decision of the authority (a gestor), even when the auto became final without defense: the
    daily routine lists such cases for decision and never applies them itself". The decision is an act of its
    own — número (series "decision", NNNN/AAAA), data, fundamentação — that takes effect on its date, is printed
    (the penalty notice, documents.print_notice "penalty") and notified (`notify_decision`, then `join_proof`)."""
    require_role(actor, *step_roles("decide_penalties"))
    with db.session() as s:
        return decide_penalties_in(s, actor, auto_id, draft, expected_version)
