"""Relatórios (issue 7): issue, preview, print and archive every official document; reprints; the batch of
pending stickers; the sticker check. The main window builds `ReportsPage(db, actor, parent)`."""
from desktop.views.reports.page import ReportsPage

__all__ = ["ReportsPage"]
