"""The roles of the secretariat's staff (SPEC §1) and who may do what, one table per service module.

A user may hold several roles. SPEC §1: the atendente keeps the front desk (registrations, requests, payments), the
vistoriador inspects (Art. 9, 16), the fiscal draws up autos (Art. 17-23), the gestor decides (approvals,
judgments, cancellations, parameters), the administrador keeps users, backups and settings.

Every role check of a service reads its module's `RoleTable` here (STYLE: "every role check from one table in
`domain/roles.py`"), so a newcomer finds in one page who may read the register's personal data and who may act.
A duty's roles are a tuple: their order is the order the refusal names them in ("exige um dos papéis Atendente
ou Gestor"). Services take `require_role(actor, *COURSE_ROLES.organize)`; tests/unit/test_roles.py checks that no
service spells its own tuple of roles.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from enum import StrEnum
from types import MappingProxyType


class Role(StrEnum):
    ATENDENTE = "atendente"          # front desk: registrations, requests, payments
    VISTORIADOR = "vistoriador"      # inspections (Art. 9, 16)
    FISCAL = "fiscal"                # autos de infração (Art. 17-23)
    GESTOR = "gestor"                # decisions: approvals, judgments, cancellations, parameters
    ADMINISTRADOR = "administrador"  # users, backups, settings

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Role.ATENDENTE: "Atendente",
    Role.VISTORIADOR: "Vistoriador",
    Role.FISCAL: "Fiscal",
    Role.GESTOR: "Gestor",
    Role.ADMINISTRADOR: "Administrador",
}


class RoleTable(Mapping[str, tuple[Role, ...]]):
    """Who may do each duty of one service module: `TABLE.duty` (or `TABLE["duty"]`) is a tuple of roles."""

    def __init__(self, module: str, **duties: Iterable[Role]):
        if not duties:
            raise ValueError(f"tabela de papéis sem deveres: {module}")
        table = {}
        for duty, roles in duties.items():
            roles = tuple(Role(r) for r in roles)
            if not roles or len(set(roles)) != len(roles):
                raise ValueError(f"{module}.{duty}: papéis vazios ou repetidos")
            table[duty] = roles
        self.__dict__["module"] = module
        self.__dict__["_duties"] = MappingProxyType(table)

    def __getattr__(self, duty: str) -> tuple[Role, ...]:
        try:
            return self.__dict__["_duties"][duty]
        except KeyError:
            raise AttributeError(f"a tabela de papéis {self.__dict__.get('module')!r} não tem o dever {duty!r}") \
                from None

    def __setattr__(self, name, value):
        raise AttributeError("tabela de papéis é imutável")

    def __getitem__(self, duty: str) -> tuple[Role, ...]:
        return self._duties[duty]

    def __iter__(self) -> Iterator[str]:
        return iter(self._duties)

    def __len__(self) -> int:
        return len(self._duties)

    def __repr__(self) -> str:
        return f"RoleTable({self.module!r}, {dict(self._duties)!r})"


A, V, F, G, ADM = Role.ATENDENTE, Role.VISTORIADOR, Role.FISCAL, Role.GESTOR, Role.ADMINISTRADOR

READERS: tuple[Role, ...] = (A, F, G, ADM)
"""Who reads enforcement, finance and statistics records (the infractor's name, what a person owes): the office's
staff except the vistoriador, whose work is the vehicle on the inspection day (Art. 9, 16) — issue 25 item 7."""
FRONT_DESK: tuple[Role, ...] = (A, G)
"""The front desk of the register (drivers, vehicles, platforms, authorization requests, fees, guides)."""
ENFORCERS: tuple[Role, ...] = (F, G)
"""Who acts on infractions: the fiscal draws up, the gestor decides (Art. 17-23)."""
EVERYONE: tuple[Role, ...] = tuple(Role)

# -- one table per service module --------------------------------------------------------------------------
REGISTRY_ROLES = RoleTable("registry (drivers, vehicles, platforms, authorizations, attachments)",
                           front_desk=FRONT_DESK, attach=(*FRONT_DESK, V),
                           decide=(G,),       # approve, refuse, waive, suspend, end by act, descadastrar (Art. 3, 24)
                           inspect=(V,))      # the inspection's result on an authorization (Art. 9, 16)
ENFORCEMENT_ROLES = RoleTable("enforcement (autos, process, penalties, ledger)",
                              read=READERS, draw_up=(F,), attach=(F, G, A), measures=ENFORCERS, decide=(G,),
                              measures_read=(F, G, A))
COURSE_ROLES = RoleTable("courses (Art. 12, §2)", organize=FRONT_DESK, enforce=ENFORCERS)
DATA_REQUEST_ROLES = RoleTable("data_requests (Art. 4)", request=ENFORCERS)
PLATFORM_LIST_ROLES = RoleTable("platform_lists (Art. 5, VIII)", receive=(F, G, A))
CHANGE_ROLES = RoleTable("changes (Art. 13, XVIII)", enforce=ENFORCERS)
TRIP_DATA_ROLES = RoleTable("trips (Art. 4)", work=ENFORCERS)
GUIDE_ROLES = RoleTable("guides (Art. 10; Art. 13, XXI)", desk=FRONT_DESK, read=READERS, fine_guide=(A, G, F),
                        export=(A, G, ADM))   # `export guides` (issue 23): every debt's guide, with names and CPF/CNPJ
DISPATCH_ROLES = RoleTable("correspondence (Art. 22, §1-§2)", send=ENFORCERS,   # as the auto's "notify" step
                           read=EVERYONE)   # every desk prints notices that go out (convocations too)
BANK_RETURN_ROLES = RoleTable("bank_returns", receive=FRONT_DESK, read=(*FRONT_DESK, ADM),
                              decide=(G,))   # assign or return a payment that matched no guide (issue 23)
ISSQN_ROLES = RoleTable("issqn (Art. 11)", read=READERS, run=FRONT_DESK, decide=(G,), issue=FRONT_DESK,
                        export=(A, G, ADM))
STATISTICS_ROLES = RoleTable("statistics", read=READERS, report=(G, ADM))
INSPECTION_ROLES = RoleTable("inspections (Art. 9, 16)", configure=(G, ADM), enforce=ENFORCERS,
                             candidates=(*ENFORCERS, V), override_term=(G,))
HOLIDAY_ROLES = RoleTable("holidays", edit=(ADM, G))
PARAMETER_ROLES = RoleTable("parameters", edit=(G, ADM))
SETUP_ROLES = RoleTable("setup", first_user=(ADM, G), rotate_key=(G,), municipality=(ADM,), checkpoint=(G,))
CATALOG_ROLES = RoleTable("catalog (the decree's infraction codes)", edit=(G,))
USER_ROLES = RoleTable("users", manage=(ADM,))
BACKUP_ROLES = RoleTable("backups", manage=(ADM,))
DOCUMENT_ROLES = RoleTable(
    "documents (issue, archive, reprint)",
    sticker=FRONT_DESK, credential=FRONT_DESK, certificate=FRONT_DESK, guide=FRONT_DESK, statement=(A, F, G),
    auto=ENFORCERS, notice=(F, G, V, A), edital=ENFORCERS, data_request=ENFORCERS, inspection=(V, G),
    attendance=FRONT_DESK, statistics=READERS, management_report=(G, ADM), trip_route=ENFORCERS,
    audit_term=(G,),   # the audit termo (issue 28 point 8): a gestor signs it
    dispatch_batch=ENFORCERS,   # the day's post (issue 26, services.correspondence)
    divida_ativa=(G,),   # the certidão de dívida ativa (issue 28 point 9): the gestor who inscribes signs it
    process_extract=ENFORCERS,   # the certidão/extrato do processo of an auto (issue 28 point 1)
)
"""Who may issue each kind of document (`services.documents.archive.ISSUE_ROLES`)."""

LIST_EXPORT_ROLES = RoleTable(
    "exports (LGPD, SPEC §4: only the roles that work with a list may take it out of the program)",
    platforms=EVERYONE, drivers=(A, G, ADM), vehicles=(A, V, G, ADM), authorizations=(A, F, G, ADM),
    inspections=(A, V, G, ADM), autos=(F, G, ADM), ledger=(A, F, G, ADM), divida_ativa=(A, F, G, ADM),
    dispatches=(A, F, G, ADM),   # the correspondence register (issue 26): recipients' names and addresses
)
DASHBOARD_ROLES = RoleTable(
    "dashboard (who sees each tile of the home page)",
    renewal=FRONT_DESK, expiring=FRONT_DESK, last_service_year=(A, V, G), annual_due=(V, G),
    convocation=(A, V, G), impeded=(V, F, G), changes=ENFORCERS, defense_week=ENFORCERS, appeal_week=ENFORCERS,
    judgment=ENFORCERS, overdue=(A, F, G), platform_lists=ENFORCERS, data_requests=ENFORCERS,
    driver_documents=FRONT_DESK, stickers=FRONT_DESK, course_absences=ENFORCERS, checkpoint=(G, ADM),
    backup=(G, ADM),
    # issue 26: the correspondence desk's work, for those who send and join notices (DISPATCH_ROLES.send)
    dispatch_waiting=ENFORCERS, ars_overdue=ENFORCERS, emails_unanswered=ENFORCERS, for_edital=ENFORCERS,
)

TABLES: Mapping[str, RoleTable] = MappingProxyType({
    "registry": REGISTRY_ROLES, "enforcement": ENFORCEMENT_ROLES, "courses": COURSE_ROLES,
    "data_requests": DATA_REQUEST_ROLES, "platform_lists": PLATFORM_LIST_ROLES, "changes": CHANGE_ROLES,
    "trips": TRIP_DATA_ROLES, "guides": GUIDE_ROLES, "bank_returns": BANK_RETURN_ROLES, "issqn": ISSQN_ROLES,
    "statistics": STATISTICS_ROLES, "inspections": INSPECTION_ROLES, "holidays": HOLIDAY_ROLES,
    "parameters": PARAMETER_ROLES, "setup": SETUP_ROLES, "documents": DOCUMENT_ROLES,
    "exports": LIST_EXPORT_ROLES, "dashboard": DASHBOARD_ROLES, "catalog": CATALOG_ROLES, "users": USER_ROLES,
    "backups": BACKUP_ROLES,
})
"""Every table by the service module (or package) it governs."""
del A, V, F, G, ADM
