"""The inspection (vistoria, Art. 9, 15, 16): kinds, the checklist of SPEC §3 and the terms that follow it; the
state machine of a booking and the table of what can be done with it now (STYLE: Tryton's workflow as data)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from functools import lru_cache
from types import MappingProxyType

from desktop.domain import law
from desktop.domain.steps import Action, Step, available_actions, refusal
from desktop.domain.dates import BusinessCalendar, deadline
from desktop.domain.formatting import format_date
from desktop.domain.problems import Problem
from desktop.domain.roles import Role
from desktop.domain.workflow import AuthorizationStatus, StateMachine, Transition


class InspectionKind(StrEnum):
    INITIAL = "initial"              # after approval, within 5 days (Art. 9)
    ANNUAL = "annual"                # Art. 16, caput
    EXTRAORDINARY = "extraordinary"  # on notification (Art. 16, §1)
    SUBSTITUTION = "substitution"    # new vehicle (Art. 8, §2)
    REINSPECTION = "reinspection"    # after a failure (Art. 16, §2)

    @property
    def label(self) -> str:
        return _KIND_LABELS[self][0]

    @property
    def article(self) -> str:
        return _KIND_LABELS[self][1]


_KIND_LABELS = {
    InspectionKind.INITIAL: ("Inicial", "Art. 9"),
    InspectionKind.ANNUAL: ("Anual", "Art. 16, caput"),
    InspectionKind.EXTRAORDINARY: ("Extraordinária", "Art. 16, §1"),
    InspectionKind.SUBSTITUTION: ("Substituição de veículo", "Art. 8, §2"),
    InspectionKind.REINSPECTION: ("Revistoria", "Art. 16, §2"),
}


@dataclass(frozen=True, slots=True)
class InspectionItem:
    """One line the inspector checks (pass/fail)."""

    key: str
    label: str
    article: str


INSPECTION_CHECKLIST: tuple[InspectionItem, ...] = (
    InspectionItem("original_features", "Mantém as características originais de fábrica, em perfeito estado de "
                   "conservação, funcionamento e segurança", "Art. 15, parágrafo único, I"),
    InspectionItem("mandatory_equipment", "Possui os equipamentos obrigatórios da legislação de trânsito",
                   "Art. 15, parágrafo único, II"),
    InspectionItem("ctb_requirements", "Satisfaz as exigências do Código de Trânsito Brasileiro",
                   "Art. 15, parágrafo único, III"),
    InspectionItem("compulsory_insurance", "Seguro obrigatório (DPVAT) quitado", "Art. 15, parágrafo único, IV"),
    InspectionItem("air_conditioning", "Ar-condicionado funcionando", "Art. 2, §1; Art. 15, parágrafo único, V"),
    InspectionItem("four_doors", "Quatro portas", "Art. 2, §1"),
    InspectionItem("capacity", "Capacidade de até 7 pessoas, incluindo o condutor", "Art. 2, caput"),
    InspectionItem("fee_paid", "Taxa do Código Tributário Municipal recolhida", "Art. 15, parágrafo único, VII"),
    InspectionItem("registered_in_municipality", "Emplacado em Chapada dos Guimarães-MT",
                   "Art. 15, parágrafo único, VIII"),
    InspectionItem("hygiene", "Veículo em perfeitas condições de higiene e limpeza", "Art. 13, XIII"),
    InspectionItem("no_damage", "Sem avarias na parte externa e interna", "Art. 13, XIV"),
    InspectionItem("no_external_stickers", "Sem adesivos publicitários ou da plataforma na parte externa",
                   "Art. 13, XV"),
    InspectionItem("municipal_sticker", "Adesivo do Município afixado no painel, lado direito", "Art. 14"),
)
"""The inspection checklist of SPEC §3 (Art. 2 §1, Art. 13 XIII-XV, Art. 14, Art. 15 parágrafo único I-VIII)."""

INSPECTION_ITEMS_BY_KEY: Mapping[str, InspectionItem] = MappingProxyType({i.key: i for i in INSPECTION_CHECKLIST})


def inspection_problems(results: Mapping[str, bool], required: tuple[str, ...] | None = None) -> list[Problem]:
    """The failed or unchecked lines of an inspection; an empty list means approved.

    results: {item key: passed}. required: the keys that must be checked (default: every line except the
    municipal sticker, which is handed out after the approval of the initial inspection, Art. 14).
    """
    keys = required if required is not None else tuple(i.key for i in INSPECTION_CHECKLIST
                                                         if i.key != "municipal_sticker")
    problems: list[Problem] = []
    for item in INSPECTION_CHECKLIST:
        if item.key not in keys and item.key not in results:
            continue
        passed = results.get(item.key)
        if passed is None:
            problems.append(Problem(item.key, f"Item não verificado: {item.label}.", item.article))
        elif not passed:
            problems.append(Problem(item.key, f"Reprovado: {item.label}.", item.article))
    unknown = set(results) - set(INSPECTION_ITEMS_BY_KEY)
    for key in sorted(unknown):
        problems.append(Problem(key, f"Item de vistoria desconhecido: {key}."))
    return problems


def presentation_deadline(approved_on: date, calendar: BusinessCalendar) -> date:
    """Last day to present the vehicle for inspection after the approval of the request (Art. 9: 5 days)."""
    return deadline(approved_on, law.INSPECTION_PRESENTATION_DAYS, calendar)


def regularization_deadline(failed_on: date, calendar: BusinessCalendar) -> date:
    """Last day to regularize after a failed inspection; meanwhile the vehicle may not serve (Art. 16, §2)."""
    return deadline(failed_on, law.REGULARIZATION_DAYS, calendar)


# ------------------------------------------------------------------------------ which inspection, when


_AS = AuthorizationStatus
KIND_STATUSES: Mapping[InspectionKind, frozenset[AuthorizationStatus]] = MappingProxyType({
    # Art. 9: the vehicle of an approved request is inspected before the authorization becomes active.
    InspectionKind.INITIAL: frozenset({_AS.APPROVED}),
    # Art. 8, §2: the new vehicle of a substitution (approved, or active then impeded until it is approved).
    InspectionKind.SUBSTITUTION: frozenset({_AS.APPROVED, _AS.IMPEDED}),
    # Art. 16, §2: after a failure, within the 5 days to regularize (first inspection or an active one's).
    InspectionKind.REINSPECTION: frozenset({_AS.APPROVED, _AS.IMPEDED}),
    # Art. 16, caput: once a year, while the authorization is in force.
    InspectionKind.ANNUAL: frozenset({_AS.ACTIVE}),
    # Art. 16, §1: on notification, whenever the secretariat calls the vehicle.
    InspectionKind.EXTRAORDINARY: frozenset({_AS.ACTIVE, _AS.IMPEDED}),
})
"""The authorization statuses that allow each kind of inspection (Art. 8 §2; Art. 9; Art. 16 caput, §§1-2)."""
del _AS


def kind_statuses(kind: str | InspectionKind) -> tuple[str, ...]:
    """The authorization status values that allow `kind` (for a list filter), in the statuses' order."""
    allowed = KIND_STATUSES[InspectionKind(kind)]
    return tuple(s.value for s in AuthorizationStatus if s in allowed)


