"""What an at-rest artefact is, decided from its keys the way the issue's recording target defines it.

`--at-rest` (or what a live target fetched) holds one JSON object: with `turn_id` it is an
AgentTurnSnapshot, with `role` a stored UIMessage, and with the retired `{turn, timeline, artifacts}`
keys the legacy snapshot body (judged as a snapshot, so the deny-scan reports the retired keys).
Anything else has no contract to be judged against, which is itself a finding (`ATREST-SHAPE`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

__all__ = ["LEGACY_BODY_KEYS", "AtRestKind", "at_rest_kind", "legacy_artefact"]

LEGACY_BODY_KEYS: frozenset[str] = frozenset({"turn", "timeline", "artifacts"})
"""Top-level keys of the retired snapshot body."""


class AtRestKind(StrEnum):
    """The kinds of at-rest artefact turnwire can judge."""

    SNAPSHOT = "agent-turn-snapshot"
    LEGACY_SNAPSHOT = "legacy-snapshot"
    MESSAGE = "ui-message"
    UNKNOWN = "unknown"


def at_rest_kind(value: Any) -> AtRestKind:
    """Classify an at-rest value (a snapshot wins over a message when both kinds of key are present)."""
    if not isinstance(value, dict):
        return AtRestKind.UNKNOWN
    if "turn_id" in value or "schema_version" in value:
        return AtRestKind.SNAPSHOT
    if "role" in value:
        return AtRestKind.MESSAGE
    if LEGACY_BODY_KEYS & value.keys():
        return AtRestKind.LEGACY_SNAPSHOT
    return AtRestKind.UNKNOWN


def legacy_artefact(kind: AtRestKind) -> str | None:
    """The artefact name the legacy-key registry uses for `kind` (None when it has none)."""
    if kind in (AtRestKind.SNAPSHOT, AtRestKind.LEGACY_SNAPSHOT):
        return "agent-turn-snapshot"
    if kind is AtRestKind.MESSAGE:
        return "ui-message"
    return None
