"""Payment guides (DAM) for every debt (issue 13): what can be done to a guide now, its due date and the late
charges of an overdue guide reissued. Pure Python.

- Statuses and moves: `GUIDE_MACHINE` of `desktop.domain.finance` (open → paid | cancelled, both final). The
  steps below are what a user does to a guide; each status move they make goes through that machine.
- Due date: N calendar days after the issue (a dated parameter: `guide.fee_days`, `guide.fine_days`), moved to
  the next business day when it falls on a weekend or holiday (SPEC §3 "Deadline of N days"; Código Civil
  art. 132 §1).
- When a fine's guide may be issued (gestor's parameter `fine_guide_when`): 0 = once the infractor is notified
  (Art. 22, §§1-2: the auto is notified and the payment does not waive the appeal — issue 12 item 3), 1 = only
  once the decision is final. In both cases only while the auto can be paid (the ledger's payable statuses).
- Late charges (multa e juros de mora) are set by the Código Tributário Municipal, never by this program: they
  are dated parameters with NO default. While they are not set, an overdue guide is reissued for the original
  amount and the screen says so (`LATE_CHARGES_NOT_CONFIGURED`).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from desktop.domain.dates import BusinessCalendar, deadline
from desktop.domain.money import round_cents
from desktop.domain.finance import GUIDE_MACHINE, GuideStatus
from desktop.domain.roles import Role
from desktop.domain.steps import Action, Step, available_actions, refusal

__all__ = [
    "FINE_GUIDE_AFTER_NOTIFICATION", "FINE_GUIDE_ONCE_FINAL", "GUIDE_STEPS", "LATE_CHARGES_NOT_CONFIGURED",
    "GuideFacts", "LateCharges", "NO_WAIVER_STATUSES", "PRE_GRANT_STATUSES", "fee_inscribable", "fine_guide_statuses", "fine_payment_note", "guide_actions", "guide_due_date", "guide_refusal",
    "guide_overdue", "guide_step", "late_charges", "months_late", "reissue_due_date", "renewal_fee_due_date",
]

FINE_GUIDE_AFTER_NOTIFICATION = 0
FINE_GUIDE_ONCE_FINAL = 1
LATE_CHARGES_NOT_CONFIGURED = ("Regras de acréscimos por atraso não configuradas: a guia reemitida mantém o valor "
                               "original. O gestor cadastra a multa e os juros de mora do Código Tributário "
                               "Municipal em Administração → Parâmetros.")

# The auto statuses from which its fine can be paid (desktop.domain.auto_steps.PAYABLE_STATUSES), split by the
# parameter `fine_guide_when`.
_AFTER_NOTIFICATION = frozenset({"notified", "judged", "final", "overdue", "divida_ativa"})
_ONCE_FINAL = frozenset({"final", "overdue", "divida_ativa"})


def fine_guide_statuses(when: int) -> frozenset[str]:
    """The auto statuses in which a fine's guide may be issued, by the gestor's parameter `fine_guide_when`."""
    return _ONCE_FINAL if int(when) == FINE_GUIDE_ONCE_FINAL else _AFTER_NOTIFICATION


# The auto statuses in which the fine is still under discussion: the defense or the appeal term runs, or one was
# filed (desktop.domain.workflow.AutoStatus values). A guide paid then does not end the process (SPEC §3 "Payment
# is not a waiver"; Art. 22 caput: "respeitado o exercício da defesa prévia ou recurso administrativo").
NO_WAIVER_STATUSES = frozenset({"drawn_up", "notified", "in_defense", "judged", "in_appeal"})
_STAGE = {"drawn_up": "no prazo de defesa prévia", "notified": "no prazo de defesa prévia",
          "in_defense": "com defesa prévia em julgamento", "judged": "no prazo de recurso",
          "in_appeal": "com recurso em julgamento"}


def fine_payment_note(auto_number: str, auto_status: str) -> str:
    """What the DAM of a fine still under discussion says (issue 28 point 4): paying does not waive the defense
    or the appeal, and a later annulment or requalification is refunded. "" once the decision is final."""
    if auto_status not in NO_WAIVER_STATUSES:
        return ""
    return (f"Auto nº {auto_number} {_STAGE[auto_status]}: o pagamento não implica renúncia ao recurso nem à defesa "
            "prévia (Art. 22, caput); se a decisão anular o auto ou reduzir a multa, a diferença paga é restituída.")


PRE_GRANT_STATUSES = frozenset({"requested", "in_analysis", "refused", "approved"})


def fee_inscribable(fee_kind: str | None, authorization_status: str | None) -> bool:
    """Whether an unpaid fee is a debt for the dívida ativa (issue 28 item 9). The fee of a request not yet granted
    (Art. 10; Art. 15, VII: paid once the request is approved, before the grant) is the condition of the grant, not
    a credit of the Municipality: unpaid, the authorization is simply not granted. A renewal or inspection fee of
    a granted authorization, and a fee with no authorization, are debts."""
    return not (fee_kind == "authorization" and authorization_status in PRE_GRANT_STATUSES)


def guide_overdue(due_on: date, today: date) -> bool:
    """A guide is overdue from the day after its due date (the one rule every screen, export and command reads;
    its SQL twin is `services.guide_debts.overdue_clause`)."""
    return today > due_on


def guide_due_date(issued_on: date, days: int, calendar: BusinessCalendar) -> date:
    """N days after the issue, excluding the issue day, moved to the next business day (SPEC §3; CC art. 132)."""
    return deadline(issued_on, int(days), calendar)


def reissue_due_date(today: date, days: int, calendar: BusinessCalendar) -> date:
    """A reissued guide, or the guide of a share charged to the substitute driver, falls due on a date of its own:
    today + the CTM term, moved to the next business day — never the old due date, never in the past (issue 23
    point 3: a guide born overdue cannot be paid without late charges)."""
    return guide_due_date(today, days, calendar)


def renewal_fee_due_date(today: date, days: int, valid_until: date | None, calendar: BusinessCalendar) -> date:
    """The renewal fee (Art. 3 §2) falls due before the authorization it renews ends: the usual term, but no later
    than the last business day on or before `valid_until` (and never before today)."""
    due = guide_due_date(today, days, calendar)
    if valid_until is not None and due > valid_until:
        due = max(calendar.previous_business_day(valid_until), today)
    return due


@dataclass(frozen=True, slots=True)
class GuideFacts:
    """What the steps of a guide need to know besides its status."""

    due_on: date
    today: date
    purpose: str = "fee"
    replaced: bool = False        # a newer guide replaces it (it is then cancelled)

    @property
    def overdue(self) -> bool:
        return guide_overdue(self.due_on, self.today)


def _must_be_overdue(facts: GuideFacts | None) -> str | None:
    if facts is None:
        return None
    if not facts.overdue:
        return f"a guia ainda não venceu (vence em {facts.due_on.strftime('%d/%m/%Y')})"
    return None


_OPEN = frozenset({GuideStatus.OPEN.value})
_DESK = frozenset({Role.ATENDENTE, Role.GESTOR})

GUIDE_STEPS: tuple[Step, ...] = (
    Step("pay", GUIDE_MACHINE.table[(GuideStatus.OPEN, GuideStatus.PAID)].action + "…", "Art. 10; Art. 13, XXI",
         _OPEN, _DESK),
    Step("print", "Imprimir guia", "Art. 10; Art. 13, XXI", _OPEN, frozenset()),
    Step("reissue", "Reemitir guia vencida…", "Art. 10; Art. 13, XXI; Código Tributário Municipal", _OPEN, _DESK,
         _must_be_overdue),
    Step("cancel", GUIDE_MACHINE.table[(GuideStatus.OPEN, GuideStatus.CANCELLED)].action + "…",
         "Art. 10; Art. 13, XXI", _OPEN, frozenset({Role.GESTOR})),
)
_BY_KEY = {step.key: step for step in GUIDE_STEPS}


def _label(value: str) -> str:
    try:
        return GuideStatus(value).label
    except ValueError:
        return value


def guide_step(key: str) -> Step:
    return _BY_KEY[key]


def guide_actions(status: str, roles, facts: GuideFacts | None = None) -> tuple[Action, ...]:
    return available_actions(GUIDE_STEPS, status, roles, facts, _label)


def guide_refusal(key: str, status: str, roles, facts: GuideFacts | None = None) -> str | None:
    return refusal(_BY_KEY[key], status, roles, facts, _label)


# ---------------------------------------------------------------------------------------------------- late charges
@dataclass(frozen=True, slots=True)
class LateCharges:
    """Late charges of a guide reissued after its due date. `configured` False: the tax code's rules are not set
    and nothing is added (the reissued guide keeps the original amount)."""

    principal: Decimal
    fine: Decimal
    interest: Decimal
    months: int
    configured: bool
    note: str

    @property
    def total(self) -> Decimal:
        return self.principal + self.fine + self.interest

    @property
    def charges(self) -> Decimal:
        return self.fine + self.interest


def months_late(due_on: date, paid_by: date) -> int:
    """Months or fractions of a month from the day after `due_on` to `paid_by` (0 when not late): 1 for a day
    late, 1 for a full month late, 2 for a month and a day."""
    if paid_by <= due_on:
        return 0
    months = (paid_by.year - due_on.year) * 12 + (paid_by.month - due_on.month)
    if paid_by.day > due_on.day:
        months += 1
    return max(months, 1)


def late_charges(principal: Decimal, due_on: date, new_due_on: date, fine_percent: Decimal | None,
                 interest_monthly_percent: Decimal | None) -> LateCharges:
    """Multa de mora (a percentage of the principal, once) and juros de mora (a percentage per month or fraction
    of a month late, simple interest), as the Código Tributário Municipal sets them. Both percentages are dated
    parameters with no default: when either is missing, nothing is added and `configured` is False."""
    principal = round_cents(principal)
    months = months_late(due_on, new_due_on)
    if fine_percent is None or interest_monthly_percent is None:
        return LateCharges(principal, Decimal("0.00"), Decimal("0.00"), months, False, LATE_CHARGES_NOT_CONFIGURED)
    if months == 0:
        return LateCharges(principal, Decimal("0.00"), Decimal("0.00"), 0, True, "Sem atraso: sem acréscimos.")
    fine = round_cents(principal * Decimal(fine_percent) / 100)
    interest = round_cents(principal * Decimal(interest_monthly_percent) * months / 100)
    note = (f"Multa de mora de {fine_percent} % e juros de {interest_monthly_percent} % ao mês por {months} "
            f"mês(es) de atraso (Código Tributário Municipal).")
    return LateCharges(principal, fine, interest, months, True, note)