def kind_problem(kind: str, authorization_status: str) -> Problem | None:
    """Why an inspection of `kind` does not apply to an authorization in `authorization_status` (None: it does);
    the article is the kind's (Art. 8 §2; Art. 9; Art. 16)."""
    try:
        k = InspectionKind(kind)
    except ValueError:
        return Problem("kind", "Escolha o tipo de vistoria.")
    if authorization_status in {s.value for s in KIND_STATUSES[k]}:
        return None
    try:
        label = AuthorizationStatus(authorization_status).label
    except ValueError:
        label = str(authorization_status)
    return Problem("kind", f"Autorização {label.lower()}: não cabe vistoria {k.label.lower()} ({k.article}).",
                   k.article)


# ------------------------------------------------------------------------------ the booking's life


class InspectionStatus(StrEnum):
    """Statuses of an inspection booking (the `inspections.status` column)."""

    SCHEDULED = "scheduled"  # booked in a slot (agendada); may be moved, cancelled, done or missed
    DONE = "done"            # performed, with a result (approved / failed)
    NO_SHOW = "no_show"      # the vehicle did not come (Art. 26, I)
    CANCELLED = "cancelled"  # cancelled with a reason

    @property
    def label(self) -> str:
        return _STATUS_LABELS[self]


_STATUS_LABELS = {
    InspectionStatus.SCHEDULED: "Agendada",
    InspectionStatus.DONE: "Realizada",
    InspectionStatus.NO_SHOW: "Não compareceu",
    InspectionStatus.CANCELLED: "Cancelada",
}


class InspectionResult(StrEnum):
    """The result of a done inspection (Art. 15, parágrafo único; Art. 16, §2)."""

    APPROVED = "approved"
    FAILED = "failed"

    @property
    def label(self) -> str:
        return "Aprovada" if self is InspectionResult.APPROVED else "Reprovada"


LIVE_STATUSES = frozenset({InspectionStatus.SCHEDULED})
"""The statuses that hold a slot: a done, missed or cancelled booking frees it (one live booking per slot)."""

