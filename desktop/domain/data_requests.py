"""Requests for data to a platform (Art. 4) as a state machine and a table of steps (STYLE: Tryton's workflow;
like `domain/finance.py`).

Art. 4, caput: the Município may request the data of §1 (I–VII) with a justification; §2: for an investigation
the platform answers within 24 hours from the date-time it was notified. A request is a draft until the platform
is notified (`sent`), then `answered` when the answer arrives with its file; a draft or a sent request may be
cancelled with a reason. Answered and cancelled are final. The statuses are the values the `data_requests` table
accepts (`models.platforms.DATA_REQUEST_STATUSES`).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from desktop.domain.platform_lists import countdown_text, data_request_late

from desktop.domain.roles import DATA_REQUEST_ROLES, ENFORCEMENT_ROLES
from desktop.domain.steps import Step
from desktop.domain.workflow import StateMachine, Transition

__all__ = ["DATA_REQUEST_MACHINE", "DATA_REQUEST_STEPS", "DataRequestStatus", "LateRequestFacts", "awaiting_answer",
           "request_countdown"]


class DataRequestStatus(StrEnum):
    DRAFT = "draft"
    SENT = "sent"
    ANSWERED = "answered"
    CANCELLED = "cancelled"

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {DataRequestStatus.DRAFT: "Rascunho (não notificada)",
           DataRequestStatus.SENT: "Notificada, aguardando resposta",
           DataRequestStatus.ANSWERED: "Respondida", DataRequestStatus.CANCELLED: "Cancelada"}

R = DataRequestStatus
DATA_REQUEST_MACHINE = StateMachine(
    name="data_request", label="Requisição de dados", states=DataRequestStatus, initial=R.DRAFT,
    transitions=(
        Transition(R.DRAFT, R.SENT, "Registrar notificação", "Art. 4, §2"),
        Transition(R.SENT, R.ANSWERED, "Registrar resposta", "Art. 4"),
        Transition(R.DRAFT, R.CANCELLED, "Cancelar", "Art. 4"),
        Transition(R.SENT, R.CANCELLED, "Cancelar", "Art. 4"),
    ),
)
"""draft → sent → answered; draft | sent → cancelled. A request recorded with its notification is born `sent`."""

_WRITERS = frozenset(DATA_REQUEST_ROLES.request)


DATA_REQUEST_STEPS = (
    Step("notify", "Registrar notificação…", "Art. 4, §2", frozenset({R.DRAFT}), _WRITERS),
    Step("answer", "Registrar resposta…", "Art. 4", frozenset({R.SENT}), _WRITERS),
    Step("print", "Imprimir ofício", "Art. 4", frozenset({R.DRAFT, R.SENT, R.ANSWERED}), _WRITERS),
    Step("cancel", "Cancelar…", "Art. 4", frozenset({R.DRAFT, R.SENT}), _WRITERS),
    Step("late_auto", "Lavrar auto (resposta em atraso)…", "Art. 4, §2; Art. 22", frozenset({R.SENT, R.ANSWERED}),
         frozenset(ENFORCEMENT_ROLES.draw_up), condition=lambda facts: _late_auto_refusal(facts), group=1),
)


@dataclass(frozen=True, slots=True)
class LateRequestFacts:
    """What the late request's auto reads (issue 24 item 12): whether the 24 hours of Art. 4 §2 ran out before an
    answer, and the decree's code offered for it (`platform_lists.late_request_code`). The law types no fine of its
    own for the late answer, so the auto is offered whenever the request is late: with the decree's code citing
    Art. 4 preselected when the catalogue has one, else with the code left to the fiscal (e.g. an Art. 26/27 code
    against the platform)."""

    late: bool
    code: str | None


def _late_auto_refusal(facts: LateRequestFacts | None) -> str | None:
    if facts is None or not facts.late:
        return "a plataforma não está em atraso (Art. 4, §2: 24 horas da notificação)"
    return None     # the code: the decree's citing Art. 4 when the catalogue has one, else the fiscal's choice


def awaiting_answer(status: str, due_at: datetime | None, answered_at: datetime | None) -> bool:
    """A notified request whose 24 hours of Art. 4, §2 run (or ran out) without an answer: the screen's live
    countdown follows these."""
    return DataRequestStatus(status) is DataRequestStatus.SENT and due_at is not None and answered_at is None


def request_countdown(status: str, due_at: datetime | None, answered_at: datetime | None, now: datetime) -> str:
    """What the screen shows of the 24 hours of Art. 4, §2 at `now`: the time left, how late, or that the request
    was cancelled; an unanswered request past its term is marked "(atrasada)"."""
    if DataRequestStatus(status) is DataRequestStatus.CANCELLED:
        return "cancelada"
    text = countdown_text(due_at, answered_at, now)
    return text + (" (atrasada)" if answered_at is None and data_request_late(due_at, answered_at, now) else "")


del R
