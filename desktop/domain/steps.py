"""What can be done now, as data (STYLE: Tryton — the table that refuses a step also decides the button).

A `Step` is one thing a user may do to a record: its key, the Portuguese button text, the article behind it, the
statuses that allow it, the roles that may do it and, when the record's status alone does not decide, a
`condition` over the record's facts that returns why the step is blocked (or None). `available_actions()` turns a
table of steps into the `Action`s a service returns with every info: each says whether it is enabled and, when it
is not, exactly what stops it and what would enable it (the status it needs, the role it needs, the condition).

Services check the same table before they act (`refusal()`), so a disabled button is never the only guard.
Status moves come from the state machines of `desktop.domain.workflow`; this module holds the steps that are not a
status move (paying a fee, recording an inspection, a renewal request) and the generic machinery both share.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from desktop.domain.roles import Role


@dataclass(frozen=True)
class Step:
    """One user step on a record. `statuses` empty means any status; `roles` empty means any user."""

    key: str
    label: str
    article: str = ""
    statuses: frozenset[str] = frozenset()
    roles: frozenset[Role] = frozenset()
    # facts → None when allowed, else the Portuguese reason ("a taxa já foi paga em 10/03/2026")
    condition: Callable[[Any], str | None] | None = None
    group: int = 0  # screens may lay the buttons out in rows: 0 the request's path, 1 the later life, …


@dataclass(frozen=True)
class Action:
    """A step as offered now: what the screen draws. `reason` says, when disabled, what would enable it."""

    key: str
    label: str
    article: str = ""
    enabled: bool = True
    reason: str = ""
    group: int = 0
    roles: frozenset[Role] = field(default_factory=frozenset)

    @property
    def tooltip(self) -> str:
        base = f"{self.label.rstrip('…')} — {self.article}" if self.article else self.label.rstrip("…")
        return base if self.enabled else f"{base}\nIndisponível: {self.reason}"


def _labels(values: Iterable[str], label_of: Callable[[str], str]) -> str:
    names = [label_of(v) for v in values]
    names = sorted(dict.fromkeys(names))
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " ou " + names[-1]


def status_label(value: str | StrEnum) -> str:
    """The Portuguese label of a status enum member (its `.label`), or the raw value."""
    return getattr(value, "label", str(value))


def refusal(step: Step, status: str | StrEnum | None, roles: Iterable[Role], facts: Any = None,
            label_of: Callable[[str], str] | None = None) -> str | None:
    """Why `step` cannot be done now, in Portuguese (None: it can). Checked in this order: the status, the role,
    the step's own condition — so the message names the first thing to change."""
    label_of = label_of or (lambda value: str(value))
    if step.statuses and status is not None and str(status) not in {str(s) for s in step.statuses}:
        return (f"disponível quando a situação for {_labels(step.statuses, label_of)} "
                f"(agora: {label_of(str(status))})")
    held = {Role(r) for r in roles}
    if step.roles and not (held & set(step.roles)):
        names = _labels([Role(r).value for r in step.roles], lambda v: Role(v).label)
        return f"exige o perfil {names}"
    if step.condition is not None:
        return step.condition(facts)
    return None


def available_actions(steps: Iterable[Step], status: str | StrEnum | None, roles: Iterable[Role],
                      facts: Any = None, label_of: Callable[[str], str] | None = None,
                      blocked: Mapping[str, str] | None = None) -> tuple[Action, ...]:
    """Every step of the table as an `Action` for this record and this user. `blocked` adds reasons the caller
    knows from the database (key → reason), e.g. "há uma vistoria agendada"."""
    roles = frozenset(Role(r) for r in roles)
    out = []
    for step in steps:
        reason = refusal(step, status, roles, facts, label_of)
        if reason is None and blocked and step.key in blocked:
            reason = blocked[step.key]
        out.append(Action(step.key, step.label, step.article, reason is None, reason or "", step.group,
                          step.roles))
    return tuple(out)


def find_action(actions: Iterable[Action], key: str) -> Action | None:
    for action in actions:
        if action.key == key:
            return action
    return None


def is_enabled(actions: Iterable[Action], key: str) -> bool:
    action = find_action(actions, key)
    return bool(action and action.enabled)
