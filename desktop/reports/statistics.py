"""Statistics as documents (issue 16): each chart drawn by matplotlib with its table beside it, in a ReportLab PDF
(landscape A4, the municipality's letterhead and footer), the monthly management report (relatório gerencial) for
the secretary, and the same tables as an Excel workbook.

matplotlib is imported only inside the functions that draw (the Agg backend: no screen needed), so neither the
program's start-up nor a report without charts pays for it. The screen draws the same `figure()` on its Qt
canvas, so what the secretary sees is what the PDF prints.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

from desktop.reports.common import DocumentMeta, MunicipalityHeader
from decimal import Decimal
from desktop.domain.cells import looks_like_formula

PALETTE = ("#1b5e20", "#1565c0", "#ef6c00", "#6a1b9a", "#c62828", "#00838f", "#5d4037", "#9e9d24", "#455a64")


@dataclass(frozen=True, slots=True)
class StatisticsContext:
    header: MunicipalityHeader
    meta: DocumentMeta
    title: str
    subtitle: str
    tables: tuple            # services.statistics.StatTable, in order
    summary: tuple[tuple[str, str], ...] = ()   # the management report's key figures (label, value)


def figure(table, figsize=(7.2, 3.3), dpi: int = 100, fixed_margins: bool = False):
    """A matplotlib Figure of one statistic (bars, stacked bars or lines over the months). On screen the layout
    adapts to the canvas (constrained layout); for the PDF the margins are fixed in inches — constrained layout
    draws every figure twice, a third of the report's time."""
    from matplotlib.figure import Figure  # lazy: matplotlib loads only when this runs (start-up cost)

    if fixed_margins:
        width, height = figsize
        fig = Figure(figsize=figsize, dpi=dpi)
        fig.subplots_adjust(left=0.85 / width, right=1 - 0.1 / width, bottom=0.75 / height, top=1 - 0.3 / height)
    else:
        fig = Figure(figsize=figsize, dpi=dpi, layout="constrained")
    ax = fig.add_subplot()
    x = list(range(len(table.months)))
    if table.chart == "line":
        for i, series in enumerate(table.series):
            ax.plot(x, series.values, marker="o", color=PALETTE[i % len(PALETTE)], label=series.name)
    elif table.chart == "stacked":
        bottom = [0.0] * len(x)
        for i, series in enumerate(table.series):
            ax.bar(x, series.values, bottom=bottom, color=PALETTE[i % len(PALETTE)], label=series.name)
            bottom = [b + v for b, v in zip(bottom, series.values)]
    else:
        width = 0.8 / max(len(table.series), 1)
        for i, series in enumerate(table.series):
            ax.bar([v + i * width - 0.4 + width / 2 for v in x], series.values, width=width,
                   color=PALETTE[i % len(PALETTE)], label=series.name)
    ax.set_xticks(x, table.months, rotation=45 if len(x) > 6 else 0, ha="right" if len(x) > 6 else "center",
                  fontsize=8)
    ax.tick_params(axis="y", labelsize=8)
    if table.unit:
        ax.set_ylabel(table.unit, fontsize=8)
    if table.unit == "R$":
        from matplotlib.ticker import FuncFormatter  # lazy: matplotlib loads only when this runs (start-up cost)

        from desktop.domain.formatting import format_integer  # local: imported only on this branch

        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: format_integer(int(v))))
    ax.grid(axis="y", alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)
    if len(table.series) > 1:
        ax.legend(fontsize=7, loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False,
                  ncols=min(len(table.series), 6))
    if table.empty:
        ax.text(0.5, 0.5, "Sem registros no período", transform=ax.transAxes, ha="center", va="center",
                fontsize=10, color="#777777")
    return fig


def figure_png(table, width_in: float = 7.2, height_in: float = 3.3, dpi: int = 120) -> bytes:
    fig = figure(table, (width_in, height_in), dpi, fixed_margins=True)
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # lazy: matplotlib loads only when this runs (start-up cost)

    FigureCanvasAgg(fig)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=dpi)
    return out.getvalue()


def _table_flowable(table, width: float):
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs

    head = list(table.headers)
    rows = [list(r) for r in table.rows] or [["Sem registros no período."] + [""] * (len(head) - 1)]
    if table.totals:
        rows.append(list(table.totals) + [""] * (len(head) - len(table.totals)))
    first = min(34 * mm, width * 0.3)
    rest = (width - first) / max(len(head) - 1, 1)
    return _pdf.grid_table(head, rows, [first] + [rest] * (len(head) - 1),
                           right_cols=tuple(range(1, len(head))))


