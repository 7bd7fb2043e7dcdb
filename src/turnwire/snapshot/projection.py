"""From stored rows to a snapshot: the artifact projection and the assembly rules.

Why: a backend that moved to the snapshot shape still holds turns whose output exists only as
artifact rows. On read it projects those rows into parts, picks the status, cursor and error text
from the row and the live runtime state, and serves the result. These functions do the same, so a
conformance run can seed rows and check byte for byte what a target serves (`check_assembly`), and
the goldens under `golden/snapshot/` are built by the same code.

The projection (`project_parts`):

* only the first `answer` and the first `reference_bundle` artifact count; the answer's text part
  comes first whatever the order of the rows, then one (source-url, data-citation) pair per
  reference item;
* answer text: `payload.text`, else `payload.content`, else `payload.answer`, else the artifact's
  `summary`; no text gives no text part;
* each reference item that is an object (others are skipped but still counted for the fallback id):
  url = `uri` or `metadata.url`, title = `title` or `metadata.title`, quoted text = `snippet` or
  `content` or `""`, source id = `source_id` or `id` or `"{artifact_id}-ref-{index}"`; a
  `source-url` part only when there is a url, a `data-citation` part always (its url `""` when none);
* summary kinds (`tool_result_summary`, `search_result_summary`) give no parts, and an
  `error_summary` is never a part: it becomes the envelope's `error_text`.

"A value" means a non-empty string (a non-zero integer also counts, as its digits, for ids and
texts); anything else counts as absent. An absent title is left out, never written as `null`.

The assembly (`assemble_snapshot`): status is the runtime state's when set, else the row's; the
cursor is the larger of the two (anything but a non-negative integer counts as 0); parts are the
stored parts when there are any, else the projection; `error_text` is set only for FAILED and
CANCELLED turns: the error artifact's message, else the runtime state's error, else the row's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from turnwire.canonical import CanonicalError, dumps, equal
from turnwire.findings import Finding, json_path
from turnwire.snapshot.envelope import ERROR_STATUSES, SCHEMA_VERSION
from turnwire.snapshot.legacy import (
    ANSWER,
    ERROR_SUMMARY,
    REFERENCE_BUNDLE,
    AgentArtifactEnvelope,
    SnapshotSources,
)

__all__ = ["assemble_snapshot", "check_assembly", "cursor_value", "extract_error_text", "project_parts"]


def _text(value: object) -> str | None:
    """The text a stored value stands for, or None when it counts as absent."""
    if isinstance(value, str):
        return value or None
    if isinstance(value, int) and not isinstance(value, bool) and value != 0:
        return str(value)
    return None


def _title(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _first_text(mapping: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        text = _text(mapping.get(key))
        if text is not None:
            return text
    return None


def _answer_part(artifact: AgentArtifactEnvelope) -> dict[str, Any] | None:
    text = _first_text(artifact.payload, "text", "content", "answer") or _text(artifact.summary)
    return {"type": "text", "text": text} if text else None


def _reference_parts(artifact: AgentArtifactEnvelope) -> list[dict[str, Any]]:
    items = artifact.payload.get("items")
    if not isinstance(items, list):
        return []
    parts: list[dict[str, Any]] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        meta = item.get("metadata")
        metadata: dict[str, Any] = meta if isinstance(meta, dict) else {}
        url = _text(item.get("uri")) or _text(metadata.get("url"))
        title = _title(item.get("title")) or _title(metadata.get("title"))
        quote = _first_text(item, "snippet", "content") or ""
        source_id = _first_text(item, "source_id", "id") or f"{artifact.artifact_id}-ref-{index}"
        if url:
            source: dict[str, Any] = {"type": "source-url", "sourceId": source_id, "url": url}
            if title:
                source["title"] = title
            parts.append(source)
        location: dict[str, Any] = {"type": "url_citation", "url": url or ""}
        if title:
            location["title"] = title
        parts.append({"type": "data-citation", "data": {"cited_text": quote, "location": location}})
    return parts


def project_parts(artifacts: Sequence[AgentArtifactEnvelope]) -> list[dict[str, Any]]:
    """The parts a turn's artifact rows stand for (text first, then source / citation pairs)."""
    answer = next((a for a in artifacts if a.artifact_type == ANSWER), None)
    bundle = next((a for a in artifacts if a.artifact_type == REFERENCE_BUNDLE), None)
    parts: list[dict[str, Any]] = []
    if answer is not None:
        text = _answer_part(answer)
        if text is not None:
            parts.append(text)
    if bundle is not None:
        parts.extend(_reference_parts(bundle))
    return parts


