"""The typed errors of tool and MCP configuration, parsing and resolution.

The resolver and the parsers are library API: a caller building tool specs wants one exception type to
catch and a precise subclass to branch on, so every failure here is a `ToolError`. (Judging a target's
output is a different job: `turnwire.tools.checks` returns findings and raises nothing.)

No message in this module ever carries a secret *value*: errors name tools, servers and secret *names*
only, and pydantic validation errors are rendered by `describe_validation_error`, which leaves the
offending input out (pydantic's own text echoes it, and that input can hold a resolved `env`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import ValidationError

__all__ = [
    "DuplicateToolNameError",
    "GatewayToolResolutionError",
    "InvalidToolSpecError",
    "MCPConfigurationError",
    "MCPError",
    "MissingMCPSecretError",
    "MissingToolSecretError",
    "SecretProviderError",
    "ToolConfigError",
    "ToolConfigurationError",
    "ToolError",
    "ToolResolutionError",
    "UnsupportedToolProviderError",
    "describe_validation_error",
]


def describe_validation_error(error: ValidationError, *, tag: object = None) -> str:
    """`loc: msg` for every error of `error`, without the input values pydantic would echo.

    `tag` is the discriminator value of the union member that was validated; pydantic puts it first in
    each location, and it is not a key of the input, so it is dropped.
    """
    bits: list[str] = []
    for item in error.errors(include_input=False, include_url=False, include_context=False):
        loc: Sequence[int | str] = item["loc"]
        if loc and tag is not None and loc[0] == tag:
            loc = loc[1:]
        where = ".".join(str(p) for p in loc)
        bits.append(f"{where}: {item['msg']}" if where else item["msg"])
    return "; ".join(bits)


class ToolError(Exception):
    """Base class of every tool and MCP error turnwire raises."""


# ---- configuration: a stored value is not a tool configuration -------------------------------------
class ToolConfigurationError(ToolError):
    """A stored tool configuration (or a list of them) cannot be parsed or coerced."""

    def __init__(self, message: str, *, index: int | None = None) -> None:
        self.message = message
        self.index = index
        super().__init__(message if index is None else f"tool configuration {index}: {message}")


ToolConfigError = ToolConfigurationError
"""Short alias of `ToolConfigurationError`."""


class InvalidToolSpecError(ToolError):
    """A value meant to be a resolved tool spec is not one (wrong type, unknown kind, bad fields)."""


# ---- resolution: configs are valid, but cannot become specs --------------------------------------------
class ToolResolutionError(ToolError):
    """Valid tool configurations could not be resolved into tool specs."""

    def __init__(self, message: str, *, provider: str | None = None, reference: str | None = None) -> None:
        self.provider = provider
        self.reference = reference
        super().__init__(message)


class GatewayToolResolutionError(ToolResolutionError):
    """The injected gateway resolver failed or returned something other than a `GatewayToolResolution`."""


class UnsupportedToolProviderError(ToolResolutionError):
    """A gateway tool was configured but no gateway resolver was injected (there is no offline one)."""

    def __init__(self, provider: str) -> None:
        super().__init__(f"Unsupported tool provider: {provider}", provider=provider)


class MissingToolSecretError(ToolResolutionError):
    """A code tool declares secrets the provider does not have, under the `error` missing-secret policy."""

    def __init__(self, *, tool_name: str, secret_names: Iterable[str]) -> None:
        self.tool_name = tool_name
        self.secret_names = tuple(secret_names)
        super().__init__(f"Tool '{tool_name}' is missing required secret(s): {', '.join(self.secret_names)}")


class DuplicateToolNameError(ToolResolutionError):
    """Two resolved tools (builtin names and specs together) share a model-visible name."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"Duplicate tool name: {name}")


class SecretProviderError(ToolResolutionError):
    """The secret provider raised, or answered with something other than a mapping of names to strings."""


# ---- MCP -----------------------------------------------------------------------------------------------
class MCPError(ToolError):
    """Base class of MCP server configuration and resolution errors."""


class MCPConfigurationError(MCPError):
    """A stored MCP server configuration (or a list of them) cannot be parsed."""

    def __init__(self, message: str, *, index: int | None = None) -> None:
        self.message = message
        self.index = index
        super().__init__(message if index is None else f"MCP server configuration {index}: {message}")


class MissingMCPSecretError(MCPError):
    """An MCP server maps env vars to secrets the provider does not have, under the `error` policy."""

    def __init__(self, *, server_name: str, secret_names: Iterable[str]) -> None:
        self.server_name = server_name
        self.secret_names = tuple(secret_names)
        super().__init__(f"MCP server '{server_name}' is missing required secret(s): {', '.join(self.secret_names)}")
