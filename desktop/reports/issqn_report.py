"""The ISSQN report of a competência (issue 13; Art. 11): totals per platform and the month, and the chart of the
last 12 competências per platform — the same matplotlib figure the screen shows (`series_figure`), drawn into
the PDF as an image. matplotlib is imported only inside the functions that draw (start-up budget).

An internal management report: it is not a document issued to anyone, so it is not numbered in the archive; its
footer names the competência and who generated it."""
from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal

from desktop.reports.common import DocumentMeta, MunicipalityHeader, fmt_decimal, fmt_money
from desktop.reports import records
from desktop.reports.common import now

MONTH_ABBR = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")


@dataclass(frozen=True, slots=True)
class IssqnReportContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    year: int
    month: int
    platforms: tuple          # services.issqn.PlatformTotal
    total: Decimal
    paid: Decimal
    overdue: Decimal
    vehicles: int
    series: dict              # platform name → [SeriesPoint × 12]
    rows: tuple = ()          # services.issqn.ShareRow: every vehicle's share (plate, driver, class, base, rate…)
    preview: bool = False     # the month is still running (issue 23 point 2): a prévia, no guide


def build_context(session, year: int, month: int, totals, series, issued_by: str = "", *, vehicles=(),
                  preview: bool = False) -> IssqnReportContext:

    settings = records.settings_row(session)
    meta = DocumentMeta(number=f"ISSQN {month:02d}/{year}", issued_at=now(), issued_by=issued_by)
    return IssqnReportContext(records.header_of(settings, session), meta, year, month, tuple(totals.platforms),
                              totals.total, totals.paid, totals.overdue, totals.vehicles, dict(series),
                              tuple(vehicles), preview)


def series_figure(series: dict, year: int, month: int):
    """A matplotlib Figure (no pyplot state): one line per platform, the total estimated per competência."""
    from matplotlib.figure import Figure  # lazy: matplotlib loads only when this runs (start-up cost)

    figure = Figure(figsize=(9, 4.6), dpi=100)
    ax = figure.add_subplot(1, 1, 1)
    labels = []
    for name, points in series.items():
        labels = [f"{MONTH_ABBR[p.month - 1]}/{p.year % 100:02d}" for p in points]
        ax.plot(range(len(points)), [float(p.total) for p in points], marker="o", label=name)
    if labels:
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=45, ha="right")
    ax.set_ylabel("ISSQN estimado (R$)")
    ax.set_title(f"ISSQN por plataforma — 12 competências até {month:02d}/{year}")
    ax.grid(True, alpha=0.3)
    if series:
        ax.legend(loc="best", fontsize=8)
    else:
        ax.text(0.5, 0.5, "Nenhuma competência calculada", ha="center", va="center", transform=ax.transAxes)
    figure.tight_layout()
    return figure


def figure_png(series: dict, year: int, month: int) -> bytes:
    figure = series_figure(series, year, month)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=150)
    return buffer.getvalue()


def _amount(value: Decimal) -> str:
    """An amount without "R$" (the column says it), so it never wraps inside its cell."""
    return fmt_money(value).replace("R$", "").strip()


def _rate(value: Decimal) -> str:
    return f"{fmt_decimal(Decimal(value), 2)} %"


def vehicle_rows(ctx: IssqnReportContext) -> list[list[str]]:
    """One line per vehicle (plate, driver, class, base, rate actually applied, days, share, guide, situation),
    grouped by platform with its subtotal (issue 23 point 9)."""
    out: list[list[str]] = []
    groups: dict[str, list] = {}
    for r in ctx.rows:
        groups.setdefault(r.platform_name or "Condutores (substitutos, Art. 11)", []).append(r)
    for name in sorted(groups):
        items = groups[name]
        for r in items:
            out.append([r.plate_display, r.driver_name, r.class_code, _amount(r.base), _rate(r.rate),
                        str(r.days_active), _amount(r.amount), r.guide_number or "—", r.situation])
        subtotal = sum((Decimal(r.amount) for r in items), Decimal("0"))
        out.append(["Subtotal", name, "", "", "", str(len(items)), _amount(subtotal), "", ""])
    return out


def render(ctx: IssqnReportContext) -> bytes:
    from reportlab.platypus import Image  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs

    rows = [[t.platform_name, t.cnpj_display, str(t.vehicles), _amount(t.total), _amount(t.without_guide),
             _amount(t.open), _amount(t.overdue), _amount(t.paid)] for t in ctx.platforms]
    rows.append(["Total do mês", "", str(ctx.vehicles), _amount(ctx.total), "", "", _amount(ctx.overdue),
                 _amount(ctx.paid)])
    width = _pdf.PAGE_W - 2 * _pdf.MARGIN
    widths = [w * width for w in (0.19, 0.20, 0.06, 0.11, 0.11, 0.11, 0.11, 0.11)]
    png = figure_png(ctx.series, ctx.year, ctx.month)
    title = f"ISSQN estimado por veículo — competência {ctx.month:02d}/{ctx.year}"
    if ctx.preview:
        title = f"PRÉVIA — {title}"
    story = _pdf.title_block(title,
                             "Art. 11 da Lei nº 2.103/2025: recolhido pela plataforma, por veículo cadastrado; o "
                             "condutor como substituto tributário")
    if ctx.preview:
        story.append(_pdf.p("Prévia: a competência ainda não terminou. Valores estimados sem guia; a guia é emitida a "
                            "partir do primeiro dia do mês seguinte.", "small"))
    story += [_pdf.grid_table(["Plataforma", "CNPJ", "Veíc.", "Total (R$)", "Sem guia (R$)", "Em aberto (R$)",
                               "Vencido (R$)", "Pago (R$)"],
                              rows, widths, right_cols=(2, 3, 4, 5, 6, 7)),
              _pdf.spacer(6)]
    if ctx.rows:
        vwidths = [w * width for w in (0.11, 0.22, 0.10, 0.10, 0.08, 0.05, 0.10, 0.12, 0.12)]
        story += [_pdf.p("Veículos da competência, por plataforma (alíquota aplicada a cada linha)", "h2"),
                  _pdf.grid_table(["Placa", "Condutor", "Classe", "Base (R$)", "Alíquota", "Dias", "Cota (R$)",
                                   "Guia", "Situação"], vehicle_rows(ctx), vwidths, right_cols=(3, 4, 5, 6)),
                  _pdf.spacer(6)]
    story.append(Image(io.BytesIO(png), width=width, height=width * 4.6 / 9))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"ISSQN {ctx.month:02d}/{ctx.year}", story)
