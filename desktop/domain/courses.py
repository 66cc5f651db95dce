"""Courses and lectures (Art. 12, §2: drivers "deverão, quando convocados pelo Município, participarem de cursos e
palestras") as state machines and a table of steps (STYLE: Tryton's workflow; like `domain/finance.py`).

A session (turma) is planned, then held once its attendance is recorded from the signed list; a cancelled one is
final. A convocation is `convoked` until the attendance is recorded (`present` or `absent`); an absence — or a
convocation before the day — may be justified with its document (`excused`, final). An unjustified absence is the
fiscal's Art. 26, III candidate (breaking the duty of Art. 13, XVI); once an auto is drawn up from it, it stays.
The statuses are the values the `course_sessions` and `course_attendances` tables accept
(`models.courses.COURSE_STATUSES`, `ATTENDANCE_STATUSES`).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from desktop.domain.roles import COURSE_ROLES
from desktop.domain.steps import Step
from desktop.domain.workflow import StateMachine, Transition

__all__ = [
    "ARTICLE", "ATTENDANCE_MACHINE", "ATTENDANCE_STEPS", "AttendanceFacts", "AttendanceStatus", "JUSTIFIABLE",
    "MARKABLE", "SESSION_MACHINE", "SESSION_STEPS", "SessionFacts", "SessionStatus", "absence_offered_for_auto",
    "attendance_after_list",
]

ARTICLE = "Art. 12, §2"


class SessionStatus(StrEnum):
    PLANNED = "planned"
    HELD = "held"
    CANCELLED = "cancelled"

    @property
    def label(self) -> str:
        return _SESSION_LABELS[self]


_SESSION_LABELS = {SessionStatus.PLANNED: "Prevista", SessionStatus.HELD: "Realizada",
                   SessionStatus.CANCELLED: "Cancelada"}


class AttendanceStatus(StrEnum):
    CONVOKED = "convoked"
    PRESENT = "present"
    ABSENT = "absent"        # without justification: Art. 26, III (duty of Art. 13, XVI)
    EXCUSED = "excused"      # justified with its document

    @property
    def label(self) -> str:
        return _ATTENDANCE_LABELS[self]


_ATTENDANCE_LABELS = {AttendanceStatus.CONVOKED: "Convocado", AttendanceStatus.PRESENT: "Presente",
                      AttendanceStatus.ABSENT: "Ausente sem justificativa",
                      AttendanceStatus.EXCUSED: "Ausência justificada"}

S, C = SessionStatus, AttendanceStatus
SESSION_MACHINE = StateMachine(
    name="course_session", label="Turma de curso ou palestra", states=SessionStatus, initial=S.PLANNED,
    transitions=(
        Transition(S.PLANNED, S.HELD, "Registrar presença (da lista assinada)", ARTICLE),
        Transition(S.PLANNED, S.CANCELLED, "Cancelar turma", ARTICLE),
    ),
)
"""planned → held (attendance recorded) | cancelled; a held session may have its list recorded again (a
correction) without changing status; held and cancelled have no way out."""

ATTENDANCE_MACHINE = StateMachine(
    name="course_attendance", label="Convocação", states=AttendanceStatus, initial=C.CONVOKED,
    transitions=(
        Transition(C.CONVOKED, C.PRESENT, "Registrar presença", ARTICLE),
        Transition(C.CONVOKED, C.ABSENT, "Registrar ausência", ARTICLE),
        Transition(C.CONVOKED, C.EXCUSED, "Justificar ausência", ARTICLE),
        Transition(C.PRESENT, C.ABSENT, "Corrigir: ausente", ARTICLE),
        Transition(C.ABSENT, C.PRESENT, "Corrigir: presente", ARTICLE),
        Transition(C.ABSENT, C.EXCUSED, "Justificar ausência", ARTICLE),
    ),
)
"""A justified absence is final; an absence already turned into an auto (Art. 26, III) is kept by
`attendance_after_list` even though the machine would allow the correction."""

MARKABLE = frozenset({C.CONVOKED, C.PRESENT, C.ABSENT})
"""The convocations the signed list decides (the screen's check list)."""
JUSTIFIABLE = frozenset({C.CONVOKED, C.ABSENT})
"""The convocations an absence may be justified on."""


def attendance_after_list(status: str, present: bool, has_auto: bool) -> AttendanceStatus:
    """What the signed attendance list makes of one convocation: present or absent, except a justified absence
    and an absence already turned into an auto, which stay as they are (Art. 12, §2; Art. 26, III)."""
    current = AttendanceStatus(status)
    if current is AttendanceStatus.EXCUSED or has_auto:
        return current
    return AttendanceStatus.PRESENT if present else AttendanceStatus.ABSENT


def absence_offered_for_auto(status: str, has_auto: bool, notice_joined_on) -> bool:
    """Whether an absence is offered to the fiscal for an Art. 26, III auto (issue 24 item 12): an unjustified
    absence, not yet in an auto, whose convocation notice has its proof of delivery joined (Art. 22, §2 — a driver
    not proven notified of the convocation cannot have failed to attend it; Art. 13, XVI: "cumprir as determinações"
    he was given)."""
    return AttendanceStatus(status) is AttendanceStatus.ABSENT and not has_auto and notice_joined_on is not None


@dataclass(frozen=True, slots=True)
class SessionFacts:
    convoked: int


@dataclass(frozen=True, slots=True)
class AttendanceFacts:
    has_auto: bool
    notice_printed: bool = False   # the convocation notice was printed (its number is on the convocation)
    notice_joined: bool = False    # the proof that it reached the driver was joined (issue 24 item 12)


def _someone_convoked(facts: SessionFacts | None) -> str | None:
    if facts is not None and facts.convoked <= 0:
        return "nenhum condutor foi convocado para esta turma"
    return None


def _proof_to_join(facts: AttendanceFacts | None) -> str | None:
    if facts is None:
        return None
    if facts.notice_joined:
        return "a prova desta notificação já foi juntada"
    if not facts.notice_printed:
        return "imprima antes a notificação de convocação"
    return None


def _no_auto(facts: AttendanceFacts | None) -> str | None:
    if facts is not None and facts.has_auto:
        return "esta ausência já deu origem a um auto de infração"
    return None


_ORGANIZE = frozenset(COURSE_ROLES.organize)
SESSION_STEPS = (
    Step("convoke", "Convocar", ARTICLE, frozenset({S.PLANNED}), _ORGANIZE),
    Step("notice", "Imprimir notificações de convocação", ARTICLE, frozenset(), _ORGANIZE, _someone_convoked),
    Step("export", "Exportar lista (CSV)…", ARTICLE, frozenset(), _ORGANIZE, _someone_convoked),
    Step("attendance_list", "Imprimir lista de presença", ARTICLE, frozenset(), _ORGANIZE, _someone_convoked),
    Step("record", "Registrar presença (da lista assinada)", ARTICLE, frozenset({S.PLANNED, S.HELD}), _ORGANIZE,
         _someone_convoked),
    Step("justify", "Justificar ausência com documento…", ARTICLE, frozenset(), _ORGANIZE),
)
"""What can be done on a session; its facts are `SessionFacts`. "justify" acts on the convocation chosen in the
session's list (`ATTENDANCE_STEPS` decides that one)."""

ATTENDANCE_STEPS = (
    Step("mark", "Marcar presença", ARTICLE, MARKABLE),   # on the list; recording it is SESSION_STEPS' "record"
    Step("justify", "Justificar ausência com documento…", ARTICLE, JUSTIFIABLE, _ORGANIZE, _no_auto),
    # issue 24 item 12 (Art. 22, §2): the proof that the convocation notice reached the driver
    Step("join_proof", "Juntar prova da notificação", "Art. 22, §2", frozenset(), _ORGANIZE, _proof_to_join),
)
"""What can be done on one convocation; its facts are `AttendanceFacts`."""
del S, C
