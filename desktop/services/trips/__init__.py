"""Trip data (Art. 4; issue 15), by use case:

- `imports`: a platform's trip file (CSV or MDS 2.x, with routes), all or nothing, passengers never kept;
- `queries`: fares per driver/vehicle/month, months for the chart, the route of a trip, trips that show an
  infraction, open statistics, the fares export, the ISSQN helpers, the access log;
- `retention`: the routine of the day's removal of trips past the retention period (not the evidence of autos).

Access is for the fiscal and the gestor only; every view or export of trips is written to `trip_access_log`.
"""
from __future__ import annotations

from desktop.services.trips.common import TRIP_ROLES, AccessEntry, TripInfo, log_access_in, require_trip_access
from desktop.services.trips.imports import ImportCancelled, TripImportReport, import_trips, import_trips_in
from desktop.services.trips.queries import (
    STATISTICS_HEADERS,
    ClassSuggestion,
    FareLine,
    FindingsPage,
    ImportSummary,
    MonthTotal,
    PlatformMonthReport,
    RoutePoint,
    TripFinding,
    TripRoute,
    VehicleMonthFares,
    access_log,
    access_log_in,
    export_fares,
    export_statistics,
    fares,
    fares_in,
    fares_of_vehicle_month,
    fares_of_vehicle_month_in,
    fares_over_months,
    fares_over_months_in,
    get_trip,
    get_trip_in,
    imports,
    imports_in,
    infractions,
    infractions_in,
    nearest_class_suggestion,
    nearest_class_suggestion_in,
    route,
    route_in,
    statistics,
    statistics_in,
)
from desktop.services.trips.printing import print_route
from desktop.services.trips.retention import RetentionResult, remove_expired_trips, remove_expired_trips_in

__all__ = [
    "TRIP_ROLES", "AccessEntry", "TripInfo", "log_access_in", "require_trip_access", "ImportCancelled",
    "TripImportReport", "import_trips", "import_trips_in", "STATISTICS_HEADERS", "ClassSuggestion", "FareLine",
    "FindingsPage", "ImportSummary", "MonthTotal", "PlatformMonthReport", "RoutePoint", "TripFinding", "TripRoute",
    "VehicleMonthFares", "access_log", "access_log_in", "export_fares", "export_statistics", "fares", "fares_in",
    "fares_of_vehicle_month", "fares_of_vehicle_month_in", "fares_over_months", "fares_over_months_in",
    "get_trip", "get_trip_in", "imports", "imports_in", "infractions", "infractions_in",
    "nearest_class_suggestion", "nearest_class_suggestion_in", "route", "route_in", "statistics",
    "statistics_in", "print_route", "RetentionResult", "remove_expired_trips", "remove_expired_trips_in",
]
