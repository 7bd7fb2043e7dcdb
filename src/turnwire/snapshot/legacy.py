"""The retired shapes the snapshot replaced, and the stored rows it is still assembled from.

Why keep retired shapes as models: a backend in transition still stores turns and artifacts as rows
and projects them into parts on read (`turnwire.snapshot.projection`), and old clients and fixtures
still hold the pre-v3.1 snapshot `{turn, timeline, artifacts}`. Modelling them lets turnwire build a
snapshot from rows exactly as that backend does, and name what a legacy body contains.

All of these are snake_case with `null` for absent values, as served. `AgentTurnEnvelope` is not
retired everywhere: the create-turn response (`CreateTurnResponse`) still carries it under `turn`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from turnwire.snapshot.envelope import SCHEMA_VERSION, Timestamp

__all__ = [
    "ANSWER",
    "ERROR_SUMMARY",
    "REFERENCE_BUNDLE",
    "SEARCH_RESULT_SUMMARY",
    "TOOL_RESULT_SUMMARY",
    "AgentArtifactEnvelope",
    "AgentTimelineEventEnvelope",
    "AgentTurnEnvelope",
    "CreateTurnResponse",
    "LegacyTurnSnapshot",
    "ReferenceBundleItem",
    "RuntimeState",
    "SnapshotSources",
    "UserActivityContext",
    "UserActivityEnvelope",
]

# The artifact kinds a turn could store (`artifact_type`); other values are stored but never projected.
ANSWER = "answer"
REFERENCE_BUNDLE = "reference_bundle"
TOOL_RESULT_SUMMARY = "tool_result_summary"
SEARCH_RESULT_SUMMARY = "search_result_summary"
ERROR_SUMMARY = "error_summary"


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class UserActivityContext(_Row):
    """Details a timeline event's user-facing activity may name."""

    source_name: str | None = None
    keyword: str | None = None
    count: int | None = None
    target_type: Literal["knowledge_base", "document", "web"] | None = None
    scope_label: str | None = None


class UserActivityEnvelope(_Row):
    """What the user is shown a timeline event means (i18n keys, not text)."""

    intent: Literal[
        "thinking",
        "searching_knowledge",
        "reading_source",
        "comparing_results",
        "writing_answer",
        "waiting",
        "completed",
        "error",
    ]
    title_key: str
    subtitle_key: str
    detail_key: str | None = None
    context: UserActivityContext | None = None


class AgentTurnEnvelope(_Row):
    """A turn row as served: retired from the snapshot, still the `turn` of the create-turn response."""

    schema_version: str = SCHEMA_VERSION
    turn_id: str
    chat_id: str
    user_id: str
    bot_id: str
    request_id: str
    client_idempotency_key: str
    status: str
    input_text: str
    model_profile: dict[str, Any] = Field(default_factory=dict)
    error_code: str | None = None
    error_message: str | None = None
    answer_artifact_id: str | None = None
    reference_bundle_artifact_id: str | None = None
    timeline_cursor: int = 0
    started_at: Timestamp | None = None
    finished_at: Timestamp | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None


class AgentTimelineEventEnvelope(_Row):
    """One event of a turn's timeline (retired from the snapshot; activity is live-only now)."""

    schema_version: str = SCHEMA_VERSION
    event_id: str
    turn_id: str
    sequence: int
    timestamp: Timestamp
    type: str
    technical_type: str | None = None
    label: str | None = None
    status: str | None = None
    actor: Literal["agent", "tool", "system"]
    data: dict[str, Any] = Field(default_factory=dict)
    user_activity: UserActivityEnvelope | None = None


class AgentArtifactEnvelope(_Row):
    """An artifact row: an answer, a reference bundle, an error or a summary; `payload` is free-form."""

    schema_version: str = SCHEMA_VERSION
    artifact_id: str
    turn_id: str
    artifact_type: str
    summary: str | None = None
    payload: dict[str, Any] = Field(default_factory=dict)
    storage_ref: str | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None


class ReferenceBundleItem(_Row):
    """The shape a writer gave the items of a reference bundle's `payload.items`.

    The projection reads the items as free-form objects, as the backend did, so an item may also
    carry `id`, `content` or a `metadata.url` / `metadata.title` fallback.
    """

    source_type: str
    source_id: str | None = None
    title: str | None = None
    snippet: str | None = None
    score: float | None = None
    uri: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class LegacyTurnSnapshot(_Row):
    """The snapshot body before agent-runtime-v3.1: the turn row, its timeline and its artifacts."""

    turn: AgentTurnEnvelope
    timeline: list[AgentTimelineEventEnvelope] = Field(default_factory=list)
    artifacts: list[AgentArtifactEnvelope] = Field(default_factory=list)


class CreateTurnResponse(_Row):
    """The create-turn response, current: its `turn` is not a legacy key."""

    turn: AgentTurnEnvelope
    stream_url: str


class RuntimeState(_Row):
    """The live runtime state of a turn (a cache next to the row); it wins over the row where set.

    `timeline_cursor` is kept as stored: anything but a non-negative integer counts as 0.
    """

    status: str | None = None
    timeline_cursor: Any = None
    chat_id: str | None = None
    user: str | None = None
    answer_artifact_id: str | None = None
    reference_bundle_artifact_id: str | None = None
    error_code: str | None = None
    error_message: str | None = None


class SnapshotSources(_Row):
    """Everything a snapshot of one turn is assembled from (`projection.assemble_snapshot`).

    `stored_parts` are the parts already stored for the turn at rest; when there are any, they are the
    snapshot's parts and the artifacts only supply `error_text`.
    """

    turn_row: AgentTurnEnvelope
    artifact_rows: list[AgentArtifactEnvelope] = Field(default_factory=list)
    runtime_state: RuntimeState | None = None
    stored_parts: list[dict[str, Any]] | None = None
