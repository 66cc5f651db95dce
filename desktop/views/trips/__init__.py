"""The Viagens module (issue 15; Art. 4): import a platform's trip file in the background (progress, cancel, the
report of what was dropped because it identifies passengers), the fares per driver and month with a chart over
months and the Excel export, the trips that show an infraction with "Ver trajeto" and "Lavrar auto", and the open
statistics for the transparency portal. Fiscal and gestor only; every view or export is logged by the services.
No SQL and no law here: the screen calls services.trips through op().

The screen is `page.TripsPage` (issue 22: a whole screen lives in a module of its own, not in the package's face).
"""
from desktop.views.trips.page import TripsPage

__all__ = ["TripsPage"]
