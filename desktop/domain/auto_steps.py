"""What can be done now on an auto de infração, as data (STYLE: Tryton — the table that refuses also draws the
buttons). Next to `workflow.AUTO_MACHINE`: each `Step` names the statuses that allow it, the roles that may do it,
the article behind it and, where the terms of Art. 22 decide, a condition over the auto's facts.

The statuses of the steps that move the auto are read from the machine itself (`_sources`), so a step is never
offered from a status the machine would refuse. Services check the same steps with `refusal()` before acting
(`auto_refusal`), and return `auto_actions()` with every auto they read; screens draw their buttons from those.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from desktop.domain.steps import Action, Step, available_actions, refusal
from desktop.domain.roles import Role
from desktop.domain.workflow import AUTO_MACHINE, AutoStatus

__all__ = [
    "AUTO_STEPS", "AUTO_STEP_KEYS", "AutoFacts", "DECIDED_STATUSES", "DIVIDA_ATIVA_STEPS", "PAYABLE_STATUSES",
    "WAIVER_STATUSES", "auto_actions", "divida_ativa_actions",
    "auto_refusal", "auto_status_label", "auto_step", "notice_platforms", "notice_starts_term",
    "status_after_returned_payment",
]


@dataclass(frozen=True, slots=True)
class AutoFacts:
    """What the conditions read: the auto's status and terms, the day the step happens and whether a notice
    still waits for its proof (Art. 22, §2); whether a decision of the authority waits to be notified (issue 24
    item 3) and whether penalties other than the fine wait for the authority's decision (issue 24 item 1)."""

    status: AutoStatus
    today: date
    defense_deadline: date | None = None
    appeal_deadline: date | None = None
    pending_proof: bool = False
    balance_due: bool = True      # the fine still has a balance (issue 23 point 4: a paid fine takes no payment)
    decision_to_notify: bool = False
    penalty_decision_pending: bool = False

    @property
    def defense_open(self) -> bool:
        """The defense term (Art. 22, §2) runs: from the joined proof to its deadline, inclusive."""
        return self.defense_deadline is not None and self.today <= self.defense_deadline

    @property
    def appeal_open(self) -> bool:
        return self.appeal_deadline is not None and self.today <= self.appeal_deadline


def _balance_due(facts: AutoFacts | None) -> str | None:
    if facts is None or facts.balance_due:
        return None
    return "a multa já está paga (saldo zero)"


def _sources(target: AutoStatus) -> frozenset[str]:
    """The statuses from which AUTO_MACHINE leads to `target` (the machine decides; this table only reads it)."""
    return frozenset(str(t.source) for t in AUTO_MACHINE.transitions if t.target == target)


def _day(value: date) -> str:
    return value.strftime("%d/%m/%Y")


def _pending_proof(facts: AutoFacts) -> str | None:
    return None if facts.pending_proof else "não há notificação aguardando a prova"


def _term_open(deadline: date | None, today: date, what: str, not_started: str = "") -> str | None:
    """None while the term of `what` runs on `today` (its deadline inclusive), else why it does not."""
    if deadline is not None and today <= deadline:
        return None
    if deadline is None:
        return f"o prazo de {what} ainda não começou{not_started}"
    return f"o prazo de {what} terminou em {_day(deadline)}"


def _defense_term_open(facts: AutoFacts) -> str | None:
    # Art. 22, caput and §2: the defesa prévia is received while its term runs (from the joined proof).
    return _term_open(facts.defense_deadline, facts.today, "defesa", " (falta juntar a prova da notificação)")


def _appeal_term_open(facts: AutoFacts) -> str | None:
    # Art. 22, caput and §2: the recurso is received while its term runs (from the joined proof of the decision's
    # notice).
    return _term_open(facts.appeal_deadline, facts.today, "recurso",
                      " (falta juntar a prova da notificação da decisão)")


def _decision_to_notify(facts: AutoFacts) -> str | None:
    # Art. 22, §§1-2: a decision is notified in one of the six forms of §1 and the proof joined (issue 24 item 3).
    return None if facts.decision_to_notify else "não há decisão aguardando notificação"


def _penalty_decision_pending(facts: AutoFacts) -> str | None:
    # Art. 26, §2 ("será cassada pela autoridade administrativa"); SPEC §3: a penalty other than the fine exists only
    # through a decision of the authority (a gestor), even when the auto became final without defense.
    return None if facts.penalty_decision_pending else "não há penalidade aguardando a decisão da autoridade"


def _judgeable(facts: AutoFacts) -> str | None:
    # Art. 22, caput: a notified auto without a defense is judged only after the defense term.
    if facts.status is AutoStatus.NOTIFIED and facts.defense_open:
        return f"o prazo de defesa prévia corre até {_day(facts.defense_deadline)}"  # type: ignore[arg-type]
    return None


