"""The ISSQN report of a competência (issue 13; Art. 11): totals per platform and the month, and the chart of the
last 12 competências per platform — the same matplotlib figure the screen shows (`series_figure`), drawn into
the PDF as an image. matplotlib is imported only inside the functions that draw (start-up budget).

An internal management report: it is not a document issued to anyone, so it is not numbered in the archive; its
footer names the competência and who generated it."""
from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal

from desktop.reports.common import DocumentMeta, MunicipalityHeader, fmt_money

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


def build_context(session, year: int, month: int, totals, series, issued_by: str = "") -> IssqnReportContext:
    from desktop.reports import records
    from desktop.reports.common import now

    settings = records.settings_row(session)
    meta = DocumentMeta(number=f"ISSQN {month:02d}/{year}", issued_at=now(), issued_by=issued_by)
    return IssqnReportContext(records.header_of(settings, session), meta, year, month, tuple(totals.platforms),
                              totals.total, totals.paid, totals.overdue, totals.vehicles, dict(series))


def series_figure(series: dict, year: int, month: int):
    """A matplotlib Figure (no pyplot state): one line per platform, the total estimated per competência."""
    from matplotlib.figure import Figure

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


def render(ctx: IssqnReportContext) -> bytes:
    from reportlab.platypus import Image

    from desktop.reports import _pdf

    rows = [[t.platform_name, t.cnpj_display, str(t.vehicles), fmt_money(t.total), fmt_money(t.without_guide),
             fmt_money(t.open), fmt_money(t.overdue), fmt_money(t.paid)] for t in ctx.platforms]
    rows.append(["Total do mês", "", str(ctx.vehicles), fmt_money(ctx.total), "", "", fmt_money(ctx.overdue),
                 fmt_money(ctx.paid)])
    width = _pdf.PAGE_W - 2 * _pdf.MARGIN
    widths = [w * width for w in (0.22, 0.17, 0.07, 0.11, 0.11, 0.11, 0.10, 0.11)]
    png = figure_png(ctx.series, ctx.year, ctx.month)
    story = _pdf.title_block(f"ISSQN estimado por veículo — competência {ctx.month:02d}/{ctx.year}",
                             "Art. 11 da Lei nº 2.103/2025: recolhido pela plataforma, por veículo cadastrado; o "
                             "condutor como substituto tributário")
    story += [_pdf.grid_table(["Plataforma", "CNPJ", "Veíc.", "Total", "Sem guia", "Em aberto", "Vencido", "Pago"],
                              rows, widths, right_cols=(2, 3, 4, 5, 6, 7)),
              _pdf.spacer(6),
              Image(io.BytesIO(png), width=width, height=width * 4.6 / 9)]
    return _pdf.build_story_pdf(ctx.header, ctx.meta, f"ISSQN {ctx.month:02d}/{ctx.year}", story)
