"""State machines as data, plus one `transition()` that refuses every pair not listed (STYLE: Tryton's workflow).

The same table decides which buttons a screen enables (`allowed()`), so the rule lives in one place. Services turn
`TransitionNotAllowed` into `desktop.errors.TransitionRefused` (domain does not import the service layer).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType


class AuthorizationStatus(StrEnum):
    """Statuses of an authorization (SPEC §3 "Authorization lifecycle")."""

    REQUESTED = "requested"
    IN_ANALYSIS = "in_analysis"
    REFUSED = "refused"
    APPROVED = "approved"
    ACTIVE = "active"
    IMPEDED = "impeded"
    SUSPENDED = "suspended"
    REVOKED = "revoked"
    CASSADA = "cassada"
    EXPIRED = "expired"

    @property
    def label(self) -> str:
        return _AUTHORIZATION_LABELS[self]


_AUTHORIZATION_LABELS = {
    AuthorizationStatus.REQUESTED: "Requerida",
    AuthorizationStatus.IN_ANALYSIS: "Em análise",
    AuthorizationStatus.REFUSED: "Indeferida",
    AuthorizationStatus.APPROVED: "Aprovada",
    AuthorizationStatus.ACTIVE: "Ativa",
    AuthorizationStatus.IMPEDED: "Impedida",
    AuthorizationStatus.SUSPENDED: "Suspensa",
    AuthorizationStatus.REVOKED: "Revogada",
    AuthorizationStatus.CASSADA: "Cassada",
    AuthorizationStatus.EXPIRED: "Expirada",
}


class AutoStatus(StrEnum):
    """Statuses of an auto de infração (SPEC §3 "Auto flow", Art. 19 and 22)."""

    DRAWN_UP = "drawn_up"          # lavrado (Art. 19, 22 caput)
    NOTIFIED = "notified"          # proof of notice joined: the defense term runs (Art. 22, §§1-2)
    IN_DEFENSE = "in_defense"      # defense filed, awaiting judgment
    JUDGED = "judged"              # first-instance decision upholding the auto: the appeal term runs
    IN_APPEAL = "in_appeal"        # appeal filed
    FINAL = "final"                # decision final (no defense/appeal left): penalties take effect
    PAID = "paid"
    OVERDUE = "overdue"            # final and unpaid after the payment term
    DIVIDA_ATIVA = "divida_ativa"  # sent to the tax-debt register
    CANCELLED = "cancelled"        # cancelled by the gestor, with a reason (an error in the auto)
    ANNULLED = "annulled"          # defense or appeal upheld: the auto is void

    @property
    def label(self) -> str:
        return _AUTO_LABELS[self]


_AUTO_LABELS = {
    AutoStatus.DRAWN_UP: "Lavrado",
    AutoStatus.NOTIFIED: "Notificado",
    AutoStatus.IN_DEFENSE: "Em defesa",
    AutoStatus.JUDGED: "Julgado",
    AutoStatus.IN_APPEAL: "Em recurso",
    AutoStatus.FINAL: "Decisão definitiva",
    AutoStatus.PAID: "Pago",
    AutoStatus.OVERDUE: "Vencido",
    AutoStatus.DIVIDA_ATIVA: "Inscrito em dívida ativa",
    AutoStatus.CANCELLED: "Cancelado",
    AutoStatus.ANNULLED: "Anulado",
}

AUTO_COUNTS_FOR_RECURRENCE = frozenset({AutoStatus.FINAL, AutoStatus.PAID, AutoStatus.OVERDUE,
                                        AutoStatus.DIVIDA_ATIVA})
"""Autos with a final decision that were not cancelled or annulled: the priors of a recurrence (SPEC §3)."""


@dataclass(frozen=True, slots=True)
class Transition:
    """An allowed move, the Portuguese name of the action (a button's text) and its legal basis."""

    source: StrEnum
    target: StrEnum
    action: str
    article: str = ""


@dataclass(frozen=True)
class StateMachine:
    """A set of statuses and the moves allowed between them; everything not listed is refused."""

    name: str
    label: str
    states: type[StrEnum]
    initial: StrEnum
    transitions: tuple[Transition, ...]

    def __post_init__(self):
        table = {(t.source, t.target): t for t in self.transitions}
        if len(table) != len(self.transitions):
            raise ValueError(f"transição repetida na máquina {self.name}")
        object.__setattr__(self, "_table", MappingProxyType(table))

    @property
    def table(self) -> Mapping[tuple[StrEnum, StrEnum], Transition]:
        return self._table  # type: ignore[attr-defined]

    def state(self, value: str | StrEnum) -> StrEnum:
        try:
            return self.states(value)
        except ValueError:
            raise UnknownStatus(self, value) from None

    @property
    def terminal(self) -> frozenset:
        """Statuses with no way out."""
        sources = {t.source for t in self.transitions}
        return frozenset(s for s in self.states if s not in sources)

    def find(self, current: str | StrEnum, target: str | StrEnum) -> Transition | None:
        return self.table.get((self.state(current), self.state(target)))


class TransitionNotAllowed(ValueError):
    """The machine does not list the move from `current` to `target`. `str(e)` is Portuguese."""

    def __init__(self, machine: StateMachine, current: StrEnum, target: StrEnum):
        super().__init__(
            f"{machine.label}: não é permitido passar de «{current.label}» para «{target.label}».")  # type: ignore[attr-defined]
        self.machine = machine
        self.current = current
        self.target = target


class UnknownStatus(ValueError):
    def __init__(self, machine: StateMachine, value: object):
        super().__init__(f"{machine.label}: situação desconhecida {value!r}.")
        self.machine = machine
        self.value = value


def _machine(machine: StateMachine | str) -> StateMachine:
    if isinstance(machine, StateMachine):
        return machine
    try:
        return MACHINES[machine]
    except KeyError:
        raise ValueError(f"máquina de estados desconhecida: {machine!r}") from None


def transition(machine: StateMachine | str, current: str | StrEnum, target: str | StrEnum) -> StrEnum:
    """`target` (as the machine's enum) when the move is listed; raises TransitionNotAllowed otherwise.

    `machine` is a StateMachine or its name ("authorization", "auto")."""
    machine = _machine(machine)
    source, goal = machine.state(current), machine.state(target)
    if (source, goal) not in machine.table:
        raise TransitionNotAllowed(machine, source, goal)
    return goal


def allowed(machine: StateMachine | str, current: str | StrEnum) -> set:
    """The statuses reachable from `current` in one move (enable exactly these buttons)."""
    machine = _machine(machine)
    source = machine.state(current)
    return {t.target for t in machine.transitions if t.source == source}


def actions(machine: StateMachine | str, current: str | StrEnum) -> list[Transition]:
    """The moves from `current`, in table order, with their Portuguese action names."""
    machine = _machine(machine)
    source = machine.state(current)
    return [t for t in machine.transitions if t.source == source]


A = AuthorizationStatus
AUTHORIZATION_MACHINE = StateMachine(
    name="authorization", label="Autorização", states=AuthorizationStatus, initial=A.REQUESTED,
    transitions=(
        Transition(A.REQUESTED, A.IN_ANALYSIS, "Iniciar análise", "Art. 3"),
        Transition(A.REQUESTED, A.REFUSED, "Indeferir", "Art. 3"),
        Transition(A.IN_ANALYSIS, A.APPROVED, "Aprovar", "Art. 3; Art. 12"),
        Transition(A.IN_ANALYSIS, A.REFUSED, "Indeferir", "Art. 3; Art. 12"),
        Transition(A.APPROVED, A.ACTIVE, "Ativar (taxa paga e vistoria aprovada ou dispensada)",
                   "Art. 9; Art. 10; Art. 15, parágrafo único, VI-VII"),
        Transition(A.APPROVED, A.REVOKED, "Revogar", "Art. 24, I, c"),
        Transition(A.ACTIVE, A.IMPEDED, "Impedir (vistoria reprovada)", "Art. 16, §2; Art. 26, II"),
        Transition(A.ACTIVE, A.SUSPENDED, "Suspender", "Art. 24, I, b"),
        Transition(A.ACTIVE, A.REVOKED, "Revogar", "Art. 24, I, c"),
        Transition(A.ACTIVE, A.CASSADA, "Cassar", "Art. 24, I, e; Art. 26, §2"),
        Transition(A.ACTIVE, A.EXPIRED, "Expirar", "Art. 3, §1"),
        Transition(A.IMPEDED, A.ACTIVE, "Liberar (nova vistoria aprovada)", "Art. 16, §2"),
        Transition(A.IMPEDED, A.SUSPENDED, "Suspender", "Art. 24, I, b"),
        Transition(A.IMPEDED, A.REVOKED, "Revogar", "Art. 24, I, c"),
        Transition(A.IMPEDED, A.CASSADA, "Cassar", "Art. 24, I, e; Art. 26, §2"),
        Transition(A.IMPEDED, A.EXPIRED, "Expirar", "Art. 3, §1"),
        Transition(A.SUSPENDED, A.ACTIVE, "Encerrar suspensão", "Art. 24, parágrafo único; Art. 26, §1"),
        Transition(A.SUSPENDED, A.REVOKED, "Revogar", "Art. 24, I, c"),
        Transition(A.SUSPENDED, A.CASSADA, "Cassar", "Art. 24, I, e; Art. 26, §2"),
        Transition(A.SUSPENDED, A.EXPIRED, "Expirar", "Art. 3, §1"),
        Transition(A.EXPIRED, A.ACTIVE, "Renovar (pedido tempestivo, nova taxa paga)", "Art. 3, §2"),
    ),
)
"""Authorization statuses (SPEC §3). Renewal keeps the number and the status `active`; `expired -> active` is a
renewal requested in time whose new fee was paid after the old validity ended. Refused, revoked and cassada are
final: a new request makes a new authorization."""

U = AutoStatus
AUTO_MACHINE = StateMachine(
    name="auto", label="Auto de infração", states=AutoStatus, initial=U.DRAWN_UP,
    transitions=(
        Transition(U.DRAWN_UP, U.NOTIFIED, "Registrar notificação", "Art. 22, §§1-2"),
        Transition(U.DRAWN_UP, U.CANCELLED, "Cancelar", "Art. 17"),
        Transition(U.NOTIFIED, U.IN_DEFENSE, "Registrar defesa", "Art. 22, caput"),
        Transition(U.NOTIFIED, U.JUDGED, "Julgar sem defesa", "Art. 22, caput"),
        Transition(U.NOTIFIED, U.FINAL, "Encerrar prazo sem defesa", "Art. 22, caput"),
        Transition(U.NOTIFIED, U.CANCELLED, "Cancelar", "Art. 17"),
        Transition(U.IN_DEFENSE, U.JUDGED, "Julgar defesa (auto mantido)", "Art. 22, caput"),
        Transition(U.IN_DEFENSE, U.ANNULLED, "Julgar defesa procedente (anular)", "Art. 22, caput"),
        Transition(U.IN_DEFENSE, U.FINAL, "Registrar desistência", "Art. 22, caput"),
        Transition(U.IN_DEFENSE, U.CANCELLED, "Cancelar", "Art. 17"),
        Transition(U.JUDGED, U.IN_APPEAL, "Registrar recurso", "Art. 22, caput"),
        Transition(U.JUDGED, U.FINAL, "Encerrar prazo de recurso", "Art. 22, caput"),
        Transition(U.JUDGED, U.CANCELLED, "Cancelar", "Art. 17"),
        Transition(U.IN_APPEAL, U.FINAL, "Julgar recurso (auto mantido)", "Art. 22, caput"),
        Transition(U.IN_APPEAL, U.ANNULLED, "Julgar recurso procedente (anular)", "Art. 22, caput"),
        Transition(U.IN_APPEAL, U.CANCELLED, "Cancelar", "Art. 17"),
        Transition(U.FINAL, U.PAID, "Registrar pagamento", "Art. 13, XXI"),
        Transition(U.FINAL, U.OVERDUE, "Marcar como vencido", "Art. 13, XXI"),
        Transition(U.FINAL, U.ANNULLED, "Anular de ofício", "Art. 17"),
        Transition(U.OVERDUE, U.PAID, "Registrar pagamento", "Art. 13, XXI"),
        Transition(U.OVERDUE, U.DIVIDA_ATIVA, "Inscrever em dívida ativa", "Art. 22, caput"),
        Transition(U.OVERDUE, U.ANNULLED, "Anular de ofício", "Art. 17"),
        Transition(U.DIVIDA_ATIVA, U.PAID, "Registrar pagamento", "Art. 13, XXI"),
        # A payment returned (estorno of a bounced payment): the debt is owed again, as it stood before
        # (issue 12, second pass): within the payment term, past it, or already inscribed in the dívida ativa.
        Transition(U.PAID, U.FINAL, "Pagamento estornado (no prazo de pagamento)", "Art. 13, XXI"),
        Transition(U.PAID, U.OVERDUE, "Pagamento estornado (prazo de pagamento vencido)", "Art. 13, XXI"),
        Transition(U.PAID, U.DIVIDA_ATIVA, "Pagamento estornado (já inscrito em dívida ativa)", "Art. 13, XXI"),
    ),
)
"""Auto statuses (SPEC §3 auto flow). Cancelled and annulled are final; paid is final unless its payment is
reversed (returned), when the debt is owed again (`auto_steps.status_after_returned_payment`); a reduction of
the fine is a ledger entry, not a status. Payment is not a waiver (issue 12 item 3): an auto is `paid` only once its decision is final
(the appeal term ended, the appeal was judged, or a written waiver — desistência — was filed); a payment made
before stays in the ledger and the auto keeps its status until then."""

MACHINES: Mapping[str, StateMachine] = MappingProxyType({m.name: m for m in (AUTHORIZATION_MACHINE, AUTO_MACHINE)})
del A, U
