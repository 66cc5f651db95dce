"""ISSQN per registered vehicle (Art. 11; SPEC §3 "Taxes"; issue 13): estimation classes and the vehicles'
class decisions (`classes`), the monthly competência run (`competence`), the guides, their cancellation and the
substitute taxpayer (`collection`), what the screen reads (`queries`) and the export (`export`)."""
from desktop.services.issqn.classes import (
    create_class,
    create_class_in,
    decide_vehicle_class,
    decide_vehicle_class_in,
    designate_platform,
    designate_platform_in,
    list_classes,
    new_class_base,
    new_class_base_in,
    vehicle_class_history,
    vehicle_designations,
)
from desktop.services.issqn.collection import (
    cancel_issqn_guide,
    cancel_issqn_guide_in,
    charge_share_to_driver,
    charge_share_to_driver_in,
    guide_for,
    issqn_due_date_in,
    issue_issqn_guide,
    issue_issqn_guide_in,
    open_guide_number,
    platform_by_cnpj,
)
from desktop.services.issqn.common import (
    DECIDE_ROLES,
    ISSUE_ROLES,
    READ_ROLES,
    RUN_ROLES,
    ClassDecisionInfo,
    ClassInfo,
    DesignationInfo,
    GuideInfo,
    MonthTotals,
    PlatformTotal,
    RunResult,
    SeriesPoint,
    ShareRow,
    UnpaidPlatform,
    VehicleProblem,
    parse_month,
)
from desktop.services.issqn.competence import month_facts_in, run_competence, run_competence_in, unclassified_vehicles
from desktop.services.issqn.export import ISSQN_HEADERS, export_issqn
from desktop.services.issqn.report import CONTEST_DAYS, print_lancamento_notice, report_pdf, write_report
from desktop.services.issqn.queries import (
    SITUATIONS,
    month_totals,
    platform_choices,
    platform_series,
    share_count,
    share_rows,
    unpaid_platforms,
)

__all__ = [name for name in dir() if not name.startswith("_")]
