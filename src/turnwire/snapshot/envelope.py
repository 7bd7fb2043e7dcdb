"""The at-rest turn snapshot (`AgentTurnSnapshot`): one agent turn as a backend serves it on reload.

Why its own model: the live stream and the reload path must render the same parts, so the snapshot
carries the profile's own `UIMessage` parts (`turnwire.protocol.vN.Part`, camelCase, never `null`)
inside an envelope that follows the serving backend's conventions instead: snake_case keys, and
`null` written out for an absent value (FastAPI does not drop `None`). The two null rules meet in
one object, which is why the envelope and the parts are judged by different rules.

`SnapshotEnvelope` holds every envelope key with `parts` left open; each profile's
`AgentTurnSnapshotV5` / `V6` / `V7` narrows `parts` to that profile's part union. The per-profile
classes generate `schemas/<profile>/AgentTurnSnapshot.schema.json`; `AgentTurnSnapshot` is the default
profile's (ai-sdk-v7).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from turnwire.profiles import DEFAULT_PROFILE, Profile
from turnwire.protocol import v5, v6, v7
from turnwire.protocol.wire import MISSING, JSONValue

__all__ = [
    "ERROR_STATUSES",
    "NULLABLE_KEYS",
    "SCHEMA_VERSION",
    "TERMINAL_STATUSES",
    "AgentTurnSnapshot",
    "AgentTurnSnapshotV5",
    "AgentTurnSnapshotV6",
    "AgentTurnSnapshotV7",
    "RuntimeKind",
    "SnapshotEnvelope",
    "Timestamp",
    "TurnStatus",
    "snapshot_model",
]

SCHEMA_VERSION = "agent-runtime-v3.1"
"""The contract version every snapshot of this shape carries in `schema_version`."""

TurnStatus = Literal["QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"]
"""A turn's status, upper case as served."""

TERMINAL_STATUSES: frozenset[str] = frozenset({"COMPLETED", "FAILED", "CANCELLED"})
"""Statuses after which the turn does not change."""

ERROR_STATUSES: frozenset[str] = frozenset({"FAILED", "CANCELLED"})
"""The only statuses whose snapshot may carry an `error_text`."""

RuntimeKind = Literal["agent_runtime", "direct_chat", "rag_chat"]
"""Which runtime produced the turn (a later, optional envelope key)."""

Timestamp = Annotated[
    str,
    Field(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?$"),
]
"""An ISO 8601 date-time as a Python backend serialises one (the offset may be absent for a naive value)."""

NULLABLE_KEYS: tuple[str, ...] = ("error_text", "started_at", "finished_at", "created_at", "updated_at")
"""Envelope keys a writer sends as `null` when it has no value, rather than leaving them out."""


class SnapshotEnvelope(BaseModel):
    """Every envelope key of a snapshot, with `parts` left open (the parts are judged per profile)."""

    model_config = ConfigDict(extra="forbid", strict=True, serialize_by_alias=True)

    schema_version: Literal["agent-runtime-v3.1"]
    turn_id: str
    chat_id: str
    runtime_kind: RuntimeKind | MISSING = MISSING
    input_text: str | MISSING | None = MISSING
    role: Literal["assistant"]
    status: TurnStatus
    parts: list[JSONValue]
    error_text: str | None = None
    timeline_cursor: Annotated[int, Field(ge=0)]
    started_at: Timestamp | None = None
    finished_at: Timestamp | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None


class AgentTurnSnapshotV5(SnapshotEnvelope):
    """A turn snapshot whose parts are `ai-sdk-v5` parts."""

    parts: list[v5.Part]


class AgentTurnSnapshotV6(SnapshotEnvelope):
    """A turn snapshot whose parts are `ai-sdk-v6` parts."""

    parts: list[v6.Part]


class AgentTurnSnapshotV7(SnapshotEnvelope):
    """A turn snapshot whose parts are `ai-sdk-v7` parts."""

    parts: list[v7.Part]


AgentTurnSnapshot = AgentTurnSnapshotV7
"""The snapshot of the default profile."""

_MODELS: dict[Profile, type[SnapshotEnvelope]] = {
    Profile.V5: AgentTurnSnapshotV5,
    Profile.V6: AgentTurnSnapshotV6,
    Profile.V7: AgentTurnSnapshotV7,
}


def snapshot_model(profile: Profile = DEFAULT_PROFILE) -> type[SnapshotEnvelope]:
    """The snapshot model whose parts are `profile`'s parts."""
    return _MODELS[profile]