def extract_error_text(artifacts: Sequence[AgentArtifactEnvelope]) -> str | None:
    """The error message the rows hold, or None.

    The first `error_summary` that has any text wins: its `payload.message`, `payload.text` or
    `payload.summary`, else its own `summary`; one with neither is passed over.
    """
    for artifact in artifacts:
        if artifact.artifact_type != ERROR_SUMMARY:
            continue
        text = _first_text(artifact.payload, "message", "text", "summary") or _text(artifact.summary)
        if text is not None:
            return text
    return None


def cursor_value(value: object) -> int:
    """A stored timeline cursor as the snapshot counts it: a non-negative integer, else 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def assemble_snapshot(sources: SnapshotSources) -> dict[str, Any]:
    """The snapshot (as served JSON) of the turn `sources` describe; see the module docstring for the rules."""
    turn, runtime = sources.turn_row, sources.runtime_state
    status = (runtime.status if runtime is not None else None) or turn.status
    cursor = max(
        cursor_value(runtime.timeline_cursor if runtime is not None else None), cursor_value(turn.timeline_cursor)
    )
    parts = list(sources.stored_parts) if sources.stored_parts else project_parts(sources.artifact_rows)
    error_text: str | None = None
    if status in ERROR_STATUSES:
        runtime_error = runtime.error_message if runtime is not None else None
        error_text = extract_error_text(sources.artifact_rows) or runtime_error or turn.error_message
    return {
        "schema_version": SCHEMA_VERSION,
        "turn_id": turn.turn_id,
        "chat_id": turn.chat_id,
        "role": "assistant",
        "status": status,
        "parts": parts,
        "error_text": error_text,
        "timeline_cursor": cursor,
        "started_at": turn.started_at,
        "finished_at": turn.finished_at,
        "created_at": turn.created_at,
        "updated_at": turn.updated_at,
    }


def _same(a: object, b: object) -> bool:
    try:
        return equal(a, b)
    except CanonicalError:
        return False


def _show(value: object) -> str:
    try:
        text = dumps(value).decode()
    except CanonicalError:
        text = repr(value)
    return text if len(text) <= 160 else text[:159] + "…"


def _kinds(parts: Sequence[Any]) -> str:
    return _show([p.get("type") if isinstance(p, dict) else p for p in parts])


def check_assembly(served: object, sources: SnapshotSources) -> list[Finding]:
    """`LEGACY-PROJECTION` findings where a served snapshot differs from the assembly of its rows.

    Only the keys the assembly writes are compared (a later backend may add `runtime_kind` and
    `input_text`); values are compared as canonical JSON, parts one by one.
    """
    expected = assemble_snapshot(sources)
    if not isinstance(served, dict):
        return [
            Finding.of(
                "LEGACY-PROJECTION",
                "the served snapshot is not a JSON object",
                expected="object",
                received=_show(served),
                json_path="$",
            )
        ]
    findings: list[Finding] = []

    def differs(path: list[str | int], want: str, got: str, what: str) -> None:
        findings.append(
            Finding.of(
                "LEGACY-PROJECTION",
                f"{what} differs from the assembly of the turn's rows",
                expected=want,
                received=got,
                json_path=json_path(path),
            )
        )

    for key, want in expected.items():
        if key not in served:
            differs([key], _show(want), "absent", key)
            continue
        got = served[key]
        if key == "parts" and isinstance(got, list):
            if len(got) != len(want):
                differs(["parts"], _kinds(want), _kinds(got), "the list of part types")
            for i, (w, g) in enumerate(zip(want, got, strict=False)):
                if not _same(w, g):
                    differs(["parts", i], _show(w), _show(g), f"part {i}")
        elif not _same(want, got):
            differs([key], _show(want), _show(got), key)
    return findings
