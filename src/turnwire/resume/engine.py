"""The resume engine: a pure function from (snapshot, decision, interrupt, run, now) to one outcome.

Pure on purpose: the engine reads nothing and writes nothing, so the part of "apply a decision exactly
once" that is logic can be tested exhaustively, and the part that is concurrency stays where it
belongs — the caller reads the snapshot, calls `resume`, and stores the outcome's snapshot under one
lock (a row lock, a compare-and-set). Serialized that way, a second caller sees the first one's
snapshot and gets a conflict, never a second application.

Checks run in this order, the first that fails decides: the snapshot can be read (else invalid), the
decision can be read (invalid), something is pending (conflict), the interrupt and — when given — the
run match (conflict), the call has not expired before (expired), the call is still undecided
(conflict: "already applied" for a repeat of the applied decision), the ask has not run out now
(expired, and the call becomes EXPIRED). Only then is the decision applied.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import MISSING

from turnwire.canonical import JSONValue, equal
from turnwire.resume.decision import ResumeAction, ResumeDecision, parse_decision, parse_resume_request
from turnwire.resume.errors import DecisionError, IllegalTransition, SnapshotError
from turnwire.resume.events import ExtensionEvent, SessionEvent
from turnwire.resume.outcomes import Applied, Conflict, ConflictReason, Expired, Invalid, Outcome
from turnwire.resume.permission import PERMISSION_DECISION_KIND, PermissionDecision
from turnwire.resume.snapshot import AgentSessionSnapshot, PendingToolCall, load_snapshot
from turnwire.resume.transitions import PendingToolStatus, ensure_transition

__all__ = ["decision_event_id", "record_result", "resume", "resume_request", "tool_input"]


def decision_event_id(call: PendingToolCall) -> str:
    """The default id of the decision event for `call`: one decision per interrupt makes it unique."""
    return f"{call.interrupt_id}/decision"


def _require_aware(now: datetime) -> None:
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("`now` must be a timezone-aware datetime")


def _move(call: PendingToolCall, target: PendingToolStatus, now: datetime, **changes: Any) -> PendingToolCall:
    """`call` in status `target` (checked against the table), re-validated as a whole."""
    ensure_transition(call.status, target)
    fields: dict[str, Any] = {**dict(call), **changes, "status": target, "updated_at": now}
    return PendingToolCall(**fields)


def resume(
    snapshot: AgentSessionSnapshot | JSONValue,
    decision: ResumeDecision | JSONValue,
    interrupt_id: str,
    run_id: str | None,
    now: datetime,
    *,
    event_id: str | None = None,
) -> Outcome:
    """Decide one resume. `snapshot` and `decision` may be typed or the raw JSON a runtime holds.

    Applied outcomes carry the new snapshot and the `x.permission.decision` event (id `event_id`, or
    `decision_event_id(call)`; turn id = the snapshot's run id; timestamp = `now`).
    """
    _require_aware(now)
    try:
        snap = load_snapshot(snapshot)
    except SnapshotError as exc:
        return Invalid(exc, call=None)
    call = snap.pending_tool_call
    try:
        wanted = parse_decision(decision).normalized()
    except DecisionError as exc:
        return Invalid(exc, call=call)
    if call is None:
        return Conflict(ConflictReason.NO_PENDING_CALL, "the session has no pending tool call", call=None)
    if call.interrupt_id != interrupt_id:
        return Conflict(
            ConflictReason.INTERRUPT_MISMATCH,
            f"interrupt {interrupt_id!r} is not the pending one ({call.interrupt_id!r})",
            call=call,
        )
    if run_id is not None and run_id != snap.run_context.run_id:
        return Conflict(
            ConflictReason.RUN_MISMATCH,
            f"run {run_id!r} is not the interrupted run ({snap.run_context.run_id!r})",
            call=call,
        )
    if call.status is PendingToolStatus.EXPIRED:
        return Expired(snap, changed=False, call=call)
    if call.status is not PendingToolStatus.PENDING_APPROVAL:
        if call.decision is not None and equal(call.decision.to_json(), wanted.to_json()):
            return Conflict(ConflictReason.ALREADY_APPLIED, "already applied", call=call)
        return Conflict(ConflictReason.ALREADY_DECIDED, f"the tool call was already decided ({call.status})", call=call)
    if now > call.expires_at:
        expired = _move(call, PendingToolStatus.EXPIRED, now)
        return Expired(snap.model_copy(update={"pending_tool_call": expired}), changed=True, call=call)
    target = (
        PendingToolStatus.APPROVED_EXECUTING if wanted.action is ResumeAction.APPROVE else PendingToolStatus.REJECTED
    )
    decided = _move(call, target, now, decision=wanted)
    event = SessionEvent(
        event_id=event_id or decision_event_id(call),
        timestamp=now,
        kind=PERMISSION_DECISION_KIND,
        turn_id=snap.run_context.run_id,
        extension=ExtensionEvent(data=PermissionDecision.of(wanted, call)),
    )
    return Applied(snap.model_copy(update={"pending_tool_call": decided}), event=event, call=call)


def resume_request(
    snapshot: AgentSessionSnapshot | JSONValue,
    request: JSONValue | object,
    now: datetime,
    *,
    event_id: str | None = None,
) -> Outcome:
    """Decide a resume from a request body `{interrupt_id, run_id?, decision}` (what a route receives)."""
    _require_aware(now)
    try:
        snap = load_snapshot(snapshot)
    except SnapshotError as exc:
        return Invalid(exc, call=None)
    try:
        req = parse_resume_request(request)
    except DecisionError as exc:
        return Invalid(exc, call=snap.pending_tool_call)
    run_id = None if req.run_id is MISSING else req.run_id
    return resume(snap, req.decision, req.interrupt_id, run_id, now, event_id=event_id)


def record_result(snapshot: AgentSessionSnapshot, result: dict[str, JSONValue], now: datetime) -> AgentSessionSnapshot:
    """The snapshot after the approved tool ran and returned `result` (APPROVED_EXECUTING → EXECUTED).

    Raises `IllegalTransition` when the call is not approved-and-executing (or there is none).
    """
    _require_aware(now)
    call = snapshot.pending_tool_call
    if call is None:
        raise IllegalTransition(
            "there is no pending tool call to record a result for",
            source="none",
            target=PendingToolStatus.EXECUTED.value,
        )
    done = _move(call, PendingToolStatus.EXECUTED, now, result=result)
    return snapshot.model_copy(update={"pending_tool_call": done})


def tool_input(call: PendingToolCall) -> JSONValue | None:
    """What the tool runs on: the replacement text of the approve, else the original arguments.

    None when the call is not APPROVED_EXECUTING: the tool must not run.
    """
    if call.status is not PendingToolStatus.APPROVED_EXECUTING or call.decision is None:
        return None
    if call.decision.replaces_input:
        return call.decision.updated_input if call.decision.updated_input is not MISSING else ""
    return call.tool_args
