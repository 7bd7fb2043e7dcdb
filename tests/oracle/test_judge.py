"""Direct checks of the judge plumbing (`judge.mjs` + `sdk.py`) on hand-written inputs.

These need no goldens; each asserts a verdict the real SDK is known to give.
"""

from __future__ import annotations

from typing import Any

import pytest
from sdk import Judge, stream_job, to_sse, validate_job

pytestmark = pytest.mark.oracle

V5, V6, V7 = "ai-sdk-v5", "ai-sdk-v6", "ai-sdk-v7"
PROFILES = (V5, V6, V7)
EXPECTED_VERSIONS = {V5: "5.0.277", V6: "6.0.326", V7: "7.0.173"}

TEXT_ONLY = [
    {"type": "start", "messageId": "m1"},
    {"type": "text-start", "id": "t1"},
    {"type": "text-delta", "id": "t1", "delta": "Hi"},
    {"type": "text-end", "id": "t1"},
    {"type": "finish"},
]


def only(judge: Judge, job: dict[str, Any]) -> dict[str, Any]:
    [result] = judge([job])
    assert "fatal" not in result, result["fatal"]
    return result


def test_pinned_versions_and_a_clean_fold(sdk_judge: Judge) -> None:
    results = sdk_judge([stream_job(p, to_sse(TEXT_ONLY)) for p in PROFILES])
    for profile, result in zip(PROFILES, results, strict=True):
        assert result["ai_version"] == EXPECTED_VERSIONS[profile]
        stream = result["stream"]
        assert stream["invalid_chunk"] is None
        assert stream["errors"] == []
        assert stream["chunks"] == TEXT_ONLY
        assert stream["message"] == {
            "id": "m1",
            "role": "assistant",
            "parts": [{"type": "text", "text": "Hi", "state": "done"}],
        }


def test_unknown_chunk_type_is_an_invalid_chunk_with_its_index(sdk_judge: Judge) -> None:
    chunks = [{"type": "start"}, {"type": "text-start", "id": "t"}, {"type": "bogus", "id": "t"}]
    # A comment line and the [DONE] marker are not JSON events and must not shift the index.
    sse = ": keep-alive\n\n" + to_sse([*chunks, {"type": "text-end", "id": "t"}])
    stream = only(sdk_judge, stream_job(V7, sse))["stream"]
    assert stream["invalid_chunk"] is not None
    assert stream["invalid_chunk"]["index"] == 2
    assert stream["invalid_chunk"]["error"].startswith("AI_TypeValidationError: ")
    assert '"bogus"' in stream["invalid_chunk"]["error"]
    # The transport stops at the first invalid chunk: nothing after it is parsed or folded,
    # and the invalid-chunk error is not repeated in `errors`.
    assert stream["chunks"] == chunks[:2]
    assert stream["errors"] == []
    assert stream["message"] == {
        "id": "",
        "role": "assistant",
        "parts": [{"type": "text", "text": "", "state": "streaming"}],
    }


def test_tool_approval_request_is_invalid_in_v5_only(sdk_judge: Judge) -> None:
    chunks = [
        {"type": "start", "messageId": "m1"},
        {"type": "tool-input-available", "toolCallId": "c1", "toolName": "deleteFile", "input": {"p": "x"}},
        {"type": "tool-approval-request", "approvalId": "a1", "toolCallId": "c1"},
        {"type": "finish", "finishReason": "tool-calls"},
    ]
    v5, v6 = sdk_judge([stream_job(V5, to_sse(chunks)), stream_job(V6, to_sse(chunks))])

    bad = v5["stream"]["invalid_chunk"]
    assert bad is not None
    assert bad["index"] == 2
    assert 'no variant accepts type "tool-approval-request"' in bad["error"]
    assert v5["stream"]["message"]["parts"][0]["state"] == "input-available"

    assert v6["stream"]["invalid_chunk"] is None
    assert v6["stream"]["errors"] == []
    assert v6["stream"]["message"]["parts"] == [
        {
            "type": "tool-deleteFile",
            "toolCallId": "c1",
            "state": "approval-requested",
            "input": {"p": "x"},
            "approval": {"id": "a1"},
        }
    ]


@pytest.mark.parametrize("profile", PROFILES)
def test_validate_rejects_null_provider_metadata(sdk_judge: Judge, profile: str) -> None:
    good = {"id": "m", "role": "assistant", "parts": [{"type": "text", "text": "x", "state": "done"}]}
    bad = {"id": "m", "role": "assistant", "parts": [{"type": "text", "text": "x", "providerMetadata": None}]}
    ok, rejected = sdk_judge([validate_job(profile, [good]), validate_job(profile, [bad])])
    assert ok["validate"] == {"ok": True, "normalised": [good]}
    assert rejected["validate"]["ok"] is False
    assert rejected["validate"]["error"] == (
        'AI_TypeValidationError: invalid_type at [0,"parts",0,"providerMetadata"]: '
        "Invalid input: expected record, received null"
    )


