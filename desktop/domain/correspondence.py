"""The correspondence desk (issue 26): every notice dispatched, tracked and proved (Art. 22, §§1-2).

- The forms of notice are those of Art. 22, §1, I-VI (`DispatchForm`, the same values as the auto's
  `NotificationForm`): direct notice, edital on the notice board, newspaper, official gazette, post with aviso de
  recebimento, electronic means with proof of receipt.
- A dispatch moves through `DispatchState` by the pairs of `DISPATCH_TRANSITIONS` only (Tryton's workflow as data):
  pending → sent → received | returned; returned → edital posted (§1, II); received or edital posted → joined.
- The term of the case starts on the day the proof is JOINED to the case (Art. 22, §2), not on the day of receipt:
  `term_starts_on(joined_on)`.
- A dispatch code is `EX` + year (4) + sequence (6) + a modulo-11 check digit, e.g. `EX20260000017`; a misread
  scan fails the check digit and is never matched to another dispatch.
"""
from __future__ import annotations

import re
from datetime import date, timedelta
from enum import StrEnum

from desktop.domain.penalties import NotificationForm
from desktop.domain.problems import Problem

ART_22_PAR1 = "Art. 22, §1"
ART_22_PAR2 = "Art. 22, §2"

DispatchForm = NotificationForm
"""The forms of Art. 22, §1, I-VI (one enum for the auto's notifications and the dispatch register)."""

FORMS_BY_ITEM = {
    "I": DispatchForm.DIRECT, "II": DispatchForm.NOTICE_BOARD, "III": DispatchForm.NEWSPAPER,
    "IV": DispatchForm.OFFICIAL_GAZETTE, "V": DispatchForm.POST, "VI": DispatchForm.ELECTRONIC,
}
DISPATCHED_FORMS = (DispatchForm.POST, DispatchForm.ELECTRONIC, DispatchForm.DIRECT)
"""The forms that send something to the recipient (and so enter the register with a code); II-IV are published."""


class DispatchState(StrEnum):
    PENDING = "pending"
    SENT = "sent"
    RECEIVED = "received"
    RETURNED = "returned"
    EDITAL_POSTED = "edital_posted"
    JOINED = "joined"

    @property
    def label(self) -> str:
        return _STATE_LABELS[self]


_STATE_LABELS = {
    DispatchState.PENDING: "Aguardando expedição",
    DispatchState.SENT: "Enviado",
    DispatchState.RECEIVED: "Recebido",
    DispatchState.RETURNED: "Devolvido",
    DispatchState.EDITAL_POSTED: "Edital afixado",
    DispatchState.JOINED: "Prova juntada",
}

DISPATCH_TRANSITIONS: frozenset[tuple[DispatchState, DispatchState]] = frozenset({
    (DispatchState.PENDING, DispatchState.SENT),
    (DispatchState.SENT, DispatchState.RECEIVED),          # §1, V: the AR signed; §1, VI: the answer
    (DispatchState.SENT, DispatchState.RETURNED),          # the AR back undelivered
    (DispatchState.RETURNED, DispatchState.EDITAL_POSTED),  # §1, II: then the edital
    (DispatchState.RECEIVED, DispatchState.JOINED),        # §2: the proof joined to the case
    (DispatchState.EDITAL_POSTED, DispatchState.JOINED),
})


class DispatchTransitionRefused(ValueError):
    """A state change the table does not allow; `message` is in Portuguese."""

    def __init__(self, current: DispatchState, target: DispatchState):
        self.current, self.target = current, target
        super().__init__(f"Uma expedição {current.label.lower()} não pode passar a {target.label.lower()}.")


def can_transition(current: DispatchState | str, target: DispatchState | str) -> bool:
    return (DispatchState(current), DispatchState(target)) in DISPATCH_TRANSITIONS


def transition(current: DispatchState | str, target: DispatchState | str) -> DispatchState:
    current, target = DispatchState(current), DispatchState(target)
    if (current, target) not in DISPATCH_TRANSITIONS:
        raise DispatchTransitionRefused(current, target)
    return target


def next_states(current: DispatchState | str) -> tuple[DispatchState, ...]:
    current = DispatchState(current)
    return tuple(t for s, t in sorted(DISPATCH_TRANSITIONS) if s == current)


