"""The law as code: pure Python (no Qt, no SQLAlchemy, no ReportLab, no pandas). See issue 3 for the API.

Every legal date, penalty and eligibility of Lei nº 2.103/2025 is computed here and nowhere else; each rule names
its article. Nothing is imported until a name is asked for (PEP 562): `from desktop.domain import local_today` loads
desktop.domain.dates only, so a screen on the start-up path that needs one rule does not pay for the whole law
(the login window imported every module of the domain through this package before issue 22).
"""
from __future__ import annotations

import importlib

# name -> the submodule of desktop.domain that defines it
_EXPORTS = {
    "activation_problems": "authorization",
    "BusinessCalendar": "dates", "TIMEZONE": "dates", "add_months_clamped": "dates",
    "annual_inspection_due": "dates", "data_change_notice_deadline": "dates", "deadline": "dates",
    "is_data_change_late": "dates", "is_renewal_late": "dates", "local_now": "dates", "local_today": "dates",
    "period_end": "dates", "platform_data_due": "dates", "platform_list_due": "dates",
    "renewal_request_deadline": "dates", "term_end": "dates",
    "collect": "documents", "format_cnpj": "documents", "format_cpf": "documents", "format_plate": "documents",
    "is_mercosul_plate": "documents", "mask_cpf": "documents", "mercosul_equivalent": "documents",
    "normalize_cnpj": "documents", "normalize_cpf": "documents", "normalize_plate": "documents",
    "normalize_renavam": "documents", "validate_cnh": "documents", "validate_cnpj": "documents",
    "validate_cpf": "documents", "validate_plate": "documents", "validate_renavam": "documents",
    "CHECKLIST_BY_KEY": "driver", "ChecklistItem": "driver", "DRIVER_CHECKLIST": "driver", "DriverFacts": "driver",
    "Evidence": "driver", "ItemKind": "driver", "checklist_status": "driver", "driver_problems": "driver",
    "gravissima_window": "driver", "is_accepted_cnh_category": "driver",
    "DateParseError": "formatting", "DocumentNumber": "formatting", "NumberParseError": "formatting",
    "format_date": "formatting", "format_datetime": "formatting", "format_decimal": "formatting",
    "format_long_date": "formatting", "format_money": "formatting", "format_number": "formatting",
    "format_upfm": "formatting", "parse_date": "formatting", "parse_number": "formatting",
    "weekday_name": "formatting",
    "INSPECTION_CHECKLIST": "inspection", "INSPECTION_ITEMS_BY_KEY": "inspection", "InspectionItem": "inspection",
    "InspectionKind": "inspection", "inspection_problems": "inspection", "presentation_deadline": "inspection",
    "regularization_deadline": "inspection",
    "EntryKind": "ledger", "LedgerEntry": "ledger", "balance": "ledger", "entry_problems": "ledger",
    "reversal_of": "ledger",
    "ART13_DUTIES": "penalties", "AdministrativeMeasure": "penalties", "Assessment": "penalties",
    "CATALOG": "penalties", "InfractionNotInForce": "penalties", "InfractionType": "penalties",
    "NotificationForm": "penalties", "Penalty": "penalties", "Prior": "penalties", "Severity": "penalties",
    "UnknownInfractionCode": "penalties", "assess": "penalties", "fine_in_reais": "penalties", "lookup": "penalties",
    "reais_to_upfm": "penalties", "recurrence_window_start": "penalties", "auto_year": "penalties",
    "Discrepancy": "platforms", "DiscrepancyKind": "platforms", "reconcile": "platforms",
    "Problem": "problems",
    "Role": "roles",
    "Booked": "scheduling", "Slot": "scheduling", "WorkPattern": "scheduling", "booking_conflicts": "scheduling",
    "booking_term": "scheduling", "fill_slots": "scheduling", "free_slots": "scheduling",
    "generate_slots": "scheduling", "term_problem": "scheduling",
    "ISS_MAX_RATE": "taxes", "ISS_MIN_RATE": "taxes", "active_days_in_month": "taxes", "active_periods": "taxes",
    "competence_problem": "taxes", "iss_rate_problem": "taxes", "issqn_for_month": "taxes",
    "split_among_platforms": "taxes",
    "fold": "text", "only_digits": "text", "same_place": "text",
    "OwnershipMode": "vehicle", "ValidUntil": "vehicle", "ValidityLimit": "vehicle", "VehicleFacts": "vehicle",
    "authorization_valid_until": "vehicle", "explain_valid_until": "vehicle", "individual_lessor_problem": "vehicle",
    "vehicle_last_service_day": "vehicle", "vehicle_problems": "vehicle",
    "AUTHORIZATION_MACHINE": "workflow", "AUTO_COUNTS_FOR_RECURRENCE": "workflow", "AUTO_MACHINE": "workflow",
    "AuthorizationStatus": "workflow", "AutoStatus": "workflow", "StateMachine": "workflow",
    "Transition": "workflow", "TransitionNotAllowed": "workflow", "UnknownStatus": "workflow", "actions": "workflow",
    "allowed": "workflow", "transition": "workflow",
}

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
    "Penalty", "AdministrativeMeasure", "NotificationForm", "auto_year",
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


def __getattr__(name: str):
    """Load the submodule that defines `name` on first use and keep the value here."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
