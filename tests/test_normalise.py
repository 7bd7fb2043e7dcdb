"""`turnwire.normalise`: generated ids renumbered per family, timestamps blanked, consistently."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from turnwire.generate.scenarios import load_scenarios
from turnwire.normalise import TIMESTAMP, Family, Normaliser, is_timestamp

LIVE_PRIOR: dict[str, Any] = {
    "id": "msg_01HZX",
    "role": "assistant",
    "parts": [
        {"type": "step-start"},
        {
            "type": "tool-deleteFile",
            "toolCallId": "toolu_9",
            "state": "approval-responded",
            "input": {"path": "notes.txt"},
            "approval": {"id": "aitxt-APPR", "approved": True},
        },
    ],
}

LIVE_CHUNKS: list[dict[str, Any]] = [
    {"type": "start", "messageId": "msg_01HZX", "messageMetadata": {"createdAt": "2026-11-21T10:00:00Z"}},
    {"type": "tool-output-available", "toolCallId": "toolu_9", "output": {"deleted": True}},
    {"type": "start-step"},
    {"type": "reasoning-start", "id": "rs_77"},
    {"type": "reasoning-delta", "id": "rs_77", "delta": "ok"},
    {"type": "reasoning-end", "id": "rs_77"},
    {"type": "source-url", "sourceId": "src_A", "url": "https://example.com/a"},
    {"type": "source-url", "sourceId": "src_B", "url": "https://example.com/b"},
    {"type": "text-start", "id": "msg_abc"},
    {"type": "text-delta", "id": "msg_abc", "delta": "Deleted."},
    {
        "type": "text-end",
        "id": "msg_abc",
        "citations": [{"source": {"type": "source", "sourceType": "url", "id": "src_B", "url": "u"}}],
    },
    {"type": "data-weather", "id": "w1", "data": {"id": "w1", "at": "2026-11-21T10:00:01.5+02:00"}},
    {"type": "data-weather", "id": "w1", "data": {"id": "w1", "done": True}},
    {"type": "data-toast", "data": "hi", "transient": True},
    {"type": "tool-input-start", "toolCallId": "toolu_10", "toolName": "x"},
    {"type": "tool-input-available", "toolCallId": "toolu_10", "toolName": "x", "input": {}},
    {"type": "tool-approval-request", "approvalId": "aitxt-NEXT", "toolCallId": "toolu_10"},
    {"type": "steering-message", "id": "steer-xyz", "parts": [{"type": "text", "text": "stop"}]},
    {"type": "finish-step"},
    {"type": "finish", "finishReason": "stop", "messageMetadata": {"finishedAt": "2026-11-21T10:00:02.250Z"}},
]

LIVE_RESULT: dict[str, Any] = {
    "id": "msg_01HZX",
    "metadata": {"createdAt": "2026-11-21T10:00:00Z", "finishedAt": "2026-11-21T10:00:02.250Z"},
    "role": "assistant",
    "parts": [
        {"type": "step-start"},
        {
            "type": "tool-deleteFile",
            "toolCallId": "toolu_9",
            "state": "output-available",
            "input": {"path": "notes.txt"},
            "output": {"deleted": True},
            "approval": {"id": "aitxt-APPR", "approved": True},
        },
        {"type": "step-start"},
        {"type": "reasoning", "id": "rs_77", "text": "ok", "state": "done"},
        {"type": "source-url", "sourceId": "src_A", "url": "https://example.com/a"},
        {"type": "source-url", "sourceId": "src_B", "url": "https://example.com/b"},
        {
            "type": "text",
            "text": "Deleted.",
            "state": "done",
            "citations": [{"source": {"type": "source", "sourceType": "url", "id": "src_B", "url": "u"}}],
        },
        {"type": "data-weather", "id": "w1", "data": {"id": "w1", "done": True}},
        {
            "type": "tool-x",
            "toolCallId": "toolu_10",
            "state": "approval-requested",
            "input": {},
            "approval": {"id": "aitxt-NEXT"},
        },
        {"type": "steering-message", "id": "steer-xyz", "parts": [{"type": "text", "text": "stop"}]},
    ],
}


def normalise_turn() -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    n = Normaliser()
    return n.message(LIVE_PRIOR), n.chunks(LIVE_CHUNKS), n.message(LIVE_RESULT)


# ---- ids -----------------------------------------------------------------------------------------


def test_prior_then_stream_then_result_share_one_mapping() -> None:
    prior, chunks, result = normalise_turn()
    assert prior["id"] == "msg-1"
    assert prior["parts"][1]["toolCallId"] == "call-1"
    assert prior["parts"][1]["approval"] == {"id": "approval-1", "approved": True}
    assert chunks[0]["messageId"] == "msg-1"
    assert chunks[1]["toolCallId"] == "call-1"
    assert result["id"] == "msg-1"
    assert result["parts"][1]["toolCallId"] == "call-1"
    assert result["parts"][1]["approval"]["id"] == "approval-1"


def test_same_id_in_chunk_and_message_maps_to_the_same_new_id() -> None:
    _, chunks, result = normalise_turn()
    assert [c["sourceId"] for c in chunks if c["type"] == "source-url"] == ["source-1", "source-2"]
    assert [p["sourceId"] for p in result["parts"] if p["type"] == "source-url"] == ["source-1", "source-2"]
    # the v7 citation points at the second source, in the chunk and in the stored part
    text_end = next(c for c in chunks if c["type"] == "text-end")
    assert text_end["citations"][0]["source"]["id"] == "source-2"
    text = next(p for p in result["parts"] if p["type"] == "text")
    assert text["citations"][0]["source"]["id"] == "source-2"


def test_order_of_first_appearance() -> None:
    _, chunks, result = normalise_turn()
    # reasoning appears before text, so it takes text-1 (text and reasoning share one family)
    assert {c["id"] for c in chunks if c["type"].startswith("reasoning-")} == {"text-1"}
    assert {c["id"] for c in chunks if c["type"].startswith("text-")} == {"text-2"}
    reasoning = next(p for p in result["parts"] if p["type"] == "reasoning")
    assert reasoning["id"] == "text-1"
    # the second tool call and approval come after the prior's
    request = next(c for c in chunks if c["type"] == "tool-approval-request")
    assert request == {"type": "tool-approval-request", "approvalId": "approval-2", "toolCallId": "call-2"}
    assert result["parts"][8]["approval"] == {"id": "approval-2"}


def test_families_count_independently() -> None:
    n = Normaliser()
    out = n.chunks(
        [
            {"type": "start", "messageId": "same"},
            {"type": "text-start", "id": "same"},
            {"type": "data-x", "id": "same", "data": 1},
            {"type": "tool-input-start", "toolCallId": "same", "toolName": "t"},
            {"type": "tool-approval-request", "approvalId": "same", "toolCallId": "same"},
            {"type": "source-url", "sourceId": "same", "url": "u"},
            {"type": "steering-message", "id": "same", "parts": []},
        ]
    )
    assert out == [
        {"type": "start", "messageId": "msg-1"},
        {"type": "text-start", "id": "text-1"},
        {"type": "data-x", "id": "data-1", "data": 1},
        {"type": "tool-input-start", "toolCallId": "call-1", "toolName": "t"},
        {"type": "tool-approval-request", "approvalId": "approval-1", "toolCallId": "call-1"},
        {"type": "source-url", "sourceId": "source-1", "url": "u"},
        {"type": "steering-message", "id": "steer-1", "parts": []},
    ]
    assert n.mapping(Family.TEXT) == {"same": "text-1"}


def test_counters_per_family() -> None:
    n = Normaliser()
    ids = [n.chunk({"type": "text-start", "id": raw})["id"] for raw in ("a", "b", "a", "c")]
    assert ids == ["text-1", "text-2", "text-1", "text-3"]
    assert n.chunk({"type": "data-y", "id": "a", "data": None})["id"] == "data-1"


def test_data_parts_updated_in_place_keep_one_id() -> None:
    _, chunks, result = normalise_turn()
    assert [c.get("id") for c in chunks if c["type"].startswith("data-")] == ["data-1", "data-1", None]
    assert result["parts"][7]["id"] == "data-1"


def test_steering_message_id() -> None:
    _, chunks, result = normalise_turn()
    assert next(c for c in chunks if c["type"] == "steering-message")["id"] == "steer-1"
    assert result["parts"][-1]["id"] == "steer-1"


def test_instances_do_not_share_mappings() -> None:
    a, b = Normaliser(), Normaliser()
    a.chunk({"type": "start", "messageId": "x"})
    assert b.chunk({"type": "start", "messageId": "y"})["messageId"] == "msg-1"


# ---- what is not an id ---------------------------------------------------------------------------


def test_non_id_strings_untouched() -> None:
    _, chunks, result = normalise_turn()
    weather = next(c for c in chunks if c["type"] == "data-weather")
    assert weather["data"]["id"] == "w1"  # content, even though it equals the part's id
    assert next(c for c in chunks if c["type"] == "text-delta")["delta"] == "Deleted."
    assert result["parts"][1]["input"] == {"path": "notes.txt"}
    assert result["parts"][4]["url"] == "https://example.com/a"
    assert result["parts"][-1]["parts"] == [{"type": "text", "text": "stop"}]


def test_id_key_only_where_it_is_generated() -> None:
    n = Normaliser()
    # `id` on a chunk type without a generated id, and a non-string id, stay as they are
    assert n.chunk({"type": "bogus", "id": "keep"}) == {"type": "bogus", "id": "keep"}
    assert n.chunk({"type": "text-start", "id": 7}) == {"type": "text-start", "id": 7}
    assert n.message({"id": "u", "role": "user", "parts": [{"type": "text", "text": "x", "id": "k"}]}) == {
        "id": "msg-1",
        "role": "user",
        "parts": [{"type": "text", "text": "x", "id": "k"}],
    }


def test_tolerates_odd_shapes() -> None:
    n = Normaliser()
    assert n.message({"id": "m", "parts": "nope"}) == {"id": "msg-1", "parts": "nope"}
    assert n.message({"id": "m", "parts": [1, None]}) == {"id": "msg-1", "parts": [1, None]}
    assert n.chunk({"type": "text-end", "id": "t", "citations": [1, {"source": 2}]})["citations"] == [
        1,
        {"source": 2},
    ]


# ---- timestamps ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "2026-11-21T10:00:00Z",
        "2026-11-21T10:00:00.000Z",
        "2026-11-21T10:00:00.123456+02:00",
        "2026-11-21T10:00:00-0500",
        "2026-11-21t10:00:00z",
        "2026-11-21 10:00:00Z",
        "2026-11-21T10:00:00",
        "2026-11-21T10:00Z",
    ],
)
def test_timestamps_recognised(value: str) -> None:
    assert is_timestamp(value)
    assert Normaliser().chunk({"type": "data-t", "data": {"at": value}})["data"] == {"at": TIMESTAMP}


@pytest.mark.parametrize(
    "value",
    ["2026-11-21", "10:00:00", "at 2026-11-21T10:00:00Z", "2026-11-21T10:00:00Z!", "1763719200", "msg-1", ""],
)
def test_non_timestamps_kept(value: str) -> None:
    assert not is_timestamp(value)
    assert Normaliser().chunk({"type": "data-t", "data": {"at": value}})["data"] == {"at": value}


def test_timestamps_anywhere() -> None:
    _prior, chunks, result = normalise_turn()
    assert chunks[0]["messageMetadata"] == {"createdAt": TIMESTAMP}
    assert chunks[-1]["messageMetadata"] == {"finishedAt": TIMESTAMP}
    assert chunks[11]["data"]["at"] == TIMESTAMP
    assert result["metadata"] == {"createdAt": TIMESTAMP, "finishedAt": TIMESTAMP}
    nested = Normaliser().chunk({"type": "data-x", "data": [[{"a": ["2026-01-01T00:00:00Z", 1]}]]})
    assert nested["data"] == [[{"a": [TIMESTAMP, 1]}]]


# ---- purity and idempotence ----------------------------------------------------------------------


def test_inputs_never_mutated() -> None:
    before = copy.deepcopy((LIVE_PRIOR, LIVE_CHUNKS, LIVE_RESULT))
    _prior, chunks, result = normalise_turn()
    assert before == (LIVE_PRIOR, LIVE_CHUNKS, LIVE_RESULT)
    # and the output shares no mutable structure with the input
    chunks[0]["messageMetadata"]["x"] = 1
    result["parts"][1]["input"]["path"] = "other"
    assert before == (LIVE_PRIOR, LIVE_CHUNKS, LIVE_RESULT)


def test_idempotent() -> None:
    prior, chunks, result = normalise_turn()
    n = Normaliser()
    assert (n.message(prior), n.chunks(chunks), n.message(result)) == (prior, chunks, result)


def test_scenarios_are_already_normal() -> None:
    for scenario in load_scenarios():
        for variant in scenario.variants:
            n = Normaliser()
            prior = n.message(variant.prior) if variant.prior is not None else None
            assert prior == variant.prior, scenario.slug
            chunks = n.chunks(variant.chunks)
            timestamps_blanked = [c for c, o in zip(chunks, variant.chunks, strict=True) if c != o]
            assert all(c["type"] in {"start", "finish"} for c in timestamps_blanked), scenario.slug
