"""The inspectors' desk (issue 5; Art. 9, 15, 16, 26 I-II), by use case:

- `configuration` — inspectors, places, working patterns (hours, minutes per slot) and blocked days;
- `booking` — the calendar of slots with their bookings; book, move (with a reason), cancel, no-show; run an
  inspection with its checklist and what it does to the authorization;
- `annual` — the annual inspections due (Art. 16, caput) and their bulk scheduling;
- `candidates` — the Art. 26 I and II facts for the fiscal;
- `common` — the frozen data every use case returns, and the schedule readers they share.

Every use case has two forms: `x_in(session, actor, ...)` works inside a transaction it is given, `x(db, actor,
...)` opens the transaction and calls it. What can be done with a booking (`BookingInfo.actions`) and which
authorization statuses allow each kind of inspection are domain data (`desktop.domain.inspection`).

The public names below are those imported from `desktop.services.inspections` before it became a package.
"""
from desktop.services.inspections.annual import (
    annual_due,
    annual_due_in,
    schedule_annual,
    schedule_annual_in,
    schedule_annual_job,
)
from desktop.services.inspections.booking import (
    book_inspection,
    book_inspection_in,
    booking_options,
    booking_options_in,
    calendar_data,
    calendar_data_in,
    cancel_inspection,
    cancel_inspection_in,
    get_inspection,
    get_inspection_in,
    list_bookings,
    list_bookings_in,
    move_inspection,
    move_inspection_in,
    record_no_show,
    record_no_show_in,
    run_inspection,
    run_inspection_in,
)
from desktop.services.inspections.candidates import (
    art26_ii_candidates,
    art26_ii_candidates_in,
    no_shows,
    no_shows_in,
)
from desktop.services.inspections.common import (
    CONFIGURERS,
    ENFORCERS,
    RESULT_LABELS,
    SCHEDULERS,
    STATUS_LABELS,
    WEEKDAYS,
    AnnualDue,
    Art26Candidate,
    BlockedDayInfo,
    BookingInfo,
    BookingOptions,
    BulkResult,
    CalendarData,
    InspectionDetail,
    InspectorInfo,
    ItemLine,
    ItemResult,
    PlaceInfo,
    ScheduleInfo,
    SlotInfo,
    today,
)
from desktop.services.inspections.configuration import (
    add_schedule,
    add_schedule_in,
    block_day,
    block_day_in,
    create_place,
    create_place_in,
    end_schedule,
    end_schedule_in,
    list_blocked_days,
    list_blocked_days_in,
    list_inspectors,
    list_inspectors_in,
    list_places,
    list_places_in,
    list_schedules,
    list_schedules_in,
    unblock_day,
    unblock_day_in,
)

__all__ = [
    "PlaceInfo", "InspectorInfo", "ScheduleInfo", "BlockedDayInfo", "BookingInfo", "SlotInfo", "CalendarData",
    "ItemResult", "ItemLine", "InspectionDetail", "AnnualDue", "BulkResult", "Art26Candidate", "BookingOptions",
    "STATUS_LABELS", "RESULT_LABELS", "SCHEDULERS", "CONFIGURERS", "ENFORCERS", "WEEKDAYS", "today",
    "list_inspectors", "list_places", "create_place", "list_schedules", "add_schedule", "end_schedule",
    "list_blocked_days", "block_day", "unblock_day", "calendar_data", "booking_options", "book_inspection",
    "move_inspection", "cancel_inspection", "record_no_show", "run_inspection", "get_inspection", "list_bookings",
    "annual_due", "schedule_annual", "schedule_annual_job", "no_shows", "art26_ii_candidates",
    "list_inspectors_in", "list_places_in", "create_place_in", "list_schedules_in", "add_schedule_in",
    "end_schedule_in", "list_blocked_days_in", "block_day_in", "unblock_day_in", "calendar_data_in",
    "booking_options_in", "book_inspection_in", "move_inspection_in", "cancel_inspection_in", "record_no_show_in",
    "run_inspection_in", "get_inspection_in", "list_bookings_in", "annual_due_in", "schedule_annual_in",
    "no_shows_in", "art26_ii_candidates_in",
]
