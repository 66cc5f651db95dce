"""Inspection report (laudo de vistoria, Art. 9, 15, 16): the checklist with the article of each item, the
result and, when failed, the 5-day regularization term during which the vehicle is impeded (Art. 16, §2)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from desktop.domain.formatting import format_integer
from desktop.reports.common import (
    LAW, DocumentMeta, MunicipalityHeader, Signer, fmt_date, fmt_moment, fmt_plate,
)
from datetime import datetime as _dt
from sqlalchemy import and_, func, or_, select
from desktop.models import Inspection
from desktop.reports.common import TZ
from desktop.domain.inspection import INSPECTION_ITEMS_BY_KEY, InspectionKind
from desktop.errors import ConflictError
from desktop.models import Authorization, Driver, InspectionPlace, User, Vehicle
from desktop.reports import records
from types import SimpleNamespace
from desktop.reports.common import signer_of


@dataclass(frozen=True, slots=True)
class ChecklistLine:
    item: str
    article: str
    ok: bool
    note: str = ""


@dataclass(frozen=True, slots=True)
class InspectionReportContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    inspection_number: str
    kind: str                       # "inicial", "anual (Art. 16)", ...
    performed_at: datetime
    place: str
    inspector_name: str
    driver_name: str
    authorization_number: str
    plate: str
    renavam: str
    vehicle: str
    manufacture_year: int
    odometer_km: int | None
    lines: tuple[ChecklistLine, ...]
    approved: bool
    regularize_until: date | None   # Art. 16, §2 (failed only)
    remarks: str = ""
    signer: Signer | None = None    # the inspector who performed it signs the laudo (issue 28)


def make_context(header: MunicipalityHeader, meta: DocumentMeta, **fields) -> InspectionReportContext:
    ctx = InspectionReportContext(header=header, meta=meta, **fields)
    if not ctx.approved and ctx.regularize_until is None:
        raise ValueError("Vistoria reprovada precisa do prazo de regularização (Art. 16, §2º).")
    return ctx


def laudo_number(s, row) -> str:
    """The laudo's number NNNN/AAAA: one sequence per year of the performed inspections, in the order they were
    performed (issue 28: never the database id), so the first laudo of 2026 is 0001/2026."""

    year = row.performed_at.astimezone(TZ).year
    start, end = _dt(year, 1, 1, tzinfo=TZ), _dt(year + 1, 1, 1, tzinfo=TZ)
    before = s.scalar(select(func.count()).select_from(Inspection).where(
        Inspection.performed_at >= start, Inspection.performed_at < end,
        Inspection.result.in_(("approved", "failed")),
        or_(Inspection.performed_at < row.performed_at,
            and_(Inspection.performed_at == row.performed_at, Inspection.id < row.id)))) or 0
    return f"{before + 1:04d}/{year}"


def build_context(s, code, meta: DocumentMeta) -> InspectionReportContext:
    """The laudo of performed inspection `code` (Art. 9, 15, 16), read from session `s`; a failed one carries the
    5-day term (Art. 16 §2)."""
    row = records.inspection_row(s, code)
    if row.performed_at is None or row.result not in ("approved", "failed"):
        raise ConflictError(f"A vistoria nº {code} ainda não foi realizada: o laudo sai depois do "
                            "resultado registrado.")
    vehicle = s.get(Vehicle, row.vehicle_id)
    auth = s.get(Authorization, row.authorization_id) if row.authorization_id else None
    driver = s.get(Driver, auth.driver_id) if auth else None
    inspector = s.get(User, row.inspector_id) if row.inspector_id else None
    place = s.get(InspectionPlace, row.place_id) if row.place_id else None
    lines = []
    for item in row.items:
        known = INSPECTION_ITEMS_BY_KEY.get(records.ITEM_ALIASES.get(item.item_key, item.item_key))
        lines.append(ChecklistLine(known.label if known else item.item_key, known.article if known else "",
                                   bool(item.passed), item.note or ""))
    try:
        kind = InspectionKind(row.kind).label.lower()
    except ValueError:
        kind = row.kind
    approved = row.result == "approved"
    if not approved and row.regularize_by is None:
        raise ConflictError("Vistoria reprovada sem prazo de regularização registrado (Art. 16, §2º).")
    return make_context(
        records.header(s), meta, inspection_number=laudo_number(s, row), kind=kind,
        performed_at=row.performed_at, place=getattr(place, "name", None) or "—",
        inspector_name=inspector.full_name if inspector else "—", driver_name=driver.name if driver else "—",
        authorization_number=(auth.number or "") if auth else "", plate=vehicle.plate, renavam=vehicle.renavam,
        vehicle=f"{vehicle.make} {vehicle.model}, {vehicle.colour or ''}".strip(", "),
        manufacture_year=vehicle.manufacture_year, odometer_km=None, lines=tuple(lines), approved=approved,
        regularize_until=None if approved else row.regularize_by, remarks=row.notes or "",
        signer=_inspector_signer(s, row.inspector_id, records.settings_row(s).secretariat))


def _inspector_signer(s, inspector_id, unit: str) -> Signer:
    """The inspector who performed the inspection signs its laudo (Lei 9.784/99, art. 22, §1º)."""

    return signer_of(s, SimpleNamespace(user_id=inspector_id), unit)


def _result(line: ChecklistLine) -> str:
    """"Conforme", or "NÃO CONFORME: <what is wrong>" — a failed item always says why (issue 28)."""
    if line.ok:
        return "Conforme"
    why = line.note.strip() or f"não atende ao requisito ({line.article or 'checklist'})"
    return f"NÃO CONFORME: {why}"


def render(ctx: InspectionReportContext) -> bytes:
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs
    from desktop.reports._pdf import b, e  # lazy: loads ReportLab only when this runs

    story = _pdf.title_block(f"LAUDO DE VISTORIA Nº {ctx.inspection_number}",
                             f"Vistoria {ctx.kind} — Arts. 9º, 15 e 16 da {LAW}")
    rows = [
        ("Data e hora", fmt_moment(ctx.performed_at)),
        ("Local", ctx.place),
        ("Vistoriador", ctx.signer.inline if ctx.signer else ctx.inspector_name),
        ("Condutor / autorização", f"{ctx.driver_name} — autorização nº {ctx.authorization_number or '—'}"),
        ("Veículo", f"{fmt_plate(ctx.plate)} — {ctx.vehicle}, fabricação {ctx.manufacture_year} — "
                    f"RENAVAM {ctx.renavam}"),
    ]
    if ctx.odometer_km is not None:
        rows.append(("Hodômetro", f"{format_integer(ctx.odometer_km)} km"))
    story.append(_pdf.field_table(rows))
    story.append(_pdf.p("Itens verificados", "h2"))
    rows = [[line.item, line.article, _result(line)] for line in ctx.lines]
    story.append(_pdf.grid_table(["Item", "Fundamento", "Resultado"], rows, [62 * mm, 40 * mm, 72 * mm]))
    story.append(_pdf.spacer(3))
    if ctx.approved:
        story.append(_pdf.pm(f"Resultado: {b('APROVADO')}. O veículo atende aos requisitos verificados "
                             f"(Art. 15, parágrafo único, VI)."))
    else:
        pending = [f"{line.item}: {_result(line)[len('NÃO CONFORME: '):]}" for line in ctx.lines if not line.ok]
        if pending:
            story.append(_pdf.p("Pendências a regularizar: " + "; ".join(pending) + "."))
        story.append(_pdf.pm(
            f"Resultado: {b('REPROVADO')}. O veículo tem até {b(fmt_date(ctx.regularize_until))} para regularizar "
            f"a(s) pendência(s), prazo de 5 (cinco) dias do Art. 16, §2º, e não pode realizar serviços de "
            f"transporte durante o prazo de regularização. Operar em desacordo é infração do Art. 26, II."))
    if ctx.remarks:
        story.append(_pdf.p("Observações", "h2"))
        story.append(_pdf.p(ctx.remarks))
    if ctx.signer is None:
        raise ValueError("O laudo precisa do vistoriador que o assina (Lei 9.784/99, art. 22, §1º).")
    story.append(_pdf.signer_block(ctx.signer, [(ctx.driver_name, "Condutor — ciente do resultado")]))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"Laudo de vistoria nº {ctx.inspection_number}", story)
