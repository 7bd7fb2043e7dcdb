"""The session snapshot, version 2: what a runtime stores while a tool call waits for a human.

Version 2 is the only shape accepted. An unversioned snapshot or a version-1 one is refused with a
typed error rather than coerced: guessing which fields an old shape meant is how a stale approval gets
applied to the wrong call. The pending call's status must agree with what it holds (see the transition
table's status rules): nobody has decided a PENDING_APPROVAL call, an APPROVED_EXECUTING one holds an
approve, only an EXECUTED one may hold the tool's result.

`check_snapshot` and `check_snapshot_transition` judge a target's stored snapshots and return findings;
`load_snapshot` is the library's reader and raises.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import MISSING, AwareDatetime, ValidationError, model_validator

from turnwire.canonical import CanonicalError, equal
from turnwire.findings import Finding
from turnwire.resume._base import ContractModel, JSONObject, NonEmptyStr, describe, validate_json_value
from turnwire.resume.decision import ResumeDecision
from turnwire.resume.errors import (
    MalformedSnapshot,
    SnapshotError,
    UnsupportedSnapshotVersion,
    UnversionedSnapshot,
)
from turnwire.resume.transitions import PendingToolStatus, transition_table

__all__ = [
    "SNAPSHOT_VERSION",
    "AgentSessionSnapshot",
    "PendingToolCall",
    "RunContext",
    "check_snapshot",
    "check_snapshot_transition",
    "load_snapshot",
    "new_pending_snapshot",
]

SNAPSHOT_VERSION: Literal[2] = 2
"""The one snapshot version this contract reads and writes."""


def _status_rules_schema(schema: dict[str, Any]) -> None:
    """Put the table's per-status rules into the schema: one if/then per status."""
    rules: list[dict[str, Any]] = []
    for status, rule in transition_table().statuses.items():
        then: dict[str, Any] = {"properties": {}}
        if rule.decisions:
            actions = sorted(a.value for a in rule.decisions)
            then["required"] = ["decision"]
            then["properties"]["decision"] = {
                "type": "object",
                "properties": {"action": {"enum": actions}},
                "required": ["action"],
            }
        else:
            then["properties"]["decision"] = {"type": "null"}
        if not rule.result:
            then["properties"]["result"] = {"type": "null"}
        rules.append({"if": {"properties": {"status": {"const": status.value}}}, "then": then})
    schema["allOf"] = rules


class PendingToolCall(ContractModel, json_schema_extra=_status_rules_schema):
    """The tool call waiting for (or past) a human decision.

    `tool_use_id` is the model's id of the call when the runtime has one; the decision event names the
    call by it. `decision` is the decision as recorded (normalized), `result` the tool's result.
    """

    interrupt_id: NonEmptyStr
    tool_name: NonEmptyStr
    tool_use_id: NonEmptyStr | MISSING = MISSING
    tool_args: JSONObject
    status: PendingToolStatus
    expires_at: AwareDatetime
    decision: ResumeDecision | None = None
    result: JSONObject | None = None
    updated_at: AwareDatetime

    @model_validator(mode="after")
    def _holds_what_its_status_allows(self) -> PendingToolCall:
        rule = transition_table().statuses[self.status]
        if self.decision is None and rule.decisions:
            raise ValueError(f"a {self.status} call records a decision")
        if self.decision is not None and self.decision.action not in rule.decisions:
            if not rule.decisions:
                raise ValueError(f"a {self.status} call records no decision")
            allowed = " or ".join(sorted(rule.decisions))
            raise ValueError(f"a {self.status} call records a {allowed} decision, not {self.decision.action}")
        if self.result is not None and not rule.result:
            raise ValueError(f"a {self.status} call holds no tool result")
        return self


class RunContext(ContractModel):
    """Which conversation thread and which run the pending call belongs to."""

    thread_id: NonEmptyStr
    run_id: NonEmptyStr


class AgentSessionSnapshot(ContractModel):
    """The stored session state of an interruptible run (version 2)."""

    version: Literal[2]
    pending_tool_call: PendingToolCall | None = None
    run_context: RunContext


