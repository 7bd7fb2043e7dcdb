"""Resume decisions and requests: actions, defaults, the explicit empty replacement, the legacy body."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from turnwire.resume import (
    DEFAULT_REJECT_MESSAGE,
    EmptyAction,
    EmptyRespondMessage,
    MalformedDecision,
    MalformedRequest,
    ResumeAction,
    ResumeDecision,
    UnknownAction,
    parse_decision,
    parse_resume_request,
)


@pytest.mark.parametrize(
    ("raw", "action"),
    [
        ({"action": "approve"}, ResumeAction.APPROVE),
        ({"action": "reject"}, ResumeAction.REJECT),
        ({"action": "reject", "message": "not today"}, ResumeAction.REJECT),
        ({"action": "respond", "message": "Please explain first."}, ResumeAction.RESPOND),
        ({"action": "approve", "updated_input": "{}", "has_updated_input": True}, ResumeAction.APPROVE),
    ],
)
def test_valid_decisions_parse(raw: dict[str, Any], action: ResumeAction) -> None:
    decision = parse_decision(raw)
    assert decision.action is action
    assert decision.to_json() == raw  # nothing added, nothing lost when read


def test_seed004_legacy_body_is_read_as_approve_and_never_written() -> None:
    decision = parse_decision({"decision": "approved"})
    assert decision.action is ResumeAction.APPROVE
    assert decision.to_json() == {"action": "approve"}
    assert decision.normalized().to_json() == {"action": "approve"}


@pytest.mark.parametrize("legacy", ["denied", "approve", "", None])
def test_other_legacy_values_are_unknown(legacy: object) -> None:
    with pytest.raises(UnknownAction, match="legacy"):
        parse_decision({"decision": legacy})


@pytest.mark.parametrize("raw", [{"action": ""}, {}, {"action": None}, {"message": "hi"}])
def test_empty_or_missing_action_is_invalid(raw: dict[str, Any]) -> None:
    with pytest.raises(EmptyAction, match="empty resume action"):
        parse_decision(raw)


@pytest.mark.parametrize("action", ["allow", "deny", "ask", "APPROVE", "approved"])
def test_unknown_action_is_invalid(action: str) -> None:
    with pytest.raises(UnknownAction, match=repr(action)):
        parse_decision({"action": action})


@pytest.mark.parametrize("raw", [{"action": "respond"}, {"action": "respond", "message": ""}])
def test_respond_needs_a_non_empty_message(raw: dict[str, Any]) -> None:
    with pytest.raises(EmptyRespondMessage, match="empty response message"):
        parse_decision(raw)
    with pytest.raises(ValidationError, match="empty response message"):
        ResumeDecision(action=ResumeAction.RESPOND, **{k: v for k, v in raw.items() if k != "action"})


@pytest.mark.parametrize(
    "raw",
    [
        "approve",
        ["approve"],
        {"action": 1},
        {"action": "approve", "note": "x"},
        {"action": "approve", "has_updated_input": "yes"},
        {"action": "approve", "updated_input": {"path": "/tmp"}},
        {"action": "reject", "message": 3},
        {"action": "respond", "message": None},
    ],
)
def test_other_shapes_are_malformed(raw: object) -> None:
    with pytest.raises((MalformedDecision, EmptyRespondMessage)):
        parse_decision(raw)


def test_malformed_is_distinct_from_the_named_rules() -> None:
    with pytest.raises(MalformedDecision, match="note"):
        parse_decision({"action": "approve", "note": "x"})


# ---- normalization: what is recorded ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "recorded"),
    [
        ({"action": "reject"}, {"action": "reject", "message": DEFAULT_REJECT_MESSAGE}),
        ({"action": "reject", "message": ""}, {"action": "reject", "message": DEFAULT_REJECT_MESSAGE}),
        ({"action": "reject", "message": "no"}, {"action": "reject", "message": "no"}),
        ({"action": "respond", "message": "why?"}, {"action": "respond", "message": "why?"}),
        ({"action": "approve"}, {"action": "approve"}),
        ({"action": "approve", "has_updated_input": False}, {"action": "approve"}),
        ({"action": "approve", "updated_input": ""}, {"action": "approve"}),
        # an explicit empty replacement differs from none
        (
            {"action": "approve", "updated_input": "", "has_updated_input": True},
            {"action": "approve", "updated_input": "", "has_updated_input": True},
        ),
        (
            {"action": "approve", "has_updated_input": True},
            {"action": "approve", "updated_input": "", "has_updated_input": True},
        ),
        # a non-empty replacement implies has_updated_input (C.2)
        (
            {"action": "approve", "updated_input": "{}"},
            {"action": "approve", "updated_input": "{}", "has_updated_input": True},
        ),
        # fields that do not apply to the action are not recorded
        ({"action": "approve", "message": "ok"}, {"action": "approve"}),
        (
            {"action": "reject", "updated_input": "x", "has_updated_input": True},
            {"action": "reject", "message": DEFAULT_REJECT_MESSAGE},
        ),
    ],
)
def test_normalized_decision(raw: dict[str, Any], recorded: dict[str, Any]) -> None:
    normalized = parse_decision(raw).normalized()
    assert normalized.to_json() == recorded
    assert normalized.normalized() == normalized


# ---- the request body -------------------------------------------------------------------------------------


def test_resume_request_parses() -> None:
    req = parse_resume_request({"interrupt_id": "int-1", "run_id": "r1", "decision": {"action": "approve"}})
    assert (req.interrupt_id, req.run_id, req.decision.action) == ("int-1", "r1", ResumeAction.APPROVE)
    assert parse_resume_request({"interrupt_id": "int-1", "decision": {"decision": "approved"}}).decision.action is (
        ResumeAction.APPROVE
    )


@pytest.mark.parametrize(
    ("raw", "match"),
    [
        ({"interrupt_id": "int-1"}, "no decision"),
        ({"interrupt_id": "int-1", "decision": {"action": "approve"}, "session": "s"}, "session"),
        ({"interrupt_id": "", "decision": {"action": "approve"}}, "interrupt_id"),
        ({"decision": {"action": "approve"}}, "interrupt_id"),
        ({"interrupt_id": "int-1", "run_id": 7, "decision": {"action": "approve"}}, "run_id"),
        ("int-1", "JSON object"),
    ],
)
def test_malformed_requests(raw: object, match: str) -> None:
    with pytest.raises(MalformedRequest, match=match):
        parse_resume_request(raw)


def test_request_decision_errors_stay_typed() -> None:
    with pytest.raises(EmptyAction):
        parse_resume_request({"interrupt_id": "int-1", "decision": {"action": ""}})
    with pytest.raises(EmptyRespondMessage):
        parse_resume_request({"interrupt_id": "int-1", "decision": {"action": "respond"}})
