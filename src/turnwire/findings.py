"""Findings: what a check reports when a target breaks a requirement.

No stage of turnwire raises on bad input from a target; it returns `Finding`s instead. A finding names
the requirement it breaks (an id from `conformance/requirements.yaml`, whose level it carries), says
what was expected and what was received, and points at the place: a chunk index, a byte offset in the
recorded bytes, or a JSON path.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class Level(StrEnum):
    """RFC 2119 strength of a requirement."""

    MUST = "MUST"
    SHOULD = "SHOULD"
    MAY = "MAY"


class Finding(BaseModel):
    """One broken requirement at one place."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    requirement: str
    level: Level
    message: str
    expected: str | None = None
    received: str | None = None
    chunk_index: int | None = None
    byte_offset: int | None = None
    json_path: str | None = None

    @classmethod
    def of(
        cls,
        requirement: str,
        message: str,
        *,
        expected: str | None = None,
        received: str | None = None,
        chunk_index: int | None = None,
        byte_offset: int | None = None,
        json_path: str | None = None,
    ) -> Finding:
        """Build a finding for a registered requirement; its level comes from the registry."""
        from turnwire.requirements import requirement as lookup

        return cls(
            requirement=requirement,
            level=lookup(requirement).level,
            message=message,
            expected=expected,
            received=received,
            chunk_index=chunk_index,
            byte_offset=byte_offset,
            json_path=json_path,
        )

    def where(self) -> str:
        """A short human description of the location, e.g. `chunk 3, $.parts[0].text`."""
        bits = []
        if self.chunk_index is not None:
            bits.append(f"chunk {self.chunk_index}")
        if self.byte_offset is not None:
            bits.append(f"byte {self.byte_offset}")
        if self.json_path is not None:
            bits.append(self.json_path)
        return ", ".join(bits) or "-"

    def __str__(self) -> str:
        return f"{self.level} {self.requirement} at {self.where()}: {self.message}"


def json_path(parts: tuple[str | int, ...] | list[str | int]) -> str:
    """Render a location as a JSONPath-like string: `$.parts[2].toolCallId`."""
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif p.isidentifier():
            out += f".{p}"
        else:
            out += "[" + json.dumps(p, ensure_ascii=False) + "]"
    return out


def excerpt(value: object, limit: int = 120) -> str:
    """A short rendering of a received value for a finding: compact JSON, cut at `limit` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def value_at(value: object, path: Sequence[str | int]) -> object:
    """The value at `path` inside a parsed JSON value, or None where the path does not lead."""
    for p in path:
        if isinstance(value, Mapping) and isinstance(p, str):
            value = value.get(p)
        elif isinstance(value, list) and isinstance(p, int) and 0 <= p < len(value):
            value = value[p]
        else:
            return None
    return value