def _term_over(facts: AutoFacts) -> str | None:
    # Art. 22, caput: the decision becomes final when the defense (notified) or appeal (judged) term has passed.
    if facts.status is AutoStatus.NOTIFIED and facts.defense_open:
        return f"o prazo de defesa prévia corre até {_day(facts.defense_deadline)}"  # type: ignore[arg-type]
    if facts.status is AutoStatus.JUDGED and facts.appeal_open:
        return f"o prazo de recurso corre até {_day(facts.appeal_deadline)}"  # type: ignore[arg-type]
    if facts.status is AutoStatus.JUDGED and facts.appeal_deadline is None:
        # Art. 22, §2 (SPEC §3): the appeal term, like the defense term, runs from the joining of the proof that
        # the decision was notified; before that there is no term to end.
        return "a decisão ainda não foi notificada: o prazo de recurso corre da juntada da prova (Art. 22, §2)"
    return None


_F, _G, _A = Role.FISCAL, Role.GESTOR, Role.ATENDENTE
_S = AutoStatus
_NOTICE = frozenset({str(_S.DRAWN_UP), str(_S.NOTIFIED)})
_LIVE = frozenset(str(s) for s in AutoStatus if s not in (_S.CANCELLED, _S.ANNULLED))

PAYABLE_STATUSES = frozenset(AutoStatus(s) for s in _sources(_S.PAID))
"""The statuses from which the auto machine leads to `paid`: a final decision (settled when its balance is zero)."""
_PAYMENT_OPEN = frozenset({str(_S.NOTIFIED), str(_S.IN_DEFENSE), str(_S.JUDGED), str(_S.IN_APPEAL)}) \
    | frozenset(str(s) for s in PAYABLE_STATUSES)
"""A payment is taken once the infractor is notified, before the decision is final too (issue 12 item 3: paying is
not a waiver; the payment is kept and the auto is `paid` when the decision becomes final)."""
DECIDED_STATUSES = frozenset({str(_S.FINAL), str(_S.PAID), str(_S.OVERDUE), str(_S.DIVIDA_ATIVA)})
"""A final decision, not cancelled nor annulled: where the authority decides penalties an auto final without a
judgment proposed (issue 24 item 1), and where a decision of the authority may still wait for its notice."""
WAIVER_STATUSES = frozenset({str(_S.NOTIFIED), str(_S.IN_DEFENSE), str(_S.JUDGED), str(_S.IN_APPEAL)})
"""Where a written waiver (desistência) of the defense or of the appeal makes the decision final (Art. 22)."""

AUTO_STEPS: tuple[Step, ...] = (
    # Art. 22, §1: notices go out while the auto waits for its proof of notice.
    Step("notify", "Registrar notificação", "Art. 22, §1", _NOTICE, frozenset({_F, _G})),
    # Art. 22, §2: the term runs from the day the proof is joined.
    Step("join_proof", "Juntar prova da notificação", "Art. 22, §2",
         _NOTICE | {str(_S.JUDGED)} | DECIDED_STATUSES, frozenset({_F, _G}), _pending_proof),
    # Art. 22, §§1-2 (issue 24 item 3): the decision is notified in one of the same six forms, the proof joined.
    Step("notify_decision", "Notificar a decisão", "Art. 22, §§1-2", DECIDED_STATUSES | {str(_S.JUDGED)},
         frozenset({_F, _G}), _decision_to_notify),
    Step("defense", "Registrar defesa prévia", "Art. 22, caput", _sources(_S.IN_DEFENSE),
         frozenset({_A, _F, _G}), _defense_term_open),
    Step("judge", "Julgar", "Art. 22, caput", frozenset({str(_S.NOTIFIED), str(_S.IN_DEFENSE)}),
         frozenset({_G}), _judgeable),
    Step("appeal", "Registrar recurso", "Art. 22, caput", _sources(_S.IN_APPEAL), frozenset({_A, _F, _G}),
         _appeal_term_open),
    Step("judge_appeal", "Julgar recurso", "Art. 22, caput", frozenset({str(_S.IN_APPEAL)}), frozenset({_G})),
    Step("finalize", "Encerrar prazo (decisão definitiva)", "Art. 22, caput",
         frozenset({str(_S.NOTIFIED), str(_S.JUDGED)}), frozenset({_G}), _term_over),
    # Art. 22: the infractor's written waiver (desistência) of the defense or the appeal makes the decision final.
    Step("waiver", "Registrar desistência", "Art. 22, caput", WAIVER_STATUSES, frozenset({_A, _F, _G})),
    # Art. 26, §2; Art. 24, I (issue 24 item 1): suspension, cassation and seizure only by the authority's decision.
    Step("decide_penalties", "Decidir penalidades", "Art. 26, §2; Art. 24, I", DECIDED_STATUSES,
         frozenset({_G}), _penalty_decision_pending),
    Step("payment", "Registrar pagamento", "Art. 13, XXI", _PAYMENT_OPEN, frozenset({_A, _G}), _balance_due),
    # Art. 24, II: administrative measures while the auto is not void.
    Step("measure", "Registrar medida administrativa", "Art. 24, II", _LIVE, frozenset({_F, _G})),
    Step("divida_ativa", "Inscrever em dívida ativa", "Art. 22, caput", _sources(_S.DIVIDA_ATIVA) - {str(_S.PAID)},
         frozenset({_G})),
    # Art. 17: an auto drawn up in error is cancelled before its decision is final ...
    Step("cancel", "Cancelar auto", "Art. 17", _sources(_S.CANCELLED), frozenset({_G})),
    # ... and a final, unpaid one is annulled de ofício.
    Step("annul", "Anular de ofício", "Art. 17", frozenset({str(_S.FINAL), str(_S.OVERDUE)}), frozenset({_G})),
)
"""The auto's steps in button order."""
del _F, _G, _A, _S

