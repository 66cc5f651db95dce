"""The law as code: pure Python (no Qt, no SQLAlchemy, no ReportLab, no pandas). See issue 3 for the API.

Every legal date, penalty and eligibility of Lei nº 2.103/2025 is computed here and nowhere else; each rule names
its article. `holidays`, `babel` and `validate-docbr` are imported on first use, so importing this package is cheap.
"""
from desktop.domain import law
from desktop.domain.authorization import activation_problems
from desktop.domain.dates import (
    TIMEZONE,
    BusinessCalendar,
    add_months_clamped,
    annual_inspection_due,
    data_change_notice_deadline,
    deadline,
    is_data_change_late,
    is_renewal_late,
    local_now,
    local_today,
    period_end,
    platform_data_due,
    platform_list_due,
    renewal_request_deadline,
    term_end,
)
from desktop.domain.documents import (
    collect,
    format_cnpj,
    format_cpf,
    format_plate,
    is_mercosul_plate,
    mask_cpf,
    mercosul_equivalent,
    normalize_cnpj,
    normalize_cpf,
    normalize_plate,
    normalize_renavam,
    validate_cnh,
    validate_cnpj,
    validate_cpf,
    validate_plate,
    validate_renavam,
)
from desktop.domain.driver import (
    CHECKLIST_BY_KEY,
    DRIVER_CHECKLIST,
    ChecklistItem,
    DriverFacts,
    Evidence,
    ItemKind,
    checklist_status,
    driver_problems,
    gravissima_window,
    is_accepted_cnh_category,
)
from desktop.domain.formatting import (
    DateParseError,
    DocumentNumber,
    NumberParseError,
    format_date,
    format_datetime,
    format_decimal,
    format_long_date,
    format_money,
    format_number,
    format_upfm,
    parse_date,
    parse_number,
    weekday_name,
)
from desktop.domain.inspection import (
    INSPECTION_CHECKLIST,
    INSPECTION_ITEMS_BY_KEY,
    InspectionItem,
    InspectionKind,
    inspection_problems,
    presentation_deadline,
    regularization_deadline,
)
from desktop.domain.ledger import EntryKind, LedgerEntry, balance, entry_problems, reversal_of
from desktop.domain.penalties import (
    ART13_DUTIES,
    CATALOG,
    AdministrativeMeasure,
    Assessment,
    InfractionNotInForce,
    InfractionType,
    NotificationForm,
    Penalty,
    Prior,
    Severity,
    UnknownInfractionCode,
    assess,
    fine_in_reais,
    lookup,
    reais_to_upfm,
    recurrence_window_start,
)
from desktop.domain.platforms import Discrepancy, DiscrepancyKind, reconcile
from desktop.domain.problems import Problem
from desktop.domain.roles import Role
from desktop.domain.scheduling import (
    Booked,
    Slot,
    WorkPattern,
    booking_conflicts,
    booking_term,
    fill_slots,
    free_slots,
    generate_slots,
    term_problem,
)
from desktop.domain.taxes import (
    ISS_MAX_RATE,
    ISS_MIN_RATE,
    active_days_in_month,
    active_periods,
    competence_problem,
    iss_rate_problem,
    issqn_for_month,
    split_among_platforms,
)
from desktop.domain.text import fold, only_digits, same_place
from desktop.domain.vehicle import (
    OwnershipMode,
    ValidityLimit,
    ValidUntil,
    VehicleFacts,
    authorization_valid_until,
    explain_valid_until,
    individual_lessor_problem,
    vehicle_last_service_day,
    vehicle_problems,
)
from desktop.domain.workflow import (
    AUTHORIZATION_MACHINE,
    AUTO_COUNTS_FOR_RECURRENCE,
    AUTO_MACHINE,
    AuthorizationStatus,
    AutoStatus,
    StateMachine,
    Transition,
    TransitionNotAllowed,
    UnknownStatus,
    actions,
    allowed,
    transition,
)

__all__ = [
    # value types
    "Problem", "Role", "law",
    # dates (SPEC §3)
    "TIMEZONE", "BusinessCalendar", "deadline", "term_end", "add_months_clamped", "period_end",
    "renewal_request_deadline", "is_renewal_late", "data_change_notice_deadline", "is_data_change_late",
    "annual_inspection_due", "platform_data_due", "platform_list_due", "local_now", "local_today",
    # authorization (Art. 3, 9, 10, 15)
    "activation_problems",
    # inspection (Art. 9, 15, 16)
    "InspectionKind", "InspectionItem", "INSPECTION_CHECKLIST", "INSPECTION_ITEMS_BY_KEY", "inspection_problems",
    "presentation_deadline", "regularization_deadline",
    # inspectors' schedule (Art. 9, 16)
    "WorkPattern", "Slot", "Booked", "generate_slots", "booking_conflicts", "free_slots", "booking_term",
    "term_problem", "fill_slots",
    # platforms' lists (Art. 5 VIII, 6, 8, 13 XIX)
    "Discrepancy", "DiscrepancyKind", "reconcile",
    # taxes (Art. 11)
    "ISS_MIN_RATE", "ISS_MAX_RATE", "iss_rate_problem", "active_days_in_month", "issqn_for_month",
    "split_among_platforms", "active_periods", "competence_problem",
    # vehicle (Art. 2, 8, 15)
    "VehicleFacts", "vehicle_problems", "vehicle_last_service_day", "authorization_valid_until",
    "explain_valid_until", "ValidUntil", "ValidityLimit", "OwnershipMode", "individual_lessor_problem",
    # driver (Art. 8 §1, 12)
    "DriverFacts", "Evidence", "ChecklistItem", "ItemKind", "DRIVER_CHECKLIST", "CHECKLIST_BY_KEY",
    "driver_problems", "checklist_status", "gravissima_window", "is_accepted_cnh_category",
    # penalties (Art. 22-28)
    "Severity", "fine_in_reais", "reais_to_upfm", "InfractionType", "CATALOG", "ART13_DUTIES", "Prior",
    "Assessment", "assess", "lookup", "recurrence_window_start", "UnknownInfractionCode", "InfractionNotInForce",
    "Penalty", "AdministrativeMeasure", "NotificationForm",
    # documents
    "validate_cpf", "validate_cnpj", "validate_cnh", "validate_renavam", "validate_plate", "collect",
    "format_cpf", "format_cnpj", "format_plate", "mask_cpf", "normalize_cpf", "normalize_cnpj",
    "normalize_plate", "normalize_renavam", "is_mercosul_plate", "mercosul_equivalent",
    # text
    "fold", "only_digits", "same_place",
    # workflow
    "AuthorizationStatus", "AutoStatus", "StateMachine", "Transition", "TransitionNotAllowed", "UnknownStatus",
    "AUTHORIZATION_MACHINE", "AUTO_MACHINE", "AUTO_COUNTS_FOR_RECURRENCE", "transition", "allowed", "actions",
    # ledger
    "EntryKind", "LedgerEntry", "balance", "entry_problems", "reversal_of",
    # formatting
    "format_date", "format_datetime", "format_long_date", "format_money", "format_decimal", "format_upfm",
    "weekday_name", "parse_date", "DateParseError", "format_number", "parse_number", "DocumentNumber",
    "NumberParseError",
]
