"""Vistorias (issue 5): the inspectors' calendar, booking, the checklist, the annual list and the Art. 26 lists."""
from desktop.views.inspections.page import InspectionsPage

__all__ = ["InspectionsPage"]