_BY_KEY = {step.key: step for step in AUTO_STEPS}
AUTO_STEP_KEYS: tuple[str, ...] = tuple(_BY_KEY)


def auto_step(key: str) -> Step:
    try:
        return _BY_KEY[key]
    except KeyError:
        raise ValueError(f"passo desconhecido do auto: {key!r}") from None


def auto_status_label(value: str) -> str:
    try:
        return AutoStatus(value).label
    except ValueError:
        return str(value)


def auto_actions(facts: AutoFacts, roles: Iterable[Role] | None = None) -> tuple[Action, ...]:
    """Every step as an `Action` for this auto and these roles (None: any role — the rule without the user)."""
    held = tuple(Role) if roles is None else tuple(roles)
    return available_actions(AUTO_STEPS, facts.status, held, facts, auto_status_label)


def auto_refusal(key: str, facts: AutoFacts, roles: Iterable[Role] | None = None) -> str | None:
    """Why step `key` cannot be done now (None: it can), in Portuguese; the same rule the buttons follow."""
    held = tuple(Role) if roles is None else tuple(roles)
    return refusal(auto_step(key), facts.status, held, facts, auto_status_label)


def status_after_returned_payment(payment_deadline: date | None, today: date, inscribed: bool) -> AutoStatus:
    """A paid auto whose payment is reversed (returned by the bank, Art. 13, XXI) owes its fine again and goes
    back to where the machine had it: `divida_ativa` when it had been inscribed (the inscription is not undone
    by a returned payment), `overdue` when its payment term has passed (the term ends on `payment_deadline`,
    overdue from the next day, as the daily job does), else `final`."""
    if inscribed:
        return AutoStatus.DIVIDA_ATIVA
    if payment_deadline is not None and today > payment_deadline:
        return AutoStatus.OVERDUE
    return AutoStatus.FINAL



# The dívida ativa list's own steps (issue 28 point 9): inscribe an overdue fine; print the certidão of an inscribed
# one. The list screen draws its buttons from these, per row; the services check the same table.
DIVIDA_ATIVA_STEPS: tuple[Step, ...] = (
    Step("inscribe", "Inscrever em dívida ativa", "Art. 22, caput; Lei nº 6.830/1980, art. 2º, § 3º",
         frozenset({str(AutoStatus.OVERDUE)}), frozenset({Role.GESTOR})),
    Step("certidao", "Imprimir certidão de dívida ativa", "Lei nº 6.830/1980, art. 2º, §§ 5º e 6º; CTN, art. 202",
         frozenset({str(AutoStatus.DIVIDA_ATIVA)}), frozenset({Role.GESTOR})),
)


def divida_ativa_actions(status: str, roles: Iterable[Role]) -> tuple[Action, ...]:
    """The dívida ativa steps of an auto in `status` for a user with `roles`."""
    return available_actions(DIVIDA_ATIVA_STEPS, status, roles, None, auto_status_label)

# ---------------------------------------------------------------------------------------------------------
# Who gets the auto's notices, and which notice starts a term (Art. 22; issue 24 item 4)
# ---------------------------------------------------------------------------------------------------------

def notice_platforms(infractor_platform_id: int | None, infractor_driver_id: int | None,
                     driver_platform_ids: Iterable[int] = ()) -> tuple[int, ...]:
    """The platforms that get a copy of an auto's notices, in id order. Art. 22 caput: "expedição da notificação à
    plataforma tecnológica e ao condutor" — every auto against a driver gets a platform copy for each platform the
    driver works for (`driver_platform_ids`), and the platform infractor is notified as such. A platform auto
    without a driver has no driver's platforms to add."""
    ids = {infractor_platform_id} if infractor_platform_id is not None else set()
    if infractor_driver_id is not None:
        ids.update(driver_platform_ids)
    return tuple(sorted(ids))


def notice_starts_term(addressee: str, platform_id: int | None, infractor_platform_id: int | None) -> bool:
    """Whether joining the proof of this notice starts the infractor's term — the defense's for the auto's notice,
    the appeal's for a decision's (Art. 22, §2: "a partir da juntada nos autos" of the notice to the infractor).
    The driver's notice does; so does the platform infractor's (`platform_id` its own, or None on rows recorded
    before the platform copies existed). A copy to a platform the driver works for (Art. 22 caput; issue 24
    item 4) informs it and starts no term of the driver's."""
    if addressee != "platform":
        return True
    return platform_id is None or platform_id == infractor_platform_id
