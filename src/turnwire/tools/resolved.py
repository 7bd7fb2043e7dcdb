"""What resolution produces: the resolved tool set, and the gateway port's answer.

`ResolvedToolSet` is the bridge's far side: builtin names for the harness, specs for the runner, and
the callback the runner uses for `callback` specs. Older payloads called the first two `builtin_tools`
and `custom_tools`; those names are still *read* (validation aliases, and read-only properties for old
callers) but never *written*: a dump always says `builtin_names` / `tool_specs`.
"""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from turnwire.tools.spec import CallbackToolSpec, ToolCallback, ToolSpec, coerce_tool_spec

__all__ = ["GatewayToolResolution", "ResolvedToolSet", "coerce_tool_specs"]


def coerce_tool_specs(value: object) -> object:
    """Each item of a list through `coerce_tool_spec` (other values are left to pydantic to reject)."""
    if isinstance(value, list | tuple):
        return [coerce_tool_spec(item) for item in value]
    return value


class ResolvedToolSet(BaseModel):
    """Resolved tools: builtin names, specs in runner order, and the callback for `callback` specs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    builtin_names: list[str] = Field(
        default_factory=list, validation_alias=AliasChoices("builtin_names", "builtin_tools")
    )
    tool_specs: list[ToolSpec] = Field(
        default_factory=list, validation_alias=AliasChoices("tool_specs", "custom_tools")
    )
    tool_callback: ToolCallback | None = None

    @field_validator("tool_specs", mode="before")
    @classmethod
    def _coerce_specs(cls, value: object) -> object:
        return coerce_tool_specs(value)

    @property
    def builtin_tools(self) -> list[str]:
        """Read-only old name of `builtin_names`."""
        return list(self.builtin_names)

    @property
    def custom_tools(self) -> list[dict[str, Any]]:
        """Read-only old name of `tool_specs`, as the wire dicts old callers handled."""
        return [spec.to_wire() for spec in self.tool_specs]

    def names(self) -> list[str]:
        """Every model-visible tool name: builtins first, then specs."""
        return [*self.builtin_names, *(spec.name for spec in self.tool_specs)]


class GatewayToolResolution(BaseModel):
    """What a gateway resolver returns: callback specs for the gateway tools and the callback to use."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool_specs: list[CallbackToolSpec] = Field(default_factory=list)
    tool_callback: ToolCallback
