"""The resume engine: one outcome per resume (seed 004 tasks 2-4, ADK test cases of research C.3).

Counterparts are named `test_seed004_*` and `test_adk_*`; docs/resume.md maps each seed test to them.
"""

from __future__ import annotations

import copy
import json
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from turnwire.canonical import dumps, loads
from turnwire.resume import (
    HTTP_STATUS,
    INVALID_BECAUSE,
    AgentSessionSnapshot,
    Applied,
    Conflict,
    ConflictReason,
    EmptyAction,
    EmptyRespondMessage,
    Expired,
    IllegalTransition,
    Invalid,
    MalformedRequest,
    OutcomeKind,
    PendingToolStatus,
    PermissionDecision,
    UnsupportedSnapshotVersion,
    UnversionedSnapshot,
    decode_event,
    encode_event,
    http_status,
    load_snapshot,
    new_pending_snapshot,
    outcome_json,
    record_result,
    resume,
    resume_request,
    tool_input,
)

S = PendingToolStatus
T0 = datetime(2026, 3, 3, 11, 59, tzinfo=UTC)
APPROVE = {"action": "approve"}


def seed004(*, expires_in: timedelta = timedelta(minutes=5)) -> dict[str, Any]:
    """Seed 004's pending transfer, as the JSON a store holds."""
    return new_pending_snapshot(
        interrupt_id="int-1",
        tool_name="srv.transfer_funds",
        tool_args={"to": "u2", "amount": 100},
        expires_at=T0 + expires_in,
        thread_id="t1",
        run_id="r1",
        now=T0,
    ).to_json()


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


# ---- seed 004 -------------------------------------------------------------------------------------------


def test_seed004_invalid_legacy_snapshot_is_rejected() -> None:
    legacy = {"pending_tool_call": {"status": "PENDING_APPROVAL"}}
    outcome = resume(legacy, {"decision": "approved"}, "int-1", None, at(1))
    assert isinstance(outcome, Invalid)
    assert isinstance(outcome.error, UnversionedSnapshot)
    assert (outcome.reason, http_status(outcome)) == ("unversioned-snapshot", 422)


def test_version_1_snapshot_is_invalid_too() -> None:
    v1 = {"version": 1, "pending_tool_call": None, "run_context": {"thread_id": "t1", "run_id": "r1"}}
    outcome = resume(v1, APPROVE, "int-1", "r1", at(1))
    assert isinstance(outcome, Invalid)
    assert isinstance(outcome.error, UnsupportedSnapshotVersion)


def test_seed004_resume_is_idempotent() -> None:
    stored = seed004()
    first = resume(stored, {"decision": "approved"}, "int-1", None, at(10))
    assert isinstance(first, Applied)
    stored_after = first.snapshot.to_json()
    second = resume(stored_after, {"decision": "approved"}, "int-1", None, at(20))
    assert isinstance(second, Conflict)
    assert second.reason is ConflictReason.ALREADY_APPLIED
    assert second.message == "already applied"
    assert http_status(second) == 409
    assert not hasattr(second, "event")  # no second decision event
    assert load_snapshot(stored_after) == first.snapshot  # and nothing to store


