"""What a resume comes to: exactly one of four outcomes, and the one table mapping them to HTTP.

The outcome is the engine's whole answer, so a route only has to store what it is told to store and
answer with `http_status`. Each kind has one status: 200 applied, 409 conflict (the state does not
allow this decision: already decided, nothing pending, another interrupt or run), 410 expired (the ask
is gone for good), 422 invalid (the snapshot or the decision cannot be read).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar, TypeAlias

from turnwire.resume.errors import INVALID_BECAUSE, ResumeError
from turnwire.resume.events import SessionEvent
from turnwire.resume.permission import PermissionDecision
from turnwire.resume.snapshot import AgentSessionSnapshot, PendingToolCall

__all__ = [
    "HTTP_STATUS",
    "Applied",
    "Conflict",
    "ConflictReason",
    "Expired",
    "Invalid",
    "Outcome",
    "OutcomeKind",
    "http_status",
    "outcome_json",
]


class OutcomeKind(StrEnum):
    """The four answers a resume can get."""

    APPLIED = "applied"
    CONFLICT = "conflict"
    EXPIRED = "expired"
    INVALID = "invalid"


HTTP_STATUS: Mapping[OutcomeKind, int] = MappingProxyType(
    {
        OutcomeKind.APPLIED: 200,
        OutcomeKind.CONFLICT: 409,
        OutcomeKind.EXPIRED: 410,
        OutcomeKind.INVALID: 422,
    }
)
"""The HTTP status a resume route answers with, per outcome kind."""


class ConflictReason(StrEnum):
    """Why the stored state does not allow the decision."""

    ALREADY_APPLIED = "already-applied"
    """The very decision that was applied is sent again: nothing changes."""
    ALREADY_DECIDED = "already-decided"
    """The call was decided differently before."""
    NO_PENDING_CALL = "no-pending-call"
    """The snapshot holds no pending tool call."""
    INTERRUPT_MISMATCH = "interrupt-mismatch"
    """The request names another interrupt than the pending call's."""
    RUN_MISMATCH = "run-mismatch"
    """The request names another run than the snapshot's."""


@dataclass(frozen=True)
class Applied:
    """The decision is applied: store `snapshot`, record `event` before the tool runs (if it runs)."""

    kind: ClassVar[OutcomeKind] = OutcomeKind.APPLIED
    snapshot: AgentSessionSnapshot
    event: SessionEvent
    call: PendingToolCall
    """The pending call as it was before the decision."""

    @property
    def payload(self) -> PermissionDecision:
        """The decision event's typed payload."""
        data = self.event.payload
        assert isinstance(data, PermissionDecision)
        return data


@dataclass(frozen=True)
class Expired:
    """The call is, or has just become, EXPIRED; nothing is applied. Store `snapshot` when `changed`."""

    kind: ClassVar[OutcomeKind] = OutcomeKind.EXPIRED
    snapshot: AgentSessionSnapshot
    changed: bool
    call: PendingToolCall


@dataclass(frozen=True)
class Conflict:
    """The stored state does not allow this decision; nothing changes."""

    kind: ClassVar[OutcomeKind] = OutcomeKind.CONFLICT
    reason: ConflictReason
    message: str
    call: PendingToolCall | None


@dataclass(frozen=True)
class Invalid:
    """The snapshot or the decision cannot be read; nothing changes. `error` says which and why."""

    kind: ClassVar[OutcomeKind] = OutcomeKind.INVALID
    error: ResumeError
    call: PendingToolCall | None

    @property
    def reason(self) -> str:
        """The stable reason code of the error (see `turnwire.resume.errors.INVALID_BECAUSE`)."""
        for cls in type(self.error).__mro__:
            if cls in INVALID_BECAUSE:
                return INVALID_BECAUSE[cls]
        return "invalid"


Outcome: TypeAlias = Applied | Expired | Conflict | Invalid


def http_status(outcome: Outcome) -> int:
    """The HTTP status for `outcome`, from the one table."""
    return HTTP_STATUS[outcome.kind]


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """A language-neutral description of `outcome` (what the goldens store): kind, status, reason."""
    out: dict[str, Any] = {"outcome": outcome.kind.value, "http_status": http_status(outcome)}
    if isinstance(outcome, Conflict):
        out["reason"] = outcome.reason.value
    elif isinstance(outcome, Invalid):
        out["reason"] = outcome.reason
    elif isinstance(outcome, Expired):
        out["changed"] = outcome.changed
    return out
