"""The PDF report of a competência (totals and the 12-month chart per platform), `reports/issqn_report.py`."""
from __future__ import annotations

from pathlib import Path

from desktop.services.base import Actor, require_role
from desktop.services.issqn.common import READ_ROLES, is_preview
from desktop.services.issqn.queries import month_totals, platform_series, share_rows
from desktop.reports import issqn_report

__all__ = ["report_pdf", "write_report"]


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
