"""Coercion of legacy tool shapes into the canonical `ToolConfig` union.

Stored agent configs predate the typed union, and playground payloads still send older shapes. Each
shape below folds into one canonical config; anything else is an error, never a silent guess:

- a bare string `"bash"` → builtin `bash`;
- `type: "composio"` → a gateway config (provider defaulting to `composio`);
- a canonical `type` (`builtin`, `gateway`, `code`, `client`) → the strict parser;
- a gateway slug `tools__<provider>__<integration>__<action>__<connection>` (or its dotted form) in an
  OpenAI-style `function.name` or in `name` → a gateway config, keeping the outer object's
  `needs_approval` and `render`;
- a mapping with a string `name` and no `type` → builtin (its other keys are dropped).

`coerce_tool_configs` either raises at the first bad item (with its `index`) or, in `collect` mode,
keeps the good ones and returns an indexed diagnostic per bad one — what an editor shows next to a list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from turnwire.tools.config import (
    TOOL_CONFIG_TYPES,
    BuiltinToolConfig,
    ClientToolConfig,
    CodeToolConfig,
    GatewayToolConfig,
    ToolConfig,
    parse_tool_config,
)
from turnwire.tools.errors import ToolConfigurationError

__all__ = [
    "ToolConfigDiagnostic",
    "ToolConfigParseResult",
    "coerce_tool_config",
    "coerce_tool_configs",
    "is_canonical_tool_config",
    "parse_gateway_slug",
]


class ToolConfigDiagnostic(BaseModel):
    """Why the item at `index` of a config list was left out (collect mode)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    index: int
    message: str


class ToolConfigParseResult(BaseModel):
    """The configs that coerced, in order, and a diagnostic for each item that did not."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool_configs: list[ToolConfig] = Field(default_factory=list)
    diagnostics: list[ToolConfigDiagnostic] = Field(default_factory=list)


def parse_gateway_slug(slug: object) -> dict[str, str] | None:
    """The gateway fields of a slug (`tools__p__i__a__c` or `tools.p.i.a.c`), or None if it is not one."""
    if not isinstance(slug, str):
        return None
    parts = slug.replace("__", ".").split(".")
    if len(parts) != 5 or parts[0] != "tools":
        return None
    return {
        "type": "gateway",
        "provider": parts[1],
        "integration": parts[2],
        "action": parts[3],
        "connection": parts[4],
    }


def _with_metadata(source: Mapping[Any, Any], target: dict[str, Any]) -> dict[str, Any]:
    out = dict(target)
    if "needs_approval" in source:
        out["needs_approval"] = bool(source["needs_approval"])
    render = source.get("render")
    if isinstance(render, Mapping):
        out["render"] = dict(render)
    return out


_CONFIG_CLASSES = (BuiltinToolConfig, GatewayToolConfig, CodeToolConfig, ClientToolConfig)


def coerce_tool_config(value: object) -> ToolConfig:
    """One stored value (canonical or legacy) as a canonical config; `ToolConfigurationError` otherwise."""
    if isinstance(value, _CONFIG_CLASSES):
        return value
    if isinstance(value, str):
        if not value:
            raise ToolConfigurationError("Tool name cannot be empty")
        return BuiltinToolConfig(name=value)
    if not isinstance(value, Mapping):
        raise ToolConfigurationError("Tool configuration must be a string or mapping")
    data: dict[Any, Any] = dict(value)
    tag = data.get("type")
    if tag == "composio":
        data["type"] = tag = "gateway"
        data.setdefault("provider", "composio")
    if isinstance(tag, str) and tag in TOOL_CONFIG_TYPES:
        return parse_tool_config(data)
    function = data.get("function")
    name_source = function.get("name") if isinstance(function, Mapping) else None
    gateway = parse_gateway_slug(name_source or data.get("name"))
    if gateway is not None:
        return parse_tool_config(_with_metadata(data, gateway))
    if "type" not in data and isinstance(data.get("name"), str) and data["name"]:
        return BuiltinToolConfig(name=data["name"])
    raise ToolConfigurationError("Unsupported tool configuration shape")


def is_canonical_tool_config(value: object) -> bool:
    """True when `value` parses strictly (no legacy coercion needed)."""
    try:
        parse_tool_config(value)
    except ToolConfigurationError:
        return False
    return True


def coerce_tool_configs(
    values: Iterable[object] | None, *, on_error: Literal["raise", "collect"] = "raise"
) -> ToolConfigParseResult:
    """Coerce a stored list: raise at the first bad item (`index` set), or collect indexed diagnostics.

    `None` is an empty list. A string or a single mapping is not a list and always raises (wrap a
    single config in a list first: `turnwire.tools.session_config.AgentTools` does).
    """
    if on_error not in ("raise", "collect"):
        raise ValueError(f"on_error must be 'raise' or 'collect', not {on_error!r}")
    if values is None:
        return ToolConfigParseResult()
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
        raise ToolConfigurationError("Tool configurations must be a list")
    configs: list[ToolConfig] = []
    diagnostics: list[ToolConfigDiagnostic] = []
    for index, value in enumerate(values):
        if value is None:
            message = "Tool configuration cannot be null"
        else:
            try:
                configs.append(coerce_tool_config(value))
                continue
            except ToolConfigurationError as exc:
                message = exc.message
        if on_error == "raise":
            raise ToolConfigurationError(message, index=index)
        diagnostics.append(ToolConfigDiagnostic(index=index, message=message))
    return ToolConfigParseResult(tool_configs=configs, diagnostics=diagnostics)
