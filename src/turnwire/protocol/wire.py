"""Shared building blocks of the UI message protocol models.

Every protocol model judges a *writer*: it forbids unknown keys, refuses coercion (a number is not a
string) and models an absent optional field as `MISSING`, so an explicit `null` is rejected exactly as
the AI SDK rejects it. Keys the SDK types `unknown` (`input`, `output`, `data`, ...) are `Any`: they
must be present where required and may be `null`. Python names are snake_case; the wire is camelCase
through one alias generator, so no field can drift from its wire name by a typo.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

__all__ = [
    "MISSING",
    "JSONValue",
    "NonNegativeInt",
    "ProviderMetadata",
    "Role",
    "WireModel",
    "chunk_tag",
    "data_type",
    "part_tag",
    "tool_type",
]

from pydantic import MISSING

JSONValue = Any
"""Any JSON value (the SDK's `unknown`)."""

ProviderMetadata = dict[str, dict[str, JSONValue]]
"""`Record<string, Record<string, JSONValue>>`: provider name → provider-specific values."""

NonNegativeInt = Annotated[int, Field(ge=0)]

Role = Literal["system", "user", "assistant"]

tool_type = Annotated[str, Field(pattern=r"^tool-")]
"""The `type` of a static tool part: `tool-{name}` (the SDK accepts even `tool-`)."""

data_type = Annotated[str, Field(pattern=r"^data-")]
"""The `type` of a data part or chunk: `data-{name}` (the SDK accepts even `data-`)."""


class WireModel(BaseModel):
    """Base of every protocol model: strict, closed, camelCase on the wire."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        alias_generator=to_camel,
        validate_by_alias=True,
        validate_by_name=False,
        serialize_by_alias=True,
    )


def _field(value: object, name: str) -> object:
    if isinstance(value, dict):
        return value.get(name)
    return getattr(value, name, None)


def part_tag(value: object) -> str | None:
    """Discriminator of the part union: the type, with tool parts split by state.

    `tool-{name}` parts become `tool:{state}`, `dynamic-tool` parts `dynamic-tool:{state}`, and every
    `data-{name}` part `data`, so one closed union can validate open type names.
    """
    kind = _field(value, "type")
    if not isinstance(kind, str):
        return None
    if kind.startswith("tool-"):
        return f"tool:{_field(value, 'state')}"
    if kind == "dynamic-tool":
        return f"dynamic-tool:{_field(value, 'state')}"
    if kind.startswith("data-"):
        return "data"
    return kind


def chunk_tag(value: object) -> str | None:
    """Discriminator of the chunk union: the type, with every `data-{name}` chunk as `data`."""
    kind = _field(value, "type")
    if not isinstance(kind, str):
        return None
    if kind.startswith("data-"):
        return "data"
    return kind
