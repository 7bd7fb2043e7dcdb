"""The protocol models of each profile, looked up by `Profile`.

Callers never import `v5` / `v6` / `v7` directly to judge something; they ask for the profile's
models here, so adding a profile is one entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, get_args

from pydantic import BaseModel, Tag, TypeAdapter

from turnwire.profiles import Profile
from turnwire.protocol import v5, v6, v7


@dataclass(frozen=True)
class ProtocolModels:
    """Everything turnwire knows about one profile's wire."""

    profile: Profile
    message: type[BaseModel]
    part: TypeAdapter[Any]
    chunk: TypeAdapter[Any]
    part_tags: frozenset[str]
    """Discriminator tags of parts: `text`, `data`, `tool:{state}`, `dynamic-tool:{state}`, ..."""
    chunk_tags: frozenset[str]
    """Discriminator tags of chunks: the chunk types, with `data` for every `data-{name}`."""

    @property
    def tool_states(self) -> frozenset[str]:
        """States a static `tool-{name}` part may be in."""
        return frozenset(t.split(":", 1)[1] for t in self.part_tags if t.startswith("tool:"))

    @property
    def dynamic_tool_states(self) -> frozenset[str]:
        """States a `dynamic-tool` part may be in."""
        return frozenset(t.split(":", 1)[1] for t in self.part_tags if t.startswith("dynamic-tool:"))


def _tags(annotated_union: object) -> frozenset[str]:
    union, *_ = get_args(annotated_union)
    tags: set[str] = set()
    for member in get_args(union):
        for meta in get_args(member)[1:]:
            if isinstance(meta, Tag):
                tags.add(meta.tag)
    return frozenset(tags)


_MODULES = {Profile.V5: v5, Profile.V6: v6, Profile.V7: v7}


@cache
def models(profile: Profile) -> ProtocolModels:
    """The models of `profile` (built once)."""
    module = _MODULES[profile]
    return ProtocolModels(
        profile=profile,
        message=module.UIMessage,
        part=TypeAdapter(module.Part),
        chunk=TypeAdapter(module.Chunk),
        part_tags=_tags(module.Part),
        chunk_tags=_tags(module.Chunk),
    )
