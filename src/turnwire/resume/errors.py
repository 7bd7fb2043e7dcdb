"""Every error of the interrupt / resume contract: one class per failure, flat.

These are the library contract of `turnwire.resume`: the engine never raises them for a target's bad
input — it returns an `Invalid` outcome holding one — but the parsing functions (`load_snapshot`,
`parse_decision`, `parse_resume_request`) and the builders raise them for callers that want exceptions.
`INVALID_BECAUSE` below is the one table from error class to the reason an `Invalid` outcome reports.

    ResumeError
    ├── SnapshotError
    │   ├── UnversionedSnapshot
    │   ├── UnsupportedSnapshotVersion
    │   └── MalformedSnapshot
    ├── IllegalTransition
    ├── DecisionError
    │   ├── MalformedDecision
    │   ├── EmptyAction
    │   ├── UnknownAction
    │   ├── EmptyRespondMessage
    │   └── MalformedRequest
    └── EventError
        ├── ExtensionKindError
        ├── DuplicateRegistration
        ├── UnregisteredPayload
        ├── PayloadKindMismatch
        └── InvalidPayload
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "INVALID_BECAUSE",
    "DecisionError",
    "DuplicateRegistration",
    "EmptyAction",
    "EmptyRespondMessage",
    "EventError",
    "ExtensionKindError",
    "IllegalTransition",
    "InvalidPayload",
    "MalformedDecision",
    "MalformedRequest",
    "MalformedSnapshot",
    "PayloadKindMismatch",
    "ResumeError",
    "SnapshotError",
    "UnknownAction",
    "UnregisteredPayload",
    "UnsupportedSnapshotVersion",
    "UnversionedSnapshot",
]


class ResumeError(Exception):
    """Base class of every error of the interrupt / resume contract."""


# ---- stored session snapshots -------------------------------------------------------------------------


class SnapshotError(ResumeError):
    """A stored session snapshot cannot be read as a version-2 snapshot."""


class UnversionedSnapshot(SnapshotError):
    """The snapshot has no `version` key: a pre-v2 shape, refused rather than guessed at."""


class UnsupportedSnapshotVersion(SnapshotError):
    """The snapshot's `version` is present but is not 2 (for example a version-1 snapshot)."""

    def __init__(self, message: str, version: object) -> None:
        super().__init__(message)
        self.version = version


class MalformedSnapshot(SnapshotError):
    """A snapshot that says version 2 does not match the v2 model (missing, extra or mistyped field)."""


# ---- the pending tool call's state machine ------------------------------------------------------------


class IllegalTransition(ResumeError):
    """A pending tool call is moved between two statuses that the transition table does not link."""

    def __init__(self, message: str, source: str, target: str) -> None:
        super().__init__(message)
        self.source = source
        self.target = target


# ---- resume decisions and requests --------------------------------------------------------------------


class DecisionError(ResumeError):
    """A resume decision (or the request carrying it) is not one the contract accepts."""


class MalformedDecision(DecisionError):
    """The decision is not an object of the decision shape (unknown key, wrong type)."""


class EmptyAction(DecisionError):
    """The decision's `action` is missing or the empty string."""


class UnknownAction(DecisionError):
    """The decision's `action` is not approve, reject or respond (or a legacy value turnwire does not read)."""


class EmptyRespondMessage(DecisionError):
    """A respond decision carries no message, or an empty one: there is nothing to tell the model."""


class MalformedRequest(DecisionError):
    """The resume request body is not `{interrupt_id, run_id?, decision}`."""


# ---- session events and extension payloads ------------------------------------------------------------


class EventError(ResumeError):
    """A session event or extension payload cannot be built or encoded."""


class ExtensionKindError(EventError):
    """An extension kind is registered or used that is empty or does not start with `x.`."""


class DuplicateRegistration(EventError):
    """An extension kind, or a payload model, is registered a second time."""


class UnregisteredPayload(EventError):
    """A typed payload is encoded whose model is registered for no extension kind."""


class PayloadKindMismatch(EventError):
    """A typed payload is encoded under an extension kind registered for a different payload model."""


class InvalidPayload(EventError):
    """Raw JSON encoded under a registered extension kind does not validate against that kind's model."""


# ---- one table: why a resume is invalid ---------------------------------------------------------------

INVALID_BECAUSE: Mapping[type[ResumeError], str] = {
    UnversionedSnapshot: "unversioned-snapshot",
    UnsupportedSnapshotVersion: "unsupported-snapshot-version",
    MalformedSnapshot: "malformed-snapshot",
    MalformedDecision: "malformed-decision",
    EmptyAction: "empty-action",
    UnknownAction: "unknown-action",
    EmptyRespondMessage: "empty-respond-message",
    MalformedRequest: "malformed-request",
}
"""The stable reason code an `Invalid` outcome reports for each error that makes a resume invalid."""