def load_snapshot(raw: object) -> AgentSessionSnapshot:
    """Read a stored snapshot (a parsed JSON value; a snapshot model passes through).

    Raises `UnversionedSnapshot` when there is no `version`, `UnsupportedSnapshotVersion` when it is
    not 2, `MalformedSnapshot` when a version-2 snapshot does not fit the model.
    """
    if isinstance(raw, AgentSessionSnapshot):
        return raw
    if not isinstance(raw, dict):
        raise MalformedSnapshot(f"a session snapshot is a JSON object, got {type(raw).__name__}")
    if "version" not in raw:
        raise UnversionedSnapshot("the session snapshot has no version; only version 2 is read")
    version = raw["version"]
    if isinstance(version, bool) or not isinstance(version, (int, float)) or version != SNAPSHOT_VERSION:
        raise UnsupportedSnapshotVersion(
            f"session snapshot version {version!r} is not supported; only version 2 is read", version=version
        )
    try:
        return validate_json_value(AgentSessionSnapshot, raw)
    except ValidationError as exc:
        raise MalformedSnapshot(describe(exc)) from None
    except CanonicalError as exc:
        raise MalformedSnapshot(str(exc)) from None


def new_pending_snapshot(
    *,
    interrupt_id: str,
    tool_name: str,
    tool_args: JSONObject,
    expires_at: datetime,
    thread_id: str,
    run_id: str,
    now: datetime,
    tool_use_id: str | None = None,
) -> AgentSessionSnapshot:
    """The snapshot a runtime writes when it interrupts a run to ask about a tool call."""
    call = PendingToolCall(
        interrupt_id=interrupt_id,
        tool_name=tool_name,
        tool_use_id=tool_use_id if tool_use_id is not None else MISSING,
        tool_args=tool_args,
        status=transition_table().initial,
        expires_at=expires_at,
        updated_at=now,
    )
    return AgentSessionSnapshot(
        version=SNAPSHOT_VERSION, pending_tool_call=call, run_context=RunContext(thread_id=thread_id, run_id=run_id)
    )


# ---- checks over a target's stored snapshots ---------------------------------------------------------


def check_snapshot(raw: object, *, json_path: str = "$") -> list[Finding]:
    """Findings for one stored snapshot: its version, then its shape."""
    try:
        load_snapshot(raw)
    except (UnversionedSnapshot, UnsupportedSnapshotVersion) as exc:
        return [
            Finding.of(
                "RESUME-SNAPSHOT-VERSION",
                str(exc),
                expected="version 2",
                received=repr(exc.version) if isinstance(exc, UnsupportedSnapshotVersion) else "no version",
                json_path=f"{json_path}.version",
            )
        ]
    except SnapshotError as exc:
        return [Finding.of("RESUME-SNAPSHOT-SCHEMA", str(exc), expected="a version-2 snapshot", json_path=json_path)]
    return []


def check_snapshot_transition(before: object, after: object) -> list[Finding]:
    """Findings for one stored change of a snapshot: the pending call moved only along the table.

    Both snapshots are checked first (paths `$before`, `$after`); when the pending call is the same
    (same `interrupt_id`) its status change must be listed in the transition table, and a decided call's
    recorded decision must not change.
    """
    findings = check_snapshot(before, json_path="$before") + check_snapshot(after, json_path="$after")
    if findings:
        return findings
    old, new = load_snapshot(before).pending_tool_call, load_snapshot(after).pending_tool_call
    if old is None or new is None or old.interrupt_id != new.interrupt_id:
        return []
    table = transition_table()
    if old.status is not new.status and not table.allows(old.status, new.status):
        allowed = ", ".join(sorted(table.targets(old.status))) or "nothing (terminal)"
        return [
            Finding.of(
                "RESUME-TRANSITION",
                f"the pending tool call moved from {old.status} to {new.status}, which the transition table does "
                f"not allow",
                expected=f"from {old.status}: {allowed}",
                received=f"{old.status} -> {new.status}",
                json_path="$after.pending_tool_call.status",
            )
        ]
    if old.decision is not None and not equal(old.decision.to_json(), _decision_json(new)):
        return [
            Finding.of(
                "RESUME-TRANSITION",
                "the recorded decision of an already decided tool call changed",
                expected=str(old.decision.to_json()),
                received=str(_decision_json(new)),
                json_path="$after.pending_tool_call.decision",
            )
        ]
    return []


def _decision_json(call: PendingToolCall) -> dict[str, Any] | None:
    return None if call.decision is None else call.decision.to_json()