_I = InspectionStatus
INSPECTION_MACHINE = StateMachine(
    name="inspection", label="Vistoria", states=InspectionStatus, initial=_I.SCHEDULED,
    transitions=(
        Transition(_I.SCHEDULED, _I.SCHEDULED, "Remarcar", "Art. 9; Art. 16"),
        Transition(_I.SCHEDULED, _I.DONE, "Realizar vistoria", "Art. 15, parágrafo único; Art. 16"),
        Transition(_I.SCHEDULED, _I.NO_SHOW, "Registrar ausência", "Art. 26, I"),
        Transition(_I.SCHEDULED, _I.CANCELLED, "Cancelar vistoria", ""),
    ),
)
"""A booking is scheduled, then done (approved or failed), missed (no-show) or cancelled; moving keeps it
scheduled. Done, no-show and cancelled are final: a re-inspection is a new booking (Art. 16, §2)."""
del _I


def _from(target: InspectionStatus) -> frozenset[str]:
    """The statuses from which the machine reaches `target` (so the steps follow the machine)."""
    return frozenset(t.source.value for t in INSPECTION_MACHINE.transitions if t.target == target)


@dataclass(frozen=True, slots=True)
class BookingFacts:
    """What the steps' conditions look at besides the status: the booking's day and the office's today."""

    day: date | None
    today: date
    has_authorization: bool = True


def _result_on_the_day(facts: BookingFacts | None) -> str | None:
    if facts is None or facts.day is None or facts.day <= facts.today:
        return None
    return f"a vistoria está marcada para {format_date(facts.day)}: o resultado é registrado no dia"


def _absence_on_the_day(facts: BookingFacts | None) -> str | None:
    if facts is None or facts.day is None or facts.day <= facts.today:
        return None
    return "a vistoria ainda não aconteceu: a ausência só pode ser registrada no dia marcado ou depois"


def _needs_authorization(facts: BookingFacts | None) -> str | None:
    if facts is None or facts.has_authorization:
        return None
    return "a vistoria não está ligada a uma autorização"


SCHEDULER_ROLES = frozenset({Role.ATENDENTE, Role.VISTORIADOR, Role.GESTOR})
"""Who books, moves and cancels inspections (the front desk, the inspectors, the gestor)."""

BOOKING_STEPS: tuple[Step, ...] = (
    Step("move", "Remarcar…", "Art. 9; Art. 16", _from(InspectionStatus.SCHEDULED), SCHEDULER_ROLES),
    Step("cancel", "Cancelar vistoria…", "", _from(InspectionStatus.CANCELLED), SCHEDULER_ROLES),
    # Art. 15, parágrafo único: the inspector checks the vehicle on the day (not before).
    Step("run", "Realizar vistoria…", "Art. 15, parágrafo único; Art. 16", _from(InspectionStatus.DONE),
         frozenset({Role.VISTORIADOR}), _result_on_the_day),
    # Art. 26, I: "deixar de comparecer à vistoria" — known only on the day or after.
    Step("no_show", "Registrar ausência", "Art. 26, I", _from(InspectionStatus.NO_SHOW),
         frozenset({Role.VISTORIADOR, Role.GESTOR}), _absence_on_the_day),
    # The convocation calls the vehicle of an authorization to a live booking (Art. 9; Art. 16, §1).
    Step("convocation", "Imprimir convocação", "Art. 9; Art. 16, §1", frozenset(LIVE_STATUSES), frozenset(),
         _needs_authorization),
    # The laudo records a done inspection's checklist (Art. 15, parágrafo único).
    Step("report", "Imprimir laudo", "Art. 15, parágrafo único", frozenset({InspectionStatus.DONE.value}),
         frozenset({Role.VISTORIADOR, Role.GESTOR})),
)
"""What can be done with a booking: the buttons of the scheduler and the checks of the service."""

BOOKING_STEPS_BY_KEY: Mapping[str, Step] = MappingProxyType({s.key: s for s in BOOKING_STEPS})


def _status_label(value: str) -> str:
    try:
        return InspectionStatus(value).label
    except ValueError:
        return str(value)


def booking_actions(status: str, roles, facts: BookingFacts | None = None) -> tuple[Action, ...]:
    """Every booking step as an Action for this booking and this user (enabled, or the reason it is not)."""
    return _booking_actions(str(status), frozenset(Role(r) for r in roles), facts)


@lru_cache(maxsize=1024)
def _booking_actions(status: str, roles: frozenset[Role], facts: BookingFacts | None) -> tuple[Action, ...]:
    # A week of the calendar has hundreds of bookings but a handful of (status, day) pairs: the frozen actions
    # are computed once per pair (≈ 0.09 ms each otherwise).
    return available_actions(BOOKING_STEPS, status, roles, facts, _status_label)


