"""`ToolConfig`: a tool as a user stores it, before resolution.

A stored config names a tool by reference — a builtin name, a gateway slug, a code body, a client
declaration — and is discriminated by `type`. Its keys are snake_case (it is stored data, not the runner
wire), and unknown keys are rejected: a camelCase `inputSchema` on a config is a mistake to surface, not
a key to ignore. `parse_tool_config` is the strict parser; legacy shapes go through
`turnwire.tools.compat`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from turnwire.tools._base import empty_object_schema, require_in_schema
from turnwire.tools.errors import ToolConfigurationError, describe_validation_error

__all__ = [
    "TOOL_CONFIG_TYPES",
    "BuiltinToolConfig",
    "ClientToolConfig",
    "CodeToolConfig",
    "GatewayToolConfig",
    "ToolConfig",
    "parse_tool_config",
    "parse_tool_configs",
    "tool_config_adapter",
]

NonEmpty = Annotated[str, Field(min_length=1)]
Runtime = Literal["python", "node"]


class _ToolConfigBase(BaseModel):
    """What every stored tool config may carry besides its own fields."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=require_in_schema("type"))

    needs_approval: bool = False
    render: dict[str, Any] | None = None


class BuiltinToolConfig(_ToolConfigBase):
    """A tool the harness ships (`read`, `bash`, ...), named only."""

    type: Literal["builtin"] = "builtin"
    name: NonEmpty


class GatewayToolConfig(_ToolConfigBase):
    """An action of an integration behind a tool gateway (e.g. Composio), reached through a connection."""

    type: Literal["gateway"] = "gateway"
    provider: NonEmpty = "composio"
    integration: NonEmpty
    action: NonEmpty
    connection: NonEmpty
    name: str | None = None

    @property
    def reference(self) -> str:
        """The dotted reference `tools.<provider>.<integration>.<action>.<connection>`."""
        return f"tools.{self.provider}.{self.integration}.{self.action}.{self.connection}"

    @property
    def slug(self) -> str:
        """The same reference in slug form (`__` for `.`), as gateway `callRef`s and model tool names use."""
        return self.reference.replace(".", "__")


class CodeToolConfig(_ToolConfigBase):
    """A tool whose body is a script the runner executes, with the secrets it declares by name."""

    type: Literal["code"] = "code"
    name: NonEmpty
    description: str | None = None
    runtime: Runtime = "python"
    script: NonEmpty
    input_schema: dict[str, Any] = Field(default_factory=empty_object_schema)
    secrets: list[str] = Field(default_factory=list)


class ClientToolConfig(_ToolConfigBase):
    """A tool the client (browser, caller) executes; the runner only declares it to the model."""

    type: Literal["client"] = "client"
    name: NonEmpty
    description: str | None = None
    input_schema: dict[str, Any] = Field(default_factory=empty_object_schema)


ToolConfig = Annotated[
    BuiltinToolConfig | GatewayToolConfig | CodeToolConfig | ClientToolConfig, Field(discriminator="type")
]
"""A stored tool configuration, discriminated by `type`."""

TOOL_CONFIG_TYPES: Final = frozenset({"builtin", "gateway", "code", "client"})
"""The `type` values of the canonical union."""

_ADAPTER: TypeAdapter[ToolConfig] = TypeAdapter(ToolConfig)


def tool_config_adapter() -> TypeAdapter[ToolConfig]:
    """The pydantic adapter of the `ToolConfig` union (for schemas and bulk validation)."""
    return _ADAPTER


def parse_tool_config(value: object) -> ToolConfig:
    """Strictly parse one stored config; anything but the canonical shape raises `ToolConfigurationError`."""
    try:
        return _ADAPTER.validate_python(value)
    except ValidationError as exc:
        tag = value.get("type") if isinstance(value, dict) else None
        raise ToolConfigurationError(f"Invalid tool configuration: {describe_validation_error(exc, tag=tag)}") from None


def parse_tool_configs(values: Iterable[object]) -> list[ToolConfig]:
    """Strictly parse a list of stored configs; the error names the failing item's `index`."""
    out: list[ToolConfig] = []
    for index, value in enumerate(values):
        try:
            out.append(parse_tool_config(value))
        except ToolConfigurationError as exc:
            raise ToolConfigurationError(exc.message, index=index) from None
    return out
