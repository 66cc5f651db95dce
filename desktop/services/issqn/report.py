"""The PDF report of a competência (totals and the 12-month chart per platform), `reports/issqn_report.py`, and
the notice of the estimated lançamento per platform and competência (`reports/issqn_notice.py`, issue 28
point 4: the estimate is a tax assessment — CTN arts. 142, 145 and 148)."""
from __future__ import annotations

from pathlib import Path

from desktop.domain.problems import Problem
from desktop.errors import ConflictError, NotFound, ValidationError
from desktop.models import Platform
from desktop.reports import issqn_notice, issqn_report, records
from desktop.reports.common import signer_of
from desktop.services import parameters
from desktop.services.actors import Actor
from desktop.services.permissions import require_role
from desktop.services.issqn.collection import issqn_due_date_in
from desktop.services.issqn.common import ISSUE_ROLES, READ_ROLES, check_competence, competence_label, is_preview
from desktop.services.issqn.competence import rate_in
from desktop.services.issqn.queries import month_totals, platform_series, share_rows
from desktop.services.numbering import next_notice_number_in, parse_number

__all__ = ["CONTEST_DAYS", "print_lancamento_notice", "report_pdf", "write_report"]

CONTEST_DAYS = "issqn.contest_days"   # the CTM's term to contest a lançamento (services.parameters, no default)


def report_pdf(db, actor: Actor, year: int, month: int) -> bytes:

    require_role(actor, *READ_ROLES)
    totals = month_totals(db, actor, year, month)
    series = platform_series(db, actor, year, month)
    vehicles, offset = [], 0
    while True:   # issue 23 point 9: every vehicle of the competência, a page at a time
        page = share_rows(db, actor, year, month, offset=offset, limit=5000)
        vehicles.extend(page)
        if len(page) < 5000:
            break
        offset += len(page)
    with db.session(write=False) as s:
        ctx = issqn_report.build_context(s, year, month, totals, series, actor.full_name, vehicles=vehicles,
                                         preview=is_preview(year, month))
    return issqn_report.render(ctx)


def write_report(db, actor: Actor, year: int, month: int, path) -> Path:
    data = report_pdf(db, actor, year, month)
    out = Path(path)
    out.write_bytes(data)
    return out


def _notice_lines(db, actor: Actor, platform_id: int, year: int, month: int):
    rows, offset = [], 0
    while True:
        page = share_rows(db, actor, year, month, platform_id=platform_id, offset=offset, limit=5000)
        rows.extend(page)
        if len(page) < 5000:
            break
        offset += len(page)
    lines = tuple(issqn_notice.NoticeLine(r.plate_display, r.driver_name, r.driver_cpf_display, r.class_code,
                                          r.class_name, r.days_active, r.base, r.rate, r.estimate_amount, r.amount)
                  for r in rows)
    return lines, rows


def print_lancamento_notice(db, actor: Actor, platform_id: int, year: int, month: int, state=None):
    """The notice of the estimated ISSQN lançamento of `platform_id` for `month`/`year` (issue 28 point 4; Art. 11
    §1; CTN arts. 142, 145, 148): every vehicle with its class, base, rate and amount, the total, the due date,
    and the CTM's term (parameter `issqn.contest_days`) and place to contest it. Numbered in the notices' series
    and archived (kind "notice", RecordRef("platform", id)); signed by who issues it. Refused for a competência
    still running (a prévia is no lançamento) or one with no vehicle for the platform."""
    from desktop.services.documents.archive import ISSUE_ROLES as DOCUMENT_ISSUE_ROLES  # lazy: documents only to print
    from desktop.services.documents.archive import RecordRef, issue_rendered  # lazy: idem

    require_role(actor, *ISSUE_ROLES)
    require_role(actor, *DOCUMENT_ISSUE_ROLES["notice"])
    check_competence(year, month)
    if is_preview(year, month):
        raise ConflictError(f"A competência {competence_label(year, month)} ainda está em curso: a estimativa é "
                            "uma prévia, não um lançamento (CTN, art. 142). A notificação sai após o fim do mês.")
    lines, rows = _notice_lines(db, actor, platform_id, year, month)
    if not lines:
        raise ConflictError(f"Não há ISSQN estimado para esta plataforma na competência "
                            f"{competence_label(year, month)}: rode a competência antes (Art. 11).")
    guides = sorted({r.guide_number for r in rows if r.guide_number})

    def build(s, meta):
        platform = s.get(Platform, platform_id)
        if platform is None:
            raise NotFound(f"Plataforma nº {platform_id} não encontrada.")
        on = meta.issued_at.date()
        try:
            days = int(parameters.parameter_value_in(s, CONTEST_DAYS, on))
        except NotFound:
            raise ValidationError([Problem(
                CONTEST_DAYS, "Cadastre o prazo de impugnação do lançamento do ISSQN fixado pelo Código Tributário "
                "Municipal em Administração → Parâmetros: a notificação de lançamento diz o prazo para impugnar "
                "(CTN, art. 145, I).", "CTN, art. 145")]) from None
        settings = records.settings_row(s)
        place = " — ".join(part for part in (settings.secretariat, settings.address or "") if part)
        _rate, pro_rata = rate_in(s, year, month)
        ctx = issqn_notice.IssqnNoticeContext(
            records.header_of(settings, s), meta, next_notice_number_in(s, parse_number(meta.number)[1]),
            platform.legal_name or platform.trade_name, platform.cnpj, platform.address or "", year, month, lines,
            issqn_due_date_in(s, year, month), days, place, pro_rata, ", ".join(guides),
            signer_of(s, actor, settings.secretariat))
        return RecordRef("platform", platform_id), ctx

    return issue_rendered(db, actor, "notice", build, issqn_notice.render, state=state)