def booking_refusal(key: str, status: str, roles, facts: BookingFacts | None = None) -> str | None:
    """Why the booking step `key` cannot be done now (None: it can) — the service's check, the same table."""
    return refusal(BOOKING_STEPS_BY_KEY[key], status, roles, facts, _status_label)


# ------------------------------------------------------------------------------ what a result means


def inspection_outcome(approved: bool, status_before: str, status_after: str,
                       regularize_by: date | None = None) -> str:
    """What a result does to the authorization, in the words the inspector reads after recording it.

    - Approved: an impeded authorization is released (Art. 16, §2); an approved request becomes active once the
      fee is paid too (Art. 9; Art. 10); otherwise it stays as it was.
    - Failed on an approved request (the first inspection or a new vehicle's before activation): the
      authorization stays Aprovada and does not become active until the vehicle is approved (Art. 9); the
      re-inspection must happen within the 5 days of Art. 16, §2. It is not impeded: it never operated.
    - Failed on an active authorization: impeded, the vehicle may not serve until a re-inspection approves it
      within the 5 days (Art. 16, §2). Failed while impeded: it stays impeded with a new term.
    """
    term = f" até {format_date(regularize_by)}" if regularize_by else ""
    if approved:
        if status_before == AuthorizationStatus.IMPEDED and status_after == AuthorizationStatus.ACTIVE:
            return "Vistoria aprovada: a autorização deixa de estar impedida e volta a ficar ativa (Art. 16, §2)."
        if status_after == AuthorizationStatus.ACTIVE and status_before != AuthorizationStatus.ACTIVE:
            return "Vistoria aprovada: a autorização está ativa (Art. 9; Art. 10)."
        if status_after == AuthorizationStatus.APPROVED:
            return ("Vistoria aprovada: a autorização fica ativa quando a taxa for paga (Art. 10; Art. 15, "
                    "parágrafo único, VII).")
        return "Vistoria aprovada."
    if status_before == AuthorizationStatus.APPROVED:
        return (f"Vistoria reprovada: a autorização continua Aprovada e só se torna ativa depois que o veículo for "
                f"aprovado em vistoria (Art. 9). A revistoria deve ser feita{term} (5 dias, Art. 16, §2).")
    if status_before == AuthorizationStatus.IMPEDED:
        return (f"Vistoria reprovada: a autorização continua impedida e o veículo não pode prestar o serviço; "
                f"novo prazo para regularizar{term} (Art. 16, §2).")
    if status_after == AuthorizationStatus.IMPEDED:
        return (f"Vistoria reprovada: a autorização fica impedida e o veículo não pode prestar o serviço até a "
                f"revistoria aprovar; prazo para regularizar{term} (Art. 16, §2).")
    return f"Vistoria reprovada: prazo para regularizar{term} (Art. 16, §2)."


def failure_preview(authorization_status: str) -> str:
    """What a failure would do, for the checklist form before the result is recorded (see inspection_outcome)."""
    if authorization_status == AuthorizationStatus.APPROVED:
        return ("a autorização continua Aprovada e só se torna ativa com o veículo aprovado (Art. 9); revistoria "
                "em até 5 dias (Art. 16, §2).")
    if authorization_status in (AuthorizationStatus.ACTIVE, AuthorizationStatus.IMPEDED):
        return "prazo de 5 dias para regularizar e autorização impedida (Art. 16, §2)."
    return "prazo de 5 dias para regularizar (Art. 16, §2)."


@dataclass(frozen=True, slots=True)
class ConvocationTerms:
    """What a convocation for an inspection of `kind` cites and asks (issue 24 item 8): its own article, the
    municipal sticker only where one was already handed out (Art. 14: after approval), and the Art. 26, I fine only
    to an authorized driver (Art. 20: the infractor of this law is the authorized driver or the platform)."""

    basis: str
    asks_sticker: bool
    fine_applies: bool


def convocation_terms(kind: InspectionKind) -> ConvocationTerms:
    """Art. 9 (initial, an applicant: no sticker yet, no Art. 26 I fine); Art. 16 caput (annual), §1
    (extraordinary), §2 (re-inspection); Art. 8, §2 (the substitute vehicle: no sticker of its own yet)."""
    kind = InspectionKind(kind)
    return ConvocationTerms(
        basis=kind.article,
        asks_sticker=kind in (InspectionKind.ANNUAL, InspectionKind.EXTRAORDINARY, InspectionKind.REINSPECTION),
        fine_applies=kind is not InspectionKind.INITIAL)
