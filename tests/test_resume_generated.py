"""The generated resume schemas and golden/session/ vectors: they say what the models say.

The vectors are replayed here the way another implementation would: reading only the golden JSON,
feeding each step to the engine, and comparing outcome and stored snapshot.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from seed_payloads import SEED004_V1, SEED004_V2
from turnwire.canonical import file_bytes, loads
from turnwire.generate import session
from turnwire.generate.schemas import schema_id
from turnwire.resources import golden_dir, schemas_dir
from turnwire.resume import (
    Applied,
    Expired,
    Outcome,
    SnapshotError,
    check_decision_log,
    load_snapshot,
    outcome_json,
    record_result,
    resume_request,
)

NAMES = ("AgentSessionSnapshot", "SessionEvent", "PermissionDecision", "ResumeRequest")


def validator(name: str) -> Draft202012Validator:
    schema = loads((schemas_dir() / f"{name}.schema.json").read_bytes())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def valid(name: str, instance: object) -> bool:
    return validator(name).is_valid(instance)


def test_schemas_have_the_agreed_names_and_ids() -> None:
    generated = session.schemas()
    assert sorted(generated) == sorted(f"{n}.schema.json" for n in NAMES)
    for name in NAMES:
        assert generated[f"{name}.schema.json"]["$id"] == schema_id(None, name)
        assert (schemas_dir() / f"{name}.schema.json").read_bytes() == file_bytes(generated[f"{name}.schema.json"])


# ---- AgentSessionSnapshot ------------------------------------------------------------------------------


def test_seed004_valid_v2_payload_validates_against_the_schema_and_v1_does_not() -> None:
    assert valid("AgentSessionSnapshot", SEED004_V2)
    assert not valid("AgentSessionSnapshot", SEED004_V1)
    assert not valid("AgentSessionSnapshot", {"pending_tool_call": {"status": "PENDING_APPROVAL"}})


def call(**changes: Any) -> dict[str, Any]:
    snap = copy.deepcopy(SEED004_V2)
    snap["pending_tool_call"].update(changes)
    return snap


@pytest.mark.parametrize(
    ("snapshot", "ok"),
    [
        (call(status="APPROVED_EXECUTING", decision={"action": "approve"}), True),
        (call(status="EXECUTED", decision={"action": "approve"}, result={"ok": True}), True),
        (call(status="REJECTED", decision={"action": "respond", "message": "why"}), True),
        (call(status="EXPIRED"), True),
        (call(tool_use_id="call-1"), True),
        (call(decision={"action": "approve"}), False),
        (call(status="APPROVED_EXECUTING"), False),
        (call(status="REJECTED", decision={"action": "approve"}), False),
        (call(status="REJECTED", decision={"action": "respond"}), False),
        (call(status="APPROVED_EXECUTING", decision={"action": "approve"}, result={}), False),
        (call(status="DONE"), False),
        (call(extra=1), False),
        ({**SEED004_V2, "version": "2"}, False),
    ],
)
def test_snapshot_schema_agrees_with_the_model(snapshot: dict[str, Any], ok: bool) -> None:
    assert valid("AgentSessionSnapshot", snapshot) is ok
    try:
        load_snapshot(snapshot)
        model_ok = True
    except SnapshotError:
        model_ok = False
    assert model_ok is ok


# ---- ResumeRequest, PermissionDecision, SessionEvent ---------------------------------------------------------


@pytest.mark.parametrize(
    ("decision", "ok"),
    [
        ({"action": "approve"}, True),
        ({"action": "approve", "updated_input": "", "has_updated_input": True}, True),
        ({"action": "reject"}, True),
        ({"action": "respond", "message": "Please explain first."}, True),
        ({"action": "respond"}, False),  # respond needs a message: said in the schema
        ({"action": "respond", "message": ""}, False),
        ({"action": ""}, False),
        ({"action": "allow"}, False),
        ({"decision": "approved"}, False),  # the legacy body is read, never written
        ({"action": "approve", "has_updated_input": "true"}, False),
    ],
)
def test_resume_request_schema(decision: dict[str, Any], ok: bool) -> None:
    assert valid("ResumeRequest", {"interrupt_id": "int-1", "run_id": "r1", "decision": decision}) is ok
    assert valid("ResumeRequest", {"interrupt_id": "int-1", "decision": decision}) is ok
    assert not valid("ResumeRequest", {"decision": decision})


BASE = {"tool_name": "permission_tool", "tool_use_id": "permission_call"}


@pytest.mark.parametrize(
    ("payload", "ok"),
    [
        ({"action": "approve", **BASE}, True),
        ({"action": "approve", **BASE, "has_updated_input": True}, True),
        ({"action": "approve", **BASE, "updated_input": "{}", "has_updated_input": True}, True),
        ({"action": "reject", **BASE, "decision_text": "rejected by user"}, True),
        ({"action": "respond", "tool_name": "t", "decision_text": "why"}, True),
        ({"action": "approve", **BASE, "decision_text": "ok"}, False),
        ({"action": "reject", **BASE}, False),
        ({"action": "respond", **BASE, "decision_text": ""}, False),
        ({"action": "reject", **BASE, "decision_text": "no", "has_updated_input": True}, False),
        ({"action": "approve", **BASE, "updated_input": "{}"}, False),
        ({"action": "approve", **BASE, "has_updated_input": False}, False),
        ({"action": "approve", **BASE, "tool_args": {"path": "/etc/passwd"}}, False),
    ],
)
def test_permission_decision_schema(payload: dict[str, Any], ok: bool) -> None:
    assert valid("PermissionDecision", payload) is ok
    event = {
        "event_id": "e",
        "timestamp": "2026-03-03T12:00:00Z",
        "kind": "x.permission.decision",
        "turn_id": "t",
        "extension": {"data": payload},
    }
    assert valid("SessionEvent", event) is ok


EVENT = {"event_id": "e", "timestamp": "2026-03-03T12:00:00Z", "turn_id": "t"}


@pytest.mark.parametrize(
    ("event", "ok"),
    [
        ({**EVENT, "kind": "session.status_idle", "lifecycle": {}}, True),
        ({**EVENT, "kind": "x.other", "extension": {"data": [1, 2]}}, True),  # unregistered: any JSON
        ({**EVENT, "kind": "x.other", "extension": {}}, True),
        ({**EVENT, "kind": "session.status_idle"}, False),
        ({**EVENT, "kind": "session.status_idle", "lifecycle": {}, "message": {}}, False),
        ({**EVENT, "kind": "permission.decision", "extension": {"data": {}}}, False),
        ({**EVENT, "kind": "x.other", "message": {}}, False),
        ({**EVENT, "kind": "x.", "extension": {}}, False),
        ({**EVENT, "kind": "bogus", "message": {}}, False),
        ({**EVENT, "kind": "x.permission.decision", "extension": {}}, False),
        ({**EVENT, "kind": "message", "message": {}, "seq": 1}, False),
    ],
)
def test_session_event_schema(event: dict[str, Any], ok: bool) -> None:
    assert valid("SessionEvent", event) is ok


# ---- the vectors ------------------------------------------------------------------------------------------


def vectors() -> dict[str, dict[str, Any]]:
    base = golden_dir() / "session"
    return {p.relative_to(base).with_suffix("").as_posix(): loads(p.read_bytes()) for p in sorted(base.rglob("*.json"))}


def test_vectors_are_the_agreed_set() -> None:
    assert sorted(vectors()) == [
        "adk/approve-explicit-empty-input",
        "adk/approve-updated-input",
        "adk/reject-default",
        "adk/respond",
        "adk/respond-empty-message",
        "outcomes/applied",
        "outcomes/conflict",
        "outcomes/expired",
        "outcomes/invalid-legacy",
        "outcomes/repeat",
    ]


def replay(vector: dict[str, Any]) -> list[Outcome]:
    """What another implementation does with a vector: feed each step, compare outcome and snapshot."""
    stored = vector["snapshot"]
    outcomes: list[Outcome] = []
    for step in vector["steps"]:
        now = datetime.fromisoformat(step["at"])
        if step["step"] == "tool-result":
            stored = record_result(load_snapshot(stored), step["result"], now).to_json()
            assert stored == step["snapshot"]
            continue
        outcome = resume_request(stored, step["request"], now)
        outcomes.append(outcome)
        assert outcome_json(outcome) == step["outcome"]
        if isinstance(outcome, Applied) or (isinstance(outcome, Expired) and outcome.changed):
            stored = outcome.snapshot.to_json()
            assert stored == step["snapshot"]
        else:
            assert "snapshot" not in step
    return outcomes


@pytest.mark.parametrize("slug", sorted(session.vectors()))
def test_vector_replays_and_its_log_is_clean(slug: str) -> None:
    vector = vectors()[slug]
    outcomes = replay(vector)
    assert check_decision_log(vector["events"], outcomes) == []
    for event in vector["events"]:
        assert valid("SessionEvent", event), event
    for step in vector["steps"]:
        if "snapshot" in step:
            assert valid("AgentSessionSnapshot", step["snapshot"])
        if step["step"] == "resume":
            assert valid("ResumeRequest", step["request"]) is (slug != "adk/respond-empty-message")


@pytest.mark.parametrize(
    ("slug", "decisions", "tool_ran"),
    [
        ("adk/approve-updated-input", 1, '{"path":"/tmp/safe.txt"}'),
        ("adk/approve-explicit-empty-input", 1, ""),
        ("adk/reject-default", 1, None),
        ("adk/respond", 1, None),
        ("adk/respond-empty-message", 0, None),
        ("outcomes/applied", 1, {"amount": 100, "to": "u2"}),
        ("outcomes/repeat", 1, {"amount": 100, "to": "u2"}),
        ("outcomes/expired", 0, None),
        ("outcomes/conflict", 0, None),
        ("outcomes/invalid-legacy", 0, None),
    ],
)
def test_vector_logs(slug: str, decisions: int, tool_ran: object) -> None:
    events = vectors()[slug]["events"]
    kinds = [e["kind"] for e in events]
    assert kinds.count("x.permission.decision") == decisions
    starts = [e["span"]["input"] for e in events if e["kind"] == "span.tool_call_start"]
    assert starts == ([] if tool_ran is None else [tool_ran])
    if decisions:
        at = kinds.index("x.permission.decision")
        assert "session.status_idle" in kinds[at + 1 :]  # the decision precedes a later idle status (C.3)
        assert "/etc/passwd" not in str(events[at])


def test_golden_files_are_what_the_generator_writes() -> None:
    for rel, data in session.goldens().items():
        assert (golden_dir() / rel).read_bytes() == data, rel
