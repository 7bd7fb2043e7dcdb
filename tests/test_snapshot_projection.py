"""Rows to snapshot: every projection and assembly rule (research seed-systems A.4), one test each.

The goldens under `golden/snapshot/` are checked against the behaviours the seed's own tests pin
(A.5) in `test_snapshot_goldens.py`; here each rule is pinned on the smallest rows that show it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import json_values
from turnwire.profiles import ALL_PROFILES
from turnwire.snapshot.cases import artifact_row, turn_row
from turnwire.snapshot.check import check_snapshot
from turnwire.snapshot.legacy import (
    ANSWER,
    ERROR_SUMMARY,
    REFERENCE_BUNDLE,
    SEARCH_RESULT_SUMMARY,
    TOOL_RESULT_SUMMARY,
    AgentArtifactEnvelope,
    RuntimeState,
    SnapshotSources,
)
from turnwire.snapshot.projection import (
    assemble_snapshot,
    cursor_value,
    extract_error_text,
    project_parts,
)


def answer(payload: dict[str, Any], summary: str | None = None, artifact_id: str = "a1") -> AgentArtifactEnvelope:
    return artifact_row(artifact_id, ANSWER, payload, summary)


def bundle(items: Any, artifact_id: str = "b1") -> AgentArtifactEnvelope:
    return artifact_row(artifact_id, REFERENCE_BUNDLE, {"items": items}, None)


def error(payload: dict[str, Any], summary: str | None, artifact_id: str = "e1") -> AgentArtifactEnvelope:
    return artifact_row(artifact_id, ERROR_SUMMARY, payload, summary)


def kinds(parts: list[dict[str, Any]]) -> list[str]:
    return [p["type"] for p in parts]


def sources(
    status: str = "COMPLETED",
    artifacts: list[AgentArtifactEnvelope] | None = None,
    runtime: dict[str, Any] | None = None,
    stored: list[dict[str, Any]] | None = None,
    **row: Any,
) -> SnapshotSources:
    return SnapshotSources(
        turn_row=turn_row(status, **row),
        artifact_rows=artifacts or [],
        runtime_state=None if runtime is None else RuntimeState.model_validate(runtime),
        stored_parts=stored,
    )


# ---- projection: which artifacts count --------------------------------------------------------------


def test_only_the_first_answer_counts() -> None:
    parts = project_parts([answer({"text": "first"}), answer({"text": "second"}, artifact_id="a2")])
    assert parts == [{"type": "text", "text": "first"}]


def test_only_the_first_reference_bundle_counts() -> None:
    first = bundle([{"source_id": "s1", "uri": "https://a.example/", "snippet": "one"}])
    second = bundle([{"source_id": "s2", "uri": "https://b.example/", "snippet": "two"}], artifact_id="b2")
    parts = project_parts([first, second])
    assert [p.get("sourceId") for p in parts] == ["s1", None]
    assert parts[1]["data"]["cited_text"] == "one"


def test_text_part_comes_first_whatever_the_row_order() -> None:
    rows = [bundle([{"uri": "https://a.example/", "snippet": "q"}]), answer({"text": "t"})]
    assert kinds(project_parts(rows)) == ["text", "source-url", "data-citation"]
    assert project_parts(rows) == project_parts(list(reversed(rows)))


@pytest.mark.parametrize("kind", [TOOL_RESULT_SUMMARY, SEARCH_RESULT_SUMMARY, ERROR_SUMMARY, "something_else"])
def test_other_artifact_kinds_give_no_parts(kind: str) -> None:
    assert project_parts([artifact_row("x", kind, {"text": "out", "items": [{"uri": "https://x/"}]}, "s")]) == []


# ---- projection: the answer -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "summary", "text"),
    [
        ({"text": "T", "content": "C", "answer": "A"}, "S", "T"),
        ({"text": "", "content": "C", "answer": "A"}, "S", "C"),
        ({"content": "", "answer": "A"}, "S", "A"),
        ({"answer": None}, "S", "S"),
        ({"text": 7}, None, "7"),
    ],
)
def test_answer_text_sources_in_order(payload: dict[str, Any], summary: str | None, text: str) -> None:
    assert project_parts([answer(payload, summary)]) == [{"type": "text", "text": text}]


@pytest.mark.parametrize(
    ("payload", "summary"), [({}, None), ({"text": ""}, ""), ({"text": False, "content": []}, None)]
)
def test_answer_without_text_gives_no_text_part(payload: dict[str, Any], summary: str | None) -> None:
    assert project_parts([answer(payload, summary)]) == []


def test_text_part_is_bare() -> None:
    (part,) = project_parts([answer({"text": "hi"})])
    assert set(part) == {"type", "text"}  # no id, no state


# ---- projection: reference items --------------------------------------------------------------------


@pytest.mark.parametrize("items", [None, "x", {"uri": "https://a/"}, 3])
def test_items_that_are_not_a_list_give_nothing(items: Any) -> None:
    assert project_parts([bundle(items)]) == []


def test_non_object_items_are_skipped_but_counted_for_the_fallback_id() -> None:
    parts = project_parts([bundle(["junk", None, {"uri": "https://a/", "snippet": "q"}], artifact_id="art-9")])
    assert kinds(parts) == ["source-url", "data-citation"]
    assert parts[0]["sourceId"] == "art-9-ref-2"


def test_url_and_title_fall_back_to_metadata() -> None:
    item = {"metadata": {"url": "https://meta.example/", "title": "Meta"}, "snippet": "q"}
    source, citation = project_parts([bundle([item])])
    assert (source["url"], source["title"]) == ("https://meta.example/", "Meta")
    assert citation["data"]["location"] == {"type": "url_citation", "url": "https://meta.example/", "title": "Meta"}


def test_item_keys_win_over_metadata() -> None:
    item = {"uri": "https://own/", "title": "Own", "metadata": {"url": "https://meta/", "title": "Meta"}}
    source, _ = project_parts([bundle([item])])
    assert (source["url"], source["title"]) == ("https://own/", "Own")


def test_non_object_metadata_is_ignored() -> None:
    (citation,) = project_parts([bundle([{"metadata": ["https://x/"], "snippet": "q"}])])
    assert citation["data"]["location"] == {"type": "url_citation", "url": ""}


@pytest.mark.parametrize(
    ("item", "quote"),
    [({"snippet": "S", "content": "C"}, "S"), ({"snippet": "", "content": "C"}, "C"), ({}, "")],
)
def test_quoted_text_is_snippet_then_content_then_empty(item: dict[str, Any], quote: str) -> None:
    (citation,) = project_parts([bundle([item])])
    assert citation["data"]["cited_text"] == quote


@pytest.mark.parametrize(
    ("item", "source_id"),
    [
        ({"source_id": "S", "id": "I"}, "S"),
        ({"source_id": "", "id": "I"}, "I"),
        ({"id": 42}, "42"),
        ({}, "b1-ref-0"),
    ],
)
def test_source_id_is_source_id_then_id_then_artifact_and_index(item: dict[str, Any], source_id: str) -> None:
    (source, _) = project_parts([bundle([{**item, "uri": "https://a/"}])])
    assert source["sourceId"] == source_id


def test_source_url_only_with_a_url_but_a_citation_always() -> None:
    items = [{"uri": "https://a/", "snippet": "1"}, {"snippet": "2"}, {"uri": "", "snippet": "3"}]
    parts = project_parts([bundle(items)])
    assert kinds(parts) == ["source-url", "data-citation", "data-citation", "data-citation"]
    assert [p["data"]["location"]["url"] for p in parts[1:]] == ["https://a/", "", ""]


def test_an_absent_title_is_left_out_not_null() -> None:
    source, citation = project_parts([bundle([{"uri": "https://a/", "title": None}])])
    assert "title" not in source
    assert "title" not in citation["data"]["location"]


# ---- error text -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "summary", "text"),
    [
        ({"message": "M", "text": "T", "summary": "P"}, "S", "M"),
        ({"text": "T", "summary": "P"}, "S", "T"),
        ({"summary": "P"}, "S", "P"),
        ({}, "S", "S"),
    ],
)
def test_error_text_sources_in_order(payload: dict[str, Any], summary: str, text: str) -> None:
    assert extract_error_text([error(payload, summary)]) == text


def test_error_summary_without_any_text_is_passed_over() -> None:
    rows = [error({}, None), error({"message": "second"}, None, artifact_id="e2")]
    assert extract_error_text(rows) == "second"


def test_no_error_summary_means_no_error_text() -> None:
    assert extract_error_text([answer({"text": "hi"})]) is None
    assert extract_error_text([]) is None


def test_an_error_is_never_a_part() -> None:
    assert project_parts([error({"message": "boom"}, "boom")]) == []


# ---- assembly ---------------------------------------------------------------------------------------


def test_status_comes_from_the_runtime_state_when_set() -> None:
    assert assemble_snapshot(sources("RUNNING", runtime={"status": "COMPLETED"}))["status"] == "COMPLETED"
    assert assemble_snapshot(sources("RUNNING", runtime={"status": ""}))["status"] == "RUNNING"
    assert assemble_snapshot(sources("RUNNING", runtime={}))["status"] == "RUNNING"
    assert assemble_snapshot(sources("RUNNING"))["status"] == "RUNNING"


@pytest.mark.parametrize(
    ("runtime", "row", "cursor"),
    [(5, 2, 5), (2, 5, 5), (-3, 2, 2), ("7", 2, 2), (True, 0, 0), (None, -1, 0), (1.5, 1, 1)],
)
def test_cursor_is_the_larger_valid_one(runtime: Any, row: int, cursor: int) -> None:
    snapshot = assemble_snapshot(sources(runtime={"timeline_cursor": runtime}, timeline_cursor=row))
    assert snapshot["timeline_cursor"] == cursor


@given(json_values)
def test_cursor_value_is_never_negative(value: Any) -> None:
    assert cursor_value(value) >= 0


def test_stored_parts_win_over_the_projection() -> None:
    stored = [{"type": "text", "text": "stored"}]
    snapshot = assemble_snapshot(sources(artifacts=[answer({"text": "projected"})], stored=stored))
    assert snapshot["parts"] == stored


def test_empty_stored_parts_fall_back_to_the_projection() -> None:
    snapshot = assemble_snapshot(sources(artifacts=[answer({"text": "projected"})], stored=[]))
    assert snapshot["parts"] == [{"type": "text", "text": "projected"}]


def test_error_text_still_comes_from_the_artifacts_when_parts_are_stored() -> None:
    rows = [error({"message": "boom"}, None)]
    snapshot = assemble_snapshot(sources("FAILED", rows, stored=[{"type": "text", "text": "x"}]))
    assert snapshot["error_text"] == "boom"


@pytest.mark.parametrize("status", ["QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"])
def test_error_text_only_for_failed_or_cancelled(status: str) -> None:
    snapshot = assemble_snapshot(sources(status, [error({"message": "boom"}, "s")], error_message="row error"))
    assert snapshot["error_text"] == ("boom" if status in ("FAILED", "CANCELLED") else None)


def test_error_text_order_artifact_then_runtime_then_row() -> None:
    rows = [error({"message": "artifact"}, None)]
    runtime = {"error_message": "runtime"}
    assert assemble_snapshot(sources("FAILED", rows, runtime, error_message="row"))["error_text"] == "artifact"
    assert assemble_snapshot(sources("FAILED", [], runtime, error_message="row"))["error_text"] == "runtime"
    assert assemble_snapshot(sources("FAILED", [], {"error_message": ""}, error_message="row"))["error_text"] == "row"
    assert assemble_snapshot(sources("CANCELLED", [], None, error_message=None))["error_text"] is None


def test_status_from_runtime_decides_whether_error_text_is_set() -> None:
    rows = [error({"message": "boom"}, None)]
    assert assemble_snapshot(sources("RUNNING", rows, {"status": "FAILED"}))["error_text"] == "boom"
    assert assemble_snapshot(sources("FAILED", rows, {"status": "COMPLETED"}))["error_text"] is None


def test_envelope_keys_come_from_the_row() -> None:
    snapshot = assemble_snapshot(sources("COMPLETED", turn_id="t9", chat_id="c9", started_at="2026-01-01T00:00:00Z"))
    assert (snapshot["turn_id"], snapshot["chat_id"], snapshot["role"]) == ("t9", "c9", "assistant")
    assert snapshot["schema_version"] == "agent-runtime-v3.1"
    assert snapshot["started_at"] == "2026-01-01T00:00:00Z"
    assert "runtime_kind" not in snapshot  # the PR-era shape; the later keys are optional


# ---- properties -------------------------------------------------------------------------------------

items_strategy = st.lists(
    json_values
    | st.fixed_dictionaries(
        {},
        optional={
            "uri": st.sampled_from(["https://a.example/", "", None, 5]),
            "title": st.sampled_from(["T", "", None]),
            "snippet": st.text(max_size=5) | st.none(),
            "content": st.text(max_size=5),
            "source_id": st.sampled_from(["s", "", 0, 3]),
            "id": st.sampled_from(["i", None]),
            "metadata": st.fixed_dictionaries({}, optional={"url": st.sampled_from(["https://m/", ""])}) | json_values,
        },
    ),
    max_size=5,
)
payloads = st.dictionaries(st.sampled_from(["text", "content", "answer", "items", "message"]), json_values, max_size=4)
artifact_rows = st.lists(
    st.builds(
        lambda i, kind, payload, items, summary: artifact_row(
            f"r{i}", kind, {**payload, "items": items} if kind == REFERENCE_BUNDLE else payload, summary
        ),
        st.integers(0, 9),
        st.sampled_from([ANSWER, REFERENCE_BUNDLE, ERROR_SUMMARY, TOOL_RESULT_SUMMARY, SEARCH_RESULT_SUMMARY]),
        payloads,
        items_strategy,
        st.sampled_from([None, "", "summary"]),
    ),
    max_size=5,
)
statuses = st.sampled_from(["QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"])


@given(artifact_rows, statuses, st.sampled_from([None, "", "runtime error"]))
def test_any_rows_assemble_into_a_clean_snapshot_in_every_profile(
    rows: list[AgentArtifactEnvelope], status: str, runtime_error: str | None
) -> None:
    snapshot = assemble_snapshot(sources(status, rows, {"error_message": runtime_error}))
    for profile in ALL_PROFILES:
        assert check_snapshot(snapshot, profile, payloads=True) == []
    if snapshot["error_text"] is not None:
        assert status in ("FAILED", "CANCELLED")


@given(items_strategy)
def test_one_citation_per_object_item_and_a_source_before_each_citation_with_a_url(items: list[Any]) -> None:
    parts = project_parts([bundle(items)])
    citations = [p for p in parts if p["type"] == "data-citation"]
    assert len(citations) == sum(1 for i in items if isinstance(i, dict))
    assert kinds(parts).count("source-url") == sum(1 for c in citations if c["data"]["location"]["url"])
    for i, part in enumerate(parts):
        if part["type"] == "source-url":
            follower = parts[i + 1]
            assert follower["type"] == "data-citation"
            assert follower["data"]["location"]["url"] == part["url"]


@given(artifact_rows, st.randoms())
def test_order_of_rows_matters_only_among_rows_of_one_kind(
    rows: list[AgentArtifactEnvelope], rnd: random.Random
) -> None:
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    # keep the relative order inside each kind: the first answer / bundle / error stays first
    by_kind: dict[str, list[AgentArtifactEnvelope]] = {}
    for row in rows:
        by_kind.setdefault(row.artifact_type, []).append(row)
    regrouped = [by_kind[r.artifact_type].pop(0) for r in shuffled]
    assert project_parts(regrouped) == project_parts(rows)
    assert extract_error_text(regrouped) == extract_error_text(rows)