def test_text_delta_before_text_start_is_a_stream_error(sdk_judge: Judge) -> None:
    chunks = [
        {"type": "start"},
        {"type": "text-delta", "id": "t", "delta": "x"},
        {"type": "text-start", "id": "u"},
        {"type": "text-delta", "id": "u", "delta": "y"},
        {"type": "text-end", "id": "u"},
        {"type": "finish"},
    ]
    results = sdk_judge([stream_job(p, to_sse(chunks)) for p in PROFILES])
    by_profile = dict(zip(PROFILES, results, strict=True))
    for result in results:
        # The chunks are all schema-valid; the fold is what fails. Unlike an `error` chunk, a fold
        # error ends the stream: the valid text part after it never reaches a snapshot.
        assert result["stream"]["invalid_chunk"] is None
        assert len(result["stream"]["errors"]) == 1
        assert result["stream"]["message"] is None
    for profile in (V6, V7):
        assert by_profile[profile]["stream"]["error_details"] == [
            {
                "name": "AI_UIMessageStreamError",
                "message": 'Received text-delta for missing text part with ID "t". '
                'Ensure a "text-start" chunk is sent before any "text-delta" chunks.',
            }
        ]
    # ai@5 has no dedicated error: the assembler trips over the missing part.
    assert by_profile[V5]["stream"]["error_details"][0]["name"] == "TypeError"


def test_error_chunk_reaches_on_error_and_the_fold_continues(sdk_judge: Judge) -> None:
    chunks = [
        {"type": "start", "messageId": "m1"},
        {"type": "error", "errorText": "An error occurred."},
        {"type": "text-start", "id": "t"},
        {"type": "text-end", "id": "t"},
    ]
    stream = only(sdk_judge, stream_job(V7, to_sse(chunks)))["stream"]
    assert stream["invalid_chunk"] is None
    assert stream["errors"] == ["An error occurred."]
    assert stream["message"]["parts"] == [{"type": "text", "text": "", "state": "done"}]


@pytest.mark.parametrize("profile", [V6, V7])
def test_continuation_from_approval_responded_to_output_denied(sdk_judge: Judge, profile: str) -> None:
    approval = {"id": "ap1", "approved": False, "reason": "keep the file"}
    prior = {
        "id": "m1",
        "role": "assistant",
        "parts": [
            {"type": "step-start"},
            {
                "type": "tool-deleteFile",
                "toolCallId": "c1",
                "state": "approval-responded",
                "input": {"path": "notes.txt"},
                "approval": approval,
            },
        ],
    }
    chunks = [
        {"type": "start"},
        {"type": "start-step"},
        {"type": "tool-output-denied", "toolCallId": "c1"},
        {"type": "text-start", "id": "t"},
        {"type": "text-delta", "id": "t", "delta": "Left it alone."},
        {"type": "text-end", "id": "t"},
        {"type": "finish-step"},
        {"type": "finish", "finishReason": "stop"},
    ]
    folded = only(sdk_judge, stream_job(profile, to_sse(chunks), prior=prior))["stream"]
    assert folded["invalid_chunk"] is None
    assert folded["errors"] == []
    message = folded["message"]
    assert message["id"] == "m1"
    assert message["parts"] == [
        {"type": "step-start"},
        {
            "type": "tool-deleteFile",
            "toolCallId": "c1",
            "state": "output-denied",
            "input": {"path": "notes.txt"},
            "approval": approval,
        },
        {"type": "step-start"},
        {"type": "text", "text": "Left it alone.", "state": "done"},
    ]
    validated = only(sdk_judge, validate_job(profile, [message]))["validate"]
    assert validated["ok"] is True, validated.get("error")


def test_one_bad_job_does_not_sink_the_batch(sdk_judge: Judge) -> None:
    results = sdk_judge(
        [
            {"profile": "ai-sdk-v4", "messages": []},
            {"profile": V7},
            {"profile": V6, "prior": {}},
            stream_job(V6, to_sse(TEXT_ONLY)),
        ]
    )
    assert "unknown profile" in results[0]["fatal"]
    assert "fatal" in results[1]
    assert "fatal" in results[2]
    assert results[3]["stream"]["invalid_chunk"] is None
