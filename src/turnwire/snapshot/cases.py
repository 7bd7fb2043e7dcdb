"""The snapshot cases: stored rows of one turn each, one case per behaviour the seed's tests pin.

Why as one list: the same cases build `golden/snapshot/<slug>/` (`sources.json`, the rows; and
`snapshot.json`, what a conforming backend serves for them), drive `check_assembly` against a live
target seeded with the rows, and are what the tests check the rules on. Timestamps are fixed, so the
goldens never change unless a rule does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from turnwire.snapshot.legacy import (
    ANSWER,
    ERROR_SUMMARY,
    REFERENCE_BUNDLE,
    TOOL_RESULT_SUMMARY,
    AgentArtifactEnvelope,
    AgentTurnEnvelope,
    RuntimeState,
    SnapshotSources,
)

__all__ = ["CASES", "SnapshotCase", "artifact_row", "case", "turn_row"]

CREATED = "2026-04-25T17:00:00Z"
STARTED = "2026-04-25T17:00:01Z"
FINISHED = "2026-04-25T17:00:09Z"
UPDATED = "2026-04-25T17:00:09Z"


@dataclass(frozen=True)
class SnapshotCase:
    """One turn's rows, and the behaviour of the snapshot endpoint it pins."""

    slug: str
    pins: str
    sources: SnapshotSources


def turn_row(status: str, **changes: Any) -> AgentTurnEnvelope:
    """A turn row `turn-1` of chat `chat-1` in `status`, with fixed timestamps (finished when terminal)."""
    terminal = status in ("COMPLETED", "FAILED", "CANCELLED")
    values: dict[str, Any] = {
        "turn_id": "turn-1",
        "chat_id": "chat-1",
        "user_id": "user-1",
        "bot_id": "bot-1",
        "request_id": "req-1",
        "client_idempotency_key": "idem-1",
        "status": status,
        "input_text": "hello",
        "model_profile": {"model": "gpt"},
        "timeline_cursor": 1,
        "started_at": STARTED if status != "QUEUED" else None,
        "finished_at": FINISHED if terminal else None,
        "created_at": CREATED,
        "updated_at": UPDATED,
    }
    values.update(changes)
    return AgentTurnEnvelope.model_validate(values)


def artifact_row(artifact_id: str, kind: str, payload: dict[str, Any], summary: str | None) -> AgentArtifactEnvelope:
    """An artifact row of `turn-1` with fixed timestamps."""
    return AgentArtifactEnvelope.model_validate(
        {
            "artifact_id": artifact_id,
            "turn_id": "turn-1",
            "artifact_type": kind,
            "summary": summary,
            "payload": payload,
            "created_at": FINISHED,
            "updated_at": FINISHED,
        }
    )


def _answer(text: str, artifact_id: str = "art-answer") -> AgentArtifactEnvelope:
    return artifact_row(artifact_id, ANSWER, {"text": text, "query": "hi"}, text)


def _bundle(items: list[dict[str, Any]], artifact_id: str = "art-bundle") -> AgentArtifactEnvelope:
    return artifact_row(artifact_id, REFERENCE_BUNDLE, {"items": items}, f"{len(items)} references")


def _error(payload: dict[str, Any], summary: str) -> AgentArtifactEnvelope:
    return artifact_row("art-error", ERROR_SUMMARY, payload, summary)


def _web(source_id: str, title: str, snippet: str, uri: str) -> dict[str, Any]:
    return {
        "source_type": "web_page",
        "source_id": source_id,
        "title": title,
        "snippet": snippet,
        "uri": uri,
        "metadata": {},
    }


def case(
    slug: str,
    pins: str,
    turn: AgentTurnEnvelope,
    artifacts: list[AgentArtifactEnvelope],
    runtime: dict[str, Any] | None = None,
) -> SnapshotCase:
    """A case from its parts (`runtime` is the runtime state, None when there is none)."""
    sources = SnapshotSources(
        turn_row=turn,
        artifact_rows=artifacts,
        runtime_state=None if runtime is None else RuntimeState.model_validate(runtime),
    )
    return SnapshotCase(slug=slug, pins=pins, sources=sources)


CASES: tuple[SnapshotCase, ...] = (
    case(
        "answer-text",
        "an answer artifact becomes exactly one text part with its text",
        turn_row("COMPLETED"),
        [_answer("ApeRAG is great")],
    ),
    case(
        "reference-bundle",
        "each reference item with a uri becomes a source-url part then a data-citation part",
        turn_row("COMPLETED"),
        [
            _bundle(
                [
                    _web("src-1", "Example", "ApeRAG is a RAG platform", "https://example.com/a"),
                    _web("src-2", "Second", "Second snippet", "https://example.com/b"),
                ]
            )
        ],
    ),
    case(
        "reference-without-uri",
        "a reference item without a uri becomes a data-citation only, with url '' and its title",
        turn_row("COMPLETED"),
        [_bundle([{"source_id": "doc-1", "title": "PDF chapter", "snippet": "abc"}])],
    ),
    case(
        "answer-first",
        "the answer's text part comes first whatever the order of the artifact rows",
        turn_row("COMPLETED"),
        [
            _bundle([{"source_id": "src-1", "uri": "https://example.com/", "title": "x", "snippet": "y"}]),
            _answer("done"),
        ],
    ),
    case(
        "summary-skipped",
        "a tool_result_summary artifact gives no part",
        turn_row("COMPLETED"),
        [artifact_row("art-tool", TOOL_RESULT_SUMMARY, {"text": "tool output"}, "tool output")],
    ),
    case(
        "error-from-payload",
        "error_text is the error_summary's payload message",
        turn_row("FAILED"),
        [_error({"message": "upstream timeout"}, "upstream timeout")],
    ),
    case(
        "error-from-summary",
        "error_text falls back to the error_summary's own summary when its payload has no message",
        turn_row("FAILED"),
        [_error({}, "from-summary")],
    ),
    case(
        "error-none",
        "without an error_summary (and no runtime or row error) a failed turn's error_text is null",
        turn_row("FAILED"),
        [_answer("Hello world")],
    ),
    case(
        "completed-turn",
        "a completed turn: text, source-url, data-citation; status and cursor from the runtime state",
        turn_row(
            "COMPLETED",
            timeline_cursor=2,
            answer_artifact_id="art-answer",
            reference_bundle_artifact_id="art-bundle",
        ),
        [
            _answer("Hello world"),
            _bundle([_web("src-1", "Example", "ApeRAG is great", "https://example.com/a")]),
        ],
        {"status": "COMPLETED", "timeline_cursor": 2},
    ),
    case(
        "failed-turn",
        "a failed turn: the error artifact's message beats the row's error_message; no parts",
        turn_row("FAILED", timeline_cursor=3, error_code="agent.tool_failure", error_message="upstream timeout"),
        [_error({"message": "Detailed: upstream timeout after 30s"}, "upstream timeout")],
        {"status": "FAILED"},
    ),
    case(
        "queued-turn",
        "a queued turn: no parts, no error, and none of the retired keys turn, timeline, artifacts",
        turn_row("QUEUED"),
        [],
    ),
)
"""Every snapshot case, one per behaviour the seed's tests pin (research seed-systems A.5)."""
