"""Session event envelope, the permission decision payload and the extension-payload registry."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, ValidationError

from strategies import json_values
from turnwire.canonical import dumps, loads
from turnwire.findings import Level
from turnwire.resume import (
    DuplicateRegistration,
    ExtensionEvent,
    ExtensionKindError,
    InvalidPayload,
    PayloadKindMismatch,
    PayloadRegistry,
    PermissionDecision,
    ResumeAction,
    SessionEvent,
    UnregisteredPayload,
    decode_event,
    default_registry,
    encode_event,
)

DECISION_EVENT: dict[str, Any] = {
    "event_id": "evt-5",
    "timestamp": "2026-03-03T12:00:00Z",
    "kind": "x.permission.decision",
    "turn_id": "run-1",
    "extension": {
        "data": {
            "action": "reject",
            "tool_name": "permission_tool",
            "tool_use_id": "permission_call",
            "decision_text": "rejected by user",
        }
    },
}
IDLE: dict[str, Any] = {
    "event_id": "evt-6",
    "timestamp": "2026-03-03T12:00:01Z",
    "kind": "session.status_idle",
    "turn_id": "run-1",
    "lifecycle": {},
}


def requirements(raw: object, registry: PayloadRegistry | None = None) -> list[str]:
    return [f.requirement for f in decode_event(raw, registry).findings]


def test_decision_event_decodes_typed_and_round_trips() -> None:
    decoded = decode_event(DECISION_EVENT)
    assert decoded.findings == []
    assert decoded.event is not None
    assert isinstance(decoded.event.payload, PermissionDecision)
    assert decoded.event.payload.action is ResumeAction.REJECT
    assert encode_event(decoded.event) == DECISION_EVENT
    assert decode_event(IDLE).event is not None
    assert encode_event(decode_event(IDLE).event) == IDLE


# ---- the envelope (research C.1: ClassifySessionEvent) -------------------------------------------------


def test_extension_event_must_set_kind() -> None:
    for kind in ("", None):
        raw = {**DECISION_EVENT, "kind": kind}
        assert requirements(raw) == ["EVENT-ENVELOPE"]
    raw = {k: v for k, v in DECISION_EVENT.items() if k != "kind"}
    assert requirements(raw) == ["EVENT-ENVELOPE"]


@pytest.mark.parametrize("kind", ["permission.decision", "message", "x.", "X.permission.decision"])
def test_extension_kind_must_start_with_x(kind: str) -> None:
    (f,) = decode_event({**DECISION_EVENT, "kind": kind}).findings
    assert (f.requirement, f.level, f.json_path, f.received) == ("EVENT-EXTENSION-KIND", Level.MUST, "$.kind", kind)


def test_x_kind_with_a_built_in_payload() -> None:
    assert requirements({**IDLE, "kind": "x.status"}) == ["EVENT-EXTENSION-KIND"]


def test_unknown_non_extension_kind() -> None:
    assert requirements({**IDLE, "kind": "session.status_sleeping"}) == ["EVENT-KIND-UNKNOWN"]


@pytest.mark.parametrize(
    "raw",
    [
        {**IDLE, "message": {}},
        {**DECISION_EVENT, "lifecycle": {}},
        {k: v for k, v in IDLE.items() if k != "lifecycle"},
    ],
)
def test_exactly_one_active_payload(raw: dict[str, Any]) -> None:
    (f,) = decode_event(raw).findings
    assert f.requirement == "EVENT-ONE-PAYLOAD"
    assert "exactly one active payload" in f.message
    with pytest.raises(ValidationError, match="exactly one active payload"):
        SessionEvent.model_validate_json(dumps(raw))


@pytest.mark.parametrize(
    "raw",
    [
        {**IDLE, "event_id": ""},
        {**IDLE, "turn_id": 7},
        {**IDLE, "timestamp": "2026-03-03T12:00:01"},
        {**IDLE, "timestamp": 1772539200},
        {**IDLE, "lifecycle": None},
        {**IDLE, "lifecycle": "idle"},
        {**IDLE, "seq": 1},
        "not an event",
        [IDLE],
    ],
)
def test_envelope_findings(raw: object) -> None:
    assert requirements(raw) == ["EVENT-ENVELOPE"]


@given(json_values)
def test_decode_never_raises(raw: object) -> None:
    result = decode_event(raw)
    assert result.event is not None or result.findings


# ---- the permission decision payload -------------------------------------------------------------------


def payload(**changes: Any) -> dict[str, Any]:
    data = {"action": "approve", "tool_name": "permission_tool", "tool_use_id": "permission_call", **changes}
    return {k: v for k, v in data.items() if v is not None}


@pytest.mark.parametrize(
    "data",
    [
        payload(decision_text="ok"),  # approve carries no text
        payload(action="reject"),  # reject carries its text
        payload(action="respond"),
        payload(action="reject", decision_text="no", has_updated_input=True),
        payload(updated_input="{}"),  # updated input without has_updated_input
        payload(has_updated_input=False),  # empty values are omitted, never written
        payload(decision_text=""),
        payload(updated_input="", has_updated_input=True),
        payload(tool_use_id=""),
        payload(tool_name=None),
        payload(tool_args={"path": "/etc/passwd"}),  # never the original arguments
        payload(Arguments="{}"),
        payload(action="allow"),
    ],
)
def test_invalid_permission_payloads(data: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        PermissionDecision.model_validate_json(dumps(data))
    f = decode_event({**DECISION_EVENT, "extension": {"data": data}}).findings
    assert [x.requirement for x in f] == ["EVENT-PAYLOAD-INVALID"]
    assert f[0].json_path == "$.extension.data"


def test_replacement_input() -> None:
    def read(**changes: Any) -> str | None:
        return PermissionDecision.model_validate_json(dumps(payload(**changes))).replacement_input

    assert read() is None
    assert read(has_updated_input=True) == ""
    assert read(updated_input="{}", has_updated_input=True) == "{}"


def test_decision_event_without_data() -> None:
    (f,) = decode_event({**DECISION_EVENT, "extension": {}}).findings
    assert f.requirement == "EVENT-PAYLOAD-INVALID"
    assert "no data" in f.message


# ---- the registry -----------------------------------------------------------------------------------------


class Note(BaseModel):
    """A test extension payload."""

    model_config = ConfigDict(extra="forbid", strict=True)
    text: str


class Other(BaseModel):
    """Another test payload, never registered."""

    n: int


NOTE_EVENT: dict[str, Any] = {**IDLE, "kind": "x.test.note", "extension": {"data": {"text": "hi"}}}
del NOTE_EVENT["lifecycle"]


def test_unregistered_extension_kind_decodes_to_raw_json_with_a_should_finding() -> None:
    decoded = decode_event(NOTE_EVENT)
    (f,) = decoded.findings
    assert (f.requirement, f.level, f.received) == ("EVENT-EXTENSION-UNREGISTERED", Level.SHOULD, "x.test.note")
    assert decoded.event is not None
    assert decoded.event.payload == {"text": "hi"}
    assert encode_event(decoded.event) == NOTE_EVENT  # raw JSON of an unknown kind is kept as it is


def test_registered_payload_round_trips_as_its_concrete_type() -> None:
    registry = default_registry().extended("x.test.note", Note)
    decoded = decode_event(NOTE_EVENT, registry)
    assert decoded.findings == []
    assert decoded.event is not None
    assert isinstance(decoded.event.payload, Note)
    encoded = encode_event(decoded.event, registry)
    assert encoded == NOTE_EVENT
    again = decode_event(loads(dumps(encoded)), registry).event
    assert again is not None
    assert isinstance(again.payload, Note)
    assert again.payload == decoded.event.payload
    assert "x.test.note" not in default_registry().kinds  # extending returns a new registry


def event_with(kind: str, data: object) -> SessionEvent:
    return SessionEvent.model_validate(
        {
            "event_id": "e",
            "timestamp": "2026-03-03T12:00:00Z",
            "kind": kind,
            "turn_id": "t",
            "extension": ExtensionEvent(data=data),
        },
        strict=False,
    )


def test_encoding_an_unregistered_payload_fails_clearly() -> None:
    with pytest.raises(UnregisteredPayload, match=r"Other.*no extension kind is registered.*PermissionDecision"):
        encode_event(event_with("x.other", Other(n=1)))


def test_encoding_checks_the_payload_against_its_kind() -> None:
    registry = default_registry().extended("x.test.note", Note)
    with pytest.raises(PayloadKindMismatch, match=r"x\.test\.note"):
        encode_event(event_with("x.permission.decision", Note(text="hi")), registry)
    with pytest.raises(InvalidPayload, match="PermissionDecision"):
        encode_event(event_with("x.permission.decision", {"action": "reject", "tool_name": "t"}))
    good = encode_event(
        event_with("x.permission.decision", {"action": "reject", "tool_name": "t", "decision_text": "no"})
    )
    assert good["extension"] == {"data": {"action": "reject", "tool_name": "t", "decision_text": "no"}}


def test_registry_rules() -> None:
    registry = default_registry()
    with pytest.raises(ExtensionKindError):
        registry.extended("note", Note)
    with pytest.raises(ExtensionKindError):
        PayloadRegistry({"x.": Note})
    with pytest.raises(DuplicateRegistration):
        registry.extended("x.permission.decision", Note)
    with pytest.raises(DuplicateRegistration):
        registry.extended("x.again", PermissionDecision)
    with pytest.raises(ExtensionKindError):
        registry.encode("message", {"a": 1})
    with pytest.raises(InvalidPayload, match="not a JSON value"):
        registry.encode("x.raw", {"a": float("nan")})
    assert registry.model_for("x.permission.decision") is PermissionDecision
    assert registry.model_for("x.nope") is None


def test_typed_events_cannot_break_the_envelope_rules() -> None:
    with pytest.raises(ValidationError, match="must start with"):
        event_with("permission.decision", {"a": 1})
    with pytest.raises(ValidationError, match="exactly one active payload"):
        SessionEvent.model_validate({**copy.deepcopy(IDLE), "message": {}}, strict=False)


@given(st.sampled_from(["approve", "reject", "respond"]), st.text(min_size=1, max_size=5), st.booleans())
def test_encoded_payloads_never_hold_empty_values(action: str, text: str, replace: bool) -> None:
    data: dict[str, Any] = {"action": action, "tool_name": "t"}
    if action == "approve" and replace:
        data["has_updated_input"] = True
    if action != "approve":
        data["decision_text"] = text
    encoded = encode_event(event_with("x.permission.decision", data))["extension"]
    assert isinstance(encoded, dict)
    assert all(v not in ("", False, None) for v in encoded["data"].values())
