"""Protocol models per profile: what each profile accepts and rejects, graded as findings.

Expected verdicts come from the AI SDK's own validators as recorded in the research note
(shared/research/ai-sdk-uimessage.md §11); the oracle tests re-check the goldens against the real SDK.
The generated JSON Schema must agree with the models on every case (jsonschema is the reference judge).
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest

from turnwire.generate.schemas import protocol_schemas
from turnwire.profiles import ALL_PROFILES, Profile
from turnwire.protocol import models, validate_chunk, validate_message

V5, V6, V7 = Profile.V5, Profile.V6, Profile.V7

USER = {
    "id": "u1",
    "role": "user",
    "parts": [
        {"type": "text", "text": "Weather in Paris? Then delete notes.txt."},
        {"type": "file", "mediaType": "image/png", "filename": "a.png", "url": "data:image/png;base64,iVBORw0KGgo="},
    ],
}
ASSISTANT = {
    "id": "msg_1",
    "role": "assistant",
    "metadata": {"model": "demo-1"},
    "parts": [
        {"type": "step-start"},
        {"type": "reasoning", "id": "r1", "text": "Need the weather first.", "state": "done"},
        {
            "type": "tool-getWeather",
            "toolCallId": "call_1",
            "state": "output-available",
            "input": {"city": "Paris"},
            "output": {"tempC": 18},
        },
        {"type": "step-start"},
        {"type": "source-url", "sourceId": "src_1", "url": "https://example.com/paris", "title": "Paris weather"},
        {"type": "data-citation", "id": "cit_1", "data": {"sourceId": "src_1", "quote": "18C and sunny"}},
        {
            "type": "text",
            "text": "It is 18°C in Paris.",
            "state": "done",
            "providerMetadata": {"openai": {"itemId": "x"}},
        },
        {
            "type": "tool-deleteFile",
            "toolCallId": "call_2",
            "state": "approval-requested",
            "input": {"path": "notes.txt"},
            "approval": {"id": "appr_1"},
        },
        {
            "type": "dynamic-tool",
            "toolName": "mcp_search",
            "toolCallId": "call_3",
            "state": "output-error",
            "input": {"q": "x"},
            "errorText": "boom",
        },
    ],
}


def with_part(index: int, part: dict[str, Any] | None, message: dict[str, Any] = ASSISTANT) -> dict[str, Any]:
    out = copy.deepcopy(message)
    if part is None:
        del out["parts"][index]
    elif index >= len(out["parts"]):
        out["parts"].append(part)
    else:
        out["parts"][index] = part
    return out


def requirements(findings: list[Any]) -> list[tuple[str, str | None]]:
    return [(f.requirement, f.json_path) for f in findings]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_research_valid_messages_are_clean(profile: Profile) -> None:
    assert validate_message(USER, profile) == []
    assert validate_message(ASSISTANT, profile) == []


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_unknown_part_type_is_a_must_finding(profile: Profile) -> None:
    findings = validate_message(with_part(9, {"type": "bogus", "text": "x"}), profile)
    assert requirements(findings) == [("PART-UNKNOWN-TYPE", "$.parts[9].type")]
    assert findings[0].level == "MUST"


def test_missing_tool_call_id() -> None:
    part = {k: v for k, v in ASSISTANT["parts"][2].items() if k != "toolCallId"}
    assert requirements(validate_message(with_part(2, part))) == [("PART-SCHEMA", "$.parts[2].toolCallId")]


def test_unknown_tool_state_names_the_allowed_states() -> None:
    findings = validate_message(with_part(2, {**ASSISTANT["parts"][2], "state": "done"}), V6)
    assert requirements(findings) == [("PART-SCHEMA", "$.parts[2].state")]
    assert "output-denied" in (findings[0].expected or "")


def test_null_optional_field_is_a_null_finding() -> None:
    part = {**ASSISTANT["parts"][6], "providerMetadata": None}
    findings = validate_message(with_part(6, part))
    assert requirements(findings) == [("PART-NULL-FIELD", "$.parts[6].providerMetadata")]


def test_denied_without_approved_false() -> None:
    part = {**ASSISTANT["parts"][7], "state": "output-denied"}
    for profile in ALL_PROFILES:
        findings = validate_message(with_part(7, part), profile)
        assert requirements(findings) == [("PART-SCHEMA", "$.parts[7].approval.approved")], profile


def test_approval_requested_must_not_carry_a_decision() -> None:
    part = {**ASSISTANT["parts"][7], "approval": {"id": "appr_1", "approved": True}}
    assert requirements(validate_message(with_part(7, part))) == [("PART-EXTRA-KEY", "$.parts[7].approval.approved")]


def test_unknown_extra_key_on_a_part_is_a_should_finding() -> None:
    findings = validate_message(with_part(6, {**ASSISTANT["parts"][6], "foo": 1}))
    assert requirements(findings) == [("PART-EXTRA-KEY", "$.parts[6].foo")]
    assert findings[0].level == "SHOULD"


@pytest.mark.parametrize(
    ("message", "path"),
    [
        ({"id": "u", "role": "user", "parts": []}, "$.parts"),
        ({"id": "s", "role": "system", "parts": []}, "$.parts"),
        ({"id": "t", "role": "tool", "parts": [{"type": "text", "text": "x"}]}, "$.role"),
        ({"role": "assistant", "parts": []}, "$.id"),
        ({"id": "a", "role": "assistant", "metadata": None, "parts": {}}, "$.parts"),
    ],
)
def test_envelope_rules(message: dict[str, Any], path: str) -> None:
    assert requirements(validate_message(message)) == [("MESSAGE-SCHEMA", path)]


def test_assistant_may_have_no_parts_and_empty_id() -> None:
    assert validate_message({"id": "", "role": "assistant", "parts": []}) == []


@pytest.mark.parametrize(
    ("part", "path"),
    [
        ({"type": "tool-x", "toolCallId": "c", "state": "input-available"}, "$.parts[0].input"),
        ({"type": "data-x", "id": "d"}, "$.parts[0].data"),
        ({"type": "source-document", "sourceId": "s", "mediaType": "text/plain"}, "$.parts[0].title"),
    ],
)
def test_required_unknown_typed_keys(part: dict[str, Any], path: str) -> None:
    message = {"id": "a", "role": "assistant", "parts": [part]}
    assert requirements(validate_message(message)) == [("PART-SCHEMA", path)]


def test_unknown_typed_keys_may_be_null() -> None:
    parts = [
        {"type": "tool-x", "toolCallId": "c", "state": "output-available", "input": None, "output": None},
        {"type": "data-x", "data": None},
    ]
    assert validate_message({"id": "a", "role": "assistant", "metadata": None, "parts": parts}) == []


def test_data_and_tool_names_are_open() -> None:
    parts = [{"type": "data-", "data": 1}, {"type": "tool-", "toolCallId": "c", "state": "input-streaming"}]
    assert validate_message({"id": "a", "role": "assistant", "parts": parts}) == []


def test_v5_accepts_approval_states_only_on_static_parts() -> None:
    dynamic = {
        "type": "dynamic-tool",
        "toolName": "t",
        "toolCallId": "c",
        "state": "approval-requested",
        "input": {},
        "approval": {"id": "a"},
    }
    message = {"id": "a", "role": "assistant", "parts": [dynamic]}
    assert [f.requirement for f in validate_message(message, V5)] == ["PART-SCHEMA"]
    assert validate_message(message, V6) == []
    assert validate_message(message, V7) == []
    static = {**dynamic, "type": "tool-t"}
    del static["toolName"]
    assert validate_message({"id": "a", "role": "assistant", "parts": [static]}, V5) == []


def test_v5_approval_object_has_no_v6_fields() -> None:
    part = {
        "type": "tool-t",
        "toolCallId": "c",
        "state": "approval-requested",
        "input": {},
        "approval": {"id": "a", "signature": "s"},
    }
    message = {"id": "a", "role": "assistant", "parts": [part]}
    assert [f.requirement for f in validate_message(message, V5)] == ["PART-EXTRA-KEY"]
    assert validate_message(message, V6) == []


@pytest.mark.parametrize(
    "part",
    [
        {"type": "custom", "kind": "openai.x"},
        {"type": "reasoning-file", "mediaType": "image/png", "url": "data:,"},
        {"type": "steering-message", "id": "s", "parts": [{"type": "text", "text": "faster"}]},
    ],
)
def test_v7_only_parts(part: dict[str, Any]) -> None:
    message = {"id": "a", "role": "assistant", "parts": [part]}
    assert [f.requirement for f in validate_message(message, V5)] == ["PART-UNKNOWN-TYPE"]
    assert [f.requirement for f in validate_message(message, V6)] == ["PART-UNKNOWN-TYPE"]
    assert validate_message(message, V7) == []


def test_v7_text_citations() -> None:
    text = {
        "type": "text",
        "text": "Paris is warm.",
        "citations": [
            {"source": {"type": "source", "sourceType": "url", "id": "s1", "url": "https://x"}, "startIndex": 0}
        ],
    }
    message = {"id": "a", "role": "assistant", "parts": [text]}
    assert validate_message(message, V7) == []
    assert [f.requirement for f in validate_message(message, V6)] == ["PART-EXTRA-KEY"]
    bad = copy.deepcopy(message)
    bad["parts"][0]["citations"][0]["startIndex"] = -1
    assert requirements(validate_message(bad, V7)) == [("PART-SCHEMA", "$.parts[0].citations[0].startIndex")]


# ---- chunks -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chunk", "expected"),
    [
        ({"type": "text-start", "id": "t", "providerMetadata": None}, ("CHUNK-NULL-FIELD", "$.providerMetadata")),
        ({"type": "source-url", "sourceId": "s", "url": "u", "title": None}, ("CHUNK-NULL-FIELD", "$.title")),
        ({"type": "start", "messageId": None}, ("CHUNK-NULL-FIELD", "$.messageId")),
        ({"type": "text-delta", "id": None, "delta": "x"}, ("CHUNK-NULL-FIELD", "$.id")),
        ({"type": "tool-output-available", "toolCallId": "c"}, ("CHUNK-SCHEMA", "$.output")),
        ({"type": "message-metadata"}, ("CHUNK-SCHEMA", "$.messageMetadata")),
        ({"type": "text-delta", "id": "t"}, ("CHUNK-SCHEMA", "$.delta")),
        ({"type": "tool-input-start", "toolName": "t"}, ("CHUNK-SCHEMA", "$.toolCallId")),
        (
            {"type": "tool-input-start", "toolCallId": "c", "toolName": "t", "dynamic": "yes"},
            ("CHUNK-SCHEMA", "$.dynamic"),
        ),
        ({"type": "bogus", "id": "t"}, ("CHUNK-UNKNOWN-TYPE", "$.type")),
        ({"type": 3}, ("CHUNK-SCHEMA", "$.type")),
        ([1, 2], ("CHUNK-SCHEMA", "$")),
        ({"type": "text-delta", "id": "t", "delta": "x", "zzz": 1}, ("CHUNK-EXTRA-KEY", "$.zzz")),
    ],
)
@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_chunk_findings(profile: Profile, chunk: Any, expected: tuple[str, str]) -> None:
    findings = validate_chunk(chunk, profile, chunk_index=4)
    assert requirements(findings) == [expected]
    assert findings[0].chunk_index == 4


@pytest.mark.parametrize(
    ("chunk", "ok"),
    [
        ({"type": "tool-output-available", "toolCallId": "c", "output": None}, {V5, V6, V7}),
        ({"type": "start"}, {V5, V6, V7}),
        ({"type": "data-x", "data": None, "transient": True}, {V5, V6, V7}),
        ({"type": "finish", "finishReason": "unknown"}, {V5}),
        ({"type": "finish", "finishReason": "interrupted"}, {V7}),
        ({"type": "abort", "reason": "user"}, {V6, V7}),
        ({"type": "tool-approval-request", "approvalId": "a", "toolCallId": "c"}, {V6, V7}),
        ({"type": "tool-output-denied", "toolCallId": "c"}, {V6, V7}),
        ({"type": "tool-approval-response", "approvalId": "a", "approved": False}, {V7}),
        ({"type": "custom", "kind": "nodot"}, {V7}),
        ({"type": "reset-step"}, {V7}),
        ({"type": "tool-input-start", "toolCallId": "c", "toolName": "t", "title": "T"}, {V6, V7}),
        ({"type": "text-end", "id": "t", "citations": []}, {V7}),
    ],
)
def test_chunk_types_per_profile(chunk: dict[str, Any], ok: set[Profile]) -> None:
    for profile in ALL_PROFILES:
        assert (validate_chunk(chunk, profile) == []) == (profile in ok), profile


def test_chunk_type_counts_match_the_sdk() -> None:
    assert [len(models(p).chunk_tags) for p in ALL_PROFILES] == [23, 25, 30]


# ---- the generated schemas agree with the models -----------------------------------------------------

MESSAGE_CASES: list[Any] = [
    USER,
    ASSISTANT,
    with_part(9, {"type": "bogus"}),
    with_part(6, {**ASSISTANT["parts"][6], "providerMetadata": None}),
    with_part(6, {**ASSISTANT["parts"][6], "foo": 1}),
    with_part(7, {**ASSISTANT["parts"][7], "state": "output-denied"}),
    with_part(2, {**ASSISTANT["parts"][2], "state": "done"}),
    {"id": "u", "role": "user", "parts": []},
    {"id": "", "role": "assistant", "parts": []},
    {"id": "a", "role": "assistant", "parts": [{"type": "custom", "kind": "k"}]},
    {"id": "a", "role": "assistant", "parts": [{"type": "data-x", "data": None}]},
]
CHUNK_CASES: list[Any] = [
    {"type": "start"},
    {"type": "start", "messageId": None},
    {"type": "text-delta", "id": "t", "delta": "x", "zzz": 1},
    {"type": "finish", "finishReason": "unknown"},
    {"type": "tool-approval-request", "approvalId": "a", "toolCallId": "c"},
    {"type": "data-x", "data": [1]},
    {"type": "custom", "kind": "k"},
    {"type": "bogus"},
]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_schemas_agree_with_models(profile: Profile) -> None:
    schemas = protocol_schemas()
    message_schema = jsonschema.Draft202012Validator(schemas[f"{profile.value}/UIMessage.schema.json"])
    chunk_schema = jsonschema.Draft202012Validator(schemas[f"{profile.value}/UIMessageChunk.schema.json"])
    for case in MESSAGE_CASES:
        assert message_schema.is_valid(case) == (validate_message(case, profile) == []), case
    for case in CHUNK_CASES:
        assert chunk_schema.is_valid(case) == (validate_chunk(case, profile) == []), case


def test_schemas_are_valid_2020_12_with_stable_ids() -> None:
    schemas = protocol_schemas()
    assert len(schemas) == 6
    for path, schema in schemas.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        profile, name = path.split("/")
        assert schema["$id"] == f"urn:turnwire:schema:{profile}:{name.removesuffix('.schema.json')}:v1"
