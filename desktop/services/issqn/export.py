"""`python -m desktop export issqn --month AAAA-MM --out FILE` and the screen's "Exportar Excel" (issue 13):
one line per share of the competência, with the headers pinned by the issue (a contract with the office's
spreadsheets: add columns at the END only). Written as `services.exports` writes every list (CSV for Brazilian
Excel or a streaming XLSX) and recorded in the audit log (LGPD: the file carries drivers' CPFs)."""
from __future__ import annotations

import os

from sqlalchemy import select

from desktop.domain.clock import today
from desktop.domain.formatting import format_cnpj, format_cpf, format_plate
from desktop.domain.roles import ISSQN_ROLES
from desktop.domain.taxes import PREVIEW_LABEL, competence_ended
from desktop.models import (
    Authorization,
    Driver,
    IssqnClass,
    IssqnEstimate,
    IssqnShare,
    PaymentGuide,
    Platform,
    Vehicle,
)
from desktop.services import audit
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.exports import ExportResult, export_target, write_audited
from desktop.services.issqn.common import competence_label
from desktop.services.issqn.queries import situation_of

__all__ = ["ISSQN_HEADERS", "export_issqn", "issqn_export_rows"]

ISSQN_HEADERS = (
    "Competência", "Plataforma", "CNPJ da plataforma", "Placa", "Condutor", "CPF", "Classe", "Base estimada (R$)",
    "Alíquota (%)", "Dias ativos", "Valor (R$)", "Guia", "Situação", "Vencimento", "Pago em",
)
EXPORT_ROLES = ISSQN_ROLES.export


def issqn_export_rows(s, year: int, month: int, on):
    S, E, G = IssqnShare, IssqnEstimate, PaymentGuide
    stmt = (select(Platform.trade_name, Platform.cnpj, Vehicle.plate, Driver.name, Driver.cpf, IssqnClass.code,
                   E.base, E.rate, E.days_active, S.amount, S.driver_id, G.number, G.status, G.due_on, G.paid_on)
            .join(E, E.id == S.estimate_id).join(Vehicle, Vehicle.id == E.vehicle_id)
            .join(IssqnClass, IssqnClass.id == E.class_id)
            .outerjoin(Authorization, Authorization.id == E.authorization_id)
            .outerjoin(Driver, Driver.id == Authorization.driver_id)
            .outerjoin(Platform, Platform.id == S.platform_id).outerjoin(G, G.id == S.guide_id)
            .where(S.year == year, S.month == month, S.status == "open")
            .order_by(Platform.trade_name, Vehicle.plate))
    label = competence_label(year, month)
    preview = not competence_ended(year, month, on)
    for r in s.execute(stmt, execution_options={"yield_per": 2000}):
        situation, _overdue = situation_of(r.status, r.due_on, on)
        if preview and r.status is None:
            situation = f"{PREVIEW_LABEL} (mês em curso)"   # issue 23 point 2
        platform = r.trade_name or "Condutor (substituto, Art. 11)"
        yield [label, platform, format_cnpj(r.cnpj) if r.cnpj else "", format_plate(r.plate), r.name or "",
               format_cpf(r.cpf) if r.cpf else "", r.code, r.base, r.rate, r.days_active, r.amount, r.number or "",
               situation, r.due_on, r.paid_on]


def export_issqn(db, actor: Actor, year: int, month: int, path: str | os.PathLike) -> ExportResult:
    """Write the competência to `path` (.csv or .xlsx by its extension) through the one exports writer: the session
    checked first, formulas as text, the file in place only after its audit entry is committed (issue 25)."""
    require_role(actor, *EXPORT_ROLES)
    out = export_target(path)
    with db.session(write=False) as s:
        rows = list(issqn_export_rows(s, year, month, today()))

    def record(s, n: int) -> None:
        audit.record(s, actor, "export", "issqn", f"{year:04d}-{month:02d}", None,
                     {"list": f"ISSQN {competence_label(year, month)}", "rows": n, "file": out.name,
                      "format": out.suffix.lower()[1:], "personal_data": True})

    n = write_audited(db, actor, out, ISSQN_HEADERS, rows, record=record, title=f"ISSQN {month:02d}-{year}")
    return ExportResult("issqn", out, n, out.suffix.lower()[1:])
