"""The authorization lifecycle (Art. 3, 8, 9, 10, 15, 16, 24, 26): request (protocolo) → analysis → approval or
refusal → inspection (or its waiver) and fee, in either order → active with its NNNN/AAAA number and valid-until →
renewal, vehicle substitution, suspension, revocation, cassation, deregistration.

Every status change goes through `desktop.domain.transition()` on AUTHORIZATION_MACHINE (a refused move becomes
`TransitionRefused`), writes one AuthorizationEvent (who, when, why, which act) and one audit entry
(`services.registry.events`). The steps that are not status moves are refused by the table of
`desktop.domain.authorization_steps`, the same that gives every `AuthorizationInfo` its `available` actions.
Nothing is overwritten: the history is the events.

By use case: `queries` (one record, its detail, the list, the values a dialog proposes) and `lifecycle` (the
commands, each as `x_in(session, actor, ...)` and `x(db, actor, ...)`). This package re-exports every name that
was imported from `desktop.services.authorizations` before it was split.
"""
from desktop.domain.authorization import SuspensionBasis
from desktop.services.authorizations.lifecycle import (
    approve_authorization,
    approve_authorization_in,
    cassate_authorization,
    cassate_authorization_in,
    record_fee_payment,
    record_fee_payment_in,
    record_inspection_result,
    record_inspection_result_in,
    refuse_authorization,
    refuse_authorization_in,
    request_authorization,
    request_authorization_in,
    request_renewal,
    request_renewal_in,
    revoke_authorization,
    revoke_authorization_in,
    start_analysis,
    start_analysis_in,
    substitute_vehicle,
    substitute_vehicle_in,
    suspend_authorization,
    suspend_authorization_in,
    waive_inspection,
    waive_inspection_in,
)
from desktop.services.authorizations.queries import (
    AUTHORIZATION_SORTS,
    AuthorizationDetail,
    AuthorizationInfo,
    SuspensionDates,
    analysis_problems,
    analysis_problems_in,
    analysis_problems_of,
    authorization_detail,
    authorization_detail_in,
    authorization_facts,
    authorization_info,
    get_authorization,
    get_authorization_in,
    list_authorizations,
    list_authorizations_in,
    proposed_fee,
    suspension_dates,
)
from desktop.services.registry.deregistration import (
    deregister_subject,
    deregistration_problems,
    end_for_deregistration,
)
from desktop.services.registry.history import (
    EVENT_LABELS,
    AuthorizationEventInfo,
    AuthorizationRow,
    authorization_rows,
    event_timeline,
    status_label,
)

_label = status_label  # the name services/inspections.py imported before status_label was public

__all__ = [
    "AuthorizationInfo", "AuthorizationEventInfo", "AuthorizationRow", "AuthorizationDetail", "SuspensionBasis",
    "SuspensionDates", "AUTHORIZATION_SORTS", "EVENT_LABELS",
    "request_authorization", "start_analysis", "analysis_problems", "approve_authorization", "refuse_authorization",
    "waive_inspection", "record_inspection_result", "record_fee_payment", "request_renewal", "substitute_vehicle",
    "suspend_authorization", "revoke_authorization", "cassate_authorization", "get_authorization",
    "authorization_detail", "list_authorizations", "status_label", "proposed_fee", "suspension_dates",
    "request_authorization_in", "start_analysis_in", "analysis_problems_in", "approve_authorization_in",
    "refuse_authorization_in", "waive_inspection_in", "record_inspection_result_in", "record_fee_payment_in",
    "request_renewal_in", "substitute_vehicle_in", "suspend_authorization_in", "revoke_authorization_in",
    "cassate_authorization_in", "get_authorization_in", "authorization_detail_in", "list_authorizations_in",
    "analysis_problems_of", "authorization_facts", "authorization_info",
    "authorization_rows", "event_timeline", "deregister_subject", "deregistration_problems",
    "end_for_deregistration",
]