class ReturnReason(StrEnum):
    """Why the post brought the AR back undelivered (the carrier's boxes)."""

    MOVED = "mudou-se"
    UNKNOWN = "desconhecido"
    ABSENT_THREE_TIMES = "ausente três vezes"
    REFUSED = "recusado"
    INSUFFICIENT_ADDRESS = "endereço insuficiente"


def parse_return_reason(text: str) -> ReturnReason | None:
    """The reason as typed ("Mudou-se", "ausente tres vezes", "endereco insuficiente"); None when unknown."""
    folded = _fold(text)
    for reason in ReturnReason:
        if _fold(reason.value) == folded:
            return reason
    return None


def _fold(text: str) -> str:
    import unicodedata  # lazy: only when a reason is typed

    plain = unicodedata.normalize("NFKD", (text or "").strip().lower())
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).split())


# ------------------------------------------------------------------------------------------------ the code
CODE_PREFIX = "EX"
_CODE_RE = re.compile(r"^EX(\d{4})(\d{6})(\d)$")


def check_digit(digits: str) -> int:
    """Modulo 11, weights 2..9 from the right; a remainder giving 10 or 11 becomes 0."""
    if not digits.isdigit():
        raise ValueError("O código deve ter só dígitos.")
    total = sum(int(d) * (2 + i % 8) for i, d in enumerate(reversed(digits)))
    dv = 11 - total % 11
    return 0 if dv >= 10 else dv


def make_code(year: int, sequence: int) -> str:
    if not 1 <= sequence <= 999_999 or not 1000 <= year <= 9999:
        raise ValueError("Sequência ou ano fora do formato do código de expedição.")
    body = f"{year:04d}{sequence:06d}"
    return f"{CODE_PREFIX}{body}{check_digit(body)}"


def normalize_code(text: str) -> str:
    return re.sub(r"[\s.\-/]", "", (text or "")).upper()


def code_is_valid(text: str) -> bool:
    m = _CODE_RE.match(normalize_code(text))
    return bool(m) and check_digit(m.group(1) + m.group(2)) == int(m.group(3))


def format_code(code: str) -> str:
    """For people: `EX 2026 000001-7`."""
    c = normalize_code(code)
    return f"{c[:2]} {c[2:6]} {c[6:12]}-{c[12:]}" if _CODE_RE.match(c) else code


# ------------------------------------------------------------------------------------------------ the term
def term_starts_on(joined_on: date) -> date:
    """Art. 22, §2: "O prazo ... iniciará a partir da juntada nos autos do processo administrativo da
    notificação" — the joining date, whatever the day of receipt or of the affixing."""
    return joined_on


def receipt_problems(sent_on: date | None, received_on: date | None, joined_on: date | None,
                     today: date) -> list[Problem]:
    """A receipt (or a return) and its joining: no date in the future, none before the sending, and the joining
    not before the receipt it proves."""
    problems: list[Problem] = []
    if received_on is None:
        problems.append(Problem("received_on", "Informe a data escrita pelo carteiro no AR.", ART_22_PAR1))
    elif received_on > today:
        problems.append(Problem("received_on", "A data do recebimento não pode ser futura."))
    elif sent_on is not None and received_on < sent_on:
        problems.append(Problem("received_on", "O recebimento não pode ser anterior ao envio.", ART_22_PAR1))
    if joined_on is not None:
        if joined_on > today:
            problems.append(Problem("joined_on", "A data da juntada não pode ser futura.", ART_22_PAR2))
        elif received_on is not None and joined_on < received_on:
            problems.append(Problem("joined_on", "A prova não pode ser juntada antes do recebimento.", ART_22_PAR2))
    return problems


def offers_post(sent_on: date | None, answered: bool, today: date, days: int) -> bool:
    """An e-mail (§1, VI) with no answer `days` days after it went: the post (§1, V) is offered."""
    return sent_on is not None and not answered and today >= sent_on + timedelta(days=days)


AR_OVERDUE_DAYS = 30
"""The dashboard's "ARs out for more than 30 days" (issue 26; a desk's habit, not the law's)."""


def ar_overdue(sent_on: date | None, state: DispatchState | str, today: date) -> bool:
    return (DispatchState(state) is DispatchState.SENT and sent_on is not None
            and (today - sent_on).days > AR_OVERDUE_DAYS)
