"""B.4: the typed error hierarchy and its messages."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from turnwire.tools import (
    DuplicateToolNameError,
    GatewayToolResolutionError,
    InvalidToolSpecError,
    MCPConfigurationError,
    MCPError,
    MissingMCPSecretError,
    MissingToolSecretError,
    SecretProviderError,
    ToolConfigurationError,
    ToolError,
    ToolResolutionError,
    UnsupportedToolProviderError,
)
from turnwire.tools.errors import describe_validation_error


@pytest.mark.parametrize(
    ("cls", "parent"),
    [
        (ToolConfigurationError, ToolError),
        (InvalidToolSpecError, ToolError),
        (ToolResolutionError, ToolError),
        (GatewayToolResolutionError, ToolResolutionError),
        (UnsupportedToolProviderError, ToolResolutionError),
        (MissingToolSecretError, ToolResolutionError),
        (DuplicateToolNameError, ToolResolutionError),
        (SecretProviderError, ToolResolutionError),
        (MCPError, ToolError),
        (MCPConfigurationError, MCPError),
        (MissingMCPSecretError, MCPError),
    ],
)
def test_hierarchy(cls: type[Exception], parent: type[Exception]) -> None:
    assert issubclass(cls, parent)
    assert cls.__doc__, "one-line docstring saying when it happens"
    assert "\n" not in cls.__doc__.strip()


def test_messages_and_attributes() -> None:
    unsupported = UnsupportedToolProviderError("composio")
    assert (str(unsupported), unsupported.provider) == ("Unsupported tool provider: composio", "composio")
    missing = MissingToolSecretError(tool_name="fetch", secret_names=["A", "B"])
    assert str(missing) == "Tool 'fetch' is missing required secret(s): A, B"
    assert missing.secret_names == ("A", "B")
    assert missing.tool_name == "fetch"
    duplicate = DuplicateToolNameError("read")
    assert (str(duplicate), duplicate.name) == ("Duplicate tool name: read", "read")
    mcp = MissingMCPSecretError(server_name="github", secret_names=["gh"])
    assert str(mcp) == "MCP server 'github' is missing required secret(s): gh"
    assert mcp.secret_names == ("gh",)
    config = ToolConfigurationError("bad", index=2)
    assert (str(config), config.message, config.index) == ("tool configuration 2: bad", "bad", 2)
    assert str(MCPConfigurationError("bad", index=0)) == "MCP server configuration 0: bad"
    resolution = GatewayToolResolutionError("down", provider="composio", reference="tools.composio.g.a.c")
    assert (resolution.provider, resolution.reference) == ("composio", "tools.composio.g.a.c")


def test_validation_errors_are_described_without_input() -> None:
    class M(BaseModel):
        token: int

    with pytest.raises(ValidationError) as info:
        M.model_validate({"token": "hunter2-value"})
    text = describe_validation_error(info.value)
    assert text.startswith("token: Input should be a valid integer")
    assert "hunter2-value" not in text
    assert "hunter2-value" in str(info.value)  # what pydantic itself would have shown
