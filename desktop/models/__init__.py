"""SQLAlchemy 2 typed models of every record of SPEC §2. Only models know tables (STYLE).

Import from here: `from desktop.models import Driver, Authorization, ...`.
"""
from desktop.models.admin import (
    HOLIDAY_KINDS,
    NUMBER_KINDS,
    ROLES,
    AuditEntry,
    Holiday,
    IssuedDocument,
    MunicipalitySettings,
    NumberSequence,
    Parameter,
    User,
    UserRole,
)
from desktop.models.authorizations import (
    AUTHORIZATION_STATUSES,
    LIVE_AUTHORIZATION_STATUSES,
    Authorization,
    AuthorizationEvent,
)
from desktop.models.base import NAMING_CONVENTION, Base, Searchable, Versioned, fold, starts_with
from desktop.models.correspondence import Dispatch, DispatchBatch
from desktop.models.courses import ATTENDANCE_STATUSES, COURSE_STATUSES, CourseAttendance, CourseSession
from desktop.models.enforcement import (
    AUTO_STATUSES,
    DEFENSE_KINDS,
    INFRACTOR_KINDS,
    JUDGMENT_OUTCOMES,
    LEDGER_KINDS,
    MEASURE_KINDS,
    NOTIFICATION_FORMS,
    SEVERITIES,
    AdministrativeMeasure,
    Auto,
    AutoDefense,
    AutoJudgment,
    AutoWaiver,
    AutoNotification,
    InfractionCode,
    LedgerEntry,
)
from desktop.models.finance import (
    FEE_KINDS,
    FEE_STATUSES,
    GUIDE_PURPOSES,
    Fee,
    ISSQN_SHARE_STATUSES,
    IssqnClass,
    IssqnEstimate,
    IssqnPlatformDesignation,
    IssqnShare,
    PaymentGuide,
    VehicleIssqnClass,
)
from desktop.models.inspections import (
    INSPECTION_KINDS,
    INSPECTION_RESULTS,
    INSPECTION_STATUSES,
    Inspection,
    InspectionItem,
    InspectionPlace,
    InspectorBlockedDay,
    InspectorSchedule,
)
from desktop.models.payments import (
    FEE_PAYMENT_SOURCES,
    UNRECONCILED_STATUSES,
    BankReturnFile,
    FeePayment,
    UnreconciledPayment,
)
from desktop.models.platforms import (
    DATA_REQUEST_STATUSES,
    AutoTripEvidence,
    DataRequest,
    PlatformList,
    PlatformListRow,
    TripAccessLog,
    TripFareTotal,
    TripImport,
    TripRoutePoint,
    TripRow,
)
from desktop.models.registry import (
    CNH_CATEGORIES,
    LESSOR_KINDS,
    OWNERSHIP_MODES,
    PLATFORM_STATUSES,
    REGISTRATION_STATUSES,
    ChangeCommunication,
    Document,
    Driver,
    DriverChecklistItem,
    DriverPlatform,
    Lessor,
    Platform,
    Vehicle,
)
from desktop.models.security import AuditCheckpoint, DatabaseMark, SigningKey
from desktop.models.types import LOCAL_TZ, AwareDateTime, CodeString, Dec, JSONData, now

# Tables whose rows are never changed once written; the migration puts triggers on them that refuse
# UPDATE and DELETE (and TRUNCATE on PostgreSQL).
APPEND_ONLY_TABLES = ("ledger_entries", "audit_entries", "audit_checkpoints", "fee_payments")

__all__ = [name for name in dir() if not name.startswith("_")]
