"""JSON Schemas (draft 2020-12) generated from the protocol models.

The models are the single source of truth; these schemas are how other languages and generic
validators read the same contract. Each schema has a stable, versioned `$id`; bump
`SCHEMA_VERSION` when a change would break a reader of the previous schema.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema

from turnwire.profiles import ALL_PROFILES, Profile
from turnwire.protocol.registry import models

SCHEMA_VERSION = 1
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_id(profile: Profile | None, name: str) -> str:
    """The `$id` of a generated schema: a URN naming profile, schema and schema version."""
    scope = f"{profile.value}:" if profile is not None else ""
    return f"urn:turnwire:schema:{scope}{name}:v{SCHEMA_VERSION}"


class _Generator(GenerateJsonSchema):
    """pydantic's generator, minus noise: no auto-generated property titles."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def build_schema(adapter: TypeAdapter[Any], *, schema_id_: str, title: str, description: str) -> dict[str, Any]:
    """The 2020-12 schema of `adapter`'s type, with `$schema`, `$id`, title and description first."""
    body = adapter.json_schema(by_alias=True, mode="validation", schema_generator=_Generator)
    head: dict[str, Any] = {"$schema": DIALECT, "$id": schema_id_, "title": title, "description": description}
    body.pop("title", None)
    body.pop("description", None)
    return {**head, **body}


def protocol_schemas() -> dict[str, dict[str, Any]]:
    """Every protocol schema by its path under `schemas/`."""
    out: dict[str, dict[str, Any]] = {}
    for profile in ALL_PROFILES:
        m = models(profile)
        out[f"{profile.value}/UIMessage.schema.json"] = build_schema(
            TypeAdapter(m.message),
            schema_id_=schema_id(profile, "UIMessage"),
            title=f"UIMessage ({profile.value})",
            description=f"A stored UI message of the AI SDK protocol, profile {profile.value}.",
        )
        out[f"{profile.value}/UIMessageChunk.schema.json"] = build_schema(
            m.chunk,
            schema_id_=schema_id(profile, "UIMessageChunk"),
            title=f"UIMessageChunk ({profile.value})",
            description=f"One chunk of a UI message stream, profile {profile.value}.",
        )
    return out
