"""`python -m desktop export guides --out FILE` (issue 23, pinned): every payment guide (DAM) with what it is for,
who pays it, its dates, its situation read from its debt, the guide it replaces and the one that replaced it.
The headers are a contract with the office's spreadsheets (add columns at the END only). Written as every list
(`services.exports`: CSV for Brazilian Excel or a streaming XLSX), the file written after the read, the audit entry
in a short write of its own (LGPD: the file carries CPFs)."""
from __future__ import annotations

import os
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import aliased

from desktop.domain.clock import today
from desktop.domain.finance import GuideStatus
from desktop.domain.formatting import format_document, local_datetime
from desktop.domain.guides import guide_overdue
from desktop.domain.roles import GUIDE_ROLES
from desktop.models import Auto, Authorization, Fee, IssqnShare, PaymentGuide
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.exports import ExportResult, export_target, write_audited
from desktop.services.guide_debts import payment_returned_in

__all__ = ["GUIDE_HEADERS", "export_guides", "guide_export_rows"]

GUIDE_HEADERS = ("Guia", "Tipo", "Referência", "Contribuinte", "CPF/CNPJ", "Valor (R$)", "Emitida em", "Vencimento",
                 "Situação", "Substitui", "Substituída por", "Pago em")
EXPORT_ROLES = GUIDE_ROLES.export
TYPE_LABELS = {"fee": "Taxa", "fine": "Multa", "issqn": "ISSQN", "cost": "Custas (Art. 28)"}
FEE_LABELS = {"authorization": "Taxa de autorização", "renewal": "Taxa de renovação",
              "inspection": "Taxa de vistoria", "other": "Taxa"}


def _situation(status: str, due_on: date, on: date, returned: bool) -> str:
    if returned:
        return "Pagamento devolvido"
    if status == GuideStatus.OPEN.value and guide_overdue(due_on, on):
        return "Vencida"
    return GuideStatus(status).label


def guide_export_rows(s, on: date):
    G, Old, New = PaymentGuide, aliased(PaymentGuide), aliased(PaymentGuide)
    competences: dict[int, set[str]] = {}
    for guide_id, y, m in s.execute(select(IssqnShare.guide_id, IssqnShare.year, IssqnShare.month)
                                    .where(IssqnShare.guide_id.is_not(None)).distinct()):
        competences.setdefault(guide_id, set()).add(f"{m:02d}/{y}")
    stmt = (select(G.id, G.number, G.purpose, G.payer_name, G.payer_document, G.amount_reais, G.created_at,
                   G.due_on, G.status, G.paid_on, G.driver_id, Old.number.label("replaces"),
                   New.number.label("replaced_by"), Auto.number.label("auto"), Auto.code, Fee.kind,
                   Authorization.number.label("authorization"))
            .outerjoin(Old, Old.id == G.replaces_id).outerjoin(New, New.replaces_id == G.id)
            .outerjoin(Auto, Auto.id == G.auto_id).outerjoin(Fee, Fee.id == G.fee_id)
            .outerjoin(Authorization, Authorization.id == Fee.authorization_id)
            .order_by(G.id))
    for r in s.execute(stmt, execution_options={"yield_per": 2000}):
        if r.auto:
            reference = f"Auto de infração nº {r.auto} ({r.code}) – Art. 25"
        elif r.kind:
            reference = FEE_LABELS.get(r.kind, "Taxa") + (f" – autorização nº {r.authorization}"
                                                          if r.authorization else "") + " – Art. 10"
        elif r.purpose == "issqn":
            months = ", ".join(sorted(competences.get(r.id, ()), key=lambda t: (t[3:], t[:2])))
            who = "condutor substituto" if r.driver_id else "plataforma"
            reference = f"ISSQN competência {months or '—'} – {who} – Art. 11"
        else:
            reference = TYPE_LABELS.get(r.purpose, r.purpose)
        if r.replaces:
            reference += f" – substitui a guia nº {r.replaces}"
        issued = local_datetime(r.created_at).date() if isinstance(r.created_at, datetime) else None
        returned = r.status == GuideStatus.PAID.value and payment_returned_in(s, r.number)
        yield [r.number, TYPE_LABELS.get(r.purpose, r.purpose), reference, r.payer_name,
               format_document(r.payer_document or ""), r.amount_reais, issued, r.due_on,
               _situation(r.status, r.due_on, on, returned), r.replaces or "", r.replaced_by or "", r.paid_on]


def export_guides(db, actor: Actor, path: str | os.PathLike) -> ExportResult:
    """Write every guide to `path` (.csv or .xlsx by its extension) through the one exports writer: the session
    checked first, formulas as text, the file in place only after its audit entry is committed (issue 25)."""
    require_role(actor, *EXPORT_ROLES)
    out = export_target(path)
    with db.session(write=False) as s:
        rows = list(guide_export_rows(s, today()))

    def record(s, n: int) -> None:
        audit.record(s, actor, "export", "payment_guides", "all", None,
                     {"list": "Guias (DAM)", "rows": n, "file": out.name, "format": out.suffix.lower()[1:],
                      "personal_data": True})

    n = write_audited(db, actor, out, GUIDE_HEADERS, rows, record=record, title="Guias")
    return ExportResult("guides", out, n, out.suffix.lower()[1:])
