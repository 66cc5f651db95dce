"""The printed route of a trip for the case file (reports/trip_route.py), numbered and archived with its SHA-256
(services.documents.archive); printing is an export of the trip, written to the access log."""
from __future__ import annotations

from desktop.services.actors import Actor
from desktop.services.trips.common import log_access_in, require_trip_access


def print_route(db, actor: Actor, trip_id: int, state=None):
    """Render, number and archive the route page of one trip; returns `Issued` (info + the PDF bytes)."""
    from desktop.reports import trip_route  # lazy: ReportLab only when printing
    from desktop.services.documents.archive import RecordRef, issue_rendered  # lazy: ReportLab only when printing

    require_trip_access(actor)

    def build(session, meta):
        return RecordRef("trip", trip_id), trip_route.build_context(session, trip_id, meta)

    def after(session, issued, ctx):
        log_access_in(session, actor, "export", f"rota impressa (documento {issued.info.number})", [trip_id])

    return issue_rendered(db, actor, "trip_route", build, trip_route.render, after=after, state=state)