def render(ctx: StatisticsContext) -> bytes:
    """The PDF: a title, the key figures (management report), then each statistic: its chart and its table."""
    from reportlab.lib.pagesizes import A4, landscape  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.platypus import CondPageBreak, Image, KeepTogether  # lazy: ReportLab loads only when this runs (start-up cost)

    from desktop.reports import _pdf  # lazy: loads ReportLab only when this runs

    page = landscape(A4)
    width = page[0] - 2 * _pdf.MARGIN
    story = _pdf.title_block(ctx.title, ctx.subtitle)
    if ctx.summary:
        story.append(_pdf.field_table(list(ctx.summary), col1=80 * mm, width=width * 0.6))
        story.append(_pdf.spacer(4))
    for table in ctx.tables:
        chart_w = width * 0.55 if len(table.headers) <= 7 else width
        png = figure_png(table, chart_w / 72, 62 * mm / 72)
        image = Image(io.BytesIO(png), width=chart_w, height=62 * mm)
        block = [_pdf.p(table.title, "h2"), _pdf.p(table.subtitle, "small"), _pdf.spacer(1)]
        if len(table.headers) <= 7:
            from reportlab.platypus import Table  # lazy: ReportLab loads only when this runs (start-up cost)

            side = Table([[image, _table_flowable(table, width - chart_w - 4 * mm)]],
                         colWidths=[chart_w, width - chart_w], style=[("VALIGN", (0, 0), (-1, -1), "TOP"),
                                                                      ("LEFTPADDING", (0, 0), (-1, -1), 0)])
            block.append(side)
            story.append(CondPageBreak(90 * mm))
            story.append(KeepTogether(block))
        else:
            block.append(image)
            story.append(CondPageBreak(90 * mm))
            story.append(KeepTogether(block))
            story.append(_table_flowable(table, width))
        story.append(_pdf.spacer(4))
    story.append(_pdf.p("Números calculados pelo sistema a partir dos registros do banco de dados na data de "
                        "emissão; meses no fuso de Cuiabá.", "small"))
    return _pdf.build_story_pdf(ctx.header, ctx.meta, ctx.title, story, pagesize=page)


def _excel(value):
    """Numbers stay numbers in the workbook (Decimal → float for openpyxl; None → empty cell)."""

    if isinstance(value, Decimal):
        return float(value)
    return value


def render_xlsx(tables) -> bytes:
    """One sheet per statistic with its title, headers, rows and totals (openpyxl)."""
    from openpyxl import Workbook  # lazy: openpyxl loads only when this runs (start-up cost)
    from openpyxl.styles import Font  # lazy: openpyxl loads only when this runs (start-up cost)

    wb = Workbook()
    wb.remove(wb.active)
    used: set[str] = set()
    for table in tables:
        name = table.title[:31].replace("/", "-")
        while name in used:
            name = name[:28] + f"-{len(used)}"
        used.add(name)
        ws = wb.create_sheet(name)
        ws.append([table.title])
        ws["A1"].font = Font(bold=True, size=12)
        ws.append([table.subtitle])
        ws.append([])
        ws.append(list(table.headers))
        for cell in ws[4]:
            cell.font = Font(bold=True)
        formats = {"int": "#,##0", "money": '"R$" #,##0.00', "dec1": "0.0", "pct": '0.0"%"'}
        rows = list(table.values) + ([table.total_values] if table.total_values else [])
        for index, row in enumerate(rows):
            ws.append([_excel(v) for v in row])
            for cell in ws[ws.max_row]:
                if looks_like_formula(cell.value):   # issue 25 item 4: a platform's name is text, never a formula
                    cell.data_type = "s"
                    cell.quotePrefix = True
            for cell, kind in zip(ws[ws.max_row], table.kinds):
                if kind in formats:
                    cell.number_format = formats[kind]
                if table.total_values and index == len(rows) - 1:
                    cell.font = Font(bold=True)
        for column in ws.columns:
            letter = column[0].column_letter
            ws.column_dimensions[letter].width = max(12, min(40, max(len(str(c.value or "")) for c in column[3:]) + 2
                                                             if len(column) > 3 else 12))
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
