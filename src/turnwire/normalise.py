"""Normalising live output so that it can be compared with goldens.

A live runtime generates its own ids (`aitxt-3kQ…`, `msg_01H…`) and timestamps; a golden fixture holds
fixed ones. `Normaliser` rewrites both, leaving everything else alone:

* **Ids** are renumbered per family, by order of first appearance, as `<prefix>-<n>`:

  | family    | new ids      | where the ids live                                                       |
  |-----------|--------------|--------------------------------------------------------------------------|
  | message   | `msg-1`      | `start.messageId`; a message's `id`                                      |
  | text      | `text-1`     | `id` of `text-*` and `reasoning-*` chunks and of `reasoning` parts        |
  | tool call | `call-1`     | `toolCallId` of chunks and parts                                         |
  | approval  | `approval-1` | `approvalId` of chunks; `approval.id` of tool parts                      |
  | source    | `source-1`   | `sourceId` of chunks and parts; `citations[].source.id` (ai@7)           |
  | data      | `data-1`     | `id` of `data-*` chunks and parts                                        |
  | steering  | `steer-1`    | `id` of `steering-message` chunks and parts (ai@7)                       |

  Text and reasoning share one family, as they share the client's id space. Only string values at
  these places are ids; the same string elsewhere (inside `data`, `input`, `output`, text) is content
  and stays as it is.
* **Timestamps**: every JSON string value, anywhere, that is an ISO-8601 / RFC 3339 date-time
  (`2026-11-21T10:00:00Z`, with fractional seconds or a numeric offset) becomes `"<timestamp>"`.

One instance holds one mapping, shared by every call: normalise a turn's prior message first, then its
stream, then the resulting message, and the same live id maps to the same new id everywhere. Use a new
instance per turn. The methods are pure: they return new objects and never change their input.
Normalising already normalised output (with a fresh instance) changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

__all__ = ["TIMESTAMP", "Family", "Normaliser", "is_timestamp"]

TIMESTAMP = "<timestamp>"
"""What every date-time string becomes."""

_DATE_TIME = re.compile(
    r"^\d{4}-\d{2}-\d{2}"  # date
    r"[Tt ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?"  # time, seconds and fraction optional
    r"(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$"  # offset, optional (local time)
)


def is_timestamp(value: str) -> bool:
    """Whether `value` is an ISO-8601 / RFC 3339 date-time (a date alone is not)."""
    return _DATE_TIME.match(value) is not None


class Family(StrEnum):
    """A family of generated ids; the value is the prefix of the new ids."""

    MESSAGE = "msg"
    TEXT = "text"
    TOOL_CALL = "call"
    APPROVAL = "approval"
    SOURCE = "source"
    DATA = "data"
    STEERING = "steer"


_TEXT_CHUNKS = frozenset(
    {"text-start", "text-delta", "text-end", "reasoning-start", "reasoning-delta", "reasoning-end"}
)
_TEXT_PARTS = frozenset({"reasoning"})


def _scrub(value: Any) -> Any:
    """A deep copy of a JSON value with every date-time string replaced by `TIMESTAMP`."""
    if isinstance(value, str):
        return TIMESTAMP if is_timestamp(value) else value
    if isinstance(value, Mapping):
        return {k: _scrub(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub(v) for v in value]
    return value


class Normaliser:
    """Renumbers generated ids and blanks timestamps, consistently across all calls on one instance."""

    def __init__(self) -> None:
        self._ids: dict[Family, dict[str, str]] = {family: {} for family in Family}

    def id(self, family: Family, value: str) -> str:
        """The normal id for `value` in `family`, assigning the next one on first sight."""
        seen = self._ids[family]
        if value not in seen:
            seen[value] = f"{family.value}-{len(seen) + 1}"
        return seen[value]

    def mapping(self, family: Family) -> dict[str, str]:
        """A copy of the live-id → normal-id mapping of `family` so far."""
        return dict(self._ids[family])

    # ---- public entry points ----------------------------------------------------------------------

    def chunk(self, chunk: Mapping[str, Any]) -> dict[str, Any]:
        """One UI message stream chunk, normalised."""
        out = {key: _scrub(value) for key, value in chunk.items()}
        self._chunk_ids(out)
        return out

    def chunks(self, chunks: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """A sequence of chunks, normalised in order."""
        return [self.chunk(c) for c in chunks]

    def message(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """One UIMessage, normalised (its id, then its parts in order)."""
        out = {key: _scrub(value) for key, value in message.items()}
        self._rename(out, "id", Family.MESSAGE)
        parts = out.get("parts")
        if isinstance(parts, list):
            for part in parts:
                if isinstance(part, dict):
                    self._part_ids(part)
        return out

    def messages(self, messages: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """A sequence of UIMessages, normalised in order."""
        return [self.message(m) for m in messages]

    # ---- id locations (called on fresh copies, so editing in place is safe) --------------------

    def _rename(self, obj: dict[str, Any], key: str, family: Family) -> None:
        value = obj.get(key)
        if isinstance(value, str):
            obj[key] = self.id(family, value)

    def _common_ids(self, obj: dict[str, Any]) -> None:
        """Ids that mean the same on any chunk or part: tool calls, approvals, sources, citations."""
        self._rename(obj, "toolCallId", Family.TOOL_CALL)
        self._rename(obj, "approvalId", Family.APPROVAL)
        self._rename(obj, "sourceId", Family.SOURCE)
        approval = obj.get("approval")
        if isinstance(approval, dict):
            self._rename(approval, "id", Family.APPROVAL)
        citations = obj.get("citations")
        if isinstance(citations, list):
            for citation in citations:
                source = citation.get("source") if isinstance(citation, dict) else None
                if isinstance(source, dict):
                    self._rename(source, "id", Family.SOURCE)

    def _own_id_family(self, kind: Any, text_kinds: frozenset[str]) -> Family | None:
        """The family of the `id` key of a chunk or part of type `kind`, if that id is generated."""
        if not isinstance(kind, str):
            return None
        if kind in text_kinds:
            return Family.TEXT
        if kind.startswith("data-"):
            return Family.DATA
        if kind == "steering-message":
            return Family.STEERING
        return None

    def _chunk_ids(self, chunk: dict[str, Any]) -> None:
        kind = chunk.get("type")
        if kind == "start":
            self._rename(chunk, "messageId", Family.MESSAGE)
        family = self._own_id_family(kind, _TEXT_CHUNKS)
        if family is not None:
            self._rename(chunk, "id", family)
        self._common_ids(chunk)

    def _part_ids(self, part: dict[str, Any]) -> None:
        family = self._own_id_family(part.get("type"), _TEXT_PARTS)
        if family is not None:
            self._rename(part, "id", family)
        self._common_ids(part)
