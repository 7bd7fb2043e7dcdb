"""The pending tool call's statuses and the table of moves between them, read from data.

The table lives in `conformance/resume-transitions.yaml` so that any implementation (and any reader)
sees the same state machine; this module loads it once, checks it against `PendingToolStatus` and
answers "may a call move from A to B?". A move the table does not list is an `IllegalTransition`:
that is how "a decision applies at most once" becomes a property of the data, not of scattered ifs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

from turnwire.canonical import dumps
from turnwire.resources import conformance_dir
from turnwire.resume.decision import ResumeAction
from turnwire.resume.errors import IllegalTransition

__all__ = [
    "PendingToolStatus",
    "StatusRule",
    "Transition",
    "TransitionTable",
    "ensure_transition",
    "load_transition_table",
    "transition_table",
    "transitions_path",
]


class PendingToolStatus(StrEnum):
    """Where a pending tool call stands."""

    PENDING_APPROVAL = "PENDING_APPROVAL"
    APPROVED_EXECUTING = "APPROVED_EXECUTING"
    EXECUTED = "EXECUTED"
    REJECTED = "REJECTED"
    EXPIRED = "EXPIRED"


@dataclass(frozen=True)
class StatusRule:
    """What a call in one status holds: whether it is final, which decisions, whether a result."""

    terminal: bool
    decisions: frozenset[ResumeAction]
    result: bool


@dataclass(frozen=True)
class Transition:
    """One allowed move and the event that causes it."""

    source: PendingToolStatus
    target: PendingToolStatus
    when: str


@dataclass(frozen=True)
class TransitionTable:
    """The whole state machine: initial status, per-status rules, allowed moves."""

    initial: PendingToolStatus
    statuses: Mapping[PendingToolStatus, StatusRule]
    transitions: tuple[Transition, ...]

    def allows(self, source: PendingToolStatus, target: PendingToolStatus) -> bool:
        """True when the table lists the move `source` → `target`."""
        return any(t.source is source and t.target is target for t in self.transitions)

    def targets(self, source: PendingToolStatus) -> frozenset[PendingToolStatus]:
        """Every status a call in `source` may move to."""
        return frozenset(t.target for t in self.transitions if t.source is source)


# ---- loading -------------------------------------------------------------------------------------------


class _RawRule(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    terminal: bool
    decisions: list[ResumeAction]
    result: bool


class _RawTransition(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    source: PendingToolStatus = Field(alias="from")
    target: PendingToolStatus = Field(alias="to")
    when: str = Field(min_length=1)


class _RawTable(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    initial: PendingToolStatus
    statuses: dict[PendingToolStatus, _RawRule]
    transitions: list[_RawTransition]


def transitions_path() -> Path:
    """Path of the transition table data file."""
    return conformance_dir() / "resume-transitions.yaml"


def load_transition_table(path: Path) -> TransitionTable:
    """Read and check a transition table file; `ValueError` when it is inconsistent."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    # YAML gives Python strings; the JSON-mode validation reads them as the enum values they spell.
    table = _RawTable.model_validate_json(dumps(raw))
    missing = set(PendingToolStatus) - set(table.statuses)
    if missing:
        raise ValueError(f"{path}: statuses without a rule: {sorted(missing)}")
    pairs = [(t.source, t.target) for t in table.transitions]
    if len(pairs) != len(set(pairs)):
        raise ValueError(f"{path}: a transition is listed twice")
    for t in table.transitions:
        if table.statuses[t.source].terminal:
            raise ValueError(f"{path}: terminal status {t.source} has an outgoing transition")
    return TransitionTable(
        initial=table.initial,
        statuses={
            s: StatusRule(terminal=r.terminal, decisions=frozenset(r.decisions), result=r.result)
            for s, r in table.statuses.items()
        },
        transitions=tuple(Transition(t.source, t.target, t.when) for t in table.transitions),
    )


@cache
def transition_table() -> TransitionTable:
    """The transition table (loaded once from `conformance/resume-transitions.yaml`)."""
    return load_transition_table(transitions_path())


def ensure_transition(source: PendingToolStatus, target: PendingToolStatus) -> None:
    """Raise `IllegalTransition` unless the table lists the move `source` → `target`."""
    table = transition_table()
    if not table.allows(source, target):
        allowed = ", ".join(sorted(table.targets(source))) or "nothing (terminal)"
        raise IllegalTransition(
            f"a pending tool call cannot move from {source} to {target}; from {source} it may move to {allowed}",
            source=source.value,
            target=target.value,
        )
