"""Small pieces the tool models share: the empty input schema and schema tweaks.

Internal: nothing here is public API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def empty_object_schema() -> dict[str, Any]:
    """The input schema of a tool that takes no arguments: an object with no declared properties."""
    return {"type": "object", "properties": {}}


def require_in_schema(*names: str) -> Callable[[dict[str, Any]], None]:
    """A `json_schema_extra` hook marking `names` required in the generated schema.

    A union tag with a default (`type: "builtin"`) is optional for pydantic's schema, yet pydantic's
    discriminated union needs it in the input; a plain JSON Schema validator only sees `oneOf`, so the
    tag must be required there too or a tag-less object could match two members.
    """

    def hook(schema: dict[str, Any]) -> None:
        required: list[str] = list(schema.get("required", []))
        schema["required"] = required + [n for n in names if n not in required]

    return hook