def test_seed004_resume_under_a_lock_applies_once() -> None:
    """Seed 004 task 3 locks the session row; the pure engine's part is: serialized callers apply once."""
    store = {"snapshot": seed004()}
    lock = threading.Lock()
    outcomes: list[OutcomeKind] = []

    def handle() -> None:
        with lock:  # the reference runtime's row lock
            outcome = resume(store["snapshot"], APPROVE, "int-1", "r1", at(10))
            if isinstance(outcome, Applied):
                store["snapshot"] = outcome.snapshot.to_json()
            outcomes.append(outcome.kind)

    threads = [threading.Thread(target=handle) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count(OutcomeKind.APPLIED) == 1
    assert outcomes.count(OutcomeKind.CONFLICT) == 7


def test_engine_is_pure() -> None:
    stored = seed004()
    before = copy.deepcopy(stored)
    decision = {"action": "reject"}
    a = resume(stored, decision, "int-1", "r1", at(10))
    b = resume(stored, decision, "int-1", "r1", at(10))
    assert stored == before
    assert decision == {"action": "reject"}
    assert isinstance(a, Applied)
    assert isinstance(b, Applied)
    assert a.snapshot == b.snapshot
    assert encode_event(a.event) == encode_event(b.event)


def test_seed004_resume_expired_pending_returns_not_applied_and_marks_expired() -> None:
    stored = seed004(expires_in=timedelta(seconds=-1))
    outcome = resume(stored, {"decision": "approved"}, "int-1", None, at(0))
    assert isinstance(outcome, Expired)
    assert outcome.changed
    call = outcome.snapshot.pending_tool_call
    assert call is not None
    assert call.status is S.EXPIRED
    assert call.updated_at == at(0)
    assert call.decision is None
    assert http_status(outcome) == 410


def test_an_expired_call_stays_expired_and_unchanged() -> None:
    first = resume(seed004(expires_in=timedelta(seconds=5)), APPROVE, "int-1", "r1", at(6))
    assert isinstance(first, Expired)
    again = resume(first.snapshot, APPROVE, "int-1", "r1", at(7))
    assert isinstance(again, Expired)
    assert not again.changed
    assert again.snapshot == first.snapshot


def test_expiry_is_strictly_after_expires_at() -> None:
    stored = seed004(expires_in=timedelta(seconds=30))
    assert isinstance(resume(stored, APPROVE, "int-1", "r1", at(30)), Applied)
    assert isinstance(resume(stored, APPROVE, "int-1", "r1", at(30.001)), Expired)


# ---- conflicts and their order --------------------------------------------------------------------------


def test_conflicts() -> None:
    stored = seed004()
    cases = [
        (resume(stored, APPROVE, "int-2", "r1", at(1)), ConflictReason.INTERRUPT_MISMATCH),
        (resume(stored, APPROVE, "int-1", "r2", at(1)), ConflictReason.RUN_MISMATCH),
        (resume({**stored, "pending_tool_call": None}, APPROVE, "int-1", None, at(1)), ConflictReason.NO_PENDING_CALL),
    ]
    for outcome, reason in cases:
        assert isinstance(outcome, Conflict)
        assert outcome.reason is reason
        assert http_status(outcome) == 409
    assert isinstance(resume(stored, APPROVE, "int-1", None, at(1)), Applied)  # no run id: not checked


def test_a_different_decision_after_one_was_applied_is_already_decided() -> None:
    applied = resume(seed004(), {"action": "reject"}, "int-1", "r1", at(1))
    assert isinstance(applied, Applied)
    for other in (APPROVE, {"action": "reject", "message": "other words"}, {"action": "respond", "message": "hm"}):
        outcome = resume(applied.snapshot, other, "int-1", "r1", at(2))
        assert isinstance(outcome, Conflict)
        assert outcome.reason is ConflictReason.ALREADY_DECIDED
    # the repeat is recognised in its normalized form: reject == reject with the default message
    repeat = resume(applied.snapshot, {"action": "reject", "message": "rejected by user"}, "int-1", "r1", at(2))
    assert isinstance(repeat, Conflict)
    assert repeat.reason is ConflictReason.ALREADY_APPLIED


def test_a_repeat_after_execution_is_still_already_applied() -> None:
    applied = resume(seed004(), APPROVE, "int-1", "r1", at(1))
    assert isinstance(applied, Applied)
    done = record_result(applied.snapshot, {"ok": True}, at(2))
    outcome = resume(done, APPROVE, "int-1", "r1", at(3))
    assert isinstance(outcome, Conflict)
    assert outcome.reason is ConflictReason.ALREADY_APPLIED


def test_an_invalid_decision_is_invalid_before_any_state_check() -> None:
    outcome = resume(seed004(expires_in=timedelta(seconds=-5)), {"action": ""}, "other", "r9", at(1))
    assert isinstance(outcome, Invalid)
    assert isinstance(outcome.error, EmptyAction)
    assert outcome.call is not None  # the call is known, for the ordering checks


def test_http_table() -> None:
    assert dict(HTTP_STATUS) == {
        OutcomeKind.APPLIED: 200,
        OutcomeKind.CONFLICT: 409,
        OutcomeKind.EXPIRED: 410,
        OutcomeKind.INVALID: 422,
    }


def test_naive_now_is_a_caller_bug() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        resume(seed004(), APPROVE, "int-1", "r1", datetime(2026, 3, 3, 12))


# ---- the request route's entry point -----------------------------------------------------------------------


def test_resume_request() -> None:
    ok = resume_request(seed004(), {"interrupt_id": "int-1", "run_id": "r1", "decision": APPROVE}, at(1))
    assert isinstance(ok, Applied)
    mismatch = resume_request(seed004(), {"interrupt_id": "int-1", "run_id": "r2", "decision": APPROVE}, at(1))
    assert isinstance(mismatch, Conflict)
    bad = resume_request(seed004(), {"interrupt": "int-1", "decision": APPROVE}, at(1))
    assert isinstance(bad, Invalid)
    assert isinstance(bad.error, MalformedRequest)
    assert outcome_json(bad) == {"outcome": "invalid", "http_status": 422, "reason": "malformed-request"}
    legacy = resume_request({"pending_tool_call": {}}, {"interrupt_id": "int-1", "decision": APPROVE}, at(1))
    assert isinstance(legacy, Invalid)
    assert isinstance(legacy.error, UnversionedSnapshot)


def test_event_id_and_turn_id() -> None:
    outcome = resume(seed004(), APPROVE, "int-1", "r1", at(1), event_id="evt-42")
    assert isinstance(outcome, Applied)
    assert (outcome.event.event_id, outcome.event.turn_id, outcome.event.timestamp) == ("evt-42", "r1", at(1))
    default = resume(seed004(), APPROVE, "int-1", "r1", at(1))
    assert isinstance(default, Applied)
    assert default.event.event_id == "int-1/decision"


# ---- the tool runs only when approved ------------------------------------------------------------------


def test_record_result_only_after_approval() -> None:
    approved = resume(seed004(), APPROVE, "int-1", "r1", at(1))
    assert isinstance(approved, Applied)
    done = record_result(approved.snapshot, {"ok": True}, at(2))
    call = done.pending_tool_call
    assert call is not None
    assert (call.status, call.result, call.updated_at) == (S.EXECUTED, {"ok": True}, at(2))
    with pytest.raises(IllegalTransition):
        record_result(done, {"ok": True}, at(3))
    rejected = resume(seed004(), {"action": "reject"}, "int-1", "r1", at(1))
    assert isinstance(rejected, Applied)
    with pytest.raises(IllegalTransition, match="REJECTED"):
        record_result(rejected.snapshot, {"ok": True}, at(2))
    with pytest.raises(IllegalTransition, match="no pending"):
        record_result(load_snapshot({**seed004(), "pending_tool_call": None}), {}, at(2))
    pending = load_snapshot(seed004())
    with pytest.raises(IllegalTransition):
        record_result(pending, {}, at(2))


# ---- the ADK test cases (research C.3) ---------------------------------------------------------------------

ADK_ARGS = {"path": "/etc/passwd"}


def adk_snapshot() -> AgentSessionSnapshot:
    return new_pending_snapshot(
        interrupt_id="permission_interrupt",
        tool_name="permission_tool",
        tool_use_id="permission_call",
        tool_args=ADK_ARGS,
        expires_at=T0 + timedelta(minutes=10),
        thread_id="thread-1",
        run_id="run-1",
        now=T0,
    )


ADK_CASES = [
    pytest.param(
        {"action": "approve", "updated_input": '{"path":"/tmp/safe.txt"}', "has_updated_input": True},
        {"action": "approve", "updated_input": '{"path":"/tmp/safe.txt"}', "has_updated_input": True},
        '{"path":"/tmp/safe.txt"}',
        id="approve with updated input",
    ),
    pytest.param(
        {"action": "approve", "updated_input": "", "has_updated_input": True},
        {"action": "approve", "has_updated_input": True},
        "",
        id="approve with explicit empty",
    ),
    pytest.param(
        {"action": "reject"}, {"action": "reject", "decision_text": "rejected by user"}, None, id="reject default"
    ),
    pytest.param(
        {"action": "respond", "message": "Please explain first."},
        {"action": "respond", "decision_text": "Please explain first."},
        None,
        id="respond",
    ),
]


@pytest.mark.parametrize(("decision", "payload", "tool_runs_on"), ADK_CASES)
def test_adk_permission_decision_event_live_and_persisted(
    decision: dict[str, Any], payload: dict[str, Any], tool_runs_on: str | None
) -> None:
    outcome = resume(adk_snapshot(), decision, "permission_interrupt", None, at(60))
    assert isinstance(outcome, Applied)
    live = outcome.event
    assert live.kind == "x.permission.decision"
    assert isinstance(live.payload, PermissionDecision)  # typed, live
    # persisted: written as JSON, read back
    persisted_bytes = dumps(encode_event(live))
    decoded = decode_event(loads(persisted_bytes))
    assert decoded.findings == []
    persisted = decoded.event
    assert persisted is not None
    assert isinstance(persisted.payload, PermissionDecision)  # typed, persisted
    assert persisted.payload == live.payload
    assert live.event_id
    assert live.turn_id
    assert (persisted.event_id, persisted.turn_id) == (live.event_id, live.turn_id)
    # the payload: C.1 fields, snake_case, empty values omitted
    expected = {"tool_name": "permission_tool", "tool_use_id": "permission_call", **payload}
    assert live.payload.to_json() == expected
    # never the original arguments
    data_json = json.dumps(loads(persisted_bytes)["extension"]["data"])
    for forbidden in (json.dumps(ADK_ARGS), json.dumps(ADK_ARGS, separators=(",", ":")), "/etc/passwd"):
        assert forbidden not in data_json
    for key in ("Arguments", "CallID", "tool_args", "arguments"):
        assert key not in data_json
    # the tool: invoked with the replacement (even an empty one), or not at all
    call = outcome.snapshot.pending_tool_call
    assert call is not None
    assert tool_input(call) == tool_runs_on
    assert call.status is (S.APPROVED_EXECUTING if tool_runs_on is not None else S.REJECTED)


def test_adk_approve_without_replacement_runs_on_the_original_arguments() -> None:
    outcome = resume(adk_snapshot(), APPROVE, "permission_interrupt", None, at(60))
    assert isinstance(outcome, Applied)
    assert outcome.payload.to_json() == {
        "action": "approve",
        "tool_name": "permission_tool",
        "tool_use_id": "permission_call",
    }
    assert outcome.snapshot.pending_tool_call is not None
    assert tool_input(outcome.snapshot.pending_tool_call) == ADK_ARGS


def test_adk_invalid_respond_does_not_persist_decision_event() -> None:
    snapshot = adk_snapshot()
    outcome = resume(snapshot, {"action": "respond", "message": ""}, "permission_interrupt", None, at(60))
    assert isinstance(outcome, Invalid)
    assert isinstance(outcome.error, EmptyRespondMessage)
    assert "empty response message" in str(outcome.error)
    assert not hasattr(outcome, "event")  # no decision event, live or persisted
    assert outcome.call == snapshot.pending_tool_call  # nothing changed...
    assert snapshot.pending_tool_call is not None
    assert tool_input(snapshot.pending_tool_call) is None  # ...so the tool is not invoked


def test_invalid_reasons_are_one_table() -> None:
    assert len(set(INVALID_BECAUSE.values())) == len(INVALID_BECAUSE)

    class Narrower(EmptyAction):
        """A caller's own refinement of a listed error keeps its reason."""

    assert Invalid(Narrower("x"), call=None).reason == "empty-action"
    assert outcome_json(Invalid(UnversionedSnapshot("x"), call=None))["reason"] == "unversioned-snapshot"
