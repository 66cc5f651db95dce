"""Certidão / extrato do processo of an auto (issue 28 point 1): the case's present state as a separate act, which
says it is an extract and names the archived original of the auto (Art. 19), never redrawn. It reads the auto as
the screens do (`get_auto_in`, labels included) and is issued through the documents' archive; it lives with the
autos, not in services.documents, because the documents are below the autos in the rooms' order."""
from __future__ import annotations

from sqlalchemy import select

from desktop.domain.formatting import format_date, format_money, format_upfm
from desktop.models import IssuedDocument
from desktop.reports import auto as auto_report
from desktop.reports import process_extract, records
from desktop.reports.common import TZ, now, signer_of
from desktop.services.actors import Actor
from desktop.services.autos.queries import get_auto_in
from desktop.services.documents.archive import ISSUE_ROLES, Issued, RecordRef, issue_rendered
from desktop.services.permissions import require_role

__all__ = ["print_process_extract"]
def _extract_context(s, actor: Actor, number: str, meta) -> tuple[RecordRef, process_extract.ExtractContext]:
    auto_row = auto_report.auto_row(s, number)
    ref = RecordRef("auto", auto_row.id)
    detail = get_auto_in(s, actor, auto_row.id)
    a = detail.auto
    original = s.execute(select(IssuedDocument.number, IssuedDocument.issued_at)
                         .where(IssuedDocument.kind == "auto", IssuedDocument.record_type == "auto",
                                IssuedDocument.record_id == a.id).order_by(IssuedDocument.id).limit(1)).first()
    original_text = (f"documento nº {original.number}, emitido em "
                     f"{original.issued_at.astimezone(TZ).strftime('%d/%m/%Y às %H:%M')} e arquivado"
                     if original is not None else "auto lavrado no sistema, ainda não impresso")
    who = a.driver_name or a.platform_name
    facts = [("Data e hora da infração", a.drawn_up_at.astimezone(TZ).strftime("%d/%m/%Y às %H:%M")),
             ("Lavrado em", (a.lavrado_at or a.drawn_up_at).astimezone(TZ).strftime("%d/%m/%Y às %H:%M")),
             ("Local", a.place), ("Infrator", who or "—"),
             ("Infração (como lavrada)", f"{a.original_code or a.code} — {a.article}")]
    if a.requalified:
        facts.append(("Código em vigor", f"{a.code} (requalificado por decisão)"))
    if a.plate:
        facts.append(("Veículo", a.plate))
    situation = [("Situação", a.status_label),
                 ("Multa", f"{format_upfm(a.amount_upfm)} = {format_money(a.amount_reais)}"),
                 ("Saldo devedor", f"{format_upfm(a.balance_upfm)} = {format_money(a.balance_reais)}")]
    for label, day in (("Prova da notificação juntada em", a.notice_joined_on),
                       ("Prazo de defesa até", a.defense_deadline), ("Prazo de recurso até", a.appeal_deadline),
                       ("Prazo de pagamento até", a.payment_deadline), ("Decisão definitiva em", a.final_on)):
        if day is not None:
            situation.append((label, format_date(day)))
    if a.cancel_reason:
        situation.append(("Motivo do cancelamento ou anulação", a.cancel_reason))
    notifications = tuple(
        f"{n.form_label} ({n.article}) ao {'condutor' if n.addressee == 'driver' else n.addressee}, enviada em "
        f"{format_date(n.sent_on)}; " + (f"prova juntada em {format_date(n.proof_joined_on)}"
                                         if n.proof_joined_on else "prova ainda não juntada")
        for n in detail.notifications)
    defenses = tuple(f"{d.kind_label} protocolada em {format_date(d.filed_on)}"
                     + ("" if d.timely else " (fora do prazo)") for d in detail.defenses)
    decisions = tuple(f"{j.instance_label}: {j.outcome_label} em {format_date(j.decided_on)}"
                      + (f", decisão nº {j.number}" if j.number else "") + f" — {j.decided_by_name}"
                      for j in detail.judgments)
    penalties = tuple(f"{p.label} ({p.article}), desde {format_date(p.effective_on)}"
                      + (f" até {format_date(p.ends_on)}" if p.ends_on else "")
                      + (f"; levantada em {format_date(p.lifted_on)}" if p.lifted_on else "")
                      for p in detail.penalties)
    ctx = process_extract.ExtractContext(records.header(s), meta, a.number, now(), original_text, tuple(facts),
                                         tuple(situation), notifications, defenses, decisions, penalties,
                                         signer_of(s, actor, records.settings_row(s).secretariat))
    return ref, ctx


def print_process_extract(db, actor: Actor, auto_number: str, state=None) -> Issued:
    """Certidão / extrato do processo of an auto (issue 28 point 1): the case's present state, saying it is an
    extract and naming the archived original of the auto, which is never redrawn."""
    require_role(actor, *ISSUE_ROLES["process_extract"])
    return issue_rendered(db, actor, "process_extract",
                          lambda s, meta: _extract_context(s, actor, auto_number, meta),
                          process_extract.render, state=state)
